// SPDX-License-Identifier: MIT
/*
 * adv-mix: system calls with user work between them.  For each of N
 * small files: read it whole (openat, fstat, read, close: four calls
 * close together), checksum it W times over (a long gap), write a line
 * with the sum to the output file (one call), then check the line (a
 * shorter gap, still long).  A run of four and a run of one per file:
 * the one is below any break-even.
 *
 * libwsc batches each file's four calls and makes the write plain, as
 * the advice says; wrapped, break-even and conventional batch the write
 * too (advise.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "advise_files.h"

#define USAGE	"adv-mix MODE DIR OUT [-n FILES] [-w WORK]"

/* One file's line of output. */
static int mix_line(char *line, size_t len, const struct adv_file *f,
		    uint64_t h)
{
	return snprintf(line, len, "%s %016llx\n", f->name, (unsigned long long)h);
}

static void mix_write(struct wsc_batch *b, enum adv_mode mode, int out,
		      const char *line, int len)
{
	int64_t ret;
	int e;

	if (!b || mode == ADV_LIBWSC) {
		ret = write(out, line, (size_t)len);
		if (ret < 0)
			ret = -errno;
	} else {
		wsc_batch_reset(b);
		e = wsc_prep_write(b, out, line, (size_t)len);
		if (e < 0)
			adv_die("wsc_prep_write", e);
		adv_submit(b);
		ret = wsc_batch_result(b, e);
	}
	if (ret != len)
		adv_die("write", ret < 0 ? ret : EIO);
}

int main(int argc, char **argv)
{
	struct adv_args a = { .n = 500, .work = 4 };
	static struct adv_file f;
	struct wsc_batch *b;
	uint64_t t0, t1, h, sum = 0;
	char line[64];
	unsigned int i;
	int dir, out, len;
	long got;

	adv_parse(argc, argv, USAGE, 1, &a);
	dir = adv_files_dir(&a);
	if (a.mode == ADV_SETUP)
		return 0;
	out = open(a.out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		adv_die(a.out, errno);
	b = adv_batch(a.mode);
	t0 = adv_now();
	for (i = 0; i < a.n; i++) {
		adv_file_name(&f, i);
		if (b) {
			wsc_batch_reset(b);
			adv_file_queue(b, dir, &f);
			adv_submit(b);
			got = adv_file_result(b, &f);
		} else {
			got = adv_file_plain(dir, &f);
		}
		h = adv_file_sum(&f, got, a.work, 0);
		len = mix_line(line, sizeof(line), &f, h);
		mix_write(b, a.mode, out, line, len);
		sum = adv_checksum(line, (size_t)len, a.work * 32, sum);
	}
	t1 = adv_now();
	adv_report(&a, t1 - t0, sum, b);
	close(out);
	return 0;
}
