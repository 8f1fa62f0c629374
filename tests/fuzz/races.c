// SPDX-License-Identifier: GPL-2.0
/*
 * Races: two threads submit batches on one /dev/wsc while others close
 * and dup2 the descriptors the batches use, unmap and map again the
 * pages that hold the entry and result arrays, send signals every
 * ~100 us, read /proc/syscall_lat, and start and stop traces and lab
 * runs.  What must hold: each submission returns a count in [0, count]
 * or -EFAULT or -EINTR; no result carries a restart code; nothing hangs;
 * the kernel log stays quiet.
 *
 * Then, with --rmmod: rmmod while a descriptor is open and while a dump
 * is half-read must be refused (the open file and the dump each hold the
 * module), rmmod with neither must succeed, and insmod $WSC_KO again.
 *
 * The submitters write their entries and read their results with
 * process_vm_writev/readv, which fail with EFAULT instead of faulting
 * when the unmapper has just taken the page away.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

#define PG		4096UL
#define RPAGES		8	/* the unmapper's region */
#define SFD		750	/* the raced-over descriptors */
#define NSFD		6
#define NSUB		2
#define MAXN		64

static int dev = -1;
static char *region;
static volatile int stop;
static pid_t sub_tid[NSUB];
static char rbuf[4096];
static const struct timespec ts10us = { 0, 10000 };

struct sub {
	int id;
	uint64_t seed, step;
	uint64_t batches;
	int bad;
	char why[256];
	struct wsc_entry ent[MAXN];
	uint32_t n;
};

static void on_signal(int sig)
{
	(void)sig;
}

static bool restart_code(int64_t v)
{
	return v <= -512 && v >= -516;
}

static void gen_batch(struct rng *r, struct sub *s, bool in_region)
{
	uint32_t i;

	s->n = 1 + rng_below(r, rng_chance(r, 80) ? 8 : MAXN);
	for (i = 0; i < s->n; i++) {
		struct wsc_entry *e = &s->ent[i];
		int fd = SFD + rng_below(r, NSFD);

		memset(e, 0, sizeof(*e));
		switch (rng_below(r, 8)) {
		case 0:
			e->nr = SYS_read;
			e->args[0] = fd;
			e->args[1] = (uintptr_t)rbuf;
			e->args[2] = 1 + rng_below(r, sizeof(rbuf));
			break;
		case 1:
			e->nr = SYS_write;
			e->args[0] = fd;
			e->args[1] = (uintptr_t)rbuf;
			e->args[2] = 1 + rng_below(r, 64);
			break;
		case 2:
			e->nr = SYS_nanosleep;
			e->args[0] = (uintptr_t)&ts10us;
			break;
		case 3:
			e->nr = SYS_fstat;
			e->args[0] = fd;
			e->args[1] = (uintptr_t)rbuf;
			break;
		case 4:
			/* Closed after, so only with results we can trust. */
			e->nr = in_region ? SYS_gettid : SYS_dup;
			e->args[0] = fd;
			break;
		case 5:
			e->nr = SYS_getpid;
			break;
		default:
			e->nr = WSC_NR_NOP;
			break;
		}
		if (rng_chance(r, 30))
			e->flags = WSC_ENTRY_NEW_CHAIN;
	}
}

static void *submitter(void *arg)
{
	struct sub *s = arg;
	struct wsc_result res[MAXN];
	struct rng r;

	sub_tid[s->id] = gettid();
	rng_seed(&r, s->seed);
	while (!stop) {
		/*
		 * The arrays in the raced-over region, or in our own memory.
		 * Each submitter has its own half of the region: the other's
		 * entries written over ours could make calls of any kind,
		 * where a page the unmapper took back only reads as zeros
		 * (read(0, NULL, 0), harmless).
		 */
		char *where = region + PG * (s->id * RPAGES / 2 +
					     rng_below(&r, RPAGES / 2 - 2)) +
			      8 * rng_below(&r, 64);
		bool in_region = rng_chance(&r, 60);
		struct wsc_submit sub = { .count = 0 };
		struct iovec l, rm;
		long ret;
		uint32_t i;

		gen_batch(&r, s, in_region);
		sub.count = s->n;
		sub.flags = rng_chance(&r, 20) ? WSC_SUBMIT_TIMING : 0;
		sub.entries = (uintptr_t)s->ent;
		sub.results = (uintptr_t)res;
		if (in_region) {
			l = (struct iovec){ s->ent, s->n * sizeof(s->ent[0]) };
			rm = (struct iovec){ where, l.iov_len };
			if (rng_chance(&r, 50) &&
			    process_vm_writev(getpid(), &l, 1, &rm, 1, 0) ==
			    (ssize_t)l.iov_len)
				sub.entries = (uintptr_t)where;
			else
				sub.results = (uintptr_t)where;
		}
		ret = wsc_submit_raw(dev, &sub);
		s->batches++;
		if (ret != -EFAULT && ret != -EINTR && (ret < 0 || ret > s->n)) {
			if (!s->bad)
				snprintf(s->why, sizeof(s->why),
					 "submit of %u returned %ld", s->n, ret);
			s->bad = 1;
		}
		if (ret <= 0)
			continue;
		if (sub.results != (uintptr_t)res) {
			l = (struct iovec){ res, ret * sizeof(res[0]) };
			rm = (struct iovec){ where, l.iov_len };
			if (process_vm_readv(getpid(), &l, 1, &rm, 1, 0) !=
			    (ssize_t)l.iov_len)
				continue;
		}
		for (i = 0; i < ret; i++) {
			if (restart_code(res[i].ret)) {
				if (!s->bad)
					snprintf(s->why, sizeof(s->why),
						 "entry %u (%s) returned restart code %lld",
						 i, call_name(s->ent[i].nr),
						 (long long)res[i].ret);
				s->bad = 1;
			}
			/* What a dup returned is ours to close. */
			if (sub.results == (uintptr_t)res &&
			    s->ent[i].nr == SYS_dup && res[i].ret > 2 &&
			    res[i].ret < SFD)
				close(res[i].ret);
		}
	}
	return NULL;
}

/* Replace, close and reopen the descriptors the batches use. */
static void *closer(void *arg)
{
	struct rng r;

	rng_seed(&r, *(uint64_t *)arg);
	while (!stop) {
		int fd = SFD + rng_below(&r, NSFD), p[2];

		switch (rng_below(&r, 3)) {
		case 0:
			close(fd);
			break;
		case 1:
			dup2(SFD + rng_below(&r, NSFD), fd);
			break;
		default:
			if (!pipe2(p, O_NONBLOCK | O_CLOEXEC)) {
				dup2(p[0], fd);
				dup2(p[1], SFD + rng_below(&r, NSFD));
				close(p[0]);
				close(p[1]);
			}
			break;
		}
		nanosleep(&ts10us, NULL);
	}
	return NULL;
}

/* Take pages of the region away and give them back. */
static void *unmapper(void *arg)
{
	struct rng r;

	rng_seed(&r, *(uint64_t *)arg);
	while (!stop) {
		char *p = region + PG * rng_below(&r, RPAGES - 1);

		switch (rng_below(&r, 3)) {
		case 0:
			munmap(p, PG);
			break;
		case 1:
			mprotect(p, PG, PROT_READ);
			break;
		default:
			mmap(p, PG, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			break;
		}
		nanosleep(&ts10us, NULL);
	}
	return NULL;
}

/* A signal every ~100 us to a submitter, with SA_RESTART or without. */
static void *signaller(void *arg)
{
	const struct timespec t = { 0, 100000 };
	unsigned int i = 0;

	(void)arg;
	while (!stop) {
		pid_t tid = sub_tid[i % NSUB];

		if (tid)
			syscall(SYS_tgkill, getpid(), tid,
				(i / NSUB) % 2 ? SIGUSR1 : SIGUSR2);
		i++;
		nanosleep(&t, NULL);
	}
	return NULL;
}

static void *proc_reader(void *arg)
{
	char buf[8192];

	(void)arg;
	while (!stop) {
		int fd = open("/proc/syscall_lat", O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			break;
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
	}
	return NULL;
}

struct lab_arg {
	uint64_t seed;
	int bad;
	char why[200];
};

static void *labber(void *arg)
{
	struct lab_arg *a = arg;
	uint64_t k = 0;

	while (!stop && !a->bad)
		a->bad = genl_round(a->seed + k++, a->why, sizeof(a->why));
	return NULL;
}

static void open_slots(void)
{
	int i, p[2];

	for (i = 0; i < NSFD; i += 2) {
		if (pipe2(p, O_NONBLOCK | O_CLOEXEC))
			return;
		dup2(p[0], SFD + i);
		dup2(p[1], SFD + i + 1);
		close(p[0]);
		close(p[1]);
	}
}

static void one_step(struct rng *r, uint64_t step, unsigned int ms)
{
	struct sub subs[NSUB];
	pthread_t t[NSUB + 5];
	uint64_t cseed = rng_next(r), useed = rng_next(r);
	struct lab_arg lab = { .seed = rng_next(r) };
	struct timespec run = { ms / 1000, (ms % 1000) * 1000000L };
	int i, n = 0;

	open_slots();
	stop = 0;
	step_begin("races", step);
	for (i = 0; i < NSUB; i++) {
		subs[i] = (struct sub){ .id = i, .seed = rng_next(r), .step = step };
		sub_tid[i] = 0;
		pthread_create(&t[n++], NULL, submitter, &subs[i]);
	}
	pthread_create(&t[n++], NULL, closer, &cseed);
	pthread_create(&t[n++], NULL, unmapper, &useed);
	pthread_create(&t[n++], NULL, signaller, NULL);
	pthread_create(&t[n++], NULL, proc_reader, NULL);
	if (rng_chance(r, 50))
		pthread_create(&t[n++], NULL, labber, &lab);
	nanosleep(&run, NULL);
	stop = 1;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	step_end();
	for (i = 0; i < NSUB; i++) {
		F.batches += subs[i].batches;
		F.ran += subs[i].batches;
		if (subs[i].bad)
			anomaly("races", step, "submitter %d: %s", i, subs[i].why);
	}
	if (lab.bad)
		anomaly("races", step, "lab/trace thread: %s", lab.why);
	for (i = 0; i < NSFD; i++)
		close(SFD + i);
	mmap(region, RPAGES * PG, PROT_READ | PROT_WRITE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
}

/* ---- rmmod while in use, then insmod ---------------------------------- */

static long rmmod(void)
{
	return syscall(SYS_delete_module, "wsc", O_NONBLOCK) ? -errno : 0;
}

/* rmmod while @what holds the module: refused, or an anomaly. */
static long rmmod_held(uint64_t step, const char *what)
{
	long ret = rmmod();

	if (ret != -EBUSY && ret != -EAGAIN)
		anomaly("races", step, "rmmod with %s: %ld, expected -EBUSY or -EAGAIN",
			what, ret);
	return ret;
}

static void rmmod_insmod(uint64_t step)
{
	const char *ko = getenv("WSC_KO");
	int fd, sk;
	long ret;

	if (!ko || !*ko)
		ko = "kmod/wsc.ko";
	step_begin("races", step);
	/* An open /dev/wsc holds the module. */
	fd = wsc_open_dev();
	ret = rmmod_held(step, "/dev/wsc open");
	close(fd);
	/* So does a dump in progress. */
	if (ret) {
		sk = genl_open_dump();
		ret = rmmod_held(step, "a dump half-read");
		close(sk);
	}
	/* A closed dump socket lets go of its reference a little later. */
	for (fd = 0; ret && fd < 50 && (ret = rmmod()) &&
	     (ret == -EAGAIN || ret == -EBUSY); fd++)
		usleep(100000);
	if (ret) {
		anomaly("races", step, "rmmod with nothing open: %ld (%s)", ret,
			strerror(-ret));
	}
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0)) {
		if (!ret || errno != EEXIST)
			anomaly("races", step, "insmod %s: %s", ko, strerror(errno));
	}
	if (fd >= 0)
		close(fd);
	step_end();
	/* The device is back. */
	close(wsc_open_dev());
	printf("wsc-fuzz: rmmod refused while /dev/wsc was open and while a dump was half-read, done with neither; insmod %s again\n",
	       ko);
}

void fuzz_races(struct rng *r)
{
	struct sigaction sa = { .sa_handler = on_signal };
	double t0 = now_s();
	uint64_t step;

	genl_init();
	dev = wsc_open_dev();
	region = mmap(NULL, RPAGES * PG, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED) {
		perror("wsc-fuzz: mmap");
		exit(2);
	}
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_flags = 0;
	sigaction(SIGUSR2, &sa, NULL);

	/* A step runs the threads for 200 ms: few steps, many batches. */
	for (step = 0; fuzz_more(step * 50, t0); step++) {
		one_step(r, step, 200);
		F.races++;
		kmsg_check("races", step);
	}
	close(dev);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
	if (F.rmmod)
		rmmod_insmod(step);
	munmap(region, RPAGES * PG);
}
