/* SPDX-License-Identifier: MIT */
/*
 * The CPUs a measurement runs on: pinning, and whether one is offline.
 */
#ifndef WSC_CLI_CPU_H
#define WSC_CLI_CPU_H

#include <stdbool.h>

/* Pin the calling thread to one CPU: 0 or -errno. */
int pin_to_cpu(int cpu);
/* A CPU that sysfs reports offline (CPU 0 often has no "online" file). */
bool cpu_offline(int cpu);

#endif /* WSC_CLI_CPU_H */
