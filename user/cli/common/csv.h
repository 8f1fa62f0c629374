/* SPDX-License-Identifier: MIT */
/*
 * --csv files: written whole or not at all (csv.c).
 */
#ifndef WSC_CLI_CSV_H
#define WSC_CLI_CSV_H

#include <stdio.h>

/**
 * struct csv_out - a --csv file being written
 * @f:    the open FILE.tmp, or NULL
 * @path: FILE
 * @tmp:  FILE.tmp
 *
 * csv_open() refuses an empty name, a directory or a path too long with a
 * usage error (returns EXIT_USAGE), and a path the system will not let us
 * write (a missing folder, no permission) as a failure (returns 1), as
 * wsc(8)'s EXIT STATUS sorts them; csv_commit()
 * renames FILE.tmp to FILE unless @failed (or closing fails) and returns
 * 0 or 1; csv_abort() removes FILE.tmp.  Both are no-ops without a file.
 */
struct csv_out {
	FILE *f;
	const char *path;
	char tmp[4096];
};

int csv_open(struct csv_out *c, const char *cmd, const char *path);
int csv_commit(struct csv_out *c, const char *cmd, int failed);
void csv_abort(struct csv_out *c);

/*
 * @s as one CSV field (RFC 4180): as it is, or in double quotes with its
 * quotes doubled when it holds a comma, a quote or a line break.  Only
 * then: a number or a name is never quoted, so a reader that splits on
 * commas (cut, awk) keeps working.  (libcsv's writer quotes every field.)
 */
void csv_field(FILE *f, const char *s);

#endif /* WSC_CLI_CSV_H */
