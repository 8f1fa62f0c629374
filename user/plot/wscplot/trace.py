# SPDX-License-Identifier: GPL-2.0
"""user/plot/wsc-plot trace and trace-buckets: the JSON of `wsc trace --json`.

Per system call of a workload, "syscalls" holds a row: its "group" (the
kind of call of "Nature of System Calls", the paper of that title),
counts, percentiles and "hist", the latency histogram as [low_ns,
high_ns, count] log-linear buckets.  trace overlays a call's histogram
across workloads and splits each workload's time by group (the groups as
the rows name them, the largest share first); trace-buckets redraws one
call in the power-of-two microsecond buckets of the EPCM prefetching
paper, e.g. a hot run against a cold one.  "trace" holds the kernel's
counts of what it could not follow, the lost_* keys, which a title shows
in red.  A trace taken with --ring also has a row per io_uring opcode
("ring": true, named "ring:READ"): requests, not system calls, so they
stay out of the shares and the --top choice, as they stay out of wsc
trace's total, and are drawn when named (--calls ring:READ, --call).
"""
import argparse
import math
import re
from pathlib import Path

from .common import (Palette, PlotError, environment_stamp, field, fmt_ns, fmt_time,
                     import_matplotlib, is_int, legend_outside, load_json, log_ns_axis,
                     make_outdir, merge_stamps, mpl, new_figure, note, remove_stale,
                     save_png, shown)

# The papers the figures follow, by their short titles.
GROUPS_PAPER = "Nature of System Calls"
BUCKETS_PAPER = "the EPCM prefetching paper"

# The keys under "trace" that count a part of the workload not counted.
LOST = "lost_"
# Latency bins of the trace figures: this many per octave, equal on a log axis.
PER_OCTAVE = 4
# How many system calls of each file `plot trace` draws by default.
TRACE_TOP = 6
# A workload's histogram of a call is drawn from this many calls on: of
# fewer, a fraction per bin is noise (one call is a bar of height 1).
MIN_HIST_CALLS = 10
# A system call's name becomes part of a file name.
SYSCALL_NAME = re.compile(r"[A-Za-z0-9_]+")
# io_uring's requests of one opcode (wsc trace --ring), e.g. ring:READ.
RING_NAME = re.compile(r"ring:[A-Za-z0-9_]+")


def read_hist(path, hist, where):
    """Check HIST, a list of [low_ns, high_ns, count] in ascending order,
    the buckets not overlapping; return it as a list of tuples."""
    buckets = []
    for j, b in enumerate(hist):
        if not (isinstance(b, list) and len(b) == 3 and all(is_int(v) and v >= 0 for v in b)):
            raise PlotError(f"{path}: {where}hist[{j}] is {shown(b)}, expected "
                            "[low_ns, high_ns, count] of integers >= 0")
        low, high, count = b
        if low > high:
            raise PlotError(f"{path}: {where}hist[{j}]: low_ns {low} > high_ns {high}")
        if buckets and low <= buckets[-1][1]:
            raise PlotError(f"{path}: {where}hist[{j}]: low_ns {low} not above "
                            f"hist[{j - 1}]'s high_ns {buckets[-1][1]}")
        buckets.append((low, high, count))
    return buckets


def read_trace_json(path):
    """Return the document of `wsc trace --json` in PATH, checked; its
    "syscalls" as {name: {"name", "group", "calls", "total_ns", "p50_ns",
    "p99_ns", "hist": [(low_ns, high_ns, count), ...], "where"}}, in the
    file's order, under "calls"; the rows of io_uring's requests alike
    under "requests"."""
    doc = load_json(path)
    field(path, doc, "lost", "count")
    field(path, doc, "syscalls", "list")
    if "target" in doc:
        field(path, doc, "target", "str")
    trace = doc.get("trace")
    if trace is not None:
        if not isinstance(trace, dict):
            raise PlotError(f"{path}: \"trace\" is not an object")
        for key in trace:
            if key.startswith(LOST):
                field(path, trace, key, "count", "trace: ")
    if not doc["syscalls"]:
        raise PlotError(f"{path}: \"syscalls\" is empty")
    calls, requests = {}, {}
    for i, rec in enumerate(doc["syscalls"]):
        where = f"syscalls[{i}]: "
        if not isinstance(rec, dict):
            raise PlotError(f"{path}: {where}not an object")
        name = field(path, rec, "name", "str", where)
        ring = rec.get("ring") is True
        if not (RING_NAME if ring else SYSCALL_NAME).fullmatch(name):
            raise PlotError(f"{path}: {where}\"name\" is {shown(name)}, expected "
                            + ("ring: and letters, digits and _ (a \"ring\" row)" if ring
                               else "letters, digits and _"))
        seen = requests if ring else calls
        if name in seen:
            raise PlotError(f"{path}: {where}{name} again (also {seen[name]['where']})")
        where = f"syscalls[{i}] ({name}): "
        row = {"name": name, "where": f"syscalls[{i}]",
               "group": field(path, rec, "group", "str", where),
               "calls": field(path, rec, "calls", "count", where),
               "total_ns": field(path, rec, "total_ns", "ns", where),
               # Older files have no split: their time is wall clock only.
               "on_cpu_ns": (field(path, rec, "on_cpu_ns", "ns", where)
                             if "on_cpu_ns" in rec else None),
               "off_cpu_ns": (field(path, rec, "off_cpu_ns", "ns", where)
                              if "off_cpu_ns" in rec else None),
               "p50_ns": field(path, rec, "p50_ns", "ns", where),
               "p99_ns": field(path, rec, "p99_ns", "ns", where),
               "hist": read_hist(path, field(path, rec, "hist", "list", where), where)}
        row["hist_calls"] = sum(b[2] for b in row["hist"])
        row["ring"] = ring
        seen[name] = row
    if not calls:
        raise PlotError(f"{path}: \"syscalls\" has io_uring's requests but no system call")
    doc["calls"] = calls
    doc["requests"] = requests
    return doc


def named(doc, name):
    """DOC's row of NAME, a system call's or io_uring's requests', or None."""
    return doc["calls"].get(name) or doc["requests"].get(name)


def file_name(name):
    """NAME in a file's name: ring:READ as ring-READ."""
    return name.replace(":", "-")


def trace_hist(path, row):
    """ROW's buckets, which must hold calls: a figure needs some."""
    if not row["hist_calls"]:
        raise PlotError(f"{path}: {row['where']} ({row['name']}): \"hist\" is empty")
    return row["hist"]


def trace_flags(doc):
    """What the title must shout about DOC: calls or tasks the kernel lost."""
    trace = doc.get("trace") or {}
    parts = [f"{n:,} {k[len(LOST):]}" for k, n in trace.items() if k.startswith(LOST) and n]
    if not doc["lost"] and not parts:
        return ""
    return "LOST" + (f" {doc['lost']:,}" if doc["lost"] else "") \
        + (f" ({', '.join(parts)})" if parts else "")


def trace_title(fig, text, workloads):
    """Title FIG with TEXT, in red naming the workloads with lost counts."""
    flags = [f"{w['label']}: {w['flags']}" for w in workloads if w["flags"]]
    if flags:
        fig.suptitle(f"{'; '.join(flags)}\n{text}", color="red", fontweight="bold")
    else:
        fig.suptitle(text)


def trace_workloads(args):
    """Read every FILE of ARGS; return [{"path", "label", "doc", "flags"}]."""
    labels = args.label or []
    if labels and len(labels) != len(args.files):
        args.usage(f"{len(labels)} --label for {len(args.files)} files: give one per file")
    workloads = []
    seen = {}
    for i, name in enumerate(args.files):
        path = Path(name)
        doc = read_trace_json(path)
        label = labels[i] if labels else path.stem
        if label in seen:
            raise PlotError(f"{path}: its label {label!r} is {seen[label]}'s too: "
                            "give each file a --label")
        seen[label] = path
        workloads.append({"path": path, "label": label, "doc": doc,
                          "flags": trace_flags(doc), "stamp": environment_stamp(path, doc)})
    return workloads


def octave_bins(hist):
    """Merge log-linear buckets into PER_OCTAVE bins an octave: return
    {bin: count}, bin b covering [2^(b/PER_OCTAVE), 2^((b+1)/PER_OCTAVE)) ns.

    A bucket goes whole to the bin of its midpoint: above 32 ns a bucket is
    1/32 of an octave wide (at most 3%), so only the calls of a bucket that
    straddles a bin's edge can land one bin off.  A bucket at 0 ns joins
    the bin at 1 ns, the lowest a log axis shows.
    """
    bins = {}
    for low, high, count in hist:
        mid = max((low + high) / 2, 1)
        b = math.floor(math.log2(mid) * PER_OCTAVE + 1e-9)
        bins[b] = bins.get(b, 0) + count
    return bins


def too_few(row):
    """Whether ROW's call was made too few times for a histogram."""
    return row["calls"] < MIN_HIST_CALLS


def plural(n, word):
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def plot_trace_call(name, workloads, path):
    """NAME's latency histogram in each workload that made it often enough,
    overlaid; a workload that made it fewer than MIN_HIST_CALLS times is
    named in the legend with its calls' p50 and p99, not drawn (one call is
    a bar of height 1 that says nothing of a distribution)."""
    np = mpl.np
    made = [(i, w, named(w["doc"], name)) for i, w in enumerate(workloads)
            if named(w["doc"], name)]
    drawn = [(i, w, row) for i, w, row in made if not too_few(row)]
    ring = made[0][2]["ring"]
    # A request's latency is its submission to its completion, not a call's.
    unit, latency = (("request", "submission to completion") if ring
                     else ("call", "latency in the kernel"))
    binned = [octave_bins(trace_hist(w["path"], row)) for _, w, row in drawn]
    lo = min(min(b) for b in binned)
    hi = max(max(b) for b in binned)
    edges = 2.0 ** (np.arange(lo, hi + 2) / PER_OCTAVE)
    # Taller by a legend line per workload, the legend below the axes.
    fig = new_figure(8, 4.3 + 0.2 * len(workloads),
                     stamp=merge_stamps(w["stamp"] for w in workloads))
    ax = fig.add_subplot()
    top = 0
    for k, ((i, w, row), bins) in enumerate(zip(drawn, binned)):
        colour = f"C{i % 10}"
        frac = np.array([bins.get(b, 0) for b in range(lo, hi + 1)]) / row["hist_calls"]
        top = max(top, frac.max())
        ax.stairs(frac, edges, color=colour, fill=True, alpha=0.15)
        ax.stairs(frac, edges, color=colour, linewidth=1.5,
                  label=f"{w['label']}: {plural(row['calls'], unit)}, "
                  f"p50 {fmt_ns(row['p50_ns'])}, p99 {fmt_ns(row['p99_ns'])}")
        # The percentiles as small carets along the top, one row per workload.
        y = 0.975 - 0.035 * k
        for pct, face in (("p50_ns", colour), ("p99_ns", "white")):
            ax.plot(max(row[pct], 1), y, marker="v", markersize=6, color=colour,
                    markerfacecolor=face, transform=ax.get_xaxis_transform(),
                    clip_on=False, linestyle="none")
    for i, w, row in made:
        if too_few(row):
            ax.plot([], [], color=f"C{i % 10}", linestyle="none", marker="x",
                    label=f"{w['label']}: {plural(row['calls'], unit)}, p50 "
                    f"{fmt_ns(row['p50_ns'])}, p99 {fmt_ns(row['p99_ns'])} "
                    f"(fewer than {MIN_HIST_CALLS}: no histogram)")
    for i, w in enumerate(workloads):
        if not named(w["doc"], name):
            ax.plot([], [], color=f"C{i % 10}", label=f"{w['label']}: no {name} {unit}s")
    log_ns_axis(ax)
    ax.set_xlim(edges[0], edges[-1])
    ax.set_xlabel(f"{latency} (▼ p50, ▽ p99)")
    ax.set_ylabel(f"fraction of the workload's {name} {unit}s")
    # Room above the bars for the carets' rows.
    ax.set_ylim(0, top / (0.95 - 0.035 * len(drawn)))
    ax.grid(True, which="major", alpha=0.3)
    # Below the axes: inside, a legend hid a workload's p99 caret.
    legend_outside(ax, "below", frameon=False)
    group = drawn[0][2]["group"]
    trace_title(fig, f"{name} ({group}): {latency}, "
                f"{PER_OCTAVE} bins per octave", workloads)
    return save_png(fig, path)


def group_order(times):
    """The groups of TIMES ({group: ns} per workload), the largest share of
    a workload's time (summed over the workloads) first."""
    share = {}
    for per in times:
        total = sum(per.values()) or 1
        for g, ns in per.items():
            share[g] = share.get(g, 0) + ns / total
    return sorted(share, key=lambda g: (-share[g], g))


# --time: which of a row's times the share figure splits, and its words.
TIMES = {
    "cpu": ("on_cpu_ns", "time on the CPU in system calls"),
    "wall": ("total_ns", "time in system calls, entry to exit"),
    "off": ("off_cpu_ns", "time off the CPU in system calls (blocked or waiting)"),
}


def row_time(w, row, time):
    """ROW's time of kind TIME (TIMES), or its wall time when W's file
    predates the split (noted once per file)."""
    ns = row[TIMES[time][0]]
    if ns is not None:
        return ns
    if not w.get("noted_split"):
        note(f"trace: {w['path']} has no on/off-CPU split (an older wsc): "
             "its share is of wall time")
        w["noted_split"] = True
    return row["total_ns"]


def plot_trace_share(workloads, time, path):
    """Per workload, a bar split by group: its share of the TIME in system calls."""
    np = mpl.np
    times = []
    for w in workloads:
        per = {}
        for row in w["doc"]["calls"].values():
            per[row["group"]] = per.get(row["group"], 0) + row_time(w, row, time)
        times.append(per)
    groups = group_order(times)
    palette = Palette(groups)
    fig = new_figure(9, 1.5 + 0.7 * len(workloads),
                     stamp=merge_stamps(w["stamp"] for w in workloads))
    ax = fig.add_subplot()
    y = np.arange(len(workloads))
    left = np.zeros(len(workloads))
    totals = np.array([sum(per.values()) for per in times], dtype=float)
    for g in groups:
        share = np.array([per.get(g, 0) for per in times]) / np.where(totals > 0, totals, 1) * 100
        ax.barh(y, share, 0.6, left=left, color=palette(g), label=g)
        for yi, (x, s) in enumerate(zip(left, share)):
            if s >= 4:
                ax.text(x + s / 2, yi, f"{s:.0f}%", ha="center", va="center", fontsize="small")
        left += share
    ax.set_yticks(y, [f"{w['label']}\n{sum(r['calls'] for r in w['doc']['calls'].values()):,} "
                      f"calls, {fmt_ns(t)}" for w, t in zip(workloads, totals)],
                  fontsize="small")
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel(f"share of the {TIMES[time][1]}, %")
    rows = -(-len(groups) // 6)
    legend_outside(ax, "above", ncols=-(-len(groups) // rows), frameon=False)
    trace_title(fig, f"wsc trace: where the {TIMES[time][1]} went,\nby the groups of "
                f"\"{GROUPS_PAPER}\"", workloads)
    return save_png(fig, path)


def trace_selection(args, workloads):
    """The system calls to draw: --calls, or each file's --top by total_ns."""
    if args.calls:
        for name in args.calls:
            if not any(named(w["doc"], name) for w in workloads):
                raise PlotError(f"no file has a system call {name!r} (--calls)")
        return list(dict.fromkeys(args.calls))
    chosen = {}
    for w in workloads:
        rows = w["doc"]["calls"].values()
        total = sum(r["total_ns"] for r in rows) or 1
        for r in sorted(rows, key=lambda r: -r["total_ns"])[:args.top]:
            chosen[r["name"]] = max(chosen.get(r["name"], 0), r["total_ns"] / total)
    # The largest share in any workload first.
    return sorted(chosen, key=lambda n: -chosen[n])


def run_trace(args):
    workloads = trace_workloads(args)
    names = trace_selection(args, workloads)
    # Check every histogram to draw before drawing anything.
    for name in names:
        for w in workloads:
            row = named(w["doc"], name)
            if row is not None and not too_few(row):
                trace_hist(w["path"], row)
    out = Path(args.outdir) if args.outdir else workloads[0]["path"].parent
    import_matplotlib()
    make_outdir(out)
    for name in names:
        path = out / f"trace-{file_name(name)}.png"
        rows = [(w, named(w["doc"], name)) for w in workloads if named(w["doc"], name)]
        few = [f"{w['label']} {plural(row['calls'], 'call')}" for w, row in rows
               if too_few(row)]
        if len(few) < len(rows):
            if few:
                note(f"trace: {path.name}: no histogram of {', '.join(few)} "
                     f"(fewer than {MIN_HIST_CALLS} calls)")
            yield plot_trace_call(name, workloads, path)
            continue
        note(f"trace: no {path.name}: {name} was made fewer than {MIN_HIST_CALLS} "
             f"times in every file ({', '.join(few)}), too few for a histogram")
        remove_stale(path, "trace")
    yield plot_trace_share(workloads, args.time, out / "trace-share.png")


def call_list(text):
    """--calls read,write: the names, each a system call's (or ring:OP)."""
    names = [n.strip() for n in text.split(",")]
    for n in names:
        if not (SYSCALL_NAME.fullmatch(n) or RING_NAME.fullmatch(n)):
            raise argparse.ArgumentTypeError(f"{n!r} is not a system call's name")
    return names


def one_call(text):
    """--call read: one system call's name (or ring:OP)."""
    if not (SYSCALL_NAME.fullmatch(text) or RING_NAME.fullmatch(text)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a system call's name")
    return text


def positive(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer >= 1")
    return n


def add_trace_inputs(p, what):
    p.add_argument("files", metavar="FILE.json", nargs="+",
                   help="the output of wsc trace --json, one per workload")
    p.add_argument("-o", "--outdir", metavar="OUTDIR",
                   help="where to write the PNGs (default: the first FILE's folder)")
    p.add_argument("--label", action="append", metavar="LABEL",
                   help=f"the name of a FILE's workload in the {what}, once per FILE "
                   "in their order (default: each FILE's name without .json)")
    p.set_defaults(usage=p.error)


def add_trace(commands):
    p = commands.add_parser(
        "trace", help="wsc trace: latency histograms per system call, workloads overlaid",
        description="From each FILE, written by `wsc trace --json` for one workload, "
        "draw trace-<call>.png for each system call chosen: its latency histogram "
        f"in each workload overlaid ({PER_OCTAVE} bins per octave on a log axis, "
        "the height the fraction of the workload's calls of it), with carets at "
        "each workload's p50 and p99; a workload that made the call fewer than "
        f"{MIN_HIST_CALLS} times is named in the legend, not drawn, and a call no "
        "workload made that often gets no figure (a line on stderr says so); and trace-share.png: per workload, the "
        f"share of its system call time (--time) in each group of \"{GROUPS_PAPER}\".  "
        "A title in red names the workloads whose trace lost calls or tasks.")
    add_trace_inputs(p, "legends")
    p.add_argument("--time", choices=sorted(TIMES), default="cpu",
                   help="the time trace-share.png splits: on the CPU (cpu, default, as "
                   "wsc trace's share), entry to exit (wall), or blocked and waiting (off)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--calls", type=call_list, metavar="CALL,...",
                       help="draw these system calls, or the io_uring requests of a "
                       "--ring trace as ring:OP (default: the union of each "
                       f"FILE's top {TRACE_TOP} system calls by total time)")
    which.add_argument("--top", type=positive, default=TRACE_TOP, metavar="N",
                       help=f"draw each FILE's top N by total time (default {TRACE_TOP})")
    p.set_defaults(run=run_trace)


def us_bucket(ns):
    """The microsecond bucket of NS: 0 for <= 1 µs, else k for (2^(k-1), 2^k] µs."""
    k = 0
    while ns > 1000 << k:
        k += 1
    return k


def us_bucket_label(k):
    """The EPCM paper's labels: "<=1", "1-2", "3-4", "5-8", "9-16", ... (µs)."""
    if k <= 1:
        return "<=1" if k == 0 else "1-2"
    return f"{(1 << (k - 1)) + 1}-{1 << k}"


def us_buckets(hist):
    """{bucket: count} of HIST's log-linear buckets in us_bucket()'s buckets.

    A log-linear bucket goes whole to the bucket of its midpoint; it is at
    most 3% wide (above 32 ns, 1/32 of an octave), so only the calls of the
    one that straddles each power of two can be put one bucket off.
    """
    buckets = {}
    for low, high, count in hist:
        k = us_bucket((low + high) / 2)
        buckets[k] = buckets.get(k, 0) + count
    return buckets


def bucket_tick(k):
    """Bucket K's label under a bar: us_bucket_label()'s µs up to 1 ms;
    beyond, each end in its own unit, the unit said once when they share
    it ("1.02-2.05 ms", "524 ms-1.05 s"): never more than four digits."""
    if k <= 10:
        return f"{us_bucket_label(k)} µs"
    low, high = fmt_time(((1 << (k - 1)) + 1) * 1000), fmt_time((1 << k) * 1000)
    low_value, low_unit = low.split(" ")
    high_value, high_unit = high.split(" ")
    if low_unit == high_unit:
        return f"{low_value}-{high_value} {high_unit}"
    return f"{low}-{high}"


def bucket_table(call, workloads, counts, top):
    """The table of COUNTS, for people and for the docs to quote."""
    width = max(10, *(len(w["label"]) + 2 for w in workloads))
    # The bucket column as wide as its longest label, "16385-32768".
    first = max(9, len(us_bucket_label(top)) + 2)
    unit = "requests" if RING_NAME.fullmatch(call) else "calls"
    lines = [f"{call}: {unit} per latency bucket (µs), and % of the workload's {call} {unit}",
             f"{'bucket':<{first}}" + "".join(f"{w['label']:>{width}}{'%':>8}" for w in workloads)]
    totals = [sum(c.values()) for c in counts]
    for k in range(top + 1):
        lines.append(f"{us_bucket_label(k):<{first}}" + "".join(
            f"{c.get(k, 0):>{width},}{(100 * c.get(k, 0) / t if t else 0):>8.2f}"
            for c, t in zip(counts, totals)))
    lines.append(f"{'total':<{first}}" + "".join(f"{t:>{width},}{(100 if t else 0):>8.2f}"
                                           for t in totals))
    return "\n".join(lines)


def plot_trace_buckets(call, workloads, counts, top, fraction, path):
    """Grouped bars: one group per µs bucket, one bar per workload."""
    unit = "requests" if RING_NAME.fullmatch(call) else "calls"
    np = mpl.np
    fig = new_figure(min(14, max(8, 0.3 * (top + 1) * len(workloads) + 2.5)), 5,
                     stamp=merge_stamps(w["stamp"] for w in workloads))
    ax = fig.add_subplot()
    width = 0.8 / len(workloads)
    x = np.arange(top + 1)
    for i, (w, c) in enumerate(zip(workloads, counts)):
        total = sum(c.values())
        heights = np.array([c.get(k, 0) for k in x], dtype=float)
        if fraction:
            heights = heights / total if total else heights
        bars = ax.bar(x + (i - (len(workloads) - 1) / 2) * width, heights, width,
                      color=f"C{i % 10}", label=f"{w['label']}: {total:,} {call} {unit}")
        if len(workloads) <= 3:
            ax.bar_label(bars, [(f"{h:.3f}" if fraction else f"{h:,.0f}") if h else ""
                                for h in heights], fontsize="x-small", padding=2, rotation=90)
    # Slanted: a bucket's label is wider than its group of bars.
    ax.set_xticks(x, [bucket_tick(k) for k in x], rotation=40, ha="right",
                  rotation_mode="anchor", fontsize="small")
    ax.set_xlabel("submission to completion" if unit == "requests" else "latency in the kernel")
    ax.set_ylabel(f"fraction of the workload's {call} {unit}" if fraction
                  else f"{call} {unit}")
    ax.margins(y=0.15)
    ax.grid(True, axis="y", alpha=0.3)
    legend_outside(ax)
    trace_title(fig, f"{call}: latency in power-of-two µs buckets, as in {BUCKETS_PAPER}",
                workloads)
    return save_png(fig, path)


def run_trace_buckets(args):
    workloads = trace_workloads(args)
    call = args.call
    if not any(named(w["doc"], call) for w in workloads):
        raise PlotError(f"no file has a system call {call!r} (--call)")
    counts = []
    for w in workloads:
        row = named(w["doc"], call)
        if row is None:
            note(f"trace-buckets: {w['path']} has no {call} calls")
            counts.append({})
        else:
            counts.append(us_buckets(trace_hist(w["path"], row)))
    top = max(max(c) for c in counts if c)
    out = Path(args.outdir) if args.outdir else workloads[0]["path"].parent
    import_matplotlib()
    make_outdir(out)
    print(bucket_table(call, workloads, counts, top), flush=True)
    yield plot_trace_buckets(call, workloads, counts, top, args.fraction,
                             out / f"trace-buckets-{file_name(call)}.png")


def add_trace_buckets(commands):
    p = commands.add_parser(
        "trace-buckets", help="wsc trace: one call's latency in µs buckets, bars per workload",
        description="From each FILE, written by `wsc trace --json` for one workload "
        f"(say a hot and a cold run), draw trace-buckets-CALL.png, the chart of {BUCKETS_PAPER}: "
        "the latency of CALL in power-of-two microsecond buckets (<=1, 1-2, 3-4, 5-8, "
        "... µs), a group of bars per bucket, a bar per workload; and print the "
        "table of its counts.")
    add_trace_inputs(p, "legend and table")
    p.add_argument("--call", default="read", type=one_call, metavar="CALL",
                   help="the system call, or ring:OP for io_uring's requests "
                   "(default: read)")
    p.add_argument("--fraction", action="store_true",
                   help="bar heights are fractions of the workload's CALL calls, not counts")
    p.set_defaults(run=run_trace_buckets)


