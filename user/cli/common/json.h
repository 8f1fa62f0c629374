/* SPDX-License-Identifier: MIT */
/*
 * What the JSON writers of every subcommand share.
 */
#ifndef WSC_CLI_JSON_H
#define WSC_CLI_JSON_H

#include <stdio.h>

/* Print a JSON string with the escapes it needs. */
void json_string(FILE *f, const char *s);

#endif /* WSC_CLI_JSON_H */
