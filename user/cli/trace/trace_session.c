// SPDX-License-Identifier: MIT
/*
 * wsc trace: a trace's life.  Begun on the command (spawned stopped, so
 * that its first traced call is its execve) or on a process, a cgroup or
 * the machine; waited for until it ends by itself, --duration passes or
 * a signal comes, with --interval's figures meanwhile; stopped and read
 * back.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "trace_cmd.h"

/* How often the end of a trace is looked for; every 1 ms at first. */
#define TRACE_POLL_MS		10
/* For this long after the command was reaped: its end is due. */
#define TRACE_QUICK_NS		50000000ull

static void trace_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * One line for a failure of the library or the kernel: the kernel's
 * reason when it gave one (it says what the errno says, better), else
 * the errno's text; then what was asked (@hint: "-p 123"), if anything.
 */
static void trace_fail(struct wsc_trace *tr, const char *what, int err,
		       const char *hint)
{
	const char *why = tr ? wsc_trace_error(tr) : "";

	fprintf(stderr, "wsc trace: %s: %s%s%s%s\n", what,
		why && why[0] ? why : strerror(-err), hint ? " (" : "",
		hint ? hint : "", hint ? ")" : "");
}

/*
 * Wait until the command (@child, or 0) has been reaped and the trace
 * has ended by itself (every traced task gone), --duration has passed
 * or a signal came; print the intervals meanwhile.  0 or -errno.
 */
static int trace_wait(struct wsc_trace *tr, struct trace_live *lv,
		      pid_t child, struct trace_report *r)
{
	const struct trace_opts *o = lv->o;
	uint64_t deadline = o->duration_ns ? lv->begin_ns + o->duration_ns : 0;
	uint64_t now, exited_ns = 0;
	/* Intervals or drains due: never sleep in waitpid(). */
	bool ticks = o->interval_ns || lv->events;
	struct wsc_trace_status st;
	int sent = 0, status, err;
	bool said = false;
	pid_t w;

	for (;;) {
		now = clock_now_ns();
		if (child > 0) {
			trace_pass_signal(child, &sent);
			/* With nothing else to do, sleep in waitpid itself. */
			w = waitpid(child, &status, ticks ? WNOHANG : 0);
			if (w == child) {
				r->has_exit = true;
				r->exit_status = status;
				exited_ns = clock_now_ns();
				child = 0;
				/* The trace may have ended with it: look now. */
				continue;
			}
			if (w < 0 && errno != EINTR)
				return -errno;
			/* A signal: pass it on at once. */
			if (w < 0 && !ticks)
				continue;
		} else {
			err = wsc_trace_status(tr, &st);
			if (err)
				return err;
			if (st.state != WSC_TRACE_ACTIVE)
				return 0;
			if (trace_caught_signal()) {
				r->stop = TRACE_STOP_SIGNAL;
				r->stop_signal = trace_caught_signal();
				return 0;
			}
			if (deadline && now >= deadline) {
				r->stop = TRACE_STOP_DURATION;
				return 0;
			}
			if (exited_ns && !said && now - exited_ns >= 1000000000ull) {
				fprintf(stderr, "wsc trace: the command has exited; waiting for %u traced task%s still running (Ctrl-C to stop)\n",
					st.live, st.live == 1 ? "" : "s");
				said = true;
			}
		}
		if (o->interval_ns && now >= lv->next_ns) {
			err = trace_live_tick(tr, lv, now);
			if (err)
				return err;
		}
		if (lv->events && now >= lv->drain_ns) {
			err = advise_events_drain(tr, lv->events);
			if (err)
				return err;
			lv->drain_ns = now + ADVISE_DRAIN_NS;
		}
		/*
		 * The end follows the last task's exit within a millisecond
		 * or so: look closely at first, then every TRACE_POLL_MS.
		 */
		trace_sleep_ms(exited_ns && now - exited_ns < TRACE_QUICK_NS ?
			       1 : TRACE_POLL_MS);
	}
}

/* Run the command under the trace; fills @r and its exit status. */
int trace_command(struct wsc_trace *tr, struct wsc_trace_spec *spec,
			 struct trace_live *lv, struct trace_report *r)
{
	const struct trace_opts *o = lv->o;
	int exec_err, status, err, e = 0;
	char file[PATH_MAX];
	ssize_t got;
	pid_t pid;

	if (trace_resolve(o->cmd[0], file, sizeof(file)))
		return 127;
	if (o->cold && trace_drop_caches())
		return -1;
	pid = trace_spawn(file, o->cmd, &exec_err);
	if (pid == -2)
		return -1;
	if (pid < 0) {
		fprintf(stderr, "wsc trace: cannot fork: %s\n", strerror(errno));
		return -1;
	}
	spec->pid = (uint32_t)pid;
	err = wsc_trace_begin(tr, spec);
	if (err) {
		trace_fail(tr, "cannot start the trace", err, NULL);
		kill(pid, SIGKILL);	/* stopped: it never runs */
		close(exec_err);
		trace_reap(pid, &status);
		return -1;
	}
	trace_live_begin(lv);
	kill(pid, SIGCONT);
	got = read(exec_err, &e, sizeof(e));
	close(exec_err);
	if (got == sizeof(e)) {
		trace_reap(pid, &status);
		fprintf(stderr, "wsc trace: cannot run '%s': %s\n", o->cmd[0],
			strerror(e));
		wsc_trace_stop(tr);
		return 127;
	}
	/* Descendants may still run: the trace ends with the last of them. */
	err = trace_wait(tr, lv, pid, r);
	if (err) {
		trace_fail(tr, "the trace failed", err, NULL);
		return -1;
	}
	return 0;
}

/* A process or a cgroup or the machine, until it ends or is stopped. */
int trace_target(struct wsc_trace *tr, struct wsc_trace_spec *spec,
			struct trace_live *lv, struct trace_report *r,
			const char *cgroup)
{
	const struct trace_opts *o = lv->o;
	int err;

	err = wsc_trace_begin(tr, spec);
	if (err) {
		trace_fail(tr, "cannot start the trace", err, o->target_arg);
		return -1;
	}
	trace_live_begin(lv);
	if (!o->duration_ns && (o->cgroup || o->all))
		fprintf(stderr, "wsc trace: tracing %s%s: Ctrl-C to stop\n",
			o->all ? "every task" : "cgroup ", o->all ? "" : cgroup);
	err = trace_wait(tr, lv, 0, r);
	if (err) {
		trace_fail(tr, "the trace failed", err, o->target_arg);
		wsc_trace_stop(tr);
		return -1;
	}
	return 0;
}

/* Stop (if still active), then read the status, every call and task. */
int trace_collect(struct wsc_trace *tr, struct trace_report *r)
{
	int err;

	err = wsc_trace_stop(tr);
	if (!err)
		err = wsc_trace_status(tr, &r->status);
	if (!err) {
		err = wsc_trace_ring_counts(tr, &r->ring_lost, &r->ring_pending);
		r->ring = err > 0;
		err = err < 0 ? err : 0;
	}
	if (!err)
		err = trace_fetch_rows(tr, r);
	if (!err)
		err = trace_fetch_tasks(tr, r);
	if (err) {
		trace_fail(tr, "cannot read the trace back", err, NULL);
		return -1;
	}
	return 0;
}
