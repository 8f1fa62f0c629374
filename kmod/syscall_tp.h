/* SPDX-License-Identifier: GPL-2.0 */
/*
 * syscall_tp.c: raw_syscalls:sys_enter and sys_exit fired for each
 * wrapped call, while someone is attached to them.
 */
#ifndef _WSC_SYSCALL_TP_H
#define _WSC_SYSCALL_TP_H

#include <linux/thread_info.h>
#include <linux/types.h>

struct pt_regs;

void wsc_syscall_tp_init(void);
bool wsc_syscall_tp_enter(struct pt_regs *regs, u32 nr);
void wsc_syscall_tp_exit(struct pt_regs *regs, u32 nr, long ret);

/*
 * Is anyone attached to the syscall tracepoints?  The flag the kernel's
 * own entry code tests (syscall_regfunc() sets it on every task), in
 * @work, the task's syscall work bits the batch loop read once for this
 * and for wsc_policy_changed(): a batch pays what a system call pays.
 */
static __always_inline bool wsc_syscall_tp_watched(unsigned long work)
{
	return work & SYSCALL_WORK_SYSCALL_TRACEPOINT;
}

#endif /* _WSC_SYSCALL_TP_H */
