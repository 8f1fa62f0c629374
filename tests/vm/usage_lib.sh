# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests after tap.sh: the one voice of a usage error
# (wsc(8), USAGE ERRORS; user/cli/common/args.h).
#
# usage_err NAME MESSAGE CMD...: CMD exits 2, writes nothing on stdout,
# and on stderr exactly two lines: MESSAGE ("wsc SUB: what is wrong") and
# "Try 'wsc SUB --help'." -- no help text after them.
usage_err() {
	_ue_name=$1
	_ue_want=$2
	shift 2
	tap_tmpdir	# sets tap_tmp (tap.sh)
	# shellcheck disable=SC2154  # tap_tmp: tap.sh's, set just above
	"$@" > "$tap_tmp/ue.out" 2> "$tap_tmp/ue.err"
	_ue_rc=$?
	# "wsc bench fit: --iters: ..." -> "wsc bench fit"; "wsc: ..." -> "wsc"
	_ue_try="Try '${_ue_want%%: *} --help'."
	# The lines read by the shell itself: no process, as each costs a
	# fraction of a second under TCG and the scripts check dozens.
	_ue_1='' _ue_2='' _ue_3=''
	if { IFS= read -r _ue_1 && IFS= read -r _ue_2 &&
	     ! IFS= read -r _ue_3 && [ -z "$_ue_3" ]; } < "$tap_tmp/ue.err" &&
	   [ $_ue_rc -eq 2 ] && [ ! -s "$tap_tmp/ue.out" ] &&
	   [ "$_ue_1" = "$_ue_want" ] && [ "$_ue_2" = "$_ue_try" ]; then
		ok "usage error: $_ue_name"
	else
		not_ok "usage error: $_ue_name (exit $_ue_rc: $_ue_1|$_ue_2|$_ue_3)"
	fi
}
