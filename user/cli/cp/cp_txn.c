// SPDX-License-Identifier: MIT
/*
 * What every cp program does the same way, whether its calls are plain,
 * wrapped or io_uring requests: the marks it times, and what a call's
 * result means for its transaction.
 */
#include <errno.h>

#include "common/clock.h"
#include "cp.h"

void cp_mark(struct cp_work *w, enum cp_mark m)
{
	w->mark_ns[m] = clock_now_ns();
	if (w->have_counters)
		counter_group_read(&w->counters, w->mark_ev[m], NULL);
}

/* Record @t's first failure; later ones follow from it. */
void cp_fail(struct cp_txn *t, enum cp_step step, int err)
{
	if (t->err)
		return;
	t->err = err;
	t->step = step;
}

/**
 * cp_judge() - what one call's result means for its transaction
 * @t:    the transaction
 * @step: which of its calls
 * @ret:  the call's return value or the entry's or request's result
 *
 * The rules every program shares: a failure is the transaction's first
 * unless one is already recorded (a cancelled call then only follows from
 * it); a read's count is kept; a write shorter than that count fails the
 * transaction (ENOSPC on the next write, typically).
 *
 * Return: whether the call succeeded.
 */
bool cp_judge(struct cp_txn *t, enum cp_step step, int64_t ret)
{
	if (ret < 0) {
		if (ret != -ECANCELED || !t->err)
			cp_fail(t, step, (int)-ret);
		return false;
	}
	if (step == CP_STEP_READ)
		t->nread = ret;
	if (step == CP_STEP_WRITE && ret != t->nread) {
		t->short_count = ret;
		cp_fail(t, step, EIO);
	}
	return true;
}
