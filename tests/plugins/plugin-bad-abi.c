// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin-bad-abi.c - a policy plugin built for a different ABI major
 * version: the loader must refuse it before running any of its code.
 */
#include <schedreplay/sr-policy.h>

static int bad_abi_evaluate(const void *priv, const struct sr_snapshot *snap,
			    struct sr_verdict *out)
{
	out->verdict = SR_VERDICT_ALLOW;
	return 0;
}

static const struct sr_policy_ops bad_abi_ops = {
	.abi_version	= ((SR_POLICY_ABI_MAJOR + 1) << 16) | 0,
	.size		= sizeof(struct sr_policy_ops),
	.name		= "bad-abi",
	.provenance	= "test",
	.classes	= SR_CLASS_BIT(SR_DECISION_CLASS_LB_PULL),
	.evaluate	= bad_abi_evaluate,
};

SR_POLICY_ENTRY(bad_abi_ops);
