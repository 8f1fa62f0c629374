# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# What tests/check and tests/check-kernels share: counting TAP and running
# the VM suite on one kernel.  Sourced (POSIX sh) from the top of the tree.

# tap_count FILE...: print "passed failed skipped" for the TAP lines in
# the FILEs.
tap_count() {
	awk '
		/^ok .*# [Ss][Kk][Ii][Pp]/ { s++; next }
		/^ok /                      { p++; next }
		/^not ok /                  { f++ }
		END { printf "%d %d %d\n", p, f, s }
	' "$@"
}

# tap_line P F S: the summary line every check ends with.
tap_line() {
	echo "$1 passed, $2 failed, $3 skipped"
}

# vm_suite LOGS BUILD RELEASE KO [NAME=VALUE...]: boot RELEASE (empty: the
# default kernel, tools/kernel-release) and run tests/vm/run there with the
# module KO and the test programs of BUILD/tests/vm; each NAME=VALUE is set
# in the guest.  The guest's TAP goes to LOGS/vm.tap, its kernel log to
# LOGS/vm-dmesg.txt, and two verdicts of the harness's own are appended to
# LOGS/vm.tap as TAP lines, so that tap_count counts them:
#   - the guest kernel log is clean (tools/vm-run's exit status 3 says it
#     is not, and vm_log_verdict names the tests during which it went
#     wrong; any status but 0, 1 and 3 says the run itself broke);
#   - every program ran all of its plan: the "1..N" lines add up to no
#     more than the ok/not ok lines seen (a guest that died half way, or a
#     program that crashed, leaves fewer).
# $WSC_VM_TIMEOUT bounds the run (seconds, default 2400).
# Returns tools/vm-run's exit status.
vm_suite() {
	vs_logs=$1 vs_build=$2 vs_rel=$3 vs_ko=$4
	shift 4
	# Each NAME=VALUE becomes an --env (moved from the front to the end).
	vs_n=$#
	while [ "$vs_n" -gt 0 ]; do
		set -- "$@" --env "$1"
		shift
		vs_n=$((vs_n - 1))
	done
	[ -z "$vs_rel" ] || set -- --kernel "$vs_rel" "$@"
	mkdir -p "$vs_logs"
	tools/vm-run --scratch 1G --timeout "${WSC_VM_TIMEOUT:-2400}" \
		--dmesg "$vs_logs/vm-dmesg.txt" --env "WSC_KO=$vs_ko" "$@" -- \
		tests/vm/run "$vs_build/tests/vm" \
		> "$vs_logs/vm.tap" 2>&1
	vs_rc=$?

	# Before the lines below are added: what the programs planned
	# against what they reported.
	# shellcheck disable=SC2046  # split on purpose: a triple of numbers
	set -- $(tap_count "$vs_logs/vm.tap")
	vs_reported=$(($1 + $2 + $3))
	vs_planned=$(awk -F'[.][.]' '/^1[.][.][0-9]+$/ { n += $2 } END { print n + 0 }' "$vs_logs/vm.tap")

	vm_log_verdict "$vs_rc" "$vs_logs" >> "$vs_logs/vm.tap"
	if [ "$vs_planned" -eq 0 ] || [ "$vs_reported" -lt "$vs_planned" ]; then
		echo "not ok - vm: $vs_planned tests planned, $vs_reported reported" >> "$vs_logs/vm.tap"
	fi
	return "$vs_rc"
}

# vm_log_verdict RC LOGS: the TAP line of the verdict on the guest's
# kernel log, from tools/vm-run's exit status RC and the log it saved in
# LOGS/vm-dmesg.txt.  A log with problems names the test program that was
# running when each was printed (tools/kmsg-scan reads the markers
# tests/vm/run writes), e.g.
#   not ok - the guest kernel log is clean: WARNING during t_calls_file (see LOGS/vm-dmesg.txt)
vm_log_verdict() {
	case $1 in
	0|1) echo "ok - the guest kernel log is clean" ;;
	3)
		# Empty if vm-run failed the run for a guest that died
		# without printing such a line.
		vl_what=$(tools/kmsg-scan --summary "$2/vm-dmesg.txt" 2>/dev/null)
		echo "not ok - the guest kernel log is clean${vl_what:+: $vl_what} (see $2/vm-dmesg.txt)"
		;;
	*) echo "not ok - the VM run ended with status $1 (see $2/vm.tap)" ;;
	esac
}

# vm_failures FILE: each failed test of a TAP file with the diagnostics
# printed just before it (up to 8 lines since the test before), so that a
# CI log says why, not only what: a fuzzer's ANOMALY line, a Python
# assertion, a grep that missed.
vm_failures() {
	awk '/^(ok|not ok) / { if (/^not ok /) { for (i = 0; i < n; i++) print ctx[i]; print } n = 0; next }
	     /^# / && !/^# (vm|time:|took )/ { if (n == 8) { for (i = 1; i < 8; i++) ctx[i - 1] = ctx[i]; n = 7 } ctx[n++] = $0 }' "$1"
}

# vm_report FILE: the lines of a VM suite's TAP worth showing: failures,
# which program they came from, the guest's own description, and the
# diagnostics the tests printed (the first 40).
vm_report() {
	grep -E '^(not ok|# ---|# vm)' "$1"
	grep -E '^# [^-]' "$1" | grep -Ev '^# (vm|time:|took )' | head -40
	vm_times "$1"
}

# vm_times FILE: one line, the suite's time in the guest and its five
# slowest steps (tests/vm/run's "# time: NAME N s" lines), e.g.
#   # vm time: 612 s; slowest: t_trace.sh 120 s, t_cli.sh 96 s, ...
vm_times() {
	awk '
		/^# time: / { n++; name[n] = $3; t[n] = $4; total += $4 }
		END {
			if (!n) exit
			line = sprintf("# vm time: %d s; slowest:", total)
			for (k = 0; k < 5 && k < n; k++) {
				best = 0
				for (i = 1; i <= n; i++)
					if (!(i in used) && (!best || t[i] > t[best]))
						best = i
				used[best] = 1
				line = line sprintf("%s %s %d s", k ? "," : "", name[best], t[best])
			}
			print line
		}
	' "$1"
}
