// SPDX-License-Identifier: GPL-2.0
/*
 * The administrator's switch and the refusal's reasons.
 *
 * Two module parameters, root-only and changeable at run time through
 * /sys/module/wsc/parameters/, shaped after io_uring's
 * kernel.io_uring_disabled and kernel.io_uring_group (6.6):
 *
 *   disabled  0  every user may run batches wrapped (the default)
 *             1  only CAP_SYS_ADMIN and members of @group
 *             2  nobody
 *   group     a GID of the initial user namespace, or -1 (none)
 *
 * A caller they refuse is not locked out of anything: libwsc runs its
 * batches as plain system calls.  The same holds for a caller an observer
 * watches call by call (kmod/policy.h).
 *
 * A write to either parameter takes effect at once, for batches already
 * running too: it bumps wsc_policy_gen, and a batch whose submission saw
 * another generation stops before its next call (wsc_policy_changed()).
 */
#include <linux/kernel.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/moduleparam.h>
#include <linux/seccomp.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "wsc.h"
#include "policy.h"

int wsc_param_disabled;
/* Bumped by every write to disabled or group, after the value is stored. */
unsigned int wsc_policy_gen;
/*
 * The syscall work bits that refuse a caller (kmod/policy.h).  A seccomp
 * mode always comes with SYSCALL_WORK_SECCOMP (seccomp_assign_mode()), so
 * the one word read covers the filter too.
 */
unsigned long wsc_observed_work __read_mostly =
	SYSCALL_WORK_SECCOMP | WSC_OBSERVED_PTRACE_WORK |
	SYSCALL_WORK_SYSCALL_USER_DISPATCH;

/*
 * A parameter was just stored: make running batches look again.  The
 * barrier pairs with the one in wsc_policy_snapshot(): a batch that reads
 * the new generation reads the new value too.
 */
static void wsc_policy_bump(void)
{
	/* The value before the generation: pairs with wsc_policy_snapshot(). */
	smp_wmb();
	WRITE_ONCE(wsc_policy_gen, READ_ONCE(wsc_policy_gen) + 1);
}

/**
 * wsc_policy_refuse_tracepoints() - refuse callers while a syscall
 *				     tracepoint has a probe
 *
 * For a kernel whose syscall tracepoints wsc cannot fire (kmod/syscall_tp.c
 * found no iterator it may call): a wrapped call would then hide from
 * their probes, so a probe anywhere makes batches run as plain calls.
 * Called at load, before /dev/wsc exists.
 */
void wsc_policy_refuse_tracepoints(void)
{
	wsc_observed_work |= SYSCALL_WORK_SYSCALL_TRACEPOINT;
}
/* Read without a lock: a GID is one word, and any value is a whole one. */
static kgid_t wsc_param_group = INVALID_GID;

static int wsc_param_disabled_set(const char *val,
				  const struct kernel_param *kp)
{
	int v, ret;

	ret = kstrtoint(val, 0, &v);
	if (ret)
		return ret;
	if (v < WSC_DISABLED_NONE || v > WSC_DISABLED_ALL)
		return -EINVAL;
	WRITE_ONCE(wsc_param_disabled, v);
	wsc_policy_bump();
	return 0;
}

static const struct kernel_param_ops wsc_param_disabled_ops = {
	.set	= wsc_param_disabled_set,
	.get	= param_get_int,
};
module_param_cb(disabled, &wsc_param_disabled_ops, &wsc_param_disabled, 0644);
MODULE_PARM_DESC(disabled,
		 "0: everyone may run batches wrapped; 1: only CAP_SYS_ADMIN and members of group; 2: nobody (refused batches run as plain calls)");

static int wsc_param_group_set(const char *val, const struct kernel_param *kp)
{
	kgid_t gid;
	int v, ret;

	ret = kstrtoint(val, 0, &v);
	if (ret)
		return ret;
	if (v == -1) {
		gid = INVALID_GID;
	} else {
		if (v < 0)
			return -EINVAL;
		gid = make_kgid(&init_user_ns, v);
		if (!gid_valid(gid))
			return -EINVAL;
	}
	WRITE_ONCE(wsc_param_group, gid);
	wsc_policy_bump();
	return 0;
}

static int wsc_param_group_get(char *buf, const struct kernel_param *kp)
{
	kgid_t gid = READ_ONCE(wsc_param_group);

	if (!gid_valid(gid))
		return sysfs_emit(buf, "-1\n");
	return sysfs_emit(buf, "%u\n", from_kgid(&init_user_ns, gid));
}

static const struct kernel_param_ops wsc_param_group_ops = {
	.set	= wsc_param_group_set,
	.get	= wsc_param_group_get,
};
module_param_cb(group, &wsc_param_group_ops, NULL, 0644);
MODULE_PARM_DESC(group,
		 "with disabled=1, the GID whose members may run batches wrapped (-1: none)");

/*
 * With disabled=1: the group's members and CAP_SYS_ADMIN.  noaudit: asking
 * is not a use of the capability, and a refusal must not log a denial at
 * every batch (the batch runs anyway, as plain calls).
 */
static bool wsc_may_use(void)
{
	kgid_t gid = READ_ONCE(wsc_param_group);

	if (gid_valid(gid) && in_group_p(gid))
		return true;
	return ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
}

/**
 * wsc_refusal_slow() - every reason the calling thread is refused now
 *
 * The out-of-line part of wsc_refused(), and WSC_IOC_POLICY's answer.
 *
 * Return: enum wsc_refusal bits, 0 when none applies.
 */
u32 wsc_refusal_slow(void)
{
	unsigned long work = wsc_syscall_work();
	int disabled = READ_ONCE(wsc_param_disabled);
	u32 why = 0;

	if (disabled == WSC_DISABLED_ALL ||
	    (disabled == WSC_DISABLED_GROUP && !wsc_may_use()))
		why |= WSC_REFUSED_DISABLED;
	if (READ_ONCE(current->seccomp.mode) != SECCOMP_MODE_DISABLED)
		why |= WSC_REFUSED_SECCOMP;
	if (wsc_audit_on(work))
		why |= WSC_REFUSED_AUDIT;
	if (work & WSC_OBSERVED_PTRACE_WORK)
		why |= WSC_REFUSED_PTRACE;
	if (work & SYSCALL_WORK_SYSCALL_USER_DISPATCH)
		why |= WSC_REFUSED_USER_DISPATCH;
	if (work & wsc_observed_work & SYSCALL_WORK_SYSCALL_TRACEPOINT)
		why |= WSC_REFUSED_TRACEPOINT;
	return why;
}

/**
 * wsc_ioctl_policy() - WSC_IOC_POLICY
 * @argp: the caller's struct wsc_policy
 *
 * Return: 0 or -EFAULT.
 */
long wsc_ioctl_policy(void __user *argp)
{
	kgid_t gid = READ_ONCE(wsc_param_group);
	struct wsc_policy p = {
		.refused	= wsc_refusal_slow(),
		.disabled	= READ_ONCE(wsc_param_disabled),
		.group		= gid_valid(gid) ?
				  from_kgid(&init_user_ns, gid) : WSC_NO_GROUP,
	};

	return copy_to_user(argp, &p, sizeof(p)) ? -EFAULT : 0;
}
