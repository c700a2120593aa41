// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report-replay.c - the replay report as JSON data (its text form:
 * report-replay-text.c).
 * Schema: docs/json-schema.md.  Numbers are integers (counts, ns); keys
 * are sorted by the writer, so goldens are byte-stable.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report-replay.h"
#include "report-choice.h"
#include "report-place.h"

static json_t *jint(int64_t v)
{
	return json_integer((json_int_t)v);
}

const struct report_flag_name report_verdict_flags[] = {
	{ SR_VF_FAILED_DEPENDENT,	"failed-dependent" },
	{ SR_VF_FORCED,			"forced" },
	{ SR_VF_ASSUMED_NOT_BUDDY,	"assumed-not-buddy" },
	{ SR_VF_ASSUMED_NOT_SMT,	"assumed-not-smt" },
	{ 0, NULL },
};

const struct report_flag_name report_decision_flags[] = {
	{ DECISION_F_LOST,		"lost-events-window" },
	{ DECISION_F_STATE_GUESS,	"task-state-unknown" },
	{ DECISION_F_UNSEEN,		"cpu-unseen" },
	{ 0, NULL },
};

static json_t *verdict_json(const struct engine_result *r, int side)
{
	const struct replay_policy *pol = r->pol[side];
	const struct sr_verdict *v = &r->v[side];
	const struct report_flag_name *f;
	const struct sr_policy_ops *ops;
	json_t *o, *reasons, *flags;
	uint32_t i;

	if (!pol)
		return json_null();
	ops = replay_policy_ops(pol);
	o = json_object();
	reasons = json_array();
	flags = json_array();
	for (i = 0; i < v->nr_reasons && i < SR_MAX_REASONS; i++)
		json_array_append_new(reasons, json_string(replay_reason_name(ops, v->reasons[i])));
	for (f = report_verdict_flags; f->name; f++)
		if (v->flags & f->bit)
			json_array_append_new(flags, json_string(f->name));
	json_object_set_new(o, "policy", json_string(ops->name));
	json_object_set_new(o, "verdict", json_string(replay_verdict_name(v->verdict)));
	json_object_set_new(o, "reasons", reasons);
	json_object_set_new(o, "flags", flags);
	if (v->target_node >= 0)
		json_object_set_new(o, "target_node", jint(v->target_node));
	if (v->target_cpu >= 0)
		json_object_set_new(o, "target_cpu", jint(v->target_cpu));
	json_object_set_new(o, "choice", report_choice_json(r, side));
	return o;
}

json_t *report_decision_json(const struct engine_result *r)
{
	const struct decision *d = r->d;
	const struct sr_snapshot *s = &d->snap;
	json_t *o = json_object(), *flags = json_array(), *cand;
	const struct report_flag_name *f;

	if (!o || !flags) {
		json_decref(o);
		json_decref(flags);
		return NULL;
	}
	json_object_set_new(o, "seq", jint((int64_t)d->seq));
	json_object_set_new(o, "ts_ns", jint((int64_t)s->ts_ns));
	json_object_set_new(o, "class", json_string(replay_class_name(s->decision_class)));
	json_object_set_new(o, "evidence", json_string(decision_why_name(d->why)));
	json_object_set_new(o, "tid", jint(s->tid));
	json_object_set_new(o, "tgid", s->known & SR_SNAP_TGID ? jint(s->tgid) : json_null());
	json_object_set_new(o, "comm", s->known & SR_SNAP_COMM ?
			    report_json_str(s->comm, strnlen(s->comm, sizeof(s->comm))) : json_null());
	json_object_set_new(o, "src_cpu", jint(s->src_cpu));
	json_object_set_new(o, "dst_cpu", jint(s->dst_cpu));
	json_object_set_new(o, "src_node", s->known & SR_SNAP_SRC_NODE ? jint(s->src_node) : json_null());
	json_object_set_new(o, "dst_node", s->known & SR_SNAP_DST_NODE ? jint(s->dst_node) : json_null());
	if (d->partner_tid)
		json_object_set_new(o, "partner_tid", jint(d->partner_tid));
	json_object_set_new(o, "old", verdict_json(r, ENGINE_OLD));
	json_object_set_new(o, "new", verdict_json(r, ENGINE_NEW));
	json_object_set_new(o, "kernel", verdict_json(r, ENGINE_KERNEL));
	cand = report_candidates_json(d);
	if (cand)
		json_object_set_new(o, "candidates", cand);
	json_object_set_new(o, "verdicts_differ", json_boolean(r->verdicts_differ));
	/* what the kernel itself answered, when a decision probe saw it */
	if (d->has_truth)
		json_object_set_new(o, "kernel_verdict", json_string(d->truth ? "allowed" : "refused"));
	json_object_set_new(o, "disagree", json_boolean(r->disagree));
	json_object_set_new(o, "unknown", json_boolean(r->unknown));
	json_object_set_new(o, "balance_failed_dependent", json_boolean(r->flips));
	for (f = report_decision_flags; f->name; f++)
		if (d->flags & f->bit)
			json_array_append_new(flags, json_string(f->name));
	json_object_set_new(o, "flags", flags);
	return o;
}

json_t *report_policy_json(const struct replay_policy *pol)
{
	const struct sr_policy_ops *ops = replay_policy_ops(pol);
	const struct sr_param_values *vals = replay_policy_values(pol);
	json_t *o = json_object(), *params = json_object(), *classes = json_array();
	json_t *sources = json_object();
	int i, n = replay_param_count(ops);

	for (i = 0; i < SR_DECISION_CLASS__COUNT; i++)
		if (ops->classes & SR_CLASS_BIT(i))
			json_array_append_new(classes, json_string(replay_class_name(i)));
	for (i = 0; i < n && i < (int)vals->nr; i++) {
		const struct sr_param_desc *p = &ops->params[i];

		const char *src = replay_policy_param_source(pol, i);

		if (p->type == SR_PARAM_BOOL)
			json_object_set_new(params, p->name, json_boolean(vals->v[i]));
		else
			json_object_set_new(params, p->name, jint(vals->v[i]));
		json_object_set_new(sources, p->name, json_string(src ? src : "default"));
	}
	json_object_set_new(o, "name", json_string(ops->name));
	json_object_set_new(o, "provenance", report_json_str(ops->provenance ? ops->provenance : "",
							     ops->provenance ? strlen(ops->provenance) : 0));
	json_object_set_new(o, "classes", classes);
	json_object_set_new(o, "params", params);
	json_object_set_new(o, "param_sources", sources);
	return o;
}

static json_t *side_json(const struct engine *e, enum engine_side side)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < engine_nr_policies(e, side); i++)
		json_array_append_new(a, report_policy_json(engine_policy_at(e, side, i)));
	return a;
}

/* counts by key, most first */
static json_t *counts_json(const struct strcount *sc)
{
	json_t *o = json_object();
	struct strcount_entry *pe;
	size_t n, i;

	pe = strcount_sorted(sc, &n);
	for (i = 0; i < n; i++)
		json_object_set_new(o, pe[i].key, jint((int64_t)pe[i].count));
	free(pe);
	return o;
}

bool report_replay_has_probes(const struct decision_stats *ds)
{
	return ds->probe_candidates || ds->probe_placements || ds->probe_numa_windows ||
	       ds->probe_numa_claim_windows || ds->probe_unusable ||
	       ds->probe_unpaired_entries || ds->probe_returns_without_entry ||
	       ds->probe_paired_migrations;
}

/*
 * summary.ground_truth: the kernel model against the kernel's verdicts
 * (docs/json-schema.md); only for a trace with decision probes.
 */
static json_t *ground_truth_json(const struct report_replay_in *in)
{
	const struct engine_truth *t = engine_truth(in->engine);
	const struct decision_stats *ds = in->dstats;
	json_t *gt = json_object(), *lb = json_object(), *pl = json_object();
	json_t *pr = json_object(), *nw = json_object();

	json_object_set_new(lb, "policy", t->policy ? json_string(t->policy) : json_null());
	json_object_set_new(lb, "candidates", jint((int64_t)t->candidates));
	json_object_set_new(lb, "kernel_allowed", jint((int64_t)t->kernel_allowed));
	json_object_set_new(lb, "kernel_refused", jint((int64_t)t->kernel_refused));
	json_object_set_new(lb, "judged", jint((int64_t)t->judged));
	json_object_set_new(lb, "model_agrees", t->policy ? jint((int64_t)t->model_agrees) :
							    json_null());
	json_object_set_new(lb, "disagreements", counts_json(&t->disagree_by));
	json_object_set_new(lb, "unknown", counts_json(&t->unknown_by));
	json_object_set_new(lb, "moved", jint((int64_t)ds->probe_paired_migrations));
	json_object_set_new(gt, "lb", lb);

	json_decref(pl);
	json_object_set_new(gt, "placement", report_place_ground_truth(in->engine, ds));

	json_object_set_new(pr, "unpaired_entries", jint((int64_t)ds->probe_unpaired_entries));
	json_object_set_new(pr, "returns_without_entry",
			    jint((int64_t)ds->probe_returns_without_entry));
	json_object_set_new(pr, "unusable", jint((int64_t)ds->probe_unusable));
	json_object_set_new(gt, "probes", pr);

	/* task_numa_migrate() windows: the numa_migrate_on claims they covered */
	json_object_set_new(nw, "windows", jint((int64_t)ds->probe_numa_windows));
	json_object_set_new(nw, "window_ns_mean", ds->probe_numa_windows ?
			    jint((int64_t)(ds->probe_numa_window_ns / ds->probe_numa_windows)) :
			    json_null());
	json_object_set_new(nw, "window_ns_max", jint((int64_t)ds->probe_numa_window_max_ns));
	json_object_set_new(nw, "decisions", jint((int64_t)ds->probe_numa_claim_windows));
	json_object_set_new(nw, "claimed", jint((int64_t)ds->probe_numa_claimed));
	json_object_set_new(gt, "numa_claims", nw);
	return gt;
}

static json_t *summary_json(const struct report_replay_in *in)
{
	const struct engine *e = in->engine;
	json_t *sum = json_object(), *by_class = json_object(), *detail = json_object();
	json_t *fidelity = json_object(), *pairs = json_object(), *missing = json_object();
	json_t *tasks = json_array(), *evidence = json_object(), *choice_fid = json_object();
	uint64_t tot = 0, dis = 0, unk = 0, flips = 0, lost = 0, vdis = 0;
	struct strcount_entry *pe;
	struct engine_task *top;
	size_t n, i;
	int c;

	for (c = 0; c < SR_DECISION_CLASS__COUNT; c++) {
		const struct engine_class_stats *cs = engine_class(e, c);
		const struct replay_policy *kp = engine_policy(e, ENGINE_KERNEL, c);
		const char *name = replay_class_name(c);
		json_t *cd = json_object();

		json_object_set_new(by_class, name, jint((int64_t)cs->decisions));
		json_object_set_new(cd, "decisions", jint((int64_t)cs->decisions));
		json_object_set_new(cd, "decided", jint((int64_t)cs->decided));
		json_object_set_new(cd, "disagreements", jint((int64_t)cs->disagreements));
		json_object_set_new(cd, "verdict_disagreements",
				    jint((int64_t)cs->verdict_disagreements));
		json_object_set_new(cd, "unknown", jint((int64_t)cs->unknown));
		json_object_set_new(cd, "balance_failed_dependent", jint((int64_t)cs->flips));
		json_object_set_new(cd, "old_allow", jint((int64_t)cs->old_allow));
		json_object_set_new(cd, "new_allow", jint((int64_t)cs->new_allow));
		json_object_set_new(cd, "lost_window", jint((int64_t)cs->lost));
		json_object_set_new(detail, name, cd);
		if (kp && cs->decisions) {
			json_t *f = json_object();

			json_object_set_new(f, "policy", json_string(replay_policy_ops(kp)->name));
			json_object_set_new(f, "decisions", jint((int64_t)cs->decisions));
			json_object_set_new(f, "judged", jint((int64_t)cs->kernel_judged));
			json_object_set_new(f, "reproduced", jint((int64_t)cs->reproduced));
			json_object_set_new(f, "forced", jint((int64_t)cs->kernel_forced));
			json_object_set_new(fidelity, name, f);
		}
		tot += cs->decisions;
		dis += cs->disagreements;
		vdis += cs->verdict_disagreements;
		unk += cs->unknown;
		flips += cs->flips;
		lost += cs->lost;
	}
	pe = strcount_sorted(engine_reason_pairs(e), &n);
	if (!pe && n) {
		report_json_fail();	/* the reason pairs would be missing */
		n = 0;
	}
	for (i = 0; i < n; i++)
		json_object_set_new(pairs, pe[i].key, jint((int64_t)pe[i].count));
	free(pe);
	for (c = 0; c < SR_SNAP_BIT__COUNT; c++)
		if (engine_missing(e, c))
			json_object_set_new(missing, replay_snap_field_name(c),
					    jint((int64_t)engine_missing(e, c)));
	n = in->top_tasks;
	top = engine_top_tasks(e, &n);
	for (i = 0; i < n; i++) {
		json_t *t = json_object();

		json_object_set_new(t, "tid", jint(top[i].tid));
		json_object_set_new(t, "comm", report_json_str(top[i].comm,
							       strnlen(top[i].comm, sizeof(top[i].comm))));
		json_object_set_new(t, "decisions", jint((int64_t)top[i].decisions));
		json_object_set_new(t, "disagreements", jint((int64_t)top[i].disagreements));
		json_array_append_new(tasks, t);
	}
	free(top);
	for (c = 0; c < DECISION_WHY__COUNT; c++)
		if (in->dstats->by_why[c])
			json_object_set_new(evidence, decision_why_name(c),
					    jint((int64_t)in->dstats->by_why[c]));

	json_object_set_new(sum, "decisions", jint((int64_t)tot));
	/* placements kept where every side put the task: counted, not listed */
	json_object_set_new(sum, "unlisted", jint((int64_t)engine_place(e)->unlisted));
	json_object_set_new(sum, "by_class", by_class);
	json_object_set_new(sum, "classes", detail);
	json_object_set_new(sum, "evidence", evidence);
	json_object_set_new(sum, "disagreements", jint((int64_t)dis));
	json_object_set_new(sum, "unknown", jint((int64_t)unk));
	json_object_set_new(sum, "balance_failed_dependent", jint((int64_t)flips));
	json_object_set_new(sum, "lost_window", jint((int64_t)lost));
	json_object_set_new(sum, "cpu_unseen", jint((int64_t)in->dstats->unseen_flagged));
	json_object_set_new(sum, "waker_inferred", jint((int64_t)engine_waker_inferred(e)));
	json_object_set_new(sum, "reason_pairs", pairs);
	json_object_set_new(sum, "unknown_inputs", missing);
	json_object_set_new(sum, "top_tasks", tasks);
	json_object_set_new(sum, "fidelity", fidelity);
	report_choice_fidelity_lb(choice_fid, e);
	report_place_choice_fidelity(choice_fid, e);
	json_object_set_new(sum, "choice_fidelity", choice_fid);
	json_object_set_new(sum, "candidates", report_candidates_summary(in->dstats));
	json_object_set_new(sum, "verdict_disagreements", jint((int64_t)vdis));
	if (report_replay_has_probes(in->dstats))
		json_object_set_new(sum, "ground_truth", ground_truth_json(in));
	{
		json_t *kt = json_object();

		for (c = 1; c < MODEL_KTHREAD__COUNT; c++)
			if (in->dstats->kthread_by[c])
				json_object_set_new(kt, model_kthread_evidence_name(c),
						    jint((int64_t)in->dstats->kthread_by[c]));
		json_object_set_new(sum, "kernel_threads", kt);
	}
	if (in->schedstat) {
		const struct session_schedstat *k = in->schedstat;
		const struct engine_class_stats *pull = engine_class(e, SR_DECISION_CLASS_LB_PULL);
		const struct engine_class_stats *act = engine_class(e, SR_DECISION_CLASS_LB_ACTIVE);
		const struct engine_class_stats *wk = engine_class(e, SR_DECISION_CLASS_WAKEUP);
		json_t *kc = json_object(), *row;

		row = json_object();
		json_object_set_new(row, "kernel_field", json_string("lb_gained (all idle types, all levels)"));
		json_object_set_new(row, "kernel", jint(k->lb_gained));
		json_object_set_new(row, "replay", jint((int64_t)pull->decisions));
		json_object_set_new(kc, "lb-pull", row);
		row = json_object();
		json_object_set_new(row, "kernel_field", json_string("alb_pushed"));
		json_object_set_new(row, "kernel", jint(k->alb_pushed));
		json_object_set_new(row, "replay", jint((int64_t)act->decisions));
		json_object_set_new(kc, "lb-active", row);
		row = json_object();
		json_object_set_new(row, "kernel_field", json_string("ttwu_move_affine + ttwu_move_balance"));
		json_object_set_new(row, "kernel", jint(k->ttwu_move_affine + k->ttwu_move_balance));
		/* the kernel counts the wake-ups that moved the task; the replay's stays are not */
		json_object_set_new(row, "replay", jint((int64_t)wk->moved));
		json_object_set_new(kc, "wakeup", row);
		row = json_object();
		json_object_set_new(row, "kernel_field", json_string("lb_hot_gained (all idle types, all levels)"));
		json_object_set_new(row, "kernel", jint(k->lb_hot_gained));
		json_object_set_new(row, "replay", jint((int64_t)(pull->kernel_forced + act->kernel_forced)));
		json_object_set_new(kc, "forced", row);
		json_object_set_new(sum, "kernel_counters", kc);
	}
	if (in->task_counters) {
		const struct report_task_counters *t = in->task_counters;
		json_t *tc = json_object(), *k = json_object(), *r = json_object();

		json_object_set_new(k, "nr_migrations", jint(t->kernel_nr_migrations));
		json_object_set_new(k, "forced", jint(t->kernel_forced));
		json_object_set_new(k, "failed_hot", jint(t->kernel_failed_hot));
		json_object_set_new(r, "migrations", jint((int64_t)t->trace_migrations));
		json_object_set_new(r, "forced", jint((int64_t)t->replay_forced));
		json_object_set_new(r, "resisted_hot", jint((int64_t)t->replay_resisted_hot));
		json_object_set_new(tc, "tasks", jint((int64_t)t->tasks));
		json_object_set_new(tc, "kernel", k);
		json_object_set_new(tc, "replay", r);
		json_object_set_new(sum, "task_counters", tc);
	}
	if (in->cost)
		json_object_set_new(sum, "cost", report_cost_json(in->cost));
	return sum;
}

json_t *report_replay_build(const struct report_replay_in *in)
{
	const struct ingest_info *info = in->info;
	json_t *doc = json_object(), *trace = json_object(), *pol = json_object();
	int64_t lost = 0;
	int c;

	for (c = 0; c < info->nr_cpus; c++)
		lost += info->lost_per_cpu ? info->lost_per_cpu[c] : 0;
	json_object_set_new(trace, "path", report_json_str(in->trace, strlen(in->trace)));
	json_object_set_new(trace, "format", json_string(ingest_format_name(info->format)));
	json_object_set_new(trace, "cpus", jint(in->topo->nr_cpus > info->nr_cpus ?
						in->topo->nr_cpus : info->nr_cpus));
	json_object_set_new(trace, "nodes", jint(in->topo->nr_nodes));
	json_object_set_new(trace, "duration_ns", jint((int64_t)(info->last_ts_ns - info->first_ts_ns)));
	json_object_set_new(trace, "events", jint((int64_t)info->nr_events));
	json_object_set_new(trace, "lost_events", jint(lost));
	json_object_set_new(trace, "kernel_release", in->kernel_release[0] ?
			    report_json_str(in->kernel_release, strlen(in->kernel_release)) :
			    json_null());
	json_object_set_new(trace, "damage_warnings", jint((int64_t)in->warnings));

	json_object_set_new(pol, "old", side_json(in->engine, ENGINE_OLD));
	json_object_set_new(pol, "new", side_json(in->engine, ENGINE_NEW));
	json_object_set_new(pol, "kernel", side_json(in->engine, ENGINE_KERNEL));

	json_object_set_new(doc, "schema_version", jint(REPORT_REPLAY_SCHEMA));
	json_object_set_new(doc, "trace", trace);
	json_object_set_new(doc, "topology", report_topology(in->topo));
	json_object_set_new(doc, "policies", pol);
	json_object_set_new(doc, "assumptions", json_string(
		"nr_balance_failed is a parameter (default 0: no failed balance attempts); "
		"cfs buddies, SMT siblings and PELT loads are not traced and taken as absent; "
		"the numa_migrate_on claim lasts from sched_move_numa/sched_swap_numa to its migration; "
		REPORT_COST_ASSUMPTIONS));
	json_object_set_new(doc, "summary", summary_json(in));
	return doc;
}

static const char *gs(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

const char *report_replay_no_fidelity(const json_t *doc)
{
	const char *rel = gs(json_object_get(doc, "trace"), "kernel_release");
	int major, minor;

	if (!json_is_string(json_object_get(json_object_get(doc, "trace"), "kernel_release")))
		return "the kernel release is unknown (use --kernel-policy)";
	/* every release a built-in models has a lb model: none chosen is --kernel-policy none */
	if (sscanf(rel, "%d.%d", &major, &minor) == 2)
		return "the model of the recording kernel was turned off (--kernel-policy none)";
	return "no built-in policy models this kernel release (use --kernel-policy)";
}
