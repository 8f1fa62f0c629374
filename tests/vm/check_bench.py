#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check `wsc bench --json` output against its `--csv` samples.

    check_bench.py ITERS DIR CALL...

For each CALL, DIR/CALL.json (the --json output) and DIR/CALL.csv; prints
"ok CALL" or "not ok CALL: what differs", one line each, and exits 1 if
any differs.  One process for every call: Python starts slowly under TCG.

The JSON must have every documented key, the variants the call has, a
record per variant with `wsc klat`'s keys and `speedup` (the conventional
median over the variant's: above 1 is faster; no `ratio` key any more,
whose direction was the other way); the CSV as many samples per variant
as iterations (wake-ups: kept + refused), and its samples must summarise
to the JSON's median, minimum and maximum per call, and its speedups.
A run a signal cut short ("interrupted": true) must say how many
iterations it kept, fewer than asked, and hold as many (one more where
the signal cut a round).  Exits 1 with the first difference.
"""
import csv
import json
import statistics
import sys

KLAT_KEYS = ("experiment", "description", "iterations", "cpus", "warmup",
             "count", "errors", "mean_ns", "median_ns", "stddev_ns", "min_ns",
             "max_ns", "ci95_ns", "p50_ns", "p95_ns", "p99_ns", "timer_ns",
             "net_mean_ns", "net_median_ns", "net_p99_ns", "block_ns",
             "block_ops", "run_id", "duration_ns")
URING = {"null", "open", "close", "read", "write", "read256", "write256",
         "pipe-write", "pipe-read"}


def expected_variants(call):
    if call == "sem":
        return ["conventional"]
    if call == "futex":
        return ["conventional", "wrapped-1"]
    v = ["conventional", "wrapped-1", "wrapped-8", "wrapped-64"]
    if call in URING:
        v += ["io_uring-1", "io_uring-8", "io_uring-64"]
    return v


def median_ps(ns):
    """Type-7 median of whole-sample ns, in ps, as wsc_summary.h has it."""
    s = sorted(ns)
    n = len(s)
    if n % 2:
        return s[n // 2] * 1000
    return (s[n // 2 - 1] + s[n // 2]) * 1000 // 2


def ns(ps):
    return ps / 1000.0


class Mismatch(Exception):
    pass


def fail(msg):
    raise Mismatch(msg)


def check(call, jpath, cpath, iters):
    d = json.load(open(jpath))
    for k in ("call", "description", "iterations", "iterations_done",
              "interrupted", "warmup", "clock_ns", "verified", "variants",
              "skipped", "counters", "environment"):
        if k not in d:
            fail(f"{call}: no key {k}")
    if d["call"] != call or d["iterations"] != iters:
        fail(f"{call}: call {d['call']} iterations {d['iterations']}")
    done = d["iterations_done"]
    if d["interrupted"]:
        if not 0 < done < iters:
            fail(f"{call}: interrupted with {done} of {iters} iterations")
    elif done != iters:
        fail(f"{call}: not interrupted, {done} of {iters} iterations")
    if "note" not in d["environment"]:
        fail(f"{call}: no environment note key")
    if d["verified"] is not True:
        fail(f"{call}: not verified")
    names = [v["variant"] for v in d["variants"]]
    if names != expected_variants(call):
        fail(f"{call}: variants {names}")
    if d["clock_ns"] <= 0:
        fail(f"{call}: clock_ns {d['clock_ns']}")

    # No hardware counters in the VM: said so, and no variant has any.
    env_has = d["environment"]["hardware_counters"]
    ctr = d["counters"]
    if not env_has:
        if ctr["available"] or not ctr["why"].startswith("not "):
            fail(f"{call}: counters {ctr}")
        if any(v["counters"] is not None for v in d["variants"]):
            fail(f"{call}: a variant has counters without a PMU")

    rows = {}
    with open(cpath, newline="") as f:
        r = csv.reader(f)
        if next(r) != ["call", "variant", "mechanism", "batch", "sample",
                       "ns", "ns_per_call"]:
            fail(f"{cpath}: header")
        for row in r:
            if row[0] != call:
                fail(f"{cpath}: row of {row[0]}")
            rows.setdefault(row[1], []).append(row)

    conv = None
    for v in d["variants"]:
        for k in KLAT_KEYS + ("variant", "mechanism", "batch", "speedup",
                              "net_speedup", "speedup_spread",
                              "net_speedup_spread", "counters"):
            if k not in v:
                fail(f"{call} {v['variant']}: no key {k}")
        for k in ("ratio", "net_ratio", "ratio_spread", "net_ratio_spread"):
            if k in v:
                fail(f"{call} {v['variant']}: the old key {k}")
        name, batch = v["variant"], v["batch"]
        got = rows.get(name, [])
        taken = v["count"] + v["errors"]
        if not done <= taken <= done + (1 if d["interrupted"] else 0) or \
                len(got) != v["count"]:
            fail(f"{call} {name}: count {v['count']} errors {v['errors']} csv {len(got)}, iterations {done}")
        if [int(x[4]) for x in got] != list(range(len(got))):
            fail(f"{call} {name}: sample indexes")
        if any(int(x[3]) != batch for x in got):
            fail(f"{call} {name}: batch column")
        samples = [int(x[5]) for x in got]
        for x in got:
            if abs(float(x[6]) - int(x[5]) / batch) > 0.001:
                fail(f"{call} {name}: ns_per_call {x[6]} for {x[5]}/{batch}")
        # The CSV's samples give the JSON's figures, per call.
        want = {
            "median_ns": ns(median_ps(samples) // batch),
            "min_ns": ns(min(samples) * 1000 // batch),
            "max_ns": ns(max(samples) * 1000 // batch),
        }
        for k, w in want.items():
            if abs(v[k] - w) > 0.0015:  # 1 ps of rounding
                fail(f"{call} {name}: {k} {v[k]}, the CSV gives {w}")
        if v["duration_ns"] != sum(samples):
            fail(f"{call} {name}: duration_ns {v['duration_ns']} != {sum(samples)}")
        if not (v["min_ns"] <= v["p50_ns"] <= v["p95_ns"] <= v["p99_ns"] <= v["max_ns"]):
            fail(f"{call} {name}: percentiles out of order")
        if abs(v["net_median_ns"] - max(0.0, v["median_ns"] - v["timer_ns"])) > 0.0005:
            fail(f"{call} {name}: net_median_ns")
        if conv is None:
            conv = v["median_ns"]
            conv_samples = samples
        # Speedup over the conventional call: its median / this one's.
        if v["median_ns"] and abs(v["speedup"] - conv / v["median_ns"]) > \
                0.0005 * max(1.0, v["speedup"]):
            fail(f"{call} {name}: speedup {v['speedup']}, want {conv / v['median_ns']:.4f}")
        if name == "conventional" and v["speedup"] != 1:
            fail(f"{call}: the conventional call's speedup {v['speedup']}")
        # The speedup in each round, from the CSV: stretches of n samples.
        rounds = d["rounds"]
        n = min(len(samples), len(conv_samples)) // rounds
        if n:
            per_round = [statistics.median(conv_samples[k * n:(k + 1) * n]) /
                         (statistics.median(samples[k * n:(k + 1) * n]) / batch)
                         for k in range(rounds)]
            lo, hi = v["speedup_spread"]
            tol = 0.0005 * max(1.0, hi)
            if abs(lo - min(per_round)) > tol or abs(hi - max(per_round)) > tol:
                fail(f"{call} {name}: speedup_spread {v['speedup_spread']}, the CSV gives "
                     f"[{min(per_round):.4f}, {max(per_round):.4f}]")
    extra = set(rows) - set(names)
    if extra:
        fail(f"{call}: CSV rows of {sorted(extra)}")


def main():
    iters, folder, calls = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    bad = 0
    for call in calls:
        try:
            check(call, f"{folder}/{call}.json", f"{folder}/{call}.csv", iters)
            print(f"ok {call}")
        except (Mismatch, OSError, ValueError, KeyError, TypeError) as e:
            print(f"not ok {call}: {e}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
