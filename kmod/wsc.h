/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces between the files of wsc.ko.
 */
#ifndef _WSC_H
#define _WSC_H

#include <linux/errno.h>
#include <linux/types.h>
#include <linux/seq_file.h>
#include <asm/syscall.h>
#include <uapi/linux/wsc.h>

/* symbols.c: the running kernel's syscall table, found once at load. */
int wsc_symbols_init(void);
sys_call_ptr_t wsc_syscall_handler(unsigned int nr);
bool wsc_syscall_implemented(unsigned int nr);

/* calls.c: the allowlist. */

/**
 * struct wsc_call - one allowlisted system call
 * @nr:    x86-64 system call number, or WSC_NR_NOP
 * @name:  name as in the syscall table, without the sys_ prefix
 * @group: enum wsc_group
 * @flags: WSC_CALL_* flags
 */
struct wsc_call {
	unsigned int nr;
	const char *name;
	u8 group;
	u8 flags;
};

/*
 * What the batch loop needs per system call number, packed so that one
 * cache line covers four numbers.  @fn is NULL for a number that is not
 * allowed; @slot is the row in wsc_calls[] and in the statistics.
 */
struct wsc_dispatch {
	sys_call_ptr_t fn;
	u16 slot;
};

#define WSC_SLOT_NOP		0

extern const struct wsc_call wsc_calls[];
extern const unsigned int wsc_nr_calls;
extern struct wsc_dispatch wsc_dispatch[NR_syscalls];

int wsc_calls_init(void);
const char *wsc_group_name(unsigned int group);

/* stats.c: per-CPU counts and latency of wrapped calls. */

/**
 * struct wsc_call_stats - what one CPU saw of one allowlisted call
 * @calls:    entries run (cancelled ones are not counted)
 * @errors:   entries whose result was a failure
 * @timed:    calls timed (only batches with WSC_SUBMIT_TIMING are)
 * @total_ns: sum of the timed durations
 * @max_ns:   longest timed duration
 */
struct wsc_call_stats {
	u64 calls;
	u64 errors;
	u64 timed;
	u64 total_ns;
	u64 max_ns;
};

/**
 * struct wsc_stats - one CPU's statistics
 * @batches: submissions run
 * @call:    one row per allowlisted call, indexed like wsc_calls[]
 */
struct wsc_stats {
	u64 batches;
	struct wsc_call_stats call[];
};

extern struct wsc_stats __percpu *wsc_stats;

int wsc_stats_init(void);
void wsc_stats_exit(void);
void wsc_stats_sum_call(unsigned int slot, struct wsc_call_stats *sum);
u64 wsc_stats_sum_batches(void);

/* batch.c: validate and run one submission. */

/**
 * struct wsc_batch - a submission copied into the kernel
 * @ent:   the entries, copied in once
 * @res:   the results, copied out once
 * @regs:  the registers handlers are called with; only the argument
 *         registers are ever written, the rest stay zero
 * @count: entries in @ent
 * @flags: WSC_SUBMIT_* flags
 */
struct wsc_batch {
	struct wsc_entry *ent;
	struct wsc_result *res;
	struct pt_regs *regs;
	u32 count;
	u32 flags;
};

int wsc_batch_copy_in(struct wsc_batch *b, const struct wsc_entry __user *uent,
		      u32 *error_index);
long wsc_batch_run(struct wsc_batch *b);

/*
 * The kernel's internal restart codes, which its signal code turns into a
 * restart or -EINTR on the way out of a system call.  They never reach
 * userspace in a result.
 */
static __always_inline bool wsc_is_restart(long ret)
{
	return ret == -ERESTARTSYS || ret == -ERESTARTNOINTR ||
	       ret == -ERESTARTNOHAND || ret == -ERESTART_RESTARTBLOCK;
}
int wsc_batch_copy_out(const struct wsc_batch *b,
		       struct wsc_result __user *ures, u32 done);

/* device.c: /dev/wsc. */
int wsc_device_init(void);
void wsc_device_exit(void);

/* proc.c: /proc/syscall_lat. */
int wsc_proc_init(void);
void wsc_proc_exit(void);

#endif /* _WSC_H */
