# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests: TAP output, one numbered line per check.
tap_n=0
tap_failed=0

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n $*"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n $*"
}

# check NAME CMD...: ok when CMD succeeds.
check() {
	name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

tap_done() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}
