// SPDX-License-Identifier: MIT
/*
 * The CPUs a measurement runs on.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>

#include "cpu.h"

bool cpu_offline(int cpu)
{
	char path[80], c = '1';
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fread(&c, 1, 1, f) != 1)
		c = '1';
	fclose(f);
	return c == '0';
}

int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}
