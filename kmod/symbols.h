/* SPDX-License-Identifier: GPL-2.0 */
/* symbols.c: the handlers of the allowlisted calls, found once at load. */
#ifndef _WSC_SYMBOLS_H
#define _WSC_SYMBOLS_H

#include <linux/types.h>
#include <asm/syscall.h>

int wsc_symbols_init(void);
sys_call_ptr_t wsc_syscall_handler(unsigned int nr);
const char *wsc_handler_name(unsigned int nr);
bool wsc_callable(const char *name, unsigned long start);

#endif /* _WSC_SYMBOLS_H */
