// SPDX-License-Identifier: MIT
/*
 * wsc trace and its signals: SIGINT or SIGTERM ends the trace (the
 * report is still written) and goes on to a traced command.
 */
#include <signal.h>

#include "trace_cmd.h"

/* SIGINT or SIGTERM: stop tracing (and pass it on to the command). */
static volatile sig_atomic_t trace_signal;

static void trace_on_signal(int sig)
{
	trace_signal = sig;
}

void trace_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = trace_on_signal };

	/* No SA_RESTART: waitpid() and nanosleep() return to look. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int trace_caught_signal(void)
{
	return trace_signal;
}
