// SPDX-License-Identifier: MIT
/*
 * wsc trace --by process|thread: the table of the tasks followed, after
 * the system calls'.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/* The tasks, per thread or summed per process, in join order. */
struct trace_task_sum *trace_sum_tasks(const struct trace_report *r,
				       bool by_process, size_t *n)
{
	struct trace_task_sum *sums = calloc(r->nr_tasks ? r->nr_tasks : 1,
					     sizeof(*sums));
	const struct wsc_trace_task *t;
	size_t i, j;

	*n = 0;
	if (!sums)
		return NULL;
	for (i = 0; i < r->nr_tasks; i++) {
		t = &r->tasks[i];
		for (j = 0; by_process && j < *n; j++)
			if (sums[j].t.pid == t->pid)
				break;
		if (!by_process || j == *n) {
			sums[(*n)++] = (struct trace_task_sum){ .t = *t, .threads = 1 };
			continue;
		}
		if (t->tid == t->pid) {	/* the leader names the process */
			sums[j].t.ppid = t->ppid;
			memcpy(sums[j].t.comm, t->comm, sizeof(t->comm));
		}
		sums[j].threads++;
		sums[j].t.calls += t->calls;
		sums[j].t.errors += t->errors;
		sums[j].t.total_ns += t->total_ns;
		sums[j].t.off_ns += t->off_ns;
	}
	return sums;
}

/* Most time (as --time means it) first; equal ones in join order. */
static void sort_tasks(struct trace_task_sum *sums, size_t n,
		       enum trace_time time)
{
	struct trace_task_sum s;
	size_t i, j;

	for (i = 1; i < n; i++) {
		s = sums[i];
		for (j = i; j > 0 && trace_time_of(time, s.t.total_ns, s.t.off_ns) >
		     trace_time_of(time, sums[j - 1].t.total_ns,
				   sums[j - 1].t.off_ns); j--)
			sums[j] = sums[j - 1];
		sums[j] = s;
	}
}

/* --by process or --by thread: a table after the system calls'. */
void trace_print_tasks(FILE *f, const struct trace_report *r)
{
	bool proc = r->by == TRACE_BY_PROCESS;
	char on[TRACE_TIME_LEN], off[TRACE_TIME_LEN], comm[sizeof(r->tasks->comm) + 1];
	struct trace_task_sum *sums;
	uint64_t calls = 0;
	size_t i, n, shown;

	if (r->by == TRACE_BY_NONE)
		return;
	sums = trace_sum_tasks(r, proc, &n);
	if (!sums)
		return;
	sort_tasks(sums, n, r->time);
	fprintf(f, "\nby %s (%zu):\n", proc ? "process" : "thread", n);
	if (proc)
		fprintf(f, "%8s  %8s  %-16s  %7s", "pid", "ppid", "comm",
			"threads");
	else
		fprintf(f, "%8s  %8s  %8s  %-16s", "tid", "pid", "ppid", "comm");
	fprintf(f, "  %10s  %8s  %8s  %8s\n", "calls", "errors", "on-cpu",
		"off-cpu");
	shown = r->top && r->top < n ? r->top : n;
	for (i = 0; i < n; i++) {
		const struct wsc_trace_task *t = &sums[i].t;

		if (i >= shown) {
			calls += t->calls;
			continue;
		}
		snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(t->comm),
			 t->comm);
		if (proc)
			fprintf(f, "%8" PRIu32 "  %8" PRIu32 "  %-16s  %7u",
				t->pid, t->ppid, comm, sums[i].threads);
		else
			fprintf(f, "%8" PRIu32 "  %8" PRIu32 "  %8" PRIu32
				"  %-16s", t->tid, t->pid, t->ppid, comm);
		fprintf(f, "  %10" PRIu64 "  %8" PRIu64 "  %8s  %8s\n",
			t->calls, t->errors,
			trace_fmt_time(on, sizeof(on), trace_time_of(TRACE_TIME_CPU,
				 t->total_ns, t->off_ns)),
			trace_fmt_time(off, sizeof(off), trace_time_of(TRACE_TIME_OFF,
				 t->total_ns, t->off_ns)));
	}
	if (shown < n)
		fprintf(f, "... %zu more (%" PRIu64 " call%s) not shown "
			"(--top %zu)\n", n - shown, calls, trace_plural(calls),
			r->top);
	if (r->status.lost_records)
		fprintf(f, "WARNING: %" PRIu64 " task%s followed %s no record "
			"here\n", r->status.lost_records,
			trace_plural(r->status.lost_records),
			r->status.lost_records == 1 ? "has" : "have");
	free(sums);
}
