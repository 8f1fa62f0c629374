# SPDX-License-Identifier: GPL-2.0
"""user/plot/wsc-plot klat: the JSON of `wsc klat EXPERIMENT --json` (one result)
or `wsc klat show --json` ({"results": [...]}), and the raw samples its
--csv wrote.

A result holds an experiment's statistics in ns (min, median, mean, p95,
p99, max) and "timer_ns", the clock's own cost measured in the same run:
every sample includes it.  The figure draws a row per experiment, in the
order of the files, on a log time axis: its distribution when its raw
samples are given, its percentiles always, and the clock's cost shaded,
so a reader sees at once how much of a short primitive is the timer.
"""
import argparse
from pathlib import Path

from .common import (PlotError, environment_stamp, field, fmt_time, import_matplotlib,
                     load_json, log_time_axis, make_outdir, merge_stamps, mpl, new_figure,
                     save_png, shown)

KLAT_PNG = "klat.png"
# The statistics of a result the figure shows.
STATS = ("min_ns", "median_ns", "mean_ns", "p95_ns", "p99_ns", "max_ns")
# Bins of a panel's distribution: this many per decade, on the log axis.
PER_DECADE = 40


def read_result(path, rec, where):
    """Check one result of wsc klat; return {"experiment", stats..., "timer_ns"}."""
    if not isinstance(rec, dict):
        raise PlotError(f"{path}: {where}not an object, {shown(rec)}")
    result = {"experiment": field(path, rec, "experiment", "str", where),
              "count": field(path, rec, "count", "count", where)}
    for key in STATS:
        result[key] = float(field(path, rec, key, "ns", where))
    if not result["min_ns"] <= result["median_ns"] <= result["max_ns"]:
        raise PlotError(f"{path}: {where}min_ns <= median_ns <= max_ns does not hold")
    result["timer_ns"] = float(field(path, rec, "timer_ns", "ns", where))
    net = rec.get("net_median_ns")
    result["net_median_ns"] = float(field(path, rec, "net_median_ns", "ns", where)) \
        if net is not None else None
    return result


def read_klat_json(path):
    """Return ([result, ...], stamp) of one file of wsc klat --json."""
    doc = load_json(path)
    if "results" in doc:
        records = field(path, doc, "results", "list")
        if not records:
            raise PlotError(f"{path}: \"results\" is empty: no experiment has a kept "
                            "result (run one with wsc klat EXPERIMENT first)")
        results = [read_result(path, rec, f"results[{i}]: ") for i, rec in enumerate(records)]
    elif "experiment" in doc:
        results = [read_result(path, doc, "")]
    else:
        raise PlotError(f"{path}: neither \"experiment\" nor \"results\": not the output "
                        "of wsc klat --json")
    return results, environment_stamp(path, doc)


def read_samples(path):
    """The ns column of a wsc klat --csv file (header index,ns), as floats."""
    np = mpl.np
    try:
        with open(path, encoding="utf-8") as f:
            header = f.readline().strip()
            if header.split(",") != ["index", "ns"]:
                raise PlotError(f"{path}: header {header!r}, expected 'index,ns' "
                                "(wsc klat --csv)")
            try:
                data = np.loadtxt(f, delimiter=",", usecols=1, ndmin=1)
            except ValueError as e:
                raise PlotError(f"{path}: not lines of index,ns: {e}") from e
    except OSError as e:
        raise PlotError(f"{path}: {e.strerror}") from e
    if data.size == 0:
        raise PlotError(f"{path}: no samples")
    return data


def sample_spec(text):
    """--samples EXPERIMENT=FILE."""
    name, sep, file = text.partition("=")
    if not sep or not name or not file:
        raise argparse.ArgumentTypeError(f"{text!r} is not EXPERIMENT=FILE")
    return name, file


def panel_range(r, ns):
    """The x range of R's panel: from below its min and the clock's cost to
    above its p99 (and its samples' p99.9): a far max is written, not drawn."""
    np = mpl.np
    # A clock ten times cheaper than the fastest sample is written, not drawn.
    near = r["timer_ns"] * 10 >= r["min_ns"]
    lo = max(min(r["min_ns"], r["timer_ns"]) if near else r["min_ns"], 1) / 1.4
    hi = r["p99_ns"] * 1.6
    if ns is not None:
        hi = max(hi, float(np.percentile(ns, 99.9)) * 1.2)
    return lo, max(hi, lo * 10)


# The lines every panel draws, named once in the figure's key.
MARKS = (("median_ns", "black", "-", "median"), ("p95_ns", "black", "--", "p95"),
         ("p99_ns", "black", ":", "p99"), ("mean_ns", "C1", "-", "mean"))


def plot_experiment(ax, r, ns):
    """R's panel: its samples' distribution (NS, when given), a line per
    statistic, the clock's cost shaded; every number in the title, above
    the data (a legend or a box inside the panel hid a p99)."""
    np = mpl.np
    lo, hi = panel_range(r, ns)
    ax.axvspan(lo, max(r["timer_ns"], lo), color="0.8", linewidth=0)
    if ns is not None:
        edges = np.logspace(np.log10(lo), np.log10(hi),
                            int(np.log10(hi / lo) * PER_DECADE) + 2)
        counts, _ = np.histogram(ns, bins=edges)
        ax.stairs(counts / ns.size, edges, fill=True, color="C0", alpha=0.6)
        ax.set_ylabel("fraction of samples", fontsize="small")
    else:
        ax.set_yticks([])
    for key, colour, style, _ in MARKS:
        ax.axvline(r[key], color=colour, linestyle=style, linewidth=1.2)
    ax.set_xlim(lo, hi)
    log_time_axis(ax, "x", "")
    ax.grid(True, axis="x", which="major", alpha=0.3)
    stats = " · ".join(f"{name} {fmt_time(r[key])}" for key, _, _, name in MARKS)
    more = [f"min {fmt_time(r['min_ns'])}",
            f"max {fmt_time(r['max_ns'])}" + (" (off the axis)" if r["max_ns"] > hi else "")]
    if r["net_median_ns"] is not None:
        more.append(f"median net of the clock {fmt_time(r['net_median_ns'])}")
    clock = f"clock {fmt_time(r['timer_ns'])}" + (" (left of the axis)" if r["timer_ns"] < lo
                                                  else "")
    ax.set_title(f"{r['experiment']}: n = {r['count']:,}, {clock}\n{stats}\n"
                 f"{' · '.join(more)}", fontsize="small")


def plot_klat(results, samples, stamp, path):
    """A panel per experiment, each on its own log time axis, under one key."""
    cols = 1 if len(results) == 1 else 2
    rows = -(-len(results) // cols)
    fig = new_figure(6.2 * cols, 1.3 + 3.1 * rows, stamp=stamp)
    grid = fig.add_gridspec(rows + 1, cols, height_ratios=[0.15] + [1] * rows)
    key = fig.add_subplot(grid[0, :])
    key.axis("off")
    handles = [mpl.Patch(color="0.8"), mpl.Patch(color="C0", alpha=0.6)]
    labels = ["the clock's own cost (in every sample)",
              f"raw samples, {PER_DECADE} bins a decade"]
    for _, colour, style, name in MARKS:
        handles.append(mpl.Line2D([], [], color=colour, linestyle=style, linewidth=1.2))
        labels.append(name)
    key.legend(handles, labels, loc="center", ncols=6 if cols > 1 else 3, fontsize="small",
               frameon=False)
    axes = [fig.add_subplot(grid[1 + i // cols, i % cols]) for i in range(rows * cols)]
    for ax, r in zip(axes, results):
        plot_experiment(ax, r, samples.get(r["experiment"]))
    for ax in axes[len(results):]:
        ax.set_visible(False)
    for ax in axes[max(len(results) - cols, 0):len(results)]:
        ax.set_xlabel("time per sample, raw (the clock's cost, shaded, is in each)")
    fig.suptitle("wsc klat: the latency lab's experiments, each beside the cost of its "
                 "clock", fontsize="medium")
    return save_png(fig, path)


def run_klat(args):
    results, stamps, seen = [], [], {}
    for name in args.files:
        path = Path(name)
        found, stamp = read_klat_json(path)
        stamps.append(stamp)
        for r in found:
            if r["experiment"] in seen:
                raise PlotError(f"{path}: experiment {r['experiment']} again (also in "
                                f"{seen[r['experiment']]})")
            seen[r["experiment"]] = path
            results.append(r)
    wanted = {}
    for experiment, file in args.samples or ():
        if experiment not in seen:
            args.usage(f"--samples {experiment}={file}: no file has experiment "
                       f"{experiment!r}")
        wanted[experiment] = Path(file)
    out = Path(args.outdir) if args.outdir else Path(args.files[0]).parent
    import_matplotlib()
    samples = {e: read_samples(f) for e, f in wanted.items()}
    make_outdir(out)
    yield plot_klat(results, samples, merge_stamps(stamps), out / KLAT_PNG)


def add_klat(commands):
    p = commands.add_parser(
        "klat", help="wsc klat: each experiment's distribution beside the clock's cost",
        description=f"From each FILE, written by `wsc klat EXPERIMENT --json` or `wsc klat "
        f"show --json`, draw {KLAT_PNG}: a panel per experiment on a log time axis with "
        "its median, mean, p95 and p99 (their values, min, max and the median net of the "
        "clock in the panel's title), the distribution of its raw samples when "
        "given (--samples, from wsc klat --csv), and the clock's own cost (timer_ns, "
        "in every raw sample) shaded; stamped with the machine it was measured on.")
    p.add_argument("files", metavar="FILE.json", nargs="+",
                   help="the output of wsc klat --json")
    p.add_argument("--samples", action="append", type=sample_spec,
                   metavar="EXPERIMENT=FILE",
                   help="the raw samples of EXPERIMENT, a file of wsc klat --csv "
                   "(repeatable)")
    p.add_argument("-o", "--outdir", metavar="OUTDIR",
                   help="where to write the PNG (default: the first FILE's folder)")
    p.set_defaults(run=run_klat, usage=p.error)
