// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the running kernel's system call handlers.
 *
 * Wrapped calls must run through the very handlers a real system call
 * would, so that a wrapped call does what the call itself does.  The
 * kernel builds its table of them
 * from the generated <asm/syscalls_64.h>, one __SYSCALL(nr, sym) line per
 * number, each naming the handler __x64_<sym>.  The module reads the same
 * header, which ships with the kernel's headers, so it knows at build time
 * the name of every handler it may call.
 *
 * The addresses come from kprobes, one per allowlisted handler, registered
 * disabled: register_kprobe() resolves the name and says where the probe
 * would sit, and a disabled probe is never armed, so no kernel text is
 * patched, and nothing is called to find a symbol.  (Calling a looked-up
 * kallsyms_lookup_name would not do: on an IBT kernel its ENDBR is sealed
 * at boot, as for every function whose address nothing takes, and an
 * indirect call to it traps.)
 *
 * The handlers themselves are called through a pointer.  On a kernel
 * built with IBT each must begin with ENDBR64: the kernel's own table
 * takes their addresses, so objtool keeps it, but the module checks every
 * one at load and refuses to load rather than trap later.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "wsc.h"
#include "calls.h"
#include "symbols.h"

/*
 * Handler names by number, from the header the kernel's table is built
 * from.  A number the kernel does not implement maps to sys_ni_syscall.
 */
#define __SYSCALL(nr, sym)						\
	[nr] = "__x64_" #sym,
/* 6.12 marks exit and exit_group so (6.1 does not); never allowlisted. */
#define __SYSCALL_NORETURN	__SYSCALL
static const char *const wsc_handler_names[NR_syscalls] = {
#include <asm/syscalls_64.h>
};
#undef __SYSCALL_NORETURN
#undef __SYSCALL

#define WSC_NI_SYSCALL		"__x64_sys_ni_syscall"

/* endbr64 (f3 0f 1e fa) read as a little-endian u32. */
#define WSC_ENDBR64		0xfa1e0ff3u
#define WSC_ENDBR64_SIZE	4

static sys_call_ptr_t wsc_handlers[NR_syscalls] __read_mostly;

/**
 * wsc_handler_name() - the handler of a system call number, by name
 * @nr: x86-64 system call number
 *
 * Return: "__x64_sys_..." as in the kernel's own table (a number the
 * kernel does not implement names __x64_sys_ni_syscall), or NULL past it.
 */
const char *wsc_handler_name(unsigned int nr)
{
	return nr < NR_syscalls ? wsc_handler_names[nr] : NULL;
}

/*
 * The start of the function @name, given where a kprobe on it sits: at
 * its first byte, or just after its ENDBR64 (x86 probes skip it).  The
 * kernel's symbol table must agree that the result starts a function.
 * (Not necessarily under that name: __x64_sys_getpid and __do_sys_getpid
 * may be one function with two names.)
 */
static unsigned long wsc_function_start(const char *name, unsigned long probe)
{
	char sym[KSYM_SYMBOL_LEN];
	unsigned long start = probe;
	u32 insn;

	if (!copy_from_kernel_nofault(&insn,
				      (void *)(probe - WSC_ENDBR64_SIZE),
				      sizeof(insn)) &&
	    insn == WSC_ENDBR64)
		start = probe - WSC_ENDBR64_SIZE;

	sprint_symbol(sym, start);
	if (!strstr(sym, "+0x0/")) {
		pr_err("%s: the probe at %pS is not at the start of a function\n",
		       name, (void *)probe);
		return 0;
	}
	return start;
}

/**
 * wsc_callable() - may the module call the function at @start indirectly?
 * @name:  its name, for the kernel log
 * @start: its first byte
 *
 * On an IBT kernel an indirect call must land on ENDBR64.  The first
 * bytes are read as they are now, after the kernel sealed what it seals.
 * Used for the handlers here and for the syscall tracepoints' iterators
 * (kmod/syscall_tp.c).
 *
 * Return: true when the call cannot trap; false with one line in the log.
 */
bool wsc_callable(const char *name, unsigned long start)
{
	u32 insn;

	if (!IS_ENABLED(CONFIG_X86_KERNEL_IBT))
		return true;
	if (copy_from_kernel_nofault(&insn, (void *)start, sizeof(insn)) ||
	    insn != WSC_ENDBR64) {
		pr_err("%s does not begin with ENDBR64: an indirect call to it would trap under IBT\n",
		       name);
		return false;
	}
	return true;
}

/**
 * wsc_symbols_init() - find the handler of every allowlisted system call
 *
 * Return: 0; -ENOENT with one line in the kernel log naming what was not
 * found, or found where it cannot be called; or -ENOMEM.
 */
int wsc_symbols_init(void)
{
	struct kprobe *kp, **kps;
	unsigned int i, n = 0;
	int ret = 0;

	/* kp[i] finds the handler of wsc_calls[i]; the no-op has none. */
	BUILD_BUG_ON(WSC_SLOT_NOP != 0);
	kp = kcalloc(wsc_nr_calls, sizeof(*kp), GFP_KERNEL);
	kps = kcalloc(wsc_nr_calls, sizeof(*kps), GFP_KERNEL);
	if (!kp || !kps) {
		ret = -ENOMEM;
		goto free;
	}

	for (i = 1; i < wsc_nr_calls; i++) {
		const struct wsc_call *c = &wsc_calls[i];
		const char *name = wsc_handler_name(c->nr);

		if (!name || !strcmp(name, WSC_NI_SYSCALL)) {
			pr_err("%s (%u) is not implemented by this kernel\n",
			       c->name, c->nr);
			ret = -ENOENT;
			goto unregister;
		}
		kp[i].symbol_name = name;
		kp[i].flags = KPROBE_FLAG_DISABLED;
		ret = register_kprobe(&kp[i]);
		if (ret) {
			pr_err("cannot find %s: register_kprobe: %d\n", name,
			       ret);
			ret = -ENOENT;
			goto unregister;
		}
		kps[n++] = &kp[i];
	}

	for (i = 1; i < wsc_nr_calls; i++) {
		const char *name = kp[i].symbol_name;
		unsigned long start;

		start = wsc_function_start(name, (unsigned long)kp[i].addr);
		if (!start || !wsc_callable(name, start)) {
			ret = -ENOENT;
			goto unregister;
		}
		wsc_handlers[wsc_calls[i].nr] = (sys_call_ptr_t)start;
	}

unregister:
	/* Never armed; one grace period for all of them. */
	if (n)
		unregister_kprobes(kps, n);
free:
	kfree(kps);
	kfree(kp);
	return ret;
}

/**
 * wsc_syscall_handler() - the handler of one allowlisted system call
 * @nr: x86-64 system call number, below NR_syscalls
 *
 * Return: the function the kernel's own table holds for @nr, or NULL for
 * a number that is not allowlisted.
 */
sys_call_ptr_t wsc_syscall_handler(unsigned int nr)
{
	return wsc_handlers[nr];
}
