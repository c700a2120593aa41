// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-exec-v6.1.c - exec-v6.1: exec placement of Linux 6.1, the kernel
 * that recorded the bundled NUMA traces (Debian 6.1.0-57-amd64), so that
 * exec fidelity is measured against the kernel's own rule.
 *
 * Models: Linux v6.1 kernel/sched/core.c sched_exec() ->
 * select_task_rq_fair(p, task_cpu(p), WF_EXEC) (kernel/sched/fair.c):
 * the highest domain of the task's CPU with SD_BALANCE_EXEC, then
 * find_idlest_cpu() -> find_idlest_group() / find_idlest_group_cpu().
 * Group rules of "Rework find_idlest_group()" 57abff067a08 (v5.5), the NUMA
 * spare-capacity rule of cb29a5c19d2d / f5b2eeb49991 (v6.0, imb_numa_nr),
 * domain flags of sd_init(): a NUMA level farther than node_reclaim_distance
 * (RECLAIM_DISTANCE 30) has no SD_BALANCE_EXEC.  docs/kernel-behaviour.md
 * sections 5.3 and 6.
 *
 *   exec domain = nodes at most the farthest NUMA distance <= 30 from src
 *   (the levels below always balance exec, so walking up stops there)
 *   for each level from that one down (groups: one per node):
 *     per node: sum_nr_running (the task itself not counted), idle_cpus,
 *       type has_spare (sum < CPUs) < fully_busy (=) < overloaded (>)
 *     idlest = the other node of lowest type; has_spare: most idle CPUs;
 *       busy: lowest avg_load (sum_nr_running * 1024 / CPUs)
 *     stay (go down a level) when local's type is lower; go when higher;
 *     busy: stay unless idlest + 1024 * (117 - 100) / 100 < local;
 *     has_spare at SD_NUMA: stay if src is the preferred node, go if the
 *       idlest is; stay if |idle difference| <= 2 and local + 1 <=
 *       imb_numa_nr (llcs_per_node > 1: that many, else node CPUs / 8, at
 *       least 1; times the level's span over the first NUMA level's;
 *       at most the local group's CPUs); finally stay if local idle_cpus
 *       >= idlest's
 *   the node went to, or src's node when every level stays
 *
 * Verdict: allow when the task went to that node, resist (target_node =
 * the node) when elsewhere; the CPU inside the node is not judged;
 * exec-pelt-estimate second when a group type from the util/runnable
 * estimates (as many tasks as CPUs or more) or a busy load comparison was
 * on the way.
 *
 * Approximations (docs/policies.md): loads are runnable counts of nice-0
 * tasks (PELT load and utilisation are not traced), so fully_busy vs
 * overloaded and has_spare at exactly full use follow nr_running; the LLCs
 * per node are a parameter (1, as on the qemu machines of the bundled
 * traces, where each node is one socket); every group is one node (exact
 * for the first NUMA level, which is the exec domain on 10/20/40 machines); ties
 * between equally idle nodes (group_util decides) go to the lowest node.
 */
#include <stdint.h>
#include <stdlib.h>

#include "replay-local.h"

enum {
	P_RECLAIM_DISTANCE = 0,
	P_IMBALANCE_PCT,
	P_NUMA_BALANCING,
	P_LLCS_PER_NODE,
	P__COUNT
};

const struct sr_param_desc replay_idlest_params[] = {
	{ .name = "node_reclaim_distance", .type = SR_PARAM_INT, .def = 30, .min = 10, .max = 255,
	  .description = "NUMA levels farther than this lose SD_BALANCE_EXEC (RECLAIM_DISTANCE; "
		"AMD Zen sets 32)" },
	{ .name = "imbalance_pct", .type = SR_PARAM_INT, .def = 117, .min = 100, .max = 1000,
	  .description = "sd->imbalance_pct of the NUMA levels" },
	{ .name = "numa_balancing", .type = SR_PARAM_BOOL, .def = 1, .min = 0, .max = 1,
	  .description = "kernel.numa_balancing: the preferred-node tests of the spare-capacity case" },
	{ .name = "llcs_per_node", .type = SR_PARAM_INT, .def = 1, .min = 1, .max = 4096,
	  .description = "last-level caches per node: sets sd->imb_numa_nr (1: 1/8 of the "
		"node's CPUs, at least 1; more: that many)" },
	{ .name = NULL },
};

enum group_type {
	GROUP_HAS_SPARE = 0,
	GROUP_FULLY_BUSY,
	GROUP_OVERLOADED,
};

struct sg_stats {
	int	type;
	int	sum_nr_running;
	int	idle_cpus;
	int	cpus;
	int64_t	avg_load;
	int64_t	util;		/* group_util, -1 when not known */
	bool	est;		/* the type came from the util/runnable estimates */
};

/*
 * update_sg_wakeup_stats() + group_classify() for node @n: with the PELT
 * estimates (NODE_PELT) as the kernel, a node with more tasks than CPUs
 * is overloaded only when busy (util or runnable above capacity by
 * imbalance_pct), and still has spare capacity when they are light;
 * without them by the task counts alone
 */
static struct sg_stats node_stats(const struct replay_eval *ev, int n, bool pelt)
{
	const struct sr_snapshot *s = ev->snap;
	int64_t pct = ev->param[P_IMBALANCE_PCT];
	struct sg_stats g = { 0 };
	int64_t cap, util, runnable;

	g.cpus = s->node_nr_cpus[n];
	/* a forked child is on no runqueue yet: nothing of it to take away */
	g.sum_nr_running = s->node_nr_running[n] -
			   (n == s->src_node && !(ev->mode & REPLAY_MODE_FORK) ? 1 : 0);
	if (g.sum_nr_running < 0)
		g.sum_nr_running = 0;
	g.idle_cpus = s->node_nr_idle[n];
	cap = 1024 * (int64_t)g.cpus;
	if (pelt) {
		util = s->node_util[n];
		runnable = s->node_runnable[n];
		g.util = util;
		if (g.sum_nr_running > g.cpus &&
		    (cap * 100 < util * pct || cap * pct < runnable * 100))
			g.type = GROUP_OVERLOADED;
		else if (g.sum_nr_running < g.cpus ||
			 (!(cap * pct < runnable * 100) && cap * 100 > util * pct))
			g.type = GROUP_HAS_SPARE;
		else
			g.type = GROUP_FULLY_BUSY;
		/* with fewer tasks than CPUs the count alone makes it has_spare */
		g.est = g.sum_nr_running >= g.cpus;
		/*
		 * nice-0 tasks: load_avg is runnable_avg; cpu_load_without()
		 * takes the task's own load away, which a new task starts with
		 * at its full weight (init_entity_runnable_average())
		 */
		if (n == s->src_node && !(ev->mode & REPLAY_MODE_FORK))
			runnable = runnable > 1024 ? runnable - 1024 : 0;
		g.avg_load = g.cpus > 0 ? runnable * 1024 / cap : INT64_MAX;
		return g;
	}
	g.util = -1;
	if (g.sum_nr_running < g.cpus)
		g.type = GROUP_HAS_SPARE;
	else if (g.sum_nr_running == g.cpus)
		g.type = GROUP_FULLY_BUSY;
	else
		g.type = GROUP_OVERLOADED;
	g.avg_load = g.cpus > 0 ? (int64_t)g.sum_nr_running * 1024 / g.cpus : INT64_MAX;
	return g;
}

/* update_pick_idlest(): is @g idler than the idlest so far? */
static bool pick_idlest(const struct sg_stats *idlest, const struct sg_stats *g)
{
	if (g->type != idlest->type)
		return g->type < idlest->type;
	if (g->type == GROUP_HAS_SPARE) {
		if (g->idle_cpus != idlest->idle_cpus)
			return g->idle_cpus > idlest->idle_cpus;
		/* a tie: the lower group_util (the lowest node when not known) */
		return g->util >= 0 && idlest->util >= 0 && g->util < idlest->util;
	}
	return g->avg_load < idlest->avg_load;
}

/* the nodes within @dist of @src, as a mask (nodes past 64: all bits) */
static uint64_t nodes_within(const struct sr_snapshot *s, int src, int64_t dist)
{
	uint64_t mask = 0;
	int n;

	for (n = 0; n < s->nr_nodes; n++) {
		if (n >= 64)
			return ~0ull;
		if (s->distance[src][n] <= dist)
			mask |= 1ull << n;
	}
	return mask;
}

/* the CPUs of the nodes within @dist of @src */
static int span_cpus(const struct sr_snapshot *s, int src, int dist)
{
	int n, cpus = 0;

	for (n = 0; n < s->nr_nodes; n++)
		if (s->distance[src][n] <= dist)
			cpus += s->node_nr_cpus[n];
	return cpus;
}

/*
 * The imbalance find_idlest_group() allows at NUMA level @lvl: 6.1's
 * sd->imb_numa_nr from build_sched_domains(), set first on the domain just
 * above the LLC (with @llcs LLCs per node that is the one spanning the
 * node: the NUMA levels are all above it) to the number of LLCs it spans,
 * or to 1/8 of its CPUs (at least 1) when it spans one; every level above
 * multiplies that by its span over the first NUMA level's.  Then, because
 * p->nr_cpus_allowed is never NR_CPUS (the configured maximum, 8192 on
 * Debian), the task's allowed CPUs in the local group cap it: the local
 * group is the level's child domain (the node at the first NUMA level).
 */
static int imb_numa_nr(const struct sr_snapshot *s, const int *levels, int lvl, int64_t llcs)
{
	int src = s->src_node;
	int node_cpus = s->node_nr_cpus[src] > 0 ? s->node_nr_cpus[src] : 1;
	int first = span_cpus(s, src, levels[0]);
	int local = lvl > 0 ? span_cpus(s, src, levels[lvl - 1]) : node_cpus;
	int imb = llcs > 1 ? (int)llcs : node_cpus >> 3;
	int factor = first > 0 ? span_cpus(s, src, levels[lvl]) / first : 1;

	if (imb < 1)
		imb = 1;
	imb *= factor > 1 ? factor : 1;
	return imb < local ? imb : local;
}

/* note @reason as the branch that decided (the last level's) and return @ret */
static int why(struct replay_eval *ev, unsigned int reason, int ret)
{
	ev->node_why = reason;
	return ret;
}

/*
 * find_idlest_group() at the level spanning @dist: the node to go to, or
 * -1 to stay (go down a level); -2 when an input it needs is unknown.
 * *@est is set when the answer rests on an estimate of what PELT holds (a
 * group type from the util/runnable estimates, or an avg_load comparison)
 */
static int idlest_group(struct replay_eval *ev, int dist, int imb_nr, int span, bool pelt,
			bool *est)
{
	const struct sr_snapshot *s = ev->snap;
	struct sg_stats local = node_stats(ev, s->src_node, pelt);
	struct sg_stats idlest = { .type = GROUP_OVERLOADED + 1, .avg_load = INT64_MAX };
	int64_t imbalance;
	int best = -1;
	int n;

	for (n = 0; n < s->nr_nodes; n++) {
		struct sg_stats g;

		if (n == s->src_node || s->distance[s->src_node][n] > dist || s->node_nr_cpus[n] <= 0)
			continue;
		g = node_stats(ev, n, pelt);
		*est |= g.est;
		if (pick_idlest(&idlest, &g)) {
			idlest = g;
			best = n;
		}
	}
	if (best < 0)
		return -1;
	*est |= local.est;
	if (local.type < idlest.type)
		return why(ev, SR_REASON_NODE_GROUP_TYPE_STAY, -1);
	if (local.type > idlest.type)
		return why(ev, SR_REASON_NODE_GROUP_TYPE_GO, best);
	if (local.type != GROUP_HAS_SPARE) {
		*est = true;
		imbalance = 1024 * (ev->param[P_IMBALANCE_PCT] - 100) / 100;
		/* SD_NUMA: the remote node gets the imbalance added */
		if (idlest.avg_load + imbalance >= local.avg_load)
			return why(ev, SR_REASON_NODE_AVG_LOAD, -1);
		if (100 * local.avg_load <= ev->param[P_IMBALANCE_PCT] * idlest.avg_load)
			return why(ev, SR_REASON_NODE_AVG_LOAD, -1);
		return why(ev, SR_REASON_NODE_AVG_LOAD, best);
	}
	if (ev->param[P_NUMA_BALANCING]) {
		if (!replay_need(ev, SR_SNAP_BIT_PREF_NODE))
			return -2;
		if (s->src_node == s->pref_node)
			return why(ev, SR_REASON_NODE_PREFERRED, -1);
		if (best == s->pref_node)
			return why(ev, SR_REASON_NODE_PREFERRED, best);
	}
	if (ev->mode & REPLAY_MODE_SPILL_IDLE) {
		/* 5.5 - 5.10: stay while the local node has an idle CPU */
		if (local.idle_cpus)
			return why(ev, SR_REASON_NODE_SPILL_IDLE, -1);
	} else if (ev->mode & REPLAY_MODE_SPILL_QUARTER) {
		/* 5.11 allow_numa_imbalance(): stay below a quarter of the domain */
		if (local.sum_nr_running < span / 4)
			return why(ev, SR_REASON_NODE_SPILL_QUARTER, -1);
	} else if (abs(local.idle_cpus - idlest.idle_cpus) <= 2 &&
		   local.sum_nr_running + 1 <= imb_nr) {
		/* 6.0 adjust_numa_imbalance(): a small imbalance stays while lightly loaded */
		return why(ev, SR_REASON_NODE_SPILL_IMB_NUMA, -1);
	}
	if (local.idle_cpus >= idlest.idle_cpus)
		return why(ev, SR_REASON_NODE_IDLE_STAY, -1);
	return why(ev, SR_REASON_NODE_MORE_IDLE, best);
}

int replay_idlest_node(struct replay_eval *evp, bool *estp)
{
	struct replay_eval ev = *evp;
	const struct sr_snapshot *snap = ev.snap;
	int levels[SR_MAX_NODES];
	uint64_t span;
	bool pelt, est = false;
	int nr_levels = 0, top = -1;
	int src, n, i, lvl, node;

	if (!replay_need(&ev, SR_SNAP_BIT_NR_NODES) || !replay_need(&ev, SR_SNAP_BIT_DISTANCE) ||
	    !replay_need(&ev, SR_SNAP_BIT_SRC_NODE) || !replay_need(&ev, SR_SNAP_BIT_DST_NODE) ||
	    !replay_need(&ev, SR_SNAP_BIT_NODE_NR_CPUS)) {
		*evp = ev;
		return REPLAY_NODE_UNKNOWN;
	}
	src = snap->src_node;
	if (snap->nr_nodes < 1 || snap->nr_nodes > SR_MAX_NODES || src < 0 ||
	    src >= snap->nr_nodes || snap->node_nr_cpus[src] <= 0)
		return REPLAY_NODE_NONE;
	/*
	 * the counts of the nodes exec balancing looks at: the whole machine's,
	 * or (node-known) those of every node within node_reclaim_distance
	 */
	span = nodes_within(snap, src, ev.param[P_RECLAIM_DISTANCE]);
	if (!SR_SNAP_HAS(snap, node_pelt_known) ||
	    !((snap->known & SR_SNAP_NODE_KNOWN) && (snap->node_known & span) == span)) {
		if (!replay_need(&ev, SR_SNAP_BIT_NODE_NR_RUNNING) ||
		    !replay_need(&ev, SR_SNAP_BIT_NODE_NR_IDLE)) {
			*evp = ev;
			return REPLAY_NODE_UNKNOWN;
		}
	}
	pelt = SR_SNAP_HAS(snap, node_pelt_known) &&
		  ((snap->known & SR_SNAP_NODE_PELT) ||
		   ((snap->known & SR_SNAP_NODE_KNOWN) && (snap->node_pelt_known & span) == span));

	/* the NUMA levels of src, nearest first (sched_domains_numa_distance) */
	for (n = 0; n < snap->nr_nodes; n++) {
		int d = snap->distance[src][n];

		if (n == src || d <= REPLAY_LOCAL_DISTANCE)
			continue;
		for (i = 0; i < nr_levels && levels[i] != d; i++)
			;
		if (i < nr_levels)
			continue;
		for (i = nr_levels++; i > 0 && levels[i - 1] > d; i--)
			levels[i] = levels[i - 1];
		levels[i] = d;
	}
	/* select_task_rq_fair(): the highest domain with SD_BALANCE_EXEC */
	for (lvl = 0; lvl < nr_levels && levels[lvl] <= ev.param[P_RECLAIM_DISTANCE]; lvl++)
		top = lvl;

	/* find_idlest_cpu(): from that level down, until a group is picked */
	node = src;
	for (lvl = top; lvl >= 0; lvl--) {
		int g = idlest_group(&ev, levels[lvl],
				     imb_numa_nr(snap, levels, lvl, ev.param[P_LLCS_PER_NODE]),
				     span_cpus(snap, src, levels[lvl]), pelt, &est);

		if (g == -2) {
			*evp = ev;
			return REPLAY_NODE_UNKNOWN;
		}
		if (g >= 0) {
			node = g;
			break;
		}
	}
	*evp = ev;
	*estp = est;
	return node;
}

static int exec_v61_evaluate(const void *priv, const struct sr_snapshot *snap,
			     struct sr_verdict *out)
{
	struct replay_eval ev;
	bool est = false;
	int node, src, ret;

	ret = replay_eval_begin(&ev, priv, snap, out, P__COUNT, REPLAY_EXEC_CLASSES);
	if (ret)
		return ret < 0 ? ret : 0;
	/*
	 * sched_exec() asks the class even for a task bound to one CPU, but
	 * find_idlest_cpu() and find_idlest_group() skip every CPU and group
	 * outside p->cpus_ptr, so the answer is that CPU
	 */
	if (replay_place_one_cpu(&ev, out))
		return 0;
	node = replay_idlest_node(&ev, &est);
	if (node == REPLAY_NODE_UNKNOWN) {
		replay_verdict_unknown(out, &ev);
		return 0;
	}
	if (node == REPLAY_NODE_NONE) {
		replay_verdict_set(out, &ev, SR_VERDICT_NOT_APPLICABLE, SR_REASON_EXEC_NO_NODE, 0, 0);
		return 0;
	}
	src = snap->src_node;
	out->target_node = node;
	/* the CPU inside it, where the snapshot says enough (not judged) */
	out->target_cpu = replay_place_cpu(&ev, node, snap->src_cpu, NULL);
	if (out->target_cpu < 0)
		out->target_cpu = -1;
	if (node == snap->dst_node)
		replay_verdict_set(out, &ev, SR_VERDICT_ALLOW, SR_REASON_EXEC_IDLEST,
				   est ? SR_REASON_EXEC_PELT_ESTIMATE : 0, 0);
	else if (snap->distance[src][snap->dst_node] > ev.param[P_RECLAIM_DISTANCE])
		/* no estimate brings dst into an exec domain */
		replay_verdict_set(out, &ev, SR_VERDICT_RESIST, SR_REASON_EXEC_OUTSIDE_DOMAIN,
				   SR_REASON_EXEC_IDLER_ELSEWHERE, 0);
	else
		replay_verdict_set(out, &ev, SR_VERDICT_RESIST, SR_REASON_EXEC_IDLER_ELSEWHERE,
				   est ? SR_REASON_EXEC_PELT_ESTIMATE : 0, 0);
	return 0;
}

const struct sr_policy_ops policy_exec_v61_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "exec-v6.1",
	.provenance	= "Linux v6.1 (Debian 6.1.0-57-amd64, which recorded the bundled traces) "
			  "sched_exec() -> select_task_rq_fair(SD_BALANCE_EXEC) -> "
			  "find_idlest_cpu(); groups 57abff067a08 (v5.5), imb_numa_nr "
			  "cb29a5c19d2d (v6.0)",
	.description	= "exec placement of 6.1: the idlest node inside the domains that "
			  "balance exec (none beyond node_reclaim_distance)",
	.classes	= REPLAY_EXEC_CLASSES,
	.params		= replay_idlest_params,
	.evaluate	= exec_v61_evaluate,
};
