// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine-place.c - choice fidelity and ground truth of the placement
 * classes (engine-place.h; docs/replay.md "Placement").
 */
#include <stdio.h>

#include "engine.h"
#include "engine-place.h"

bool engine_place_is_class(int cls)
{
	return cls == SR_DECISION_CLASS_WAKEUP || cls == SR_DECISION_CLASS_FORK ||
	       cls == SR_DECISION_CLASS_EXEC;
}

bool engine_place_listed(const struct engine_result *r)
{
	const struct sr_snapshot *s = &r->d->snap;
	int i;

	if (!engine_place_is_class(s->decision_class) || s->src_cpu != s->dst_cpu || r->disagree)
		return true;
	for (i = 0; i < ENGINE__SIDES; i++)
		if (r->pol[i] && r->v[i].target_cpu != s->dst_cpu)
			return true;
	return false;
}

int engine_place_account(struct engine_place *p, const struct engine_result *r)
{
	const struct decision *d = r->d;
	const struct sr_verdict *kv = &r->v[ENGINE_KERNEL];
	int cls = d->snap.decision_class;
	struct engine_place_class *c;
	bool picked;

	if (!engine_place_listed(r))
		p->unlisted++;
	if (!engine_place_is_class(cls) || !r->pol[ENGINE_KERNEL])
		return 0;
	c = &p->cls[cls];
	c->policy = replay_policy_ops(r->pol[ENGINE_KERNEL])->name;
	c->decisions++;
	picked = kv->verdict != SR_VERDICT_UNKNOWN && kv->target_cpu >= 0;
	if (kv->verdict == SR_VERDICT_UNKNOWN)
		c->unknown++;
	else if (picked && kv->target_cpu == d->snap.dst_cpu)
		c->same++;
	else if (picked && kv->nr_reasons) {
		const struct sr_policy_ops *ops = replay_policy_ops(r->pol[ENGINE_KERNEL]);

		if (!p->miss_key[0] || p->miss_cls != cls || p->miss_ops != ops ||
		    p->miss_reason != kv->reasons[0]) {
			snprintf(p->miss_key, sizeof(p->miss_key), "%s %s", replay_class_name(cls),
				 replay_reason_name(ops, kv->reasons[0]));
			p->miss_cls = cls;
			p->miss_ops = ops;
			p->miss_reason = kv->reasons[0];
		}
		if (strcount_add(&p->miss_by, p->miss_key, 1) < 0)
			return -1;
	}
	if (d->has_place_truth) {
		c->truth++;
		if (d->place_truth_cpu == d->snap.dst_cpu)
			c->truth_trace_agrees++;
		if (picked) {
			c->truth_judged++;
			if (kv->target_cpu == d->place_truth_cpu)
				c->truth_agrees++;
		}
	}
	return 0;
}
