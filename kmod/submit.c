// SPDX-License-Identifier: GPL-2.0
/*
 * WSC_IOC_SUBMIT: one submission, from the ioctl's argument to its
 * results.
 *
 * The fixed cost of a submission is what this file spends around the
 * batch loop, so it touches user memory in two user-access windows, not
 * four: the header, the entries and the probe of the results in the
 * first, the results in the second.  Opening a window is a speculation
 * barrier on hardware (user_access_begin() fences) and, under QEMU's TCG,
 * each stac and clac ends a translation block.  Under TCG a window costs
 * about 10 ns, a small part of the submission's 440 ns of its own
 * (Documentation/results/bench-null.md, "The fixed cost").  Only plain moves
 * and arithmetic run while a window is open: objtool refuses calls there.
 *
 * The working memory is a buffer the open file keeps from one submission
 * to the next, taken at the first submission from the smallest size class
 * that holds it (a page holds 54 entries), swapped for a larger one when a
 * larger submission comes: opening /dev/wsc allocates nothing large.  Threads
 * that share one open file and submit at the same time each get a buffer:
 * the kept one goes to whoever takes it first, the others allocate.
 *
 * The buffers of up to 64 KiB come from wsc's own slab caches, one per
 * size class, each with a constructor, because the slab allocator does not
 * zero objects of a cache that has one.  Debian's kernels zero every other
 * allocation (init_on_alloc), at about 3 us a KiB under TCG (the 74 KiB
 * buffer that wsc 0.1 made at every open cost about 220 us): the 32 KiB of
 * a batch of 408 calls would take back a quarter of what its saved kernel
 * entries gain, at every open of /dev/wsc.  A freed buffer goes back to its
 * cache and comes out again as it was, for the next open.  Nothing of its
 * last user can show: entries are copied in before they are read, only
 * results the run wrote are copied out, and the registers are never
 * copied out at all (they hold the arguments, and while a syscall
 * tracepoint has a probe, the ioctl's user frame: kmod/batch.c).
 *
 * Every buffer is charged to the caller's memory cgroup at the size it
 * pins.  SLAB_ACCOUNT charges each object whole, so the four cached sizes
 * are made to tile their slabs exactly: eight of 4 KiB to an order-3
 * slab, two of 16 KiB, one of 32 KiB, one of 64 KiB to an order-4 slab.
 * Each object is one pointer short of its power of two, because SLUB
 * keeps the free pointer of a cache with a constructor after the object
 * (it may not overwrite what the constructor set): a 16 KiB object would
 * take 16 KiB and 8 bytes, and sit alone in a 32 KiB slab, charged for
 * half of it.  tests/vm/t_module.sh checks the tiling.  The largest
 * class, 1024 entries in 73,904 bytes, would sit alone in an order-5 slab
 * of 128 KiB, charged 72 KiB: it is vmalloc()ed instead, 19 pages, every
 * one charged (GFP_KERNEL_ACCOUNT), zeroed once per open that needs it.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "wsc.h"
#include "batch.h"
#include "policy.h"
#include "submit.h"

/**
 * struct wsc_buf - one submission's working memory
 * @cap:   entries it holds; the results follow the @cap entries
 * @class: its size class: the index of the cache it goes back to, or
 *         WSC_BUF_VMALLOC
 * @regs:  the registers handlers are called with, zeroed when the buffer
 *         is made (the cache's constructor, wsc_buf_alloc())
 * @ent:   @cap entries, then @cap results
 *
 * The entries and results are not zeroed: every entry is copied in
 * before it is read, and only results the run wrote are copied out.
 */
struct wsc_buf {
	u32 cap;
	u32 class;
	struct pt_regs regs;
	struct wsc_entry ent[];
};

#define WSC_SLOT_SIZE	(sizeof(struct wsc_entry) + sizeof(struct wsc_result))
#define WSC_BUF_SIZE(cap) \
	(offsetof(struct wsc_buf, ent) + (size_t)(cap) * WSC_SLOT_SIZE)

/* What SLUB adds after an object of a cache with a constructor. */
#define WSC_SLUB_FREEPTR	sizeof(void *)

/*
 * The size classes: 54, 225, 452 and 907 entries from the slab caches
 * (/proc/slabinfo lists them), then the most a batch may hold, vmalloc()ed
 * (WSC_BUF_VMALLOC).  The first is what a small batch needs; from 16 KiB
 * on they double (a 408-name listing takes the third).
 */
static const unsigned int wsc_buf_class_size[] = {
	SZ_4K - WSC_SLUB_FREEPTR, SZ_16K - WSC_SLUB_FREEPTR,
	SZ_32K - WSC_SLUB_FREEPTR, SZ_64K - WSC_SLUB_FREEPTR,
	WSC_BUF_SIZE(WSC_MAX_ENTRIES),
};
static const char *const wsc_buf_class_name[] = {
	"wsc_buf_4k", "wsc_buf_16k", "wsc_buf_32k", "wsc_buf_64k",
};
#define WSC_BUF_CLASSES	ARRAY_SIZE(wsc_buf_class_size)
#define WSC_BUF_CACHES	ARRAY_SIZE(wsc_buf_class_name)
#define WSC_BUF_VMALLOC	WSC_BUF_CACHES

static struct kmem_cache *wsc_buf_cache[WSC_BUF_CACHES];

static u32 wsc_buf_class_cap(unsigned int class)
{
	return min_t(size_t, (wsc_buf_class_size[class] -
			      offsetof(struct wsc_buf, ent)) / WSC_SLOT_SIZE,
		     WSC_MAX_ENTRIES);
}

/* Runs once per object, when its slab is made; see the top of the file. */
static void wsc_buf_ctor(void *obj)
{
	struct wsc_buf *buf = obj;

	memset(&buf->regs, 0, sizeof(buf->regs));
}

/* A buffer of the smallest class that holds @count entries. */
static struct wsc_buf *wsc_buf_alloc(u32 count)
{
	unsigned int class = 0;
	struct wsc_buf *buf;

	/* The last class holds WSC_MAX_ENTRIES, which @count never passes. */
	while (wsc_buf_class_cap(class) < count && class < WSC_BUF_CLASSES - 1)
		class++;
	if (class == WSC_BUF_VMALLOC) {
		buf = __vmalloc(wsc_buf_class_size[class], GFP_KERNEL_ACCOUNT);
		if (buf)
			memset(&buf->regs, 0, sizeof(buf->regs));
	} else {
		buf = kmem_cache_alloc(wsc_buf_cache[class], GFP_KERNEL);
	}
	if (!buf)
		return NULL;
	buf->class = class;
	buf->cap = wsc_buf_class_cap(class);
	return buf;
}

static void wsc_buf_free(struct wsc_buf *buf)
{
	if (!buf)
		return;
	if (buf->class == WSC_BUF_VMALLOC)
		vfree(buf);
	else
		kmem_cache_free(wsc_buf_cache[buf->class], buf);
}

/* Keep @buf for the next submission; a buffer kept meanwhile goes. */
static void wsc_buf_keep(struct wsc_file *wf, struct wsc_buf *buf)
{
	if (buf)
		wsc_buf_free(xchg(&wf->spare, buf));
}

/**
 * wsc_submit_release() - free what an open file of /dev/wsc kept
 * @wf: the file's state; no submission can be running on it
 */
void wsc_submit_release(struct wsc_file *wf)
{
	wsc_buf_free(wf->spare);
	wf->spare = NULL;
}

/**
 * wsc_submit_exit() - destroy the buffer caches
 *
 * After every open file of /dev/wsc is gone (the module's own reference
 * count sees to that) or before the first could be opened.
 */
void wsc_submit_exit(void)
{
	unsigned int class;

	for (class = 0; class < WSC_BUF_CACHES; class++) {
		kmem_cache_destroy(wsc_buf_cache[class]);
		wsc_buf_cache[class] = NULL;
	}
}

/**
 * wsc_submit_init() - make the buffer caches
 *
 * Return: 0, or -ENOMEM with none made.
 */
int wsc_submit_init(void)
{
	unsigned int class;

	BUILD_BUG_ON(WSC_BUF_CLASSES - 1 != WSC_BUF_CACHES);
	BUILD_BUG_ON(WSC_BUF_SIZE(WSC_MAX_ENTRIES) <= SZ_64K);
	for (class = 0; class < WSC_BUF_CACHES; class++) {
		/* Charged to the submitter's memory cgroup (SLAB_ACCOUNT). */
		wsc_buf_cache[class] =
			kmem_cache_create(wsc_buf_class_name[class],
					  wsc_buf_class_size[class],
					  __alignof__(struct wsc_buf),
					  SLAB_ACCOUNT, wsc_buf_ctor);
		if (!wsc_buf_cache[class]) {
			wsc_submit_exit();
			return -ENOMEM;
		}
	}
	return 0;
}

static void wsc_batch_layout(struct wsc_submission *b, struct wsc_buf *buf,
			     const struct wsc_submit *s)
{
	b->regs = &buf->regs;
	b->ent = buf->ent;
	b->res = (struct wsc_result *)&buf->ent[buf->cap];
	b->count = s->count;
	b->flags = s->flags;
}

/*
 * Header checks: everything that is wrong before any entry is read.
 * Inline and call-free: it runs inside the first window.
 */
static __always_inline int wsc_submit_check(const struct wsc_submit *s)
{
	if ((s->flags & ~WSC_SUBMIT_ALL_FLAGS) || !s->count)
		return -EINVAL;
	if (s->count > WSC_MAX_ENTRIES)
		return -E2BIG;
	/* The arrays hold 64-bit fields: the ABI wants them aligned. */
	if (!IS_ALIGNED(s->entries, 8) || !IS_ALIGNED(s->results, 8))
		return -EINVAL;
	if (!s->entries || !s->results)
		return -EFAULT;
	return 0;
}

/* The header's input fields; the window is open. */
static __always_inline bool wsc_header_get_unsafe(struct wsc_submit *s,
						  const struct wsc_submit __user *argp)
{
	unsafe_get_user(s->entries, &argp->entries, efault);
	unsafe_get_user(s->results, &argp->results, efault);
	unsafe_get_user(s->count, &argp->count, efault);
	unsafe_get_user(s->flags, &argp->flags, efault);
	return true;
efault:
	return false;
}

/* What wsc_batch_get_unsafe() found, besides -EFAULT for the entries. */
#define WSC_RESULTS_UNWRITABLE	1

/*
 * Copy the entries in, then prove that every page of the results can be
 * written; the window is open.
 *
 * The entries move word by word, seven moves each (see
 * wsc_batch_copy_out() for why not copy_from_user()); they are validated
 * after the window closes, on the kernel's copy.
 *
 * The probe reads the first byte of the results and the first byte of
 * every later page they span and writes each back as it was: a result
 * that could not be returned would be a side effect nobody sees, and the
 * caller's memory keeps what it held, whatever the ioctl returns.  It
 * runs after the entries were read, and writes back what is there, so an
 * array that overlaps the entries is not changed by it either.
 *
 * Return: 0; -EFAULT when the entries cannot be read;
 * WSC_RESULTS_UNWRITABLE when they could but a page of the results cannot
 * be written, which the caller reports after the entries' own checks.
 */
static __always_inline int wsc_batch_get_unsafe(struct wsc_submission *b,
						const struct wsc_submit *s)
{
	const u64 __user *from = u64_to_user_ptr(s->entries);
	char __user *p = u64_to_user_ptr(s->results);
	/*
	 * Locals, not b's and s's fields: the kernel is built with
	 * -fno-strict-aliasing, so each store through @to would make the
	 * compiler load them again.
	 */
	size_t words = (size_t)s->count * (sizeof(struct wsc_entry) / sizeof(u64));
	char __user *end = p + (size_t)s->count * sizeof(struct wsc_result);
	u64 *to = (u64 *)b->ent, *last = to + words;
	u8 byte;

	if (!access_ok(from, words * sizeof(u64)))
		return -EFAULT;
	for (; to < last; to += 7, from += 7) {
		unsafe_get_user(to[0], &from[0], efault);
		unsafe_get_user(to[1], &from[1], efault);
		unsafe_get_user(to[2], &from[2], efault);
		unsafe_get_user(to[3], &from[3], efault);
		unsafe_get_user(to[4], &from[4], efault);
		unsafe_get_user(to[5], &from[5], efault);
		unsafe_get_user(to[6], &from[6], efault);
	}

	if (!access_ok(p, end - p))
		return WSC_RESULTS_UNWRITABLE;
	for (; p < end; p = (char __user *)PAGE_ALIGN((unsigned long)p + 1)) {
		unsafe_get_user(byte, (u8 __user *)p, unwritable);
		unsafe_put_user(byte, (u8 __user *)p, unwritable);
	}
	return 0;
efault:
	return -EFAULT;
unwritable:
	return WSC_RESULTS_UNWRITABLE;
}

/* The same, in a window of its own: after a buffer had to be made. */
static noinline int wsc_batch_get(struct wsc_submission *b,
				  const struct wsc_submit *s)
{
	int ret;

	if (!user_access_begin(u64_to_user_ptr(s->entries),
			       (size_t)s->count * sizeof(struct wsc_entry)))
		return -EFAULT;
	ret = wsc_batch_get_unsafe(b, s);
	user_access_end();
	return ret;
}

/**
 * wsc_submit() - WSC_IOC_SUBMIT
 * @file: the open /dev/wsc
 * @argp: the caller's struct wsc_submit
 *
 * Reads and checks the whole submission (Documentation/abi.md, "What
 * happens, in order"), runs it, and copies the results out.
 *
 * Return: the number of result slots written; a restart code when the
 * first call was interrupted before it had any effect; or -errno with
 * @argp->error_index set as the uapi header says.
 */
long wsc_submit(struct file *file, struct wsc_submit __user *argp)
{
	struct wsc_file *wf = file->private_data;
	struct wsc_buf *buf, *bigger;
	struct wsc_submit s;
	struct wsc_submission b;
	u32 error_index = WSC_NO_INDEX;
	unsigned int policy_gen;
	u32 refused;
	int got;
	long ret;

	/*
	 * A call of the batch may close this very descriptor; keep the file,
	 * and with it the buffer's owner, until the submission is over.
	 */
	/*
	 * Before anything is read: a caller the administrator has not let
	 * use wsc, or whose calls an observer follows one by one (a seccomp
	 * filter, audit, a tracer; kmod/policy.h), runs its batch as plain
	 * calls, which libwsc does on this errno and no other.  The batch
	 * loop asks again before each call, the first included.
	 */
	policy_gen = wsc_policy_snapshot();
	refused = wsc_refused();
	if (unlikely(refused)) {
		/* The reasons go with the refusal: no WSC_IOC_POLICY to ask. */
		if (put_user(WSC_NO_INDEX, &argp->error_index) ||
		    put_user(refused, &argp->refused))
			return -EFAULT;
		return -EOPNOTSUPP;
	}

	get_file(file);
	buf = xchg(&wf->spare, NULL);

	if (!user_access_begin(argp, sizeof(*argp)))
		goto efault_header;
	if (!wsc_header_get_unsafe(&s, argp)) {
		user_access_end();
		goto efault_header;
	}
	ret = wsc_submit_check(&s);
	if (ret) {
		user_access_end();
		goto out_keep_buf;
	}
	if (likely(buf && s.count <= buf->cap)) {
		wsc_batch_layout(&b, buf, &s);
		got = wsc_batch_get_unsafe(&b, &s);
		user_access_end();
	} else {
		user_access_end();
		bigger = wsc_buf_alloc(s.count);
		if (!bigger) {
			/* Nothing read, nothing run: no error_index either. */
			ret = -ENOMEM;
			goto out_no_index;
		}
		wsc_buf_free(buf);
		buf = bigger;
		wsc_batch_layout(&b, buf, &s);
		got = wsc_batch_get(&b, &s);
	}
	ret = got < 0 ? got : wsc_batch_validate(&b, &error_index);
	if (ret)
		goto out_keep_buf;
	if (got == WSC_RESULTS_UNWRITABLE) {
		ret = -EFAULT;
		goto out_keep_buf;
	}

	b.policy_gen = policy_gen;
	ret = wsc_batch_run(&b);
	/*
	 * A call of the batch, or another thread, can have unmapped the
	 * results since: then say how many ran, in error_index.
	 */
	if (ret >= 0 && wsc_batch_copy_out(&b, u64_to_user_ptr(s.results),
					   ret)) {
		error_index = ret;
		ret = -EFAULT;
	}
out_keep_buf:
	wsc_buf_keep(wf, buf);
	fput(file);
	if (ret >= 0 || wsc_is_restart(ret))
		return ret;
	if (put_user(error_index, &argp->error_index))
		return -EFAULT;
	return ret;

efault_header:
	ret = -EFAULT;
out_no_index:
	wsc_buf_keep(wf, buf);
	fput(file);
	return ret;
}
