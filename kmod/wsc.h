/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every area of wsc.ko shares, and nothing more.
 *
 * The module is built of areas, each a file or two with a header that is
 * its face (Documentation/design.md, "The module's files"):
 *
 *   symbols.h calls.h dispatch.h stats.h policy.h syscall_tp.h   (ground)
 *   batch.h submit.h device.h                             (the batch path)
 *   lab.h trace.h genl_family.h proc.h            (the lab and the trace)
 *
 * An area of two files keeps what only they share in a private header,
 * which no other area includes: lab_internal.h, trace_internal.h, and
 * genl.h (the netlink family's).  A file includes the faces of the areas
 * it uses, this header, and nothing else of the module; no two files use
 * each other, and tools/check-layers (make layers) checks both.
 *
 * Names say which side they live on: no name of the module's is also one
 * of libwsc's (user/include/libwsc.h, user/lib), though both speak of
 * batches, traces and the lab.  Where the two sides have the same thing,
 * the module names its own side of it: the submission it copied in
 * (struct wsc_submission; libwsc's struct wsc_batch is the caller's), the
 * trace session it keeps (struct wsc_trace_session, started, stopped and
 * reset by wsc_trace_session_*(); libwsc's struct wsc_trace is a handle
 * on one), a session's request, report and per-task records, and the
 * area's name on its functions (wsc_lab_run(), wsc_calls_group_name()).
 * tools/check-layers refuses a function or a struct, union or enum tag
 * that both sides define.  The uapi header's names are shared on purpose.
 */
#ifndef _WSC_H
#define _WSC_H

#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/types.h>
#include <uapi/linux/wsc.h>

#include "compat.h"

/*
 * WSC_DEBUG_ON(cond): an invariant the code around it establishes, checked
 * only by the debug build (`make module-debug`, which sets
 * CONFIG_WSC_DEBUG, see kmod/Kbuild).  There a broken one warns once with
 * a backtrace, which tools/vm-run reports as a failed run, and the macro's
 * value is the condition's.  The normal build compiles the check out and the macro is
 * false, so the batch loop and the trace's probes pay nothing for it; the
 * condition is still type-checked.
 */
#ifdef WSC_DEBUG
#define WSC_DEBUG_ON(cond)	WARN_ON_ONCE(cond)
#else
#define WSC_DEBUG_ON(cond)	({ BUILD_BUG_ON_INVALID(cond); false; })
#endif

/*
 * The kernel's internal restart codes, which its signal code turns into a
 * restart or -EINTR on the way out of a system call.  They never reach
 * userspace in a result, nor in a netlink reply.
 */
static __always_inline bool wsc_is_restart(long ret)
{
	return ret == -ERESTARTSYS || ret == -ERESTARTNOINTR ||
	       ret == -ERESTARTNOHAND || ret == -ERESTART_RESTARTBLOCK;
}

#endif /* _WSC_H */
