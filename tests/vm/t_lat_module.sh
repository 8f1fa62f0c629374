#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Unloading the module stops a latency-lab run in progress: the RUN
# command returns ESHUTDOWN at once instead of waiting for the run, no
# measuring thread is left behind, and the module loads and runs again
# afterwards.  Runs in the VM as root, wsc.ko not loaded; the argument is
# where the test programs are (t_lat_badinput doubles as the client).
. "$(dirname "$0")/tap.sh"
ko=${WSC_KO:-kmod/wsc.ko}
client=${1:-build/tests/vm}/t_lat_badinput
# Long enough that an unload which waited for the run would be seen to
# (minutes under TCG), short enough that it would still end on its own.
iterations=${WSC_LAT_LONG_RUN:-3000000}
out=$(mktemp)
trap 'rm -f "$out" "$out.1"' EXIT

echo "TAP version 13"
check "module is not loaded at start" sh -c '! grep -q "^wsc " /proc/modules'

# lat ARGS...: the client, its report kept out of the TAP stream.
lat() {
	"$client" "$@" >"$out.1" 2>&1
}

insmod "$ko"
check "a short run succeeds" lat --run spinlock 1000

"$client" --run semaphore "$iterations" >"$out" 2>&1 &
runner=$!
# RESET is refused while a run is in progress: that says it has started.
running=0
for _ in $(seq 100); do
	if ! lat --reset mutex && grep -q "error EBUSY" "$out.1"; then
		running=1
		break
	fi
	sleep 0.2
done
check "the long run is in progress" test "$running" -eq 1

start=$(date +%s)
rmmod wsc
rc=$?
took=$(($(date +%s) - start))
check "rmmod during the run succeeds" test "$rc" -eq 0
check "rmmod did not wait for the run (${took}s)" test "$took" -le 20
wait "$runner"
if grep -q "error ESHUTDOWN" "$out"; then
	ok "the RUN command returned ESHUTDOWN"
else
	not_ok "the RUN command returned ESHUTDOWN"
	echo "# the long run said: $(cat "$out")"
fi
check "module gone" sh -c '! grep -q "^wsc " /proc/modules'
check "no measuring thread left" sh -c '! grep -qs "^wsc_lat" /proc/[0-9]*/comm'

check "module loads again" insmod "$ko"
check "and runs again" lat --run completion 1000
check "rmmod when idle" rmmod wsc

tap_done
