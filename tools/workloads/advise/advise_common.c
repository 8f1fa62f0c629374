// SPDX-License-Identifier: MIT
/*
 * What the advise validation programs share: their arguments, their
 * batch, their clock and their one line of output (advise.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "advise.h"

static const char *const adv_mode_names[] = {
	[ADV_PLAIN] = "plain",
	[ADV_LIBWSC] = "libwsc",
	[ADV_BREAK_EVEN] = "break-even",
	[ADV_WRAPPED] = "wrapped",
	[ADV_CONVENTIONAL] = "conventional",
	[ADV_SETUP] = "setup",
	[ADV_ALL] = "all",
};

#define ADV_NMODES (sizeof(adv_mode_names) / sizeof(adv_mode_names[0]))

static void adv_usage(const char *usage)
{
	fprintf(stderr, "usage: %s\n", usage);
	fprintf(stderr, "MODE: plain, libwsc, break-even, wrapped, conventional, all or setup\n");
	exit(2);
}

static unsigned int adv_count(const char *s, const char *usage)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || !*s || *end || v == 0 || v > 1u << 24)
		adv_usage(usage);
	return (unsigned int)v;
}

void adv_parse(int argc, char **argv, const char *usage, int want_out,
	       struct adv_args *a)
{
	/* Each option and the field it sets. */
	static const char fields[] = "nkpwr";
	unsigned int *field[] = { &a->n, &a->k, &a->piece, &a->work, &a->reps };
	int opt, need = want_out ? 3 : 2;
	size_t i;

	while ((opt = getopt(argc, argv, "n:k:p:w:r:")) != -1) {
		const char *at = strchr(fields, opt);

		if (opt == ':' || opt == '?' || !at)
			adv_usage(usage);
		*field[at - fields] = adv_count(optarg, usage);
	}
	if (argc - optind != need)
		adv_usage(usage);
	for (i = 0; i < ADV_NMODES; i++)
		if (!strcmp(argv[optind], adv_mode_names[i]))
			break;
	if (i == ADV_NMODES)
		adv_usage(usage);
	a->mode = (enum adv_mode)i;
	if (!a->reps)
		a->reps = 1;
	a->path = argv[optind + 1];
	a->out = want_out ? argv[optind + 2] : NULL;
}

void adv_die(const char *what, long err)
{
	fprintf(stderr, "%s: %s\n", what, strerror((int)(err < 0 ? -err : err)));
	exit(1);
}

struct wsc_batch *adv_batch(enum adv_mode mode)
{
	static const unsigned int flags[] = {
		[ADV_LIBWSC] = 0,
		[ADV_BREAK_EVEN] = WSC_BATCH_BREAK_EVEN,
		[ADV_WRAPPED] = 0,
		[ADV_CONVENTIONAL] = WSC_BATCH_CONVENTIONAL,
	};
	struct wsc_batch *b;
	int ret;

	if (mode == ADV_PLAIN || mode >= ADV_NR_TIMED)
		return NULL;
	ret = wsc_batch_create(&b, flags[mode]);
	if (ret < 0)
		adv_die("wsc_batch_create", ret);
	return b;
}

void adv_submit(struct wsc_batch *b)
{
	int ret = wsc_batch_submit(b);

	if (ret < 0)
		adv_die("wsc_batch_submit", ret);
}

uint64_t adv_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int adv_cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* One mode's line: median, checksum, libwsc's counts, each repetition. */
static void adv_print(enum adv_mode mode, const uint64_t *ns, unsigned int reps,
		      uint64_t sum, const struct wsc_batch *b)
{
	uint64_t *sorted = calloc(reps, sizeof(*sorted));
	unsigned int i;

	if (!sorted)
		adv_die("calloc", ENOMEM);
	memcpy(sorted, ns, reps * sizeof(*ns));
	qsort(sorted, reps, sizeof(*sorted), adv_cmp_u64);
	printf("mode=%s ns=%llu sum=%016llx kernel_entries=%lu plain_calls=%lu break_even=%u reps=",
	       adv_mode_names[mode], (unsigned long long)sorted[reps / 2],
	       (unsigned long long)sum, b ? wsc_batch_kernel_entries(b) : 0,
	       b ? wsc_batch_conventional_calls(b) : 0,
	       b ? wsc_break_even() : 0);
	for (i = 0; i < reps; i++)
		printf("%s%llu", i ? ";" : "", (unsigned long long)ns[i]);
	printf("\n");
	free(sorted);
}

void adv_time(const struct adv_args *a, const struct adv_work *w)
{
	struct wsc_batch *b[ADV_NR_TIMED] = { NULL };
	uint64_t *ns[ADV_NR_TIMED] = { NULL }, sum[ADV_NR_TIMED] = { 0 }, t0;
	unsigned int first = a->mode, last = a->mode, nr, i, j, m;

	if (a->mode == ADV_ALL) {
		first = 0;
		last = ADV_NR_TIMED - 1;
	}
	nr = last - first + 1;
	for (m = first; m <= last; m++) {
		b[m] = adv_batch((enum adv_mode)m);
		ns[m] = calloc(a->reps, sizeof(*ns[m]));
		if (!ns[m])
			adv_die("calloc", ENOMEM);
	}
	for (i = 0; i < a->reps; i++) {
		for (j = 0; j < nr; j++) {
			m = first + (i + j) % nr;
			if (w->prepare)
				w->prepare(w->ctx);
			t0 = adv_now();
			sum[m] = w->run(w->ctx, (enum adv_mode)m, b[m]);
			ns[m][i] = adv_now() - t0;
		}
	}
	for (m = first; m <= last; m++) {
		adv_print((enum adv_mode)m, ns[m], a->reps, sum[m], b[m]);
		free(ns[m]);
		wsc_batch_destroy(b[m]);
	}
}

uint64_t adv_checksum(const void *buf, size_t len, unsigned int passes,
		      uint64_t seed)
{
	const unsigned char *p = buf;
	uint64_t h = seed ^ 0x9e3779b97f4a7c15ull;
	unsigned int pass;
	size_t i;

	for (pass = 0; pass < passes; pass++)
		for (i = 0; i < len; i++)
			h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}
