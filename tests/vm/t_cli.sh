#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The wsc command against the loaded module: listings parse, benchmarks
# write what they claim, bad arguments are usage errors (exit code 2) said
# in one voice by every subcommand, and the module's absence in one
# message with the command that loads it.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/usage_lib.sh"
wsc=${WSC:-build/wsc}
out=$(mktemp -d)
# Debian's own interpreter: a pyenv shim on PATH costs seconds per start
# under TCG.
python=${PYTHON:-/usr/bin/python3}

echo "TAP version 13"

check "wsc --version" sh -c "$wsc --version | grep -q '^wsc '"
check "wsc info lists read with group userdata" sh -c "$wsc info | grep -Eq '^read +0 +userdata'"
# The version the tree's VERSION gave the module (MODULE_VERSION), as
# sysfs and wsc info each tell it.
version=$(cat VERSION)
check "wsc info: the module's version is $version, as /sys/module/wsc/version says" sh -c \
	"grep -qx '$version' /sys/module/wsc/version && $wsc info | grep -q '^wsc module: $version, ABI 1 '"
rt=false
[ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ] && rt=true
"$wsc" info --json > "$out/info.json"
checks_by 3 "$python" - "$out/info.json" "$version" "$rt" <<'PY'
import json, os, sys
from verdicts import check

path, version, rt = sys.argv[1], sys.argv[2], sys.argv[3] == "true"

def rows():
    d = json.load(open(path))
    assert len(d["calls"]) == 48, len(d["calls"])
    assert d["abi_version"] == 1

def module_version():
    assert json.load(open(path))["module_version"] == version

def kernel():
    k = json.load(open(path))["kernel"]
    assert k["release"] == os.uname().release
    assert k["preempt_rt"] == rt
    assert len(k["notes"]) == (1 if k["preempt_rt"] else 0)

check("wsc info --json parses and has 48 rows", rows)
check(f"wsc info --json: module_version is {version}", module_version)
check(f"wsc info --json: the kernel's release, and PREEMPT_RT ({sys.argv[3]}) "
      "with its note only there", kernel)
PY

check "wsc bench fit --json has the documented keys" sh -c \
	"$wsc bench fit --iters 640 --json > $out/b.json && $python - $out/b.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for call in ('nop', 'getpid'):
    c = d[call]
    for k in ('syscall_ns', 'ioctl_ns', 'batched_ns', 'fixed_ns', 'per_call_ns', 'speedup',
              'break_even', 'batch64_ratio'):
        assert k in c, (call, k)
        # Every figure has its spread over the rounds: [lowest, highest].
        lo, hi = c[k + '_spread'] if k != 'batched_ns' else (0, 0)
        assert k == 'batched_ns' or c[k] is None or lo <= c[k] <= (hi if hi is not None else c[k]), (call, k)
    assert sorted(int(b) for b in c['batched_ns']) == [1, 2, 4, 8, 16, 64]
    assert sorted(c['batched_ns_spread']) == sorted(c['batched_ns'])
    assert all(lo <= c['batched_ns'][b] <= hi for b, (lo, hi) in c['batched_ns_spread'].items())
    assert c['syscall_ns'] > 0 and all(v > 0 for v in c['batched_ns'].values())
assert d['rounds'] == 5 and d['fit'] == 'theil-sen'
assert d['environment']['hardware_counters'] in (True, False)
PY"
check "wsc bench fit --rounds 3 --json: 3 rounds" sh -c \
	"$wsc bench fit --iters 640 --rounds 3 --json | $python -c 'import json,sys; assert json.load(sys.stdin)[\"rounds\"] == 3'"
check "wsc bench fit --csv writes every sample" sh -c \
	"$wsc bench fit --iters 640 --csv $out/s.csv >/dev/null && test \$(wc -l < $out/s.csv) -eq \$((1 + 2 * 8 * 10)) && test ! -e $out/s.csv.tmp"

# A name the system refuses to write is a failure (1), not a usage error.
check "unwritable --csv: exit 1, one line, no file" sh -c \
	"test \$($wsc bench fit --iters 640 --csv /proc/nope.csv >/dev/null 2>$out/err; echo \$?) -eq 1 && test ! -e /proc/nope.csv &&
	 test \"\$(cat $out/err)\" = 'wsc bench fit: --csv: cannot write /proc/nope.csv: No such file or directory'"
check "--csv a directory: exit 2, nothing left" sh -c \
	"test \$($wsc bench fit --iters 640 --csv $out >/dev/null 2>&1; echo \$?) -eq 2 && test ! -e $out.tmp"
check "--cpu offline: exit 2" sh -c \
	"echo 0 > /sys/devices/system/cpu/cpu1/online && r=\$($wsc bench fit --iters 640 --cpu 1 >/dev/null 2>&1; echo \$?); echo 1 > /sys/devices/system/cpu/cpu1/online; test \$r -eq 2"
check "help exits 0" sh -c "$wsc --help >/dev/null && $wsc bench --help >/dev/null && $wsc info --help >/dev/null"

# One voice: every subcommand, every kind of mistake, the same two lines.
usage_err "no command" "wsc: which command? (commands: info bench klat cp ls trace diff)" "$wsc"
usage_err "unknown command" "wsc: unknown command 'frobnicate' (commands: info bench klat cp ls trace diff)" "$wsc" frobnicate
usage_err "wsc --bogus" "wsc: unknown option '--bogus' (commands: info bench klat cp ls trace diff)" "$wsc" --bogus
usage_err "info --bogus" "wsc info: unknown option '--bogus'" "$wsc" info --bogus
usage_err "info -x" "wsc info: unknown option '-x'" "$wsc" info -x
usage_err "info --json=1" "wsc info: option '--json' takes no value" "$wsc" info --json=1
usage_err "info extra" "wsc info: unexpected argument 'extra'" "$wsc" info extra
usage_err "bench -n 0" "wsc bench: --iters: 0 is out of range 1..10000000" "$wsc" bench getpid -n 0
usage_err "bench -n abc" "wsc bench: --iters: 'abc' is not a whole number" "$wsc" bench getpid -n abc
usage_err "bench -n 10x: as -n abc" "wsc bench: --iters: '10x' is not a whole number" "$wsc" bench getpid -n 10x
usage_err "bench -n -1" "wsc bench: --iters: '-1' is not a whole number" "$wsc" bench getpid -n -1
usage_err "bench -n without a value" "wsc bench: option '-n' needs a value" "$wsc" bench getpid -n
usage_err "bench --iters without a value" "wsc bench: option '--iters' needs a value" "$wsc" bench getpid --iters
usage_err "bench --repetitions 0 (another name of --rounds)" "wsc bench: --rounds: 0 is out of range 1..100" "$wsc" bench getpid --repetitions 0
usage_err "bench --cpu x (another name of --cpus)" "wsc bench: --cpus: 'x' is not a whole number" "$wsc" bench getpid --cpu x
usage_err "bench --out without --all (old name of --output)" "wsc bench: --output goes with --all" "$wsc" bench getpid --out "$out/x"
usage_err "bench fit --iters 0" "wsc bench fit: --iters: 0 is out of range 64..1000000000" "$wsc" bench fit --iters 0
usage_err "bench fit --cpus 4096 (another name of --cpu)" "wsc bench fit: --cpu: 4096 is out of range 0..$(($(getconf _NPROCESSORS_CONF) - 1))" "$wsc" bench fit --cpus 4096
usage_err "bench fit --bogus" "wsc bench fit: unknown option '--bogus'" "$wsc" bench fit --bogus
usage_err "klat --iters 0" "wsc klat: --iters: 0 is out of range 1..10000000" "$wsc" klat timer --iters 0
usage_err "klat --iters 10x" "wsc klat: --iters: '10x' is not a whole number" "$wsc" klat timer --iters 10x
usage_err "klat -q" "wsc klat: unknown option '-q'" "$wsc" klat timer -q
usage_err "cp -n abc" "wsc cp: --transactions: 'abc' is not a whole number" "$wsc" cp -n abc
usage_err "cp -n 0" "wsc cp: --transactions: 0 is out of range 1..100000" "$wsc" cp -n 0
usage_err "cp --rounds 0 (new name of --repetitions)" "wsc cp: --rounds: 0 is out of range 1..1000" "$wsc" cp --rounds 0
usage_err "cp an operand" "wsc cp: unexpected argument 'extra'" "$wsc" cp extra
usage_err "ls -r 0" "wsc ls: --rounds: 0 is out of range 1..10000" "$wsc" ls --compare -r 0
usage_err "ls --repetitions abc" "wsc ls: --rounds: 'abc' is not a whole number" "$wsc" ls --compare --repetitions abc
usage_err "ls --bogus" "wsc ls: unknown option '--bogus'" "$wsc" ls --bogus /
usage_err "trace -d 0" "wsc trace: --duration: 0 is out of range 0.001..86400" "$wsc" trace -d 0 -a
usage_err "trace -d x" "wsc trace: --duration: 'x' is not a number of seconds" "$wsc" trace -d x -a
usage_err "trace --top 0" "wsc trace: --top: 0 is out of range 1..1000000" "$wsc" trace --top 0 -- true
usage_err "trace -p abc" "wsc trace: --pid: 'abc' is not a whole number" "$wsc" trace -p abc
usage_err "trace -c: no longer the cgroup" "wsc trace: -c is no longer the cgroup: use --cgroup (-c is a CPU in the other commands)" "$wsc" trace -c /x -d 1
usage_err "trace --bogus" "wsc trace: unknown option '--bogus'" "$wsc" trace --bogus -- true
# What the exit code alone was checked for once, said in the one voice.
usage_err "bench without a call" "wsc bench: which call? (wsc bench --list)" "$wsc" bench
usage_err "bench fit with an extra argument" "wsc bench fit: unexpected argument 'bogus'" "$wsc" bench fit bogus
usage_err "bench fit --iters -5" "wsc bench fit: --iters: '-5' is not a whole number" "$wsc" bench fit --iters -5
usage_err "bench fit --iters 12abc" "wsc bench fit: --iters: '12abc' is not a whole number" "$wsc" bench fit --iters 12abc
usage_err "bench fit --iters absurd" "wsc bench fit: --iters: 99999999999999999999 is out of range 64..1000000000" "$wsc" bench fit --iters 99999999999999999999
usage_err "bench fit --rounds 0" "wsc bench fit: --rounds: 0 is out of range 1..100" "$wsc" bench fit --rounds 0
usage_err "bench fit --rounds 101" "wsc bench fit: --rounds: 101 is out of range 1..100" "$wsc" bench fit --rounds 101
usage_err "bench fit --cpu out of range" "wsc bench fit: --cpu: 4096 is out of range 0..$(($(getconf _NPROCESSORS_CONF) - 1))" "$wsc" bench fit --cpu 4096
usage_err "bench fit: empty --csv" "wsc bench fit: --csv needs a file name, not ''" "$wsc" bench fit --iters 640 --csv ''
usage_err "klat without an experiment" "wsc klat: which experiment? (wsc klat --list)" "$wsc" klat
usage_err "klat unknown experiment" "wsc klat: unknown experiment 'bogus' (wsc klat --list)" "$wsc" klat bogus
usage_err "klat show unknown experiment" "wsc klat: unknown experiment 'bogus' (wsc klat --list)" "$wsc" klat show bogus
usage_err "klat --iters abc" "wsc klat: --iters: 'abc' is not a whole number" "$wsc" klat timer --iters abc
usage_err "klat --iters above the maximum" "wsc klat: --iters: 10000001 is out of range 1..10000000" "$wsc" klat timer --iters 10000001
usage_err "klat --cpus x" "wsc klat: --cpus: 'x' is not a whole number" "$wsc" klat timer --cpus x
usage_err "klat --cpus 0,1 for a 1-CPU experiment" "wsc klat: timer uses 1 CPU, --cpus gave 2" "$wsc" klat timer --cpus 0,1
usage_err "klat --cpus 0 for a 2-CPU experiment" "wsc klat: semaphore uses 2 CPUs, --cpus gave 1" "$wsc" klat semaphore --cpus 0
usage_err "klat --cpus 0,0" "wsc klat: semaphore needs two different CPUs" "$wsc" klat semaphore --cpus 0,0
usage_err "klat --cpus 0,1,0" "wsc klat: --cpus: at most 2 CPUs" "$wsc" klat semaphore --cpus 0,1,0
usage_err "klat --csv a directory" "wsc klat: --csv needs a file name, not '$out'" "$wsc" klat timer --iters 100 --csv "$out"
usage_err "klat --iters with show" "wsc klat: --iters, --cpus and --csv go with a run, not 'show'" "$wsc" klat show --iters 5

# wsc klat: the latency lab.  Small runs: the VM is QEMU TCG.  Each
# experiment's JSON, then one Python for all six.
exps="timer spinlock spinlock-contended mutex semaphore completion"
for exp in $exps; do
	"$wsc" klat "$exp" --iters 2000 --json > "$out/k-$exp.json" 2> "$out/k-$exp.err"
	echo $? > "$out/k-$exp.rc"
done
# shellcheck disable=SC2086  # the experiments, one argument each
checks_by 6 "$python" - "$out" $exps <<'PY'
import json, sys
from verdicts import check

def consistent(out, exp):
    assert open(f"{out}/k-{exp}.rc").read().strip() == "0", open(f"{out}/k-{exp}.err").read()
    d = json.load(open(f"{out}/k-{exp}.json"))
    for k in ('experiment', 'count', 'mean_ns', 'median_ns', 'stddev_ns', 'min_ns', 'max_ns',
              'ci95_ns', 'p50_ns', 'p95_ns', 'p99_ns', 'timer_ns', 'errors', 'iterations',
              'cpus', 'warmup', 'run_id', 'environment'):
        assert k in d, k
    assert d['experiment'] == exp, d['experiment']
    assert d['iterations'] == 2000 and d['count'] + d['errors'] == d['iterations'], d
    assert d['iterations_done'] == 2000 and d['interrupted'] is False, d
    assert d['count'] >= 1
    assert d['min_ns'] <= d['p50_ns'] <= d['p95_ns'] <= d['p99_ns'] <= d['max_ns'], d
    assert d['median_ns'] == d['p50_ns']
    lo, hi = d['ci95_ns']
    assert lo <= d['mean_ns'] <= hi and d['min_ns'] <= d['mean_ns'] <= d['max_ns'], d
    assert d['timer_ns'] > 0
    assert len(d['cpus']) == (2 if exp in ('spinlock-contended', 'semaphore', 'completion') else 1)
    assert d['environment']['command'][1:3] == ['klat', exp]

for exp in sys.argv[2:]:
    check(f"wsc klat {exp} --json: keys present and consistent",
          lambda: consistent(sys.argv[1], exp))
PY
check "wsc klat table: raw and net rows, timer, errors, CPUs lines" sh -c \
	"$wsc klat mutex --iters 2000 > $out/k.txt && grep -q '^raw ' $out/k.txt && grep -q '^net ' $out/k.txt && grep -q '^# timer: ' $out/k.txt && grep -q '^# errors: ' $out/k.txt && grep -q '^# block estimate: ' $out/k.txt && grep -q '^# CPU: ' $out/k.txt && grep -q '^# net = raw minus' $out/k.txt"
# The PREEMPT_RT note: on the spinlock experiments of an RT kernel only.
want=0
[ "$rt" = true ] && want=1
check "wsc klat: the PREEMPT_RT note on spinlock-contended iff the kernel is RT ($rt), never on mutex" sh -c \
	"$wsc klat spinlock-contended --iters 500 > $out/kn.txt && test \$(grep -c '^# note: PREEMPT_RT' $out/kn.txt) -eq $want && ! grep -q '^# note: PREEMPT_RT' $out/k.txt"
# klat's other outputs, saved as each command ran (show, reset, --list),
# then checked by one Python.
"$wsc" klat spinlock --iters 2000 --csv "$out/k.csv" --json > "$out/kc.json"
echo "$? $([ -e "$out/k.csv.tmp" ] && echo tmp-left)" > "$out/kc.rc"
"$wsc" klat show spinlock --json > "$out/ks.json"
"$wsc" klat show --json > "$out/kall.json"
"$wsc" klat show | grep -c '^raw ' > "$out/kall.raw"
check "wsc klat reset spinlock: show spinlock then fails (exit 1) with the kernel's reason" sh -c \
	"$wsc klat reset spinlock && test \$($wsc klat show spinlock >/dev/null 2>$out/err; echo \$?) -eq 1 && grep -q '^wsc klat: No data available: .' $out/err"
"$wsc" klat reset && "$wsc" klat show --json > "$out/knone.json" &&
	"$wsc" klat show | grep -c '^# wsc klat: no results' > "$out/knone.txt"
"$wsc" klat --list | grep -vc '^#' > "$out/klist.txt"
"$wsc" klat --list --json > "$out/klist.json"
checks_by 5 "$python" - "$out" <<'PY'
import csv, json, sys
from verdicts import check

out = sys.argv[1]
exps = sorted(["timer", "spinlock", "spinlock-contended", "mutex", "semaphore", "completion"])

def csv_rows():
    assert open(f"{out}/kc.rc").read().split() == ["0"], open(f"{out}/kc.rc").read()
    rows = list(csv.reader(open(f"{out}/k.csv")))
    d = json.load(open(f"{out}/kc.json"))
    assert rows[0] == ['index', 'ns'], rows[0]
    assert len(rows) - 1 == d['count'], (len(rows) - 1, d['count'])
    assert [int(r[0]) for r in rows[1:]] == list(range(d['count']))
    ns = sorted(int(r[1]) for r in rows[1:])
    assert ns[0] * 1000 == round(d['min_ns'] * 1000) and ns[-1] * 1000 == round(d['max_ns'] * 1000)

def show_one():
    a = json.load(open(f"{out}/ks.json"))
    b = json.load(open(f"{out}/kc.json"))
    assert a["run_id"] == b["run_id"] and a["median_ns"] == b["median_ns"] and a["count"] == b["count"], (a, b)

def show_all():
    n = sorted(r["experiment"] for r in json.load(open(f"{out}/kall.json"))["results"])
    assert n == exps, n
    assert open(f"{out}/kall.raw").read().strip() == "6"

def reset_all():
    assert json.load(open(f"{out}/knone.json"))["results"] == []
    assert int(open(f"{out}/knone.txt").read()) >= 1

def listed():
    assert open(f"{out}/klist.txt").read().strip() == "6"
    assert len(json.load(open(f"{out}/klist.json"))["experiments"]) == 6

check("wsc klat --csv: one row per sample, no FILE.tmp left", csv_rows)
check("wsc klat show spinlock --json: the result of that run", show_one)
check("wsc klat show: every experiment run so far", show_all)
check("wsc klat reset: no result left", reset_all)
check("wsc klat --list names six experiments; --list --json parses", listed)
PY
check "wsc klat --help names every experiment" sh -c \
	"$wsc klat --help > $out/h.txt && for e in timer spinlock spinlock-contended mutex semaphore completion; do grep -q \"^  \$e \" $out/h.txt || exit 1; done"
check "wsc klat as nobody: exit 1, the kernel's reason" sh -c \
	"test \$(setpriv --reuid=65534 --regid=65534 --clear-groups $wsc klat timer --iters 100 >/dev/null 2>$out/err; echo \$?) -eq 1 && grep -q '^wsc klat: Operation not permitted: .*CAP_SYS_ADMIN' $out/err"
check "klat unwritable --csv: exit 1, no file" sh -c \
	"test \$($wsc klat timer --iters 100 --csv /proc/nope/x.csv >/dev/null 2>&1; echo \$?) -eq 1 && test ! -e /proc/nope/x.csv.tmp"
check "klat --cpus offline: exit 2" sh -c \
	"echo 0 > /sys/devices/system/cpu/cpu1/online && r=\$($wsc klat timer --iters 100 --cpus 1 >/dev/null 2>&1; echo \$?); echo 1 > /sys/devices/system/cpu/cpu1/online; test \$r -eq 2"

# The module's absence: one message in every command, with the command that
# loads it here.  The module goes for these checks and comes back.
ko=${WSC_KO:-kmod/wsc.ko}
if rmmod wsc 2>/dev/null; then
	# The hint this wsc should give: its tree's wsc.ko when built for this
	# kernel (the default VM run), else one of the other two forms.
	if [ "$(modinfo -F vermagic kmod/wsc.ko 2>/dev/null | cut -d' ' -f1)" = "$(uname -r)" ]; then
		hint="load the one built here: insmod $(realpath kmod/wsc.ko)"
	else
		hint=
	fi
	absent() {
		name=$1 first=$2
		shift 2
		"$@" > /dev/null 2> "$out/abs.err"
		rc=$?
		sub=${first%%: *}
		if [ $rc -eq 1 ] && [ "$(sed -n 1p "$out/abs.err")" = "$first" ] &&
		   { [ -z "$hint" ] || [ "$(sed -n 2p "$out/abs.err")" = "$sub: $hint" ]; } &&
		   ! grep -q 'is wsc.ko loaded\|--conventional' "$out/abs.err"; then
			ok "no module: $name"
		else
			not_ok "no module: $name (exit $rc: $(tr '\n' '|' < "$out/abs.err"))"
		fi
	}
	dev="wsc module is not loaded (/dev/wsc: No such file or directory)"
	genl="wsc module is not loaded (no generic netlink family \"syscall_lat\")"
	absent "wsc info" "wsc info: the $dev" "$wsc" info
	absent "wsc bench getpid" "wsc bench: the $dev" "$wsc" bench getpid --iters 5
	absent "wsc bench fit" "wsc bench fit: the $dev" "$wsc" bench fit --iters 640
	absent "wsc cp" "wsc cp: the $dev" "$wsc" cp -n 2 -r 1
	absent "wsc ls --compare: no --conventional suggested" "wsc ls: the $dev" "$wsc" ls --compare -r 1
	absent "wsc klat" "wsc klat: the $genl" "$wsc" klat timer --iters 10
	absent "wsc trace" "wsc trace: the $genl" "$wsc" trace -- true
	check "no module: wsc ls -l says the module is missing, then that --conventional lists without it" sh -c \
		"test \$($wsc ls -l / >/dev/null 2>$out/abs.err; echo \$?) -eq 1 &&
		 grep -q '^wsc ls: the $dev\$' $out/abs.err &&
		 test \"\$(tail -n 1 $out/abs.err)\" = 'wsc ls: --conventional lists without the module'"
	check "the module loads again" insmod "$ko"
else
	ok "# SKIP no module: wsc.ko is in use, cannot be removed"
fi

# SIGINT and SIGTERM mid-run: what was measured so far, marked as
# interrupted, in the output and the files asked for, and exit code 130.
# 3 million calls in 100 rounds, each a fraction of a second under TCG:
# the signal comes after some, long before the last.
rc=$(interrupt INT 4 "$out/fit.json" "$wsc" bench fit --iters 3000000 --rounds 100 --json --csv "$out/fit.csv")
check "bench fit --json --csv, SIGINT mid-run: exit 130, stderr says so" sh -c \
	"test $rc -eq 130 && grep -q '^wsc bench fit: interrupted by SIGINT: ' $out/fit.json.err"
check "bench fit, SIGINT: the JSON of the rounds that ended, marked; the CSV as many" \
	"$python" - "$out/fit.json" "$out/fit.csv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d['interrupted'] is True and d['rounds'] == 100, d
nop = d['nop']
assert 0 < nop['rounds_done'] < 100 and nop['syscall_ns'] > 0, nop
assert d['getpid'] is None or 0 < d['getpid']['rounds_done'] <= 100, d['getpid']
done = nop['rounds_done'] + (d['getpid']['rounds_done'] if d['getpid'] else 0)
per_round = 3000000 // 64 // 100
assert len(open(sys.argv[2]).readlines()) == 1 + 8 * per_round * done
PY
rc=$(interrupt TERM 4 "$out/fit.txt" "$wsc" bench fit --iters 3000000 --rounds 100)
check "bench fit table, SIGTERM mid-run: exit 130, marked, speedups in words" sh -c \
	"test $rc -eq 130 && grep -Eq '^# interrupted by SIGTERM: nop ran [1-9][0-9]* of 100 rounds' $out/fit.txt &&
	 grep -Eq '^nop +batch 64 .* [0-9]+\\.[0-9]{2}x (faster|slower)\$' $out/fit.txt &&
	 grep -q '^# interrupted by SIGTERM: the figures are of the rounds that ran to their end' $out/fit.txt &&
	 ! grep -q ' vs plain' $out/fit.txt"
# klat semaphore: a wake-up between two CPUs per sample, far more than 4 s
# for 10M under TCG (10M mutex samples can end before the signal).
rc=$(interrupt INT 4 "$out/klat.json" "$wsc" klat semaphore --iters 10000000 --json --csv "$out/klat.csv")
check "klat semaphore --json --csv, SIGINT mid-run: exit 130, marked, the kernel's message not an error" sh -c \
	"test $rc -eq 130 && grep -q '^wsc klat: interrupted by SIGINT: 0 of 10000000 samples: the run was stopped, and the kernel keeps none of a stopped run.s samples\$' $out/klat.json.err &&
	 ! grep -q 'Operation canceled' $out/klat.json.err &&
	 $python -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[\"interrupted\"] is True and d[\"count\"] == 0 and d[\"iterations_done\"] == 0 and d[\"iterations\"] == 10000000 and d[\"experiment\"] == \"semaphore\"' $out/klat.json &&
	 test ! -e $out/klat.csv && test ! -e $out/klat.csv.tmp"
rc=$(interrupt TERM 4 "$out/klat.txt" "$wsc" klat semaphore --iters 10000000)
check "klat semaphore table, SIGTERM mid-run: exit 130, marked" sh -c \
	"test $rc -eq 130 && grep -q '^# interrupted by SIGTERM: 0 of 10000000 samples: the run was stopped' $out/klat.txt"

# klat interrupted anywhere says one thing (issue 31): the line
# "interrupted by SIGINT: N of M samples: why", exit 130, N what the
# kernel kept: none of a run the signal stopped (early, or in the middle),
# all of one that had ended (near the end: while wsc dumps the samples
# into the CSV, which it begins once the run is over).  Each point is
# found, not timed: the lab says "running" in /proc/syscall_lat, the CSV's
# .tmp fills once the run has ended.
# klat_at POINT N EXP OUT: the run, SIGINT at POINT; prints the exit code.
klat_at() {
	env --default-signal=INT "$wsc" klat "$3" --iters "$2" --csv "$4.csv" > "$4" 2> "$4.err" &
	kpid=$!
	for _ in $(seq 200); do
		case $1 in
		early|middle) grep -q '^# lab: running' /proc/syscall_lat && break ;;
		end) [ -s "$4.csv.tmp" ] && break ;;
		esac
		sleep 0.05
	done
	[ "$1" != middle ] || sleep 2
	kill -INT $kpid
	wait $kpid
	echo $?
}
# semaphore: 200000 wake-ups, about 12 s under TCG, stopped long before;
# timer: 500000 clock reads, 1 s, then some 3 s of dumping them.
for point in early middle end; do
	if [ $point = end ]; then exp=timer n=500000; else exp=semaphore n=200000; fi
	rc=$(klat_at $point $n $exp "$out/klat-$point.txt")
	if [ $point = end ]; then kept=$n; else kept=0; fi
	check "klat $exp, SIGINT $point: exit 130, '# interrupted by SIGINT: $kept of $n samples', once" sh -c \
		"test $rc -eq 130 &&
		 test \"\$(grep -c 'interrupted' $out/klat-$point.txt)\" = 1 &&
		 test \"\$(sed -n 2p $out/klat-$point.txt | cut -d: -f1-2)\" = '# interrupted by SIGINT: $kept of $n samples' &&
		 test ! -s $out/klat-$point.txt.err"
	if [ $point = end ]; then
		check "klat $exp, SIGINT at the end: the whole result, its table and its CSV" sh -c \
			"grep -q '^# interrupted by SIGINT: $n of $n samples: the run had ended before the signal; its figures are whole\$' $out/klat-end.txt &&
			 grep -q '^raw ' $out/klat-end.txt && grep -q '^net ' $out/klat-end.txt &&
			 test \$(wc -l < $out/klat-end.txt.csv) -eq $((n + 1)) && test ! -e $out/klat-end.txt.csv.tmp"
	else
		check "klat $exp, SIGINT $point: nothing kept, said so, no table, no CSV" sh -c \
			"grep -q '^# interrupted by SIGINT: 0 of $n samples: the run was stopped, and the kernel keeps none of a stopped run.s samples\$' $out/klat-$point.txt &&
			 ! grep -q '^raw ' $out/klat-$point.txt &&
			 test ! -e $out/klat-$point.txt.csv && test ! -e $out/klat-$point.txt.csv.tmp"
	fi
done

rm -rf "$out"
tap_done
