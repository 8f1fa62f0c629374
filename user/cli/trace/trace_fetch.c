// SPDX-License-Identifier: MIT
/*
 * wsc trace: what the kernel counted, read back through libwsc into a
 * report (trace.h): a row per system call, a task per task followed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace_cmd.h"

/* @call's histogram and errno counts into fresh arrays of @row. */
static int copy_counts(struct trace_row *row, const struct wsc_trace_call *call)
{
	size_t i;

	/* One more than needed: calloc(0) may return NULL. */
	row->buckets = calloc(call->nr_buckets + 1, sizeof(*row->buckets));
	row->errnos = calloc(call->nr_errnos + 1, sizeof(*row->errnos));
	if (!row->buckets || !row->errnos)
		return -ENOMEM;
	for (i = 0; i < call->nr_buckets; i++) {
		row->buckets[i].low_ns = call->buckets[i][0];
		row->buckets[i].high_ns = call->buckets[i][1];
		row->buckets[i].count = call->buckets[i][2];
	}
	row->nr_buckets = call->nr_buckets;
	for (i = 0; i < call->nr_errnos; i++) {
		row->errnos[i].err = (uint32_t)call->errnos[i][0];
		row->errnos[i].count = call->errnos[i][1];
	}
	row->nr_errnos = call->nr_errnos;
	return 0;
}

/*
 * @row's name and group: a system call's ("openat", "syscall_N" when
 * unknown), or a ring request's ("ring:READ", "ring:op_N", group
 * io_uring).
 */
static void trace_row_name(struct trace_row *row,
			   const struct wsc_trace_call *call)
{
	const char *name = call->ring ? wsc_ring_op_name(call->op) :
					trace_syscall_name(call->nr);

	if (name)
		snprintf(row->name, sizeof(row->name), "%s%s",
			 call->ring ? "ring:" : "", name);
	else
		snprintf(row->name, sizeof(row->name), "%s%u",
			 call->ring ? "ring:op_" : "syscall_",
			 call->ring ? call->op : call->nr);
	row->group = call->ring ? "io_uring" : trace_syscall_group(row->name);
}

/* wsc_trace_fetch()'s callback: one row per system call or opcode. */
static int trace_add_row(void *ctx, const struct wsc_trace_call *call)
{
	struct trace_report *r = ctx;
	struct trace_row *rows, *row;
	int err;

	rows = realloc(r->rows, (r->nr_rows + 1) * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	r->rows = rows;
	row = &rows[r->nr_rows];
	memset(row, 0, sizeof(*row));
	/* Counted from here on: trace_report_free() frees what it holds. */
	r->nr_rows++;
	row->nr = call->nr;
	row->ring = call->ring;
	row->op = call->op;
	trace_row_name(row, call);
	row->calls = call->calls;
	row->errors = call->errors;
	row->wrapped = call->wrapped;
	row->total_ns = call->total_ns;
	row->off_ns = call->off_ns;
	row->max_ns = call->max_ns;
	err = copy_counts(row, call);
	if (err)
		return err;
	trace_row_finish(row);
	return 0;
}

/* wsc_trace_tasks()'s callback: one task, in join order. */
static int trace_add_task(void *ctx, const struct wsc_trace_task *task)
{
	struct trace_report *r = ctx;
	struct wsc_trace_task *tasks;

	tasks = realloc(r->tasks, (r->nr_tasks + 1) * sizeof(*tasks));
	if (!tasks)
		return -ENOMEM;
	r->tasks = tasks;
	tasks[r->nr_tasks++] = *task;
	return 0;
}

/* Every call the trace counted so far into @r, which has no rows. */
int trace_fetch_rows(struct wsc_trace *tr, struct trace_report *r)
{
	int err = wsc_trace_fetch(tr, trace_add_row, r);

	if (err < 0)
		return err;
	trace_report_finish(r);
	return 0;
}

int trace_fetch_tasks(struct wsc_trace *tr, struct trace_report *r)
{
	int err = wsc_trace_tasks(tr, trace_add_task, r);

	return err < 0 ? err : 0;
}
