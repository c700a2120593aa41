// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-output.c - comparison results as an aligned text table and as
 * JSON.  The table puts each metric's base and new rows under its name, in
 * the column order of the seeds' tables (N Min Max Avg StdDev CV %Change
 * CI95 p verdict), with the notes below.  CI95 in the table is relative to
 * the base mean (percent); in JSON it is in the metric's own unit.  NAN
 * figures print as "-" and become null in JSON.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare-local.h"

static void put_num(FILE *f, int width, double v)
{
	if (isnan(v))
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, " %*.6g", width, v);
}

static void put_pct(FILE *f, int width, double v, bool sign)
{
	char buf[32];

	if (!isfinite(v))
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), sign ? "%+.2f%%" : "%.2f%%", v);
	fprintf(f, " %*s", width, buf);
}

static void put_side(FILE *f, const char *label, const struct compare_figures *s)
{
	if (isnan(s->n))
		fprintf(f, "  %-4s %5s", label, "-");
	else
		fprintf(f, "  %-4s %5.0f", label, s->n);
	put_num(f, 11, s->min);
	put_num(f, 11, s->max);
	put_num(f, 11, s->mean);
	put_num(f, 11, s->median);
	put_num(f, 11, s->sd);
	put_pct(f, 7, 100 * s->cv, false);
}

static void verdict_words(const struct compare_result *r, const struct compare_opts *o,
			  char *buf, size_t len)
{
	char runs[48] = "";

	if (!isnan(r->runs_needed))
		snprintf(runs, sizeof(runs), "; %.0f runs/side to detect", r->runs_needed);
	switch (r->verdict) {
	case COMPARE_BETTER:
	case COMPARE_WORSE:
		snprintf(buf, len, "%s", compare_verdict_name(r->verdict));
		break;
	case COMPARE_NO_DIFFERENCE:
		snprintf(buf, len, "no difference proven at %g%%%s", 100 * (1 - o->alpha), runs);
		break;
	case COMPARE_INCONCLUSIVE:
		if (!isnan(r->spread_p) && r->spread_p < o->alpha)
			snprintf(buf, len, "spread changed x%.3g - inconclusive%s",
				 r->spread_ratio, runs);
		else if (isnan(r->p))
			snprintf(buf, len, "inconclusive - no spread or too few runs to test");
		else
			snprintf(buf, len, "inconclusive");
		break;
	}
}

int compare_print_table(FILE *f, const struct compare_result *r, size_t n,
			const struct compare_opts *opts)
{
	size_t i;
	size_t j;

	fprintf(f, "alpha %g; %%Change and CI95 (95%% interval) are of the mean, new against base; Median where there are raw runs\n",
		opts->alpha);
	for (i = 0; i < n; i++) {
		char verdict[160];
		char ci[48];
		double base = fabs(r[i].base.mean);

		fprintf(f, "\n%s\n", r[i].name);
		fprintf(f, "  %-4s %5s %11s %11s %11s %11s %11s %7s %8s %19s %8s  %s\n", "", "N",
			"Min", "Max", "Avg", "Median", "StdDev", "CV", "%Change", "CI95", "p",
			"verdict");
		put_side(f, "base", &r[i].base);
		fputc('\n', f);
		put_side(f, "new", &r[i].new);
		put_pct(f, 8, r[i].change_pct, true);
		if (isnan(r[i].ci_lo) || base == 0)
			snprintf(ci, sizeof(ci), "-");
		else
			snprintf(ci, sizeof(ci), "[%+.2f%%, %+.2f%%]", 100 * r[i].ci_lo / base,
				 100 * r[i].ci_hi / base);
		fprintf(f, " %19s", ci);
		if (isnan(r[i].p))
			fprintf(f, " %8s", "-");
		else
			fprintf(f, " %8.3g", r[i].p);
		verdict_words(&r[i], opts, verdict, sizeof(verdict));
		fprintf(f, "  %s\n", verdict);
		fprintf(f, "  - %s is better (%s)\n", r[i].higher_is_better ? "higher" : "lower",
			r[i].dir_why ? r[i].dir_why : "");
		for (j = 0; j < r[i].nnotes; j++)
			fprintf(f, "  - %s\n", r[i].notes[j]);
	}
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *side_json(const struct compare_figures *s)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	if (json_object_set_new(o, "n", isnan(s->n) ? json_null() : json_integer((json_int_t)s->n)) ||
	    json_object_set_new(o, "median", jnum(s->median)) ||
	    json_object_set_new(o, "min", jnum(s->min)) ||
	    json_object_set_new(o, "max", jnum(s->max)) ||
	    json_object_set_new(o, "mean", jnum(s->mean)) ||
	    json_object_set_new(o, "stddev", jnum(s->sd))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *result_json(const struct compare_result *r)
{
	json_t *o = json_object();
	json_t *notes = json_array();
	json_t *ci = json_array();
	size_t i;
	int bad = !o || !notes || !ci;

	for (i = 0; !bad && i < r->nnotes; i++)
		bad = json_array_append_new(notes, json_string(r->notes[i]));
	if (!bad)
		bad = json_array_append_new(ci, jnum(r->ci_lo)) ||
		      json_array_append_new(ci, jnum(r->ci_hi));
	if (bad) {
		json_decref(o);
		json_decref(notes);
		json_decref(ci);
		return NULL;
	}
	/* the containers first: once in @o, one json_decref(o) frees them */
	bad = json_object_set_new(o, "notes", notes);
	notes = NULL;
	bad = json_object_set_new(o, "ci95", ci) || bad;
	bad = bad || json_object_set_new(o, "name", json_string(r->name)) ||
	      json_object_set_new(o, "base", side_json(&r->base)) ||
	      json_object_set_new(o, "new", side_json(&r->new)) ||
	      json_object_set_new(o, "change_pct", jnum(r->change_pct)) ||
	      json_object_set_new(o, "p_value", jnum(r->p)) ||
	      json_object_set_new(o, "p_family", jnum(r->p_family)) ||
	      json_object_set_new(o, "spread_ratio", jnum(r->spread_ratio)) ||
	      json_object_set_new(o, "spread_p_value", jnum(r->spread_p)) ||
	      json_object_set_new(o, "verdict", json_string(compare_verdict_name(r->verdict))) ||
	      json_object_set_new(o, "higher_is_better", json_boolean(r->higher_is_better)) ||
	      json_object_set_new(o, "direction_from", json_string(r->dir_why ? r->dir_why : "")) ||
	      json_object_set_new(o, "base_label", r->base_label ? json_string(r->base_label) : json_null()) ||
	      json_object_set_new(o, "new_label", r->new_label ? json_string(r->new_label) : json_null()) ||
	      json_object_set_new(o, "runs_needed", isnan(r->runs_needed) ? json_null() :
				  json_integer((json_int_t)r->runs_needed));
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *compare_results_json(const struct compare_result *r, size_t n)
{
	json_t *root = json_object();
	json_t *metrics = json_array();
	size_t i;

	if (!root || !metrics || json_object_set_new(root, "metrics", metrics)) {
		json_decref(root);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if (json_array_append_new(metrics, result_json(&r[i]))) {
			json_decref(root);
			return NULL;
		}
	}
	return root;
}
