// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpus.c - the CPUs this process may use, and its helper threads'
 * scheduling policy (cpus.h).
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
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

bool util_thread_helper(void)
{
	struct sched_param sp;
	int policy;

	if (pthread_getschedparam(pthread_self(), &policy, &sp) != 0)
		return false;
	if (policy == SCHED_BATCH)
		return true;
	if (policy != SCHED_OTHER)
		return false;
	sp.sched_priority = 0;	/* the only one SCHED_BATCH takes */
	return pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp) == 0;
}

int util_thread_start(pthread_t *t, void *(*fn)(void *), void *arg, const char *name)
{
	sigset_t all, old;
	int ret;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = pthread_create(t, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!ret)
		pthread_setname_np(*t, name);
	return ret;
}
