/* SPDX-License-Identifier: MIT */
/*
 * One small file read whole, as adv-scan and adv-mix do it: openat,
 * fstat (newfstatat on the descriptor, as glibc's fstat() is), read,
 * close; plain, or queued into a batch with references to the openat.
 */
#ifndef ADVISE_FILES_H
#define ADVISE_FILES_H

#include <stdint.h>
#include <sys/stat.h>

#include "advise.h"

#define ADV_FILE_BYTES	4096

struct adv_file {
	char name[16];
	struct stat st;
	char buf[ADV_FILE_BYTES];
	int open, stat, read;	/* its entries, when queued */
};

/* The folder's N files f00000 ... of 100 B to 4 KiB. */
void adv_files_setup(const char *path, unsigned int n);
/* Open the folder (mode setup: create and fill it first). */
int adv_files_dir(const struct adv_args *a);
/* Name @f for file @i. */
void adv_file_name(struct adv_file *f, unsigned int i);
/* Read @f plain: its length read. */
long adv_file_plain(int dir, struct adv_file *f);
/* Queue @f's four calls into @b. */
void adv_file_queue(struct wsc_batch *b, int dir, struct adv_file *f);
/* Its length read, once @b ran. */
long adv_file_result(const struct wsc_batch *b, const struct adv_file *f);
/* The checksum of @f's size and bytes, continuing @sum, @passes over it. */
uint64_t adv_file_sum(const struct adv_file *f, long got, unsigned int passes,
		      uint64_t sum);

#endif /* ADVISE_FILES_H */
