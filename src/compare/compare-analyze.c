// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-analyze.c - one metric, base against new: figures, tests, verdict.
 *
 * Figures per side come from raw runs or from a summary row; a summary
 * row's StdDev or Variance is first checked against what Min, Max, Avg and
 * N allow (stats_dispersion_fits()) and, when it cannot be what its column
 * says, read as what it can be, with a note.  Then Welch's t-test (means),
 * Brown-Forsythe (raw runs on both sides) or the F-test (otherwise) for
 * the spread, and the verdict rules of docs/compare.md:
 *
 *	p < alpha                       -> better / worse (by direction)
 *	p >= alpha, spread p < alpha    -> inconclusive (spread changed xR)
 *	p >= alpha, spread p >= alpha   -> no-difference
 *	fewer than 2 runs or no spread  -> inconclusive
 *
 * plus the runs per side that would detect the observed change at 80%
 * power when no difference was proven.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare-local.h"
#include "stats/stats.h"

#define COMPARE_POWER		0.80
#define COMPARE_LEVEL		0.95
/* Relative slack for rounding of published figures. */
#define COMPARE_ROUND_TOL	0.005

struct analysis {
	struct compare_result	*r;
	bool			oom;
};

static void note(struct analysis *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct analysis *a, const char *fmt, ...)
{
	struct compare_result *r = a->r;
	char **notes;
	char *s;
	va_list ap;
	int len;

	if (a->oom)
		return;
	va_start(ap, fmt);
	len = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (len < 0) {
		a->oom = true;
		return;
	}
	compare_sanitize(s);	/* notes quote file and metric names */
	notes = realloc(r->notes, (r->nnotes + 1) * sizeof(*notes));
	if (!notes) {
		free(s);
		a->oom = true;
		return;
	}
	r->notes = notes;
	r->notes[r->nnotes++] = s;
}

const char *compare_verdict_name(enum compare_verdict v)
{
	switch (v) {
	case COMPARE_BETTER:
		return "better";
	case COMPARE_WORSE:
		return "worse";
	case COMPARE_NO_DIFFERENCE:
		return "no-difference";
	case COMPARE_INCONCLUSIVE:
		break;
	}
	return "inconclusive";
}

const char *compare_kind_name(enum compare_kind k)
{
	switch (k) {
	case COMPARE_KIND_NUMBERS:
		return "plain numbers";
	case COMPARE_KIND_COLUMNS:
		return "benchmark log columns";
	case COMPARE_KIND_REPORT:
		return "replay reports";
	case COMPARE_KIND_BENCH:
		return "benchmark output";
	case COMPARE_KIND_SUMMARY:
		break;
	}
	return "summary table";
}

static void note_source(struct analysis *a, const char *side, const struct compare_metric *m)
{
	char lab[300] = "";

	if (m->label)
		snprintf(lab, sizeof(lab), " %s:", m->label);
	if (m->kind == COMPARE_KIND_SUMMARY)
		note(a, "%s:%s %s, '%s' line %lu%s", side, lab, m->what ? m->what : "summary table",
		     m->file, m->line, m->repeat_line ? " (quoted again at a later line: the same table, read once)" : "");
	else if (m->label)
		note(a, "%s:%s %zu run%s, %s '%s'", side, lab, m->nruns, m->nruns == 1 ? "" : "s",
		     compare_kind_name(m->kind), m->file);
	else if (m->nfiles > 1)
		note(a, "%s: %zu runs, %s from %u files ('%s' ... '%s')", side, m->nruns,
		     compare_kind_name(m->kind), m->nfiles, m->file,
		     m->last_file ? m->last_file : m->file);
	else
		note(a, "%s: %zu run%s, %s '%s'", side, m->nruns, m->nruns == 1 ? "" : "s",
		     compare_kind_name(m->kind), m->file);
}

static const char *const reading_words[] = {
	[COMPARE_READ_SAMPLE_VAR] = "sample variance (divisor n - 1)",
	[COMPARE_READ_POP_VAR] = "variance with divisor n",
	[COMPARE_READ_SAMPLE_SD] = "sample standard deviation (divisor n - 1)",
	[COMPARE_READ_POP_SD] = "standard deviation with divisor n",
	[COMPARE_READ_AS_LABELLED] = "as labelled",
};

static const unsigned int reading_fit[] = {
	[COMPARE_READ_SAMPLE_VAR] = STATS_FIT_SAMPLE_VAR,
	[COMPARE_READ_POP_VAR] = STATS_FIT_POP_VAR,
	[COMPARE_READ_SAMPLE_SD] = STATS_FIT_SAMPLE_SD,
	[COMPARE_READ_POP_SD] = STATS_FIT_POP_SD,
};

/* The sample sd of @v read as @r over @n runs. */
static double reading_sd(enum compare_reading r, double v, double n)
{
	switch (r) {
	case COMPARE_READ_SAMPLE_VAR:
		return sqrt(v);
	case COMPARE_READ_POP_VAR:
		return sqrt(v * n / (n - 1));
	case COMPARE_READ_SAMPLE_SD:
		return v;
	case COMPARE_READ_POP_SD:
		return v * sqrt(n / (n - 1));
	case COMPARE_READ_AS_LABELLED:
		break;
	}
	return v;
}

/* A row of a column whose reading compare_choose_readings() chose. */
static double column_sd(struct analysis *a, const char *side, const struct compare_metric *m,
			unsigned int fits, double lo, double hi)
{
	const char *label = m->disp_kind == COMPARE_DISP_VAR ? "Variance" : "StdDev";
	double n = m->count;
	double sd = reading_sd(m->reading, m->disp, n);

	note(a, "%s: the %s column of '%s' (%u rows) is read as one convention, %s: it fits %u of its rows (read as labelled: %u); here %g is sample standard deviation %.6g",
	     side, label, m->file, m->col_rows, reading_words[m->reading], m->col_fit,
	     m->col_label_fit, m->disp, sd);
	if (!(fits & reading_fit[m->reading]))
		note(a, "%s: this row's %s (%g) does not fit that reading given Min, Max, Avg and N=%g (a sample variance would lie in [%.4g, %.4g])",
		     side, label, m->disp, n, lo / (n - 1), hi / (n - 1));
	return sd;
}

/* The sample sd a summary row's dispersion figure stands for, with notes. */
static double summary_sd(struct analysis *a, const char *side, const struct compare_metric *m)
{
	static const struct {
		unsigned int	fit;
		bool		var;
		bool		pop;
	} order[2][4] = {
		{	/* labelled Variance */
			{ STATS_FIT_SAMPLE_VAR, true, false }, { STATS_FIT_POP_VAR, true, true },
			{ STATS_FIT_SAMPLE_SD, false, false }, { STATS_FIT_POP_SD, false, true },
		}, {	/* labelled StdDev */
			{ STATS_FIT_SAMPLE_SD, false, false }, { STATS_FIT_POP_SD, false, true },
			{ STATS_FIT_SAMPLE_VAR, true, false }, { STATS_FIT_POP_VAR, true, true },
		},
	};
	bool label_var = m->disp_kind == COMPARE_DISP_VAR;
	const char *label = label_var ? "Variance" : "StdDev";
	double n = m->count;
	double v = m->disp;
	unsigned int fits;
	double lo;
	double hi;
	int i;

	if (m->disp_kind == COMPARE_DISP_NONE) {
		if (!(n >= 2))
			note(a, "%s: %s, so there is no spread to test with", side,
			     isnan(n) ? "an average of an unknown number of runs, without a spread" :
			     "a single run");
		else
			note(a, "%s: the input gives no StdDev or Variance, so the spread is unknown",
			     side);
		return NAN;
	}
	if (!(n >= 2)) {
		if (isnan(n))
			note(a, "%s: the number of runs is not in the input: give --count N to test", side);
		return NAN;
	}
	if (m->disp_kind == COMPARE_DISP_SEM) {
		note(a, "%s: %s: +- %g is the standard deviation of the mean; sample standard deviation = %g x sqrt(%g) = %.6g",
		     side, m->what ? m->what : "perf stat", v, v, n, v * sqrt(n));
		return v * sqrt(n);
	}
	if (!(v >= 0)) {
		note(a, "%s: %s %g is negative: spread unknown", side, label, v);
		return NAN;
	}
	if (isnan(m->min) || isnan(m->max)) {
		note(a, "%s: %s taken as labelled (no Min and Max to check it against)", side,
		     label);
		return label_var ? sqrt(v) : v;
	}
	if (stats_ss_bounds(n, m->min, m->max, m->mean, &lo, &hi)) {
		note(a, "%s: Avg %g lies outside [Min %g, Max %g]: the row is inconsistent; %s taken as labelled",
		     side, m->mean, m->min, m->max, label);
		return label_var ? sqrt(v) : v;
	}
	fits = stats_dispersion_fits(n, m->min, m->max, m->mean, v, COMPARE_ROUND_TOL);
	if (m->reading != COMPARE_READ_AS_LABELLED && m->col_rows > 1)
		return column_sd(a, side, m, fits, lo, hi);
	for (i = 0; i < 4; i++) {
		bool var = order[!label_var][i].var;
		bool pop = order[!label_var][i].pop;
		double sd = var ? sqrt(v) : v;

		if (!(fits & order[!label_var][i].fit))
			continue;
		if (pop)
			sd *= sqrt(n / (n - 1));
		if (i == 0)
			return sd;
		if (label_var)
			note(a, "%s: the Variance column (%g) cannot be a sample variance given Min, Max, Avg and N=%g (that would lie in [%.4g, %.4g]); it looks like a %s%s, read as sample standard deviation %.6g",
			     side, v, n, lo / (n - 1), hi / (n - 1),
			     var ? "variance" : "standard deviation",
			     pop ? " computed with divisor n" : "", sd);
		else
			note(a, "%s: the StdDev column (%g) cannot be a sample standard deviation given Min, Max, Avg and N=%g (that would lie in [%.4g, %.4g]); it looks like a %s%s, read as sample standard deviation %.6g",
			     side, v, n, sqrt(lo / (n - 1)), sqrt(hi / (n - 1)),
			     var ? "variance" : "standard deviation",
			     pop ? " computed with divisor n" : "", sd);
		return sd;
	}
	note(a, "%s: %s %g is impossible as a variance or a standard deviation given Min, Max, Avg and N=%g; taken as labelled",
	     side, label, v, n);
	return label_var ? sqrt(v) : v;
}

static void figures_from_summary(struct analysis *a, const char *side,
				 const struct compare_metric *m, const struct compare_opts *o,
				 struct compare_figures *f)
{
	f->kind = m->kind;
	f->n = m->count;
	f->min = m->min;
	f->max = m->max;
	f->mean = m->mean;
	f->median = NAN;
	f->sd = summary_sd(a, side, m);
	if (m->harmonic)
		note(a, "%s: the mean is mmtests' harmonic mean; it is tested with the Stddev column as if it were an arithmetic mean",
		     side);
	if (o->harmonic)
		note(a, "%s: a harmonic mean needs raw runs; the table's arithmetic Avg is used",
		     side);
}

static void figures_from_runs(struct analysis *a, const char *side,
			      const struct compare_metric *m, const struct compare_opts *o,
			      struct compare_figures *f)
{
	size_t i;

	f->kind = m->kind;
	f->n = (double)m->nruns;
	f->min = m->runs[0];
	f->max = m->runs[0];
	for (i = 1; i < m->nruns; i++) {
		if (m->runs[i] < f->min)
			f->min = m->runs[i];
		if (m->runs[i] > f->max)
			f->max = m->runs[i];
	}
	f->mean = stats_mean(m->runs, m->nruns);
	if (o->harmonic) {
		double h = stats_harmonic_mean(m->runs, m->nruns);

		if (isnan(h))
			note(a, "%s: a run is <= 0, so there is no harmonic mean; arithmetic mean used",
			     side);
		else
			f->mean = h;
	}
	f->sd = stats_stddev(m->runs, m->nruns);
	{
		double *scratch = malloc(m->nruns * sizeof(*scratch));

		if (!scratch) {
			a->oom = true;
			f->median = NAN;
			return;
		}
		f->median = stats_median(m->runs, m->nruns, scratch);
		free(scratch);
	}
}

/* Summary of 1/x, or false when some x <= 0. */
static bool reciprocal_summary(const struct compare_metric *m, struct stats_summary *s)
{
	double *inv = malloc(m->nruns * sizeof(*inv));
	size_t i;

	if (!inv)
		return false;
	for (i = 0; i < m->nruns; i++) {
		if (!(m->runs[i] > 0)) {
			free(inv);
			return false;
		}
		inv[i] = 1.0 / m->runs[i];
	}
	s->n = (double)m->nruns;
	s->mean = stats_mean(inv, m->nruns);
	s->sd = stats_stddev(inv, m->nruns);
	free(inv);
	return true;
}

/*
 * Harmonic means: test the means of 1/x (equal harmonic means are equal
 * means of 1/x); the interval for the difference of harmonic means uses the
 * delta method, sd(H) ~= sd(1/x) / mean(1/x)^2.
 */
static bool harmonic_test(const struct compare_metric *mb, const struct compare_metric *mn,
			  struct compare_result *r)
{
	struct stats_summary yb;
	struct stats_summary yn;
	struct stats_summary hb;
	struct stats_summary hn;
	struct stats_welch w;

	if (!reciprocal_summary(mb, &yb) || !reciprocal_summary(mn, &yn))
		return false;
	if (stats_welch_test(&yb, &yn, COMPARE_LEVEL, &w))
		return false;
	r->p = w.p;
	hb = (struct stats_summary){ yb.n, 1.0 / yb.mean, yb.sd / (yb.mean * yb.mean) };
	hn = (struct stats_summary){ yn.n, 1.0 / yn.mean, yn.sd / (yn.mean * yn.mean) };
	if (stats_welch_test(&hb, &hn, COMPARE_LEVEL, &w))
		return false;
	r->ci_lo = w.ci_lo;
	r->ci_hi = w.ci_hi;
	return true;
}

static bool close_pct(double a, double b)
{
	return fabs(a - b) <= 0.02 + COMPARE_ROUND_TOL * fabs(b);
}

/* Check a table's own %Change against the change of the means. */
static void check_reported_change(struct analysis *a, const struct compare_metric *mb,
				  const struct compare_metric *mn)
{
	const struct {
		const char	*what;
		double		v;
	} den[] = {
		{ "base Avg", mb->mean }, { "new Avg", mn->mean }, { "base Max", mb->max },
		{ "new Max", mn->max }, { "base Min", mb->min }, { "new Min", mn->min },
	};
	double reported = !isnan(mn->change) ? mn->change : mb->change;
	double computed = a->r->change_pct;
	size_t i;

	if (isnan(reported) || isnan(computed) || close_pct(reported, computed))
		return;
	for (i = 0; i < sizeof(den) / sizeof(den[0]); i++) {
		double up;

		if (isnan(den[i].v) || den[i].v == 0)
			continue;
		up = 100.0 * (mn->mean - mb->mean) / fabs(den[i].v);
		if (close_pct(reported, up) || close_pct(reported, -up)) {
			note(a, "the table's %%Change (%g) is not the change of the means (%+.4g%%): it matches %s / %s",
			     reported, computed,
			     close_pct(reported, up) ? "(new Avg - base Avg)" : "(base Avg - new Avg)",
			     den[i].what);
			return;
		}
	}
	note(a, "the table's %%Change (%g) does not match the change of the means (%+.4g%%)",
	     reported, computed);
}

static void run_tests(struct analysis *a, const struct compare_metric *mb,
		      const struct compare_metric *mn, const struct compare_opts *o)
{
	struct compare_result *r = a->r;
	struct stats_summary sb = { r->base.n, r->base.mean, r->base.sd };
	struct stats_summary sn = { r->new.n, r->new.mean, r->new.sd };
	bool raw = mb->kind != COMPARE_KIND_SUMMARY && mn->kind != COMPARE_KIND_SUMMARY;
	struct stats_welch w;
	double ratio;
	double f;

	if (!isfinite(r->base.mean) || !isfinite(r->new.mean) || isinf(r->base.sd) ||
	    isinf(r->new.sd)) {
		note(a, "inconclusive: the values are too large for the figures to be computed in double precision (a mean or standard deviation overflows)");
		r->verdict = COMPARE_INCONCLUSIVE;
		return;
	}
	if (stats_welch_test(&sb, &sn, COMPARE_LEVEL, &w)) {
		note(a, "inconclusive: a test needs at least 2 runs and a known spread on each side%s",
		     isnan(r->change_pct) ? "" : "; the change of the means is computed all the same");
		r->verdict = COMPARE_INCONCLUSIVE;
		return;
	}
	if (!isfinite(w.p) || !isfinite(w.ci_lo) || !isfinite(w.ci_hi)) {
		note(a, "inconclusive: the test's figures overflow double precision");
		r->verdict = COMPARE_INCONCLUSIVE;
		return;
	}
	r->p = w.p;
	r->ci_lo = w.ci_lo;
	r->ci_hi = w.ci_hi;
	if (o->harmonic && raw && !harmonic_test(mb, mn, r))
		note(a, "harmonic test not possible (a run is <= 0): Welch on arithmetic means");
	if (r->base.sd > 0)
		r->spread_ratio = r->new.sd / r->base.sd;
	else if (r->new.sd > 0)
		r->spread_ratio = INFINITY;
	if (raw && stats_brown_forsythe(mb->runs, mb->nruns, mn->runs, mn->nruns, &f,
					&r->spread_p) == 0) {
		note(a, "spread test: Brown-Forsythe on the raw runs (F=%.4g, df 1, %g)", f,
		     r->base.n + r->new.n - 2);
	} else if (stats_f_test(&sb, &sn, &ratio, &r->spread_p) == 0) {
		note(a, "spread test: F-test of the variances (F=%.4g, df %g, %g; assumes normally distributed runs)",
		     ratio, r->new.n - 1, r->base.n - 1);
	}
	if (o->family_n > 1 && !isnan(o->family_p)) {
		r->p_family = o->family_p;
		note(a, "Holm-Bonferroni over the %zu metrics compared together: adjusted p = %.3g%s",
		     o->family_n, o->family_p,
		     r->p < o->alpha && !(o->family_p < o->alpha) ?
		     " - significant on its own, not once all of them are read together (--uncorrected judges each alone)" : "");
	}
	if ((isnan(r->p_family) ? r->p : r->p_family) < o->alpha) {
		bool up = r->new.mean > r->base.mean;

		r->verdict = up == r->higher_is_better ? COMPARE_BETTER : COMPARE_WORSE;
		if (r->spread_p < o->alpha)
			note(a, "the spread also changed: new/base standard deviation x%.3g",
			     r->spread_ratio);
		return;
	}
	r->verdict = r->spread_p < o->alpha ? COMPARE_INCONCLUSIVE : COMPARE_NO_DIFFERENCE;
	if (r->verdict == COMPARE_INCONCLUSIVE)
		note(a, "spread changed x%.3g (p=%.2g): the runs no longer come from one distribution, so the means cannot be compared on their own",
		     r->spread_ratio, r->spread_p);
	r->runs_needed = stats_runs_needed(r->base.sd, r->new.sd, r->new.mean - r->base.mean,
					   o->alpha, COMPARE_POWER);
	if (!isnan(r->runs_needed) && !(r->runs_needed <= COMPARE_MAX_RUNS_NEEDED)) {
		/* inf, or past what an integer in the JSON report can hold exactly */
		r->runs_needed = NAN;
		note(a, "no difference proven at %g%%; the change is too small for any feasible number of runs to detect",
		     100 * (1 - o->alpha));
	} else if (!isnan(r->runs_needed))
		note(a, "no difference proven at %g%%; %.0f runs per side would detect a change of %+.3g%% with 80%% power",
		     100 * (1 - o->alpha), r->runs_needed, r->change_pct);
	else
		note(a, "no difference proven at %g%%", 100 * (1 - o->alpha));
}

static bool name_matches(const char *name, const char *const *pats, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcasestr(name, pats[i]))
			return true;
	return false;
}

/* Which way is better for @r, and why (docs/compare.md, "Direction"). */
static int choose_dir(const struct compare_metric *b, const struct compare_metric *n,
		      const struct compare_opts *o, struct compare_result *r)
{
	const struct compare_metric *said = b->dir != COMPARE_DIR_UNKNOWN ? b : n;
	const char *word;
	enum compare_dir g;
	int len;

	if (name_matches(r->name, (const char *const *)o->lower, o->nlower)) {
		r->higher_is_better = false;
		len = asprintf(&r->dir_why, "--lower-is-better=NAME");
	} else if (name_matches(r->name, (const char *const *)o->higher, o->nhigher)) {
		r->higher_is_better = true;
		len = asprintf(&r->dir_why, "--higher-is-better=NAME");
	} else if (o->dir_given) {
		r->higher_is_better = o->higher_is_better;
		len = asprintf(&r->dir_why, "%s", o->higher_is_better ? "--higher-is-better" :
			       "--lower-is-better");
	} else if (said->dir != COMPARE_DIR_UNKNOWN) {
		r->higher_is_better = said->dir == COMPARE_DIR_HIGHER;
		len = asprintf(&r->dir_why, "%s", said->dir_why ? said->dir_why : "the input says so");
	} else if ((g = compare_guess_dir(r->name, &word)) != COMPARE_DIR_UNKNOWN) {
		r->higher_is_better = g == COMPARE_DIR_HIGHER;
		len = asprintf(&r->dir_why, "the name has '%s'", word);
	} else {
		r->higher_is_better = o->higher_is_better;
		len = asprintf(&r->dir_why, "assumed: nothing in the name or the input tells; give --lower-is-better=NAME or --higher-is-better=NAME");
	}
	if (len < 0) {
		r->dir_why = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* mmtests' '*' against this comparison's own test. */
static void check_mark(struct analysis *a, const struct compare_metric *n,
		       const struct compare_opts *o)
{
	const struct compare_result *r = a->r;
	bool ours;

	if (n->mark < 0)
		return;
	if (isnan(r->p)) {
		note(a, "mmtests marks this difference %s; with no spread (or no number of runs) here it cannot be checked",
		     n->mark ? "significant ('*')" : "not significant (no '*')");
		return;
	}
	ours = r->p < o->alpha;
	note(a, "mmtests marks this difference %s; Welch's test here (p=%.3g) %s",
	     n->mark ? "significant ('*')" : "not significant (no '*')", r->p,
	     ours == (n->mark == 1) ? "agrees" : "disagrees");
}

int compare_analyze(const struct compare_metric *base, const struct compare_metric *new,
		    const struct compare_opts *opts, struct compare_result *r)
{
	struct analysis a = { .r = r };

	memset(r, 0, sizeof(*r));
	if (base->label && new->label && strcmp(base->label, new->label)) {
		if (asprintf(&r->name, "%s [%s vs %s]", base->name, new->label, base->label) < 0)
			r->name = NULL;
		r->base_label = strdup(base->label);
		r->new_label = strdup(new->label);
		if (!r->base_label || !r->new_label) {
			compare_result_release(r);
			return -ENOMEM;
		}
	} else {
		r->name = strdup(base->name);
	}
	if (!r->name) {
		compare_result_release(r);
		return -ENOMEM;
	}
	if (choose_dir(base, new, opts, r)) {
		compare_result_release(r);
		return -ENOMEM;
	}
	r->change_pct = NAN;
	r->ci_lo = NAN;
	r->ci_hi = NAN;
	r->p = NAN;
	r->p_family = NAN;
	r->spread_ratio = NAN;
	r->spread_p = NAN;
	r->runs_needed = NAN;
	r->verdict = COMPARE_INCONCLUSIVE;

	note_source(&a, "base", base);
	note_source(&a, "new", new);
	if (base->kind == COMPARE_KIND_SUMMARY)
		figures_from_summary(&a, "base", base, opts, &r->base);
	else
		figures_from_runs(&a, "base", base, opts, &r->base);
	if (new->kind == COMPARE_KIND_SUMMARY)
		figures_from_summary(&a, "new", new, opts, &r->new);
	else
		figures_from_runs(&a, "new", new, opts, &r->new);
	r->base.cv = stats_cv(r->base.mean, r->base.sd);
	r->new.cv = stats_cv(r->new.mean, r->new.sd);
	if (r->base.mean != 0)
		r->change_pct = 100.0 * (r->new.mean - r->base.mean) / fabs(r->base.mean);
	if (base->kind == COMPARE_KIND_SUMMARY && new->kind == COMPARE_KIND_SUMMARY &&
	    new->mark < 0)
		check_reported_change(&a, base, new);
	run_tests(&a, base, new, opts);
	check_mark(&a, new, opts);
	if (a.oom) {
		compare_result_release(r);
		return -ENOMEM;
	}
	return 0;
}

int compare_result_family(struct compare_result *r, const struct compare_metric *base,
			  const struct compare_metric *new, const struct compare_opts *opts,
			  double adj, size_t m)
{
	struct compare_opts fo = *opts;
	struct analysis a = { .r = r };

	fo.family_p = adj;
	fo.family_n = m;
	if (isnan(adj) || m < 2)
		return 0;
	if (r->p < opts->alpha && !(adj < opts->alpha)) {
		/* the verdict changes: judge it again on the adjusted p */
		compare_result_release(r);
		return compare_analyze(base, new, &fo, r);
	}
	r->p_family = adj;
	note(&a, "Holm-Bonferroni over the %zu metrics compared together: adjusted p = %.3g",
	     m, adj);
	return a.oom ? -ENOMEM : 0;
}

void compare_result_release(struct compare_result *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
	free(r->name);
	free(r->dir_why);
	free(r->base_label);
	free(r->new_label);
	memset(r, 0, sizeof(*r));
}
