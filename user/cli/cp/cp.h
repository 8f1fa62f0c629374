/* SPDX-License-Identifier: MIT */
/*
 * wsc cp: N cp transactions (open, open, read, write, close, close) run by
 * the WSC paper's five programs and four of ours, timed by portion.
 *
 *   cp_names.c     the programs', the calls' and the portions' names
 *   cp_files.c     the scratch folder: sources, destinations, verification
 *   cp_txn.c       the marks and the judging of results every program shares
 *   cp_programs.c  the programs that use plain system calls and libwsc
 *   cp_uring.c     the io_uring program
 *   cp_run.c       repetitions, portions, hardware events, errors
 *   cp_out.c       table, JSON and CSV
 *   cmd_cp.c       the command line and the sweeps
 *
 * This header and cp_session.h are the folder's own: the rest of the CLI
 * sees only cmd_cp.h.
 */
#ifndef WSC_CP_H
#define WSC_CP_H

#include <stdbool.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "common/counters.h"

struct wsc_batch;
struct cp_uring;

/* The programs, in the order of the WSC paper's Figure 5 and then ours. */
enum cp_program {
	CP_NORMAL,
	CP_NORMAL_COLLECT,
	CP_WSC_COLLECT,
	CP_NORMAL_RW,
	CP_WSC_RW,
	CP_WSC_CHAIN,
	CP_WSC_CHAIN_COLLECT,
	CP_IO_URING,
	CP_COPY_FILE_RANGE,
	CP_NR_PROGRAMS
};

/*
 * Where a program takes a timestamp.  Every program marks START and END;
 * the block programs also mark the start of their read block (RW), of
 * their write block (WRITE, COLLECT only) and the end of both (RW_END).
 */
enum cp_mark {
	CP_MARK_START,
	CP_MARK_RW,
	CP_MARK_WRITE,
	CP_MARK_RW_END,
	CP_MARK_END,
	CP_NR_MARKS
};

/* The six calls of a transaction, for error reports. */
enum cp_step {
	CP_STEP_OPEN_SRC,
	CP_STEP_OPEN_DST,
	CP_STEP_READ,
	CP_STEP_WRITE,
	CP_STEP_CLOSE_SRC,
	CP_STEP_CLOSE_DST,
	CP_NR_STEPS
};

/**
 * struct cp_portion - one measured portion: a program between two marks
 * @number:   the paper's numbering (1-11), ours after it (12-15)
 * @program:  whose
 * @part:     "open-close", "read-write" or "write"
 * @from, @to: the marks it lies between
 * @baseline: the portion its speedup is taken over (NORMAL's counterpart)
 */
struct cp_portion {
	unsigned int number;
	enum cp_program program;
	const char *part;
	enum cp_mark from, to;
	unsigned int baseline;
};

extern const struct cp_portion cp_portions[];
extern const unsigned int cp_nr_portions;
extern const char *const cp_program_names[CP_NR_PROGRAMS];
extern const char *const cp_step_names[CP_NR_STEPS];
const struct cp_portion *cp_portion_by_number(unsigned int number);

/**
 * struct cp_txn - what became of one transaction in one run
 * @src_fd, @dst_fd: descriptors while open, else -1
 * @nread:  bytes the read returned
 * @err:    0, or the errno of the first call that failed
 * @step:   which call that was
 * @short_count: the bytes a short write wrote (its @err is EIO), else -1
 */
struct cp_txn {
	int src_fd;
	int dst_fd;
	int64_t nread;
	int err;
	enum cp_step step;
	int64_t short_count;
};

/* Faults a test can ask for (--inject): real errors, made on purpose. */
enum cp_fault {
	CP_FAULT_NONE,
	CP_FAULT_MISSING_SOURCE,	/* the source is removed: ENOENT */
	CP_FAULT_UNWRITABLE_DEST,	/* a folder where the copy goes: EISDIR */
};

/**
 * struct cp_work - the scratch folder and everything a run uses
 * @n:         transactions
 * @threshold: WSC threshold: calls per flush for WSC+COLLECT and WSC+RW,
 *             transactions per submission for WSC+CHAIN,
 *             WSC+CHAIN+COLLECT and IO_URING
 * @size:      bytes per file
 * @dir:       the scratch folder made for this command
 * @dirfd:     a descriptor of it; every open is relative to it
 * @fstype:    its filesystem's name, for the record
 * @name_width: digits in a file name
 * @names:     every file's name, CP_NAME_LEN bytes each: source i at
 *             2 * i, destination i at 2 * i + 1 (made before any timing)
 * @data:      what source i holds, at @data + i * @size
 * @buf:       the programs' buffers, one per transaction
 * @txn:       per transaction state of the current run
 * @ent:       two libwsc entry indices per transaction, for the programs
 * @collect:   libwsc batch in collect mode (WSC+COLLECT, WSC+RW)
 * @chain:     libwsc batch submitted by hand (WSC+CHAIN)
 * @uring:     the IO_URING program's ring, or NULL (@uring_why says why)
 * @mark_ns:   the marks' timestamps in the current run
 * @counters:  hardware events, when @have_counters
 * @mark_ev:   the events' totals at each mark
 * @fault, @fault_txn: an injected fault and its transaction
 */
struct cp_work {
	unsigned int n;
	unsigned int threshold;
	size_t size;
	char *dir;
	int dirfd;
	char fstype[32];
	unsigned int name_width;
	char *names;
	unsigned char *data;
	unsigned char *buf;
	struct cp_txn *txn;
	int *ent;
	struct wsc_batch *collect;
	struct wsc_batch *chain;
	struct cp_uring *uring;
	char uring_why[160];
	uint64_t mark_ns[CP_NR_MARKS];
	bool have_counters;
	struct counter_group counters;
	uint64_t mark_ev[CP_NR_MARKS][COUNTERS_MAX];
	enum cp_fault fault;
	unsigned int fault_txn;
};

#define CP_NAME_LEN	24

static inline const char *cp_file(const struct cp_work *w, bool dst,
				  unsigned int i)
{
	return w->names + (2 * (size_t)i + dst) * CP_NAME_LEN;
}

/* cp_files.c */
int cp_files_setup(struct cp_work *w, const char *parent);
void cp_files_teardown(struct cp_work *w, bool keep);
void cp_name(const struct cp_work *w, char *out, size_t len, bool dst,
	     unsigned int i);
int cp_files_reset(struct cp_work *w);
int cp_drop_caches(const struct cp_work *w, char *why, size_t len);
int cp_check_cold(char *why, size_t len);
/* Compare every claimed copy with its source; return how many differ. */
unsigned int cp_verify(struct cp_work *w, enum cp_program p, FILE *err);
void cp_discard_failed(struct cp_work *w);
void cp_remove_copies(struct cp_work *w);

/* cp_txn.c: the marks, and each call's result judged */
void cp_mark(struct cp_work *w, enum cp_mark m);
void cp_fail(struct cp_txn *t, enum cp_step step, int err);
bool cp_judge(struct cp_txn *t, enum cp_step step, int64_t ret);

/* cp_programs.c: run program @p once over every transaction. */
int cp_run_program(struct cp_work *w, enum cp_program p);

/* cp_uring.c */
int cp_uring_setup(struct cp_work *w);
void cp_uring_teardown(struct cp_work *w);
int cp_run_io_uring(struct cp_work *w);
int cp_uring_quiesce(struct cp_work *w);

#endif /* WSC_CP_H */
