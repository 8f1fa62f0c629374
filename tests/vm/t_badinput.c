// SPDX-License-Identifier: GPL-2.0
/*
 * Every malformed submission is refused with a clear errno and the index
 * of the entry at fault, and nothing of it runs.  Each batch here starts
 * with a write to a pipe, so "nothing ran" is checked by the pipe staying
 * empty.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "util.h"

struct fixture {
	int fd;
	int pipe[2];
	struct wsc_entry ent[8];
	struct wsc_result res[8];
};

/* ent[0] writes a byte to the pipe, ent[1..7] are harmless no-ops. */
static void setup(struct fixture *f)
{
	int i;

	f->fd = wsc_test_open();
	ASSERT_EQ(pipe2(f->pipe, O_NONBLOCK), 0);
	f->ent[0] = ENT3(SYS_write, f->pipe[1], "!", 1);
	for (i = 1; i < 8; i++)
		f->ent[i] = NOP(0);
	memset(f->res, 0x5a, sizeof(f->res));
}

static void expect_nothing_ran(struct fixture *f)
{
	char c;

	EXPECT_EQ(read(f->pipe[0], &c, 1), -1);
	EXPECT_EQ(errno, EAGAIN);
}

static void expect_refused(struct fixture *f, uint32_t count, uint32_t flags,
			   int err, uint32_t index)
{
	uint32_t error_index = 12345;

	EXPECT_EQ(wsc_test_submit(f->fd, f->ent, f->res, count, flags,
				  &error_index), -err);
	EXPECT_EQ(error_index, index);
	expect_nothing_ran(f);
}

TEST(well_formed_batch_runs)
{
	struct fixture f;
	char c;

	setup(&f);
	ASSERT_EQ(wsc_test_submit(f.fd, f.ent, f.res, 8, 0, NULL), 8);
	EXPECT_EQ(f.res[0].ret, 1);
	EXPECT_EQ(read(f.pipe[0], &c, 1), 1);
}

TEST(count_zero)
{
	struct fixture f;

	setup(&f);
	expect_refused(&f, 0, 0, EINVAL, WSC_NO_INDEX);
}

TEST(count_over_maximum)
{
	struct fixture f;

	setup(&f);
	expect_refused(&f, WSC_MAX_ENTRIES + 1, 0, E2BIG, WSC_NO_INDEX);
	expect_refused(&f, UINT32_MAX, 0, E2BIG, WSC_NO_INDEX);
}

TEST(unknown_submit_flag)
{
	struct fixture f;

	setup(&f);
	expect_refused(&f, 8, WSC_SUBMIT_ALL_FLAGS + 1, EINVAL, WSC_NO_INDEX);
	expect_refused(&f, 8, 1u << 31, EINVAL, WSC_NO_INDEX);
}

/* refused is an output, written only with a refusal: its input is ignored. */
TEST(submit_refused_ignored_on_entry)
{
	struct wsc_submit s;
	struct fixture f;
	char c;

	setup(&f);
	s = (struct wsc_submit){ .entries = (uintptr_t)f.ent,
				 .results = (uintptr_t)f.res, .count = 8,
				 .refused = 0xfeedu };
	EXPECT_EQ(ioctl(f.fd, WSC_IOC_SUBMIT, &s), 8);
	EXPECT_EQ(s.refused, 0xfeedu);
	EXPECT_EQ(read(f.pipe[0], &c, 1), 1);
}

TEST(unknown_entry_flag)
{
	struct fixture f;

	setup(&f);
	f.ent[3].flags = WSC_ENTRY_ALL_FLAGS + 1;
	expect_refused(&f, 8, 0, EINVAL, 3);
	f.ent[3].flags = 0x8000;
	expect_refused(&f, 8, 0, EINVAL, 3);
}

TEST(entry_reserved_nonzero)
{
	struct fixture f;

	setup(&f);
	f.ent[5].reserved = 1;
	expect_refused(&f, 8, 0, EINVAL, 5);
}

TEST(ref_mask_beyond_six_arguments)
{
	struct fixture f;

	setup(&f);
	f.ent[2].ref_mask = 1 << 6;
	expect_refused(&f, 8, 0, EINVAL, 2);
	f.ent[2].ref_mask = 0x80;
	expect_refused(&f, 8, 0, EINVAL, 2);
}

/* Each number in @nrs, put in entry @slot, is refused with ENOSYS. */
static void expect_numbers_refused(const uint32_t *nrs, size_t n,
				   uint32_t slot)
{
	struct fixture f;
	size_t i;

	setup(&f);
	for (i = 0; i < n; i++) {
		f.ent[slot].nr = nrs[i];
		expect_refused(&f, 8, 0, ENOSYS, slot);
	}
}

TEST(disallowed_syscalls)
{
	static const uint32_t refused[] = {
		SYS_fork, SYS_vfork, SYS_clone, SYS_clone3, SYS_execve,
		SYS_execveat, SYS_exit, SYS_exit_group, SYS_rt_sigreturn,
		SYS_arch_prctl, SYS_iopl, SYS_modify_ldt, SYS_seccomp,
		SYS_ptrace, SYS_ioctl, SYS_setuid, SYS_init_module,
		SYS_kexec_load, SYS_reboot,
	};

	expect_numbers_refused(refused, sizeof(refused) / sizeof(refused[0]), 4);
}

TEST(out_of_range_syscall_numbers)
{
	static const uint32_t refused[] = {
		512, 1023, 4096, 0x40000000 | SYS_getpid, 0xfffe, 0x10000,
		UINT32_MAX,
	};

	expect_numbers_refused(refused, sizeof(refused) / sizeof(refused[0]), 1);
}

/*
 * Argument @arg of entry @from refers to the result of entry @to, which
 * has not run before it: the batch is refused at @from.
 */
static void expect_bad_reference(uint32_t from, unsigned int arg, uint64_t to)
{
	struct fixture f;

	setup(&f);
	f.ent[from].ref_mask = 1u << arg;
	f.ent[from].args[arg] = to;
	expect_refused(&f, 8, 0, EINVAL, from);
}

TEST(reference_to_itself)
{
	expect_bad_reference(3, 0, 3);
}

TEST(reference_to_a_later_entry)
{
	expect_bad_reference(3, 5, 6);
	expect_bad_reference(3, 5, UINT64_MAX);
}

TEST(reference_from_the_first_entry)
{
	expect_bad_reference(0, 0, 0);
}

/* The first bad entry is the one reported, even with a later one bad. */
TEST(first_fault_is_reported)
{
	struct fixture f;

	setup(&f);
	f.ent[6].nr = SYS_fork;
	f.ent[2].flags = 0x4000;
	expect_refused(&f, 8, 0, EINVAL, 2);
}

static void submit_pointers(struct fixture *f, uint64_t entries,
			    uint64_t results, int err)
{
	struct wsc_submit s = { .entries = entries, .results = results,
				.count = 8 };

	EXPECT_EQ(ioctl(f->fd, WSC_IOC_SUBMIT, &s), -1);
	EXPECT_EQ(errno, err);
	expect_nothing_ran(f);
}

TEST(null_pointers)
{
	struct fixture f;

	setup(&f);
	submit_pointers(&f, 0, (uintptr_t)f.res, EFAULT);
	submit_pointers(&f, (uintptr_t)f.ent, 0, EFAULT);
	EXPECT_EQ(ioctl(f.fd, WSC_IOC_SUBMIT, NULL), -1);
	EXPECT_EQ(errno, EFAULT);
}

TEST(kernel_pointers)
{
	const uint64_t kernel = 0xffffffff81000000ull;
	struct fixture f;

	setup(&f);
	submit_pointers(&f, kernel, (uintptr_t)f.res, EFAULT);
	submit_pointers(&f, (uintptr_t)f.ent, kernel, EFAULT);
	EXPECT_EQ(ioctl(f.fd, WSC_IOC_SUBMIT, (void *)kernel), -1);
	EXPECT_EQ(errno, EFAULT);
}

TEST(misaligned_pointers)
{
	struct fixture f;

	setup(&f);
	submit_pointers(&f, (uintptr_t)f.ent + 4, (uintptr_t)f.res, EINVAL);
	submit_pointers(&f, (uintptr_t)f.ent, (uintptr_t)f.res + 1, EINVAL);
}

TEST(unmapped_pointers)
{
	struct fixture f;
	void *hole;

	setup(&f);
	hole = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(hole, MAP_FAILED);
	ASSERT_EQ(munmap(hole, 4096), 0);
	submit_pointers(&f, (uintptr_t)hole, (uintptr_t)f.res, EFAULT);
	submit_pointers(&f, (uintptr_t)f.ent, (uintptr_t)hole, EFAULT);
}

TEST(read_only_results)
{
	struct fixture f;
	void *ro;

	setup(&f);
	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(ro, MAP_FAILED);
	submit_pointers(&f, (uintptr_t)f.ent, (uintptr_t)ro, EFAULT);
}

/* An array whose second half lies in an unmapped page. */
TEST(array_unmapped_halfway)
{
	struct wsc_entry *ent;
	struct wsc_result *res;
	struct fixture f;
	char *map;
	int i;

	setup(&f);
	map = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(map, MAP_FAILED);
	ent = (struct wsc_entry *)(map + 4096 - 4 * sizeof(*ent));
	for (i = 0; i < 4; i++)
		ent[i] = f.ent[i];
	ASSERT_EQ(munmap(map + 4096, 4096), 0);
	submit_pointers(&f, (uintptr_t)ent, (uintptr_t)f.res, EFAULT);

	/* The same for results: the first page fine, the second gone. */
	map = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(map, MAP_FAILED);
	res = (struct wsc_result *)(map + 4096 - 4 * sizeof(*res));
	ASSERT_EQ(munmap(map + 4096, 4096), 0);
	submit_pointers(&f, (uintptr_t)f.ent, (uintptr_t)res, EFAULT);
}

/* A call of the batch that unmaps the results: reported, not hidden. */
TEST(results_unmapped_by_the_batch)
{
	uint32_t error_index = 0;
	struct wsc_entry ent[2];
	struct wsc_result *res;
	int fd = wsc_test_open();

	res = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(res, MAP_FAILED);
	ent[0] = ENT2(SYS_munmap, res, 4096);
	ent[1] = ENT0(SYS_getpid);
	/* Both ran; error_index says so. */
	EXPECT_EQ(wsc_test_submit(fd, ent, res, 2, 0, &error_index), -EFAULT);
	EXPECT_EQ(error_index, 2);
}

TEST(unknown_ioctl_commands)
{
	int fd = wsc_test_open();
	char buf[64] = { 0 };

	EXPECT_EQ(ioctl(fd, _IOWR(WSC_IOC_MAGIC, 9, struct wsc_submit), buf), -1);
	EXPECT_EQ(errno, ENOTTY);
	EXPECT_EQ(ioctl(fd, _IO(WSC_IOC_MAGIC, 2), buf), -1);
	EXPECT_EQ(errno, ENOTTY);
	EXPECT_EQ(ioctl(fd, 0, buf), -1);
	EXPECT_EQ(errno, ENOTTY);
}

TEST(version_and_call_info)
{
	struct wsc_call_info ci = { 0 };
	struct wsc_version v;
	int fd = wsc_test_open();
	uint32_t i;

	ASSERT_EQ(ioctl(fd, WSC_IOC_VERSION, &v), 0);
	EXPECT_EQ(v.abi_version, WSC_ABI_VERSION);
	EXPECT_EQ(v.max_entries, WSC_MAX_ENTRIES);
	EXPECT_EQ(v.entry_flags, WSC_ENTRY_ALL_FLAGS);
	EXPECT_EQ(v.reserved[0] | v.reserved[1] | v.reserved[2], 0);
	for (i = 0; i < v.nr_calls; i++) {
		ci.index = i;
		ASSERT_EQ(ioctl(fd, WSC_IOC_CALL_INFO, &ci), 0);
		EXPECT_EQ(ci.index, i);
		EXPECT_TRUE(ci.name[0] != '\0');
		EXPECT_EQ(ci.name[WSC_CALL_NAME_LEN - 1], '\0');
	}
	ci.index = v.nr_calls;
	EXPECT_EQ(ioctl(fd, WSC_IOC_CALL_INFO, &ci), -1);
	EXPECT_EQ(errno, ENOENT);
	ci.index = UINT32_MAX;
	EXPECT_EQ(ioctl(fd, WSC_IOC_CALL_INFO, &ci), -1);
	EXPECT_EQ(errno, ENOENT);
	EXPECT_EQ(ioctl(fd, WSC_IOC_VERSION, NULL), -1);
	EXPECT_EQ(errno, EFAULT);
}

TEST_HARNESS_MAIN
