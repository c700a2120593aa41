// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-example.c - a complete schedreplay policy plugin (docs/plugin-abi.md).
 *
 * "lb-idle-dst-wins": a load-balancer patch someone might want to judge
 * against lb-v6.1.  A move onto an idle CPU is always allowed; otherwise a
 * task that ran within `hot_ns` stays put; and with `coldest_first` the
 * balancer pulls, of the tasks it may move, the one that ran longest ago
 * instead of the first one it meets.  It shows every part of the ABI
 * (version 2): parameters, an init/fini pair owning private state, a reason
 * code of its own, the "unknown" verdict when the snapshot lacks an input,
 * the verdict on the kernel's own move (evaluate) and the choice at the
 * decision point (choose).
 *
 * Build:  cc -shared -fPIC -fvisibility=hidden -I replay/include \
 *            -o policy-example.so docs/examples/policy-example.c
 * Use:    schedreplay replay TRACE --old lb-v6.1 --new ./policy-example.so \
 *            --param hot_ns=250000
 */
#include <errno.h>
#include <stdlib.h>

#include <schedreplay/sr-policy.h>

/* Our own reason codes: plugin codes start at SR_REASON_PLUGIN_FIRST. */
enum {
	EXAMPLE_REASON_DST_IDLE = SR_REASON_PLUGIN_FIRST,
	EXAMPLE_REASON_COLDEST,
};

static const struct sr_reason_desc example_reasons[] = {
	{ EXAMPLE_REASON_DST_IDLE, "dst-idle-wins", "the destination CPU was idle" },
	{ EXAMPLE_REASON_COLDEST, "coldest-first", "of the tasks it may move, it ran longest ago" },
	{ 0, NULL, NULL },
};

/* Parameter order is the index into sr_param_values.v[]. */
enum {
	P_HOT_NS = 0,
	P_IDLE_WINS,
	P_COLDEST_FIRST,
};

static const struct sr_param_desc example_params[] = {
	{ .name = "hot_ns", .type = SR_PARAM_INT, .def = 500000, .min = 0,
	  .max = 1000000000, .description = "a task that ran within this many ns is hot" },
	{ .name = "idle_wins", .type = SR_PARAM_BOOL, .def = 1, .min = 0, .max = 1,
	  .description = "always allow a move onto an idle CPU" },
	{ .name = "coldest_first", .type = SR_PARAM_BOOL, .def = 0, .min = 0, .max = 1,
	  .description = "pull the movable task that ran longest ago, not the first one met" },
	{ .name = NULL },
};

/* Private state built once by init from the parameter values. */
struct example_priv {
	uint64_t	hot_ns;
	int		idle_wins;
	int		coldest_first;
};

static int example_init(void **priv, const struct sr_param_values *vals)
{
	struct example_priv *p = malloc(sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->hot_ns = (uint64_t)vals->v[P_HOT_NS];
	p->idle_wins = (int)vals->v[P_IDLE_WINS];
	p->coldest_first = (int)vals->v[P_COLDEST_FIRST];
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

/*
 * The choice at a load-balance decision point: dp->cand lists the tasks of
 * the source runqueue in the order detach_tasks() walks them, and this
 * decision is the kernel's dp->nr_pull-th pull of its pass.  Pure, as
 * evaluate.  Without coldest_first this is what the engine does for a
 * policy that has no choose(): the nr_pull-th task allowed, in order.
 */
static int example_choose(const void *priv, const struct sr_decision_point *dp,
			  struct sr_verdict *out)
{
	const struct example_priv *p = priv;
	uint64_t taken = 0;	/* the colder tasks already pulled, by index */
	int best = -1, pulls = 0, ret;
	struct sr_verdict v;
	uint32_t i;

	while (pulls < (int)dp->nr_pull) {
		best = -1;
		for (i = 0; i < dp->nr_cand && i < 64; i++) {
			if (taken >> i & 1)
				continue;
			v = *out;	/* as the engine initialised it */
			ret = example_evaluate(priv, &dp->cand[i], &v);
			if (ret < 0)
				return ret;
			if (v.verdict == SR_VERDICT_UNKNOWN) {
				/* whether this one is pulled cannot be said */
				*out = v;
				return 0;
			}
			if (v.verdict != SR_VERDICT_ALLOW)
				continue;
			if (best < 0 || (p->coldest_first &&
					 dp->cand[i].since_ran_ns > dp->cand[best].since_ran_ns))
				best = (int)i;
			if (!p->coldest_first)
				break;
		}
		if (best < 0) {
			/* it allows fewer tasks than the kernel pulled */
			out->verdict = SR_VERDICT_RESIST;
			out->target_tid = SR_CHOICE_NONE;
			sr_verdict_push(out, SR_REASON_ALL_REFUSED);
			return 0;
		}
		taken |= 1ull << best;
		pulls++;
	}
	out->verdict = SR_VERDICT_ALLOW;
	out->target_tid = dp->cand[best].tid;
	if (p->coldest_first)
		sr_verdict_push(out, EXAMPLE_REASON_COLDEST);
	v = *out;
	v.nr_reasons = 0;
	example_evaluate(priv, &dp->cand[best], &v);
	for (i = 0; i < v.nr_reasons; i++)
		sr_verdict_push(out, v.reasons[i]);
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
	.choose		= example_choose,
};

SR_POLICY_ENTRY(example_ops);
