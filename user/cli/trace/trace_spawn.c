// SPDX-License-Identifier: MIT
/*
 * wsc trace -- CMD: the command, found in PATH before the trace starts,
 * forked stopped until the trace has begun on it, given the signals wsc
 * gets, and reaped.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace_cmd.h"

/*
 * Find @name as execvp() would, but here, before the trace starts: a
 * PATH search in the child would put its failed execve calls in the
 * trace (strace searches first too).  0, or -1 with a message.
 */
int trace_resolve(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH"), *p, *end;

	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return 0;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = end + 1) {
		end = strchrnul(p, ':');
		/* An empty PATH entry is the current folder. */
		if ((size_t)snprintf(out, len, "%.*s%s%s", (int)(end - p), p,
				     end == p ? "" : "/", name) < len &&
		    !access(out, X_OK)) {
			struct stat st;

			if (!stat(out, &st) && S_ISREG(st.st_mode))
				return 0;
		}
		if (!*end)
			break;
	}
	fprintf(stderr, "wsc trace: cannot run '%s': not found in PATH\n", name);
	return -1;
}

int trace_drop_caches(void)
{
	int fd;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3", 1) != 1) {
		fprintf(stderr, "wsc trace: --cold: cannot write /proc/sys/vm/drop_caches: %s (needs root)\n",
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * Fork the command, stopped before exec until the trace has started on
 * it, so that its first traced call is its execve.  It stops itself with
 * SIGSTOP: the exit of its kill(2) passes the tracepoint before the stop
 * takes hold (on the way back to user mode), so no call of it is in
 * progress when the trace begins and none is counted "unmatched" (a read
 * of a pipe would be, on every traced command).  Returns once it has
 * stopped; -1 with errno, or -2 when it died before (said).
 *
 * It never runs untraced: if the trace cannot start, wsc kills it; if
 * wsc itself is killed meanwhile, it stays stopped, or, when that leaves
 * its process group orphaned, the kernel sends it SIGHUP before SIGCONT
 * (a command that ignores SIGHUP would then run untraced).
 */
pid_t trace_spawn(const char *file, char **cmd, int *exec_err)
{
	int errp[2], e, status;
	pid_t pid, w;

	if (pipe2(errp, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(errp[0]);
		close(errp[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		close(errp[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		kill(getpid(), SIGSTOP);
		execv(file, cmd);
		e = errno;
		if (write(errp[1], &e, sizeof(e)) != sizeof(e))
			_exit(127);
		_exit(127);
	}
	close(errp[1]);
	do
		w = waitpid(pid, &status, WUNTRACED);
	while (w < 0 && errno == EINTR);
	if (w == pid && WIFSTOPPED(status)) {
		*exec_err = errp[0];
		return pid;
	}
	e = errno;
	close(errp[0]);
	if (w != pid) {
		errno = e;
		return -1;
	}
	fprintf(stderr, "wsc trace: the command's process ended before it could run (wait status %#x)\n",
		(unsigned int)status);
	return -2;
}

/*
 * A signal to wsc goes on to the command, once: Ctrl-C reached it too,
 * but SIGTERM to wsc alone did not.
 */
void trace_pass_signal(pid_t pid, int *sent)
{
	int sig = trace_caught_signal();

	if (sig && sig != *sent) {
		*sent = sig;
		kill(pid, *sent);
	}
}

/* The command's wait status, waiting out signals to wsc. */
int trace_reap(pid_t pid, int *status)
{
	int sent = 0;

	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -1;
		trace_pass_signal(pid, &sent);
	}
	return 0;
}
