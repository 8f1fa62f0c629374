// SPDX-License-Identifier: MIT
/*
 * wsc trace --advise: the gap floor, the user time between two calls
 * made back to back as a trace that records events sees it.  It holds
 * the first call's exit path and the second's entry path, and the trace's
 * own probes on both (which a plain entry, timed without a trace, does
 * not): under TCG several entries' worth.  A child of ours makes
 * FLOOR_CALLS getpid calls in a row under a trace of its own; the floor
 * is the median of the gaps between them.  The default --gap is
 * ADVISE_GAP_FLOORS of it (advise.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "advise_calib.h"

#define FLOOR_CALLS	2000

/* The child's getpid events, in no order. */
struct floor_events {
	struct wsc_trace_event ev[FLOOR_CALLS];
	size_t n;
};

static int floor_take(void *ctx, const struct wsc_trace_event *ev, size_t n)
{
	struct floor_events *f = ctx;
	size_t i;

	for (i = 0; i < n && f->n < FLOOR_CALLS; i++)
		if (ev[i].nr == SYS_getpid)
			f->ev[f->n++] = ev[i];
	return 0;
}

static int by_entry(const void *a, const void *b)
{
	const struct wsc_trace_event *x = a, *y = b;

	return x->enter_ns < y->enter_ns ? -1 : x->enter_ns > y->enter_ns;
}

/* The child: told to go by a byte on @go, then the calls in a row. */
static void floor_child(int go)
{
	char c;
	int i;

	if (read(go, &c, 1) != 1)
		_exit(1);
	for (i = 0; i < FLOOR_CALLS; i++)
		syscall(SYS_getpid);
	_exit(0);
}

/* Trace the child's calls; its events into @f.  0 or -errno. */
static int floor_trace(struct wsc_trace *tr, struct floor_events *f)
{
	struct wsc_trace_spec spec = { 0 };
	int go[2], status, err;
	pid_t pid;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto close_pipe;
	}
	if (!pid)
		floor_child(go[0]);
	spec.pid = (uint32_t)pid;
	err = wsc_trace_begin(tr, &spec);
	if (err) {
		kill(pid, SIGKILL);
	} else if (write(go[1], "x", 1) != 1) {
		err = -EIO;
		kill(pid, SIGKILL);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!err)
		err = wsc_trace_stop(tr);
	if (!err && wsc_trace_events(tr, floor_take, f, NULL) < 0)
		err = -EIO;
close_pipe:
	close(go[0]);
	close(go[1]);
	return err;
}

int advise_gap_floor(double *out)
{
	static struct floor_events f;
	double *gaps;
	struct wsc_trace *tr;
	size_t i;
	int err;

	f.n = 0;
	err = wsc_trace_open(&tr);
	if (err)
		return err;
	err = wsc_trace_set_events(tr, FLOOR_CALLS + 64);
	if (!err)
		err = floor_trace(tr, &f);
	wsc_trace_close(tr);
	if (err)
		return err;
	if (f.n < FLOOR_CALLS / 2)
		return -ENODATA;	/* lost, or not traced */
	gaps = malloc((f.n - 1) * sizeof(*gaps));
	if (!gaps)
		return -ENOMEM;
	qsort(f.ev, f.n, sizeof(f.ev[0]), by_entry);
	for (i = 1; i < f.n; i++)
		gaps[i - 1] = f.ev[i].enter_ns > f.ev[i - 1].exit_ns ?
			      (double)(f.ev[i].enter_ns - f.ev[i - 1].exit_ns) : 0;
	*out = wsc_stats_median(gaps, f.n - 1);
	free(gaps);
	return 0;
}
