# SPDX-License-Identifier: GPL-2.0
"""wscplot: figures (PNG) from the results that wsc writes.

user/plot/wsc-plot is its command line; a module per kind of result:

    common   errors, JSON and field checks, colours, figures, axes
    bench    `user/plot/wsc-plot bench`: the folder of `wsc bench --all`
    fit      `user/plot/wsc-plot fit`: `wsc bench fit --json`
    klat     `user/plot/wsc-plot klat`: `wsc klat --json` and its --csv samples
    cp       `user/plot/wsc-plot cp` and `cp-sweep`: `wsc cp [--sweep ...] --json`
    trace    `user/plot/wsc-plot trace` and `trace-buckets`: `wsc trace --json`
    cli      the parser, one add_<name>() per subcommand, and main()

The names a figure shows and their order (variants, programs, portions,
parts, swept settings, groups) come from the files being drawn, as the
wsc command wrote them: nothing here repeats the C tables.
"""
