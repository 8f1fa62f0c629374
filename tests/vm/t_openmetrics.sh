#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wsc trace --openmetrics: the file of a known program has samples equal
# to the report's JSON of the same run (calls,
# errors by errno, times, the histogram's cumulative buckets, the tasks per
# process); node_exporter's textfile collector serves them, scraped over
# HTTP, with the same values and no parse error (promtool check metrics
# runs in the unit test test_openmetrics: under TCG it takes 20 s to
# start); with --interval (and -a) the file is
# replaced whole, never seen half-written by a reader that reads it all
# the while, its counts only grow and its last version is the whole
# report's; -p too; an unwritable path is refused before anything runs.
# Skipped when prometheus-node-exporter is missing.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/usage_lib.sh"
. "$(dirname "$0")/trace_lib.sh"
echo "TAP version 13"

exporter=$(command -v prometheus-node-exporter || command -v node_exporter)
if [ -z "$exporter" ]; then
	echo "1..0 # SKIP prometheus-node-exporter is not installed (tools/install-deps)"
	rm -rf "$out"
	exit 0
fi
N=100
dir=$out/textfile
mkdir "$dir"
# node_exporter, its textfile collector alone, serving the folder: started
# first, as a Go program's first start takes seconds under TCG.
ip link set lo up 2> /dev/null
port=19$((100 + $$ % 800))
"$exporter" --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory "$dir" \
	--web.listen-address "127.0.0.1:$port" > "$out/exporter.log" 2>&1 &
exporter_pid=$!

# --- a known program, with -j and --openmetrics
j=$out/known.json
f=$dir/wsc.prom
$wsc trace -j -o "$j" --by process --openmetrics "$f" -- \
	sh -c "\"$wl\" errnos $N && \"$wl\" procs $N 3" > /dev/null 2>&1
check "trace -j --openmetrics FILE -- a command: exit 0, FILE written, no FILE.tmp left" \
	sh -c "test $? -eq 0 && test -s '$f' && test ! -e '$f.tmp'"

# --- the file against the JSON; node_exporter scraped over HTTP; -a
# --interval read all the while; -p.  One Python: each start costs
# seconds under TCG.
checks_by 15 "$python" - "$j" "$f" "$N" "http://127.0.0.1:$port/metrics" \
	"$wsc" "$wl" "$out" <<'PY'
import json, os, subprocess, sys, time, urllib.request
import om_check as om
from verdicts import check
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
n = int(sys.argv[3])
url, wsc, wl, out = sys.argv[4:8]
got = om.parse(text)
want = om.expected(doc, by_process=True)

def complete():
    assert text.endswith("\n# EOF\n"), "no # EOF at the end"
    assert all(v == [1, 1] for v in om.families(text).values()), om.families(text)
    assert doc["lost"] == 0 and doc["syscalls"]

def counts():
    om.same(got, want, "wsc_syscall_calls_total")
    om.same(got, want, "wsc_syscall_wrapped_total")

def errors():
    om.same(got, want, "wsc_syscall_errors_total")
    e = {(dict(k[1])["syscall"], dict(k[1])["errno"]): v for k, v in got.items()
         if k[0] == "wsc_syscall_errors_total"}
    assert e[("close", "EBADF")] == n and e[("chdir", "ENOTDIR")] == n, e
    for s in doc["syscalls"]:
        assert sum(v for (c, _), v in e.items() if c == s["name"]) == s["errors"], s["name"]

def hist():
    om.same(got, want, "wsc_syscall_latency_seconds")
    for s in doc["syscalls"]:
        assert s["hist_calls"] == s["calls"], s["name"]

check("the file: whole (# EOF), one HELP and TYPE per family, nothing lost", complete)
check("calls and wrapped calls per syscall: the JSON's", counts)
check("errors per syscall and errno: the JSON's (close EBADF and chdir ENOTDIR %d each)" % n, errors)
check("the latency histogram: cumulative at each le as the JSON's buckets, +Inf = _count = calls, _sum = total_ns", hist)
check("on- and off-CPU seconds per syscall: the JSON's nanoseconds",
      lambda: [om.same(got, want, s) for s in
               ("wsc_syscall_cpu_seconds", "wsc_syscall_off_cpu_seconds")])
check("per process (--by process): calls, errors, times as the JSON's tasks summed",
      lambda: om.same(got, want, "wsc_process_"))
check("the trace: target and id as the JSON's, its duration, lost 0",
      lambda: om.same(got, want, "wsc_trace_"))

served = ""
for _ in range(1200):
    try:
        served = urllib.request.urlopen(url, timeout=5).read().decode()
        break
    except OSError:
        time.sleep(0.05)

def answered():
    err = om.parse(served, "node_textfile_scrape_error")
    assert err == {("node_textfile_scrape_error", ()): 0}, err

def typed():
    for line in ("# TYPE wsc_syscall_calls_total counter",
                 "# TYPE wsc_syscall_latency_seconds histogram"):
        assert line in served.splitlines(), line

check("node_exporter answers over HTTP, node_textfile_scrape_error 0", answered)
check("node_exporter serves every wsc sample with the file's value",
      lambda: om.same(om.parse(served), want, "wsc_"))
check("node_exporter keeps the types: counters, the histogram", typed)

# -a --interval 0.1: the file replaced whole each interval, read all the while
f, jl = out + "/all.prom", out + "/all.jsonl"
p = subprocess.Popen([wsc, "trace", "-a", "-d", "2", "--interval", "0.1", "-j",
                      "-o", jl, "--openmetrics", f],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
reads, partial, versions = 0, 0, []
while p.poll() is None:
    try:
        with open(f) as r:
            t = r.read()
    except FileNotFoundError:
        time.sleep(0.005)
        continue
    reads += 1
    if not t.endswith("\n# EOF\n"):
        partial += 1
    elif not versions or versions[-1] != t:
        versions.append(t)
    time.sleep(0.005)
print("%d reads, %d versions of the file" % (reads, len(versions)))
last = json.loads(open(jl).read().splitlines()[-1])
final = om.parse(open(f).read())

def whole():
    assert p.returncode == 0, p.returncode
    assert not os.path.exists(f + ".tmp"), "FILE.tmp left"
    assert reads >= 10, reads
    assert partial == 0, partial

def grow():
    assert len(versions) >= 3, len(versions)
    prev = {}
    for v in versions:
        c = om.calls_of(om.parse("\n".join(
            line for line in v.splitlines()
            if line.startswith("wsc_syscall_calls_total{"))))
        assert all(c.get(k, 0) >= n for k, n in prev.items()), "a count shrank"
        prev = c

def target_all():
    t = {dict(k[1]).get("target") for k in final}
    assert t == {"every task (but wsc's own)"}, t

check("-a --interval: exit 0, no FILE.tmp, every read saw a whole file (%d reads)" % reads, whole)
check("replaced at each interval (%d versions), the counts only growing" % len(versions), grow)
check("the last file: the whole report's calls, errors and histograms",
      lambda: [om.same(final, om.expected(last), s) for s in
               ("wsc_syscall_calls", "wsc_syscall_errors", "wsc_syscall_latency")])
check("every sample's target: every task (but wsc's own)", target_all)

# -p: a process attached to, its end the trace's
w = subprocess.Popen([wl, "sleep", "100", "10"])
f = out + "/p.prom"
rc = subprocess.call([wsc, "trace", "-p", str(w.pid), "-o", "/dev/null",
                      "--openmetrics", f], stderr=subprocess.DEVNULL)
w.wait()

def pid():
    assert rc == 0, rc
    t = open(f).read()
    assert t.endswith("\n# EOF\n")
    tg = {dict(k[1]).get("target") for k in om.parse(t)}
    assert tg == {"pid %d" % w.pid}, tg

check("-p PID --openmetrics: exit 0, every sample's target pid PID", pid)
PY
kill "$exporter_pid"
wait "$exporter_pid" 2> /dev/null

# --- refused before anything runs
$wsc trace --openmetrics "$out/no/such/dir/m.prom" -- touch "$out/ran" > /dev/null 2> "$out/unwritable"
check "--openmetrics to an unwritable path: exit 1, one line, the command never ran" \
	sh -c "test $? -eq 1 && test \"\$(cat $out/unwritable)\" = 'wsc trace: --openmetrics: cannot write $out/no/such/dir/m.prom: No such file or directory' && test ! -e $out/ran"
usage_err "--openmetrics ''" "wsc trace: --openmetrics needs a file name" \
	"$wsc" trace --openmetrics '' -- true

rm -rf "$out"
tap_done
