// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model-check.c - the range check every decoded event passes before it
 * reaches the model: the CPUs and nodes it names must be in the topology.
 * One place for it, so that the session (src/session/) and the fuzz
 * harnesses (tests/fuzz/fuzz-text.c) check the same thing the same way.
 *
 * The topology never changes here: a guessed one (TOPO_SRC_DEFAULT) was
 * sized by the session's pre-scan before the first event (see
 * model_event_max_cpu()); only its nodes go unchecked.
 */
#include "model.h"

/* The CPUs and nodes @ev names; -1 where it names none. */
static void model_check_ids(const struct sr_event *ev, int cpus[3], int nodes[2])
{
	cpus[0] = ev->cpu;
	cpus[1] = -1;
	cpus[2] = -1;
	nodes[0] = -1;
	nodes[1] = -1;
	switch (ev->kind) {
	case SR_EV_MIGRATE:
		cpus[1] = ev->u.mig.orig_cpu;
		cpus[2] = ev->u.mig.dest_cpu;
		break;
	case SR_EV_WAKEUP:
	case SR_EV_WAKING:
	case SR_EV_WAKEUP_NEW:
		cpus[1] = ev->u.wake.target_cpu;
		break;
	case SR_EV_MOVE_NUMA:
	case SR_EV_SWAP_NUMA:
	case SR_EV_STICK_NUMA:
		cpus[1] = ev->u.numa.src_cpu;
		cpus[2] = ev->u.numa.dst_cpu;
		nodes[0] = ev->u.numa.src_nid;
		nodes[1] = ev->u.numa.dst_nid;
		break;
	case SR_EV_NUMA_FAULT:
		nodes[0] = ev->u.fault.mem_node;
		break;
	default:
		break;
	}
}

static int model_range_error(const struct topo *t, const struct sr_event *ev,
			     const char *what, int val, int limit, struct err *e)
{
	return err_set(e, -SR_ERANGE, "%s: %s %d out of range (topology from %s has %d)",
		       ev->name ? ev->name : "event", what, val,
		       topo_source_name(t->source), limit);
}

int model_event_max_cpu(const struct sr_event *ev)
{
	int cpus[3];
	int nodes[2];
	int max = -1;
	int i;

	model_check_ids(ev, cpus, nodes);
	for (i = 0; i < 3; i++)
		if (cpus[i] > max)
			max = cpus[i];
	return max;
}

int model_check_event(const struct topo *t, const struct sr_event *ev, struct err *e)
{
	int cpus[3];
	int nodes[2];
	int i;

	model_check_ids(ev, cpus, nodes);
	for (i = 0; i < 3; i++) {
		if (cpus[i] < t->nr_cpus)
			continue;	/* negative: the event did not name one */
		return model_range_error(t, ev, "cpu", cpus[i], t->nr_cpus, e);
	}
	if (t->source == TOPO_SRC_DEFAULT)
		return 0;	/* nodes cannot be checked against a guess */
	for (i = 0; i < 2; i++)
		if (nodes[i] >= t->nr_nodes)
			return model_range_error(t, ev, "node", nodes[i], t->nr_nodes, e);
	return 0;
}
