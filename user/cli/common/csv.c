// SPDX-License-Identifier: MIT
/*
 * --csv output shared by the commands: rows go to FILE.tmp, which is
 * renamed to FILE only once every row is written, so a reader never sees
 * half a file; and a path that could only fail at the end is refused
 * before any measurement runs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "csv.h"

int csv_open(struct csv_out *c, const char *cmd, const char *path)
{
	struct stat st;

	c->f = NULL;
	c->path = path;
	if (!path[0] || (!stat(path, &st) && S_ISDIR(st.st_mode))) {
		usage_error(cmd, "--csv needs a file name, not '%s'", path);
		return EXIT_USAGE;
	}
	if (snprintf(c->tmp, sizeof(c->tmp), "%s.tmp", path) >=
	    (int)sizeof(c->tmp)) {
		usage_error(cmd, "--csv: path too long");
		return EXIT_USAGE;
	}
	c->f = fopen(c->tmp, "w");
	if (!c->f) {
		/* The name is fine, the system refuses it: a failure (wsc(8)). */
		fprintf(stderr, "wsc %s: --csv: cannot write %s: %s\n", cmd, path,
			strerror(errno));
		return 1;
	}
	return 0;
}

int csv_commit(struct csv_out *c, const char *cmd, int failed)
{
	int ret = failed;

	if (!c->f)
		return ret;
	if (fclose(c->f) || failed || rename(c->tmp, c->path)) {
		if (!failed)
			fprintf(stderr, "wsc %s: writing %s failed: %s\n", cmd,
				c->path, strerror(errno));
		unlink(c->tmp);
		ret = 1;
	}
	c->f = NULL;
	return ret;
}

void csv_abort(struct csv_out *c)
{
	if (!c->f)
		return;
	fclose(c->f);
	unlink(c->tmp);
	c->f = NULL;
}

void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
