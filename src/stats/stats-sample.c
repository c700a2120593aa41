// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats-sample.c - descriptive statistics of one sample, and the check of
 * published dispersion figures against Min, Max, Avg and N.
 *
 * The standard deviation here is always the sample one (divisor n - 1).
 * stats_ss_bounds() derives, from Min, Max, Avg and N alone, the smallest
 * and largest sum of squared deviations any set of runs could have; a
 * published Variance or StdDev outside the matching range cannot be what
 * its column says.  Pure functions.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

double stats_mean(const double *x, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

double stats_harmonic_mean(const double *x, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		sum += 1.0 / x[i];
	}
	return (double)n / sum;
}

double stats_stddev(const double *x, size_t n)
{
	double mean;
	double ss = 0;
	size_t i;

	if (n < 2)
		return NAN;
	mean = stats_mean(x, n);
	for (i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (double)(n - 1));
}

double stats_cv(double mean, double sd)
{
	if (isnan(mean) || isnan(sd) || mean == 0)
		return NAN;
	return sd / fabs(mean);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a;
	double y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_median(const double *x, size_t n, double *scratch)
{
	if (!n)
		return NAN;
	memcpy(scratch, x, n * sizeof(*x));
	qsort(scratch, n, sizeof(*scratch), cmp_double);
	if (n % 2)
		return scratch[n / 2];
	return (scratch[n / 2 - 1] + scratch[n / 2]) / 2.0;
}

int stats_ss_bounds(double n, double min, double max, double mean, double *lo, double *hi)
{
	double span = max - min;
	double slack = 1e-6 * (fabs(max) + fabs(min)) + 1e-12;
	double rest;
	double r;
	double c;
	double ends;
	double k;
	double mid;

	if (!(n >= 2) || !(span >= 0) || isnan(mean))
		return -EINVAL;
	if (mean < min - slack || mean > max + slack)
		return -EINVAL;
	ends = (min - mean) * (min - mean) + (max - mean) * (max - mean);
	r = n - 2;
	if (r < 0.5) {
		*lo = ends;
		*hi = ends;
		return 0;
	}
	rest = n * mean - min - max;	/* sum of the other r runs */
	c = rest / r;
	if (c < min)
		c = min;
	if (c > max)
		c = max;
	*lo = ends + r * (c - mean) * (c - mean);
	if (span == 0) {
		*hi = *lo;
		return 0;
	}
	/* k runs at max, one at mid, r - k - 1 at min; clamp for rounding. */
	k = floor((rest - r * min) / span);
	if (k < 0)
		k = 0;
	if (k > r)
		k = r;
	if (k >= r) {
		*hi = ends + r * (max - mean) * (max - mean);
		return 0;
	}
	mid = rest - k * max - (r - k - 1) * min;
	if (mid < min)
		mid = min;
	if (mid > max)
		mid = max;
	*hi = ends + k * (max - mean) * (max - mean) + (mid - mean) * (mid - mean) +
	      (r - k - 1) * (min - mean) * (min - mean);
	return 0;
}

static bool within(double v, double lo, double hi, double tol)
{
	return v >= lo * (1.0 - tol) && v <= hi * (1.0 + tol);
}

unsigned int stats_dispersion_fits(double n, double min, double max, double mean,
				   double value, double tol)
{
	unsigned int fits = 0;
	double lo;
	double hi;

	if (!(value >= 0) || stats_ss_bounds(n, min, max, mean, &lo, &hi))
		return 0;
	if (within(value, lo / (n - 1), hi / (n - 1), 2 * tol))
		fits |= STATS_FIT_SAMPLE_VAR;
	if (within(value, lo / n, hi / n, 2 * tol))
		fits |= STATS_FIT_POP_VAR;
	if (within(value, sqrt(lo / (n - 1)), sqrt(hi / (n - 1)), tol))
		fits |= STATS_FIT_SAMPLE_SD;
	if (within(value, sqrt(lo / n), sqrt(hi / n), tol))
		fits |= STATS_FIT_POP_SD;
	return fits;
}
