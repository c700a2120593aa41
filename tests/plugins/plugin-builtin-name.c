// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin-builtin-name.c - a valid policy plugin that takes a built-in's
 * name: the loader must refuse it so reports never mix the two up.
 */
#include <schedreplay/sr-policy.h>

static int clash_evaluate(const void *priv, const struct sr_snapshot *snap,
			  struct sr_verdict *out)
{
	out->verdict = SR_VERDICT_ALLOW;
	return 0;
}

static const struct sr_policy_ops clash_ops = {
	.abi_version	= SR_POLICY_ABI_VERSION,
	.size		= sizeof(struct sr_policy_ops),
	.name		= "lb-v4.1",
	.provenance	= "test",
	.classes	= SR_CLASS_BIT(SR_DECISION_CLASS_LB_PULL),
	.evaluate	= clash_evaluate,
};

SR_POLICY_ENTRY(clash_ops);
