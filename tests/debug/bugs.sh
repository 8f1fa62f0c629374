#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run in the debug kernel's VM by tests/check-debug: load wsc_bugs.ko ($1)
# and commit each of its bugs after a "wsc-test: bug_NAME" marker, so that
# the host's scan of the kernel log (tools/lib/kmsg.sh) can be asked
# whether it blamed the right report on each.  The order is the one
# wsc_bugs.c explains: lockdep's reports first, KASAN's last.
set -u
ko=$1

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
insmod "$ko" || exit 1
trigger=/sys/kernel/debug/wsc_bugs/trigger
kmemleak=/sys/kernel/debug/kmemleak

for bug in rcu abba sleep ubsan leak kasan; do
	echo "wsc-test: bug_$bug" > /dev/kmsg
	echo "$bug" > "$trigger" || echo "bugs.sh: writing $bug to $trigger failed" >&2
	if [ "$bug" = leak ]; then
		# kmemleak reports an object only once it is 5 s old, and
		# only after two scans have seen it unreferenced; its
		# reports reach the log with "verbose" on.
		echo 1 > /sys/module/kmemleak/parameters/verbose
		sleep 6
		echo scan > "$kmemleak"
		sleep 2
		echo scan > "$kmemleak"
	fi
done
echo "wsc-test: bugs_done" > /dev/kmsg
rmmod wsc_bugs
