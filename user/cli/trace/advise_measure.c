// SPDX-License-Identifier: MIT
/*
 * wsc trace --advise: the calibration measured or reused.  Measured as
 * `wsc bench fit` measures its "nop" call (common/entry_fit.c): the plain
 * ENOSYS call for the entry, the wrapped no-op at six batch sizes for the
 * batch's line; only shorter (ADVISE_CALIB_ITERS calls per variant in
 * ADVISE_CALIB_ROUNDS rounds, against bench fit's 1000000 in 5), so that
 * the first --advise waits a second or two rather than a minute under
 * emulation.  Pinned to the CPU wsc runs on, then unpinned: the command
 * traced after inherits wsc's affinity.  Then the gap floor, the gap
 * between two calls back to back under a trace (advise_floor.c).
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "advise_calib.h"
#include "common/cpu.h"
#include "common/entry_fit.h"
#include "common/env.h"

/* The first line of @path into @buf, or "unknown". */
static void first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	if (!f || !fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0])
		snprintf(buf, len, "unknown");
	if (f)
		fclose(f);
}

/* What this run would write: kernel, machine, module. */
static int calib_identity(struct advise_calib *c)
{
	struct utsname u;

	if (uname(&u))
		return -errno;
	memset(c, 0, sizeof(*c));
	c->version = ADVISE_CALIB_VERSION;
	snprintf(c->kernel, sizeof(c->kernel), "%s", u.release);
	first_line("/etc/machine-id", c->machine, sizeof(c->machine));
	if (!env_module_version(c->module, sizeof(c->module)))
		snprintf(c->module, sizeof(c->module), "unknown");
	return advise_calib_path(u.release, c->path, sizeof(c->path));
}

/* The figures of @c measured now, on the CPU wsc runs on. */
static int calib_measure(struct advise_calib *c)
{
	static const struct fit_voice voice = { "trace", "calibration" };
	size_t nsamples = ADVISE_CALIB_ITERS / FIT_BLOCK / ADVISE_CALIB_ROUNDS;
	struct fit_result res;
	struct advise_costs *x = &c->costs;
	int cpu = sched_getcpu(), err;
	time_t now = time(NULL);
	cpu_set_t saved;
	struct tm tm;

	memset(&res, 0, sizeof(res));
	if (sched_getaffinity(0, sizeof(saved), &saved))
		return -errno;
	err = pin_to_cpu(cpu < 0 ? 0 : cpu);
	if (!err)
		err = fit_one(&fit_calls[FIT_CALL_NOP], nsamples,
			      ADVISE_CALIB_ROUNDS, &voice, &res);
	sched_setaffinity(0, sizeof(saved), &saved);
	if (!err) {
		x->entry_ns = res.v[V_SYSCALL].ns.median;
		x->batch_fixed_ns = res.fixed_ns.median;
		x->batch_per_call_ns = res.per_call_ns.median;
		if (!(x->entry_ns > 0) || !isfinite(x->batch_fixed_ns) ||
		    !(x->batch_per_call_ns >= 0))
			err = -ERANGE;
	}
	fit_result_free(&res);
	if (err)
		return err;
	/* A negative intercept is noise about a nearly free batch. */
	if (x->batch_fixed_ns < 0)
		x->batch_fixed_ns = 0;
	x->break_even = advise_break_even(x->entry_ns, x->batch_fixed_ns,
					  x->batch_per_call_ns);
	err = advise_gap_floor(&c->gap_floor_ns);
	if (err)
		return err;
	c->rounds = ADVISE_CALIB_ROUNDS;
	gmtime_r(&now, &tm);
	strftime(c->date, sizeof(c->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	c->fresh = true;
	return 0;
}

int advise_calibration(bool recalibrate, struct advise_calib *c)
{
	struct advise_calib stored;
	int err;

	err = calib_identity(c);
	if (err) {
		fprintf(stderr, "wsc trace: --advise: no place for the calibration: %s (set WSC_CALIBRATION)\n",
			strerror(-err));
		return -1;
	}
	if (!recalibrate && !advise_calib_load(c->path, &stored) &&
	    !strcmp(stored.kernel, c->kernel) &&
	    !strcmp(stored.module, c->module) &&
	    !strcmp(stored.machine, c->machine)) {
		*c = stored;
		return 0;
	}
	fprintf(stderr, "wsc trace: --advise: measuring what one kernel entry costs here (once per kernel and module)\n");
	err = calib_measure(c);
	if (err) {
		fprintf(stderr, "wsc trace: --advise: the calibration failed: %s\n",
			strerror(-err));
		return -1;
	}
	err = advise_calib_store(c);
	if (err)
		fprintf(stderr, "wsc trace: --advise: calibration not stored: %s: %s\n"
			"  (measured again next time; WSC_CALIBRATION=FILE keeps it where you can write)\n",
			c->path, strerror(-err));
	return 0;
}
