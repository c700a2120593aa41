// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report-place.c - the placement classes in the replay report:
 * summary.choice_fidelity's wakeup / fork / exec entries and
 * summary.ground_truth.placement (docs/json-schema.md).
 */
#include "report.h"
#include "report-place.h"

static json_t *jint(int64_t v)
{
	return json_integer((json_int_t)v);
}

void report_place_choice_fidelity(json_t *cf, const struct engine *e)
{
	const struct engine_place *p = engine_place(e);
	int c;

	for (c = 0; c < SR_DECISION_CLASS__COUNT; c++) {
		const struct engine_place_class *pc = &p->cls[c];
		json_t *o;

		if (!engine_place_is_class(c) || !pc->decisions)
			continue;
		o = json_object();
		json_object_set_new(o, "policy", json_string(pc->policy));
		json_object_set_new(o, "decisions", jint((int64_t)pc->decisions));
		json_object_set_new(o, "same", jint((int64_t)pc->same));
		json_object_set_new(o, "unknown", jint((int64_t)pc->unknown));
		json_object_set_new(cf, replay_class_name(c), o);
	}
}

json_t *report_place_ground_truth(const struct engine *e, const struct decision_stats *ds)
{
	const struct engine_place *p = engine_place(e);
	json_t *pl = json_object(), *by = json_object(), *miss = json_object();
	uint64_t truth = 0, judged = 0, agrees = 0;
	const char *policy = NULL;
	struct strcount_entry *pe;
	size_t n, i;
	int c;

	for (c = 0; c < SR_DECISION_CLASS__COUNT; c++) {
		const struct engine_place_class *pc = &p->cls[c];
		json_t *o;

		if (!engine_place_is_class(c) || !pc->truth)
			continue;
		o = json_object();
		json_object_set_new(o, "policy", json_string(pc->policy));
		json_object_set_new(o, "candidates", jint((int64_t)pc->truth));
		json_object_set_new(o, "judged", jint((int64_t)pc->truth_judged));
		json_object_set_new(o, "model_agrees", jint((int64_t)pc->truth_agrees));
		json_object_set_new(o, "trace_agrees", jint((int64_t)pc->truth_trace_agrees));
		json_object_set_new(by, replay_class_name(c), o);
		truth += pc->truth;
		judged += pc->truth_judged;
		agrees += pc->truth_agrees;
		if (c == SR_DECISION_CLASS_WAKEUP || !policy)
			policy = pc->policy;
	}
	pe = strcount_sorted(&p->miss_by, &n);
	for (i = 0; i < n; i++)
		json_object_set_new(miss, pe[i].key, jint((int64_t)pe[i].count));
	free(pe);
	json_object_set_new(pl, "policy", policy ? json_string(policy) : json_null());
	json_object_set_new(pl, "candidates", jint((int64_t)ds->probe_placements));
	json_object_set_new(pl, "matched", jint((int64_t)truth));
	json_object_set_new(pl, "judged", jint((int64_t)judged));
	json_object_set_new(pl, "model_agrees", policy ? jint((int64_t)agrees) : json_null());
	json_object_set_new(pl, "by_class", by);
	json_object_set_new(pl, "misses", miss);
	return pl;
}

bool report_place_listed(const struct engine_result *r)
{
	return engine_place_listed(r);
}
