/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpus.h - how many CPUs this process may use, for the defaults of the
 * parallel parts (replay --jobs, the trace.dat reader's threads), and how
 * their helper threads are scheduled.
 */
#ifndef SR_UTIL_CPUS_H
#define SR_UTIL_CPUS_H

#include <stdbool.h>

/**
 * util_cpus_available() - the CPUs this process may run on
 *
 * Its affinity mask (taskset, cgroup cpusets), else the online CPUs.
 * Return: at least 1.
 */
int util_cpus_available(void);

/**
 * util_thread_helper() - make the calling thread a helper that does not
 * preempt on wake-up
 *
 * The parallel parts have one thread whose work sets the pace (the one
 * that merges the events and runs the model) and helpers that feed it or
 * work behind it (the reader's decoding workers, the decision thread).  On
 * a machine with fewer CPUs than busy threads, a helper woken by that
 * thread (a batch freed, a ring drained) preempted it on its own CPU, and
 * it then waited for a time slice while the helper ran.  A helper of
 * policy SCHED_OTHER becomes SCHED_BATCH: the same share of CPU time, but
 * its wake-ups do not preempt a running thread (sched(7)).  A thread of
 * any other policy (a real-time one chosen by the user) is left as it is,
 * and so is one the system refuses to change.
 * Return: true when the thread's policy is now SCHED_BATCH.
 */
bool util_thread_helper(void);

#endif
