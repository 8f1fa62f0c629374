# SPDX-License-Identifier: GPL-2.0
"""The README's "Start here": its commands run as written, and what it
shows them print is what they print.

The section pairs a ```sh block of commands with the ```text block that
follows it, an excerpt of their output.  For each pair every command line
is run (sh -c, from the top of the tree, stdout and stderr together; a
leading `sudo ` goes, the VM runs as root) and must exit 0, and every line
of the excerpt but `...` must be a line of the output once both are
normalised: numbers (with their unit: 12.3ms, 98.5%, 2.64x) become `#`
and runs of blanks one blank, so that the figures of another run match
and the words, columns and order of lines are what is checked.  A ```sh
block with no excerpt after it (building, loading) is not run here:
tests/check-fresh runs `make demo` and `make check` as written.

    readme_check.py README.md        TAP, one check per command, with its
                                     time as a comment
    readme_check.py --list README.md the pairs, for people
"""
import re
import subprocess
import sys
import time

SECTION = "## Start here"
NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(\.\d+)?(e[-+]?\d+)?"
                    r"(ns|us|ms|s|min|%|x|B|KiB|MiB|GiB)?(?![\w])")


def normal(line):
    """LINE with its figures as # and its blanks as one (a range's ".."
    apart first: 71.9..82.0 is two figures)."""
    return " ".join(NUMBER.sub("#", line.replace("..", " .. ")).split())


def section(text):
    """The lines of the README's "Start here", up to the next ## title."""
    lines = text.splitlines()
    start = lines.index(SECTION)
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].startswith("## ")), len(lines))
    return lines[start + 1:end]


def blocks(lines):
    """[(language, [lines])] of the fenced blocks among LINES."""
    out, cur, lang = [], None, None
    for line in lines:
        if cur is None and line.startswith("```"):
            cur, lang = [], line[3:].strip()
        elif cur is not None and line.startswith("```"):
            out.append((lang, cur))
            cur = None
        elif cur is not None:
            cur.append(line)
    return out


def pairs(text):
    """[(commands, excerpt)]: each sh block followed by a text block."""
    bl = blocks(section(text))
    return [(cmd, bl[i + 1][1]) for i, (lang, cmd) in enumerate(bl)
            if lang == "sh" and i + 1 < len(bl) and bl[i + 1][0] == "text"]


def command_lines(cmd):
    """The commands of a block: comments and blank lines out, `sudo ` off."""
    out = []
    for line in cmd:
        line = re.sub(r"\s+#.*$", "", line).strip()
        if line and not line.startswith("#"):
            out.append(re.sub(r"^sudo ", "", line))
    return out


def check(readme):
    n = failed = 0
    for cmd, excerpt in pairs(open(readme).read()):
        lines = command_lines(cmd)
        t0 = time.monotonic()
        output, bad = "", []
        for line in lines:
            p = subprocess.run(["sh", "-c", line], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            output += p.stdout
            if p.returncode:
                bad.append(f"`{line}` exited {p.returncode}")
        took = time.monotonic() - t0
        got = {normal(l) for l in output.splitlines()}
        for want in excerpt:
            if want.strip() not in ("...", "") and normal(want) not in got:
                bad.append(f"not printed: {want.strip()}")
        n += 1
        name = "; ".join(lines)
        if bad:
            failed += 1
            print(f"not ok {n} README: {name}")
            for b in bad:
                print(f"# {b}")
            for l in output.splitlines()[:40]:
                print(f"#   | {l}")
        else:
            print(f"ok {n} README: {name}")
        print(f"# took {took:.1f} s")
    if not n:
        failed += 1
        n += 1
        print(f"not ok {n} README: no command with its output under {SECTION}")
    print(f"1..{n}")
    return failed == 0


def main():
    if sys.argv[1] == "--list":
        for cmd, excerpt in pairs(open(sys.argv[2]).read()):
            print("\n".join(command_lines(cmd)))
            print("".join(f"  | {l}\n" for l in excerpt))
        return 0
    return 0 if check(sys.argv[1]) else 1


if __name__ == "__main__":
    sys.exit(main())
