# SPDX-License-Identifier: GPL-2.0
"""What every subcommand of user/plot/wsc-plot shares: its errors, reading and
checking JSON, the order and colour of names taken from the data, and
the figures' canvas, axes and atomic writes.

Needs only the standard library until import_matplotlib() is called.
"""
import json
import math
import os
import sys
import types

PROG = "wsc-plot"

# numpy and matplotlib's names, filled by import_matplotlib(): mpl.np,
# mpl.Figure, mpl.FigureCanvasAgg, mpl.Patch, mpl.Line2D, mpl.FuncFormatter.
mpl = types.SimpleNamespace()


class PlotError(Exception):
    """A problem with the input: reported as one line, exit status 1."""


def import_matplotlib():
    """Import numpy and matplotlib, which take half a second: a subcommand
    calls this once its input is read, so --help and bad input answer at once."""
    if hasattr(mpl, "np"):
        return
    try:
        import numpy
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
        from matplotlib.ticker import FuncFormatter
    except ImportError as e:
        sys.exit(f"{PROG}: {sys.executable} cannot import {e.name}: run tools/install-deps")
    mpl.np = numpy
    mpl.FigureCanvasAgg = FigureCanvasAgg
    mpl.Figure = Figure
    mpl.Patch = Patch
    mpl.Line2D = Line2D
    mpl.FuncFormatter = FuncFormatter


def note(message):
    print(f"{PROG}: {message}", file=sys.stderr)


def remove_stale(path, kind):
    """Remove PATH, a figure this run does not draw: one left by an
    earlier run would pass for this run's.  Says so when there was one."""
    try:
        path.unlink()
        note(f"{kind}: removed {path}, drawn from earlier results")
    except FileNotFoundError:
        pass
    except OSError as e:
        raise PlotError(f"{path}: {e.strerror}") from e


# ---- input ---------------------------------------------------------------

def load_json(path):
    """Return the JSON document in PATH, which must be an object."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise PlotError(f"{path}: {e.strerror}") from e
    except ValueError as e:
        raise PlotError(f"{path}: not valid JSON: {e}") from e
    if not isinstance(doc, dict):
        raise PlotError(f"{path}: not a JSON object")
    return doc


def shown(value):
    """VALUE as JSON, cut to fit an error message."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


# kind: (test, what the message says is expected)
KINDS = {
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "str": (lambda v: isinstance(v, str), "a string"),
    "list": (lambda v: isinstance(v, list), "a list"),
    "count": (lambda v: is_int(v) and v >= 0, "an integer >= 0"),
    "positive": (lambda v: is_int(v) and v >= 1, "an integer >= 1"),
    "ns": (lambda v: is_number(v) and v >= 0, "a finite number >= 0"),
}


def field(path, obj, key, kind, where="", null=False):
    """Return OBJ[KEY], checked to be of KIND (or null if NULL allows).

    WHERE says which part of PATH's document OBJ is, e.g. "results[3]: ".
    """
    if key not in obj:
        raise PlotError(f"{path}: {where}no \"{key}\"")
    value = obj[key]
    if value is None and null:
        return None
    test, expected = KINDS[kind]
    if not test(value):
        raise PlotError(f"{path}: {where}\"{key}\" is {shown(value)}, expected {expected}"
                        + (" or null" if null else ""))
    return value


def make_outdir(out):
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PlotError(f"{out}: {e.strerror}") from e


# ---- names: their order and colour, from the data --------------------------

def merged_order(sequences):
    """One order for the names of SEQUENCES that keeps the order of each.

    Each sequence is one file's names in the order wsc wrote them (say a
    call's variants); a file may lack some.  A name comes after every name
    that precedes it in some sequence; among names free to go, the one
    seen first goes first.  Where sequences disagree (a cycle), the name
    seen first breaks it.
    """
    first = {}
    after = {}
    waits = {}
    for seq in sequences:
        prev = None
        for name in seq:
            if name not in first:
                first[name] = len(first)
                after[name] = set()
                waits[name] = 0
            if prev is not None and prev != name and name not in after[prev]:
                after[prev].add(name)
                waits[name] += 1
            prev = name
    order = []
    done = set()
    while len(order) < len(first):
        free = [n for n in first if n not in done and waits[n] <= 0]
        if not free:
            free = [n for n in first if n not in done]
        name = min(free, key=first.get)
        order.append(name)
        done.add(name)
        for later in after[name]:
            waits[later] -= 1
    return order


class Palette:
    """A colour per name, the same in every figure drawn with it: the
    k-th name of ORDER gets matplotlib's cycle colour C<k>; a name not in
    ORDER gets the next free one when first asked for."""

    def __init__(self, order=()):
        self.names = list(dict.fromkeys(order))

    def add(self, name):
        if name not in self.names:
            self.names.append(name)

    def sorted(self, names):
        """NAMES in the palette's order, names it did not know after, as met."""
        names = list(dict.fromkeys(names))
        for name in names:
            self.add(name)
        return sorted(names, key=self.names.index)

    def __call__(self, name):
        self.add(name)
        return f"C{self.names.index(name) % 10}"


# ---- figures ---------------------------------------------------------------

# Time units, largest first: a figure's times are shown in the largest
# unit that leaves its values at least 1 (so no tick reads 1,250,000 ns).
UNITS = (("s", 1e9), ("ms", 1e6), ("µs", 1e3), ("ns", 1.0))


def time_unit(ns):
    """The (name, ns per unit) to show times around NS in: the largest unit
    in which NS is at least 1, ns for 0 and below."""
    for name, scale in UNITS:
        if ns >= scale:
            return name, scale
    return UNITS[-1]


def fmt_time(ns, digits=3):
    """NS with its own unit and DIGITS significant digits: "1.25 ms", "87 ns"."""
    name, scale = time_unit(ns)
    value = ns / scale
    text = f"{value:.{digits}g}" if value < 10 ** digits else f"{value:,.0f}"
    return f"{text} {name}"


def fmt_ns(ns):
    """A time for a legend or label, in its own unit."""
    return fmt_time(ns)


def speedup_words(speedup):
    """What SPEEDUP (baseline time / this time) means in words that cannot be
    misread: "2.1x faster", "1.3x slower", "same" within half a percent."""
    if speedup is None:
        return ""
    if abs(speedup - 1) < 0.005:
        return "same"
    if speedup > 1:
        return f"{speedup:.3g}x faster" if speedup < 10 else f"{speedup:.0f}x faster"
    slower = 1 / speedup if speedup > 0 else float("inf")
    return f"{slower:.3g}x slower" if slower < 10 else f"{slower:.0f}x slower"


def new_figure(width=8, height=4.5, stamp=None):
    """A figure WIDTH x HEIGHT inches; with STAMP (environment_stamp()'s),
    a line along its foot saying where the numbers were measured."""
    fig = mpl.Figure(figsize=(width, height), dpi=120, layout="constrained")
    mpl.FigureCanvasAgg(fig)
    if stamp is not None:
        draw_stamp(fig, stamp)
    return fig


def log_time_axis(ax, axis="x", label="time per call"):
    """Make AXIS of AX log-scaled, its ticks labelled each in its own unit
    ("500 ns", "1 µs", "20 µs", "1.5 ms").

    Matplotlib labels only the powers of ten across more than a decade;
    between them label 2 and 5 too when the axis spans at most three
    decades.
    """
    np = mpl.np
    which = ax.xaxis if axis == "x" else ax.yaxis
    limits = ax.get_xlim if axis == "x" else ax.get_ylim

    def plain(x, _):
        return fmt_time(x, 3) if x > 0 else "0"

    def minor(x, _):
        lo, hi = limits()
        if x <= 0 or lo <= 0:
            return ""
        # Labels in units are wide: 2 and 5 only, never every tick.
        digit = round(x / 10 ** np.floor(np.log10(x)))
        if hi / lo <= 1000 and digit in (2, 5):
            return plain(x, _)
        return ""

    (ax.set_xscale if axis == "x" else ax.set_yscale)("log")
    (ax.set_xlabel if axis == "x" else ax.set_ylabel)(label)
    which.set_major_formatter(mpl.FuncFormatter(plain))
    which.set_minor_formatter(mpl.FuncFormatter(minor))


def log_ns_axis(ax, label="time per call"):
    """The x axis as log_time_axis() makes it."""
    log_time_axis(ax, "x", label)


# ---- where the numbers come from ---------------------------------------------

# A stamp's text is this small, and this red when the times are emulated.
STAMP_SIZE = 7
STAMP_EMULATED = "#b00000"


def environment_stamp(path, doc):
    """Return {"text", "emulated", "machine", "date"}: one line naming where
    DOC (read from PATH) was measured, from its "environment": kernel, CPU,
    emulation, date and wsc's version; "machine" is that line without its
    date.  What the file does not record is said so; the date, when not
    recorded, is PATH's modification time."""
    env = doc.get("environment") if isinstance(doc, dict) else None
    if not isinstance(env, dict):
        env = {}
    parts = []
    kernel = env.get("kernel")
    parts.append(f"kernel {kernel}" if isinstance(kernel, str) else "kernel not recorded")
    cpu = env.get("cpu")
    if isinstance(cpu, str) and cpu:
        parts.append(f"CPU {cpu}")
    # wsc writes "qemu-tcg" (an emulated CPU), "hypervisor" (a virtual
    # machine on a real CPU: times near the hardware's) or "none".
    emulation = env.get("emulation")
    emulation = emulation if isinstance(emulation, str) else ""
    cpu_text = cpu if isinstance(cpu, str) else ""
    emulated = "tcg" in emulation.lower() or "qemu" in emulation.lower() \
        or "QEMU" in cpu_text or "TCG" in cpu_text
    if emulated:
        parts.append("EMULATED (QEMU TCG): times are not hardware times")
    elif emulation == "hypervisor":
        parts.append("under a hypervisor")
    elif emulation == "none":
        parts.append("not emulated")
    else:
        parts.append("emulation not recorded")
    if env.get("hardware_counters") is False:
        parts.append("no hardware counters")
    date = next((obj["date"] for obj in (env, doc) if isinstance(obj.get("date"), str)),
                None)
    if date is None:
        try:
            import datetime
            mtime = os.stat(path).st_mtime
            date = datetime.datetime.fromtimestamp(mtime, datetime.timezone.utc) \
                .strftime("%Y-%m-%d (file date)")
        except (OSError, TypeError):
            date = "date not recorded"
    version = None
    for key in ("wsc_version", "wsc", "version"):
        for obj in (env, doc):
            if version is None and isinstance(obj.get(key), str):
                version = obj[key]
    parts.append(f"wsc {version}" if version else "wsc version not recorded")
    machine = " · ".join(parts)
    return {"text": f"{machine} · {date}", "emulated": emulated, "machine": machine,
            "date": date}


def date_range(dates):
    """DATES as one: the date, or "first to last" ("2026-11-27T03:09:06Z to
    03:11:14Z" within a day)."""
    dates = sorted(set(dates))
    first, last = dates[0], dates[-1]
    if first == last:
        return first
    if first[:11] == last[:11] and first[10:11] == "T":
        return f"{first} to {last[11:]}"
    return f"{first} to {last}"


def merge_stamps(stamps):
    """One stamp for a figure drawn from several files: a line per distinct
    machine (the files of one `wsc bench --all` differ only in the second
    each was written, and say so once), its dates as a range; emulated if
    any was."""
    machines = {}
    stamps = list(stamps)
    for s in stamps:
        machines.setdefault(s["machine"], []).append(s["date"])
    lines = [f"{machine} · {date_range(dates)}" for machine, dates in machines.items()]
    return {"text": "\n".join(lines), "emulated": any(s["emulated"] for s in stamps)}


# About this many characters of a stamp fit an inch of the figure: a first
# guess, which draw_stamp() checks against the text as drawn.
STAMP_CHARS_PER_INCH = 16


def wrap_stamp(text, width):
    """TEXT's lines broken at their " · " where longer than WIDTH characters."""
    out = []
    for line in text.split("\n"):
        current = ""
        for part in line.split(" · "):
            if current and len(current) + 3 + len(part) > width:
                out.append(current)
                current = part
            else:
                current = f"{current} · {part}" if current else part
        out.append(current)
    return "\n".join(out)


def draw_stamp(fig, stamp):
    """STAMP's text along the foot of FIG, below everything the layout
    places, wrapped until it is narrower than the figure: a stamp is never
    cut at the figure's edge."""
    width = int(fig.get_figwidth() * STAMP_CHARS_PER_INCH)
    text = fig.text(0.005, 0.004, "", fontsize=STAMP_SIZE, ha="left", va="bottom",
                    color=STAMP_EMULATED if stamp["emulated"] else "0.35")
    renderer = fig.canvas.get_renderer()
    while True:
        text.set_text(wrap_stamp(stamp["text"], width))
        if text.get_window_extent(renderer).x1 <= fig.bbox.x1 * 0.995 or width <= 20:
            break
        width = int(width * 0.9)
    lines = text.get_text().count("\n") + 1
    room = (STAMP_SIZE * 1.35 * lines + 6) / 72 / fig.get_figheight()
    fig.get_layout_engine().set(rect=(0, room, 1, 1 - room))


def legend_outside(ax, where="right", **kw):
    """AX's legend beside the axes (WHERE: "right", "below" or "above"),
    never over the data; the constrained layout makes room for it."""
    places = {"right": ("upper left", (1.01, 1.0)),
              "below": ("upper center", (0.5, -0.12)),
              "above": ("lower center", (0.5, 1.01))}
    loc, anchor = places[where]
    kw.setdefault("fontsize", "small")
    return ax.legend(loc=loc, bbox_to_anchor=anchor, **kw)


def save_png(fig, path):
    """Write FIG to PATH through PATH.tmp, so PATH is never half written."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        fig.savefig(tmp, format="png")
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise PlotError(f"{path}: {e.strerror or e}") from e
    return path
