// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin-small-size.c - a policy plugin whose ops table claims a size that
 * does not reach the evaluate hook (as if built against a truncated
 * header): the loader must refuse it.
 */
#include <stddef.h>

#include <schedreplay/sr-policy.h>

static int small_evaluate(const void *priv, const struct sr_snapshot *snap,
			  struct sr_verdict *out)
{
	out->verdict = SR_VERDICT_ALLOW;
	return 0;
}

static const struct sr_policy_ops small_ops = {
	.abi_version	= SR_POLICY_ABI_VERSION,
	.size		= offsetof(struct sr_policy_ops, evaluate),
	.name		= "small-size",
	.provenance	= "test",
	.classes	= SR_CLASS_BIT(SR_DECISION_CLASS_LB_PULL),
	.evaluate	= small_evaluate,
};

SR_POLICY_ENTRY(small_ops);
