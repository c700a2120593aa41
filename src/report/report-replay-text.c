// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report-replay-text.c - the text form of the replay report, rendered from
 * its JSON object (report_replay_build()), so every figure is the one the
 * JSON holds.  The answer comes first: how many decisions, how many
 * disagree, the paired cost delta and how far to trust them; then the
 * sections, those with nothing to say left out (one line says which)
 * unless verbose.  Lines keep to REPORT_TEXT_COLS columns; untrusted
 * strings (paths, task names, the release) are escaped.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report-replay.h"
#include "util/escape.h"

/* the column the header's and the answer's values start in */
#define HEAD_INDENT 12

/*
 * open_memstream(), and the document marked as missing a part when it
 * fails (report_json_fail()): the text is never written with a piece left
 * out for want of memory
 */
static FILE *text_memstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f)
		report_json_fail();
	return f;
}

/*
 * fclose() of a text_memstream(): 0, or -1 with the document marked as
 * missing a part.  glibc's memstream can lose its final realloc and still
 * return 0, leaving *@buf NULL: that is a failure too.
 */
static int text_memclose(FILE *f, char **buf)
{
	if (fclose(f) || !*buf) {
		report_json_fail();
		return -1;
	}
	return 0;
}

static int64_t gi(const json_t *o, const char *k)
{
	return (int64_t)json_integer_value(json_object_get(o, k));
}

static const char *gs(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static double pct(int64_t a, int64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/*
 * The policies of one side: names, with their parameters when @params.
 * Return: owned, or NULL.
 */
static char *policy_list(const json_t *doc, const char *side, bool params)
{
	const json_t *a = json_object_get(json_object_get(doc, "policies"), side), *p, *v;
	char *buf = NULL;
	size_t len = 0, i;
	const char *k;
	FILE *f = text_memstream(&buf, &len);

	if (!f)
		return NULL;
	json_array_foreach(a, i, p) {
		bool first = true;

		fprintf(f, "%s%s", i ? ", " : "", gs(p, "name"));
		if (!params)
			continue;
		json_object_foreach((json_t *)json_object_get(p, "params"), k, v) {
			fprintf(f, "%s%s=", first ? " [" : " ", k);
			if (json_is_boolean(v))
				fprintf(f, "%s", json_is_true(v) ? "on" : "off");
			else
				fprintf(f, "%" PRId64, (int64_t)json_integer_value(v));
			first = false;
		}
		if (!first)
			fputc(']', f);
	}
	if (text_memclose(f, &buf)) {
		report_json_fail();	/* a part of the text lost */
		free(buf);
		return NULL;
	}
	return buf;
}

static void policies_text(FILE *out, const json_t *doc, const char *side, const char *label,
			  bool verbose)
{
	char *list = policy_list(doc, side, verbose);

	report_wrapf(out, HEAD_INDENT, "%-*s%s\n", HEAD_INDENT, label,
		     list && *list ? list : "(none)");
	free(list);
}

/*
 * The kernel model's parameters that the recording (or --param) set, with
 * where each came from, one entry per parameter, value and source (the
 * policies that took it in brackets); nothing when all hold defaults.
 */
struct setting {
	const char	*key;
	char		val[24];
	const char	*from;
	const char	*policy;
	bool		done;
};

static void settings_text(FILE *out, const json_t *doc)
{
	const json_t *a = json_object_get(json_object_get(doc, "policies"), "kernel"), *p, *v;
	struct setting set[64];
	char *buf = NULL;
	size_t len = 0, i;
	int n = 0, j, l;
	const char *k;
	FILE *f;

	json_array_foreach(a, i, p) {
		const json_t *src = json_object_get(p, "param_sources");

		json_object_foreach((json_t *)json_object_get(p, "params"), k, v) {
			const char *from = gs(src, k);

			if (!*from || !strncmp(from, "default", 7) || n == 64)
				continue;
			set[n].key = k;
			if (json_is_boolean(v))
				snprintf(set[n].val, sizeof(set[n].val), "%s", json_is_true(v) ? "on" : "off");
			else
				snprintf(set[n].val, sizeof(set[n].val), "%" PRId64,
					 (int64_t)json_integer_value(v));
			set[n].from = from;
			set[n].policy = gs(p, "name");
			set[n++].done = false;
		}
	}
	if (!n)
		return;
	f = open_memstream(&buf, &len);
	if (!f)
		return;
	for (j = 0; j < n; j++) {
		if (set[j].done)
			continue;
		fprintf(f, "%s%s=%s (%s: %s", j ? "; " : "", set[j].key, set[j].val, set[j].from,
			set[j].policy);
		for (l = j + 1; l < n; l++) {
			if (set[l].done || strcmp(set[l].key, set[j].key) ||
			    strcmp(set[l].val, set[j].val) || strcmp(set[l].from, set[j].from))
				continue;
			fprintf(f, ", %s", set[l].policy);
			set[l].done = true;
		}
		fputc(')', f);
	}
	if (text_memclose(f, &buf) == 0)
		report_wrapf(out, HEAD_INDENT, "%-*s%s; the rest: defaults\n", HEAD_INDENT,
			     "settings:", buf);
	free(buf);
}

static void header_text(FILE *out, const json_t *doc, bool verbose)
{
	const json_t *tr = json_object_get(doc, "trace");
	char esc[4 * 1024 + 1], *model = policy_list(doc, "kernel", verbose);
	bool release = json_is_string(json_object_get(tr, "kernel_release"));

	report_wrapf(out, HEAD_INDENT, "%-*s%s\n", HEAD_INDENT, "trace:",
		     escape_text_value(esc, sizeof(esc), gs(tr, "path"), SIZE_MAX));
	report_wrapf(out, HEAD_INDENT, "%-*s%s, %" PRId64 " cpus, %" PRId64 " nodes, %.3f s, %"
		     PRId64 " events, %" PRId64 " lost\n", HEAD_INDENT, "", gs(tr, "format"),
		     gi(tr, "cpus"), gi(tr, "nodes"), gi(tr, "duration_ns") / 1e9,
		     gi(tr, "events"), gi(tr, "lost_events"));
	/* the recording kernel: its release and the model of it, on one line */
	report_wrapf(out, HEAD_INDENT, "%-*s%s%s%s\n", HEAD_INDENT, "kernel:",
		     release ? escape_text_value(esc, sizeof(esc), gs(tr, "kernel_release"), SIZE_MAX) :
		     "release unknown",
		     model && *model ? ", modelled by " : "",
		     model && *model ? model : ", no model (--kernel-policy names one)");
	free(model);
	settings_text(out, doc);
	policies_text(out, doc, "old", "old:", verbose);
	policies_text(out, doc, "new", "new:", verbose);
	if (verbose)
		report_wrapf(out, HEAD_INDENT, "%-*s%s\n", HEAD_INDENT, "assumes:",
			     gs(doc, "assumptions"));
}

/* "name count, ..." of an object of counts, largest first, zeros left out */
static void counts_list(FILE *f, const json_t *o, const char *field)
{
	const json_t *v;
	const char *k;
	int64_t prev = INT64_MAX, best;
	bool any = false;

	/* a few keys: a selection pass per distinct count */
	for (;;) {
		best = 0;
		json_object_foreach((json_t *)o, k, v) {
			int64_t n = field ? gi(v, field) : (int64_t)json_integer_value(v);

			if (n > best && n < prev)
				best = n;
		}
		if (!best)
			break;
		json_object_foreach((json_t *)o, k, v)
			if ((field ? gi(v, field) : (int64_t)json_integer_value(v)) == best) {
				fprintf(f, "%s%s %" PRId64, any ? ", " : "", k, best);
				any = true;
			}
		prev = best;
	}
}

/* a counts_list() into a string; owned, or NULL */
static char *counts_str(const json_t *o, const char *field)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = text_memstream(&buf, &len);

	if (!f)
		return NULL;
	counts_list(f, o, field);
	if (text_memclose(f, &buf)) {
		report_json_fail();	/* a part of the text lost */
		free(buf);
		return NULL;
	}
	return buf;
}

/* The latency line: what priced remote accesses, and the priors' range. */
static void answer_latency(FILE *out, const json_t *cost)
{
	const json_t *lat = json_object_get(cost, "latency");
	const json_t *d = json_object_get(json_object_get(lat, "paired_weighted"), "delta");
	const char *prof = json_string_value(json_object_get(lat, "profile"));

	if (!json_is_object(lat))
		return;
	if (report_cost_measured(cost)) {
		report_wrapf(out, HEAD_INDENT, "%-*smeasured profile (%s) prices remote accesses\n",
			     HEAD_INDENT, "latency:", prof ? prof : "?");
		return;
	}
	if (!json_is_object(d)) {
		report_wrapf(out, HEAD_INDENT, "%-*sprior (no %smeasured profile): SLIT as the latency "
			     "ratio, and a low prior (docs/cost-model.md)\n", HEAD_INDENT, "latency:",
			     prof ? "complete " : "");
		return;
	}
	report_wrapf(out, HEAD_INDENT, "%-*sprior (no %smeasured profile): new - old %+.1f weighted "
		     "with SLIT as the latency ratio, %+.1f with the low prior (remote excess x %.3f; "
		     "docs/cost-model.md)\n", HEAD_INDENT, "latency:", prof ? "complete " : "",
		     json_number_value(json_object_get(d, "high")),
		     json_number_value(json_object_get(d, "low")),
		     json_number_value(json_object_get(json_object_get(lat, "prior"), "low_excess")));
}

static void answer_cost(FILE *out, const json_t *cost)
{
	const json_t *tot = json_object_get(cost, "totals"), *pr = json_object_get(tot, "paired");
	const json_t *lo = json_object_get(pr, "left_out"), *d = json_object_get(tot, "delta");
	const json_t *big;
	int64_t other;
	char *unk;

	if (!cost) {
		report_wrapf(out, HEAD_INDENT, "%-*snot priced\n", HEAD_INDENT, "cost:");
		return;
	}
	if (!json_is_object(d)) {
		unk = counts_str(json_object_get(cost, "unknown"), NULL);
		report_wrapf(out, HEAD_INDENT, "%-*sunknown: no decision priced by both sides "
			     "(of %" PRId64 " decisions: %s)\n", HEAD_INDENT, "cost:", gi(tot, "decisions"),
			     unk && *unk ? unk : "no policy on either side");
		free(unk);
		answer_latency(out, cost);
		return;
	}
	report_wrapf(out, HEAD_INDENT, "%-*snew - old %+.1f weighted hinting faults (x %s), "
		     "%+.1f remote, paired over the %" PRId64 " of %" PRId64 " decisions both sides "
		     "priced (old %.1f, new %.1f weighted); left out: %" PRId64 " priced by old only, %"
		     PRId64 " by new only, %" PRId64 " by neither\n", HEAD_INDENT, "cost:",
		     json_number_value(json_object_get(d, "weighted")),
		     report_cost_measured(cost) ? "latency ratio" : "distance / 10",
		     json_number_value(json_object_get(d, "remote_accesses")),
		     gi(pr, "decisions"), gi(tot, "decisions"),
		     json_number_value(json_object_get(json_object_get(pr, "old"), "weighted")),
		     json_number_value(json_object_get(json_object_get(pr, "new"), "weighted")),
		     gi(lo, "old_only"), gi(lo, "new_only"), gi(lo, "neither"));
	other = gi(json_object_get(cost, "fault_model"), "other_tasks_priced");
	if (other)
		report_wrapf(out, HEAD_INDENT, "%-*seach side priced for its own choice: %" PRId64
			     " %s a side pulled instead of the kernel's %s priced with it, from "
			     "the pass to %s own next decision (cost.parts)\n", HEAD_INDENT, "",
			     other, other == 1 ? "task" : "tasks", other == 1 ? "is" : "are",
			     other == 1 ? "its" : "their");
	big = json_object_get(pr, "largest");
	if (big && json_number_value(json_object_get(d, "weighted")) != 0)
		report_wrapf(out, HEAD_INDENT, "%-*sthe largest single decision, seq %" PRId64
			     ", makes %+.1f of it (%.0f%%)\n", HEAD_INDENT, "", gi(big, "seq"),
			     json_number_value(json_object_get(big, "weighted")),
			     100.0 * json_number_value(json_object_get(big, "weighted")) /
			     json_number_value(json_object_get(d, "weighted")));
	answer_latency(out, cost);
}

/* The answer: decisions, disagreements by class, the paired cost, the trust. */
/* the placement half: select_task_rq_fair's returned CPU against the kernel model's */
static void place_truth_answer(FILE *out, const json_t *pl)
{
	int64_t m = gi(pl, "matched");

	if (!pl || !json_is_string(json_object_get(pl, "policy")) || !m)
		return;
	report_wrapf(out, HEAD_INDENT, "%-*s%s picks the CPU select_task_rq_fair returned on %"
		     PRId64 " of %" PRId64 " placements (%.1f%%), %" PRId64 " judged (%.1f%%)\n",
		     HEAD_INDENT, "", gs(pl, "policy"), gi(pl, "model_agrees"), m,
		     pct(gi(pl, "model_agrees"), m), gi(pl, "judged"), pct(gi(pl, "judged"), m));
}

/* the headline of summary.ground_truth (decision probes only) */
static void truth_answer(FILE *out, const json_t *gt)
{
	const json_t *lb = json_object_get(gt, "lb");
	int64_t n = gi(lb, "candidates"), dis = gi(lb, "judged") - gi(lb, "model_agrees");

	if (!gt)
		return;
	if (!json_is_string(json_object_get(lb, "policy"))) {
		report_wrapf(out, HEAD_INDENT, "%-*s%" PRId64 " can_migrate_task candidates (%" PRId64
			     " allowed, %" PRId64 " refused by the kernel); no kernel model to check\n",
			     HEAD_INDENT, "truth:", n, gi(lb, "kernel_allowed"), gi(lb, "kernel_refused"));
		return;
	}
	report_wrapf(out, HEAD_INDENT, "%-*s%s agrees with the kernel's own verdict on %" PRId64 " of %"
		     PRId64 " can_migrate_task candidates (%.1f%%; %" PRId64 " allowed, %" PRId64
		     " refused), %" PRId64 " judged (%.1f%%); %" PRId64 " disagree%s\n",
		     HEAD_INDENT, "truth:", gs(lb, "policy"), gi(lb, "model_agrees"), n,
		     pct(gi(lb, "model_agrees"), n), gi(lb, "kernel_allowed"), gi(lb, "kernel_refused"),
		     gi(lb, "judged"), pct(gi(lb, "judged"), n), dis,
		     dis ? " (-v: by input)" : "");
	place_truth_answer(out, json_object_get(gt, "placement"));
}

/* -v: the ground truth in full */
static void truth_text(FILE *out, const json_t *gt)
{
	const json_t *lb = json_object_get(gt, "lb"), *pl = json_object_get(gt, "placement");
	const json_t *pr = json_object_get(gt, "probes"), *nc = json_object_get(gt, "numa_claims");
	const json_t *v;
	const char *k;

	if (!gt)
		return;
	fprintf(out, "\nground truth (decision probes: the kernel's own verdict per candidate):\n");
	report_wrapf(out, 4, "  lb: %" PRId64 " candidates, %" PRId64 " allowed (%" PRId64
		     " then moved), %" PRId64 " refused; judged %" PRId64 ", agreeing %" PRId64 "\n",
		     gi(lb, "candidates"), gi(lb, "kernel_allowed"), gi(lb, "moved"),
		     gi(lb, "kernel_refused"), gi(lb, "judged"), gi(lb, "model_agrees"));
	if (json_object_size(json_object_get(lb, "disagreements")))
		fprintf(out, "  model against kernel, by the input that decided the model's verdict:\n");
	json_object_foreach((json_t *)json_object_get(lb, "disagreements"), k, v)
		fprintf(out, "    %7" PRId64 "  %s\n", (int64_t)json_integer_value(v), k);
	if (json_object_size(json_object_get(lb, "unknown")))
		fprintf(out, "  unknown, by the input that was missing:\n");
	json_object_foreach((json_t *)json_object_get(lb, "unknown"), k, v)
		fprintf(out, "    %7" PRId64 "  %s\n", (int64_t)json_integer_value(v), k);
	report_wrapf(out, 4, "  placement: %" PRId64 " select_task_rq_fair calls, %" PRId64
		     " of them a decision's; judged %" PRId64 ", agreeing %" PRId64 "\n",
		     gi(pl, "candidates"), gi(pl, "matched"), gi(pl, "judged"), gi(pl, "model_agrees"));
	json_object_foreach((json_t *)json_object_get(pl, "by_class"), k, v)
		report_wrapf(out, 6, "    %-7s %s: %" PRId64 " placements, judged %" PRId64
			     ", agreeing %" PRId64 "\n", k, gs(v, "policy"), gi(v, "candidates"),
			     gi(v, "judged"), gi(v, "model_agrees"));
	if (json_object_size(json_object_get(pl, "misses")))
		fprintf(out, "  kernel model's CPU not the kernel's, by its decisive branch:\n");
	json_object_foreach((json_t *)json_object_get(pl, "misses"), k, v)
		fprintf(out, "    %7" PRId64 "  %s\n", (int64_t)json_integer_value(v), k);
	report_wrapf(out, 4, "  numa claims: %" PRId64 " task_numa_migrate windows (mean %.3f ms, "
		     "max %.3f ms); %" PRId64 " NUMA decisions read them, %" PRId64 " found the CPU "
		     "claimed\n", gi(nc, "windows"), gi(nc, "window_ns_mean") / 1e6,
		     gi(nc, "window_ns_max") / 1e6, gi(nc, "decisions"), gi(nc, "claimed"));
	report_wrapf(out, 4, "  pairing damage: %" PRId64 " entries without return, %" PRId64
		     " returns without entry, %" PRId64 " pairs without a task, CPUs of this "
		     "machine or a verdict\n", gi(pr, "unpaired_entries"),
		     gi(pr, "returns_without_entry"), gi(pr, "unusable"));
}

/*
 * "choices:": the kernel model's choices against the kernel's
 * (summary.choice_fidelity), and where the load-balance candidates came
 * from (summary.candidates)
 */
static void choices_answer(FILE *out, const json_t *sum)
{
	const json_t *cf = json_object_get(sum, "choice_fidelity");
	const json_t *ca = json_object_get(sum, "candidates"), *o;
	char *buf = NULL;
	size_t len = 0;
	const char *k;
	bool first = true;
	FILE *f;

	if (!json_object_size(cf) && !gi(ca, "points"))
		return;
	f = text_memstream(&buf, &len);
	if (!f)
		return;
	json_object_foreach((json_t *)cf, k, o) {
		fprintf(f, "%s%s %" PRId64 "/%" PRId64, first ? "" : ", ", k, gi(o, "same"),
			gi(o, "decisions"));
		if (gi(o, "unknown"))
			fprintf(f, " (%" PRId64 " unknown)", gi(o, "unknown"));
		first = false;
	}
	if (text_memclose(f, &buf)) {
		report_json_fail();
		free(buf);
		return;
	}
	report_wrapf(out, HEAD_INDENT, "%-*sthe kernel model chose what the kernel did "
		     "(same/decisions): %s; %" PRId64 " load-balance decision points, candidates "
		     "rebuilt from the model for %" PRId64 ", the kernel's own (probes) for %" PRId64
		     "\n", HEAD_INDENT, "choices:", first ? "none" : buf, gi(ca, "points"),
		     gi(ca, "reconstructed"), gi(ca, "kernel_order"));
	free(buf);
}

static void answer_text(FILE *out, const json_t *doc)
{
	const json_t *tr = json_object_get(doc, "trace"), *sum = json_object_get(doc, "summary");
	const json_t *fid = json_object_get(sum, "fidelity"), *o;
	char *dis = counts_str(json_object_get(sum, "classes"), "disagreements");
	char *unk = counts_str(json_object_get(sum, "unknown_inputs"), NULL);
	char inferred[160] = "";
	const char *k;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	bool first = true;

	report_wrapf(out, HEAD_INDENT, "%-*s%" PRId64 "; old and new disagree on %" PRId64 "%s%s%s; %"
		     PRId64 " unknown; %" PRId64 " would change with nr_balance_failed\n",
		     HEAD_INDENT, "decisions:", gi(sum, "decisions"), gi(sum, "disagreements"),
		     dis && *dis ? " (" : "", dis && *dis ? dis : "", dis && *dis ? ")" : "",
		     gi(sum, "unknown"), gi(sum, "balance_failed_dependent"));
	free(dis);
	answer_cost(out, json_object_get(sum, "cost"));

	f = text_memstream(&buf, &len);
	if (f) {
		json_object_foreach((json_t *)fid, k, o) {
			fprintf(f, "%s%s %" PRId64 "/%" PRId64 "/%" PRId64, first ? "" : ", ", k,
				gi(o, "reproduced"), gi(o, "judged"), gi(o, "decisions"));
			first = false;
		}
		if (text_memclose(f, &buf)) {
			report_json_fail();	/* a part of the text lost */
			free(buf);
			buf = NULL;
		}
	}
	if (first)
		report_wrapf(out, HEAD_INDENT, "%-*snone: no model of the recording kernel\n",
			     HEAD_INDENT, "fidelity:");
	else
		report_wrapf(out, HEAD_INDENT, "%-*sthe kernel model's reproduced/judged/decisions "
			     "(one-sided, see below): %s\n", HEAD_INDENT, "fidelity:", buf ? buf : "");
	free(buf);
	choices_answer(out, sum);
	truth_answer(out, json_object_get(sum, "ground_truth"));
	if (gi(sum, "waker_inferred") > 0)
		snprintf(inferred, sizeof(inferred), "; %" PRId64 " wake-ups with the waker's CPU "
			 "inferred from the kernel model (waker-cpu-inferred)", gi(sum, "waker_inferred"));
	report_wrapf(out, HEAD_INDENT, "%-*s%" PRId64 " verdicts unknown%s%s%s%s; %" PRId64
		     " decisions in lost-event windows (%" PRId64 " events lost); %" PRId64
		     " on CPUs not seen at the time; %" PRId64 " damage warnings\n", HEAD_INDENT,
		     "trust:", gi(sum, "unknown"),
		     unk && *unk ? " (missing: " : "", unk && *unk ? unk : "", unk && *unk ? ")" : "",
		     inferred, gi(sum, "lost_window"), gi(tr, "lost_events"), gi(sum, "cpu_unseen"),
		     gi(tr, "damage_warnings"));
	free(unk);
}

/* summary.choice_fidelity of the placement classes: the kernel model's CPU against the trace's */
static void place_choice_text(FILE *out, const json_t *cf)
{
	static const char *const cls[] = { "wakeup", "fork", "exec" };
	bool head = false;
	size_t i;

	for (i = 0; i < sizeof(cls) / sizeof(cls[0]); i++) {
		const json_t *o = json_object_get(cf, cls[i]);

		if (!o)
			continue;
		if (!head)
			fprintf(out, "  choices (the same CPU as the kernel's):\n"
				     "  class       policy              decisions     same             unknown\n");
		head = true;
		fprintf(out, "  %-11s %-18s %10" PRId64 " %8" PRId64 " (%5.1f%%) %8" PRId64 " (%5.1f%%)\n",
			cls[i], gs(o, "policy"), gi(o, "decisions"), gi(o, "same"),
			pct(gi(o, "same"), gi(o, "decisions")), gi(o, "unknown"),
			pct(gi(o, "unknown"), gi(o, "decisions")));
	}
}

/* cost, node x node and calibration say nothing without fault events */
static bool have_faults(const json_t *sum)
{
	const json_t *cal = json_object_get(json_object_get(json_object_get(sum, "cost"),
							     "calibration"), "fault_events");

	return json_integer_value(cal) > 0;
}

/* one line per reason a section was left out */
static void left_out_text(FILE *out, const json_t *sum)
{
	const json_t *classes = json_object_get(sum, "classes"), *o;
	char *buf = NULL;
	size_t len = 0;
	const char *k;
	bool any = false;
	FILE *f = text_memstream(&buf, &len);

	if (f) {
		json_object_foreach((json_t *)classes, k, o)
			if (!gi(o, "decisions")) {
				fprintf(f, "%s%s", any ? ", " : "", k);
				any = true;
			}
		if (text_memclose(f, &buf)) {
			report_json_fail();	/* a part of the text lost */
			free(buf);
			buf = NULL;
		}
	}
	fputc('\n', out);
	if (any && buf)
		report_wrapf(out, 2, "no decisions of class %s: left out of the table\n", buf);
	free(buf);
	if (!gi(sum, "disagreements"))
		fprintf(out, "no disagreements: the reason and task sections left out\n");
	if (json_object_get(sum, "cost") && !have_faults(sum))
		fprintf(out, "no NUMA fault events: cost, node x node and calibration sections left out\n");
	fprintf(out, "-v: every section and class, the old and new matrices, policy parameters, "
		"assumptions\n");
}

static void class_table(FILE *out, const json_t *sum, bool verbose)
{
	const json_t *classes = json_object_get(sum, "classes"), *o;
	int c;

	fprintf(out, "\n%-11s %9s %9s %9s %9s %9s %9s %9s\n", "class", "decisions", "decided",
		"old-allow", "new-allow", "disagree", "unknown", "bf-dep");
	for (c = 0; c < SR_DECISION_CLASS__COUNT; c++) {
		o = json_object_get(classes, replay_class_name(c));
		if (!verbose && !gi(o, "decisions"))
			continue;
		fprintf(out, "%-11s %9" PRId64 " %9" PRId64 " %9" PRId64 " %9" PRId64 " %9" PRId64
			" %9" PRId64 " %9" PRId64 "\n", replay_class_name(c), gi(o, "decisions"),
			gi(o, "decided"), gi(o, "old_allow"), gi(o, "new_allow"),
			gi(o, "disagreements"), gi(o, "unknown"), gi(o, "balance_failed_dependent"));
	}
	fprintf(out, "%-11s %9" PRId64 " %9s %9s %9s %9" PRId64 " %9" PRId64 " %9" PRId64 "\n",
		"total", gi(sum, "decisions"), "", "", "", gi(sum, "disagreements"),
		gi(sum, "unknown"), gi(sum, "balance_failed_dependent"));
	fprintf(out, "(bf-dep: the verdict of either side changes if nr_balance_failed exceeds "
		"cache_nice_tries)\n");
	if (gi(sum, "lost_window") > 0)
		report_wrapf(out, 1, "(%" PRId64 " decisions fall within 20 ms after lost events on "
			     "their CPUs: their inputs may be incomplete; --json flags each one "
			     "\"lost-events-window\")\n", gi(sum, "lost_window"));
	if (gi(sum, "cpu_unseen") > 0)
		report_wrapf(out, 1, "(%" PRId64 " decisions touch a CPU where it was not seen (before "
			     "its first event, across lost events; `info` lists the stretches): they are "
			     "counted in every table, fidelity included; --json flags each one "
			     "\"cpu-unseen\")\n", gi(sum, "cpu_unseen"));
}

static void disagreement_text(FILE *out, const json_t *sum, bool verbose)
{
	char esc[4 * 16 + 1];
	const json_t *v, *o;
	const char *k;
	size_t i;

	if (!verbose && !gi(sum, "disagreements"))
		return;
	fprintf(out, "\ndisagreements by reason (old / new):\n");
	if (!json_object_size(json_object_get(sum, "reason_pairs")))
		fprintf(out, "  none\n");
	json_object_foreach((json_t *)json_object_get(sum, "reason_pairs"), k, v)
		report_wrapf(out, 11, "  %7" PRId64 "  %s\n", (int64_t)json_integer_value(v), k);

	if (json_array_size(json_object_get(sum, "top_tasks"))) {
		fprintf(out, "\ntasks with most disagreements:\n");
		json_array_foreach(json_object_get(sum, "top_tasks"), i, o)
			fprintf(out, "  %7" PRId64 " of %7" PRId64 "  %s [%" PRId64 "]\n",
				gi(o, "disagreements"), gi(o, "decisions"),
				escape_text_value(esc, sizeof(esc), gs(o, "comm"), SIZE_MAX), gi(o, "tid"));
	}
}

/* a side's choice in words: "pulls comm [tid]", "cpu C (node N)", ... */
static void choice_words(char *buf, size_t len, const json_t *d, const json_t *side)
{
	const json_t *c = json_object_get(side, "choice");
	char esc[4 * 16 + 1];
	bool lb = !strncmp(gs(d, "class"), "lb-", 3);

	if (!side || json_is_null(side)) {
		snprintf(buf, len, "no policy");
	} else if (json_is_null(c)) {
		snprintf(buf, len, "%s", lb ? "pulls nothing" : "no move");
	} else if (json_object_get(c, "tid")) {
		snprintf(buf, len, "pulls %s [%" PRId64 "]%s",
			 escape_text_value(esc, sizeof(esc), gs(c, "comm"), SIZE_MAX), gi(c, "tid"),
			 gi(c, "tid") == gi(d, "tid") ? " (the kernel's)" : "");
	} else if (json_object_get(c, "cpu")) {
		snprintf(buf, len, "cpu %" PRId64 " (node %" PRId64 ")%s", gi(c, "cpu"), gi(c, "node"),
			 gi(c, "cpu") == gi(d, "dst_cpu") ? " (the kernel's)" : "");
	} else {
		snprintf(buf, len, "unknown");
	}
}

/* up to 3 reasons of @r, decisive first, after @sep, into @buf at @o */
static size_t reason_words(char *buf, size_t len, size_t o, const char *sep, const json_t *r)
{
	const json_t *v;
	size_t i;

	json_array_foreach(r, i, v) {
		if (o >= len)
			break;
		if (i == 3) {
			o += snprintf(buf + o, len - o, ", ...");
			break;
		}
		o += snprintf(buf + o, len - o, "%s%s", i ? ", " : sep,
			      json_string_value(v) ? json_string_value(v) : "?");
	}
	return o < len ? o : len - 1;
}

/*
 * The disagreements whose two sides' costs differ most (the text sink's
 * pick): each side's choice with its reasons; a side that pulls another
 * task than the kernel's also says what it answered on the kernel's task.
 */
static void top_disagreements_text(FILE *out, const json_t *doc)
{
	const json_t *top = json_object_get(doc, "top_disagreements"), *d, *dl;
	char esc[4 * 16 + 1], line[512], what[96];
	size_t i, o;
	int s;

	if (!json_array_size(top))
		return;
	fprintf(out, "\ndisagreements, the largest |new - old| weighted cost first (%zu of %" PRId64
		"; --json lists every one):\n", json_array_size(top),
		gi(json_object_get(doc, "summary"), "disagreements"));
	json_array_foreach(top, i, d) {
		dl = json_object_get(json_object_get(json_object_get(d, "cost"), "delta"), "weighted");
		if (json_is_number(dl))
			snprintf(what, sizeof(what), "%+.1f", json_number_value(dl));
		else
			snprintf(what, sizeof(what), "not priced on both sides");
		report_wrapf(out, 6, "  seq %" PRId64 " at %.6f s, %s of %s [%" PRId64 "], the kernel: "
			     "cpu %" PRId64 " -> %" PRId64 "; new - old %s\n", gi(d, "seq"),
			     (double)gi(d, "ts_ns") / 1e9, gs(d, "class"),
			     escape_text_value(esc, sizeof(esc), gs(d, "comm"), SIZE_MAX), gi(d, "tid"),
			     gi(d, "src_cpu"), gi(d, "dst_cpu"), what);
		for (s = 0; s < 2; s++) {
			const json_t *side = json_object_get(d, s ? "new" : "old");
			const json_t *c = json_object_get(side, "choice");
			bool other = json_is_object(c) && json_object_get(c, "tid") &&
				     gi(c, "tid") != gi(d, "tid");

			choice_words(what, sizeof(what), d, side);
			o = (size_t)snprintf(line, sizeof(line), "%s %s", s ? "new" : "old", what);
			if (other) {
				o = reason_words(line, sizeof(line), o, " (", json_object_get(c, "reasons"));
				if (o + 1 < sizeof(line) && json_array_size(json_object_get(c, "reasons")))
					o += (size_t)snprintf(line + o, sizeof(line) - o, ")");
				if (o < sizeof(line))
					o += (size_t)snprintf(line + o, sizeof(line) - o,
							      "; on the kernel's task: %s", gs(side, "verdict"));
				if (o >= sizeof(line))
					o = sizeof(line) - 1;
			}
			reason_words(line, sizeof(line), o, other ? ", " : ": ",
				     json_object_get(side, "reasons"));
			report_wrapf(out, 10, "      %s\n", line);
		}
	}
}

static void fidelity_text(FILE *out, const json_t *doc)
{
	const json_t *sum = json_object_get(doc, "summary");
	const json_t *o, *v;
	const char *k;

	if (json_object_size(json_object_get(sum, "unknown_inputs"))) {
		fprintf(out, "\nunknown verdicts, by the input that was missing:\n");
		json_object_foreach((json_t *)json_object_get(sum, "unknown_inputs"), k, v)
			fprintf(out, "  %7" PRId64 "  %s\n", (int64_t)json_integer_value(v), k);
	}

	fprintf(out, "\nfidelity (the kernel model against what the kernel did):\n");
	if (!json_object_size(json_object_get(sum, "fidelity")))
		fprintf(out, "  none: %s\n", report_replay_no_fidelity(doc));
	else
		fprintf(out, "  one-sided: every migration in a trace is one the kernel allowed, so \"reproduced\"\n"
			     "  counts only the model's wrong refusals (a model that allows everything scores\n"
			     "  100%%) and numa-stick only its wrong allowances; \"judged\": the model answered\n"
			     "  (not unknown)\n"
			     "  class       policy              decisions   judged            reproduced\n");
	json_object_foreach((json_t *)json_object_get(sum, "fidelity"), k, o)
		fprintf(out, "  %-11s %-18s %10" PRId64 " %8" PRId64 " (%5.1f%%) %8" PRId64 " (%5.1f%%)\n",
			k, gs(o, "policy"), gi(o, "decisions"), gi(o, "judged"),
			pct(gi(o, "judged"), gi(o, "decisions")), gi(o, "reproduced"),
			pct(gi(o, "reproduced"), gi(o, "decisions")));
	place_choice_text(out, json_object_get(sum, "choice_fidelity"));
	o = json_object_get(sum, "kernel_threads");
	if (o && json_object_size(o)) {
		char *list = counts_str(o, NULL);

		report_wrapf(out, 4, "  kernel threads (no mm, so no NUMA faults), decisions by the "
			     "evidence: %s\n", list ? list : "");
		free(list);
	}
}

static void counters_text(FILE *out, const json_t *sum)
{
	const json_t *o;
	const char *k;

	if (json_object_get(sum, "kernel_counters")) {
		fprintf(out, "\nthe kernel's own counters (schedstat-delta.txt) against the replay:\n");
		json_object_foreach((json_t *)json_object_get(sum, "kernel_counters"), k, o)
			report_wrapf(out, 4, "  %-10s kernel %6" PRId64 "  replay %6" PRId64 "  (%s)\n",
				     k, gi(o, "kernel"), gi(o, "replay"), gs(o, "kernel_field"));
	}
	o = json_object_get(sum, "task_counters");
	if (o) {
		const json_t *kn = json_object_get(o, "kernel"), *r = json_object_get(o, "replay");

		fprintf(out, "\nthe kernel's per-task counters (numa_sample lines, %" PRId64
			" tasks) against the replay:\n", gi(o, "tasks"));
		report_wrapf(out, 4, "  migrations  kernel %6" PRId64 "  trace  %6" PRId64
			     "  (se.nr_migrations; sched_migrate_task, same span)\n",
			     gi(kn, "nr_migrations"), gi(r, "migrations"));
		report_wrapf(out, 4, "  forced      kernel %6" PRId64 "  replay %6" PRId64
			     "  (nr_forced_migrations; kernel model: hot, let through)\n",
			     gi(kn, "forced"), gi(r, "forced"));
		report_wrapf(out, 4, "  hot         kernel %6" PRId64 "  replay %6" PRId64
			     "  (nr_failed_migrations_hot; kernel model: refused as hot)\n",
			     gi(kn, "failed_hot"), gi(r, "resisted_hot"));
	}
}

int report_replay_text(FILE *out, const json_t *doc, bool verbose)
{
	const json_t *sum = json_object_get(doc, "summary");

	answer_text(out, doc);
	fputc('\n', out);
	header_text(out, doc, verbose);
	if (!verbose)
		left_out_text(out, sum);
	class_table(out, sum, verbose);
	disagreement_text(out, sum, verbose);
	top_disagreements_text(out, doc);
	fidelity_text(out, doc);
	if (verbose)
		truth_text(out, json_object_get(sum, "ground_truth"));
	counters_text(out, sum);
	if (json_object_get(sum, "cost") && (verbose || have_faults(sum)))
		report_cost_text(out, json_object_get(sum, "cost"), verbose);
	if (fflush(out) == EOF || ferror(out))
		return -EIO;
	return 0;
}
