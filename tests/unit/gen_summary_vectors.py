#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Write tests/unit/summary_vectors.h: sample sets and the integer summary
include/wsc_summary.h must give for them, computed independently of it.

    python3 tests/unit/gen_summary_vectors.py > tests/unit/summary_vectors.h

Two computations per set, and the script stops if they disagree:

  exact    the documented integer rules, in Python integers: mean =
           (1000 sum + n // 2) // n ps (nearest, halves up); the variance
           floor(sum((1000 x - mean)^2) / (n - 1)) in ps^2, the deviations
           taken around that rounded mean; stddev = isqrt(variance); the
           95% half-width floor(sqrt(3.8416 variance / n)); quantiles by
           linear interpolation between closest ranks, exact in ps.
  library  Python's statistics module on the same samples in ps as
           Fractions: mean, stdev, quantiles(method="inclusive").  The
           exact figures must be within 1 ps of these (quantiles equal),
           so the vectors do not merely restate the header's arithmetic.

Samples are integer nanoseconds below 2^42 (the summary's documented
range); the sets include ties, n = 1 and 2, odd and even n, outliers up
to 1e12 ns (128-bit sums of squares) and a set whose 1000 * sum exceeds
2^64 (128-bit mean), given by a formula the C test repeats.
"""
import math
import random
import statistics
from fractions import Fraction

random.seed(20261122)

PCTS = (50, 95, 99)


def exact_summary(data):
    """The documented integer rules, nothing else."""
    xs = sorted(data)
    n = len(xs)
    if n == 0:
        return dict(count=0, mean=0, median=0, stddev=0, min=0, max=0,
                    lo=0, hi=0, p50=0, p95=0, p99=0)
    total = sum(xs)
    mean = (1000 * total + n // 2) // n
    # Nearest, halves up, exactly as the rule says.
    assert mean == math.floor(Fraction(1000 * total, n) + Fraction(1, 2))
    if n > 1:
        sq = sum((1000 * x - mean) ** 2 for x in xs)
        var = sq // (n - 1)
        stddev = math.isqrt(var)
        half = math.isqrt(var * 38416 // (10000 * n))
        # floor(sqrt(3.8416 var / n)), as a Fraction, no floats.
        h2 = Fraction(38416, 10000) * var / n
        assert half * half <= h2 < (half + 1) ** 2
    else:
        stddev = half = 0

    def quantile(p):
        num = (n - 1) * p            # position num / 100
        lo, frac = divmod(num, 100)
        if frac == 0:
            return 1000 * xs[lo]
        return 1000 * xs[lo] + frac * 10 * (xs[lo + 1] - xs[lo])

    q = {p: quantile(p) for p in PCTS}
    return dict(count=n, mean=mean, median=q[50], stddev=stddev,
                min=1000 * xs[0], max=1000 * xs[-1],
                lo=max(mean - half, 0), hi=mean + half,
                p50=q[50], p95=q[95], p99=q[99])


def library_figures(data):
    """Python's statistics module, on picoseconds as Fractions."""
    ps = [Fraction(1000 * x) for x in data]
    n = len(ps)
    mean = statistics.mean(ps)                    # exact Fraction
    if n > 1:
        stdev = statistics.stdev(ps)              # float
        half = 1.96 * stdev / math.sqrt(n)
        cuts = statistics.quantiles(ps, n=100, method="inclusive")
        q = {p: cuts[p - 1] for p in PCTS}
    else:
        stdev = half = 0.0
        q = {p: ps[0] for p in PCTS}
    return mean, stdev, half, q


def check(name, data, s):
    mean, stdev, half, q = library_figures(data)
    assert abs(s["mean"] - mean) <= Fraction(1, 2), (name, s["mean"], mean)
    # Floats of up to 1e15 ps carry an error of an eighth of a ps at most.
    tol = 1 + 1e-12 * max(1.0, stdev)
    assert abs(s["stddev"] - stdev) < tol, (name, s["stddev"], stdev)
    assert abs((s["hi"] - s["mean"]) - half) < tol, (name, s["hi"] - s["mean"], half)
    if s["lo"] > 0:
        assert abs((s["mean"] - s["lo"]) - half) < tol, name
    for p in PCTS:
        assert q[p].denominator == 1 and q[p] == s["p%d" % p], (name, p, q[p])
    assert s["median"] == statistics.median([1000 * x for x in data])
    assert s["min"] <= s["p50"] <= s["p95"] <= s["p99"] <= s["max"]
    return float(mean), stdev, half


def lognormal_ns(n, mu, sigma):
    return [int(round(random.lognormvariate(mu, sigma))) for _ in range(n)]


# Sets given as data.  Unsorted on purpose: wsc_stats_summary() sorts.
sets = [
    ("one", [42]),
    ("two", [3, 1]),
    ("odd", [5, 1, 4, 2, 3]),
    ("even", [61, 10, 40, 20, 50, 30]),
    ("ties", [7, 7, 7, 1, 7, 9]),
    ("constant", [250] * 40),
    ("zeros", [0, 0, 0, 0, 0]),
    # 1000 sum / n = 62.5 ps exactly: the mean rounds half up, to 63.
    ("half_up", [0] * 15 + [1]),
    # A tight spinlock-like set: variance / n is about 2 ps^2, so
    # flooring it before the factor 3.8416 would lose most of the width.
    ("tight", random.sample([20] * 998 + [21] * 2, 1000)),
    ("pair_huge", [1000000000000, 0]),
    ("outliers", random.sample(lognormal_ns(197, 4.6, 0.3)
                               + [10 ** 12, 999999999999, 123456789012], 200)),
    ("lognormal_1000", lognormal_ns(1000, 5.5, 0.4)),
    ("uniform_1000", [random.randrange(0, 1000000) for _ in range(1000)]),
    ("heavy_1000", random.sample(lognormal_ns(990, 3.0, 1.5)
                                 + [random.randrange(10 ** 9, 10 ** 12)
                                    for _ in range(10)], 1000)),
    ("small_1000", [random.choice((19, 20, 20, 20, 21, 22)) for _ in range(1000)]),
]

# Sets given by a formula, x_i = base + (i * mult) % mod, i = 0..n-1.
formulas = [
    # 1000 * sum is about 2.1e19 > 2^64: the mean's 128-bit division.
    ("big_mean", 5000, 4200000000000, 7919, 1000003),
    ("wide_4096", 4096, 0, 2654435761, 4000000000000),
]

out = [
    "/* Generated by tests/unit/gen_summary_vectors.py: do not edit. */",
    "#include <stdint.h>",
    "",
    "/*",
    " * @sum: what wsc_summary_compute() must give, in ps;",
    " * @mean_f, @stdev_f, @half_f: Python's statistics module in ps",
    " * (mean, stdev, 1.96 stdev / sqrt(n)), which @sum must be within 1 ps of.",
    " */",
    "struct summary_vector {",
    "\tconst char *name;",
    "\tuint64_t n;",
    "\tconst uint64_t *data;\t/* NULL: x_i = base + (i * mult) % mod */",
    "\tuint64_t base, mult, mod;",
    "\tstruct wsc_summary sum;",
    "\tdouble mean_f, stdev_f, half_f;",
    "};",
    "",
]

rows = []


def row(name, n, data_ref, base, mult, mod, data):
    s = exact_summary(data)
    mean_f, stdev_f, half_f = check(name, data, s)
    fields = ", ".join("%dull" % s[k] for k in (
        "count", "mean", "median", "stddev", "min", "max", "lo", "hi",
        "p50", "p95", "p99"))
    rows.append("\t{ \"%s\", %d, %s, %dull, %dull, %dull,\n\t  { %s },\n\t  %r, %r, %r },"
                % (name, n, data_ref, base, mult, mod, fields,
                   mean_f, stdev_f, half_f))


for name, data in sets:
    assert all(0 <= x < 2 ** 42 for x in data)
    out.append("static const uint64_t %s_data[] = {" % name)
    for i in range(0, len(data), 8):
        out.append("\t" + ", ".join("%d" % x for x in data[i:i + 8]) + ",")
    out.append("};")
    row(name, len(data), "%s_data" % name, 0, 0, 0, data)

for name, n, base, mult, mod in formulas:
    data = [base + (i * mult) % mod for i in range(n)]
    assert all(0 <= x < 2 ** 42 for x in data)
    if name == "big_mean":
        assert 1000 * sum(data) >= 2 ** 64
    row(name, n, "NULL", base, mult, mod, data)

out.append("")
out.append("static const struct summary_vector summary_vectors[] = {")
out += rows
out.append("};")
print("\n".join(out))
