// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/syscall_lat: the human report of what the module measured.
 *
 * Reading never starts a measurement; it prints what is there.  The file
 * is a list of sections, each a header and rows, walked by seq_file one
 * row at a time so that a long report never sits in one buffer.
 */
#include <linux/kernel.h>
#include <linux/nospec.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

#include "wsc.h"

#define WSC_PROC_NAME	"syscall_lat"

/**
 * struct wsc_proc_section - one part of the report
 * @rows:   how many rows it has now
 * @header: print the section's header
 * @row:    print row @i; printing nothing is allowed
 */
struct wsc_proc_section {
	u32 (*rows)(void);
	void (*header)(struct seq_file *m);
	void (*row)(struct seq_file *m, u32 i);
};

/* The wsc section: counts and latency of wrapped calls. */

static u32 wsc_calls_rows(void)
{
	return wsc_nr_calls;
}

static void wsc_calls_header(struct seq_file *m)
{
	struct wsc_call_stats sum, total = {};
	u32 i;

	for (i = 0; i < wsc_nr_calls; i++) {
		wsc_stats_sum_call(i, &sum);
		total.calls += sum.calls;
		total.errors += sum.errors;
		total.timed += sum.timed;
	}
	seq_printf(m, "# wsc: %llu batches, %llu wrapped calls, %llu failed, %llu timed\n",
		   wsc_stats_sum_batches(), total.calls, total.errors,
		   total.timed);
	seq_puts(m, "# latency columns cover the calls of batches submitted with WSC_SUBMIT_TIMING\n");
	seq_printf(m, "%-16s %-9s %12s %10s %12s %10s %12s\n", "call", "group",
		   "calls", "errors", "timed", "mean_ns", "max_ns");
}

static void wsc_calls_row(struct seq_file *m, u32 i)
{
	const struct wsc_call *c;
	struct wsc_call_stats s;

	/* @i comes from the file position: keep speculation in bounds. */
	i = array_index_nospec(i, wsc_nr_calls);
	c = &wsc_calls[i];

	wsc_stats_sum_call(i, &s);
	if (!s.calls)
		return;
	seq_printf(m, "%-16s %-9s %12llu %10llu %12llu %10llu %12llu\n",
		   c->name, wsc_group_name(c->group), s.calls, s.errors,
		   s.timed, s.timed ? div64_u64(s.total_ns, s.timed) : 0,
		   s.max_ns);
}

static const struct wsc_proc_section wsc_proc_sections[] = {
	{ wsc_calls_rows, wsc_calls_header, wsc_calls_row },
};

/*
 * A position names a section and a line in it: line 0 is the header,
 * line n + 1 is row n.  Sections are walked in order.
 */
struct wsc_proc_pos {
	u32 section;
	u32 line;
};

static bool wsc_proc_locate(loff_t pos, struct wsc_proc_pos *p)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(wsc_proc_sections); i++) {
		loff_t lines = 1 + (loff_t)wsc_proc_sections[i].rows();

		if (pos < lines) {
			p->section = i;
			p->line = pos;
			return true;
		}
		pos -= lines;
	}
	return false;
}

static void *wsc_proc_start(struct seq_file *m, loff_t *pos)
{
	struct wsc_proc_pos *p = m->private;

	return wsc_proc_locate(*pos, p) ? p : NULL;
}

static void *wsc_proc_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return wsc_proc_start(m, pos);
}

static void wsc_proc_stop(struct seq_file *m, void *v)
{
}

static int wsc_proc_show(struct seq_file *m, void *v)
{
	const struct wsc_proc_pos *p = v;
	const struct wsc_proc_section *s = &wsc_proc_sections[p->section];

	if (p->line == 0) {
		if (p->section)
			seq_putc(m, '\n');
		s->header(m);
	} else {
		s->row(m, p->line - 1);
	}
	return 0;
}

static const struct seq_operations wsc_proc_seq_ops = {
	.start	= wsc_proc_start,
	.next	= wsc_proc_next,
	.stop	= wsc_proc_stop,
	.show	= wsc_proc_show,
};

int wsc_proc_init(void)
{
	struct proc_dir_entry *pde;

	pde = proc_create_seq_private(WSC_PROC_NAME, 0444, NULL,
				      &wsc_proc_seq_ops,
				      sizeof(struct wsc_proc_pos), NULL);
	return pde ? 0 : -ENOMEM;
}

void wsc_proc_exit(void)
{
	remove_proc_entry(WSC_PROC_NAME, NULL);
}
