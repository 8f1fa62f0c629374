// SPDX-License-Identifier: MIT
/*
 * cp with libwsc: the example README.md and wsc_prep_read(3) quote, from
 * its first #include on (tests/tools/test_examples checks that they do;
 * tests/vm/t_example_cp.c runs it).  make builds it as build/examples/cp.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <libwsc.h>

/* Submit; then the first failure among the entries (-errno), or 0. */
static int run(struct wsc_batch *b)
{
	int ret = wsc_batch_submit(b);
	unsigned int i;

	for (i = 0; ret >= 0 && i < wsc_batch_count(b); i++) {
		int64_t r = wsc_batch_result(b, i);

		if (r < 0 && r != -ECANCELED)	/* cancelled: an earlier one failed */
			ret = (int)r;
	}
	return ret < 0 ? ret : 0;
}

/*
 * Copy @from to @to, any size: one kernel entry opens both files and
 * copies the first buffer, one per buffer reads and writes the next, and
 * a last one closes what was opened, whatever failed.  Returns the bytes
 * copied, or -errno.
 */
static long long copy(const char *from, const char *to)
{
	static char buf[65536];
	struct wsc_batch *b;
	long long total = 0;
	int err, closed, src, dst, rd, wr, in, out;

	err = wsc_batch_create(&b, WSC_BATCH_FALLBACK);	/* plain calls without /dev/wsc */
	if (err < 0)
		return err;
	src = wsc_prep_openat(b, AT_FDCWD, from, O_RDONLY, 0);
	dst = wsc_prep_openat(b, AT_FDCWD, to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	rd = wsc_prep_read(b, -1, buf, sizeof(buf));
	wsc_entry_ref(b, rd, 0, src);		/* fd    = src's result */
	wr = wsc_prep_write(b, -1, buf, 0);
	wsc_entry_ref(b, wr, 0, dst);		/* fd    = dst's result */
	wsc_entry_ref(b, wr, 2, rd);		/* count = bytes read   */
	err = run(b);
	in = (int)wsc_batch_result(b, src);	/* a descriptor, or -errno */
	out = (int)wsc_batch_result(b, dst);
	while (!err && wsc_batch_result(b, rd) > 0) {
		if (wsc_batch_result(b, wr) != wsc_batch_result(b, rd)) {
			err = -EIO;		/* a short write: the disk is full */
			break;
		}
		total += wsc_batch_result(b, wr);
		wsc_batch_reset(b);		/* the next buffer */
		rd = wsc_prep_read(b, in, buf, sizeof(buf));
		wr = wsc_prep_write(b, out, buf, 0);
		wsc_entry_ref(b, wr, 2, rd);
		err = run(b);
	}
	/*
	 * The closes in a batch of their own, each a chain of its own: a
	 * failed read or write above cancels neither, nor does one the other.
	 */
	wsc_batch_reset(b);
	if (in >= 0)
		wsc_entry_set_flags(b, wsc_prep_close(b, in), WSC_ENTRY_NEW_CHAIN);
	if (out >= 0)
		wsc_entry_set_flags(b, wsc_prep_close(b, out), WSC_ENTRY_NEW_CHAIN);
	closed = run(b);
	if (!err)
		err = closed;			/* a failed close may lose data too */
	wsc_batch_destroy(b);
	return err < 0 ? err : total;
}

int main(int argc, char **argv)
{
	long long n;

	if (argc != 3) {
		fprintf(stderr, "usage: %s FROM TO\n", argv[0]);
		return 2;
	}
	n = copy(argv[1], argv[2]);
	if (n < 0) {
		fprintf(stderr, "%s: %s to %s: %s\n", argv[0], argv[1], argv[2],
			strerror((int)-n));
		return 1;
	}
	printf("copied %lld bytes\n", n);
	return 0;
}
