// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin-no-entry.c - a shared object with a valid ops table that forgot
 * SR_POLICY_ENTRY: with hidden visibility nothing is exported, and the
 * loader must say the entry symbol is missing.
 */
#include <schedreplay/sr-policy.h>

static int no_entry_evaluate(const void *priv, const struct sr_snapshot *snap,
			     struct sr_verdict *out)
{
	out->verdict = SR_VERDICT_ALLOW;
	return 0;
}

const struct sr_policy_ops no_entry_ops;
const struct sr_policy_ops no_entry_ops = {
	.abi_version	= SR_POLICY_ABI_VERSION,
	.size		= sizeof(struct sr_policy_ops),
	.name		= "no-entry",
	.provenance	= "test",
	.classes	= SR_CLASS_BIT(SR_DECISION_CLASS_LB_PULL),
	.evaluate	= no_entry_evaluate,
};
