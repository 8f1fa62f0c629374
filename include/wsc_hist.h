/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Log-linear histogram buckets, shared by the module, which fills per-CPU
 * arrays of WSC_HIST_BUCKETS counters, and libwsc, which reads them back.
 *
 * Values below 2^WSC_HIST_SUB_BITS each have their own bucket.  Above,
 * every power-of-two range [2^e, 2^(e+1)) is split into WSC_HIST_SUB equal
 * buckets, so a bucket is never wider than 1/WSC_HIST_SUB (about 3%) of
 * the values it holds.  The buckets cover every u64 value, so nothing is
 * ever clamped.  wsc_hist_log2() merges them into plain power-of-two
 * buckets for paper-style figures.
 */
#ifndef _WSC_HIST_H
#define _WSC_HIST_H

#include <linux/types.h>

#define WSC_HIST_SUB_BITS	5
#define WSC_HIST_SUB		(1u << WSC_HIST_SUB_BITS)
/* Groups: one linear group below 2^SUB_BITS, one per exponent above. */
#define WSC_HIST_BUCKETS	((64 - WSC_HIST_SUB_BITS + 1) * WSC_HIST_SUB)

/* Index of the highest set bit of @v, which must not be zero. */
static inline unsigned int wsc_hist_msb(__u64 v)
{
	return 63 - (unsigned int)__builtin_clzll(v);
}

/** wsc_hist_index() - the bucket that holds @v */
static inline unsigned int wsc_hist_index(__u64 v)
{
	unsigned int shift;

	if (v < WSC_HIST_SUB)
		return (unsigned int)v;
	shift = wsc_hist_msb(v) - WSC_HIST_SUB_BITS;
	/* v >> shift lies in [SUB, 2 * SUB): the group's sub-bucket + SUB. */
	return (shift + 1) * WSC_HIST_SUB +
	       (unsigned int)(v >> shift) - WSC_HIST_SUB;
}

/** wsc_hist_low() - the smallest value bucket @i holds */
static inline __u64 wsc_hist_low(unsigned int i)
{
	unsigned int group = i / WSC_HIST_SUB, sub = i % WSC_HIST_SUB;

	if (group == 0)
		return i;
	return (__u64)(WSC_HIST_SUB + sub) << (group - 1);
}

/** wsc_hist_high() - the largest value bucket @i holds */
static inline __u64 wsc_hist_high(unsigned int i)
{
	unsigned int group = i / WSC_HIST_SUB;

	if (group == 0)
		return i;
	return wsc_hist_low(i) + (((__u64)1 << (group - 1)) - 1);
}

/**
 * wsc_hist_log2() - the power-of-two bucket that holds bucket @i
 *
 * Power-of-two bucket k holds [2^k, 2^(k+1) - 1]; 0 and 1 share bucket 0.
 */
static inline unsigned int wsc_hist_log2(unsigned int i)
{
	__u64 low = wsc_hist_low(i);

	return low ? wsc_hist_msb(low) : 0;
}

#endif /* _WSC_HIST_H */
