// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-numa-v4.18.c - numa-v4.18: the NUMA balancer's task placement
 * before seed 000, where any number of NUMA moves and swaps may target the
 * same CPU at the same time.
 *
 * Models: Linux v4.17 / v4.18 kernel/sched/fair.c task_numa_compare() and
 * task_numa_assign(), which have no numa_migrate_on (it is absent from
 * v4.17 and present in v4.19.1).
 * Follows kernel-policies.md sections 3.5 (task_numa_compare, v4.1 form)
 * and 3.6 (what numa_migrate_on changed).
 *
 * The replay takes the kernel's choice of destination as given and judges
 * only the concurrency rule the seed changes: this policy allows every NUMA
 * move, swap half or refused attempt that names a target CPU, and records
 * when another move was in flight to the same CPU.  A numa-stick without a
 * candidate CPU (dst_cpu -1, v5.7+ kernels) has nothing to judge.
 */
#include <errno.h>

#include "replay-local.h"

enum {
	P_NUMA_BALANCING = 0,
};

static const struct sr_param_desc numa_v418_params[] = {
	{ .name = "numa_balancing", .type = SR_PARAM_BOOL, .def = 1, .min = 0, .max = 1,
	  .description = "kernel.numa_balancing: 0 means the balancer moves nothing" },
	{ .name = NULL },
};

static int numa_v418_evaluate(const void *priv, const struct sr_snapshot *snap,
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
	/* task_numa_compare() has no per-runqueue claim to test */
	replay_verdict_set(out, &ev, SR_VERDICT_ALLOW, SR_REASON_NUMA_CONCURRENT_ALLOWED,
			   (snap->known & SR_SNAP_NUMA_INFLIGHT) && snap->numa_inflight > 0 ?
			   SR_REASON_DST_NUMA_CLAIMED : 0, 0);
	return 0;
}

const struct sr_policy_ops policy_numa_v418_ops = {
	.abi_version	= SR_POLICY_ABI_VERSION,
	.size		= sizeof(struct sr_policy_ops),
	.name		= "numa-v4.18",
	.provenance	= "Linux v4.18 (v4.17 tree checked) kernel/sched/fair.c "
			  "task_numa_compare()/task_numa_assign(), before a4739eca4456",
	.description	= "NUMA balancer without numa_migrate_on: concurrent NUMA moves "
			  "onto one CPU allowed",
	.classes	= SR_CLASS_BIT(SR_DECISION_CLASS_NUMA_MOVE) |
			  SR_CLASS_BIT(SR_DECISION_CLASS_NUMA_SWAP) |
			  SR_CLASS_BIT(SR_DECISION_CLASS_NUMA_STICK),
	.params		= numa_v418_params,
	.evaluate	= numa_v418_evaluate,
};
