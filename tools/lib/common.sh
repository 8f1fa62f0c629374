# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# common.sh: how the tree's scripts speak and stop, sourced (not run) by
# every script of tools/ and tests/ that reports in its own name:
#
#   . "$(dirname "$(readlink -f "$0")")/lib/common.sh"
#
# (readlink -f: the folder of the script itself, not of a symbolic link
# to it).  POSIX sh, so that a /bin/sh script may source it too.
#
#   PROG                  the script's name (its file's)
#   say MESSAGE...        "PROG: MESSAGE" on standard error
#   die STATUS MESSAGE... say MESSAGE, then exit with STATUS (each script
#                         documents its statuses: 1 a failure, 2 bad
#                         usage, by convention)
#   usage_error MESSAGE... say MESSAGE and how to get help, exit 2

PROG=${0##*/}

say() {
	printf '%s: %s\n' "$PROG" "$*" >&2
}

die() {
	# A global, not local (POSIX has none): prefixed, as no caller's.
	_common_status=$1
	shift
	say "$*"
	exit "$_common_status"
}

usage_error() {
	say "$*"
	printf "Try '%s --help'.\n" "$PROG" >&2
	exit 2
}
