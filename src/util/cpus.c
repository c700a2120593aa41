// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpus.c - the CPUs this process may use (cpus.h).
 */
#include <sched.h>
#include <unistd.h>

#include "cpus.h"

int util_cpus_available(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}
