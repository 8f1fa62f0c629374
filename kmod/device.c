// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/wsc: the misc device and its ioctls.
 *
 * A submission is copied in once into a buffer the open file keeps, so
 * that the steady state allocates nothing.  Threads that share one open
 * file and submit at the same time each get their own buffer: the cached
 * one goes to whoever takes it first, the others allocate.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "wsc.h"

/* The ABI's layout is fixed: the userspace library checks the same. */
static_assert(sizeof(struct wsc_entry) == 56);
static_assert(sizeof(struct wsc_entry) % sizeof(u64) == 0);
static_assert(offsetof(struct wsc_entry, args) == 8);
static_assert(sizeof(struct wsc_result) == 16);
static_assert(sizeof(struct wsc_submit) == 32);
static_assert(sizeof(struct wsc_version) == 32);
static_assert(sizeof(struct wsc_call_info) == 40);

/*
 * One submission's working memory: the registers handlers are called
 * with, then the entries, then the results.  The registers are zeroed once
 * when the buffer is made and only their argument slots change after.
 * The rest is not zeroed: every entry is copied in before it is read, and
 * only results the run wrote are copied out (wsc_batch_copy_out()), so
 * an open need not clear 74 KiB it will overwrite anyway.
 */
#define WSC_BUF_SIZE(count)						\
	(sizeof(struct pt_regs) + (size_t)(count) *			\
	 (sizeof(struct wsc_entry) + sizeof(struct wsc_result)))

/**
 * struct wsc_file - what one open of /dev/wsc keeps
 * @spare: a buffer for WSC_MAX_ENTRIES, or NULL while a submission uses it
 */
struct wsc_file {
	void *spare;
};

static void *wsc_buf_alloc(u32 count)
{
	void *buf = kvmalloc(WSC_BUF_SIZE(count), GFP_KERNEL_ACCOUNT);

	if (buf)
		memset(buf, 0, sizeof(struct pt_regs));
	return buf;
}

/* Take the spare buffer, or make one when another thread holds it. */
static void *wsc_buf_get(struct wsc_file *wf, u32 count, bool *is_spare)
{
	void *buf = xchg(&wf->spare, NULL);

	*is_spare = buf != NULL;
	if (buf)
		return buf;
	return wsc_buf_alloc(count);
}

static void wsc_buf_put(struct wsc_file *wf, void *buf, bool is_spare)
{
	if (is_spare)
		WRITE_ONCE(wf->spare, buf);
	else
		kvfree(buf);
}

static void wsc_buf_layout(struct wsc_batch *b, void *buf, u32 count)
{
	b->regs = buf;
	b->ent = buf + sizeof(struct pt_regs);
	b->res = (void *)(b->ent + count);
	b->count = count;
}

static int wsc_open(struct inode *inode, struct file *file)
{
	struct wsc_file *wf;

	wf = kzalloc(sizeof(*wf), GFP_KERNEL_ACCOUNT);
	if (!wf)
		return -ENOMEM;
	/* Charged to the opener's memory cgroup, as any per-open memory. */
	wf->spare = wsc_buf_alloc(WSC_MAX_ENTRIES);
	if (!wf->spare) {
		kfree(wf);
		return -ENOMEM;
	}
	file->private_data = wf;
	return 0;
}

static int wsc_release(struct inode *inode, struct file *file)
{
	struct wsc_file *wf = file->private_data;

	kvfree(wf->spare);
	kfree(wf);
	return 0;
}

static long wsc_ioctl_version(void __user *argp)
{
	struct wsc_version v = {
		.abi_version	= WSC_ABI_VERSION,
		.max_entries	= WSC_MAX_ENTRIES,
		.nr_calls	= wsc_nr_calls,
		.entry_flags	= WSC_ENTRY_ALL_FLAGS,
		.submit_flags	= WSC_SUBMIT_ALL_FLAGS,
	};

	return copy_to_user(argp, &v, sizeof(v)) ? -EFAULT : 0;
}

static long wsc_ioctl_call_info(void __user *argp)
{
	struct wsc_call_info info;
	const struct wsc_call *c;
	u32 index;

	if (get_user(index, (u32 __user *)argp))
		return -EFAULT;
	if (index >= wsc_nr_calls)
		return -ENOENT;

	c = &wsc_calls[array_index_nospec(index, wsc_nr_calls)];
	memset(&info, 0, sizeof(info));
	info.index = index;
	info.nr = c->nr;
	info.group = c->group;
	info.flags = c->flags;
	strscpy(info.name, c->name, sizeof(info.name));
	return copy_to_user(argp, &info, sizeof(info)) ? -EFAULT : 0;
}

/* The header's input fields, with one user-access window for all. */
static int wsc_submit_copy_in(struct wsc_submit *s,
			      const struct wsc_submit __user *argp)
{
	if (!user_read_access_begin(argp, sizeof(*argp)))
		return -EFAULT;
	unsafe_get_user(s->entries, &argp->entries, efault);
	unsafe_get_user(s->results, &argp->results, efault);
	unsafe_get_user(s->count, &argp->count, efault);
	unsafe_get_user(s->flags, &argp->flags, efault);
	unsafe_get_user(s->reserved, &argp->reserved, efault);
	user_read_access_end();
	return 0;
efault:
	user_read_access_end();
	return -EFAULT;
}

/* Header checks: everything that is wrong before any entry is read. */
static int wsc_submit_check(const struct wsc_submit *s)
{
	if (s->reserved || (s->flags & ~WSC_SUBMIT_ALL_FLAGS) || !s->count)
		return -EINVAL;
	if (s->count > WSC_MAX_ENTRIES)
		return -E2BIG;
	/* The arrays hold 64-bit fields: the ABI wants them aligned. */
	if (!IS_ALIGNED(s->entries, 8) || !IS_ALIGNED(s->results, 8))
		return -EINVAL;
	if (!s->entries || !s->results)
		return -EFAULT;
	/*
	 * Wrapped calls would not pass through the caller's seccomp filter:
	 * a filtered task may not use them at all (Documentation/security.md,
	 * "What wrapped calls bypass").
	 */
	if (READ_ONCE(current->seccomp.mode) != SECCOMP_MODE_DISABLED)
		return -EPERM;
	return 0;
}

static long wsc_ioctl_submit(struct file *file,
			     struct wsc_submit __user *argp)
{
	struct wsc_file *wf = file->private_data;
	struct wsc_result __user *results;
	struct wsc_submit s;
	struct wsc_batch b;
	u32 error_index = WSC_NO_INDEX;
	bool is_spare;
	void *buf;
	long ret;

	if (wsc_submit_copy_in(&s, argp))
		return -EFAULT;
	ret = wsc_submit_check(&s);
	if (ret)
		goto out_error_index;
	results = u64_to_user_ptr(s.results);

	buf = wsc_buf_get(wf, s.count, &is_spare);
	if (!buf)
		return -ENOMEM;
	wsc_buf_layout(&b, buf, s.count);
	b.flags = s.flags;
	/*
	 * A call of the batch may close this very descriptor; keep the file,
	 * and with it this buffer's owner, until the submission is over.
	 */
	get_file(file);

	ret = wsc_batch_copy_in(&b, u64_to_user_ptr(s.entries), &error_index);
	if (ret)
		goto out_put;
	/*
	 * Prove every page of the results can be written before anything
	 * runs: a result that cannot be returned would be a side effect
	 * nobody sees.  This writes a zero byte at the start of each page of
	 * the array, after the entries were read, so an overlap cannot
	 * corrupt them.
	 */
	ret = -EFAULT;
	if (fault_in_writeable((char __user *)results,
			       s.count * sizeof(struct wsc_result)))
		goto out_put;

	ret = wsc_batch_run(&b);
	/*
	 * A call of the batch, or another thread, can have unmapped the
	 * results since: then say how many ran, in error_index.
	 */
	if (ret >= 0 && wsc_batch_copy_out(&b, results, ret)) {
		error_index = ret;
		ret = -EFAULT;
	}
out_put:
	wsc_buf_put(wf, buf, is_spare);
	fput(file);
	if (ret >= 0 || wsc_is_restart(ret))
		return ret;
out_error_index:
	if (put_user(error_index, &argp->error_index))
		return -EFAULT;
	return ret;
}

static long wsc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case WSC_IOC_SUBMIT:
		return wsc_ioctl_submit(file, argp);
	case WSC_IOC_VERSION:
		return wsc_ioctl_version(argp);
	case WSC_IOC_CALL_INFO:
		return wsc_ioctl_call_info(argp);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations wsc_fops = {
	/* An open /dev/wsc holds the module: rmmod is refused meanwhile. */
	.owner		= THIS_MODULE,
	.open		= wsc_open,
	.release	= wsc_release,
	.unlocked_ioctl	= wsc_ioctl,
	.llseek		= noop_llseek,
};

static struct miscdevice wsc_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= WSC_DEVICE_NAME,
	.fops	= &wsc_fops,
	/* Calls run with the caller's own credentials: no new power. */
	.mode	= 0666,
};

int wsc_device_init(void)
{
	return misc_register(&wsc_miscdev);
}

void wsc_device_exit(void)
{
	misc_deregister(&wsc_miscdev);
}
