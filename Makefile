# SPDX-License-Identifier: GPL-2.0
#
# wsc: the module (kbuild, in kmod/), libwsc and the wsc CLI (in build/).
# `make help` prints this list (tests/tools/test_make_help checks that it
# names every target).  A plain `make` builds what ships and needs none
# of the tests' dependencies (cmocka); the test programs are `make tests`.
#
# What ships:
#   make, make all     module, library, CLI
#   make module        kmod/wsc.ko, for KRELEASE (tools/kernel-release: the
#                      default kernel) or the kernel build directory KDIR
#   make user          libwsc (build/libwsc.{a,so}, its .pc files) and the
#                      CLI, build/wsc
#   make module-debug  the module with its debug checks, in build/kmod-debug
#                      (WSC_KO=build/kmod-debug/wsc.ko tests/vm/run runs it)
#   make install       PREFIX=/usr/local DESTDIR=; headers in include/wsc/
#                      manual pages in MANDIR, bash completion in BASHCOMPDIR,
#                      the plotter in DATADIR/wsc (BINDIR/wsc-plot links to it);
#                      without DESTDIR (the running system) it also runs
#                      ldconfig, so that programs find libwsc.so.SOVERSION
#                      at once (LIBDIR must be one ld.so searches: see
#                      /etc/ld.so.conf.d/, or set LD_LIBRARY_PATH)
#   make dkms-install  the module's source and dkms.conf in /usr/src/wsc-VERSION,
#                      added to DKMS and installed for KRELEASE
#                      (DKMS_KERNELS= to name others; DESTDIR= only copies)
#   make dkms-uninstall  the module out of DKMS (every kernel) and /usr/src
#   make deb           the Debian packages (wsc-dkms, libwsc1, libwsc-dev,
#                      wsc) in build/deb, checked by lintian
#   make clean         build/ and kbuild's files in kmod/ removed
#
# Tests (each builds what it runs):
#   make tests         every test program in build/: the cmocka unit tests,
#                      the VM's test programs and workloads, the fuzzer and
#                      the examples
#   make examples      examples/*.c, built as a user's program is, in
#                      build/examples/
#   make unit          the cmocka unit tests on the host
#   make vmtest        the VM suite on the default kernel, as it is
#   make check         install what is missing, build, unit tests on the
#                      host, integration tests in the VM (default kernel)
#   make check-kernels install every kernel of the matrix (tools/kernel-matrix)
#                      and run the VM suite on each, one line per kernel
#   make check-debug   the VM suite on the debug kernel, kmemleak after
#                      rmmod, and the proof that the log scan catches each
#                      report
#   make check-headers the installed headers compile alone as C11 and C++17
#                      with -Wpedantic -Werror, and a C and a C++ program
#                      link against the installed copy, and a C program
#                      against the uninstalled tree (tests/tools/test_headers)
#   make check-deb     the packages installed in a clean Debian 12 root, booted
#                      in the VM, used, purged (tests/check-deb)
#   make check-dkms    the module built by DKMS for every kernel of the
#                      matrix, signed with a throwaway key (tests/check-dkms)
#   make check-fresh   the README's make demo and make check, as written, in a
#                      clean clone inside a pristine Debian 12 root
#                      (tests/check-fresh; about 20 minutes)
#   make fuzz          the fuzzer in the VM (KERNEL=RELEASE of the matrix,
#                      SEED=, ITERS=, SECONDS=, MODE=; Documentation/testing.md)
#
# Checks of the source (make check runs each, through tests/tools/):
#   make style         checkpatch (and codespell) over the module and the
#                      shared headers
#   make sparse        sparse over the module; fails on a finding in wsc's files
#   make layers        no cycle between files, no leak between layers
#                      (tools/check-layers), with the graphs
#   make shellcheck    shellcheck over every shell script of the tree
#   make netlink       the netlink part of include/uapi/linux/wsc.h and
#                      kmod/genl_policy.h, generated from
#                      Documentation/netlink/syscall_lat.yaml (tools/gen-netlink)
#
# Set-up and demonstrations:
#   make deps          install everything: every kernel of the matrix, the
#                      Debian 13 root, the packaging tools (tools/install-deps)
#   make deps-base     install only what the default kernel's checks need
#   make deps-debug    ... and what building the debug kernel needs
#   make deps-deb      ... and what the packages' build and checks need
#   make debug-kernel  build (once, about an hour; cached) the lockdep/KASAN/
#                      UBSAN/kmemleak kernel of Documentation/testing.md
#   make demo          install what is missing, build, boot the VM, run the
#                      main demonstration (tools/demo)
#   make bench         the benchmarks in the VM, into results/
#                      (tools/measure/bench)
#   make help          this list
#   make V=1           show full commands

VERSION := $(shell cat VERSION)
# The soname's version: major.minor while the major is 0, since any 0.x
# release could break the library's ABI (libwsc.so.0.2); the major alone
# from 1.0 on (libwsc.so.1).  Documentation/libwsc.md, "Versions".
VERSION_WORDS := $(subst ., ,$(VERSION))
SOVERSION := $(if $(filter 0,$(word 1,$(VERSION_WORDS))),$(word 1,$(VERSION_WORDS)).$(word 2,$(VERSION_WORDS)),$(word 1,$(VERSION_WORDS)))

KRELEASE ?= $(shell tools/kernel-release 2>/dev/null)
KDIR ?= /lib/modules/$(KRELEASE)/build

PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
# Where bash-completion looks for a command's completion on its own
# (any XDG_DATA_DIRS entry's bash-completion/completions, /usr/local too).
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

CC ?= cc
CFLAGS ?= -O2 -g
WSC_CFLAGS := -std=gnu11 -Wall -Wextra -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -D_GNU_SOURCE -DWSC_VERSION='"$(VERSION)"' \
	-Iuser/include -Iinclude/uapi -Iinclude -Iuser/lib
PKG_CONFIG ?= pkg-config
# libwsc talks to the latency lab through libnl-genl-3.  Evaluated when
# used, so that `make check` can install the package first.
NL_CFLAGS = $(shell $(PKG_CONFIG) --cflags libnl-genl-3.0)
NL_LIBS = $(shell $(PKG_CONFIG) --libs libnl-genl-3.0)
# wsc bench compares with io_uring through liburing.
URING_LIBS = $(shell $(PKG_CONFIG) --libs liburing)
# The CLI writes its JSON through json-c (user/cli/common/json.h).
JSON_CFLAGS = $(shell $(PKG_CONFIG) --cflags json-c)
JSON_LIBS = $(shell $(PKG_CONFIG) --libs json-c)

B := build
LIB_SRCS := $(wildcard user/lib/*.c)
LIB_OBJS := $(LIB_SRCS:user/lib/%.c=$(B)/lib/%.o)
# The CLI: main.c, common/ and one folder per subcommand (see
# tools/check-layers).  Everything but main.o goes into an archive that
# the CLI and the tests link, so a test takes the objects it needs.
CLI_SRCS := $(wildcard user/cli/*.c user/cli/*/*.c)
CLI_OBJS := $(CLI_SRCS:user/cli/%.c=$(B)/cli/%.o)
CLI_MAIN_OBJ := $(B)/cli/main.o
CLI_ARCHIVE := $(B)/libwsc-cli.a
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/unit/%)
VM_SRCS := $(wildcard tests/vm/t_*.c)
VM_BINS := $(VM_SRCS:tests/vm/%.c=$(B)/tests/vm/%)
# Programs the VM tests run (not tests themselves).
VM_TOOLS := $(B)/tests/vm/wl_calls $(B)/tests/vm/wl_txn $(B)/tests/vm/wl_batch \
	$(B)/tests/vm/wl_advise
# The programs that validate wsc trace --advise (tools/measure/advise-validate).
ADVISE_PROGS := $(B)/workloads/advise/adv-scan $(B)/workloads/advise/adv-copy \
	$(B)/workloads/advise/adv-mix
# The examples the README and the manual pages quote.
EXAMPLES := $(patsubst examples/%.c,$(B)/examples/%,$(wildcard examples/*.c))
# The fuzzer (tests/fuzz, Documentation/testing.md "Fuzzing"): raw ioctls
# and raw netlink, so it links neither libwsc nor libnl.
FUZZ_SRCS := $(wildcard tests/fuzz/*.c)
FUZZ_OBJS := $(FUZZ_SRCS:tests/fuzz/%.c=$(B)/tests/fuzz/%.o)
FUZZ := $(B)/tests/fuzz/wsc-fuzz

STATIC_LIB := $(B)/libwsc.a
SHARED_LIB := $(B)/libwsc.so.$(VERSION)
SONAME := libwsc.so.$(SOVERSION)
CLI := $(B)/wsc

ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-7s %s\n' $(1) $(2)
endif

.PHONY: all module user tests examples clean check check-kernels demo deps \
	deps-base debug-kernel check-debug deps-debug \
	install unit vmtest bench style help layers shellcheck netlink

all: module user

help:
	@awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' Makefile

# kbuild of the module in folder $(1) (kmod/ itself, or a copy of its
# sources), with more of kbuild's variables in $(2).
KBUILD_SILENT = $(if $(filter 1,$(V)),V=1,-s)
kbuild = test -d "$(KDIR)" || { echo "no kernel build directory at '$(KDIR)': run tools/install-deps or set KDIR" >&2; exit 1; }; \
	$(MAKE) -C "$(KDIR)" M="$(CURDIR)/$(1)" WSC_TOP="$(CURDIR)" \
		WSC_VERSION="$(VERSION)" $(KBUILD_SILENT) $(2)

module:
	$(call msg,KBUILD,kmod/wsc.ko)
	$(Q)+$(call kbuild,kmod,modules)

# The debug build (kmod/Kbuild: pr_debug() and the WSC_DEBUG_ON() checks)
# in its own folder, from a copy of kmod's sources, so that kmod/wsc.ko
# stays the normal module: tests/vm/run takes it as
# WSC_KO=build/kmod-debug/wsc.ko.  The copy keeps the sources' times, so
# kbuild rebuilds only what changed; wsc.mod.c is kbuild's own.
.PHONY: module-debug sparse
DEBUG_KMOD := $(B)/kmod-debug
module-debug:
	$(call msg,KBUILD,$(DEBUG_KMOD)/wsc.ko)
	$(Q)mkdir -p $(DEBUG_KMOD)
	$(Q)find $(DEBUG_KMOD) -maxdepth 1 -type f \( -name '*.[ch]' ! -name '*.mod.c' \
		-o -name Kbuild \) -delete
	$(Q)cp -p $(filter-out %.mod.c,$(wildcard kmod/*.c)) $(wildcard kmod/*.h) \
		kmod/Kbuild $(DEBUG_KMOD)/
	$(Q)+$(call kbuild,$(DEBUG_KMOD),CONFIG_WSC_DEBUG=y modules)

# What ships: the library and the CLI.  Nothing here needs a test's
# dependency (cmocka): the test programs are `make tests`.
user: $(STATIC_LIB) $(SHARED_LIB) $(B)/libwsc.pc $(B)/libwsc-uninstalled.pc $(CLI)

# Every test program: what make check, make unit, make vmtest and
# tests/vm/run need built.
tests: $(UNIT_BINS) $(VM_BINS) $(VM_TOOLS) $(FUZZ) $(EXAMPLES) $(ADVISE_PROGS)

examples: $(EXAMPLES)

# Every userspace object and test also writes the headers it was built
# from (-MMD, to X.d beside X.o, or X.d beside a test binary X); -MP adds
# an empty rule per header, so that removing one breaks no build.
DEPFLAGS := -MMD -MP

$(B)/lib/%.o: user/lib/%.c
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(WSC_CFLAGS) $(DEPFLAGS) $(NL_CFLAGS) -fPIC -c -o $@ $<

$(STATIC_LIB): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(SHARED_LIB): $(LIB_OBJS) user/lib/libwsc.map
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) \
		-Wl,--version-script,user/lib/libwsc.map -o $@ $(LIB_OBJS) \
		$(NL_LIBS) -lm
	$(Q)ln -sf libwsc.so.$(VERSION) $(B)/$(SONAME)
	$(Q)ln -sf $(SONAME) $(B)/libwsc.so

$(B)/libwsc.pc: user/lib/libwsc.pc.in VERSION
	$(call msg,GEN,$@)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' $< > $@

# The tree as pkg-config sees it before make install: with
# PKG_CONFIG_PATH=$(B), `pkg-config libwsc` reads this file
# (Documentation/libwsc.md, "Building against the tree").  Absolute
# paths, so that a program's folder can be anywhere.
$(B)/libwsc-uninstalled.pc: user/lib/libwsc-uninstalled.pc.in VERSION
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(B)
	$(Q)sed -e 's|@SRCDIR@|$(CURDIR)|g' -e 's|@BUILDDIR@|$(abspath $(B))|' \
		-e 's|@VERSION@|$(VERSION)|' $< > $@

# A file of the CLI includes another folder's header by its path from
# user/cli ("common/clock.h"), its own folder's by name.
$(B)/cli/%.o: user/cli/%.c
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(WSC_CFLAGS) $(DEPFLAGS) $(NL_CFLAGS) $(JSON_CFLAGS) -Iuser/cli -c -o $@ $<

$(CLI_ARCHIVE): $(filter-out $(CLI_MAIN_OBJ),$(CLI_OBJS))
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(CLI): $(CLI_MAIN_OBJ) $(CLI_ARCHIVE) $(STATIC_LIB)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CLI_MAIN_OBJ) $(CLI_ARCHIVE) $(STATIC_LIB) $(NL_LIBS) \
		$(URING_LIBS) $(JSON_LIBS) -lm -lpthread

# Tests link the CLI's archive too: those that test the CLI's pieces
# (test_trace, t_counters) take their objects from it.
$(B)/tests/unit/%: tests/unit/%.c $(CLI_ARCHIVE) $(STATIC_LIB)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(WSC_CFLAGS) $(DEPFLAGS) $(NL_CFLAGS) -Iuser/cli \
		-o $@ $< $(CLI_ARCHIVE) $(STATIC_LIB) $(NL_LIBS) $(JSON_LIBS) -lcmocka -lm

$(B)/tests/vm/%: tests/vm/%.c $(CLI_ARCHIVE) $(STATIC_LIB)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(WSC_CFLAGS) $(DEPFLAGS) $(NL_CFLAGS) -Itests/vm \
		-Iuser/cli -o $@ $< $(CLI_ARCHIVE) $(STATIC_LIB) $(NL_LIBS) \
		$(JSON_LIBS) $(VM_EXTRA_LIBS) -lm -lpthread

# t_trace_ring hands requests to io_uring through liburing.
$(B)/tests/vm/t_trace_ring: VM_EXTRA_LIBS = $(URING_LIBS)

# The trace tests' workload: known call counts per task.
$(B)/tests/vm/wl_calls: tests/vm/wl_calls.c
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(WSC_CFLAGS) $(DEPFLAGS) -o $@ $< -lpthread

# The observers' workload: libwsc batches, wrapped or plain.
$(B)/tests/vm/wl_txn: tests/vm/wl_txn.c $(STATIC_LIB)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(WSC_CFLAGS) $(DEPFLAGS) -o $@ $< $(STATIC_LIB) $(NL_LIBS) -lpthread

# wsc trace --advise's workload: known runs, apart from the loader's.
$(B)/tests/vm/wl_advise: tests/vm/wl_advise.c
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(WSC_CFLAGS) $(DEPFLAGS) -o $@ $<

# The syscall tracepoint tests' workload: four calls, batched or plain.
$(B)/tests/vm/wl_batch: tests/vm/wl_batch.c
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(WSC_CFLAGS) $(DEPFLAGS) -o $@ $<

# The advise validation programs, static: the few calls of a dynamic
# loader's start would be advice that their libwsc versions leave alone.
ADVISE_COMMON := tools/workloads/advise/advise_common.c tools/workloads/advise/advise_files.c
$(B)/workloads/advise/adv-%: tools/workloads/advise/adv_%.c $(ADVISE_COMMON) $(STATIC_LIB)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(WSC_CFLAGS) $(DEPFLAGS) -static -o $@ $< $(ADVISE_COMMON) $(STATIC_LIB)

# The examples the README and the manual pages quote (tests/tools/
# test_examples): built as a user's program is, against libwsc.h alone
# (no -Iuser/lib), with -Wpedantic.
$(B)/examples/%: examples/%.c $(STATIC_LIB)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -std=gnu11 -Wall -Wextra -Wpedantic $(DEPFLAGS) \
		-Iuser/include -Iinclude/uapi -Iinclude -o $@ $< $(STATIC_LIB) $(NL_LIBS)

$(B)/tests/fuzz/%.o: tests/fuzz/%.c
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(WSC_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(FUZZ): $(FUZZ_OBJS)
	$(call msg,LD,$@)
	$(Q)$(CC) -o $@ $(FUZZ_OBJS) -lpthread

# wsc trace names system calls as this system's uapi header does: the
# table is generated, and only trace/trace_names.o looks in build/gen for it.
SYSCALL_HEADER ?= /usr/include/x86_64-linux-gnu/asm/unistd_64.h
$(B)/gen/syscall_names.h: tools/gen-syscall-names $(SYSCALL_HEADER)
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)tools/gen-syscall-names $(SYSCALL_HEADER) > $@.tmp && mv $@.tmp $@
$(B)/cli/trace/trace_names.o: $(B)/gen/syscall_names.h
$(B)/cli/trace/trace_names.o: WSC_CFLAGS += -I$(B)/gen

# The headers each object and test was built from (see DEPFLAGS).
-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(UNIT_BINS:=.d) \
	$(VM_BINS:=.d) $(VM_TOOLS:=.d) $(FUZZ_OBJS:.o=.d) $(EXAMPLES:=.d) \
	$(ADVISE_PROGS:=.d)

# No cycle between the files of libwsc, of the CLI or of the module, no
# leak between the CLI's layers or the module's areas, no name that both
# the module and libwsc define: the graphs and the verdict
# (tests/tools/test_layers runs the same check in make check).  The
# module's objects and their includes are kbuild's, in kmod/.
layers: $(LIB_OBJS) $(CLI_OBJS) module
	$(Q)tools/check-layers --graph --map user/lib/libwsc.map --lib user/lib=$(B)/lib --cli user/cli=$(B)/cli --kmod kmod=kmod

# The netlink ABI from its spec, as the kernel's tools/net/ynl makes its
# families'; tests/tools/test_netlink_spec (make check) fails when the
# files in the tree are not what this makes.
netlink:
	$(Q)tools/gen-netlink

# Every shell script of the tree (a TAP line each, the findings under a
# failed one; .shellcheckrc says where sourced files are).  make check
# runs the same test with the other tests/tools/.
shellcheck:
	$(Q)tests/tools/test_shellcheck

# Everything, every kernel of the matrix and the Debian 13 root included;
# deps-base only what the default kernel's checks need.
deps:
	$(Q)tools/install-deps

deps-base:
	$(Q)tools/install-deps --base

unit: $(UNIT_BINS)
	$(Q)tests/run-unit $(UNIT_BINS)

vmtest: all tests
	$(Q)tools/vm-run --scratch 1G --dmesg $(B)/vm-dmesg.txt -- tests/vm/run $(B)/tests/vm

# The README's test command: everything, counted, on a fresh machine.
check: deps-base
	$(Q)$(MAKE) --no-print-directory all tests
	$(Q)tests/check $(B)

# The VM suite on every kernel of the matrix; CHECK_KERNELS_FLAGS passes
# e.g. --skip 6.1 (see tests/check-kernels --help).
check-kernels: deps
	$(Q)$(MAKE) --no-print-directory user tests
	$(Q)tests/check-kernels $(CHECK_KERNELS_FLAGS) $(B)

# The debug kernel (tools/debug-kernel): what its build needs is installed
# only for these targets, never for make check.
deps-debug:
	$(Q)tools/install-deps --base --debug

debug-kernel: deps-debug
	$(Q)tools/debug-kernel

check-debug: deps-debug
	$(Q)$(MAKE) --no-print-directory user tests
	$(Q)tests/check-debug $(B)

# tools/demo runs one test program, t_chain, as its cp transaction.
demo: deps-base
	$(Q)$(MAKE) --no-print-directory all $(B)/tests/vm/t_chain
	$(Q)tools/vm-run --scratch 1G -- tools/demo

bench: all
	$(Q)tools/vm-run --scratch 2G -- tools/measure/bench

# The fuzzer in the VM, on the default kernel or KERNEL= (any release of
# tools/kernel-matrix, the module built for it by tools/build-module),
# rmmod and insmod included.  SEED, ITERS, SECONDS and MODE go to
# wsc-fuzz as they are; FUZZ_TIMEOUT bounds the VM (seconds).
.PHONY: fuzz
FUZZ_TIMEOUT ?= 7200
FUZZ_ARGS = $(if $(SEED),--seed $(SEED)) $(if $(ITERS),--iters $(ITERS)) \
	$(if $(SECONDS),--seconds $(SECONDS)) $(if $(MODE),--mode $(MODE)) --rmmod
fuzz: $(FUZZ) $(if $(KERNEL),,module)
	$(Q)if [ -n "$(KERNEL)" ]; then \
		ko=$$(tools/build-module "$(KERNEL)" "$(B)/kmod/$(KERNEL)" | tail -n 1) || exit 1; \
	else \
		ko=kmod/wsc.ko; \
	fi; \
	tools/vm-run --scratch 1G --timeout $(FUZZ_TIMEOUT) $(if $(KERNEL),--kernel $(KERNEL)) \
		--env WSC_KO=$$ko -- sh -c "insmod $$ko && $(FUZZ) $(FUZZ_ARGS)"

# The manual pages (man/, tests/tools/test_man checks them): libwsc(3),
# a page per function, wsc(8) and one per subcommand.  Another name of a
# page (a function of a family) is a symbolic link to it, in the tree
# (so that man -l reads it there) and once installed.
MAN_LINKS := $(shell find man -maxdepth 1 -type l -name '*.[38]' | sort)
MAN3_PAGES := $(filter-out $(MAN_LINKS),$(wildcard man/*.3))
MAN8_PAGES := $(filter-out $(MAN_LINKS),$(wildcard man/*.8))
MAN1_PAGES := $(filter-out $(MAN_LINKS),$(wildcard man/*.1))

# The plotter (user/plot/): the script with its package beside it, where
# it looks for it, in a folder of wsc's own; BINDIR/wsc-plot is a link
# to the script, relative so that the tree may be moved.
PLOTDIR = $(DATADIR)/wsc

# The headers go in a folder of their own, $(INCLUDEDIR)/wsc, laid out as
# in the tree's -I flags (libwsc.h and the shared wsc_*.h side by side, the
# uapi header as linux/wsc.h): a program includes <libwsc.h> with
# libwsc.pc's -I${includedir}/wsc, and libwsc.h's own includes resolve
# there.  The .pc is written here, with the PREFIX and LIBDIR of this
# install, and relative to ${prefix} where they allow it, so that
# pkg-config --define-prefix finds a tree that was moved.
WSC_INCLUDEDIR = $(INCLUDEDIR)/wsc
pc_rel = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
# A user's program includes libwsc.h, which needs the struct of
# wsc_summary_types.h and the uapi header; wsc_hist.h and
# wsc_experiments.h describe the lab's buckets and experiments.
# wsc_summary.h (the 128-bit arithmetic the module and the library share)
# stays inside.
INSTALL_HEADERS := user/include/libwsc.h include/wsc_summary_types.h \
	include/wsc_hist.h include/wsc_experiments.h
# ldconfig after installing into the running system (DESTDIR empty):
# it is in /sbin, which a user's PATH may not have.
LDCONFIG ?= $(firstword $(wildcard /sbin/ldconfig /usr/sbin/ldconfig) ldconfig)
# What it installs, not `all`: the packages' build (make deb) has neither
# the kernel's headers for the module nor cmocka for the tests.
install: $(STATIC_LIB) $(SHARED_LIB) $(CLI)
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(WSC_INCLUDEDIR)/linux \
		$(DESTDIR)$(BINDIR)
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/
	ln -sf libwsc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libwsc.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_rel,$(LIBDIR))|' \
		-e 's|@INCLUDEDIR@|$(call pc_rel,$(INCLUDEDIR))|' -e 's|@VERSION@|$(VERSION)|' \
		user/lib/libwsc.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/libwsc.pc
	chmod 644 $(DESTDIR)$(LIBDIR)/pkgconfig/libwsc.pc
	install -m 644 $(INSTALL_HEADERS) $(DESTDIR)$(WSC_INCLUDEDIR)/
	install -m 644 include/uapi/linux/wsc.h $(DESTDIR)$(WSC_INCLUDEDIR)/linux/
	install -m 755 $(CLI) $(DESTDIR)$(BINDIR)/
	install -d $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(BASHCOMPDIR)
	install -m 644 $(MAN3_PAGES) $(DESTDIR)$(MANDIR)/man3/
	install -m 644 $(MAN8_PAGES) $(DESTDIR)$(MANDIR)/man8/
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(PLOTDIR)/wscplot
	install -m 644 $(MAN1_PAGES) $(DESTDIR)$(MANDIR)/man1/
	install -m 755 user/plot/wsc-plot $(DESTDIR)$(PLOTDIR)/
	install -m 644 user/plot/wscplot/*.py $(DESTDIR)$(PLOTDIR)/wscplot/
	ln -sfr $(DESTDIR)$(PLOTDIR)/wsc-plot $(DESTDIR)$(BINDIR)/wsc-plot
	$(foreach l,$(MAN_LINKS),ln -sf $(shell readlink $(l)) \
		$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(l)))/$(notdir $(l)) &&) true
	install -m 644 completion/wsc.bash $(DESTDIR)$(BASHCOMPDIR)/wsc
ifeq ($(DESTDIR),)
	$(LDCONFIG) || echo "make install: $(LDCONFIG) failed: run it as root, or programs will not find $(SONAME)" >&2
endif

# The installed headers as a user's C and C++ builds meet them (make check
# runs the same test).
.PHONY: check-headers
check-headers: $(STATIC_LIB) $(SHARED_LIB) $(B)/libwsc-uninstalled.pc $(CLI)
	$(Q)tests/tools/test_headers

# DKMS (README.md, "Install with DKMS or as Debian packages"): the
# module's source as kbuild needs it, in the layout of this tree (kmod/
# beside include/, see kmod/Kbuild), and dkms.conf written from dkms/dkms.conf.in with VERSION, the one place the
# version is kept.  With DESTDIR (the wsc-dkms package's build) only the
# files; without, the tree is also added to DKMS and built and installed
# for DKMS_KERNELS (default: KRELEASE, the kernel `make` builds for).
DKMSDIR ?= /usr/src
DKMS_SRC = $(DESTDIR)$(DKMSDIR)/wsc-$(VERSION)
DKMS_KERNELS ?= $(KRELEASE)
DKMS_KMOD_FILES = $(filter-out %.mod.c,$(wildcard kmod/*.c)) $(wildcard kmod/*.h) kmod/Kbuild
DKMS_INCLUDE_FILES = $(wildcard include/wsc_*.h)
.PHONY: dkms-install dkms-uninstall
$(B)/dkms.conf: dkms/dkms.conf.in VERSION
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(B)
	$(Q)sed -e 's|@VERSION@|$(VERSION)|g' $< > $@

# With DESTDIR (the wsc-dkms package) also /etc/modprobe.d/wsc.conf, the
# module parameters' commented example, a conffile dpkg keeps as the admin
# edited it; a live install leaves /etc alone (wsc(8), MODULE PARAMETERS).
dkms-install: $(B)/dkms.conf
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)/kmod $(DKMS_SRC)/include/uapi/linux
	install -m 644 $(DKMS_KMOD_FILES) $(DKMS_SRC)/kmod/
	install -m 644 $(DKMS_INCLUDE_FILES) $(DKMS_SRC)/include/
	install -m 644 include/uapi/linux/wsc.h $(DKMS_SRC)/include/uapi/linux/
	install -m 644 $(B)/dkms.conf $(DKMS_SRC)/
ifneq ($(DESTDIR),)
	install -D -m 644 dkms/wsc.modprobe.conf $(DESTDIR)/etc/modprobe.d/wsc.conf
endif
ifeq ($(DESTDIR),)
	dkms remove wsc/$(VERSION) --all >/dev/null 2>&1 || true
	dkms add wsc/$(VERSION)
	$(foreach k,$(DKMS_KERNELS),dkms install wsc/$(VERSION) -k $(k) &&) true
endif

dkms-uninstall:
	dkms remove wsc/$(VERSION) --all || true
	rm -rf $(DKMS_SRC)

# The Debian packages (debian/), built by tools/build-deb in a copy of the
# tree in build/deb, the .debs beside it, lintian's verdict at the end.
# check-deb installs them in a clean Debian 12 root and boots it in the
# VM; check-dkms builds the module with DKMS for each kernel of the
# matrix here (the host builds, never loads).
.PHONY: deb deps-deb check-deb check-dkms
deps-deb:
	$(Q)tools/install-deps --base --deb

deb: deps-deb
	$(Q)tools/build-deb $(B)/deb

check-deb: deb
	$(Q)tests/check-deb $(B)/deb

check-dkms: deps-deb
	$(Q)tests/check-dkms

# A newcomer's machine: the README's two commands in a clean clone inside
# a Debian 12 root that has never seen wsc (mmdebstrap: the apt variant,
# build-essential and git).  CHECK_FRESH_FLAGS passes e.g. --plant or
# --ref REF (see tests/check-fresh --help).
.PHONY: check-fresh
check-fresh: deps-deb
	$(Q)tests/check-fresh $(CHECK_FRESH_FLAGS) $(B)

# sparse over every file of the module (C=2: whether rebuilt or not), as a
# check: the log is kept in $(B)/sparse.log and any line sparse (or the
# compiler) writes about wsc's own files, kmod/ and the shared headers,
# fails the target.  What it says about the kernel's headers is not ours.
sparse:
	$(call msg,SPARSE,kmod)
	$(Q)command -v sparse >/dev/null || { echo "no sparse: run tools/install-deps --base" >&2; exit 1; }
	$(Q)mkdir -p $(B)
	$(Q)$(call kbuild,kmod,C=2 modules) > $(B)/sparse.log 2>&1 || { cat $(B)/sparse.log >&2; exit 1; }
	$(Q)! grep -E '^$(CURDIR)/(kmod|include)/' $(B)/sparse.log || \
		{ echo "sparse: the findings above are in wsc's files (log: $(B)/sparse.log)" >&2; exit 1; }

# checkpatch.pl ships with the kernel source, not with the headers:
# CHECKPATCH=/path/to/linux/scripts/checkpatch.pl make style.  Otherwise
# the newest unpacked linux-source tree is used, or the script and the
# lists it reads are unpacked from the newest linux-source tarball.
CHECKPATCH_TARBALL := $(lastword $(sort $(wildcard /usr/src/linux-source-*.tar.xz)))
CHECKPATCH ?= $(firstword $(wildcard $(KDIR)/scripts/checkpatch.pl) \
	$(lastword $(sort $(wildcard /usr/src/linux-source-*/scripts/checkpatch.pl \
		/srv/src/linux-source-*/scripts/checkpatch.pl))) \
	$(if $(CHECKPATCH_TARBALL),$(B)/checkpatch/scripts/checkpatch.pl))
# Debian's codespell keeps its dictionary inside its Python package.
CODESPELL_DICT ?= $(firstword $(wildcard /usr/share/codespell/dictionary.txt \
	/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt))
# The module's sources and the headers it shares with userspace.
STYLE_FILES = $(filter-out %.mod.c,$(wildcard kmod/*.c)) $(wildcard kmod/*.h) \
	include/uapi/linux/wsc.h $(wildcard include/wsc_*.h)
# checkpatch's rules that do not apply, each only where it does not:
# -ENOSYS is what wsc answers for a system call number it does not run
# (the ABI, Documentation/abi.md), which is the one meaning checkpatch
# allows it, but it cannot tell; compat.h holds the only version test, the
# guard that refuses kernels older than 6.1; the lab's semaphore
# experiment measures a semaphore that starts taken, not a completion;
# the allowlist and the experiments are X-macro lists, which cannot be
# one parenthesised value; compat.h's guard for firing the faultable
# syscall tracepoints (7.x) is the tasks-trace RCU read lock the kernel's
# own trace_sys_enter() takes there, since their probes are freed only
# after a tasks-trace grace period (checkpatch of 6.12 and later says
# such a lock belongs to BPF and RCU only).
STYLE_IGNORE := ENOSYS
STYLE_IGNORE_kmod/compat.h := LINUX_VERSION_CODE,CONSTANT_COMPARISON,RCU_TASKS_TRACE
STYLE_IGNORE_kmod/lab.c := CONSIDER_COMPLETION
STYLE_IGNORE_include/wsc_calls.h := COMPLEX_MACRO
STYLE_IGNORE_include/wsc_experiments.h := COMPLEX_MACRO
# Spelling (checkpatch's own list and codespell's) is only a CHECK when
# checkpatch reads a file rather than a patch: a second pass asks for it
# alone, with --strict, and not for the rest of --strict.
STYLE_CHECKPATCH = $(CHECKPATCH) --no-tree --terse --no-summary -q
style_ignore = --ignore $(STYLE_IGNORE)$(if $(STYLE_IGNORE_$(1)),$(comma)$(STYLE_IGNORE_$(1)))
comma := ,

style: $(if $(filter $(B)/checkpatch/%,$(CHECKPATCH)),$(CHECKPATCH))
	$(Q)test -n "$(CHECKPATCH)" || { echo "no checkpatch.pl: set CHECKPATCH" >&2; exit 1; }
	$(Q)test -n "$(CODESPELL_DICT)" || { echo "no codespell dictionary: run tools/install-deps --base or set CODESPELL_DICT" >&2; exit 1; }
	$(Q)status=0; $(foreach f,$(STYLE_FILES),$(STYLE_CHECKPATCH) \
		$(call style_ignore,$(f)) -f $(f) || status=1;) \
	$(STYLE_CHECKPATCH) --strict --types TYPO_SPELLING --codespell \
		--codespellfile $(CODESPELL_DICT) -f $(STYLE_FILES) || status=1; \
	exit $$status

$(B)/checkpatch/scripts/checkpatch.pl: $(CHECKPATCH_TARBALL)
	$(call msg,UNPACK,$@)
	$(Q)mkdir -p $(B)/checkpatch
	$(Q)tar -xJf $< -C $(B)/checkpatch --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	$(Q)touch $@

clean:
	$(Q)$(call kbuild,kmod,clean) >/dev/null 2>&1 || true
	$(Q)rm -rf $(B)
