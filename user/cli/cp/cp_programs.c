// SPDX-License-Identifier: MIT
/*
 * The cp programs that use plain system calls or libwsc, one function per
 * program, each marking where its blocks begin and end.
 *
 * The WSC paper's five (its Figure 5), over N transactions:
 *
 *   NORMAL          open src, open dst, read, write, close, close; N times
 *   NORMAL+COLLECT  N open src | N open dst | N read | N write | N close
 *                   src | N close dst: calls of one type in a block
 *   WSC+COLLECT     the same blocks, each wrapped: libwsc's collect mode
 *                   flushes every T calls, and every block ends with a flush
 *   NORMAL+RW       as NORMAL+COLLECT, but one block of read, write pairs
 *   WSC+RW          as WSC+COLLECT, with that read, write block
 *
 * and ours: WSC+CHAIN (each transaction a chain of six entries whose later
 * calls take the descriptors and the byte count from the earlier ones'
 * results, T transactions per kernel entry), WSC+CHAIN+COLLECT (the same
 * T transactions per entry, their calls in the COLLECT order, tied by the
 * same references) and COPY_FILE_RANGE (open,
 * open, copy_file_range, close, close: what a user would write today).
 * IO_URING is in cp_uring.c.
 *
 * A block program knows after each block which transactions have failed
 * and leaves them out of the later blocks, but closes whatever it opened.
 * In the wrapped blocks every entry starts its own chain, so that one
 * failure cancels only the calls that depend on it.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cp.h"
#include "libwsc.h"

#define CP_SRC_FLAGS	(O_RDONLY | O_CLOEXEC)
#define CP_DST_FLAGS	(O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC)
#define CP_DST_MODE	0644

/*
 * cp_judge(), then the descriptors: what an open returned, closed by a
 * close.  A close that ran freed its fd even if it failed; a cancelled one
 * did not, and cp_run_program()'s safety net closes it.  (io_uring's
 * direct descriptors are slots, not fds: cp_uring.c keeps its own.)
 */
static void cp_settle(struct cp_txn *t, enum cp_step step, int64_t ret)
{
	bool ran = cp_judge(t, step, ret) || ret != -ECANCELED;

	if (step == CP_STEP_OPEN_SRC && ret >= 0)
		t->src_fd = (int)ret;
	if (step == CP_STEP_OPEN_DST && ret >= 0)
		t->dst_fd = (int)ret;
	if (step == CP_STEP_CLOSE_SRC && ran)
		t->src_fd = -1;
	if (step == CP_STEP_CLOSE_DST && ran)
		t->dst_fd = -1;
}

static inline int64_t cp_ret(long ret)
{
	return ret < 0 ? -errno : ret;
}

static inline void *cp_buf(const struct cp_work *w, unsigned int i)
{
	return w->buf + (size_t)i * w->size;
}

/* One call of transaction @i made conventionally, if it still applies. */
static void cp_call(struct cp_work *w, unsigned int i, enum cp_step step)
{
	struct cp_txn *t = &w->txn[i];
	int64_t ret;

	switch (step) {
	case CP_STEP_OPEN_SRC:
		ret = cp_ret(openat(w->dirfd, cp_file(w, false, i),
				    CP_SRC_FLAGS));
		break;
	case CP_STEP_OPEN_DST:
		if (t->err)
			return;
		ret = cp_ret(openat(w->dirfd, cp_file(w, true, i),
				    CP_DST_FLAGS, CP_DST_MODE));
		break;
	case CP_STEP_READ:
		if (t->err)
			return;
		ret = cp_ret(read(t->src_fd, cp_buf(w, i), w->size));
		break;
	case CP_STEP_WRITE:
		if (t->err)
			return;
		ret = cp_ret(write(t->dst_fd, cp_buf(w, i), (size_t)t->nread));
		break;
	case CP_STEP_CLOSE_SRC:
		if (t->src_fd < 0)
			return;
		ret = cp_ret(close(t->src_fd));
		break;
	case CP_STEP_CLOSE_DST:
		if (t->dst_fd < 0)
			return;
		ret = cp_ret(close(t->dst_fd));
		break;
	default:
		return;
	}
	cp_settle(t, step, ret);
}

static void cp_block(struct cp_work *w, enum cp_step step)
{
	unsigned int i;

	for (i = 0; i < w->n; i++)
		cp_call(w, i, step);
}

static int cp_normal(struct cp_work *w)
{
	unsigned int i;
	int s;

	cp_mark(w, CP_MARK_START);
	for (i = 0; i < w->n; i++)
		for (s = 0; s < CP_NR_STEPS; s++)
			cp_call(w, i, (enum cp_step)s);
	cp_mark(w, CP_MARK_END);
	return 0;
}

static int cp_normal_blocks(struct cp_work *w, bool rw)
{
	unsigned int i;

	cp_mark(w, CP_MARK_START);
	cp_block(w, CP_STEP_OPEN_SRC);
	cp_block(w, CP_STEP_OPEN_DST);
	cp_mark(w, CP_MARK_RW);
	if (rw) {
		for (i = 0; i < w->n; i++) {
			cp_call(w, i, CP_STEP_READ);
			cp_call(w, i, CP_STEP_WRITE);
		}
	} else {
		cp_block(w, CP_STEP_READ);
		cp_mark(w, CP_MARK_WRITE);
		cp_block(w, CP_STEP_WRITE);
	}
	cp_mark(w, CP_MARK_RW_END);
	cp_block(w, CP_STEP_CLOSE_SRC);
	cp_block(w, CP_STEP_CLOSE_DST);
	cp_mark(w, CP_MARK_END);
	return 0;
}

/* Whether transaction @t takes part in a wrapped block of @step. */
static bool cp_wsc_wants(const struct cp_txn *t, enum cp_step step)
{
	if (step == CP_STEP_CLOSE_SRC)
		return t->src_fd >= 0;
	if (step == CP_STEP_CLOSE_DST)
		return t->dst_fd >= 0;
	return step == CP_STEP_OPEN_SRC || !t->err;
}

/* Queue @step of transaction @i; the entry's index, or -errno. */
static int cp_wsc_prep(struct cp_work *w, struct wsc_batch *b, unsigned int i,
		       enum cp_step step)
{
	struct cp_txn *t = &w->txn[i];

	switch (step) {
	case CP_STEP_OPEN_SRC:
		return wsc_prep_openat(b, w->dirfd, cp_file(w, false, i),
				       CP_SRC_FLAGS, 0);
	case CP_STEP_OPEN_DST:
		return wsc_prep_openat(b, w->dirfd, cp_file(w, true, i),
				       CP_DST_FLAGS, CP_DST_MODE);
	case CP_STEP_READ:
		return wsc_prep_read(b, t->src_fd, cp_buf(w, i), w->size);
	case CP_STEP_WRITE:
		return wsc_prep_write(b, t->dst_fd, cp_buf(w, i),
				      (size_t)t->nread);
	case CP_STEP_CLOSE_SRC:
		return wsc_prep_close(b, t->src_fd);
	case CP_STEP_CLOSE_DST:
		return wsc_prep_close(b, t->dst_fd);
	default:
		return -EINVAL;
	}
}

static int cp_wsc_fatal(const char *what, int err)
{
	fprintf(stderr, "wsc cp: libwsc: %s: %s\n", what, strerror(-err));
	return err;
}

/*
 * One wrapped block: queue @step (and, for the RW block, the write after
 * each read, its count the read's result), flush, then settle each call.
 * @ent holds two entry indices per transaction.
 */
static int cp_wsc_block(struct cp_work *w, int *ent, enum cp_step step,
			bool with_write)
{
	struct wsc_batch *b = w->collect;
	unsigned int i, queued;
	int e, ret = 0;

	for (queued = 0; queued < w->n && !ret; queued++) {
		i = queued;
		ent[2 * i] = ent[2 * i + 1] = -1;
		if (!cp_wsc_wants(&w->txn[i], step))
			continue;
		e = cp_wsc_prep(w, b, i, step);
		if (e < 0) {
			ret = cp_wsc_fatal("queueing a call", e);
			break;
		}
		ent[2 * i] = e;
		ret = wsc_entry_set_flags(b, e, WSC_ENTRY_NEW_CHAIN);
		if (ret < 0 || !with_write) {
			ret = ret < 0 ? cp_wsc_fatal("flags", ret) : 0;
			continue;
		}
		/* Fd of the write is known; the count is the read's result. */
		e = wsc_prep_write(b, w->txn[i].dst_fd, cp_buf(w, i), 0);
		if (e < 0) {
			ret = cp_wsc_fatal("queueing a write", e);
			break;
		}
		ent[2 * i + 1] = e;
		ret = wsc_entry_ref(b, e, 2, ent[2 * i]);
		if (ret < 0)
			ret = cp_wsc_fatal("a reference", ret);
	}
	if (!ret) {
		ret = wsc_batch_submit(b);
		ret = ret < 0 ? cp_wsc_fatal("submit", ret) : 0;
	}
	/*
	 * Settle whatever ran, even after a failure: a collect-mode flush
	 * may have opened files this block must know about to close them.
	 */
	for (i = 0; i < queued && i < w->n; i++) {
		int64_t r;

		if (ent[2 * i] < 0)
			continue;
		r = wsc_batch_result(b, (unsigned int)ent[2 * i]);
		if (r != -EAGAIN)
			cp_settle(&w->txn[i], step, r);
		if (ent[2 * i + 1] < 0)
			continue;
		r = wsc_batch_result(b, (unsigned int)ent[2 * i + 1]);
		if (r != -EAGAIN)
			cp_settle(&w->txn[i], CP_STEP_WRITE, r);
	}
	/* Nothing left pending for the next block to run unawares. */
	if (ret)
		wsc_batch_reset(b);
	return ret;
}

static int cp_wsc_blocks(struct cp_work *w, bool rw)
{
	int ret;

	wsc_batch_reset(w->collect);
	cp_mark(w, CP_MARK_START);
	ret = cp_wsc_block(w, w->ent, CP_STEP_OPEN_SRC, false);
	if (!ret)
		ret = cp_wsc_block(w, w->ent, CP_STEP_OPEN_DST, false);
	cp_mark(w, CP_MARK_RW);
	if (!ret && rw) {
		ret = cp_wsc_block(w, w->ent, CP_STEP_READ, true);
	} else if (!ret) {
		ret = cp_wsc_block(w, w->ent, CP_STEP_READ, false);
		cp_mark(w, CP_MARK_WRITE);
		if (!ret)
			ret = cp_wsc_block(w, w->ent, CP_STEP_WRITE, false);
	}
	cp_mark(w, CP_MARK_RW_END);
	/* The closes run even after a fatal error: nothing stays open. */
	cp_wsc_block(w, w->ent, CP_STEP_CLOSE_SRC, false);
	cp_wsc_block(w, w->ent, CP_STEP_CLOSE_DST, false);
	cp_mark(w, CP_MARK_END);
	return ret;
}

/*
 * Transaction @i as one chain.  The chain stops at the first failure, so
 * each close starts a chain of its own: it runs whenever its open
 * succeeded (a reference to a failed open cancels it).
 */
static int cp_chain_prep(struct cp_work *w, unsigned int i)
{
	struct wsc_batch *b = w->chain;
	int os, od, rd, wr, cs, cd, ret;

	os = wsc_prep_openat(b, w->dirfd, cp_file(w, false, i), CP_SRC_FLAGS, 0);
	od = wsc_prep_openat(b, w->dirfd, cp_file(w, true, i), CP_DST_FLAGS,
			     CP_DST_MODE);
	rd = wsc_prep_read(b, -1, cp_buf(w, i), w->size);
	wr = wsc_prep_write(b, -1, cp_buf(w, i), 0);
	cs = wsc_prep_close(b, -1);
	cd = wsc_prep_close(b, -1);
	ret = os < 0 ? os : od < 0 ? od : rd < 0 ? rd : wr < 0 ? wr :
	      cs < 0 ? cs : cd < 0 ? cd : 0;
	if (ret < 0)
		return cp_wsc_fatal("queueing a transaction", ret);
	ret = wsc_entry_set_flags(b, os, WSC_ENTRY_NEW_CHAIN);
	ret = ret ?: wsc_entry_ref(b, rd, 0, os);
	ret = ret ?: wsc_entry_ref(b, wr, 0, od);
	ret = ret ?: wsc_entry_ref(b, wr, 2, rd);
	ret = ret ?: wsc_entry_ref(b, cs, 0, os);
	ret = ret ?: wsc_entry_set_flags(b, cs, WSC_ENTRY_NEW_CHAIN);
	ret = ret ?: wsc_entry_ref(b, cd, 0, od);
	ret = ret ?: wsc_entry_set_flags(b, cd, WSC_ENTRY_NEW_CHAIN);
	if (ret < 0)
		return cp_wsc_fatal("building a chain", ret);
	return os;
}

/*
 * Transactions @base..@base + @k - 1 with the calls of one type together
 * (the COLLECT order) in one submission.  Every entry starts a chain of its
 * own; what ties a transaction together is its references: a read of a
 * failed open, a write of a failed read, a close of a failed open are
 * cancelled, exactly as in the chain above.  One difference: the
 * destination is opened even when the source's open failed (openat has no
 * argument to refer to it through); the failed transaction's file is
 * removed afterwards like any other partial file.
 */
static int cp_chain_collect_prep(struct cp_work *w, unsigned int base,
				 unsigned int k)
{
	struct wsc_batch *b = w->chain;
	unsigned int j, i;
	int e0 = -1, e, ret = 0;

	for (j = 0; j < k && ret >= 0; j++) {
		i = base + j;
		e = wsc_prep_openat(b, w->dirfd, cp_file(w, false, i), CP_SRC_FLAGS, 0);
		e0 = j ? e0 : e;
		w->ent[2 * i] = e;
		w->ent[2 * i + 1] = (int)k;
		ret = e < 0 ? e : 0;
	}
	for (j = 0; j < k && ret >= 0; j++)
		ret = wsc_prep_openat(b, w->dirfd, cp_file(w, true, base + j),
				      CP_DST_FLAGS, CP_DST_MODE);
	for (j = 0; j < k && ret >= 0; j++) {
		e = wsc_prep_read(b, -1, cp_buf(w, base + j), w->size);
		ret = e < 0 ? e : wsc_entry_ref(b, e, 0, e0 + (int)j);
	}
	for (j = 0; j < k && ret >= 0; j++) {
		e = wsc_prep_write(b, -1, cp_buf(w, base + j), 0);
		ret = e < 0 ? e : wsc_entry_ref(b, e, 0, e0 + (int)(k + j));
		ret = ret ?: wsc_entry_ref(b, e, 2, e0 + (int)(2 * k + j));
	}
	for (j = 0; j < 2 * k && ret >= 0; j++) {
		e = wsc_prep_close(b, -1);
		/* close src j refers to open src j, close dst j to open dst j */
		ret = e < 0 ? e : wsc_entry_ref(b, e, 0, e0 + (int)j);
	}
	for (e = e0; ret >= 0 && e < e0 + 6 * (int)k; e++)
		ret = wsc_entry_set_flags(b, e, WSC_ENTRY_NEW_CHAIN);
	return ret < 0 ? cp_wsc_fatal("building a submission", ret) : 0;
}

static int cp_wsc_chain(struct cp_work *w, bool collect)
{
	struct wsc_batch *b = w->chain;
	unsigned int i, queued, pending = 0;
	int first, s, ret = 0;

	wsc_batch_reset(b);
	cp_mark(w, CP_MARK_START);
	for (queued = 0; queued < w->n && !ret;) {
		if (collect) {
			unsigned int k = w->n - queued < w->threshold ?
				w->n - queued : w->threshold;

			ret = cp_chain_collect_prep(w, queued, k);
			if (ret)
				break;
			queued += k;
		} else {
			first = cp_chain_prep(w, queued);
			if (first < 0) {
				ret = first;
				break;
			}
			w->ent[2 * queued] = first;
			w->ent[2 * queued + 1] = 1;
			queued++;
			if (++pending < w->threshold && queued < w->n)
				continue;
			pending = 0;
		}
		ret = wsc_batch_submit(b);
		ret = ret < 0 ? cp_wsc_fatal("submit", ret) : 0;
	}
	/*
	 * Step s of transaction i is entry ent[2i] + s * ent[2i + 1].
	 * Entries that never ran say -EAGAIN: their transaction failed.
	 */
	for (i = 0; i < queued && i < w->n; i++) {
		for (s = 0; s < CP_NR_STEPS; s++) {
			unsigned int e = (unsigned int)(w->ent[2 * i] +
							s * w->ent[2 * i + 1]);
			int64_t r = wsc_batch_result(b, e);

			if (r != -EAGAIN)
				cp_settle(&w->txn[i], (enum cp_step)s, r);
		}
	}
	cp_mark(w, CP_MARK_END);
	return ret;
}

static int cp_copy_file_range(struct cp_work *w)
{
	unsigned int i;

	cp_mark(w, CP_MARK_START);
	for (i = 0; i < w->n; i++) {
		struct cp_txn *t = &w->txn[i];
		int64_t done = 0, ret = 0;

		cp_call(w, i, CP_STEP_OPEN_SRC);
		cp_call(w, i, CP_STEP_OPEN_DST);
		while (!t->err && done < (int64_t)w->size) {
			ret = cp_ret(copy_file_range(t->src_fd, NULL, t->dst_fd,
						     NULL, w->size - (size_t)done,
						     0));
			if (ret <= 0)
				break;
			done += ret;
		}
		/* Read and write are one call here; errors count as writes. */
		if (!t->err && ret < 0)
			cp_fail(t, CP_STEP_WRITE, (int)-ret);
		else if (!t->err && done != (int64_t)w->size)
			cp_fail(t, CP_STEP_READ, EIO);
		t->nread = done;
		cp_call(w, i, CP_STEP_CLOSE_SRC);
		cp_call(w, i, CP_STEP_CLOSE_DST);
	}
	cp_mark(w, CP_MARK_END);
	return 0;
}

/**
 * cp_run_program() - run program @p once over every transaction
 * @w: the work, reset (no destinations, fresh transaction state)
 * @p: the program
 *
 * Per-transaction failures are left in @w->txn.  After the run no
 * descriptor of it is open, whatever failed.
 *
 * Return: 0, or -errno when the program itself could not go on (libwsc
 * or io_uring refused a submission), after saying why; the run then
 * counts for nothing and its caller removes every copy.
 */
int cp_run_program(struct cp_work *w, enum cp_program p)
{
	unsigned int i;
	int ret;

	switch (p) {
	case CP_NORMAL:
		ret = cp_normal(w);
		break;
	case CP_NORMAL_COLLECT:
		ret = cp_normal_blocks(w, false);
		break;
	case CP_NORMAL_RW:
		ret = cp_normal_blocks(w, true);
		break;
	case CP_WSC_COLLECT:
		ret = cp_wsc_blocks(w, false);
		break;
	case CP_WSC_RW:
		ret = cp_wsc_blocks(w, true);
		break;
	case CP_WSC_CHAIN:
		ret = cp_wsc_chain(w, false);
		break;
	case CP_WSC_CHAIN_COLLECT:
		ret = cp_wsc_chain(w, true);
		break;
	case CP_IO_URING:
		ret = cp_run_io_uring(w);
		break;
	case CP_COPY_FILE_RANGE:
		ret = cp_copy_file_range(w);
		break;
	default:
		return -EINVAL;
	}
	/* A program that gave up may have left descriptors open. */
	for (i = 0; i < w->n; i++) {
		struct cp_txn *t = &w->txn[i];

		if (t->src_fd >= 0)
			close(t->src_fd);
		if (t->dst_fd >= 0)
			close(t->dst_fd);
		t->src_fd = t->dst_fd = -1;
	}
	return ret;
}
