#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The README's "Start here": every command it shows with its output runs
# as written (from the top of the tree, as root: `sudo ` goes) and prints
# each line the README shows, figures aside (tests/vm/readme_check.py).
# The module is loaded, as the section's first block leaves it.
echo "TAP version 13"
exec "${PYTHON:-/usr/bin/python3}" tests/vm/readme_check.py README.md
