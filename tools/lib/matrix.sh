# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# The kernel matrix: which kernels wsc is tested on and where each one
# lives.  Sourced (bash) by tools/kernel-release, tools/kernel-matrix,
# tools/install-deps, tools/build-module and tools/vm-run, so that they
# all agree on one rule per kernel and on one place for the Debian 13 root.

# The Debian 13 (trixie) root that holds the 7.x kernel, its headers, the
# compiler its kbuild needs (gcc-14, glibc >= 2.38: newer than Debian 12's)
# and what the VM suite runs inside it.  Outside the tree: about 1.2 GB,
# shared by every checkout, kept across `make clean`.
WSC_ROOT=${WSC_DEBIAN13_ROOT:-/var/cache/wsc/debian13-root}

# The labels in the order the matrix is run; 6.1 is the default kernel.
# shellcheck disable=SC2034  # used by the scripts that source this
MATRIX_LABELS=(6.1 6.12 6.12-rt 7.x)

# matrix_regex LABEL: the extended regexp a release of LABEL matches.
# Anchored and flavour-exact: 6.1's rule must not take an -rt or -cloud
# kernel, 6.12's not the -rt one.
matrix_regex() {
	case $1 in
	6.1) printf '%s\n' '^6\.1\.[0-9]+-[0-9]+-amd64$' ;;
	6.12) printf '%s\n' '^6\.12\.[0-9]+\+deb12-amd64$' ;;
	6.12-rt) printf '%s\n' '^6\.12\.[0-9]+\+deb12-rt-amd64$' ;;
	7.x) printf '%s\n' '^7\.[0-9]+(\.[0-9]+)?\+deb13-amd64$' ;;
	*) return 1 ;;
	esac
}

# matrix_in_root LABEL: true for the labels whose kernel lives in the root.
matrix_in_root() { [[ $1 == 7.x ]]; }

# host_kernel_ok RELEASE: the host has RELEASE's image in /boot and its
# headers, so the module can be built for it and it can boot.
host_kernel_ok() {
	[[ -e /boot/vmlinuz-$1 ]] &&
		[[ -d /usr/src/linux-headers-$1 || -d /lib/modules/$1/build ]]
}

# root_image RELEASE: the root's image of RELEASE.  Debian 13's kernel
# packages put it next to the modules; older ones in /boot.
root_image() {
	local img
	for img in "$WSC_ROOT/usr/lib/modules/$1/vmlinuz" "$WSC_ROOT/boot/vmlinuz-$1"; do
		[[ -e $img ]] && { printf '%s\n' "$img"; return 0; }
	done
	return 1
}

# root_kernel_ok RELEASE: the root has RELEASE's image and its headers.
root_kernel_ok() {
	root_image "$1" >/dev/null && [[ -d $WSC_ROOT/usr/src/linux-headers-$1 ]]
}

# matrix_release LABEL: the newest installed release of LABEL that has both
# an image and headers; nothing (status 1) when there is none.
matrix_release() {
	local label=$1 re rel dir
	re=$(matrix_regex "$label") || return 1
	if matrix_in_root "$label"; then
		dir=$WSC_ROOT/usr/src
	else
		dir=/usr/src
	fi
	rel=$(
		for d in "$dir"/linux-headers-*; do
			[[ -d $d ]] || continue
			r=${d##*/linux-headers-}
			[[ $r =~ $re ]] || continue
			if matrix_in_root "$label"; then
				root_kernel_ok "$r" || continue
			else
				host_kernel_ok "$r" || continue
			fi
			printf '%s\n' "$r"
		done | sort -V | tail -n 1
	)
	[[ -n $rel ]] || return 1
	printf '%s\n' "$rel"
}

# kernel_location RELEASE: where RELEASE is, as "IMAGE ROOT" (ROOT is "-"
# for a host kernel in /boot).  A host kernel wins over the root's copy of
# the same release.  Status 1 when it is nowhere.
kernel_location() {
	local img
	if [[ -e /boot/vmlinuz-$1 ]]; then
		printf '%s %s\n' "/boot/vmlinuz-$1" -
	elif img=$(root_image "$1"); then
		printf '%s %s\n' "$img" "$WSC_ROOT"
	else
		return 1
	fi
}

# in_root DIR [--bind PATH]... -- CMD [ARG...]: run CMD as root chrooted
# into DIR, with /proc, /sys and /dev (kbuild's objtool reads the stack
# limit, apt and dpkg want them too), the host's resolv.conf (apt fetches
# from the host's mirror), and each PATH bind-mounted at its own path.  All
# of it in a private mount namespace (unshare -m): whatever CMD does and
# however it ends, no mount outlives it on the host.  CMD starts with a
# clean environment: the host's PATH names places the root does not have.
in_root() {
	local dir=$1 binds=() b
	shift
	while [[ ${1:-} == --bind ]]; do
		binds+=("$(readlink -f "$2")")
		shift 2
	done
	[[ ${1:-} == -- ]] && shift
	# Mount points: empty directories, left in the root for the next time.
	for b in "${binds[@]}"; do
		mkdir -p "$dir$b"
	done
	[[ -e $dir/etc/resolv.conf || -L $dir/etc/resolv.conf ]] || : >"$dir/etc/resolv.conf"
	# shellcheck disable=SC2016  # for the inner shell
	unshare --mount --propagation private -- bash -euc '
		dir=$1 n=$2
		shift 2
		mount -t proc proc "$dir/proc"
		mount --rbind /sys "$dir/sys"
		mount --rbind /dev "$dir/dev"
		if [[ -r /etc/resolv.conf && -f $dir/etc/resolv.conf ]]; then
			mount --bind /etc/resolv.conf "$dir/etc/resolv.conf"
		fi
		for ((i = 0; i < n; i++)); do
			mount --bind "$1" "$dir$1"
			shift
		done
		exec chroot "$dir" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
	' in_root "$dir" "${#binds[@]}" "${binds[@]}" "$@"
}
