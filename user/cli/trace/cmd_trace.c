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
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd_trace.h"
#include "common/args.h"
#include "common/clock.h"
#include "common/csv.h"
#include "common/module_hint.h"
#include "trace.h"

/* How often the end of a trace is looked for; every 1 ms at first. */
#define TRACE_POLL_MS		10
/* For this long after the command was reaped: its end is due. */
#define TRACE_QUICK_NS		50000000ull
/* Longest --duration and --interval: a day; shortest: 1 ms and 10 ms. */
#define TRACE_MAX_SECONDS	86400
#define TRACE_MIN_DURATION	0.001
#define TRACE_MIN_INTERVAL	0.01

struct trace_opts {
	uint32_t pid;
	const char *cgroup;
	bool all;
	char **cmd;
	uint64_t duration_ns;
	uint64_t interval_ns;
	uint64_t top;
	bool json;
	bool hist;
	bool cold;
	enum trace_sort sort;
	enum trace_time time;
	enum trace_by by;
	const char *out;
	const char *csv;
	const char *csv_tasks;
	bool have_calls;
	uint64_t calls[TRACE_CALL_WORDS];
	char calls_text[200];
	bool failed;
	uint32_t err;
	const char *target_arg;		/* "-p 123", for messages */
	char target_buf[64];
};

/* Where the report goes: stderr, stdout (-o -) or a file (-o FILE). */
struct trace_sink {
	FILE *f;
	const char *path;	/* NULL: not a file of ours */
	bool created;		/* by us: removed when nothing is written */
};

static void trace_usage(FILE *f)
{
	fprintf(f,
		"Usage: wsc trace [OPTIONS] -- CMD [ARGS...]\n"
		"       wsc trace [OPTIONS] -p PID\n"
		"       wsc trace [OPTIONS] --cgroup CGROUP\n"
		"       wsc trace [OPTIONS] -a\n\n"
		"Count the latency of every system call of a command and all its\n"
		"descendants (followed through fork and clone), of a running process\n"
		"and its descendants, of every task in a cgroup v2 or of every task of\n"
		"the machine, in the kernel (wsc.ko's probes on the raw_syscalls\n"
		"tracepoints), then print per system call: calls, errors, on-CPU and\n"
		"off-CPU time, share, mean, p50, p99 and max latency; the shares of\n"
		"the Nature of System Calls paper's groups (wsc(8), PAPERS); and the\n"
		"errnos of the failed calls.  Percentiles come from log-linear\n"
		"histograms (<= 3%% wide) of wall-clock latency.\n\n"
		"Target (exactly one):\n"
		"  -p, --pid PID        process PID and its descendants, until they have\n"
		"                       all exited, --duration ends or Ctrl-C\n"
		"      --cgroup CGROUP  every task in CGROUP (a path below the cgroup2\n"
		"                       root, or under its mount point, e.g.\n"
		"                       /sys/fs/cgroup/my.slice) until --duration or Ctrl-C;\n"
		"                       no short form: -c is a CPU in the other commands\n"
		"  -a, --all            every task of the machine but wsc's own, until\n"
		"                       --duration or Ctrl-C\n"
		"  -- CMD [ARGS...]     run CMD and trace it and its descendants\n\n"
		"Filters (in the kernel: what they leave out costs no histogram):\n"
		"  -e, --calls LIST     only these system calls: names (openat,\n"
		"                       newfstatat), numbers, the groups %%file,\n"
		"                       %%memory, %%signal, %%ipc, %%userdata, %%locking,\n"
		"                       %%other, or all; comma-separated; a leading '!'\n"
		"                       means all but these; 'trace=' before is ignored;\n"
		"                       repeated, the lists add up\n"
		"  -Z, --failed         only calls that fail\n"
		"      --errno E        only calls that fail with E (ENOENT, or 1..4095)\n\n"
		"Duration and views:\n"
		"  -d, --duration SEC   stop after SEC seconds (%g..%u; fractions allowed;\n"
		"                       not with a command)\n"
		"      --interval SEC   every SEC seconds (>= %g) while tracing, the\n"
		"                       table of that interval; then the last interval\n"
		"                       and the whole; with -j one JSON object per line\n"
		"  -s, --sort KEY       total (default: the time --time names), calls,\n"
		"                       errors, mean, p50, p99, max, name or nr\n"
		"      --time cpu|wall|off  what the share column and the\n"
		"                       default sort mean: on-CPU time in the calls\n"
		"                       (cpu, default), entry to exit (wall), blocked or\n"
		"                       waiting (off); latencies stay wall clock\n"
		"      --top N          only the first N rows (and tasks) after sorting\n"
		"      --by process|thread  a table per process or per thread after the\n"
		"                       system calls\n"
		"      --hist           an ASCII power-of-two histogram under each row\n"
		"      --cold           drop the page cache before the command starts\n"
		"                       (as the Nature of System Calls paper did;\n"
		"                       needs root)\n\n"
		"Output:\n"
		"  -o, --output FILE    the report to FILE (- for stdout); default stderr\n"
		"  -j, --json           one JSON object instead of the table\n"
		"      --csv FILE       one line per system call into FILE\n"
		"      --csv-tasks FILE one line per task followed into FILE\n"
		"  -h, --help           show this help\n\n"
		"Needs wsc.ko loaded and CAP_SYS_ADMIN or CAP_PERFMON.  With a command,\n"
		"the exit status is the command's (128 + N when killed by signal N;\n"
		"127 when it cannot be run); otherwise 0, 1 on failure, 2 for a bad\n"
		"command line.  A call a wsc batch ran counts once, in its own row;\n"
		"the batch's ioctl counts its own time only.\n",
		TRACE_MIN_DURATION, TRACE_MAX_SECONDS, TRACE_MIN_INTERVAL);
}

static int trace_bad(const char *what, const char *arg)
{
	usage_error("trace", "%s%s%s", what, arg ? ": " : "", arg ? arg : "");
	return EXIT_USAGE;
}

static bool trace_calls_empty(const uint64_t *calls)
{
	size_t i;

	for (i = 0; i < TRACE_CALL_WORDS; i++)
		if (calls[i])
			return false;
	return true;
}

/* -e LIST: into o->calls, and its text into o->calls_text. */
static int trace_parse_e(struct trace_opts *o, const char *list)
{
	size_t n = strlen(o->calls_text);
	char bad[64];

	if (trace_parse_calls(list, o->calls, bad, sizeof(bad))) {
		if (!bad[0])
			return trace_bad("-e: an empty item in the list", list);
		return trace_bad("-e: no such system call or group", bad);
	}
	o->have_calls = true;
	snprintf(o->calls_text + n, sizeof(o->calls_text) - n, "%s-e %s",
		 n ? " " : "", list);
	return 0;
}

/*
 * SEC for --duration and --interval, in the words of args.h: not a number
 * and out of range are two mistakes, told apart by parsing again without
 * the range.
 */
static int trace_parse_secs(const char *opt, const char *arg, double min_s,
			    uint64_t *ns)
{
	uint64_t any;

	if (!trace_parse_seconds(arg, min_s, TRACE_MAX_SECONDS, ns))
		return 0;
	if (!trace_parse_seconds(arg, 0, 1e18, &any))
		return usage_error("trace", "%s: %s is out of range %g..%u", opt,
				   arg, min_s, TRACE_MAX_SECONDS);
	return usage_error("trace", "%s: '%s' is not a number of seconds", opt,
			   arg);
}

/* The values of the options that take one; 0 or EXIT_USAGE. */
static int trace_parse_value(struct trace_opts *o, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case 'p':
		if (parse_u64("trace", "--pid", arg, 1, INT32_MAX, &v))
			return EXIT_USAGE;
		/* Its only calls would be wsc's own polling. */
		if (v == (uint64_t)getpid())
			return trace_bad("-p: that is wsc trace itself, whose calls "
					 "are never counted", arg);
		o->pid = (uint32_t)v;
		snprintf(o->target_buf, sizeof(o->target_buf), "-p %s", arg);
		return 0;
	case 'c':
		if (!arg[0])
			return trace_bad("--cgroup needs a cgroup path", NULL);
		o->cgroup = arg;
		return 0;
	case 'd':
	case 'I':
		return trace_parse_secs(c == 'd' ? "--duration" : "--interval", arg,
					c == 'd' ? TRACE_MIN_DURATION : TRACE_MIN_INTERVAL,
					c == 'd' ? &o->duration_ns : &o->interval_ns);
	case 'T':
		return parse_u64("trace", "--top", arg, 1, 1000000, &o->top);
	case 's':
		if (trace_parse_sort(arg, &o->sort))
			return trace_bad("unknown sort key (total, calls, errors, mean, p50, p99, max, name, nr)",
					 arg);
		return 0;
	case 't':
		if (trace_parse_time(arg, &o->time))
			return trace_bad("--time is cpu, wall or off", arg);
		return 0;
	case 'b':
		if (trace_parse_by(arg, &o->by))
			return trace_bad("--by is process or thread", arg);
		return 0;
	case 'e':
		return trace_parse_e(o, arg);
	case 'E':
		if (trace_parse_errno(arg, &o->err))
			return trace_bad("--errno takes a name (ENOENT) or 1..4095",
					 arg);
		return 0;
	case 'V':
	case 'W':
	case 'o':
		if (!arg[0])
			return trace_bad(c == 'o' ? "-o needs a file name" :
					 c == 'V' ? "--csv needs a file name" :
					 "--csv-tasks needs a file name", NULL);
		if (c == 'o')
			o->out = arg;
		else if (c == 'V')
			o->csv = arg;
		else
			o->csv_tasks = arg;
		return 0;
	}
	return trace_bad("bad option", NULL);
}

static int trace_parse(int argc, char **argv, struct trace_opts *o)
{
	static const struct option longopts[] = {
		{ "pid",	required_argument, NULL, 'p' },
		{ "cgroup",	required_argument, NULL, 'c' },
		{ "all",	no_argument,	   NULL, 'a' },
		{ "duration",	required_argument, NULL, 'd' },
		{ "interval",	required_argument, NULL, 'I' },
		{ "top",	required_argument, NULL, 'T' },
		{ "cold",	no_argument,	   NULL, 'C' },
		{ "sort",	required_argument, NULL, 's' },
		{ "time",	required_argument, NULL, 't' },
		{ "by",		required_argument, NULL, 'b' },
		{ "calls",	required_argument, NULL, 'e' },
		{ "failed",	no_argument,	   NULL, 'Z' },
		{ "errno",	required_argument, NULL, 'E' },
		{ "hist",	no_argument,	   NULL, 'H' },
		{ "json",	no_argument,	   NULL, 'j' },
		{ "csv",	required_argument, NULL, 'V' },
		{ "csv-tasks",	required_argument, NULL, 'W' },
		{ "output",	required_argument, NULL, 'o' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, err;

	opterr = 0;
	/*
	 * '+': options end at the command, whose own options are its own.
	 * No -c: it was the cgroup until 0.2, and is a CPU everywhere else.
	 */
	while ((c = getopt_long(argc, argv, "+:p:ad:s:e:Zjo:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			o->all = true;
			break;
		case 'C':
			o->cold = true;
			break;
		case 'Z':
			o->failed = true;
			break;
		case 'H':
			o->hist = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'h':
			trace_usage(stdout);
			exit(0);
		case '?':
			if (optopt == 'c')
				return trace_bad("-c is no longer the cgroup: use --cgroup (-c is a CPU in the other commands)",
						 NULL);
			/* fall through */
		case ':':
			return usage_getopt("trace", c, argv);
		default:
			err = trace_parse_value(o, c, optarg);
			if (err)
				return err;
		}
	}
	if (optind < argc)
		o->cmd = argv + optind;
	if (!!o->pid + !!o->cgroup + o->all + !!o->cmd != 1)
		return trace_bad("give exactly one target: -p PID, --cgroup CGROUP, -a or -- CMD", NULL);
	if (o->cold && !o->cmd)
		return trace_bad("--cold needs a command: the caches are dropped before it starts", NULL);
	if (o->duration_ns && o->cmd)
		return trace_bad("--duration is for -p, --cgroup and -a: a command is traced until it ends", NULL);
	if (o->have_calls && trace_calls_empty(o->calls))
		return trace_bad("-e selects no system call", o->calls_text);
	if (o->cgroup)
		snprintf(o->target_buf, sizeof(o->target_buf), "--cgroup %s",
			 o->cgroup);
	if (o->all)
		snprintf(o->target_buf, sizeof(o->target_buf), "-a");
	o->target_arg = o->target_buf[0] ? o->target_buf : NULL;
	return 0;
}

/* SIGINT or SIGTERM: stop tracing (and pass it on to the command). */
static volatile sig_atomic_t trace_signal;

static void trace_on_signal(int sig)
{
	trace_signal = sig;
}

static void trace_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = trace_on_signal };

	/* No SA_RESTART: waitpid() and nanosleep() return to look. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void trace_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int trace_drop_caches(void)
{
	int fd;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3", 1) != 1) {
		fprintf(stderr, "wsc trace: --cold: cannot write /proc/sys/vm/drop_caches: %s (needs root)\n",
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * The cgroup path as the kernel wants it: below the cgroup2 root.  A path
 * under the cgroup2 mount point (from /proc/self/mountinfo) loses that
 * prefix; any other path is taken as below the root already.
 */
static void trace_cgroup_path(const char *arg, char *out, size_t len)
{
	char line[4096], mnt[PATH_MAX] = "";
	FILE *f = fopen("/proc/self/mountinfo", "re");
	size_t n;

	while (f && fgets(line, sizeof(line), f)) {
		char point[PATH_MAX], *sep = strstr(line, " - cgroup2 ");

		/* 36 25 0:31 / /sys/fs/cgroup rw,... - cgroup2 cgroup2 rw */
		if (sep && sscanf(line, "%*s %*s %*s %*s %4095s", point) == 1) {
			snprintf(mnt, sizeof(mnt), "%s", point);
			break;
		}
	}
	if (f)
		fclose(f);
	n = strlen(mnt);
	if (n && !strncmp(arg, mnt, n) && (arg[n] == '/' || !arg[n]))
		arg += n;
	snprintf(out, len, "%s%s", arg[0] == '/' ? "" : "/", arg);
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
 * Find @name as execvp() would, but here, before the trace starts: a
 * PATH search in the child would put its failed execve calls in the
 * trace (strace searches first too).  0, or -1 with a message.
 */
static int trace_resolve(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH"), *p, *end;

	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return 0;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = end + 1) {
		end = strchrnul(p, ':');
		/* An empty PATH entry is the current folder. */
		if ((size_t)snprintf(out, len, "%.*s%s%s", (int)(end - p), p,
				     end == p ? "" : "/", name) < len &&
		    !access(out, X_OK)) {
			struct stat st;

			if (!stat(out, &st) && S_ISREG(st.st_mode))
				return 0;
		}
		if (!*end)
			break;
	}
	fprintf(stderr, "wsc trace: cannot run '%s': not found in PATH\n", name);
	return -1;
}

/*
 * Fork the command, stopped before exec until the trace has started on
 * it, so that its first traced call is its execve.  It stops itself with
 * SIGSTOP: the exit of its kill(2) passes the tracepoint before the stop
 * takes hold (on the way back to user mode), so no call of it is in
 * progress when the trace begins and none is counted "unmatched" (a read
 * of a pipe would be, on every traced command).  Returns once it has
 * stopped; -1 with errno, or -2 when it died before (said).
 *
 * It never runs untraced: if the trace cannot start, wsc kills it; if
 * wsc itself is killed meanwhile, it stays stopped, or, when that leaves
 * its process group orphaned, the kernel sends it SIGHUP before SIGCONT
 * (a command that ignores SIGHUP would then run untraced).
 */
static pid_t trace_spawn(const char *file, char **cmd, int *exec_err)
{
	int errp[2], e, status;
	pid_t pid, w;

	if (pipe2(errp, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(errp[0]);
		close(errp[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		close(errp[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		kill(getpid(), SIGSTOP);
		execv(file, cmd);
		e = errno;
		if (write(errp[1], &e, sizeof(e)) != sizeof(e))
			_exit(127);
		_exit(127);
	}
	close(errp[1]);
	do
		w = waitpid(pid, &status, WUNTRACED);
	while (w < 0 && errno == EINTR);
	if (w == pid && WIFSTOPPED(status)) {
		*exec_err = errp[0];
		return pid;
	}
	e = errno;
	close(errp[0]);
	if (w != pid) {
		errno = e;
		return -1;
	}
	fprintf(stderr, "wsc trace: the command's process ended before it could run (wait status %#x)\n",
		(unsigned int)status);
	return -2;
}

/*
 * A signal to wsc goes on to the command, once: Ctrl-C reached it too,
 * but SIGTERM to wsc alone did not.
 */
static void trace_pass_signal(pid_t pid, int *sent)
{
	if (trace_signal && trace_signal != *sent) {
		*sent = trace_signal;
		kill(pid, *sent);
	}
}

/* The command's wait status, waiting out signals to wsc. */
static int trace_reap(pid_t pid, int *status)
{
	int sent = 0;

	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -1;
		trace_pass_signal(pid, &sent);
	}
	return 0;
}

/* wsc_trace_fetch()'s callback: one row per system call. */
static int trace_add_row(void *ctx, const struct wsc_trace_call *call)
{
	struct trace_report *r = ctx;
	struct trace_row *rows, *row;
	const char *name;
	size_t i;

	rows = realloc(r->rows, (r->nr_rows + 1) * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	r->rows = rows;
	row = &rows[r->nr_rows];
	memset(row, 0, sizeof(*row));
	/* Counted from here on: trace_report_free() frees what it holds. */
	r->nr_rows++;
	row->nr = call->nr;
	name = trace_syscall_name(call->nr);
	if (name)
		snprintf(row->name, sizeof(row->name), "%s", name);
	else
		snprintf(row->name, sizeof(row->name), "syscall_%u", call->nr);
	row->group = trace_syscall_group(row->name);
	row->calls = call->calls;
	row->errors = call->errors;
	row->wrapped = call->wrapped;
	row->total_ns = call->total_ns;
	row->off_ns = call->off_ns;
	row->max_ns = call->max_ns;
	if (call->nr_buckets) {
		row->buckets = calloc(call->nr_buckets, sizeof(*row->buckets));
		if (!row->buckets)
			return -ENOMEM;
	}
	for (i = 0; i < call->nr_buckets; i++) {
		row->buckets[i].low_ns = call->buckets[i][0];
		row->buckets[i].high_ns = call->buckets[i][1];
		row->buckets[i].count = call->buckets[i][2];
	}
	row->nr_buckets = call->nr_buckets;
	if (call->nr_errnos) {
		row->errnos = calloc(call->nr_errnos, sizeof(*row->errnos));
		if (!row->errnos)
			return -ENOMEM;
	}
	for (i = 0; i < call->nr_errnos; i++) {
		row->errnos[i].err = (uint32_t)call->errnos[i][0];
		row->errnos[i].count = call->errnos[i][1];
	}
	row->nr_errnos = call->nr_errnos;
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
static int trace_fetch_rows(struct wsc_trace *tr, struct trace_report *r)
{
	int err = wsc_trace_fetch(tr, trace_add_row, r);

	if (err < 0)
		return err;
	trace_report_finish(r);
	return 0;
}

/* Stop (if still active), then read the status, every call and task. */
static int trace_collect(struct wsc_trace *tr, struct trace_report *r)
{
	int err;

	err = wsc_trace_stop(tr);
	if (!err)
		err = wsc_trace_status(tr, &r->status);
	if (!err)
		err = trace_fetch_rows(tr, r);
	if (!err) {
		err = wsc_trace_tasks(tr, trace_add_task, r);
		err = err < 0 ? err : 0;
	}
	if (err) {
		trace_fail(tr, "cannot read the trace back", err, NULL);
		return -1;
	}
	return 0;
}

/**
 * struct trace_live - the intervals of --interval
 * @o:        the options
 * @f:        where they are printed
 * @prev:     the figures of the previous fetch (none at first)
 * @k:        intervals printed
 * @begin_ns: when the trace started (clock_now_ns())
 * @last_ns:  when the previous fetch was, from @begin_ns
 * @next_ns:  when the next one is due (clock_now_ns())
 */
struct trace_live {
	const struct trace_opts *o;
	FILE *f;
	struct trace_report prev;
	unsigned int k;
	uint64_t begin_ns;
	uint64_t last_ns;
	uint64_t next_ns;
};

static void trace_live_begin(struct trace_live *lv)
{
	lv->begin_ns = clock_now_ns();
	lv->next_ns = lv->begin_ns + lv->o->interval_ns;
}

/*
 * Print the interval from the previous fetch to @cur (fetched at
 * @end_ns from the start); @cur becomes the previous unless @last.
 */
static int trace_live_print(struct trace_live *lv, struct trace_report *cur,
			    uint64_t end_ns, bool last)
{
	struct trace_interval iv = { .k = ++lv->k, .start_ns = lv->last_ns,
				     .end_ns = end_ns, .last = last };
	struct trace_report d;

	if (trace_report_diff(cur, &lv->prev, &d))
		return -ENOMEM;
	trace_sort_rows(&d, lv->o->sort);
	if (lv->o->json)
		trace_print_interval_json(lv->f, &d, &iv);
	else
		trace_print_interval(lv->f, &d, &iv);
	fflush(lv->f);
	trace_report_free(&d);
	lv->last_ns = end_ns;
	if (!last) {
		trace_report_free(&lv->prev);
		lv->prev = *cur;
		memset(cur, 0, sizeof(*cur));
	}
	return 0;
}

/* An interval is due: fetch the live figures and print what is new. */
static int trace_live_tick(struct wsc_trace *tr, struct trace_live *lv,
			   uint64_t now)
{
	struct trace_report cur = lv->prev;
	int err;

	/* The views (--time, --top) as the whole report's; no rows yet. */
	cur.rows = NULL;
	cur.nr_rows = 0;
	cur.tasks = NULL;
	cur.nr_tasks = 0;
	/* "lost" so far, for the interval's JSON. */
	err = wsc_trace_status(tr, &cur.status);
	if (!err)
		err = trace_fetch_rows(tr, &cur);
	if (!err)
		err = trace_live_print(lv, &cur, now - lv->begin_ns, false);
	trace_report_free(&cur);
	while (lv->next_ns <= now)
		lv->next_ns += lv->o->interval_ns;
	return err;
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
	struct wsc_trace_status st;
	int sent = 0, status, err;
	bool said = false;
	pid_t w;

	for (;;) {
		now = clock_now_ns();
		if (child > 0) {
			trace_pass_signal(child, &sent);
			/* Without intervals to print, sleep in waitpid itself. */
			w = waitpid(child, &status, o->interval_ns ? WNOHANG : 0);
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
			if (w < 0 && !o->interval_ns)
				continue;
		} else {
			err = wsc_trace_status(tr, &st);
			if (err)
				return err;
			if (st.state != WSC_TRACE_ACTIVE)
				return 0;
			if (trace_signal) {
				r->stop = TRACE_STOP_SIGNAL;
				r->stop_signal = trace_signal;
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
		/*
		 * The end follows the last task's exit within a millisecond
		 * or so: look closely at first, then every TRACE_POLL_MS.
		 */
		trace_sleep_ms(exited_ns && now - exited_ns < TRACE_QUICK_NS ?
			       1 : TRACE_POLL_MS);
	}
}

/* -o FILE, -o - or stderr; a file is created now.  0, or -1 said. */
static int trace_sink_open(struct trace_sink *s, const char *path)
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
static int trace_sink_close(struct trace_sink *s, bool written)
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
static int trace_csv_open(struct csv_out *c, const char *opt,
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

/* Run the command under the trace; fills @r and its exit status. */
static int trace_command(struct wsc_trace *tr, struct wsc_trace_spec *spec,
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
static int trace_target(struct wsc_trace *tr, struct wsc_trace_spec *spec,
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

static void trace_describe(const struct trace_opts *o, const char *cgroup,
			   struct trace_report *r)
{
	size_t n = 0;
	int i;

	r->time = o->time;
	r->by = o->by;
	r->top = (size_t)o->top;
	snprintf(r->filter, sizeof(r->filter), "%s", o->calls_text);
	if (o->pid) {
		snprintf(r->target, sizeof(r->target), "pid %u", o->pid);
		return;
	}
	if (o->cgroup) {
		snprintf(r->target, sizeof(r->target), "cgroup %s", cgroup);
		return;
	}
	if (o->all) {
		snprintf(r->target, sizeof(r->target), "every task (but wsc's own)");
		return;
	}
	n = (size_t)snprintf(r->target, sizeof(r->target), "command:");
	for (i = 0; o->cmd[i] && n < sizeof(r->target); i++)
		n += (size_t)snprintf(r->target + n, sizeof(r->target) - n,
				      " %s", o->cmd[i]);
}

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

/* The report (after --interval's last interval), the CSV files. */
static int trace_output(struct trace_live *lv, struct trace_report *r,
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
	if (csv->f)
		trace_print_csv(csv->f, r);
	if (csv_tasks->f)
		trace_print_tasks_csv(csv_tasks->f, r);
	return 0;
}

int cmd_trace(int argc, char **argv)
{
	struct trace_opts o = { .sort = TRACE_SORT_TOTAL };
	char cgroup[WSC_TRACE_CGROUP_MAX + 2] = "";
	struct csv_out csv = { 0 }, csv_tasks = { 0 };
	struct trace_report r = { 0 };
	struct trace_live lv = { .o = &o };
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

	/* Every file first: a path that cannot be written costs no run. */
	if (trace_sink_open(&out, o.out))
		return 1;
	lv.f = out.f;
	if (trace_csv_open(&csv, "--csv", o.csv) ||
	    trace_csv_open(&csv_tasks, "--csv-tasks", o.csv_tasks))
		goto close;
	err = wsc_trace_open(&tr);
	if (err) {
		module_report("trace", err, true);
		tr = NULL;
		goto close;
	}
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
	if (trace_collect(tr, &r) || trace_output(&lv, &r, &csv, &csv_tasks))
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
	trace_report_free(&lv.prev);
	trace_report_free(&r);
	if (tr)
		wsc_trace_close(tr);
	return ret;
}
