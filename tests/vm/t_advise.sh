#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wsc trace --advise against the loaded module, on wl_advise's known runs:
# the sequences, their counts and references exact at a gap that splits
# the groups, one folded run at a gap that joins everything, none at a
# tiny gap, user work between calls honoured; the calibration stored in
# $WSC_CALIBRATION on first use, reused (same date) on the second, redone
# by --recalibrate; bad options
# rejected (exit 2).  No timing is asserted: the VM is TCG.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/trace_lib.sh"
. "$(dirname "$0")/usage_lib.sh"
echo "TAP version 13"

wla=$(pwd)/build/tests/vm/wl_advise
file=$out/small.txt
echo "twenty bytes of text" > "$file"
WSC_CALIBRATION=$out/calibration.conf
export WSC_CALIBRATION

# --- first use: measured and stored; the groups apart at 1 ms
$wsc trace --advise --gap 1ms --json -o "$out/scan.json" -- "$wla" scan "$file" 2> "$out/scan.err"
check "scan --gap 1ms: exit 0" test $? -eq 0
check "first use: calibration measured (said on stderr) and stored" \
	sh -c "grep -q 'measuring what one kernel entry costs' '$out/scan.err' && test -s '$WSC_CALIBRATION'"
# A key no version knows: a reuse leaves it, a new measurement does not.
echo "marker=kept while reused" >> "$WSC_CALIBRATION"

# --- again: reused, then the other gaps and shapes
$wsc trace --advise --json -o "$out/default.json" -- "$wla" scan "$file" 2> "$out/default.err"
check "scan, default gap: exit 0, nothing measured" \
	sh -c "test $? -eq 0 && ! grep -q measuring '$out/default.err'"
$wsc trace --advise --gap 60000ms --json -o "$out/join.json" -- "$wla" scan "$file"
check "scan --gap 60000ms: exit 0" test $? -eq 0
$wsc trace --advise --gap 1ns --json -o "$out/tiny.json" -- "$wla" scan "$file"
check "scan --gap 1ns: exit 0" test $? -eq 0
$wsc trace --advise --gap 10us --json -o "$out/work.json" -- "$wla" work "$file"
check "work --gap 10us: exit 0" test $? -eq 0
$wsc trace --advise --gap 60000ms --json -o "$out/workjoin.json" -- "$wla" work "$file"
check "work --gap 60000ms: exit 0" test $? -eq 0
$wsc trace --advise --gap 1ms -o "$out/scan.txt" -- "$wla" scan "$file"
check "scan, the table: exit 0" test $? -eq 0

checks_by 12 "$python" - "$out" "$WSC_CALIBRATION" <<'PY'
import json, os, sys
from verdicts import check
out, calib = sys.argv[1], sys.argv[2]
def load(name):
    return json.load(open(os.path.join(out, name)))["batching"]
def ours(b, summary):
    """The sequences of wl_advise's own calls (the loader's are others)."""
    return [s for s in b["sequences"] if s["summary"] == summary]
FOUR = ["openat", "newfstatat", "read", "close"]
SCAN = " -> ".join(FOUR)
JOINED = "(openat -> newfstatat -> read -> close) x 10 -> getpid x 5"
REFS = ["newfstatat#1.arg0 = openat#0", "read#2.arg0 = openat#0",
        "close#3.arg0 = openat#0"]

def scan():
    b = load("scan.json")
    seqs = ours(b, SCAN)
    assert [(s["calls"], s["count"]) for s in seqs] == [(FOUR, 10)], b["sequences"]
    assert not [s for s in b["sequences"] if "getpid" in s["calls"]], b["sequences"]
    assert b["gap_ns"] == 1000000 and not b["gap_default"], b["gap_ns"]
check("scan --gap 1ms: 10 x openat -> newfstatat -> read -> close, each getpid alone", scan)

def refs():
    s = ours(load("scan.json"), SCAN)[0]
    assert [r["text"] for r in s["references"]] == REFS, s["references"]
    assert [(r["call"], r["arg"], r["source"]) for r in s["references"]] == [
        (1, 0, 0), (2, 0, 0), (3, 0, 0)], s["references"]
check("scan --gap 1ms: the references, read.arg0 = openat#0 and the like", refs)

def saving():
    b = load("scan.json")
    c = b["calibration"]
    s = ours(b, SCAN)[0]
    n = 4
    want = n * c["entry_ns"] - (c["batch_fixed_ns"] + n * c["batch_per_call_ns"])
    # The JSON's costs have one decimal: each of a run's 9 terms is off
    # by up to 0.05 ns, so a run's saving by up to 0.45 ns.
    if s["worth"]:
        assert abs(s["saving_ns"] - 10 * want) <= 10 * 0.5, (s, want)
    else:
        assert s["saving_ns"] == 0 and want <= 0.05, (s, want)
    worth = [x for x in b["sequences"] if x["worth"]]
    assert b["entries_now"] == sum(x["count"] * len(x["calls"]) for x in worth if x["length"] <= 64)
    assert abs(b["predicted_saving_ns"] - sum(x["saving_ns"] for x in b["sequences"])) < 1 + len(b["sequences"]) * 0.1
check("scan: the saving is the model's, from the calibration", saving)

def join():
    b = load("join.json")
    seqs = ours(b, JOINED)
    assert len(seqs) == 1 and seqs[0]["count"] == 1, b["sequences"]
    assert not ours(b, SCAN), b["sequences"]
    assert seqs[0]["length"] == 45 and len(seqs[0]["references"]) == 30, seqs[0]
check("scan --gap 60000ms: one run, (openat -> newfstatat -> read -> close) x 10 -> getpid x 5", join)

def tiny():
    b = load("tiny.json")
    assert b["runs"] == 0 and b["sequences"] == [] and b["entries_now"] == 0, b
    assert b["predicted_saving_ns"] == 0, b
check("scan --gap 1ns: no run at all", tiny)

def work():
    b = load("work.json")
    assert not [s for s in b["sequences"] if "read -> close" in s["summary"]], b["sequences"]
    seqs = ours(load("workjoin.json"), "(openat -> read -> close) x 10")
    assert len(seqs) == 1 and seqs[0]["count"] == 1, seqs
    assert seqs[0]["references"][:2] == [
        {"call": 1, "arg": 0, "source": 0, "text": "read#1.arg0 = openat#0"},
        {"call": 2, "arg": 0, "source": 0, "text": "close#2.arg0 = openat#0"}], seqs[0]
check("work: user work splits at --gap 10us, joins at --gap 60000ms", work)

def default_gap():
    b = load("default.json")
    c = b["calibration"]
    assert c["gap_floor_ns"] > 0, c
    assert b["gap_default"] and abs(b["gap_ns"] - 8 * c["gap_floor_ns"]) <= 4, (b["gap_ns"], c)
check("default gap: eight calibrated gap floors", default_gap)

def keys():
    for name in ("scan.json", "default.json", "join.json", "tiny.json"):
        b = load(name)
        for k in ("predicted_saving_ns", "entries_now", "entries_batched", "gap_ns",
                  "sequences", "already_wrapped", "lost_events", "calibration"):
            assert k in b, (name, k)
        assert b["lost_events"] == 0 and b["already_wrapped"] == 0, (name, b)
        for k in ("path", "date", "kernel", "module", "entry_ns", "batch_fixed_ns",
                  "batch_per_call_ns", "break_even"):
            assert k in b["calibration"], (name, k)
check("the JSON's batching object: its keys, no event lost", keys)

def stored():
    text = open(calib).read()
    kv = dict(l.split("=", 1) for l in text.splitlines() if l and not l.startswith("#"))
    assert kv["version"] == "1" and kv["kernel"] == os.uname().release, kv
    c = load("scan.json")["calibration"]
    assert c["path"] == calib and c["measured_now"], c
    assert kv["date"] == c["date"] and float(kv["entry_ns"]) == c["entry_ns"], (kv, c)
    assert int(kv["break_even"]) == c["break_even"], (kv, c)
    assert float(kv["gap_floor_ns"]) == c["gap_floor_ns"], (kv, c)
check("the calibration file: the contract's keys, what the report used", stored)

def reused():
    first = load("scan.json")["calibration"]
    for name in ("default.json", "join.json", "tiny.json", "work.json"):
        c = load(name)["calibration"]
        assert not c["measured_now"] and c["date"] == first["date"], (name, c)
check("second and later runs: the same calibration (same date), not measured", reused)

def table():
    t = open(os.path.join(out, "scan.txt")).read()
    sec = t[t.index("\nbatching"):]
    assert "openat -> newfstatat -> read -> close" in sec, sec
    assert "10 runs of 4 calls" in sec and "read#2.arg0 = openat#0" in sec, sec
    assert "gap threshold 1.00ms (--gap)" in sec and "kernel entries of the runs of " in sec, sec
    assert "calibration: " + calib in sec and "predicted saving: at most" in sec, sec
check("the table: the batching section after it", table)

def width():
    t = open(os.path.join(out, "scan.txt")).read()
    sec = t[t.index("\nbatching"):]
    assert max(len(l) for l in sec.splitlines()) <= 100, "a line over 100 columns"
check("the batching section: 100 columns at most", width)
PY

# --- refreshed on demand
check "reuse keeps the file as it is" grep -q '^marker=' "$WSC_CALIBRATION"
$wsc trace --advise --recalibrate --json -o "$out/recal.json" -- "$wla" scan "$file" 2> "$out/recal.err"
check "--recalibrate: measured again (said), the file rewritten" \
	sh -c "grep -q measuring '$out/recal.err' && ! grep -q '^marker=' '$WSC_CALIBRATION'"
check "--recalibrate: the report says measured now" \
	grep -q '"measured_now": true' "$out/recal.json"

# --- a file that cannot be written: the advice all the same, and a hint
: > "$out/plain-file"
WSC_CALIBRATION=$out/plain-file/c.conf $wsc trace --advise -o /dev/null -- true 2> "$out/unstored.err"
check "calibration not stored: exit 0, why, and WSC_CALIBRATION as the way out" \
	sh -c "test $? -eq 0 && grep -q '^wsc trace: --advise: calibration not stored: $out/plain-file/c.conf: Not a directory$' '$out/unstored.err' && grep -q 'WSC_CALIBRATION=FILE keeps it' '$out/unstored.err'"

# --- bad command lines
usage_err "--gap -1" "wsc trace: --gap: '-1' is not a time (NS, or a number with ns, us or ms)" \
	"$wsc" trace --advise --gap -1 -- true
usage_err "--gap 1xs" "wsc trace: --gap: '1xs' is not a time (NS, or a number with ns, us or ms)" \
	"$wsc" trace --advise --gap 1xs -- true
usage_err "--gap 61000ms" "wsc trace: --gap: 61000ms is out of range 0..60s" \
	"$wsc" trace --advise --gap 61000ms -- true
usage_err "--gap without --advise" "wsc trace: --gap and --recalibrate go with --advise" \
	"$wsc" trace --gap 1ms -- true
usage_err "--recalibrate without --advise" "wsc trace: --gap and --recalibrate go with --advise" \
	"$wsc" trace --recalibrate -- true

rm -rf "$out"
tap_done
