/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpus.h - how many CPUs this process may use, for the defaults of the
 * parallel parts (replay --jobs, the trace.dat reader's threads), and how
 * their helper threads are started and scheduled.
 */
#ifndef SR_UTIL_CPUS_H
#define SR_UTIL_CPUS_H

#include <pthread.h>
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

/**
 * util_thread_start() - start a helper thread with every signal blocked,
 * named @name
 * @t:    out: the thread
 * @fn:   its function, given @arg
 * @name: its name in top -H, ps -L, perf and /proc/PID/task/TID/comm (15
 *        bytes at most), set here so that it has it from its start
 *
 * SIGINT, SIGTERM and SIGHUP then reach the calling thread only: outfile.c
 * blocks them there while it creates and registers a temporary file, and a
 * helper taking one in that window would end the process with the file
 * left behind.  The caller's own signal mask is as it was.
 * Return: pthread_create()'s: 0, or an error number.
 */
int util_thread_start(pthread_t *t, void *(*fn)(void *), void *arg, const char *name);

#endif
