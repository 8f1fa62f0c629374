// SPDX-License-Identifier: GPL-2.0
/*
 * Nothing hidden in flight: a batch that was accepted obeys every switch
 * and observer that appears while it runs.
 *
 * Each case is the attack as an unprivileged user would make it: a child
 * as uid 65534 submits [getpid, read(pipe), getppid, getppid] and blocks
 * in the read; root changes something while it blocks (the module's
 * switch, audit), then writes the byte.  The batch must stop before its
 * third call, and the resubmission be refused with the reason; through
 * libwsc the two calls left run plain, nothing twice, nothing lost.
 *
 * And the memory a caller pins through the module is charged to its
 * memory cgroup at the size it pins: 700 descriptors each holding the
 * largest buffer, inside a 64 MiB cgroup.
 */
#include <fcntl.h>
#include <grp.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <libwsc.h>

#include "util.h"

#define NOBODY		65534
#define ENTRIES		4

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Is @pid asleep inside an ioctl?  Inside a batch the kernel shows the
 * ioctl (/proc/PID/syscall), and the only call of these batches that
 * sleeps is the read of the pipe.
 */
static bool asleep_in_ioctl(pid_t pid)
{
	char path[64], buf[512], state = 0;
	long nr = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fscanf(f, "%ld", &nr) != 1)
		nr = -1;
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f) && strrchr(buf, ')'))
		state = strrchr(buf, ')')[2];
	fclose(f);
	return nr == SYS_ioctl && state == 'S';
}

/* What the child saw, sent back through a pipe. */
struct report {
	int first;		/* raw: the first submission's return */
	int second;		/* raw: the resubmission's */
	uint32_t why;		/* WSC_IOC_POLICY after both */
	int n;			/* libwsc: wsc_batch_submit() */
	unsigned int plain;	/* libwsc: calls it made plain */
	uint32_t refused;	/* libwsc: wsc_batch_refused() */
	int64_t ret[ENTRIES];
	pid_t pid, ppid;
};

enum how { RAW, LIBWSC };

/* As uid and gid @id, in @group too if it is not 0. */
static int become(unsigned int id, gid_t group)
{
	if (setgroups(group ? 1 : 0, &group))
		return -1;
	if (setresgid(id, id, id) || setresuid(id, id, id))
		return -1;
	return 0;
}

static void child_raw(int rfd, struct report *r)
{
	struct wsc_entry ent[ENTRIES];
	struct wsc_result res[ENTRIES];
	char byte;
	int fd = wsc_test_open();
	int i;

	ent[0] = ENT0(SYS_getpid);
	ent[1] = ENT3(SYS_read, rfd, (uintptr_t)&byte, 1);
	ent[2] = ENT0(SYS_getppid);
	ent[3] = ENT0(SYS_getppid);
	for (i = 0; i < ENTRIES; i++)
		res[i].ret = 77;
	r->first = wsc_test_submit(fd, ent, res, ENTRIES, 0, NULL);
	r->second = wsc_test_submit(fd, ent + 2, res + 2, 2, 0, NULL);
	r->why = policy_refused(fd);
	for (i = 0; i < ENTRIES; i++)
		r->ret[i] = res[i].ret;
}

static void child_libwsc(int rfd, struct report *r)
{
	struct wsc_batch *b;
	char byte;
	int i;

	if (wsc_batch_create(&b, 0))
		return;
	wsc_prep_getpid(b);
	wsc_prep_read(b, rfd, &byte, 1);
	wsc_prep_getppid(b);
	wsc_prep_getppid(b);
	r->n = wsc_batch_submit(b);
	r->plain = wsc_batch_conventional_calls(b);
	r->refused = wsc_batch_refused(b);
	for (i = 0; i < ENTRIES; i++)
		r->ret[i] = wsc_batch_result(b, i);
	wsc_batch_destroy(b);
}

/*
 * Run the batch @how as uid 65534 (in @group if not 0); once it sleeps
 * in the read, call @change(), then let the read go on.
 */
static int blocked_batch(enum how how, gid_t group, int (*change)(void),
			 struct report *r)
{
	int data[2], back[2], status, changed, waited = 0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (pipe(data) || pipe(back))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		struct report mine = { .first = 77, .second = 77 };

		close(data[1]);
		close(back[0]);
		if (become(NOBODY, group))
			_exit(100);
		if (how == RAW)
			child_raw(data[0], &mine);
		else
			child_libwsc(data[0], &mine);
		mine.pid = getpid();
		mine.ppid = getppid();
		_exit(write(back[1], &mine, sizeof(mine)) == sizeof(mine) ? 0 : 101);
	}
	close(data[0]);
	close(back[1]);
	while (!asleep_in_ioctl(pid) && waited++ < 2000)
		sleep_ms(10);
	changed = asleep_in_ioctl(pid) ? change() : -ETIMEDOUT;
	signal(SIGPIPE, SIG_IGN);
	if (write(data[1], "x", 1) != 1)
		changed = -EPIPE;
	close(data[1]);
	if (read(back[0], r, sizeof(*r)) != sizeof(*r))
		changed = -EIO;
	close(back[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -ECHILD;
	return changed;
}

/* The module stopped the batch after the read; the rest was refused. */
static void expect_stopped_raw(const struct report *r, uint32_t why)
{
	EXPECT_EQ(r->first, 2);
	EXPECT_EQ(r->ret[0], r->pid);
	EXPECT_EQ(r->ret[1], 1);
	EXPECT_EQ(r->ret[2], 77);	/* not run, not written */
	EXPECT_EQ(r->second, -EOPNOTSUPP);
	EXPECT_EQ(r->why, why);
}

/* libwsc ran the two calls after the read plain, each once. */
static void expect_stopped_libwsc(const struct report *r, uint32_t why)
{
	EXPECT_EQ(r->n, ENTRIES);
	EXPECT_EQ(r->plain, 2);
	EXPECT_EQ(r->refused, why);
	EXPECT_EQ(r->ret[0], r->pid);
	EXPECT_EQ(r->ret[1], 1);
	EXPECT_EQ(r->ret[2], r->ppid);
	EXPECT_EQ(r->ret[3], r->ppid);
}

static int disable_all(void)
{
	return write_param("disabled", "2");
}

static int drop_group(void)
{
	return write_param("group", "-1");
}

static void reset_switch(void)
{
	write_param("disabled", "0");
	write_param("group", "-1");
}

TEST(switch_set_mid_batch_stops_it)
{
	struct report raw, lib;
	int c1, c2;

	c1 = blocked_batch(RAW, 0, disable_all, &raw);
	reset_switch();
	c2 = blocked_batch(LIBWSC, 0, disable_all, &lib);
	reset_switch();
	ASSERT_EQ(c1, 0);
	ASSERT_EQ(c2, 0);
	expect_stopped_raw(&raw, WSC_REFUSED_DISABLED);
	expect_stopped_libwsc(&lib, WSC_REFUSED_DISABLED);
}

/* disabled=1: a member of the group, dropped from it mid-batch. */
TEST(group_dropped_mid_batch_stops_it)
{
	struct report raw, lib;
	int c1, c2;

	write_param("disabled", "1");
	write_param("group", "65534");
	c1 = blocked_batch(RAW, NOBODY, drop_group, &raw);
	write_param("group", "65534");
	c2 = blocked_batch(LIBWSC, NOBODY, drop_group, &lib);
	reset_switch();
	ASSERT_EQ(c1, 0);
	ASSERT_EQ(c2, 0);
	expect_stopped_raw(&raw, WSC_REFUSED_DISABLED);
	expect_stopped_libwsc(&lib, WSC_REFUSED_DISABLED);
}

/* A write that changes nothing costs one resubmission, which is accepted. */
static int same_again(void)
{
	return write_param("disabled", "0");
}

TEST(switch_rewritten_unchanged_loses_nothing)
{
	struct report lib;

	ASSERT_EQ(blocked_batch(LIBWSC, 0, same_again, &lib), 0);
	EXPECT_EQ(lib.n, ENTRIES);
	EXPECT_EQ(lib.plain, 0);
	EXPECT_EQ(lib.refused, 0);
	EXPECT_EQ(lib.ret[1], 1);
	EXPECT_EQ(lib.ret[3], lib.ppid);
}

/* auditctl -e N, quietly; 0 when it worked. */
static int audit_enable(int on)
{
	return system(on ? "auditctl -e 1 >/dev/null 2>&1" :
			   "auditctl -e 0 >/dev/null 2>&1") ? -EIO : 0;
}

static int audit_on(void)
{
	return audit_enable(1);
}

/*
 * Audit switched on while the batch blocks.  The child must have an
 * audit context, which a task gets at fork once audit was ever enabled:
 * on, then off, then the child.
 */
TEST(audit_enabled_mid_batch_stops_it)
{
	struct report raw, lib;
	int c1, c2;

	if (system("command -v auditctl >/dev/null"))
		SKIP("no auditctl (tools/install-deps --base installs auditd)\n");
	if (audit_enable(1) || audit_enable(0))
		SKIP("auditctl -e: this kernel has no audit\n");
	c1 = blocked_batch(RAW, 0, audit_on, &raw);
	audit_enable(0);
	c2 = blocked_batch(LIBWSC, 0, audit_on, &lib);
	audit_enable(0);
	ASSERT_EQ(c1, 0);
	ASSERT_EQ(c2, 0);
	expect_stopped_raw(&raw, WSC_REFUSED_AUDIT);
	expect_stopped_libwsc(&lib, WSC_REFUSED_AUDIT);
}

/*
 * The rule-reload window: `auditctl -R` of a file that begins with -D
 * leaves audit on with no rules for a moment.  An unprivileged loop that
 * resubmits throughout 20 reloads must never be let in: audit on is
 * refusal enough, rules or not.
 */
TEST(audit_reload_never_lets_a_batch_in)
{
	char dir[] = "/tmp/wsc-reload.XXXXXX", rules[64], cmd[160];
	int go[2], status, i, accepted = -1;
	FILE *f;
	pid_t pid;

	if (system("command -v auditctl >/dev/null"))
		SKIP("no auditctl (tools/install-deps --base installs auditd)\n");
	if (audit_enable(1))
		SKIP("auditctl -e: this kernel has no audit\n");
	ASSERT_TRUE(mkdtemp(dir) != NULL);
	ASSERT_EQ(mount("wsc-reload", dir, "tmpfs", 0, "mode=0777"), 0);
	snprintf(rules, sizeof(rules), "%s.rules", dir);
	f = fopen(rules, "we");
	ASSERT_TRUE(f != NULL);
	fprintf(f, "-D\n-w %s -p wa -k wsc_reload\n", dir);
	fclose(f);
	ASSERT_EQ(pipe(go), 0);
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		char path[96], c;
		long n = 0;
		int fd, in = 0;

		close(go[1]);
		if (become(NOBODY, 0))
			_exit(255);
		fd = wsc_test_open();
		snprintf(path, sizeof(path), "%s/f", dir);
		/*
		 * Until the parent closes the pipe (the bound is the harness's
		 * time limit's): resubmit, count the accepted.
		 */
		fcntl(go[0], F_SETFL, O_NONBLOCK);
		while (read(go[0], &c, 1) < 0 && n++ < 50000000) {
			struct wsc_entry ent[2] = {
				ENT4(SYS_openat, AT_FDCWD, (uintptr_t)path,
				     O_WRONLY | O_CREAT, 0600),
				ENT1(SYS_close, 0),
			};
			struct wsc_result res[2];

			ent[1].ref_mask = 1;
			if (wsc_test_submit(fd, ent, res, 2, 0, NULL) > 0)
				in++;
		}
		_exit(in > 254 ? 254 : in);
	}
	close(go[0]);
	snprintf(cmd, sizeof(cmd), "auditctl -R %s >/dev/null 2>&1", rules);
	for (i = 0; i < 20; i++)
		system(cmd);
	close(go[1]);
	if (waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		accepted = WEXITSTATUS(status);
	system("auditctl -D >/dev/null 2>&1");
	audit_enable(0);
	umount(dir);
	rmdir(dir);
	unlink(rules);
	EXPECT_EQ(accepted, 0);
}

/* A number from a "KEY VALUE" line of @path, in bytes (kB lines * 1024). */
static long long field(const char *path, const char *key)
{
	char line[256];
	long long v = -1;
	size_t len = strlen(key);
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, len) || line[len] != ':')
			continue;
		v = strtoll(line + len + 1, NULL, 10);
		if (strstr(line, "kB"))
			v *= 1024;
		break;
	}
	fclose(f);
	return v;
}

static long long read_number(const char *path)
{
	char buf[64] = "";
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return buf[0] ? strtoll(buf, NULL, 10) : -1;
}

/* What the kernel pins in slabs and vmalloc areas, in bytes. */
static long long pinned(void)
{
	return field("/proc/meminfo", "Slab") +
	       field("/proc/meminfo", "VmallocUsed");
}

#define MEM_FDS		700

/*
 * 700 descriptors, each keeping the buffer of one batch of the most entries
 * a batch may hold (the largest class), inside a cgroup of 64 MiB: what
 * the kernel pins for them (slab and vmalloc, before and after) must be
 * charged to the cgroup, at 95% or more.  The slab cache of wsc 0.2
 * pinned 128 KiB per buffer and charged 72 KiB.
 */
TEST(memory_charged_at_the_size_pinned)
{
	char cg[64], path[128], pidbuf[16];
	long long pin0, pin1, cur0, cur1;
	int ready[2], go[2], status;
	char c;
	pid_t pid;

	if (access("/sys/fs/cgroup/cgroup.subtree_control", W_OK))
		SKIP("no cgroup v2 at /sys/fs/cgroup\n");
	write_file("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	snprintf(cg, sizeof(cg), "/sys/fs/cgroup/wsc-mem-%d", (int)getpid());
	ASSERT_EQ(mkdir(cg, 0755), 0);
	snprintf(path, sizeof(path), "%s/memory.max", cg);
	if (write_file(path, "67108864")) {
		rmdir(cg);
		SKIP("no memory controller in the cgroup\n");
	}
	ASSERT_EQ(pipe(ready), 0);
	ASSERT_EQ(pipe(go), 0);
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		static struct wsc_entry ent[WSC_MAX_ENTRIES];
		static struct wsc_result res[WSC_MAX_ENTRIES];
		struct rlimit rl = { MEM_FDS + 64, MEM_FDS + 64 };
		int i, fds[MEM_FDS];

		setrlimit(RLIMIT_NOFILE, &rl);
		for (i = 0; i < WSC_MAX_ENTRIES; i++)
			ent[i] = NOP(i);
		memset(res, 0, sizeof(res));
		/* Everything but the module's part is in place: measure now. */
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		for (i = 0; i < MEM_FDS; i++) {
			fds[i] = wsc_test_open();
			if (wsc_test_submit(fds[i], ent, res, WSC_MAX_ENTRIES,
					    0, NULL) != WSC_MAX_ENTRIES)
				_exit(2);
		}
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(3);
		_exit(0);
	}
	close(ready[1]);
	close(go[0]);
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(pidbuf, sizeof(pidbuf), "%d", (int)pid);
	ASSERT_EQ(write_file(path, pidbuf), 0);
	snprintf(path, sizeof(path), "%s/memory.current", cg);
	ASSERT_EQ(read(ready[0], &c, 1), 1);
	pin0 = pinned();
	cur0 = read_number(path);
	ASSERT_EQ(write(go[1], "g", 1), 1);
	ASSERT_EQ(read(ready[0], &c, 1), 1);
	pin1 = pinned();
	cur1 = read_number(path);
	ASSERT_EQ(write(go[1], "g", 1), 1);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	rmdir(cg);
	TH_LOG("%d descriptors with a %d-entry buffer each: pinned %lld KiB, charged %lld KiB (%lld%%)",
	       MEM_FDS, WSC_MAX_ENTRIES, (pin1 - pin0) / 1024,
	       (cur1 - cur0) / 1024,
	       pin1 > pin0 ? 100 * (cur1 - cur0) / (pin1 - pin0) : -1);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* The buffers alone are 700 x 73,736 bytes: the test saw them. */
	EXPECT_GE(pin1 - pin0, (long long)MEM_FDS * 73736);
	EXPECT_GE(100 * (cur1 - cur0), 95 * (pin1 - pin0));
}

TEST_HARNESS_MAIN
