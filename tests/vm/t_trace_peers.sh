#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wsc trace's views against an independent count of the same workload:
# the filters (-e, -Z, --errno) against strace's, each call's errnos
# against strace's lines, each task's calls and the tree against strace
# -f per pid, intervals that add up to the whole, the machine's trace
# holding a known workload's tasks exactly, four traces side by side each
# equal to its own strace count, a sleep's off-CPU time, and the report
# kept off the command's standard output.  No timing is asserted but the
# sleep's, which is long (100 ms) against the emulator's noise.
. "$(dirname "$0")/tap.sh"
N=300
K=5

. "$(dirname "$0")/trace_lib.sh"
echo "TAP version 13"

# --- -e: a set of calls, then all but some, as strace -e trace= counts them
j=$out/e.json
$wsc trace -e getpgid,umask,chdir -j -o "$j" -- "$wl" procs $N $K
check "-e getpgid,umask,chdir: exit 0" test $? -eq 0
strace -f -c -e trace=getpgid,umask,chdir -o "$out/e.strace" "$wl" procs $N $K
check "-e: every count equals strace -e trace='s" same_as_strace "$j" "$out/e.strace"
check "-e: the calls left out are counted as filtered" test "$(field "$j" trace.filtered)" -gt 0
j=$out/not.json
$wsc trace -e '!getppid,getpgid' -j -o "$j" -- "$wl" procs $N $K
strace -f -c -e 'trace=!getppid,getpgid' -o "$out/not.strace" "$wl" procs $N $K
check "-e '!getppid,getpgid': every count equals strace's" same_as_strace "$j" "$out/not.strace"
check "-e '!...': neither call is there" \
	test "$(count "$j" getppid calls)/$(count "$j" getpgid calls)" = "0/0"

# --- -Z: failed calls only.  strace -c -Z (6.1) still counts every call,
# so the independent figure is its errors column
j=$out/z.json
$wsc trace -Z -j -o "$j" -- "$wl" errnos $N
strace -f -c -o "$out/z.strace" "$wl" errnos $N
check "-Z: every count equals strace -c's errors, call by call" \
	"$python" -c 'import sys, trace_check as t
sys.exit(not t.same(t.wsc_rows(sys.argv[1], False),
                    {k: (e, e) for k, (c, e) in t.strace_c(sys.argv[2]).items() if e}))' \
	"$j" "$out/z.strace"
check "-Z: chdir's $((2 * N)) failures" test "$(count "$j" chdir calls)" -eq $((2 * N))

# --- each call's errnos against strace's lines, one by one
j=$out/errnos.json
$wsc trace -j -o "$j" -- "$wl" errnos $N
strace -f -Z -o "$out/errnos.strace" "$wl" errnos $N
check "per errno: every call's errno counts equal strace's lines" \
	"$python" - "$j" "$out/errnos.strace" <<'EOF'
import json, sys, trace_check as t
ours = {(s["name"], e): n for s in json.load(open(sys.argv[1]))["syscalls"]
        for e, n in s["errnos"].items()}
print(f"# chdir: {ours.get(('chdir', 'ENOENT'))} ENOENT, {ours.get(('chdir', 'ENOTDIR'))} ENOTDIR; "
      f"close: {ours.get(('close', 'EBADF'))} EBADF")
sys.exit(not t.same(ours, t.strace_errnos(sys.argv[2])))
EOF
check "per errno: chdir $N ENOENT and $N ENOTDIR, close $N EBADF" \
	"$python" -c "
import json, sys
r = {s['name']: s['errnos'] for s in json.load(open('$j'))['syscalls']}
sys.exit(not (r['chdir'].get('ENOENT') == $N and r['chdir'].get('ENOTDIR') == $N
              and r['close'].get('EBADF', 0) >= $N))"

# --- --errno: one errno only
j=$out/enoent.json
$wsc trace --errno ENOENT -j -o "$j" -- "$wl" errnos $N
check "--errno ENOENT: chdir $N, no ENOTDIR, no close" \
	"$python" -c "
import json, sys
d = json.load(open('$j'))
r = {s['name']: s for s in d['syscalls']}
ok = r['chdir']['calls'] == $N and r['chdir']['errnos'] == {'ENOENT': $N} and 'close' not in r
ok = ok and all(list(s['errnos']) == ['ENOENT'] for s in d['syscalls'])
sys.exit(not ok)"

# --- per task: each task's calls as strace -f counts them per pid, and the
# tree (pids differ between the runs; every task's count differs here)
j=$out/tasks.json
$wsc trace --by thread -j -o "$j" -- "$wl" procs $N $K
strace -f -o "$out/tasks.strace" "$wl" procs $N $K
check "per task: each task's calls equal strace -f's lines of its pid" \
	"$python" - "$j" "$out/tasks.strace" <<'EOF'
import json, sys, trace_check as t
ours = sorted(task["calls"] for task in json.load(open(sys.argv[1]))["tasks"])
theirs = sorted(t.strace_lines(sys.argv[2]).values())
print(f"# wsc {ours}, strace {theirs}")
sys.exit(ours != theirs)
EOF
check "per task: the tree as it was (a parent, two children, a grandchild)" \
	"$python" - "$j" <<'EOF'
import json, sys
tasks = {t["tid"]: t for t in json.load(open(sys.argv[1]))["tasks"]}
kids = {}
for t in tasks.values():
    kids.setdefault(t["ppid"], []).append(t["tid"])
roots = [t for t in tasks.values() if t["ppid"] not in tasks]
ok = len(tasks) == 4 and len(roots) == 1
ok = ok and sorted(len(kids.get(t, [])) for t in tasks) == [0, 0, 1, 2]
ok = ok and all(t["comm"] == "wl_calls" and t["pid"] == t["tid"] for t in tasks.values())
sys.exit(not ok)
EOF
$wsc trace --by process -- "$wl" procs $N $K > /dev/null 2> "$out/byproc"
check "--by process: a table of the 4 processes" \
	test "$(grep -c ' wl_calls ' "$out/byproc")" -ge 4

# --- intervals: each one's calls add up to the whole, call by call
j=$out/iv.jsonl
$wsc trace --interval 0.2 -j -o "$j" -- "$wl" sleep 150 6
check "--interval 0.2 -j: exit 0" test $? -eq 0
check "--interval: the intervals add up to the whole" \
	"$python" - "$j" <<'EOF'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ivs = [d for d in docs if "interval" in d]
whole = docs[-1]
sums = {}
for d in ivs:
    for s in d["syscalls"]:
        sums[s["name"]] = sums.get(s["name"], 0) + s["calls"]
want = {s["name"]: s["calls"] for s in whole["syscalls"]}
print(f"# {len(ivs)} intervals; nanosleep per interval: "
      f"{[next((s['calls'] for s in d['syscalls'] if s['name'] == 'nanosleep'), 0) for d in ivs]}")
sys.exit(not (len(ivs) >= 3 and sums == want and want.get("nanosleep") == 6))
EOF

# --- the machine: a known workload's tasks are in it exactly.  Its
# children are born inside the trace (their calls all counted); the
# parent was a shell's child first, so it has those calls too.
j=$out/all.json
strace -f -o "$out/all.strace" "$wl" procs $N $K
$wsc trace -a --by thread -j -o "$j" 2> "$out/all.err" &
tpid=$!
if wait_active; then
	"$wl" procs $N $K
	kill -INT $tpid
	wait $tpid
	check "-a: exit 0 on SIGINT" test $? -eq 0
	check "-a: the workload's children counted exactly, the parent at least" \
		"$python" - "$j" "$out/all.strace" $tpid <<'EOF'
import json, sys, trace_check
doc = json.load(open(sys.argv[1]))
tracer = int(sys.argv[3])
tasks = [t for t in doc["tasks"] if t["comm"] == "wl_calls"]
per = trace_check.strace_lines(sys.argv[2])
parent = per.pop(min(per, key=int))
kids_ours = sorted(t["calls"] for t in tasks if t["ppid"] in {u["tid"] for u in tasks})
root = [t for t in tasks if t["ppid"] not in {u["tid"] for u in tasks}]
print(f"# wsc: children {kids_ours}, parent {[t['calls'] for t in root]}; "
      f"strace: children {sorted(per.values())}, parent {parent}")
ok = kids_ours == sorted(per.values()) and len(root) == 1 and root[0]["calls"] >= parent
# The tracer does not count itself.
ok = ok and doc["trace"]["all"] and not any(t["pid"] == tracer for t in doc["tasks"])
sys.exit(not ok)
EOF
else
	not_ok "-a: the trace never became active"
	kill $tpid
fi

# --- four traces side by side, four workloads: each equal to its own strace
for i in 1 2 3 4; do
	$wsc trace -j -o "$out/four.$i.json" -- "$wl" procs $((N + 50 * i)) $i &
done
wait
for i in 1 2 3 4; do
	strace -f -c -o "$out/four.$i.strace" "$wl" procs $((N + 50 * i)) $i
	check "four traces at once: trace $i equals its own strace count" \
		same_as_strace "$out/four.$i.json" "$out/four.$i.strace"
done

# --- a sleep is time off the CPU
j=$out/sleep.json
$wsc trace -j -o "$j" -- "$wl" sleep 100 3
check "3 sleeps of 100 ms: off the CPU within 10% of 300 ms and of their latency" \
	"$python" - "$j" <<'EOF'
import json, sys
s = [s for s in json.load(open(sys.argv[1]))["syscalls"] if s["name"] == "nanosleep"][0]
off, wall = s["off_cpu_ns"], s["total_ns"]
print(f"# nanosleep: {s['calls']} calls, {wall / 1e6:.1f} ms, {off / 1e6:.1f} ms off the CPU, "
      f"{s['on_cpu_ns'] / 1e6:.2f} ms on it")
sys.exit(not (s["calls"] == 3 and 270e6 <= off <= wall and off >= 0.9 * wall
              and s["on_cpu_ns"] == wall - off))
EOF

# --- the report stays off the command's standard output
n=$($wsc trace -- echo one-line 2> /dev/null | wc -l)
check "the report goes to stderr: the command's output alone on stdout" test "$n" -eq 1
n=$($wsc trace -o - -- true 2> /dev/null | grep -c '^syscall')
check "-o -: the report on stdout" test "$n" -eq 1

rm -rf "$out"
tap_done
