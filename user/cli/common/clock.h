/* SPDX-License-Identifier: MIT */
/*
 * The clock every measurement reads: CLOCK_MONOTONIC, in nanoseconds.
 */
#ifndef WSC_CLI_CLOCK_H
#define WSC_CLI_CLOCK_H

#include <stdint.h>

uint64_t clock_now_ns(void);
/* Median cost of one clock_now_ns(), from back-to-back pairs, in ps. */
uint64_t clock_cost_ps(void);

#endif /* WSC_CLI_CLOCK_H */
