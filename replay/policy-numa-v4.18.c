// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-numa-v4.18.c - numa-v4.18: the NUMA balancer's task placement
 * before seed 000, where any number of NUMA moves and swaps may target the
 * same CPU at the same time.
 *
 * Models: Linux v4.17 / v4.18 kernel/sched/fair.c task_numa_compare() and
 * task_numa_assign(), which have no numa_migrate_on (it is absent from
 * v4.17 and present in v4.19.1).
 * Follows docs/kernel-behaviour.md section 3.2 (task_numa_compare, v4.1 form)
 * and section 3.4 (what numa_migrate_on changed).
 *
 * The replay takes the kernel's choice of destination as given and judges
 * only the concurrency rule the seed changes: this policy allows every NUMA
 * move, swap half or refused attempt that names a target CPU, and records
 * when another move was in flight to the same CPU.  A numa-stick without a
 * candidate CPU (dst_cpu -1, v5.7+ kernels) has nothing to judge.
 */
#include "replay-local.h"

static const struct sr_param_desc numa_v418_params[] = {
	REPLAY_NUMA_PARAMS_COMMON,
	{ .name = NULL },
};

static void numa_v418_body(struct replay_eval *ev, struct sr_verdict *out)
{
	const struct sr_snapshot *snap = ev->snap;

	/* task_numa_compare() has no per-runqueue claim to test */
	replay_verdict_set(out, ev, SR_VERDICT_ALLOW, SR_REASON_NUMA_CONCURRENT_ALLOWED,
			   (snap->known & SR_SNAP_NUMA_INFLIGHT) && snap->numa_inflight > 0 ?
			   SR_REASON_DST_NUMA_CLAIMED : 0, 0);
}

static int numa_v418_evaluate(const void *priv, const struct sr_snapshot *snap,
			      struct sr_verdict *out)
{
	return replay_numa_evaluate(priv, snap, out, numa_v418_body);
}

const struct sr_policy_ops policy_numa_v418_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "numa-v4.18",
	.provenance	= "Linux v4.18 (v4.17 tree checked) kernel/sched/fair.c "
			  "task_numa_compare()/task_numa_assign(), before a4739eca4456",
	.description	= "NUMA balancer without numa_migrate_on: concurrent NUMA moves "
			  "onto one CPU allowed",
	.classes	= REPLAY_NUMA_CLASSES,
	.params		= numa_v418_params,
	.evaluate	= numa_v418_evaluate,
};
