// SPDX-License-Identifier: MIT
/*
 * The batch builder: queue entries, tie arguments to earlier results,
 * submit in as few kernel entries as the limits allow, and never lose a
 * result.
 *
 * One batch object numbers its entries from 0 until it is reset, across
 * any number of submissions.  A submission holds the pending entries; a
 * reference to an entry of an earlier submission is replaced by that
 * entry's result before the kernel sees it, so that a chain behaves the
 * same whether it was submitted whole, cut by the collect threshold, or
 * resumed after a signal.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static int wsc_batch_grow(struct wsc_batch *b)
{
	unsigned int cap = b->cap ? b->cap * 2 : 64;
	struct wsc_entry *ent;
	struct wsc_result *res;

	if (b->cap >= WSC_BATCH_LIMIT)
		return -ENOSPC;
	ent = realloc(b->ent, cap * sizeof(*ent));
	if (!ent)
		return -ENOMEM;
	b->ent = ent;
	res = realloc(b->res, cap * sizeof(*res));
	if (!res)
		return -ENOMEM;
	b->res = res;
	b->cap = cap;
	return 0;
}

/* native_skip's value once the module can never accept this process. */
#define WSC_NATIVE_NEVER	UINT_MAX
/* The most submissions run plain between two tries of the module. */
#define WSC_BACKOFF_MAX		64

/*
 * A seccomp filter never goes away: a process under one runs every batch
 * plain from its creation, without an ioctl per batch that the filter
 * would have to look at.  An older module has no WSC_IOC_POLICY; its
 * first refusal says the same.
 */
static void wsc_batch_check_policy(struct wsc_batch *b)
{
	struct wsc_policy p;

	if (wsc_device_policy(b->fd, &p) == 0 &&
	    (p.refused & WSC_REFUSED_SECCOMP)) {
		b->refused = p.refused;
		b->native_skip = WSC_NATIVE_NEVER;
	}
}

/*
 * The module refused a submission (-EOPNOTSUPP, nothing ran): note why,
 * and run the next submissions plain without asking it, 1, 2, 4 ... up to
 * WSC_BACKOFF_MAX of them, so that a refused process pays one refused
 * ioctl per many batches.  A tracer or audit may go; a seccomp
 * filter may not.  The refusal carries its reasons (wsc_submit.refused);
 * only a module older than wsc 1.0 leaves them out, and is asked with
 * WSC_IOC_POLICY.
 */
static void wsc_batch_note_refusal(struct wsc_batch *b)
{
	struct wsc_policy p;

	b->refused = b->refusal_given;
	b->refusal_given = 0;
	if (!b->refused) {
		b->refused = WSC_REFUSED_ALL;
		if (wsc_device_policy(b->fd, &p) == 0 && p.refused)
			b->refused = p.refused;
	}
	if (b->refused & WSC_REFUSED_SECCOMP) {
		b->native_skip = WSC_NATIVE_NEVER;
		return;
	}
	b->backoff = b->backoff ? b->backoff * 2 : 1;
	if (b->backoff > WSC_BACKOFF_MAX)
		b->backoff = WSC_BACKOFF_MAX;
	b->native_skip = b->backoff;
}

int wsc_batch_create(struct wsc_batch **bp, unsigned int flags)
{
	const unsigned int known = WSC_BATCH_TIMING | WSC_BATCH_FALLBACK |
				   WSC_BATCH_CONVENTIONAL | WSC_BATCH_COLLECT |
				   WSC_BATCH_BREAK_EVEN;
	struct wsc_batch *b;
	struct wsc_version v;
	int fd = -1;

	if (!bp || (flags & ~known))
		return -EINVAL;
	if (!(flags & WSC_BATCH_CONVENTIONAL)) {
		fd = wsc_device_open();
		/*
		 * A sandbox that forbids the device (a seccomp filter, an LSM,
		 * a device cgroup) gets plain calls, as a refusal would.
		 */
		if (fd < 0 && !(flags & WSC_BATCH_FALLBACK) &&
		    fd != -EACCES && fd != -EPERM)
			return fd;
		if (fd >= 0 && wsc_device_version(fd, &v) == 0 &&
		    v.abi_version != WSC_ABI_VERSION) {
			close(fd);
			return -EPROTO;
		}
	}

	b = calloc(1, sizeof(*b));
	if (!b) {
		if (fd >= 0)
			close(fd);
		return -ENOMEM;
	}
	b->fd = fd;
	b->flags = flags;
	b->error_index = WSC_NO_INDEX;
	if (fd >= 0)
		wsc_batch_check_policy(b);
	if (flags & WSC_BATCH_COLLECT)
		b->threshold = WSC_DEFAULT_THRESHOLD;
	if (flags & WSC_BATCH_BREAK_EVEN)
		b->break_even = wsc_break_even();
	if (fd >= 0)
		wsc_batch_set_runner(b, wsc_run_ioctl, b, WSC_MAX_ENTRIES);
	else
		wsc_batch_set_runner(b, wsc_run_conventional, NULL,
				     WSC_MAX_ENTRIES);
	*bp = b;
	return 0;
}

void wsc_batch_set_runner(struct wsc_batch *b, wsc_runner_fn run, void *ctx,
			  unsigned int max_entries)
{
	b->run = run;
	b->run_ctx = ctx;
	b->max_entries = max_entries;
	free(b->scratch);
	b->scratch = NULL;
}

void wsc_batch_destroy(struct wsc_batch *b)
{
	if (!b)
		return;
	if (b->fd >= 0)
		close(b->fd);
	free(b->scratch);
	free(b->ent);
	free(b->res);
	free(b);
}

bool wsc_batch_is_native(const struct wsc_batch *b)
{
	return b->fd >= 0;
}

int wsc_batch_set_threshold(struct wsc_batch *b, unsigned int threshold)
{
	if (threshold > WSC_BATCH_LIMIT)
		return -EINVAL;
	b->threshold = threshold;
	return 0;
}

int wsc_batch_set_break_even(struct wsc_batch *b, unsigned int n)
{
	if (!(b->flags & WSC_BATCH_BREAK_EVEN))
		return -EINVAL;
	b->break_even = n;
	return 0;
}

void wsc_batch_reset(struct wsc_batch *b)
{
	b->count = 0;
	b->done = 0;
	b->stopped = false;
	b->error_index = WSC_NO_INDEX;
}

unsigned int wsc_batch_count(const struct wsc_batch *b)
{
	return b->count;
}

unsigned int wsc_batch_completed(const struct wsc_batch *b)
{
	return b->done;
}

unsigned int wsc_batch_error_index(const struct wsc_batch *b)
{
	return b->error_index;
}

unsigned long wsc_batch_kernel_entries(const struct wsc_batch *b)
{
	return b->kernel_entries;
}

unsigned int wsc_batch_refused(const struct wsc_batch *b)
{
	return b->refused;
}

unsigned long wsc_batch_conventional_calls(const struct wsc_batch *b)
{
	return b->conventional_calls;
}

const char *wsc_refusal_name(unsigned int reason)
{
	switch (reason) {
	case WSC_REFUSED_DISABLED:
		return "disabled";
	case WSC_REFUSED_SECCOMP:
		return "seccomp";
	case WSC_REFUSED_AUDIT:
		return "audit";
	case WSC_REFUSED_PTRACE:
		return "ptrace";
	case WSC_REFUSED_USER_DISPATCH:
		return "user-dispatch";
	case WSC_REFUSED_TRACEPOINT:
		return "tracepoint";
	default:
		return NULL;
	}
}

int64_t wsc_batch_result(const struct wsc_batch *b, unsigned int entry)
{
	if (entry >= b->count)
		return -EINVAL;
	if (entry >= b->done)
		return -EAGAIN;
	return b->res[entry].ret;
}

uint64_t wsc_batch_duration(const struct wsc_batch *b, unsigned int entry)
{
	return entry < b->done ? b->res[entry].duration_ns : 0;
}

/*
 * Copy entries [first, first + n) into the scratch array as the kernel
 * must see them: references inside the submission rebased to it,
 * references to earlier submissions replaced by the value they name.
 * A chain that stopped in an earlier submission, or a reference to a
 * failed entry, becomes a no-op that fails with -ECANCELED: the kernel
 * then cancels what follows exactly as if the batch had been one.
 */
static void wsc_batch_rebase(struct wsc_batch *b, unsigned int first,
			     unsigned int n)
{
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		struct wsc_entry *e = &b->scratch[i];
		bool cancel = false;

		*e = b->ent[first + i];
		for (k = 0; k < WSC_MAX_ARGS; k++) {
			uint64_t src = e->args[k];

			if (!(e->ref_mask & (1u << k)))
				continue;
			if (src >= first) {
				e->args[k] = src - first;
				continue;
			}
			e->ref_mask &= ~(1u << k);
			e->args[k] = (uint64_t)b->res[src].ret;
			if (wsc_failed(b->res[src].ret))
				cancel = true;
		}
		if (i == 0 && b->stopped && !(e->flags & WSC_ENTRY_NEW_CHAIN)) {
			/* Keep the chain stopped: this one must not ignore it. */
			e->flags &= ~WSC_ENTRY_IGNORE_FAILURE;
			cancel = true;
		}
		if (cancel) {
			e->nr = WSC_NR_NOP;
			e->ref_mask = 0;
			memset(e->args, 0, sizeof(e->args));
			e->args[0] = (uint64_t)(int64_t)-ECANCELED;
		}
	}
}

/* Follow the chain rule over entries that just got their results. */
static void wsc_batch_track_chain(struct wsc_batch *b, unsigned int first,
				  unsigned int n)
{
	unsigned int i;

	for (i = first; i < first + n; i++) {
		if (b->ent[i].flags & WSC_ENTRY_NEW_CHAIN)
			b->stopped = false;
		if (wsc_failed(b->res[i].ret) &&
		    !(b->ent[i].flags & WSC_ENTRY_IGNORE_FAILURE))
			b->stopped = true;
	}
}

/*
 * The module ran @ran entries but could not write their results back
 * (the results array was unmapped meanwhile).  They did run: never submit
 * them again.  Their results are unknown, so they read -EFAULT and the
 * chain counts as stopped.
 */
static void wsc_batch_lost_results(struct wsc_batch *b, unsigned int ran)
{
	unsigned int i;

	for (i = 0; i < ran; i++) {
		b->res[b->done + i].ret = -EFAULT;
		b->res[b->done + i].duration_ns = 0;
	}
	b->done += ran;
	b->stopped = true;
	b->error_index = WSC_NO_INDEX;
}

/* Run @n entries plain, into the results from b->done on. */
static int wsc_batch_run_plain(struct wsc_batch *b,
			       const struct wsc_entry *ent, unsigned int n,
			       uint32_t run_flags, uint32_t *error_index)
{
	int ret;

	ret = wsc_run_conventional(NULL, ent, &b->res[b->done], n, run_flags,
				   error_index);
	if (ret > 0)
		b->conventional_calls += ret;
	return ret;
}

/*
 * One submission of @n entries: to the module, or, where it refuses the
 * caller (now, or recently: see wsc_batch_note_refusal()) or the
 * submission is too small to pay for a batch (WSC_BATCH_BREAK_EVEN), as
 * plain calls.  Either way the results land from b->done on and the return
 * value means the same: how many entries have a result, or -errno with
 * nothing run.
 */
static int wsc_batch_run_once(struct wsc_batch *b, const struct wsc_entry *ent,
			      unsigned int n, uint32_t run_flags,
			      uint32_t *error_index, bool below_break_even)
{
	bool native = b->run == wsc_run_ioctl;
	int ret;

	if (below_break_even && b->run != wsc_run_conventional)
		return wsc_batch_run_plain(b, ent, n, run_flags, error_index);
	if (native && b->native_skip) {
		if (b->native_skip != WSC_NATIVE_NEVER)
			b->native_skip--;
		return wsc_batch_run_plain(b, ent, n, run_flags, error_index);
	}
	ret = b->run(b->run_ctx, ent, &b->res[b->done], n, run_flags,
		     error_index);
	/*
	 * An entry into the kernel for the whole submission only through
	 * /dev/wsc (the ioctl, or a unit test's stand-in for it): run
	 * conventionally, each call entered the kernel on its own, which
	 * wsc_batch_conventional_calls() counts.
	 */
	if (b->run == wsc_run_conventional) {
		if (ret > 0)
			b->conventional_calls += ret;
	} else {
		b->kernel_entries++;
	}
	if (!native)
		return ret;
	if (ret == -EOPNOTSUPP && *error_index == WSC_NO_INDEX) {
		wsc_batch_note_refusal(b);
		return wsc_batch_run_plain(b, ent, n, run_flags, error_index);
	}
	if (ret >= 0)
		b->backoff = 0;
	return ret;
}

int wsc_batch_submit(struct wsc_batch *b)
{
	unsigned int first = b->done;
	uint32_t run_flags = 0;
	/*
	 * The whole submission's size decides, once: the parts of one cut
	 * at the limit, or resumed after a signal, go the same way.
	 */
	bool below_break_even = (b->flags & WSC_BATCH_BREAK_EVEN) &&
				b->count - first < b->break_even;

	if (b->flags & WSC_BATCH_TIMING)
		run_flags |= WSC_SUBMIT_TIMING;
	/* Before anything runs, so that -ENOMEM means nothing ran. */
	if (!b->scratch && (b->done || b->stopped ||
			    b->count - b->done > b->max_entries)) {
		b->scratch = malloc(b->max_entries * sizeof(*b->scratch));
		if (!b->scratch)
			return -ENOMEM;
	}

	while (b->done < b->count) {
		unsigned int n = b->count - b->done;
		uint32_t error_index = WSC_NO_INDEX;
		const struct wsc_entry *ent = b->ent;
		int ret;

		if (n > b->max_entries)
			n = b->max_entries;
		/*
		 * The first submission of a batch whose chain has not stopped
		 * goes as it is: rebasing to entry 0 changes nothing, and the
		 * copy would cost every batch a pass over its entries.
		 */
		if (b->done || b->stopped) {
			/*
			 * Only a resume after a signal gets here without it:
			 * then -ENOMEM leaves done right, and nothing reruns.
			 */
			if (!b->scratch) {
				b->scratch = malloc(b->max_entries *
						    sizeof(*b->scratch));
				if (!b->scratch)
					return -ENOMEM;
			}
			wsc_batch_rebase(b, b->done, n);
			ent = b->scratch;
		}
		ret = wsc_batch_run_once(b, ent, n, run_flags, &error_index,
					 below_break_even);
		if (ret == -EFAULT && error_index != WSC_NO_INDEX &&
		    error_index <= n) {
			wsc_batch_lost_results(b, error_index);
			return ret;
		}
		if (ret < 0) {
			b->error_index = error_index == WSC_NO_INDEX ?
					 WSC_NO_INDEX : b->done + error_index;
			return ret;
		}
		/* Fewer than n: a signal came between two calls; resume. */
		wsc_batch_track_chain(b, b->done, ret);
		b->done += ret;
	}
	b->error_index = WSC_NO_INDEX;
	return b->done - first;
}

/*
 * Queue one entry.  In collect mode a full set of pending entries is
 * submitted when the next one arrives, not when the last one is queued,
 * so that the caller can still set references and flags on the entry a
 * wsc_prep_*() just returned.
 */
static int wsc_batch_queue(struct wsc_batch *b, unsigned int nr,
			   const uint64_t args[WSC_MAX_ARGS])
{
	struct wsc_entry *e;
	int ret;

	if (b->threshold && b->count - b->done >= b->threshold) {
		ret = wsc_batch_submit(b);
		if (ret < 0)
			return ret;
	}
	if (b->count == b->cap) {
		ret = wsc_batch_grow(b);
		if (ret)
			return ret;
	}
	e = &b->ent[b->count];
	memset(e, 0, sizeof(*e));
	e->nr = nr;
	memcpy(e->args, args, sizeof(e->args));
	return b->count++;
}

int wsc_prep_syscall(struct wsc_batch *b, unsigned int nr,
		     const uint64_t args[WSC_MAX_ARGS])
{
	if (!wsc_call_allowed(nr))
		return -ENOSYS;
	return wsc_batch_queue(b, nr, args);
}

int wsc_prep_nop(struct wsc_batch *b, int64_t value)
{
	const uint64_t args[WSC_MAX_ARGS] = { (uint64_t)value };

	return wsc_batch_queue(b, WSC_NR_NOP, args);
}

/* An entry that may still change: queued and not yet submitted. */
static struct wsc_entry *wsc_pending_entry(struct wsc_batch *b, int entry)
{
	if (entry < 0 || (unsigned int)entry >= b->count ||
	    (unsigned int)entry < b->done)
		return NULL;
	return &b->ent[entry];
}

int wsc_entry_ref(struct wsc_batch *b, int entry, unsigned int arg,
		  int source)
{
	struct wsc_entry *e = wsc_pending_entry(b, entry);

	if (!e || arg >= WSC_MAX_ARGS || source < 0 || source >= entry)
		return -EINVAL;
	e->ref_mask |= 1u << arg;
	e->args[arg] = (uint64_t)source;
	return 0;
}

int wsc_entry_set_flags(struct wsc_batch *b, int entry, unsigned int flags)
{
	struct wsc_entry *e = wsc_pending_entry(b, entry);

	if (!e || (flags & ~WSC_ENTRY_ALL_FLAGS))
		return -EINVAL;
	e->flags = flags;
	return 0;
}
