// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-exec-least-loaded.c - exec-least-loaded: seed 003's exec
 * placement, Erich Focht's node-affine scheduler part 2 (2002):
 * sched_best_node() picks the node with the fewest runnable tasks per CPU.
 *
 * Models: sched_best_node() / sched_balance_exec() of Focht's node-affine
 * NUMA scheduler as posted in Aug-Sep 2002 (lkml 0209.2/1404; the "01/02"
 * patches of October 2002 discussed in the seed may differ in detail).
 * Follows docs/kernel-behaviour.md section 5.1.
 *
 * sched_best_node(p, exec):
 *   start = next value of the round-robin counter, skipping nodes without CPUs
 *   load[n] = sum of nr_running over n's CPUs, minus p itself on its node
 *   scan n = start, start+1, ... (wrapping): keep the first node whose
 *       100 * load[n] / cpus[n] is strictly smaller than the best so far
 *
 * The counter is sr_snapshot.exec_seq, kept by the engine (one step per exec
 * in the trace), which keeps this function pure.  Focht's counter was also
 * set to the chosen node after each choice, so ties rotate from a different
 * point; the documented deviation (docs/policies.md) only affects ties.
 *
 * Verdict: allow when the chosen node is the one the task went to, resist
 * (with target_node = the chosen node) when it would have gone elsewhere.
 * The node only: which CPU inside it is not judged.
 */
#include <stdint.h>

#include "replay-local.h"

enum {
	P_SUBTRACT_SELF = 0,
};

static const struct sr_param_desc exec_least_loaded_params[] = {
	{ .name = "subtract_self", .type = SR_PARAM_BOOL, .def = 1, .min = 0, .max = 1,
	  .description = "do not count the exec'ing task in its own node's load, as "
		"sched_best_node() does at exec" },
	{ .name = NULL },
};

static bool exec_least_loaded_need(struct replay_eval *ev)
{
	return replay_need(ev, SR_SNAP_BIT_NR_NODES) &&
	       replay_need(ev, SR_SNAP_BIT_NODE_NR_CPUS) &&
	       replay_need(ev, SR_SNAP_BIT_NODE_NR_RUNNING) &&
	       replay_need(ev, SR_SNAP_BIT_EXEC_SEQ) &&
	       replay_need(ev, SR_SNAP_BIT_DST_NODE) &&
	       (!ev->param[P_SUBTRACT_SELF] || replay_need(ev, SR_SNAP_BIT_SRC_NODE));
}

/* sched_best_node(p, exec): the least loaded node, scanned from the counter */
static int exec_least_loaded_pick(struct replay_eval *ev, int nr)
{
	const struct sr_snapshot *snap = ev->snap;
	int64_t best_load = 0;
	int best = -1;
	int start, i;

	start = (int)(snap->exec_seq % (uint64_t)nr);
	for (i = 0; i < nr; i++) {
		int n = (start + i) % nr;
		int64_t load = snap->node_nr_running[n];

		if (snap->node_nr_cpus[n] <= 0)
			continue;
		if (ev->param[P_SUBTRACT_SELF] && n == snap->src_node && load > 0)
			load--;
		if (load < 0)
			load = 0;
		load = 100 * load / snap->node_nr_cpus[n];
		if (best < 0 || load < best_load) {
			best = n;
			best_load = load;
		}
	}
	return best;
}

static const struct replay_exec_ops exec_least_loaded = {
	.nr_params	= 1,
	.need		= exec_least_loaded_need,
	.pick		= exec_least_loaded_pick,
	.why_here	= SR_REASON_EXEC_LEAST_LOADED,
	.why_elsewhere	= SR_REASON_EXEC_LESS_LOADED_ELSEWHERE,
};

static int exec_least_loaded_evaluate(const void *priv, const struct sr_snapshot *snap,
				      struct sr_verdict *out)
{
	return replay_exec_evaluate(priv, snap, out, &exec_least_loaded);
}

const struct sr_policy_ops policy_exec_least_loaded_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "exec-least-loaded",
	.provenance	= "seed 003: Erich Focht's node-affine NUMA scheduler part 2 "
			  "(2002), sched_best_node() at exec",
	.description	= "exec placement on the node with the fewest runnable tasks "
			  "per CPU, ties broken round robin",
	.classes	= REPLAY_EXEC_CLASSES,
	.params		= exec_least_loaded_params,
	.evaluate	= exec_least_loaded_evaluate,
};
