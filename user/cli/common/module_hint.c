// SPDX-License-Identifier: MIT
/*
 * "The module is not there", in one wording with the command that fixes it
 * for how wsc was installed: a packaged or DKMS module is loaded with
 * modprobe, a module built in a source tree with insmod of that file, and
 * with neither the user needs one first.  Guessing wrong here sends a
 * newcomer to `insmod wsc.ko` on a system where no such file exists.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "module_hint.h"
#include "libwsc.h"

bool module_absent(int err)
{
	if (err < 0)
		err = -err;
	return err == ENOENT || err == ENODEV || err == ENXIO;
}

const char *module_device_path(void)
{
	const char *path = getenv("WSC_DEVICE");

	return path && *path ? path : "/dev/" WSC_DEVICE_NAME;
}

/* modules.dep names every module depmod found for @release. */
static bool module_installed(const char *modroot, const char *release)
{
	char path[PATH_MAX], line[1024];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/modules.dep", modroot, release);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *base;

		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		/* wsc.ko, or compressed: wsc.ko.xz, wsc.ko.zst, wsc.ko.gz */
		found = !strcmp(base, "wsc.ko") || !strncmp(base, "wsc.ko.", 7);
	}
	fclose(f);
	return found;
}

/*
 * The kernel release @ko was built for, from its "vermagic=RELEASE ..."
 * string (what modinfo -F vermagic prints); false if unreadable.
 */
static bool module_vermagic(const char *ko, char *rel, size_t len)
{
	static const char key[] = "vermagic=";
	bool ok = false;
	struct stat st;
	const char *p;
	size_t n;
	void *map;
	int fd;

	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_size) {
		close(fd);
		return false;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return false;
	p = memmem(map, (size_t)st.st_size, key, sizeof(key) - 1);
	if (p) {
		const char *end = (const char *)map + st.st_size;

		p += sizeof(key) - 1;
		for (n = 0; p + n < end && p[n] && p[n] != ' ' && n + 1 < len; n++)
			rel[n] = p[n];
		rel[n] = '\0';
		ok = n > 0;
	}
	munmap(map, (size_t)st.st_size);
	return ok;
}

void module_hint_for(char *buf, size_t len, const char *modroot,
		     const char *release, const char *tree_ko, bool root)
{
	const char *sudo = root ? "" : "sudo ";
	char built[128];

	if (module_installed(modroot, release)) {
		snprintf(buf, len, "load it: %smodprobe wsc", sudo);
		return;
	}
	if (tree_ko && module_vermagic(tree_ko, built, sizeof(built))) {
		if (!strcmp(built, release))
			snprintf(buf, len, "load the one built here: %sinsmod %s",
				 sudo, tree_ko);
		else
			snprintf(buf, len,
				 "%s is built for %s, this kernel is %s: rebuild it (make module KRELEASE=%s) and %sinsmod it, or install wsc-dkms",
				 tree_ko, built, release, release, sudo);
		return;
	}
	/* make alone builds for the default kernel (tools/kernel-release). */
	snprintf(buf, len,
		 "no wsc.ko for this kernel (%s): install wsc-dkms, or in a source tree: make module KRELEASE=%s && %sinsmod kmod/wsc.ko",
		 release, release, sudo);
}

/*
 * The wsc.ko of the tree this wsc was built in: build/wsc and kmod/wsc.ko
 * are siblings' children (Makefile); an installed wsc has none.
 */
static bool module_tree_ko(char *path, size_t len)
{
	char exe[PATH_MAX], ko[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return false;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	snprintf(ko, sizeof(ko), "%s/../kmod/wsc.ko", exe);
	return realpath(ko, path) && strlen(path) < len;
}

void module_hint(char *buf, size_t len)
{
	char ko[PATH_MAX];
	struct utsname u;

	if (uname(&u)) {
		snprintf(buf, len, "load it: modprobe wsc");
		return;
	}
	module_hint_for(buf, len, "/lib/modules", u.release,
			module_tree_ko(ko, sizeof(ko)) ? ko : NULL,
			geteuid() == 0);
}

int module_report(const char *cmd, int err, bool genl)
{
	const char *dev = module_device_path();
	char hint[PATH_MAX + 256];
	struct stat st;

	if (err < 0)
		err = -err;
	if (!module_absent(err)) {
		if (err == EPROTO)
			fprintf(stderr, "wsc %s: %s speaks another ABI than this wsc: rebuild one or the other\n",
				cmd, dev);
		else
			fprintf(stderr, "wsc %s: cannot use %s: %s\n", cmd,
				genl ? "the wsc module's netlink family" : dev,
				strerror(err));
		return 1;
	}
	/*
	 * Loaded, yet not found: a WSC_DEVICE that points elsewhere, no udev,
	 * or a module older than the family.  Loading it again helps none.
	 */
	if (!stat("/sys/module/wsc", &st)) {
		if (genl)
			fprintf(stderr, "wsc %s: the wsc module is loaded but has no generic netlink family \"%s\" (a module older than this wsc?)\n",
				cmd, WSC_LAT_GENL_NAME);
		else
			fprintf(stderr, "wsc %s: the wsc module is loaded but %s is missing (%s)%s\n",
				cmd, dev, strerror(err),
				getenv("WSC_DEVICE") ? ": WSC_DEVICE names it" : "");
		return 1;
	}
	if (genl)
		fprintf(stderr, "wsc %s: the wsc module is not loaded (no generic netlink family \"%s\")\n",
			cmd, WSC_LAT_GENL_NAME);
	else
		fprintf(stderr, "wsc %s: the wsc module is not loaded (%s: %s)\n",
			cmd, dev, strerror(err));
	module_hint(hint, sizeof(hint));
	fprintf(stderr, "wsc %s: %s\n", cmd, hint);
	return 1;
}
