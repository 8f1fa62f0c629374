// SPDX-License-Identifier: MIT
/*
 * wsc trace's report for people, its head: what was traced, how it
 * ended, what the kernel lost or left uncounted, the filters.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/wait.h>

#include "trace.h"

static void print_exit(FILE *f, int status)
{
	if (WIFEXITED(status))
		fprintf(f, " (exited with status %d)", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		fprintf(f, " (killed by signal %d, %s)", WTERMSIG(status),
			strsignal(WTERMSIG(status)));
	else
		fprintf(f, " (wait status %#x)", (unsigned int)status);
}

/* How the trace ended, in words that tell Ctrl-C from --duration. */
static void print_state(FILE *f, const struct trace_report *r)
{
	const struct wsc_trace_status *s = &r->status;

	if (s->state == WSC_TRACE_ACTIVE)
		fputs("still active", f);
	else if (s->state == WSC_TRACE_ENDED && s->end == WSC_TRACE_END_EXITED)
		fputs("ended when every traced task had exited", f);
	else if (r->stop == TRACE_STOP_SIGNAL)
		fprintf(f, "interrupted by SIG%s", sigabbrev_np(r->stop_signal) ?
			sigabbrev_np(r->stop_signal) : "?");
	else if (r->stop == TRACE_STOP_DURATION)
		fputs("stopped after --duration", f);
	else if (s->state == WSC_TRACE_ENDED)
		fprintf(f, "ended: %s", trace_end_name(s->end));
	else
		fputs(trace_state_name(s->state), f);
}

/*
 * What the kernel missed, loudly, and the calls it saw but could not
 * count: each line only when it has something to say.
 */
static void print_losses(FILE *f, const struct wsc_trace_status *s)
{
	uint64_t lost = trace_lost_events(s);
	struct trace_wrap w;

	if (lost) {
		trace_wrap_begin(&w, f, "WARNING: ", 2);
		trace_wrap_item(&w, "", "lost %" PRIu64 ":", lost);
		trace_wrap_item(&w, " ", "%" PRIu64 " task%s not followed,",
			  s->lost_tasks, trace_plural(s->lost_tasks));
		trace_wrap_item(&w, " ", "%" PRIu64 " call%s not counted,",
			  s->lost_calls, trace_plural(s->lost_calls));
		trace_wrap_item(&w, " ", "%" PRIu64 " exit%s never seen,",
			  s->lost_exits, trace_plural(s->lost_exits));
		trace_wrap_item(&w, " ", "%" PRIu64 " call%s in no histogram;",
			  s->lost_hist, trace_plural(s->lost_hist));
		trace_wrap_item(&w, " ", "the figures below miss these");
		trace_wrap_item(&w, " ", "(the kernel follows %" PRIu32 " tasks at "
			  "once and keeps %" PRIu32 " histograms per CPU)",
			  s->task_slots, s->hist_slots);
		trace_wrap_end(&w);
	}
	if (s->unmatched || s->unfinished || s->foreign) {
		trace_wrap_begin(&w, f, "not counted: ", 2);
		if (s->unmatched)
			trace_wrap_item(&w, ", ", "%" PRIu64 " call%s already running "
				  "when the trace began", s->unmatched,
				  trace_plural(s->unmatched));
		if (s->unfinished)
			trace_wrap_item(&w, ", ", "%" PRIu64 " call%s still running "
				  "when it ended", s->unfinished,
				  trace_plural(s->unfinished));
		if (s->foreign)
			trace_wrap_item(&w, ", ", "%" PRIu64 " 32-bit or unknown "
				  "call%s", s->foreign, trace_plural(s->foreign));
		trace_wrap_end(&w);
	}
	if (s->lost_errnos || s->lost_records)
		fprintf(f, "WARNING: breakdowns incomplete: %" PRIu64 " failed "
			"call%s in no per-errno count,\n  %" PRIu64 " task%s with "
			"no per-task record\n", s->lost_errnos,
			trace_plural(s->lost_errnos), s->lost_records,
			trace_plural(s->lost_records));
}

/* The filters and what they left out, when there are any. */
static void print_filters(FILE *f, const struct trace_report *r)
{
	const struct wsc_trace_status *s = &r->status;
	char name[32];

	if (!r->filter[0] && !s->failed && !s->err && !s->filtered)
		return;
	fputs("filters:", f);
	if (r->filter[0])
		fprintf(f, " %s;", r->filter);
	if (s->err)
		fprintf(f, " failed with %s only;",
			trace_errno_name(name, sizeof(name), s->err));
	else if (s->failed)
		fputs(" failed calls only;", f);
	fprintf(f, " %" PRIu64 " call%s left out\n", s->filtered,
		trace_plural(s->filtered));
}

void trace_print_header(FILE *f, const struct trace_report *r)
{
	const struct wsc_trace_status *s = &r->status;
	char dur[TRACE_TIME_LEN];

	fprintf(f, "target: %s", r->target);
	if (r->has_exit)
		print_exit(f, r->exit_status);
	fprintf(f, "\ntrace %" PRIu64 ": %s, ", s->id,
		trace_fmt_time(dur, sizeof(dur), s->duration_ns));
	print_state(f, r);
	fprintf(f, "; %" PRIu64 " task%s; %" PRIu64 " call%s, %" PRIu64
		" error%s\n", s->tasks, trace_plural(s->tasks), r->total_calls,
		trace_plural(r->total_calls), r->total_errors,
		trace_plural(r->total_errors));
	print_losses(f, s);
	if (r->ring && (r->ring_lost || r->ring_pending))
		fprintf(f, "WARNING: io_uring requests not counted: %" PRIu64
			" lost, %" PRIu64 " whose completion was never seen\n",
			r->ring_lost, r->ring_pending);
	print_filters(f, r);
	if (r->total_wrapped)
		fprintf(f, "wrapped: %" PRIu64 " of the calls ran in wsc batches;"
			" each counts once, in its own row, and the batches'\n"
			"  ioctl row is their own time, without the calls they "
			"ran\n", r->total_wrapped);
	fputc('\n', f);
}
