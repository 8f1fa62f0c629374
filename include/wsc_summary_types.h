/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What a set of latency samples says: the summary the module reports
 * (over netlink and in /proc/syscall_lat) and libwsc returns
 * (wsc_stats_summary(), struct wsc_lat_stats).  The struct alone, for
 * libwsc.h and its users; the arithmetic that fills it, shared by the
 * module and the library, is wsc_summary.h, which neither installs.
 */
#ifndef _WSC_SUMMARY_TYPES_H
#define _WSC_SUMMARY_TYPES_H

#include <linux/types.h>

/**
 * struct wsc_summary - what a set of samples says
 * @count:  samples summarised; all other fields are 0 when it is 0
 * @mean_ps, @median_ps, @stddev_ps, @min_ps, @max_ps: in picoseconds (the
 *          definitions are in wsc_summary.h)
 * @ci95_lo_ps, @ci95_hi_ps: the 95% confidence interval of the mean
 * @p50_ps, @p95_ps, @p99_ps: percentiles
 */
struct wsc_summary {
	__u64 count;
	__u64 mean_ps;
	__u64 median_ps;
	__u64 stddev_ps;
	__u64 min_ps;
	__u64 max_ps;
	__u64 ci95_lo_ps;
	__u64 ci95_hi_ps;
	__u64 p50_ps;
	__u64 p95_ps;
	__u64 p99_ps;
};

#endif /* _WSC_SUMMARY_TYPES_H */
