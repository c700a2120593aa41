// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-fork.c - fork placement: wake_up_new_task() ->
 * select_task_rq_fair(p, task_cpu(p), WF_FORK) -> the highest domain with
 * SD_BALANCE_FORK -> find_idlest_cpu() (kernel/sched/fair.c), in three
 * versions of find_idlest_group()'s NUMA spare-capacity rule:
 *   fork-v5.10  57abff067a08 (v5.5): stay while the local node has an
 *               idle CPU;
 *   fork-v5.11  23e6082a522e (v5.11): stay while the local node runs
 *               fewer tasks than a quarter of the NUMA domain's CPUs;
 *   fork-v6.1   cb29a5c19d2d / f5b2eeb49991 (v6.0): stay while the idle
 *               counts differ by at most 2 and the local node runs fewer
 *               than imb_numa_nr + 1 tasks (exec-v6.1's rule).
 * The group levels are exec-v6.1's (policy-exec-v6.1.c), without taking
 * the child away from the parent's node: it is on no runqueue yet.
 *
 * Inside the node (replay_place_cpu()), below the NUMA levels: one group
 * per CPU (the node taken as one LLC, no SMT).  A CPU counts as idle, here
 * and in the node counts, only with no wake-up on its way to it
 * (rq->ttwu_pending, SR_PCPU_IDLE).  Moved to another node:
 * find_idlest_group_cpu(), the idle CPU that went idle last (no idle-state
 * exit latencies are traced; they are taken as equal), else the least
 * loaded by the estimated loads.  Staying on the node: find_idlest_group()
 * from the parent's CPU: stay while it is idle; else the idle CPU of
 * lowest estimated util (ties: the first after it); with none idle, the
 * group types (cpu_type()) decide, then, both fully busy or overloaded,
 * the least loaded CPU if it beats the parent's by the imbalance_pct
 * margins.
 *
 * First select_task_rq()'s own test: a child whose (inherited) mask is one
 * CPU gets that CPU (place-one-cpu); where the trace cannot say whether the
 * mask is one CPU, missing-allowed-cpus.
 *
 * Reasons: the find_idlest_group() branch that chose the node (node-*,
 * on NUMA machines), then place-idlest-cpu and its qualifiers.
 *
 * Verdict: allow when the CPU picked is the child's (sched_wakeup_new's
 * target_cpu), resist otherwise; target_cpu / target_node say which.
 */
#include <stdint.h>
#include <stdlib.h>

#include "replay-local.h"

static bool known_cpu(const struct sr_snapshot *s, int c)
{
	return c >= 0 && c < s->nr_cpus && (s->cpu_flags[c] & SR_PCPU_KNOWN);
}

/* rq->nr_running of @c without the task itself (exec: it and the stopper) */
static int nr_without(const struct replay_eval *ev, int c)
{
	const struct sr_snapshot *s = ev->snap;
	int n = s->cpu_nr_running[c];

	if (!(ev->mode & REPLAY_MODE_FORK) && c == s->src_cpu)
		n -= 2;
	return n > 0 ? n : 0;
}

/*
 * Is @c idle for the slow path?  idle_cpu_without() (the group statistics)
 * and available_idle_cpu() (find_idlest_group_cpu()) both want nothing
 * running or queued there and no wake-up on its way (rq->ttwu_pending: a
 * CPU that a wake-up targets is busy before its sched_wakeup is logged,
 * which SR_PCPU_IDLE follows).  An exec'ing task's own CPU runs it and
 * the stopper, neither of which counts.
 */
static bool idle_without(const struct replay_eval *ev, int c)
{
	const struct sr_snapshot *s = ev->snap;

	if (nr_without(ev, c))
		return false;
	if (!(ev->mode & REPLAY_MODE_FORK) && c == s->src_cpu)
		return true;
	return s->cpu_flags[c] & SR_PCPU_IDLE;
}

/* group_classify() of a one-CPU group, from the estimates (capacity 1024) */
enum { GT_HAS_SPARE, GT_FULLY_BUSY, GT_OVERLOADED };

static int cpu_type(const struct replay_eval *ev, int c)
{
	const struct sr_snapshot *s = ev->snap;
	int64_t pct = ev->param[1], nr = nr_without(ev, c);
	int64_t util = s->cpu_util[c], runnable = s->cpu_load[c];

	if (nr > 1 && (1024 * 100 < util * pct || 1024 * pct < runnable * 100))
		return GT_OVERLOADED;
	if (nr < 1)
		return GT_HAS_SPARE;
	if (1024 * pct < runnable * 100)
		return GT_FULLY_BUSY;
	if (1024 * 100 > util * pct)
		return GT_HAS_SPARE;
	return GT_FULLY_BUSY;
}

int replay_place_cpu(struct replay_eval *ev, int node, int from, bool *est)
{
	const struct sr_snapshot *s = ev->snap;
	int c, best = -1;
	bool pelt_all = true;

	if (!SR_SNAP_HAS(s, cpu_nr_running) || !(s->known & SR_SNAP_PLACE_CPUS) ||
	    s->nr_cpus <= 0 || s->nr_cpus > SR_PLACE_MAX_CPUS)
		return -1;
	for (c = 0; c < s->nr_cpus; c++) {
		if (s->cpu_node[c] != node)
			continue;
		if (!known_cpu(s, c))
			return -1;
		if (!(s->cpu_flags[c] & SR_PCPU_PELT))
			pelt_all = false;
	}
	if (from < 0 || from >= s->nr_cpus || s->cpu_node[from] != node) {
		/* find_idlest_group_cpu(): the idle CPU idle the shortest, else the least loaded */
		for (c = 0; c < s->nr_cpus; c++) {
			if (s->cpu_node[c] != node || !idle_without(ev, c))
				continue;
			if (best < 0 || s->cpu_idle_ns[c] < s->cpu_idle_ns[best])
				best = c;
		}
		if (best >= 0)
			return best;
		if (!pelt_all)
			return -1;
		for (c = 0; c < s->nr_cpus; c++)
			if (s->cpu_node[c] == node && (best < 0 || s->cpu_load[c] < s->cpu_load[best]))
				best = c;
		if (est)
			*est = true;
		return best;
	}
	/* find_idlest_group() at the level of single-CPU groups, from @from */
	if (idle_without(ev, from))
		return from;
	for (c = 1; c < s->nr_cpus; c++) {
		int i = (from + c) % s->nr_cpus;

		if (s->cpu_node[i] != node || !idle_without(ev, i))
			continue;
		if (best < 0)
			best = i;
		else if (!pelt_all)
			return -1;	/* group_util decides between idle CPUs */
		else if (s->cpu_util[i] < s->cpu_util[best])
			best = i;
	}
	if (best >= 0) {
		if (est && pelt_all && best != -1)
			*est = true;
		return best;
	}
	if (!pelt_all)
		return -1;
	/*
	 * No idle CPU: update_pick_idlest() takes the least busy group type
	 * (from the util/runnable estimates), then the lowest group_util
	 * among groups with spare capacity, else the lowest avg_load.
	 */
	for (c = 1; c < s->nr_cpus; c++) {
		int i = (from + c) % s->nr_cpus;

		if (s->cpu_node[i] != node)
			continue;
		if (best < 0 || cpu_type(ev, i) < cpu_type(ev, best) ||
		    (cpu_type(ev, i) == cpu_type(ev, best) &&
		     (cpu_type(ev, i) == GT_HAS_SPARE ? s->cpu_util[i] < s->cpu_util[best] :
							 s->cpu_load[i] < s->cpu_load[best])))
			best = i;
	}
	if (est)
		*est = true;
	if (best < 0)
		return from;
	/* find_idlest_group(): the local group's type against the idlest's */
	if (cpu_type(ev, from) < cpu_type(ev, best))
		return from;
	if (cpu_type(ev, from) > cpu_type(ev, best))
		return best;
	if (cpu_type(ev, from) == GT_HAS_SPARE)
		return from;	/* idle_cpus 0 >= 0: stay */
	{
		int64_t local = s->cpu_load[from], idlest = s->cpu_load[best];
		int64_t pct = ev->param[1], imb = 1024 * (pct - 100) / 100;

		if (!(ev->mode & REPLAY_MODE_FORK) && local > 1024)
			local -= 1024;	/* cpu_load_without(): the exec'ing task's own load */
		if (idlest >= local + imb || 100 * local <= pct * idlest)
			return from;
	}
	return best;
}

static int fork_evaluate(const void *priv, const struct sr_snapshot *snap,
			 struct sr_verdict *out, uint32_t mode)
{
	struct replay_eval ev;
	bool est = false;
	int node, cpu, ret;

	ret = replay_eval_begin(&ev, priv, snap, out, REPLAY_IDLEST_NR_PARAMS,
				SR_CLASS_BIT(SR_DECISION_CLASS_FORK));
	if (ret)
		return ret < 0 ? ret : 0;
	ev.mode = REPLAY_MODE_FORK | mode;
	/*
	 * select_task_rq(): with nr_cpus_allowed 1 the class is not asked;
	 * the child takes its one CPU.  Its mask is the parent's; where the
	 * trace cannot say whether that is one CPU, the answer is unknown.
	 */
	if (!replay_need(&ev, SR_SNAP_BIT_ALLOWED_CPU)) {
		replay_verdict_unknown(out, &ev);
		return 0;
	}
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
	if (!replay_need(&ev, SR_SNAP_BIT_PLACE_CPUS)) {
		replay_verdict_unknown(out, &ev);
		return 0;
	}
	cpu = replay_place_cpu(&ev, node, snap->src_cpu, &est);
	if (cpu < 0) {
		/* a CPU of that node not seen, or its estimates missing */
		ev.missing |= SR_SNAP_PLACE_CPUS;
		ev.missing_reason = sr_reason_missing(SR_SNAP_BIT_PLACE_CPUS);
		replay_verdict_unknown(out, &ev);
		return 0;
	}
	out->target_node = node;
	out->target_cpu = cpu;
	replay_verdict_set(out, &ev, cpu == snap->dst_cpu ? SR_VERDICT_ALLOW : SR_VERDICT_RESIST,
			   SR_REASON_PLACE_IDLEST_CPU, est ? SR_REASON_PLACE_LOAD_ESTIMATE : 0,
			   cpu == snap->dst_cpu ? SR_REASON_PLACE_SAME_CPU : SR_REASON_PLACE_OTHER_CPU);
	if (ev.node_why) {
		/*
		 * The NUMA branch that chose the node goes first, so that two
		 * versions' reasons name where they part (5.10's idle-CPU rule
		 * against 6.1's imb_numa_nr, say), not the CPU step they share.
		 */
		int i;

		if (out->nr_reasons == SR_MAX_REASONS)
			out->nr_reasons--;
		for (i = out->nr_reasons; i > 0; i--)
			out->reasons[i] = out->reasons[i - 1];
		out->reasons[0] = (uint16_t)ev.node_why;
		out->nr_reasons++;
	}
	return 0;
}

static int fork_v510_evaluate(const void *p, const struct sr_snapshot *s, struct sr_verdict *o)
{
	return fork_evaluate(p, s, o, REPLAY_MODE_SPILL_IDLE);
}

static int fork_v511_evaluate(const void *p, const struct sr_snapshot *s, struct sr_verdict *o)
{
	return fork_evaluate(p, s, o, REPLAY_MODE_SPILL_QUARTER);
}

static int fork_v61_evaluate(const void *p, const struct sr_snapshot *s, struct sr_verdict *o)
{
	return fork_evaluate(p, s, o, 0);
}

#define FORK_CLASSES	SR_CLASS_BIT(SR_DECISION_CLASS_FORK)

const struct sr_policy_ops policy_fork_v510_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "fork-v5.10",
	.provenance	= "Linux v5.5-v5.10 find_idlest_group() of 57abff067a08 (v5.5): at "
			  "SD_NUMA a fork stays while the local node has an idle CPU",
	.description	= "fork placement of 5.10: children stay on the parent's node while it "
			  "has an idle CPU",
	.classes	= FORK_CLASSES,
	.params		= replay_idlest_params,
	.evaluate	= fork_v510_evaluate,
};

const struct sr_policy_ops policy_fork_v511_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "fork-v5.11",
	.provenance	= "Linux v5.11-v5.18 allow_numa_imbalance() of 23e6082a522e (v5.11): "
			  "stay below a quarter of the NUMA domain's CPUs",
	.description	= "fork placement of 5.11: children spill to an idler node once the "
			  "parent's runs a quarter of the domain's CPUs",
	.classes	= FORK_CLASSES,
	.params		= replay_idlest_params,
	.evaluate	= fork_v511_evaluate,
};

const struct sr_policy_ops policy_fork_v61_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "fork-v6.1",
	.provenance	= "Linux v6.0-v6.1 (Debian 6.1.0-57-amd64) find_idlest_group() with "
			  "imb_numa_nr cb29a5c19d2d / f5b2eeb49991 (v6.0); find_idlest_group_cpu()",
	.description	= "fork placement of 6.1: the idlest node within the SD_BALANCE_FORK "
			  "domains, a small imbalance kept while lightly loaded",
	.classes	= FORK_CLASSES,
	.params		= replay_idlest_params,
	.evaluate	= fork_v61_evaluate,
};
