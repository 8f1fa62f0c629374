// SPDX-License-Identifier: MIT
/*
 * wsc cp's scratch folder: the sources it copies, the destinations each run
 * leaves, and the byte-for-byte check that nothing was lost.  Nothing here
 * is timed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "common/interrupt.h"
#include "cp.h"

static const struct {
	unsigned long magic;
	const char *name;
} cp_fs_names[] = {
	{ 0xef53,     "ext4" },		/* ext2, ext3 and ext4 share it */
	{ 0x58465342, "xfs" },
	{ 0x9123683e, "btrfs" },
	{ 0x01021994, "tmpfs" },
	{ 0x794c7630, "overlay" },
	{ 0x01021997, "9p" },
	{ 0x6969,     "nfs" },
	{ 0x65735546, "fuse" },
};

static void cp_fs_name(struct cp_work *w)
{
	struct statfs sf;
	size_t i;

	snprintf(w->fstype, sizeof(w->fstype), "unknown");
	if (fstatfs(w->dirfd, &sf))
		return;
	snprintf(w->fstype, sizeof(w->fstype), "0x%lx",
		 (unsigned long)sf.f_type);
	for (i = 0; i < sizeof(cp_fs_names) / sizeof(cp_fs_names[0]); i++) {
		if ((unsigned long)sf.f_type == cp_fs_names[i].magic) {
			snprintf(w->fstype, sizeof(w->fstype), "%s",
				 cp_fs_names[i].name);
			break;
		}
	}
}

/**
 * cp_name() - the name of source or destination @i in the scratch folder
 * @w:   the work
 * @out: where to write it
 * @len: its size
 * @dst: the destination's name rather than the source's
 * @i:   transaction index, from 0; names count from 1 ("src-0001")
 */
void cp_name(const struct cp_work *w, char *out, size_t len, bool dst,
	     unsigned int i)
{
	snprintf(out, len, "%s-%0*u", dst ? "dst" : "src", (int)w->name_width,
		 i + 1);
}

/* Distinct contents per file, so that a copy of the wrong file shows. */
static void cp_fill(unsigned char *p, size_t len, unsigned int seed)
{
	uint64_t x = 0x9e3779b97f4a7c15ull * (seed + 1);
	size_t i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (unsigned char)x;
	}
}

static int cp_write_all(int fd, const unsigned char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int cp_make_sources(struct cp_work *w)
{
	char name[CP_NAME_LEN];
	unsigned int i;

	for (i = 0; i < w->n; i++) {
		const unsigned char *p = w->data + (size_t)i * w->size;
		int fd, ret;

		/* A signal stops the making too: thousands take seconds. */
		if (interrupted())
			return -EINTR;
		cp_name(w, name, sizeof(name), false, i);
		fd = openat(w->dirfd, name, O_WRONLY | O_CREAT | O_EXCL |
			    O_CLOEXEC, 0644);
		if (fd < 0) {
			ret = -errno;
			goto report;
		}
		ret = cp_write_all(fd, p, w->size);
		if (close(fd) && !ret)
			ret = -errno;
		if (ret)
			goto report;
		continue;
report:
		fprintf(stderr, "wsc cp: cannot write the source %s/%s: %s\n",
			w->dir, name, strerror(-ret));
		return ret;
	}
	if (w->fault == CP_FAULT_MISSING_SOURCE) {
		cp_name(w, name, sizeof(name), false, w->fault_txn);
		if (unlinkat(w->dirfd, name, 0))
			return -errno;
	}
	/* The programs start with the sources on disk, as cp would. */
	return syncfs(w->dirfd) ? -errno : 0;
}

static void cp_files_free(struct cp_work *w)
{
	free(w->data);
	free(w->buf);
	free(w->txn);
	free(w->ent);
	free(w->names);
	free(w->dir);
	w->data = w->buf = NULL;
	w->txn = NULL;
	w->ent = NULL;
	w->names = NULL;
	w->dir = NULL;
}

/**
 * cp_files_setup() - make the scratch folder and the sources
 * @w:      the work, with @n, @size and any fault set
 * @parent: the folder to make it in
 *
 * Return: 0, or -errno after printing what failed (nothing is left
 * behind then).
 */
int cp_files_setup(struct cp_work *w, const char *parent)
{
	size_t total = (size_t)w->n * w->size;
	unsigned int i;
	int ret;

	w->dirfd = -1;
	for (w->name_width = 4, i = w->n; i >= 10000; i /= 10)
		w->name_width++;
	w->data = malloc(total);
	w->buf = malloc(total);
	w->txn = calloc(w->n, sizeof(*w->txn));
	w->ent = calloc(2 * (size_t)w->n, sizeof(*w->ent));
	w->names = calloc(2 * (size_t)w->n, CP_NAME_LEN);
	if (asprintf(&w->dir, "%s/wsc-cp.XXXXXX", parent) < 0)
		w->dir = NULL;
	if (!w->data || !w->buf || !w->txn || !w->ent || !w->names || !w->dir) {
		fprintf(stderr, "wsc cp: out of memory for %u files of %zu bytes\n",
			w->n, w->size);
		ret = -ENOMEM;
		goto free_memory;
	}
	if (!mkdtemp(w->dir)) {
		ret = -errno;
		fprintf(stderr, "wsc cp: cannot make a folder in %s: %s\n",
			parent, strerror(errno));
		goto free_memory;
	}
	w->dirfd = open(w->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->dirfd < 0) {
		ret = -errno;
		goto remove_dir;
	}
	cp_fs_name(w);
	for (i = 0; i < w->n; i++) {
		cp_name(w, w->names + 2 * (size_t)i * CP_NAME_LEN, CP_NAME_LEN,
			false, i);
		cp_name(w, w->names + (2 * (size_t)i + 1) * CP_NAME_LEN,
			CP_NAME_LEN, true, i);
		cp_fill(w->data + (size_t)i * w->size, w->size, i);
	}
	/* The buffers are touched once here, not in the first timed run. */
	memset(w->buf, 0, total);
	ret = cp_make_sources(w);
	if (ret)
		goto remove_dir;
	return 0;

remove_dir:
	cp_files_teardown(w, false);
	return ret;
free_memory:
	cp_files_free(w);
	return ret;
}

/* Remove destination @i, whatever it is (a fault makes it a folder). */
static void cp_remove_dst(struct cp_work *w, unsigned int i)
{
	char name[CP_NAME_LEN];

	cp_name(w, name, sizeof(name), true, i);
	if (unlinkat(w->dirfd, name, 0) && errno == EISDIR)
		unlinkat(w->dirfd, name, AT_REMOVEDIR);
}

/**
 * cp_remove_copies() - remove every destination of the last run
 * @w: the work
 */
void cp_remove_copies(struct cp_work *w)
{
	unsigned int i;

	for (i = 0; i < w->n; i++)
		cp_remove_dst(w, i);
}

/**
 * cp_files_teardown() - close the folder; remove it unless @keep
 * @w:    the work
 * @keep: leave the folder and its files (--keep)
 */
void cp_files_teardown(struct cp_work *w, bool keep)
{
	char name[CP_NAME_LEN];
	unsigned int i;

	if (w->dirfd >= 0 && !keep) {
		for (i = 0; i < w->n; i++) {
			cp_name(w, name, sizeof(name), false, i);
			unlinkat(w->dirfd, name, 0);
			cp_remove_dst(w, i);
		}
	}
	if (w->dirfd >= 0)
		close(w->dirfd);
	w->dirfd = -1;
	if (w->dir && !keep && rmdir(w->dir))
		fprintf(stderr, "wsc cp: cannot remove %s: %s\n", w->dir,
			strerror(errno));
	cp_files_free(w);
}

/**
 * cp_files_reset() - prepare for a run: no destinations, clean state
 * @w: the work
 *
 * Removes every destination, makes the injected fault, forgets the last
 * run's transactions and writes back what the last run dirtied, so that
 * one program's writeback does not land in the next one's time.
 *
 * Return: 0 or -errno.
 */
int cp_files_reset(struct cp_work *w)
{
	unsigned int i;

	for (i = 0; i < w->n; i++) {
		cp_remove_dst(w, i);
		w->txn[i] = (struct cp_txn){ .src_fd = -1, .dst_fd = -1,
					     .short_count = -1 };
	}
	if (w->fault == CP_FAULT_UNWRITABLE_DEST) {
		char name[CP_NAME_LEN];

		cp_name(w, name, sizeof(name), true, w->fault_txn);
		if (mkdirat(w->dirfd, name, 0755))
			return -errno;
	}
	return syncfs(w->dirfd) ? -errno : 0;
}

/**
 * cp_check_cold() - whether this process may drop the page cache
 * @why: the reason when it may not
 * @len: size of @why
 *
 * Return: 0 or -errno.
 */
int cp_check_cold(char *why, size_t len)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);

	if (fd < 0) {
		int err = errno;

		snprintf(why, len, "--cold drops the page cache through "
			 "/proc/sys/vm/drop_caches, which needs root: %s",
			 strerror(err));
		return -err;
	}
	close(fd);
	return 0;
}

/**
 * cp_drop_caches() - write everything back, then drop clean caches
 * @w:   the work
 * @why: the reason on failure
 * @len: size of @why
 *
 * Return: 0 or -errno.
 */
int cp_drop_caches(const struct cp_work *w, char *why, size_t len)
{
	int fd, ret = 0;

	if (syncfs(w->dirfd)) {
		snprintf(why, len, "syncfs: %s", strerror(errno));
		return -errno;
	}
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3\n", 2) != 2) {
		ret = -errno;
		snprintf(why, len, "/proc/sys/vm/drop_caches: %s",
			 strerror(errno));
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

/* Read all of @name, at most @cap bytes, into @p; return the count. */
static int64_t cp_read_file(int dirfd, const char *name, unsigned char *p,
			    size_t cap)
{
	size_t got = 0;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (got < cap) {
		ssize_t n = read(fd, p + got, cap - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			close(fd);
			return -err;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	close(fd);
	return (int64_t)got;
}

/**
 * cp_verify() - compare every copy a run claims with what its source holds
 * @w:   the work, after a run
 * @p:   the program that ran, for the report
 * @err: where to name each file that differs
 *
 * A transaction that reported no error claims its copy; a failed one
 * claims nothing, and its destination is removed (no partial file left
 * to look like a copy).
 *
 * Return: the number of claimed copies that differ from their source.
 */
unsigned int cp_verify(struct cp_work *w, enum cp_program p, FILE *err)
{
	unsigned char *back = malloc(w->size + 1);
	unsigned int i, bad = 0;
	char name[CP_NAME_LEN];

	for (i = 0; i < w->n; i++) {
		const unsigned char *want = w->data + (size_t)i * w->size;
		int64_t got;

		if (w->txn[i].err)
			continue;
		cp_name(w, name, sizeof(name), true, i);
		if (!back) {
			fprintf(err, "wsc cp: %s: %s: cannot check: out of memory\n",
				cp_program_names[p], name);
			bad++;
			continue;
		}
		/* One byte more than the source, to see a longer copy. */
		got = cp_read_file(w->dirfd, name, back, w->size + 1);
		if (got < 0) {
			fprintf(err, "wsc cp: %s: %s/%s: cannot read the copy back: %s\n",
				cp_program_names[p], w->dir, name,
				strerror((int)-got));
			bad++;
		} else if ((size_t)got != w->size) {
			fprintf(err, "wsc cp: %s: %s/%s: %" PRId64 " bytes, its source has %zu\n",
				cp_program_names[p], w->dir, name, got,
				w->size);
			bad++;
		} else if (memcmp(back, want, w->size)) {
			size_t k = 0;

			while (back[k] == want[k])
				k++;
			fprintf(err, "wsc cp: %s: %s/%s differs from its source at byte %zu\n",
				cp_program_names[p], w->dir, name, k);
			bad++;
		}
	}
	free(back);
	cp_discard_failed(w);
	return bad;
}

/**
 * cp_discard_failed() - remove what failed transactions left behind
 * @w: the work, after a run
 *
 * A failed write can leave a file of the right name holding part of the
 * data; it is removed so that nothing in the folder looks like a copy
 * that is not one.  An injected folder stays until the next reset.
 */
void cp_discard_failed(struct cp_work *w)
{
	char name[CP_NAME_LEN];
	unsigned int i;

	for (i = 0; i < w->n; i++) {
		if (!w->txn[i].err)
			continue;
		cp_name(w, name, sizeof(name), true, i);
		unlinkat(w->dirfd, name, 0);
	}
}
