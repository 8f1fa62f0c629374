/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels wsc supports, in one place.
 *
 * The rest of the module reads as if there were one kernel: it uses the
 * names below, and none of it tests a version.  Where an interface
 * changed shape, kmod/Kbuild looks at the kernel's own headers at build
 * time and says what it found as a WSC_HAVE_* define; a version number
 * appears only in the guards that refuse what is not supported.
 *
 * Supported and tested (README's table): x86-64, Debian 12's 6.1, 6.12
 * and 6.12 PREEMPT_RT, and the newest 7.x of Debian's trixie-backports.
 */
#ifndef _WSC_COMPAT_H
#define _WSC_COMPAT_H

#include <linux/version.h>
#include <linux/preempt.h>
/* 7.x's rcupdate_trace.h uses SRCU's declarations without including them. */
#include <linux/srcu.h>
#include <linux/rcupdate_trace.h>
#include <linux/uaccess.h>
#include <net/genetlink.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "wsc supports Linux 6.1 and later"
#endif
#ifndef CONFIG_X86_64
#error "wsc supports x86-64 only: its allowlist and its pt_regs are x86-64's"
#endif
#ifndef CONFIG_KPROBES
#error "wsc finds the system call handlers with kprobes: CONFIG_KPROBES is needed"
#endif
#ifndef CONFIG_TRACEPOINTS
#error "wsc trace needs CONFIG_TRACEPOINTS"
#endif

/**
 * wsc_genl_dump_attrs() - the parsed attributes of a generic netlink dump
 * @cb: the dump's callback
 *
 * Since 6.6 a dump's attributes live in the struct genl_info inside the
 * dump's info (commit 7288dd2fd488), reached with genl_info_dump();
 * before, in struct genl_dumpit_info itself.
 */
static inline struct nlattr **wsc_genl_dump_attrs(struct netlink_callback *cb)
{
#ifdef WSC_HAVE_GENL_INFO_DUMP
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * The sched_process_exit tracepoint gained a second argument after 6.12,
 * whether the whole thread group is dead (7.x has it).  A probe's
 * prototype must match the tracepoint's, or a kCFI kernel traps the call:
 * WSC_EXIT_PROBE_ARGS is the list after the probe's data.
 */
#ifdef WSC_HAVE_EXIT_GROUP_DEAD
#define WSC_EXIT_PROBE_ARGS	struct task_struct *p, bool group_dead
#else
#define WSC_EXIT_PROBE_ARGS	struct task_struct *p
#endif

/*
 * io_uring's tracepoints (kmod/trace_ring.c).  A request's submission is
 * io_uring_submit_sqe(req, force_nonblock) up to 6.1 and
 * io_uring_submit_req(req) from 6.2 on; its completion passes the CQE's
 * fields one by one up to 6.x and the CQE itself in 7.x.  The probes'
 * prototypes must match the tracepoints' (kCFI), so the feature tests of
 * Kbuild pick them.  The opcode is struct io_kiocb's on every kernel.
 */
#ifdef WSC_HAVE_IO_URING_SUBMIT_REQ
#define WSC_RING_SUBMIT_TP		"io_uring_submit_req"
#define WSC_RING_SUBMIT_PROBE_ARGS	struct io_kiocb *req
#else
#define WSC_RING_SUBMIT_TP		"io_uring_submit_sqe"
#define WSC_RING_SUBMIT_PROBE_ARGS	struct io_kiocb *req, bool force_nonblock
#endif

/*
 * How the probes of raw_syscalls:sys_enter and sys_exit are protected
 * while they run, exactly as the kernel's own trace_sys_enter() does it
 * (include/linux/tracepoint.h):
 *
 *  - up to 6.12, __DO_TRACE(): preemption disabled around the probes, an
 *    RCU-sched read side that tracepoint_synchronize_unregister() waits
 *    for (6.1 and 6.12, PREEMPT_RT included: a preempt_disable() there is
 *    still one);
 *  - since 6.13 the two are "faultable" (__DECLARE_TRACE_SYSCALL()): the
 *    probes run preemptible, under a tasks-trace RCU read lock
 *    (guard(rcu_tasks_trace) on 7.x), so that they may fault in user
 *    memory and sleep; might_fault() says so first, as the kernel does.
 *
 * kmod/Kbuild sets WSC_HAVE_FAULTABLE_SYSCALL_TP from the header, and
 * kmod/syscall_tp.c checks the running kernel's tracepoint agrees.
 */
#ifdef WSC_HAVE_FAULTABLE_SYSCALL_TP
static __always_inline void wsc_syscall_tp_lock(void)
{
	might_fault();
	rcu_read_lock_trace();
}

static __always_inline void wsc_syscall_tp_unlock(void)
{
	rcu_read_unlock_trace();
}
#else
static __always_inline void wsc_syscall_tp_lock(void)
{
	preempt_disable_notrace();
}

static __always_inline void wsc_syscall_tp_unlock(void)
{
	preempt_enable_notrace();
}
#endif

/*
 * On PREEMPT_RT a spinlock_t is a sleeping lock (an rt_mutex): it must be
 * taken with interrupts and preemption enabled, and may block.  The lab's
 * spinlock experiments then measure it as the mutex experiment measures a
 * mutex, and say so.
 */
#define WSC_SPINLOCK_SLEEPS	IS_ENABLED(CONFIG_PREEMPT_RT)

#endif /* _WSC_COMPAT_H */
