# SPDX-License-Identifier: GPL-2.0
"""tools/plot cp and cp-sweep: the JSON of `wsc cp --json` and of
`wsc cp --sweep threshold|n --json`.

wsc cp's "results" hold one record per portion it timed ("portion",
"program", "part", the median, min and max, "ratio" to the "baseline"
portion); a sweep's "points" one record per program and swept value.
The programs' order and colours are the order of the portions (for a
sweep, of the points); the parts' order that of their first portion;
what a sweep varies, the settings its points and document share.
"""
import json
from pathlib import Path

from .common import (PROG, Palette, PlotError, field, import_matplotlib, is_number,
                     load_json, make_outdir, mpl, new_figure, note, save_png)


def timing(path, rec, where):
    """Check REC's median_ns, min_ns, max_ns and ratio; return them."""
    median, lo, hi = (field(path, rec, k, "ns", where) for k in ("median_ns", "min_ns", "max_ns"))
    if not lo <= median <= hi:
        raise PlotError(f"{path}: {where}min_ns {lo} <= median_ns {median} <= max_ns {hi} "
                        "does not hold")
    return median, lo, hi, field(path, rec, "ratio", "ns", where, null=True)


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
    return f"{doc['size']:,} B files, {doc['repetitions']} repetitions{cache}{fs}"


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
    """Which portion each ratio in RECS is to, e.g.
    "ratio to portion 6 (of 6, 7), 8 (of 8, 9)"."""
    of = {}
    for r in recs:
        of.setdefault(r["baseline"], []).append(str(r["portion"]))
    if len(of) == 1:
        return f"ratio to portion {next(iter(of))}'s median"
    return "ratio to portion " + ", ".join(f"{b} (of {', '.join(p)})" for b, p in of.items())


def plot_cp_portions(doc, palette, path):
    """Table 3 of the WSC paper as bars: one per portion, a panel per part."""
    results = doc["results"]
    parts = part_order(results)
    fig = new_figure(max(8, 1.05 * len(results) + 1.5), 5.5)
    axes = fig.subplots(1, len(parts), squeeze=False,
                        width_ratios=[len(recs) for _, recs in parts])[0]
    for ax, (part, recs) in zip(axes, parts):
        x = range(len(recs))
        us = [r["median_ns"] / 1000 for r in recs]
        err = [[(r["median_ns"] - r["min_ns"]) / 1000 for r in recs],
               [(r["max_ns"] - r["median_ns"]) / 1000 for r in recs]]
        ax.bar(x, us, 0.7, yerr=err, capsize=3, ecolor="0.3",
               color=[palette(r["program"]) for r in recs])
        for i, r in enumerate(recs):
            if r["ratio"] is not None:
                ax.annotate(f"{r['ratio']:.2f}x", (i, r["max_ns"] / 1000), xytext=(0, 3),
                            textcoords="offset points", ha="center", va="bottom",
                            fontsize="small")
        ax.set_xticks(x, [tick_label(r) for r in recs], fontsize="small")
        top = max(r["max_ns"] for r in recs) / 1000
        ax.set_ylim(0, top * 1.15 if top > 0 else 1)
        ax.set_title(f"{part}\n{ratio_title(recs)}", fontsize="medium")
        ax.grid(True, axis="y", alpha=0.3)
    axes[0].set_ylabel(f"µs for {doc['n']:,} transactions (median, min..max)")
    cp_title(fig, f"wsc cp: {doc['n']:,} transactions, threshold {doc['threshold']}, "
             f"{cp_setting(doc)}", doc)
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


def plot_cp_events(doc, palette, path):
    """Per hardware event, a small bar chart of its count in each portion."""
    results = [r for r in doc["results"] if r["events"] is not None]
    names = cp_event_names(doc)
    # One cell more than the events, for the legend.
    cols = min(3, len(names) + 1)
    rows = -(-(len(names) + 1) // cols)
    fig = new_figure(max(8, 0.35 * len(results) * cols + 1), 2.8 * rows + 1.2)
    axes = list(fig.subplots(rows, cols, squeeze=False).flat)
    for ax, name in zip(axes, names):
        present = [(i, r) for i, r in enumerate(results) if r["events"].get(name) is not None]
        ax.bar([i for i, _ in present], [r["events"][name] for _, r in present], 0.7,
               color=[palette(r["program"]) for _, r in present])
        ax.set_xticks(range(len(results)), [str(r["portion"]) for r in results],
                      fontsize="small")
        ax.set_title(name, fontsize="medium")
        ax.grid(True, axis="y", alpha=0.3)
    programs = palette.sorted({r["program"] for r in results})
    handles = [mpl.Patch(color=palette(p)) for p in programs]
    key = axes[len(names)]
    key.axis("off")
    key.legend(handles, programs, loc="center", fontsize="small", title="program")
    for ax in axes[len(names) + 1:]:  # the grid's cells left over
        ax.set_visible(False)
    fig.supxlabel("portion")
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
    yield plot_cp_portions(doc, palette, out / "cp-portions.png")
    events = out / "cp-events.png"
    if any(r["events"] for r in doc["results"]):
        yield plot_cp_events(doc, palette, events)
        return
    # "counters" says why, e.g. "not available: no PMU".
    why = doc.get("counters")
    if not (isinstance(why, str) and why.startswith("not available")):
        why = "not available" + (f" ({why})" if isinstance(why, str) else "")
    note(f"cp: no {events.name}: hardware events {why}")
    # One left by an earlier run would pass for this run's.
    try:
        events.unlink()
        note(f"cp: removed {events}, drawn from earlier results")
    except FileNotFoundError:
        pass
    except OSError as e:
        raise PlotError(f"{events}: {e.strerror}") from e


def add_cp(commands):
    p = commands.add_parser(
        "cp", help="the portions of wsc cp as bars (the WSC paper's Table 3)",
        description="From FILE, written by `wsc cp --json`, draw cp-portions.png: "
        "one bar per measured portion, a panel per part (open-close, read-write, "
        "write), its height the median time of the N transactions, the error bar "
        "from min to max, the ratio to the part's baseline portion above it.  When "
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
    """The program the ratios are to: the one whose every ratio is 1."""
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


def plot_cp_sweep(doc, path):
    """Time per transaction and the ratio to the baseline against the swept value."""
    np = mpl.np
    sweep = doc["sweep"]
    lines = doc["lines"]
    base = doc["baseline"]
    palette = Palette(lines)
    values = sorted({pt[0] for pts in lines.values() for pt in pts})
    label = "N (transactions)" if sweep == "n" else sweep
    fig = new_figure(12, 5)
    left, right = fig.subplots(1, 2, sharex=True)
    for program, pts in lines.items():
        colour = palette(program)
        x = [pt[0] for pt in pts]
        # pt: (x, n, median, min, max, ratio); per transaction, in µs.
        per = [[pt[k] / pt[1] / 1000 for pt in pts] for k in (2, 3, 4)]
        left.plot(x, per[0], "o-", color=colour, markersize=4, label=program)
        left.fill_between(x, per[1], per[2], color=colour, alpha=0.2, linewidth=0)
        ratio = [np.nan if pt[5] is None else pt[5] for pt in pts]
        right.plot(x, ratio, "o-", color=colour, markersize=4, label=program)
    right.axhline(1.0, color="0.3", linestyle="--", linewidth=1)
    left.set_ylabel("µs per transaction (median, band min..max)")
    left.set_ylim(bottom=0)
    right.set_ylim(bottom=0)
    if base is None:
        ratio_text = "ratio: none, the program it is to did not run"
        right.set_ylabel("median / the baseline's median")
    else:
        ratio_text = f"ratio to {base} (below 1 is faster)"
        right.set_ylabel(f"median / {base}'s median")
    right.set_title(ratio_text, fontsize="medium")
    left.set_title("time per transaction", fontsize="medium")
    for ax in (left, right):
        log2_axis(ax, values, label)
        ax.grid(True, alpha=0.3)
    left.legend(fontsize="small")
    if sweep == "n":
        crossover = doc["crossover_n"]
        if crossover is None:
            right.set_title(f"{ratio_text}\nno crossover up to N = {values[-1]:,}",
                            fontsize="medium")
        else:
            who = crossover_programs(doc)
            text = (f"{who[0]} beats {base} from N = {crossover:,}" if len(who) == 1
                    else f"crossover at N = {crossover:,}")
            for ax in (left, right):
                ax.axvline(crossover, color="black", linestyle=":", linewidth=1.5)
            right.set_title(f"{ratio_text}\n{text} (dotted line)", fontsize="medium")
    fixed = ", ".join(setting_label(k, doc[k]) for k in doc["settings"] if k != sweep)
    cp_title(fig, f"wsc cp --sweep {sweep}: {fixed}, {cp_setting(doc)}", doc)
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
        jobs.append((doc, out, png))
    import_matplotlib()
    for doc, out, png in jobs:
        make_outdir(out)
        yield plot_cp_sweep(doc, png)


def add_cp_sweep(commands):
    p = commands.add_parser(
        "cp-sweep", help="wsc cp --sweep threshold|n: time and ratio against the swept value",
        description="From each FILE, written by `wsc cp --sweep threshold|n --json`, "
        "draw cp-sweep-threshold.png or cp-sweep-n.png: on the left the median time "
        "per transaction of each program (a band from min to max), on the right its "
        "ratio to NORMAL (the program whose ratio is 1), against the swept value on a "
        "log2 axis; for the n sweep, a line at crossover_n, where WSC+COLLECT starts "
        "to beat NORMAL.  Programs are drawn in the order of the points.")
    p.add_argument("files", metavar="FILE.json", nargs="+",
                   help="the output of wsc cp --sweep threshold|n --json")
    p.add_argument("-o", "--outdir", metavar="OUTDIR",
                   help="where to write the PNGs (default: each FILE's folder)")
    p.set_defaults(run=run_cp_sweep)
