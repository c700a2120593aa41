// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-lb-v4.1.c - lb-v4.1: can_migrate_task()'s cache-hot and NUMA
 * locality logic of Linux v4.1 (kernel/sched/fair.c), before the seed 002
 * patch "sched: Prefer numa hotness over cache hotness".
 *
 * Models: Linux v4.1.8 / v4.1.52 (features.h blob 91e33cd, the seed patch's
 * pre-image); migrate_improves_locality() from 3a7053b3224f (v3.13),
 * migrate_degrades_locality() from 7a0f308337d1 (v3.13).
 * Follows docs/kernel-behaviour.md section 2.2 (can_migrate_task), section 2.3
 * (task_hot), section 2.4 (migrate_improves_locality, migrate_degrades_locality,
 * feature defaults and the summary table) and section 2.5
 * (cache_nice_tries / nr_balance_failed).
 *
 * Not modelled (the move happened, so they passed): the throttled-pair
 * and cpus_allowed checks that come first in can_migrate_task().
 */
#include <stdint.h>

#include "replay-local.h"

enum {
	P_NUMA = REPLAY_LB_P__COMMON,
	P_NUMA_FAVOUR_HIGHER,
	P_NUMA_RESIST_LOWER,
};

static const struct sr_param_desc lb_v41_params[] = {
	REPLAY_LB_PARAMS_COMMON,
	{ .name = "NUMA", .type = SR_PARAM_BOOL, .def = 0, .min = 0, .max = 1,
	  .description = "sched feature NUMA (v4.1 default off; numa_balancing=1 sets it "
		"on SCHED_DEBUG kernels); gates migrate_degrades_locality()" },
	{ .name = "NUMA_FAVOUR_HIGHER", .type = SR_PARAM_BOOL, .def = 1, .min = 0, .max = 1,
	  .description = "sched feature: enables migrate_improves_locality()" },
	{ .name = "NUMA_RESIST_LOWER", .type = SR_PARAM_BOOL, .def = 0, .min = 0, .max = 1,
	  .description = "sched feature: enables migrate_degrades_locality()" },
	{ .name = NULL },
};

struct replay_pred replay_task_hot_v41(struct replay_eval *ev)
{
	struct replay_pred pred;

	if (replay_task_hot_class(ev, &pred))
		return pred;
	return replay_task_hot_recent(ev);
}

/* migrate_improves_locality(): true when the move favours the dst node */
static struct replay_pred improves_v41(struct replay_eval *ev)
{
	const struct sr_snapshot *s = ev->snap;
	struct replay_pred gate, cmp;

	if (!ev->param[P_NUMA_FAVOUR_HIGHER])
		return replay_pred_make(0, SR_REASON_FAVOUR_HIGHER_OFF, 0);
	gate = replay_numa_gates(ev);
	if (gate.val != 1)
		return gate;

	if (!replay_need(ev, SR_SNAP_BIT_NUMA_GROUP))
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	if (s->numa_group) {
		if (!replay_need(ev, SR_SNAP_BIT_GROUP_ACTIVE))
			return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
		/* already inside the group's interleave set */
		if (replay_node_in(s->group_active, s->src_node))
			return replay_pred_make(0, SR_REASON_GROUP_SRC_ACTIVE, 0);
		/* moving into the interleave set */
		if (replay_node_in(s->group_active, s->dst_node))
			return replay_pred_make(1, SR_REASON_GROUP_ENTERS_ACTIVE, 0);
		if (!replay_need(ev, SR_SNAP_BIT_GROUP_FAULTS))
			return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
		cmp = replay_compare_faults(s->group_faults, s->src_node, s->dst_node);
		return replay_pred_make(cmp.val > 0, cmp.why, 0);
	}

	if (!replay_need(ev, SR_SNAP_BIT_PREF_NODE))
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	if (s->dst_node == s->pref_node)
		return replay_pred_make(1, SR_REASON_DST_PREFERRED, 0);
	if (!replay_need(ev, SR_SNAP_BIT_TASK_FAULTS))
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	cmp = replay_compare_faults(s->task_faults, s->src_node, s->dst_node);
	return replay_pred_make(cmp.val > 0, cmp.why, 0);
}

/* migrate_degrades_locality(): true when the move hurts locality */
static struct replay_pred degrades_v41(struct replay_eval *ev)
{
	const struct sr_snapshot *s = ev->snap;
	struct replay_pred gate, cmp;

	if (!ev->param[P_NUMA])
		return replay_pred_make(0, SR_REASON_NUMA_FEATURE_OFF, 0);
	if (!ev->param[P_NUMA_RESIST_LOWER])
		return replay_pred_make(0, SR_REASON_RESIST_LOWER_OFF, 0);
	gate = replay_numa_gates(ev);
	if (gate.val != 1)
		return gate;

	if (!replay_need(ev, SR_SNAP_BIT_NUMA_GROUP))
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	if (s->numa_group) {
		if (!replay_need(ev, SR_SNAP_BIT_GROUP_ACTIVE))
			return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
		/* moving within or into the interleave set */
		if (replay_node_in(s->group_active, s->dst_node))
			return replay_pred_make(0, SR_REASON_GROUP_DST_ACTIVE, 0);
		/* leaving the interleave set */
		if (replay_node_in(s->group_active, s->src_node))
			return replay_pred_make(1, SR_REASON_GROUP_LEAVES_ACTIVE, 0);
		if (!replay_need(ev, SR_SNAP_BIT_GROUP_FAULTS))
			return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
		cmp = replay_compare_faults(s->group_faults, s->src_node, s->dst_node);
		return replay_pred_make(cmp.val < 0, cmp.why, 0);
	}

	if (!replay_need(ev, SR_SNAP_BIT_PREF_NODE))
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	if (s->src_node == s->pref_node)
		return replay_pred_make(1, SR_REASON_SRC_PREFERRED, 0);
	if (!replay_need(ev, SR_SNAP_BIT_TASK_FAULTS))
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	cmp = replay_compare_faults(s->task_faults, s->src_node, s->dst_node);
	return replay_pred_make(cmp.val < 0, cmp.why, 0);
}

/*
 * can_migrate_task() from step 4 on (docs/kernel-behaviour.md section 2.2):
 *   hot = task_hot() || (!hot && migrate_degrades_locality())
 *   if (migrate_improves_locality() || !hot || nr_balance_failed > cache_nice_tries)
 *           YES (counted as forced when hot)
 *   NO
 * Active balancing reaches here with nr_balance_failed = cache_nice_tries + 1
 * (load_balance() sets it before kicking the stopper), so it always passes.
 */
static void lb_v41_body(struct replay_eval *ev, int exceeded, struct sr_verdict *out)
{
	const struct sr_snapshot *s = ev->snap;
	bool active = s->decision_class == SR_DECISION_CLASS_LB_ACTIVE;
	struct replay_pred hot, deg, imp;
	unsigned int hot_why;

	if (active)
		exceeded = 1;

	hot = replay_task_hot_v41(ev);
	deg = replay_pred_make(0, 0, 0);
	if (hot.val == 0) {
		deg = degrades_v41(ev);
		if (deg.val != 0)
			hot = replay_pred_make(deg.val, SR_REASON_DEGRADES_LOCALITY, deg.why);
	}
	imp = improves_v41(ev);

	/* the first detail after TASK_HOT/TASK_COLD says which branch of task_hot() */
	hot_why = (hot.why == SR_REASON_TASK_HOT || hot.why == SR_REASON_TASK_COLD) ?
		  0 : hot.why;

	if (imp.val == 1) {
		if (hot.val == 1)
			out->flags |= SR_VF_FORCED;
		replay_verdict_set(out, ev, SR_VERDICT_ALLOW, SR_REASON_IMPROVES_LOCALITY,
				   imp.why, 0);
		return;
	}
	if (hot.val == 0) {
		replay_verdict_set(out, ev, SR_VERDICT_ALLOW, SR_REASON_TASK_COLD, hot_why, 0);
		return;
	}
	if (exceeded == 1) {
		if (hot.val == 1)
			out->flags |= SR_VF_FORCED;
		replay_verdict_set(out, ev, SR_VERDICT_ALLOW,
				   active ? SR_REASON_ACTIVE_BALANCE :
					    SR_REASON_BALANCE_FAILED_EXCEEDED,
				   hot.val != 1 ? 0 :
				   hot.why == SR_REASON_DEGRADES_LOCALITY ?
				   SR_REASON_DEGRADES_LOCALITY : SR_REASON_TASK_HOT, 0);
		return;
	}
	if (imp.val == REPLAY_UNKNOWN || hot.val == REPLAY_UNKNOWN ||
	    exceeded == REPLAY_UNKNOWN) {
		replay_verdict_unknown(out, ev);
		return;
	}
	if (hot.why == SR_REASON_DEGRADES_LOCALITY)
		replay_verdict_set(out, ev, SR_VERDICT_RESIST, SR_REASON_DEGRADES_LOCALITY,
				   hot.why2, imp.why);
	else
		replay_verdict_set(out, ev, SR_VERDICT_RESIST, SR_REASON_TASK_HOT,
				   hot_why, imp.why);
}

static int lb_v41_evaluate(const void *priv, const struct sr_snapshot *snap,
			   struct sr_verdict *out)
{
	return replay_lb_evaluate(priv, snap, out, lb_v41_body);
}

const struct sr_policy_ops policy_lb_v41_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "lb-v4.1",
	.provenance	= "Linux v4.1 (v4.1.8, v4.1.52) kernel/sched/fair.c can_migrate_task(); "
			  "migrate_improves_locality() 3a7053b3224f, "
			  "migrate_degrades_locality() 7a0f308337d1",
	.description	= "load balancer before seed 002: task_hot() first, "
			  "migrate_improves_locality() can override it",
	.classes	= REPLAY_LB_CLASSES,
	.params		= lb_v41_params,
	.evaluate	= lb_v41_evaluate,
};
