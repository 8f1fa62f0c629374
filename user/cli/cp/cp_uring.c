// SPDX-License-Identifier: MIT
/*
 * The IO_URING cp program: each transaction six linked requests (openat,
 * openat, read, write, close, close) on direct descriptors, so that no
 * file table entry is made, T transactions per io_uring_submit_and_wait().
 *
 * Two things io_uring cannot do that WSC+CHAIN does: a request cannot take
 * an earlier one's result as an argument, so the write is for the file's
 * known size rather than for what the read returned (a short read fails
 * the link, and the transaction is reported failed); and a failure
 * cancels the rest of the link, the closes included, so a failed
 * transaction's descriptors are released afterwards by a files update.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>

#include "cp.h"

/* Direct descriptors refuse O_CLOEXEC: they are not in the file table. */
#define CP_URING_SRC_FLAGS	O_RDONLY
#define CP_URING_DST_FLAGS	(O_WRONLY | O_CREAT | O_TRUNC)

struct cp_uring {
	struct io_uring ring;
	unsigned int slots;
	int64_t *res;		/* CP_NR_STEPS per transaction of a submission */
};

/**
 * cp_uring_setup() - make the ring and its table of direct descriptors
 * @w: the work, with @threshold set
 *
 * Return: 0, or -errno with @w->uring_why saying why; the program is then
 * left out of the run, not failed.
 */
int cp_uring_setup(struct cp_work *w)
{
	struct cp_uring *u = calloc(1, sizeof(*u));
	unsigned int entries = CP_NR_STEPS * w->threshold;
	int ret;

	if (!u)
		return -ENOMEM;
	u->slots = 2 * w->threshold;
	u->res = calloc((size_t)entries, sizeof(*u->res));
	if (!u->res) {
		ret = -ENOMEM;
		goto free_uring;
	}
	ret = io_uring_queue_init(entries, &u->ring, 0);
	if (ret < 0) {
		snprintf(w->uring_why, sizeof(w->uring_why),
			 "io_uring_queue_init: %s", strerror(-ret));
		goto free_res;
	}
	ret = io_uring_register_files_sparse(&u->ring, u->slots);
	if (ret < 0) {
		snprintf(w->uring_why, sizeof(w->uring_why),
			 "io_uring_register_files_sparse: %s", strerror(-ret));
		goto exit_queue;
	}
	w->uring = u;
	return 0;

exit_queue:
	io_uring_queue_exit(&u->ring);
free_res:
	free(u->res);
free_uring:
	free(u);
	return ret;
}

void cp_uring_teardown(struct cp_work *w)
{
	struct cp_uring *u = w->uring;

	if (!u)
		return;
	io_uring_queue_exit(&u->ring);
	free(u->res);
	free(u);
	w->uring = NULL;
}

/* user_data: the transaction's place in the submission, and the step. */
static inline uint64_t cp_uring_tag(unsigned int j, enum cp_step step)
{
	return (uint64_t)j * CP_NR_STEPS + step;
}

static void cp_uring_prep(struct cp_work *w, unsigned int i, unsigned int j)
{
	struct io_uring *ring = &w->uring->ring;
	unsigned int src = 2 * j, dst = 2 * j + 1;
	void *buf = w->buf + (size_t)i * w->size;
	struct io_uring_sqe *sqe[CP_NR_STEPS];
	int s;

	/* The ring holds CP_NR_STEPS * T entries: these cannot fail. */
	for (s = 0; s < CP_NR_STEPS; s++)
		sqe[s] = io_uring_get_sqe(ring);
	io_uring_prep_openat_direct(sqe[CP_STEP_OPEN_SRC], w->dirfd,
				    cp_file(w, false, i), CP_URING_SRC_FLAGS,
				    0, src);
	io_uring_prep_openat_direct(sqe[CP_STEP_OPEN_DST], w->dirfd,
				    cp_file(w, true, i), CP_URING_DST_FLAGS,
				    0644, dst);
	io_uring_prep_read(sqe[CP_STEP_READ], (int)src, buf, (unsigned int)w->size, 0);
	sqe[CP_STEP_READ]->flags |= IOSQE_FIXED_FILE;
	io_uring_prep_write(sqe[CP_STEP_WRITE], (int)dst, buf, (unsigned int)w->size, 0);
	sqe[CP_STEP_WRITE]->flags |= IOSQE_FIXED_FILE;
	io_uring_prep_close_direct(sqe[CP_STEP_CLOSE_SRC], src);
	io_uring_prep_close_direct(sqe[CP_STEP_CLOSE_DST], dst);
	for (s = 0; s < CP_NR_STEPS; s++) {
		io_uring_sqe_set_data64(sqe[s], cp_uring_tag(j, (enum cp_step)s));
		if (s + 1 < CP_NR_STEPS)
			sqe[s]->flags |= IOSQE_IO_LINK;
	}
}

/*
 * Settle the transactions of one submission from their completions, and
 * free the slots of any whose close did not run.
 */
static void cp_uring_settle(struct cp_work *w, unsigned int base,
			    unsigned int k)
{
	struct cp_uring *u = w->uring;
	unsigned int j;
	int s;

	for (j = 0; j < k; j++) {
		struct cp_txn *t = &w->txn[base + j];
		const int64_t *r = u->res + (size_t)j * CP_NR_STEPS;

		for (s = 0; s < CP_NR_STEPS; s++)
			cp_judge(t, (enum cp_step)s, r[s]);
		/* An open whose close was cancelled still holds its slot. */
		for (s = CP_STEP_OPEN_SRC; s <= CP_STEP_OPEN_DST; s++) {
			int none = -1;

			if (r[s] >= 0 && r[CP_STEP_CLOSE_SRC + s] < 0)
				io_uring_register_files_update(&u->ring,
							       2 * j + (unsigned int)s,
							       &none, 1);
		}
	}
}

/**
 * cp_uring_quiesce() - let go of every file the last run closed
 * @w: the work, after an IO_URING run
 *
 * Closing a direct descriptor does not drop the file at once: io_uring
 * puts it when the table's resource node is retired, a little later.
 * Until then a removed destination still holds its blocks, so the next
 * program could find the filesystem fuller than it is (a small tmpfs
 * runs out).  Unregistering the table waits for those puts.  Not timed.
 *
 * Return: 0 or -errno.
 */
int cp_uring_quiesce(struct cp_work *w)
{
	struct cp_uring *u = w->uring;
	int ret;

	if (!u)
		return 0;
	ret = io_uring_unregister_files(&u->ring);
	if (!ret)
		ret = io_uring_register_files_sparse(&u->ring, u->slots);
	if (ret < 0)
		fprintf(stderr, "wsc cp: io_uring files table: %s\n",
			strerror(-ret));
	return ret < 0 ? ret : 0;
}

/**
 * cp_run_io_uring() - the IO_URING program
 * @w: the work, reset, with cp_uring_setup() done
 *
 * Return: 0, or -errno when io_uring itself failed.
 */
int cp_run_io_uring(struct cp_work *w)
{
	struct cp_uring *u = w->uring;
	struct io_uring_cqe *cqe;
	unsigned int base, j, k, got;
	int ret = 0;

	if (!u)
		return -ENODEV;
	cp_mark(w, CP_MARK_START);
	for (base = 0; base < w->n && !ret; base += k) {
		k = w->n - base < w->threshold ? w->n - base : w->threshold;
		for (j = 0; j < k; j++)
			cp_uring_prep(w, base + j, j);
		for (j = 0; j < k * CP_NR_STEPS; j++)
			u->res[j] = -EAGAIN;
		ret = io_uring_submit_and_wait(&u->ring, k * CP_NR_STEPS);
		if (ret >= 0 && (unsigned int)ret != k * CP_NR_STEPS)
			ret = -EAGAIN;	/* the SQ ring is sized for all of them */
		if (ret < 0) {
			fprintf(stderr, "wsc cp: io_uring_submit_and_wait: %s\n",
				strerror(-ret));
			break;
		}
		ret = 0;
		for (got = 0; got < k * CP_NR_STEPS; got++) {
			ret = io_uring_wait_cqe(&u->ring, &cqe);
			if (ret < 0) {
				fprintf(stderr, "wsc cp: io_uring_wait_cqe: %s\n",
					strerror(-ret));
				break;
			}
			if (cqe->user_data < (uint64_t)k * CP_NR_STEPS)
				u->res[cqe->user_data] = cqe->res;
			io_uring_cqe_seen(&u->ring, cqe);
		}
		cp_uring_settle(w, base, k);
	}
	cp_mark(w, CP_MARK_END);
	return ret;
}
