// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-numa-v4.19.c - numa-v4.19: seed 000, "sched/numa: Stop multiple
 * tasks from moving to the CPU at the same time", as landed.
 *
 * Models: Linux v4.19 (v4.19.1) kernel/sched/fair.c, commit
 * a4739eca4456e3d140cc656c5331d42b7465f91d: task_numa_compare() skips a
 * CPU whose runqueue has numa_migrate_on set, and task_numa_assign() claims
 * the flag with xchg and drops the candidate when it was already set, so at
 * most one NUMA move or swap targets a runqueue at a time.
 * Follows docs/kernel-behaviour.md section 3.4 (the v4.19 search, the
 * claim and its consequences).
 *
 * The flag is never traced.  The engine approximates each claim as the
 * window from a sched_move_numa / sched_swap_numa event to its migration
 * (section 3.4, "What the replay sees") and passes how many other claims
 * cover this decision's target CPU in sr_snapshot.numa_inflight.  Only the
 * destination runqueue is claimed; for the partner's half of a swap the
 * claimed CPU is the initiator's destination.
 */
#include "replay-local.h"

static const struct sr_param_desc numa_v419_params[] = {
	REPLAY_NUMA_PARAMS_COMMON,
	{ .name = NULL },
};

static void numa_v419_body(struct replay_eval *ev, struct sr_verdict *out)
{
	const struct sr_snapshot *snap = ev->snap;

	/* if (READ_ONCE(dst_rq->numa_migrate_on)) return; / xchg found it set */
	if (!replay_need(ev, SR_SNAP_BIT_NUMA_INFLIGHT)) {
		replay_verdict_unknown(out, ev);
		return;
	}
	if (snap->numa_inflight > 0)
		replay_verdict_set(out, ev, SR_VERDICT_RESIST, SR_REASON_DST_NUMA_CLAIMED, 0, 0);
	else
		replay_verdict_set(out, ev, SR_VERDICT_ALLOW, SR_REASON_DST_NUMA_FREE, 0, 0);
}

static int numa_v419_evaluate(const void *priv, const struct sr_snapshot *snap,
			      struct sr_verdict *out)
{
	return replay_numa_evaluate(priv, snap, out, numa_v419_body);
}

const struct sr_policy_ops policy_numa_v419_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "numa-v4.19",
	.provenance	= "Linux v4.19 (v4.19.1) kernel/sched/fair.c numa_migrate_on, "
			  "a4739eca4456e3d140cc656c5331d42b7465f91d (seed 000 as landed)",
	.description	= "NUMA balancer with the per-runqueue numa_migrate_on claim: a "
			  "move or swap onto a CPU already claimed is refused",
	.classes	= REPLAY_NUMA_CLASSES,
	.params		= numa_v419_params,
	.evaluate	= numa_v419_evaluate,
};
