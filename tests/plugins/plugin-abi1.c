// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin-abi1.c - a policy plugin as built against ABI 1.2: its ops table
 * ends at .reasons (no choose) and says version 1.2.  It must load and run
 * with the engine's candidate walk.  It allows every candidate that is not
 * running: on a decision point, the first one it meets.
 */
#include <stddef.h>

#include <schedreplay/sr-policy.h>

static int abi1_evaluate(const void *priv, const struct sr_snapshot *snap,
			 struct sr_verdict *out)
{
	if (!(snap->known & SR_SNAP_TASK_RUNNING)) {
		out->verdict = SR_VERDICT_UNKNOWN;
		out->missing |= SR_SNAP_TASK_RUNNING;
		sr_verdict_push(out, sr_reason_missing(SR_SNAP_BIT_TASK_RUNNING));
		return 0;
	}
	out->verdict = snap->task_running ? SR_VERDICT_RESIST : SR_VERDICT_ALLOW;
	sr_verdict_push(out, snap->task_running ? SR_REASON_TASK_RUNNING : SR_REASON_TASK_COLD);
	return 0;
}

static const struct sr_policy_ops abi1_ops = {
	.abi_version	= (1 << 16) | 2,
	.size		= offsetof(struct sr_policy_ops, reasons) + sizeof(const void *),
	.name		= "lb-abi1-first",
	.provenance	= "test: a plugin of ABI 1.2",
	.classes	= SR_CLASS_BIT(SR_DECISION_CLASS_LB_PULL) |
			  SR_CLASS_BIT(SR_DECISION_CLASS_LB_ACTIVE),
	.evaluate	= abi1_evaluate,
	.choose		= NULL,
};

SR_POLICY_ENTRY(abi1_ops);
