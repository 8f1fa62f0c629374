#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2016  # sh -c '... "$1" ...': the inner shell's $1
# After rmmod wsc: kmemleak's verdict, and lockdep's state,, on a kernel that has it (the debug
# kernel of make check-debug; Debian's kernels have no kmemleak:
# tests/vm/run runs this only where /sys/module/kmemleak is).  Every object wsc allocated and never
# freed is unreferenced once the module is gone, so a scan now finds all
# of them.  With kmemleak's "verbose" on, each suspected leak is also
# printed to the kernel log, where the harness's scan fails the run on
# those that name wsc (tools/lib/kmsg.sh); the same rule is counted here,
# from /sys/kernel/debug/kmemleak, as TAP.
. "$(dirname "$0")/tap.sh"

echo "TAP version 13"
kmemleak=/sys/kernel/debug/kmemleak
mountpoint -q /sys/kernel/debug 2>/dev/null || mount -t debugfs none /sys/kernel/debug 2>/dev/null
if [ ! -e "$kmemleak" ]; then
	ok "kmemleak: no leaks that name wsc # SKIP this kernel has no kmemleak"
	tap_done
	exit 0
fi

check "wsc is unloaded before the scan" sh -c '! grep -q "^wsc " /proc/modules'
[ -w /sys/module/kmemleak/parameters/verbose ] &&
	echo 1 > /sys/module/kmemleak/parameters/verbose
# An object is reported once it is 5 s old and two scans in a row saw it
# unreferenced; the pause lets the last tests' frees settle.
# A kmemleak that turned itself off (its early pool ran out, say) refuses
# the scan; it would find nothing, and that must not pass for no leaks.
sleep 6
check "kmemleak is on: a scan runs" sh -c 'echo scan > "$1"' - "$kmemleak"
sleep 2
echo scan > "$kmemleak"

out=$(mktemp)
cat "$kmemleak" > "$out"
# Records: "unreferenced object ..." and its indented lines.  One names
# wsc if a frame is in a module named wsc* or is a bare address in the
# modules' area (what %pS prints for code since unloaded).
counts=$(awk '
	function flush() { if (inrec) { total++; if (named) wsc++ } inrec = 0; named = 0 }
	/^unreferenced object/ { flush(); inrec = 1; next }
	/\[wsc[A-Za-z0-9_]*\]/ { named = 1 }
	/^ +0xffffffff[c-f][0-9a-f]+[ \t]*$/ { named = 1 }
	END { flush(); printf "%d %d\n", total, wsc }
' "$out")
total=${counts% *}
wsc=${counts#* }
echo "# kmemleak: $total suspected leaks after rmmod wsc, $wsc naming wsc"
check "kmemleak: no leaks that name wsc ($total suspected in all)" test "$wsc" -eq 0
if [ "$wsc" -ne 0 ]; then
	sed 's/^/# /' "$out" | head -n 80
fi
rm -f "$out"

# lockdep turns itself off at its first report (and at KASAN's): still on
# after the whole suite, it saw nothing to report.
if [ -r /proc/lockdep_stats ]; then
	grep -E '^ *(lock-classes|direct dependencies|dependency chains|debug_locks):' /proc/lockdep_stats |
		sed 's/^ */# lockdep: /; s/  */ /g'
	check "lockdep is still on after the suite (debug_locks 1)" \
		grep -qE '^ *debug_locks: +1$' /proc/lockdep_stats
fi
tap_done
