// SPDX-License-Identifier: MIT
/*
 * wsc diff's reading: a report of `wsc trace -j` (its "syscalls"), of
 * `wsc bench CALL --json` (its "variants"), or the folder `wsc bench
 * --all` writes (a CALL.json each), parsed by json-c into the rows the
 * comparison needs.  A file of one JSON object per line (`wsc trace
 * --interval -j`) is read at its last line, the whole trace.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "diff.h"

const char *const diff_ctx_names[DIFF_NR_CTX] = {
	[DIFF_CTX_TARGET] = "target", [DIFF_CTX_FILTER] = "filter",
	[DIFF_CTX_RUN] = "run", [DIFF_CTX_KERNEL] = "kernel",
	[DIFF_CTX_VERSION] = "wsc", [DIFF_CTX_CPU] = "cpu",
	[DIFF_CTX_EMULATION] = "emulation", [DIFF_CTX_TIME] = "time",
	[DIFF_CTX_DATE] = "date",
};

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

/* A number member, or @dflt when it is absent or not a number. */
static double number(struct json_object *o, const char *key, double dflt)
{
	struct json_object *v = member(o, key);

	if (json_object_is_type(v, json_type_int) ||
	    json_object_is_type(v, json_type_double))
		return json_object_get_double(v);
	return dflt;
}

static void copy_str(char *dst, size_t len, struct json_object *v)
{
	const char *s = json_object_is_type(v, json_type_string) ?
			json_object_get_string(v) : NULL;

	snprintf(dst, len, "%s", s ? s : "");
}

static void read_environment(struct diff_report *r, struct json_object *env)
{
	static const struct {
		int ctx;
		const char *key;
	} keys[] = {
		{ DIFF_CTX_KERNEL, "kernel" }, { DIFF_CTX_VERSION, "wsc_version" },
		{ DIFF_CTX_CPU, "cpu" }, { DIFF_CTX_EMULATION, "emulation" },
		{ DIFF_CTX_DATE, "date" },
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		copy_str(r->ctx[keys[i].ctx], sizeof(r->ctx[0]),
			 member(env, keys[i].key));
}

static int add_row(struct diff_report *r, struct diff_row **row)
{
	struct diff_row *rows = realloc(r->rows, (r->nr_rows + 1) * sizeof(*rows));

	if (!rows)
		return -1;
	r->rows = rows;
	*row = memset(&rows[r->nr_rows++], 0, sizeof(**row));
	return 0;
}

/* The times of a trace's row or of its totals, on and off the CPU. */
static void read_times(struct diff_row *row, struct json_object *o)
{
	row->v[DIFF_V_CALLS] = number(o, "calls", 0);
	row->v[DIFF_V_ERRORS] = number(o, "errors", 0);
	row->v[DIFF_V_WALL] = number(o, "total_ns", 0);
	/* A report from before the split: all of it on the CPU. */
	row->v[DIFF_V_ON] = number(o, "on_cpu_ns", row->v[DIFF_V_WALL]);
	row->v[DIFF_V_OFF] = number(o, "off_cpu_ns", 0);
}

static int read_errnos(struct diff_row *row, struct json_object *errnos)
{
	size_t n = 0;

	if (!json_object_is_type(errnos, json_type_object))
		return 0;
	row->errnos = calloc(json_object_object_length(errnos) + 1,
			     sizeof(*row->errnos));
	if (!row->errnos)
		return -1;
	json_object_object_foreach(errnos, name, count) {
		snprintf(row->errnos[n].name, sizeof(row->errnos[n].name), "%s", name);
		row->errnos[n++].count = json_object_get_double(count);
	}
	row->nr_errnos = n;
	return 0;
}

static int read_trace(struct diff_report *r, struct json_object *doc,
		      char *why, size_t len)
{
	struct json_object *rows = member(doc, "syscalls"), *o;
	struct diff_row *row;
	size_t i, n = json_object_array_length(rows);

	r->kind = DIFF_TRACE;
	copy_str(r->ctx[DIFF_CTX_TARGET], sizeof(r->ctx[0]), member(doc, "target"));
	copy_str(r->ctx[DIFF_CTX_FILTER], sizeof(r->ctx[0]), member(doc, "filter"));
	copy_str(r->time, sizeof(r->time), member(doc, "time"));
	if (!r->time[0])
		snprintf(r->time, sizeof(r->time), "cpu");
	snprintf(r->ctx[DIFF_CTX_TIME], sizeof(r->ctx[0]), "%s", r->time);
	read_environment(r, member(doc, "environment"));
	read_times(&r->total, doc);
	r->lost = number(doc, "lost", 0);
	r->left_out = number(doc, "rows_left_out", 0);
	r->calls_left_out = number(doc, "calls_left_out", 0);
	for (i = 0; i < n; i++) {
		o = json_object_array_get_idx(rows, i);
		if (!json_object_is_type(member(o, "name"), json_type_string)) {
			snprintf(why, len, "system call %zu of \"syscalls\" has no name", i + 1);
			return -1;
		}
		if (add_row(r, &row))
			goto nomem;
		copy_str(row->name, sizeof(row->name), member(o, "name"));
		read_times(row, o);
		row->v[DIFF_V_P50] = number(o, "p50_ns", 0);
		row->v[DIFF_V_P99] = number(o, "p99_ns", 0);
		row->has_pct = true;
		if (read_errnos(row, member(o, "errnos")))
			goto nomem;
	}
	return 0;
nomem:
	snprintf(why, len, "%s", strerror(ENOMEM));
	return -1;
}

/* One `wsc bench CALL --json` report's variants, added to @r's rows. */
static int read_bench(struct diff_report *r, struct json_object *doc,
		      char *why, size_t len)
{
	struct json_object *vars = member(doc, "variants"), *o;
	const char *call = json_object_get_string(member(doc, "call"));
	struct diff_row *row;
	size_t i, n = json_object_array_length(vars);

	r->kind = DIFF_BENCH;
	if (!call) {
		snprintf(why, len, "a bench report without \"call\"");
		return -1;
	}
	if (!r->ctx[DIFF_CTX_TARGET][0])
		snprintf(r->ctx[DIFF_CTX_TARGET], sizeof(r->ctx[0]), "wsc bench %s", call);
	snprintf(r->ctx[DIFF_CTX_RUN], sizeof(r->ctx[0]), "%.0f samples per variant, size %.0f",
		 number(doc, "iterations", 0), number(doc, "size", 0));
	if (member(doc, "environment"))
		read_environment(r, member(doc, "environment"));
	r->interrupted |= json_object_get_boolean(member(doc, "interrupted"));
	for (i = 0; i < n; i++) {
		o = json_object_array_get_idx(vars, i);
		if (add_row(r, &row)) {
			snprintf(why, len, "%s", strerror(ENOMEM));
			return -1;
		}
		snprintf(row->name, sizeof(row->name), "%s %s", call,
			 json_object_get_string(member(o, "variant")) ?: "?");
		row->v[DIFF_V_CALLS] = number(o, "count", 0);
		row->v[DIFF_V_ERRORS] = number(o, "errors", 0);
		row->v[DIFF_V_WALL] = number(o, "median_ns", 0);
		row->v[DIFF_V_ON] = row->v[DIFF_V_WALL];
		row->v[DIFF_V_P50] = number(o, "p50_ns", row->v[DIFF_V_WALL]);
		row->v[DIFF_V_P99] = number(o, "p99_ns", 0);
		row->has_pct = true;
	}
	return 0;
}

static int read_doc(struct diff_report *r, struct json_object *doc,
		    char *why, size_t len)
{
	bool trace = json_object_is_type(member(doc, "syscalls"), json_type_array);
	bool bench = json_object_is_type(member(doc, "variants"), json_type_array);

	if (trace && !member(doc, "interval"))
		return read_trace(r, doc, why, len);
	if (trace) {
		snprintf(why, len, "its last line is an interval of wsc trace --interval, not the whole trace (was it cut short?)");
		return -1;
	}
	if (bench)
		return read_bench(r, doc, why, len);
	snprintf(why, len, "not a report of wsc trace -j or wsc bench --json (it has no \"syscalls\" or \"variants\")");
	return -1;
}

/* The line of @text at @off, for a parse error. */
static int line_of(const char *text, size_t off)
{
	int line = 1;
	size_t i;

	for (i = 0; i < off && text[i]; i++)
		line += text[i] == '\n';
	return line;
}

int diff_load_text(struct diff_report *r, const char *text, char *why,
		   size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *doc = NULL, *o;
	size_t off = 0, n = strlen(text);
	enum json_tokener_error err;
	int ret = -1;

	if (!tok) {
		snprintf(why, len, "%s", strerror(ENOMEM));
		return -1;
	}
	/* Every object in turn: the last is the report. */
	for (;;) {
		off += strspn(text + off, " \t\r\n");
		if (off == n)
			break;
		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, text + off, (int)(n - off));
		err = json_tokener_get_error(tok);
		if (!o || err != json_tokener_success) {
			snprintf(why, len, "not JSON: line %d: %s",
				 line_of(text, off + json_tokener_get_parse_end(tok)),
				 err == json_tokener_continue ? "it ends too soon" :
				 json_tokener_error_desc(err));
			json_object_put(o);
			goto out;
		}
		json_object_put(doc);
		doc = o;
		off += json_tokener_get_parse_end(tok);
	}
	if (!doc) {
		snprintf(why, len, "empty: no report in it");
		goto out;
	}
	ret = read_doc(r, doc, why, len);
out:
	json_object_put(doc);
	json_tokener_free(tok);
	return ret;
}

/* The whole of @f, NUL-terminated; NULL with errno. */
static char *slurp(FILE *f)
{
	size_t n = 0, cap = 0, got;
	char *buf = NULL, *p;

	do {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 65536;
			p = realloc(buf, cap + 1);
			if (!p) {
				free(buf);
				errno = ENOMEM;
				return NULL;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		free(buf);
		errno = EIO;
		return NULL;
	}
	buf[n] = '\0';
	/* A NUL inside is no text (a binary file): say so, not "ends too soon". */
	if (strlen(buf) != n) {
		free(buf);
		errno = EILSEQ;
		return NULL;
	}
	return buf;
}

static int load_file(struct diff_report *r, const char *path, char *why,
		     size_t len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *text;
	int ret;

	if (!f) {
		snprintf(why, len, "cannot read it: %s", strerror(errno));
		return -1;
	}
	text = slurp(f);
	if (f != stdin)
		fclose(f);
	if (!text) {
		snprintf(why, len, "cannot read it: %s", errno == EILSEQ ?
			 "binary data, not JSON" : strerror(errno));
		return -1;
	}
	ret = diff_load_text(r, text, why, len);
	free(text);
	return ret;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder of wsc bench --all: every CALL.json, environment.json's context. */
static int load_dir(struct diff_report *r, const char *dir, char *why,
		    size_t len)
{
	char path[4096], sub[256], **names = NULL, **p;
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0, i;
	int ret = -1;

	if (!d) {
		snprintf(why, len, "cannot read the folder: %s", strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l < 6 || strcmp(e->d_name + l - 5, ".json") ||
		    !strcmp(e->d_name, "environment.json"))
			continue;
		p = realloc(names, (n + 1) * sizeof(*names));
		if (!p || !(p[n] = strdup(e->d_name))) {
			names = p ? p : names;
			snprintf(why, len, "%s", strerror(ENOMEM));
			goto out;
		}
		names = p;
		n++;
	}
	if (!n) {
		snprintf(why, len, "a folder without a CALL.json of wsc bench --all");
		goto out;
	}
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (load_file(r, path, sub, sizeof(sub)))
			goto sub_failed;
		if (r->kind != DIFF_BENCH) {
			snprintf(sub, sizeof(sub), "a trace report, in a folder of bench reports");
			goto sub_failed;
		}
	}
	snprintf(r->ctx[DIFF_CTX_TARGET], sizeof(r->ctx[0]), "wsc bench --all: %zu calls", n);
	ret = 0;
	goto out;
sub_failed:
	snprintf(why, len, "%s: %s", names[i], sub);
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return ret;
}

int diff_load(struct diff_report *r, const char *path, char *why, size_t len)
{
	struct stat st;

	memset(r, 0, sizeof(*r));
	r->path = path;
	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode))
		return load_dir(r, path, why, len);
	return load_file(r, path, why, len);
}

void diff_report_free(struct diff_report *r)
{
	size_t i;

	for (i = 0; i < r->nr_rows; i++)
		free(r->rows[i].errnos);
	free(r->rows);
	free(r->total.errnos);
	r->rows = NULL;
	r->nr_rows = 0;
}
