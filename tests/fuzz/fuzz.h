/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wsc-fuzz: the project's own fuzzer for /dev/wsc and the syscall_lat
 * generic netlink family (Documentation/testing.md, "Fuzzing").
 *
 * Everything it does is decided by one seeded generator (rng.c), so a
 * seed and a step number reproduce a run.  Each mode has its own file:
 * ioctl.c (malformed and valid submissions), diff.c (wrapped against
 * conventional), genl.c (the netlink family), races.c (concurrency, and
 * rmmod while in use).  report.c prints anomalies, watches every step
 * with an alarm and reads the kernel log.
 */
#ifndef WSC_FUZZ_H
#define WSC_FUZZ_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <linux/wsc.h>

/* ---- rng.c: a small deterministic generator (xoshiro256**) ---------- */
struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n); 0 when n is 0. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* True with probability pct/100. */
bool rng_chance(struct rng *r, unsigned int pct);
/* A fresh seed from getrandom(2). */
uint64_t rng_fresh_seed(void);

/* ---- the run's options and counts ------------------------------------ */
enum fuzz_mode {
	MODE_IOCTL	= 1 << 0,
	MODE_DIFF	= 1 << 1,
	MODE_GENL	= 1 << 2,
	MODE_RACES	= 1 << 3,
	MODE_ALL	= MODE_IOCTL | MODE_DIFF | MODE_GENL | MODE_RACES,
};

struct fuzz {
	uint64_t seed;
	unsigned int modes;
	uint64_t iters;			/* steps per mode; 0: until --seconds */
	double seconds;			/* per mode; 0: until --iters */
	const char *scratch;		/* the folder the fuzzer may touch */
	bool release_then_use;		/* diff: use an object after its close */
	bool rmmod;			/* races: try rmmod/insmod ($WSC_KO) */
	unsigned int step_timeout;	/* seconds before a step is a hang */
	bool verbose;

	/* Counts for the summary line. */
	uint64_t batches, refused, ran;
	uint64_t genl, diff, races, anomalies;
};

extern struct fuzz F;

/* Whether the mode's loop goes on after @step steps begun at @t0. */
bool fuzz_more(uint64_t step, double t0);
double now_s(void);

/* ---- report.c ---------------------------------------------------------- */
/* Arm the watchdog for one step of @mode: a hang ends the run. */
void step_begin(const char *mode, uint64_t step);
void step_end(void);
/* An anomaly: counted, printed with the seed, mode and step. */
void anomaly(const char *mode, uint64_t step, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A reproducer's lines, after anomaly(). */
void repro(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void repro_entries(const struct wsc_entry *e, uint32_t n,
		   const struct wsc_result *res, const struct wsc_result *res2);
void repro_bytes(const void *buf, size_t len);
/* The kernel log since the last call: complaints are anomalies. */
void kmsg_open(void);
void kmsg_check(const char *mode, uint64_t step);
const char *call_name(uint32_t nr);

/* ---- the device ---------------------------------------------------------- */
struct allow {
	uint32_t nr[128];
	uint32_t n;
};
extern struct allow allowlist;
int wsc_open_dev(void);
bool wsc_allowed(uint32_t nr);
/* The ioctl: its result, or -errno. */
long wsc_submit_raw(int fd, struct wsc_submit *s);

/* ---- the modes ------------------------------------------------------------ */
void fuzz_ioctl(struct rng *r);
void fuzz_diff(struct rng *r);
void fuzz_genl(struct rng *r);
void fuzz_races(struct rng *r);
/* genl.c, for races.c: resolve the family; one worker's round of RUN,
 * RESET and trace commands (non-zero with @why on an anomaly); a socket
 * with a GET_SAMPLES dump started and left half-read. */
void genl_init(void);
int genl_round(uint64_t seed, char *why, size_t len);
int genl_open_dump(void);

#endif /* WSC_FUZZ_H */
