// SPDX-License-Identifier: MIT
#include <string.h>

#include "help.h"

void help_item(FILE *f, const char *head, const char *what)
{
	int indent = (int)strlen(head), col = indent;
	const char *p = what + strspn(what, " ");

	fputs(head, f);
	while (*p) {
		int n = (int)strcspn(p, " ");

		/* A word longer than the room left goes on a line of its own. */
		if (col > indent && col + 1 + n > HELP_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		}
		col += fprintf(f, " %.*s", n, p);
		p += n;
		p += strspn(p, " ");
	}
	fputc('\n', f);
}
