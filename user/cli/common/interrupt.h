/* SPDX-License-Identifier: MIT */
/*
 * Ctrl-C and kill for the long-running commands (interrupt.c): a signal
 * ends the run where it stands, and the command reports what it measured
 * so far, marked as interrupted, removes its scratch files and exits
 * with INTERRUPT_EXIT.
 */
#ifndef WSC_CLI_INTERRUPT_H
#define WSC_CLI_INTERRUPT_H

#include <stdbool.h>
#include <stdio.h>

/* The exit status of an interrupted command: the shell's for SIGINT. */
#define INTERRUPT_EXIT	130

/*
 * Catch SIGINT and SIGTERM from now on: the handler only notes the signal.
 * Not SA_RESTART, so that a call blocked in the kernel (a wait, a read)
 * returns EINTR and the command gets back to its loop to see the note.
 * A SIGINT ignored when wsc started (a background job of a script, nohup)
 * stays ignored, as it would have been without the handler.
 */
void interrupt_arm(void);

/* The signal that arrived since interrupt_arm() (SIGINT, SIGTERM), or 0. */
int interrupted(void);

/* "SIGINT" or "SIGTERM": the signal that arrived, for the messages. */
const char *interrupt_name(void);

/*
 * Block SIGINT and SIGTERM in the calling thread and, through what it
 * inherits, in the threads it creates next: so that the signal goes to
 * the thread that checks interrupted().  interrupt_unblock() undoes it.
 */
void interrupt_block(void);
void interrupt_unblock(void);

/*
 * The words of every line that says a command was interrupted (on @f,
 * prefixed by @prefix, e.g. "# "): "interrupted by SIGINT: <what>", what
 * being @fmt's printf(3) text.  A header saying how much ran and a last
 * line saying what the figures are of both take this shape, in this case.
 */
void interrupt_print(FILE *f, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* WSC_CLI_INTERRUPT_H */
