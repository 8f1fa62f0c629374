# SPDX-License-Identifier: GPL-2.0
"""What the wsc trace tests compare: wsc trace's JSON against strace's
outputs, read the same way by every script (tests/vm/trace_lib.sh puts
this folder on PYTHONPATH)."""
import json
import re


def wsc_rows(path, returning=True):
    """{name: (calls, errors)} of wsc trace's JSON in PATH; with RETURNING,
    without exit and exit_group, which never return (strace counts a call
    when it returns, wsc counts those two when the task ends)."""
    return {s["name"]: (s["calls"], s["errors"]) for s in json.load(open(path))["syscalls"]
            if not returning or s["name"] not in ("exit", "exit_group")}


def strace_c(path):
    """{name: (calls, errors)} of strace -c's table in PATH."""
    rows = {}
    for line in open(path):
        f = line.split()
        if len(f) in (5, 6) and f[0][0].isdigit() and f[-1] != "total":
            rows[f[-1]] = (int(f[3]), int(f[4]) if len(f) == 6 else 0)
    return rows


def strace_lines(path):
    """Per pid, the calls of strace -f -o's lines in PATH (an unfinished
    call once, its resumption not again)."""
    per = {}
    for line in open(path):
        m = re.match(r"(\d+) +(\w+)\(", line)
        if m:
            per[m.group(1)] = per.get(m.group(1), 0) + 1
    return per


def strace_errnos(path):
    """{(name, errno): failures} of strace's lines in PATH."""
    failures = {}
    for line in open(path):
        m = re.match(r"(?:\d+ +)?(?:<\.\.\. )?(\w+)\b.*= -1 (E[A-Z0-9]+)", line)
        if m:
            failures[m.groups()] = failures.get(m.groups(), 0) + 1
    return failures


def same(ours, theirs, who="strace"):
    """Are OURS and THEIRS equal and not empty?  If not, print (as TAP
    comments) where they differ."""
    if ours == theirs and ours:
        return True
    for k in sorted(set(ours) | set(theirs)):
        if ours.get(k) != theirs.get(k):
            print(f"# {k}: wsc {ours.get(k)} {who} {theirs.get(k)}")
    if not ours:
        print("# nothing counted")
    return False


def wrapped_accounting(path, proc_path):
    """The trace of `wl_batch sleep 5 100` (JSON in PATH, /proc/syscall_lat
    read after the batch in PROC_PATH): each moment counted once.  The five
    wrapped nanosleeps in their row, off the CPU; the batch's ioctl its own
    time only, far below the 500 ms the sleeps took; rows, tasks and shares
    adding up to the totals; /proc's nanosleep row the JSON's.  Prints what
    differs (TAP comments); True when nothing does."""
    doc = json.load(open(path))
    rows = {s["name"]: s for s in doc["syscalls"]}
    ns, io = rows.get("nanosleep", {}), rows.get("ioctl", {})
    bad = []
    if (ns.get("calls"), ns.get("wrapped"), doc.get("wrapped")) != (5, 5, 5):
        bad.append(f"nanosleep {ns.get('calls')} calls, {ns.get('wrapped')} wrapped, {doc.get('wrapped')} in all")
    if io.get("wrapped") != 0:
        bad.append(f"ioctl wrapped {io.get('wrapped')}")
    # 500 ms of sleep is the kernel's promise; the ioctl's own work is a
    # few copies: the bound is not a timing but a tenfold margin on
    # "did the sleeps count twice".
    if ns.get("total_ns", 0) < 500e6 or ns.get("off_cpu_ns", 0) < 450e6:
        bad.append(f"nanosleep total {ns.get('total_ns')} off {ns.get('off_cpu_ns')}")
    if io.get("total_ns", 1e9) >= 250e6 or io.get("off_cpu_ns", 1e9) >= 250e6:
        bad.append(f"ioctl total {io.get('total_ns')} off {io.get('off_cpu_ns')}: the sleeps counted again")
    for k in ("total_ns", "on_cpu_ns", "off_cpu_ns", "calls", "errors"):
        if doc[k] != sum(s[k] for s in doc["syscalls"]):
            bad.append(f"rows do not add up to {k}")
        if doc[k] != sum(t[k] for t in doc["tasks"]):
            bad.append(f"tasks do not add up to {k}")
    if abs(sum(s["share"] for s in doc["syscalls"]) - 100) > 0.001 * len(rows) + 0.01:
        bad.append(f"shares add up to {sum(s['share'] for s in doc['syscalls'])}")
    # The trace's rows begin with the call's number (nanosleep: 35).
    proc = [line.split() for line in open(proc_path)
            if line.split()[:1] == ["35"] and len(line.split()) == 8]
    if len(proc) != 1:
        bad.append(f"/proc/syscall_lat nanosleep rows: {proc}")
    else:
        calls, errors, total_ns, _, _, wrapped = map(int, proc[0][2:8])
        if (calls, errors, total_ns, wrapped) != (5, 0, ns.get("total_ns"), 5):
            bad.append(f"/proc/syscall_lat says {proc[0]}, the JSON {ns}")
    for b in bad:
        print(f"# {b}")
    return not bad


if __name__ == "__main__":
    import sys
    checks = {"wrapped": wrapped_accounting}
    sys.exit(0 if checks[sys.argv[1]](*sys.argv[2:]) else 1)
