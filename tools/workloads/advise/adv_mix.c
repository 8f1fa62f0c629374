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

#define USAGE	"adv-mix MODE DIR OUT [-n FILES] [-w WORK] [-r REPS]"

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

struct mix {
	const char *out_path;
	int dir, out;
	unsigned int n, work;
};

/* Each repetition writes its lines into an empty file. */
static void mix_prepare(void *ctx)
{
	struct mix *m = ctx;

	if (m->out >= 0)
		close(m->out);
	m->out = open(m->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (m->out < 0)
		adv_die(m->out_path, errno);
}

static uint64_t mix_run(void *ctx, enum adv_mode mode, struct wsc_batch *b)
{
	static struct adv_file f;
	struct mix *m = ctx;
	uint64_t h, sum = 0;
	char line[64];
	unsigned int i;
	int len;
	long got;

	for (i = 0; i < m->n; i++) {
		adv_file_name(&f, i);
		if (b) {
			wsc_batch_reset(b);
			adv_file_queue(b, m->dir, &f);
			adv_submit(b);
			got = adv_file_result(b, &f);
		} else {
			got = adv_file_plain(m->dir, &f);
		}
		h = adv_file_sum(&f, got, m->work, 0);
		len = mix_line(line, sizeof(line), &f, h);
		mix_write(b, mode, m->out, line, len);
		sum = adv_checksum(line, (size_t)len, m->work * 128, sum);
	}
	return sum;
}

int main(int argc, char **argv)
{
	struct adv_args a = { .n = 500, .work = 4 };
	struct mix m = { .out = -1 };
	struct adv_work w = { mix_prepare, mix_run, &m };

	adv_parse(argc, argv, USAGE, 1, &a);
	m.dir = adv_files_dir(&a);
	if (a.mode == ADV_SETUP)
		return 0;
	m.out_path = a.out;
	m.n = a.n;
	m.work = a.work;
	adv_time(&a, &w);
	return 0;
}
