/* SPDX-License-Identifier: GPL-2.0 */
/* submit.c: WSC_IOC_SUBMIT, from the ioctl's argument to its results. */
#ifndef _WSC_SUBMIT_H
#define _WSC_SUBMIT_H

#include <linux/compiler.h>

struct file;
struct wsc_buf;
struct wsc_submit;

/**
 * struct wsc_file - what one open of /dev/wsc keeps
 * @spare: the last submission's working memory, kept for the next; NULL
 *         before the first and while a submission holds it
 */
struct wsc_file {
	struct wsc_buf *spare;
};

long wsc_submit(struct file *file, struct wsc_submit __user *argp);
void wsc_submit_release(struct wsc_file *wf);
int wsc_submit_init(void);
void wsc_submit_exit(void);

#endif /* _WSC_SUBMIT_H */
