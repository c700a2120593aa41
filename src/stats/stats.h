/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - the statistics behind `schedreplay compare`.
 *
 * Pure functions: no I/O, no globals, no printing.  Sample statistics
 * (mean, harmonic mean, sample standard deviation with divisor n - 1),
 * the Student t and F distributions (CDF and quantile, through the
 * regularized incomplete beta function), Welch's unequal-variance t-test,
 * tests for a change of spread (F-test from summaries, Brown-Forsythe from
 * raw runs), a power analysis and a sanity check of published dispersion
 * columns.  Functions that cannot give an answer (too few runs, a
 * parameter out of domain) return NAN rather than a made-up number.
 */
#ifndef SR_STATS_STATS_H
#define SR_STATS_STATS_H

#include <stdbool.h>
#include <stddef.h>

/**
 * struct stats_summary - what a comparison needs to know about one side
 * @n:    number of runs (a count, kept as double for the formulas)
 * @mean: sample mean
 * @sd:   sample standard deviation (divisor n - 1); NAN when unknown
 */
struct stats_summary {
	double	n;
	double	mean;
	double	sd;
};

/**
 * stats_mean() - arithmetic mean
 * @x: values
 * @n: number of values
 *
 * Return: the mean, or NAN when @n is 0.
 */
double stats_mean(const double *x, size_t n);

/**
 * stats_harmonic_mean() - harmonic mean, n / sum(1/x)
 * @x: values, all > 0
 * @n: number of values
 *
 * Return: the harmonic mean, or NAN when @n is 0 or a value is <= 0.
 */
double stats_harmonic_mean(const double *x, size_t n);

/**
 * stats_stddev() - sample standard deviation (divisor n - 1)
 * @x: values
 * @n: number of values
 *
 * Two-pass (mean first) to avoid cancellation.
 *
 * Return: the standard deviation, or NAN when @n < 2.
 */
double stats_stddev(const double *x, size_t n);

/**
 * stats_cv() - coefficient of variation, sd / |mean|
 * @mean: the mean
 * @sd:   the standard deviation
 *
 * Return: the ratio (not a percentage), or NAN when @mean is 0 or either
 * input is NAN.
 */
double stats_cv(double mean, double sd);

/**
 * stats_median() - median of values, without changing them
 * @x:       values
 * @n:       number of values
 * @scratch: room for @n doubles, overwritten (sorted copy)
 *
 * Return: the median (mean of the middle two for even @n), NAN when @n is 0.
 */
double stats_median(const double *x, size_t n, double *scratch);

/**
 * stats_betai() - regularized incomplete beta function I_x(a, b)
 * @a: first shape, > 0
 * @b: second shape, > 0
 * @x: point, 0 <= x <= 1
 *
 * Evaluated with the continued fraction of the incomplete beta function
 * (modified Lentz method), using the symmetry I_x(a,b) = 1 - I_{1-x}(b,a)
 * where the fraction converges slowly.
 *
 * Return: I_x(a, b) in [0, 1], or NAN for arguments out of domain.
 */
double stats_betai(double a, double b, double x);

/**
 * stats_normal_cdf() - standard normal CDF
 * @z: point
 *
 * Return: P(Z <= z).
 */
double stats_normal_cdf(double z);

/**
 * stats_normal_quantile() - inverse of stats_normal_cdf()
 * @p: probability, 0 < p < 1
 *
 * Return: z with P(Z <= z) = p, or NAN when @p is out of (0, 1).
 */
double stats_normal_quantile(double p);

/**
 * stats_t_cdf() - Student t CDF
 * @t:  point
 * @df: degrees of freedom, > 0 (need not be an integer: Welch's df is not)
 *
 * Return: P(T <= t), or NAN when @df <= 0.
 */
double stats_t_cdf(double t, double df);

/**
 * stats_t_quantile() - inverse of stats_t_cdf()
 * @p:  probability, 0 < p < 1
 * @df: degrees of freedom, > 0
 *
 * Solved on the CDF by the Illinois variant of regula falsi to a relative
 * precision of about 1e-12; from 200 degrees of freedom by the
 * Cornish-Fisher expansion of the normal quantile (relative error below
 * 1e-6).
 *
 * Return: t with P(T <= t) = p, or NAN when out of domain.
 */
double stats_t_quantile(double p, double df);

/**
 * stats_f_cdf() - F distribution CDF
 * @x:  point, >= 0
 * @d1: numerator degrees of freedom, > 0
 * @d2: denominator degrees of freedom, > 0
 *
 * Return: P(F <= x) = I_{d1 x / (d1 x + d2)}(d1/2, d2/2), or NAN.
 */
double stats_f_cdf(double x, double d1, double d2);

/**
 * stats_f_quantile() - inverse of stats_f_cdf()
 * @p:  probability, 0 < p < 1
 * @d1: numerator degrees of freedom, > 0
 * @d2: denominator degrees of freedom, > 0
 *
 * Return: x with P(F <= x) = p, or NAN when out of domain.
 */
double stats_f_quantile(double p, double d1, double d2);

/**
 * struct stats_welch - result of Welch's unequal-variance t-test
 * @diff:  mean(b) - mean(a)
 * @se:    standard error of @diff, sqrt(sa^2/na + sb^2/nb)
 * @t:     @diff / @se
 * @df:    Welch-Satterthwaite degrees of freedom
 * @p:     two-sided p-value
 * @ci_lo: lower end of the confidence interval of @diff
 * @ci_hi: upper end
 */
struct stats_welch {
	double	diff;
	double	se;
	double	t;
	double	df;
	double	p;
	double	ci_lo;
	double	ci_hi;
};

/**
 * stats_welch_test() - Welch's t-test of mean(b) against mean(a)
 * @a:     first sample (base)
 * @b:     second sample (new)
 * @level: confidence level of the interval, e.g. 0.95
 * @out:   result
 *
 * When both standard deviations are 0 the test degenerates: p is 1 for equal
 * means and 0 otherwise, df is NAN and the interval is [diff, diff].
 *
 * Return: 0, or -EINVAL when a side has n < 2, an unknown sd or @level is
 * outside (0, 1).
 */
int stats_welch_test(const struct stats_summary *a, const struct stats_summary *b,
		     double level, struct stats_welch *out);

/**
 * stats_f_test() - two-sided F-test for a change of variance, from summaries
 * @a:     first sample (base)
 * @b:     second sample (new)
 * @ratio: set to the variance ratio sb^2 / sa^2 (may be INFINITY)
 * @p:     set to the two-sided p-value, 2 min(F(x), 1 - F(x)) capped at 1,
 *         with F the CDF of F(nb - 1, na - 1)
 *
 * Return: 0, or -EINVAL when a side has n < 2 or an unknown sd.
 */
int stats_f_test(const struct stats_summary *a, const struct stats_summary *b,
		 double *ratio, double *p);

/**
 * stats_brown_forsythe() - Brown-Forsythe test for a change of spread
 * @x:  first sample
 * @nx: its size, >= 2
 * @y:  second sample
 * @ny: its size, >= 2
 * @f:  set to the statistic (one-way ANOVA F of |value - group median|)
 * @p:  set to P(F(1, nx + ny - 2) >= @f)
 *
 * Allocates a scratch copy; pure otherwise.  When every deviation from the
 * median is equal within both groups the statistic is 0 (p = 1) or
 * infinite (p = 0).
 *
 * Return: 0, -EINVAL when a sample has fewer than 2 values, -ENOMEM.
 */
int stats_brown_forsythe(const double *x, size_t nx, const double *y, size_t ny,
			 double *f, double *p);

/**
 * stats_holm() - Holm-Bonferroni adjusted p-values
 * @p:   p-values (NAN ones take no part and stay NAN)
 * @n:   their number
 * @adj: receives the adjusted p-values, in the order of @p
 *
 * With the m p-values that are not NAN sorted ascending, the i-th (from 1)
 * is adjusted to max over j <= i of min(1, (m - j + 1) p_(j)); rejecting
 * where the adjusted p < alpha controls the family-wise error rate at
 * alpha.  O(n log n).
 *
 * Return: 0 or -ENOMEM.
 */
int stats_holm(const double *p, size_t n, double *adj);

/**
 * stats_runs_needed() - runs per side to detect a difference of means
 * @sa:    standard deviation of the first side
 * @sb:    standard deviation of the second side
 * @delta: difference of means to detect (its sign is ignored)
 * @alpha: two-sided significance level, e.g. 0.05
 * @power: wanted power, e.g. 0.80
 *
 * Smallest equal n per side with
 *	n >= (t(1 - alpha/2, df) + t(power, df))^2 (sa^2 + sb^2) / delta^2
 * where df is the Welch-Satterthwaite df for n runs per side,
 *	df = (n - 1) (sa^2 + sb^2)^2 / (sa^4 + sb^4).
 * The normal approximation (z quantiles) is a lower bound; from there n
 * is stepped up until it meets its own bound with t quantiles at its df.
 * The result is at least 2.
 *
 * Return: the number of runs, or NAN when @delta is 0, an sd is unknown or
 * both are 0, or a parameter is out of range.
 */
double stats_runs_needed(double sa, double sb, double delta, double alpha, double power);

/*
 * Interpretations of a published dispersion figure (see
 * stats_dispersion_fits()).  SAMPLE means divisor n - 1, POP divisor n.
 */
#define STATS_FIT_SAMPLE_VAR	(1u << 0)
#define STATS_FIT_POP_VAR	(1u << 1)
#define STATS_FIT_SAMPLE_SD	(1u << 2)
#define STATS_FIT_POP_SD	(1u << 3)

/**
 * stats_ss_bounds() - range of the sum of squared deviations
 * @n:    number of runs, >= 2
 * @min:  smallest run
 * @max:  largest run
 * @mean: mean of the runs
 * @lo:   set to the smallest possible sum of (x - mean)^2
 * @hi:   set to the largest possible one
 *
 * Two runs are fixed at @min and @max; the other n - 2 lie in [min, max]
 * and sum to n mean - min - max.  The sum of squares is smallest with all
 * of them equal and largest with as many as possible at the ends (at most
 * one in between).  The mean may be off by rounding: a remaining-run mean
 * slightly outside [min, max] is clamped.
 *
 * Return: 0, or -EINVAL when @n < 2, @min > @max, or @mean is not within
 * [min, max].
 */
int stats_ss_bounds(double n, double min, double max, double mean, double *lo, double *hi);

/**
 * stats_dispersion_fits() - which readings of a dispersion figure are possible
 * @n:     number of runs
 * @min:   smallest run
 * @max:   largest run
 * @mean:  mean of the runs
 * @value: the published figure (a "Variance" or "StdDev" column)
 * @tol:   relative slack for rounding of the published figures, e.g. 0.005
 *
 * Return: a mask of STATS_FIT_* readings that the bounds of stats_ss_bounds()
 * allow (0 when none does or the inputs are inconsistent).
 */
unsigned int stats_dispersion_fits(double n, double min, double max, double mean,
				   double value, double tol);

#endif
