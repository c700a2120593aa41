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
 * Follows kernel-policies.md section 3.6 (compare_v419 / ASSIGN (v4.19) and
 * "What numa_migrate_on changes about concurrency").
 *
 * The flag is never traced.  The engine approximates each claim as the
 * window from a sched_move_numa / sched_swap_numa event to its migration
 * (section 3.6, "Replay consequence") and passes how many other claims
 * cover this decision's target CPU in sr_snapshot.numa_inflight.  Only the
 * destination runqueue is claimed; for the partner's half of a swap the
 * claimed CPU is the initiator's destination.
 */
#include <errno.h>

#include "replay-local.h"

enum {
	P_NUMA_BALANCING = 0,
};

static const struct sr_param_desc numa_v419_params[] = {
	{ .name = "numa_balancing", .type = SR_PARAM_BOOL, .def = 1, .min = 0, .max = 1,
	  .description = "kernel.numa_balancing: 0 means the balancer moves nothing" },
	{ .name = NULL },
};

static int numa_v419_evaluate(const void *priv, const struct sr_snapshot *snap,
			      struct sr_verdict *out)
{
	const struct sr_param_values *vals = priv;
	struct replay_eval ev = { .snap = snap };
	int ret;

	ret = replay_check_args(priv, snap, out);
	if (ret)
		return ret;
	if (vals->nr < 1)
		return -EINVAL;
	ev.param = vals->v;

	if (replay_numa_common(&ev, out, ev.param[P_NUMA_BALANCING]))
		return 0;
	/* if (READ_ONCE(dst_rq->numa_migrate_on)) return; / xchg found it set */
	if (!replay_need(&ev, SR_SNAP_BIT_NUMA_INFLIGHT)) {
		replay_verdict_unknown(out, &ev);
		return 0;
	}
	if (snap->numa_inflight > 0)
		replay_verdict_set(out, &ev, SR_VERDICT_RESIST, SR_REASON_DST_NUMA_CLAIMED, 0, 0);
	else
		replay_verdict_set(out, &ev, SR_VERDICT_ALLOW, SR_REASON_DST_NUMA_FREE, 0, 0);
	return 0;
}

const struct sr_policy_ops policy_numa_v419_ops = {
	.abi_version	= SR_POLICY_ABI_VERSION,
	.size		= sizeof(struct sr_policy_ops),
	.name		= "numa-v4.19",
	.provenance	= "Linux v4.19 (v4.19.1) kernel/sched/fair.c numa_migrate_on, "
			  "a4739eca4456e3d140cc656c5331d42b7465f91d (seed 000 as landed)",
	.description	= "NUMA balancer with the per-runqueue numa_migrate_on claim: a "
			  "move or swap onto a CPU already claimed is refused",
	.classes	= SR_CLASS_BIT(SR_DECISION_CLASS_NUMA_MOVE) |
			  SR_CLASS_BIT(SR_DECISION_CLASS_NUMA_SWAP) |
			  SR_CLASS_BIT(SR_DECISION_CLASS_NUMA_STICK),
	.params		= numa_v419_params,
	.evaluate	= numa_v419_evaluate,
};
