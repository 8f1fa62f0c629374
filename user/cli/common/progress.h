/* SPDX-License-Identifier: MIT */
/*
 * A progress line on a terminal for the long runs (progress.c).
 */
#ifndef WSC_CLI_PROGRESS_H
#define WSC_CLI_PROGRESS_H

#include <stdint.h>

/*
 * "wsc CMD WHAT: 42% (N of M rounds)" on stderr, once a run has taken a
 * few seconds and then a few times a second; cleared when @done reaches
 * @total.  Nothing when stderr is not a terminal.  @what may be NULL.
 */
void progress_line(const char *cmd, const char *what, uint64_t done,
		   uint64_t total);

#endif /* WSC_CLI_PROGRESS_H */
