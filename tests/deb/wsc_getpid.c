// SPDX-License-Identifier: MIT
/*
 * wsc_getpid: a program built the way a user of the libwsc-dev package
 * builds one (cc wsc_getpid.c $(pkg-config --cflags --libs libwsc)),
 * run by tests/check-deb in the VM booted on the root the packages were
 * installed in.  It submits one batch of getpid() calls to /dev/wsc, with
 * no fallback: it fails unless the DKMS-built module ran them.
 *
 * Prints "libwsc VERSION: N wrapped getpid in 1 kernel entry, pid PID".
 * Exit status: 0 every result is this process's pid, 1 otherwise.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libwsc.h>

#define CALLS 8

int main(void)
{
	struct wsc_batch *b;
	int entry[CALLS];
	int i, ret;

	ret = wsc_batch_create(&b, 0);
	if (ret) {
		fprintf(stderr, "wsc_batch_create: %s\n", strerror(-ret));
		return 1;
	}
	if (!wsc_batch_is_native(b)) {
		fprintf(stderr, "no /dev/wsc: the batch would not be wrapped\n");
		goto fail;
	}
	for (i = 0; i < CALLS; i++)
		entry[i] = wsc_prep_getpid(b);
	ret = wsc_batch_submit(b);
	if (ret != CALLS) {
		fprintf(stderr, "wsc_batch_submit: %d\n", ret);
		goto fail;
	}
	for (i = 0; i < CALLS; i++) {
		if (wsc_batch_result(b, entry[i]) != getpid()) {
			fprintf(stderr, "entry %d: %lld, pid %d\n", i,
				(long long)wsc_batch_result(b, entry[i]), getpid());
			goto fail;
		}
	}
	printf("libwsc %s: %d wrapped getpid in %lu kernel entry, pid %d\n",
	       wsc_version(), CALLS, wsc_batch_kernel_entries(b), getpid());
	wsc_batch_destroy(b);
	return 0;
fail:
	wsc_batch_destroy(b);
	return 1;
}
