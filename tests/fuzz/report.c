// SPDX-License-Identifier: GPL-2.0
/*
 * Anomalies, reproducers, the per-step watchdog and the kernel log.
 *
 * An anomaly is printed at once, on one line that names the seed, the
 * mode and the step, followed by the reproducer's lines; the run goes on
 * and exits 1 at the end.  A hang cannot go on: the watchdog prints the
 * same line for the step that did not return and exits at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static const char *cur_mode = "-";
static volatile uint64_t cur_step;

static void on_alarm(int sig)
{
	char line[200];
	int n;

	(void)sig;
	n = snprintf(line, sizeof(line),
		     "wsc-fuzz: ANOMALY seed %llu mode %s step %llu: hang "
		     "(no return within %u s)\n",
		     (unsigned long long)F.seed, cur_mode,
		     (unsigned long long)cur_step, F.step_timeout);
	if (write(STDOUT_FILENO, line, n) < 0)
		_exit(1);
	_exit(1);
}

void step_begin(const char *mode, uint64_t step)
{
	static bool installed;

	if (!installed) {
		struct sigaction sa = { .sa_handler = on_alarm };

		sigaction(SIGALRM, &sa, NULL);
		installed = true;
	}
	cur_mode = mode;
	cur_step = step;
	alarm(F.step_timeout);
}

void step_end(void)
{
	alarm(0);
}

void anomaly(const char *mode, uint64_t step, const char *fmt, ...)
{
	va_list ap;

	F.anomalies++;
	printf("wsc-fuzz: ANOMALY seed %llu mode %s step %llu: ",
	       (unsigned long long)F.seed, mode, (unsigned long long)step);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

void repro(const char *fmt, ...)
{
	va_list ap;

	printf("wsc-fuzz:   ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* One line per entry, with the result (and a second result) if given. */
void repro_entries(const struct wsc_entry *e, uint32_t n,
		   const struct wsc_result *res, const struct wsc_result *res2)
{
	uint32_t i;
	int k;

	for (i = 0; i < n; i++) {
		char args[200];
		int len = 0;

		for (k = 0; k < WSC_MAX_ARGS; k++) {
			if (e[i].ref_mask & (1u << k))
				len += snprintf(args + len, sizeof(args) - len,
						"%sR(%llu)", k ? ", " : "",
						(unsigned long long)e[i].args[k]);
			else
				len += snprintf(args + len, sizeof(args) - len,
						"%s%#llx", k ? ", " : "",
						(unsigned long long)e[i].args[k]);
		}
		printf("wsc-fuzz:   [%u] %s(%s) nr %u flags %#x ref_mask %#x reserved %#x",
		       i, call_name(e[i].nr), args, e[i].nr, e[i].flags,
		       e[i].ref_mask, e[i].reserved);
		if (res)
			printf(" -> %lld", (long long)res[i].ret);
		if (res2)
			printf(" | conventional %lld", (long long)res2[i].ret);
		printf("\n");
	}
	fflush(stdout);
}

void repro_bytes(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i += 16) {
		size_t j;

		printf("wsc-fuzz:   %04zx:", i);
		for (j = i; j < len && j < i + 16; j++)
			printf(" %02x", p[j]);
		printf("\n");
	}
	fflush(stdout);
}

/* ---- The kernel log --------------------------------------------------- */

static int kmsg_fd = -1;

/* From now on: earlier lines are not this run's. */
void kmsg_open(void)
{
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
}

/* The same kinds of line tools/lib/kmsg.sh looks for. */
static const char *const complaints[] = {
	"BUG:", "WARNING:", "Oops", "general protection fault",
	"Call Trace:", "kernel BUG", "UBSAN:", "KASAN:", "possible circular",
	"possible recursive", "suspicious RCU", "inconsistent lock",
	"unreferenced object", "hung_task", "soft lockup", "stack-protector",
	"refcount_t:", "list_add corruption", "list_del corruption",
	"scheduling while atomic", "sleeping function called",
};

void kmsg_check(const char *mode, uint64_t step)
{
	char rec[2048];
	ssize_t n;

	if (kmsg_fd < 0)
		return;
	for (;;) {
		size_t i;
		char *msg;

		n = read(kmsg_fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			break;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		for (i = 0; i < sizeof(complaints) / sizeof(complaints[0]); i++) {
			if (strstr(msg, complaints[i])) {
				anomaly(mode, step, "kernel log: %.*s",
					(int)strcspn(msg, "\n"), msg);
				break;
			}
		}
	}
}
