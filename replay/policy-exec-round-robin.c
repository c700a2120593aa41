// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-exec-round-robin.c - exec-round-robin: seed 003's cheap variant,
 * where sched_best_node() keeps "only the while loop at the beginning":
 * each exec goes to the next node in turn, loads not computed at all.
 *
 * Models: Erich Focht's suggestion to Martin Bligh in the seed thread
 * (LKML, 27 Oct 2002) on his node-affine scheduler part 2.
 * Follows kernel-policies.md section 5.1 (the round-robin start of
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
#include <errno.h>
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

static int exec_round_robin_evaluate(const void *priv, const struct sr_snapshot *snap,
				     struct sr_verdict *out)
{
	const struct sr_param_values *vals = priv;
	struct replay_eval ev = { .snap = snap };
	int node = -1;
	int nr, start, i;
	int ret;

	ret = replay_check_args(priv, snap, out);
	if (ret)
		return ret;
	if (vals->nr < 1)
		return -EINVAL;
	ev.param = vals->v;

	if (!(snap->known & SR_SNAP_CLASS) || snap->decision_class != SR_DECISION_CLASS_EXEC) {
		replay_verdict_set(out, &ev, SR_VERDICT_NOT_APPLICABLE,
				   SR_REASON_CLASS_NOT_HANDLED, 0, 0);
		return 0;
	}
	if (!replay_need(&ev, SR_SNAP_BIT_NR_NODES) ||
	    !replay_need(&ev, SR_SNAP_BIT_NODE_NR_CPUS) ||
	    !replay_need(&ev, SR_SNAP_BIT_EXEC_SEQ) ||
	    !replay_need(&ev, SR_SNAP_BIT_DST_NODE)) {
		replay_verdict_unknown(out, &ev);
		return 0;
	}

	nr = snap->nr_nodes;
	if (nr > SR_MAX_NODES)
		nr = SR_MAX_NODES;
	if (nr < 1) {
		replay_verdict_set(out, &ev, SR_VERDICT_NOT_APPLICABLE, SR_REASON_EXEC_NO_NODE,
				   0, 0);
		return 0;
	}
	start = (int)((snap->exec_seq + (uint64_t)ev.param[P_OFFSET]) % (uint64_t)nr);
	/* skip pools without CPUs */
	for (i = 0; i < nr; i++) {
		int n = (start + i) % nr;

		if (snap->node_nr_cpus[n] > 0) {
			node = n;
			break;
		}
	}
	if (node < 0) {
		replay_verdict_set(out, &ev, SR_VERDICT_NOT_APPLICABLE, SR_REASON_EXEC_NO_NODE,
				   0, 0);
		return 0;
	}
	out->target_node = node;
	if (node == snap->dst_node)
		replay_verdict_set(out, &ev, SR_VERDICT_ALLOW, SR_REASON_EXEC_ROUND_ROBIN, 0, 0);
	else
		replay_verdict_set(out, &ev, SR_VERDICT_RESIST,
				   SR_REASON_EXEC_ROUND_ROBIN_ELSEWHERE, 0, 0);
	return 0;
}

const struct sr_policy_ops policy_exec_round_robin_ops = {
	.abi_version	= SR_POLICY_ABI_VERSION,
	.size		= sizeof(struct sr_policy_ops),
	.name		= "exec-round-robin",
	.provenance	= "seed 003: Erich Focht's round-robin-only sched_best_node() "
			  "(LKML, 2002-10-27), on his node-affine NUMA scheduler part 2",
	.description	= "exec placement on the next node in turn, loads ignored",
	.classes	= SR_CLASS_BIT(SR_DECISION_CLASS_EXEC),
	.params		= exec_round_robin_params,
	.evaluate	= exec_round_robin_evaluate,
};
