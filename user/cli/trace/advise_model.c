// SPDX-License-Identifier: MIT
/*
 * wsc trace --advise: the model (Documentation/advise.md, "The model").
 * A run of n calls costs n entries now, and ceil(n / 1024) batches'
 * fixed cost plus n wrapped calls batched; the call's own work is the
 * same either way and left out of both.  The costs are the calibration's.
 */
#include <math.h>

#include "advise.h"

unsigned int advise_break_even(double entry_ns, double batch_fixed_ns,
			       double batch_per_call_ns)
{
	double per_call_saved = entry_ns - batch_per_call_ns;
	double n;

	if (!(per_call_saved > 0) || !isfinite(batch_fixed_ns))
		return 0;
	/* The smallest n with n * per_call_saved > batch_fixed_ns. */
	n = floor(batch_fixed_ns / per_call_saved) + 1;
	if (n < 1)
		n = 1;
	return n <= ADVISE_BATCH_MAX ? (unsigned int)n : 0;
}

uint64_t advise_batches(uint64_t n)
{
	return (n + ADVISE_BATCH_MAX - 1) / ADVISE_BATCH_MAX;
}

double advise_run_saving(const struct advise_costs *c, uint64_t n)
{
	return (double)n * c->entry_ns -
	       ((double)advise_batches(n) * c->batch_fixed_ns +
		(double)n * c->batch_per_call_ns);
}

uint64_t advise_default_gap(double gap_floor_ns)
{
	double ns = round(ADVISE_GAP_FLOORS * gap_floor_ns);

	return isfinite(ns) && ns >= 1 ? (uint64_t)ns : 1;
}
