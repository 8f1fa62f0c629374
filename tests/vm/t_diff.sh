#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wsc diff on real reports of wsc trace -j: a workload whose calls are
# known (wl_calls procs N K: N getppid, 2N getpgid, N umask, K chdir
# failing with ENOENT) traced with N, with 1.5 N and with K failing calls
# more.  diff says exactly those changes, with exit status 1, and two runs
# of the same thing differ by no more than a loose threshold (exit 0).
# Nothing about time is asserted: the VM is TCG.  No Python: its start
# costs seconds under TCG, and the JSON has a row a line for grep.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/trace_lib.sh"
N=100
echo "TAP version 13"

# trace NAME ARGS...: wsc trace -j of wl_calls ARGS into $out/NAME.json.
trace() {
	_report=$1
	shift
	$wsc trace -j -o "$out/$_report.json" -- "$wl" "$@" > /dev/null 2>&1
}

traces() {
	trace base procs $N 0 && trace again procs $N 0 &&
		trace more procs $((N * 3 / 2)) 0 && trace errno procs $N 5
}
check "wsc trace -j of wl_calls procs $N 0 twice, of $((N * 3 / 2)) 0 and of $N 5" traces
# diff_to NAME [OPTIONS]: wsc diff of base against NAME, its exit status in
# $out/NAME.rc, its JSON in $out/NAME.diff.json and its table in NAME.txt.
diff_to() {
	_to=$1
	shift
	$wsc diff "$@" "$out/base.json" "$out/$_to.json" > "$out/$_to.txt" 2>&1
	echo $? > "$out/$_to.rc"
	$wsc diff --json "$@" "$out/base.json" "$out/$_to.json" > "$out/$_to.diff.json" 2>/dev/null
}
diff_to again --threshold calls=20%,errors=off
diff_to more
diff_to errno

check "the same run twice, calls=20%: exit 0" test "$(cat "$out/again.rc")" -eq 0
check "getppid up 50%: exit 1" test "$(cat "$out/more.rc")" -eq 1
check "5 failing chdir more: exit 1" test "$(cat "$out/errno.rc")" -eq 1
check "the table names the regression" grep -q 'getppid (calls)' "$out/more.txt"
check "the table lists chdir's ENOENT" grep -Eq '^chdir +ENOENT +0 -> 5 +\+5!' "$out/errno.txt"

# The JSON has a row a line: grep reads it (a Python start costs seconds
# under TCG).  regressed NAME: the rows of NAME.diff.json past a threshold.
regressed() {
	grep '^    {"name": ".*"regressed": \["' "$out/$1.diff.json" |
		sed 's/^    {"name": "\([^"]*\)".*/\1/' | sort | tr '\n' ' '
}
# row NAME CALL ERE: CALL's row of NAME.diff.json matches ERE.
row() {
	grep "^    {\"name\": \"$2\"" "$out/$1.diff.json" | grep -Eq -- "$3"
}
check "more: exactly getppid, getpgid and umask regress" \
	test "$(regressed more)" = "getpgid getppid umask "
check "more: getppid $N -> $((N * 3 / 2)), +50%, past calls only" row more getppid \
	"\"regressed\": \\[\"calls\"\\].*\"calls\": \\{\"base\": $N, \"new\": $((N * 3 / 2)), \"change\": $((N / 2)), \"change_pct\": 50.000\\}"
check "more: getpgid $((2 * N)) -> $((3 * N)), umask $N -> $((N * 3 / 2))" sh -c \
	"grep -q '\"name\": \"getpgid\".*\"calls\": {\"base\": $((2 * N)), \"new\": $((3 * N)),' $out/more.diff.json &&
	 grep -q '\"name\": \"umask\".*\"calls\": {\"base\": $N, \"new\": $((N * 3 / 2)),' $out/more.diff.json"
check "errno: only chdir regresses" test "$(regressed errno)" = "chdir "
check "errno: chdir a row of the new report only, past calls and errors" row errno chdir \
	'"side": "new", "regressed": \["calls", "errors"\]'
check "errno: chdir's ENOENT 0 -> 5" row errno chdir \
	'"errnos": \{"ENOENT": \{"base": 0, "new": 5, "change": 5\}\}'
check "errno: the total past errors only" grep -q \
	'^  "total": {"name": "total", "side": "both", "regressed": \["errors"\]' "$out/errno.diff.json"
check "again: no regression, nothing different but the date" sh -c \
	"grep -q '\"verdict\": \"none\", \"exit_status\": 0' $out/again.diff.json &&
	 grep -q '^  \"different\": {},' $out/again.diff.json"

check "a trace against a bench report: exit 2" sh -c \
	"echo '{\"call\": \"getpid\", \"variants\": []}' > $out/bench.json;
	 $wsc diff $out/base.json $out/bench.json 2> $out/kinds.err; test \$? -eq 2 &&
	 grep -q 'a trace report, .* a bench report: they cannot be compared' $out/kinds.err"

rm -rf "$out"
tap_done
