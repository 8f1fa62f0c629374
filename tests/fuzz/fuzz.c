// SPDX-License-Identifier: GPL-2.0
/*
 * wsc-fuzz: options, the device's allowlist, the modes in turn and the
 * summary line.  Documentation/testing.md, "Fuzzing", says how to run it
 * and how to reproduce a run from its seed.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

struct fuzz F = {
	.modes = MODE_ALL,
	.iters = 1000,
	.step_timeout = 20,
	.release_then_use = true,
};
struct allow allowlist;
static char names[128][WSC_CALL_NAME_LEN];

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

bool fuzz_more(uint64_t step, double t0)
{
	if (F.iters && step >= F.iters)
		return false;
	if (F.seconds > 0 && now_s() - t0 >= F.seconds)
		return false;
	return true;
}

long wsc_submit_raw(int fd, struct wsc_submit *s)
{
	long ret = ioctl(fd, WSC_IOC_SUBMIT, s);

	return ret < 0 ? -errno : ret;
}

int wsc_open_dev(void)
{
	int fd = open("/dev/wsc", O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "wsc-fuzz: open /dev/wsc: %s (is wsc.ko loaded?)\n",
			strerror(errno));
		exit(2);
	}
	return fd;
}

bool wsc_allowed(uint32_t nr)
{
	uint32_t i;

	for (i = 0; i < allowlist.n; i++)
		if (allowlist.nr[i] == nr)
			return true;
	return false;
}

const char *call_name(uint32_t nr)
{
	static char other[16];
	uint32_t i;

	for (i = 0; i < allowlist.n; i++)
		if (allowlist.nr[i] == nr)
			return names[i];
	snprintf(other, sizeof(other), "nr%u", nr);
	return other;
}

/* The module's allowlist, from WSC_IOC_CALL_INFO. */
static void load_allowlist(void)
{
	struct wsc_version v;
	int fd = wsc_open_dev();
	uint32_t i;

	if (ioctl(fd, WSC_IOC_VERSION, &v) < 0) {
		perror("wsc-fuzz: WSC_IOC_VERSION");
		exit(2);
	}
	for (i = 0; i < v.nr_calls && i < 128; i++) {
		struct wsc_call_info ci = { .index = i };

		if (ioctl(fd, WSC_IOC_CALL_INFO, &ci) < 0) {
			perror("wsc-fuzz: WSC_IOC_CALL_INFO");
			exit(2);
		}
		allowlist.nr[i] = ci.nr;
		memcpy(names[i], ci.name, WSC_CALL_NAME_LEN);
		names[i][WSC_CALL_NAME_LEN - 1] = '\0';
	}
	allowlist.n = i;
	close(fd);
}

/*
 * The options, each with its help: getopt_long() reads the first member,
 * usage() prints the rest.  @arg names the value, @help says what the
 * option does (its later lines indented as the first); a NULL @help
 * leaves the option out of the usage.
 */
static const struct fuzz_option {
	struct option opt;
	const char *arg;
	const char *help;
} options[] = {
	{ { "seed", required_argument, NULL, 's' }, "N",
	  "the run's seed (default: a fresh one; always printed)" },
	{ { "iters", required_argument, NULL, 'i' }, "N",
	  "steps per mode (default 1000; 0: no limit)" },
	{ { "seconds", required_argument, NULL, 'S' }, "S",
	  "stop each mode after S seconds (default: no limit)" },
	{ { "mode", required_argument, NULL, 'm' }, "M",
	  "ioctl, diff, genl, races or all (default); repeatable" },
	{ { "scratch", required_argument, NULL, 'd' }, "DIR",
	  "the only folder the fuzzer creates files in\n"
	  "(default $WSC_SCRATCH, else /tmp)" },
	{ { "no-release-then-use", no_argument, NULL, 'R' }, NULL,
	  "diff: never use a pipe or socket after a close or\n"
	  "dup2/dup3 in the same batch" },
	{ { "rmmod", no_argument, NULL, 'M' }, NULL,
	  "races: try rmmod while in use, then insmod $WSC_KO" },
	{ { "step-timeout", required_argument, NULL, 't' }, "S",
	  "a step that takes longer is a hang (default 20)" },
	{ { "verbose", no_argument, NULL, 'v' }, NULL,
	  "print each step's parameters" },
	{ { "help", no_argument, NULL, 'h' }, NULL, NULL },
};
#define NR_OPTIONS	(sizeof(options) / sizeof(options[0]))
/* The options that have a one-letter form too. */
#define SHORT_OPTIONS	"vh"
/* The column the help starts in. */
#define HELP_COLUMN	20

static void usage(FILE *out)
{
	const struct fuzz_option *o;
	const char *h;
	char left[64];
	int len;

	fprintf(out, "Usage: wsc-fuzz [options]\n"
		"Fuzz /dev/wsc and the syscall_lat netlink family; root, wsc.ko loaded.\n");
	for (o = options; o < options + NR_OPTIONS; o++) {
		if (!o->help)
			continue;
		len = strchr(SHORT_OPTIONS, o->opt.val) ?
		      snprintf(left, sizeof(left), "  -%c, ", o->opt.val) :
		      snprintf(left, sizeof(left), "  ");
		len += snprintf(left + len, sizeof(left) - len, "--%s%s%s",
				o->opt.name, o->arg ? " " : "",
				o->arg ? o->arg : "");
		/* A name too long for its column has the help below it. */
		if (len > HELP_COLUMN - 2)
			fprintf(out, "%s\n%*s", left, HELP_COLUMN, "");
		else
			fprintf(out, "%-*s", HELP_COLUMN, left);
		for (h = o->help; *h; h++)
			if (*h == '\n')
				fprintf(out, "\n%*s", HELP_COLUMN, "");
			else
				fputc(*h, out);
		fputc('\n', out);
	}
	fprintf(out, "Exit status: 0 no anomaly, 1 anomalies (each printed with its seed,\n"
		"mode, step and reproducer), 2 usage or setup error.\n");
}

/* A usage error: how to use it, on stderr, and exit status 2. */
static void __attribute__((noreturn)) bad_usage(void)
{
	usage(stderr);
	exit(2);
}

/*
 * The modes in the order they run, each with its own stream from the seed
 * (so that a mode reproduces alone) and the count of steps it ran.
 */
static const struct mode_run {
	const char *name;
	unsigned int bit;
	uint64_t salt;
	void (*run)(struct rng *r);
	uint64_t *steps;
} modes[] = {
	{ "ioctl", MODE_IOCTL, 0x1001, fuzz_ioctl, &F.batches },
	{ "diff",  MODE_DIFF,  0x2002, fuzz_diff,  &F.diff },
	{ "genl",  MODE_GENL,  0x3003, fuzz_genl,  &F.genl },
	{ "races", MODE_RACES, 0x4004, fuzz_races, &F.races },
};

static unsigned int parse_mode(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(s, modes[i].name))
			return modes[i].bit;
	if (!strcmp(s, "all"))
		return MODE_ALL;
	fprintf(stderr, "wsc-fuzz: unknown mode '%s'\n", s);
	bad_usage();
}

static uint64_t parse_u64(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end) {
		fprintf(stderr, "wsc-fuzz: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct option opts[NR_OPTIONS + 1] = { { 0 } };
	bool seeded = false, moded = false;
	const struct mode_run *m;
	struct rng r;
	double start;
	char *ko;
	int c;

	F.scratch = getenv("WSC_SCRATCH");
	if (!F.scratch || !*F.scratch)
		F.scratch = "/tmp";
	for (c = 0; c < (int)NR_OPTIONS; c++)
		opts[c] = options[c].opt;
	while ((c = getopt_long(argc, argv, SHORT_OPTIONS, opts, NULL)) != -1) {
		switch (c) {
		case 's':
			F.seed = parse_u64(optarg, "seed");
			seeded = true;
			break;
		case 'i':
			F.iters = parse_u64(optarg, "iteration count");
			break;
		case 'S':
			F.seconds = strtod(optarg, NULL);
			break;
		case 'm':
			F.modes = (moded ? F.modes : 0) | parse_mode(optarg);
			moded = true;
			break;
		case 'd':
			F.scratch = optarg;
			break;
		case 'R':
			F.release_then_use = false;
			break;
		case 'M':
			F.rmmod = true;
			break;
		case 't':
			F.step_timeout = parse_u64(optarg, "timeout");
			break;
		case 'v':
			F.verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			bad_usage();
		}
	}
	if (optind < argc)
		bad_usage();
	if (!seeded)
		F.seed = rng_fresh_seed();
	/* The diff mode works in the scratch folder: paths from here on. */
	ko = getenv("WSC_KO");
	ko = realpath(ko && *ko ? ko : "kmod/wsc.ko", NULL);
	if (ko)
		setenv("WSC_KO", ko, 1);
	free(ko);
	/* First, so that even a crash leaves the seed on record. */
	printf("wsc-fuzz: seed %llu\n", (unsigned long long)F.seed);
	fflush(stdout);

	/* A write to a pipe whose reader is gone must be -EPIPE, not death. */
	signal(SIGPIPE, SIG_IGN);
	start = now_s();
	load_allowlist();
	kmsg_open();

	for (m = modes; m < modes + sizeof(modes) / sizeof(modes[0]); m++) {
		if (!(F.modes & m->bit))
			continue;
		rng_seed(&r, F.seed ^ m->salt);
		m->run(&r);
		kmsg_check(m->name, *m->steps);
	}

	printf("wsc-fuzz: seed %llu batches %llu (refused %llu, ran %llu) "
	       "genl %llu diff %llu races %llu anomalies %llu in %.0f s\n",
	       (unsigned long long)F.seed, (unsigned long long)F.batches,
	       (unsigned long long)F.refused, (unsigned long long)F.ran,
	       (unsigned long long)F.genl, (unsigned long long)F.diff,
	       (unsigned long long)F.races, (unsigned long long)F.anomalies,
	       now_s() - start);
	return F.anomalies ? 1 : 0;
}
