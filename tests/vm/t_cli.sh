#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The wsc command against the loaded module: listings parse, benchmarks
# write what they claim, bad arguments are usage errors (exit code 2).
. "$(dirname "$0")/tap.sh"
wsc=${WSC:-build/wsc}
out=$(mktemp -d)

echo "TAP version 13"

exit_code() {
	"$@" >/dev/null 2>&1
	echo $?
}

check "wsc --version" sh -c "$wsc --version | grep -q '^wsc '"
check "wsc info lists read with group userdata" sh -c "$wsc info | grep -Eq '^read +0 +userdata'"
check "wsc info --json parses and has 48 rows" sh -c \
	"$wsc info --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d[\"calls\"]) == 48, len(d[\"calls\"]); assert d[\"abi_version\"] == 1'"

check "wsc bench null --json has the documented keys" sh -c \
	"$wsc bench null --iters 640 --json > $out/b.json && python3 - $out/b.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for call in ('nop', 'getpid'):
    c = d[call]
    for k in ('syscall_ns', 'ioctl_ns', 'batched_ns', 'fixed_ns', 'per_call_ns', 'speedup'):
        assert k in c, (call, k)
    assert sorted(int(b) for b in c['batched_ns']) == [1, 2, 4, 8, 16, 64]
    assert c['syscall_ns'] > 0 and all(v > 0 for v in c['batched_ns'].values())
assert d['environment']['hardware_counters'] in (True, False)
PY"
check "wsc bench null --csv writes every sample" sh -c \
	"$wsc bench null --iters 640 --csv $out/s.csv >/dev/null && test \$(wc -l < $out/s.csv) -eq \$((1 + 2 * 8 * 10)) && test ! -e $out/s.csv.tmp"

check "no command: exit 2" test "$(exit_code $wsc)" -eq 2
check "unknown command: exit 2" test "$(exit_code $wsc frobnicate)" -eq 2
check "bench without a name: exit 2" test "$(exit_code $wsc bench)" -eq 2
check "unknown benchmark: exit 2" test "$(exit_code $wsc bench bogus)" -eq 2
check "--iters 0: exit 2" test "$(exit_code $wsc bench null --iters 0)" -eq 2
check "--iters -5: exit 2" test "$(exit_code $wsc bench null --iters -5)" -eq 2
check "--iters 12abc: exit 2" test "$(exit_code $wsc bench null --iters 12abc)" -eq 2
check "--iters absurd: exit 2" test "$(exit_code $wsc bench null --iters 99999999999999999999)" -eq 2
check "--cpu out of range: exit 2" test "$(exit_code $wsc bench null --cpu 4096)" -eq 2
check "unknown option: exit 2" test "$(exit_code $wsc info --bogus)" -eq 2
check "unwritable --csv: exit 2, no file" sh -c \
	"test \$($wsc bench null --iters 640 --csv /proc/nope.csv >/dev/null 2>&1; echo \$?) -eq 2 && test ! -e /proc/nope.csv"
check "empty --csv: exit 2" test "$(exit_code $wsc bench null --iters 640 --csv '')" -eq 2
check "--csv a directory: exit 2, nothing left" sh -c \
	"test \$($wsc bench null --iters 640 --csv $out >/dev/null 2>&1; echo \$?) -eq 2 && test ! -e $out.tmp"
check "--cpu offline: exit 2" sh -c \
	"echo 0 > /sys/devices/system/cpu/cpu1/online && r=\$($wsc bench null --iters 640 --cpu 1 >/dev/null 2>&1; echo \$?); echo 1 > /sys/devices/system/cpu/cpu1/online; test \$r -eq 2"
check "help exits 0" sh -c "$wsc --help >/dev/null && $wsc bench --help >/dev/null && $wsc info --help >/dev/null"

rm -rf "$out"
tap_done
