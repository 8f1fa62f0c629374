# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# What the wsc trace tests share: where things are, reading the report's
# JSON, comparing it with strace's (trace_check.py), and waiting for a
# trace to be active.  Sourced after tap.sh, from the top of the tree.
wsc=${WSC:-build/wsc}
case $wsc in /*) ;; *) wsc=$(pwd)/$wsc ;; esac
# shellcheck disable=SC2034  # the scripts that source this file use it
wl=$(pwd)/build/tests/vm/wl_calls
python=${PYTHON:-/usr/bin/python3}
PYTHONPATH=$(pwd)/tests/vm${PYTHONPATH:+:$PYTHONPATH}
# No __pycache__ left in the tree by trace_check.py's import.
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH PYTHONDONTWRITEBYTECODE
out=$(mktemp -d)
chmod 755 "$out"

# same_as_strace FILE.json STRACE_C_FILE: every syscall's calls and errors
# in wsc trace's JSON equal strace -c's (exit and exit_group aside).
same_as_strace() {
	"$python" -c 'import sys, trace_check as t
sys.exit(not t.same(t.wsc_rows(sys.argv[1]), t.strace_c(sys.argv[2])))' "$1" "$2"
}

# count FILE.json NAME FIELD: a syscall's field in wsc trace's JSON (0 if absent).
count() {
	"$python" - "$1" "$2" "$3" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [s for s in doc["syscalls"] if s["name"] == sys.argv[2]]
print(rows[0][sys.argv[3]] if rows else 0)
PY
}

# field FILE.json PATH: a top-level or trace.* value.
field() {
	"$python" - "$1" "$2" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[k]
print(v)
PY
}

# wait_active: until /proc/syscall_lat shows an active trace (30 s at most).
wait_active() {
	i=0
	while ! grep -q '^# trace [0-9]*: active' /proc/syscall_lat; do
		i=$((i + 1))
		[ $i -le 300 ] || return 1
		sleep 0.1
	done
}
