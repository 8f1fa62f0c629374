// SPDX-License-Identifier: GPL-2.0
/*
 * wl_advise: known runs for wsc trace --advise (t_advise.sh).
 *
 *   wl_advise scan FILE  10 x (openat, newfstatat, read, close) of FILE,
 *                        then 5 getpid; each group and each getpid after
 *                        a stretch of user work (SPIN loop turns)
 *   wl_advise work FILE  10 x (openat, read, close) of FILE with user
 *                        work (SPIN / 20 turns) before every call
 *
 * Raw system calls, so that no libc picks another one.  An uname, which
 * no batch may carry, before and after: the program's own runs are
 * apart from the loader's and the exit's whatever the gap.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Loop turns of one stretch of user work: milliseconds under TCG. */
#define SPIN	3000000ul

static void spin(unsigned long turns)
{
	volatile unsigned long i;

	for (i = 0; i < turns; i++)
		;
}

static int scan(const char *file)
{
	char buf[64];
	struct stat st;
	long fd;
	int i;

	for (i = 0; i < 10; i++) {
		spin(SPIN);
		fd = syscall(SYS_openat, AT_FDCWD, file, O_RDONLY);
		if (fd < 0)
			return 1;
		syscall(SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH);
		syscall(SYS_read, fd, buf, sizeof(buf));
		syscall(SYS_close, fd);
	}
	for (i = 0; i < 5; i++) {
		spin(SPIN);
		syscall(SYS_getpid);
	}
	return 0;
}

static int work(const char *file)
{
	char buf[64];
	long fd;
	int i;

	for (i = 0; i < 10; i++) {
		spin(SPIN / 20);
		fd = syscall(SYS_openat, AT_FDCWD, file, O_RDONLY);
		if (fd < 0)
			return 1;
		spin(SPIN / 20);
		syscall(SYS_read, fd, buf, sizeof(buf));
		spin(SPIN / 20);
		syscall(SYS_close, fd);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct utsname u;
	int ret = 2;

	if (argc != 3) {
		fprintf(stderr, "usage: wl_advise scan|work FILE\n");
		return 2;
	}
	syscall(SYS_uname, &u);
	if (!strcmp(argv[1], "scan"))
		ret = scan(argv[2]);
	else if (!strcmp(argv[1], "work"))
		ret = work(argv[2]);
	syscall(SYS_uname, &u);
	return ret;
}
