// SPDX-License-Identifier: MIT
/*
 * SIGINT and SIGTERM as a request to stop, not a death: the measuring
 * commands keep their samples in memory and their scratch files on disk,
 * and a default action would lose the first and leave the second.  The
 * handler sets a flag; the commands look at it between samples, rounds or
 * runs, which are short, and end the way a finished run ends, with what
 * they have.
 */
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>

#include "interrupt.h"

static volatile sig_atomic_t caught;

static void interrupt_handler(int sig)
{
	caught = sig;
}

void interrupt_arm(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = interrupt_handler;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocked call must come back with EINTR. */
	sa.sa_flags = 0;
	/*
	 * A SIGINT the parent ignores stays ignored: a non-interactive
	 * shell starts its background jobs so (and nohup), so that the
	 * terminal's Ctrl-C is not theirs.  SIGTERM is always a request.
	 */
	if (sigaction(SIGINT, NULL, &old) || old.sa_handler != SIG_IGN)
		sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int interrupted(void)
{
	return caught;
}

const char *interrupt_name(void)
{
	return caught == SIGTERM ? "SIGTERM" : "SIGINT";
}

static void interrupt_mask(int how)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(how, &set, NULL);
}

void interrupt_block(void)
{
	interrupt_mask(SIG_BLOCK);
}

void interrupt_unblock(void)
{
	interrupt_mask(SIG_UNBLOCK);
}

void interrupt_print(FILE *f, const char *prefix, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "%sinterrupted by %s: ", prefix, interrupt_name());
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}
