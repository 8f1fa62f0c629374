# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests: TAP output, one numbered line per check.
tap_n=0
tap_failed=0
# This folder: checks_by's Python finds verdicts.py here.
tap_dir=$(dirname "$0")

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n $*"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n $*"
}

# read_uptime: whole seconds since boot, in $uptime (read, not a forked
# date: a check costs no extra process).
read_uptime() {
	read -r uptime _ < /proc/uptime
	uptime=${uptime%.*}
}

# check NAME CMD...: ok when CMD succeeds.  A check that took 5 s or more
# says so ("# took N s"): the suite has a time budget (tests/vm/run).
check() {
	name=$1
	shift
	read_uptime
	check_t0=$uptime
	if "$@"; then ok "$name"; else not_ok "$name"; fi
	read_uptime
	[ $((uptime - check_t0)) -lt 5 ] || echo "# took $((uptime - check_t0)) s"
}

# checks_by N CMD...: CMD makes N checks at once and prints a line for
# each, "ok NAME" or "not ok NAME: why"; each becomes a TAP line, and a
# check it did not get to (it failed before) is not ok.  For Python
# (verdicts.py prints the lines), one start for several checks: a start
# costs seconds under TCG.
checks_by() {
	_cb_want=$1
	shift
	_cb_seen=0
	_cb_out=$(PYTHONPATH=$tap_dir "$@" 2>&1)
	while IFS= read -r _cb_line; do
		case $_cb_line in
		"ok "*) ok "${_cb_line#ok }" ;;
		"not ok "*) not_ok "${_cb_line#not ok }" ;;
		*) echo "# $_cb_line"; continue ;;
		esac
		_cb_seen=$((_cb_seen + 1))
	done <<EOF
$_cb_out
EOF
	while [ "$_cb_seen" -lt "$_cb_want" ]; do
		_cb_seen=$((_cb_seen + 1))
		not_ok "check $_cb_seen of $_cb_want of $1: not made"
	done
}

# tap_tmpdir: $tap_tmp, a folder for the helpers' files, made on first
# use and removed by tap_done: one mktemp for every check that needs it.
tap_tmpdir() {
	[ -n "${tap_tmp:-}" ] || tap_tmp=$(mktemp -d)
}

tap_done() {
	[ -z "${tap_tmp:-}" ] || rm -rf "$tap_tmp"
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# await CMD...: until CMD succeeds, every 0.05 s; 1 if a minute passes
# first.
await() {
	for _ in $(seq 1200); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}

# exists NAME...: one of the NAMEs is there (a glob that matched nothing
# stays itself, and is not).
exists() {
	for e in "$@"; do
		if [ -e "$e" ] || [ -L "$e" ]; then return 0; fi
	done
	return 1
}

# interrupt_when SIG WHEN SECONDS OUT CMD...: CMD in the background, its
# stdout in OUT and stderr in OUT.err, sent SIG SECONDS after the shell
# command WHEN (evaluated each time, so that its globs expand then) first
# succeeds; prints its exit code.  A script's background job starts with
# SIGINT ignored, which wsc keeps: CMD gets the default, as a terminal's
# foreground job has.
interrupt_when() {
	sig=$1 when=$2 secs=$3 o=$4
	shift 4
	env --default-signal=INT "$@" > "$o" 2> "$o.err" &
	pid=$!
	await eval "$when"
	sleep "$secs"
	kill -"$sig" $pid
	wait $pid
	echo $?
}

# interrupt SIG SECONDS OUT CMD...: the same, SECONDS after the start.
interrupt() {
	sig=$1 secs=$2 o=$3
	shift 3
	interrupt_when "$sig" true "$secs" "$o" "$@"
}

# wait_asleep_in_ioctl PID: wait (10 s at most) until PID sleeps inside an
# ioctl, as a wsc batch blocked in one of its calls does: /proc/PID/syscall
# shows the ioctl (16), not the wrapped call, and the task sleeps.
wait_asleep_in_ioctl() {
	for _ in $(seq 200); do
		[ "$(cut -d' ' -f1 "/proc/$1/syscall" 2>/dev/null)" = 16 ] &&
			grep -q '^State:.*S' "/proc/$1/status" && return 0
		sleep 0.05
	done
	return 1
}
