// SPDX-License-Identifier: MIT
/*
 * wsc trace: run a command (or attach to a process tree or a cgroup)
 * while wsc.ko counts every system call's latency in the kernel, then
 * print per-syscall figures and histograms.
 *
 *   wsc trace [options] -- CMD [ARGS...]
 *   wsc trace [options] -p PID
 *   wsc trace [options] -c CGROUP
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
#include "trace.h"

/* How often the end of a trace is looked for. */
#define TRACE_POLL_MS		10
/* Longest --duration: a day. */
#define TRACE_MAX_SECONDS	86400

struct trace_opts {
	uint32_t pid;
	const char *cgroup;
	char **cmd;
	uint64_t duration_s;
	bool json;
	bool hist;
	bool cold;
	enum trace_sort sort;
	const char *out;
	const char *csv;
};

static void trace_usage(FILE *f)
{
	fprintf(f,
		"Usage: wsc trace [OPTIONS] -- CMD [ARGS...]\n"
		"       wsc trace [OPTIONS] -p PID\n"
		"       wsc trace [OPTIONS] -c CGROUP\n\n"
		"Count the latency of every system call of a command and all its\n"
		"descendants (followed through fork and clone), of a running process\n"
		"and its descendants, or of every task in a cgroup v2, in the kernel\n"
		"(wsc.ko's probes on the raw_syscalls tracepoints), then print per system\n"
		"call: group (paper 001), calls, errors, total time, share, mean, p50,\n"
		"p99 and max.  Percentiles come from log-linear histograms (<= 3%% wide).\n\n"
		"  -p, --pid PID        trace process PID and its descendants until they\n"
		"                       have all exited, --duration ends or Ctrl-C\n"
		"  -c, --cgroup CGROUP  trace every task in CGROUP (a path below the\n"
		"                       cgroup2 root, or under its mount point, e.g.\n"
		"                       /sys/fs/cgroup/my.slice) until --duration or Ctrl-C\n"
		"  -d, --duration SEC   stop after SEC seconds (1..%u)\n"
		"      --cold           drop the page cache before the command starts\n"
		"                       (as paper 001 did; needs root)\n"
		"  -s, --sort KEY       total (default), calls, errors, mean, p50, p99,\n"
		"                       max, name or nr\n"
		"      --hist           an ASCII power-of-two histogram under each row\n"
		"  -j, --json           one JSON object instead of the table\n"
		"      --csv FILE       one line per system call into FILE\n"
		"  -o, --output FILE    write the table or JSON to FILE, not stdout\n"
		"  -h, --help           show this help\n\n"
		"Needs wsc.ko loaded and CAP_SYS_ADMIN or CAP_PERFMON.  With a command,\n"
		"the exit status is the command's (128 + N when killed by signal N;\n"
		"127 when it cannot be run); otherwise 0, 1 on failure, 2 for a bad\n"
		"command line.  Calls made inside a wrapped batch count as its ioctl.\n",
		TRACE_MAX_SECONDS);
}

static int trace_bad(const char *what, const char *arg)
{
	usage_error("trace", "%s%s%s", what, arg ? ": " : "", arg ? arg : "");
	return EXIT_USAGE;
}

static int trace_parse(int argc, char **argv, struct trace_opts *o)
{
	static const struct option longopts[] = {
		{ "pid",	required_argument, NULL, 'p' },
		{ "cgroup",	required_argument, NULL, 'c' },
		{ "duration",	required_argument, NULL, 'd' },
		{ "cold",	no_argument,	   NULL, 'C' },
		{ "sort",	required_argument, NULL, 's' },
		{ "hist",	no_argument,	   NULL, 'H' },
		{ "json",	no_argument,	   NULL, 'j' },
		{ "csv",	required_argument, NULL, 'V' },
		{ "output",	required_argument, NULL, 'o' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	uint64_t v;
	int c;

	/* '+': options end at the command, whose own options are its own. */
	while ((c = getopt_long(argc, argv, "+p:c:d:s:jo:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_u64("-p", optarg, 1, INT32_MAX, &v))
				return EXIT_USAGE;
			o->pid = (uint32_t)v;
			break;
		case 'c':
			if (!optarg[0])
				return trace_bad("-c needs a cgroup path", NULL);
			o->cgroup = optarg;
			break;
		case 'd':
			if (parse_u64("--duration", optarg, 1,
				      TRACE_MAX_SECONDS, &o->duration_s))
				return EXIT_USAGE;
			break;
		case 'C':
			o->cold = true;
			break;
		case 's':
			if (trace_parse_sort(optarg, &o->sort))
				return trace_bad("unknown sort key (total, calls, errors, mean, p50, p99, max, name, nr)",
						 optarg);
			break;
		case 'H':
			o->hist = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'V':
			if (!optarg[0])
				return trace_bad("--csv needs a file name", NULL);
			o->csv = optarg;
			break;
		case 'o':
			if (!optarg[0])
				return trace_bad("-o needs a file name", NULL);
			o->out = optarg;
			break;
		case 'h':
			trace_usage(stdout);
			exit(0);
		default:
			return trace_bad("bad option", NULL);
		}
	}
	if (optind < argc)
		o->cmd = argv + optind;
	if (!!o->pid + !!o->cgroup + !!o->cmd != 1)
		return trace_bad("give exactly one target: -p PID, -c CGROUP or -- CMD", NULL);
	if (o->cold && !o->cmd)
		return trace_bad("--cold needs a command: the caches are dropped before it starts", NULL);
	if (o->duration_s && o->cmd)
		return trace_bad("--duration is for -p and -c: a command is traced until it ends", NULL);
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

/* What the failure of a start means, for people. */
static void trace_start_failed(struct wsc_trace *tr, int err)
{
	const char *why = wsc_trace_error(tr);

	fprintf(stderr, "wsc trace: cannot start the trace: %s%s%s\n",
		strerror(-err), why[0] ? ": " : "", why);
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
 * it, so that its first traced call is its execve.  The child waits in a
 * read() of @go: that read is the trace's one "unmatched" exit.
 */
static pid_t trace_spawn(const char *file, char **cmd, int *go,
			 int *exec_err)
{
	int gop[2], errp[2], e;
	char byte;
	pid_t pid;

	if (pipe2(gop, O_CLOEXEC))
		return -1;
	if (pipe2(errp, O_CLOEXEC)) {
		close(gop[0]);
		close(gop[1]);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(gop[0]);
		close(gop[1]);
		close(errp[0]);
		close(errp[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		close(gop[1]);
		close(errp[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* End of file: wsc gave up; never run untraced. */
		if (read(gop[0], &byte, 1) != 1)
			_exit(127);
		execv(file, cmd);
		e = errno;
		if (write(errp[1], &e, sizeof(e)) != sizeof(e))
			_exit(127);
		_exit(127);
	}
	close(gop[0]);
	close(errp[1]);
	*go = gop[1];
	*exec_err = errp[0];
	return pid;
}

/* The command's wait status, waiting out signals to wsc. */
static int trace_reap(pid_t pid, int *status)
{
	int sent = 0;

	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -1;
		/* Ctrl-C reached the command too; SIGTERM to wsc alone did not. */
		if (trace_signal && trace_signal != sent) {
			sent = trace_signal;
			kill(pid, sent);
		}
	}
	return 0;
}

/*
 * Wait until the trace ends by itself (every traced task gone), @deadline
 * (ns since boot, 0: none) passes, or a signal comes.
 */
static int trace_wait_end(struct wsc_trace *tr, uint64_t deadline_ns,
			  bool say_waiting)
{
	struct wsc_trace_status st;
	unsigned int polls = 0;
	int err;

	for (;;) {
		err = wsc_trace_status(tr, &st);
		if (err)
			return err;
		if (st.state != WSC_TRACE_ACTIVE || trace_signal)
			return 0;
		if (deadline_ns && clock_now_ns() >= deadline_ns)
			return 0;
		if (say_waiting && ++polls == 1000 / TRACE_POLL_MS)
			fprintf(stderr, "wsc trace: the command has exited; waiting for %u traced task%s still running (Ctrl-C to stop)\n",
				st.live, st.live == 1 ? "" : "s");
		trace_sleep_ms(TRACE_POLL_MS);
	}
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
	row->nr = call->nr;
	name = trace_syscall_name(call->nr);
	if (name)
		snprintf(row->name, sizeof(row->name), "%s", name);
	else
		snprintf(row->name, sizeof(row->name), "syscall_%u", call->nr);
	row->group = trace_syscall_group(row->name);
	row->calls = call->calls;
	row->errors = call->errors;
	row->total_ns = call->total_ns;
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
	r->nr_rows++;
	trace_row_finish(row);
	return 0;
}

/* Stop (if still active), then read the status and every call. */
static int trace_collect(struct wsc_trace *tr, struct trace_report *r)
{
	int err;

	err = wsc_trace_stop(tr);
	if (!err)
		err = wsc_trace_status(tr, &r->status);
	if (!err) {
		err = wsc_trace_fetch(tr, trace_add_row, r);
		err = err < 0 ? err : 0;
	}
	if (err) {
		const char *why = wsc_trace_error(tr);

		fprintf(stderr, "wsc trace: cannot read the trace back: %s%s%s\n",
			strerror(-err), why[0] ? ": " : "", why);
		return -1;
	}
	trace_report_finish(r);
	return 0;
}

static int trace_output(const struct trace_opts *o, struct trace_report *r)
{
	struct csv_out csv = { 0 };
	FILE *f = stdout;
	int failed = 0;

	trace_sort_rows(r, o->sort);
	if (o->csv && csv_open(&csv, "trace", o->csv))
		return -1;
	if (o->out) {
		f = fopen(o->out, "we");
		if (!f) {
			fprintf(stderr, "wsc trace: -o %s: %s\n", o->out,
				strerror(errno));
			csv_abort(&csv);
			return -1;
		}
	}
	if (o->json)
		trace_print_json(f, r);
	else
		trace_print_table(f, r, o->hist);
	if (o->out && fclose(f)) {
		fprintf(stderr, "wsc trace: -o %s: %s\n", o->out,
			strerror(errno));
		failed = 1;
	}
	if (csv.f)
		trace_print_csv(csv.f, r);
	if (csv_commit(&csv, "trace", failed))
		failed = 1;
	return failed ? -1 : 0;
}

/* Run the command under the trace; fills @r and its exit status. */
static int trace_command(struct wsc_trace *tr, const struct trace_opts *o,
			 struct trace_report *r)
{
	int go, exec_err, status, err, e = 0;
	char file[PATH_MAX];
	ssize_t got;
	pid_t pid;

	if (trace_resolve(o->cmd[0], file, sizeof(file)))
		return 127;
	if (o->cold && trace_drop_caches())
		return -1;
	pid = trace_spawn(file, o->cmd, &go, &exec_err);
	if (pid < 0) {
		fprintf(stderr, "wsc trace: cannot fork: %s\n", strerror(errno));
		return -1;
	}
	err = wsc_trace_start(tr, (uint32_t)pid, NULL);
	if (err) {
		trace_start_failed(tr, err);
		close(go);		/* the child exits without running */
		close(exec_err);
		trace_reap(pid, &status);
		return -1;
	}
	if (write(go, "g", 1) != 1)
		e = errno;
	close(go);
	got = read(exec_err, &e, sizeof(e));
	close(exec_err);
	trace_reap(pid, &status);
	if (got == sizeof(e)) {
		fprintf(stderr, "wsc trace: cannot run '%s': %s\n", o->cmd[0],
			strerror(e));
		wsc_trace_stop(tr);
		return 127;
	}
	r->has_exit = true;
	r->exit_status = status;
	/* Descendants may still run: the trace ends with the last of them. */
	return trace_wait_end(tr, 0, true) ? -1 : 0;
}

static void trace_describe(const struct trace_opts *o, const char *cgroup,
			   struct trace_report *r)
{
	size_t n = 0;
	int i;

	if (o->pid) {
		snprintf(r->target, sizeof(r->target), "pid %u", o->pid);
		return;
	}
	if (o->cgroup) {
		snprintf(r->target, sizeof(r->target), "cgroup %s", cgroup);
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

int cmd_trace(int argc, char **argv)
{
	struct trace_opts o = { .sort = TRACE_SORT_TOTAL };
	char cgroup[WSC_TRACE_CGROUP_MAX + 2] = "";
	struct trace_report r = { 0 };
	struct wsc_trace *tr;
	int err, ret = 1;

	err = trace_parse(argc, argv, &o);
	if (err)
		return err;
	if (o.cgroup)
		trace_cgroup_path(o.cgroup, cgroup, sizeof(cgroup));
	trace_describe(&o, cgroup, &r);

	err = wsc_trace_open(&tr);
	if (err) {
		fprintf(stderr, "wsc trace: %s\n", err == -ENOENT ?
			"wsc.ko is not loaded (no generic netlink family \"" WSC_LAT_GENL_NAME "\")" :
			strerror(-err));
		return 1;
	}
	trace_catch_signals();
	if (o.cmd) {
		err = trace_command(tr, &o, &r);
		if (err) {
			ret = err > 0 ? err : 1;
			goto close;
		}
	} else {
		err = wsc_trace_start(tr, o.pid, o.cgroup ? cgroup : NULL);
		if (err) {
			trace_start_failed(tr, err);
			goto close;
		}
		if (o.cgroup && !o.duration_s)
			fprintf(stderr, "wsc trace: tracing cgroup %s: Ctrl-C to stop\n",
				cgroup);
		err = trace_wait_end(tr, o.duration_s ?
				     clock_now_ns() + o.duration_s * 1000000000ull : 0,
				     false);
		if (err) {
			fprintf(stderr, "wsc trace: %s: %s\n", strerror(-err),
				wsc_trace_error(tr));
			wsc_trace_stop(tr);
			goto close;
		}
	}
	if (trace_collect(tr, &r) || trace_output(&o, &r))
		goto close;
	ret = trace_exit_code(&r);
close:
	trace_report_free(&r);
	wsc_trace_close(tr);
	return ret;
}
