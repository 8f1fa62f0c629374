# SPDX-License-Identifier: GPL-2.0
"""user/plot/wsc-plot's command line: a subcommand per kind of result.

    user/plot/wsc-plot bench DIR [-o OUTDIR]
    user/plot/wsc-plot cp FILE.json [-o OUTDIR]
    user/plot/wsc-plot cp-sweep FILE.json [FILE.json ...] [-o OUTDIR]
    user/plot/wsc-plot trace FILE.json [FILE.json ...] [-o OUTDIR] [--label LABEL ...]
                     [--calls CALL,... | --top N]
    user/plot/wsc-plot trace-buckets FILE.json [FILE.json ...] [-o OUTDIR]
                     [--label LABEL ...] [--call CALL] [--fraction]
    user/plot/wsc-plot fit FILE.json [-o OUTDIR]
    user/plot/wsc-plot klat FILE.json [FILE.json ...] [--samples EXPERIMENT=FILE ...]
                    [-o OUTDIR]

Each subcommand is an add_<name>() in its module that registers its parser
and a run function yielding the paths it writes; main() prints "wrote
PATH" for each.  A problem with the input is one line on stderr and exit
status 1; a usage error one line and exit status 2.
"""
import argparse

from . import bench, cp, fit, klat, trace
from .common import PROG, PlotError, note


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit status 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


# One entry per subcommand, in the order --help lists them.
COMMANDS = (bench.add_bench, fit.add_fit, klat.add_klat, cp.add_cp, cp.add_cp_sweep,
            trace.add_trace, trace.add_trace_buckets)


def main(argv=None):
    parser = Parser(prog=PROG, description="Draw PNG figures from wsc's results.")
    commands = parser.add_subparsers(metavar="COMMAND", required=True)
    for add in COMMANDS:
        add(commands)
    args = parser.parse_args(argv)
    try:
        for path in args.run(args):
            print(f"wrote {path}", flush=True)
    except PlotError as e:
        note(str(e))
        return 1
    return 0
