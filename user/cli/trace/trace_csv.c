// SPDX-License-Identifier: MIT
/*
 * wsc trace --csv and --csv-tasks: a line per system call, a line per
 * task; a field is quoted only when it must be (common/csv.h).
 */
#include <inttypes.h>

#include "common/csv.h"
#include "trace.h"

/* "ENOENT=12;EACCES=1": a CSV field without commas or quotes. */
static void csv_errnos(FILE *f, const struct trace_row *row)
{
	char name[32];
	size_t i;

	for (i = 0; i < row->nr_errnos; i++)
		fprintf(f, "%s%s=%" PRIu64, i ? ";" : "",
			trace_errno_name(name, sizeof(name), row->errnos[i].err),
			row->errnos[i].count);
}

/* The columns of old first; the new ones (from on_cpu_ns) at the end. */
void trace_print_csv(FILE *f, const struct trace_report *r)
{
	const struct trace_row *row;
	size_t i;

	fputs("name,nr,group,calls,errors,total_ns,share,mean_ns,p50_ns,"
	      "p99_ns,max_ns,on_cpu_ns,off_cpu_ns,errnos,wrapped\n", f);
	for (i = 0; i < r->nr_rows; i++) {
		row = &r->rows[i];
		csv_field(f, row->name);
		fprintf(f, ",%" PRIu32 ",", row->nr);
		csv_field(f, row->group);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%" PRIu64 ",", row->calls, row->errors,
			row->total_ns, trace_row_share(r, row),
			row->mean_ns, row->p50_ns, row->p99_ns, row->max_ns,
			trace_time_of(TRACE_TIME_CPU, row->total_ns, row->off_ns),
			trace_time_of(TRACE_TIME_OFF, row->total_ns, row->off_ns));
		csv_errnos(f, row);
		fprintf(f, ",%" PRIu64 "\n", row->wrapped);
	}
}

void trace_print_tasks_csv(FILE *f, const struct trace_report *r)
{
	const struct wsc_trace_task *t;
	char comm[sizeof(t->comm) + 1];
	size_t i;

	fputs("tid,pid,ppid,comm,calls,errors,total_ns,on_cpu_ns,off_cpu_ns\n",
	      f);
	for (i = 0; i < r->nr_tasks; i++) {
		t = &r->tasks[i];
		snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(t->comm),
			 t->comm);
		fprintf(f, "%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",", t->tid,
			t->pid, t->ppid);
		csv_field(f, comm);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 "\n", t->calls, t->errors, t->total_ns,
			trace_time_of(TRACE_TIME_CPU, t->total_ns, t->off_ns),
			trace_time_of(TRACE_TIME_OFF, t->total_ns, t->off_ns));
	}
}
