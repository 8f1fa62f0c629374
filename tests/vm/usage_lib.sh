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
	_ue_dir=$(mktemp -d)
	"$@" > "$_ue_dir/out" 2> "$_ue_dir/err"
	_ue_rc=$?
	# "wsc bench fit: --iters: ..." -> "wsc bench fit"; "wsc: ..." -> "wsc"
	_ue_sub=$(printf '%s\n' "$_ue_want" | sed -n 's/^\(wsc\( [a-z ]*[a-z]\)\{0,1\}\): .*/\1/p')
	printf '%s\n%s\n' "$_ue_want" "Try '$_ue_sub --help'." > "$_ue_dir/want"
	if [ $_ue_rc -eq 2 ] && [ ! -s "$_ue_dir/out" ] &&
	   cmp -s "$_ue_dir/err" "$_ue_dir/want"; then
		ok "usage error: $_ue_name"
	else
		not_ok "usage error: $_ue_name (exit $_ue_rc: $(head -3 "$_ue_dir/err" | tr '\n' '|'))"
	fi
	rm -rf "$_ue_dir"
}
