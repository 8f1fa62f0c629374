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

# The submission buffers' slab caches (kmod/submit.c; the largest
# buffer is vmalloc()ed, not cached) come with the
# module and go with it: a cache left behind would be a leak per load.
caches="wsc_buf_4k wsc_buf_16k wsc_buf_32k wsc_buf_64k"
wsc_caches() { awk '/^wsc_buf_/ { print $1 }' /proc/slabinfo | sort | tr '\n' ' '; }
if [ -r /proc/slabinfo ]; then
	insmod "$ko"
	want=$(echo $caches | tr ' ' '\n' | sort | tr '\n' ' ')
	got=$(wsc_caches)
	check "the four buffer caches are in /proc/slabinfo once loaded (got: $got)" test "$got" = "$want"
	rmmod wsc
	got=$(wsc_caches)
	check "no buffer cache left after rmmod (got: ${got:-none})" test -z "$got"
else
	ok "buffer caches # SKIP this kernel has no /proc/slabinfo"
	ok "no buffer cache left after rmmod # SKIP this kernel has no /proc/slabinfo"
fi

insmod "$ko"
exec 3<>/dev/wsc
check "rmmod refused while /dev/wsc is open" sh -c '! rmmod wsc 2>/dev/null'
check "device still works after the refused rmmod" test -c /dev/wsc
exec 3>&-
check "rmmod succeeds once closed" rmmod wsc
check "/dev/wsc gone after rmmod" test ! -e /dev/wsc

tap_done
