/* SPDX-License-Identifier: MIT */
/*
 * The module's absence, said once for every command: what is missing and
 * the command that loads it here (module_hint.c).
 */
#ifndef WSC_CLI_MODULE_HINT_H
#define WSC_CLI_MODULE_HINT_H

#include <stdbool.h>
#include <stddef.h>

/* An errno (positive or negative) that means the module is not there. */
bool module_absent(int err);

/* The device the commands open: $WSC_DEVICE, else /dev/wsc. */
const char *module_device_path(void);

/**
 * module_hint_for() - how to load wsc.ko, for given places
 * @buf, @len:  the hint, e.g. "load it: sudo modprobe wsc"
 * @modroot:    where the kernels' modules live ("/lib/modules")
 * @release:    the running kernel's release (uname -r)
 * @tree_ko:    a wsc.ko built in a source tree, or NULL
 * @root:       whether we are root (no "sudo " then)
 *
 * modprobe when modules.dep of @release lists wsc.ko (a package, DKMS or
 * `make modules_install`); else insmod of @tree_ko when it was built for
 * @release; else how to get one: rebuild @tree_ko, or install wsc-dkms.
 * Split out of module_hint() for the tests.
 */
void module_hint_for(char *buf, size_t len, const char *modroot,
		     const char *release, const char *tree_ko, bool root);

/* module_hint_for() for this machine, this kernel and this wsc's tree. */
void module_hint(char *buf, size_t len);

/**
 * module_report() - say that a command could not reach the module
 * @cmd:  the subcommand ("info", "bench fit")
 * @err:  what opening failed with (-errno or errno)
 * @genl: true for a generic netlink family (klat, trace), else the device
 *
 * For an absent module, two lines:
 *   wsc CMD: the wsc module is not loaded (/dev/wsc: No such file or directory)
 *   wsc CMD: load it: sudo modprobe wsc
 * For anything else, one line with the reason.  Returns 1, the exit
 * status of a command that cannot go on.
 */
int module_report(const char *cmd, int err, bool genl);

#endif /* WSC_CLI_MODULE_HINT_H */
