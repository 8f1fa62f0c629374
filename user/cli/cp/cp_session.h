/* SPDX-License-Identifier: MIT */
/*
 * wsc cp: one measurement (a session: every program over the same files,
 * R repetitions), what it keeps, and how it is reported.
 */
#ifndef WSC_CP_SESSION_H
#define WSC_CP_SESSION_H

#include "cp.h"

/* The marks of one run, and the events' totals at each. */
struct cp_sample {
	uint64_t ns[CP_NR_MARKS];
	uint64_t ev[CP_NR_MARKS][COUNTERS_MAX];
};

/**
 * struct cp_error - a transaction that failed, the same way in @runs runs
 * @program, @txn, @step, @err: which, where and why
 * @short_count: bytes written when @err is EIO from a short write
 * @runs:    in how many runs (repetitions, the warm-up included)
 */
struct cp_error {
	enum cp_program program;
	unsigned int txn;
	enum cp_step step;
	int err;
	int64_t short_count;
	unsigned int runs;
};

struct cp_stat {
	uint64_t median;
	uint64_t min;
	uint64_t max;
};

/**
 * struct cp_session - a measurement and its options
 * @w:          the scratch folder and the programs' state
 * @parent:     where the scratch folder is made
 * @reps:       repetitions kept (a warm-up runs before them)
 * @cold:       drop the page cache before every run
 * @keep:       leave the scratch folder behind
 * @quiet_keep: do not print the kept folder's name (a sweep keeps none)
 * @progress:   a progress line on stderr
 * @want:       the programs to run (those that cannot run are dropped,
 *              with the reason in @skip_why)
 * @want_counters: try to count hardware events
 * @counters_why: why they are not counted
 * @samples:    CP_NR_PROGRAMS x @reps
 * @errors:     failed transactions, each kept once
 * @clock_ps:   the clock's median cost, for the record
 * @copies:     copies the runs claimed; @mismatches: of those, how many
 *              differed from their source
 * @done:       repetitions run to their end: @reps, or fewer after a
 *              signal; every figure is over these
 * @interrupted: a signal ended the session early (common/interrupt.h)
 */
struct cp_session {
	struct cp_work w;
	const char *parent;
	unsigned int reps;
	bool cold;
	bool keep;
	bool quiet_keep;
	bool progress;
	bool want[CP_NR_PROGRAMS];
	char skip_why[CP_NR_PROGRAMS][160];
	bool want_counters;
	char counters_why[256];
	struct cp_sample *samples;
	struct cp_error *errors;
	unsigned int nr_errors;
	unsigned int cap_errors;
	uint64_t clock_ps;
	uint64_t copies;
	uint64_t mismatches;
	unsigned int done;
	bool interrupted;
};

static inline struct cp_sample *cp_sample(struct cp_session *s,
					  enum cp_program p, unsigned int rep)
{
	return &s->samples[(size_t)p * s->reps + rep];
}

/* cp_run.c */
int cp_session_open(struct cp_session *s);
int cp_session_run(struct cp_session *s);
void cp_session_close(struct cp_session *s);
bool cp_portion_stats(const struct cp_session *s, const struct cp_portion *pt,
		      struct cp_stat *ns, struct cp_stat ev[COUNTERS_MAX]);

/* cp_out.c */
void cp_print_errors(const struct cp_session *s, FILE *f);
void cp_print_table(const struct cp_session *s, FILE *f);
void cp_print_json(const struct cp_session *s, FILE *f);
/* One row per portion and repetition; @header once per file. */
void cp_print_csv(const struct cp_session *s, FILE *f, bool header);

#endif /* WSC_CP_SESSION_H */
