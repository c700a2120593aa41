/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpus.h - how many CPUs this process may use, for the defaults of the
 * parallel parts (replay --jobs, the trace.dat reader's threads).
 */
#ifndef SR_UTIL_CPUS_H
#define SR_UTIL_CPUS_H

/**
 * util_cpus_available() - the CPUs this process may run on
 *
 * Its affinity mask (taskset, cgroup cpusets), else the online CPUs.
 * Return: at least 1.
 */
int util_cpus_available(void);

#endif
