# SPDX-License-Identifier: GPL-2.0
"""user/plot/wsc-plot fit: the JSON of `wsc bench fit --json`.

Per call it measured (an object with "batched_ns"; wsc writes "nop" and
"getpid"), the median time per call of a batch of B calls
("batched_ns", keyed by B) with the lowest and highest round beside it
("batched_ns_spread"), the plain system call's time ("syscall_ns") and
the line fitted to the batches' total time, fixed_ns + B x per_call_ns:
per call, fixed_ns / B + per_call_ns.  The figure draws those points
against B, the fitted curve and its parameters, and the plain call as
the line to beat; the comparisons are computed here from the times.
"""
from pathlib import Path

from .common import (PlotError, environment_stamp, field, fmt_time, import_matplotlib,
                     is_number, legend_outside, load_json, log_time_axis, make_outdir, mpl,
                     new_figure, save_png, shown, speedup_words)

FIT_PNG = "bench-fit.png"


def read_spread(path, obj, key, where):
    """OBJ's KEY_spread, a [lowest, highest] pair, or None when absent."""
    spread = obj.get(f"{key}_spread")
    if spread is None:
        return None
    if not (isinstance(spread, list) and len(spread) == 2 and all(map(is_number, spread))
            and spread[0] <= spread[1]):
        raise PlotError(f"{path}: {where}\"{key}_spread\" is {shown(spread)}, "
                        "expected [lowest, highest]")
    return tuple(spread)


def read_call(path, name, obj):
    """Check one call's object of `wsc bench fit --json`; return it as
    {"name", "syscall_ns", "batches": [(B, ns, spread)...] by B, "fixed_ns",
    "per_call_ns", and each *_spread}."""
    where = f"{name}: "
    batched = obj["batched_ns"]
    if not isinstance(batched, dict):
        raise PlotError(f"{path}: {where}\"batched_ns\" is {shown(batched)}, expected "
                        "an object of time per call by batch size")
    spreads = obj.get("batched_ns_spread") or {}
    if not isinstance(spreads, dict):
        raise PlotError(f"{path}: {where}\"batched_ns_spread\" is not an object")
    batches = []
    for key, ns in batched.items():
        try:
            b = int(key)
        except ValueError:
            b = 0
        if b < 1:
            raise PlotError(f"{path}: {where}batched_ns: batch size {key!r} is not "
                            "an integer >= 1")
        if not (is_number(ns) and ns >= 0):
            raise PlotError(f"{path}: {where}batched_ns[\"{key}\"] is {shown(ns)}, "
                            "expected a finite number >= 0")
        spread = read_spread(path, {"x_spread": spreads.get(key)}, "x",
                             f"{where}batched_ns_spread[\"{key}\"]: ")
        batches.append((b, float(ns), spread))
    if not batches:
        raise PlotError(f"{path}: {where}\"batched_ns\" is empty")
    call = {"name": name, "batches": sorted(batches)}
    for key in ("syscall_ns", "fixed_ns", "per_call_ns"):
        call[key] = float(field(path, obj, key, "ns", where))
        call[f"{key}_spread"] = read_spread(path, obj, key, where)
    if "ioctl_ns" in obj:
        call["ioctl_ns"] = float(field(path, obj, "ioctl_ns", "ns", where))
    return call


def read_fit_json(path):
    """Return (document, [call, ...]) of `wsc bench fit --json` in PATH, checked."""
    doc = load_json(path)
    if "variants" in doc or "experiment" in doc or "results" in doc:
        raise PlotError(f"{path}: not the output of wsc bench fit --json (no batch "
                        "sizes; did you mean user/plot/wsc-plot bench or klat?)")
    calls = [read_call(path, name, obj) for name, obj in doc.items()
             if isinstance(obj, dict) and "batched_ns" in obj]
    if not calls:
        raise PlotError(f"{path}: no call with \"batched_ns\": not the output of "
                        "wsc bench fit --json")
    return doc, calls


def spread_text(value, spread):
    if spread is None:
        return fmt_time(value)
    return f"{fmt_time(value)} [{fmt_time(spread[0])}..{fmt_time(spread[1])}]"


def plot_call(ax, call, doc):
    np = mpl.np
    b = np.array([x for x, _, _ in call["batches"]], dtype=float)
    ns = np.array([y for _, y, _ in call["batches"]])
    lo = [y - (s[0] if s else y) for _, y, s in call["batches"]]
    hi = [(s[1] if s else y) - y for _, y, s in call["batches"]]
    plain = call["syscall_ns"]
    # The plain call: the line to beat, its band the rounds' spread.
    ax.axhline(plain, color="C3", linewidth=1.5,
               label=f"plain system call: {spread_text(plain, call['syscall_ns_spread'])}")
    if call["syscall_ns_spread"]:
        ax.axhspan(*call["syscall_ns_spread"], color="C3", alpha=0.12, linewidth=0)
    fixed, per = call["fixed_ns"], call["per_call_ns"]
    curve = np.geomspace(b.min() / 1.3, b.max() * 1.3, 200)
    fit_name = doc.get("fit") if isinstance(doc.get("fit"), str) else "fitted"
    ax.plot(curve, fixed / curve + per, color="C0", linewidth=1.5,
            label=f"fit ({fit_name}): {fmt_time(fixed)} / B + {fmt_time(per)}")
    ax.axhline(per, color="C0", linestyle=":", linewidth=1,
               label=f"per call as B grows: {spread_text(per, call['per_call_ns_spread'])}")
    ax.errorbar(b, ns, yerr=[lo, hi], fmt="o", color="black", markersize=4, capsize=3,
                label="measured: median of the rounds, bar lowest..highest")
    # Where batching starts to pay: fixed / B + per = plain.
    if plain > per:
        even = fixed / (plain - per)
        ax.axvline(even, color="0.4", linestyle="--", linewidth=1)
        ax.annotate(f"break-even\nB = {even:.1f}", (even, 0.97), xycoords=("data", "axes fraction"),
                    xytext=(4, 0), textcoords="offset points", ha="left", va="top",
                    fontsize="small", color="0.3")
    ax.set_xscale("log", base=2)
    ax.set_xticks(b, [f"{int(x)}" for x in b])
    ax.xaxis.set_minor_formatter(mpl.FuncFormatter(lambda x, _: ""))
    ax.set_xlabel("batch size B (calls per kernel entry)")
    log_time_axis(ax, "y", "time per call")
    ax.grid(True, which="major", alpha=0.3)
    best = call["batches"][-1]
    # The fitted numbers in the title, above the data (inside the panel, a
    # box hid the per-call line).
    ax.set_title(f"{call['name']}\nfixed cost per batch "
                 f"{spread_text(fixed, call['fixed_ns_spread'])}, cost per call "
                 f"{spread_text(per, call['per_call_ns_spread'])}\nB = {best[0]}: "
                 f"{speedup_words(plain / best[1]) if best[1] > 0 else '-'} than plain",
                 fontsize="small")
    legend_outside(ax, "below", fontsize="x-small", ncols=2, frameon=False)


def plot_fit(doc, calls, stamp, path):
    fig = new_figure(6 * len(calls) + 0.5, 5.8, stamp=stamp)
    axes = fig.subplots(1, len(calls), squeeze=False)[0]
    for ax, call in zip(axes, calls):
        plot_call(ax, call, doc)
    rounds = doc.get("rounds")
    iters = doc.get("iters")
    how = ", ".join(x for x in (f"{iters:,} calls per variant" if isinstance(iters, int) else "",
                                f"{rounds} rounds" if isinstance(rounds, int) else "") if x)
    fig.suptitle("wsc bench fit: time per call against the batch size, with the "
                 f"fitted line\n{how}" if how else "", fontsize="medium")
    return save_png(fig, path)


def run_fit(args):
    path = Path(args.file)
    doc, calls = read_fit_json(path)
    out = Path(args.outdir) if args.outdir else path.parent
    import_matplotlib()
    make_outdir(out)
    yield plot_fit(doc, calls, environment_stamp(path, doc), out / FIT_PNG)


def add_fit(commands):
    p = commands.add_parser(
        "fit", help="wsc bench fit: time per call against the batch size, the fitted line",
        description=f"From FILE, written by `wsc bench fit --json`, draw {FIT_PNG}: per "
        "call measured (a panel each), the median time per call of a batch of B calls "
        "against B (bars: the lowest and highest round), the fitted cost fixed / B + "
        "per call with its parameters, the plain system call as the line to beat (its "
        "band: the rounds' spread) and the break-even batch size; stamped with the "
        "machine it was measured on.")
    p.add_argument("file", metavar="FILE.json", help="the output of wsc bench fit --json")
    p.add_argument("-o", "--outdir", metavar="OUTDIR",
                   help="where to write the PNG (default: FILE's folder)")
    p.set_defaults(run=run_fit)
