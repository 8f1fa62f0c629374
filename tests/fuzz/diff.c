// SPDX-License-Identifier: GPL-2.0
/*
 * Differential runs: a random batch of calls that are safe to run for
 * real, made once through /dev/wsc and once conventionally (syscall(2),
 * entry by entry, with the batch's chain and reference rules applied in
 * userspace), each from the same starting state, then compared result
 * by result and byte by byte.
 *
 * The state is rebuilt before each run rather than twinned: the same
 * files in a folder of the scratch directory, the same descriptors at the
 * same numbers (slots, from FDB up), the same memory at the same
 * addresses.  So even descriptor numbers and addresses that calls return
 * must agree.  What is compared after a run: the results, the data and
 * output memory (stat buffers with inode numbers and times zeroed), which
 * pages are readable and what they hold, every descriptor the run left
 * open (flags, offset, type), what the pipes and sockets still hold, every
 * file's type, size and content, and the signal mask.
 *
 * The calls only ever name the fuzzer's own objects: descriptors are
 * slots or results of earlier entries that opened one, paths are short
 * names relative to the run's folder, addresses lie in the fuzzer's own
 * mapping.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

#define PG		4096UL
#define FDB		700	/* the first slot's descriptor number */
#define NSLOT		12
#define DEVFD		690
#define MAXN		24	/* entries per batch */

/* The slots: what each descriptor number FDB + i holds at the start. */
enum {
	S_DIR, S_F0, S_F1, S_P0R, S_P0W, S_MEMFD, S_SK0, S_SK1, S_F0RO,
	S_NONE, S_P1R, S_P1W,
};
static const char *const slot_name[NSLOT] = {
	"dir", "f0 O_RDWR", "f1 O_RDWR|O_APPEND", "pipe0[0] O_NONBLOCK",
	"pipe0[1] O_NONBLOCK", "memfd", "socketpair[0] O_NONBLOCK",
	"socketpair[1] O_NONBLOCK", "f0 O_RDONLY", "(closed)", "pipe1[0] O_NONBLOCK",
	"pipe1[1] O_NONBLOCK",
};
/* Pipes and sockets: a close of theirs is observable later. */
static bool slot_is_stream(int s)
{
	return s == S_P0R || s == S_P0W || s == S_SK0 || s == S_SK1 ||
	       s == S_P1R || s == S_P1W;
}

/*
 * The memory, at one fixed address: data (2 pages, rw, compared), ctrl
 * (read-only: paths, iovecs, times, signal sets), out (rw: stat buffers,
 * pollfds, pipe2's descriptors, old signal sets), two pages for the
 * memory calls, and a guard.
 */
#define M_DATA		0
#define M_CTRL		(2 * PG)
#define M_OUT		(3 * PG)
#define M_MEM		(4 * PG)
#define M_PAGES		7
#define OUT_STAT	0	/* 4 struct stat, 256 bytes apart */
#define OUT_STATX	1024	/* 2 struct statx, 256 bytes apart */
#define OUT_PIPE	1536	/* 4 pairs of int */
#define OUT_SIGSET	1600	/* 4 sets of 8 bytes */
#define OUT_SIGACT	1664	/* one kernel struct sigaction */
#define OUT_POLL	1728	/* 8 struct pollfd */
#define CTRL_NAMES	0	/* NNAMES names of 16 bytes */
#define CTRL_IOV	512	/* 4 struct iovec */
#define CTRL_TS0	640	/* timespec { 0, 0 } */
#define CTRL_TS1	656	/* timespec { 0, 1000 } */
#define CTRL_SIGSET	672	/* SIGUSR1 | SIGUSR2 */
#define CTRL_MSG	704	/* struct msghdr for sendmsg and recvmsg */
#define CTRL_MSG_IOV	768	/* its iovec, into data */
static char *mem;

static const char *const names[] = {
	"f0", "f1", "n0", "n1", "d0", "d0/f2", "d1", "", "f0/x", "d0/n2",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

static char dirpath[PATH_MAX], runpath[PATH_MAX + 8];
static int devfd = -1;
static bool baseline[1024];

struct call {
	uint32_t nr;
	uint8_t fd_args;	/* bit k: argument k is a descriptor */
	bool returns_fd;
};

/* ---- The starting state -------------------------------------------- */

static void die(const char *what)
{
	fprintf(stderr, "wsc-fuzz: diff: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void put_at(int fd, int slot)
{
	if (fd < 0)
		die(slot_name[slot]);
	if (dup2(fd, FDB + slot) < 0)
		die("dup2");
	close(fd);
}

static void write_file(const char *path, size_t len, int seed)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	char buf[512];
	size_t i;

	if (fd < 0)
		die(path);
	for (i = 0; i < len; i++)
		buf[i] = 'a' + (i * 7 + seed) % 26;
	if (write(fd, buf, len) != (ssize_t)len)
		die("write");
	close(fd);
}

static void state_setup(void)
{
	int p[2], sv[2], fd;
	char *m;
	size_t i;

	if (mkdir(runpath, 0755) || chdir(runpath))
		die(runpath);
	write_file("f0", 300, 1);
	write_file("f1", 0, 2);
	if (mkdir("d0", 0755))
		die("mkdir d0");
	write_file("d0/f2", 50, 3);

	put_at(open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), S_DIR);
	put_at(open("f0", O_RDWR | O_CLOEXEC), S_F0);
	put_at(open("f1", O_RDWR | O_APPEND | O_CLOEXEC), S_F1);
	if (pipe2(p, O_NONBLOCK | O_CLOEXEC))
		die("pipe2");
	if (write(p[1], "pipe0 holds this", 16) != 16)
		die("write");
	put_at(p[0], S_P0R);
	put_at(p[1], S_P0W);
	fd = memfd_create("wsc-fuzz", MFD_CLOEXEC);
	if (fd < 0 || write(fd, "memfd content", 13) != 13)
		die("memfd");
	put_at(fd, S_MEMFD);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv))
		die("socketpair");
	put_at(sv[0], S_SK0);
	put_at(sv[1], S_SK1);
	put_at(open("f0", O_RDONLY | O_CLOEXEC), S_F0RO);
	/* Every stream non-blocking: a read of an empty one must not hang. */
	if (pipe2(p, O_NONBLOCK | O_CLOEXEC))
		die("pipe2");
	put_at(p[0], S_P1R);
	put_at(p[1], S_P1W);

	/* The memory, at the same address each time. */
	m = mmap(mem, M_PAGES * PG, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (m != mem)
		die("mmap");
	for (i = 0; i < 2 * PG; i++)
		m[M_DATA + i] = 'A' + i % 23;
	for (i = 0; i < NNAMES; i++)
		strcpy(m + M_CTRL + CTRL_NAMES + 16 * i, names[i]);
	{
		struct iovec *iov = (void *)(m + M_CTRL + CTRL_IOV);
		struct timespec *ts = (void *)(m + M_CTRL + CTRL_TS0);
		struct msghdr *msg = (void *)(m + M_CTRL + CTRL_MSG);
		struct iovec *miov = (void *)(m + M_CTRL + CTRL_MSG_IOV);
		struct pollfd *pfd = (void *)(m + M_OUT + OUT_POLL);
		uint64_t *set = (void *)(m + M_CTRL + CTRL_SIGSET);

		for (i = 0; i < 4; i++) {
			iov[i].iov_base = m + M_DATA + 1000 * i + 3;
			iov[i].iov_len = 17 + 100 * i;
		}
		ts[0] = (struct timespec){ 0, 0 };
		ts[1] = (struct timespec){ 0, 1000 };
		*set = (1ull << (SIGUSR1 - 1)) | (1ull << (SIGUSR2 - 1));
		miov->iov_base = m + M_DATA + 4000;
		miov->iov_len = 64;
		msg->msg_iov = miov;
		msg->msg_iovlen = 1;
		for (i = 0; i < 8; i++) {
			pfd[i].fd = FDB + (i < 6 ? (int[]){ S_P0R, S_P0W, S_SK0,
					   S_SK1, S_F0, S_P1R }[i] : S_NONE);
			pfd[i].events = POLLIN | POLLOUT;
		}
		strcpy(m + M_MEM, "memory page 0");
		strcpy(m + M_MEM + PG, "memory page 1");
	}
	mprotect(m + M_CTRL, PG, PROT_READ);
	mprotect(m + (M_PAGES - 1) * PG, PG, PROT_NONE);
}

static int rm_one(const char *path, const struct stat *st, int type,
		  struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

static void state_teardown(void)
{
	sigset_t none;
	int fd;

	for (fd = 0; fd < 1024; fd++)
		if (!baseline[fd] && fcntl(fd, F_GETFD) >= 0)
			close(fd);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (chdir(dirpath))
		die("chdir");
	nftw(runpath, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- What a run left ---------------------------------------------------- */

struct snap {
	struct wsc_result res[MAXN];
	char data[2 * PG];
	char out[PG];
	char pages[2][PG];
	bool readable[2];
	/* descriptors: open, flags, type, offset */
	struct { int fd, fdflags, flags, type; long long off; } fds[64];
	int nfds;
	char streams[1024];	/* what pipes and sockets still held */
	int nstreams;
	char files[4096];	/* path, type, size and head of every file */
	int nfiles;
	uint64_t sigmask;
	int next_fd;
};

#define FIELD(type, member) \
	offsetof(type, member), sizeof(((type *)0)->member)

/*
 * What differs between two runs in the struct stat and statx the calls
 * filled: inode numbers and times.  @base and @count place the structs
 * in the output page (256 bytes apart), @off and @len the field.
 */
static const struct {
	size_t base, count, off, len;
} run_fields[] = {
	{ OUT_STAT, 4, FIELD(struct stat, st_ino) },
	{ OUT_STAT, 4, FIELD(struct stat, st_atim) },
	{ OUT_STAT, 4, FIELD(struct stat, st_mtim) },
	{ OUT_STAT, 4, FIELD(struct stat, st_ctim) },
	{ OUT_STATX, 2, FIELD(struct statx, stx_ino) },
	{ OUT_STATX, 2, FIELD(struct statx, stx_atime) },
	{ OUT_STATX, 2, FIELD(struct statx, stx_btime) },
	{ OUT_STATX, 2, FIELD(struct statx, stx_ctime) },
	{ OUT_STATX, 2, FIELD(struct statx, stx_mtime) },
};

/* Zero in @out what differs between runs (run_fields). */
static void norm_stat(char *out)
{
	size_t f, i;

	for (f = 0; f < sizeof(run_fields) / sizeof(run_fields[0]); f++)
		for (i = 0; i < run_fields[f].count; i++)
			memset(out + run_fields[f].base + 256 * i +
			       run_fields[f].off, 0, run_fields[f].len);
}

static int files_len;
static char *files_buf;

static int note_file(const char *path, const struct stat *st, int type,
		     struct FTW *ftw)
{
	char head[64] = "";
	int fd, n = 0;

	(void)type;
	(void)ftw;
	if (S_ISREG(st->st_mode)) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		n = fd >= 0 ? read(fd, head, sizeof(head) - 1) : -1;
		if (fd >= 0)
			close(fd);
		head[n > 0 ? n : 0] = '\0';
	}
	files_len += snprintf(files_buf + files_len, 4096 - files_len,
			      "%s %o %lld %s;", path, st->st_mode & S_IFMT,
			      (long long)st->st_size, head);
	if (files_len > 4000)
		files_len = 4000;
	return 0;
}

static void snapshot(struct snap *s)
{
	struct iovec local, remote;
	int fd, i;
	sigset_t mask;

	memset(s, 0, sizeof(*s));
	memcpy(s->data, mem + M_DATA, sizeof(s->data));
	memcpy(s->out, mem + M_OUT, sizeof(s->out));
	norm_stat(s->out);
	for (i = 0; i < 2; i++) {
		local.iov_base = s->pages[i];
		local.iov_len = PG;
		remote.iov_base = mem + M_MEM + i * PG;
		remote.iov_len = PG;
		s->readable[i] = process_vm_readv(getpid(), &local, 1, &remote,
						  1, 0) == (ssize_t)PG;
		if (!s->readable[i])
			memset(s->pages[i], 0, PG);
	}
	for (fd = 0; fd < 1024; fd++) {
		struct stat st;
		int fl;

		if (baseline[fd] || (fl = fcntl(fd, F_GETFD)) < 0)
			continue;
		if (s->nfds == 64)
			break;
		fstat(fd, &st);
		s->fds[s->nfds].fd = fd;
		s->fds[s->nfds].fdflags = fl;
		s->fds[s->nfds].flags = fcntl(fd, F_GETFL);
		s->fds[s->nfds].type = st.st_mode & S_IFMT;
		s->fds[s->nfds].off = S_ISREG(st.st_mode) ?
				      lseek(fd, 0, SEEK_CUR) : -1;
		s->nfds++;
	}
	/* Then what the pipes and sockets hold (reading changes them). */
	for (i = 0; i < s->nfds; i++) {
		int t = s->fds[i].type, n;

		if ((t != S_IFIFO && t != S_IFSOCK) ||
		    (s->fds[i].flags & O_ACCMODE) == O_WRONLY)
			continue;
		n = recv(s->fds[i].fd, s->streams + s->nstreams,
			 sizeof(s->streams) - s->nstreams, MSG_DONTWAIT);
		if (n < 0 && errno == ENOTSOCK) {
			int fl = fcntl(s->fds[i].fd, F_GETFL);

			fcntl(s->fds[i].fd, F_SETFL, fl | O_NONBLOCK);
			n = read(s->fds[i].fd, s->streams + s->nstreams,
				 sizeof(s->streams) - s->nstreams);
		}
		s->streams[s->nstreams < 1000 ? s->nstreams++ : 0] =
			n < 0 ? 'E' : '|';
		if (n > 0)
			s->nstreams += n;
		if (s->nstreams > 1000)
			s->nstreams = 1000;
	}
	files_len = 0;
	files_buf = s->files;
	nftw(".", note_file, 16, FTW_PHYS);
	s->nfiles = files_len;
	sigprocmask(SIG_BLOCK, NULL, &mask);
	s->sigmask = sigismember(&mask, SIGUSR1) | sigismember(&mask, SIGUSR2) << 1;
	s->next_fd = dup(0);
	if (s->next_fd >= 0)
		close(s->next_fd);
}

/* What lies at offset @i of the output page. */
static const char *out_field(unsigned int i, char *buf, size_t len)
{
	if (i < OUT_STATX)
		snprintf(buf, len, "struct stat %u, byte %u", i / 256, i % 256);
	else if (i < OUT_PIPE)
		snprintf(buf, len, "struct statx %u, byte %u",
			 (i - OUT_STATX) / 256, (i - OUT_STATX) % 256);
	else if (i < OUT_SIGSET)
		snprintf(buf, len, "pipe2's descriptors %u", (i - OUT_PIPE) / 8);
	else if (i < OUT_SIGACT)
		snprintf(buf, len, "old signal set %u", (i - OUT_SIGSET) / 8);
	else if (i < OUT_POLL)
		snprintf(buf, len, "old sigaction");
	else if (i < OUT_POLL + 8 * sizeof(struct pollfd))
		snprintf(buf, len, "pollfd[%u].%s (fd %d)",
			 (unsigned int)((i - OUT_POLL) / sizeof(struct pollfd)),
			 (i - OUT_POLL) % 8 >= 6 ? "revents" :
			 (i - OUT_POLL) % 8 >= 4 ? "events" : "fd",
			 ((struct pollfd *)(mem + M_OUT + OUT_POLL))
				 [(i - OUT_POLL) / sizeof(struct pollfd)].fd);
	else
		snprintf(buf, len, "unused");
	return buf;
}

/* The first difference, described in @why; NULL if none. */
static const char *compare(const struct snap *a, const struct snap *b,
			   uint32_t count, char *why, size_t len)
{
	uint32_t i;

	for (i = 0; i < count; i++)
		if (a->res[i].ret != b->res[i].ret) {
			snprintf(why, len, "entry %u: wrapped %lld, conventional %lld",
				 i, (long long)a->res[i].ret,
				 (long long)b->res[i].ret);
			return why;
		}
	for (i = 0; i < sizeof(a->data); i++)
		if (a->data[i] != b->data[i]) {
			snprintf(why, len, "data byte %u: wrapped %#x, conventional %#x",
				 i, (unsigned char)a->data[i],
				 (unsigned char)b->data[i]);
			return why;
		}
	for (i = 0; i < sizeof(a->out); i++)
		if (a->out[i] != b->out[i]) {
			char f[64];

			snprintf(why, len, "output byte %u (%s): wrapped %#x, conventional %#x",
				 i, out_field(i, f, sizeof(f)),
				 (unsigned char)a->out[i],
				 (unsigned char)b->out[i]);
			return why;
		}
	for (i = 0; i < 2; i++)
		if (a->readable[i] != b->readable[i] ||
		    memcmp(a->pages[i], b->pages[i], PG)) {
			snprintf(why, len, "memory page %u: wrapped %s, conventional %s",
				 i, a->readable[i] ? "readable" : "unreadable",
				 b->readable[i] ? "readable" : "unreadable");
			return why;
		}
	if (a->nfds != b->nfds || memcmp(a->fds, b->fds, sizeof(a->fds))) {
		snprintf(why, len, "descriptors left: wrapped %d, conventional %d (or their flags, offsets, types)",
			 a->nfds, b->nfds);
		return why;
	}
	if (a->nstreams != b->nstreams || memcmp(a->streams, b->streams, a->nstreams)) {
		snprintf(why, len, "pipe/socket contents: wrapped \"%.*s\", conventional \"%.*s\"",
			 a->nstreams, a->streams, b->nstreams, b->streams);
		return why;
	}
	if (strcmp(a->files, b->files)) {
		snprintf(why, len, "files: wrapped {%s}, conventional {%s}",
			 a->files, b->files);
		return why;
	}
	if (a->sigmask != b->sigmask) {
		snprintf(why, len, "signal mask: wrapped %#llx, conventional %#llx",
			 (unsigned long long)a->sigmask,
			 (unsigned long long)b->sigmask);
		return why;
	}
	if (a->next_fd != b->next_fd) {
		snprintf(why, len, "lowest free descriptor: wrapped %d, conventional %d",
			 a->next_fd, b->next_fd);
		return why;
	}
	return NULL;
}

/* ---- The two ways to run a batch ------------------------------------------ */

static bool failed(int64_t v)
{
	return v < 0 && v >= -4095;
}

static void run_wrapped(const struct wsc_entry *e, uint32_t n,
			struct wsc_result *res)
{
	struct wsc_submit s = {
		.entries = (uintptr_t)e, .results = (uintptr_t)res, .count = n,
	};
	long ret = wsc_submit_raw(devfd, &s);
	uint32_t i;

	/* Not expected here: the comparison shows it as a result. */
	for (i = ret < 0 ? 0 : ret; i < n; i++)
		res[i].ret = ret < 0 ? ret - 10000 : -99999;
}

/* The batch's rules (include/uapi/linux/wsc.h), made conventionally. */
static void run_conventional(const struct wsc_entry *e, uint32_t n,
			     struct wsc_result *res)
{
	bool stopped = false;
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint64_t a[6];
		bool cancel = false;
		int64_t ret;
		int k;

		if (e[i].flags & WSC_ENTRY_NEW_CHAIN)
			stopped = false;
		if (stopped) {
			res[i].ret = -ECANCELED;
			continue;
		}
		memcpy(a, e[i].args, sizeof(a));
		for (k = 0; k < 6; k++) {
			if (!(e[i].ref_mask & (1u << k)))
				continue;
			if (failed(res[a[k]].ret))
				cancel = true;
			else
				a[k] = res[a[k]].ret;
		}
		if (cancel) {
			ret = -ECANCELED;
		} else if (e[i].nr == WSC_NR_NOP) {
			ret = a[0];
		} else {
			ret = syscall(e[i].nr, a[0], a[1], a[2], a[3], a[4], a[5]);
			if (ret == -1)
				ret = -errno;
		}
		res[i].ret = ret;
		res[i].duration_ns = 0;
		if (failed(ret) && !(e[i].flags & WSC_ENTRY_IGNORE_FAILURE))
			stopped = true;
	}
}

static void run_both(const struct wsc_entry *e, uint32_t n, struct snap *a,
		     struct snap *b)
{
	struct wsc_result res[MAXN];

	state_setup();
	run_wrapped(e, n, res);
	snapshot(a);
	memcpy(a->res, res, n * sizeof(res[0]));
	state_teardown();

	state_setup();
	run_conventional(e, n, res);
	snapshot(b);
	memcpy(b->res, res, n * sizeof(res[0]));
	state_teardown();
}

/* ---- The generator ------------------------------------------------------ */

struct gen {
	struct rng *r;
	struct wsc_entry *e;
	uint32_t i;
	bool released;		/* a close, dup2 or dup3 came before */
	bool fd_result[MAXN];	/* entry j returns a descriptor */
	bool len_result[MAXN];	/* entry j returns a byte count */
};

static uint64_t addr(uint64_t off)
{
	return (uintptr_t)mem + off;
}

/* A descriptor argument k: a slot, an earlier entry's, or a bad one. */
static void fd_arg(struct gen *g, int k, bool any_slot)
{
	struct wsc_entry *e = &g->e[g->i];
	bool streams = F.release_then_use || !g->released;
	uint32_t j, cands[MAXN], nc = 0;
	int s;

	for (j = 0; j < g->i; j++)
		if (g->fd_result[j])
			cands[nc++] = j;
	if (nc && streams && rng_chance(g->r, 25)) {
		e->ref_mask |= 1u << k;
		e->args[k] = cands[rng_below(g->r, nc)];
		return;
	}
	if (any_slot && rng_chance(g->r, 4)) {
		e->args[k] = rng_chance(g->r, 50) ? (uint64_t)-1 : 5000;
		return;
	}
	do
		s = rng_below(g->r, NSLOT);
	while (!streams && slot_is_stream(s));
	e->args[k] = FDB + s;
}

static uint64_t name_arg(struct gen *g)
{
	return addr(M_CTRL + CTRL_NAMES + 16 * rng_below(g->r, NNAMES));
}

static uint64_t dirfd_arg(struct gen *g)
{
	return rng_chance(g->r, 50) ? (uint64_t)AT_FDCWD : FDB + S_DIR;
}

static uint64_t data_arg(struct gen *g)
{
	/* Mostly inside data, sometimes running into ctrl (read-only). */
	return addr(M_DATA + rng_below(g->r, 2 * PG));
}

static uint64_t len_arg(struct gen *g, uint32_t *ref)
{
	uint32_t j;

	for (j = 0; j < g->i; j++)
		if (g->len_result[j] && rng_chance(g->r, 10)) {
			*ref = j;
			return j;
		}
	*ref = UINT32_MAX;
	return rng_chance(g->r, 10) ? 0 : 1 + rng_below(g->r, 600);
}

static const int open_flags[] = {
	O_RDONLY, O_RDWR, O_WRONLY | O_CREAT, O_RDWR | O_CREAT | O_TRUNC,
	O_WRONLY | O_CREAT | O_EXCL, O_RDONLY | O_DIRECTORY,
	O_WRONLY | O_APPEND, O_RDWR | O_NONBLOCK,
};

static void gen_entry(struct gen *g)
{
	struct wsc_entry *e = &g->e[g->i];
	struct rng *r = g->r;
	bool streams = F.release_then_use || !g->released;
	uint32_t ref;
	unsigned int pick;

	memset(e, 0, sizeof(*e));
	pick = rng_below(r, 40);
	switch (pick) {
	case 0: case 1: case 2:
	case 3: case 4: case 5:
		e->nr = pick < 3 ? SYS_read : SYS_write;
		fd_arg(g, 0, true);
		e->args[1] = data_arg(g);
		e->args[2] = len_arg(g, &ref);
		if (ref != UINT32_MAX)
			e->ref_mask |= 1u << 2;
		g->len_result[g->i] = true;
		break;
	case 6:
		e->nr = rng_chance(r, 50) ? SYS_pread64 : SYS_pwrite64;
		fd_arg(g, 0, true);
		e->args[1] = data_arg(g);
		e->args[2] = 1 + rng_below(r, 400);
		e->args[3] = rng_chance(r, 10) ? (uint64_t)-1 : rng_below(r, 500);
		g->len_result[g->i] = true;
		break;
	case 7:
		e->nr = rng_chance(r, 50) ? SYS_readv : SYS_writev;
		fd_arg(g, 0, true);
		e->args[1] = addr(M_CTRL + CTRL_IOV + 16 * rng_below(r, 4));
		e->args[2] = rng_below(r, 4);
		g->len_result[g->i] = true;
		break;
	case 8: case 9:
		e->nr = SYS_lseek;
		fd_arg(g, 0, true);
		e->args[1] = rng_chance(r, 10) ? (uint64_t)-5 : rng_below(r, 400);
		e->args[2] = rng_below(r, 6);	/* SET, CUR, END, DATA, HOLE, bad */
		break;
	case 10:
		e->nr = SYS_fstat;
		fd_arg(g, 0, true);
		e->args[1] = addr(M_OUT + OUT_STAT + 256 * rng_below(r, 4));
		break;
	case 11:
		e->nr = SYS_newfstatat;
		e->args[0] = dirfd_arg(g);
		e->args[1] = name_arg(g);
		e->args[2] = addr(M_OUT + OUT_STAT + 256 * rng_below(r, 4));
		e->args[3] = rng_chance(r, 20) ? AT_EMPTY_PATH : 0;
		break;
	case 12:
		e->nr = SYS_statx;
		e->args[0] = dirfd_arg(g);
		e->args[1] = name_arg(g);
		e->args[2] = 0;
		e->args[3] = STATX_BASIC_STATS;
		e->args[4] = addr(M_OUT + OUT_STATX + 256 * rng_below(r, 2));
		break;
	case 13: case 14:
		e->nr = SYS_openat;
		e->args[0] = dirfd_arg(g);
		e->args[1] = name_arg(g);
		e->args[2] = open_flags[rng_below(r, 8)] |
			     (rng_chance(r, 50) ? O_CLOEXEC : 0);
		e->args[3] = 0644;
		g->fd_result[g->i] = true;
		break;
	case 15:
		e->nr = SYS_open;
		e->args[0] = name_arg(g);
		e->args[1] = open_flags[rng_below(r, 8)];
		e->args[2] = 0600;
		g->fd_result[g->i] = true;
		break;
	case 16: case 17: case 18:
		e->nr = SYS_close;
		fd_arg(g, 0, false);
		g->released = true;
		break;
	case 19:
		e->nr = SYS_dup;
		fd_arg(g, 0, true);
		g->fd_result[g->i] = true;
		break;
	case 20: case 21:
		e->nr = rng_chance(r, 50) ? SYS_dup2 : SYS_dup3;
		fd_arg(g, 0, true);
		/* The target: a slot, or a free number just above them. */
		e->args[1] = FDB + rng_below(r, NSLOT + 3);
		if (!streams)
			while (e->args[1] < FDB + NSLOT &&
			       slot_is_stream(e->args[1] - FDB))
				e->args[1] = FDB + rng_below(r, NSLOT + 3);
		if (e->nr == SYS_dup3)
			e->args[2] = rng_chance(r, 10) ? 1 : (rng_chance(r, 50) ? O_CLOEXEC : 0);
		g->released = true;
		g->fd_result[g->i] = true;
		break;
	case 22: {
		static const uint64_t cmds[][2] = {
			/* F_SETFL keeps O_NONBLOCK: nothing may block. */
			{ F_GETFL, 0 }, { F_SETFL, O_NONBLOCK },
			{ F_SETFL, O_NONBLOCK | O_APPEND }, { F_GETFD, 0 }, { F_SETFD, 0 },
			{ F_SETFD, FD_CLOEXEC }, { F_DUPFD, 0 },
			{ F_DUPFD_CLOEXEC, FDB + NSLOT }, { F_GETPIPE_SZ, 0 },
			{ F_SETPIPE_SZ, 8192 }, { 9999, 0 },
		};
		unsigned int c = rng_below(r, 11);

		e->nr = SYS_fcntl;
		fd_arg(g, 0, true);
		e->args[1] = cmds[c][0];
		e->args[2] = cmds[c][1];
		g->fd_result[g->i] = c == 6 || c == 7;
		break;
	}
	case 23:
		e->nr = rng_chance(r, 50) ? SYS_fsync : SYS_fdatasync;
		fd_arg(g, 0, true);
		break;
	case 24:
		if (rng_chance(r, 50)) {
			e->nr = SYS_unlink;
			e->args[0] = name_arg(g);
		} else {
			e->nr = SYS_unlinkat;
			e->args[0] = dirfd_arg(g);
			e->args[1] = name_arg(g);
			e->args[2] = rng_chance(r, 30) ? AT_REMOVEDIR : 0;
		}
		break;
	case 25:
		if (rng_chance(r, 50)) {
			e->nr = SYS_mkdir;
			e->args[0] = name_arg(g);
			e->args[1] = 0755;
		} else {
			e->nr = SYS_mkdirat;
			e->args[0] = dirfd_arg(g);
			e->args[1] = name_arg(g);
			e->args[2] = 0700;
		}
		break;
	case 26:
		if (rng_chance(r, 50)) {
			e->nr = SYS_rename;
			e->args[0] = name_arg(g);
			e->args[1] = name_arg(g);
		} else {
			e->nr = SYS_renameat;
			e->args[0] = dirfd_arg(g);
			e->args[1] = name_arg(g);
			e->args[2] = dirfd_arg(g);
			e->args[3] = name_arg(g);
		}
		break;
	case 27:
		if (rng_chance(r, 50)) {
			e->nr = SYS_access;
			e->args[0] = name_arg(g);
			e->args[1] = rng_below(r, 8);
		} else {
			e->nr = SYS_faccessat;
			e->args[0] = dirfd_arg(g);
			e->args[1] = name_arg(g);
			e->args[2] = rng_below(r, 8);
		}
		break;
	case 28: {
		static const int prots[] = { PROT_NONE, PROT_READ,
					     PROT_READ | PROT_WRITE };

		e->nr = SYS_mmap;
		e->args[0] = addr(M_MEM + PG * rng_below(r, 2));
		e->args[1] = PG;
		e->args[2] = prots[rng_below(r, 3)];
		if (rng_chance(r, 50)) {
			e->args[3] = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED;
			e->args[4] = (uint64_t)-1;
		} else {
			e->args[3] = (rng_chance(r, 50) ? MAP_SHARED : MAP_PRIVATE) |
				     MAP_FIXED;
			e->args[4] = FDB + (rng_chance(r, 50) ? S_MEMFD : S_F0);
		}
		break;
	}
	case 29:
		e->nr = SYS_munmap;
		e->args[0] = addr(M_MEM + PG * rng_below(r, 2));
		e->args[1] = PG * (1 + rng_below(r, 2)) - (rng_chance(r, 50) ? 1 : 0);
		if (e->args[0] + e->args[1] > addr(M_MEM + 2 * PG))
			e->args[1] = PG;
		break;
	case 30:
		e->nr = SYS_mprotect;
		e->args[0] = addr(M_MEM + PG * rng_below(r, 2));
		e->args[1] = PG;
		e->args[2] = rng_below(r, 4);
		break;
	case 31: {
		static const int adv[] = { MADV_DONTNEED, MADV_WILLNEED,
					   MADV_NORMAL, MADV_SEQUENTIAL, 12345 };

		e->nr = SYS_madvise;
		e->args[0] = addr(M_MEM + PG * rng_below(r, 2));
		e->args[1] = PG;
		e->args[2] = adv[rng_below(r, 5)];
		break;
	}
	case 32:
		if (rng_chance(r, 60)) {
			e->nr = SYS_rt_sigprocmask;
			e->args[0] = rng_below(r, 4);	/* BLOCK, UNBLOCK, SETMASK, bad */
			e->args[1] = rng_chance(r, 30) ? 0 :
				     addr(M_CTRL + CTRL_SIGSET);
			e->args[2] = addr(M_OUT + OUT_SIGSET + 8 * rng_below(r, 4));
			e->args[3] = rng_chance(r, 10) ? 4 : 8;
		} else {
			/* Only asks: the handlers are the fuzzer's own. */
			e->nr = SYS_rt_sigaction;
			e->args[0] = SIGUSR1 + rng_below(r, 2) * (SIGUSR2 - SIGUSR1);
			e->args[1] = 0;
			e->args[2] = addr(M_OUT + OUT_SIGACT);
			e->args[3] = 8;
		}
		break;
	case 33:
		e->nr = SYS_pipe2;
		e->args[0] = addr(M_OUT + OUT_PIPE + 8 * rng_below(r, 4));
		e->args[1] = rng_chance(r, 50) ? O_NONBLOCK | O_CLOEXEC : O_CLOEXEC;
		break;
	case 34: case 35:
		if (!streams) {
			e->nr = SYS_getppid;
			break;
		}
		e->nr = rng_chance(r, 50) ? SYS_sendto : SYS_recvfrom;
		e->args[0] = FDB + (rng_chance(r, 50) ? S_SK0 : S_SK1);
		e->args[1] = data_arg(g);
		e->args[2] = 1 + rng_below(r, 300);
		e->args[3] = MSG_DONTWAIT;
		g->len_result[g->i] = true;
		break;
	case 36:
		if (!streams) {
			e->nr = SYS_gettid;
			break;
		}
		e->nr = rng_chance(r, 50) ? SYS_sendmsg : SYS_recvmsg;
		e->args[0] = FDB + (rng_chance(r, 50) ? S_SK0 : S_SK1);
		e->args[1] = addr(M_CTRL + CTRL_MSG);
		e->args[2] = MSG_DONTWAIT;
		g->len_result[g->i] = true;
		break;
	case 37:
		if (!streams) {
			e->nr = SYS_getpid;
			break;
		}
		if (rng_chance(r, 50)) {
			e->nr = SYS_poll;
			e->args[0] = addr(M_OUT + OUT_POLL);
			e->args[1] = 1 + rng_below(r, 8);
			e->args[2] = 0;
		} else {
			e->nr = SYS_ppoll;
			e->args[0] = addr(M_OUT + OUT_POLL);
			e->args[1] = 1 + rng_below(r, 8);
			e->args[2] = addr(M_CTRL + CTRL_TS0);
		}
		break;
	case 38:
		if (rng_chance(r, 50)) {
			e->nr = SYS_futex;
			e->args[0] = addr(M_DATA + 8 * rng_below(r, 8));
			e->args[1] = rng_chance(r, 50) ? FUTEX_WAKE : FUTEX_WAIT;
			e->args[2] = rng_chance(r, 50) ? 1 : 0x44434241;
			/* FUTEX_WAIT times out at once if the word matches. */
			e->args[3] = addr(M_CTRL + CTRL_TS0);
		} else {
			e->nr = SYS_nanosleep;
			e->args[0] = addr(M_CTRL + CTRL_TS1);
		}
		break;
	default:
		switch (rng_below(r, 4)) {
		case 0: e->nr = SYS_getpid; break;
		case 1: e->nr = SYS_getppid; break;
		case 2: e->nr = SYS_gettid; break;
		default:
			e->nr = WSC_NR_NOP;
			e->args[0] = rng_chance(r, 30) ? (uint64_t)-EIO : 0;
			break;
		}
		break;
	}
	if (rng_chance(r, 15))
		e->flags |= WSC_ENTRY_IGNORE_FAILURE;
	if (rng_chance(r, 15))
		e->flags |= WSC_ENTRY_NEW_CHAIN;
}

/* ---- Minimizing a mismatch --------------------------------------------- */

/* @e without entry @j, references renumbered; false if one pointed at j. */
static bool drop(const struct wsc_entry *e, uint32_t n, uint32_t j,
		 struct wsc_entry *out)
{
	uint32_t i, m = 0;
	int k;

	for (i = 0; i < n; i++) {
		if (i == j)
			continue;
		out[m] = e[i];
		for (k = 0; k < 6; k++) {
			if (!(e[i].ref_mask & (1u << k)))
				continue;
			if (e[i].args[k] == j)
				return false;
			if (e[i].args[k] > j)
				out[m].args[k]--;
		}
		m++;
	}
	return true;
}

static bool differs(const struct wsc_entry *e, uint32_t n)
{
	static struct snap a, b;
	char why[512];

	run_both(e, n, &a, &b);
	return compare(&a, &b, n, why, sizeof(why)) != NULL;
}

static uint32_t minimize(struct wsc_entry *e, uint32_t n)
{
	struct wsc_entry t[MAXN];
	bool progress = true;
	uint32_t j;

	while (progress && n > 1) {
		progress = false;
		for (j = n; j-- > 0;) {
			if (!drop(e, n, j, t) || !differs(t, n - 1))
				continue;
			memcpy(e, t, (n - 1) * sizeof(*e));
			n--;
			progress = true;
		}
	}
	return n;
}

static void report(uint64_t step, struct wsc_entry *e, uint32_t n,
		   const char *why)
{
	static struct snap a, b;
	char why2[8400];
	uint32_t m, i;

	anomaly("diff", step, "wrapped and conventional runs differ: %s", why);
	m = minimize(e, n);
	run_both(e, m, &a, &b);
	repro("minimal batch (%u of %u entries): %s", m, n,
	      compare(&a, &b, m, why2, sizeof(why2)) ?: "(no longer differs)");
	repro("descriptors %d.. are slots; memory data=%#llx ctrl=%#llx out=%#llx mem=%#llx",
	      FDB, (unsigned long long)addr(M_DATA),
	      (unsigned long long)addr(M_CTRL), (unsigned long long)addr(M_OUT),
	      (unsigned long long)addr(M_MEM));
	for (i = 0; i < NSLOT; i++)
		repro("  fd %d (%#x): %s", FDB + i, FDB + i, slot_name[i]);
	repro_entries(e, m, a.res, b.res);
}

void fuzz_diff(struct rng *r)
{
	static struct snap a, b;
	struct wsc_entry e[MAXN];
	double t0 = now_s();
	uint64_t step;
	int fd, dev, home;

	/* Back to where we were at the end: later modes use relative paths. */
	home = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	snprintf(dirpath, sizeof(dirpath), "%s/wsc-fuzz-diff.XXXXXX", F.scratch);
	if (!mkdtemp(dirpath))
		die(dirpath);
	snprintf(runpath, sizeof(runpath), "%s/run", dirpath);
	dev = wsc_open_dev();
	devfd = dup3(dev, DEVFD, O_CLOEXEC);
	close(dev);
	mem = mmap(NULL, M_PAGES * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	if (mem == MAP_FAILED)
		die("mmap");
	for (fd = 0; fd < 1024; fd++)
		baseline[fd] = fcntl(fd, F_GETFD) >= 0;
	for (fd = FDB; fd < FDB + NSLOT + 3; fd++)
		if (baseline[fd]) {
			fprintf(stderr, "wsc-fuzz: diff: descriptor %d is in use\n", fd);
			exit(2);
		}
	if (chdir(dirpath))
		die(dirpath);

	for (step = 0; fuzz_more(step, t0); step++) {
		struct gen g = { .r = r, .e = e };
		uint32_t n = 1 + rng_below(r, rng_chance(r, 70) ? 6 : MAXN);
		char why[8400];

		for (g.i = 0; g.i < n; g.i++)
			gen_entry(&g);
		step_begin("diff", step);
		run_both(e, n, &a, &b);
		if (compare(&a, &b, n, why, sizeof(why)))
			report(step, e, n, why);
		step_end();
		F.diff++;
		F.batches++;
		F.ran++;
		if ((step & 255) == 255)
			kmsg_check("diff", step);
	}
	munmap(mem, M_PAGES * PG);
	close(devfd);
	if (chdir("/") || rmdir(dirpath))
		fprintf(stderr, "wsc-fuzz: diff: rmdir %s: %s\n", dirpath,
			strerror(errno));
	if (home >= 0) {
		if (fchdir(home))
			perror("wsc-fuzz: diff: fchdir");
		close(home);
	}
}
