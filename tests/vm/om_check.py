# SPDX-License-Identifier: GPL-2.0
"""wsc trace --openmetrics's metrics against the report's JSON, for
t_openmetrics.sh: the file as written, or as node_exporter serves it
(which orders labels its own way and writes "le" as Go prints a float).

Samples are keyed (name, ((label, value), ...)) with the labels sorted
and "le" as a float; a time (a name with "seconds" but for a bucket or a
count) is kept as whole nanoseconds, every other value as an integer."""
import re

# The finite "le" bounds: 2^k - 1 ns, k = 6..36 (trace_openmetrics.h).
BOUNDS_NS = [(1 << k) - 1 for k in range(6, 37)]

_LINE = re.compile(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)')


def _unescape(s):
    return re.sub(r'\\(.)', lambda m: "\n" if m.group(1) == "n" else m.group(1), s)


def _is_time(name):
    return "seconds" in name and not name.endswith(("_bucket", "_count"))


def key(name, labels):
    labels = dict(labels)
    if "le" in labels:
        labels["le"] = float(labels["le"])
    return (name, tuple(sorted(labels.items())))


def parse(text, prefix="wsc_"):
    """The samples of an exposition whose names start with @prefix; raises
    on a line that is not a comment, a sample or blank."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = _LINE.match(line)
        assert m, "not a sample: %r" % line
        name, body, value = m.groups()
        if not name.startswith(prefix):
            continue
        labels, rest = [], body or ""
        while rest:
            lm = _LABEL.match(rest)
            assert lm, "bad labels: %r" % line
            labels.append((lm.group(1), _unescape(lm.group(2))))
            rest = rest[lm.end():]
        v = float(value)
        out[key(name, labels)] = round(v * 1e9) if _is_time(name) else int(v)
    return out


def families(text):
    """{name: [HELP seen, TYPE seen]} of an exposition's comment lines."""
    fam = {}
    for line in text.splitlines():
        f = line.split(" ", 3)
        if len(f) >= 3 and f[0] == "#" and f[1] in ("HELP", "TYPE"):
            fam.setdefault(f[2], [0, 0])[f[1] == "TYPE"] += 1
    return fam


def _tasks_by_pid(doc):
    procs = {}
    for t in doc["tasks"]:
        p = procs.get(t["pid"])
        if p is None:
            procs[t["pid"]] = p = dict(t)
            continue
        if t["tid"] == t["pid"]:
            p["comm"] = t["comm"]
        for k in ("calls", "errors", "on_cpu_ns", "off_cpu_ns"):
            p[k] += t[k]
    return procs.values()


def expected(doc, by_process=False):
    """The samples the report @doc (wsc trace -j) becomes."""
    tg = ("target", doc["target"])
    out = {key("wsc_trace_info", [tg, ("trace", str(doc["trace"]["id"]))]): 1,
           key("wsc_trace_duration_seconds", [tg]): doc["trace"]["duration_ns"],
           key("wsc_trace_lost_events_total", [tg]): doc["lost"]}
    if "ring" in doc:
        out[key("wsc_ring_lost_requests_total", [tg])] = doc["ring"]["lost"]
        out[key("wsc_ring_pending_requests", [tg])] = doc["ring"]["pending"]
    for s in doc["syscalls"]:
        # io_uring's requests (--ring) are wsc_ring_*, by opcode.
        if s.get("ring"):
            p, sc = "wsc_ring_", [tg, ("op", s["name"][len("ring:"):])]
            out[key(p + "requests_total", sc)] = s["calls"]
        else:
            p, sc = "wsc_syscall_", [tg, ("syscall", s["name"])]
            out[key(p + "calls_total", sc)] = s["calls"]
            out[key(p + "wrapped_total", sc)] = s["wrapped"]
            out[key(p + "cpu_seconds_total", sc)] = s["on_cpu_ns"]
            out[key(p + "off_cpu_seconds_total", sc)] = s["off_cpu_ns"]
        for e, n in s["errnos"].items():
            out[key(p + "errors_total", sc + [("errno", e)])] = n
        if s["errors"] > sum(s["errnos"].values()):
            out[key(p + "errors_total", sc + [("errno", "unknown")])] = \
                s["errors"] - sum(s["errnos"].values())
        h = p + "latency_seconds"
        for le in BOUNDS_NS:
            out[key(h + "_bucket", sc + [("le", "%.9f" % (le / 1e9))])] = \
                sum(b[2] for b in s["hist"] if b[1] <= le)
        out[key(h + "_bucket", sc + [("le", "+Inf")])] = s["hist_calls"]
        out[key(h + "_sum", sc)] = s["total_ns"]
        out[key(h + "_count", sc)] = s["hist_calls"]
    if by_process:
        for p in _tasks_by_pid(doc):
            pl = [tg, ("pid", str(p["pid"])), ("comm", p["comm"])]
            for k, v in (("calls", "calls"), ("errors", "errors"),
                         ("cpu_seconds", "on_cpu_ns"),
                         ("off_cpu_seconds", "off_cpu_ns")):
                out[key("wsc_process_%s_total" % k, pl)] = p[v]
    return out


def same(got, want, start):
    """The samples of both whose names start with @start are equal."""
    g = {k: v for k, v in got.items() if k[0].startswith(start)}
    w = {k: v for k, v in want.items() if k[0].startswith(start)}
    assert w, "no %s* sample expected" % start
    diff = sorted(set(g) ^ set(w)) + sorted(k for k in set(g) & set(w) if g[k] != w[k])
    assert not diff, "%d differ, first %r: got %r, want %r" % (
        len(diff), diff[0], g.get(diff[0]), w.get(diff[0]))


def calls_of(samples):
    """{syscall: calls} of parsed samples."""
    return {dict(k[1])["syscall"]: v for k, v in samples.items()
            if k[0] == "wsc_syscall_calls_total"}
