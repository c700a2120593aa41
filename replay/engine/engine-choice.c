// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine-choice.c - what each side chooses at a decision point, from the
 * verdicts its policy returned (docs/replay.md, "Choices").
 */
#include <string.h>

#include "engine.h"

static bool numa_class(int cls)
{
	return cls == SR_DECISION_CLASS_NUMA_MOVE || cls == SR_DECISION_CLASS_NUMA_SWAP ||
	       cls == SR_DECISION_CLASS_NUMA_STICK;
}

void engine_choice_of(const struct decision *d, const struct sr_verdict *v,
		      const struct sr_verdict *cv, struct decision_choice *c)
{
	const struct sr_snapshot *s = &d->snap;
	int i;

	memset(c, 0, sizeof(*c));
	c->kind = DECISION_CHOICE_UNKNOWN;
	c->pos = -1;
	c->cpu = c->node = -1;
	if (cv) {
		if (cv->target_tid == SR_CHOICE_NONE) {
			c->kind = DECISION_CHOICE_NONE;
		} else if (cv->target_tid > 0) {
			c->kind = DECISION_CHOICE_TASK;
			c->tid = cv->target_tid;
			c->cpu = s->dst_cpu;
			c->node = (s->known & SR_SNAP_DST_NODE) ? s->dst_node : -1;
			for (i = 0; i < d->nr_cand && d->cand; i++)
				if (d->cand[i].tid == c->tid && c->pos < 0) {
					c->pos = i;
					if (d->cand[i].known & SR_SNAP_COMM)
						memcpy(c->comm, d->cand[i].comm, sizeof(c->comm));
				}
		}
		return;
	}
	if (decision_is_lb(s->decision_class)) {
		/* no candidates listed: only the kernel's own pull can be said */
		if (v->verdict == SR_VERDICT_ALLOW) {
			c->kind = DECISION_CHOICE_TASK;
			c->tid = s->tid;
			c->cpu = s->dst_cpu;
			c->node = (s->known & SR_SNAP_DST_NODE) ? s->dst_node : -1;
			if (s->known & SR_SNAP_COMM)
				memcpy(c->comm, s->comm, sizeof(c->comm));
		}
		return;
	}
	if (v->verdict != SR_VERDICT_ALLOW && v->verdict != SR_VERDICT_RESIST)
		return;
	if (v->target_cpu >= 0 || v->target_node >= 0) {
		c->kind = DECISION_CHOICE_PLACE;
		c->cpu = v->target_cpu;
		c->node = v->target_node;
		return;
	}
	if (v->verdict == SR_VERDICT_ALLOW && s->dst_cpu >= 0) {
		/* the kernel's own move */
		c->kind = DECISION_CHOICE_PLACE;
		c->cpu = s->dst_cpu;
		c->node = (s->known & SR_SNAP_DST_NODE) ? s->dst_node : -1;
	} else if (v->verdict == SR_VERDICT_RESIST && numa_class(s->decision_class)) {
		c->kind = DECISION_CHOICE_NONE;	/* the task stays */
	}
}
