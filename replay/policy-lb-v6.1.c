// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-lb-v6.1.c - lb-v6.1: can_migrate_task() of Linux 6.1, the kernel
 * that recorded the bundled NUMA traces (Debian 6.1.0-57-amd64), so the
 * replay can be checked against what that kernel really did.
 *
 * Models: Linux v6.1 kernel/sched/fair.c, i.e. seed 002 as landed (v4.3)
 * plus: the sched_numa_balancing static key instead of feature NUMA
 * (v4.4, 2b49d84b259f), the CPU_IDLE override (v4.13, 739294fb03f5),
 * group_weight()/task_weight() instead of raw faults (v4.19, f35678b6a170),
 * LBF_ACTIVE_LB letting active balancing through before any test and
 * task_hot() never calling SMT siblings hot (both between v5.7 and v5.15).
 * Follows docs/kernel-behaviour.md section 2.8 (degrades and can_migrate_task,
 * v4.13 -> v6.13), section 2.3 (task_hot, v6.x: 6.1 has the same order but still
 * both cfs buddies, next and last, as EEVDF removed "last" in 6.6) and section 4.4
 * (task_weight / group_weight / score_nearby_nodes).
 *
 * Not modelled: the throttled, per-CPU-kthread and affinity checks (a move
 * that happened passed them) and core scheduling (no cookies assumed, so
 * sched_core_cookie_match() is always true).
 */
#include <stdint.h>

#include "replay-local.h"

enum {
	P_NUMA_BALANCING = REPLAY_LB_P__COMMON,
};

static const struct sr_param_desc lb_v61_params[] = {
	REPLAY_LB_PARAMS_COMMON,
	{ .name = "numa_balancing", .type = SR_PARAM_BOOL, .def = 1, .min = 0, .max = 1,
	  .description = "kernel.numa_balancing (the sched_numa_balancing static key); "
		"the bundled traces ran with 1" },
	{ .name = NULL },
};

/* sched_numa_topology_type, from the distance matrix (init_numa_topology_type()) */
enum numa_topology_type {
	NUMA_DIRECT,
	NUMA_GLUELESS_MESH,
	NUMA_BACKPLANE,
};

struct numa_topo {
	enum numa_topology_type	type;
	int			max_dist;
};

static struct numa_topo numa_topology(const struct sr_snapshot *s)
{
	struct numa_topo t = { .type = NUMA_DIRECT, .max_dist = 0 };
	int seen[8];
	int levels = 0;
	int nr = s->nr_nodes;
	int a, b, c, i;

	for (a = 0; a < nr; a++) {
		for (b = 0; b < nr; b++) {
			int d = s->distance[a][b];

			if (d > t.max_dist)
				t.max_dist = d;
			for (i = 0; i < levels && seen[i] != d; i++)
				;
			if (i == levels && levels < (int)(sizeof(seen) / sizeof(seen[0])))
				seen[levels++] = d;
		}
	}
	/* all nodes directly connected: one remote distance */
	if (levels <= 2)
		return t;
	for (a = 0; a < nr; a++) {
		for (b = 0; b < nr; b++) {
			/* two nodes furthest removed from each other */
			if (s->distance[a][b] < t.max_dist)
				continue;
			/* is there an intermediary node between a and b? */
			for (c = 0; c < nr; c++) {
				if (s->distance[a][c] < t.max_dist &&
				    s->distance[b][c] < t.max_dist) {
					t.type = NUMA_GLUELESS_MESH;
					return t;
				}
			}
			t.type = NUMA_BACKPLANE;
			return t;
		}
	}
	return t;
}

/* score_nearby_nodes(): faults of the nodes near @nid */
static uint64_t score_nearby(const struct sr_snapshot *s, const struct numa_topo *t,
			     const uint64_t *faults, int nid, int lim_dist)
{
	uint64_t score = 0;
	int node;

	if (t->type == NUMA_DIRECT)
		return 0;
	for (node = 0; node < s->nr_nodes; node++) {
		int dist = s->distance[nid][node];
		uint64_t f;

		/* the furthest nodes are not interesting; nid was counted already */
		if (dist >= t->max_dist || node == nid)
			continue;
		/* backplane: only nodes closer than the hop limit form the group */
		if (t->type == NUMA_BACKPLANE && dist >= lim_dist)
			continue;
		f = faults[node];
		/* glueless mesh: the further away, the less a fault counts */
		if (t->type == NUMA_GLUELESS_MESH) {
			if (t->max_dist <= REPLAY_LOCAL_DISTANCE)
				continue;
			f *= (uint64_t)(t->max_dist - dist);
			f /= (uint64_t)(t->max_dist - REPLAY_LOCAL_DISTANCE);
		}
		score += f;
	}
	return score;
}

/* task_weight() / group_weight(): per-mille share of faults at and near @nid */
static uint64_t weight(const struct sr_snapshot *s, const struct numa_topo *t,
		       const uint64_t *faults, int nid, int dist)
{
	uint64_t total = 0;
	int n;

	for (n = 0; n < s->nr_nodes; n++)
		total += faults[n];
	if (!total)
		return 0;
	return 1000 * (faults[nid] + score_nearby(s, t, faults, nid, dist)) / total;
}

/* migrate_degrades_locality() of v6.1 (kernel-behaviour.md section 2.8) */
static struct replay_pred degrades_v61(struct replay_eval *ev)
{
	const struct sr_snapshot *s = ev->snap;
	struct replay_pred pred;
	struct numa_topo topo;
	const uint64_t *faults;
	uint64_t sw, dw;
	int dist;

	if (!ev->param[P_NUMA_BALANCING])
		return replay_pred_make(-1, SR_REASON_NUMA_FEATURE_OFF, 0);
	pred = replay_numa_gates(ev);
	if (pred.val == 0)
		return replay_pred_make(-1, pred.why, 0);
	if (pred.val == REPLAY_UNKNOWN)
		return pred;

	/* away from the preferred node, or to it */
	if (replay_tristate_pref_node(ev, &pred))
		return pred;

	/* leaving a core idle is often worse than degrading locality */
	if (!replay_need(ev, SR_SNAP_BIT_IDLE_TYPE))
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	if (s->idle_type == SR_IDLE_CPU_IDLE)
		return replay_pred_make(-1, SR_REASON_IDLE_OVERRIDE, 0);

	if (!replay_need(ev, SR_SNAP_BIT_NR_NODES) || !replay_need(ev, SR_SNAP_BIT_DISTANCE) ||
	    !replay_need(ev, SR_SNAP_BIT_NUMA_GROUP))
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	if (s->nr_nodes < 1 || s->nr_nodes > SR_MAX_NODES ||
	    s->src_node < 0 || s->src_node >= s->nr_nodes ||
	    s->dst_node < 0 || s->dst_node >= s->nr_nodes) {
		/* nodes outside the matrix: the weights cannot be computed */
		ev->missing |= SR_SNAP_DISTANCE;
		if (!ev->missing_reason)
			ev->missing_reason = sr_reason_missing(SR_SNAP_BIT_DISTANCE);
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	}
	faults = replay_faults_of(ev);
	if (!faults)
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	topo = numa_topology(s);
	dist = s->distance[s->src_node][s->dst_node];
	sw = weight(s, &topo, faults, s->src_node, dist);
	dw = weight(s, &topo, faults, s->dst_node, dist);
	if (dw < sw)
		return replay_pred_make(1, SR_REASON_DST_LOWER_WEIGHT, 0);
	return replay_pred_make(0, dw > sw ? SR_REASON_DST_HIGHER_WEIGHT : SR_REASON_EQUAL_WEIGHT,
				0);
}

/*
 * task_hot() of v6.1 (kernel-behaviour.md section 2.3, without core
 * scheduling): v4.1's, with SMT siblings never hot;
 * sched_core_cookie_match(), between the "all hot" and "none hot"
 * migration-cost tests, is taken as always true
 */
static struct replay_pred task_hot_v61(struct replay_eval *ev)
{
	const struct sr_snapshot *s = ev->snap;
	struct replay_pred pred;

	if (replay_task_hot_class(ev, &pred))
		return pred;

	/* SMT siblings share cache (env->sd->flags & SD_SHARE_CPUCAPACITY) */
	if (s->known & SR_SNAP_SD_LEVEL) {
		if (s->sd_level == SR_SD_SMT)
			return replay_pred_make(0, SR_REASON_SMT_SIBLINGS, 0);
	} else if (!(s->known & SR_SNAP_CROSS_NODE)) {
		replay_need(ev, SR_SNAP_BIT_SD_LEVEL);
		return replay_pred_make(REPLAY_UNKNOWN, 0, 0);
	} else if (!s->cross_node) {
		ev->flags |= SR_VF_ASSUMED_NOT_SMT;
	}
	return replay_task_hot_recent(ev);
}

/*
 * can_migrate_task() of v6.1 from the running check on:
 *   task_on_cpu(src_rq, p)        -> NO (in replay_lb_evaluate())
 *   env->flags & LBF_ACTIVE_LB    -> YES (no hotness or locality test, not "forced")
 *   then the tri-state tail
 */
static void lb_v61_body(struct replay_eval *ev, int exceeded, struct sr_verdict *out)
{
	const struct sr_snapshot *s = ev->snap;

	if (s->decision_class == SR_DECISION_CLASS_LB_ACTIVE) {
		replay_verdict_set(out, ev, SR_VERDICT_ALLOW, SR_REASON_ACTIVE_BALANCE, 0, 0);
		return;
	}
	replay_lb_tristate_tail(ev, exceeded, false, degrades_v61(ev), task_hot_v61, out);
}

static int lb_v61_evaluate(const void *priv, const struct sr_snapshot *snap,
			   struct sr_verdict *out)
{
	return replay_lb_evaluate(priv, snap, out, lb_v61_body);
}

const struct sr_policy_ops policy_lb_v61_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "lb-v6.1",
	.provenance	= "Linux v6.1 (Debian 6.1.0-57-amd64, which recorded the bundled "
			  "traces) kernel/sched/fair.c can_migrate_task(); idle override "
			  "739294fb03f5 (v4.13), weights f35678b6a170 (v4.19)",
	.description	= "load balancer of 6.1: tri-state locality with the CPU_IDLE "
			  "override and distance-aware weights, LBF_ACTIVE_LB, SMT never hot",
	.classes	= REPLAY_LB_CLASSES,
	.params		= lb_v61_params,
	.evaluate	= lb_v61_evaluate,
};
