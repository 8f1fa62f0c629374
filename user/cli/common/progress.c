// SPDX-License-Identifier: MIT
/*
 * A progress line on a terminal, for runs longer than a few seconds:
 * nothing when stderr is a file or a pipe, so logs stay clean.
 */
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "clock.h"
#include "progress.h"

/* Progress shows once a run has taken this long, and not more often. */
#define PROGRESS_AFTER_NS	2000000000ull
#define PROGRESS_EVERY_NS	250000000ull

void progress_line(const char *cmd, const char *what, uint64_t done,
		   uint64_t total)
{
	static uint64_t start, last;
	static bool shown;
	uint64_t now;

	if (!isatty(STDERR_FILENO))
		return;
	now = clock_now_ns();
	if (done == 0 || !start) {
		start = now;
		last = 0;
	}
	if (done == total) {
		if (shown)
			fprintf(stderr, "\r%60s\r", "");
		shown = false;
		start = 0;
		return;
	}
	if (now - start < PROGRESS_AFTER_NS || now - last < PROGRESS_EVERY_NS)
		return;
	last = now;
	shown = true;
	fprintf(stderr, "\rwsc %s%s%s: %3d%% (%llu of %llu rounds)", cmd,
		what ? " " : "", what ? what : "", (int)(100 * done / total),
		(unsigned long long)done, (unsigned long long)total);
}
