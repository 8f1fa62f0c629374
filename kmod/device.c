// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/wsc: the misc device and its ioctls.  WSC_IOC_SUBMIT itself is
 * kmod/submit.c.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "wsc.h"
#include "calls.h"
#include "device.h"
#include "policy.h"
#include "submit.h"

/* The ABI's layout is fixed: the userspace library checks the same. */
static_assert(sizeof(struct wsc_entry) == 56);
static_assert(sizeof(struct wsc_entry) % sizeof(u64) == 0);
static_assert(offsetof(struct wsc_entry, args) == 8);
static_assert(sizeof(struct wsc_result) == 16);
static_assert(sizeof(struct wsc_submit) == 32);
static_assert(sizeof(struct wsc_version) == 32);
static_assert(sizeof(struct wsc_call_info) == 40);
static_assert(sizeof(struct wsc_policy) == 32);

static int wsc_open(struct inode *inode, struct file *file)
{
	struct wsc_file *wf;

	/* The working memory comes with the first submission (submit.c). */
	wf = kzalloc(sizeof(*wf), GFP_KERNEL_ACCOUNT);
	if (!wf)
		return -ENOMEM;
	file->private_data = wf;
	return 0;
}

static int wsc_release(struct inode *inode, struct file *file)
{
	struct wsc_file *wf = file->private_data;

	wsc_submit_release(wf);
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

static long wsc_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case WSC_IOC_SUBMIT:
		return wsc_submit(file, argp);
	case WSC_IOC_VERSION:
		return wsc_ioctl_version(argp);
	case WSC_IOC_CALL_INFO:
		return wsc_ioctl_call_info(argp);
	case WSC_IOC_POLICY:
		return wsc_ioctl_policy(argp);
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

/*
 * A fixed minor, so that the module can be loaded by the first open of
 * /dev/wsc: from the aliases below, depmod writes "wsc c 10:WSC_MINOR"
 * to modules.devname, from which kmod-static-nodes and udev create
 * /dev/wsc at boot, before the module is loaded; opening that node makes
 * the misc driver ask for char-major-10-WSC_MINOR (drivers/char/misc.c).
 * It comes from the range Documentation/admin-guide/devices.txt reserves
 * for local use (misc 243-254 since 6.1; no in-tree driver of 6.1 or
 * 6.12 takes 247, and sonypi's documentation suggests 250, so not that).
 */
#define WSC_MINOR	247
MODULE_ALIAS_MISCDEV(WSC_MINOR);
MODULE_ALIAS("devname:" WSC_DEVICE_NAME);

static struct miscdevice wsc_miscdev = {
	.minor	= WSC_MINOR,
	.name	= WSC_DEVICE_NAME,
	.fops	= &wsc_fops,
	/*
	 * Calls run with the caller's own credentials: no new power.  Who
	 * may run them wrapped is the module parameters' business
	 * (policy.c): a refused caller's batches run as plain calls.
	 */
	.mode	= 0666,
};

int wsc_device_init(void)
{
	int ret = misc_register(&wsc_miscdev);

	/*
	 * A local driver of this machine holds the minor: /dev/wsc still
	 * works with a dynamic one, only not loading the module on open.
	 */
	if (ret == -EBUSY) {
		pr_warn("misc minor %d is taken: /dev/wsc gets a dynamic one, and opening it will not load wsc\n",
			WSC_MINOR);
		wsc_miscdev.minor = MISC_DYNAMIC_MINOR;
		ret = misc_register(&wsc_miscdev);
	}
	return ret;
}

void wsc_device_exit(void)
{
	misc_deregister(&wsc_miscdev);
}
