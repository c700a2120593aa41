// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats-test.c - two-sample tests: Welch's t-test of means, the F-test and
 * the Brown-Forsythe test of spread, and the power analysis (runs needed).
 *
 * All take the base side first and the new side second; differences and
 * ratios are new relative to base.  Pure functions (Brown-Forsythe
 * allocates one scratch buffer).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats.h"

static bool summary_usable(const struct stats_summary *s)
{
	return s->n >= 2 && s->sd >= 0 && !isnan(s->mean);
}

int stats_welch_test(const struct stats_summary *a, const struct stats_summary *b,
		     double level, struct stats_welch *out)
{
	double va;
	double vb;
	double q;

	if (!summary_usable(a) || !summary_usable(b) || !(level > 0) || !(level < 1))
		return -EINVAL;
	va = a->sd * a->sd / a->n;
	vb = b->sd * b->sd / b->n;
	out->diff = b->mean - a->mean;
	out->se = sqrt(va + vb);
	if (out->se == 0) {
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->df = NAN;
		out->p = out->diff == 0 ? 1.0 : 0.0;
		out->ci_lo = out->diff;
		out->ci_hi = out->diff;
		return 0;
	}
	out->t = out->diff / out->se;
	out->df = (va + vb) * (va + vb) /
		  (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	out->p = 2.0 * stats_t_cdf(-fabs(out->t), out->df);
	if (out->p > 1)
		out->p = 1;
	q = stats_t_quantile(0.5 + level / 2.0, out->df);
	out->ci_lo = out->diff - q * out->se;
	out->ci_hi = out->diff + q * out->se;
	return 0;
}

int stats_f_test(const struct stats_summary *a, const struct stats_summary *b,
		 double *ratio, double *p)
{
	double lower;
	double upper;

	if (!summary_usable(a) || !summary_usable(b))
		return -EINVAL;
	if (a->sd == 0 && b->sd == 0) {
		*ratio = NAN;
		*p = 1.0;
		return 0;
	}
	if (a->sd == 0) {
		*ratio = INFINITY;
		*p = 0.0;
		return 0;
	}
	*ratio = (b->sd * b->sd) / (a->sd * a->sd);
	lower = stats_f_cdf(*ratio, b->n - 1, a->n - 1);
	upper = 1.0 - lower;
	if (lower > 0.5)	/* recompute the small tail without cancellation */
		upper = stats_betai((a->n - 1) / 2.0, (b->n - 1) / 2.0,
				    (a->n - 1) / ((a->n - 1) + (b->n - 1) * *ratio));
	*p = 2.0 * (lower < upper ? lower : upper);
	if (*p > 1)
		*p = 1;
	return 0;
}

/* Absolute deviations from the median: their mean, and their sum of squares about it. */
static void abs_dev(const double *x, size_t n, double *scratch, double *mean, double *ss)
{
	double med = stats_median(x, n, scratch);
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		scratch[i] = fabs(x[i] - med);
		sum += scratch[i];
	}
	*mean = sum / (double)n;
	*ss = 0;
	for (i = 0; i < n; i++)
		*ss += (scratch[i] - *mean) * (scratch[i] - *mean);
}

int stats_brown_forsythe(const double *x, size_t nx, const double *y, size_t ny,
			 double *f, double *p)
{
	double *scratch;
	double mx;
	double my;
	double ssx;
	double ssy;
	double grand;
	double between;
	double within;
	double df2;

	if (nx < 2 || ny < 2)
		return -EINVAL;
	scratch = malloc((nx > ny ? nx : ny) * sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	abs_dev(x, nx, scratch, &mx, &ssx);
	abs_dev(y, ny, scratch, &my, &ssy);
	free(scratch);

	df2 = (double)(nx + ny - 2);
	grand = (mx * nx + my * ny) / (double)(nx + ny);
	between = nx * (mx - grand) * (mx - grand) + ny * (my - grand) * (my - grand);
	within = ssx + ssy;
	if (within == 0) {
		*f = between == 0 ? 0 : INFINITY;
		*p = between == 0 ? 1.0 : 0.0;
		return 0;
	}
	*f = between / (within / df2);
	*p = stats_betai(df2 / 2.0, 0.5, df2 / (df2 + *f));	/* P(F(1, df2) > f) */
	return 0;
}

/* The runs per side the power formula asks for, given df. */
static double runs_for(double za, double zb, double var_sum, double delta)
{
	return (za + zb) * (za + zb) * var_sum / (delta * delta);
}

double stats_runs_needed(double sa, double sb, double delta, double alpha, double power)
{
	double var_sum;
	double ratio;
	double n;
	int i;

	if (!(sa >= 0) || !(sb >= 0) || isnan(delta) || delta == 0)
		return NAN;
	if (!(alpha > 0) || !(alpha < 1) || !(power > 0) || !(power < 1))
		return NAN;
	var_sum = sa * sa + sb * sb;
	if (var_sum == 0)
		return NAN;
	/* df = (n - 1) * ratio for n runs on each side (Welch-Satterthwaite) */
	ratio = var_sum * var_sum / (sa * sa * sa * sa + sb * sb * sb * sb);
	/*
	 * t quantiles exceed normal ones for every df, so the normal answer is
	 * a lower bound; the bound for n shrinks as n grows, so the first n
	 * that meets its own bound is the smallest one that does.
	 */
	n = ceil(runs_for(stats_normal_quantile(1 - alpha / 2), stats_normal_quantile(power),
			  var_sum, delta));
	if (n < 2)
		n = 2;
	if (!isfinite(n) || n > 1e9)
		return n;
	for (i = 0; i < 100000; i++, n++) {
		double df = (n - 1) * ratio;

		if (n >= runs_for(stats_t_quantile(1 - alpha / 2, df),
				  stats_t_quantile(power, df), var_sum, delta))
			break;
	}
	return n;
}

static const double *holm_p;

static int cmp_by_p(const void *a, const void *b)
{
	double x = holm_p[*(const size_t *)a];
	double y = holm_p[*(const size_t *)b];

	return x < y ? -1 : x > y;
}

int stats_holm(const double *p, size_t n, double *adj)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	size_t m = 0;
	double run = 0;
	size_t i;

	if (!idx)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		adj[i] = NAN;
		if (!isnan(p[i]))
			idx[m++] = i;
	}
	holm_p = p;
	qsort(idx, m, sizeof(*idx), cmp_by_p);
	holm_p = NULL;
	for (i = 0; i < m; i++) {
		double a = (double)(m - i) * p[idx[i]];

		if (a > 1)
			a = 1;
		if (a > run)
			run = a;
		adj[idx[i]] = run;
	}
	free(idx);
	return 0;
}
