// SPDX-License-Identifier: MIT
/*
 * wsc trace: run a command (or attach to a process tree or a cgroup)
 * while wsc.ko counts every system call's latency in the kernel, then
 * print per-syscall figures and histograms.
 *
 *   wsc trace [options] -- CMD [ARGS...]
 *   wsc trace [options] -p PID
 *   wsc trace [options] --cgroup CGROUP
 *   wsc trace [options] -a
 *
 * The report goes to stderr, as strace -c's and perf trace -s's do (-o
 * FILE, or -o - for stdout); every file is opened before the trace
 * starts, so a path that cannot be written costs no run.
 */
#include <string.h>
#include <sys/wait.h>

#include "cmd_trace.h"
#include "common/module_hint.h"
#include "trace_cmd.h"

/* --advise: every counted call an event, drained while the trace runs. */
static int trace_advise_events(struct wsc_trace *tr, struct trace_live *lv,
			       struct advise_events *events)
{
	int err = wsc_trace_set_events(tr, ADVISE_RING_EVENTS);

	if (err) {
		fprintf(stderr, "wsc trace: --advise: %s\n",
			wsc_trace_error(tr)[0] ? wsc_trace_error(tr) :
			strerror(-err));
		return -1;
	}
	lv->events = events;
	return 0;
}

/* A command's exit status is wsc's, as a shell gives it (wsc(8)). */
static int trace_exit_code(const struct trace_report *r)
{
	if (!r->has_exit)
		return 0;
	if (WIFEXITED(r->exit_status))
		return WEXITSTATUS(r->exit_status);
	if (WIFSIGNALED(r->exit_status))
		return 128 + WTERMSIG(r->exit_status);
	return 1;
}

int cmd_trace(int argc, char **argv)
{
	struct trace_opts o = { .sort = TRACE_SORT_TOTAL };
	char cgroup[WSC_TRACE_CGROUP_MAX + 2] = "";
	struct csv_out csv = { 0 }, csv_tasks = { 0 }, om = { 0 };
	struct trace_report r = { 0 };
	struct trace_live lv = { .o = &o };
	struct advise_events events = { 0 };
	struct advise_report batching = { 0 };
	struct wsc_trace_spec spec;
	struct wsc_trace *tr = NULL;
	struct trace_sink out;
	bool written = false;
	int err, ret = 1;

	err = trace_parse(argc, argv, &o);
	if (err)
		return err;
	if (o.cgroup)
		trace_cgroup_path(o.cgroup, cgroup, sizeof(cgroup));
	trace_describe(&o, cgroup, &r);
	lv.prev.time = r.time;
	lv.prev.top = r.top;
	/* --openmetrics labels each interval's file, tasks too, as the whole. */
	lv.prev.by = r.by;
	memcpy(lv.prev.target, r.target, sizeof(r.target));

	/* Every file first: a path that cannot be written costs no run. */
	if (trace_sink_open(&out, o.out))
		return 1;
	lv.f = out.f;
	if (trace_csv_open(&csv, "--csv", o.csv) ||
	    trace_csv_open(&csv_tasks, "--csv-tasks", o.csv_tasks) ||
	    trace_csv_open(&om, "--openmetrics", o.openmetrics))
		goto close;
	lv.om = o.openmetrics ? &om : NULL;
	err = wsc_trace_open(&tr);
	if (err) {
		module_report("trace", err, true);
		tr = NULL;
		goto close;
	}
	wsc_trace_set_ring(tr, o.ring);
	/* --advise: calibrated before the trace, events recorded in it. */
	if (o.advise && (advise_begin(&o.advise_opts, &batching) ||
			 trace_advise_events(tr, &lv, &events)))
		goto close;
	trace_catch_signals();
	spec = (struct wsc_trace_spec){
		.pid = o.pid,
		.cgroup = o.cgroup ? cgroup : NULL,
		.all = o.all,
		.calls = o.have_calls ? o.calls : NULL,
		.failed = o.failed,
		.err = o.err,
	};
	if (o.cmd) {
		err = trace_command(tr, &spec, &lv, &r);
		if (err) {
			ret = err > 0 ? err : 1;
			goto close;
		}
	} else if (trace_target(tr, &spec, &lv, &r, cgroup)) {
		goto close;
	}
	if (trace_collect(tr, &r))
		goto close;
	if (o.advise && advise_end(tr, &events, &batching))
		goto close;
	r.batching = o.advise ? &batching : NULL;
	if (trace_output(&lv, &r, &csv, &csv_tasks))
		goto close;
	written = true;
	ret = trace_exit_code(&r);
close:
	if (trace_sink_close(&out, written) && ret == 0)
		ret = 1;
	if (csv_commit(&csv, "trace", !written) && written && ret == 0)
		ret = 1;
	if (csv_commit(&csv_tasks, "trace", !written) && written && ret == 0)
		ret = 1;
	csv_abort(&om);		/* FILE.tmp, unless FILE was written */
	trace_report_free(&lv.prev);
	trace_report_free(&r);
	advise_events_free(&events);
	advise_report_free(&batching);
	if (tr)
		wsc_trace_close(tr);
	return ret;
}
