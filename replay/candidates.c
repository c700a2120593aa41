// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * candidates.c - a load-balance decision as a choice: walk the candidates
 * of the source runqueue in detach_tasks() order and pull the first ones
 * the policy allows, as many as the kernel pulled (docs/replay.md,
 * "Choices").  A policy may do its own walk (sr_policy_ops.choose); this
 * is the one the engine does for the others, with their evaluate().
 */
#include <string.h>

#include "replay.h"

/* @v's reasons after @first (when not SR_REASON_NONE), at most SR_MAX_REASONS */
static void take_reasons(struct sr_verdict *out, const struct sr_verdict *v, unsigned int first)
{
	uint32_t i;

	out->nr_reasons = 0;
	if (first != SR_REASON_NONE)
		sr_verdict_push(out, first);
	for (i = 0; i < v->nr_reasons && i < SR_MAX_REASONS; i++)
		sr_verdict_push(out, v->reasons[i]);
}

int replay_candidates_walk(evaluate_fn evaluate, const void *priv,
			   const struct sr_decision_point *dp, struct sr_verdict *out)
{
	int kernel_pos = -1, allowed = 0, ret;
	struct sr_verdict v;
	uint32_t i;

	for (i = 0; i < dp->nr_cand; i++)
		if (dp->snap && dp->cand[i].tid == dp->snap->tid)
			kernel_pos = (int)i;
	for (i = 0; i < dp->nr_cand; i++) {
		replay_verdict_init(&v);
		ret = evaluate(priv, &dp->cand[i], &v);
		if (ret < 0)
			return ret;
		if (v.verdict == SR_VERDICT_UNKNOWN) {
			/* whether it pulls this one decides, and cannot be said */
			*out = v;
			out->target_tid = SR_CHOICE_UNSAID;
			return 0;
		}
		if (v.verdict != SR_VERDICT_ALLOW || ++allowed < (int)dp->nr_pull)
			continue;
		out->verdict = SR_VERDICT_ALLOW;
		out->flags = v.flags;
		out->target_tid = dp->cand[i].tid;
		out->target_cpu = dp->cand[i].dst_cpu;
		out->target_node = (dp->cand[i].known & SR_SNAP_DST_NODE) ? dp->cand[i].dst_node : -1;
		take_reasons(out, &v, (int)i == kernel_pos ? SR_REASON_NONE :
				 (int)i < kernel_pos ? SR_REASON_PULLS_EARLIER : SR_REASON_PULLS_LATER);
		return 0;
	}
	out->verdict = SR_VERDICT_RESIST;
	out->target_tid = SR_CHOICE_NONE;
	out->nr_reasons = 0;
	sr_verdict_push(out, SR_REASON_ALL_REFUSED);
	return 0;
}
