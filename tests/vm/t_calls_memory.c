// SPDX-License-Identifier: GPL-2.0
/*
 * t_calls_memory: the memory group (brk, mmap, munmap, mprotect, madvise)
 * wrapped through /dev/wsc and conventionally: the same result or errno,
 * and the same mappings as mincore(2) and /proc/self/maps see them.
 * The twin-call machinery is in twin.h.
 */
#include <sys/mman.h>

#include "twin.h"

/* Is the page at @p mapped?  mincore says ENOMEM when it is not. */
static long mapped(const void *p)
{
	unsigned char vec;

	return S(__NR_mincore, p, PG, &vec);
}

/* The permissions /proc/self/maps shows for the mapping holding @addr. */
static void perms(const void *addr, char out[5])
{
	unsigned long lo, hi, a = (unsigned long)addr;
	char line[512], p[8];
	FILE *f = fopen("/proc/self/maps", "re");

	strcpy(out, "none");
	ASSERT_TRUE(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, p) == 3 &&
		    a >= lo && a < hi) {
			memcpy(out, p, 5);
			break;
		}
	}
	fclose(f);
}

static void *anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_TRUE(p != MAP_FAILED);
	return p;
}

/*
 * The program break moved one way is seen the other way.  Nothing here may
 * call malloc: it might move the break itself.
 */
TEST(brk)
{
	long b0 = S(__NR_brk, 0), base, w, c;

	ASSERT_GT(b0, 0);
	base = (b0 + PG - 1) & ~(PG - 1);
	EXPECT_EQ(W(__NR_brk, 0), b0);

	/* Grow through the device, check conventionally, use the memory. */
	w = W(__NR_brk, base + 16 * PG);
	EXPECT_EQ(w, base + 16 * PG);
	EXPECT_EQ(S(__NR_brk, 0), w);
	memset((void *)base, 0x5a, 16 * PG);
	EXPECT_EQ(mapped((void *)(base + 15 * PG)), 0);

	/* Grow conventionally, read back through the device. */
	c = S(__NR_brk, base + 32 * PG);
	EXPECT_EQ(c, base + 32 * PG);
	EXPECT_EQ(W(__NR_brk, 0), c);
	memset((void *)(base + 16 * PG), 0xa5, 16 * PG);

	/* Shrink through the device: the pages above the break are gone. */
	EXPECT_EQ(W(__NR_brk, base + PG), base + PG);
	EXPECT_EQ(S(__NR_brk, 0), base + PG);
	EXPECT_EQ(mapped((void *)(base + 16 * PG)), -ENOMEM);
	EXPECT_EQ(*(unsigned char *)base, 0x5a);

	/*
	 * A break that cannot be set is no errno: brk returns the current
	 * one.  Below the heap's start, and far beyond any room.
	 */
	SAME(base + PG, __NR_brk, 1);
	SAME(base + PG, __NR_brk, 1UL << 50);
	SAME(base + PG, __NR_brk, -PG);

	EXPECT_EQ(S(__NR_brk, b0), b0);
	EXPECT_EQ(W(__NR_brk, 0), b0);
}

/* A fresh anonymous mapping: page aligned, zero, writable, resident. */
static void expect_fresh(long addr, size_t len)
{
	unsigned char *p = (unsigned char *)addr;
	size_t i;

	ASSERT_FALSE(is_err(addr));
	EXPECT_EQ(addr & (PG - 1), 0);
	for (i = 0; i < len; i++)
		if (p[i])
			break;
	EXPECT_EQ(i, len);
	memset(p, 0x77, len);
	EXPECT_EQ(p[len - 1], 0x77);
	EXPECT_EQ(mapped(p), 0);
}

TEST_IN_TMP(mmap)
{
	char data[2 * PG], pw[5], pc[5];
	long w, c;
	char *r;
	int fa, fb, ro, dir;

	/* Anonymous private memory. */
	w = W(__NR_mmap, NULL, 3 * PG, PROT_READ | PROT_WRITE,
	      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	c = S(__NR_mmap, NULL, 3 * PG, PROT_READ | PROT_WRITE,
	      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	expect_fresh(w, 3 * PG);
	expect_fresh(c, 3 * PG);
	perms((void *)w, pw);
	perms((void *)c, pc);
	EXPECT_EQ(strcmp(pw, "rw-p"), 0);
	EXPECT_EQ(strcmp(pw, pc), 0);

	/* A shared file mapping at an offset shows the file, writes through. */
	fill(data, sizeof(data), 10);
	twin_files(data, sizeof(data), O_RDWR, &fa, &fb);
	w = W(__NR_mmap, NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fa, PG);
	c = S(__NR_mmap, NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fb, PG);
	ASSERT_FALSE(is_err(w));
	ASSERT_FALSE(is_err(c));
	EXPECT_EQ(memcmp((void *)w, data + PG, PG), 0);
	EXPECT_EQ(memcmp((void *)c, data + PG, PG), 0);
	memcpy((void *)w, "through", 7);
	memcpy((void *)c, "through", 7);
	expect_same_file("a", "b");
	perms((void *)w, pw);
	perms((void *)c, pc);
	EXPECT_EQ(strcmp(pw, "rw-s"), 0);
	EXPECT_EQ(strcmp(pw, pc), 0);

	/* MAP_FIXED into a reserved range lands exactly there. */
	r = mmap(NULL, 4 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(r != MAP_FAILED);
	EXPECT_EQ(W(__NR_mmap, r + PG, PG, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0),
		  (long)(r + PG));
	EXPECT_EQ(S(__NR_mmap, r + 2 * PG, PG, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0),
		  (long)(r + 2 * PG));
	expect_fresh((long)(r + PG), 2 * PG);
	perms(r, pw);
	EXPECT_EQ(strcmp(pw, "---p"), 0);

	ro = xopen("a", O_RDONLY);
	dir = xopen(".", O_RDONLY | O_DIRECTORY);
	SAME(-EINVAL, __NR_mmap, NULL, 0, PROT_READ,
	     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	SAME(-EINVAL, __NR_mmap, NULL, PG, PROT_READ, MAP_ANONYMOUS, -1, 0);
	SAME(-EINVAL, __NR_mmap, NULL, PG, PROT_READ, MAP_SHARED, fa, 1);
	SAME(-EBADF, __NR_mmap, NULL, PG, PROT_READ, MAP_SHARED, NOFD, 0);
	SAME(-EACCES, __NR_mmap, NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED,
	     ro, 0);
	SAME(-ENODEV, __NR_mmap, NULL, PG, PROT_READ, MAP_SHARED, dir, 0);
	SAME(-EEXIST, __NR_mmap, r, PG, PROT_READ,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	SAME(-ENOMEM, __NR_mmap, NULL, 1UL << 60, PROT_READ,
	     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

TEST(munmap)
{
	char *p = anon(3 * PG), *q = anon(3 * PG);

	/* A hole punched in the middle; the neighbours stay. */
	CHECK(0, W(__NR_munmap, p + PG, PG), S(__NR_munmap, q + PG, PG));
	EXPECT_EQ(mapped(p + PG), -ENOMEM);
	EXPECT_EQ(mapped(q + PG), -ENOMEM);
	EXPECT_EQ(mapped(p), 0);
	EXPECT_EQ(mapped(p + 2 * PG), 0);
	p[0] = p[2 * PG] = 1;
	/* Unmapping nothing is no error. */
	SAME(0, __NR_munmap, p + PG, PG);
	/* Over a hole and both neighbours. */
	CHECK(0, W(__NR_munmap, p, 3 * PG), S(__NR_munmap, q, 3 * PG));
	EXPECT_EQ(mapped(p), -ENOMEM);
	EXPECT_EQ(mapped(q + 2 * PG), -ENOMEM);

	SAME(-EINVAL, __NR_munmap, p + 1, PG);
	SAME(-EINVAL, __NR_munmap, p, 0);
	SAME(-EINVAL, __NR_munmap, -PG, PG);	/* above TASK_SIZE */
}

TEST_IN_TMP(mprotect)
{
	char *p = anon(2 * PG), *q = anon(2 * PG), *r, *m, pw[5], pc[5];
	int p2[2], fa;

	/* Read-only first page: /proc/self/maps agrees, writes fault. */
	CHECK(0, W(__NR_mprotect, p, PG, PROT_READ),
	      S(__NR_mprotect, q, PG, PROT_READ));
	perms(p, pw);
	perms(q, pc);
	EXPECT_EQ(strcmp(pw, "r--p"), 0);
	EXPECT_EQ(strcmp(pw, pc), 0);
	perms(p + PG, pw);
	EXPECT_EQ(strcmp(pw, "rw-p"), 0);
	ASSERT_EQ(pipe2(p2, O_CLOEXEC), 0);
	ASSERT_EQ(write(p2[1], "xy", 2), 2);
	EXPECT_EQ(read(p2[0], p, 1), -1);	/* the kernel cannot write it */
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(read(p2[0], p + PG, 1), 1);

	/* Back to writable, and to nothing at all. */
	CHECK(0, W(__NR_mprotect, p, PG, PROT_READ | PROT_WRITE),
	      S(__NR_mprotect, q, PG, PROT_READ | PROT_WRITE));
	p[0] = 1;
	CHECK(0, W(__NR_mprotect, p, 2 * PG, PROT_NONE),
	      S(__NR_mprotect, q, 2 * PG, PROT_NONE));
	perms(p + PG, pw);
	perms(q + PG, pc);
	EXPECT_EQ(strcmp(pw, "---p"), 0);
	EXPECT_EQ(strcmp(pw, pc), 0);

	/* A read-only shared file mapping cannot become writable. */
	put("a", "x", 1);
	fa = xopen("a", O_RDONLY);
	m = mmap(NULL, PG, PROT_READ, MAP_SHARED, fa, 0);
	ASSERT_TRUE(m != MAP_FAILED);
	r = anon(PG);
	ASSERT_EQ(munmap(r, PG), 0);
	SAME(-EACCES, __NR_mprotect, m, PG, PROT_READ | PROT_WRITE);
	SAME(-EINVAL, __NR_mprotect, p + 1, PG, PROT_READ);
	SAME(-EINVAL, __NR_mprotect, p, PG, 0x1000);	/* unknown bit */
	SAME(-ENOMEM, __NR_mprotect, r, PG, PROT_READ);	/* unmapped */
	perms(m, pw);
	EXPECT_EQ(strcmp(pw, "r--s"), 0);
}

TEST(madvise)
{
	char *p = anon(2 * PG), *q = anon(2 * PG), *r = anon(PG);
	size_t i;

	/* MADV_DONTNEED drops private anonymous pages: they read as zero. */
	memset(p, 0x77, 2 * PG);
	memset(q, 0x77, 2 * PG);
	CHECK(0, W(__NR_madvise, p, 2 * PG, MADV_DONTNEED),
	      S(__NR_madvise, q, 2 * PG, MADV_DONTNEED));
	for (i = 0; i < 2 * PG; i++)
		if (p[i] || q[i])
			break;
	EXPECT_EQ(i, 2 * PG);

	/* Hints with no visible effect still succeed alike. */
	SAME(0, __NR_madvise, p, 2 * PG, MADV_WILLNEED);
	SAME(0, __NR_madvise, p, 2 * PG, MADV_SEQUENTIAL);
	SAME(0, __NR_madvise, p, 2 * PG, MADV_NORMAL);
	SAME(0, __NR_madvise, p, PG, MADV_DONTFORK);
	SAME(0, __NR_madvise, p, PG, MADV_DOFORK);

	ASSERT_EQ(munmap(r, PG), 0);
	SAME(-EINVAL, __NR_madvise, p, PG, 12345);
	SAME(-EINVAL, __NR_madvise, p + 1, PG, MADV_DONTNEED);
	SAME(-ENOMEM, __NR_madvise, r, PG, MADV_DONTNEED);
}


TEST_HARNESS_MAIN
