// SPDX-License-Identifier: MIT
/*
 * wsc trace's command line: the options, the usage, the target and what
 * they say about the report.
 */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/args.h"
#include "trace_cmd.h"

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
		"      --errno E        only calls that fail with E (ENOENT, or 1..4095)\n"
		"      --ring           count the io_uring requests of the traced tasks\n"
		"                       too, per opcode (rows ring:READ, ...), from\n"
		"                       submission to completion\n\n"
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
		"      --openmetrics FILE  the counts so far as Prometheus metrics\n"
		"                       (node_exporter's textfile format) into FILE,\n"
		"                       replaced at the end and every --interval\n"
		"  -h, --help           show this help\n\n"
		"Batching (Documentation/advise.md):\n"
		"      --advise         after the report, what wrapped batches would save:\n"
		"                       each thread's runs of calls a batch could carry,\n"
		"                       the recurring sequences and their references,\n"
		"                       the kernel entries now and batched, the saving\n"
		"                       predicted from this machine's calibration\n"
		"                       (measured on first use, stored per kernel)\n"
		"      --gap NS         the most user time between two calls of a run\n"
		"                       (ns, or with ns, us or ms; default 8 times the\n"
		"                       calibrated gap of two calls back to back)\n"
		"      --recalibrate    measure the calibration again and store it\n\n"
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

/* --gap NS: the gap threshold of --advise. */
static int trace_parse_gap(struct trace_opts *o, const char *arg)
{
	int bad = advise_parse_gap(arg, &o->advise_opts.gap_ns);

	if (bad == -2)
		return usage_error("trace", "--gap: %s is out of range 0..60s",
				   arg);
	if (bad)
		return usage_error("trace", "--gap: '%s' is not a time (NS, or a number with ns, us or ms)",
				   arg);
	o->advise_opts.gap_set = true;
	return 0;
}

/* The options that take one of a few words (or an errno); 0 or EXIT_USAGE. */
static int trace_parse_word(struct trace_opts *o, int c, const char *arg)
{
	const char *why;
	int bad;

	switch (c) {
	case 's':
		bad = trace_parse_sort(arg, &o->sort);
		why = "unknown sort key (total, calls, errors, mean, p50, p99, max, name, nr)";
		break;
	case 't':
		bad = trace_parse_time(arg, &o->time);
		why = "--time is cpu, wall or off";
		break;
	case 'b':
		bad = trace_parse_by(arg, &o->by);
		why = "--by is process or thread";
		break;
	default:
		bad = trace_parse_errno(arg, &o->err);
		why = "--errno takes a name (ENOENT) or 1..4095";
		break;
	}
	return bad ? trace_bad(why, arg) : 0;
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
	case 'G':
		return trace_parse_gap(o, arg);
	case 'e':
		return trace_parse_e(o, arg);
	case 's':
	case 't':
	case 'b':
	case 'E':
		return trace_parse_word(o, c, arg);
	case 'V':
	case 'W':
	case 'M':
	case 'o':
		if (!arg[0])
			return trace_bad(c == 'o' ? "-o needs a file name" :
					 c == 'V' ? "--csv needs a file name" :
					 c == 'M' ? "--openmetrics needs a file name" :
					 "--csv-tasks needs a file name", NULL);
		if (c == 'o')
			o->out = arg;
		else if (c == 'V')
			o->csv = arg;
		else if (c == 'M')
			o->openmetrics = arg;
		else
			o->csv_tasks = arg;
		return 0;
	}
	return trace_bad("bad option", NULL);
}

int trace_parse(int argc, char **argv, struct trace_opts *o)
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
		{ "csv-tasks",	required_argument, NULL, 'W' },
		{ "openmetrics", required_argument, NULL, 'M' },
		{ "ring",	no_argument,	   NULL, 'U' },
		{ "output",	required_argument, NULL, 'o' },
		{ "advise",	no_argument,	   NULL, 'A' },
		{ "gap",	required_argument, NULL, 'G' },
		{ "recalibrate", no_argument,	   NULL, 'R' },
		OPT_CSV('V'), OPT_JSON, OPT_HELP, OPT_END
	};
	const struct opt_set set[] = {
		{ 'a', &o->all, NULL },
		{ 'C', &o->cold, NULL },
		{ 'Z', &o->failed, NULL },
		{ 'H', &o->hist, NULL },
		{ 'U', &o->ring, NULL },
		{ 'j', &o->json, NULL },
		{ 'A', &o->advise, NULL },
		{ 'R', &o->advise_opts.recalibrate, NULL },
		{ 0 }
	};
	int c, err;

	opterr = 0;
	/*
	 * '+': options end at the command, whose own options are its own.
	 * No -c: it was the cgroup until 0.2, and is a CPU everywhere else.
	 */
	while ((c = getopt_long(argc, argv, "+:p:ad:s:e:Zjo:h", longopts,
				NULL)) != -1) {
		if (opt_set_apply(set, c, optarg))
			continue;
		switch (c) {
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
	if ((o->advise_opts.gap_set || o->advise_opts.recalibrate) && !o->advise)
		return trace_bad("--gap and --recalibrate go with --advise", NULL);
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

/*
 * The cgroup path as the kernel wants it: below the cgroup2 root.  A path
 * under the cgroup2 mount point (from /proc/self/mountinfo) loses that
 * prefix; any other path is taken as below the root already.
 */
void trace_cgroup_path(const char *arg, char *out, size_t len)
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

void trace_describe(const struct trace_opts *o, const char *cgroup,
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
