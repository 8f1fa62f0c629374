// SPDX-License-Identifier: MIT
/*
 * wsc ls: the listing's text, as GNU `LC_ALL=C ls -l --time-style=long-iso`
 * prints it to a pipe (names unquoted), into a memory buffer.  Both ways
 * of stat-ing run this same code, so their listings must be identical.
 */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "ls.h"

bool ls_buf_reserve(struct ls_buf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *p;

	if (b->oom)
		return false;
	if (b->cap - b->len >= need)
		return true;
	while (cap - b->len < need)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void ls_buf_put(struct ls_buf *b, const char *s, size_t n)
{
	if (!ls_buf_reserve(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

void ls_buf_printf(struct ls_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* Most fields fit in what is left: format once, in place. */
	if (!ls_buf_reserve(b, 256))
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = true;
		return;
	}
	if ((size_t)n >= b->cap - b->len) {
		if (!ls_buf_reserve(b, (size_t)n + 1))
			return;
		va_start(ap, fmt);
		vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

void ls_buf_free(struct ls_buf *b)
{
	free(b->p);
	*b = (struct ls_buf){ NULL };
}

/*
 * Owner and group names, looked up once per process as ls looks them up
 * once per run: the timed listings then differ only in how they stat.
 * NULL when the id has no name (printed as a number, as ls does).
 */
struct ls_idname {
	unsigned int id;
	char *name;
};

struct ls_idcache {
	struct ls_idname *v;
	size_t n;
	size_t cap;
};

static struct ls_idcache ls_users, ls_groups;

static const char *ls_idcache_get(struct ls_idcache *c, unsigned int id,
				  bool user)
{
	const char *name = NULL;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->v[i].id == id)
			return c->v[i].name;
	if (user) {
		struct passwd *pw = getpwuid(id);

		if (pw)
			name = pw->pw_name;
	} else {
		struct group *gr = getgrgid(id);

		if (gr)
			name = gr->gr_name;
	}
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;
		struct ls_idname *v = realloc(c->v, cap * sizeof(*v));

		if (!v)
			return name;	/* uncached, still right */
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n].id = id;
	c->v[c->n].name = name ? strdup(name) : NULL;
	if (name && !c->v[c->n].name)
		return name;
	return c->v[c->n++].name;
}

static char ls_type_char(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFREG:	return '-';
	case S_IFDIR:	return 'd';
	case S_IFLNK:	return 'l';
	case S_IFCHR:	return 'c';
	case S_IFBLK:	return 'b';
	case S_IFIFO:	return 'p';
	case S_IFSOCK:	return 's';
	default:	return '?';
	}
}

/* "drwxr-sr-t": type, then rwx thrice with set-id and sticky bits. */
static void ls_mode_string(mode_t m, char s[11])
{
	/*
	 * Per class (user, group, other): its read, write and execute bits,
	 * the special bit shown in the execute place, and how it shows
	 * with and without execute.
	 */
	static const struct {
		mode_t r, w, x, special;
		char with_x, without_x;
	} cls[3] = {
		{ S_IRUSR, S_IWUSR, S_IXUSR, S_ISUID, 's', 'S' },
		{ S_IRGRP, S_IWGRP, S_IXGRP, S_ISGID, 's', 'S' },
		{ S_IROTH, S_IWOTH, S_IXOTH, S_ISVTX, 't', 'T' },
	};
	unsigned int i;
	char *p;

	s[0] = ls_type_char(m);
	for (i = 0; i < 3; i++) {
		p = s + 1 + 3 * i;
		p[0] = m & cls[i].r ? 'r' : '-';
		p[1] = m & cls[i].w ? 'w' : '-';
		if (m & cls[i].special)
			p[2] = m & cls[i].x ? cls[i].with_x : cls[i].without_x;
		else
			p[2] = m & cls[i].x ? 'x' : '-';
	}
	s[10] = '\0';
}

static int ls_digits(unsigned long long v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static bool ls_is_dev(const struct stat *st)
{
	return S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode);
}

/* Column widths: the widest value of each, as ls measures them. */
struct ls_widths {
	int nlink;
	int owner;
	int group;
	int size;
	int major;
	int minor;
};

static int ls_id_width(const char *name, unsigned int id)
{
	return name ? (int)strlen(name) : ls_digits(id);
}

#define LS_MAX(a, b)	((a) > (b) ? (a) : (b))

static void ls_measure(const struct ls_dir *d, struct ls_widths *w,
		       unsigned long long *blocks)
{
	size_t i;

	*w = (struct ls_widths){ 0 };
	*blocks = 0;
	for (i = 0; i < d->n; i++) {
		const struct ls_entry *e = &d->ent[i];
		const struct stat *st = &e->st;

		if (e->err)
			continue;
		*blocks += (unsigned long long)st->st_blocks;
		w->nlink = LS_MAX(w->nlink, ls_digits(st->st_nlink));
		w->owner = LS_MAX(w->owner, ls_id_width(
			ls_idcache_get(&ls_users, st->st_uid, true), st->st_uid));
		w->group = LS_MAX(w->group, ls_id_width(
			ls_idcache_get(&ls_groups, st->st_gid, false), st->st_gid));
		if (ls_is_dev(st)) {
			w->major = LS_MAX(w->major, ls_digits(major(st->st_rdev)));
			w->minor = LS_MAX(w->minor, ls_digits(minor(st->st_rdev)));
			w->size = LS_MAX(w->size, w->major + 2 + w->minor);
		} else {
			w->size = LS_MAX(w->size,
					 ls_digits((unsigned long long)st->st_size));
		}
	}
}

/* A name left-aligned, a number (no name) right-aligned: ls's rule. */
static void ls_put_id(struct ls_buf *out, const char *name, unsigned int id,
		      int width)
{
	if (name)
		ls_buf_printf(out, "%-*s ", width, name);
	else
		ls_buf_printf(out, "%*u ", width, id);
}

static void ls_put_size(struct ls_buf *out, const struct stat *st,
			const struct ls_widths *w)
{
	if (ls_is_dev(st)) {
		/* The major number takes whatever the widest size leaves. */
		int blanks = w->size - (w->major + 2 + w->minor);

		ls_buf_printf(out, "%*u, %*u ", w->major + LS_MAX(0, blanks),
			      major(st->st_rdev), w->minor, minor(st->st_rdev));
	} else {
		ls_buf_printf(out, "%*llu ", w->size,
			      (unsigned long long)st->st_size);
	}
}

/*
 * "YYYY-MM-DD HH:MM ", the last one kept: the files of a folder were often
 * written within a minute, and the timed listings should spend their time
 * on what ls must do, not on formatting one minute 408 times.
 */
struct ls_when {
	time_t minute;		/* t / 60 of the text below, or -1 */
	char text[64];
	size_t len;
};

static void ls_put_time(struct ls_buf *out, struct ls_when *w, time_t t)
{
	struct tm tm;

	if (w->minute != -1 && t >= 0 && t / 60 == w->minute) {
		ls_buf_put(out, w->text, w->len);
		return;
	}
	w->minute = -1;
	if (!localtime_r(&t, &tm) ||
	    !strftime(w->text, sizeof(w->text) - 1, "%Y-%m-%d %H:%M", &tm)) {
		ls_buf_printf(out, "%lld ", (long long)t);
		return;
	}
	w->len = strlen(w->text);
	w->text[w->len++] = ' ';
	ls_buf_put(out, w->text, w->len);
	/*
	 * Reusable for the whole UTC minute only when the zone is a whole
	 * number of minutes off UTC (offsets change on minute boundaries).
	 */
	if (t >= 0 && tm.tm_sec == t % 60)
		w->minute = t / 60;
}

static void ls_put_link(struct ls_buf *out, const struct ls_dir *d,
			const char *name)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(d->fd, name, target, sizeof(target));

	/* ls too shows a link it cannot read without its target. */
	if (n < 0) {
		fprintf(stderr, "wsc ls: cannot read symbolic link '%s': %s\n",
			name, strerror(errno));
		return;
	}
	ls_buf_put(out, " -> ", 4);
	ls_buf_put(out, target, (size_t)n);
}

void ls_format_long(const struct ls_dir *d, struct ls_buf *out)
{
	struct ls_when when = { .minute = -1 };
	unsigned long long blocks;
	struct ls_widths w;
	char mode[11];
	size_t i;

	ls_measure(d, &w, &blocks);
	/* st_blocks counts 512-byte units; ls rounds the KiB up. */
	ls_buf_printf(out, "total %llu\n", (blocks + 1) / 2);
	for (i = 0; i < d->n; i++) {
		const struct ls_entry *e = &d->ent[i];
		const struct stat *st = &e->st;

		if (e->err)
			continue;
		ls_mode_string(st->st_mode, mode);
		ls_buf_printf(out, "%s %*llu ", mode, w.nlink,
			      (unsigned long long)st->st_nlink);
		ls_put_id(out, ls_idcache_get(&ls_users, st->st_uid, true),
			  st->st_uid, w.owner);
		ls_put_id(out, ls_idcache_get(&ls_groups, st->st_gid, false),
			  st->st_gid, w.group);
		ls_put_size(out, st, &w);
		ls_put_time(out, &when, st->st_mtime);
		ls_buf_put(out, e->name, strlen(e->name));
		if (S_ISLNK(st->st_mode))
			ls_put_link(out, d, e->name);
		ls_buf_put(out, "\n", 1);
	}
}

void ls_format_names(const struct ls_dir *d, struct ls_buf *out)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		ls_buf_put(out, d->ent[i].name, strlen(d->ent[i].name));
		ls_buf_put(out, "\n", 1);
	}
}
