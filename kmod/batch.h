/* SPDX-License-Identifier: GPL-2.0 */
/* batch.c: validate and run one submission, copy its results out. */
#ifndef _WSC_BATCH_H
#define _WSC_BATCH_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <uapi/linux/wsc.h>

struct pt_regs;

/**
 * struct wsc_submission - a submission copied into the kernel
 * @ent:   the entries, copied in once
 * @res:   the results, copied out once
 * @regs:  the registers handlers are called with: the argument
 *         registers, orig_ax and ax set for each call; under them zeros,
 *         or, once a syscall tracepoint's probe is to see them, the
 *         ioctl's own user frame (kmod/batch.c, wsc_regs_frame())
 * @count: entries in @ent
 * @flags: WSC_SUBMIT_* flags
 * @policy_gen: wsc_policy_snapshot() before the submission was checked
 */
struct wsc_submission {
	struct wsc_entry *ent;
	struct wsc_result *res;
	struct pt_regs *regs;
	u32 count;
	u32 flags;
	unsigned int policy_gen;
};

int wsc_batch_validate(const struct wsc_submission *b, u32 *error_index);
long wsc_batch_run(struct wsc_submission *b);
int wsc_batch_copy_out(const struct wsc_submission *b,
		       struct wsc_result __user *ures, u32 done);

#endif /* _WSC_BATCH_H */
