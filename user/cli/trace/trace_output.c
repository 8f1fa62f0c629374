// SPDX-License-Identifier: MIT
/*
 * Where wsc trace's report goes and in which form: -o FILE, -o - or
 * stderr, every file opened before the trace starts so that a path that
 * cannot be written costs no run; the table or the JSON, the CSV files
 * and the metrics (--openmetrics), once the trace is over.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_cmd.h"
#include "trace_openmetrics.h"

/* -o FILE, -o - or stderr; a file is created now.  0, or -1 said. */
int trace_sink_open(struct trace_sink *s, const char *path)
{
	struct stat st;

	s->f = stderr;
	s->path = NULL;
	s->created = false;
	if (!path)
		return 0;
	if (!strcmp(path, "-")) {
		s->f = stdout;
		return 0;
	}
	s->created = stat(path, &st) != 0;
	s->f = fopen(path, "we");
	if (!s->f) {
		fprintf(stderr, "wsc trace: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	s->path = path;
	return 0;
}

/* Close; a file created for a report never written goes.  0 or -1. */
int trace_sink_close(struct trace_sink *s, bool written)
{
	int ret = 0;

	if (!s->path)
		return fflush(s->f) && written ? -1 : 0;
	if (fclose(s->f) && written) {
		fprintf(stderr, "wsc trace: writing %s failed: %s\n", s->path,
			strerror(errno));
		ret = -1;
	}
	if (!written && s->created)
		unlink(s->path);
	return ret;
}

/*
 * --csv FILE and --csv-tasks FILE: FILE.tmp now, renamed at the end by
 * csv_commit().  0, or -1 with one line saying why.
 */
int trace_csv_open(struct csv_out *c, const char *opt,
			  const char *path)
{
	struct stat st;

	c->f = NULL;
	c->path = path;
	if (!path)
		return 0;
	errno = EISDIR;
	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		errno = ENAMETOOLONG;
		if (snprintf(c->tmp, sizeof(c->tmp), "%s.tmp", path) <
		    (int)sizeof(c->tmp))
			c->f = fopen(c->tmp, "we");
	}
	if (!c->f) {
		fprintf(stderr, "wsc trace: %s: cannot write %s: %s\n", opt,
			path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The report (after --interval's last interval), the CSV files. */
int trace_output(struct trace_live *lv, struct trace_report *r,
			struct csv_out *csv, struct csv_out *csv_tasks)
{
	const struct trace_opts *o = lv->o;
	uint64_t end_ns = r->status.duration_ns;

	if (o->interval_ns) {
		if (end_ns < lv->last_ns)
			end_ns = lv->last_ns;
		if (trace_live_print(lv, r, end_ns, true))
			return -1;
		if (!o->json)
			fputs("the whole trace:\n", lv->f);
	}
	trace_sort_rows(r, o->sort);
	if (o->json && o->interval_ns)
		trace_print_json_line(lv->f, r);
	else if (o->json)
		trace_print_json(lv->f, r);
	else
		trace_print_table(lv->f, r, o->hist);
	if (r->batching && !o->json)
		advise_print(lv->f, r->batching, r->status.duration_ns);
	if (csv->f)
		trace_print_csv(csv->f, r);
	if (csv_tasks->f)
		trace_print_tasks_csv(csv_tasks->f, r);
	if (lv->om && trace_om_write(lv->om, r))
		return -1;
	return 0;
}
