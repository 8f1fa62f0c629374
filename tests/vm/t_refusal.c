// SPDX-License-Identifier: GPL-2.0
/*
 * A wrapped call hides from nobody: where something follows the caller's
 * system calls one by one (a seccomp filter, a ptrace tracer, syscall
 * user dispatch) or the administrator's switch says no, the module
 * refuses the batch with -EOPNOTSUPP before anything runs, WSC_IOC_POLICY
 * says why, and libwsc runs the same calls as plain system calls, so that
 * the observer sees each one and acts on it exactly as for a program that
 * made them itself.  (Audit is tests/vm/t_observers.sh: it needs
 * auditctl.)
 */
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <grp.h>
#include <stddef.h>

#include <libwsc.h>

#include "util.h"

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH	59
#define PR_SYS_DISPATCH_ON		1
#define SYSCALL_DISPATCH_FILTER_ALLOW	0
#endif

static void install_filter(struct sock_filter *insns, unsigned short len)
{
	struct sock_fprog prog = { .len = len, .filter = insns };

	ASSERT_EQ(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	ASSERT_EQ(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog), 0);
}

/* A filter that allows everything: its mere presence must be enough. */
static void install_allow_all_filter(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

	install_filter(&allow, 1);
}

/* @action for system call @nr, everything else allowed. */
static void install_filter_on(unsigned int nr, unsigned int action)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	install_filter(f, sizeof(f) / sizeof(f[0]));
}

/*
 * A raw submission of one getpid: its return, error index and result;
 * the reasons it carries, and WSC_IOC_POLICY's, are @why.
 */
static void expect_refused(int fd, uint32_t why)
{
	struct wsc_entry ent[1] = { ENT0(SYS_getpid) };
	struct wsc_result res[1] = { { .ret = 77 } };
	struct wsc_submit s = { .entries = (uintptr_t)ent,
				.results = (uintptr_t)res, .count = 1,
				.error_index = 0, .refused = 0 };

	EXPECT_EQ(ioctl(fd, WSC_IOC_SUBMIT, &s), -1);
	EXPECT_EQ(errno, EOPNOTSUPP);
	EXPECT_EQ(s.error_index, WSC_NO_INDEX);
	EXPECT_EQ(s.refused, why);
	EXPECT_EQ(res[0].ret, 77);
	EXPECT_EQ(policy_refused(fd), why);
}

TEST(unobserved_task_may_submit)
{
	struct wsc_entry ent[1] = { ENT0(SYS_getpid) };
	struct wsc_result res[1];
	struct wsc_policy p;
	int fd = wsc_test_open();

	EXPECT_EQ(wsc_test_submit(fd, ent, res, 1, 0, NULL), 1);
	memset(&p, 0xff, sizeof(p));
	ASSERT_EQ(ioctl(fd, WSC_IOC_POLICY, &p), 0);
	EXPECT_EQ(p.refused, 0);
	EXPECT_EQ(p.disabled, WSC_DISABLED_NONE);
	EXPECT_EQ(p.group, WSC_NO_GROUP);
	EXPECT_EQ(p.reserved[0] | p.reserved[4], 0);
}

/* WSC_IOC_POLICY writes to the caller's memory: a bad pointer is -EFAULT. */
TEST(policy_bad_pointer)
{
	int fd = wsc_test_open();

	EXPECT_EQ(ioctl(fd, WSC_IOC_POLICY, NULL), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(ioctl(fd, WSC_IOC_POLICY, (void *)8), -1);
	EXPECT_EQ(errno, EFAULT);
	/* Read-only memory: the copy-out must fail, not the kernel. */
	EXPECT_EQ(ioctl(fd, WSC_IOC_POLICY, (void *)"read-only string of 32 bytes!!!"), -1);
	EXPECT_EQ(errno, EFAULT);
}

TEST(seccomp_filter_refuses_raw_submit)
{
	struct wsc_version v;
	int fd = wsc_test_open();

	install_allow_all_filter();
	expect_refused(fd, WSC_REFUSED_SECCOMP);
	EXPECT_EQ(ioctl(fd, WSC_IOC_VERSION, &v), 0);
}

/* A descriptor opened before the filter does not help either. */
TEST(filter_after_open_still_refused)
{
	struct wsc_entry ent[1] = { ENT0(SYS_getpid) };
	struct wsc_result res[1];
	int fd = wsc_test_open();

	EXPECT_EQ(wsc_test_submit(fd, ent, res, 1, 0, NULL), 1);
	install_allow_all_filter();
	expect_refused(fd, WSC_REFUSED_SECCOMP);
}

/* A path in a new folder of its own: DIR/f, DIR from mkdtemp(3). */
static void fresh_path(char path[static 32])
{
	strcpy(path, "/tmp/wsc-refusal.XXXXXX");
	ASSERT_TRUE(mkdtemp(path) != NULL);
	strcat(path, "/f");
}

/*
 * The cp-like transaction through libwsc: openat(O_CREAT), write to its
 * result, close it, unlinkat, as one batch.  Returns the batch, run.
 */
static struct wsc_batch *run_transaction(const char *path, int64_t *res)
{
	static const char data[] = "wsc";
	struct wsc_batch *b;
	int e[4], i;

	ASSERT_EQ(wsc_batch_create(&b, 0), 0);
	e[0] = wsc_prep_openat(b, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	e[1] = wsc_prep_write(b, 0, data, 3);
	ASSERT_EQ(wsc_entry_ref(b, e[1], 0, e[0]), 0);
	e[2] = wsc_prep_close(b, 0);
	ASSERT_EQ(wsc_entry_ref(b, e[2], 0, e[0]), 0);
	e[3] = wsc_prep_unlinkat(b, AT_FDCWD, path, 0);
	ASSERT_EQ(wsc_batch_submit(b), 4);
	for (i = 0; i < 4; i++)
		res[i] = wsc_batch_result(b, e[i]);
	return b;
}

TEST(libwsc_runs_a_filtered_batch_plain)
{
	struct wsc_batch *b;
	int64_t res[4];
	char path[32];

	fresh_path(path);
	install_allow_all_filter();
	b = run_transaction(path, res);
	EXPECT_TRUE(res[0] >= 0);
	EXPECT_EQ(res[1], 3);
	EXPECT_EQ(res[2], 0);
	EXPECT_EQ(res[3], 0);
	EXPECT_EQ(access(path, F_OK), -1);
	EXPECT_EQ(wsc_batch_refused(b), WSC_REFUSED_SECCOMP);
	EXPECT_EQ(wsc_batch_conventional_calls(b), 4);
	EXPECT_TRUE(wsc_batch_is_native(b));
	EXPECT_EQ(strcmp(wsc_refusal_name(WSC_REFUSED_SECCOMP), "seccomp"), 0);
	wsc_batch_destroy(b);
}

/* ERRNO(EACCES) on openat: the batch's openat fails as a plain one does. */
TEST(seccomp_errno_applies_to_each_call)
{
	struct wsc_batch *b;
	int64_t res[4];
	char path[32];

	fresh_path(path);
	install_filter_on(SYS_openat, SECCOMP_RET_ERRNO | EACCES);
	EXPECT_EQ(syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT, 0600), -1);
	EXPECT_EQ(errno, EACCES);
	b = run_transaction(path, res);
	EXPECT_EQ(res[0], -EACCES);
	EXPECT_EQ(res[1], -ECANCELED);
	EXPECT_EQ(res[2], -ECANCELED);
	EXPECT_EQ(res[3], -ECANCELED);
	EXPECT_EQ(access(path, F_OK), -1);
	wsc_batch_destroy(b);
}

/* TRAP on getppid: SIGSYS names getppid; the handler's return stands. */
static volatile sig_atomic_t sigsys_nr = -1;

static void on_sigsys(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;

	(void)sig;
	sigsys_nr = si->si_syscall;
	uc->uc_mcontext.gregs[REG_RAX] = 4242;
}

TEST(seccomp_trap_signals_the_call)
{
	struct sigaction sa = { .sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO };
	struct wsc_batch *b;
	int e[3];

	ASSERT_EQ(sigaction(SIGSYS, &sa, NULL), 0);
	install_filter_on(SYS_getppid, SECCOMP_RET_TRAP);
	ASSERT_EQ(wsc_batch_create(&b, 0), 0);
	e[0] = wsc_prep_getpid(b);
	e[1] = wsc_prep_getppid(b);
	e[2] = wsc_prep_gettid(b);
	EXPECT_EQ(wsc_batch_submit(b), 3);
	EXPECT_EQ(wsc_batch_result(b, e[0]), getpid());
	EXPECT_EQ(sigsys_nr, SYS_getppid);
	EXPECT_EQ(wsc_batch_result(b, e[1]), 4242);
	EXPECT_EQ(wsc_batch_result(b, e[2]), gettid());
	wsc_batch_destroy(b);
}

/*
 * USER_NOTIF on getppid: a supervisor thread answers each notification
 * with 777, and the batch's getppid returns what it said, as a plain one.
 */
static void *supervise(void *arg)
{
	int listener = (int)(intptr_t)arg;
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	long answered = 0;

	for (;;) {
		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req))
			break;
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.val = req.data.nr == SYS_getppid ? 777 : 0;
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp) == 0)
			answered++;
	}
	return (void *)answered;
}

TEST(seccomp_user_notif_answers_each_call)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = f };
	struct wsc_batch *b;
	pthread_t t;
	int listener, e[3];

	ASSERT_EQ(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	listener = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			   SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	ASSERT_TRUE(listener >= 0);
	ASSERT_EQ(pthread_create(&t, NULL, supervise, (void *)(intptr_t)listener), 0);
	ASSERT_EQ(wsc_batch_create(&b, 0), 0);
	e[0] = wsc_prep_getppid(b);
	e[1] = wsc_prep_getpid(b);
	e[2] = wsc_prep_getppid(b);
	EXPECT_EQ(wsc_batch_submit(b), 3);
	EXPECT_EQ(wsc_batch_result(b, e[0]), 777);
	EXPECT_EQ(wsc_batch_result(b, e[1]), getpid());
	EXPECT_EQ(wsc_batch_result(b, e[2]), 777);
	EXPECT_EQ(syscall(SYS_getppid), 777);
	EXPECT_EQ(wsc_batch_refused(b), WSC_REFUSED_SECCOMP);
	wsc_batch_destroy(b);
}

/*
 * KILL_PROCESS on unlinkat, the batch made in a child: killed by SIGSYS
 * at the unlinkat, the file created before it still there, as for a
 * plain program.
 */
TEST(seccomp_kill_stops_at_the_call)
{
	char path[32];
	int status;
	pid_t pid;

	fresh_path(path);
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		int64_t res[4];

		install_filter_on(SYS_unlinkat, SECCOMP_RET_KILL_PROCESS);
		run_transaction(path, res);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS);
	EXPECT_EQ(access(path, F_OK), 0);
	unlink(path);
}

/*
 * A filter another thread installs with TSYNC while a batch sleeps takes
 * effect before the batch's next call, as it would before the next system
 * call: the module stops there, and libwsc runs the rest plain.
 */
static uint32_t futex_word;

static void *install_then_wake(void *arg)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = 1, .filter = &allow };
	long ret;

	(void)arg;
	usleep(100000);
	ret = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		      SECCOMP_FILTER_FLAG_TSYNC, &prog);
	__atomic_store_n(&futex_word, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &futex_word, FUTEX_WAKE, 1, NULL, NULL, 0);
	return (void *)ret;
}

TEST(filter_synced_mid_batch_stops_it)
{
	struct wsc_entry ent[3];
	struct wsc_result res[3];
	int fd = wsc_test_open();
	pthread_t t;
	void *ret;

	ASSERT_EQ(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	ent[0] = ENT0(SYS_getpid);
	ent[1] = wsc_ent(SYS_futex, (uintptr_t)&futex_word, FUTEX_WAIT, 0, 0, 0, 0);
	ent[1].flags = WSC_ENTRY_IGNORE_FAILURE;
	ent[2] = ENT0(SYS_getpid);
	ASSERT_EQ(pthread_create(&t, NULL, install_then_wake, NULL), 0);
	EXPECT_EQ(wsc_test_submit(fd, ent, res, 3, 0, NULL), 2);
	ASSERT_EQ(pthread_join(t, &ret), 0);
	ASSERT_EQ((long)ret, 0);
	EXPECT_EQ(res[0].ret, getpid());
	EXPECT_TRUE(res[1].ret == 0 || res[1].ret == -EAGAIN);
	expect_refused(fd, WSC_REFUSED_SECCOMP);
}

TEST(libwsc_resumes_plain_where_the_module_stopped)
{
	struct wsc_batch *b;
	pthread_t t;
	void *ret;
	int e[3];

	ASSERT_EQ(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	ASSERT_EQ(wsc_batch_create(&b, 0), 0);
	e[0] = wsc_prep_getpid(b);
	e[1] = wsc_prep_futex(b, &futex_word, FUTEX_WAIT, 0, NULL, NULL, 0);
	ASSERT_EQ(wsc_entry_set_flags(b, e[1], WSC_ENTRY_IGNORE_FAILURE), 0);
	e[2] = wsc_prep_gettid(b);
	ASSERT_EQ(pthread_create(&t, NULL, install_then_wake, NULL), 0);
	EXPECT_EQ(wsc_batch_submit(b), 3);
	ASSERT_EQ(pthread_join(t, &ret), 0);
	EXPECT_EQ(wsc_batch_result(b, e[0]), getpid());
	EXPECT_EQ(wsc_batch_result(b, e[2]), gettid());
	EXPECT_EQ(wsc_batch_conventional_calls(b), 1);
	EXPECT_EQ(wsc_batch_refused(b), WSC_REFUSED_SECCOMP);
	wsc_batch_destroy(b);
}

/*
 * A tracer at every system-call stop (PTRACE_SYSCALL, as strace): it sees
 * each getppid of a libwsc batch, three entry stops, as it would for a
 * plain program; the module refuses the tracee with WSC_REFUSED_PTRACE.
 */
TEST(ptrace_tracer_sees_each_call)
{
	int status, entries = 0, in_call = 0;
	pid_t pid;

	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		struct wsc_batch *b;
		int fd = wsc_test_open();

		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(10);
		raise(SIGSTOP);
		if (policy_refused(fd) != WSC_REFUSED_PTRACE)
			_exit(11);
		if (wsc_batch_create(&b, 0))
			_exit(12);
		wsc_prep_getppid(b);
		wsc_prep_getppid(b);
		wsc_prep_getppid(b);
		if (wsc_batch_submit(b) != 3 || wsc_batch_result(b, 2) != getppid() ||
		    wsc_batch_refused(b) != WSC_REFUSED_PTRACE)
			_exit(13);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFSTOPPED(status));
	ASSERT_EQ(ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)PTRACE_O_TRACESYSGOOD), 0);
	for (;;) {
		struct user_regs_struct regs;

		ASSERT_EQ(ptrace(PTRACE_SYSCALL, pid, NULL, NULL), 0);
		ASSERT_EQ(waitpid(pid, &status, 0), pid);
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		if (!WIFSTOPPED(status) || WSTOPSIG(status) != (SIGTRAP | 0x80))
			continue;
		in_call = !in_call;
		ASSERT_EQ(ptrace(PTRACE_GETREGS, pid, NULL, &regs), 0);
		if (in_call && regs.orig_rax == SYS_getppid)
			entries++;
	}
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(WEXITSTATUS(status), 0);
	/* The batch's three, and the check of its last result. */
	EXPECT_EQ(entries, 4);
}

/* Syscall user dispatch on: refused, and the batch still runs. */
TEST(user_dispatch_refuses)
{
	static volatile char selector = SYSCALL_DISPATCH_FILTER_ALLOW;
	struct wsc_batch *b;
	int fd = wsc_test_open();
	int e;

	if (prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0, 0,
		  &selector))
		SKIP("PR_SET_SYSCALL_USER_DISPATCH: %s\n", strerror(errno));
	expect_refused(fd, WSC_REFUSED_USER_DISPATCH);
	ASSERT_EQ(wsc_batch_create(&b, 0), 0);
	e = wsc_prep_getpid(b);
	EXPECT_EQ(wsc_batch_submit(b), 1);
	EXPECT_EQ(wsc_batch_result(b, e), getpid());
	EXPECT_EQ(wsc_batch_refused(b), WSC_REFUSED_USER_DISPATCH);
}

/*
 * The administrator's switch, /sys/module/wsc/parameters/{disabled,group}.
 * Every case puts both back before it checks anything, so that a failure
 * leaves the module as the next test expects it.
 */
/* What a raw getpid submission returns as uid/gid @id (0: as root). */
static int submit_as(unsigned int id, uint32_t *refused)
{
	int status, fds[2];
	pid_t pid;

	if (pipe(fds))
		return -errno;
	pid = fork();
	if (pid == 0) {
		struct wsc_entry ent[1] = { ENT0(SYS_getpid) };
		struct wsc_result res[1];
		int fd = wsc_test_open(), ret;
		uint32_t why;

		if (id && (setgroups(0, NULL) || setresgid(id, id, id) ||
			   setresuid(id, id, id)))
			_exit(100);
		ret = wsc_test_submit(fd, ent, res, 1, 0, NULL);
		why = policy_refused(fd);
		if (write(fds[1], &why, sizeof(why)) != sizeof(why))
			_exit(101);
		_exit(ret == 1 ? 0 : ret == -EOPNOTSUPP ? 1 : 102);
	}
	close(fds[1]);
	if (read(fds[0], refused, sizeof(*refused)) != sizeof(*refused))
		*refused = ~0u;
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -ECHILD;
	return WEXITSTATUS(status) == 0 ? 1 :
	       WEXITSTATUS(status) == 1 ? -EOPNOTSUPP : -WEXITSTATUS(status);
}

TEST(admin_switch)
{
	uint32_t why[6];
	int ret[7], bad[4], back;

	ret[0] = write_param("disabled", "2");
	ret[1] = submit_as(0, &why[0]);
	ret[2] = write_param("disabled", "1");
	ret[3] = submit_as(0, &why[1]);		/* CAP_SYS_ADMIN */
	ret[4] = submit_as(65534, &why[2]);	/* nobody, no group */
	write_param("group", "65534");
	ret[5] = submit_as(65534, &why[3]);	/* nobody, in the group */
	ret[6] = submit_as(65533, &why[4]);	/* another, not in it */
	bad[0] = write_param("disabled", "3");
	bad[1] = write_param("disabled", "-1");
	bad[2] = write_param("group", "-2");
	bad[3] = write_param("disabled", "zero");
	write_param("disabled", "0");
	write_param("group", "-1");
	back = submit_as(65534, &why[5]);	/* everyone again */

	EXPECT_EQ(ret[0], 0);
	EXPECT_EQ(back, 1);
	EXPECT_EQ(ret[1], -EOPNOTSUPP);
	EXPECT_EQ(why[0], WSC_REFUSED_DISABLED);
	EXPECT_EQ(ret[2], 0);
	EXPECT_EQ(ret[3], 1);
	EXPECT_EQ(why[1], 0);
	EXPECT_EQ(ret[4], -EOPNOTSUPP);
	EXPECT_EQ(why[2], WSC_REFUSED_DISABLED);
	EXPECT_EQ(ret[5], 1);
	EXPECT_EQ(why[3], 0);
	EXPECT_EQ(ret[6], -EOPNOTSUPP);
	EXPECT_EQ(why[4], WSC_REFUSED_DISABLED);
	EXPECT_EQ(why[5], 0);
	EXPECT_EQ(bad[0], -EINVAL);
	EXPECT_EQ(bad[1], -EINVAL);
	EXPECT_EQ(bad[2], -EINVAL);
	EXPECT_EQ(bad[3], -EINVAL);
}

/* Refused by the switch, libwsc runs the batch plain all the same. */
TEST(admin_switch_libwsc_runs_plain)
{
	struct wsc_batch *b;
	int e, w, r, n;
	int64_t got;

	w = write_param("disabled", "2");
	r = wsc_batch_create(&b, 0);
	e = wsc_prep_getpid(b);
	n = wsc_batch_submit(b);
	got = wsc_batch_result(b, e);
	write_param("disabled", "0");
	EXPECT_EQ(w, 0);
	EXPECT_EQ(r, 0);
	EXPECT_EQ(n, 1);
	EXPECT_EQ(got, getpid());
	EXPECT_EQ(wsc_batch_refused(b), WSC_REFUSED_DISABLED);
	EXPECT_EQ(wsc_batch_conventional_calls(b), 1);
	wsc_batch_destroy(b);
}

TEST_HARNESS_MAIN
