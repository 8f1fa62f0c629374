#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The first open of /dev/wsc loads the module, as it does for an
# installed package: the module carries a fixed misc minor and the
# aliases depmod turns into modules.devname (kmod/device.c), from which
# kmod static-nodes (systemd's kmod-static-nodes.service, then udev)
# creates /dev/wsc at boot, before anything has loaded wsc.
# Runs in the VM as root, wsc.ko not loaded; the module is installed in a
# folder of its own, bound over the kernel's /lib/modules/RELEASE while
# the test runs.
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

# depmod in a scratch module folder that holds wsc alone: what a
# package's install writes.
rel=$(uname -r)
scratch=$(mktemp -d)
mods=$scratch/lib/modules/$rel
mkdir -p "$mods/updates"
cp "$ko" "$mods/updates/wsc.ko"
depmod -b "$scratch" "$rel" 2>/dev/null
devname=$(grep -v '^#' "$mods/modules.devname" 2>/dev/null)
check "depmod writes 'wsc wsc c10:$minor' to modules.devname (got: ${devname:-nothing})" \
	test "$devname" = "wsc wsc c10:$minor"

# That folder in the place of the kernel's own for the rest of the test,
# as dkms or a package would leave it, and /dev/wsc created as kmod
# static-nodes does at boot.  (depmod -a of the kernel's own folder takes
# a minute under TCG; modprobe and kmod static-nodes read the same maps
# either way.)  Unmounted at the end, which leaves the folder as it was.
if mount --bind "$mods" "/lib/modules/$rel" 2>/dev/null; then
	# kmod writes to a file of its own: with no -o it opens /dev/stdout
	# anew, which is not a command substitution's pipe in every guest.
	kmod static-nodes --format=tmpfiles -o "$scratch/nodes" 2>/dev/null
	nodes=$(grep ' /dev/wsc ' "$scratch/nodes" 2>/dev/null)
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
	rm -f /dev/wsc
	# Later tests must not find wsc in modules.dep (wsc's module hint
	# would say modprobe, and modprobe would fail).
	umount "/lib/modules/$rel"
	check "the kernel's module folder is its own again (no wsc in modules.dep)" \
		sh -c "! grep -q 'wsc.ko' /lib/modules/$rel/modules.dep"
else
	for t in "kmod static-nodes lists /dev/wsc" "wsc is still not loaded once /dev/wsc exists" \
		"the first open of /dev/wsc succeeds" "... and it loaded wsc" \
		"/dev/wsc is the module's device" \
		"the kernel's module folder is its own again"; do
		ok "$t # SKIP cannot bind a folder on /lib/modules/$rel in this guest"
	done
fi

rm -rf "$scratch"
tap_done
