/* SPDX-License-Identifier: MIT */
/*
 * wsc trace --openmetrics FILE: the report as Prometheus metrics, in the
 * text format that node_exporter's textfile collector and `promtool check
 * metrics` read, named as OpenMetrics names them (trace_openmetrics.c;
 * Documentation/trace.md, "Metrics for Prometheus").
 */
#ifndef WSC_CLI_TRACE_OPENMETRICS_H
#define WSC_CLI_TRACE_OPENMETRICS_H

#include <stdint.h>
#include <stdio.h>

#include "common/csv.h"
#include "trace.h"

/*
 * The latency histogram's finite "le" bounds: 2^k - 1 ns for k from
 * TRACE_OM_FIRST_BIT to TRACE_OM_LAST_BIT (63 ns to 68.7 s), the same
 * for every system call and every machine, so that series add up.  Each
 * is the top of one of the kernel's log-linear buckets (every power of
 * two starts a group of them, include/wsc_hist.h): no bucket straddles a
 * bound, and the cumulative counts are exact.
 */
#define TRACE_OM_FIRST_BIT	6
#define TRACE_OM_LAST_BIT	36
#define TRACE_OM_BOUNDS		(TRACE_OM_LAST_BIT - TRACE_OM_FIRST_BIT + 1)

/* Bound @i (0 <= @i < TRACE_OM_BOUNDS) in ns. */
uint64_t trace_om_bound_ns(unsigned int i);
/* The calls of @row's buckets that lie wholly at or below @le_ns. */
uint64_t trace_om_cumulative(const struct trace_row *row, uint64_t le_ns);
/*
 * Every metric of @r: the trace's, a set per system call, with r->ring a
 * set per io_uring opcode (wsc_ring_*) and, with r->by, per process or
 * thread; each labelled with r->target.  Ends with "# EOF".
 */
void trace_om_print(FILE *f, const struct trace_report *r);
/*
 * @r's metrics into @c's FILE.tmp (opened by trace_csv_open() before the
 * trace, or again now), then renamed over FILE: a reader sees the old
 * file or the new one, never a part.  0, or -errno with one line said.
 */
int trace_om_write(struct csv_out *c, const struct trace_report *r);

#endif /* WSC_CLI_TRACE_OPENMETRICS_H */
