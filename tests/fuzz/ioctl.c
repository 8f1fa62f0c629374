// SPDX-License-Identifier: GPL-2.0
/*
 * WSC_IOC_SUBMIT with malformed and valid batches.
 *
 * Each step builds a batch of harmless calls (no-ops, getpid, a one-byte
 * write to the fuzzer's own pipe, a file created in the scratch folder and
 * closed again) and then perhaps breaks it: a count at or past the limits,
 * a flag or reserved field, a reference to the same, a later or an
 * out-of-range entry, a number off the allowlist, and pointers that are
 * NULL, unmapped, kernel, misaligned, read-only or that run into an
 * unmapped page.  A model of the ABI (include/uapi/linux/wsc.h and
 * Documentation/abi.md, "What happens, in order") says what the module
 * must answer: the errno and error_index of a refusal, and for a batch
 * that ran every result.  A refused batch must leave no trace: the pipe
 * stays empty, no file appears and the results array is untouched.
 *
 * The numbers off the allowlist are ones that would do no harm even if
 * the module ran them by mistake (getuid, sched_yield, numbers no kernel
 * assigns): the fuzzer never asks the module to run anything it would not
 * run itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fuzz.h"

#define PG		4096UL
#define MAXE		WSC_MAX_ENTRIES
#define ENT_PAGES	15	/* 1024 entries of 56 bytes, and some room */
#define RES_PAGES	5	/* 1024 results of 16 bytes, and some room */
#define KERNEL_PTR	0xffffffff81000000ull
#define PATTERN		0x5a

/* What an entry of the batch does, for the model. */
enum kind { K_NOP, K_GETPID, K_GETTID, K_WRITE, K_CREATE, K_CLOSE };

/* Where an array (or the header) lies. */
enum where {
	P_OK, P_END, P_STRADDLE, P_NULL, P_MISALIGNED, P_HOLE, P_KERNEL,
	P_RO, P_NONCANON, P_COUNT
};
static const char *const where_name[] = {
	"ok", "end-of-mapping", "straddles-unmapped", "null", "misaligned",
	"unmapped", "kernel", "read-only", "non-canonical",
};

static int dev = -1, sentinel[2] = { -1, -1 }, dirfd = -1;
static char dirpath[PATH_MAX];
static char *ent_area, *ent_ro, *res_area, *hdr_area, *hole;
static pid_t pid, tid;
static const char wbyte = '!';
static char names[4][8] = { "c0", "c1", "c2", "c3" };

static struct wsc_entry ent[MAXE + 1];
static enum kind kinds[MAXE + 1];
static struct wsc_result expect[MAXE];
static bool closed[MAXE + 1];	/* a K_CREATE a K_CLOSE names */

/* Harmless numbers off every kernel's allowlist (checked at start). */
static uint32_t off_list[32];
static unsigned int n_off;

/* @pages read-write pages, then one PROT_NONE page. */
static char *map_guarded(size_t pages)
{
	char *p = mmap(NULL, (pages + 1) * PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + pages * PG, PG, PROT_NONE)) {
		perror("wsc-fuzz: mmap");
		exit(2);
	}
	return p;
}

static void setup(void)
{
	static const uint32_t cand[] = {
		SYS_sched_yield, SYS_getuid, SYS_getgid, SYS_geteuid,
		SYS_getegid, SYS_getpgrp, 335, 400, 423, 470, 511, 512, 1023,
		4096, 0x40000000 | SYS_getpid, 0xfffe, 0x10000, 0x7fffffff,
		0x80000000u, 0xffffffffu,
	};
	unsigned int i;

	dev = wsc_open_dev();
	if (pipe2(sentinel, O_NONBLOCK | O_CLOEXEC)) {
		perror("wsc-fuzz: pipe2");
		exit(2);
	}
	snprintf(dirpath, sizeof(dirpath), "%s/wsc-fuzz-ioctl.XXXXXX", F.scratch);
	if (!mkdtemp(dirpath)) {
		fprintf(stderr, "wsc-fuzz: mkdtemp %s: %s\n", dirpath,
			strerror(errno));
		exit(2);
	}
	dirfd = open(dirpath, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ent_area = map_guarded(ENT_PAGES);
	ent_ro = map_guarded(ENT_PAGES);
	mprotect(ent_ro, ENT_PAGES * PG, PROT_READ);
	res_area = map_guarded(RES_PAGES);
	hdr_area = map_guarded(1);
	hole = mmap(NULL, 16 * PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(hole, 16 * PG);
	pid = getpid();
	tid = gettid();
	for (i = 0; i < sizeof(cand) / sizeof(cand[0]); i++)
		if (!wsc_allowed(cand[i]) && cand[i] != WSC_NR_NOP)
			off_list[n_off++] = cand[i];
}

static void teardown(void)
{
	int i;

	for (i = 0; i < 4; i++)
		unlinkat(dirfd, names[i], 0);
	close(dirfd);
	rmdir(dirpath);
	close(dev);
	close(sentinel[0]);
	close(sentinel[1]);
}

/* ---- One batch ------------------------------------------------------- */

static uint32_t pick_count(struct rng *r)
{
	unsigned int x = rng_below(r, 100);

	if (x < 65)
		return 1 + rng_below(r, 8);
	if (x < 80)
		return 9 + rng_below(r, 56);
	if (x < 84)
		return 65 + rng_below(r, MAXE - 65);
	if (x < 89)
		return MAXE;
	if (x < 93)
		return MAXE + 1;
	if (x < 96)
		return 0;
	switch (rng_below(r, 4)) {
	case 0: return UINT32_MAX;
	case 1: return 1u << 31;
	case 2: return 2 * MAXE;
	default: return MAXE + 1 + rng_below(r, 100000);
	}
}

/* Entry @i: a harmless call, perhaps referring to an earlier entry. */
static void gen_entry(struct rng *r, uint32_t i, uint32_t step)
{
	struct wsc_entry *e = &ent[i];
	unsigned int x = rng_below(r, 100);

	memset(e, 0, sizeof(*e));
	closed[i] = false;
	if (x < 35) {
		static const int64_t values[] = { 0, 1, 7, -1, -EINVAL, -4095,
						   -4096, INT64_MIN, INT64_MAX };

		kinds[i] = K_NOP;
		e->nr = WSC_NR_NOP;
		e->args[0] = values[rng_below(r, 9)];
		if (i && rng_chance(r, 40)) {
			e->ref_mask = 1;
			e->args[0] = rng_below(r, i);
		}
	} else if (x < 50) {
		kinds[i] = K_GETPID;
		e->nr = SYS_getpid;
		/* getpid ignores its arguments: references are harmless. */
		if (i && rng_chance(r, 20)) {
			e->ref_mask = 1u << rng_below(r, 6);
			e->args[__builtin_ctz(e->ref_mask)] = rng_below(r, i);
		}
	} else if (x < 60) {
		kinds[i] = K_GETTID;
		e->nr = SYS_gettid;
	} else if (x < 85 || i == 0) {
		kinds[i] = K_WRITE;
		e->nr = SYS_write;
		e->args[0] = sentinel[1];
		e->args[1] = (uintptr_t)&wbyte;
		e->args[2] = 1;
	} else if (x < 93) {
		kinds[i] = K_CREATE;
		e->nr = SYS_openat;
		e->args[0] = dirfd;
		e->args[1] = (uintptr_t)names[step % 4];
		e->args[2] = O_CREAT | O_WRONLY | O_CLOEXEC;
		e->args[3] = 0600;
	} else {
		uint32_t j;

		/*
		 * A close only ever of a descriptor this batch opened, and
		 * that no other close of the batch names.
		 */
		for (j = i; j-- > 0;)
			if (kinds[j] == K_CREATE && !closed[j])
				break;
		if (j == UINT32_MAX) {
			kinds[i] = K_GETTID;
			e->nr = SYS_gettid;
		} else {
			kinds[i] = K_CLOSE;
			closed[j] = true;
			e->nr = SYS_close;
			e->ref_mask = 1;
			e->args[0] = j;
		}
	}
	if (rng_chance(r, 10))
		e->flags |= WSC_ENTRY_IGNORE_FAILURE;
	if (rng_chance(r, 10))
		e->flags |= WSC_ENTRY_NEW_CHAIN;
}

/* Break entry @i in one of the ways validation must refuse. */
static void break_entry(struct rng *r, uint32_t i, uint32_t count)
{
	struct wsc_entry *e = &ent[i];
	unsigned int k = rng_below(r, 6);

	switch (rng_below(r, 7)) {
	case 0:
		e->reserved = 1 + rng_below(r, 255);
		break;
	case 1:
		e->flags |= (uint16_t)(WSC_ENTRY_ALL_FLAGS + 1) <<
			    rng_below(r, 14);
		break;
	case 2:
		e->ref_mask |= 1u << (6 + rng_below(r, 2));
		break;
	case 3:	/* itself */
		e->ref_mask |= 1u << k;
		e->args[k] = i;
		break;
	case 4:	/* a later entry, or none at all */
		e->ref_mask |= 1u << k;
		switch (rng_below(r, 4)) {
		case 0: e->args[k] = i + 1 + rng_below(r, count - i); break;
		case 1: e->args[k] = count; break;
		case 2: e->args[k] = UINT64_MAX; break;
		default: e->args[k] = 1ull << (32 + rng_below(r, 31)); break;
		}
		break;
	default:
		/* Off the allowlist: numbers that would be harmless anyway. */
		e->nr = off_list[rng_below(r, n_off)];
		memset(e->args, 0, sizeof(e->args));
		e->ref_mask = 0;
		break;
	}
}

/* The validation model: 0, or -errno with the entry at fault. */
static int model_entry(const struct wsc_entry *e, uint32_t i)
{
	unsigned int k;

	if (e->reserved || (e->flags & ~WSC_ENTRY_ALL_FLAGS) || e->ref_mask >> 6)
		return -EINVAL;
	if (e->nr != WSC_NR_NOP && !wsc_allowed(e->nr))
		return -ENOSYS;
	for (k = 0; k < 6; k++)
		if ((e->ref_mask & (1u << k)) && e->args[k] >= i)
			return -EINVAL;
	return 0;
}

static bool failed(int64_t v)
{
	return v < 0 && v >= -4095;
}

/*
 * What each entry must return, given what it returned in fact for the
 * values the model cannot know (descriptor numbers).  Returns the first
 * entry that disagrees, or count.
 */
static uint32_t model_run(uint32_t count, const struct wsc_result *got)
{
	bool stopped = false;
	uint32_t i;

	for (i = 0; i < count; i++) {
		const struct wsc_entry *e = &ent[i];
		int64_t ret = 0, arg0 = e->args[0];
		bool cancelled = false;
		unsigned int k;

		if (e->flags & WSC_ENTRY_NEW_CHAIN)
			stopped = false;
		if (stopped) {
			expect[i].ret = -ECANCELED;
			goto check;
		}
		for (k = 0; k < 6; k++) {
			if (!(e->ref_mask & (1u << k)))
				continue;
			if (failed(got[e->args[k]].ret))
				cancelled = true;
			else if (k == 0)
				arg0 = got[e->args[k]].ret;
		}
		if (cancelled) {
			ret = -ECANCELED;
		} else {
			switch (kinds[i]) {
			case K_NOP: ret = arg0; break;
			case K_GETPID: ret = pid; break;
			case K_GETTID: ret = tid; break;
			case K_WRITE: ret = 1; break;
			case K_CREATE:
				/* A descriptor: any number that is one. */
				ret = got[i].ret >= 0 && got[i].ret < 1024 ?
				      got[i].ret : INT64_MIN;
				break;
			case K_CLOSE: ret = 0; break;
			}
		}
		if (failed(ret) && !(e->flags & WSC_ENTRY_IGNORE_FAILURE))
			stopped = true;
		expect[i].ret = ret;
check:
		if (got[i].ret != expect[i].ret)
			return i;
	}
	return count;
}

/* Place @n bytes of @src so that they end @shift bytes past @guard. */
static char *place(char *area, size_t pages, size_t bytes, enum where w,
		   struct rng *r)
{
	char *guard = area + pages * PG;
	size_t over;

	switch (w) {
	case P_END:
		return guard - bytes;
	case P_STRADDLE:
		over = 8 * (1 + rng_below(r, bytes / 8));
		return guard - bytes + over;
	case P_MISALIGNED:
		return area + 1 + rng_below(r, 7);
	default:
		return area;
	}
}

static uint64_t bad_pointer(enum where w, char *placed)
{
	switch (w) {
	case P_NULL: return 0;
	case P_HOLE: return (uintptr_t)hole;
	case P_KERNEL: return KERNEL_PTR;
	case P_NONCANON: return 0x0000800000000000ull;
	default: return (uintptr_t)placed;
	}
}

static enum where pick_where(struct rng *r, bool allow_ro)
{
	enum where w;

	if (rng_chance(r, 80))
		return rng_chance(r, 80) ? P_OK : P_END;
	do
		w = rng_below(r, P_COUNT);
	while (w == P_RO && !allow_ro);
	return w;
}

static size_t pipe_drain(void)
{
	char buf[4096];
	size_t total = 0;
	ssize_t n;

	while ((n = read(sentinel[0], buf, sizeof(buf))) > 0)
		total += n;
	return total;
}

static bool readable_where(enum where w)
{
	return w == P_OK || w == P_END || w == P_RO;
}

/*
 * The batch's header and entries: all of them when there are few, else
 * the 24 up to entry @at (the one at fault) and the entries those refer
 * to.
 */
static void report_batch(const struct wsc_submit *s, enum where we,
			 enum where wr, enum where wh, uint32_t n, uint32_t at,
			 const struct wsc_result *got)
{
	uint32_t first = 0, i;
	int k;

	repro("submit: count %u flags %#x refused %#x entries %s results %s header %s",
	      s->count, s->flags, s->refused, where_name[we], where_name[wr],
	      where_name[wh]);
	if (n <= 24) {
		repro_entries(ent, n, got, NULL);
		return;
	}
	if (at >= n)
		at = n - 1;
	if (at >= 24)
		first = at - 23;
	repro("(entries %u..%u of %u, and those they refer to)", first, at, n);
	for (i = first; i <= at; i++)
		for (k = 0; k < 6; k++)
			if ((ent[i].ref_mask & (1u << k)) && ent[i].args[k] < first) {
				repro("referred to:");
				repro_entries(&ent[ent[i].args[k]], 1,
					      got ? &got[ent[i].args[k]] : NULL, NULL);
			}
	printf("wsc-fuzz:   (the lines below count from %u)\n", first);
	repro_entries(&ent[first], at - first + 1, got ? &got[first] : NULL, NULL);
}

static void one_step(struct rng *r, uint64_t step)
{
	struct wsc_submit s = { 0 }, *hdr;
	uint32_t count = pick_count(r), n = count > MAXE ? MAXE : count;
	enum where we = P_OK, wr = P_OK, wh = P_OK;
	char *pe, *pr, *src_res;
	uint32_t i, writes = 0, bad_at = UINT32_MAX;
	int exp_err = 0;
	uint32_t exp_index = WSC_NO_INDEX;
	bool broken = false, creates = false;
	long ret;
	size_t ebytes, rbytes;
	struct wsc_result *got;

	if (n == 0)
		n = 1 + rng_below(r, 4);
	for (i = 0; i < n; i++)
		gen_entry(r, i, step);
	/* About half of the batches are malformed somewhere. */
	if (rng_chance(r, 30)) {
		unsigned int nb = 1 + rng_below(r, 3);

		while (nb--)
			break_entry(r, rng_below(r, n), n);
		broken = true;
	}
	if (rng_chance(r, 15))
		s.flags = WSC_SUBMIT_TIMING;
	if (rng_chance(r, 4))
		s.flags |= 1u << (1 + rng_below(r, 31));
	/* An output the module ignores on entry. */
	if (rng_chance(r, 3))
		s.refused = 1u << rng_below(r, 32);
	s.count = count;
	if (rng_chance(r, 30)) {
		we = pick_where(r, true);
		wr = pick_where(r, true);
	}
	if (rng_chance(r, 5))
		wh = pick_where(r, true);

	/* Lay the arrays out. */
	ebytes = (size_t)n * sizeof(struct wsc_entry);
	rbytes = (size_t)n * sizeof(struct wsc_result);
	if (we == P_RO) {
		mprotect(ent_ro, ENT_PAGES * PG, PROT_READ | PROT_WRITE);
		pe = ent_ro + ENT_PAGES * PG - ebytes;
		memcpy(pe, ent, ebytes);
		mprotect(ent_ro, ENT_PAGES * PG, PROT_READ);
	} else {
		pe = place(ent_area, ENT_PAGES, ebytes, we, r);
		if (we == P_STRADDLE)
			memcpy(pe, ent, ent_area + ENT_PAGES * PG - pe);
		else if (we == P_OK || we == P_END || we == P_MISALIGNED)
			memcpy(pe, ent, ebytes);
	}
	if (wr == P_RO) {
		pr = ent_ro;	/* read-only; never written */
	} else {
		pr = place(res_area, RES_PAGES, rbytes, wr, r);
		memset(res_area, PATTERN, RES_PAGES * PG);
	}
	src_res = pr;
	s.entries = bad_pointer(we, pe);
	s.results = bad_pointer(wr, pr);
	s.error_index = 0x12345678;

	/* The header itself. */
	switch (wh) {
	case P_STRADDLE:
		mprotect(hdr_area, PG, PROT_READ | PROT_WRITE);
		hdr = (void *)(hdr_area + PG - 16);
		memcpy(hdr, &s, 16);
		break;
	case P_RO:
		mprotect(hdr_area, PG, PROT_READ | PROT_WRITE);
		hdr = (void *)hdr_area;
		*hdr = s;
		mprotect(hdr_area, PG, PROT_READ);
		break;
	case P_OK: case P_END:
		mprotect(hdr_area, PG, PROT_READ | PROT_WRITE);
		hdr = wh == P_OK ? (void *)hdr_area :
		      (void *)(hdr_area + PG - sizeof(s));
		*hdr = s;
		break;
	case P_MISALIGNED:
		/* The header has no alignment rule: it must work. */
		mprotect(hdr_area, PG, PROT_READ | PROT_WRITE);
		hdr = (void *)(hdr_area + 4);
		memcpy(hdr, &s, sizeof(s));
		wh = P_OK;
		break;
	default:
		hdr = (void *)(uintptr_t)bad_pointer(wh, NULL);
		break;
	}

	/* The model's verdict, in the module's order of checks. */
	if (wh != P_OK && wh != P_END && wh != P_RO)
		exp_err = -EFAULT;
	else if ((s.flags & ~WSC_SUBMIT_ALL_FLAGS) || !count)
		exp_err = -EINVAL;
	else if (count > MAXE)
		exp_err = -E2BIG;
	else if ((s.entries & 7) || (s.results & 7))
		exp_err = -EINVAL;
	else if (!s.entries || !s.results)
		exp_err = -EFAULT;
	else if (!readable_where(we))
		exp_err = -EFAULT;
	else {
		for (i = 0; i < n && !exp_err; i++) {
			exp_err = model_entry(&ent[i], i);
			if (exp_err)
				exp_index = bad_at = i;
		}
		if (!exp_err && wr != P_OK && wr != P_END)
			exp_err = -EFAULT;
	}
	/* A read-only header cannot take the error index. */
	if (exp_err && wh == P_RO && exp_err != -EFAULT)
		exp_err = -EFAULT;
	(void)broken;

	for (i = 0; i < n; i++)
		if (kinds[i] == K_CREATE)
			creates = true;

	step_begin("ioctl", step);
	ret = wsc_submit_raw(dev, hdr);
	step_end();
	F.batches++;
	got = (struct wsc_result *)src_res;

	if (exp_err) {
		bool bad = false;

		F.refused++;
		if (ret != exp_err) {
			anomaly("ioctl", step, "expected %s (%d), got %ld",
				strerror(-exp_err), exp_err, ret);
			bad = true;
		} else if ((wh == P_OK || wh == P_END) &&
			   hdr->error_index != exp_index) {
			anomaly("ioctl", step, "refused with %ld: error_index %u, expected %u",
				ret, hdr->error_index, exp_index);
			bad = true;
		}
		/* No side effect of a refused batch. */
		writes = pipe_drain();
		if (ret < 0 && writes) {
			anomaly("ioctl", step, "refused with %ld, yet %u bytes were written to the pipe",
				ret, writes);
			bad = true;
		}
		for (i = 0; ret < 0 && creates && i < 4; i++) {
			if (!faccessat(dirfd, names[i], F_OK, 0)) {
				anomaly("ioctl", step, "refused with %ld, yet %s was created",
					ret, names[i]);
				bad = true;
			}
		}
		/*
		 * Untouched, whatever the refusal: validation comes before the
		 * probe, and the probe writes back the bytes it reads.
		 */
		if (ret < 0 && (wr == P_OK || wr == P_END)) {
			for (i = 0; i < RES_PAGES * PG; i++) {
				if ((unsigned char)res_area[i] != PATTERN) {
					anomaly("ioctl", step, "refused with %ld, yet the results array changed at byte %u",
						ret, (unsigned int)(res_area + i - pr));
					bad = true;
					break;
				}
			}
		}
		if (bad)
			report_batch(&s, we, wr, wh, n,
				     bad_at != UINT32_MAX ? bad_at : n - 1, NULL);
	} else {
		uint32_t at = count - 1, expected_writes = 0;
		bool bad = false;

		F.ran++;
		if (ret != count) {
			anomaly("ioctl", step, "a valid batch of %u returned %ld",
				count, ret);
			bad = true;
		} else {
			at = model_run(count, got);
			if (at < count) {
				anomaly("ioctl", step, "entry %u returned %lld, the ABI says %lld",
					at, (long long)got[at].ret,
					(long long)expect[at].ret);
				bad = true;
			}
			for (i = 0; i < count; i++) {
				if (kinds[i] == K_WRITE && got[i].ret == 1)
					expected_writes++;
				if (kinds[i] == K_CREATE && got[i].ret >= 0) {
					/* Left open unless a close of the batch ran. */
					uint32_t j;
					bool shut = false;

					for (j = i + 1; j < count; j++)
						if (kinds[j] == K_CLOSE &&
						    ent[j].args[0] == i &&
						    got[j].ret == 0)
							shut = true;
					if (!shut)
						close(got[i].ret);
				}
				if (!(s.flags & WSC_SUBMIT_TIMING) &&
				    got[i].duration_ns) {
					anomaly("ioctl", step, "entry %u: duration %llu without WSC_SUBMIT_TIMING",
						i, (unsigned long long)got[i].duration_ns);
					bad = true;
				}
			}
			/* Nothing written past the last result. */
			for (i = 0; wr == P_OK && i < sizeof(struct wsc_result); i++) {
				if ((unsigned char)pr[count * 16 + i] != PATTERN) {
					anomaly("ioctl", step, "byte %u past the results array written",
						i);
					bad = true;
					break;
				}
			}
		}
		writes = pipe_drain();
		if (ret == count && writes != expected_writes) {
			anomaly("ioctl", step, "%u bytes in the pipe, %u writes succeeded",
				writes, expected_writes);
			bad = true;
		}
		if (bad)
			report_batch(&s, we, wr, wh, count, at < count ? at : count - 1,
				     ret > 0 ? got : NULL);
	}
	for (i = 0; creates && i < 4; i++)
		unlinkat(dirfd, names[i], 0);
	if (F.verbose)
		printf("wsc-fuzz: ioctl step %llu count %u -> %ld\n",
		       (unsigned long long)step, count, ret);
}

void fuzz_ioctl(struct rng *r)
{
	double t0 = now_s();
	uint64_t step;

	setup();
	for (step = 0; fuzz_more(step, t0); step++) {
		one_step(r, step);
		if ((step & 4095) == 4095)
			kmsg_check("ioctl", step);
	}
	teardown();
}
