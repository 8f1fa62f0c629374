// SPDX-License-Identifier: GPL-2.0
/*
 * t_calls_batch: every allowlisted call in one batch whose results feed
 * later entries, replayed conventionally under the ABI's rules and
 * compared entry by entry and in memory; the batch covers the allowlist
 * the module reports; failures and chains.  The twin-call machinery is
 * in twin.h.
 */
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/uio.h>

#include "twin.h"

/*
 * The ABI's execution rules applied to conventional calls: what a batch
 * must have returned, entry by entry.
 */
static void replay(const struct wsc_entry *ent, long *res, unsigned int n)
{
	bool stopped = false;
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		const struct wsc_entry *e = &ent[i];
		uint64_t a[WSC_MAX_ARGS];
		long r = -ECANCELED;

		if (e->flags & WSC_ENTRY_NEW_CHAIN)
			stopped = false;
		if (stopped)
			goto done;
		memcpy(a, e->args, sizeof(a));
		for (k = 0; k < WSC_MAX_ARGS; k++) {
			if (!(e->ref_mask & (1u << k)))
				continue;
			if (is_err(res[e->args[k]]))
				goto done;
			a[k] = res[e->args[k]];
		}
		if (e->nr == WSC_NR_NOP)
			r = (long)a[0];
		else
			r = sys_do(e->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
done:
		res[i] = r;
		if (is_err(r) && !(e->flags & WSC_ENTRY_IGNORE_FAILURE))
			stopped = true;
	}
}

#define MIX_MAX		80

/* One run of the mixed batch: entries and every buffer they point to. */
struct mix {
	struct wsc_entry ent[MIX_MAX];
	unsigned int n;
	unsigned int i_map, i_fd, i_dup, i_read, i_dents;

	char wdata[64], rdata[64], vw1[8], vw2[8], vr1[8], vr2[8], pr[2];
	struct iovec wiov[2], riov[2];
	struct stat st, st2;
	struct statx stx;
	char dents[512] __attribute__((aligned(8)));
	int pipefd[2];
	uint64_t oldmask;
	struct ksigaction oldact;
	struct timespec nap, zero;
	uint32_t word;
	struct pollfd pfd;
	char pbuf[8], sbuf[16], mbuf[16];
	struct iovec siov, miov;
	struct msghdr smsg, rmsg;
};

static unsigned int add(struct mix *m, struct wsc_entry e)
{
	ASSERT_LT(m->n, MIX_MAX);
	m->ent[m->n] = e;
	return m->n++;
}

/* Add @e with argument @k taken from the result of entry @from. */
static unsigned int add_ref(struct mix *m, struct wsc_entry e, unsigned int k,
			    unsigned int from)
{
	e.ref_mask |= 1u << k;
	e.args[k] = from;
	return add(m, e);
}

static void add_flags(struct mix *m, struct wsc_entry e, uint16_t flags)
{
	e.flags = flags;
	add(m, e);
}

/*
 * All 47 allowlisted calls in one batch, results feeding later entries:
 * a file made, written, read, inspected, duplicated, renamed and removed;
 * a pipe and a socket pair used; memory mapped and unmapped; signal state
 * read; a nap.  It leaves the directory as it found it.
 */
static void mix_build(struct mix *m, int pp[2], int sv[2])
{
	unsigned int fd, d, dir, map;

	memset(m, 0, sizeof(*m));
	fill(m->wdata, sizeof(m->wdata), 14);
	memcpy(m->vw1, "vector-1", 8);
	memcpy(m->vw2, "vector-2", 8);
	m->wiov[0] = (struct iovec){ m->vw1, 8 };
	m->wiov[1] = (struct iovec){ m->vw2, 8 };
	m->riov[0] = (struct iovec){ m->vr1, 8 };
	m->riov[1] = (struct iovec){ m->vr2, 8 };
	m->nap = (struct timespec){ 0, MS };
	m->pfd = (struct pollfd){ .fd = pp[0], .events = POLLIN };
	m->siov = (struct iovec){ "message", 7 };
	m->smsg = (struct msghdr){ .msg_iov = &m->siov, .msg_iovlen = 1 };
	m->miov = (struct iovec){ m->mbuf, sizeof(m->mbuf) };
	m->rmsg = (struct msghdr){ .msg_iov = &m->miov, .msg_iovlen = 1 };

	add(m, E(__NR_getpid));
	add(m, E(__NR_getppid));
	add(m, E(__NR_gettid));
	add(m, E(__NR_mkdir, "d", 0755));
	add(m, E(__NR_mkdirat, AT_FDCWD, "d/sub", 0700));
	fd = m->i_fd = add(m, E(__NR_open, "d/f", O_RDWR | O_CREAT | O_EXCL,
				0644));
	add_ref(m, E(__NR_write, 0, m->wdata, sizeof(m->wdata)), 0, fd);
	add_ref(m, E(__NR_pwrite64, 0, "XY", 2, 10), 0, fd);
	add_ref(m, E(__NR_writev, 0, m->wiov, 2), 0, fd);
	add_ref(m, E(__NR_lseek, 0, 0, SEEK_SET), 0, fd);
	m->i_read = add_ref(m, E(__NR_read, 0, m->rdata, sizeof(m->rdata)), 0,
			    fd);
	add_ref(m, E(__NR_pread64, 0, m->pr, 2, 10), 0, fd);
	add_ref(m, E(__NR_readv, 0, m->riov, 2), 0, fd);
	add_ref(m, E(__NR_fstat, 0, &m->st), 0, fd);
	add_ref(m, E(__NR_fsync, 0), 0, fd);
	add_ref(m, E(__NR_fdatasync, 0), 0, fd);
	d = m->i_dup = add_ref(m, E(__NR_dup, 0), 0, fd);
	add_ref(m, E(__NR_dup2, 0, 90), 0, fd);
	add_ref(m, E(__NR_dup3, 0, 91, O_CLOEXEC), 0, d);
	add_ref(m, E(__NR_fcntl, 0, F_GETFL), 0, fd);
	add(m, E(__NR_fcntl, 91, F_GETFD));
	add_ref(m, E(__NR_close, 0), 0, d);
	add(m, E(__NR_close, 90));
	add(m, E(__NR_close, 91));
	add_ref(m, E(__NR_close, 0), 0, fd);
	add(m, E(__NR_rename, "d/f", "d/g"));
	add(m, E(__NR_renameat, AT_FDCWD, "d/g", AT_FDCWD, "d/sub/h"));
	add(m, E(__NR_newfstatat, AT_FDCWD, "d/sub/h", &m->st2, 0));
	add(m, E(__NR_statx, AT_FDCWD, "d/sub/h", 0, STATX_BASIC_STATS,
		 &m->stx));
	add_flags(m, E(__NR_access, "d/f", F_OK), WSC_ENTRY_IGNORE_FAILURE);
	add(m, E(__NR_faccessat, AT_FDCWD, "d/sub/h", R_OK | W_OK));
	dir = add(m, E(__NR_openat, AT_FDCWD, "d/sub", O_RDONLY | O_DIRECTORY));
	m->i_dents = add_ref(m, E(__NR_getdents64, 0, m->dents,
				  sizeof(m->dents)), 0, dir);
	add_ref(m, E(__NR_unlinkat, 0, "h", 0), 0, dir);
	add_ref(m, E(__NR_close, 0), 0, dir);
	add_flags(m, E(__NR_unlink, "d/missing"), WSC_ENTRY_IGNORE_FAILURE);
	add(m, E(__NR_unlinkat, AT_FDCWD, "d/sub", AT_REMOVEDIR));
	add(m, E(__NR_unlinkat, AT_FDCWD, "d", AT_REMOVEDIR));
	add(m, E(__NR_pipe2, m->pipefd, O_CLOEXEC));
	add(m, E(__NR_write, pp[1], "p", 1));
	add(m, E(__NR_poll, &m->pfd, 1, 0));
	add(m, E(__NR_ppoll, &m->pfd, 1, &m->zero, NULL, 8));
	add(m, E(__NR_read, pp[0], m->pbuf, sizeof(m->pbuf)));
	add(m, E(__NR_sendto, sv[0], "dgram", 5, 0, NULL, 0));
	add(m, E(__NR_recvfrom, sv[1], m->sbuf, sizeof(m->sbuf), 0, NULL,
		 NULL));
	add(m, E(__NR_sendmsg, sv[0], &m->smsg, 0));
	add(m, E(__NR_recvmsg, sv[1], &m->rmsg, 0));
	map = m->i_map = add(m, E(__NR_mmap, NULL, 2 * PG,
				  PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	add_ref(m, E(__NR_mprotect, 0, PG, PROT_READ), 0, map);
	add_ref(m, E(__NR_madvise, 0, 2 * PG, MADV_DONTNEED), 0, map);
	add_ref(m, E(__NR_munmap, 0, 2 * PG), 0, map);
	add(m, E(__NR_brk, 0));
	add(m, E(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &m->oldmask, 8));
	add(m, E(__NR_rt_sigaction, SIGUSR1, NULL, &m->oldact, 8));
	add(m, E(__NR_futex, &m->word, FUTEX_WAKE_PRIVATE, 1));
	add_flags(m, E(__NR_futex, &m->word, FUTEX_WAIT_PRIVATE, 1, NULL),
		  WSC_ENTRY_IGNORE_FAILURE);
	add(m, E(__NR_nanosleep, &m->nap, NULL));
	add(m, E(WSC_NR_NOP, 7));
	add(m, E(__NR_getpid));
}

/* The names in a getdents64 buffer, in order, separated by '/'. */
static void dent_names(const char *buf, long len, char *out, size_t cap)
{
	long off = 0;

	out[0] = 0;
	while (off < len) {
		const struct dirent64_raw *d = (const void *)(buf + off);

		strncat(out, d->d_name, cap - strlen(out) - 2);
		strcat(out, "/");
		off += d->d_reclen;
	}
}

TEST_IN_TMP(batch_mixed)
{
	static struct mix mw, mc;
	struct wsc_result r[MIX_MAX];
	long res[MIX_MAX];
	char nw[64], nc[64];
	int pp[2], sv[2], low;
	unsigned int i;

	ASSERT_EQ(pipe2(pp, O_CLOEXEC), 0);
	unix_pair(SOCK_DGRAM, sv);
	dev();
	low = next_fd();

	mix_build(&mw, pp, sv);
	ASSERT_EQ(wsc_test_submit(dev(), mw.ent, r, mw.n, 0, NULL), (int)mw.n);
	/* The pipe it made works; closed, its numbers are free again. */
	EXPECT_EQ(mw.pipefd[0], low);
	EXPECT_EQ(write(mw.pipefd[1], "z", 1), 1);
	EXPECT_EQ(read(mw.pipefd[0], nw, 1), 1);
	close(mw.pipefd[0]);
	close(mw.pipefd[1]);

	/* The same entries, conventionally, on a second set of buffers. */
	mix_build(&mc, pp, sv);
	replay(mc.ent, res, mc.n);

	for (i = 0; i < mw.n; i++) {
		if (i == mw.i_map) {
			EXPECT_FALSE(is_err(r[i].ret));
			EXPECT_FALSE(is_err(res[i]));
			EXPECT_EQ(r[i].ret & (PG - 1), 0);
			continue;
		}
		if (r[i].ret != res[i])
			TH_LOG("entry %u (nr %u): wrapped %lld, "
			       "conventional %ld", i, mw.ent[i].nr,
			       (long long)r[i].ret, res[i]);
		EXPECT_EQ(r[i].ret, res[i]);
		/* Only the entries flagged to may fail. */
		if (mw.ent[i].flags & WSC_ENTRY_IGNORE_FAILURE)
			EXPECT_TRUE(is_err(r[i].ret));
		else
			EXPECT_FALSE(is_err(r[i].ret));
	}
	EXPECT_EQ(r[0].ret, getpid());
	EXPECT_EQ(r[mw.n - 1].ret, getpid());
	EXPECT_EQ(r[mw.n - 2].ret, 7);
	EXPECT_EQ(r[mw.i_fd].ret, low);
	EXPECT_EQ(r[mw.i_read].ret, 64);

	/* What the calls wrote into memory, wrapped and replayed. */
	EXPECT_EQ(memcmp(mw.rdata, mc.rdata, sizeof(mw.rdata)), 0);
	EXPECT_EQ(memcmp(mw.rdata + 12, mw.wdata + 12, 52), 0);
	EXPECT_EQ(memcmp(mw.rdata + 10, "XY", 2), 0);
	EXPECT_EQ(memcmp(mw.pr, "XY", 2), 0);
	EXPECT_EQ(memcmp(mw.vr1, "vector-1", 8), 0);
	EXPECT_EQ(memcmp(mw.vr2, "vector-2", 8), 0);
	EXPECT_EQ(memcmp(mw.vr1, mc.vr1, 8), 0);
	expect_twin_stat(&mw.st, &mc.st);
	EXPECT_EQ(mw.st.st_size, 80);
	expect_twin_stat(&mw.st2, &mc.st2);
	EXPECT_EQ(mw.stx.stx_size, mc.stx.stx_size);
	EXPECT_EQ(mw.stx.stx_mode, mc.stx.stx_mode);
	EXPECT_EQ(mw.stx.stx_mask, mc.stx.stx_mask);
	dent_names(mw.dents, r[mw.i_dents].ret, nw, sizeof(nw));
	dent_names(mc.dents, res[mc.i_dents], nc, sizeof(nc));
	EXPECT_EQ(strcmp(nw, nc), 0);
	EXPECT_TRUE(strstr(nw, "/h/") || !strncmp(nw, "h/", 2));
	EXPECT_EQ(mw.pipefd[0], mc.pipefd[0]);
	EXPECT_EQ(mw.pipefd[1], mc.pipefd[1]);
	EXPECT_EQ(mw.oldmask, mc.oldmask);
	EXPECT_EQ(memcmp(&mw.oldact, &mc.oldact, sizeof(mw.oldact)), 0);
	EXPECT_EQ(memcmp(mw.pbuf, mc.pbuf, sizeof(mw.pbuf)), 0);
	EXPECT_EQ(memcmp(mw.sbuf, "dgram", 5), 0);
	EXPECT_EQ(memcmp(mw.mbuf, "message", 7), 0);
	EXPECT_EQ(memcmp(mw.sbuf, mc.sbuf, sizeof(mw.sbuf)), 0);
	EXPECT_EQ(memcmp(mw.mbuf, mc.mbuf, sizeof(mw.mbuf)), 0);
	EXPECT_EQ(mw.rmsg.msg_flags, mc.rmsg.msg_flags);
	EXPECT_FALSE(exists("d"));
	close(mc.pipefd[0]);
	close(mc.pipefd[1]);
}

/* Every allowlisted call appears in the mixed batch: the list is covered. */
TEST(batch_covers_allowlist)
{
	static struct mix m;
	struct wsc_call_info ci;
	int pp[2] = { 0, 1 }, sv[2] = { 0, 1 }, rows = 0;
	unsigned int idx, i;
	bool found;

	mix_build(&m, pp, sv);
	for (idx = 0;; idx++) {
		memset(&ci, 0, sizeof(ci));
		ci.index = idx;
		if (ioctl(dev(), WSC_IOC_CALL_INFO, &ci))
			break;
		if (ci.nr == WSC_NR_NOP)
			continue;
		rows++;
		found = false;
		for (i = 0; i < m.n; i++)
			found |= m.ent[i].nr == ci.nr;
		if (!found)
			TH_LOG("%s (%u) is not in the mixed batch", ci.name,
			       ci.nr);
		EXPECT_TRUE(found);
	}
	EXPECT_EQ(errno, ENOENT);
	EXPECT_EQ(rows, 47);
}

/*
 * Failures and the chain: a failure cancels what follows until a new
 * chain, references to a failed entry cancel, cancelled entries have no
 * effect.  Replayed conventionally under the same rules.
 */
TEST_IN_TMP(batch_chain)
{
	struct wsc_result r[12];
	struct wsc_entry e[12];
	long res[12];
	char buf[4];
	unsigned int i, n = 0;

	e[n++] = ENT3(__NR_open, "missing", O_RDONLY, 0);
	e[n] = ENT3(__NR_read, 0, buf, sizeof(buf));
	e[n].ref_mask = 1;
	n++;
	e[n++] = ENT2(__NR_mkdir, "never", 0755);
	e[n] = ENT0(__NR_getpid);
	e[n++].flags = WSC_ENTRY_NEW_CHAIN;
	e[n] = ENT1(__NR_close, NOFD);
	e[n++].flags = WSC_ENTRY_IGNORE_FAILURE;
	e[n++] = ENT2(__NR_mkdir, "made", 0755);
	e[n++] = ENT1(__NR_close, NOFD);
	e[n++] = ENT0(__NR_getpid);
	e[n] = NOP(-EIO);
	e[n++].flags = WSC_ENTRY_NEW_CHAIN;
	e[n++] = ENT3(__NR_unlinkat, AT_FDCWD, "made", AT_REMOVEDIR);
	e[n] = ENT2(__NR_mkdir, "never", 0755);
	e[n].flags = WSC_ENTRY_NEW_CHAIN;
	e[n].ref_mask = 1;
	e[n++].args[0] = 0;		/* refers to the failed open */

	ASSERT_EQ(wsc_test_submit(dev(), e, r, n, 0, NULL), (int)n);
	EXPECT_EQ(r[0].ret, -ENOENT);
	EXPECT_EQ(r[1].ret, -ECANCELED);
	EXPECT_EQ(r[2].ret, -ECANCELED);
	EXPECT_EQ(r[3].ret, getpid());
	EXPECT_EQ(r[4].ret, -EBADF);
	EXPECT_EQ(r[5].ret, 0);
	EXPECT_EQ(r[6].ret, -EBADF);
	EXPECT_EQ(r[7].ret, -ECANCELED);
	EXPECT_EQ(r[8].ret, -EIO);
	EXPECT_EQ(r[9].ret, -ECANCELED);
	EXPECT_EQ(r[10].ret, -ECANCELED);
	EXPECT_TRUE(exists("made"));
	EXPECT_FALSE(exists("never"));

	ASSERT_EQ(rmdir("made"), 0);
	replay(e, res, n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(r[i].ret, res[i]);
	EXPECT_FALSE(exists("never"));
}

TEST_HARNESS_MAIN
