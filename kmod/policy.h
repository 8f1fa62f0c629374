/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who may run a batch wrapped, and when its calls must run as plain
 * system calls instead: the checks the submission path makes, inline
 * where they are one load each.  Documentation/security.md has the table
 * of observers and why each is here.
 */
#ifndef _WSC_POLICY_H
#define _WSC_POLICY_H

#include <linux/audit.h>
#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <linux/thread_info.h>
#include <uapi/linux/wsc.h>

/*
 * The ptrace and dispatch states the kernel keeps as syscall work: a
 * tracer stopping the task at system-call entry or exit (PTRACE_SYSCALL,
 * PTRACE_SYSEMU, syscall single-step) and syscall user dispatch.  Each
 * acts on the real entry frame, one stop or one SIGSYS per system call,
 * which a batch does not pass through per call.
 */
#define WSC_OBSERVED_PTRACE_WORK	(SYSCALL_WORK_SYSCALL_TRACE |	\
					 SYSCALL_WORK_SYSCALL_EMU |	\
					 SYSCALL_WORK_SYSCALL_EXIT_TRAP)

extern int wsc_param_disabled;
extern unsigned long wsc_observed_work;

u32 wsc_refusal_slow(void);
void wsc_policy_refuse_tracepoints(void);

/*
 * wsc_audited(): audit is on, this task has an audit context, and rules
 * were loaded when the ioctl entered (audit_dummy_context() false): what
 * makes the kernel build records for a system call.  With audit off the
 * entry path leaves the context's flag as it was, so the flag alone could
 * refuse a task nobody audits.  Rules loaded during a batch apply from
 * the next submission, as they would to a call in flight.
 */
static __always_inline bool wsc_audited(void)
{
#ifdef CONFIG_AUDITSYSCALL
	/* The global first: with audit off, no load through the context. */
	return READ_ONCE(audit_enabled) && !audit_dummy_context();
#else
	/* No system-call auditing built in (the debug kernel's config). */
	return false;
#endif
}

/*
 * What can appear between two calls of a batch, @work being the task's
 * syscall work bits as just read: a seccomp filter another thread
 * synchronised onto this one, a tracer that attached.  (Audit cannot: the
 * ioctl's context was decided when it entered.)
 */
static __always_inline bool wsc_observed_now(unsigned long work)
{
	return READ_ONCE(current->seccomp.mode) != SECCOMP_MODE_DISABLED ||
	       (work & wsc_observed_work);
}

/*
 * True when something watches the calling thread's system calls one by
 * one in a way a wrapped call would slip past: a seccomp filter sees only
 * the ioctl; an audit context with rules loaded would record only the
 * ioctl and would keep every path the batch looked up until it ends (not
 * charged to any memory cgroup); a tracer would stop only at it.  The
 * syscall tracepoints are not among them: kmod/syscall_tp.c fires them
 * for each wrapped call, unless this kernel's could not be checked at
 * load, and then wsc_observed_work has SYSCALL_WORK_SYSCALL_TRACEPOINT.
 */
static __always_inline bool wsc_observed(void)
{
	unsigned long work = READ_ONCE(current_thread_info()->syscall_work);

	return wsc_observed_now(work) || wsc_audited();
}

/**
 * wsc_refused() - must the calling thread's batch run as plain calls?
 *
 * The administrator's switch (the module parameters disabled and group)
 * and every observer of wsc_observed().  One load per condition when
 * nothing applies; the reasons are worked out only for a refusal.
 *
 * Return: 0 when the batch may run wrapped, else the enum wsc_refusal
 * reasons.
 */
static __always_inline u32 wsc_refused(void)
{
	if (likely(!READ_ONCE(wsc_param_disabled) && !wsc_observed()))
		return 0;
	return wsc_refusal_slow();
}

#endif /* _WSC_POLICY_H */
