// SPDX-License-Identifier: GPL-2.0
/*
 * The observers' workload (tests/vm/t_observers.sh): N transactions in
 * folder DIR, each openat(DIR/fI, O_CREAT), write of 3 bytes to it, close,
 * then unlinkat, one libwsc batch per transaction (wrapped) or the same
 * batch with WSC_BATCH_CONVENTIONAL (plain).  An observer must see the
 * same calls either way.
 *
 *   wl_txn wrapped|plain DIR N
 *
 * Prints, on stdout, how the batches ran: "native N plain M refused R"
 * (the calls libwsc ran as plain system calls, the reasons' bits).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libwsc.h>

int main(int argc, char **argv)
{
	unsigned int flags, i, n, refused = 0;
	unsigned long plain = 0, total = 0;
	char path[4096];

	if (argc != 4 || (strcmp(argv[1], "wrapped") && strcmp(argv[1], "plain"))) {
		fprintf(stderr, "usage: wl_txn wrapped|plain DIR N\n");
		return 2;
	}
	flags = strcmp(argv[1], "plain") ? 0 : WSC_BATCH_CONVENTIONAL;
	n = (unsigned int)strtoul(argv[3], NULL, 10);
	for (i = 0; i < n; i++) {
		struct wsc_batch *b;
		int e[4], ret;

		snprintf(path, sizeof(path), "%s/f%u", argv[2], i);
		ret = wsc_batch_create(&b, flags);
		if (ret) {
			fprintf(stderr, "wl_txn: wsc_batch_create: %s\n", strerror(-ret));
			return 1;
		}
		e[0] = wsc_prep_openat(b, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		e[1] = wsc_prep_write(b, 0, "wsc", 3);
		wsc_entry_ref(b, e[1], 0, e[0]);
		e[2] = wsc_prep_close(b, 0);
		wsc_entry_ref(b, e[2], 0, e[0]);
		e[3] = wsc_prep_unlinkat(b, AT_FDCWD, path, 0);
		ret = wsc_batch_submit(b);
		if (ret != 4 || wsc_batch_result(b, e[1]) != 3 ||
		    wsc_batch_result(b, e[3]) != 0) {
			fprintf(stderr, "wl_txn: transaction %u: %d, write %lld, unlinkat %lld\n",
				i, ret, (long long)wsc_batch_result(b, e[1]),
				(long long)wsc_batch_result(b, e[3]));
			return 1;
		}
		plain += wsc_batch_conventional_calls(b);
		refused |= wsc_batch_refused(b);
		total += 4;
		wsc_batch_destroy(b);
	}
	printf("native %lu plain %lu refused %u\n", total - plain, plain, refused);
	return 0;
}
