// SPDX-License-Identifier: GPL-2.0
/*
 * The system call tracepoints, fired for each wrapped call.
 *
 * A real system call passes raw_syscalls:sys_enter before its handler
 * and raw_syscalls:sys_exit after it, and everything that watches system
 * calls hangs off those two: perf trace, ftrace's syscalls:* events, BPF
 * programs on raw_syscalls or tp_btf, Falco, Tracee.  A wrapped call runs
 * its handler from inside the ioctl, past the entry code that fires them,
 * so without this file a watcher would see one ioctl and nothing of the
 * calls it ran.  The batch loop fires both tracepoints for each call that
 * runs a handler, with the registers it built for that call, so that a
 * watcher sees the call as if it had been made plainly, nested inside the
 * ioctl (Documentation/design.md, "Wrapped calls on the syscall
 * tracepoints").
 *
 * Nobody watching costs the loop one test of the flag the kernel itself
 * tests at every system call entry, SYSCALL_WORK_SYSCALL_TRACEPOINT: it
 * is set on every task while a probe is registered on either tracepoint
 * (syscall_regfunc()).  Only then does the loop come here.
 *
 * The tracepoints' probes are run through the tracepoint's iterator,
 * __traceiter_sys_enter() and __traceiter_sys_exit(), found by address in
 * the struct tracepoint (looked up by name at load, as kmod/trace.c looks
 * up its own), never through the
 * static call trampoline that trace_sys_enter() uses: the iterator is an
 * ordinary function whose address the kernel stores, so it keeps its
 * ENDBR64 on an IBT kernel, and it walks the probe array itself.  Each
 * iterator is checked at load as the handlers are (kmod/symbols.c).
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "wsc.h"
#include "policy.h"
#include "symbols.h"
#include "syscall_tp.h"

/* __traceiter_sys_enter() and __traceiter_sys_exit() have this type. */
typedef int (*wsc_tp_iter_t)(void *data, struct pt_regs *regs, long arg);

/**
 * struct wsc_syscall_tp - one of the two tracepoints, as the loop fires it
 * @tp:   the tracepoint, or NULL when the kernel lacks it
 * @iter: its iterator, or NULL when it cannot be called safely
 */
struct wsc_syscall_tp {
	struct tracepoint *tp;
	wsc_tp_iter_t iter;
};

static struct wsc_syscall_tp wsc_tp_enter __read_mostly;
static struct wsc_syscall_tp wsc_tp_exit __read_mostly;
/* Both iterators can be called: else nothing is fired, and calls refused. */
static bool wsc_tp_usable __read_mostly;

/*
 * Run the probes of @t as the kernel's own trace_sys_enter() and
 * trace_sys_exit() run them: under the guard of compat.h, which differs
 * before and since 6.13.
 */
static __always_inline void wsc_tp_run(const struct wsc_syscall_tp *t,
				       struct pt_regs *regs, long arg)
{
	wsc_syscall_tp_lock();
	t->iter(NULL, regs, arg);
	wsc_syscall_tp_unlock();
}

/* Is anyone attached to @t now?  The test trace_sys_enter() makes first. */
static __always_inline bool wsc_tp_attached(const struct wsc_syscall_tp *t)
{
	return t->tp && static_key_enabled(&t->tp->key);
}

/**
 * wsc_syscall_tp_enter() - fire sys_enter for a wrapped call
 * @regs: the registers the handler will be called with, arguments loaded
 * @nr:   the validated system call number
 *
 * Sets @regs as the entry code leaves them for the tracepoint: orig_ax
 * the number, ax -ENOSYS.  Whatever a probe writes into @regs is undone
 * by the caller, which loads the arguments again from its own copy.
 *
 * Return: true when the call may run; false when someone is attached but
 * this module cannot fire the tracepoint safely: the call must not run
 * unseen.
 */
bool wsc_syscall_tp_enter(struct pt_regs *regs, u32 nr)
{
	/*
	 * The caller saw SYSCALL_WORK_SYSCALL_TRACEPOINT: someone is
	 * attached to one of the two, or was a moment ago.  Firing one and
	 * not the other would show half a call; refuse it instead.
	 */
	if (unlikely(!wsc_tp_usable))
		return false;
	regs->orig_ax = nr;
	regs->ax = -ENOSYS;
	if (wsc_tp_attached(&wsc_tp_enter))
		wsc_tp_run(&wsc_tp_enter, regs, nr);
	return true;
}

/**
 * wsc_syscall_tp_exit() - fire sys_exit for a wrapped call
 * @regs: the registers the handler was called with
 * @nr:   the system call number it was called for
 * @ret:  what the handler returned, a restart code included (a real
 *        call's exit event shows it too, before the signal code acts)
 *
 * Fired for a call whose wsc_syscall_tp_enter() allowed it, and for one
 * that was running when a probe appeared: a plain call in flight gets its
 * exit event then too.  (Where the tracepoints cannot be fired, the probe's
 * arrival stops the batch before its next call instead.)
 */
void wsc_syscall_tp_exit(struct pt_regs *regs, u32 nr, long ret)
{
	if (unlikely(!wsc_tp_usable) || !wsc_tp_attached(&wsc_tp_exit))
		return;
	/* syscall_get_nr() and syscall_get_return_value() read these. */
	regs->orig_ax = nr;
	regs->ax = ret;
	wsc_tp_run(&wsc_tp_exit, regs, ret);
}

/*
 * Can the probes of @tp be run from here?  Its iterator must be callable
 * (ENDBR64 on an IBT kernel), and the kernel must protect the probes the
 * way this module was built to.
 */
static wsc_tp_iter_t wsc_tp_iterator(struct tracepoint *tp)
{
	unsigned long iter = (unsigned long)tp->iterator;

	if (!iter || !wsc_callable(tp->name, iter))
		return NULL;
#ifdef WSC_HAVE_FAULTABLE_SYSCALL_TP
	if (!tracepoint_is_faultable(tp)) {
		pr_err("%s is not faultable, as this module was built to expect\n",
		       tp->name);
		return NULL;
	}
#endif
	return (wsc_tp_iter_t)iter;
}

/* for_each_kernel_tracepoint()'s callback: keep raw_syscalls' two. */
static void wsc_syscall_tp_match(struct tracepoint *tp, void *unused)
{
	if (!strcmp(tp->name, "sys_enter"))
		wsc_tp_enter.tp = tp;
	else if (!strcmp(tp->name, "sys_exit"))
		wsc_tp_exit.tp = tp;
}

/**
 * wsc_syscall_tp_init() - find raw_syscalls:sys_enter and sys_exit, and
 * check that their probes can be run from the batch loop
 *
 * After wsc_symbols_init() (wsc_callable()), before /dev/wsc exists: a
 * batch must never run before it is known whether its calls can be shown
 * to a watcher.  Never fails the load: when an iterator cannot be called,
 * wrapped calls are refused while someone is attached to the syscall
 * tracepoints (wsc_syscall_tp_enter(), and wsc_observed_work through
 * wsc_policy_refuse_tracepoints()), and run as before while no one is.
 */
void wsc_syscall_tp_init(void)
{
	struct tracepoint *enter, *exit;

	for_each_kernel_tracepoint(wsc_syscall_tp_match, NULL);
	enter = wsc_tp_enter.tp;
	exit = wsc_tp_exit.tp;
	wsc_tp_enter.iter = enter ? wsc_tp_iterator(enter) : NULL;
	wsc_tp_exit.iter = exit ? wsc_tp_iterator(exit) : NULL;
	wsc_tp_usable = wsc_tp_enter.iter && wsc_tp_exit.iter;
	if (!wsc_tp_usable) {
		wsc_policy_refuse_tracepoints();
		pr_warn("the syscall tracepoints cannot be fired for wrapped calls: they are refused while one is attached\n");
	}
}
