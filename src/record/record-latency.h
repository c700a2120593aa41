/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record-latency.h - the host's memory latency profile: from every node to
 * every node, a pinned pointer chase (record-latency.c).  Used by
 * `schedreplay latency` and, at the start of a recording, by
 * `schedreplay record`, which stores it as schedreplay_latency lines.
 *
 * One chase: a buffer on memory node TO (numa_alloc_onnode()), several
 * times larger than the last-level cache, holds a random cyclic
 * permutation of its cache lines (Sattolo's algorithm, so one cycle visits
 * every line); the thread, pinned to the CPUs of node FROM, follows it,
 * each load's address depending on the previous load.  Time / loads is
 * the latency of one dependent load, TLB misses included (the buffer asks
 * for transparent huge pages to keep those few).  Each pair is measured
 * RECORD_LATENCY_REPEATS times; the median is reported and the spread is
 * the largest minus the smallest repeat.
 */
#ifndef SR_RECORD_RECORD_LATENCY_H
#define SR_RECORD_RECORD_LATENCY_H

#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

#define RECORD_LATENCY_REPEATS		5
#define RECORD_LATENCY_DEFAULT_S	2.0	/* the chase's time budget, all pairs */
#define RECORD_LATENCY_MAX_S		600.0
#define RECORD_LATENCY_MIN_BUFFER	(64u << 20)	/* bytes; at least 4 x the LLC */
#define RECORD_LATENCY_MAX_NODES	64

/**
 * struct record_latency - a measured profile
 * @nr_nodes:  nodes (ids 0 .. nr_nodes-1, the kernel's)
 * @ns:        nr_nodes x nr_nodes, row-major, ns[from * nr_nodes + to]: the
 *             median ns per dependent load; < 0 where not measured (a
 *             node without CPUs or memory, an id not online)
 * @spread:    the same shape: max - min of the repeats, ns
 * @loads:     the same shape: loads per repeat
 * @repeats:   repeats per pair
 * @buffer_bytes: size of each chase's buffer
 * @seconds:   wall time of the whole measurement (setup included)
 * @numa:      false when libnuma was not usable (one node, unpinned)
 */
struct record_latency {
	int	nr_nodes;
	double	*ns;
	double	*spread;
	double	*loads;
	int	repeats;
	size_t	buffer_bytes;
	double	seconds;
	bool	numa;
};

/**
 * record_latency_measure() - measure the profile of this host
 * @budget_s: time the chases may take, all pairs together (> 0); buffer
 *            setup adds to it (faulting in and shuffling the buffer: about 1 s
 *            per node for 128 MiB on a busy 2-CPU VM); each repeat runs at least
 *            20000 loads
 * @e:        failure details
 *
 * Only the CPUs the calling thread may run on are used (a node with none
 * of them gives no row); its CPU affinity is restored before returning.
 * libnuma's warning hooks (numa_warn(), numa_error()) are made silent for
 * the whole process, since library code prints nothing.
 * Context: runs for about @budget_s seconds; allocates 1 buffer at a time.
 * Return: owned (record_latency_free()), or NULL with @e set.
 */
struct record_latency *record_latency_measure(double budget_s, struct err *e);

/** record_latency_free() - free a profile (NULL is fine) */
void record_latency_free(struct record_latency *l);

#endif
