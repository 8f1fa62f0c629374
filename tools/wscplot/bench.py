# SPDX-License-Identifier: GPL-2.0
"""tools/plot bench: the folder written by `wsc bench --all`.

Per call, <call>.csv holds every sample (a row each, grouped by variant)
and <call>.json a record per variant ("variant", "mechanism",
"median_ns", "ratio", ...) in the order wsc ran them.  The variants'
order and colours come from those records, merged over the folder.
"""
import io
from pathlib import Path

from .common import (Palette, PlotError, field, fmt_ns, import_matplotlib, load_json,
                     log_ns_axis, make_outdir, merged_order, mpl, new_figure, note,
                     save_png, shown)

# The CSV columns read: which variant a sample is of, and its ns per call.
CSV_VARIANT = "variant"
CSV_NS = "ns_per_call"
# Read a CSV this many bytes at a time: memory stays flat however many
# rows a file holds (7 variants of 1,000,000 samples is 350 MB of text).
CSV_BLOCK = 1 << 24
# The DMSM paper's chart: the four calls that paper timed, each made the two
# ways it compared (the "mechanism" of a variant), the first the baseline.
PAPER002_CALLS = ("getpid", "read256", "write256", "sbrk")
PAPER002_MECHANISMS = ("conventional", "wrapped")


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


def read_bench_json(path):
    """Return the records of one <call>.json, in its order, as
    [{"variant", "mechanism", "median_ns", "ratio"}]; "ratio" is the
    median over the conventional call's, None where wsc gave none."""
    records = load_json(path).get("variants")
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
                         "ratio": field(path, rec, "ratio", "ns", where, null=True)
                         if "ratio" in rec else None})
    return variants


def plot_hist(call, samples, palette, path):
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
    fig = new_figure()
    ax = fig.add_subplot()
    for variant, ns in samples.items():
        counts, _ = np.histogram(ns, bins=edges)
        ax.stairs(counts / ns.size, edges, color=palette(variant),
                  label=f"{variant}: median {fmt_ns(np.median(ns))} ns, n={ns.size:,}")
    log_ns_axis(ax)
    ax.set_ylabel("fraction of the variant's samples")
    ax.set_title(f"{call}: {total:,} samples, clipped to p0.1..p99.9")
    ax.legend(fontsize="small")
    return save_png(fig, path)


def plot_cdf(call, samples, palette, path):
    np = mpl.np
    # A CDF of 1,000,000 points draws no better than one of a few thousand.
    points = 4000
    fig = new_figure()
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
    ax.legend(fontsize="small")
    ax.grid(True, which="both", alpha=0.3)
    return save_png(fig, path)


def plot_paper002(chart, palette, path):
    """Grouped bars of median ns per call; CHART is {call: {variant: record}}."""
    variants = palette.sorted({v for recs in chart.values() for v in recs})
    width = 0.8 / len(variants)
    fig = new_figure()
    ax = fig.add_subplot()
    for i, variant in enumerate(variants):
        offset = (i - (len(variants) - 1) / 2) * width
        present = [(x, recs[variant]) for x, recs in enumerate(chart.values())
                   if variant in recs]
        bars = ax.bar([x + offset for x, _ in present],
                      [rec["median_ns"] for _, rec in present],
                      width, color=palette(variant), label=variant)
        # The baseline's bars need no ratio: theirs is 1.
        if present[0][1]["mechanism"] != PAPER002_MECHANISMS[0]:
            ax.bar_label(bars, ["" if rec["ratio"] is None else f"{rec['ratio']:.2f}"
                                for _, rec in present], fontsize="x-small", padding=2)
    ax.set_xticks(range(len(chart)), list(chart))
    ax.set_ylabel("ns per call (median)")
    ax.set_title(f"The DMSM paper: time per call, {' vs '.join(PAPER002_MECHANISMS)}\n"
                 f"above a {PAPER002_MECHANISMS[1]} bar: its time / "
                 f"{PAPER002_MECHANISMS[0]} time (below 1 is cheaper)")
    ax.margins(y=0.12)
    ax.legend(fontsize="small")
    return save_png(fig, path)


def paper002_chart(directory, records):
    """Return {call: {variant: record}} for the paper's calls in DIRECTORY,
    from RECORDS ({call: read_bench_json()'s list}), and a list saying
    which calls were left out and why."""
    chart = {}
    left_out = []
    for call in PAPER002_CALLS:
        path = directory / f"{call}.json"
        if call not in records:
            left_out.append(f"{call} (no {path})")
            continue
        found = {r["variant"]: r for r in records[call]
                 if r["mechanism"] in PAPER002_MECHANISMS}
        if found:
            chart[call] = found
        else:
            left_out.append(f"{call} ({path} has no "
                            f"{' or '.join(PAPER002_MECHANISMS)} variant)")
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
    calls = dict.fromkeys([p.stem for p in csvs] + list(PAPER002_CALLS))
    records = {call: read_bench_json(directory / f"{call}.json") for call in calls
               if (directory / f"{call}.json").exists()}
    palette = Palette(merged_order([r["variant"] for r in recs]
                                   for recs in records.values()))
    chart, left_out = paper002_chart(directory, records)
    if not csvs and not chart:
        raise PlotError(f"{directory}: no <call>.csv or <call>.json from wsc bench --all")
    make_outdir(out)

    for path in csvs:
        call = path.stem
        samples = read_bench_csv(path, columns[path], palette)
        yield plot_hist(call, samples, palette, out / f"{call}-hist.png")
        yield plot_cdf(call, samples, palette, out / f"{call}-cdf.png")
    if not chart:
        note(f"paper002: chart skipped, none of {', '.join(PAPER002_CALLS)} has results")
        return
    if left_out:
        note(f"paper002: left out {', '.join(left_out)}")
    yield plot_paper002(chart, palette, out / "paper002.png")


def add_bench(commands):
    p = commands.add_parser(
        "bench", help="histograms, CDFs and the DMSM paper's chart from wsc bench --all",
        description="For each DIR/<call>.csv written by `wsc bench --all`, draw "
        "<call>-hist.png (histograms of ns per call, one per variant) and "
        "<call>-cdf.png (their empirical CDFs); from the getpid, read256, "
        "write256 and sbrk .json files, draw paper002.png (median ns per call, "
        "conventional vs wrapped, with the ratio above each wrapped bar).  The "
        "variants' order and colours are those of the .json files.")
    p.add_argument("dir", metavar="DIR", help="the results folder of wsc bench --all")
    p.add_argument("-o", "--outdir", metavar="OUTDIR",
                   help="where to write the PNGs (default: DIR)")
    p.set_defaults(run=run_bench)
