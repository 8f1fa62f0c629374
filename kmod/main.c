// SPDX-License-Identifier: GPL-2.0
/*
 * wsc: wrapped system calls and a latency lab.
 *
 * Module load and unload only; each concern lives in its own area, with
 * a header for a face (kmod/wsc.h lists them).
 *
 * The order is the layering's, from the ground up, and it matters:
 *
 *  - symbols, then dispatch: the dispatch table takes the handlers that
 *    symbols.c found (and checked callable) for the allowlist;
 *  - syscall_tp: finds raw_syscalls' two tracepoints and checks that the
 *    batch loop can fire them (symbols.c's wsc_callable() on their
 *    iterators); where it cannot, it tells policy.c to refuse a batch
 *    while anyone watches them.  That must be settled before any batch
 *    can run, so before /dev/wsc exists; the batch path does not need
 *    the trace, so this does not wait for it (nor fail with it);
 *  - the trace, before the netlink family, whose commands start traces;
 *  - the lab and /proc/syscall_lat, which read the lab, the trace and
 *    the statistics;
 *  - submit, then device last: /dev/wsc is the door to everything above,
 *    opened when all of it is ready.
 *
 * Unloading goes the other way round.
 */
#include <linux/kernel.h>
#include <linux/module.h>

#include "wsc.h"
#include "calls.h"
#include "device.h"
#include "dispatch.h"
#include "genl_family.h"
#include "lab.h"
#include "proc.h"
#include "stats.h"
#include "submit.h"
#include "symbols.h"
#include "syscall_tp.h"
#include "trace.h"

static int __init wsc_init(void)
{
	int ret;

	ret = wsc_symbols_init();
	if (ret)
		return ret;
	ret = wsc_dispatch_init();
	if (ret)
		return ret;
	ret = wsc_stats_init();
	if (ret)
		return ret;
	/* Before the trace and /dev/wsc: see above.  Never fails. */
	wsc_syscall_tp_init();
	ret = wsc_trace_init();
	if (ret)
		goto err_stats;
	ret = wsc_genl_init();
	if (ret)
		goto err_trace;
	ret = wsc_lab_init();
	if (ret)
		goto err_genl;
	ret = wsc_proc_init();
	if (ret)
		goto err_lab;
	ret = wsc_submit_init();
	if (ret)
		goto err_proc;
	ret = wsc_device_init();
	if (ret)
		goto err_submit;

	pr_info("loaded: ABI %u, %u calls allowed, up to %u per batch\n",
		WSC_ABI_VERSION, wsc_nr_calls - 1, WSC_MAX_ENTRIES);
	/* Printed by the debug build only (DEBUG, see kmod/Kbuild). */
	pr_debug("debug build: internal checks (WSC_DEBUG_ON) are on\n");
	return 0;

err_submit:
	wsc_submit_exit();
err_proc:
	wsc_proc_exit();
err_lab:
	wsc_lab_exit();
err_genl:
	wsc_genl_exit();
err_trace:
	wsc_trace_exit();
err_stats:
	wsc_stats_exit();
	return ret;
}

static void __exit wsc_exit(void)
{
	wsc_device_exit();
	/* No open file is left: the module could not be unloaded with one. */
	wsc_submit_exit();
	wsc_proc_exit();
	/* Stops a run in progress, so that its RUN command can return. */
	wsc_lab_exit();
	wsc_genl_exit();
	/* After the family: no request can start a trace again. */
	wsc_trace_exit();
	wsc_stats_exit();
}

module_init(wsc_init);
module_exit(wsc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Wrapped system calls: a batch of system calls in one kernel entry");
MODULE_VERSION(WSC_VERSION);
