/* SPDX-License-Identifier: MIT */
/*
 * wsc trace: per-syscall latency histograms of a command, a process or a
 * cgroup; all the rest of the CLI sees of it.
 */
#ifndef WSC_CMD_TRACE_H
#define WSC_CMD_TRACE_H

int cmd_trace(int argc, char **argv);

#endif /* WSC_CMD_TRACE_H */
