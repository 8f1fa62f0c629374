// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/syscall_lat: the human report of what the module measured.
 *
 * Reading never starts a measurement; it prints what is there.  The file
 * is a list of sections, each a header and rows, walked by seq_file one
 * row at a time so that a long report never sits in one buffer.
 */
#include <linux/capability.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

#include "wsc.h"
#include "calls.h"
#include "lab.h"
#include "proc.h"
#include "stats.h"
#include "symbols.h"
#include "trace.h"

#define WSC_PROC_NAME	"syscall_lat"

/* Power-of-two histogram buckets: [2^k, 2^(k+1)) for k = 0..63. */
#define WSC_PROC_LOG2		64

/**
 * struct wsc_proc_lat - what the report shows of one result
 * @present: the experiment had a result
 * @fig:     its figures, copied
 * @log2:    its histogram merged over CPUs into powers of two
 * @log2_lo: first non-empty power-of-two bucket
 * @log2_n:  power-of-two buckets from the first to the last non-empty one
 */
struct wsc_proc_lat {
	bool present;
	struct wsc_lat_figures fig;
	u64 log2[WSC_PROC_LOG2];
	u32 log2_lo;
	u32 log2_n;
};

/**
 * struct wsc_proc_trace - what the report shows of the trace
 * @st:     its status (@st.cgroup points to @cgroup)
 * @cgroup: its target cgroup's path, cut to fit
 * @nr:     the system calls it saw, in number order
 * @sum:    their figures
 * @rows:   entries in @nr and @sum
 */
struct wsc_proc_trace {
	struct wsc_trace_report st;
	char cgroup[64];
	u16 nr[NR_syscalls];
	struct wsc_trace_sum sum[NR_syscalls];
	u32 rows;
};

/**
 * struct wsc_proc_iter - one open file's view of the report
 * @section: the section of the current line
 * @line:    the line in it: 0 is the header, n + 1 is row n
 * @taken:   the fields below hold a snapshot
 * @status:  the lab's state when the snapshot was taken
 * @lat:     each experiment's result then
 * @trace:   the trace's status and per-call figures then (kvmalloc'd at
 *           open: 15 KiB)
 * @privileged: the opener had CAP_PERFMON or CAP_SYS_ADMIN, so the
 *           per-call rows of wrapped calls and of the trace are shown (the
 *           latencies of other users' calls)
 *
 * The lab's part of the report comes from a snapshot taken when reading
 * starts at offset 0, so that a run finishing in the middle of a read
 * cannot mix two results in one section.  The snapshot is a copy: an open
 * file holds no result, so it keeps no samples in memory.
 */
struct wsc_proc_iter {
	u32 section;
	u32 line;
	bool taken;
	struct wsc_lat_status status;
	struct wsc_proc_lat lat[WSC_NR_EXPERIMENTS];
	struct wsc_proc_trace *trace;
	bool privileged;
};

/**
 * struct wsc_proc_section - one part of the report
 * @rows:   how many rows it has now
 * @header: print the section's header (a section after the first starts
 *          with an empty line); printing nothing is allowed
 * @row:    print row @i; printing nothing is allowed
 * @arg:    passed to each, e.g. which experiment
 */
struct wsc_proc_section {
	u32 (*rows)(struct wsc_proc_iter *it, unsigned int arg);
	void (*header)(struct seq_file *m, struct wsc_proc_iter *it,
		       unsigned int arg);
	void (*row)(struct seq_file *m, struct wsc_proc_iter *it,
		    unsigned int arg, u32 i);
	unsigned int arg;
};

/* The wsc section: counts and latency of wrapped calls. */

/*
 * The per-call rows tell what other users' programs did and how long it
 * took: shown, as the trace's rows are, only to a reader with
 * CAP_PERFMON or CAP_SYS_ADMIN.  The totals are for everyone.
 */
static u32 wsc_calls_rows(struct wsc_proc_iter *it, unsigned int arg)
{
	return it->privileged ? wsc_nr_calls : 0;
}

static void wsc_calls_header(struct seq_file *m, struct wsc_proc_iter *it,
			     unsigned int arg)
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
	if (!it->privileged) {
		seq_puts(m, "# (its per-call rows need CAP_PERFMON or CAP_SYS_ADMIN)\n");
		return;
	}
	seq_puts(m, "# latency columns cover the calls of batches submitted with WSC_SUBMIT_TIMING\n");
	seq_printf(m, "%-16s %-9s %12s %10s %12s %10s %12s\n", "call", "group",
		   "calls", "errors", "timed", "mean_ns", "max_ns");
}

static void wsc_calls_row(struct seq_file *m, struct wsc_proc_iter *it,
			  unsigned int arg, u32 i)
{
	const struct wsc_call *c;
	struct wsc_call_stats s;

	/* @i comes from the file position: keep speculation in bounds. */
	i = array_index_nospec(i, wsc_nr_calls);
	c = &wsc_calls[i];

	wsc_stats_sum_call(i, &s);
	if (!s.calls)
		return;
	seq_printf(m, "%-16s %-9s %12llu %10llu %12llu", c->name,
		   wsc_calls_group_name(c->group), s.calls, s.errors, s.timed);
	/*
	 * A call never timed has no latency: "-", which no reader can take
	 * for a call that took 0 ns.
	 */
	if (s.timed)
		seq_printf(m, " %10llu %12llu\n",
			   div64_u64(s.total_ns, s.timed), s.max_ns);
	else
		seq_printf(m, " %10s %12s\n", "-", "-");
}

/* The lab's state: idle, or what is running. */

static u32 wsc_lab_rows(struct wsc_proc_iter *it, unsigned int arg)
{
	return 0;
}

static void wsc_lab_header(struct seq_file *m, struct wsc_proc_iter *it,
			   unsigned int arg)
{
	const struct wsc_lat_status *st = &it->status;
	u32 i;

	if (!st->running) {
		seq_puts(m, "\n# lab: idle\n");
		return;
	}
	seq_printf(m, "\n# lab: running %s (run %llu) on CPU",
		   wsc_experiments[st->req.exp].name, st->run_id);
	for (i = 0; i < st->req.nr_cpus; i++)
		seq_printf(m, "%s%u", i ? "," : " ", st->req.cpu[i]);
	seq_printf(m, ", %u iterations, for %llu ms; its result is not shown until it ends\n",
		   st->req.iterations,
		   div_u64(ktime_get_ns() - st->started_ns, NSEC_PER_MSEC));
}

/* The trace: its state, then one row per system call it saw. */

static u32 wsc_proc_trace_rows(struct wsc_proc_iter *it, unsigned int arg)
{
	return it->privileged ? it->trace->rows : 0;
}

static const char *const wsc_proc_trace_end[] = {
	[WSC_TRACE_END_NONE]	= "active",
	[WSC_TRACE_END_STOPPED]	= "stopped",
	[WSC_TRACE_END_EXITED]	= "ended: every traced task exited",
};

static void wsc_proc_trace_header(struct seq_file *m, struct wsc_proc_iter *it,
				  unsigned int arg)
{
	const struct wsc_trace_report *st = &it->trace->st;

	if (st->state == WSC_TRACE_IDLE) {
		seq_puts(m, "\n# trace: idle\n");
		return;
	}
	seq_printf(m, "\n# trace %llu: %s", st->id,
		   st->state == WSC_TRACE_ACTIVE ? "active" :
		   wsc_proc_trace_end[st->end]);
	if (st->cgroup)
		seq_printf(m, ", cgroup %s", st->cgroup);
	else if (st->all)
		seq_puts(m, ", every task");
	else
		seq_printf(m, ", pid %d and descendants", st->pid);
	seq_printf(m, ", %llu ms, %llu tasks followed (%u now)\n",
		   div_u64(st->duration_ns, NSEC_PER_MSEC), st->tasks, st->live);
	seq_printf(m, "# lost: %llu tasks, %llu calls, %llu exits, %llu from histograms; %llu unmatched, %llu unfinished, %llu 32-bit\n",
		   st->lost_tasks, st->lost_calls, st->lost_exits,
		   st->lost_hist, st->unmatched, st->unfinished, st->foreign);
	if (!it->privileged) {
		seq_puts(m, "# (its per-call rows need CAP_PERFMON or CAP_SYS_ADMIN)\n");
		return;
	}
	seq_puts(m, "# total_ns: each call's own time; a batch's ioctl leaves out the calls it ran, which count as wrapped in their own rows\n");
	seq_printf(m, "%-5s %-28s %12s %10s %16s %12s %16s %12s\n", "nr",
		   "handler", "calls", "errors", "total_ns", "mean_ns",
		   "max_ns", "wrapped");
}

static void wsc_proc_trace_row(struct seq_file *m,
			       struct wsc_proc_iter *it, unsigned int arg, u32 i)
{
	const struct wsc_trace_sum *s = &it->trace->sum[i];
	unsigned int nr = it->trace->nr[i];

	seq_printf(m, "%-5u %-28s %12llu %10llu %16llu %12llu %16llu %12llu\n",
		   nr, wsc_handler_name(nr) ?: "?", s->calls, s->errors,
		   s->total_ns, div64_u64(s->total_ns, s->calls), s->max_ns,
		   s->wrapped);
}

/* Copy what the report shows of the trace, if there is one. */
static void wsc_proc_trace_take(struct wsc_proc_trace *pt)
{
	struct wsc_trace_session *t = wsc_trace_session_get(0, NULL);
	unsigned int nr;

	memset(&pt->st, 0, sizeof(pt->st));
	pt->rows = 0;
	if (!t)
		return;
	wsc_trace_session_report(t, &pt->st);
	if (pt->st.cgroup) {
		strscpy(pt->cgroup, pt->st.cgroup, sizeof(pt->cgroup));
		pt->st.cgroup = pt->cgroup;
	}
	for (nr = 0; nr < wsc_trace_nr_calls() && nr < NR_syscalls; nr++)
		if (wsc_trace_row(t, nr, &pt->sum[pt->rows]))
			pt->nr[pt->rows++] = nr;
	wsc_trace_session_put(t);
}

/* One section per experiment with a result. */

static void wsc_proc_ps(struct seq_file *m, u64 ps)
{
	seq_printf(m, " %9llu.%03llu", div_u64(ps, 1000), ps % 1000);
}

/* @ps less the clock's cost, never below zero. */
static u64 wsc_proc_net(u64 ps, u64 clock_ps)
{
	return ps > clock_ps ? ps - clock_ps : 0;
}

static void wsc_lat_figures(struct seq_file *m, const char *label,
			    const struct wsc_summary *s, u64 clock_ps)
{
	seq_printf(m, "%-6s %12llu", label, s->count);
	wsc_proc_ps(m, wsc_proc_net(s->mean_ps, clock_ps));
	wsc_proc_ps(m, wsc_proc_net(s->median_ps, clock_ps));
	wsc_proc_ps(m, s->stddev_ps);
	wsc_proc_ps(m, wsc_proc_net(s->min_ps, clock_ps));
	wsc_proc_ps(m, wsc_proc_net(s->max_ps, clock_ps));
	wsc_proc_ps(m, wsc_proc_net(s->ci95_lo_ps, clock_ps));
	wsc_proc_ps(m, wsc_proc_net(s->ci95_hi_ps, clock_ps));
	wsc_proc_ps(m, wsc_proc_net(s->p50_ps, clock_ps));
	wsc_proc_ps(m, wsc_proc_net(s->p95_ps, clock_ps));
	wsc_proc_ps(m, wsc_proc_net(s->p99_ps, clock_ps));
	seq_putc(m, '\n');
}

static u32 wsc_lat_rows(struct wsc_proc_iter *it, unsigned int exp)
{
	return it->lat[exp].log2_n;
}

static void wsc_lat_header(struct seq_file *m, struct wsc_proc_iter *it,
			   unsigned int exp)
{
	const struct wsc_lat_figures *r = &it->lat[exp].fig;
	const struct wsc_experiment *e = &wsc_experiments[exp];
	u32 i;

	if (!it->lat[exp].present)
		return;
	seq_printf(m, "\n# lab %s: %s\n", e->name, e->what);
	seq_printf(m, "# run %llu on CPU", r->run_id);
	for (i = 0; i < r->req.nr_cpus; i++)
		seq_printf(m, "%s%u", i ? "," : " ", r->req.cpu[i]);
	seq_printf(m, ": %u iterations, %llu samples, %llu errors (negative, not kept), %u warm-up iterations discarded, %llu ms\n",
		   r->req.iterations, r->sum.count, r->errors, r->warmup,
		   div_u64(r->duration_ns, NSEC_PER_MSEC));
	seq_printf(m, "# clock: a ktime_get_ns() pair costs %llu.%03llu ns (median, same CPU, same run); net = raw - clock\n",
		   div_u64(r->timer_ps, 1000), r->timer_ps % 1000);
	seq_printf(m, "%-6s %12s %13s %13s %13s %13s %13s %13s %13s %13s %13s %13s\n",
		   "ns", "count", "mean", "median", "stddev", "min", "max",
		   "ci95_lo", "ci95_hi", "p50", "p95", "p99");
	wsc_lat_figures(m, "raw", &r->sum, 0);
	wsc_lat_figures(m, "net", &r->sum, r->timer_ps);
	if (r->block_ops)
		seq_printf(m, "# block: %u operations timed together cost %llu.%03llu ns each (median of %u blocks)\n",
			   r->block_ops, div_u64(r->block_ps, 1000),
			   r->block_ps % 1000, WSC_LAT_BLOCKS);
	seq_printf(m, "# histogram of the raw samples, all CPUs: %s %s %s\n",
		   "low_ns", "high_ns", "count");
}

static void wsc_lat_row(struct seq_file *m, struct wsc_proc_iter *it,
			unsigned int exp, u32 i)
{
	const struct wsc_proc_lat *l = &it->lat[exp];
	u32 k = array_index_nospec(l->log2_lo + i, WSC_PROC_LOG2);
	u64 low = k ? 1ULL << k : 0;
	u64 high = (1ULL << k << 1) - 1;

	seq_printf(m, "%20llu %20llu %12llu\n", low, high, l->log2[k]);
}

/* Copy what the report shows of @r, its buckets merged into powers of two. */
static void wsc_proc_copy(struct wsc_proc_lat *l, const struct wsc_lat_result *r)
{
	u32 i, b, lo = WSC_PROC_LOG2, hi = 0;

	memset(l, 0, sizeof(*l));
	if (!r)
		return;
	l->present = true;
	l->fig = r->fig;
	for (i = 0; i < r->fig.req.nr_cpus; i++)
		for (b = 0; b < WSC_HIST_BUCKETS; b++)
			l->log2[wsc_hist_log2(b)] += r->hist[i][b];
	for (b = 0; b < WSC_PROC_LOG2; b++) {
		if (!l->log2[b])
			continue;
		lo = min(lo, b);
		hi = b;
	}
	if (lo < WSC_PROC_LOG2) {
		l->log2_lo = lo;
		l->log2_n = hi - lo + 1;
	}
}

static void wsc_proc_take(struct wsc_proc_iter *it)
{
	struct wsc_lat_result *result[WSC_NR_EXPERIMENTS];
	unsigned int i;

	wsc_lat_snapshot(&it->status, result);
	for (i = 0; i < WSC_NR_EXPERIMENTS; i++) {
		wsc_proc_copy(&it->lat[i], result[i]);
		wsc_lat_put(result[i]);
	}
	wsc_proc_trace_take(it->trace);
	it->taken = true;
}

/* Only the id of each experiment: the rest of its row is not needed. */
#define WSC_PROC_LAB_SECTION(id, ...) \
	{ wsc_lat_rows, wsc_lat_header, wsc_lat_row, WSC_EXP_##id },

static const struct wsc_proc_section wsc_proc_sections[] = {
	{ wsc_calls_rows, wsc_calls_header, wsc_calls_row, 0 },
	{ wsc_lab_rows, wsc_lab_header, NULL, 0 },
	WSC_FOR_EACH_EXPERIMENT(WSC_PROC_LAB_SECTION)
	{ wsc_proc_trace_rows, wsc_proc_trace_header, wsc_proc_trace_row, 0 },
};

static bool wsc_proc_locate(struct wsc_proc_iter *it, loff_t pos)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(wsc_proc_sections); i++) {
		const struct wsc_proc_section *s = &wsc_proc_sections[i];
		loff_t lines = 1 + (loff_t)s->rows(it, s->arg);

		if (pos < lines) {
			it->section = i;
			it->line = pos;
			return true;
		}
		pos -= lines;
	}
	return false;
}

static void *wsc_proc_start(struct seq_file *m, loff_t *pos)
{
	struct wsc_proc_iter *it = m->private;

	if (*pos == 0 || !it->taken)
		wsc_proc_take(it);
	return wsc_proc_locate(it, *pos) ? it : NULL;
}

static void *wsc_proc_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct wsc_proc_iter *it = m->private;

	++*pos;
	return wsc_proc_locate(it, *pos) ? it : NULL;
}

static void wsc_proc_stop(struct seq_file *m, void *v)
{
}

static int wsc_proc_show(struct seq_file *m, void *v)
{
	struct wsc_proc_iter *it = v;
	const struct wsc_proc_section *s = &wsc_proc_sections[it->section];

	if (it->line == 0)
		s->header(m, it, s->arg);
	else
		s->row(m, it, s->arg, it->line - 1);
	return 0;
}

static const struct seq_operations wsc_proc_seq_ops = {
	.start	= wsc_proc_start,
	.next	= wsc_proc_next,
	.stop	= wsc_proc_stop,
	.show	= wsc_proc_show,
};

static int wsc_proc_open(struct inode *inode, struct file *file)
{
	struct wsc_proc_iter *it;
	int err;

	err = seq_open_private(file, &wsc_proc_seq_ops,
			       sizeof(struct wsc_proc_iter));
	if (err)
		return err;
	it = ((struct seq_file *)file->private_data)->private;
	it->trace = kvzalloc(sizeof(*it->trace), GFP_KERNEL_ACCOUNT);
	if (!it->trace) {
		seq_release_private(inode, file);
		return -ENOMEM;
	}
	/* The opener's capabilities, as with perf: not the reader's. */
	it->privileged = perfmon_capable();
	return 0;
}

static int wsc_proc_release(struct inode *inode, struct file *file)
{
	struct wsc_proc_iter *it =
		((struct seq_file *)file->private_data)->private;

	kvfree(it->trace);
	return seq_release_private(inode, file);
}

static const struct proc_ops wsc_proc_ops = {
	.proc_open	= wsc_proc_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= wsc_proc_release,
};

int wsc_proc_init(void)
{
	struct proc_dir_entry *pde;

	pde = proc_create(WSC_PROC_NAME, 0444, NULL, &wsc_proc_ops);
	return pde ? 0 : -ENOMEM;
}

void wsc_proc_exit(void)
{
	remove_proc_entry(WSC_PROC_NAME, NULL);
}
