/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-topo.h - what the topology harnesses do with a topology a reader
 * accepted: validate it and query every CPU and node pair, so a table the
 * reader sized wrongly shows up under ASan.
 */
#ifndef SR_FUZZ_TOPO_H
#define SR_FUZZ_TOPO_H

#include <stdlib.h>

#include "topo/topo.h"

/**
 * fuzz_topo_walk() - validate and query @t (NULL is fine)
 * @t: a topology, or NULL when the reader refused its input
 */
static inline void fuzz_topo_walk(const struct topo *t)
{
	struct err err = { 0 };
	volatile int sink = 0;
	int a, b;

	if (!t)
		return;
	if (t->nr_nodes < 1 || t->nr_nodes > TOPO_MAX_NODES || t->nr_cpus < 0 ||
	    t->nr_cpus > TOPO_MAX_CPUS)
		abort();	/* a reader returned a topology out of its own limits */
	(void)topo_validate(t, &err);
	for (a = -1; a <= t->nr_cpus; a++)
		sink += topo_cpu_node(t, a);
	for (a = -1; a <= t->nr_nodes && a < 64; a++) {
		sink += topo_node_present(t, a);
		for (b = -1; b <= t->nr_nodes && b < 64; b++)
			sink += topo_distance(t, a, b);
	}
	(void)topo_source_name(t->source);
	(void)sink;
}

#endif
