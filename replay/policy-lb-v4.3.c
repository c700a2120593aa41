// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-lb-v4.3.c - lb-v4.3: can_migrate_task() of Linux v4.3, i.e. seed
 * 002 as it landed, rebased onto v4.2's reordering of the preferred-node
 * checks.
 *
 * Models: Linux v4.3.3 kernel/sched/fair.c; the landed patch is
 * 2a1ed24ce940 (id from memory, docs/kernel-behaviour.md section 1), on
 * top of Rik van Riel's v4.2 c1ceac6276e4 "sched/numa: Reduce conflict
 * between fbq_classify_rq() and migration".
 * Follows docs/kernel-behaviour.md section 2.6 ("As landed in v4.3") and
 * the disagreement table, section 2.7; task_hot() is unchanged from v4.1
 * (section 2.3).
 *
 * Differences from the posting (lb-v4.1-numa-hotness): no group
 * active-node tests; the preferred-node tests come first and apply to
 * group members too; the fault comparison uses group_faults() for group
 * members.  Still the single feature NUMA, default true (v4.4 turned it
 * into the sched_numa_balancing static key).
 */
#include <stdint.h>

#include "replay-local.h"

enum {
	P_NUMA = REPLAY_LB_P__COMMON,
};

static const struct sr_param_desc lb_v43_params[] = {
	REPLAY_LB_PARAMS_COMMON,
	{ .name = "NUMA", .type = SR_PARAM_BOOL, .def = 1, .min = 0, .max = 1,
	  .description = "sched feature NUMA (v4.3 default true): gates "
		"migrate_degrades_locality()" },
	{ .name = NULL },
};

/* v4.3's tri-state migrate_degrades_locality() */
static struct replay_pred degrades_v43(struct replay_eval *ev)
{
	const struct sr_snapshot *s = ev->snap;
	struct replay_pred pred, cmp;
	const uint64_t *faults;

	if (replay_tristate_gates(ev, ev->param[P_NUMA], &pred))
		return pred;
	/* away from the preferred node (for group members too), or to it */
	if (replay_tristate_pref_node(ev, &pred))
		return pred;

	/* group_faults() for a group member, task_faults() otherwise */
	if (!replay_need(ev, SR_SNAP_BIT_NUMA_GROUP))
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	faults = replay_faults_of(ev);
	if (!faults)
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	/* dst_faults < src_faults; equality yields 0 ("improves") */
	cmp = replay_compare_faults(faults, s->src_node, s->dst_node);
	return replay_pred_make(cmp.val < 0, cmp.why, 0);
}

static void lb_v43_body(struct replay_eval *ev, int exceeded, struct sr_verdict *out)
{
	const struct sr_snapshot *s = ev->snap;
	bool active = s->decision_class == SR_DECISION_CLASS_LB_ACTIVE;

	/* v4.3's load_balance() still sets nr_balance_failed = cache_nice_tries + 1 */
	if (active)
		exceeded = 1;
	replay_lb_tristate_tail(ev, exceeded, active, degrades_v43(ev), replay_task_hot_v41, out);
}

static int lb_v43_evaluate(const void *priv, const struct sr_snapshot *snap,
			   struct sr_verdict *out)
{
	return replay_lb_evaluate(priv, snap, out, lb_v43_body);
}

const struct sr_policy_ops policy_lb_v43_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "lb-v4.3",
	.provenance	= "Linux v4.3 (v4.3.3) kernel/sched/fair.c can_migrate_task(); "
			  "seed 002 as landed, 2a1ed24ce940 (id unconfirmed), on v4.2's "
			  "c1ceac6276e4",
	.description	= "load balancer with seed 002 as landed: preferred-node checks "
			  "first, no active-node tests, equal faults count as improving",
	.classes	= REPLAY_LB_CLASSES,
	.params		= lb_v43_params,
	.evaluate	= lb_v43_evaluate,
};
