#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A short run of the fuzzer (tests/fuzz, Documentation/testing.md
# "Fuzzing"): a few thousand batches and netlink messages, once with a
# fixed seed and once with a fresh one, each seed printed so that a
# failure can be replayed with `make fuzz SEED=...`.  Uses the scratch
# disk when vm-run gave one.
#
# The diff mode includes batches that use a pipe or socket after a close
# or dup2/dup3 of the same batch: the module runs the task works a call
# left before the next entry (Documentation/abi.md, "Releases inside a
# batch"), so those must match the conventional calls too.
. "$(dirname "$0")/tap.sh"
fuzz=${WSC_FUZZ:-build/tests/fuzz/wsc-fuzz}
scratch=${WSC_SCRATCH:-/tmp}
fixed=${WSC_FUZZ_SEED:-20261124}
fresh=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')

echo "TAP version 13"

# run NAME SEED ARGS...: one fuzzer run, its output as TAP comments.
run() {
	name=$1
	seed=$2
	shift 2
	out=$("$fuzz" --seed "$seed" --scratch "$scratch" "$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed 's/^/# /'
	check "$name (seed $seed)" test "$rc" -eq 0
}

for seed in "$fixed" "$fresh"; do
	run "ioctl: 3000 batches valid and malformed" "$seed" --mode ioctl --iters 3000
	run "diff: 100 batches wrapped and conventional" "$seed" --mode diff --iters 100
	run "genl: 1000 netlink messages" "$seed" --mode genl --iters 1000
	run "races: 5 rounds of 200 ms" "$seed" --mode races --iters 250
done
tap_done
