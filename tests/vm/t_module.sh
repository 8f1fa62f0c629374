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
	{ [ -c /dev/wsc ] && [ -r /proc/syscall_lat ]; } || break
	cat /proc/syscall_lat >/dev/null || break
	rmmod wsc || break
	{ [ ! -e /dev/wsc ] && [ ! -e /proc/syscall_lat ]; } || break
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
	want=$(echo "$caches" | tr ' ' '\n' | sort | tr '\n' ' ')
	got=$(wsc_caches)
	check "the four buffer caches are in /proc/slabinfo once loaded (got: $got)" test "$got" = "$want"
	# Each object is charged whole (SLAB_ACCOUNT): the objects of a
	# slab, with what SLUB keeps beside each, must fill it, or a slab
	# pins memory nobody is charged for (a 16 KiB object alone in a
	# 32 KiB slab was).  SLUB's sysfs says how they fit.
	# A kernel that debugs its slabs (red zones, KASAN: the debug
	# kernel) adds more than the free pointer to each object; there the
	# fit is not the production one, and is not checked.
	fits="" extra=0
	for c in $caches; do
		d=/sys/kernel/slab/$c
		[ -r "$d/slab_size" ] || { fits="$fits $c:no-sysfs"; continue; }
		e=$(($(cat "$d/slab_size") - $(cat "$d/object_size")))
		[ "$e" -gt 8 ] && extra=$e
		used=$(($(cat "$d/objs_per_slab") * $(cat "$d/slab_size")))
		slab=$((4096 << $(cat "$d/order")))
		fits="$fits $c:$((100 * used / slab))%"
	done
	if [ "$extra" -gt 8 ]; then
		ok "each buffer cache fills its slabs # SKIP this kernel's slab debugging adds $extra bytes to each object"
	else
		check "each buffer cache fills its slabs to 95% or more:$fits" \
			sh -c "! echo '$fits' | grep -qE ':(no-sysfs|[0-8]?[0-9]%|9[0-4]%)'"
	fi
	rmmod wsc
	got=$(wsc_caches)
	check "no buffer cache left after rmmod (got: ${got:-none})" test -z "$got"
else
	ok "buffer caches # SKIP this kernel has no /proc/slabinfo"
	ok "each buffer cache fills its slabs # SKIP this kernel has no /proc/slabinfo"
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
