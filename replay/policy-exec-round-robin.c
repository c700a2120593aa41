// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-exec-round-robin.c - exec-round-robin: seed 003's cheap variant,
 * where sched_best_node() keeps "only the while loop at the beginning":
 * each exec goes to the next node in turn, loads not computed at all.
 *
 * Models: Erich Focht's suggestion to Martin Bligh in the seed thread
 * (LKML, 27 Oct 2002) on his node-affine scheduler part 2.
 * Follows docs/kernel-behaviour.md section 5.1 (the round-robin start of
 * sched_best_node() and the note on Focht's suggestion).
 *
 * State across decisions: the counter advances once per exec, so the node
 * depends on how many execs came before, not on this snapshot alone.  The
 * engine keeps that count (sr_snapshot.exec_seq, every sched_process_exec
 * of the trace, migrating or not) and the policy stays a pure function:
 *   node = exec_seq mod nr_nodes, then onwards past nodes without CPUs.
 * Focht's counter starts wherever the machine left it; node 0 for the
 * trace's first exec is our convention (parameter "offset" shifts it).
 */
#include <stdint.h>

#include "replay-local.h"

enum {
	P_OFFSET = 0,
};

static const struct sr_param_desc exec_round_robin_params[] = {
	{ .name = "offset", .type = SR_PARAM_INT, .def = 0, .min = 0, .max = SR_MAX_NODES - 1,
	  .description = "node the trace's first exec goes to (the counter's start)" },
	{ .name = NULL },
};

static bool exec_round_robin_need(struct replay_eval *ev)
{
	return replay_need(ev, SR_SNAP_BIT_NR_NODES) &&
	       replay_need(ev, SR_SNAP_BIT_NODE_NR_CPUS) &&
	       replay_need(ev, SR_SNAP_BIT_EXEC_SEQ) &&
	       replay_need(ev, SR_SNAP_BIT_DST_NODE);
}

/* the counter's node, then onwards past nodes without CPUs */
static int exec_round_robin_pick(struct replay_eval *ev, int nr)
{
	const struct sr_snapshot *snap = ev->snap;
	int start, i;

	start = (int)((snap->exec_seq + (uint64_t)ev->param[P_OFFSET]) % (uint64_t)nr);
	/* skip pools without CPUs */
	for (i = 0; i < nr; i++) {
		int n = (start + i) % nr;

		if (snap->node_nr_cpus[n] > 0)
			return n;
	}
	return -1;
}

static const struct replay_exec_ops exec_round_robin = {
	.nr_params	= 1,
	.need		= exec_round_robin_need,
	.pick		= exec_round_robin_pick,
	.why_here	= SR_REASON_EXEC_ROUND_ROBIN,
	.why_elsewhere	= SR_REASON_EXEC_ROUND_ROBIN_ELSEWHERE,
};

static int exec_round_robin_evaluate(const void *priv, const struct sr_snapshot *snap,
				     struct sr_verdict *out)
{
	return replay_exec_evaluate(priv, snap, out, &exec_round_robin);
}

const struct sr_policy_ops policy_exec_round_robin_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "exec-round-robin",
	.provenance	= "seed 003: Erich Focht's round-robin-only sched_best_node() "
			  "(LKML, 2002-10-27), on his node-affine NUMA scheduler part 2",
	.description	= "exec placement on the next node in turn, loads ignored",
	.classes	= REPLAY_EXEC_CLASSES,
	.params		= exec_round_robin_params,
	.evaluate	= exec_round_robin_evaluate,
};
