// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the running kernel's system call handlers.
 *
 * Wrapped calls must run through the very handlers a real system call
 * would (decision 1 of the design), so the module reads them from
 * sys_call_table once at load.  The table is not exported; since 5.7
 * neither is kallsyms_lookup_name, but a kprobe placed on it by name
 * reveals its address.  The table is only ever read, never patched.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/string.h>
#include <asm/cpufeature.h>

#include "wsc.h"

typedef unsigned long (*kallsyms_lookup_name_t)(const char *name);

static const sys_call_ptr_t *wsc_sys_call_table;
/* What the table holds for a number this kernel does not implement. */
static sys_call_ptr_t wsc_ni_syscall;

/* endbr64 (f3 0f 1e fa) read as a little-endian u32. */
#define WSC_ENDBR64		0xfa1e0ff3u
#define WSC_ENDBR64_SIZE	4

static kallsyms_lookup_name_t wsc_find_kallsyms_lookup_name(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long addr;
	u32 prefix;
	int ret;

	ret = register_kprobe(&kp);
	if (ret) {
		pr_err("cannot place a kprobe on kallsyms_lookup_name (%d)\n",
		       ret);
		return NULL;
	}
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);

	/*
	 * On an IBT kernel the probe lands after the function's ENDBR, and
	 * an indirect call to that address would fault: step back over it.
	 * Without IBT the bytes before a function are padding, never ENDBR.
	 */
	if (!copy_from_kernel_nofault(&prefix,
				      (void *)(addr - WSC_ENDBR64_SIZE),
				      sizeof(prefix)) &&
	    prefix == WSC_ENDBR64)
		return (kallsyms_lookup_name_t)(addr - WSC_ENDBR64_SIZE);

	/*
	 * No ENDBR before the probe: fine without IBT, but with IBT
	 * enforced the kernel sealed it away at boot and an indirect call
	 * would trap.  Refuse to load rather than crash.
	 */
	if (cpu_feature_enabled(X86_FEATURE_IBT)) {
		pr_err("kallsyms_lookup_name cannot be called indirectly under IBT\n");
		return NULL;
	}
	return (kallsyms_lookup_name_t)addr;
}

/**
 * wsc_symbols_init() - find sys_call_table
 *
 * Return: 0, or -ENOENT with one line in the kernel log saying what was
 * not found.
 */
int wsc_symbols_init(void)
{
	kallsyms_lookup_name_t lookup;

	lookup = wsc_find_kallsyms_lookup_name();
	if (!lookup)
		return -ENOENT;

	wsc_sys_call_table = (const sys_call_ptr_t *)lookup("sys_call_table");
	if (!wsc_sys_call_table) {
		pr_err("sys_call_table not found (is CONFIG_KALLSYMS_ALL set?)\n");
		return -ENOENT;
	}
	wsc_ni_syscall = (sys_call_ptr_t)lookup("__x64_sys_ni_syscall");
	if (!wsc_ni_syscall) {
		pr_err("__x64_sys_ni_syscall not found\n");
		return -ENOENT;
	}
	return 0;
}

/**
 * wsc_syscall_implemented() - does this kernel implement a system call
 * @nr: x86-64 system call number, below NR_syscalls
 *
 * A number compiled out of this kernel (by its configuration) points to
 * sys_ni_syscall, which would only ever return -ENOSYS.
 */
bool wsc_syscall_implemented(unsigned int nr)
{
	return wsc_syscall_handler(nr) != wsc_ni_syscall;
}

/**
 * wsc_syscall_handler() - the handler of one system call number
 * @nr: x86-64 system call number, below NR_syscalls
 *
 * Return: the handler the kernel's own entry code would run for @nr.
 */
sys_call_ptr_t wsc_syscall_handler(unsigned int nr)
{
	return READ_ONCE(wsc_sys_call_table[nr]);
}
