/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What /proc says of another task, for the tests that must know where a
 * child sleeps before a trace begins on it.
 */
#ifndef WSC_TEST_PROC_TASK_H
#define WSC_TEST_PROC_TASK_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* Is @pid blocked in read(), as /proc/PID/syscall's first field says? */
static inline bool blocked_in_read(pid_t pid)
{
	char path[64], buf[256];
	ssize_t n;
	long nr;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* "running" while on a CPU, -1 outside a system call. */
	return sscanf(buf, "%ld", &nr) == 1 && nr == SYS_read;
}

#endif /* WSC_TEST_PROC_TASK_H */
