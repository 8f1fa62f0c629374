#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wsc ls against the loaded module: the wrapped listing equals the
# conventional one byte for byte and the system's ls field by field, on
# every kind of file; failures and a missing module are told (exit code
# 1); --compare's JSON and CSV hold what they claim; bad arguments are
# usage errors (exit code 2) that make no file.  No timing is asserted:
# the VM is QEMU TCG.
. "$(dirname "$0")/tap.sh"
wsc=${WSC:-build/wsc}
# Absolute: some checks run from another folder.
case $wsc in /*) ;; *) wsc=$(pwd)/$wsc ;; esac
# Debian's own interpreter: a pyenv shim on PATH costs seconds per start
# under TCG.
python=${PYTHON:-/usr/bin/python3}
# A real filesystem when tools/vm-run --scratch gave one (ext4 with a page
# cache), else the guest's /tmp.
if [ -n "${WSC_SCRATCH:-}" ]; then
	out=$(mktemp -d "$WSC_SCRATCH/t_ls.XXXXXX")
else
	out=$(mktemp -d)
fi
# Searchable by nobody, for the permission test below.
chmod 755 "$out"

echo "TAP version 13"

exit_code() {
	"$@" >/dev/null 2>&1
	echo $?
}

# The system's listing, as wsc ls lists.
sys_ls() {
	LC_ALL=C ls -l --time-style=long-iso "$1"
}

# same_fields A B: the same lines with the same whitespace-separated fields.
same_fields() {
	tr -s ' \t' '  ' < "$1" > "$1.f" && tr -s ' \t' '  ' < "$2" > "$2.f" &&
		cmp -s "$1.f" "$2.f"
}

# A folder with one of everything ls -l shows differently.
d=$out/d
mkdir "$d"
for size in 0 1 1023 1024 1025 5000 100000; do
	head -c $size /dev/zero > "$d/size-$size"
done
mkdir "$d/sub"
ln -s size-1 "$d/link"
ln -s /nonexistent "$d/dangling"
ln "$d/size-1" "$d/hard"
mkfifo "$d/fifo"
: > "$d/suid" && chmod 4755 "$d/suid"
: > "$d/sgid" && chmod 2644 "$d/sgid"
mkdir "$d/sticky" && chmod 1777 "$d/sticky"
: > "$d/.hidden"
: > "$d/sp ace"
: > "$d/old" && touch -d '2001-02-03 04:05' "$d/old"
: > "$d/numeric" && chown 12345:54321 "$d/numeric"
mknod "$d/null" c 1 3
mknod "$d/loop" b 7 200

check "wsc ls -l: exit 0" sh -c "$wsc ls -l $d > $out/w.txt"
check "wsc ls -l equals --conventional byte for byte" sh -c \
	"$wsc ls -l --conventional $d > $out/c.txt && cmp -s $out/w.txt $out/c.txt"
sys_ls "$d" > "$out/s.txt"
check "wsc ls -l agrees field by field with LC_ALL=C ls -l --time-style=long-iso" \
	same_fields "$out/w.txt" "$out/s.txt"
check "wsc ls -l equals the system ls byte for byte (same column widths)" \
	cmp -s "$out/w.txt" "$out/s.txt"
check "wsc ls -l: total, setuid, setgid, sticky, fifo, devices, symlink target" sh -c \
	"head -1 $out/w.txt | grep -Eq '^total [0-9]+\$' &&
	 grep -q '^-rwsr-xr-x .* suid\$' $out/w.txt &&
	 grep -q '^-rw-r-Sr-- .* sgid\$' $out/w.txt &&
	 grep -q '^drwxrwxrwt .* sticky\$' $out/w.txt &&
	 grep -q '^prw-r--r-- .* fifo\$' $out/w.txt &&
	 grep -q '^crw-r--r-- .* 1, *3 .* null\$' $out/w.txt &&
	 grep -q '^brw-r--r-- .* 7, *200 .* loop\$' $out/w.txt &&
	 grep -q ' 12345 *54321 .* numeric\$' $out/w.txt &&
	 grep -q ' 2001-02-03 04:05 old\$' $out/w.txt &&
	 grep -q ' link -> size-1\$' $out/w.txt"
check "wsc ls -l leaves out names starting with '.'" sh -c "! grep -q hidden $out/w.txt"
check "wsc ls (names only) equals LC_ALL=C ls -1" sh -c \
	"$wsc ls $d > $out/n.txt && LC_ALL=C ls -1 $d | cmp -s - $out/n.txt"

mkdir "$out/empty"
check "an empty folder: 'total 0'" sh -c \
	"test \"\$($wsc ls -l $out/empty)\" = 'total 0' && test -z \"\$($wsc ls $out/empty)\""
check "a missing folder: exit 1, named" sh -c \
	"test \$($wsc ls -l $out/missing >/dev/null 2>$out/err; echo \$?) -eq 1 && grep -q \"'$out/missing'\" $out/err"
check "not a folder: exit 1, named" sh -c \
	"test \$($wsc ls -l $d/size-1 >/dev/null 2>$out/err; echo \$?) -eq 1 && grep -q 'Not a directory' $out/err"

# Past 1024 names libwsc cuts the batch into several ioctls.
big=$out/big
mkdir "$big"
i=0
while [ $i -lt 1100 ]; do
	: > "$big/n$i"
	i=$((i + 1))
done
check "1100 names (two ioctls): wsc equals conventional and the system ls" sh -c \
	"$wsc ls -l $big > $out/bw.txt && $wsc ls -l --conventional $big | cmp -s - $out/bw.txt &&
	 test \$(wc -l < $out/bw.txt) -eq 1101 && LC_ALL=C ls -l --time-style=long-iso $big | cmp -s - $out/bw.txt"

# Names nobody may read but not stat: each fails alone, the others listed.
p=$out/private
mkdir "$p" && : > "$p/a" && : > "$p/b" && chmod 744 "$p"
check "names that cannot be stat'ed: each told, exit 1, wsc as conventional" sh -c \
	"test \$(setpriv --reuid=65534 --regid=65534 --clear-groups $wsc ls -l $p > $out/pw.txt 2>$out/pe.txt; echo \$?) -eq 1 &&
	 test \$(setpriv --reuid=65534 --regid=65534 --clear-groups $wsc ls -l --conventional $p > $out/pc.txt 2>$out/pce.txt; echo \$?) -eq 1 &&
	 grep -q \"^wsc ls: cannot access 'a': Permission denied\" $out/pe.txt &&
	 grep -q \"^wsc ls: cannot access 'b': Permission denied\" $out/pe.txt &&
	 cmp -s $out/pw.txt $out/pc.txt && cmp -s $out/pe.txt $out/pce.txt &&
	 test \"\$(cat $out/pw.txt)\" = 'total 0'"

# --compare over the folders it makes (5 and 408 files), 3 rounds.
mkdir "$out/scratch"
check "--compare -r 3 --json --csv: exit 0" sh -c \
	"$wsc ls --compare -r 3 --json --csv $out/cmp.csv --dir $out/scratch > $out/cmp.json"
check "--compare --json: verified, 2 folders x 3 variants, speedups over conventional" \
	"$python" - "$out/cmp.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d['verified'] is True, d['verified']
assert d['repetitions'] == 3, d['repetitions']
r = d['results']
assert len(r) == 6, len(r)
assert sorted((x['files'], x['variant']) for x in r) == sorted(
    (n, v) for n in (5, 408) for v in ('wsc', 'conventional', 'system')), r
keys = {'files', 'dir', 'variant', 'median_ns', 'min_ns', 'max_ns', 'speedup',
        'stat_median_ns', 'stat_speedup', 'repetitions_done'}
assert d['interrupted'] is False
conv = {x['files']: x for x in r if x['variant'] == 'conventional'}
for x in r:
    assert keys <= set(x), (keys - set(x))
    assert 'ratio' not in x and 'stat_ratio' not in x, x
    assert x['repetitions_done'] == 3, x
    assert 0 < x['min_ns'] <= x['median_ns'] <= x['max_ns'], x
    # conventional's median over this one's: above 1 is faster
    c = conv[x['files']]
    # printed with 4 decimals: 0.00005 of rounding
    assert abs(x['speedup'] - c['median_ns'] / x['median_ns']) <= max(0.00006, 0.0001 * x['speedup']), x
    if x['variant'] == 'system':
        assert x['stat_median_ns'] is None and x['stat_speedup'] is None, x
    else:
        assert 0 < x['stat_median_ns'] <= x['median_ns'] and x['stat_speedup'] > 0, x
    if x['variant'] == 'conventional':
        assert x['speedup'] == 1 and x['stat_speedup'] == 1, x
assert 'note' in d['environment']
assert d['environment']['command'][1:3] == ['ls', '--compare'], d['environment']
PY
check "--compare --csv: 2 folders x (3 listing + 2 stat) x 3 rows, no .tmp" sh -c \
	"test \$(wc -l < $out/cmp.csv) -eq \$((1 + 2 * 5 * 3)) && head -1 $out/cmp.csv | grep -qx 'files,variant,phase,repetition,ns' &&
	 test \$(grep -c ',listing,' $out/cmp.csv) -eq 18 && test \$(grep -c ',stat,' $out/cmp.csv) -eq 12 && test ! -e $out/cmp.csv.tmp"
check "--compare removes the folders it made" sh -c "test -z \"\$(ls -A $out/scratch)\""
check "--compare table: speedups in words, no target; --keep keeps 5 and 408 files" sh -c \
	"$wsc ls --compare -r 1 --dir $out/scratch --keep > $out/cmp.txt 2>$out/cmp.err &&
	 grep -Eq '^wsc over 408 files: [0-9]+\.[0-9]{2}x (faster|slower) than conventional\$' $out/cmp.txt &&
	 grep -Eq '^conventional .* baseline\$' $out/cmp.txt &&
	 grep -Eq '^system .* [0-9]+\.[0-9]{2}x (faster|slower)\$' $out/cmp.txt &&
	 ! grep -Eqi 'target|MISSED' $out/cmp.txt &&
	 test \$(grep -c '^note: ' $out/cmp.txt) -le 1 &&
	 if grep -q QEMU /proc/cpuinfo; then grep -q '^note: times measured under an emulator (QEMU TCG)' $out/cmp.txt; fi &&
	 grep -q '^# verified: ' $out/cmp.txt &&
	 k=\$(sed -n 's/^wsc ls: kept //p' $out/cmp.err) && test -d \"\$k\" &&
	 test \$(ls \$k/files-5 | wc -l) -eq 5 && test \$(ls \$k/files-408 | wc -l) -eq 408 &&
	 rm -r \"\$k\""
n=$(find "$d" -mindepth 1 -maxdepth 1 ! -name '.*' | wc -l)  # ls counts no dot file
check "--compare over given folders: exit 0, one record per variant each" sh -c \
	"$wsc ls --compare -r 1 --json $d $big > $out/g.json &&
	 $python -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[\"verified\"] and len(d[\"results\"]) == 6 and sorted(r[\"files\"] for r in d[\"results\"]) == [$n] * 3 + [1100] * 3, d[\"results\"]' $out/g.json"
# /proc/self/fd differs from one listing to the next (wsc's has /dev/wsc
# open) and is the child's own to the system ls: it must be told.
check "--compare of listings that disagree: exit 1, the lines, verified false, no CSV" sh -c \
	"test \$($wsc ls --compare -r 1 --json --csv $out/bad.csv /proc/self/fd > $out/bad.json 2>$out/bad.err; echo \$?) -eq 1 &&
	 grep -Eq '^wsc ls: /proc/self/fd: the wsc and (conventional|system ls) listings (differ|disagree) at line [0-9]+:\$' $out/bad.err &&
	 grep -q '^  wsc: ' $out/bad.err &&
	 $python -c 'import json,sys; assert json.load(open(sys.argv[1]))[\"verified\"] is False' $out/bad.json &&
	 test ! -e $out/bad.csv && test ! -e $out/bad.csv.tmp"

# Bad arguments: exit 2, and nothing made, in the working folder or SCRATCH.
# names_in DIR: DIR's entries, dot files included, in $names ("" when
# none), from the shell's globs.
names_in() {
	names=
	for e in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		if [ -e "$e" ] || [ -L "$e" ]; then names="$names${names:+ }${e##*/}"; fi
	done
}
# ls_usage ARGS: wsc ls ARGS (words for the shell: '' is an empty
# argument), run in $out/cwd, exits 2 with two lines on stderr, the first
# "wsc ls: ...", the second the --help hint, and leaves the folder holding
# its empty scratch alone.  Read by the shell itself: a process costs a
# fraction of a second under TCG, and this runs 18 times.
ls_usage() {
	(cd "$out/cwd" && eval "exec \"\$wsc\" ls $1") > /dev/null 2> "$out/ue"
	[ $? -eq 2 ] || return 1
	l1='' l2='' l3=''
	{ IFS= read -r l1 && IFS= read -r l2 && ! IFS= read -r l3 && [ -z "$l3" ]; } < "$out/ue" &&
		[ "${l1#wsc ls: }" != "$l1" ] && [ "$l2" = "Try 'wsc ls --help'." ] || return 1
	names_in "$out/cwd"
	[ "$names" = scratch ] || return 1
	names_in "$out/cwd/scratch"
	[ -z "$names" ]
}
mkdir "$out/cwd" "$out/cwd/scratch"
for args in "" "$d $d" "--bogus $d" "--json $d" "--csv x.csv $d" "-r 3 $d" \
	"--dir scratch $d" "--keep $d" "--compare -r 0 --csv x.csv --dir scratch" \
	"--compare -r abc --csv x.csv" "--compare -r 10001 --csv x.csv" \
	"--compare -l --csv x.csv --dir scratch" "--compare --conventional --csv x.csv" \
	"--compare --dir missing --csv x.csv" "--compare --keep $d --csv x.csv" \
	"--compare --dir scratch $d" "--compare --csv scratch --dir scratch" \
	"--compare --dir '' --csv x.csv"; do
	check "wsc ls $args: exit 2 in the one voice, no file made" ls_usage "$args"
done
check "wsc ls --help: exit 0, usage" sh -c "$wsc ls --help | grep -q '^Usage: wsc ls '"

# Interrupted: 2000 rounds take long under TCG; the signal comes after a
# few.  ls_interrupt SIG OUT ARGS...: wsc ls --compare -r 2000 ARGS in
# $out/iscratch in the background, stdout in OUT, stderr in OUT.err; SIG
# once the folders are made (the last of the 408 files is there: seconds
# under TCG) and 3 s more have passed (rounds of 5 files, a fraction of a
# second each); prints the exit code.
mkdir "$out/iscratch"
ls_interrupt() {
	sig=$1 o=$2
	shift 2
	interrupt_when "$sig" "exists $out/iscratch/wsc-ls.*/files-408/file-0408" 3 "$o" \
		"$wsc" ls --compare -r 2000 "$@" --dir "$out/iscratch"
}
rc=$(ls_interrupt INT "$out/int.json" --json --csv "$out/int.csv")
check "--compare --json --csv, SIGINT mid-run: exit 130, the folders it made removed" sh -c \
	"test $rc -eq 130 && test -z \"\$(ls -A $out/iscratch)\" && grep -q '^wsc ls: interrupted by SIGINT: ' $out/int.json.err"
checks_by 1 "$python" - "$out/int.json" "$out/int.csv" <<'PY'
import json, sys
from verdicts import check

def rounds_taken(json_path, csv_path):
    d = json.load(open(json_path))
    assert d['interrupted'] is True and d['repetitions'] == 2000, d
    assert d['verified'] is True, d
    r = d['results']
    assert r and all(0 < x['repetitions_done'] < 2000 for x in r), r
    rows = sum(x['repetitions_done'] * (2 if x['variant'] != 'system' else 1) for x in r)
    assert len(open(csv_path).readlines()) == 1 + rows, rows

check("--compare, SIGINT: the JSON holds the rounds taken, marked; the CSV as many",
      lambda: rounds_taken(sys.argv[1], sys.argv[2]))
PY
rc=$(ls_interrupt TERM "$out/int.txt")
check "--compare table, SIGTERM mid-run: exit 130, marked, the folders removed" sh -c \
	"test $rc -eq 130 && grep -q '^# interrupted by SIGTERM: the folders below with the rounds taken until then' $out/int.txt &&
	 grep -Eq ', [1-9][0-9]* of 2000 rounds \(interrupted\)\$' $out/int.txt &&
	 grep -q '^interrupted by SIGTERM: the figures are of the rounds taken until then' $out/int.txt &&
	 test -z \"\$(ls -A $out/iscratch)\""

# No module: WSC_DEVICE names a device that is not there.
check "without the device: wsc ls -l exits 1, says so and names --conventional" sh -c \
	"test \$(WSC_DEVICE=/nonexistent $wsc ls -l $d >/dev/null 2>$out/err; echo \$?) -eq 1 &&
	 grep -q '^wsc ls: the wsc module is loaded but /nonexistent is missing' $out/err &&
	 test \"\$(tail -n 1 $out/err)\" = 'wsc ls: --conventional lists without the module'"
check "without the module: --conventional still lists" sh -c \
	"WSC_DEVICE=/nonexistent $wsc ls -l --conventional $d | cmp -s - $out/c.txt"
check "without the device: --compare exits 1, suggests no --conventional, makes nothing" sh -c \
	"test \$(WSC_DEVICE=/nonexistent $wsc ls --compare -r 1 --csv $out/nm.csv --dir $out/scratch >/dev/null 2>$out/err; echo \$?) -eq 1 &&
	 grep -q '^wsc ls: ' $out/err && ! grep -q -- '--conventional' $out/err &&
	 test -z \"\$(ls -A $out/scratch)\" && test ! -e $out/nm.csv && test ! -e $out/nm.csv.tmp"

rm -rf "$out"
tap_done
