// SPDX-License-Identifier: GPL-2.0
/*
 * wsc_bugs: a test module that commits, on demand, each of the bugs the
 * debug kernel's checkers report, so that `make check-debug` can prove the
 * harness's kernel log scan (tools/lib/kmsg.sh) catches every one of them
 * on a kernel that really prints them.  Never part of wsc: it is built only
 * by tests/check-debug, against the debug kernel (tools/debug-kernel), and
 * loaded only in that kernel's VM.
 *
 * Writing a bug's name to /sys/kernel/debug/wsc_bugs/trigger commits it:
 *
 *   rcu     rcu_dereference() outside a read-side critical section
 *   abba    two mutexes taken A then B, later B then A (lockdep: circular)
 *   sleep   a mutex (a function that may sleep) with preemption disabled
 *   ubsan   a shift by more than the width of int
 *   leak    allocations whose only pointers are dropped (kmemleak)
 *   kasan   a read one byte past the end of a 13-byte allocation
 *
 * lockdep stops checking after its first report, and KASAN's report turns
 * lockdep off too: tests/debug/bugs.sh commits rcu, abba, sleep, ubsan,
 * leak and kasan in that order so that each is still seen.  None of them
 * corrupts anything: the out-of-bounds byte is in the allocation's slack,
 * the locks are taken in turn by one task, the shift's result is printed.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

static DEFINE_MUTEX(wsc_bugs_a);
static DEFINE_MUTEX(wsc_bugs_b);
static DEFINE_MUTEX(wsc_bugs_c);

struct wsc_bugs_item {
	int value;
};

/* Never assigned: only the checked dereference matters, not what it reads. */
static struct wsc_bugs_item __rcu *wsc_bugs_rcu_ptr;

/*
 * Read through READ_ONCE() so the compiler can neither fold the shift nor
 * see the index past the allocation at build time (it would warn, or drop
 * the access).
 */
static int wsc_bugs_shift = 40;
static size_t wsc_bugs_size = 13;
static void *wsc_bugs_sink;

static struct dentry *wsc_bugs_dir;

static void wsc_bugs_rcu(void)
{
	struct wsc_bugs_item *item;

	item = rcu_dereference(wsc_bugs_rcu_ptr);
	pr_info("rcu: read %p outside rcu_read_lock()\n", item);
}

static void wsc_bugs_abba(void)
{
	mutex_lock(&wsc_bugs_a);
	mutex_lock(&wsc_bugs_b);
	mutex_unlock(&wsc_bugs_b);
	mutex_unlock(&wsc_bugs_a);

	/* The inverse order: lockdep reports it here, before any deadlock. */
	mutex_lock(&wsc_bugs_b);
	mutex_lock(&wsc_bugs_a);
	mutex_unlock(&wsc_bugs_a);
	mutex_unlock(&wsc_bugs_b);
}

static void wsc_bugs_sleep(void)
{
	/*
	 * Uncontended, the mutex is taken without sleeping; might_sleep() in
	 * mutex_lock() reports the context all the same, as it should.
	 */
	preempt_disable();
	mutex_lock(&wsc_bugs_c);
	mutex_unlock(&wsc_bugs_c);
	preempt_enable();
}

static void wsc_bugs_ubsan(void)
{
	int shift = READ_ONCE(wsc_bugs_shift);

	pr_info("ubsan: 1 << %d = %d\n", shift, 1 << shift);
}

/*
 * Several objects, each dropped: kmemleak scans whole kernel stacks, where
 * a stale copy of a pointer can outlive the call that held it and make
 * that one object look referenced; one of them left is enough.
 */
#define WSC_BUGS_LEAKS 8

static int wsc_bugs_leak(void)
{
	int i;

	for (i = 0; i < WSC_BUGS_LEAKS; i++) {
		void *p = kmalloc(200 + 8 * i, GFP_KERNEL);

		if (!p)
			return -ENOMEM;
		memset(p, 0x5a, 200);
		/* The only reference, dropped: nothing can free it any more. */
		WRITE_ONCE(wsc_bugs_sink, p);
		WRITE_ONCE(wsc_bugs_sink, NULL);
	}
	return 0;
}

static int wsc_bugs_kasan(void)
{
	size_t size = READ_ONCE(wsc_bugs_size);
	char *p = kmalloc(size, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	pr_info("kasan: byte past the end: %d\n", READ_ONCE(p[size]));
	kfree(p);
	return 0;
}

/**
 * wsc_bugs_trigger_write() - commit the bug whose name is written
 * @file: the debugfs file
 * @ubuf: the name, e.g. "abba", with or without a newline
 * @count: its length
 * @ppos: unused
 *
 * Return: @count once the bug was committed, -EINVAL for an unknown name,
 * -ENOMEM when the allocation the bug needs failed.
 */
static ssize_t wsc_bugs_trigger_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	char name[16];
	size_t len = min(count, sizeof(name) - 1);
	int err = 0;

	if (copy_from_user(name, ubuf, len))
		return -EFAULT;
	name[len] = '\0';
	strim(name);

	if (!strcmp(name, "rcu"))
		wsc_bugs_rcu();
	else if (!strcmp(name, "abba"))
		wsc_bugs_abba();
	else if (!strcmp(name, "sleep"))
		wsc_bugs_sleep();
	else if (!strcmp(name, "ubsan"))
		wsc_bugs_ubsan();
	else if (!strcmp(name, "leak"))
		err = wsc_bugs_leak();
	else if (!strcmp(name, "kasan"))
		err = wsc_bugs_kasan();
	else
		err = -EINVAL;
	return err ? err : count;
}

static const struct file_operations wsc_bugs_trigger_fops = {
	.owner = THIS_MODULE,
	.write = wsc_bugs_trigger_write,
};

static int __init wsc_bugs_init(void)
{
	wsc_bugs_dir = debugfs_create_dir("wsc_bugs", NULL);
	debugfs_create_file("trigger", 0200, wsc_bugs_dir, NULL,
			    &wsc_bugs_trigger_fops);
	return 0;
}

static void __exit wsc_bugs_exit(void)
{
	debugfs_remove(wsc_bugs_dir);
}

module_init(wsc_bugs_init);
module_exit(wsc_bugs_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("wsc's debug-kernel check: commits on demand the bugs its log scan must catch");
