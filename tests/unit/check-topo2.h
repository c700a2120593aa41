/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check-topo2.h - the topology several Check programs model on: 2 nodes
 * of 2 CPUs each (CPUs 0-1 on node 0, 2-3 on node 1), distance 20 between
 * them, like the numa02-2n trace.
 */
#ifndef SR_TESTS_CHECK_TOPO2_H
#define SR_TESTS_CHECK_TOPO2_H

#include <check.h>

#include "topo/topo.h"

/* Return: the topology, owned by the caller (topo_free()); never NULL. */
static inline struct topo *check_topo2(void)
{
	struct topo *t = topo_new(2, 4);

	ck_assert_ptr_nonnull(t);
	t->cpu_node[0] = t->cpu_node[1] = 0;
	t->cpu_node[2] = t->cpu_node[3] = 1;
	t->distance[1] = t->distance[2] = 20;
	return t;
}

#endif
