// SPDX-License-Identifier: MIT
/*
 * The CLI's one voice (user/cli/common/args.c): each kind of mistake in one
 * wording, in two lines; and the module hint (common/module_hint.c) for
 * each way wsc can be installed, against made-up module trees.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/args.h"
#include "common/module_hint.h"

/* What a call wrote on stderr, caught in a temporary file. */
static char caught[4096];

static int catch_fd = -1;
static int saved_fd = -1;

static void catch_begin(void)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	fflush(stderr);
	saved_fd = dup(2);
	catch_fd = dup(fileno(f));
	dup2(fileno(f), 2);
	fclose(f);
}

static const char *catch_end(void)
{
	ssize_t n;

	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	lseek(catch_fd, 0, SEEK_SET);
	n = read(catch_fd, caught, sizeof(caught) - 1);
	close(catch_fd);
	caught[n > 0 ? n : 0] = '\0';
	return caught;
}

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The two lines of a usage error of `wsc @cmd`: @words, and where help is. */
static const char *usage_text(const char *cmd, const char *words)
{
	static char text[512];

	snprintf(text, sizeof(text), "wsc %s: %s\nTry 'wsc %s --help'.\n", cmd,
		 words, cmd);
	return text;
}

static void test_number_wordings(void **state)
{
	static const struct {
		const char *cmd, *opt, *arg;
		uint64_t min, max;
		const char *words;
	} bad[] = {
		{ "bench", "--iters", "abc", 1, 10, "--iters: 'abc' is not a whole number" },
		/* "10x" is the same mistake as "abc", in the same words. */
		{ "bench", "--iters", "10x", 1, 10, "--iters: '10x' is not a whole number" },
		{ "cp", "--rounds", "-1", 1, 10, "--rounds: '-1' is not a whole number" },
		{ "cp", "--rounds", " 5", 1, 10, "--rounds: ' 5' is not a whole number" },
		/* Out of range: below, above, and past 2^64, all one wording. */
		{ "bench fit", "--iters", "0", 64, 1000, "--iters: 0 is out of range 64..1000" },
		{ "klat", "--iters", "1001", 1, 1000, "--iters: 1001 is out of range 1..1000" },
		{ "klat", "--iters", "99999999999999999999", 1, 1000,
		  "--iters: 99999999999999999999 is out of range 1..1000" },
	};
	uint64_t v = 7;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		catch_begin();
		assert_int_equal(parse_u64(bad[i].cmd, bad[i].opt, bad[i].arg,
					   bad[i].min, bad[i].max, &v),
				 EXIT_USAGE);
		assert_string_equal(catch_end(),
				    usage_text(bad[i].cmd, bad[i].words));
	}
	assert_int_equal(v, 7);
	/* And a good one says nothing. */
	catch_begin();
	assert_int_equal(parse_u64("klat", "--iters", "1000", 1, 1000, &v), 0);
	assert_string_equal(catch_end(), "");
	assert_int_equal(v, 1000);
}

static void test_cpu_list(void **state)
{
	int cpus[2];
	unsigned int n;

	(void)state;
	catch_begin();
	assert_int_equal(parse_cpu_list("klat", "--cpus", "0,,1", cpus, 2, &n), EXIT_USAGE);
	assert_string_equal(catch_end(),
			    usage_text("klat", "--cpus: '0,,1' is not a CPU list (A or A,B)"));
	catch_begin();
	assert_int_equal(parse_cpu_list("klat", "--cpus", "0,0,0", cpus, 2, &n), EXIT_USAGE);
	assert_string_equal(catch_end(),
			    usage_text("klat", "--cpus: at most 2 CPUs"));
	catch_begin();
	assert_int_equal(parse_cpu_list("klat", "--cpus", "0", cpus, 2, &n), 0);
	assert_string_equal(catch_end(), "");
	assert_int_equal(n, 1);
	assert_int_equal(cpus[0], 0);
}

/* getopt_long over @argv as a subcommand runs it; what it said. */
static const char *getopt_says(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "iters", required_argument, NULL, 'n' },
		{ "json",  no_argument,       NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret = 0;

	optind = 0;	/* glibc: start afresh */
	opterr = 0;
	catch_begin();
	while ((c = getopt_long(argc, argv, ":n:j", opts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			ret = usage_getopt("info", c, argv);
			break;
		}
	}
	catch_end();
	assert_int_equal(ret, EXIT_USAGE);
	return caught;
}

static void test_getopt_wordings(void **state)
{
	static const struct {
		const char *arg, *words;
	} bad[] = {
		{ "--bogus", "unknown option '--bogus'" },
		{ "-x", "unknown option '-x'" },
		{ "-n", "option '-n' needs a value" },
		{ "--iters", "option '--iters' needs a value" },
		{ "--json=1", "option '--json' takes no value" },
		{ "--bogus=3", "unknown option '--bogus'" },
	};
	char *argv[3] = { "info", NULL, NULL };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		argv[1] = (char *)bad[i].arg;
		assert_string_equal(getopt_says(2, argv),
				    usage_text("info", bad[i].words));
	}
}

/* A made-up /lib/modules and a made-up built module, in a temporary folder. */
static char tree[PATH_MAX];

static void write_file(const char *path, const char *text, size_t len)
{
	if (!len)
		len = strlen(text);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

static int tree_setup(void **state)
{
	char path[PATH_MAX + 64];
	/* A module is ELF; its .modinfo holds NUL-separated key=value strings. */
	static const char ko[] = "\177ELF\0\0license=GPL\0vermagic=6.1.0-56-amd64 SMP preempt mod_unload \0";

	(void)state;
	snprintf(tree, sizeof(tree), "/tmp/wsc-test-args.XXXXXX");
	if (!mkdtemp(tree))
		return -1;
	snprintf(path, sizeof(path), "%s/6.1.0-56-amd64", tree);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/6.1.0-56-amd64/modules.dep", tree);
	write_file(path, "kernel/fs/fat/fat.ko.xz:\nupdates/dkms/wsc.ko.xz:\n", 0);
	snprintf(path, sizeof(path), "%s/6.12.0", tree);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/6.12.0/modules.dep", tree);
	/* No wsc.ko, but a name that ends like one. */
	write_file(path, "kernel/drivers/misc/notwsc.ko:\n", 0);
	snprintf(path, sizeof(path), "%s/wsc.ko", tree);
	write_file(path, ko, sizeof(ko) - 1);
	return 0;
}

static int tree_teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	return system(cmd) ? -1 : 0;
}

static void test_module_hint(void **state)
{
	char hint[PATH_MAX + 256], ko[PATH_MAX + 16], want[PATH_MAX + 256];

	(void)state;
	snprintf(ko, sizeof(ko), "%s/wsc.ko", tree);
	/* Installed for the running kernel (DKMS, compressed): modprobe. */
	module_hint_for(hint, sizeof(hint), tree, "6.1.0-56-amd64", ko, false);
	assert_string_equal(hint, "load it: sudo modprobe wsc");
	module_hint_for(hint, sizeof(hint), tree, "6.1.0-56-amd64", NULL, true);
	assert_string_equal(hint, "load it: modprobe wsc");
	/* Not installed; the tree's module built for this kernel: insmod it. */
	{
		char dep[PATH_MAX + 64];

		snprintf(dep, sizeof(dep), "%s/6.1.0-56-amd64/modules.dep", tree);
		unlink(dep);
	}
	module_hint_for(hint, sizeof(hint), tree, "6.1.0-56-amd64", ko, true);
	snprintf(want, sizeof(want), "load the one built here: insmod %s", ko);
	assert_string_equal(hint, want);
	/* The tree's module is for another kernel: rebuild, or DKMS. */
	module_hint_for(hint, sizeof(hint), tree, "6.12.0", ko, false);
	snprintf(want, sizeof(want),
		 "%s is built for 6.1.0-56-amd64, this kernel is 6.12.0: rebuild it (make module KRELEASE=6.12.0) and sudo insmod it, or install wsc-dkms",
		 ko);
	assert_string_equal(hint, want);
	/* Neither: how to get one. */
	module_hint_for(hint, sizeof(hint), tree, "6.12.0", NULL, false);
	assert_string_equal(hint, "no wsc.ko for this kernel (6.12.0): install wsc-dkms, or in a source tree: make module KRELEASE=6.12.0 && sudo insmod kmod/wsc.ko");
}

static void test_module_report(void **state)
{
	(void)state;
	/* Not an absence: the reason, one line, no hint. */
	catch_begin();
	assert_int_equal(module_report("info", -EACCES, false), 1);
	catch_end();
	assert_non_null(strstr(caught, "wsc info: cannot use "));
	assert_non_null(strstr(caught, ": Permission denied\n"));
	assert_null(strstr(caught, "insmod"));
	assert_null(strstr(caught, "modprobe"));
	assert_true(module_absent(-ENOENT) && module_absent(ENODEV) &&
		    module_absent(-ENXIO) && !module_absent(-EPERM));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_number_wordings),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_getopt_wordings),
		cmocka_unit_test_setup_teardown(test_module_hint, tree_setup,
						tree_teardown),
		cmocka_unit_test(test_module_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
