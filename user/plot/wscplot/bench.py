# SPDX-License-Identifier: GPL-2.0
"""user/plot/wsc-plot bench: the folder written by `wsc bench --all`.

Per call, <call>.csv holds every sample (a row each, grouped by variant)
and <call>.json a record per variant ("variant", "mechanism",
"median_ns", ...) in the order wsc ran them, and the machine under
"environment".  The variants' order and colours come from those records,
merged over the folder.  Every comparison is computed here from the
medians (the baseline's median / the variant's, above 1 = faster), so
the figures read the same whatever the file calls its ratio.
"""
import io
from pathlib import Path

from .common import (Palette, PlotError, environment_stamp, field, fmt_ns,
                     import_matplotlib, legend_outside, load_json, log_ns_axis, log_time_axis,
                     make_outdir, merge_stamps, merged_order, mpl, new_figure, note, save_png,
                     shown, speedup_words)

# The CSV columns read: which variant a sample is of, and its ns per call.
CSV_VARIANT = "variant"
CSV_NS = "ns_per_call"
# Read a CSV this many bytes at a time: memory stays flat however many
# rows a file holds (7 variants of 1,000,000 samples is 350 MB of text).
CSV_BLOCK = 1 << 24
# The DMSM chart: the four calls "Evaluation of dynamic running mode
# switch" (the DMSM paper) timed, each made every way wsc bench made it;
# the variants of the first mechanism are the baseline.
DMSM_PAPER = "Evaluation of dynamic running mode switch"
DMSM_CALLS = ("getpid", "read256", "write256", "sbrk")
DMSM_BASELINE = "conventional"
DMSM_PNG = "bench-dmsm-calls.png"
# The spread a bar's whisker shows: these percentiles of the raw samples.
SPREAD = (5, 95)


def csv_blocks(f):
    """Yield (first line number, bytes) for whole lines of F, a block at a time."""
    line = 2
    tail = b""
    while True:
        data = f.read(CSV_BLOCK)
        if not data:
            if tail:
                yield line, tail
            return
        data = tail + data
        cut = data.rfind(b"\n") + 1
        data, tail = data[:cut], data[cut:]
        if data:
            yield line, data
            line += data.count(b"\n")


def bad_csv_line(block, first, columns):
    """Say which line of BLOCK, numbered from FIRST, cannot be read, and why;
    COLUMNS is the header's list of names."""
    ns_col = columns.index(CSV_NS)
    for n, text in enumerate(block.decode(errors="replace").splitlines(), first):
        fields = text.split(",")
        if len(fields) != len(columns):
            return f"line {n}: {len(fields)} fields, expected {len(columns)}"
        try:
            float(fields[ns_col])
        except ValueError:
            return f"line {n}: {CSV_NS} {fields[ns_col]!r} is not a number"
    return None


def read_csv_header(path):
    """Return the column names of PATH's header, which must name the two read."""
    try:
        with open(path, "rb") as f:
            header = f.readline().decode(errors="replace").rstrip("\r\n")
    except OSError as e:
        raise PlotError(f"{path}: {e.strerror}") from e
    columns = header.split(",")
    for name in (CSV_VARIANT, CSV_NS):
        if name not in columns:
            raise PlotError(f"{path}: header {header!r} has no {name!r} column")
    return columns


def read_bench_csv(path, columns, palette):
    """Return {variant: numpy array of ns_per_call} from one <call>.csv,
    in PALETTE's order (a variant it lacks after them, in the file's order)."""
    np = mpl.np
    # Variant names are at most 12 bytes; S32 leaves room for new ones.
    dtype = np.dtype([("variant", "S32"), ("ns_per_call", "f8")])
    usecols = (columns.index(CSV_VARIANT), columns.index(CSV_NS))
    parts = {}
    with open(path, "rb") as f:
        f.readline()  # the header, read by read_csv_header()
        for first, block in csv_blocks(f):
            try:
                rows = np.loadtxt(io.BytesIO(block), delimiter=",", usecols=usecols,
                                  dtype=dtype, comments=None, ndmin=1)
            except ValueError as e:
                raise PlotError(f"{path}: {bad_csv_line(block, first, columns) or e}") from e
            finite = np.isfinite(rows["ns_per_call"])
            if not finite.all():
                n = first + int(np.argmin(finite))
                raise PlotError(f"{path}: line {n}: {CSV_NS} is not a finite number")
            # Rows come grouped by variant: compare only where the name changes.
            names = rows["variant"]
            starts = np.flatnonzero(np.r_[True, names[1:] != names[:-1]])
            for name in dict.fromkeys(names[starts].tolist()):
                parts.setdefault(name.decode(), []).append(rows["ns_per_call"][names == name])
    if not parts:
        raise PlotError(f"{path}: no samples")
    samples = {v: np.concatenate(parts[v]) for v in palette.sorted(parts)}
    if not any((ns > 0).any() for ns in samples.values()):
        raise PlotError(f"{path}: no sample above 0 ns to draw on a log axis")
    return samples


def optional_ns(path, rec, key, where):
    """REC's KEY as a float when present and not null, else None."""
    if rec.get(key) is None:
        return None
    return float(field(path, rec, key, "ns", where))


def read_bench_json(path):
    """Return the records of one <call>.json, in its order, as
    [{"variant", "mechanism", "median_ns", "min_ns", "p95_ns"}] (the last
    two None when absent), and the file's environment stamp.

    Its "ratio" or "speedup" is not read: which way wsc's ratio runs has
    changed, and the medians say the same without doubt."""
    doc = load_json(path)
    records = doc.get("variants")
    if not isinstance(records, list):
        raise PlotError(f"{path}: no \"variants\" list")
    variants = []
    for i, rec in enumerate(records):
        where = f"variants[{i}]: "
        if not isinstance(rec, dict):
            raise PlotError(f"{path}: {where}not an object, {shown(rec)}")
        variants.append({"variant": field(path, rec, "variant", "str", where),
                         "mechanism": field(path, rec, "mechanism", "str", where),
                         "median_ns": float(field(path, rec, "median_ns", "ns", where)),
                         "min_ns": optional_ns(path, rec, "min_ns", where),
                         "p95_ns": optional_ns(path, rec, "p95_ns", where)})
    return variants, environment_stamp(path, doc)


def plot_hist(call, samples, palette, stamp, path):
    """Small multiples: a panel per variant, stacked, all on one log time
    axis and one fraction axis.  Seven histograms overlaid in one panel
    hid each other (wrapped-8's peak under wrapped-64's); stacked, each
    shape reads alone and the variants compare by position down the
    column, the median marked in each."""
    np = mpl.np
    values = np.concatenate(list(samples.values()))
    total = values.size
    # Log bins need a positive edge: a sample of 0 ns (a coarse clock)
    # falls outside them like any other clipped tail.
    if (values <= 0).any():
        values = values[values > 0]
    lo, hi = np.percentile(values, [0.1, 99.9], overwrite_input=True)
    if hi <= lo:
        lo, hi = lo / 1.1, hi * 1.1
    edges = np.geomspace(lo, hi, 101)
    fig = new_figure(8, max(3.6, 1.3 + 0.8 * len(samples)), stamp=stamp)
    axes = fig.subplots(len(samples), 1, sharex=True, sharey=True, squeeze=False)[:, 0]
    for ax, (variant, ns) in zip(axes, samples.items()):
        counts, _ = np.histogram(ns, bins=edges)
        colour = palette(variant)
        ax.stairs(counts / ns.size, edges, color=colour, fill=True, alpha=0.3)
        ax.stairs(counts / ns.size, edges, color=colour, linewidth=1.2)
        median = np.median(ns)
        ax.axvline(median, color="black", linewidth=1)
        ax.set_ylabel(f"{variant}\nmedian {fmt_ns(median)}\nn={ns.size:,}", rotation=0,
                      ha="right", va="center", fontsize="small")
        ax.grid(True, axis="x", which="major", alpha=0.3)
        ax.tick_params(axis="y", labelsize="x-small")
    # Room above the highest bar, so that no tick label of a panel meets
    # the next panel's.
    top = max(np.histogram(ns, bins=edges)[0].max() / ns.size for ns in samples.values())
    axes[0].set_ylim(0, top * 1.25 if top > 0 else 1)
    axes[0].locator_params(axis="y", nbins=3)
    log_ns_axis(axes[-1])
    # A little room at either end: a median at the clipped edge stays seen.
    axes[-1].set_xlim(lo / 1.05, hi * 1.05)
    fig.supylabel("fraction of the variant's samples", fontsize="small")
    fig.suptitle(f"{call}: {total:,} samples, a panel per variant (line: its median), "
                 "clipped to p0.1..p99.9", fontsize="medium")
    return save_png(fig, path)


def plot_cdf(call, samples, palette, stamp, path):
    np = mpl.np
    # A CDF of 1,000,000 points draws no better than one of a few thousand.
    points = 4000
    fig = new_figure(stamp=stamp)
    ax = fig.add_subplot()
    total = 0
    for variant, ns in samples.items():
        ranks = np.unique(np.linspace(0, ns.size - 1, min(ns.size, points)).astype(int))
        ax.step(np.sort(ns)[ranks], (ranks + 1) / ns.size, where="post",
                color=palette(variant), label=f"{variant}, n={ns.size:,}")
        total += ns.size
    log_ns_axis(ax)
    ax.set_ylabel("fraction of samples at or below")
    ax.set_ylim(0, 1)
    ax.set_title(f"{call}: empirical CDF, {total:,} samples")
    legend_outside(ax)
    ax.grid(True, which="both", alpha=0.3)
    return save_png(fig, path)


def spread_of(samples):
    """{variant: (low, high)}: the SPREAD percentiles of each variant's samples."""
    np = mpl.np
    return {v: tuple(np.percentile(ns, SPREAD)) for v, ns in samples.items()}


def plot_dmsm(chart, spreads, palette, stamp, path):
    """Grouped bars of the median time per call, a group per call of the
    DMSM paper, a bar per variant, on a log axis (getpid's hundreds of ns
    beside sbrk's tens of µs); whiskers from SPREADS ({call: {variant:
    (low, high)}}: the samples' percentiles) or, without samples, from the
    record's min to its p95; above each bar but the baseline's, how much
    faster or slower than the call's baseline it is."""
    np = mpl.np
    variants = palette.sorted({v for recs in chart.values() for v in recs if v != BASE_KEY})
    width = 0.84 / len(variants)
    fig = new_figure(max(9, 1.1 + 0.32 * len(variants) * len(chart)), 5.6, stamp=stamp)
    ax = fig.add_subplot()
    whiskers = set()
    for i, variant in enumerate(variants):
        offset = (i - (len(variants) - 1) / 2) * width
        present = [(x, call, recs[variant]) for x, (call, recs) in enumerate(chart.items())
                   if variant in recs]
        medians = np.array([rec["median_ns"] for _, _, rec in present])
        lows, highs = [], []
        for _, call, rec in present:
            spread = spreads.get(call, {}).get(variant)
            if spread is None and rec["min_ns"] is not None and rec["p95_ns"] is not None:
                spread = (rec["min_ns"], rec["p95_ns"])
                whiskers.add("min..p95")
            elif spread is not None:
                whiskers.add(f"p{SPREAD[0]}..p{SPREAD[1]} of the samples")
            lo, hi = spread if spread is not None else (rec["median_ns"],) * 2
            lows.append(max(rec["median_ns"] - lo, 0))
            highs.append(max(hi - rec["median_ns"], 0))
        bars = ax.bar([x + offset for x, _, _ in present], medians, width,
                      yerr=[lows, highs], capsize=2, ecolor="0.25", error_kw={"linewidth": 0.8},
                      color=palette(variant), label=variant)
        words = []
        for _, call, rec in present:
            base = chart[call].get(BASE_KEY)
            if rec["mechanism"] == DMSM_BASELINE or base is None or rec["median_ns"] <= 0:
                words.append("")
            else:
                words.append(speedup_words(base["median_ns"] / rec["median_ns"]))
        tops = medians + np.array(highs)
        for (x, _, _), top, text in zip(present, tops, words):
            if text:
                ax.annotate(text, (x + offset, top), xytext=(0, 3), textcoords="offset points",
                            ha="center", va="bottom", rotation=90, fontsize=6.5)
    # A gap in a group is a way the call cannot be made: say which.
    mechanisms = list(dict.fromkeys(r["mechanism"] for recs in chart.values()
                                    for v, r in recs.items() if v != BASE_KEY))
    ticks = []
    for call, recs in chart.items():
        has = {r["mechanism"] for v, r in recs.items() if v != BASE_KEY}
        missing = [m for m in mechanisms if m not in has]
        ticks.append(f"{call}\n(no {', '.join(missing)})" if missing else call)
    ax.set_xticks(range(len(chart)), ticks)
    log_time_axis(ax, "y", "time per call (median)")
    lo, hi = ax.get_ylim()
    ax.set_ylim(lo, hi * 6)
    ax.grid(True, axis="y", which="major", alpha=0.3)
    ax.set_title(f"Time per call, every way wsc bench made it: the calls of "
                 f"\"{DMSM_PAPER}\"\nbar: median; whisker: "
                 f"{' or '.join(sorted(whiskers)) or 'none'}; above: against "
                 f"{DMSM_BASELINE} (its time / the bar's)", fontsize="medium")
    legend_outside(ax)
    return save_png(fig, path)


# The record a call's comparisons are to, kept under this key in a chart.
BASE_KEY = None


def dmsm_chart(directory, records):
    """Return {call: {variant: record, None: the baseline's record}} for the
    DMSM paper's calls in DIRECTORY, from RECORDS ({call: read_bench_json()'s
    list}), and a list saying which calls were left out and why."""
    chart = {}
    left_out = []
    for call in DMSM_CALLS:
        path = directory / f"{call}.json"
        if call not in records:
            left_out.append(f"{call} (no {path})")
            continue
        found = {r["variant"]: r for r in records[call]}
        base = [r for r in records[call] if r["mechanism"] == DMSM_BASELINE]
        if not base:
            left_out.append(f"{call} ({path} has no {DMSM_BASELINE} variant)")
            continue
        found[BASE_KEY] = base[0]
        chart[call] = found
    return chart, left_out


def run_bench(args):
    directory = Path(args.dir)
    out = Path(args.outdir) if args.outdir else directory
    if not directory.is_dir():
        raise PlotError(f"{directory}: {'not a' if directory.exists() else 'no such'} directory")
    import_matplotlib()
    csvs = sorted(directory.glob("*.csv"))
    # Check every input that is cheap to check before drawing anything, so
    # a bad file rarely leaves a run half done: the CSVs' headers and the
    # JSON of every call drawn.
    columns = {path: read_csv_header(path) for path in csvs}
    calls = dict.fromkeys([p.stem for p in csvs] + list(DMSM_CALLS))
    records, stamps = {}, {}
    for call in calls:
        if (directory / f"{call}.json").exists():
            records[call], stamps[call] = read_bench_json(directory / f"{call}.json")
    palette = Palette(merged_order([r["variant"] for r in recs]
                                   for recs in records.values()))
    chart, left_out = dmsm_chart(directory, records)
    if not csvs and not chart:
        raise PlotError(f"{directory}: no <call>.csv or <call>.json from wsc bench --all")
    make_outdir(out)

    # A call without its .json (a CSV alone) has the folder's environment.
    env_path = directory / "environment.json"
    folder_stamp = None
    spreads = {}
    for path in csvs:
        call = path.stem
        if call not in stamps and folder_stamp is None:
            folder_stamp = environment_stamp(env_path, {"environment": load_json(env_path)}
                                             if env_path.exists() else {})
        stamp = stamps.get(call, folder_stamp)
        samples = read_bench_csv(path, columns[path], palette)
        if call in chart:
            spreads[call] = spread_of(samples)
        yield plot_hist(call, samples, palette, stamp, out / f"{call}-hist.png")
        yield plot_cdf(call, samples, palette, stamp, out / f"{call}-cdf.png")
    if not chart:
        note(f"dmsm: {DMSM_PNG} skipped, none of {', '.join(DMSM_CALLS)} has results")
        return
    if left_out:
        note(f"dmsm: left out {', '.join(left_out)}")
    yield plot_dmsm(chart, spreads, palette, merge_stamps(stamps[c] for c in chart),
                    out / DMSM_PNG)


def add_bench(commands):
    p = commands.add_parser(
        "bench", help="histograms, CDFs and the DMSM paper's calls from wsc bench --all",
        description="For each DIR/<call>.csv written by `wsc bench --all`, draw "
        "<call>-hist.png (the histogram of the time per call of each variant, a panel "
        "each on one time axis) and <call>-cdf.png (their empirical CDFs); from the getpid, read256, "
        f"write256 and sbrk .json files (the calls of \"{DMSM_PAPER}\"), draw "
        f"{DMSM_PNG}: the median time per call of every variant on a log axis, "
        f"whiskers p{SPREAD[0]}..p{SPREAD[1]} of the samples, and above each bar "
        "how much faster or slower than the conventional call it is (computed from "
        "the medians).  Every figure is stamped with the machine it was measured "
        "on, from the .json's environment.  The variants' order and colours are "
        "those of the .json files.")
    p.add_argument("dir", metavar="DIR", help="the results folder of wsc bench --all")
    p.add_argument("-o", "--outdir", metavar="OUTDIR",
                   help="where to write the PNGs (default: DIR)")
    p.set_defaults(run=run_bench)
