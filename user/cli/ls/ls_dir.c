// SPDX-License-Identifier: MIT
/*
 * wsc ls: a folder's names and their stat results.  The names come from a
 * plain getdents64() loop; the stat calls, one per name, are what batching
 * changes: one wrapped batch of newfstatat entries, or a loop of fstatat().
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/module_hint.h"
#include "libwsc.h"
#include "ls.h"

/* Big enough that a folder of a few hundred names takes one or two calls. */
#define LS_DENTS_BUF	32768

static int ls_dir_add(struct ls_dir *d, const char *name)
{
	size_t len = strlen(name) + 1;

	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;
		struct ls_entry *ent = realloc(d->ent, cap * sizeof(*ent));

		if (!ent)
			return -ENOMEM;
		d->ent = ent;
		d->cap = cap;
	}
	if (d->pool_cap - d->pool_len < len) {
		size_t cap = d->pool_cap ? 2 * d->pool_cap : 4096;
		char *pool;

		while (cap - d->pool_len < len)
			cap *= 2;
		pool = realloc(d->pool, cap);
		if (!pool)
			return -ENOMEM;
		d->pool = pool;
		d->pool_cap = cap;
	}
	memcpy(d->pool + d->pool_len, name, len);
	/* An offset: the pool may still move while names are added. */
	d->ent[d->n].off = d->pool_len;
	d->ent[d->n].err = 0;
	d->pool_len += len;
	d->n++;
	return 0;
}

static int ls_entry_cmp(const void *a, const void *b)
{
	const struct ls_entry *x = a, *y = b;

	return strcmp(x->name, y->name);
}

int ls_dir_read(struct ls_dir *d, const char *path)
{
	/* Aligned for the records getdents64() lays out; one listing at a time. */
	static char buf[LS_DENTS_BUF] __attribute__((aligned(8)));
	ssize_t len, pos;
	size_t i;
	int ret;

	ls_dir_close(d);
	d->path = path;
	d->n = 0;
	d->pool_len = 0;
	d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0) {
		ret = -errno;
		fprintf(stderr, "wsc ls: cannot open directory '%s': %s\n",
			path, strerror(-ret));
		return ret;
	}
	for (;;) {
		len = getdents64(d->fd, buf, sizeof(buf));
		if (len < 0 && errno == EINTR)
			continue;
		if (len <= 0)
			break;
		for (pos = 0; pos < len; ) {
			struct dirent64 *de = (struct dirent64 *)(buf + pos);

			pos += de->d_reclen;
			if (de->d_name[0] == '.')
				continue;
			ret = ls_dir_add(d, de->d_name);
			if (ret)
				goto fail;
		}
	}
	if (len < 0) {
		ret = -errno;
		goto fail;
	}
	for (i = 0; i < d->n; i++)
		d->ent[i].name = d->pool + d->ent[i].off;
	qsort(d->ent, d->n, sizeof(*d->ent), ls_entry_cmp);
	return 0;

fail:
	fprintf(stderr, "wsc ls: reading directory '%s': %s\n", path,
		strerror(-ret));
	ls_dir_close(d);
	return ret;
}

int ls_wsc_open(struct wsc_batch **b)
{
	/*
	 * No WSC_BATCH_FALLBACK: without the module this must fail, not
	 * quietly time the conventional runner under the name "wsc".
	 */
	int ret = wsc_batch_create(b, 0);

	if (ret)
		module_report("ls", ret, false);
	return ret;
}

int ls_wsc_probe(void)
{
	struct wsc_batch *b;
	int ret = ls_wsc_open(&b);

	if (!ret)
		wsc_batch_destroy(b);
	return ret;
}

static int ls_stat_wsc(struct ls_dir *d, struct wsc_batch *b)
{
	int ret, e, fails = 0;
	size_t i;

	/* Entries are numbered from 0 again: entry i is name i. */
	wsc_batch_reset(b);
	for (i = 0; i < d->n; i++) {
		struct ls_entry *ent = &d->ent[i];

		e = wsc_prep_newfstatat(b, d->fd, ent->name, &ent->st,
					AT_SYMLINK_NOFOLLOW);
		if (e < 0) {
			ret = e;
			goto fail;
		}
		/* Each stat is a chain of its own: one failure stops no other. */
		ret = wsc_entry_set_flags(b, e, WSC_ENTRY_NEW_CHAIN);
		if (ret)
			goto fail;
	}
	ret = wsc_batch_submit(b);
	if (ret < 0)
		goto fail;
	for (i = 0; i < d->n; i++) {
		int64_t r = wsc_batch_result(b, (unsigned int)i);

		d->ent[i].err = r < 0 ? (int)-r : 0;
		fails += r < 0;
	}
	return fails;

fail:
	fprintf(stderr, "wsc ls: the batch of %zu stat calls failed: %s\n",
		d->n, strerror(-ret));
	return ret;
}

static int ls_stat_conventional(struct ls_dir *d)
{
	int fails = 0;
	size_t i;

	for (i = 0; i < d->n; i++) {
		struct ls_entry *ent = &d->ent[i];

		ent->err = fstatat(d->fd, ent->name, &ent->st,
				   AT_SYMLINK_NOFOLLOW) ? errno : 0;
		fails += ent->err != 0;
	}
	return fails;
}

int ls_dir_stat(struct ls_dir *d, struct wsc_batch *b)
{
	return b ? ls_stat_wsc(d, b) : ls_stat_conventional(d);
}

size_t ls_dir_report(const struct ls_dir *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++) {
		if (!d->ent[i].err)
			continue;
		fprintf(stderr, "wsc ls: cannot access '%s': %s\n",
			d->ent[i].name, strerror(d->ent[i].err));
		n++;
	}
	return n;
}

void ls_dir_close(struct ls_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

void ls_dir_free(struct ls_dir *d)
{
	ls_dir_close(d);
	free(d->ent);
	free(d->pool);
	d->ent = NULL;
	d->pool = NULL;
	d->n = d->cap = d->pool_len = d->pool_cap = 0;
}

int ls_list(struct ls_dir *d, const char *path, enum ls_how how,
	    bool long_fmt, struct ls_buf *out, uint64_t *stat_ns)
{
	struct wsc_batch *b = NULL;
	uint64_t t0;
	int ret;

	out->len = 0;
	out->oom = false;
	/*
	 * A batch for each listing, as a wsc-aware ls would make one per
	 * run: opening /dev/wsc is part of the listing's cost, outside the
	 * stat phase, which times the calls themselves.
	 */
	if (long_fmt && how == LS_WSC) {
		ret = ls_wsc_open(&b);
		if (ret)
			return ret;
	}
	ret = ls_dir_read(d, path);
	if (ret)
		goto out_batch;
	if (long_fmt) {
		t0 = clock_now_ns();
		ret = ls_dir_stat(d, b);
		if (stat_ns)
			*stat_ns = clock_now_ns() - t0;
		if (ret < 0)
			goto out;
		ls_format_long(d, out);
	} else {
		ls_format_names(d, out);
	}
	if (out->oom) {
		fprintf(stderr, "wsc ls: no memory for the listing of '%s'\n",
			path);
		ret = -ENOMEM;
	}
out:
	ls_dir_close(d);
out_batch:
	if (b)
		wsc_batch_destroy(b);
	return ret;
}
