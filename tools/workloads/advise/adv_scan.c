// SPDX-License-Identifier: MIT
/*
 * adv-scan: a file scan.  For each of N small files of a folder: openat,
 * fstat, read its first 4 KiB, close (advise_files.h).  Plain, each call
 * enters the kernel; with libwsc, K files' 4K calls go in one batch, each
 * file's fstat, read and close taking the descriptor from its openat by
 * reference.  The checksum covers every size and byte read.  advise.h
 * says the modes.
 */
#include "advise_files.h"

#define USAGE	"adv-scan MODE DIR [-n FILES] [-k FILES_PER_BATCH] [-r REPS]"
/* Four calls per file: a batch of 1024 entries holds 256 files. */
#define SCAN_MAX_K	256

static uint64_t scan_plain(int dir, unsigned int n)
{
	static struct adv_file f;
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		adv_file_name(&f, i);
		sum = adv_file_sum(&f, adv_file_plain(dir, &f), 1, sum);
	}
	return sum;
}

static uint64_t scan_batched(struct wsc_batch *b, int dir, unsigned int n,
			     unsigned int k)
{
	static struct adv_file files[SCAN_MAX_K];
	uint64_t sum = 0;
	unsigned int i, j, m;

	for (i = 0; i < n; i += m) {
		m = n - i < k ? n - i : k;
		wsc_batch_reset(b);
		for (j = 0; j < m; j++) {
			adv_file_name(&files[j], i + j);
			adv_file_queue(b, dir, &files[j]);
		}
		adv_submit(b);
		for (j = 0; j < m; j++)
			sum = adv_file_sum(&files[j],
					   adv_file_result(b, &files[j]), 1, sum);
	}
	return sum;
}

struct scan {
	int dir;
	unsigned int n, k;
};

static uint64_t scan_run(void *ctx, enum adv_mode mode, struct wsc_batch *b)
{
	(void)mode;
	struct scan *s = ctx;

	return b ? scan_batched(b, s->dir, s->n, s->k) : scan_plain(s->dir, s->n);
}

int main(int argc, char **argv)
{
	struct adv_args a = { .n = 2000, .k = 1 };
	struct scan s;
	struct adv_work w = { .run = scan_run, .ctx = &s };

	adv_parse(argc, argv, USAGE, 0, &a);
	if (a.k > SCAN_MAX_K)
		a.k = SCAN_MAX_K;
	s.dir = adv_files_dir(&a);
	if (a.mode == ADV_SETUP)
		return 0;
	s.n = a.n;
	s.k = a.k;
	adv_time(&a, &w);
	return 0;
}
