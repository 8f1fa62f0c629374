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
# so the log is the only place they show up.  The first pattern a line
# matches, longest first where several start at one place, is its kind in
# kmsg_blame: the specific reports below name themselves ("BUG: KASAN",
# "WARNING: suspicious RCU usage") rather than the bare "BUG" or "WARNING"
# they start with.  Their texts are those of the 6.12 source the debug
# kernel is built from (tools/debug-kernel; Documentation/testing.md, "The
# debug kernel"), which is the kernel that can print all of them.
# shellcheck disable=SC2034  # read by the scripts that source this
readonly KMSG_BAD_PATTERNS=(
	'BUG:'                                       # BUG(), and the reports below
	'BUG: KASAN:'                                # mm/kasan/report.c
	'BUG: sleeping function called from invalid context' # kernel/sched/core.c
	'BUG: soft lockup'                           # kernel/watchdog.c
	'kernel BUG at'
	'WARNING:'                                   # WARN_ON*, lockdep reports
	'WARNING: possible circular locking dependency detected' # lockdep (AB-BA)
	'WARNING: possible recursive locking detected'           # lockdep
	'WARNING: inconsistent lock state'                       # lockdep (irq)
	'WARNING: suspicious RCU usage'                          # lockdep's RCU checks
	'Oops'
	'general protection fault'
	'scheduling while atomic'
	'possible circular locking'
	'INFO: possible'                             # lockdep: recursive locking, irq inversion
	'lockdep'
	'turning off the locking correctness validator'
	'Call Trace:'
	'Kernel panic'
	'INFO: task .* blocked for more than'        # kernel/hung_task.c
	'blocked for more than [0-9]+ seconds'       # hung task detector
	'rcu.*detected (expedited )?stalls'
	'UBSAN:'                                     # lib/ubsan.c: "UBSAN: shift-out-of-bounds in ..."
	'ODEBUG:'                                    # lib/debugobjects.c
	'list_(add|del) corruption'
	'refcount_t:'
)
# kmemleak (with its "verbose" parameter on, as tests/vm/t_kmemleak.sh
# sets it) prints each suspected leak to the log as a record:
#   kmemleak: unreferenced object 0xffff888003a1c000 (size 128):
#   kmemleak:   comm "sh", pid 251, jiffies 4294937296
#   kmemleak:   hex dump (first 32 bytes): ...
#   kmemleak:   backtrace (crc 5cd2ad1a):
#   kmemleak:     __kmalloc_cache_noprof+0x2bd/0x3c0
#   kmemleak:     wsc_bugs_leak+0x1a/0x60 [wsc_bugs]
# A debug kernel has suspected leaks of its own (boot-time objects that
# kmemleak cannot see referenced), so a record counts only when it names
# wsc: a frame in a module whose name starts with wsc, or a frame that is
# a bare address in the modules' area (0xffffffffc0000000 and up on
# x86-64): what %pS prints for code that was unloaded, as wsc is when
# the scan runs after rmmod.  Only the record's first line is reported.
readonly KMSG_KMEMLEAK_RECORD='kmemleak: unreferenced object'
# (Brackets as [[] and []]: the pattern goes through awk -v, which would
# take a backslash for an escape of its own; no {N}: mawk has no intervals.)
readonly KMSG_KMEMLEAK_WSC_FRAME='[[]wsc[A-Za-z0-9_]*[]]|kmemleak: +0xffffffff[c-f][0-9a-f]+[[:space:]]*$'
# Lines that match the above but are expected.  Loading any out-of-tree,
# unsigned module taints the kernel; that is normal for wsc.  virtme-ng's
# init logs its own complaints (e.g. "WARNING: failed to run:
# systemd-tmpfiles" on a minimal Debian) to the kernel log, and the kernel
# echoes its command line, which holds --append text: neither is the kernel
# reporting a problem.  A kernel with PROVE_RCU says so at boot, in words
# the 'lockdep' pattern would take for a report.
readonly KMSG_OK_PATTERNS=(
	'taints kernel'
	'tainting kernel'
	'virtme-ng-init: '
	'(Kernel )?[Cc]ommand line: '
	'RCU lockdep checking is enabled'
)

# The name of the test a marker line starts; before the first: "boot".
readonly KMSG_MARKER='wsc-test: '
readonly KMSG_BEFORE_ANY=boot

# kmsg_join ERE...: the EREs as one alternation.
kmsg_join() {
	local IFS='|'
	printf '%s' "$*"
}

# kmsg_kmemleak_lines LOG: the first lines of LOG's kmemleak records that
# name wsc (see KMSG_KMEMLEAK_WSC_FRAME), as "N:LINE".  A record is its
# first line and the "kmemleak:   ..." lines after it.
kmsg_kmemleak_lines() {
	grep -naE -- "kmemleak: " "$1" | awk -v rec="$KMSG_KMEMLEAK_RECORD" \
		-v frame="$KMSG_KMEMLEAK_WSC_FRAME" '
		function flush() {
			if (head != "" && named)
				print head
			head = ""
			named = 0
		}
		{
			n = $0; sub(/:.*/, "", n)
			if (index($0, rec)) {
				flush()
				head = $0
				last = n
				next
			}
			# Not the next line of the record: it ended.
			if (n + 0 != last + 1 || $0 !~ /kmemleak:   /)
				flush()
			last = n
			if (head != "" && $0 ~ frame)
				named = 1
		}
		END { flush() }
	'
}

# kmsg_bad_lines LOG [ERE...]: the lines of LOG that show a kernel
# problem, as "N:LINE" (N its line number), in line order; each ERE given
# is one more kind of line that is fine.  kmemleak's records are left to
# kmsg_kmemleak_lines.
kmsg_bad_lines() {
	local log=$1 bad ok
	shift
	bad=$(kmsg_join "${KMSG_BAD_PATTERNS[@]}")
	ok=$(kmsg_join "${KMSG_OK_PATTERNS[@]}" "$KMSG_KMEMLEAK_RECORD" "$@")
	{
		grep -naE -- "$bad" "$log" | grep -vE -- "$ok"
		kmsg_kmemleak_lines "$log" | grep -vE -- "$(kmsg_join "${KMSG_OK_PATTERNS[@]}" "$@")"
	} | sort -t: -k1,1n || true
}

# kmsg_blame LOG [ERE...]: each line kmsg_bad_lines finds, as
# "TEST<tab>KIND<tab>N:LINE": TEST the name in the last marker before it
# (or "boot"), KIND the first problem pattern it matches as the line has
# it (e.g. "WARNING", "Call Trace"; a trailing colon dropped).
kmsg_blame() {
	local log=$1 bad test line kind
	shift
	bad=$(kmsg_join "${KMSG_BAD_PATTERNS[@]}" "$KMSG_KMEMLEAK_RECORD")
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
