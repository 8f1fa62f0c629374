/* SPDX-License-Identifier: MIT */
/*
 * wsc trace --advise: what batching would save the traced program on
 * this machine (Documentation/advise.md).  One concern a file:
 *
 *   advise.c          the runs: each thread's calls in order, cut where a
 *                     batch could not have carried them on; --gap's value
 *   advise_model.c    the model: what a run costs now and batched, the
 *                     break-even, the default gap
 *   advise_seq.c      the recurring sequences: runs of the same calls
 *                     and references counted together, most saving
 *                     first, and their names for people
 *   advise_refs.c     the references: a later call's descriptor (or byte
 *                     count) that an earlier call of its run returned
 *   advise_calib.c    the calibration file: where it lives, its format
 *                     (read by libwsc too), written atomically
 *   advise_measure.c  the calibration measured (common/entry_fit.c) or
 *                     reused
 *   advise_events.c   the events drained from the kernel while the trace
 *                     runs
 *   advise_out.c      the "batching" section of the table and of the JSON
 */
#ifndef WSC_CLI_TRACE_ADVISE_H
#define WSC_CLI_TRACE_ADVISE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "libwsc.h"

/* A batch carries at most this many calls: a longer run is several. */
#define ADVISE_BATCH_MAX	1024
/* --gap's largest value: a minute. */
#define ADVISE_GAP_MAX_NS	60000000000ull
/* Events kept for the analysis (80 bytes each); those after are counted. */
#define ADVISE_EVENTS_MAX	(1u << 21)
/* Events the kernel keeps per CPU between two drains (100 ms apart). */
#define ADVISE_RING_EVENTS	65536
/* Drained this often while the target runs. */
#define ADVISE_DRAIN_NS		100000000ull

/**
 * struct advise_costs - what one kernel entry costs on this machine
 * @entry_ns:          a plain system call that does nothing, entry to exit
 * @batch_fixed_ns:    a wrapped batch's fixed cost
 * @batch_per_call_ns: each wrapped call's cost
 * @break_even:        the smallest run worth a batch; 0 when none up to
 *                     ADVISE_BATCH_MAX is (advise_break_even())
 */
struct advise_costs {
	double entry_ns;
	double batch_fixed_ns;
	double batch_per_call_ns;
	unsigned int break_even;
};

/**
 * struct advise_calib - a calibration, as its file holds it
 * @costs:   the figures
 * @gap_floor_ns: the gap between two calls made back to back, as a trace
 *           with events sees it (advise_floor.c)
 * @version: the file's format (1)
 * @rounds:  the rounds measured
 * @kernel:  uname -r where measured
 * @machine: /etc/machine-id, or "unknown"
 * @module:  wsc.ko's version
 * @date:    when measured, UTC, "2026-11-27T12:34:56Z"
 * @path:    where it is stored
 * @fresh:   measured by this run (not read back)
 */
struct advise_calib {
	struct advise_costs costs;
	double gap_floor_ns;
	unsigned int version;
	unsigned int rounds;
	char kernel[128];
	char machine[64];
	char module[64];
	char date[32];
	char path[4096];
	bool fresh;
};

/* An argument's index in its run: call @call's argument @arg is @source's result. */
struct advise_ref {
	uint32_t call;
	uint32_t source;
	uint8_t arg;
};

/**
 * struct advise_seq - runs of the same calls with the same references
 * @nrs:        the calls, in order (malloc'd)
 * @len:        entries in @nrs: the run's length
 * @refs:       the references every one of these runs has (malloc'd)
 * @nr_refs:    entries in @refs
 * @count:      runs
 * @saving_ns:  what batching them would save, all @count runs (0 when
 *              not worth it)
 * @worth:      a batch of @len calls costs less than @len entries
 */
struct advise_seq {
	uint16_t *nrs;
	size_t len;
	struct advise_ref *refs;
	size_t nr_refs;
	uint64_t count;
	double saving_ns;
	bool worth;
};

/**
 * struct advise_report - what the events say batching would save
 * @calib:           the costs used and where they come from
 * @gap_ns:          the gap threshold
 * @gap_default:     @gap_ns is the default (ADVISE_GAP_FLOORS gap floors)
 * @events:          events analysed
 * @events_dropped:  events not kept (beyond ADVISE_EVENTS_MAX)
 * @lost_events:     events the kernel dropped (a ring was full)
 * @already_wrapped: calls already run by a wsc batch
 * @batch_ioctls:    the ioctls of those batches
 * @threads:         threads seen
 * @runs:            runs of two calls or more
 * @run_calls:       the calls in them
 * @entries_now:     kernel entries now for the calls in the runs worth
 *                   batching: one per call
 * @entries_batched: the batches those runs would need instead
 * @saving_ns:       the predicted saving, an upper bound
 * @seqs:            the sequences, most saving first (malloc'd)
 * @nr_seqs:         entries in @seqs
 */
struct advise_report {
	struct advise_calib calib;
	uint64_t gap_ns;
	bool gap_default;
	uint64_t events;
	uint64_t events_dropped;
	uint64_t lost_events;
	uint64_t already_wrapped;
	uint64_t batch_ioctls;
	uint64_t threads;
	uint64_t runs;
	uint64_t run_calls;
	uint64_t entries_now;
	uint64_t entries_batched;
	double saving_ns;
	struct advise_seq *seqs;
	size_t nr_seqs;
};

/*
 * Room for @need elements of @size bytes in the array *@arr of *@cap
 * (doubled from 64, at most @max): 0, or -ENOMEM with the array as it was.
 */
static inline int advise_grow(void *arr, size_t *cap, size_t need,
			      size_t size, size_t max)
{
	void **p = arr, *grown;
	size_t n = *cap ? *cap : 64;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if (n > max)
		n = max;
	if (n < need)
		return -ENOMEM;
	grown = realloc(*p, n * size);
	if (!grown)
		return -ENOMEM;
	*p = grown;
	*cap = n;
	return 0;
}

/* advise_model.c */
/*
 * The smallest n <= ADVISE_BATCH_MAX with n entries dearer than one batch
 * of n; 0 when there is none.
 */
unsigned int advise_break_even(double entry_ns, double batch_fixed_ns,
			       double batch_per_call_ns);
/* What a run of @n calls would save batched (negative: it would cost). */
double advise_run_saving(const struct advise_costs *c, uint64_t n);
/* The batches a run of @n calls needs. */
uint64_t advise_batches(uint64_t n);
/*
 * The default gap, in gap floors: the glue between two calls (a libc
 * wrapper, a check of the result, the next call's arguments) took 1.5 to
 * 6 floors in the validation programs, a checksum of a small file 12 and
 * more (Documentation/advise.md, "The gap threshold").
 */
#define ADVISE_GAP_FLOORS	8

/* The default gap: ADVISE_GAP_FLOORS gap floors, to whole ns (at least 1). */
uint64_t advise_default_gap(double gap_floor_ns);

/* advise.c */
/*
 * --gap: ns, or a number (fractions allowed) with ns, us or ms after it.
 * 0; -1 when not a time; -2 when above ADVISE_GAP_MAX_NS.
 */
int advise_parse_gap(const char *s, uint64_t *ns);
/*
 * Analyse @n events (sorted here, in place) into @r, whose calib,
 * gap_ns, gap_default, events_dropped and lost_events the caller has
 * set.  0 or -ENOMEM.
 */
int advise_analyse(struct wsc_trace_event *ev, size_t n,
		   struct advise_report *r);
void advise_report_free(struct advise_report *r);

/* advise_refs.c */
/*
 * The references in the run @ev[0..@n): each appended to @out (grown
 * with realloc, @len and @cap updated).  0 or -ENOMEM.
 */
int advise_run_refs(const struct wsc_trace_event *ev, size_t n,
		    struct advise_ref **out, size_t *len, size_t *cap);

/* advise_seq.c */
/* One run: its events and its references. */
struct advise_run {
	const struct wsc_trace_event *ev;
	size_t len;
	size_t ref0;	/* its first reference in the runs' common array */
	size_t nr_refs;
};
/*
 * Count the @n runs (sorted here) into r->seqs, with @refs their
 * references, and sort the sequences; 0 or -ENOMEM.
 */
int advise_sequences(struct advise_run *runs, size_t n,
		     const struct advise_ref *refs, struct advise_report *r);
/* A call's name for people: "read", or "syscall_N"; @buf if needed. */
const char *advise_call_name(uint16_t nr, char *buf, size_t len);
/*
 * @nrs for people, repeats folded: "openat -> read x 3 -> close",
 * "(openat -> newfstatat -> read -> close) x 10 -> getpid x 5"; cut with
 * "..." when longer than @len.
 */
void advise_seq_summary(const uint16_t *nrs, size_t n, char *buf,
			size_t len);
/* "read#2.arg0 = openat#0" */
void advise_ref_text(const struct advise_seq *s, const struct advise_ref *ref,
		     char *buf, size_t len);

/* advise_events.c */
/* What the command line asked of --advise. */
struct advise_opts {
	bool recalibrate;	/* --recalibrate */
	bool gap_set;		/* --gap given: @gap_ns */
	uint64_t gap_ns;
};

/**
 * struct advise_events - the events drained so far
 * @ev:      the first ADVISE_EVENTS_MAX of them, in no order (malloc'd)
 * @n:       entries in @ev
 * @cap:     room in @ev
 * @dropped: those after the first ADVISE_EVENTS_MAX, not kept
 * @lost:    dropped by the kernel since the start (a ring was full)
 */
struct advise_events {
	struct wsc_trace_event *ev;
	size_t n, cap;
	uint64_t dropped;
	uint64_t lost;
};

/*
 * Before the trace: the calibration (measured or reused) and the gap
 * into @a.  0, or -1 said.
 */
int advise_begin(const struct advise_opts *o, struct advise_report *a);
/* The events recorded since the last drain into @e.  0, or -errno said. */
int advise_events_drain(struct wsc_trace *tr, struct advise_events *e);
/* After the trace: the last drain, then the analysis into @a.  0 or -1 said. */
int advise_end(struct wsc_trace *tr, struct advise_events *e,
	       struct advise_report *a);
void advise_events_free(struct advise_events *e);

/* advise_out.c: the section after the table; the JSON object. */
void advise_print(FILE *f, const struct advise_report *a,
		  uint64_t traced_ns);
struct json_object *advise_json(const struct advise_report *a,
				uint64_t traced_ns);

#endif /* WSC_CLI_TRACE_ADVISE_H */
