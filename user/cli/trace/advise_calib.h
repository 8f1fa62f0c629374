/* SPDX-License-Identifier: MIT */
/*
 * wsc trace --advise: the calibration, what one kernel entry costs on
 * this machine; its file (advise_calib.c) and its measuring or reuse
 * (advise_measure.c).
 */
#ifndef WSC_CLI_TRACE_ADVISE_CALIB_H
#define WSC_CLI_TRACE_ADVISE_CALIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "advise.h"

/* The file's format, its "version=" line. */
#define ADVISE_CALIB_VERSION	1

/* advise_calib.c */
/*
 * Where the calibration of kernel @release lives (the file's comment
 * says the rules).  0, -ENOENT (no HOME either) or -ENAMETOOLONG.
 */
int advise_calib_path(const char *release, char *buf, size_t len);
/*
 * A calibration file's text into @c (not its path).  0, or -EINVAL when
 * a line is not key=value, a value is bad, a key every file has is
 * missing, or the version is not ADVISE_CALIB_VERSION.
 */
int advise_calib_parse(FILE *f, struct advise_calib *c);
/* @path parsed into @c, c->path set.  0 or -errno. */
int advise_calib_load(const char *path, struct advise_calib *c);
/* @c as its file holds it. */
void advise_calib_format(FILE *f, const struct advise_calib *c);
/* @c into c->path, its folders made, atomically.  0 or -errno. */
int advise_calib_store(const struct advise_calib *c);

/* advise_floor.c: the gap floor measured now (ns).  0 or -errno. */
int advise_gap_floor(double *out);

/* advise_measure.c */
/* Calls per variant over all rounds, and the rounds, of a calibration. */
#define ADVISE_CALIB_ITERS	60000
#define ADVISE_CALIB_ROUNDS	3
/*
 * The calibration to use: the stored one when it matches this kernel,
 * module and machine and @recalibrate is false; else measured now (a
 * second or a few under emulation, said on stderr) and stored.  0, or -1
 * said.
 */
int advise_calibration(bool recalibrate, struct advise_calib *c);

#endif /* WSC_CLI_TRACE_ADVISE_CALIB_H */
