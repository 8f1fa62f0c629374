# SPDX-License-Identifier: GPL-2.0
"""python3 -m wscplot (from tools/): the same as tools/plot."""
import sys

from .cli import main

sys.exit(main())
