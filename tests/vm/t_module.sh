#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The module loads and unloads cleanly, again and again, and refuses to
# unload while /dev/wsc is open.  Runs in the VM as root, wsc.ko not loaded.
. "$(dirname "$0")/tap.sh"
ko=${WSC_KO:-kmod/wsc.ko}

echo "TAP version 13"
check "module is not loaded at start" sh -c '! grep -q "^wsc " /proc/modules'

cycles=0
for i in $(seq 20); do
	insmod "$ko" || break
	[ -c /dev/wsc ] && [ -r /proc/syscall_lat ] || break
	cat /proc/syscall_lat >/dev/null || break
	rmmod wsc || break
	[ ! -e /dev/wsc ] && [ ! -e /proc/syscall_lat ] || break
	cycles=$i
done
check "load and unload 20 times (got $cycles)" test "$cycles" -eq 20

insmod "$ko"
exec 3<>/dev/wsc
check "rmmod refused while /dev/wsc is open" sh -c '! rmmod wsc 2>/dev/null'
check "device still works after the refused rmmod" test -c /dev/wsc
exec 3>&-
check "rmmod succeeds once closed" rmmod wsc
check "/dev/wsc gone after rmmod" test ! -e /dev/wsc

tap_done
