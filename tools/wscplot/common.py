# SPDX-License-Identifier: GPL-2.0
"""What every subcommand of tools/plot shares: its errors, reading and
checking JSON, the order and colour of names taken from the data, and
the figures' canvas, axes and atomic writes.

Needs only the standard library until import_matplotlib() is called.
"""
import json
import math
import os
import sys
import types

PROG = "plot"

# numpy and matplotlib's names, filled by import_matplotlib(): mpl.np,
# mpl.Figure, mpl.FigureCanvasAgg, mpl.Patch, mpl.FuncFormatter.
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
        from matplotlib.patches import Patch
        from matplotlib.ticker import FuncFormatter
    except ImportError as e:
        sys.exit(f"{PROG}: {sys.executable} cannot import {e.name}: run tools/install-deps")
    mpl.np = numpy
    mpl.FigureCanvasAgg = FigureCanvasAgg
    mpl.Figure = Figure
    mpl.Patch = Patch
    mpl.FuncFormatter = FuncFormatter


def note(message):
    print(f"{PROG}: {message}", file=sys.stderr)


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

def fmt_ns(ns):
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.3g}"


def new_figure(width=8, height=4.5):
    fig = mpl.Figure(figsize=(width, height), dpi=120, layout="constrained")
    mpl.FigureCanvasAgg(fig)
    return fig


def log_ns_axis(ax):
    """Make the x axis log-scaled ns per call, labelled in plain numbers.

    Matplotlib labels only the powers of ten across more than a decade;
    between them label 2 and 5 too when the axis spans at most three
    decades, and every tick when it spans less than one.
    """
    np = mpl.np

    def plain(x, _):
        return f"{x:,.0f}" if x >= 1 else f"{x:g}"

    def minor(x, _):
        lo, hi = ax.get_xlim()
        digit = round(x / 10 ** np.floor(np.log10(x)))
        if hi / lo <= 10 or (hi / lo <= 1000 and digit in (2, 5)):
            return plain(x, _)
        return ""

    ax.set_xscale("log")
    ax.set_xlabel("ns per call")
    ax.xaxis.set_major_formatter(mpl.FuncFormatter(plain))
    ax.xaxis.set_minor_formatter(mpl.FuncFormatter(minor))


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
