// SPDX-License-Identifier: MIT
/*
 * wsc trace's report for programs: one JSON object, with the environment
 * it was measured in, or one line per --interval.  Built as json-c
 * objects (common/json.h), written once the trace is over.
 */
#include <string.h>
#include <sys/wait.h>

#include "common/env.h"
#include "advise.h"
#include "common/json.h"
#include "trace.h"

/* "ENOENT", or null for 0. */
static struct json_object *errno_json(uint32_t err)
{
	char name[32];

	return err ? json_new_str(trace_errno_name(name, sizeof(name), err)) :
		     NULL;
}

static struct json_object *status_json(const struct wsc_trace_status *s)
{
	struct json_object *o = json_object_new_object();

	json_put(o, "id", json_new_u64(s->id));
	json_put(o, "state", json_new_str(trace_state_name(s->state)));
	json_put(o, "end", json_new_str(trace_end_name(s->end)));
	json_put(o, "pid", json_new_u64(s->pid));
	json_put(o, "cgroup", json_new_str(s->cgroup));
	json_put(o, "duration_ns", json_new_u64(s->duration_ns));
	json_put(o, "tasks", json_new_u64(s->tasks));
	json_put(o, "live", json_new_u64(s->live));
	json_put(o, "task_slots", json_new_u64(s->task_slots));
	json_put(o, "hist_slots", json_new_u64(s->hist_slots));
	json_put(o, "lost_tasks", json_new_u64(s->lost_tasks));
	json_put(o, "lost_calls", json_new_u64(s->lost_calls));
	json_put(o, "lost_exits", json_new_u64(s->lost_exits));
	json_put(o, "lost_hist", json_new_u64(s->lost_hist));
	json_put(o, "unmatched", json_new_u64(s->unmatched));
	json_put(o, "unfinished", json_new_u64(s->unfinished));
	json_put(o, "foreign", json_new_u64(s->foreign));
	json_put(o, "all", json_new_flag(s->all));
	json_put(o, "failed", json_new_flag(s->failed));
	json_put(o, "errno", errno_json(s->err));
	json_put(o, "filtered", json_new_u64(s->filtered));
	json_put(o, "lost_errnos", json_new_u64(s->lost_errnos));
	json_put(o, "lost_records", json_new_u64(s->lost_records));
	return o;
}

/* "exit_status" is null and "signal" set when the command was killed. */
static void put_exit(struct json_object *o, int status)
{
	json_put(o, "exit_status", WIFEXITED(status) ?
		 json_new_i64(WEXITSTATUS(status)) : NULL);
	json_put(o, "signal", WIFSIGNALED(status) ?
		 json_new_i64(WTERMSIG(status)) : NULL);
}

/* The time in the calls, on and off the CPU, as "on_cpu_ns" and "off_cpu_ns". */
static void put_cpu_split(struct json_object *o, uint64_t total_ns,
			  uint64_t off_ns)
{
	json_put(o, "on_cpu_ns",
		 json_new_u64(trace_time_of(TRACE_TIME_CPU, total_ns, off_ns)));
	json_put(o, "off_cpu_ns",
		 json_new_u64(trace_time_of(TRACE_TIME_OFF, total_ns, off_ns)));
}

static struct json_object *row_json(const struct trace_report *r,
				    const struct trace_row *row)
{
	struct json_object *o = json_object_new_object();
	struct json_object *errnos = json_object_new_object();
	struct json_object *hist = json_object_new_array(), *bucket;
	char name[32];
	size_t i;

	json_put(o, "name", json_new_str(row->name));
	json_put(o, "nr", json_new_u64(row->nr));
	json_put(o, "group", json_new_str(row->group));
	json_put(o, "calls", json_new_u64(row->calls));
	json_put(o, "errors", json_new_u64(row->errors));
	json_put(o, "wrapped", json_new_u64(row->wrapped));
	json_put(o, "total_ns", json_new_u64(row->total_ns));
	json_put(o, "share", json_new_fixed(3, trace_row_share(r, row)));
	put_cpu_split(o, row->total_ns, row->off_ns);
	json_put(o, "mean_ns", json_new_u64(row->mean_ns));
	json_put(o, "p50_ns", json_new_u64(row->p50_ns));
	json_put(o, "p99_ns", json_new_u64(row->p99_ns));
	json_put(o, "max_ns", json_new_u64(row->max_ns));
	json_put(o, "max_bound", json_new_flag(row->max_bound));
	json_put(o, "hist_calls", json_new_u64(row->hist_calls));
	for (i = 0; i < row->nr_errnos; i++)
		json_put(errnos, trace_errno_name(name, sizeof(name),
						  row->errnos[i].err),
			 json_new_u64(row->errnos[i].count));
	json_put(o, "errnos", errnos);
	for (i = 0; i < row->nr_buckets; i++) {
		bucket = json_object_new_array();
		json_object_array_add(bucket, json_new_u64(row->buckets[i].low_ns));
		json_object_array_add(bucket, json_new_u64(row->buckets[i].high_ns));
		json_object_array_add(bucket, json_new_u64(row->buckets[i].count));
		json_object_array_add(hist, bucket);
	}
	json_put(o, "hist", hist);
	if (row->ring) {
		json_put(o, "ring", json_new_flag(true));
		json_put(o, "op", json_new_u64(row->op));
	}
	return o;
}

/* The totals, "time", what --top left out and the rows shown. */
static void put_rows(struct json_object *o, const struct trace_report *r)
{
	struct json_object *rows = json_object_new_array();
	size_t i, shown = trace_shown_rows(r);
	uint64_t calls = 0;

	for (i = shown; i < r->nr_rows; i++)
		calls += r->rows[i].calls;
	json_put(o, "lost", json_new_u64(trace_lost_events(&r->status)));
	if (r->ring) {
		struct json_object *ring = json_object_new_object();

		json_put(ring, "lost", json_new_u64(r->ring_lost));
		json_put(ring, "pending", json_new_u64(r->ring_pending));
		json_put(o, "ring", ring);
	}
	json_put(o, "total_ns", json_new_u64(r->total_ns));
	put_cpu_split(o, r->total_ns, r->total_off_ns);
	json_put(o, "calls", json_new_u64(r->total_calls));
	json_put(o, "errors", json_new_u64(r->total_errors));
	json_put(o, "wrapped", json_new_u64(r->total_wrapped));
	json_put(o, "time", json_new_str(trace_time_name(r->time)));
	json_put(o, "rows_left_out", json_new_u64(r->nr_rows - shown));
	json_put(o, "calls_left_out", json_new_u64(calls));
	for (i = 0; i < shown; i++)
		json_object_array_add(rows, row_json(r, &r->rows[i]));
	json_put(o, "syscalls", rows);
}

static struct json_object *task_json(const struct wsc_trace_task *t)
{
	struct json_object *o = json_object_new_object();
	char comm[sizeof(t->comm) + 1];

	snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(t->comm), t->comm);
	json_put(o, "tid", json_new_u64(t->tid));
	json_put(o, "pid", json_new_u64(t->pid));
	json_put(o, "ppid", json_new_u64(t->ppid));
	json_put(o, "comm", json_new_str(comm));
	json_put(o, "calls", json_new_u64(t->calls));
	json_put(o, "errors", json_new_u64(t->errors));
	json_put(o, "total_ns", json_new_u64(t->total_ns));
	put_cpu_split(o, t->total_ns, t->off_ns);
	return o;
}

/*
 * "share" is a percentage of the time "time" names ("cpu": on_cpu_ns,
 * "wall": total_ns, "off": off_cpu_ns), as in the table.
 */
static struct json_object *report_json(const struct trace_report *r)
{
	struct json_object *o = json_object_new_object();
	struct json_object *tasks = json_object_new_array();
	size_t i;

	json_put(o, "target", json_new_str(r->target));
	if (r->has_exit)
		put_exit(o, r->exit_status);
	json_put(o, "trace", status_json(&r->status));
	json_put(o, "stopped_by", json_new_str(
		 r->stop == TRACE_STOP_SIGNAL ? "signal" :
		 r->stop == TRACE_STOP_DURATION ? "duration" : NULL));
	json_put(o, "filter", json_new_str(r->filter));
	put_rows(o, r);
	for (i = 0; i < r->nr_tasks; i++)
		json_object_array_add(tasks, task_json(&r->tasks[i]));
	json_put(o, "tasks", tasks);
	if (r->batching)
		json_put(o, "batching", advise_json(r->batching,
						    r->status.duration_ns));
	json_put(o, "environment", env_json());
	return o;
}

void trace_print_json(FILE *f, const struct trace_report *r)
{
	/* The lines the report has always had: grouped as in the table. */
	static const char *const line_starts[] = {
		"target", "exit_status", "trace", "stopped_by", "filter",
		"lost", "total_ns", "time", "syscalls", "tasks", "batching",
		"environment", NULL
	};

	json_emit_lines(f, report_json(r), line_starts);
}

void trace_print_json_line(FILE *f, const struct trace_report *r)
{
	json_emit_line(f, report_json(r));
}

void trace_print_interval_json(FILE *f, const struct trace_report *r,
			       const struct trace_interval *iv)
{
	struct json_object *o = json_object_new_object();

	json_put(o, "interval", json_new_u64(iv->k));
	json_put(o, "start_s", json_new_fixed(6, (double)iv->start_ns / 1e9));
	json_put(o, "end_s", json_new_fixed(6, (double)iv->end_ns / 1e9));
	json_put(o, "last", json_new_flag(iv->last));
	put_rows(o, r);
	json_emit_line(f, o);
}
