// SPDX-License-Identifier: MIT
/*
 * The clock every measurement of the CLI reads.  CLOCK_MONOTONIC does not
 * jump with the wall clock and is read in the vDSO without a system call.
 */
#include <time.h>

#include "clock.h"
#include "libwsc.h"

uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t clock_cost_ps(void)
{
	enum { PAIRS = 10001 };
	static uint64_t d[PAIRS];
	struct wsc_summary s;
	int i;

	for (i = 0; i < PAIRS; i++) {
		uint64_t t0 = clock_now_ns();

		d[i] = clock_now_ns() - t0;
	}
	wsc_stats_summary(d, PAIRS, &s);
	return s.median_ps;
}
