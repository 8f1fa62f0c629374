# SPDX-License-Identifier: GPL-2.0
"""The verdicts of several checks from one Python run, for tap.sh's
checks_by: a line each, "ok NAME" or "not ok NAME: why".  One start for
many checks, as a start of Python costs seconds under TCG."""


def check(name, test):
    """Run test(), which raises (an assertion, a file missing) if the
    check fails, and print its verdict."""
    try:
        test()
    except Exception as e:  # noqa: BLE001 - any failure is the verdict
        print(f"not ok {name}: {e!r}".replace("\n", " "))
    else:
        print(f"ok {name}")
