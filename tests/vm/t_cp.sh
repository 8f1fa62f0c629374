#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wsc cp against the loaded module, on a real filesystem ($WSC_SCRATCH,
# the ext4 disk tools/vm-run --scratch mounts): every program copies
# correctly, failures are reported per transaction and leave no partial
# file behind, the outputs hold what they claim, bad arguments are usage
# errors, SIGINT or SIGTERM mid-run reports the repetitions so far, marked,
# removes the scratch folder and exits 130.  Timings are never asserted.
. "$(dirname "$0")/tap.sh"
wsc=${WSC:-build/wsc}
python=${PYTHON:-/usr/bin/python3}
scratch=${WSC_SCRATCH:-}
if [ -z "$scratch" ]; then
	scratch=$(mktemp -d)
	echo "# no \$WSC_SCRATCH: using $scratch (not a disk filesystem)"
fi
work=$(mktemp -d "$scratch/t_cp.XXXXXX")
out=$(mktemp -d)
plot_out=${WSC_CP_OUT:-}
programs="NORMAL NORMAL+COLLECT WSC+COLLECT NORMAL+RW WSC+RW WSC+CHAIN WSC+CHAIN+COLLECT IO_URING COPY_FILE_RANGE"

echo "TAP version 13"

# The folder a --keep run left in $1: its only wsc-cp.* entry.
kept() {
	for d in "$1"/wsc-cp.*; do [ -e "$d" ] && echo "$d" && break; done
}

# Every destination in folder $1 equals its source, and there are $2.
copies_equal() {
	n=0
	for d in "$1"/dst-*; do
		[ -e "$d" ] || continue
		[ -f "$d" ] || continue
		cmp -s "$d" "$1/src-${d##*/dst-}" || { echo "# $d differs"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -eq "$2" ] || { echo "# $n copies, wanted $2"; return 1; }
}

# Each program alone, N = 1, N = 3 and N = 7 with T = 3 (T does not divide
# N), its copies kept and compared here with cmp, independently of wsc;
# then every run's JSON checked by one Python: verified, n, the program's
# open-close.
: > "$out/one.list"
for p in $programs; do
	for nt in "1 8" "3 8" "7 3"; do
		# shellcheck disable=SC2086  # N and T, split on purpose
		set -- $nt
		d=$(mktemp -d "$work/one.XXXXXX")
		o=$out/one-$p-$1
		if $wsc cp -p "$p" -n "$1" -t "$2" -r 1 --dir "$d" --keep --json \
			> "$o.json" 2> "$o.err" &&
			copies_equal "$(kept "$d")" "$1" >> "$o.err"; then
			copied=yes
		else
			copied=no
		fi
		echo "$o $p $1 $2 $copied" >> "$out/one.list"
		rm -rf "$d"
	done
done
checks_by "$(wc -l < "$out/one.list")" "$python" - "$out/one.list" <<'PY'
import json, sys
from verdicts import check

def copies(o, prog, n, copied):
    assert copied == "yes", open(o + ".err").read()
    d = json.load(open(o + ".json"))
    for k in ("verified", "n", "threshold", "size", "results", "failed", "errors"):
        assert k in d, k
    assert d["verified"] is True and d["n"] == n and d["failed"] == 0, d
    ran = {r["program"] for r in d["results"] if r["part"] == "open-close"}
    assert ran == {prog}, (ran, prog)
    for r in d["results"]:
        for k in ("program", "portion", "median_ns", "min_ns", "max_ns", "events"):
            assert k in r, k
        assert 0 < r["min_ns"] <= r["median_ns"] <= r["max_ns"], r
        assert r["events"] == "not available" or isinstance(r["events"], dict)

for line in open(sys.argv[1]):
    o, prog, n, t, copied = line.split()
    check(f"{prog} copies N={n} T={t} byte for byte",
          lambda: copies(o, prog, int(n), copied))
PY

check "all programs together, N=10 T=4, verified, 15 portions" sh -c \
	"$wsc cp -n 10 -t 4 -r 2 --dir $work --json > $out/all.json &&
	 $python -c 'import json; d = json.load(open(\"$out/all.json\")); assert d[\"verified\"] and len(d[\"results\"]) == 15, d[\"results\"]; assert sorted(r[\"portion\"] for r in d[\"results\"]) == list(range(1, 16))'"
check "speedups: 1 for each baseline portion, the baseline's median over the portion's" "$python" -c "
import json
d = json.load(open('$out/all.json'))
med = {r['portion']: r['median_ns'] for r in d['results']}
for r in d['results']:
    assert 'ratio' not in r, r
    if r['portion'] == r['baseline']:
        assert r['speedup'] == 1.0, r
    # speedup has 4 decimals: it is off by at most half the last.
    assert abs(r['speedup'] - med[r['baseline']] / r['median_ns']) <= 0.00005 + 1e-12, r
assert d['interrupted'] is False and d['repetitions_done'] == d['repetitions'], d
assert 'note' in d['environment']
"
check "the default table: the paper's portions, speedups in words, no target" sh -c \
	"$wsc cp -n 4 -r 1 --dir $work > $out/table.txt &&
	 grep -Eq '^ +11  WSC\\+COLLECT +write .* [0-9]+\\.[0-9]{2}x (faster|slower)\$' $out/table.txt &&
	 grep -Eq '^ +1  NORMAL +open-close .* baseline\$' $out/table.txt &&
	 grep -q '^verified: .* all equal' $out/table.txt &&
	 grep -Eq '^WSC\\+CHAIN open to close: [0-9]+\\.[0-9]{2}x (faster|slower) than NORMAL\$' $out/table.txt &&
	 ! grep -Eqi 'target|MISSED' $out/table.txt &&
	 grep -q '^hardware events: ' $out/table.txt"
check "the table: the environment's note, once" sh -c \
	"test \$(grep -c '^note: ' $out/table.txt) -eq 1 &&
	 if grep -q 'QEMU' /proc/cpuinfo; then grep -q '^note: times measured under an emulator (QEMU TCG)' $out/table.txt; fi"
check "the scratch folder is removed without --keep" sh -c "test -z \"\$(ls -d $work/wsc-cp.* 2>/dev/null)\""
check "--csv: one row per portion and repetition, event columns present" sh -c \
	"$wsc cp -n 3 -r 3 --dir $work --csv $out/cp.csv > /dev/null &&
	 test \$(wc -l < $out/cp.csv) -eq \$((1 + 15 * 3)) &&
	 head -n 1 $out/cp.csv | grep -q '^n,threshold,size,program,portion,part,repetition,ns,cycles,' &&
	 test ! -e $out/cp.csv.tmp"

# Failures, made for real.
d=$(mktemp -d "$work/fail.XXXXXX")
$wsc cp -n 5 -t 2 -r 1 --dir "$d" --keep --inject missing-source:2 --json \
	> "$out/miss.json" 2> "$out/miss.err"
rc=$?
check "missing source: exit 1" test "$rc" -eq 1
check "missing source: named per program on stderr" sh -c \
	"test \$(grep -c 'transaction 2 (src-0002 -> dst-0002): openat of the source: No such file or directory' $out/miss.err) -eq 9"
check "missing source: JSON errors, other copies verified" "$python" -c "
import json
d = json.load(open('$out/miss.json'))
assert d['verified'] is True and d['failed'] == 9, d
assert all(e['transaction'] == 2 and e['error'] == 'No such file or directory' for e in d['errors'])
"
check "missing source: no dst-0002 left behind" test ! -e "$(kept "$d")/dst-0002"
check "missing source: the 4 kept copies equal their sources" copies_equal "$(kept "$d")" 4
rm -rf "$d"

d=$(mktemp -d "$work/fail.XXXXXX")
$wsc cp -n 4 -t 3 -r 1 --dir "$d" --keep --inject unwritable-dest:3 \
	> /dev/null 2> "$out/dest.err"
rc=$?
check "unwritable destination: exit 1, named per program" sh -c \
	"test $rc -eq 1 && test \$(grep -c 'transaction 3 (src-0003 -> dst-0003): openat of the destination: Is a directory' $out/dest.err) -eq 9"
check "unwritable destination: the 3 other copies equal their sources" copies_equal "$(kept "$d")" 3
rm -rf "$d"

# ENOSPC: a tmpfs with room for the sources and only some copies.  Once
# without IO_URING, once with it alone: io_uring puts the files its direct
# descriptors closed a little late (a kernel worker's delayed fput), so a
# removed copy can still hold its pages when the next program starts, and
# how many copies fit after an IO_URING run varies.
full_case() {
	label=$1
	min=$2
	shift 2
	tiny=$(mktemp -d)
	if ! mount -t tmpfs -o size=200k,mode=0755 wsc-tiny "$tiny"; then
		not_ok "$label: mount a small tmpfs"
		rmdir "$tiny"
		return
	fi
	$wsc cp -n 16 --size 8K -t 4 -r 1 --dir "$tiny" --keep --json "$@" \
		> "$out/full.json" 2> "$out/full.err"
	rc=$?
	k=$(kept "$tiny")
	check "$label: exit 1" test "$rc" -eq 1
	check "$label: ENOSPC or a short write reported per transaction" \
		grep -Eq 'transaction [0-9]+ .*(No space left on device|short write)' "$out/full.err"
	check "$label: every copy left behind equals its source" sh -c "
		n=0
		for f in $k/dst-*; do
			[ -f \"\$f\" ] || continue
			cmp -s \"\$f\" \"$k/src-\${f##*/dst-}\" || exit 1
			n=\$((n + 1))
		done
		echo \"# \$n complete copies kept\"
		test \$n -ge $min && test \$n -lt 16"
	check "$label: JSON failed > 0, claimed copies verified" "$python" -c "
import json
d = json.load(open('$out/full.json'))
assert d['failed'] > 0 and d['verified'] is True, d
"
	rm -rf "$k"
	umount "$tiny"
	rmdir "$tiny"
}
full_case "full filesystem" 1 \
	-p NORMAL,NORMAL+COLLECT,WSC+COLLECT,NORMAL+RW,WSC+RW,WSC+CHAIN,WSC+CHAIN+COLLECT,COPY_FILE_RANGE
full_case "full filesystem, IO_URING" 0 -p IO_URING

# --cold: root drops the caches; anyone else is told why.
check "--cold as root runs and verifies" sh -c \
	"$wsc cp -n 3 -r 1 --cold --dir $work --json | $python -c 'import json,sys; d = json.load(sys.stdin); assert d[\"cold\"] and d[\"verified\"]'"
nobody_dir=$(mktemp -d)
chmod 1777 "$nobody_dir"
check "--cold without root: exit 1 naming drop_caches" sh -c \
	"setpriv --reuid=65534 --regid=65534 --clear-groups $wsc cp -p NORMAL -n 2 -r 1 --cold --dir $nobody_dir > /dev/null 2> $out/cold.err;
	 test \$? -eq 1 && grep -q 'drop_caches, which needs root' $out/cold.err && test -z \"\$(ls -A $nobody_dir)\""
rmdir "$nobody_dir"

check "without /dev/wsc: the WSC programs are refused (exit 1)" sh -c \
	"WSC_DEVICE=/nonexistent $wsc cp -n 2 -r 1 --dir $work > /dev/null 2> $out/nodev.err;
	 test \$? -eq 1 && grep -q '^wsc cp: the wsc module is loaded but /nonexistent is missing' $out/nodev.err &&
	 test \"\$(tail -n 1 $out/nodev.err)\" = 'wsc cp: the WSC programs need the module; -p NORMAL,IO_URING,COPY_FILE_RANGE run without it'"
check "without /dev/wsc: the conventional and io_uring programs still run" sh -c \
	"WSC_DEVICE=/nonexistent $wsc cp -p NORMAL,IO_URING,COPY_FILE_RANGE -n 2 -r 1 --dir $work > /dev/null"

# The sweeps.
check "--sweep threshold: every T, every program, JSON" sh -c \
	"$wsc cp --sweep threshold -n 8 -r 1 --dir $work --json > $out/sweep-t.json &&
	 $python -c 'import json; d = json.load(open(\"$out/sweep-t.json\")); assert d[\"sweep\"] == \"threshold\" and d[\"verified\"]; ts = sorted({p[\"threshold\"] for p in d[\"points\"]}); assert ts == [1, 2, 4, 8, 16, 32, 64], ts; assert len(d[\"points\"]) == 7 * 9'"
check "--sweep n: N from 1 to 128, a crossover key" sh -c \
	"$wsc cp --sweep n -p NORMAL,WSC+COLLECT -r 1 --dir $work --json > $out/sweep-n.json &&
	 $python -c 'import json; d = json.load(open(\"$out/sweep-n.json\")); assert d[\"sweep\"] == \"n\" and \"crossover_n\" in d; ns = sorted({p[\"n\"] for p in d[\"points\"]}); assert ns == [1, 2, 4, 8, 16, 32, 64, 128], ns'"
if [ -n "$plot_out" ]; then
	mkdir -p "$plot_out"
	cp "$out/all.json" "$plot_out/cp.json"
	cp "$out/sweep-t.json" "$plot_out/cp-sweep-threshold.json"
	cp "$out/sweep-n.json" "$plot_out/cp-sweep-n.json"
fi

# Usage errors: exit 2, and no scratch folder made.  One folder for all
# of them, emptied after a case that leaves something (which fails it),
# and the verdict read by the shell itself: a process costs a fraction
# of a second under TCG, and there are 25 cases.
ud=$work/usage
mkdir "$ud"
usage_case() {
	name=$1
	shift
	$wsc cp --dir "$ud" "$@" > /dev/null 2> "$out/usage.err"
	rc=$?
	# The one voice of wsc(8)'s USAGE ERRORS: two lines, no help after.
	l1='' l2='' l3=''
	if [ "$rc" -eq 2 ] && ! exists "$ud"/* "$ud"/.[!.]* "$ud"/..?* &&
	   { IFS= read -r l1 && IFS= read -r l2 && ! IFS= read -r l3 && [ -z "$l3" ]; } < "$out/usage.err" &&
	   [ "${l1#wsc cp: }" != "$l1" ] && [ "$l2" = "Try 'wsc cp --help'." ]; then
		ok "usage error: $name"
	else
		not_ok "usage error: $name (exit $rc)"
		rm -rf "${ud:?}"/* "$ud"/.[!.]* "$ud"/..?*
	fi
}
usage_case "-n 0" -n 0
usage_case "-n x" -n x
usage_case "-n over the maximum" -n 100001
usage_case "-t 0" -t 0
usage_case "-t 129" -t 129
usage_case "-r 0" -r 0
usage_case "-r -1" -r -1
usage_case "--size 0" --size 0
usage_case "--size 65M" --size 65M
usage_case "--size 4Q" --size 4Q
usage_case "N x SIZE too large" -n 100000 --size 64K
usage_case "--sweep foo" --sweep foo
usage_case "--sweep n with -n" --sweep n -n 5
usage_case "--sweep threshold with -t" --sweep threshold -t 4
usage_case "--sweep with --keep" --sweep n --keep
usage_case "--inject bogus" --inject bogus:1
usage_case "--inject past N" -n 3 --inject missing-source:4
usage_case "--programs FOO" --programs FOO
usage_case "--programs with no program" --programs ,
usage_case "--sweep n past 512MiB at N = 128" --sweep n --size 4500K
usage_case "an operand" extra
usage_case "an unknown option" --frobnicate
usage_case "--cpu offline or absent" --cpu 4096
usage_case "--csv a folder" --csv /tmp
usage_case "-n without a value" -n
check "usage error: --dir that does not exist" sh -c \
	"$wsc cp --dir /nonexistent/x > /dev/null 2>&1; test \$? -eq 2"
check "usage error: --dir a file" sh -c \
	"$wsc cp --dir /etc/hostname > /dev/null 2>&1; test \$? -eq 2"
check "--help: exit 0, lists the programs" sh -c \
	"$wsc cp --help | grep -q 'WSC+CHAIN+COLLECT'"

# Interrupted: 40 files and 200 repetitions take minutes under TCG (a
# repetition, every program once, about half a second): the signal comes
# once the sources are made (the last one is there) and 5 s more have
# passed, after a few repetitions.
# cp_interrupt SIG OUT ARGS...: wsc cp -n 40 -r 200 ARGS in the folder
# $id, interrupted 5 s after its last source is there; the exit code.
id=$(mktemp -d "$work/int.XXXXXX")
cp_interrupt() {
	sig=$1 o=$2
	shift 2
	interrupt_when "$sig" "exists $id/wsc-cp.*/src-0040" 5 "$o" \
		"$wsc" cp -n 40 -r 200 --dir "$id" "$@"
}
rc=$(cp_interrupt INT "$out/int.json" --json --csv "$out/int.csv")
check "SIGINT mid-run, --json --csv: exit 130" test "$rc" -eq 130
check "SIGINT: the scratch folder (40 files and their copies) is removed" sh -c "test -z \"\$(ls -A $id)\""
check "SIGINT: the JSON holds the repetitions so far, marked interrupted" "$python" -c "
import json
d = json.load(open('$out/int.json'))
assert d['interrupted'] is True and 0 < d['repetitions_done'] < d['repetitions'] == 200, d
assert len(d['results']) == 15 and all(r['median_ns'] > 0 for r in d['results'])
"
check "SIGINT: the CSV has as many repetitions, stderr says interrupted" sh -c \
	"n=\$($python -c 'import json; print(json.load(open(\"$out/int.json\"))[\"repetitions_done\"])') &&
	 test \$(wc -l < $out/int.csv) -eq \$((1 + 15 * n)) && test ! -e $out/int.csv.tmp &&
	 grep -q '^wsc cp: interrupted by SIGINT: ' $out/int.json.err"
rc=$(cp_interrupt TERM "$out/int.txt")
check "SIGTERM mid-run, the table: exit 130, marked, the folder removed" sh -c \
	"test $rc -eq 130 && grep -Eq '^interrupted by SIGTERM: [1-9][0-9]* of 200 repetitions ran to their end' $out/int.txt &&
	 grep -q '^interrupted by SIGTERM: the figures are of the repetitions that ran to their end' $out/int.txt &&
	 grep -Eq '^ +12  WSC\\+CHAIN ' $out/int.txt && test -z \"\$(ls -A $id)\""
# SIGINT once the first source is there, while the others are made (1000
# of them, seconds under TCG): cp stops making them, and says so.
rc=$(interrupt_when INT "exists $id/wsc-cp.*/src-0001" 0 "$out/int0.txt" \
	"$wsc" cp -n 1000 -r 200 --dir "$id")
check "SIGINT while the sources are made: exit 130, nothing to report, the folder removed" sh -c \
	"test $rc -eq 130 && grep -q '^wsc cp: interrupted by SIGINT: before the first repetition ended' $out/int0.txt.err &&
	 test -z \"\$(ls -A $id)\""

rm -rf "$work" "$out"
tap_done
