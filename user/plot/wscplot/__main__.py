# SPDX-License-Identifier: GPL-2.0
"""python3 -m wscplot (from user/plot/): the same as user/plot/wsc-plot."""
import sys

from .cli import main

sys.exit(main())
