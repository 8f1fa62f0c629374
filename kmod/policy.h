/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who may run a batch wrapped, and when its calls must run as plain
 * system calls instead.
 *
 * Every decision is taken twice: when a batch is submitted
 * (wsc_refused()), and again before each of its calls after the first
 * (wsc_policy_changed()), because a batch can block in one of its calls
 * and outlive any decision taken when it entered.  Both are inline and
 * cost one load per condition when nothing applies.
 * Documentation/security.md has the table of observers and why each is
 * here.
 */
#ifndef _WSC_POLICY_H
#define _WSC_POLICY_H

#include <linux/audit.h>
#include <linux/compiler.h>
#include <linux/sched.h>
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
extern unsigned int wsc_policy_gen;
extern unsigned long wsc_observed_work;

u32 wsc_refusal_slow(void);
void wsc_policy_refuse_tracepoints(void);
/* WSC_IOC_POLICY: the switch and this caller's refusal, for libwsc. */
long wsc_ioctl_policy(void __user *argp);

/* The calling thread's syscall work bits, as the entry code reads them. */
static __always_inline unsigned long wsc_syscall_work(void)
{
	return READ_ONCE(current_thread_info()->syscall_work);
}

/*
 * wsc_audit_on(): would audit follow a plain system call this thread
 * made now?  @work are its syscall work bits: SYSCALL_WORK_SYSCALL_AUDIT
 * is set exactly on the tasks that have an audit context (audit_alloc(),
 * at fork, for every task once audit was ever enabled, bar the ones a
 * "task,never" rule exempts), and never changes while the task runs.
 *
 * The rule does not look at whether rules are loaded.  The kernel keeps
 * that count (audit_n_rules) to itself, and the ioctl's own context holds
 * only what it was when the ioctl entered: a batch let in during the
 * moment `auditctl -R` has deleted the rules and not yet loaded the new
 * ones would run calls that the rules of the next moment record.  So an
 * audited task is refused whenever audit is enabled, rules or not, as of
 * now: audit_enabled is read before every call.  The cost, on a host
 * where auditd runs, is that every batch runs plain
 * (Documentation/security.md, "Audit").
 *
 * One case is left: audit switched off between the ioctl's entry (rules
 * loaded, its context live) and the submission's check.  The batch runs,
 * and its path lookups add their names to the ioctl's record until it
 * ends.  Only the administrator's `auditctl -e 0` at that instant makes
 * it, and audit_dummy_context() cannot tell it from a context that never
 * entered a system call with audit on (its flag starts false).
 */
static __always_inline bool wsc_audit_on(unsigned long work)
{
#ifdef CONFIG_AUDITSYSCALL
	return unlikely(work & SYSCALL_WORK_SYSCALL_AUDIT) &&
	       READ_ONCE(audit_enabled);
#else
	/* No system-call auditing built in (the debug kernel's config). */
	return false;
#endif
}

/**
 * wsc_policy_snapshot() - the administrator's switch, as of now
 *
 * Read before the switch itself is (wsc_refused()), paired with the
 * barrier in the parameters' setters: a change that the submission's
 * checks did not see shows as a different generation before the next
 * call.
 *
 * Return: the generation to hand to wsc_policy_changed().
 */
static __always_inline unsigned int wsc_policy_snapshot(void)
{
	unsigned int gen = READ_ONCE(wsc_policy_gen);

	/* The generation before the value: pairs with wsc_policy_bump(). */
	smp_rmb();
	return gen;
}

/**
 * wsc_policy_changed() - must the batch stop before its next call?
 * @gen:  wsc_policy_snapshot() at submission
 * @work: the thread's syscall work bits, just read
 *
 * Something the submission's checks would now refuse: a seccomp filter
 * another thread synchronised onto this one (SECCOMP_FILTER_FLAG_TSYNC
 * sets SYSCALL_WORK_SECCOMP with the mode), a tracer that attached, audit
 * switched on, or any write to the module parameters disabled and group
 * (the resubmission decides again; a write that changes nothing costs one
 * resubmission).
 *
 * Return: true when the batch must stop; the resubmission is then refused
 * and libwsc runs the rest plain.
 */
static __always_inline bool wsc_policy_changed(unsigned int gen,
					       unsigned long work)
{
	return (work & wsc_observed_work) || wsc_audit_on(work) ||
	       READ_ONCE(wsc_policy_gen) != gen;
}

/**
 * wsc_refused() - must the calling thread's batch run as plain calls?
 *
 * The administrator's switch (the module parameters disabled and group)
 * and every observer that follows system calls one by one in a way a
 * wrapped call would slip past: a seccomp filter sees only the ioctl; a
 * tracer would stop only at it; audit would record only it
 * (wsc_audit_on()).  The syscall tracepoints are not among them:
 * kmod/syscall_tp.c fires them for each wrapped call, unless this
 * kernel's could not be checked at load, and then wsc_observed_work has
 * SYSCALL_WORK_SYSCALL_TRACEPOINT.
 *
 * One load per condition when nothing applies; the reasons are worked out
 * only for a refusal.
 *
 * Return: 0 when the batch may run wrapped, else the enum wsc_refusal
 * reasons.
 */
static __always_inline u32 wsc_refused(void)
{
	unsigned long work = wsc_syscall_work();

	if (likely(!READ_ONCE(wsc_param_disabled) &&
		   !(work & (wsc_observed_work | SYSCALL_WORK_SYSCALL_AUDIT))))
		return 0;
	return wsc_refusal_slow();
}

#endif /* _WSC_POLICY_H */
