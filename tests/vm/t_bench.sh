#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wsc bench, the system call suite, against the loaded module: every call
# and variant runs (tiny iteration counts: the VM is QEMU TCG), its JSON
# and CSV agree (check_bench.py), --all writes what it says, bad
# arguments are usage errors (exit code 2) that leave no file behind, and
# SIGINT or SIGTERM mid-run ends it with the samples so far, marked, and
# exit code 130.
# --all's folder is $WSC_BENCH_ALL when set: tests/check then draws it
# with user/plot/wsc-plot on the host (matplotlib under TCG takes minutes).
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/usage_lib.sh"
wsc=${WSC:-build/wsc}
out=$(mktemp -d)
iters=30
all=${WSC_BENCH_ALL:-$out/all}

echo "TAP version 13"


# Nothing named *.tmp anywhere under $1: no half-written file was left.
no_tmp() {
	test -z "$(find "$1" -name '*.tmp' 2>/dev/null)"
}

# Python starts slowly under TCG: one checker run for all the calls.
# Debian's own interpreter: a pyenv shim on PATH costs seconds per start.
python=${PYTHON:-/usr/bin/python3}
calls=$($wsc bench --list | cut -d' ' -f1)

# check_calls NAME ITERS DIR: one TAP line per call from check_bench.py.
check_calls() {
	# shellcheck disable=SC2086  # the calls, one argument each
	verdict=$("$python" tests/vm/check_bench.py "$2" "$3" $calls 2>&1)
	for call in $calls; do
		if echo "$verdict" | grep -qx "ok $call"; then
			ok "$1 $call: JSON and CSV agree, every result verified"
		else
			not_ok "$1 $call: JSON and CSV agree, every result verified"
			echo "$verdict" | grep "^not ok $call" | sed 's/^/# /'
		fi
	done
}

mkdir -p "$out/one"
for call in $calls; do
	$wsc bench "$call" --iters $iters --json --csv "$out/one" > "$out/one/$call.json" 2>"$out/one/$call.err" ||
		echo "# bench $call failed: $(cat "$out/one/$call.err")"
done
check_calls bench $iters "$out/one"
check "bench --list --json lists 13 calls" sh -c \
	"test \$($wsc bench --list --json | grep -o '\"call\":' | wc -l) -eq 13"
check "bench read --size 4096: JSON says the size" sh -c \
	"$wsc bench read --iters 5 --size 4096 --json | grep -q '\"size\": 4096, .*\"verified\": true'"
check "bench pipe-read --size 65536: a pipe big enough for 64 of them" sh -c \
	"$wsc bench pipe-read --iters 3 --size 65536 --json | grep -q '\"verified\": true'"
check "bench getpid table: counters said not available" sh -c \
	"$wsc bench getpid --iters 5 | grep -q '^# hardware counters: not available: '"
# The header asks for counters the way the measurement opens them: as
# nobody (perf_event_paranoid 2 refuses kernel counting) it cannot say
# "available" above a footer that says "not available".
check "bench getpid as uid 65534: the header's counters agree with the footer's" sh -c \
	"setpriv --reuid=65534 --regid=65534 --clear-groups $wsc bench getpid --iters 5 > $out/nobody.txt &&
	 if grep -q '^# hardware counters: not available' $out/nobody.txt; then
		grep -q '^# emulation .*, hardware counters not available\$' $out/nobody.txt
	 else
		grep -q '^# emulation .*, hardware counters available\$' $out/nobody.txt
	 fi"
# The speedup of all the samples, then the rounds' lowest and highest,
# each said for what it is: the first need not lie between the others.
check "bench close table: one row per variant, speedups in words, rows within 100 columns" sh -c \
	"$wsc bench close --iters 5 > $out/close.txt &&
	 test \$(grep -Ec '^(conventional|wrapped-[0-9]+|io_uring-[0-9]+) ' $out/close.txt) -eq 7 &&
	 grep -Eq '^variant .* speedup, rounds +net speedup\$' $out/close.txt &&
	 grep -Eq '^conventional .* baseline +baseline\$' $out/close.txt &&
	 grep -Eq '^wrapped-64 .* [0-9]+\.[0-9]{2}x (faster|slower), rounds [0-9.]+-[0-9.]+ +[0-9]+\.[0-9]{2}x (faster|slower)\$' $out/close.txt &&
	 ! grep -Eq 'x (faster|slower) \[' $out/close.txt &&
	 grep -q '^# speedup: over the conventional call, its median / the variant.s, of all the samples: above 1 is faster' $out/close.txt &&
	 grep -q '^# rounds: the lowest and highest of the same speedup computed in each of 5 rounds' $out/close.txt &&
	 test -z \"\$(grep -v '^#' $out/close.txt | awk 'length > 100')\""
check "bench: the environment's note, once, the same as every command's" sh -c \
	"test \$(grep -c '^note: ' $out/close.txt) -eq 1 &&
	 if grep -q 'QEMU' /proc/cpuinfo; then grep -q '^note: times measured under an emulator (QEMU TCG)' $out/close.txt; fi"
check "bench: no project targets" sh -c "! grep -Eqi 'target|MISSED' $out/close.txt"

check "bench --all writes a JSON and a CSV per call, the environment and a summary" sh -c \
	"rm -rf $all && $wsc bench --all --iters 10 --out $all > $out/all.txt 2>$out/all.err &&
	 test \$(ls $all/*.json | wc -l) -eq 14 && test \$(ls $all/*.csv | wc -l) -eq 13 &&
	 test -s $all/summary.txt && grep -q '^getpid ' $out/all.txt &&
	 grep -q '^# speedup over the conventional call' $out/all.txt &&
	 grep -Eq '^getpid .*[0-9]\.[0-9]{2}x (faster|slower)' $out/all.txt &&
	 ! grep -Eqi 'target|MISSED' $out/all.txt $all/summary.txt"
# Before it starts, how long it will take: measured, not a fixed figure,
# and said to be an estimate (10 samples and 10 warm-up rounds per call).
check "bench --all says first how long it will take, as an estimate" sh -c \
	"grep -Eq '^wsc bench: --all will take about [0-9]+ (s|min [0-9]+ s|h [0-9]+ min) \(an estimate: 20 rounds of each of 13 calls, scaled from 4 rounds of each timed first, in [0-9]+ s\)\$' $out/all.err &&
	 test \$(grep -n 'will take about' $out/all.err | cut -d: -f1) -lt \$(grep -n 'wrote .*/null.json' $out/all.err | cut -d: -f1)"
check_calls "bench --all:" 10 "$all"
check "bench --all: no .tmp left" no_tmp "$all"
usage_err "bench unknown call" "wsc bench: unknown call 'bogus' (wsc bench --list)" "$wsc" bench bogus
usage_err "bench without a call" "wsc bench: which call? (wsc bench --list)" "$wsc" bench
usage_err "bench two calls" "wsc bench: unexpected argument 'open'" "$wsc" bench getpid open
usage_err "bench --iters 0" "wsc bench: --iters: 0 is out of range 1..10000000" "$wsc" bench getpid --iters 0
usage_err "bench --iters -1" "wsc bench: --iters: '-1' is not a whole number" "$wsc" bench getpid --iters -1
usage_err "bench --iters absurd" "wsc bench: --iters: 18446744073709551617 is out of range 1..10000000" "$wsc" bench getpid --iters 18446744073709551617
usage_err "bench --iters above the maximum" "wsc bench: --iters: 100000001 is out of range 1..10000000" "$wsc" bench getpid --iters 100000001
usage_err "bench --iters 5x" "wsc bench: --iters: '5x' is not a whole number" "$wsc" bench getpid --iters 5x
usage_err "bench --cpus x" "wsc bench: --cpus: 'x' is not a whole number" "$wsc" bench getpid --cpus x
usage_err "bench --cpus 0,,1" "wsc bench: --cpus: '0,,1' is not a CPU list (A or A,B)" "$wsc" bench getpid --cpus 0,,1
usage_err "bench --cpus 4096" "wsc bench: --cpus: 4096 is out of range 0..$(($(getconf _NPROCESSORS_CONF) - 1))" "$wsc" bench getpid --cpus 4096
usage_err "bench --cpus 0,1,0" "wsc bench: --cpus: at most 2 CPUs" "$wsc" bench futex --cpus 0,1,0
usage_err "bench futex --cpus 0,0" "wsc bench: the waker and the woken thread need two different CPUs: --cpus A,B" "$wsc" bench futex --cpus 0,0
check "bench --cpus offline: exit 2" sh -c \
	"echo 0 > /sys/devices/system/cpu/cpu1/online && r=\$($wsc bench getpid --iters 5 --cpus 1 >/dev/null 2>&1; echo \$?); echo 1 > /sys/devices/system/cpu/cpu1/online; test \$r -eq 2"
usage_err "bench --size for getpid" "wsc bench: --size applies to read, write, pipe-read and pipe-write, not getpid" "$wsc" bench getpid --size 8
usage_err "bench --size 0" "wsc bench: --size: 0 is out of range 1..65536" "$wsc" bench read --size 0
usage_err "bench --size above 64 KiB" "wsc bench: --size: 65537 is out of range 1..65536" "$wsc" bench read --size 65537
usage_err "bench --all with a call" "wsc bench: --all runs every call: unexpected 'getpid'" "$wsc" bench --all getpid --out "$out/x"
usage_err "bench --all --json" "wsc bench: --all writes JSON and CSV to --output DIR; --json and --csv do not apply" "$wsc" bench --all --json --out "$out/x"
usage_err "bench --out without --all" "wsc bench: --output goes with --all" "$wsc" bench getpid --out "$out/x"
# A folder the system will not let us make or write in: a failure (1),
# said in one line; a name that is no folder: a usage error (2).
check "bench --csv unwritable: exit 1, one line, nothing written" sh -c \
	"test \$($wsc bench getpid --iters 5 --csv /proc/nope >/dev/null 2>$out/err; echo \$?) -eq 1 && test ! -e /proc/nope &&
	 test \"\$(cat $out/err)\" = 'wsc bench: --csv: cannot make /proc/nope: No such file or directory'"
check "bench --csv a file: exit 2" sh -c \
	"touch $out/afile && test \$($wsc bench getpid --iters 5 --csv $out/afile >/dev/null 2>&1; echo \$?) -eq 2"
usage_err "bench --csv empty" "wsc bench: --csv needs a folder" "$wsc" bench getpid --iters 5 --csv ''
check "bench --all --out unwritable: exit 1, nothing written" sh -c \
	"test \$($wsc bench --all --iters 5 --out /proc/nope >/dev/null 2>&1; echo \$?) -eq 1 && test ! -e /proc/nope"
check "bench --all --output read-only: exit 1, one line, nothing written" sh -c \
	"chmod 711 $out && mkdir $out/ro && chmod 555 $out/ro && r=\$(setpriv --reuid=65534 --regid=65534 --clear-groups $wsc bench --all --iters 5 --output $out/ro >/dev/null 2>$out/ro.err; echo \$?); test \$r -eq 1 && test -z \"\$(ls -A $out/ro)\" &&
	 test \"\$(cat $out/ro.err)\" = 'wsc bench: --output: cannot write in $out/ro: Permission denied'"
check "a refused command makes no folder" sh -c \
	"test \$($wsc bench --all --cpus 4096 --out $out/new >/dev/null 2>&1; echo \$?) -eq 2 &&
	 test \$($wsc bench getpid --iters 0 --csv $out/new >/dev/null 2>&1; echo \$?) -eq 2 && test ! -e $out/new"
check "bench --all clears an earlier run's files; sem and futex skipped with CPU 1 offline" sh -c \
	"mkdir -p $out/old && touch $out/old/sem.json $out/old/summary.txt $out/old/keep.txt &&
	 echo 0 > /sys/devices/system/cpu/cpu1/online &&
	 $wsc bench --all --iters 3 --out $out/old >/dev/null 2>&1; r=\$?;
	 echo 1 > /sys/devices/system/cpu/cpu1/online;
	 test \$r -eq 0 && test ! -e $out/old/sem.json && test -e $out/old/keep.txt && test -s $out/old/summary.txt"
check "bench getpid runs with the partner CPU offline" sh -c \
	"echo 0 > /sys/devices/system/cpu/cpu1/online && r=\$($wsc bench getpid --iters 3 >/dev/null 2>&1; echo \$?); echo 1 > /sys/devices/system/cpu/cpu1/online; test \$r -eq 0"
usage_err "bench --list --iters 5" "wsc bench: --list takes no other option than --json" "$wsc" bench --list --iters 5
usage_err "bench --list --all" "wsc bench: --list takes no other option than --json" "$wsc" bench --list --all
usage_err "bench --frob" "wsc bench: unknown option '--frob'" "$wsc" bench getpid --frob
check "bench --help exits 0 and lists the calls" sh -c "$wsc bench --help | grep -q '^  pipe-write '"

# Interrupted: many more samples than the seconds allow (TCG), so the
# signal comes mid-run, after the warm-up (1000 rounds, well under a
# second for getpid).  A few seconds are enough: the samples taken are
# then checked one by one (check_bench.py), and 20 s of them took a
# minute and a half to check.
big=2000000
mkdir -p "$out/int"
rc=$(interrupt INT 3 "$out/int/getpid.json" "$wsc" bench getpid --iters $big --json --csv "$out/int")
check "bench getpid --json --csv, SIGINT mid-run: exit 130" test "$rc" -eq 130
check "bench getpid, SIGINT: stderr says interrupted" grep -q '^wsc bench: interrupted by SIGINT: ' "$out/int/getpid.json.err"
check "bench getpid, SIGINT: the JSON (interrupted, fewer iterations) and the CSV agree" sh -c \
	"$python tests/vm/check_bench.py $big $out/int getpid | grep -qx 'ok getpid' &&
	 grep -q '\"interrupted\": true' $out/int/getpid.json && test -z \"\$(find $out/int -name '*.tmp')\""
# A wake-up takes milliseconds under TCG (tens of them at times): fewer
# samples, a shorter warm-up (20 rounds), long past when the signal comes.
rc=$(interrupt TERM 4 "$out/int/futex.txt" "$wsc" bench futex --iters 2000)
check "bench futex (two threads), SIGTERM mid-run: exit 130" test "$rc" -eq 130
check "bench futex, SIGTERM: the table of the samples so far, marked" sh -c \
	"grep -Eq '^# interrupted by SIGTERM: [1-9][0-9]* of 2000 samples per variant' $out/int/futex.txt &&
	 grep -q '^# interrupted by SIGTERM: the figures are of the samples taken until then' $out/int/futex.txt &&
	 grep -q '^wrapped-1 ' $out/int/futex.txt"
# --all first times 4 rounds of every call (its estimate, said on stderr),
# then measures them: the signal 1 s after the estimate, in the first
# call's samples (its warm-up takes a tenth of a second).
rc=$(interrupt_when INT "grep -q 'will take about' $out/int/all.txt.err" 1 "$out/int/all.txt" \
	"$wsc" bench --all --iters $big --out "$out/int/all")
check "bench --all, SIGINT in the first call: exit 130, its files and the summary marked" sh -c \
	"test $rc -eq 130 && test -s $out/int/all/summary.txt &&
	 grep -q '^# interrupted by SIGINT: ' $out/int/all/summary.txt && grep -q '^# interrupted by SIGINT: ' $out/int/all.txt &&
	 v=\$($python tests/vm/check_bench.py $big $out/int/all \$(ls $out/int/all | sed -n 's/\.csv\$//p')) &&
	 echo \"\$v\" | grep -q '^ok ' && ! echo \"\$v\" | grep -q '^not ok'"


# The newcomer's run (issue 31): --all at 1000 samples, about two minutes
# under TCG, Ctrl-C 3 s after the first call's files are written.  It answers
# within 3 s (0.2-0.7 s measured; a round of the slowest call, a wake-up,
# takes milliseconds, and TCG stalls add the rest), with the files of the
# calls measured, the one it was in part of, and the summary, marked.
mkdir -p "$out/int/n1000"
env --default-signal=INT "$wsc" bench --all --iters 1000 --out "$out/int/n1000" \
	> "$out/int/n1000.txt" 2> "$out/int/n1000.err" &
pid=$!
await test -e "$out/int/n1000/null.csv"
# Into the second call's rounds (open: about 10 s of them).
sleep 3
read -r t0 _ < /proc/uptime
kill -INT $pid
wait $pid
rc=$?
read -r t1 _ < /proc/uptime
took=$(awk "BEGIN { print $t1 - $t0 }")
check "bench --all --iters 1000, SIGINT in its second call: exit 130 within 3 s (${took} s)" sh -c \
	"test $rc -eq 130 && awk 'BEGIN { exit !($took < 3) }'"
check "bench --all --iters 1000, SIGINT: the estimate first, the summary and the output marked" sh -c \
	"grep -q '^wsc bench: --all will take about .* (an estimate: 1010 rounds of each of 13 calls' $out/int/n1000.err &&
	 grep -q '^# interrupted by SIGINT: the calls below are those measured until then' $out/int/n1000/summary.txt &&
	 grep -q '^# interrupted by SIGINT: the calls below are those measured until then' $out/int/n1000.txt &&
	 grep -q '^null ' $out/int/n1000.txt && test -z \"\$(find $out/int/n1000 -name '*.tmp')\""
check "bench --all --iters 1000, SIGINT: the calls measured kept whole, the last in part" sh -c \
	"v=\$($python tests/vm/check_bench.py 1000 $out/int/n1000 \$(ls $out/int/n1000 | sed -n 's/\.csv\$//p')) &&
	 echo \"\$v\" | grep -qx 'ok null' && ! echo \"\$v\" | grep -q '^not ok' &&
	 grep -q '\"interrupted\": false' $out/int/n1000/null.json"

rm -rf "$out"
tap_done
