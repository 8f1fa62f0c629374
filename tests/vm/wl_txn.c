// SPDX-License-Identifier: GPL-2.0
/*
 * The observers' workload (tests/vm/t_observers.sh): N transactions in
 * folder DIR, each openat(DIR/fI, O_CREAT), write of 3 bytes to it, close,
 * then unlinkat, one libwsc batch per transaction (wrapped) or the same
 * batch with WSC_BATCH_CONVENTIONAL (plain).  An observer must see the
 * same calls either way.
 *
 *   wl_txn wrapped|plain DIR N
 *
 * Prints, on stdout, how the batches ran: "native N plain M refused R"
 * (the calls libwsc ran as plain system calls, the reasons' bits).
 *
 *   wl_txn fifo PATH N
 *
 * One wrapped batch: read one byte from the fifo PATH (blocking until a
 * byte comes), then N getppid.  For a tracer that attaches (strace -p)
 * while the batch is blocked: it must see the getppid calls.  Prints the
 * same line as above.
 *
 *   wl_txn fifo-create PATH DIR N
 *
 * One wrapped batch: read one byte from the fifo PATH, then N times
 * openat(DIR/fI, O_CREAT) and close.  For an observer switched on while
 * the batch blocks (audit): it must see each creation.  Prints the same
 * line as above.
 *
 *   wl_txn fault DIR wrapped|plain
 *
 * One batch, openat(O_CREAT) of DIR/faulted, close, unlinkat, whose path
 * lives in a shared mapping of the file DIR/path, its page dropped with
 * MADV_DONTNEED just before: the first reader of the path (a tracepoint
 * probe that reads it, or the handler) takes a page fault.
 *
 *   wl_txn pin THREADS N
 *
 * THREADS threads each submit one wrapped batch of N newfstatat("/") and
 * then a read of a pipe that blocks until every thread is in it; prints
 * "names_cache BEFORE DURING", the active objects of the kernel's
 * names_cache (/proc/slabinfo) before the threads and while they block.
 * A batch that kept its path names until it ended would hold THREADS x N
 * of them (4 KiB each, charged to no memory cgroup).
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <pthread.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <libwsc.h>

static unsigned long plain_calls, native_calls;
static unsigned int refused;

static void account(struct wsc_batch *b)
{
	unsigned long plain = wsc_batch_conventional_calls(b);

	plain_calls += plain;
	native_calls += wsc_batch_completed(b) - plain;
	refused |= wsc_batch_refused(b);
}

static void report(void)
{
	printf("native %lu plain %lu refused %u\n", native_calls, plain_calls,
	       refused);
}

static int fifo_batch(const char *path, unsigned int n)
{
	struct wsc_batch *b;
	unsigned int i;
	char byte;
	int fd, ret;
	pid_t ppid;

	/* Read and write: a fifo opened so does not wait for a writer. */
	fd = open(path, O_RDWR);
	if (fd < 0 || wsc_batch_create(&b, 0)) {
		perror("wl_txn fifo");
		return 1;
	}
	/* Asked before: a tracer attached later must count only the batch's. */
	ppid = getppid();
	wsc_prep_read(b, fd, &byte, 1);
	for (i = 0; i < n; i++)
		wsc_prep_getppid(b);
	ret = wsc_batch_submit(b);
	if (ret != (int)n + 1 || wsc_batch_result(b, 0) != 1 ||
	    wsc_batch_result(b, n) != ppid) {
		fprintf(stderr, "wl_txn fifo: %d, read %lld\n", ret,
			(long long)wsc_batch_result(b, 0));
		return 1;
	}
	account(b);
	report();
	return 0;
}

static int fifo_create_batch(const char *fifo, const char *dir, unsigned int n)
{
	struct wsc_batch *b;
	unsigned int i;
	char byte, (*paths)[4096];
	int fd, e, ret;

	fd = open(fifo, O_RDWR);
	paths = calloc(n, sizeof(*paths));
	if (fd < 0 || !paths || wsc_batch_create(&b, 0)) {
		perror("wl_txn fifo-create");
		return 1;
	}
	wsc_prep_read(b, fd, &byte, 1);
	for (i = 0; i < n; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/f%u", dir, i);
		e = wsc_prep_openat(b, AT_FDCWD, paths[i],
				    O_WRONLY | O_CREAT | O_TRUNC, 0600);
		wsc_entry_ref(b, wsc_prep_close(b, 0), 0, e);
	}
	ret = wsc_batch_submit(b);
	for (i = 0; i < 2 * n + 1 && ret == (int)(2 * n + 1); i++) {
		if (wsc_batch_result(b, i) < 0)
			ret = -1;
	}
	if (ret != (int)(2 * n + 1)) {
		fprintf(stderr, "wl_txn fifo-create: %d\n", ret);
		return 1;
	}
	account(b);
	report();
	return 0;
}

static int fault_batch(const char *dir, bool plain)
{
	char file[4096], target[4096];
	struct wsc_batch *b;
	size_t len;
	char *map;
	int fd, e[3];

	snprintf(file, sizeof(file), "%s/path", dir);
	len = (size_t)snprintf(target, sizeof(target), "%s/faulted", dir) + 1;
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, target, len) != (ssize_t)len)
		return 1;
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED || wsc_batch_create(&b, plain ? WSC_BATCH_CONVENTIONAL : 0))
		return 1;
	e[0] = wsc_prep_openat(b, AT_FDCWD, map, O_WRONLY | O_CREAT, 0600);
	e[1] = wsc_prep_close(b, 0);
	wsc_entry_ref(b, e[1], 0, e[0]);
	e[2] = wsc_prep_unlinkat(b, AT_FDCWD, map, 0);
	if (madvise(map, 4096, MADV_DONTNEED))
		return 1;
	if (wsc_batch_submit(b) != 3 || wsc_batch_result(b, e[0]) < 0 ||
	    wsc_batch_result(b, e[2]) != 0) {
		fprintf(stderr, "wl_txn fault: openat %lld, unlinkat %lld\n",
			(long long)wsc_batch_result(b, e[0]),
			(long long)wsc_batch_result(b, e[2]));
		return 1;
	}
	account(b);
	report();
	return 0;
}

static long names_cache_active(void)
{
	char line[512];
	long active = -1;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "names_cache ", 12)) {
			sscanf(line + 12, "%ld", &active);
			break;
		}
	}
	fclose(f);
	return active;
}

/* Threads of this process but the calling one that are sleeping ('S'). */
static unsigned int sleeping_threads(void)
{
	char path[300], buf[256], *state;
	unsigned int n = 0;
	struct dirent *d;
	DIR *dir;
	FILE *f;

	dir = opendir("/proc/self/task");
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || atoi(d->d_name) == gettid())
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/stat", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && (state = strrchr(buf, ')')) &&
		    state[1] == ' ' && state[2] == 'S')
			n++;
		fclose(f);
	}
	closedir(dir);
	return n;
}

static int pin_pipe[2];
static unsigned int pin_n;
static pthread_mutex_t pin_lock = PTHREAD_MUTEX_INITIALIZER;

static void *pin_thread(void *arg)
{
	struct wsc_batch *b;
	struct stat st;
	unsigned int i;
	char byte, *paths;

	(void)arg;
	/*
	 * A path of its own for each call: audit hands a second lookup of
	 * the same user pointer in one system call the name it kept
	 * (audit_reusename()), which would hide all but the first.
	 */
	paths = calloc(pin_n, 2);
	if (!paths || wsc_batch_create(&b, 0))
		return (void *)1;
	for (i = 0; i < pin_n; i++) {
		paths[2 * i] = '/';
		wsc_prep_newfstatat(b, AT_FDCWD, &paths[2 * i], &st, 0);
	}
	wsc_prep_read(b, pin_pipe[0], &byte, 1);
	if (wsc_batch_submit(b) != (int)pin_n + 1)
		return (void *)1;
	pthread_mutex_lock(&pin_lock);
	account(b);
	pthread_mutex_unlock(&pin_lock);
	wsc_batch_destroy(b);
	free(paths);
	return NULL;
}

static int pin(unsigned int threads, unsigned int n)
{
	pthread_t t[256];
	long before, during;
	unsigned int i;
	int failed = 0;
	void *ret;

	if (threads > 256 || pipe(pin_pipe))
		return 2;
	pin_n = n;
	before = names_cache_active();
	for (i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, pin_thread, NULL))
			return 1;
	/* Until every thread sleeps in its batch's last entry (30 s at most). */
	for (i = 0; i < 300 && sleeping_threads() < threads; i++)
		usleep(100000);
	during = names_cache_active();
	for (i = 0; i < threads; i++)
		if (write(pin_pipe[1], "x", 1) != 1)
			return 1;
	for (i = 0; i < threads; i++) {
		pthread_join(t[i], &ret);
		failed |= ret != NULL;
	}
	printf("names_cache %ld %ld\n", before, during);
	report();
	return failed;
}

int main(int argc, char **argv)
{
	unsigned int flags, i, n;
	char path[4096];

	if (argc == 4 && !strcmp(argv[1], "fifo"))
		return fifo_batch(argv[2], (unsigned int)strtoul(argv[3], NULL, 10));
	if (argc == 5 && !strcmp(argv[1], "fifo-create"))
		return fifo_create_batch(argv[2], argv[3],
					 (unsigned int)strtoul(argv[4], NULL, 10));
	if (argc == 4 && !strcmp(argv[1], "fault"))
		return fault_batch(argv[2], !strcmp(argv[3], "plain"));
	if (argc == 4 && !strcmp(argv[1], "pin"))
		return pin((unsigned int)strtoul(argv[2], NULL, 10),
			   (unsigned int)strtoul(argv[3], NULL, 10));
	if (argc != 4 || (strcmp(argv[1], "wrapped") && strcmp(argv[1], "plain"))) {
		fprintf(stderr, "usage: wl_txn wrapped|plain DIR N | fifo PATH N | fifo-create PATH DIR N | fault DIR wrapped|plain | pin THREADS N\n");
		return 2;
	}
	flags = strcmp(argv[1], "plain") ? 0 : WSC_BATCH_CONVENTIONAL;
	n = (unsigned int)strtoul(argv[3], NULL, 10);
	for (i = 0; i < n; i++) {
		struct wsc_batch *b;
		int e[4], ret;

		snprintf(path, sizeof(path), "%s/f%u", argv[2], i);
		ret = wsc_batch_create(&b, flags);
		if (ret) {
			fprintf(stderr, "wl_txn: wsc_batch_create: %s\n", strerror(-ret));
			return 1;
		}
		e[0] = wsc_prep_openat(b, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		e[1] = wsc_prep_write(b, 0, "wsc", 3);
		wsc_entry_ref(b, e[1], 0, e[0]);
		e[2] = wsc_prep_close(b, 0);
		wsc_entry_ref(b, e[2], 0, e[0]);
		e[3] = wsc_prep_unlinkat(b, AT_FDCWD, path, 0);
		ret = wsc_batch_submit(b);
		if (ret != 4 || wsc_batch_result(b, e[1]) != 3 ||
		    wsc_batch_result(b, e[3]) != 0) {
			fprintf(stderr, "wl_txn: transaction %u: %d, write %lld, unlinkat %lld\n",
				i, ret, (long long)wsc_batch_result(b, e[1]),
				(long long)wsc_batch_result(b, e[3]));
			return 1;
		}
		account(b);
		wsc_batch_destroy(b);
	}
	report();
	return 0;
}
