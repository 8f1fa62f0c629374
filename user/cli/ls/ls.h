/* SPDX-License-Identifier: MIT */
/*
 * wsc ls: one folder listed like `LC_ALL=C ls -l --time-style=long-iso`,
 * its stat calls made as one wrapped batch or as a loop of fstatat(), and
 * the comparison of the two with the system's ls (the DMSM paper timed ls
 * over 5 and 408 files; Documentation/papers.md).
 *
 *   ls_dir.c      read the names, sort them, stat them (wsc or a loop)
 *   ls_format.c   the listing's text, into a memory buffer
 *   ls_system.c   the system ls as a child process; listings that agree
 *   ls_compare.c  wsc ls --compare: folders, timing, report
 *   cmd_ls.c      the command line
 */
#ifndef WSC_LS_H
#define WSC_LS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct wsc_batch;

/* How the stat calls of a long listing are made. */
enum ls_how {
	LS_WSC,			/* one libwsc batch of newfstatat entries */
	LS_CONVENTIONAL,	/* a loop of fstatat() */
};

/**
 * struct ls_buf - a growing text buffer
 * @p:   the text, not NUL-terminated
 * @len: bytes used
 * @cap: bytes allocated
 * @oom: an allocation failed: the text is incomplete
 *
 * A listing is formatted here rather than printed, so that the timed runs
 * of --compare do the same work as a printing one without the terminal's
 * cost, and so that two listings can be compared byte for byte.
 */
struct ls_buf {
	char *p;
	size_t len;
	size_t cap;
	bool oom;
};

/* Room for @need more bytes at @p + @len; false (and @oom) if none. */
bool ls_buf_reserve(struct ls_buf *b, size_t need);
void ls_buf_printf(struct ls_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ls_buf_put(struct ls_buf *b, const char *s, size_t n);
void ls_buf_free(struct ls_buf *b);

/**
 * struct ls_entry - one name of the folder
 * @name: the name (in &ls_dir.pool)
 * @off:  where it starts in the pool while the pool may still move
 * @st:   what newfstatat(AT_SYMLINK_NOFOLLOW) returned, when @err is 0
 * @err:  0, or the errno of its stat call
 */
struct ls_entry {
	const char *name;
	size_t off;
	struct stat st;
	int err;
};

/**
 * struct ls_dir - a folder being listed; kept between listings so that
 * repeated runs reuse their memory
 * @path:   the folder as given
 * @fd:     its O_RDONLY | O_DIRECTORY descriptor, or -1
 * @ent:    the names, sorted bytewise after ls_dir_read()
 * @n:      how many
 * @cap:    entries allocated
 * @pool:   every name, NUL-terminated, one after the other
 * @pool_len: bytes used in @pool
 * @pool_cap: bytes allocated
 *
 * Start from LS_DIR_INIT: no descriptor open, nothing allocated.
 */
struct ls_dir {
	const char *path;
	int fd;
	struct ls_entry *ent;
	size_t n;
	size_t cap;
	char *pool;
	size_t pool_len;
	size_t pool_cap;
};

#define LS_DIR_INIT	{ .fd = -1 }

/*
 * Reporting: the functions below print their own "wsc ls: ..." message
 * to stderr when they fail, since only they know what failed.
 */

/**
 * ls_dir_read() - open @path and read its names, sorted
 * @d:    LS_DIR_INIT, or the ls_dir of an earlier listing (reused)
 * @path: the folder
 *
 * getdents64() on an O_RDONLY | O_DIRECTORY descriptor, names starting
 * with '.' left out as ls does, then sorted with strcmp(): LC_ALL=C's
 * order.  The descriptor stays open for ls_dir_stat(); ls_dir_close()
 * closes it.
 *
 * Return: 0, or -errno (reported, naming @path).
 */
int ls_dir_read(struct ls_dir *d, const char *path);

/**
 * ls_dir_stat() - stat every name of @d, relative to its descriptor
 * @d: a folder read by ls_dir_read()
 * @b: a batch from ls_wsc_open(): the stat calls become newfstatat
 *     entries, each flagged WSC_ENTRY_NEW_CHAIN so that a name gone
 *     meanwhile fails alone, submitted once (libwsc cuts them into ioctls
 *     of 1024); or NULL: a loop of fstatat()
 *
 * An entry's failure is left in its &ls_entry.err; ls_dir_report()
 * prints them.
 *
 * Return: how many entries failed, or -errno when the batch itself could
 * not be run (reported).
 */
int ls_dir_stat(struct ls_dir *d, struct wsc_batch *b);

/* Print "cannot access" for every entry whose stat failed; how many. */
size_t ls_dir_report(const struct ls_dir *d);

void ls_dir_close(struct ls_dir *d);
void ls_dir_free(struct ls_dir *d);

/*
 * A batch on /dev/wsc, never the conventional fallback: 0, or -errno
 * (reported; without the module, says so and suggests --conventional).
 */
int ls_wsc_open(struct wsc_batch **b);
/* Whether wsc ls can batch here: ls_wsc_open() and close again. */
int ls_wsc_probe(void);

/**
 * ls_format_long() - @d as `LC_ALL=C ls -l --time-style=long-iso` prints it
 * @d:   a folder read and stat'ed; entries whose stat failed are left out
 * @out: appended to
 *
 * "total N" in 1 KiB blocks, then per name the mode string, links, owner,
 * group, size (or "major, minor"), mtime in local time, the name, and
 * " -> target" for a symlink (readlinkat(), conventionally); numbers
 * right-aligned and names left-aligned to the widest, as ls does.
 * Owner and group names are looked up once per process.
 */
void ls_format_long(const struct ls_dir *d, struct ls_buf *out);

/* One name per line: `LC_ALL=C ls -1`. */
void ls_format_names(const struct ls_dir *d, struct ls_buf *out);

/**
 * ls_list() - one whole listing: read, sort, stat, format, close
 * @d:       reused between listings
 * @path:    the folder
 * @how:     how to make the stat calls (long listings only)
 * @long_fmt: ls -l, or names only (no stat call at all)
 * @out:     emptied, then the listing
 * @stat_ns: when not NULL, the time ls_dir_stat() took: the calls, not
 *           the opening of /dev/wsc, which the whole listing's time holds
 *
 * Return: how many entries could not be stat'ed (reported), or -errno
 * when nothing could be listed (reported).
 */
int ls_list(struct ls_dir *d, const char *path, enum ls_how how,
	    bool long_fmt, struct ls_buf *out, uint64_t *stat_ns);

/**
 * struct ls_system - the system's ls, found once before anything is timed
 * @path: its absolute path, found on $PATH
 * @envp: the environment it runs with: LC_ALL=C, and TZ when set, so
 *        that its times are in the same zone as ours and nothing else of
 *        ours (LS_BLOCK_SIZE, POSIXLY_CORRECT, ...) changes its output
 */
struct ls_system {
	char path[4096];
	char *envp[3];
};

/* Find ls on $PATH: 0, or -ENOENT (reported). */
int ls_system_find(struct ls_system *s);
void ls_system_free(struct ls_system *s);

/**
 * ls_system_run() - `ls -l --time-style=long-iso DIR` as a whole process
 * @s:   from ls_system_find()
 * @dir: the folder
 * @out: emptied, then what the child wrote to its stdout (a pipe)
 *
 * fork(), execve() in the child, the parent drains the pipe and reaps the
 * child with waitpid(): a caller timing this call times a whole ls.
 *
 * Return: 0 when ls exited with status 0, else -1 (reported).
 */
int ls_system_run(const struct ls_system *s, const char *dir,
		  struct ls_buf *out);

/**
 * ls_agree() - whether two listings say the same
 * @a, @b:  the listings
 * @fields: compare line by line the whitespace-separated fields (column
 *          widths may differ), else byte for byte
 *
 * Return: 0 when they agree, else the number (from 1) of the first line
 * that differs, or that one of them lacks.
 */
size_t ls_agree(const struct ls_buf *a, const struct ls_buf *b, bool fields);

/* Print line @nr (from 1) of @b after @label, "(none)" past its end. */
void ls_print_line(const char *label, const struct ls_buf *b, size_t nr);

/**
 * struct ls_compare_opts - what wsc ls --compare was asked
 * @reps:    timed rounds, after one untimed warm-up round
 * @json:    one JSON object instead of the tables
 * @csv:     --csv FILE, or NULL
 * @scratch: where the folders are made (no @dirs), or NULL for $TMPDIR
 *           or /tmp
 * @keep:    leave the folders made there
 * @dirs:    the folders to list, or NULL to make two of 5 and 408 files
 * @nr_dirs: how many
 */
struct ls_compare_opts {
	unsigned int reps;
	bool json;
	const char *csv;
	const char *scratch;
	bool keep;
	char **dirs;
	unsigned int nr_dirs;
};

#define LS_DEFAULT_REPS	11
#define LS_MAX_REPS	10000

/* wsc ls --compare; the command's exit code. */
int ls_compare(const struct ls_compare_opts *o);

#endif /* WSC_LS_H */
