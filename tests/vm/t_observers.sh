#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A wrapped call hides from nobody: audit (system-call rules and file
# watches) and strace see the same records and lines for a workload whose
# calls go through libwsc batches (wrapped) as for the same batches run
# plain (tests/vm/wl_txn).  The module refuses an observed caller and
# libwsc runs its calls as plain system calls, so each one meets the
# observer; wl_txn reports how its batches ran, which says so.
. tests/vm/tap.sh
wl=$(pwd)/build/tests/vm/wl_txn
work=$(mktemp -d)
N=5
echo "TAP version 13"

# count FILE PATTERN: lines of FILE that match PATTERN (0 for none).
count() { grep -c -- "$2" "$1" 2>/dev/null || true; }

# strace -f, as a user reaches for it: the calls of the wrapped run are
# listed as the plain run's are, and the wrapped run was refused for it.
mkdir -p "$work/sw" "$work/sp"
strace -f -qq -e trace=openat,write,close,unlinkat -o "$work/strace.w" \
	"$wl" wrapped "$work/sw" $N > "$work/out.w" 2>&1
rc=$?
strace -f -qq -e trace=openat,write,close,unlinkat -o "$work/strace.p" \
	"$wl" plain "$work/sp" $N > "$work/out.p" 2>&1
check "strace -f: wl_txn wrapped and plain ran (exit $rc)" test "$rc" -eq 0 -a $? -eq 0
for call in "openat(AT_FDCWD, \"$work/s.*/f[0-9]*\", O_WRONLY|O_CREAT|O_TRUNC, 0600) *= [0-9]" \
	"unlinkat(AT_FDCWD, \"$work/s.*/f[0-9]*\", 0) *= 0" "write([0-9]*, \"wsc\", 3) *= 3"; do
	w=$(count "$work/strace.w" "$call")
	p=$(count "$work/strace.p" "$call")
	check "strace -f sees each wrapped ${call%%(*}: $w wrapped, $p plain, of $N" \
		test "$w" -eq $N -a "$p" -eq $N
done
check "under strace the module refused the batches (ptrace) and libwsc ran them plain: $(cat "$work/out.w")" \
	grep -qx "native 0 plain $((4 * N)) refused 8" "$work/out.w"

# strace -p, attached to a process blocked inside a batch: the attach
# interrupts the blocked read, the resubmission is refused (the tracer
# now stops at system calls), and libwsc makes the rest plain: strace
# lists each getppid after it.
mkfifo "$work/fifo"
"$wl" fifo "$work/fifo" 3 > "$work/out.fifo" 2>&1 &
pid=$!
sleep 2
strace -qq -p "$pid" -e trace=read,getppid -o "$work/strace.pid" &
spid=$!
sleep 2
# Bounded: if the workload died, nobody reads the fifo.
timeout 10 sh -c "printf x > '$work/fifo'"
wait "$pid"
rc=$?
wait "$spid"
n=$(count "$work/strace.pid" '^getppid() *= [0-9]')
check "strace -p on a process blocked in a batch: it ran (exit $rc) and strace lists its $n getppid of 3" \
	test "$rc" -eq 0 -a "$n" -eq 3
check "strace -p: the module refused the rest and libwsc ran it plain: $(cat "$work/out.fifo")" \
	grep -q "refused 8$" "$work/out.fifo"

# /proc/syscall_lat: the per-call rows of wrapped calls (other users'
# calls and their latencies) for CAP_PERFMON or CAP_SYS_ADMIN only, as
# the trace's; the totals for everyone.
"$wl" wrapped "$work/sw" 1 > /dev/null 2>&1
check "/proc/syscall_lat as root: the wrapped calls' rows" \
	grep -q '^openat ' /proc/syscall_lat
setpriv --reuid=65534 --regid=65534 --clear-groups cat /proc/syscall_lat > "$work/proc.nobody"
check "/proc/syscall_lat as uid 65534: the totals, no per-call row" \
	sh -c "grep -q '^# wsc: [0-9]* batches' '$work/proc.nobody' &&
		grep -q 'its per-call rows need CAP_PERFMON or CAP_SYS_ADMIN' '$work/proc.nobody' &&
		! grep -q '^openat ' '$work/proc.nobody'"

# audit: a daemon of the guest's own, logging to $work; a syscall rule per
# folder and a watch per folder, the wrapped run in one, the plain run in
# the other; then the records per key.
audit_skip=""
if ! command -v auditctl > /dev/null || ! command -v auditd > /dev/null; then
	audit_skip="no auditctl/auditd (tools/install-deps --base installs auditd)"
elif ! auditctl -s > /dev/null 2>&1; then
	audit_skip="the kernel $(uname -r) has no audit (CONFIG_AUDIT)"
fi
if [ -n "$audit_skip" ]; then
	for what in "audit syscall rules" "audit file watches" "audit: refusal" \
		"audit: the memory case" "audit: the memory case, refused" \
		"audit: enabled mid-batch" "audit: enabled mid-batch, refused"; do
		ok "$what # SKIP $audit_skip"
	done
	rm -rf "$work"
	tap_done
	exit
fi
mkdir -p "$work/conf" "$work/aw" "$work/ap" "$work/ww" "$work/wp"
cat > "$work/conf/auditd.conf" <<CONF
log_file = $work/audit.log
log_format = RAW
flush = SYNC
write_logs = yes
max_log_file_action = IGNORE
space_left = 2
space_left_action = IGNORE
admin_space_left = 1
admin_space_left_action = IGNORE
disk_full_action = IGNORE
disk_error_action = IGNORE
CONF
chmod 600 "$work/conf/auditd.conf"
auditd -c "$work/conf" > "$work/auditd.out" 2>&1
check "auditd started (logging to $work/audit.log)" test $? -eq 0
sed 's/^/# auditd: /' "$work/auditd.out"
auditctl -D > /dev/null
auditctl -b 8192 > /dev/null
for d in aw ap; do
	auditctl -a always,exit -F arch=b64 -S openat,unlinkat -F dir="$work/$d" -k "wsc_$d" > /dev/null
done
auditctl -w "$work/ww" -p wa -k wsc_ww > /dev/null 2>&1
auditctl -w "$work/wp" -p wa -k wsc_wp > /dev/null 2>&1
"$wl" wrapped "$work/aw" $N > "$work/out.aw" 2>&1
"$wl" plain "$work/ap" $N > /dev/null 2>&1
"$wl" wrapped "$work/ww" $N > /dev/null 2>&1
"$wl" plain "$work/wp" $N > /dev/null 2>&1
auditctl -D > /dev/null
sleep 1
# records KEY NR: SYSCALL records of key KEY for system call NR.
records() {
	ausearch --input "$work/audit.log" -k "$1" --raw 2>/dev/null |
		grep '^type=SYSCALL' | grep -c " syscall=$2 " || true
}
for call in openat:257 unlinkat:263; do
	w=$(records wsc_aw "${call#*:}")
	p=$(records wsc_ap "${call#*:}")
	check "audit -S ${call%:*} -F dir=: $w records wrapped, $p plain, of $N" \
		test "$w" -eq $N -a "$p" -eq $N
	w=$(records wsc_ww "${call#*:}")
	p=$(records wsc_wp "${call#*:}")
	check "audit -w DIR -p wa, ${call%:*}: $w records wrapped, $p plain, of $N" \
		test "$w" -eq $N -a "$p" -eq $N
done
check "audit: the module refused the batches and libwsc ran them plain: $(cat "$work/out.aw")" \
	grep -qx "native 0 plain $((4 * N)) refused 4" "$work/out.aw"
# The memory case: with audit on and any rule loaded (here one on mount,
# which nothing calls), a path-taking wrapped call used to keep its name
# (4 KiB of names_cache, charged to no memory cgroup) until its batch
# ended; 48 threads blocked at the end of a batch of 20 newfstatat each
# would hold 960.  Refused, the batches run plain and hold none.
auditctl -a always,exit -F arch=b64 -S mount -k wsc_unrelated > /dev/null
"$wl" pin 48 20 > "$work/out.pin" 2>&1
rc=$?
auditctl -D > /dev/null
# shellcheck disable=SC2046  # the two counts, split on purpose
set -- $(sed -n 's/^names_cache //p' "$work/out.pin")
check "audit with one unrelated rule, 48 threads blocked after 20 path lookups each: names_cache $1 -> $2 active objects (no 960 held)" \
	test "$rc" -eq 0 -a -n "${2:-}" -a "$((${2:-0} - ${1:-0}))" -lt 100
check "the pinning batches were refused (audit) and ran plain: $(tail -n 1 "$work/out.pin")" \
	grep -q "refused 4$" "$work/out.pin"
# In flight: audit switched on under a batch that was let in with audit
# off.  The batch blocks in the read of a fifo, then would create N files
# in a folder; audit is enabled and a watch on the folder loaded while it
# blocks.  The module stops the batch before its first openat and libwsc
# makes the rest plain: audit records every creation.
auditctl -e 0 > /dev/null
mkdir -p "$work/fw"
mkfifo "$work/fifo.audit"
"$wl" fifo-create "$work/fifo.audit" "$work/fw" $N > "$work/out.fw" 2>&1 &
pid=$!
wait_asleep_in_ioctl $pid
asleep=$?
auditctl -e 1 > /dev/null
auditctl -w "$work/fw" -p wa -k wsc_fw > /dev/null 2>&1
timeout 10 sh -c "printf x > '$work/fifo.audit'"
wait $pid
rc=$?
sleep 1
auditctl -D > /dev/null
n=$(records wsc_fw 257)
check "audit enabled and a watch loaded while a batch blocks: $n of its $N creations recorded (exit $rc, blocked: $asleep)" \
	test "$rc" -eq 0 -a "$asleep" -eq 0 -a "$n" -eq $N
check "the module stopped the batch after the read and libwsc ran the rest plain: $(cat "$work/out.fw")" \
	grep -qx "native 1 plain $((2 * N)) refused 4" "$work/out.fw"
auditctl -e 0 > /dev/null
kill "$(cat /var/run/auditd.pid 2>/dev/null || pgrep -x auditd)" 2> /dev/null
sleep 1
# With no rule loaded the module runs the batches again.
mkdir -p "$work/after"
"$wl" wrapped "$work/after" $N > "$work/out.after" 2>&1
check "no rule, no tracer: the batches ran wrapped again: $(cat "$work/out.after")" \
	grep -qx "native $((4 * N)) plain 0 refused 0" "$work/out.after"
rm -rf "$work"
tap_done
