/* SPDX-License-Identifier: MIT */
/*
 * The lists of the --help texts, within a terminal's width (help.c).
 */
#ifndef WSC_CLI_HELP_H
#define WSC_CLI_HELP_H

#include <stdio.h>

/* The columns every line of a --help text fits in (tests/tools/test_man). */
#define HELP_WIDTH	80

/*
 * One item of a list: @head as given ("  null       "), then @what a
 * word at a time, each word after a blank, wrapped within HELP_WIDTH with
 * its further lines under its first.
 */
void help_item(FILE *f, const char *head, const char *what);

#endif /* WSC_CLI_HELP_H */
