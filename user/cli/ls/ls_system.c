// SPDX-License-Identifier: MIT
/*
 * wsc ls: the system's ls as a whole process, the way the DMSM paper
 * timed it, and whether two listings say the same thing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ls.h"

int ls_system_find(struct ls_system *s)
{
	const char *path = getenv("PATH"), *p, *end;
	const char *tz = getenv("TZ");

	*s = (struct ls_system){ .path = "" };
	if (!path || !*path)
		path = "/usr/bin:/bin";
	/*
	 * Resolved once here, not by execvp() in every timed child: its
	 * failed tries along $PATH are not part of running ls.
	 */
	for (p = path; *p; p = *end ? end + 1 : end) {
		int n;

		end = strchrnul(p, ':');
		if (end == p || *p != '/')
			continue;	/* only absolute folders: no cwd games */
		n = snprintf(s->path, sizeof(s->path), "%.*s/ls",
			     (int)(end - p), p);
		if (n > 0 && (size_t)n < sizeof(s->path) &&
		    !access(s->path, X_OK))
			break;
		s->path[0] = '\0';
	}
	if (!s->path[0]) {
		fprintf(stderr, "wsc ls: no ls on $PATH to compare with\n");
		return -ENOENT;
	}
	s->envp[0] = "LC_ALL=C";
	if (tz) {
		s->envp[1] = malloc(strlen(tz) + 4);
		if (!s->envp[1])
			return -ENOMEM;
		sprintf(s->envp[1], "TZ=%s", tz);
	}
	return 0;
}

void ls_system_free(struct ls_system *s)
{
	free(s->envp[1]);
	s->envp[1] = NULL;
}

int ls_system_run(const struct ls_system *s, const char *dir,
		  struct ls_buf *out)
{
	char *argv[] = { (char *)s->path, "-l", "--time-style=long-iso",
			 (char *)dir, NULL };
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	out->len = 0;
	out->oom = false;
	if (pipe2(fds, O_CLOEXEC)) {
		fprintf(stderr, "wsc ls: pipe: %s\n", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "wsc ls: fork: %s\n", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		/* dup2() clears close-on-exec on the copy: ls's stdout. */
		if (dup2(fds[1], STDOUT_FILENO) < 0)
			_exit(126);
		execve(s->path, argv, s->envp);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		if (!ls_buf_reserve(out, 4096))
			break;
		n = read(fds[0], out->p + out->len, out->cap - out->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		out->len += (size_t)n;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "wsc ls: waitpid: %s\n", strerror(errno));
			return -1;
		}
	}
	if (out->oom) {
		fprintf(stderr, "wsc ls: no memory for the output of %s\n",
			s->path);
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "wsc ls: %s -l %s failed (%s %d)\n", s->path,
			dir, WIFEXITED(status) ? "exit status" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) :
			WTERMSIG(status));
		return -1;
	}
	return 0;
}

/* One line of @b from @pos: its start and length; @pos moves past it. */
static bool ls_next_line(const struct ls_buf *b, size_t *pos,
			 const char **line, size_t *len)
{
	const char *nl;

	if (*pos >= b->len)
		return false;
	*line = b->p + *pos;
	nl = memchr(*line, '\n', b->len - *pos);
	*len = nl ? (size_t)(nl - *line) : b->len - *pos;
	*pos += *len + (nl != NULL);
	return true;
}

static bool ls_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The same fields in the same order, whatever the blanks between them. */
static bool ls_same_fields(const char *a, size_t alen, const char *b,
			   size_t blen)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < alen && ls_blank(a[i]))
			i++;
		while (j < blen && ls_blank(b[j]))
			j++;
		if (i == alen || j == blen)
			return i == alen && j == blen;
		while (i < alen && j < blen && !ls_blank(a[i]) &&
		       !ls_blank(b[j])) {
			if (a[i++] != b[j++])
				return false;
		}
		/* Both fields must end here. */
		if ((i < alen && !ls_blank(a[i])) ||
		    (j < blen && !ls_blank(b[j])))
			return false;
	}
}

size_t ls_agree(const struct ls_buf *a, const struct ls_buf *b, bool fields)
{
	size_t pa = 0, pb = 0, la = 0, lb = 0, nr = 0;
	const char *x = NULL, *y = NULL;
	bool ha, hb;

	if (!fields && a->len == b->len &&
	    (!a->len || !memcmp(a->p, b->p, a->len)))
		return 0;
	for (;;) {
		ha = ls_next_line(a, &pa, &x, &la);
		hb = ls_next_line(b, &pb, &y, &lb);
		nr++;
		if (!ha && !hb)
			break;
		if (ha != hb)
			return nr;
		if (fields ? !ls_same_fields(x, la, y, lb) :
		    la != lb || memcmp(x, y, la))
			return nr;
	}
	if (fields)
		return 0;
	/* Every line alike: the bytes differ only in a last newline. */
	return nr > 1 ? nr - 1 : 1;
}

void ls_print_line(const char *label, const struct ls_buf *b, size_t nr)
{
	const char *line;
	size_t pos = 0, len, i;

	for (i = 1; ls_next_line(b, &pos, &line, &len); i++) {
		if (i == nr) {
			fprintf(stderr, "  %-13s %.*s\n", label, (int)len, line);
			return;
		}
	}
	fprintf(stderr, "  %-13s (none)\n", label);
}
