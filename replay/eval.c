// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * eval.c - helpers the built-in policies share: unknown-input bookkeeping,
 * the NUMA locality gates, verdict building, and the common frame of the
 * load-balancer policies (class check, cache_nice_tries by domain level,
 * and the second run under the opposite nr_balance_failed assumption).
 *
 * Everything here is pure: no globals, no allocation, no output.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "replay-local.h"

bool replay_need(struct replay_eval *ev, enum sr_snap_bit bit)
{
	uint64_t mask = 1ull << bit;

	if (ev->snap->known & mask)
		return true;
	if (!ev->missing_reason)
		ev->missing_reason = sr_reason_missing(bit);
	ev->missing |= mask;
	return false;
}

struct replay_pred replay_pred_make(int val, unsigned int why, unsigned int why2)
{
	struct replay_pred p = { .val = val, .why = why, .why2 = why2 };

	return p;
}

bool replay_node_in(uint64_t mask, int node)
{
	if (node < 0 || node >= SR_MAX_NODES)
		return false;
	return (mask >> node) & 1;
}

struct replay_pred replay_numa_gates(struct replay_eval *ev)
{
	const struct sr_snapshot *s = ev->snap;
	bool faults_known = s->known & SR_SNAP_HAS_FAULTS;
	bool cross_known = s->known & SR_SNAP_CROSS_NODE;

	/* !p->numa_faults || !(env->sd->flags & SD_NUMA): a known "no" wins */
	if (faults_known && !s->has_faults)
		return replay_pred_make(0, SR_REASON_NO_NUMA_FAULTS, 0);
	if (cross_known && !s->cross_node)
		return replay_pred_make(0, SR_REASON_SAME_NODE, 0);
	if (!replay_need(ev, SR_SNAP_BIT_HAS_FAULTS) ||
	    !replay_need(ev, SR_SNAP_BIT_CROSS_NODE))
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	/* src_nid == dst_nid: needs the nodes themselves */
	if (!replay_need(ev, SR_SNAP_BIT_SRC_NODE) || !replay_need(ev, SR_SNAP_BIT_DST_NODE))
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	if (s->src_node == s->dst_node)
		return replay_pred_make(0, SR_REASON_SAME_NODE, 0);
	return replay_pred_make(1, 0, 0);
}

struct replay_pred replay_compare_faults(const uint64_t *faults, int src, int dst)
{
	uint64_t fs = 0, fd = 0;

	if (src >= 0 && src < SR_MAX_NODES)
		fs = faults[src];
	if (dst >= 0 && dst < SR_MAX_NODES)
		fd = faults[dst];
	if (fd > fs)
		return replay_pred_make(1, SR_REASON_DST_MORE_FAULTS, 0);
	if (fd < fs)
		return replay_pred_make(-1, SR_REASON_DST_FEWER_FAULTS, 0);
	return replay_pred_make(0, SR_REASON_EQUAL_FAULTS, 0);
}

void replay_verdict_set(struct sr_verdict *out, const struct replay_eval *ev, int verdict,
			unsigned int r1, unsigned int r2, unsigned int r3)
{
	out->verdict = verdict;
	out->flags |= ev->flags;
	out->nr_reasons = 0;
	sr_verdict_push(out, r1);
	if (r2)
		sr_verdict_push(out, r2);
	if (r3 && r3 != r2)
		sr_verdict_push(out, r3);
}

void replay_verdict_unknown(struct sr_verdict *out, const struct replay_eval *ev)
{
	replay_verdict_set(out, ev, SR_VERDICT_UNKNOWN, ev->missing_reason, 0, 0);
	out->missing = ev->missing;
}

int replay_check_args(const void *priv, const struct sr_snapshot *snap,
		      const struct sr_verdict *out)
{
	if (!priv || !snap || !out)
		return -EINVAL;
	if (snap->size < sizeof(*snap))
		return -EINVAL;
	return 0;
}

/*
 * sd->cache_nice_tries of the domain that spans src and dst (sd_init(),
 * kernel-policies.md section 1.7): 2 at SD_NUMA, 1 at MC and PKG, 0 at SMT.
 * Returns -1 when the level cannot be told.
 */
static int lb_cache_nice_tries(struct replay_eval *ev)
{
	const struct sr_snapshot *s = ev->snap;
	int64_t tries = ev->param[REPLAY_LB_P_CACHE_NICE_TRIES];

	if (tries >= 0)
		return (int)tries;
	if (s->known & SR_SNAP_SD_LEVEL) {
		switch (s->sd_level) {
		case SR_SD_SMT:
			return 0;
		case SR_SD_NUMA:
			return 2;
		default:
			return 1;
		}
	}
	if (!(s->known & SR_SNAP_CROSS_NODE))
		return -1;
	if (s->cross_node)
		return 2;
	/* same node, level unknown: MC unless they are SMT siblings */
	ev->flags |= SR_VF_ASSUMED_NOT_SMT;
	return 1;
}

/* nr_balance_failed > cache_nice_tries, as 0 / 1 / REPLAY_UNKNOWN */
static int lb_exceeded(struct replay_eval *ev)
{
	int64_t failed = ev->param[REPLAY_LB_P_NR_BALANCE_FAILED];
	int tries;

	/* by domain level, 0 <= tries <= 2: the level only matters for 1 and 2 */
	if (ev->param[REPLAY_LB_P_CACHE_NICE_TRIES] < 0 && (failed <= 0 || failed > 2))
		return failed > 2;
	tries = lb_cache_nice_tries(ev);
	if (tries >= 0)
		return failed > tries;
	replay_need(ev, SR_SNAP_BIT_CROSS_NODE);
	return REPLAY_UNKNOWN;
}

int replay_lb_evaluate(const void *priv, const struct sr_snapshot *snap,
		       struct sr_verdict *out, replay_lb_body_fn body)
{
	const struct sr_param_values *vals = priv;
	struct replay_eval ev = { .snap = snap };
	struct replay_eval alt_ev;
	struct sr_verdict alt;
	int exceeded;
	int ret;

	ret = replay_check_args(priv, snap, out);
	if (ret)
		return ret;
	if (vals->nr < REPLAY_LB_P__COMMON)
		return -EINVAL;
	ev.param = vals->v;

	if (!(snap->known & SR_SNAP_CLASS) ||
	    (snap->decision_class != SR_DECISION_CLASS_LB_PULL &&
	     snap->decision_class != SR_DECISION_CLASS_LB_ACTIVE)) {
		replay_verdict_set(out, &ev, SR_VERDICT_NOT_APPLICABLE,
				   SR_REASON_CLASS_NOT_HANDLED, 0, 0);
		return 0;
	}

	exceeded = lb_exceeded(&ev);
	alt_ev = ev;
	body(&ev, exceeded, out);
	if (exceeded == REPLAY_UNKNOWN)
		return 0;

	/* would the answer flip with nr_balance_failed on the other side? */
	memcpy(&alt, out, sizeof(alt));
	alt.nr_reasons = 0;
	alt.flags = 0;
	body(&alt_ev, !exceeded, &alt);
	if (alt.verdict != out->verdict)
		out->flags |= SR_VF_FAILED_DEPENDENT;
	return 0;
}

void replay_lb_tristate_tail(struct replay_eval *ev, int exceeded, bool active,
			     struct replay_pred deg, replay_hot_fn hot_fn,
			     struct sr_verdict *out)
{
	struct replay_pred hot = replay_pred_make(0, 0, 0);
	unsigned int hot_why = 0;
	int r = deg.val;

	/* tsk_cache_hot = migrate_degrades_locality(); if (-1) tsk_cache_hot = task_hot() */
	if (deg.val == -1) {
		hot = hot_fn(ev);
		r = hot.val;
		if (hot.why != SR_REASON_TASK_HOT && hot.why != SR_REASON_TASK_COLD)
			hot_why = hot.why;
	}

	/* tsk_cache_hot <= 0 || nr_balance_failed > cache_nice_tries */
	if (deg.val == 0) {
		replay_verdict_set(out, ev, SR_VERDICT_ALLOW, SR_REASON_IMPROVES_LOCALITY,
				   deg.why, deg.why2);
		return;
	}
	if (r == 0) {
		replay_verdict_set(out, ev, SR_VERDICT_ALLOW, SR_REASON_TASK_COLD, hot_why,
				   deg.why);
		return;
	}
	if (exceeded == 1) {
		if (r == 1)
			out->flags |= SR_VF_FORCED;
		replay_verdict_set(out, ev, SR_VERDICT_ALLOW,
				   active ? SR_REASON_ACTIVE_BALANCE :
					    SR_REASON_BALANCE_FAILED_EXCEEDED,
				   r != 1 ? 0 : deg.val == 1 ? SR_REASON_DEGRADES_LOCALITY :
				   SR_REASON_TASK_HOT, 0);
		return;
	}
	if (r == REPLAY_UNKNOWN || exceeded == REPLAY_UNKNOWN) {
		replay_verdict_unknown(out, ev);
		return;
	}
	if (deg.val == 1)
		replay_verdict_set(out, ev, SR_VERDICT_RESIST, SR_REASON_DEGRADES_LOCALITY,
				   deg.why, deg.why2);
	else
		replay_verdict_set(out, ev, SR_VERDICT_RESIST, SR_REASON_TASK_HOT, hot_why,
				   deg.why);
}

bool replay_numa_common(struct replay_eval *ev, struct sr_verdict *out, int64_t numa_balancing)
{
	const struct sr_snapshot *snap = ev->snap;

	if (!(snap->known & SR_SNAP_CLASS) ||
	    (snap->decision_class != SR_DECISION_CLASS_NUMA_MOVE &&
	     snap->decision_class != SR_DECISION_CLASS_NUMA_SWAP &&
	     snap->decision_class != SR_DECISION_CLASS_NUMA_STICK)) {
		replay_verdict_set(out, ev, SR_VERDICT_NOT_APPLICABLE, SR_REASON_CLASS_NOT_HANDLED,
				   0, 0);
		return true;
	}
	if (!numa_balancing) {
		replay_verdict_set(out, ev, SR_VERDICT_RESIST, SR_REASON_NUMA_FEATURE_OFF, 0, 0);
		return true;
	}
	if (!replay_need(ev, SR_SNAP_BIT_DST_CPU)) {
		replay_verdict_unknown(out, ev);
		return true;
	}
	if (snap->dst_cpu < 0) {
		replay_verdict_set(out, ev, SR_VERDICT_NOT_APPLICABLE, SR_REASON_NO_CANDIDATE, 0, 0);
		return true;
	}
	return false;
}
