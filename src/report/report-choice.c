// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report-choice.c - the choices in the replay report: docs/json-schema.md,
 * "Choices" (schema 2).
 */
#include <string.h>

#include "report.h"
#include "report-choice.h"

static json_t *jint(int64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *jid(int v)
{
	return v >= 0 ? jint(v) : json_null();
}

json_t *report_choice_json(const struct engine_result *r, int side)
{
	const struct decision_choice *c = &r->choice[side];
	const struct sr_verdict *cv = &r->cv[side];
	json_t *o, *reasons;
	uint32_t i;

	switch (c->kind) {
	case DECISION_CHOICE_NONE:
		return json_null();
	case DECISION_CHOICE_TASK:
		o = json_object();
		json_object_set_new(o, "tid", jint(c->tid));
		json_object_set_new(o, "comm", c->comm[0] ?
				    report_json_str(c->comm, strnlen(c->comm, sizeof(c->comm))) :
				    json_null());
		json_object_set_new(o, "candidate", jid(c->pos));
		if (decision_is_lb(r->d->snap.decision_class) && r->pol[side]) {
			reasons = json_array();
			for (i = 0; i < cv->nr_reasons && i < SR_MAX_REASONS; i++)
				json_array_append_new(reasons, json_string(
					replay_reason_name(replay_policy_ops(r->pol[side]),
							   cv->reasons[i])));
			json_object_set_new(o, "reasons", reasons);
		}
		return o;
	case DECISION_CHOICE_PLACE:
		o = json_object();
		json_object_set_new(o, "cpu", jid(c->cpu));
		json_object_set_new(o, "node", jid(c->node));
		return o;
	default:
		o = json_object();
		json_object_set_new(o, "unknown", json_true());
		return o;
	}
}

json_t *report_candidates_json(const struct decision *d)
{
	json_t *o;

	if (!decision_is_lb(d->snap.decision_class))
		return NULL;
	o = json_object();
	json_object_set_new(o, "order", json_string(
		(d->dp_flags & SR_DP_PROBE_ORDER) ? "kernel" :
		(d->dp_flags & SR_DP_RECONSTRUCTED) ? "reconstructed" : "none"));
	json_object_set_new(o, "count", jint(d->nr_cand));
	json_object_set_new(o, "pull", jint(d->nr_pull));
	json_object_set_new(o, "pulled_added", json_boolean(d->dp_flags & SR_DP_PULLED_ADDED));
	json_object_set_new(o, "truncated", json_boolean(d->dp_flags & SR_DP_TRUNCATED));
	return o;
}

void report_choice_fidelity_lb(json_t *fid, const struct engine *e)
{
	static const int lb[] = { SR_DECISION_CLASS_LB_PULL, SR_DECISION_CLASS_LB_ACTIVE };
	size_t i;

	for (i = 0; i < sizeof(lb) / sizeof(lb[0]); i++) {
		const struct engine_class_stats *cs = engine_class(e, lb[i]);
		const struct replay_policy *kp = engine_policy(e, ENGINE_KERNEL, lb[i]);
		json_t *f;

		if (!kp || !cs->decisions)
			continue;
		f = json_object();
		json_object_set_new(f, "policy", json_string(replay_policy_ops(kp)->name));
		json_object_set_new(f, "decisions", jint((int64_t)cs->choice_decisions));
		json_object_set_new(f, "same", jint((int64_t)cs->choice_same));
		json_object_set_new(f, "unknown", jint((int64_t)cs->choice_unknown));
		json_object_set_new(fid, replay_class_name(lb[i]), f);
	}
}

json_t *report_candidates_summary(const struct decision_stats *ds)
{
	json_t *o = json_object();

	json_object_set_new(o, "points", jint((int64_t)ds->lb_points));
	json_object_set_new(o, "kernel_order", jint((int64_t)ds->lb_probe_order));
	json_object_set_new(o, "reconstructed", jint((int64_t)ds->lb_reconstructed));
	json_object_set_new(o, "pulled_added", jint((int64_t)ds->lb_pulled_added));
	json_object_set_new(o, "truncated", jint((int64_t)ds->lb_truncated));
	json_object_set_new(o, "later_pulls", jint((int64_t)ds->lb_multi_pull));
	json_object_set_new(o, "candidates", jint((int64_t)ds->lb_candidates));
	return o;
}
