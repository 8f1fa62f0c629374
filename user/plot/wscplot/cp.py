# SPDX-License-Identifier: GPL-2.0
"""user/plot/wsc-plot cp and cp-sweep: the JSON of `wsc cp --json` and of
`wsc cp --sweep threshold|n --json`.

wsc cp's "results" hold one record per portion it timed ("portion",
"program", "part", the median, min and max, "ratio" to the "baseline"
portion); a sweep's "points" one record per program and swept value.
The programs' order and colours are the order of the portions (for a
sweep, of the points); the parts' order that of their first portion;
what a sweep varies, the settings its points and document share.  Every
comparison drawn is computed from the medians (the baseline's / the
program's, above 1 = faster); a file's "ratio" (or "speedup") serves
only to find a sweep's baseline, the program whose value is 1.
"""
import json
from pathlib import Path

from .common import (PROG, Palette, PlotError, environment_stamp, field,
                     import_matplotlib, is_number, load_json, make_outdir, mpl, new_figure,
                     note, remove_stale, save_png, speedup_words, time_unit)


def timing(path, rec, where):
    """Check REC's median_ns, min_ns, max_ns and its "speedup" or "ratio"
    (either name: which way it runs is not read); return them."""
    median, lo, hi = (field(path, rec, k, "ns", where) for k in ("median_ns", "min_ns", "max_ns"))
    if not lo <= median <= hi:
        raise PlotError(f"{path}: {where}min_ns {lo} <= median_ns {median} <= max_ns {hi} "
                        "does not hold")
    key = "speedup" if "speedup" in rec else "ratio"
    return median, lo, hi, field(path, rec, key, "ns", where, null=True)


def read_events(path, rec, where):
    """Return REC's "events" as {event: count or None}, or None when not available
    (a string saying why, or no "events" at all)."""
    events = rec.get("events")
    if events is None or isinstance(events, str):
        return None
    if not isinstance(events, dict):
        raise PlotError(f"{path}: {where}\"events\" is neither an object nor a string")
    for name, count in events.items():
        if count is not None and not is_number(count):
            raise PlotError(f"{path}: {where}event \"{name}\" is {json.dumps(count)}, "
                            "expected a finite number or null")
    return events


def read_cp_json(path):
    """Return the document of `wsc cp --json` in PATH, checked; its
    "results" sorted by portion, each with its "events" as read_events()'s."""
    doc = load_json(path)
    if "sweep" in doc:
        raise PlotError(f"{path}: written by wsc cp --sweep: draw it with {PROG} cp-sweep")
    for key, kind in (("verified", "bool"), ("n", "positive"), ("threshold", "count"),
                      ("size", "count"), ("repetitions", "positive"), ("cold", "bool"),
                      ("filesystem", "str"), ("results", "list")):
        field(path, doc, key, kind)
    if "failed" in doc:
        field(path, doc, "failed", "count")
    if not doc["results"]:
        raise PlotError(f"{path}: \"results\" is empty")
    results = []
    seen = {}
    for i, rec in enumerate(doc["results"]):
        where = f"results[{i}]: "
        if not isinstance(rec, dict):
            raise PlotError(f"{path}: {where}not an object")
        portion = field(path, rec, "portion", "positive", where)
        if portion in seen:
            raise PlotError(f"{path}: {where}portion {portion} again "
                            f"(also results[{seen[portion]}])")
        seen[portion] = i
        median, lo, hi, ratio = timing(path, rec, where)
        results.append({"program": field(path, rec, "program", "str", where),
                        "portion": portion,
                        "part": field(path, rec, "part", "str", where),
                        "baseline": field(path, rec, "baseline", "positive", where),
                        "median_ns": median, "min_ns": lo, "max_ns": hi, "ratio": ratio,
                        "events": read_events(path, rec, where)})
    doc["results"] = sorted(results, key=lambda r: r["portion"])
    return doc


def red_flags(doc):
    """What the title must shout about DOC: not verified, failed transactions."""
    flags = [] if doc["verified"] else ["NOT VERIFIED"]
    if doc.get("failed"):
        flags.append(f"{doc['failed']} FAILED")
    return flags


def cp_title(fig, text, doc):
    flags = red_flags(doc)
    if flags:
        fig.suptitle(f"{' + '.join(flags)}: {text}", color="red", fontweight="bold")
    else:
        fig.suptitle(text)


def cp_setting(doc):
    """The title's account of how a `wsc cp` run was made."""
    fs = f", {doc['filesystem']}" if isinstance(doc.get("filesystem"), str) else ""
    cache = ""
    if isinstance(doc.get("cold"), bool):
        cache = ", cold cache" if doc["cold"] else ", hot cache"
    reps = doc["repetitions"]
    return f"{doc['size']:,} B files, {reps} repetition{'s' if reps != 1 else ''}{cache}{fs}"


def part_order(results):
    """The parts in RESULTS, each with its results, in the order of their
    first portion."""
    parts = {}
    for rec in results:
        parts.setdefault(rec["part"], []).append(rec)
    return sorted(parts.items(), key=lambda kv: kv[1][0]["portion"])


def tick_label(rec):
    """PORTION over PROGRAM, the program broken after its "+" to fit a bar."""
    return f"{rec['portion']}\n{rec['program'].replace('+', '+' + chr(10))}"


def ratio_title(recs):
    """Which portion each comparison in RECS is to, e.g.
    "against portion 6 (for 6, 7), 8 (for 8, 9)"."""
    of = {}
    for r in recs:
        of.setdefault(r["baseline"], []).append(str(r["portion"]))
    if len(of) == 1:
        return f"against portion {next(iter(of))}"
    return "against portion " + ", ".join(f"{b} (for {', '.join(p)})" for b, p in of.items())


def portion_speedup(rec, by_portion):
    """How much faster REC is than its baseline portion, from the medians;
    None for the baseline itself or when the baseline is missing."""
    base = by_portion.get(rec["baseline"])
    if base is None or base is rec or rec["median_ns"] <= 0:
        return None
    return base["median_ns"] / rec["median_ns"]


def plot_cp_portions(doc, palette, stamp, path):
    """Table 3 of "Impact of Wrapped System Call Mechanism" (the WSC paper)
    as bars: one per portion, a panel per part."""
    results = doc["results"]
    by_portion = {r["portion"]: r for r in results}
    parts = part_order(results)
    unit, scale = time_unit(max(r["median_ns"] for r in results))
    fig = new_figure(max(8, 1.05 * len(results) + 1.5), 5.8, stamp=stamp)
    axes = fig.subplots(1, len(parts), squeeze=False,
                        width_ratios=[len(recs) for _, recs in parts])[0]
    for ax, (part, recs) in zip(axes, parts):
        x = range(len(recs))
        heights = [r["median_ns"] / scale for r in recs]
        err = [[(r["median_ns"] - r["min_ns"]) / scale for r in recs],
               [(r["max_ns"] - r["median_ns"]) / scale for r in recs]]
        ax.bar(x, heights, 0.7, yerr=err, capsize=3, ecolor="0.3",
               color=[palette(r["program"]) for r in recs])
        for i, r in enumerate(recs):
            speedup = portion_speedup(r, by_portion)
            text = "baseline" if r["portion"] == r["baseline"] else speedup_words(speedup)
            if text:
                ax.annotate(text, (i, r["max_ns"] / scale), xytext=(0, 3),
                            textcoords="offset points", ha="center", va="bottom",
                            fontsize="x-small", rotation=90)
        ax.set_xticks(x, [tick_label(r) for r in recs], fontsize="small")
        top = max(r["max_ns"] for r in recs) / scale
        ax.set_ylim(0, top * 1.35 if top > 0 else 1)
        ax.set_title(f"{part}\n{ratio_title(recs)}", fontsize="medium")
        ax.grid(True, axis="y", alpha=0.3)
    axes[0].set_ylabel(f"{unit} for {doc['n']:,} transactions (median, bar min..max)")
    cp_title(fig, f"wsc cp: {doc['n']:,} transactions, threshold {doc['threshold']}, "
             f"{cp_setting(doc)}; above a bar: its median against its part's baseline",
             doc)
    return save_png(fig, path)


def cp_event_names(doc):
    """The events counted, in the order "counters" lists them, or first seen."""
    names = [c for c in doc.get("counters", []) if isinstance(c, str)] \
        if isinstance(doc.get("counters"), list) else []
    for rec in doc["results"]:
        for name in rec["events"] or ():
            if name not in names:
                names.append(name)
    return names


def fmt_count(value):
    """An event count for an axis: "850", "1.5k", "6M", "1.2G"."""
    for suffix, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(value) >= scale:
            return f"{value / scale:.3g}{suffix}"
    return f"{value:.3g}"


def plot_cp_events(doc, palette, stamp, path):
    """Per hardware event, a small bar chart of its count in each portion."""
    results = [r for r in doc["results"] if r["events"] is not None]
    names = cp_event_names(doc)
    # One cell more than the events, for the legend.
    cols = min(3, len(names) + 1)
    rows = -(-(len(names) + 1) // cols)
    fig = new_figure(max(8, 0.35 * len(results) * cols + 1), 2.8 * rows + 1.2, stamp=stamp)
    axes = list(fig.subplots(rows, cols, squeeze=False).flat)
    for ax, name in zip(axes, names):
        present = [(i, r) for i, r in enumerate(results) if r["events"].get(name) is not None]
        ax.bar([i for i, _ in present], [r["events"][name] for _, r in present], 0.7,
               color=[palette(r["program"]) for _, r in present])
        ax.set_xticks(range(len(results)), [str(r["portion"]) for r in results],
                      fontsize="small")
        ax.set_title(name, fontsize="medium")
        ax.grid(True, axis="y", alpha=0.3)
        # Counts as 6M, not as 6 under a "1e6" the eye misses.
        ax.yaxis.set_major_formatter(mpl.FuncFormatter(lambda v, _: fmt_count(v)))
        ax.set_xlabel("portion", fontsize="small")
    programs = palette.sorted({r["program"] for r in results})
    handles = [mpl.Patch(color=palette(p)) for p in programs]
    key = axes[len(names)]
    key.axis("off")
    key.legend(handles, programs, loc="center", fontsize="small", title="program")
    for ax in axes[len(names) + 1:]:  # the grid's cells left over
        ax.set_visible(False)
    cp_title(fig, f"wsc cp: hardware events over {doc['n']:,} transactions, "
             f"threshold {doc['threshold']}", doc)
    return save_png(fig, path)


def run_cp(args):
    path = Path(args.file)
    doc = read_cp_json(path)
    out = Path(args.outdir) if args.outdir else path.parent
    import_matplotlib()
    make_outdir(out)
    # A program keeps its colour in both figures: the k-th to run the k-th.
    palette = Palette(r["program"] for r in doc["results"])
    stamp = environment_stamp(path, doc)
    yield plot_cp_portions(doc, palette, stamp, out / "cp-portions.png")
    events = out / "cp-events.png"
    if any(r["events"] for r in doc["results"]):
        yield plot_cp_events(doc, palette, stamp, events)
        return
    # "counters" says why, e.g. "not available: no PMU".
    why = doc.get("counters")
    if not (isinstance(why, str) and why.startswith("not available")):
        why = "not available" + (f" ({why})" if isinstance(why, str) else "")
    note(f"cp: no {events.name}: hardware events {why}")
    remove_stale(events, "cp")


def add_cp(commands):
    p = commands.add_parser(
        "cp", help="the portions of wsc cp as bars (Table 3 of \"Impact of Wrapped "
        "System Call Mechanism\")",
        description="From FILE, written by `wsc cp --json`, draw cp-portions.png: "
        "one bar per measured portion, a panel per part (open-close, read-write, "
        "write), its height the median time of the N transactions, the error bar "
        "from min to max, above it how much faster or slower than the part's "
        "baseline portion it is (from the medians).  When "
        "the results hold hardware events, draw cp-events.png too: per event, its "
        "count in each portion.")
    p.add_argument("file", metavar="FILE.json", help="the output of wsc cp --json")
    p.add_argument("-o", "--outdir", metavar="OUTDIR",
                   help="where to write the PNGs (default: FILE's folder)")
    p.set_defaults(run=run_cp)


# ---- cp-sweep ----------------------------------------------------------------

def sweep_settings(path, doc):
    """The settings a sweep can vary: the keys its points and its document
    share ("threshold", "n"), the document's null where the points vary."""
    points = doc["points"]
    if not points:
        raise PlotError(f"{path}: \"points\" is empty")
    if not isinstance(points[0], dict):
        raise PlotError(f"{path}: points[0]: not an object")
    return [k for k in points[0] if k in doc]


def ratio_baseline(lines):
    """The program the ratios are to: the one whose every ratio is 1 (so
    whichever way the file's ratios run)."""
    for program, pts in lines.items():
        ratios = [pt[5] for pt in pts if pt[5] is not None]
        if ratios and all(abs(r - 1) < 5e-4 for r in ratios):
            return program
    return None


def crossover_programs(doc):
    """The programs whose median stays below the baseline's from N =
    crossover_n on and not at the N swept before it: what crossover_n says."""
    crossover, base = doc.get("crossover_n"), doc["baseline"]
    if crossover is None or base is None:
        return []
    ref = {pt[0]: pt[2] for pt in doc["lines"][base]}
    found = []
    for program, pts in doc["lines"].items():
        below = {pt[0]: pt[2] < ref[pt[0]] for pt in pts if pt[0] in ref}
        if program == base or crossover not in below:
            continue
        before = [x for x in below if x < crossover]
        if all(b for x, b in below.items() if x >= crossover) \
                and not (before and below[max(before)]):
            found.append(program)
    return found


def read_sweep_json(path):
    """Return the document of `wsc cp --sweep ... --json` in PATH, checked;
    its "points" as {program: [(x, n, median, min, max, ratio), ...] sorted
    by x} under "lines", in the points' order; the program the ratios are
    to under "baseline" (None if it did not run)."""
    doc = load_json(path)
    if "sweep" not in doc and "results" in doc:
        raise PlotError(f"{path}: no \"sweep\": written by wsc cp without --sweep? "
                        f"draw it with {PROG} cp")
    sweep = field(path, doc, "sweep", "str")
    field(path, doc, "points", "list")
    settings = sweep_settings(path, doc)
    if sweep not in settings:
        raise PlotError(f"{path}: \"sweep\" is {json.dumps(sweep)}, expected "
                        + " or ".join(f'"{s}"' for s in settings))
    for key, kind in (("verified", "bool"), ("size", "count"), ("repetitions", "positive")):
        field(path, doc, key, kind)
    for key in settings:
        field(path, doc, key, "positive" if key == "n" else "count", null=key == sweep)
    if sweep == "n":
        field(path, doc, "crossover_n", "positive", null=True)
    doc["settings"] = settings
    lines = {}
    for i, rec in enumerate(doc["points"]):
        where = f"points[{i}]: "
        if not isinstance(rec, dict):
            raise PlotError(f"{path}: {where}not an object")
        program = field(path, rec, "program", "str", where)
        # A log2 axis has no place for 0: the swept value is at least 1.
        x = field(path, rec, sweep, "positive", where)
        n = field(path, rec, "n", "positive", where)
        line = lines.setdefault(program, {})
        if x in line:
            raise PlotError(f"{path}: {where}{program} at {sweep} {x} again")
        line[x] = (x, n, *timing(path, rec, where))
    doc["lines"] = {p: sorted(line.values()) for p, line in lines.items()}
    doc["baseline"] = ratio_baseline(doc["lines"])
    return doc


def setting_label(key, value):
    return f"N = {value:,} transactions" if key == "n" else f"{key} {value}"


def log2_axis(ax, values, label):
    ax.set_xscale("log", base=2)
    ax.set_xticks(values, [f"{v:,}" for v in values])
    ax.xaxis.set_minor_formatter(mpl.FuncFormatter(lambda x, _: ""))
    ax.set_xlabel(label)


def sweep_speedups(pts, ref):
    """PTS' speedups over the baseline REF ({x: median}) where both ran."""
    return [ref[pt[0]] / pt[2] for pt in pts if pt[0] in ref and pt[2] > 0]


def speedup_range(speedups):
    """ "1.2x faster .. 1.1x slower": the least and the most of SPEEDUPS."""
    if not speedups:
        return ""
    lo, hi = min(speedups), max(speedups)
    if speedup_words(lo) == speedup_words(hi):
        return speedup_words(lo)
    return f"{speedup_words(lo)} to {speedup_words(hi)}"


def plot_cp_sweep(doc, stamp, path):
    """Small multiples: a panel per program, its time per transaction
    (median, band min..max) against the swept value, the baseline's median
    in grey in every other panel, and how much faster or slower than the
    baseline the program is over the sweep in the panel's title."""
    sweep = doc["sweep"]
    lines = doc["lines"]
    base = doc["baseline"]
    palette = Palette(lines)
    values = sorted({pt[0] for pts in lines.values() for pt in pts})
    label = "N (transactions)" if sweep == "n" else sweep
    # pt: (x, n, median, min, max, ratio); per transaction.
    unit, scale = time_unit(max(pt[2] / pt[1] for pts in lines.values() for pt in pts))
    top = max(pt[4] / pt[1] for pts in lines.values() for pt in pts) / scale
    cols = min(3, len(lines))
    rows = -(-len(lines) // cols)
    fig = new_figure(4.2 * cols + 0.6, 2.6 * rows + 1.6, stamp=stamp)
    # A key above the panels, once: in each panel, a legend hid its points.
    grid = fig.add_gridspec(rows + 1, cols, height_ratios=[0.12] + [1] * rows)
    key = fig.add_subplot(grid[0, :])
    key.axis("off")
    axes = grid[1:, :].subgridspec(rows, cols).subplots(squeeze=False, sharex=True,
                                                        sharey=True)
    ref = {pt[0]: pt[2] for pt in lines[base]} if base is not None else {}
    crossover = doc.get("crossover_n") if sweep == "n" else None
    for ax, (program, pts) in zip(axes.flat, lines.items()):
        colour = palette(program)
        x = [pt[0] for pt in pts]
        per = [[pt[k] / pt[1] / scale for pt in pts] for k in (2, 3, 4)]
        if base is not None and program != base:
            bx = [pt[0] for pt in lines[base]]
            ax.plot(bx, [pt[2] / pt[1] / scale for pt in lines[base]], "--", color="0.45",
                    linewidth=1.2, label=f"{base} (baseline)")
        ax.fill_between(x, per[1], per[2], color=colour, alpha=0.2, linewidth=0,
                        label="min..max")
        ax.plot(x, per[0], "o-", color=colour, markersize=3.5, label="median")
        if crossover is not None:
            ax.axvline(crossover, color="black", linestyle=":", linewidth=1.2)
        if program == base:
            title = f"{program}: the baseline"
        elif base is None:
            title = program
        else:
            title = f"{program}\n{speedup_range(sweep_speedups(pts, ref))} than {base}"
        ax.set_title(title, fontsize="small")
        ax.grid(True, alpha=0.3)
    for ax in axes.flat[len(lines):]:
        ax.set_visible(False)
    for ax in axes.flat:
        ax.set_xscale("log", base=2)
        ax.set_xticks(values, [f"{v:,}" for v in values], fontsize="small")
        ax.xaxis.set_minor_formatter(mpl.FuncFormatter(lambda x, _: ""))
    axes[0][0].set_ylim(0, top * 1.05 if top > 0 else 1)
    for ax in axes[:, 0]:
        ax.set_ylabel(f"{unit} per transaction", fontsize="small")
    last = len(lines) - 1
    for i, ax in enumerate(axes.flat):
        if i <= last and i + cols > last:
            ax.set_xlabel(label, fontsize="small")
            ax.xaxis.set_tick_params(labelbottom=True)
    handles = [mpl.Line2D([], [], color="0.3", marker="o", markersize=3.5),
               mpl.Patch(color="0.3", alpha=0.2)]
    labels = ["median, the panel's program", "min..max"]
    if base is not None and len(lines) > 1:
        handles.insert(0, mpl.Line2D([], [], color="0.45", linestyle="--", linewidth=1.2))
        labels.insert(0, f"{base} (the baseline)")
    if crossover is not None:
        handles.append(mpl.Line2D([], [], color="black", linestyle=":", linewidth=1.2))
        labels.append(f"crossover, N = {crossover:,}")
    key.legend(handles, labels, loc="center", ncols=len(labels), fontsize="small",
               frameon=False)
    fixed = ", ".join(setting_label(k, doc[k]) for k in doc["settings"] if k != sweep)
    text = f"wsc cp --sweep {sweep}: {fixed}, {cp_setting(doc)}"
    if sweep == "n":
        if crossover is None:
            text += f"\nno crossover up to N = {values[-1]:,}"
        else:
            who = crossover_programs(doc)
            text += (f"\n{who[0]} beats {base} from N = {crossover:,}" if len(who) == 1
                     else f"\ncrossover at N = {crossover:,}") + " (dotted line)"
    cp_title(fig, text, doc)
    return save_png(fig, path)


def run_cp_sweep(args):
    # Check every file before drawing anything.
    jobs = []
    writes = {}
    for name in args.files:
        path = Path(name)
        doc = read_sweep_json(path)
        out = Path(args.outdir) if args.outdir else path.parent
        png = out / f"cp-sweep-{doc['sweep']}.png"
        if png in writes:
            raise PlotError(f"{path}: would write {png} over the figure of {writes[png]}")
        writes[png] = path
        jobs.append((doc, out, png, environment_stamp(path, doc)))
    import_matplotlib()
    for doc, out, png, stamp in jobs:
        make_outdir(out)
        yield plot_cp_sweep(doc, stamp, png)


def add_cp_sweep(commands):
    p = commands.add_parser(
        "cp-sweep", help="wsc cp --sweep threshold|n: a panel per program against the swept value",
        description="From each FILE, written by `wsc cp --sweep threshold|n --json`, "
        "draw cp-sweep-threshold.png or cp-sweep-n.png: a panel per program, its median "
        "time per transaction (a band from min to max) against the swept value on a "
        "log2 axis, the baseline's median (NORMAL, the program whose ratio is 1) "
        "dashed in every other panel, and in each title how much faster or slower "
        "than the baseline the program is over the sweep (from the medians); for the "
        "n sweep, a line at crossover_n, where WSC+COLLECT starts to beat NORMAL.  "
        "Programs are drawn in the order of the points.")
    p.add_argument("files", metavar="FILE.json", nargs="+",
                   help="the output of wsc cp --sweep threshold|n --json")
    p.add_argument("-o", "--outdir", metavar="OUTDIR",
                   help="where to write the PNGs (default: each FILE's folder)")
    p.set_defaults(run=run_cp_sweep)
