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
