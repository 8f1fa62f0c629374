// SPDX-License-Identifier: GPL-2.0
/*
 * writeloop N: N one-byte write(2) calls to /dev/null, every one checked.
 *
 * The workload of tools/measure/trace-overhead: a known number of identical,
 * cheap system calls, so that a tracer's cost per call shows and its count
 * can be checked (exactly N write calls; the rest of the program is a
 * handful of calls from the loader, open and close).  Exit status 0 when
 * all N writes returned 1, 1 on a failed call, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out, const char *prog)
{
	fprintf(out, "Usage: %s N\n"
		"Do N one-byte write(2) calls to /dev/null and exit 0 when "
		"each wrote its byte.\n", prog);
}

int main(int argc, char **argv)
{
	const char *prog = argc > 0 && argv[0] ? argv[0] : "writeloop";
	unsigned long long n, i;
	char *end;
	int fd;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
			  strcmp(argv[1], "--help") == 0)) {
		usage(stdout, prog);
		return 0;
	}
	if (argc != 2) {
		usage(stderr, prog);
		return 2;
	}
	errno = 0;
	n = strtoull(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || argv[1][0] == '-') {
		fprintf(stderr, "%s: N must be a whole number, not '%s'\n",
			prog, argv[1]);
		return 2;
	}

	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: open /dev/null: %s\n", prog,
			strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		ssize_t r = write(fd, "x", 1);

		if (r != 1) {
			fprintf(stderr, "%s: write %llu of %llu: %s\n", prog,
				i + 1, n,
				r < 0 ? strerror(errno) : "wrote nothing");
			close(fd);
			return 1;
		}
	}
	if (close(fd) < 0) {
		fprintf(stderr, "%s: close /dev/null: %s\n", prog,
			strerror(errno));
		return 1;
	}
	return 0;
}
