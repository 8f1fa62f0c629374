#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The first open of /dev/wsc loads the module, as it does for an
# installed package: the module carries a fixed misc minor and the
# aliases depmod turns into modules.devname (kmod/device.c), from which
# kmod static-nodes (systemd's kmod-static-nodes.service, then udev)
# creates /dev/wsc at boot, before anything has loaded wsc.
# Runs in the VM as root, wsc.ko not loaded; the guest's /lib/modules is
# a throwaway overlay, so installing the module there is undone at exit.
. "$(dirname "$0")/tap.sh"
ko=${WSC_KO:-kmod/wsc.ko}
minor=247

echo "TAP version 13"
check "module is not loaded at start" sh -c '! grep -q "^wsc " /proc/modules'

aliases=$(modinfo -F alias "$ko" | tr '\n' ' ')
check "modinfo shows the devname alias (aliases: $aliases)" \
	sh -c "modinfo -F alias '$ko' | grep -qx 'devname:wsc'"
check "modinfo shows the misc minor's alias char-major-10-$minor" \
	sh -c "modinfo -F alias '$ko' | grep -qx 'char-major-10-$minor'"

# depmod in a scratch module folder: what a package's install writes.
rel=$(uname -r)
scratch=$(mktemp -d)
mkdir -p "$scratch/lib/modules/$rel/extra"
cp "$ko" "$scratch/lib/modules/$rel/extra/wsc.ko"
depmod -b "$scratch" "$rel" 2>/dev/null
devname=$(grep -v '^#' "$scratch/lib/modules/$rel/modules.devname" 2>/dev/null)
check "depmod writes 'wsc wsc c10:$minor' to modules.devname (got: ${devname:-nothing})" \
	test "$devname" = "wsc wsc c10:$minor"
rm -rf "$scratch"

# The module installed where modprobe finds it, as dkms or a package
# would, and /dev/wsc created as kmod static-nodes does at boot.
# depmod -a takes minutes under TCG: the maps it rewrites are put back
# from a copy afterwards instead of made again.
mod_dir=/lib/modules/$rel/updates
maps=$(mktemp -d)
if cp -a /lib/modules/"$rel"/modules.* "$maps"/ 2>/dev/null &&
	mkdir -p "$mod_dir" 2>/dev/null && cp "$ko" "$mod_dir/wsc.ko" 2>/dev/null &&
	depmod -a "$rel" 2>/dev/null; then
	# kmod writes to a file of its own: with no -o it opens /dev/stdout
	# anew, which is not a command substitution's pipe in every guest.
	kmod static-nodes --format=tmpfiles -o "$scratch.nodes" 2>/dev/null
	nodes=$(grep ' /dev/wsc ' "$scratch.nodes" 2>/dev/null)
	rm -f "$scratch.nodes"
	check "kmod static-nodes lists /dev/wsc (got: ${nodes:-nothing})" \
		sh -c "echo '$nodes' | grep -q '^c! /dev/wsc [0-7]* .* 10:$minor\$'"
	# The node as systemd-tmpfiles makes it from that line (its mode:
	# 0600 until a udev rule's static_node= widens it).
	mode=$(echo "$nodes" | awk '{ print $3 }')
	rm -f /dev/wsc
	mknod -m "${mode:-0600}" /dev/wsc c 10 "$minor"
	check "wsc is still not loaded once /dev/wsc exists" \
		sh -c '! grep -q "^wsc " /proc/modules'
	check "the first open of /dev/wsc succeeds" sh -c 'exec 3</dev/wsc'
	check "... and it loaded wsc" grep -q "^wsc " /proc/modules
	check "/dev/wsc is the module's device: WSC_IOC_VERSION answers" \
		sh -c "build/wsc info >/dev/null"
	rmmod wsc
	rm -f /dev/wsc "$mod_dir/wsc.ko"
	# Later tests must not find wsc in modules.dep (wsc's module hint
	# would say modprobe, and modprobe would fail).
	rm -f /lib/modules/"$rel"/modules.*
	cp -a "$maps"/modules.* /lib/modules/"$rel"/
	check "the module folder's maps are as before (no wsc in modules.dep)" \
		sh -c "! grep -q 'wsc.ko' /lib/modules/$rel/modules.dep"
else
	for t in "kmod static-nodes lists /dev/wsc" "the first open of /dev/wsc succeeds" \
		"... and it loaded wsc" "/dev/wsc is the module's device" \
		"the module folder's maps are as before"; do
		ok "$t # SKIP /lib/modules/$rel is not writable in this guest"
	done
fi

rm -rf "$maps"
tap_done
