// SPDX-License-Identifier: MIT
/* Reading a whole file (or standard input) into memory. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "textstat.h"

#define MIN_CHUNK 65536

static int buf_read_fd(struct buf *b, int fd)
{
	struct stat st;

	/* A regular file tells its size: one allocation, usually. */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < SIZE_MAX - 1 - MIN_CHUNK) {
		b->cap = (size_t)st.st_size + 1;
		b->data = xrealloc(b->data, b->cap);
	}
	for (;;) {
		ssize_t got;

		if (b->cap - b->len < 2) {
			b->cap = b->cap < MIN_CHUNK ? MIN_CHUNK : b->cap * 2;
			b->data = xrealloc(b->data, b->cap);
		}
		got = read(fd, b->data + b->len, b->cap - b->len - 1);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (got == 0)
			break;
		b->len += (size_t)got;
	}
	if (!b->data)
		b->data = xmalloc(1);
	b->data[b->len] = '\0';
	return 0;
}

int buf_read_file(struct buf *b, const char *path)
{
	int fd, ret, saved;

	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	if (strcmp(path, "-") == 0)
		return buf_read_fd(b, STDIN_FILENO);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = buf_read_fd(b, fd);
	saved = errno;
	close(fd);
	errno = saved;
	return ret;
}

void buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}
