/* SPDX-License-Identifier: MIT */
/*
 * calibration.c: reading the calibration file that `wsc trace --advise`
 * writes, for the break-even (WSC_BATCH_BREAK_EVEN); shared with the
 * unit tests, not exported by libwsc.so.
 */
#ifndef LIBWSC_CALIBRATION_H
#define LIBWSC_CALIBRATION_H

#include <stdbool.h>
#include <stddef.h>

#include "internal.h"

/* The file's format version that this library reads. */
#define WSC_CALIBRATION_VERSION		1
/* The largest break-even a calibration states (the batch's limit). */
#define WSC_CALIBRATION_MAX_N		1024
/* Where the system's calibrations live (else the user's cache). */
#define WSC_CALIBRATION_SYSTEM_DIR	"/var/lib/wsc"

/* What the library takes from a calibration file. */
struct wsc_calibration {
	unsigned int version;
	unsigned int break_even;	/* 0: no batch up to 1024 pays */
	bool has_break_even;
};

/*
 * Parse a calibration file's text: 0, or -EINVAL when it is not a
 * calibration of WSC_CALIBRATION_VERSION with a valid break_even.
 */
WSC_INTERNAL int wsc_calibration_parse(const char *text,
				       struct wsc_calibration *cal);
/*
 * The file this process reads: $WSC_CALIBRATION, else the system's or
 * the user's (Documentation/advise.md).  0, or -errno.
 */
WSC_INTERNAL int wsc_calibration_path(char *buf, size_t len);
/* Read and parse the file at @path: 0, or -errno. */
WSC_INTERNAL int wsc_calibration_load(const char *path,
				      struct wsc_calibration *cal);

#endif /* LIBWSC_CALIBRATION_H */
