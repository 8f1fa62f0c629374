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

static void usage(FILE *out)
{
	fprintf(out,
"Usage: wsc-fuzz [options]\n"
"Fuzz /dev/wsc and the syscall_lat netlink family; root, wsc.ko loaded.\n"
"  --seed N          the run's seed (default: a fresh one; always printed)\n"
"  --iters N         steps per mode (default 1000; 0: no limit)\n"
"  --seconds S       stop each mode after S seconds (default: no limit)\n"
"  --mode M          ioctl, diff, genl, races or all (default); repeatable\n"
"  --scratch DIR     the only folder the fuzzer creates files in\n"
"                    (default $WSC_SCRATCH, else /tmp)\n"
"  --no-release-then-use\n"
"                    diff: never use a pipe or socket after a close or\n"
"                    dup2/dup3 in the same batch\n"
"  --rmmod           races: try rmmod while in use, then insmod $WSC_KO\n"
"  --step-timeout S  a step that takes longer is a hang (default 20)\n"
"  -v, --verbose     print each step's parameters\n"
"Exit status: 0 no anomaly, 1 anomalies (each printed with its seed,\n"
"mode, step and reproducer), 2 usage or setup error.\n");
}

static unsigned int parse_mode(const char *s)
{
	if (!strcmp(s, "ioctl"))
		return MODE_IOCTL;
	if (!strcmp(s, "diff"))
		return MODE_DIFF;
	if (!strcmp(s, "genl"))
		return MODE_GENL;
	if (!strcmp(s, "races"))
		return MODE_RACES;
	if (!strcmp(s, "all"))
		return MODE_ALL;
	fprintf(stderr, "wsc-fuzz: unknown mode '%s'\n", s);
	usage(stderr);
	exit(2);
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
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "iters", required_argument, NULL, 'i' },
		{ "seconds", required_argument, NULL, 'S' },
		{ "mode", required_argument, NULL, 'm' },
		{ "scratch", required_argument, NULL, 'd' },
		{ "no-release-then-use", no_argument, NULL, 'R' },
		{ "rmmod", no_argument, NULL, 'M' },
		{ "step-timeout", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool seeded = false, moded = false;
	struct rng r;
	double start;
	int c;

	F.scratch = getenv("WSC_SCRATCH");
	if (!F.scratch || !*F.scratch)
		F.scratch = "/tmp";
	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
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
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (!seeded)
		F.seed = rng_fresh_seed();
	/* The diff mode works in the scratch folder: paths from here on. */
	if (getenv("WSC_KO") && *getenv("WSC_KO")) {
		char *ko = realpath(getenv("WSC_KO"), NULL);

		if (ko)
			setenv("WSC_KO", ko, 1);
		free(ko);
	} else {
		char *ko = realpath("kmod/wsc.ko", NULL);

		if (ko)
			setenv("WSC_KO", ko, 1);
		free(ko);
	}
	/* First, so that even a crash leaves the seed on record. */
	printf("wsc-fuzz: seed %llu\n", (unsigned long long)F.seed);
	fflush(stdout);

	/* A write to a pipe whose reader is gone must be -EPIPE, not death. */
	signal(SIGPIPE, SIG_IGN);
	start = now_s();
	load_allowlist();
	kmsg_open();

	/* Each mode its own stream from the seed: modes reproduce alone. */
	if (F.modes & MODE_IOCTL) {
		rng_seed(&r, F.seed ^ 0x1001);
		fuzz_ioctl(&r);
		kmsg_check("ioctl", F.batches);
	}
	if (F.modes & MODE_DIFF) {
		rng_seed(&r, F.seed ^ 0x2002);
		fuzz_diff(&r);
		kmsg_check("diff", F.diff);
	}
	if (F.modes & MODE_GENL) {
		rng_seed(&r, F.seed ^ 0x3003);
		fuzz_genl(&r);
		kmsg_check("genl", F.genl);
	}
	if (F.modes & MODE_RACES) {
		rng_seed(&r, F.seed ^ 0x4004);
		fuzz_races(&r);
		kmsg_check("races", F.races);
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
