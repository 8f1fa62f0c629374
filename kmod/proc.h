/* SPDX-License-Identifier: GPL-2.0 */
/* proc.c: /proc/syscall_lat, the human report of what the module measured. */
#ifndef _WSC_PROC_H
#define _WSC_PROC_H

int wsc_proc_init(void);
void wsc_proc_exit(void);

#endif /* _WSC_PROC_H */
