// SPDX-License-Identifier: MIT
/*
 * One small file read whole, plain or batched (advise_files.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "advise_files.h"

void adv_file_name(struct adv_file *f, unsigned int i)
{
	snprintf(f->name, sizeof(f->name), "f%05u", i);
}

void adv_files_setup(const char *path, unsigned int n)
{
	static struct adv_file f;
	unsigned int i;
	int dir, fd;
	size_t len;

	mkdir(path, 0755);
	dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		adv_die(path, errno);
	for (i = 0; i < n; i++) {
		adv_file_name(&f, i);
		/* 100 B to 4 KiB: several sizes, each read whole. */
		len = 100 + (i * 997u) % (ADV_FILE_BYTES - 100);
		memset(f.buf, 'a' + i % 26, len);
		fd = openat(dir, f.name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || write(fd, f.buf, len) != (ssize_t)len || close(fd))
			adv_die(f.name, errno);
	}
	close(dir);
}

int adv_files_dir(const struct adv_args *a)
{
	int dir;

	if (a->mode == ADV_SETUP)
		adv_files_setup(a->path, a->n);
	dir = open(a->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		adv_die(a->path, errno);
	return dir;
}

long adv_file_plain(int dir, struct adv_file *f)
{
	ssize_t got;
	int fd;

	fd = openat(dir, f->name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		adv_die(f->name, errno);
	if (fstat(fd, &f->st))
		adv_die("fstat", errno);
	got = read(fd, f->buf, sizeof(f->buf));
	if (got < 0)
		adv_die("read", errno);
	close(fd);
	return got;
}

void adv_file_queue(struct wsc_batch *b, int dir, struct adv_file *f)
{
	int close_e;

	f->open = wsc_prep_openat(b, dir, f->name, O_RDONLY | O_CLOEXEC, 0);
	f->stat = wsc_prep_newfstatat(b, 0, "", &f->st, AT_EMPTY_PATH);
	f->read = wsc_prep_read(b, 0, f->buf, sizeof(f->buf));
	close_e = wsc_prep_close(b, 0);
	if (f->open < 0 || f->stat < 0 || f->read < 0 || close_e < 0 ||
	    wsc_entry_ref(b, f->stat, 0, f->open) ||
	    wsc_entry_ref(b, f->read, 0, f->open) ||
	    wsc_entry_ref(b, close_e, 0, f->open))
		adv_die("wsc_prep", EINVAL);
	/* Each file a chain of its own: one failing stops only its calls. */
	wsc_entry_set_flags(b, f->open, WSC_ENTRY_NEW_CHAIN);
}

long adv_file_result(const struct wsc_batch *b, const struct adv_file *f)
{
	int64_t got;

	if (wsc_batch_result(b, f->stat) < 0)
		adv_die(f->name, wsc_batch_result(b, f->open));
	got = wsc_batch_result(b, f->read);
	if (got < 0)
		adv_die("read", got);
	return (long)got;
}

uint64_t adv_file_sum(const struct adv_file *f, long got, unsigned int passes,
		      uint64_t sum)
{
	return adv_checksum(f->buf, got > 0 ? (size_t)got : 0, passes,
			    sum + (uint64_t)f->st.st_size);
}
