// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-lb-v4.1-numa-hotness.c - lb-v4.1-numa-hotness: seed 002, "sched:
 * Prefer numa hotness over cache hotness" (Srikar Dronamraju, June 2015)
 * exactly as posted, applied to Linux v4.1.
 *
 * Models: the posted patch against v4.1 kernel/sched/fair.c (index
 * ffeaa41..ddde6fd) and features.h (91e33cd..83a50e7).  It is the "after"
 * side of the seed's numa01/numa02 tables; lb-v4.1 is the "before" side.
 * Follows docs/kernel-behaviour.md section 2.6 ("Seed 002 as posted") and
 * the disagreement table, section 2.7; task_hot() is v4.1's (section 2.3).
 *
 * The patch merges the two locality functions into a tri-state
 * migrate_degrades_locality() (1 degrades, 0 improves, -1 no opinion) that
 * runs BEFORE task_hot(), and folds NUMA, NUMA_FAVOUR_HIGHER and
 * NUMA_RESIST_LOWER into one feature NUMA, default true.  Unlike what
 * landed (lb-v4.3) it keeps v4.1's group active-node tests and checks the
 * preferred node only for tasks outside a NUMA group.
 */
#include <stdint.h>

#include "replay-local.h"

enum {
	P_NUMA = REPLAY_LB_P__COMMON,
};

static const struct sr_param_desc lb_v41_numa_hotness_params[] = {
	REPLAY_LB_PARAMS_COMMON,
	{ .name = "NUMA", .type = SR_PARAM_BOOL, .def = 1, .min = 0, .max = 1,
	  .description = "sched feature NUMA (default true with the patch): gates "
		"migrate_degrades_locality()" },
	{ .name = NULL },
};

/* the posted tri-state migrate_degrades_locality() */
static struct replay_pred degrades_posted(struct replay_eval *ev)
{
	const struct sr_snapshot *s = ev->snap;
	struct replay_pred pred, cmp;
	bool src_in, dst_in;

	if (replay_tristate_gates(ev, ev->param[P_NUMA], &pred))
		return pred;

	if (!replay_need(ev, SR_SNAP_BIT_NUMA_GROUP))
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	if (s->numa_group) {
		if (!replay_need(ev, SR_SNAP_BIT_GROUP_ACTIVE))
			return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
		src_in = replay_node_in(s->group_active, s->src_node);
		dst_in = replay_node_in(s->group_active, s->dst_node);
		/* moving into the group's interleave set */
		if (dst_in && !src_in)
			return replay_pred_make(0, SR_REASON_GROUP_ENTERS_ACTIVE, 0);
		/* moving out of the group's interleave set */
		if (!dst_in && src_in)
			return replay_pred_make(1, SR_REASON_GROUP_LEAVES_ACTIVE, 0);
		/* group_faults(dst) < group_faults(src): equality counts as 0 */
		if (!replay_need(ev, SR_SNAP_BIT_GROUP_FAULTS))
			return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
		cmp = replay_compare_faults(s->group_faults, s->src_node, s->dst_node);
		return replay_pred_make(cmp.val < 0, cmp.why, 0);
	}

	/* away from the preferred node, or to it */
	if (replay_tristate_pref_node(ev, &pred))
		return pred;

	if (!replay_need(ev, SR_SNAP_BIT_TASK_FAULTS))
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	cmp = replay_compare_faults(s->task_faults, s->src_node, s->dst_node);
	return replay_pred_make(cmp.val < 0, cmp.why, 0);
}

/*
 * can_migrate_task() with the patch: steps 1-4 as v4.1 (the running check
 * is replay_lb_evaluate()'s), then the tri-state tail.  Active balancing
 * passes through nr_balance_failed = cache_nice_tries + 1 as in v4.1.
 */
static void lb_v41_numa_hotness_body(struct replay_eval *ev, int exceeded,
				     struct sr_verdict *out)
{
	const struct sr_snapshot *s = ev->snap;
	bool active = s->decision_class == SR_DECISION_CLASS_LB_ACTIVE;

	if (active)
		exceeded = 1;
	replay_lb_tristate_tail(ev, exceeded, active, degrades_posted(ev),
				replay_task_hot_v41, out);
}

static int lb_v41_numa_hotness_evaluate(const void *priv, const struct sr_snapshot *snap,
					struct sr_verdict *out)
{
	return replay_lb_evaluate(priv, snap, out, lb_v41_numa_hotness_body);
}

const struct sr_policy_ops policy_lb_v41_numa_hotness_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "lb-v4.1-numa-hotness",
	.provenance	= "seed 002 \"sched: Prefer numa hotness over cache hotness\" "
			  "(Srikar Dronamraju, 2015-06-10) as posted, on Linux v4.1 "
			  "(fair.c ffeaa41, features.h 91e33cd)",
	.description	= "load balancer with seed 002 as posted: tri-state locality "
			  "before task_hot(), group active-node tests kept",
	.classes	= REPLAY_LB_CLASSES,
	.params		= lb_v41_numa_hotness_params,
	.evaluate	= lb_v41_numa_hotness_evaluate,
};
