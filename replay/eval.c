// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * eval.c - helpers the built-in policies share: unknown-input bookkeeping,
 * the NUMA locality gates, verdict building, the start of every evaluate()
 * (argument checks, parameters, class), and the common frame of each
 * family: load balancer (cache_nice_tries by domain level, the running
 * check, and the second run under the opposite nr_balance_failed
 * assumption), NUMA balancer (numa_balancing, the destination CPU) and
 * exec placement (unknown inputs, the node count, the verdict from the
 * node picked).
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

bool replay_place_one_cpu(const struct replay_eval *ev, struct sr_verdict *out)
{
	const struct sr_snapshot *s = ev->snap;
	int cpu = s->allowed_cpu;
	bool same;

	if (!(s->known & SR_SNAP_ALLOWED_CPU) || cpu < 0)
		return false;
	same = cpu == s->dst_cpu;
	out->target_cpu = cpu;
	out->target_node = SR_SNAP_HAS(s, cpu_node) && cpu < s->nr_cpus && cpu < SR_PLACE_MAX_CPUS ?
			   s->cpu_node[cpu] : -1;
	replay_verdict_set(out, ev, same ? SR_VERDICT_ALLOW : SR_VERDICT_RESIST,
			   SR_REASON_PLACE_ONE_CPU, 0,
			   same ? SR_REASON_PLACE_SAME_CPU : SR_REASON_PLACE_OTHER_CPU);
	return true;
}

static int replay_check_args(const void *priv, const struct sr_snapshot *snap,
			     const struct sr_verdict *out)
{
	if (!priv || !snap || !out)
		return -EINVAL;
	if (snap->size < sizeof(*snap))
		return -EINVAL;
	return 0;
}

int replay_eval_begin(struct replay_eval *ev, const void *priv, const struct sr_snapshot *snap,
		      struct sr_verdict *out, uint32_t nr_params, unsigned int classes)
{
	const struct sr_param_values *vals = priv;
	uint32_t class;
	int ret;

	ret = replay_check_args(priv, snap, out);
	if (ret)
		return ret;
	if (vals->nr < nr_params)
		return -EINVAL;
	memset(ev, 0, sizeof(*ev));
	ev->snap = snap;
	ev->param = vals->v;

	class = (uint32_t)snap->decision_class;
	if (!(snap->known & SR_SNAP_CLASS) || class >= 32 || !(classes & SR_CLASS_BIT(class))) {
		replay_verdict_set(out, ev, SR_VERDICT_NOT_APPLICABLE,
				   SR_REASON_CLASS_NOT_HANDLED, 0, 0);
		return 1;
	}
	return 0;
}

/*
 * sd->cache_nice_tries of the domain that spans src and dst (sd_init(),
 * docs/kernel-behaviour.md section 2.5): 2 at SD_NUMA, 1 at MC and PKG, 0 at SMT.
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
	const struct sr_snapshot *s = ev->snap;
	int tries;

	/* the kernel's own values (a decision probe) win over the parameters */
	if (SR_SNAP_HAS(s, cache_nice_tries) && (s->known & SR_SNAP_BALANCE_FAILED))
		return s->nr_balance_failed > s->cache_nice_tries;

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
	struct replay_eval ev;
	struct replay_eval alt_ev;
	struct sr_verdict alt;
	int exceeded;
	int ret;

	ret = replay_eval_begin(&ev, priv, snap, out, REPLAY_LB_P__COMMON, REPLAY_LB_CLASSES);
	if (ret)
		return ret < 0 ? ret : 0;

	exceeded = lb_exceeded(&ev);
	/*
	 * kthread_is_per_cpu(p), then !cpumask_test_cpu(dst_cpu, p->cpus_ptr):
	 * refused before anything else is looked at.  Unknown is taken as
	 * allowed: a move the trace shows passed the test.
	 */
	if (SR_SNAP_HAS(snap, dst_allowed) && (snap->known & SR_SNAP_DST_ALLOWED) &&
	    !snap->dst_allowed) {
		replay_verdict_set(out, &ev, SR_VERDICT_RESIST, SR_REASON_DST_NOT_ALLOWED, 0, 0);
		return 0;
	}
	/*
	 * task_running(src_rq, p): a running task never moves, whatever
	 * nr_balance_failed says, so the second run below could not differ
	 */
	if (!replay_need(&ev, SR_SNAP_BIT_TASK_RUNNING)) {
		replay_verdict_unknown(out, &ev);
		return 0;
	}
	if (snap->task_running) {
		replay_verdict_set(out, &ev, SR_VERDICT_RESIST, SR_REASON_TASK_RUNNING, 0, 0);
		return 0;
	}
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

/*
 * The checks every NUMA-balancer policy makes after the class: balancing
 * off: resist; destination CPU unknown: unknown; no candidate CPU (a v5.7+
 * stick): not applicable.  Returns true when @out is decided.
 */
static bool replay_numa_common(struct replay_eval *ev, struct sr_verdict *out)
{
	const struct sr_snapshot *snap = ev->snap;

	if (!ev->param[REPLAY_NUMA_P_BALANCING]) {
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

int replay_numa_evaluate(const void *priv, const struct sr_snapshot *snap,
			 struct sr_verdict *out, replay_body_fn body)
{
	struct replay_eval ev;
	int ret;

	ret = replay_eval_begin(&ev, priv, snap, out, REPLAY_NUMA_P__COMMON, REPLAY_NUMA_CLASSES);
	if (ret)
		return ret < 0 ? ret : 0;
	if (!replay_numa_common(&ev, out))
		body(&ev, out);
	return 0;
}

int replay_exec_evaluate(const void *priv, const struct sr_snapshot *snap,
			 struct sr_verdict *out, const struct replay_exec_ops *ops)
{
	struct replay_eval ev;
	int nr, node;
	int ret;

	ret = replay_eval_begin(&ev, priv, snap, out, ops->nr_params,
				SR_CLASS_BIT(SR_DECISION_CLASS_EXEC));
	if (ret)
		return ret < 0 ? ret : 0;
	if (!ops->need(&ev)) {
		replay_verdict_unknown(out, &ev);
		return 0;
	}

	nr = snap->nr_nodes;
	if (nr > SR_MAX_NODES)
		nr = SR_MAX_NODES;
	node = nr < 1 ? -1 : ops->pick(&ev, nr);
	if (node < 0) {
		replay_verdict_set(out, &ev, SR_VERDICT_NOT_APPLICABLE, SR_REASON_EXEC_NO_NODE,
				   0, 0);
		return 0;
	}
	out->target_node = node;
	if (node == snap->dst_node)
		replay_verdict_set(out, &ev, SR_VERDICT_ALLOW, ops->why_here, 0, 0);
	else
		replay_verdict_set(out, &ev, SR_VERDICT_RESIST, ops->why_elsewhere, 0, 0);
	return 0;
}

bool replay_tristate_gates(struct replay_eval *ev, bool feature_numa, struct replay_pred *pred)
{
	struct replay_eval saved = *ev;
	struct replay_pred gate;

	/* !p->numa_faults || !(env->sd->flags & SD_NUMA), then !sched_feat(NUMA) */
	gate = replay_numa_gates(ev);
	if (gate.val == 0) {
		*pred = replay_pred_make(-1, gate.why, 0);
		return true;
	}
	if (!feature_numa) {
		/* -1 whatever the gates say: their unknowns do not matter */
		ev->missing = saved.missing;
		ev->missing_reason = saved.missing_reason;
		*pred = replay_pred_make(-1, SR_REASON_NUMA_FEATURE_OFF, 0);
		return true;
	}
	if (gate.val == REPLAY_UNKNOWN) {
		*pred = gate;
		return true;
	}
	return false;
}

bool replay_tristate_pref_node(struct replay_eval *ev, struct replay_pred *pred)
{
	const struct sr_snapshot *s = ev->snap;

	/* migrating away from the preferred node is always bad ... */
	if (!replay_need(ev, SR_SNAP_BIT_PREF_NODE)) {
		*pred = replay_pred_make(REPLAY_UNKNOWN, 0, 0);
		return true;
	}
	if (s->src_node == s->pref_node) {
		/* ... unless every task on the source runqueue is where it wants to be */
		if (!replay_need(ev, SR_SNAP_BIT_SRC_NR_RUNNING) ||
		    !replay_need(ev, SR_SNAP_BIT_SRC_NR_PREFERRED))
			*pred = replay_pred_make(REPLAY_UNKNOWN, 0, 0);
		else if (s->src_nr_running > s->src_nr_preferred)
			*pred = replay_pred_make(1, SR_REASON_SRC_PREFERRED,
						 SR_REASON_SRC_HAS_MISPLACED);
		else
			*pred = replay_pred_make(-1, SR_REASON_SRC_PREFERRED,
						 SR_REASON_SRC_ALL_PREFERRED);
		return true;
	}
	/* encourage migration to the preferred node */
	if (s->dst_node == s->pref_node) {
		*pred = replay_pred_make(0, SR_REASON_DST_PREFERRED, 0);
		return true;
	}
	return false;
}

const uint64_t *replay_faults_of(struct replay_eval *ev)
{
	const struct sr_snapshot *s = ev->snap;

	if (s->numa_group)
		return replay_need(ev, SR_SNAP_BIT_GROUP_FAULTS) ? s->group_faults : NULL;
	return replay_need(ev, SR_SNAP_BIT_TASK_FAULTS) ? s->task_faults : NULL;
}

bool replay_task_hot_class(struct replay_eval *ev, struct replay_pred *pred)
{
	const struct sr_snapshot *s = ev->snap;

	/* p->sched_class != &fair_sched_class */
	if (!replay_need(ev, SR_SNAP_BIT_TASK_CLASS)) {
		*pred = replay_pred_make(REPLAY_UNKNOWN, 0, 0);
		return true;
	}
	if (s->task_class != SR_TASK_FAIR && s->task_class != SR_TASK_FAIR_IDLE) {
		*pred = replay_pred_make(0, SR_REASON_NOT_FAIR_TASK, 0);
		return true;
	}
	/* p->policy == SCHED_IDLE */
	if (s->task_class == SR_TASK_FAIR_IDLE) {
		*pred = replay_pred_make(0, SR_REASON_IDLE_POLICY, 0);
		return true;
	}
	return false;
}

struct replay_pred replay_task_hot_recent(struct replay_eval *ev)
{
	const struct sr_snapshot *s = ev->snap;
	int64_t cost = ev->param[REPLAY_LB_P_MIGRATION_COST];

	/* CACHE_HOT_BUDDY && env->dst_rq->nr_running && p is next/last buddy */
	if (ev->param[REPLAY_LB_P_CACHE_HOT_BUDDY]) {
		if (!(s->known & SR_SNAP_BUDDY)) {
			/* never traced: taken as "not a buddy", flagged when it could matter */
			if (!(s->known & SR_SNAP_DST_NR_RUNNING) || s->dst_nr_running > 0)
				ev->flags |= SR_VF_ASSUMED_NOT_BUDDY;
		} else if (s->buddy) {
			if (!replay_need(ev, SR_SNAP_BIT_DST_NR_RUNNING))
				return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
			if (s->dst_nr_running > 0)
				return replay_pred_make(1, SR_REASON_BUDDY_HOT, 0);
		}
	}

	if (cost == -1)
		return replay_pred_make(1, SR_REASON_MIGRATION_COST_ALL_HOT, 0);
	if (cost == 0)
		return replay_pred_make(0, SR_REASON_MIGRATION_COST_NONE_HOT, 0);

	/*
	 * rq_clock_task(src_rq) - p->se.exec_start < sysctl_sched_migration_cost,
	 * where exec_start is 0 for a task moved or forked since it last ran:
	 * __sched_fork() zeroes it, and a migration clears it (in
	 * migrate_task_rq_fair() from before v4.1 to v6.2, in enqueue_entity()
	 * under ENQUEUE_MIGRATED from v6.3 and 6.1.y stable), so every kernel
	 * the built-in policies model calls such a task cold.
	 */
	if (SR_SNAP_HAS(s, moved_since_ran) && (s->known & SR_SNAP_MOVED_SINCE_RAN) &&
	    s->moved_since_ran)
		return replay_pred_make(0, SR_REASON_MOVED_COLD, 0);
	if (!replay_need(ev, SR_SNAP_BIT_SINCE_RAN))
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	if (s->since_ran_ns < (uint64_t)cost)
		return replay_pred_make(1, SR_REASON_TASK_HOT, 0);
	return replay_pred_make(0, SR_REASON_TASK_COLD, 0);
}
