# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# The guest kernel log scan: which lines of a kernel log show a kernel
# problem, and which test program was running when each was printed.
# Sourced (bash) by tools/vm-run, which fails a run on such lines, and by
# tools/kmsg-scan, which runs the same scan on a saved log (tests/lib/
# suite.sh names the tests with it; tests/tools/test_kmsg_scan tests it).
#
# tests/vm/run writes "wsc-test: NAME" to /dev/kmsg before it starts each
# test program, so the last such marker before a bad line names the test
# that ran; a line before any marker was printed while the guest booted.

# Extended regexps for guest kernel log lines that mean the kernel is
# unhappy.  A WARN_ON or a lockdep splat leaves the command's status alone,
# so the log is the only place they show up.
# shellcheck disable=SC2034  # read by the scripts that source this
readonly KMSG_BAD_PATTERNS=(
	'BUG:'                                       # BUG(), KASAN, soft lockup, sleeping in atomic
	'kernel BUG at'
	'WARNING:'                                   # WARN_ON*, lockdep reports
	'Oops'
	'general protection fault'
	'scheduling while atomic'
	'possible circular locking'
	'INFO: possible'                             # lockdep: recursive locking, irq inversion
	'lockdep'
	'turning off the locking correctness validator'
	'Call Trace:'
	'Kernel panic'
	'blocked for more than [0-9]+ seconds'       # hung task detector
	'rcu.*detected (expedited )?stalls'
	'UBSAN:'
	'list_(add|del) corruption'
	'refcount_t:'
)
# Lines that match the above but are expected.  Loading any out-of-tree,
# unsigned module taints the kernel; that is normal for wsc.  virtme-ng's
# init logs its own complaints (e.g. "WARNING: failed to run:
# systemd-tmpfiles" on a minimal Debian) to the kernel log, and the kernel
# echoes its command line, which holds --append text: neither is the kernel
# reporting a problem.
readonly KMSG_OK_PATTERNS=(
	'taints kernel'
	'tainting kernel'
	'virtme-ng-init: '
	'(Kernel )?[Cc]ommand line: '
)

# The name of the test a marker line starts; before the first: "boot".
readonly KMSG_MARKER='wsc-test: '
readonly KMSG_BEFORE_ANY=boot

# kmsg_join ERE...: the EREs as one alternation.
kmsg_join() {
	local IFS='|'
	printf '%s' "$*"
}

# kmsg_bad_lines LOG [ERE...]: the lines of LOG that show a kernel
# problem, as "N:LINE" (N its line number); each ERE given is one more
# kind of line that is fine.
kmsg_bad_lines() {
	local log=$1 bad ok
	shift
	bad=$(kmsg_join "${KMSG_BAD_PATTERNS[@]}")
	ok=$(kmsg_join "${KMSG_OK_PATTERNS[@]}" "$@")
	grep -naE -- "$bad" "$log" | grep -vE -- "$ok" || true
}

# kmsg_blame LOG [ERE...]: each line kmsg_bad_lines finds, as
# "TEST<tab>KIND<tab>N:LINE": TEST the name in the last marker before it
# (or "boot"), KIND the first problem pattern it matches as the line has
# it (e.g. "WARNING", "Call Trace"; a trailing colon dropped).
kmsg_blame() {
	local log=$1 bad test line kind
	shift
	bad=$(kmsg_join "${KMSG_BAD_PATTERNS[@]}")
	while IFS=$'\t' read -r test line; do
		kind=$(grep -oaE -m 1 -- "$bad" <<<"$line" | head -n 1) || true
		kind=${kind%:}
		printf '%s\t%s\t%s\n' "$test" "${kind:-?}" "$line"
	done < <(
		# Markers first ("N:...wsc-test: NAME"), then the bad lines,
		# both in line order: each bad line takes the last marker
		# above it.  A console log may end its lines with CR.
		awk -v first="$KMSG_BEFORE_ANY" -v marker="$KMSG_MARKER" '
			FILENAME == ARGV[1] {
				n = $0; sub(/:.*/, "", n)
				name = $0; sub("^.*" marker, "", name)
				sub(/[ \t\r]+$/, "", name)
				at[++markers] = n + 0
				names[markers] = name
				next
			}
			{
				n = $0; sub(/:.*/, "", n)
				while (i < markers && at[i + 1] < n + 0)
					i++
				sub(/\r$/, "")
				print (i ? names[i] : first) "\t" $0
			}
		' <(grep -naF -- "$KMSG_MARKER" "$log" || true) \
		  <(kmsg_bad_lines "$log" "$@")
	)
}

# kmsg_show: kmsg_blame's lines on stdin as "TEST: N:LINE".
kmsg_show() {
	awk -F'\t' '{ test = $1; sub(/^[^\t]*\t[^\t]*\t/, ""); print test ": " $0 }'
}

# kmsg_summary: from kmsg_blame's lines on stdin, one line naming each
# test with what went wrong during it, in the order they ran:
# "WARNING, Call Trace during t_calls_file; BUG during t_trace.sh".
# Nothing for no lines.
kmsg_summary() {
	awk -F'\t' '
		!($1 in seen) { seen[$1] = 1; order[++tests] = $1 }
		!(($1, $2) in had) {
			had[$1, $2] = 1
			kinds[$1] = kinds[$1] (kinds[$1] == "" ? "" : ", ") $2
		}
		END {
			for (t = 1; t <= tests; t++)
				printf "%s%s during %s", (t > 1 ? "; " : ""),
				       kinds[order[t]], order[t]
			if (tests)
				print ""
		}
	'
}
