// SPDX-License-Identifier: GPL-2.0
/*
 * Validating and running one batch of wrapped system calls.
 *
 * The batch has already been copied into kernel memory once; it is
 * validated whole before the first call runs, so that a malformed batch
 * has no side effect (Documentation/abi.md, "What happens, in order").
 * Then each entry runs through the kernel's own handler, as the system
 * call itself would, with a struct pt_regs built from its arguments.
 * Results stay in kernel memory until the caller copies them out once.
 *
 * The per-entry path is the product: no allocation, no lock, and no clock
 * read unless the submission asked for timing.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/nospec.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/spinlock.h>
#include <linux/task_work.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "wsc.h"
#include "batch.h"
#include "calls.h"
#include "dispatch.h"
#include "policy.h"
#include "stats.h"
#include "syscall_tp.h"

#define WSC_ALL_ARGS_MASK	((1u << WSC_MAX_ARGS) - 1)

/* Where argument k of the x86-64 convention lives in struct pt_regs. */
static const unsigned short wsc_arg_offset[WSC_MAX_ARGS] = {
	offsetof(struct pt_regs, di),
	offsetof(struct pt_regs, si),
	offsetof(struct pt_regs, dx),
	offsetof(struct pt_regs, r10),
	offsetof(struct pt_regs, r8),
	offsetof(struct pt_regs, r9),
};

/* A result is a failure as for any system call: -MAX_ERRNO..-1. */
static __always_inline bool wsc_failed(s64 ret)
{
	return IS_ERR_VALUE((unsigned long)ret);
}

static __always_inline bool wsc_nr_allowed(u32 nr)
{
	if (nr == WSC_NR_NOP)
		return true;
	if (nr >= NR_syscalls)
		return false;
	nr = array_index_nospec(nr, NR_syscalls);
	return wsc_dispatch[nr].fn != NULL;
}

/*
 * The first word of an entry as the copy loop reads it: nr in bits 0-31,
 * flags in 32-47, ref_mask in 48-55, reserved in 56-63 (x86-64 is little
 * endian).  Checking flags, ref_mask and reserved is then one mask.
 */
#define WSC_HDR_NR_MASK		0xffffffffull
#define WSC_HDR_ALLOWED		(WSC_HDR_NR_MASK |				\
				 (u64)WSC_ENTRY_ALL_FLAGS << 32 |		\
				 (u64)WSC_ALL_ARGS_MASK << 48)
static_assert(offsetof(struct wsc_entry, flags) == 4);
static_assert(offsetof(struct wsc_entry, ref_mask) == 6);
static_assert(offsetof(struct wsc_entry, reserved) == 7);
/* The copy-in (kmod/submit.c) moves an entry as seven words. */
static_assert(sizeof(struct wsc_entry) == 7 * sizeof(u64));

static __always_inline int wsc_entry_validate(const struct wsc_entry *e,
					      u64 hdr, u32 index)
{
	u8 ref_mask = hdr >> 48;
	unsigned int k;

	if (unlikely(hdr & ~WSC_HDR_ALLOWED))
		return -EINVAL;
	if (unlikely(!wsc_nr_allowed(hdr & WSC_HDR_NR_MASK)))
		return -ENOSYS;
	if (likely(!ref_mask))
		return 0;
	for (k = 0; k < WSC_MAX_ARGS; k++) {
		if ((ref_mask & (1u << k)) && e->args[k] >= index)
			return -EINVAL;
	}
	return 0;
}

/**
 * wsc_batch_validate() - check every entry before anything runs
 * @b:           the batch, its entries copied in (kmod/submit.c)
 * @error_index: set to the first malformed entry on failure
 *
 * The checks run on the kernel's copy, so the caller cannot change an
 * entry after it was checked, and after the user-access window closed:
 * a check may call out of line (a bounds check of a kernel built with
 * UBSAN_BOUNDS, as Debian's 7.x is), and objtool refuses any call inside
 * a window.
 *
 * Return: 0 when every entry may run; -EINVAL for a non-zero reserved
 * field, an unknown flag or a reference that does not point to an
 * earlier entry; -ENOSYS for a number that is not on the allowlist.
 */
int wsc_batch_validate(const struct wsc_submission *b, u32 *error_index)
{
	const struct wsc_entry *ent = b->ent;
	u32 i;
	int ret;

	for (i = 0; i < b->count; i++) {
		ret = wsc_entry_validate(&ent[i], *(const u64 *)&ent[i], i);
		if (unlikely(ret)) {
			*error_index = i;
			return ret;
		}
	}
	return 0;
}

/**
 * wsc_batch_copy_out() - copy the first @done results out
 * @b:     the batch
 * @ures:  the caller's array
 * @done:  how many results to copy
 *
 * One 64-bit move per word rather than copy_to_user(): for structures
 * this small the plain moves cost no more on hardware, and under QEMU's
 * TCG, where the string instruction behind copy_to_user() runs one
 * iteration at a time, they cost far less (Documentation/design.md,
 * "Choices made for speed, and why").
 *
 * Return: 0 or -EFAULT.
 */
int wsc_batch_copy_out(const struct wsc_submission *b,
		       struct wsc_result __user *ures, u32 done)
{
	const struct wsc_result *res = b->res;
	bool timing = b->flags & WSC_SUBMIT_TIMING;
	u32 i;

	if (!user_write_access_begin(ures, done * sizeof(*ures)))
		return -EFAULT;
	for (i = 0; i < done; i++) {
		unsafe_put_user(res[i].ret, &ures[i].ret, efault);
		unsafe_put_user(timing ? res[i].duration_ns : 0,
				&ures[i].duration_ns, efault);
	}
	user_write_access_end();
	return 0;
efault:
	user_write_access_end();
	return -EFAULT;
}

/*
 * Load the entry's arguments into @regs, replacing each reference by the
 * result it names.  Returns false when a referenced entry failed: its
 * result is an errno, not a value the call could use.
 */
static __always_inline bool wsc_load_args(struct pt_regs *regs,
					  const struct wsc_entry *e,
					  const struct wsc_result *res, u32 index)
{
	unsigned int k;

	regs->di = e->args[0];
	regs->si = e->args[1];
	regs->dx = e->args[2];
	regs->r10 = e->args[3];
	regs->r8 = e->args[4];
	regs->r9 = e->args[5];
	if (likely(!e->ref_mask))
		return true;

	for (k = 0; k < WSC_MAX_ARGS; k++) {
		s64 value;

		if (!(e->ref_mask & (1u << k)))
			continue;
		/*
		 * Validated to be below @index; keep speculation there too.
		 * (Past it, the clamp would quietly read entry 0's result.)
		 */
		WSC_DEBUG_ON(e->args[k] >= index);
		value = res[array_index_nospec(e->args[k], index)].ret;
		if (wsc_failed(value))
			return false;
		*(unsigned long *)((char *)regs + wsc_arg_offset[k]) = value;
	}
	return true;
}

/**
 * wsc_regs_frame() - the ioctl's user frame under a traced call's arguments
 * @regs:  the batch's registers
 * @e:     the entry about to be shown to a probe
 * @res:   the results so far, for @e's references
 * @index: @e's index
 *
 * What the entry code saved of the caller's registers at the ioctl (ip
 * and sp at its site, cs and ss, flags, the callee-saved ones) goes under
 * the entry's arguments, once per batch, the first time a syscall
 * tracepoint's probe is to see them.  The probe then sees a call from the
 * ioctl's site in user mode, as for a plain call made there: perf's
 * exclude_kernel (`:u`) keeps it, user_mode() is true, a BPF program
 * reads the call site and the user stack pointer.  Word by word: a string
 * move runs one iteration at a time under TCG.  Not done for a batch
 * nobody traces: 21 words copied would cost every submission under TCG
 * about as much as its whole entry check.
 */
static noinline __cold void wsc_regs_frame(struct pt_regs *regs,
					   const struct wsc_entry *e,
					   const struct wsc_result *res,
					   u32 index)
{
	const unsigned long *from = (const unsigned long *)current_pt_regs();
	unsigned long *to = (unsigned long *)regs;
	unsigned int k;

	BUILD_BUG_ON(sizeof(*regs) % sizeof(*to));
	for (k = 0; k < sizeof(*regs) / sizeof(*to); k++)
		to[k] = from[k];
	wsc_load_args(regs, e, res, index);
}

static __always_inline s64 wsc_call(struct pt_regs *regs, u32 nr)
{
	regs->orig_ax = nr;
	regs->ax = -ENOSYS;
	/* A mispredicted no-op test must not index past the table. */
	return wsc_dispatch[array_index_nospec(nr, NR_syscalls)].fn(regs);
}

/* Count one call that ran; with timing, add its duration too. */
static __always_inline void wsc_account(u16 slot, s64 ret, bool timing,
					u64 ns)
{
	struct wsc_call_stats *s;

	this_cpu_inc(wsc_stats->call[slot].calls);
	if (wsc_failed(ret))
		this_cpu_inc(wsc_stats->call[slot].errors);
	if (!timing)
		return;
	/* The timing fields must describe one CPU's view: no migration. */
	preempt_disable();
	s = this_cpu_ptr(&wsc_stats->call[slot]);
	s->timed++;
	s->total_ns += ns;
	if (ns > s->max_ns)
		s->max_ns = ns;
	preempt_enable();
}

/**
 * wsc_task_work_run() - run the task works the last call left, as the
 *			 return to user space would
 *
 * A call can leave work for its task's way back to user space: the final
 * release of a file (fput() queues ____fput() with TWA_RESUME; close(2)
 * is synchronous since 6.7, but dup2, dup3, munmap and others still
 * defer), a lazy unmount, io_uring completions, a POSIX CPU timer's
 * expiry.  A batch postpones that return until its last entry, so the
 * next entry would see the file still open: a read of a pipe whose
 * writer was closed returning -EAGAIN instead of 0.  Running the works
 * between two entries makes each entry see what it would see after a
 * return to user space (Documentation/abi.md, "Releases inside a batch").
 *
 * task_work_run() is not exported, and the module calls nothing through
 * a looked-up address.  This is the same protocol, on the fields and
 * locks task_work_add() and task_work_cancel_match() share with it,
 * checked against kernel/task_work.c of 6.1 and 6.12 (the same there)
 * and against the machine code of 7.3's task_work_run() (the same steps):
 *
 *  - the list is taken whole with try_cmpxchg(), never with a plain
 *    store, as a concurrent task_work_add() pushes on it the same way;
 *  - then pi_lock is taken and dropped once: a task_work_cancel_match()
 *    walking the list under that lock may still be unlinking an entry
 *    behind the head we took (it cannot take the head itself, its
 *    cmpxchg on ->task_works fails); after the lock, none is;
 *  - a work may queue another, so the loop goes on until the list is
 *    empty;
 *  - never in an exiting task, where an empty list must become the
 *    kernel's private "exited" marker, which only task_work_run() can
 *    set.  An ioctl never runs in one; the check keeps the rule local.
 *
 * The context is the one the works expect: the task itself, in process
 * context, preemptible, holding no lock (the batch holds only a
 * reference to its own /dev/wsc file), as in get_signal() or io_uring's
 * own io_run_task_work().  The notification flags are left alone:
 * TIF_NOTIFY_RESUME has other users (rseq, memcg) that still need the
 * return to user space, and TIF_NOTIFY_SIGNAL stops the batch as a
 * signal does (its notifiers, such as livepatch, want that return too).
 *
 * Out of line and cold: the batch loop looks at ->task_works only when a
 * notification flag is set (wsc_between_calls()), and calls this only
 * when a call left work.
 */
static noinline __cold void wsc_task_work_run(void)
{
	struct task_struct *task = current;
	struct callback_head *work, *next;

	if (unlikely(task->flags & PF_EXITING))
		return;
	for (;;) {
		work = READ_ONCE(task->task_works);
		do {
			if (!work)
				return;
		} while (!try_cmpxchg(&task->task_works, &work, NULL));

		raw_spin_lock_irq(&task->pi_lock);
		raw_spin_unlock_irq(&task->pi_lock);

		do {
			next = work->next;
			work->func(work);
			work = next;
			cond_resched();
		} while (work);
	}
}

/*
 * The thread flags that make a return to user space do something before
 * it gets there, in the order exit_to_user_mode_loop() acts on them:
 * reschedule, run the task works notified with TWA_RESUME (a file's final
 * release, queued by fput()), deliver a signal or a TWA_SIGNAL
 * notification.  A batch acts on them between two calls, as a return
 * would, and pays one load of the flags when none is set.
 */
#define WSC_BETWEEN_CALLS_WORK	(_TIF_NEED_RESCHED | _TIF_NOTIFY_RESUME |	\
				 _TIF_SIGPENDING | _TIF_NOTIFY_SIGNAL)

/*
 * wsc_between_calls() - what a return to user space would do before the
 * next call
 *
 * Reschedules if asked, runs the task works an earlier call left (their
 * effects come before the next call), and says whether a signal or a
 * signal-like notification is pending, which stops the batch: the rest
 * runs after the return to user space has handled it.  A work notified
 * with TWA_NONE waits here as it would at a plain return.  TIF_NOTIFY_RESUME
 * has other users (rseq, memcg) that need the real return: it is left set
 * for it, and the flag keeps this slower path taken until the batch ends.
 *
 * Return: true when the batch must stop before its next call.
 */
static __always_inline bool wsc_between_calls(void)
{
	if (need_resched())
		cond_resched();
	if (unlikely(task_work_pending(current)))
		wsc_task_work_run();
	return signal_pending(current);
}

/*
 * The loop, inlined twice so that the untimed variant carries no trace of
 * the clock.  The no-op takes the shortest path there is: it is how the
 * mechanism's own cost is measured.  Returns the number of result slots
 * written.
 */
static __always_inline u32 wsc_batch_loop(struct wsc_submission *b, bool timing,
					  long *restart)
{
	const struct wsc_entry *ent = b->ent;
	struct wsc_result *res = b->res;
	struct pt_regs *regs = b->regs;
	u32 count = b->count, nops = 0, nop_errors = 0, i;
	bool stopped = false, framed = false;

	for (i = 0; i < count; i++) {
		const struct wsc_entry *e = &ent[i];
		u32 nr = e->nr;
		u64 t0 = 0, ns = 0;
		bool failed, traced;
		unsigned long work;
		s64 ret;

		if (unlikely(e->flags & WSC_ENTRY_NEW_CHAIN))
			stopped = false;
		if (unlikely(stopped)) {
			res[i].ret = -ECANCELED;
			if (timing)
				res[i].duration_ns = 0;
			continue;
		}
		if (nr == WSC_NR_NOP && likely(!e->ref_mask)) {
			ret = (s64)e->args[0];
			goto nop;
		}
		if (unlikely(!wsc_load_args(regs, e, res, i))) {
			ret = -ECANCELED;
			goto done;
		}
		if (unlikely(nr == WSC_NR_NOP)) {
			ret = (s64)regs->di;
			goto nop;
		}
		/*
		 * Between two calls, first what a return to user space would
		 * do (wsc_between_calls()): reschedule, run the task works an
		 * earlier call left, stop for a signal.
		 *
		 * Then every decision the submission took is taken again, as
		 * of now (kmod/policy.h): a seccomp filter another thread
		 * installed on this one (SECCOMP_FILTER_FLAG_TSYNC), a tracer
		 * that attached, audit switched on, a write to the module's
		 * switch.  Any of them stops the batch before this call; the
		 * resubmission is refused and runs as plain calls.  The first
		 * call is no exception: copying the entries in can fault and
		 * block (userfaultfd) for as long as the caller likes, and
		 * then nothing has run, so the ioctl is refused as a whole.
		 * A signal stops the batch between calls; the first call
		 * always meets it in its own handler, as a plain call would.
		 */
		if (i && unlikely(READ_ONCE(current_thread_info()->flags) &
				  WSC_BETWEEN_CALLS_WORK) &&
		    wsc_between_calls())
			break;
		work = wsc_syscall_work();
		if (unlikely(wsc_policy_changed(b->policy_gen, work))) {
			if (i == 0)
				*restart = -EOPNOTSUPP;
			break;
		}

		/*
		 * Someone on the syscall tracepoints sees the call as if it
		 * were made plainly (kmod/syscall_tp.c): the loop pays this
		 * one test otherwise.  A probe can write @regs but not change
		 * what runs: the number is the checked one in @nr, and the
		 * arguments are loaded again from the checked copy.
		 */
		traced = wsc_syscall_tp_watched(work);
		if (unlikely(traced)) {
			if (!framed) {
				wsc_regs_frame(regs, e, res, i);
				framed = true;
			}
			if (unlikely(!wsc_syscall_tp_enter(regs, nr))) {
				/* Never unseen: left unrun, or the ioctl fails. */
				if (i == 0)
					*restart = -EOPNOTSUPP;
				break;
			}
			wsc_load_args(regs, e, res, i);
		}
		if (timing)
			t0 = ktime_get_ns();
		ret = wsc_call(regs, nr);
		if (timing)
			ns = ktime_get_ns() - t0;
		/*
		 * A probe that appeared while the call ran gets its exit too,
		 * as a plain call's exit work would fire it.
		 */
		work = wsc_syscall_work();
		if (unlikely(traced || wsc_syscall_tp_watched(work))) {
			if (!framed) {
				wsc_regs_frame(regs, e, res, i);
				framed = true;
			}
			wsc_syscall_tp_exit(regs, nr, ret);
		}
		if (unlikely(wsc_is_restart(ret))) {
			/*
			 * Interrupted before it had any effect.  As the first
			 * entry, nothing has run: hand the code to the kernel's
			 * own signal code, which restarts the ioctl or makes it
			 * -EINTR exactly as for a real call.  Further in, the
			 * entry is left unrun and a resubmission starts with it.
			 * Only a sleep cut short (RESTARTBLOCK) has done
			 * something: it reports -EINTR, its remainder written.
			 */
			if (likely(signal_pending(current)) &&
			    (i == 0 || ret != -ERESTART_RESTARTBLOCK)) {
				if (i == 0)
					*restart = ret == -ERESTART_RESTARTBLOCK ?
						   -ERESTARTNOHAND : ret;
				break;
			}
			/*
			 * A sleep cut short further in; or no signal to act on
			 * the code, which then must not leak.
			 */
			ret = -EINTR;
		}
		wsc_account(wsc_dispatch[nr].slot, ret, timing, ns);
		goto done;
nop:
		nops++;
		nop_errors += wsc_failed(ret);
done:
		/* Handled above: a restart code never reaches a result. */
		WSC_DEBUG_ON(wsc_is_restart(ret));
		failed = wsc_failed(ret);
		res[i].ret = ret;
		/* Untimed, the copy-out writes the zero itself. */
		if (timing)
			res[i].duration_ns = ns;
		if (unlikely(failed) && !(e->flags & WSC_ENTRY_IGNORE_FAILURE))
			stopped = true;
	}
	this_cpu_add(wsc_stats->call[WSC_SLOT_NOP].calls, nops);
	this_cpu_add(wsc_stats->call[WSC_SLOT_NOP].errors, nop_errors);
	this_cpu_inc(wsc_stats->batches);
	return i;
}

/**
 * wsc_batch_run() - run a validated batch
 * @b: the batch; b->res receives one result per entry run or cancelled
 *
 * Runs the entries in order in the caller's context.  A failure stops the
 * chain until the next WSC_ENTRY_NEW_CHAIN entry; a pending signal stops
 * the batch before the next call that would run.
 *
 * Return: the number of leading entries that have a result (the rest did
 * not run), or a restart code (-ERESTARTSYS and kin) when the very first
 * call was interrupted before it had any effect: then nothing ran, and
 * the ioctl returns that code for the kernel's signal code to act on.
 * -EOPNOTSUPP when nothing ran because the caller is refused now
 * (kmod/policy.h: something changed since the submission was checked), or
 * because someone is attached to the syscall tracepoints and this
 * kernel's cannot be fired (kmod/syscall_tp.c).
 */
long wsc_batch_run(struct wsc_submission *b)
{
	long restart = 0;
	u32 done;

	if (b->flags & WSC_SUBMIT_TIMING)
		done = wsc_batch_loop(b, true, &restart);
	else
		done = wsc_batch_loop(b, false, &restart);
	return restart ? restart : done;
}
