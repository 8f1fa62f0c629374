// SPDX-License-Identifier: MIT
/*
 * adv-copy: small reads and writes.  Copies a file in pieces of P bytes
 * (64 by default): plain, a read and a write per piece; with libwsc, K
 * read/write pairs per batch, each write's count taken from its read's
 * result by reference, until a read comes back short.  The checksum
 * covers the bytes copied.  advise.h says the modes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "advise.h"

#define USAGE	"adv-copy MODE SRC DST [-n KIB] [-p PIECE] [-k PAIRS_PER_BATCH] [-r REPS]"
/* Two entries per pair: a batch of 1024 entries holds 512 pairs. */
#define COPY_MAX_K	512

static uint64_t copy_plain(int in, int out, char *buf, size_t piece)
{
	uint64_t sum = 0;
	ssize_t got;

	while ((got = read(in, buf, piece)) > 0) {
		if (write(out, buf, (size_t)got) != got)
			adv_die("write", errno);
		sum = adv_checksum(buf, (size_t)got, 1, sum);
	}
	if (got < 0)
		adv_die("read", errno);
	return sum;
}

/*
 * The file's size, asked once, bounds the last batch: a batch of reads
 * past the end would cost what a plain program never pays.
 */
static uint64_t copy_batched(struct wsc_batch *b, int in, int out, char *buf,
			     size_t piece, unsigned int k)
{
	int64_t got = (int64_t)piece;
	uint64_t left, sum = 0;
	unsigned int j, m;
	struct stat st;
	int rd, wr;

	if (fstat(in, &st))
		adv_die("fstat", errno);
	left = (uint64_t)st.st_size;
	while (got == (int64_t)piece) {
		/* The pieces left, and one read to see the end. */
		m = left / piece + 1 < k ? (unsigned int)(left / piece + 1) : k;
		wsc_batch_reset(b);
		for (j = 0; j < m; j++) {
			rd = wsc_prep_read(b, in, buf + j * piece, piece);
			wr = wsc_prep_write(b, out, buf + j * piece, 0);
			if (rd < 0 || wr < 0 || wsc_entry_ref(b, wr, 2, rd))
				adv_die("wsc_prep", EINVAL);
		}
		adv_submit(b);
		for (j = 0; j < m && got == (int64_t)piece; j++) {
			got = wsc_batch_result(b, 2 * j);
			if (got < 0)
				adv_die("read", got);
			if (wsc_batch_result(b, 2 * j + 1) != got)
				adv_die("write", wsc_batch_result(b, 2 * j + 1));
			if (got > 0)
				sum = adv_checksum(buf + j * piece, (size_t)got, 1, sum);
			left -= (uint64_t)got < left ? (uint64_t)got : left;
		}
	}
	return sum;
}

static void copy_setup(const char *path, unsigned int kib)
{
	char block[1024];
	unsigned int i, j;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		adv_die(path, errno);
	for (i = 0; i < kib; i++) {
		for (j = 0; j < sizeof(block); j++)
			block[j] = (char)(i * 31 + j * 7);
		if (write(fd, block, sizeof(block)) != sizeof(block))
			adv_die(path, errno);
	}
	close(fd);
}

struct copy {
	const char *src, *dst;
	int in, out;
	char *buf;
	size_t piece;
	unsigned int k;
};

/* Each repetition copies the whole file again, into an empty one. */
static void copy_prepare(void *ctx)
{
	struct copy *c = ctx;

	if (c->in >= 0)
		close(c->in);
	if (c->out >= 0)
		close(c->out);
	c->in = open(c->src, O_RDONLY | O_CLOEXEC);
	c->out = open(c->dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (c->in < 0 || c->out < 0)
		adv_die(c->in < 0 ? c->src : c->dst, errno);
}

static uint64_t copy_run(void *ctx, enum adv_mode mode, struct wsc_batch *b)
{
	(void)mode;
	struct copy *c = ctx;

	return b ? copy_batched(b, c->in, c->out, c->buf, c->piece, c->k) :
		   copy_plain(c->in, c->out, c->buf, c->piece);
}

int main(int argc, char **argv)
{
	struct adv_args a = { .n = 256, .k = COPY_MAX_K, .piece = 64 };
	struct copy c = { .in = -1, .out = -1 };
	struct adv_work w = { copy_prepare, copy_run, &c };

	adv_parse(argc, argv, USAGE, 1, &a);
	if (a.k > COPY_MAX_K)
		a.k = COPY_MAX_K;
	if (a.mode == ADV_SETUP) {
		copy_setup(a.path, a.n);
		return 0;
	}
	c.src = a.path;
	c.dst = a.out;
	c.piece = a.piece;
	c.k = a.k;
	c.buf = malloc((size_t)a.piece * a.k);
	if (!c.buf)
		adv_die("malloc", ENOMEM);
	adv_time(&a, &w);
	free(c.buf);
	return 0;
}
