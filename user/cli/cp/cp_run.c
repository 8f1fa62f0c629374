// SPDX-License-Identifier: MIT
/*
 * wsc cp's measurement: every program once per repetition, the order
 * rotating so that none always runs first or last, one discarded warm-up
 * repetition, every run's copies verified, every failure kept.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/interrupt.h"
#include "common/module_hint.h"
#include "common/progress.h"
#include "cp_session.h"
#include "libwsc.h"

/* Keep one failure, or count it again if it happened before. */
static int cp_note_error(struct cp_session *s, enum cp_program p,
			 unsigned int i, const struct cp_txn *t)
{
	struct cp_error *e;
	unsigned int k;

	for (k = 0; k < s->nr_errors; k++) {
		e = &s->errors[k];
		if (e->program == p && e->txn == i && e->step == t->step &&
		    e->err == t->err) {
			e->runs++;
			return 0;
		}
	}
	if (s->nr_errors == s->cap_errors) {
		unsigned int cap = s->cap_errors ? 2 * s->cap_errors : 16;

		e = realloc(s->errors, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		s->errors = e;
		s->cap_errors = cap;
	}
	s->errors[s->nr_errors++] = (struct cp_error){
		.program = p, .txn = i, .step = t->step, .err = t->err,
		.short_count = t->short_count, .runs = 1,
	};
	return 0;
}

static int cp_prepare_programs(struct cp_session *s)
{
	struct cp_work *w = &s->w;
	char why[256];
	int ret, p;

	if (s->want[CP_WSC_COLLECT] || s->want[CP_WSC_RW]) {
		ret = wsc_batch_create(&w->collect, 0);
		ret = ret ?: wsc_batch_set_threshold(w->collect, w->threshold);
		if (ret)
			goto no_device;
	}
	if (s->want[CP_WSC_CHAIN] || s->want[CP_WSC_CHAIN_COLLECT]) {
		ret = wsc_batch_create(&w->chain, 0);
		if (ret)
			goto no_device;
	}
	ret = s->want[CP_IO_URING] ? cp_uring_setup(w) : 0;
	if (ret) {
		if (!w->uring_why[0])
			snprintf(w->uring_why, sizeof(w->uring_why), "%s",
				 strerror(-ret));
		/* Like wsc bench: io_uring missing leaves out only itself. */
		snprintf(s->skip_why[CP_IO_URING], sizeof(s->skip_why[0]),
			 "%s", w->uring_why);
		s->want[CP_IO_URING] = false;
		for (p = 0; p < CP_NR_PROGRAMS && !s->want[p]; p++)
			;
		if (p == CP_NR_PROGRAMS) {
			fprintf(stderr, "wsc cp: IO_URING cannot run (%s) and no other "
				"program was chosen\n", w->uring_why);
			return ret;
		}
	}
	if (s->cold && cp_check_cold(why, sizeof(why))) {
		fprintf(stderr, "wsc cp: %s\n", why);
		return -EPERM;
	}
	if (s->want_counters) {
		w->have_counters = !counter_group_open(&w->counters, counters_cp,
						       counters_cp_n,
						       s->counters_why,
						       sizeof(s->counters_why));
	}
	return 0;

no_device:
	module_report("cp", ret, false);
	/* As wsc ls names --conventional: what runs without the module. */
	fprintf(stderr, "wsc cp: the WSC programs need the module; "
		"-p NORMAL,IO_URING,COPY_FILE_RANGE run without it\n");
	return ret;
}

/**
 * cp_session_open() - make the scratch folder and everything the runs use
 * @s: the session, with the work's @n, @threshold, @size and the options
 *
 * Return: 0, or -errno after saying why (nothing is left behind then).
 */
int cp_session_open(struct cp_session *s)
{
	int ret;

	s->w.dirfd = -1;
	s->samples = calloc((size_t)CP_NR_PROGRAMS * s->reps,
			    sizeof(*s->samples));
	if (!s->samples)
		return -ENOMEM;
	ret = cp_files_setup(&s->w, s->parent);
	if (ret)
		goto free_samples;
	ret = cp_prepare_programs(s);
	if (ret)
		goto close_programs;
	return 0;

close_programs:
	/* Nothing was measured: --keep has nothing to keep. */
	s->keep = false;
	cp_session_close(s);
	return ret;
free_samples:
	free(s->samples);
	s->samples = NULL;
	return ret;
}

/**
 * cp_session_close() - release everything; remove the folder unless --keep
 * @s: the session
 */
void cp_session_close(struct cp_session *s)
{
	struct cp_work *w = &s->w;

	if (w->have_counters)
		counter_group_close(&w->counters);
	w->have_counters = false;
	cp_uring_teardown(w);
	if (w->collect)
		wsc_batch_destroy(w->collect);
	if (w->chain)
		wsc_batch_destroy(w->chain);
	w->collect = w->chain = NULL;
	if (w->dir && s->keep && !s->quiet_keep)
		fprintf(stderr, "wsc cp: kept %s\n", w->dir);
	cp_files_teardown(w, s->keep);
	free(s->samples);
	free(s->errors);
	s->samples = NULL;
	s->errors = NULL;
	s->nr_errors = s->cap_errors = 0;
}

/* One run of @p: reset, (drop caches,) run, keep the marks, verify. */
static int cp_run_once(struct cp_session *s, enum cp_program p, int rep)
{
	struct cp_work *w = &s->w;
	char why[256];
	unsigned int i;
	int ret;

	ret = cp_files_reset(w);
	if (ret && interrupted())
		return -EINTR;
	if (ret) {
		fprintf(stderr, "wsc cp: cannot reset %s: %s\n", w->dir,
			strerror(-ret));
		return ret;
	}
	if (s->cold && cp_drop_caches(w, why, sizeof(why))) {
		fprintf(stderr, "wsc cp: --cold: %s\n", why);
		return -EIO;
	}
	memset(w->mark_ns, 0, sizeof(w->mark_ns));
	memset(w->mark_ev, 0, sizeof(w->mark_ev));
	if (w->have_counters)
		counter_group_start(&w->counters);
	ret = cp_run_program(w, p);
	if (w->have_counters)
		counter_group_stop(&w->counters);
	if (!ret && p == CP_IO_URING)
		ret = cp_uring_quiesce(w);
	/*
	 * A signal during the run may have cut a wait short (io_uring's):
	 * the run is dropped whole, neither counted nor kept.
	 */
	if (interrupted()) {
		cp_remove_copies(w);
		return -EINTR;
	}
	if (ret) {
		/* Nothing of a run that could not go on is claimed or kept. */
		cp_remove_copies(w);
		return ret;
	}
	s->mismatches += cp_verify(w, p, stderr);
	s->copies += w->n;
	for (i = 0; i < w->n; i++) {
		if (w->txn[i].err) {
			s->copies--;
			if (cp_note_error(s, p, i, &w->txn[i]))
				return -ENOMEM;
		}
	}
	if (rep >= 0) {
		struct cp_sample *x = cp_sample(s, p, (unsigned int)rep);

		memcpy(x->ns, w->mark_ns, sizeof(x->ns));
		memcpy(x->ev, w->mark_ev, sizeof(x->ev));
	}
	return 0;
}

/**
 * cp_session_run() - the repetitions
 * @s: an open session
 *
 * Repetition -1 is the warm-up: it runs and is verified like the others,
 * but its times are not kept.
 *
 * Return: 0, or -errno when a run could not go on (already reported);
 * -EINTR, with @s->interrupted, when a signal came (common/interrupt.h):
 * the repetitions that ended before it, @s->done of them, are kept.
 * Failed transactions and wrong copies are not errors here: they are
 * counted in @s for the caller to report.
 */
int cp_session_run(struct cp_session *s)
{
	enum cp_program order[CP_NR_PROGRAMS];
	unsigned int nr = 0, k;
	int rep, ret, p;

	for (p = 0; p < CP_NR_PROGRAMS; p++)
		if (s->want[p])
			order[nr++] = (enum cp_program)p;
	if (!nr)
		return -EINVAL;	/* refused earlier: the command line or setup */
	s->done = 0;
	for (rep = -1; rep < (int)s->reps; rep++) {
		/* Rotate the chosen programs: each runs first as often. */
		unsigned int first = rep < 0 ? 0 : (unsigned int)rep % nr;

		for (k = 0; k < nr; k++) {
			ret = interrupted() ? -EINTR :
			      cp_run_once(s, order[(first + k) % nr], rep);
			if (ret == -EINTR && interrupted()) {
				s->interrupted = true;
				if (s->progress)
					progress_line("cp", NULL, s->reps, s->reps);
				return ret;
			}
			if (ret)
				return ret;
		}
		s->done = (unsigned int)(rep + 1);
		if (s->progress)
			progress_line("cp", NULL, (uint64_t)(rep + 1), s->reps);
	}
	return 0;
}

/*
 * Median (the mean of the middle two for an even count, rounded down),
 * min and max, from libwsc's summary: its figures are in ps, exact, so
 * dividing by 1000 gives back whole units.  @v is sorted in place.
 */
static void cp_stat(uint64_t *v, unsigned int n, struct cp_stat *st)
{
	struct wsc_summary s;

	wsc_stats_summary(v, n, &s);
	st->min = s.min_ps / 1000;
	st->max = s.max_ps / 1000;
	st->median = s.median_ps / 1000;
}

/**
 * cp_portion_stats() - median, min and max of a portion over the repetitions
 * @s:  a session that has run
 * @pt: the portion
 * @ns: its time
 * @ev: each hardware event's count (only with @s->w.have_counters)
 *
 * Return: false when the portion's program did not run.
 */
bool cp_portion_stats(const struct cp_session *s, const struct cp_portion *pt,
		      struct cp_stat *ns, struct cp_stat ev[COUNTERS_MAX])
{
	uint64_t *v;
	unsigned int r, e;

	if (!s->want[pt->program] || !s->done)
		return false;
	v = malloc(s->done * sizeof(*v));
	if (!v)
		return false;
	for (r = 0; r < s->done; r++) {
		const struct cp_sample *x = cp_sample((struct cp_session *)s,
						      pt->program, r);

		v[r] = x->ns[pt->to] - x->ns[pt->from];
	}
	cp_stat(v, s->done, ns);
	for (e = 0; s->w.have_counters && e < s->w.counters.n; e++) {
		for (r = 0; r < s->done; r++) {
			const struct cp_sample *x = cp_sample((struct cp_session *)s,
							      pt->program, r);

			v[r] = x->ev[pt->to][e] - x->ev[pt->from][e];
		}
		cp_stat(v, s->done, &ev[e]);
	}
	free(v);
	return true;
}
