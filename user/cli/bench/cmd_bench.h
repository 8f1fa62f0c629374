/* SPDX-License-Identifier: MIT */
/*
 * wsc bench: the system call latency suite; all the rest of the CLI sees
 * of it.
 */
#ifndef WSC_CMD_BENCH_H
#define WSC_CMD_BENCH_H

int cmd_bench(int argc, char **argv);

#endif /* WSC_CMD_BENCH_H */
