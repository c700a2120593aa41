// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-example.c - a complete schedreplay policy plugin (docs/plugin-abi.md).
 *
 * "lb-idle-dst-wins": a load-balancer patch someone might want to judge
 * against lb-v6.1.  A move onto an idle CPU is always allowed; otherwise a
 * task that ran within `hot_ns` stays put.  It shows every part of the ABI:
 * parameters, an init/fini pair owning private state, a reason code of its
 * own, and the "unknown" verdict when the snapshot lacks an input.
 *
 * Build:  cc -shared -fPIC -fvisibility=hidden -I replay/include \
 *            -o policy-example.so docs/examples/policy-example.c
 * Use:    schedreplay replay TRACE --old lb-v6.1 --new ./policy-example.so \
 *            --param hot_ns=250000
 */
#include <errno.h>
#include <stdlib.h>

#include <schedreplay/sr-policy.h>

/* Our own reason code: plugin codes start at SR_REASON_PLUGIN_FIRST. */
enum {
	EXAMPLE_REASON_DST_IDLE = SR_REASON_PLUGIN_FIRST,
};

static const struct sr_reason_desc example_reasons[] = {
	{ EXAMPLE_REASON_DST_IDLE, "dst-idle-wins", "the destination CPU was idle" },
	{ 0, NULL, NULL },
};

/* Parameter order is the index into sr_param_values.v[]. */
enum {
	P_HOT_NS = 0,
	P_IDLE_WINS,
};

static const struct sr_param_desc example_params[] = {
	{ .name = "hot_ns", .type = SR_PARAM_INT, .def = 500000, .min = 0,
	  .max = 1000000000, .description = "a task that ran within this many ns is hot" },
	{ .name = "idle_wins", .type = SR_PARAM_BOOL, .def = 1, .min = 0, .max = 1,
	  .description = "always allow a move onto an idle CPU" },
	{ .name = NULL },
};

/* Private state built once by init from the parameter values. */
struct example_priv {
	uint64_t	hot_ns;
	int		idle_wins;
};

static int example_init(void **priv, const struct sr_param_values *vals)
{
	struct example_priv *p = malloc(sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->hot_ns = (uint64_t)vals->v[P_HOT_NS];
	p->idle_wins = (int)vals->v[P_IDLE_WINS];
	*priv = p;
	return 0;
}

static void example_fini(void *priv)
{
	free(priv);
}

/* Answer "unknown", naming the input that was missing. */
static int unknown(struct sr_verdict *out, enum sr_snap_bit bit)
{
	out->verdict = SR_VERDICT_UNKNOWN;
	out->missing |= 1ull << bit;
	sr_verdict_push(out, sr_reason_missing(bit));
	return 0;
}

/* Pure: reads priv and snap, writes out, nothing else. */
static int example_evaluate(const void *priv, const struct sr_snapshot *snap,
			    struct sr_verdict *out)
{
	const struct example_priv *p = priv;

	if (!(snap->known & SR_SNAP_CLASS) ||
	    (snap->decision_class != SR_DECISION_CLASS_LB_PULL &&
	     snap->decision_class != SR_DECISION_CLASS_LB_ACTIVE)) {
		out->verdict = SR_VERDICT_NOT_APPLICABLE;
		sr_verdict_push(out, SR_REASON_CLASS_NOT_HANDLED);
		return 0;
	}
	if (!(snap->known & SR_SNAP_TASK_RUNNING))
		return unknown(out, SR_SNAP_BIT_TASK_RUNNING);
	if (snap->task_running) {
		out->verdict = SR_VERDICT_RESIST;
		sr_verdict_push(out, SR_REASON_TASK_RUNNING);
		return 0;
	}
	if (p->idle_wins) {
		if (!(snap->known & SR_SNAP_DST_IDLE))
			return unknown(out, SR_SNAP_BIT_DST_IDLE);
		if (snap->dst_idle) {
			out->verdict = SR_VERDICT_ALLOW;
			sr_verdict_push(out, EXAMPLE_REASON_DST_IDLE);
			return 0;
		}
	}
	if (!(snap->known & SR_SNAP_SINCE_RAN))
		return unknown(out, SR_SNAP_BIT_SINCE_RAN);
	if (snap->since_ran_ns < p->hot_ns) {
		out->verdict = SR_VERDICT_RESIST;
		sr_verdict_push(out, SR_REASON_TASK_HOT);
	} else {
		out->verdict = SR_VERDICT_ALLOW;
		sr_verdict_push(out, SR_REASON_TASK_COLD);
	}
	return 0;
}

static const struct sr_policy_ops example_ops = {
	.abi_version	= SR_POLICY_ABI_VERSION,
	.size		= sizeof(struct sr_policy_ops),
	.name		= "lb-idle-dst-wins",
	.provenance	= "example plugin, docs/examples/policy-example.c",
	.description	= "moves onto an idle CPU always allowed, else hot tasks stay",
	.classes	= SR_CLASS_BIT(SR_DECISION_CLASS_LB_PULL) |
			  SR_CLASS_BIT(SR_DECISION_CLASS_LB_ACTIVE),
	.params		= example_params,
	.init		= example_init,
	.fini		= example_fini,
	.evaluate	= example_evaluate,
	.reasons	= example_reasons,
};

SR_POLICY_ENTRY(example_ops);
