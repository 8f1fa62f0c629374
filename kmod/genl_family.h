/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink family "syscall_lat" (genl.c, with the lab's
 * commands in genl_lab.c and the trace's in genl_trace.c), as the rest
 * of the module sees it: registered at load, gone at unload.  What the
 * family's files share is theirs alone: genl.h (the handlers) and
 * genl_msg.h (genl_msg.c's writers, below them).
 */
#ifndef _WSC_GENL_FAMILY_H
#define _WSC_GENL_FAMILY_H

int wsc_genl_init(void);
void wsc_genl_exit(void);

#endif /* _WSC_GENL_FAMILY_H */
