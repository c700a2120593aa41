// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report-cost.c - the cost model's JSON and text: per decision, the cost
 * under old, new and what the kernel did, and their difference; in the
 * summary, totals per side, per class and per task, node x node matrices,
 * the calibration against /proc/vmstat and the fault model's counters.
 * Costs are reals rounded to 1/1000 of a fault (they are expectations).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report-cost.h"
#include "replay/replay.h"
#include "util/escape.h"

static const char *const side_names[COST__SIDES] = { "old", "new", "trace" };

static json_t *jint(int64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *jreal(double v)
{
	if (!isfinite(v))
		return json_null();
	return json_real(round(v * 1000.0) / 1000.0);
}

static json_t *value_json(const struct cost_value *v, int node, bool with_node)
{
	json_t *o;

	if (!v->known)
		return json_null();
	o = json_object();
	if (with_node)
		json_object_set_new(o, "node", jint(node));
	json_object_set_new(o, "accesses", jreal(v->accesses));
	json_object_set_new(o, "remote_accesses", jreal(v->remote));
	json_object_set_new(o, "weighted", jreal(v->weighted));
	return o;
}

static json_t *delta_json(const struct cost_value *old, const struct cost_value *new)
{
	json_t *o;

	if (!old->known || !new->known)
		return json_null();
	o = json_object();
	json_object_set_new(o, "remote_accesses", jreal(new->remote - old->remote));
	json_object_set_new(o, "weighted", jreal(new->weighted - old->weighted));
	return o;
}

/* a task a decision prices: where each side leaves it, what that costs, its interval */
static json_t *part_json(const struct cost_part *p, bool unknown)
{
	json_t *o = json_object();
	int s;

	if (!o)
		return NULL;
	json_object_set_new(o, "tid", jint(p->tid));
	json_object_set_new(o, "from_node", p->from_node >= 0 ? jint(p->from_node) : json_null());
	for (s = 0; s < COST__SIDES; s++)
		json_object_set_new(o, side_names[s], unknown ? json_null() :
				    value_json(&p->v[s], p->node[s], true));
	json_object_set_new(o, "interval_ns", jint((int64_t)(p->end_ns - p->start_ns)));
	json_object_set_new(o, "interval_end", json_string(cost_end_name(p->end)));
	json_object_set_new(o, "unpriced_faults", jreal(p->unpriced));
	if (p->short_history)
		json_object_set_new(o, "short_history", json_true());
	return o;
}

json_t *report_cost_item_json(const struct cost_item *it)
{
	json_t *o = json_object();
	json_t *parts;
	int s, p;

	if (!o)
		return NULL;
	for (s = 0; s < COST__SIDES; s++)
		json_object_set_new(o, side_names[s], value_json(&it->v[s], it->node[s], true));
	json_object_set_new(o, "delta", delta_json(&it->v[COST_OLD], &it->v[COST_NEW]));
	json_object_set_new(o, "interval_ns", jint((int64_t)(it->end_ns - it->start_ns)));
	json_object_set_new(o, "interval_end", json_string(cost_end_name(it->end)));
	json_object_set_new(o, "unpriced_faults", jreal(it->unpriced));
	json_object_set_new(o, "unknown", it->unknown ? json_string(cost_unknown_name(it->unknown)) :
				json_null());
	if (it->nr_parts > 1) {
		/* a side pulled another task: every task priced, the sides' totals their sums */
		parts = json_array();
		for (p = 0; parts && p < it->nr_parts; p++)
			json_array_append_new(parts, part_json(&it->part[p], it->unknown != 0));
		json_object_set_new(o, "parts", parts);
	}
	return o;
}

/*
 * The paired figure: old and new over the decisions both priced, their
 * delta, and how many each side priced alone (left out of it)
 */
static json_t *pair_json(const struct cost_pair *p, uint64_t decisions)
{
	json_t *o = json_object(), *lo = json_object();
	struct cost_value v[2] = { p->v[COST_OLD], p->v[COST_NEW] };

	v[0].known = v[1].known = p->decisions > 0;
	json_object_set_new(o, "decisions", jint((int64_t)p->decisions));
	json_object_set_new(o, "old", value_json(&v[0], 0, false));
	json_object_set_new(o, "new", value_json(&v[1], 0, false));
	json_object_set_new(lo, "old_only", jint((int64_t)p->only[COST_OLD]));
	json_object_set_new(lo, "new_only", jint((int64_t)p->only[COST_NEW]));
	json_object_set_new(lo, "neither", jint((int64_t)(decisions - p->decisions -
							   p->only[COST_OLD] - p->only[COST_NEW])));
	json_object_set_new(o, "left_out", lo);
	if (p->max_delta != 0) {
		json_t *big = json_object();

		json_object_set_new(big, "seq", jint((int64_t)p->max_seq));
		json_object_set_new(big, "weighted", jreal(p->max_delta));
		json_object_set_new(o, "largest", big);
	}
	return o;
}

static json_t *sides_json(const struct cost_value *v, const uint64_t *known, uint64_t decisions,
			  const struct cost_pair *pair)
{
	json_t *o = json_object();
	int s;

	for (s = 0; s < COST__SIDES; s++) {
		json_t *x = value_json(&v[s], 0, false);

		if (json_is_object(x))
			json_object_set_new(x, "decisions_priced", jint((int64_t)known[s]));
		json_object_set_new(o, side_names[s], x);
	}
	if (pair) {
		struct cost_value po = pair->v[COST_OLD], pn = pair->v[COST_NEW];

		po.known = pn.known = pair->decisions > 0;
		json_object_set_new(o, "delta", delta_json(&po, &pn));
		json_object_set_new(o, "paired", pair_json(pair, decisions));
	} else {
		json_object_set_new(o, "delta", delta_json(&v[COST_OLD], &v[COST_NEW]));
	}
	json_object_set_new(o, "decisions", jint((int64_t)decisions));
	return o;
}

static json_t *matrix_json(const double *m, int n)
{
	json_t *rows = json_array();
	int a, b;

	for (a = 0; a < n; a++) {
		json_t *row = json_array();

		for (b = 0; b < n; b++)
			json_array_append_new(row, jreal(m[a * n + b]));
		json_array_append_new(rows, row);
	}
	return rows;
}

static json_t *calibration_json(const struct report_cost_in *in)
{
	const struct cost_calibration *c = &in->totals->cal;
	json_t *o = json_object();
	bool have = c->have_start && c->have_end;
	int64_t vf = c->vm_faults_end - c->vm_faults_start, vl = c->vm_local_end - c->vm_local_start;
	double meas = have && vf > 0 ? (double)vl / (double)vf : NAN;
	double est = c->priced ? c->est_local / (double)c->priced : NAN;

	json_object_set_new(o, "measured_local_share", jreal(meas));
	json_object_set_new(o, "estimated_local_share", jreal(est));
	json_object_set_new(o, "difference", jreal(est - meas));
	json_object_set_new(o, "source", have && in->vmstat_source ?
			    json_string(in->vmstat_source) : json_null());
	json_object_set_new(o, "vmstat_hint_faults", have ? jint(vf) : json_null());
	json_object_set_new(o, "vmstat_hint_faults_local", have ? jint(vl) : json_null());
	json_object_set_new(o, "fault_events", jint((int64_t)c->faults));
	json_object_set_new(o, "fault_events_local", jint((int64_t)c->flag_local));
	json_object_set_new(o, "fault_events_minus_vmstat", have ? jint((int64_t)c->faults - vf) :
			    json_null());
	json_object_set_new(o, "fault_events_local_minus_vmstat",
			    have ? jint((int64_t)c->flag_local - vl) : json_null());
	json_object_set_new(o, "priced_faults", jint((int64_t)c->priced));
	json_object_set_new(o, "migrated_faults_remote", jint((int64_t)c->migrated_remote));
	json_object_set_new(o, "estimated_local_share_after_migration",
			    jreal(c->priced ? c->est_local_post / (double)c->priced : NAN));
	json_object_set_new(o, "counted_local_share",
			    jreal(c->faults ? (double)c->flag_local / (double)c->faults : NAN));
	return o;
}

static json_t *fault_model_json(const struct report_cost_in *in)
{
	const struct model_fault_stats *f = in->fstats;
	const struct cost_totals *t = in->totals;
	json_t *o = json_object(), *by = json_array();
	int n;

	for (n = 0; n < t->nr_nodes && n < SR_MAX_NODES_MODEL; n++)
		json_array_append_new(by, jint((int64_t)f->misplaced_by_node[n]));
	json_object_set_new(o, "scan_period_ns", jint((int64_t)in->scan_period_ns));
	json_object_set_new(o, "faults", jint((int64_t)f->faults));
	json_object_set_new(o, "fault_pages", jint((int64_t)f->fault_pages));
	json_object_set_new(o, "private_faults", jint((int64_t)f->private_faults));
	json_object_set_new(o, "migrated_faults", jint((int64_t)f->flag_migrated));
	json_object_set_new(o, "placements", jint((int64_t)f->placements));
	json_object_set_new(o, "modelled_tasks", jint((int64_t)f->modelled_tasks));
	json_object_set_new(o, "samples_compared", jint((int64_t)f->samples_compared));
	json_object_set_new(o, "sample_pref_mismatch", jint((int64_t)f->pref_mismatch));
	json_object_set_new(o, "sample_gap_faults", jint((int64_t)f->gap_faults));
	json_object_set_new(o, "sample_faults", jint((int64_t)f->sample_faults));
	json_object_set_new(o, "misplaced_pages", jint((int64_t)f->misplaced_pages));
	json_object_set_new(o, "misplaced_pages_by_node", by);
	json_object_set_new(o, "misplaced_pages_unattributed",
			    jint((int64_t)f->misplaced_unattributed));
	json_object_set_new(o, "unpriced_faults", jint((int64_t)t->unpriced_faults));
	json_object_set_new(o, "dropped_intervals", jint((int64_t)t->dropped_intervals));
	json_object_set_new(o, "other_tasks_priced", jint((int64_t)t->parts));
	json_object_set_new(o, "other_tasks_short_history", jint((int64_t)t->parts_short));
	return o;
}

static json_t *range_json(double accesses, double weighted)
{
	json_t *o = json_object();

	json_object_set_new(o, "low", jreal(cost_weighted_low(accesses, weighted)));
	json_object_set_new(o, "high", jreal(weighted));
	return o;
}

/*
 * What priced remote accesses: the measured profile, or the priors with
 * the range they give over the paired totals (old, new, new - old).
 */
static json_t *latency_json(const struct report_cost_in *in)
{
	const struct cost_totals *t = in->totals;
	const struct cost_pair *p = &t->pair;
	json_t *o = json_object(), *ratio = json_array(), *pr, *rg;
	int a, b, n = t->nr_nodes;

	json_object_set_new(o, "source", json_string(t->latency == COST_LATENCY_MEASURED ?
						     "measured" : "prior"));
	for (a = 0; a < n; a++) {
		json_t *row = json_array();

		for (b = 0; b < n; b++)
			json_array_append_new(row, t->ratio[a * n + b] > 0 ?
					      jreal(t->ratio[a * n + b]) : json_null());
		json_array_append_new(ratio, row);
	}
	json_object_set_new(o, "ratio", ratio);
	json_object_set_new(o, "profile", in->latency_origin ? json_string(in->latency_origin) :
			    json_null());
	if (in->latency_origin && t->latency != COST_LATENCY_MEASURED)
		json_object_set_new(o, "profile_missing_pairs", jint(t->latency_missing));
	if (t->latency == COST_LATENCY_MEASURED)
		return o;
	pr = json_object();
	json_object_set_new(pr, "high", json_string("the SLIT distance ratio, dist(c,k) / dist(c,c)"));
	json_object_set_new(pr, "low", json_string("1 + low_excess x (dist(c,k) / dist(c,c) - 1)"));
	json_object_set_new(pr, "low_excess", jreal(COST_PRIOR_LOW_EXCESS));
	json_object_set_new(pr, "from", json_string("SLIT 21 (2.1x) against a measured 1.53x: "
						     "(1.53 - 1) / (2.1 - 1); docs/cost-model.md"));
	json_object_set_new(o, "prior", pr);
	rg = json_object();
	if (p->decisions) {
		json_object_set_new(rg, "old", range_json(p->v[COST_OLD].accesses,
							  p->v[COST_OLD].weighted));
		json_object_set_new(rg, "new", range_json(p->v[COST_NEW].accesses,
							  p->v[COST_NEW].weighted));
		json_object_set_new(rg, "delta", range_json(0, p->v[COST_NEW].weighted -
							    p->v[COST_OLD].weighted));
	}
	json_object_set_new(o, "paired_weighted", rg);
	return o;
}

json_t *report_cost_json(const struct report_cost_in *in)
{
	const struct cost_totals *t = in->totals;
	json_t *o = json_object(), *unk = json_object(), *cls = json_object();
	json_t *mat = json_object(), *tasks = json_array();
	struct cost_task *top;
	size_t n = in->top_tasks, i;
	int c, s;

	if (!o) {
		json_decref(unk);
		json_decref(cls);
		json_decref(mat);
		json_decref(tasks);
		return NULL;
	}
	for (c = 1; c < COST_UNKNOWN__COUNT; c++)
		if (t->unknown[c])
			json_object_set_new(unk, cost_unknown_name(c), jint((int64_t)t->unknown[c]));
	for (c = 0; c < SR_DECISION_CLASS__COUNT; c++)
		if (t->cls[c].decisions)
			json_object_set_new(cls, replay_class_name(c),
					    sides_json(t->cls[c].v, t->cls[c].known, t->cls[c].decisions,
						       &t->cls[c].pair));
	for (s = 0; s < COST__SIDES; s++)
		json_object_set_new(mat, side_names[s], matrix_json(t->matrix[s], t->nr_nodes));
	json_object_set_new(mat, "actual", matrix_json(t->actual, t->nr_nodes));
	json_object_set_new(mat, "rows", json_string("node the task ran on"));
	json_object_set_new(mat, "columns", json_string("memory node"));
	top = cost_ledger_top_tasks(in->ledger, &n);
	for (i = 0; i < n; i++) {
		json_t *x = sides_json(top[i].v, (uint64_t[COST__SIDES]){ 0 }, top[i].decisions, NULL);
		int k;

		for (k = 0; k < COST__SIDES; k++)
			if (json_is_object(json_object_get(x, side_names[k])))
				json_object_del(json_object_get(x, side_names[k]), "decisions_priced");
		json_object_set_new(x, "tid", jint(top[i].tid));
		json_object_set_new(x, "comm", report_json_str(top[i].comm,
							       strnlen(top[i].comm, sizeof(top[i].comm))));
		json_array_append_new(tasks, x);
	}
	free(top);

	json_object_set_new(o, "assumptions", json_string(REPORT_COST_ASSUMPTIONS));
	json_object_set_new(o, "latency_source", json_string(t->latency == COST_LATENCY_MEASURED ?
							     "measured" : "prior"));
	json_object_set_new(o, "latency", latency_json(in));
	json_object_set_new(o, "unit", json_string("NUMA hinting faults (sampled accesses)"));
	json_object_set_new(o, "totals", sides_json(t->side, t->side_known, t->decisions, &t->pair));
	json_object_set_new(o, "unknown", unk);
	json_object_set_new(o, "fill_with", t->unknown[COST_UNKNOWN_NO_FAULTS] ?
			    json_string("per-fault events: a kprobe on task_numa_fault() "
					"(docs/cost-model.md); numa_sample lines give the placement") :
			    t->unknown[COST_UNKNOWN_PLACEMENT] ?
			    json_string("numa_sample lines (the kernel's per-node faults) for the "
					"tasks whose fault history began before the trace") :
			    json_null());
	json_object_set_new(o, "by_class", cls);
	json_object_set_new(o, "top_tasks", tasks);
	json_object_set_new(o, "matrix", mat);
	json_object_set_new(o, "calibration", calibration_json(in));
	json_object_set_new(o, "fault_model", fault_model_json(in));
	return o;
}

/* ---- text ---------------------------------------------------------------- */

static double gr(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void side_line(FILE *out, const char *label, const json_t *v)
{
	if (!json_is_object(v)) {
		fprintf(out, "  %-10s %12s\n", label, "unknown");
		return;
	}
	fprintf(out, "  %-10s %12.1f %12.1f %12.1f", label, gr(v, "accesses"),
		gr(v, "remote_accesses"), gr(v, "weighted"));
	if (json_object_get(v, "decisions_priced"))
		fprintf(out, " %9" PRId64, (int64_t)json_integer_value(
				json_object_get(v, "decisions_priced")));
	fputc('\n', out);
}

static void matrix_text(FILE *out, const char *title, const json_t *m)
{
	size_t a, b, n = json_array_size(m);
	const json_t *row;

	fprintf(out, "  %s:\n  %8s", title, "");
	for (b = 0; b < n; b++)
		fprintf(out, " %10s%zu", "mem", b);
	fputc('\n', out);
	json_array_foreach(m, a, row) {
		fprintf(out, "  %6s%zu", "node", a);
		for (b = 0; b < json_array_size(row); b++)
			fprintf(out, " %11.1f", json_number_value(json_array_get(row, b)));
		fputc('\n', out);
	}
}

/* a number with one decimal (a sign when @sign), or "-" when unknown */
static void num_or_dash(FILE *out, int width, bool sign, double v)
{
	if (isnan(v))
		fprintf(out, " %*s", width - 1, "-");
	else if (sign)
		fprintf(out, "%+*.1f", width, v);
	else
		fprintf(out, "%*.1f", width, v);
}

static void pct_or_unknown(FILE *out, double v)
{
	if (isnan(v))
		fprintf(out, "unknown");
	else
		fprintf(out, "%.1f%%", 100.0 * v);
}

bool report_cost_measured(const json_t *cost)
{
	const char *src = json_string_value(json_object_get(cost, "latency_source"));

	return src && !strcmp(src, "measured");
}

int report_cost_text(FILE *out, const json_t *cost, bool verbose)
{
	const json_t *tot = json_object_get(cost, "totals"), *cal = json_object_get(cost, "calibration");
	const json_t *fm = json_object_get(cost, "fault_model"), *v, *d, *o;
	const char *k;
	size_t i;

	fprintf(out, "\nremote-access cost (unit: hinting faults; weighted: x %s):\n",
		report_cost_measured(cost) ? "measured latency ratio" : "distance / 10");
	fprintf(out, "  %-10s %12s %12s %12s %9s\n", "policy", "accesses", "remote", "weighted",
		"decisions");
	side_line(out, "old", json_object_get(tot, "old"));
	side_line(out, "new", json_object_get(tot, "new"));
	side_line(out, "trace", json_object_get(tot, "trace"));
	d = json_object_get(tot, "delta");
	o = json_object_get(tot, "paired");
	if (json_is_object(d))
		fprintf(out, "  %-10s %12s %+12.1f %+12.1f %9" PRId64 "\n", "new - old", "",
			gr(d, "remote_accesses"), gr(d, "weighted"),
			(int64_t)json_integer_value(json_object_get(o, "decisions")));
	if (json_is_object(o)) {
		const json_t *lo = json_object_get(o, "left_out");

		report_wrapf(out, 3, "  (new - old over the decisions both sides priced; left out: %"
			     PRId64 " priced by old only, %" PRId64 " by new only, the other side's "
			     "verdict giving no node; %" PRId64 " by neither)\n",
			(int64_t)json_integer_value(json_object_get(lo, "old_only")),
			(int64_t)json_integer_value(json_object_get(lo, "new_only")),
			(int64_t)json_integer_value(json_object_get(lo, "neither")));
	}
	if (json_object_size(json_object_get(cost, "unknown"))) {
		fprintf(out, "  unknown costs:");
		json_object_foreach((json_t *)json_object_get(cost, "unknown"), k, v)
			fprintf(out, " %" PRId64 " %s", (int64_t)json_integer_value(v), k);
		fputc('\n', out);
		if (json_is_string(json_object_get(cost, "fill_with")))
			report_wrapf(out, 4, "  would be filled by: %s\n",
				     json_string_value(json_object_get(cost, "fill_with")));
	}
	if (json_object_size(json_object_get(cost, "by_class"))) {
		fprintf(out, "  %-11s %9s %12s %12s %12s\n", "by class", "decisions", "old-weighted",
			"new-weighted", "delta");
		json_object_foreach((json_t *)json_object_get(cost, "by_class"), k, o) {
			/* old and new over the class's decisions both sides priced */
			const json_t *pr = json_object_get(o, "paired");
			const json_t *ov = json_object_get(pr, "old"), *nv = json_object_get(pr, "new");

			/* a row neither side priced says nothing the left-out line does not */
			if (!verbose && !json_is_object(ov) && !json_is_object(nv))
				continue;
			fprintf(out, "  %-11s %9" PRId64, k,
				(int64_t)json_integer_value(json_object_get(o, "decisions")));
			num_or_dash(out, 12, false, gr(ov, "weighted"));
			num_or_dash(out, 12, false, gr(nv, "weighted"));
			num_or_dash(out, 12, true, gr(json_object_get(o, "delta"), "weighted"));
			fputc('\n', out);
		}
	}
	if (json_array_size(json_object_get(cost, "top_tasks"))) {
		char esc[4 * 16 + 1];

		fprintf(out, "  tasks whose decisions cost most (|new - old| weighted):\n");
		json_array_foreach(json_object_get(cost, "top_tasks"), i, o) {
			fputs("    ", out);
			num_or_dash(out, 10, true, gr(json_object_get(o, "delta"), "weighted"));
			fputs("  trace ", out);
			num_or_dash(out, 10, false, gr(json_object_get(o, "trace"), "weighted"));
			fprintf(out, "  %s [%" PRId64 "]\n",
				escape_text_value(esc, sizeof(esc),
					    json_string_value(json_object_get(o, "comm")), SIZE_MAX),
				(int64_t)json_integer_value(json_object_get(o, "tid")));
		}
	}
	fprintf(out, "\nnode x node accesses (row: node the task ran on, column: memory node):\n");
	matrix_text(out, "what the kernel did, every fault", json_object_get(json_object_get(cost, "matrix"), "actual"));
	if (verbose) {
		matrix_text(out, "old policy, decision intervals",
			    json_object_get(json_object_get(cost, "matrix"), "old"));
		matrix_text(out, "new policy, decision intervals",
			    json_object_get(json_object_get(cost, "matrix"), "new"));
	}

	fprintf(out, "\ncalibration (the kernel's own choices through the cost model vs /proc/vmstat):\n");
	fprintf(out, "  measured local share   ");
	pct_or_unknown(out, gr(cal, "measured_local_share"));
	if (json_is_integer(json_object_get(cal, "vmstat_hint_faults")))
		fprintf(out, " (numa_hint_faults_local %" PRId64 " of %" PRId64 ", %s)",
			(int64_t)json_integer_value(json_object_get(cal, "vmstat_hint_faults_local")),
			(int64_t)json_integer_value(json_object_get(cal, "vmstat_hint_faults")),
			json_string_value(json_object_get(cal, "source")));
	fprintf(out, "\n  estimated local share  ");
	pct_or_unknown(out, gr(cal, "estimated_local_share"));
	fprintf(out, " (%" PRId64 " faults priced)\n  difference             ",
		(int64_t)json_integer_value(json_object_get(cal, "priced_faults")));
	if (isnan(gr(cal, "difference")))
		fprintf(out, "unknown\n");
	else
		fprintf(out, "%+.1f percentage points\n", 100.0 * gr(cal, "difference"));
	fprintf(out, "  fault events %" PRId64 ", with TNF_FAULT_LOCAL %" PRId64,
		(int64_t)json_integer_value(json_object_get(cal, "fault_events")),
		(int64_t)json_integer_value(json_object_get(cal, "fault_events_local")));
	if (json_is_integer(json_object_get(cal, "fault_events_minus_vmstat")))
		fprintf(out, " (minus vmstat: %+" PRId64 ", %+" PRId64 ")",
			(int64_t)json_integer_value(json_object_get(cal, "fault_events_minus_vmstat")),
			(int64_t)json_integer_value(json_object_get(cal, "fault_events_local_minus_vmstat")));
	fputc('\n', out);
	report_wrapf(out, 4, "  fault model: %" PRId64 " faults, %" PRId64 " decays (scan period "
		     "%.0f ms), %" PRId64 " tasks modelled; vs %" PRId64 " samples: %" PRId64
		     " preferred-node mismatches, gap %" PRId64 " of %" PRId64 " faults\n",
		(int64_t)json_integer_value(json_object_get(fm, "faults")),
		(int64_t)json_integer_value(json_object_get(fm, "placements")),
		gr(fm, "scan_period_ns") / 1e6,
		(int64_t)json_integer_value(json_object_get(fm, "modelled_tasks")),
		(int64_t)json_integer_value(json_object_get(fm, "samples_compared")),
		(int64_t)json_integer_value(json_object_get(fm, "sample_pref_mismatch")),
		(int64_t)json_integer_value(json_object_get(fm, "sample_gap_faults")),
		(int64_t)json_integer_value(json_object_get(fm, "sample_faults")));
	fprintf(out, "  misplaced pages moved %" PRId64 " (by node:",
		(int64_t)json_integer_value(json_object_get(fm, "misplaced_pages")));
	json_array_foreach(json_object_get(fm, "misplaced_pages_by_node"), i, v)
		fprintf(out, " %" PRId64, (int64_t)json_integer_value(v));
	fprintf(out, "; unattributed %" PRId64 ")\n",
		(int64_t)json_integer_value(json_object_get(fm, "misplaced_pages_unattributed")));
	return 0;
}
