// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats-dist.c - the normal, Student t and F distributions.
 *
 * Everything rests on the regularized incomplete beta function I_x(a, b),
 * evaluated by its continued fraction with the modified Lentz method:
 *
 *	I_x(a,b) = x^a (1-x)^b / (a B(a,b)) * 1 / (1 + d1 / (1 + d2 / (1 + ...)))
 *	d(2m+1)  = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1))
 *	d(2m)    = m (b - m) x / ((a + 2m - 1)(a + 2m))
 *
 * The fraction converges quickly for x < (a + 1) / (a + b + 2); beyond that
 * point I_x(a,b) = 1 - I_{1-x}(b,a) is used.  Quantiles are found by
 * bisection on the CDF (or on the upper tail, for probabilities above 1/2,
 * so that small tail areas keep their precision).  Pure functions.
 */
#include <float.h>
#include <math.h>

#include "stats.h"

#define BETA_MAX_ITER	20000
#define BETA_EPS	1e-15
#define LENTZ_TINY	1e-300
/* Above this many degrees of freedom the t distribution is the normal one. */
#define T_DF_NORMAL	1e7

/*
 * beta_fraction() - the continued fraction 1 + d1 / (1 + d2 / (1 + ...)),
 * evaluated front to back with the modified Lentz method.
 */
static double beta_fraction(double a, double b, double x)
{
	double f = 1.0;
	double c = 1.0;
	double d = 0.0;
	int j;

	for (j = 1; j <= BETA_MAX_ITER; j++) {
		int m = j / 2;
		double coef;
		double delta;

		if (j % 2)
			coef = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
		else
			coef = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
		d = 1.0 + coef * d;
		if (fabs(d) < LENTZ_TINY)
			d = LENTZ_TINY;
		c = 1.0 + coef / c;
		if (fabs(c) < LENTZ_TINY)
			c = LENTZ_TINY;
		d = 1.0 / d;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1.0) < BETA_EPS)
			break;
	}
	return f;
}

static double beta_front(double a, double b, double x)
{
	double lbeta = lgamma(a) + lgamma(b) - lgamma(a + b);

	return exp(a * log(x) + b * log1p(-x) - lbeta) / a;
}

double stats_betai(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0)
		return 0;
	if (x == 1)
		return 1;
	if (x < (a + 1.0) / (a + b + 2.0))
		return beta_front(a, b, x) / beta_fraction(a, b, x);
	return 1.0 - beta_front(b, a, 1.0 - x) / beta_fraction(b, a, 1.0 - x);
}

double stats_normal_cdf(double z)
{
	if (isnan(z))
		return NAN;
	return 0.5 * erfc(-z / M_SQRT2);
}

/*
 * solve_upper() - the x in [0, inf) where the decreasing function
 * tail(x, a1, a2) equals q: bracketed by doubling, then the Illinois variant
 * of regula falsi (the end kept twice in a row has its value halved), which
 * stays inside the bracket like bisection and converges superlinearly: about
 * ten evaluations instead of bisection's fifty (compare judges tens of
 * thousands of metrics).  A step that would not shrink the bracket falls
 * back to bisection.
 */
static double solve_upper(double (*tail)(double, double, double), double a1, double a2,
			  double q)
{
	double lo = 0.0;
	double hi = 1.0;
	double flo;
	double fhi;
	int kept = 0;	/* -1: lo was replaced last, 1: hi was */
	int i;

	while ((fhi = tail(hi, a1, a2) - q) > 0) {
		lo = hi;
		hi *= 2.0;
		if (hi > 1e300)
			return INFINITY;
	}
	flo = tail(lo, a1, a2) - q;
	if (!(flo > 0))
		return lo;
	for (i = 0; i < 2000 && hi - lo > 1e-14 * hi; i++) {
		double mid = (lo * fhi - hi * flo) / (fhi - flo);
		double fm;

		if (!(mid > lo && mid < hi) || i % 8 == 7)
			mid = lo + (hi - lo) / 2.0;	/* and every 8th step, to bound the worst case */
		if (mid <= lo || mid >= hi)
			break;
		fm = tail(mid, a1, a2) - q;
		if (fm == 0)
			return mid;
		if (fm > 0) {
			lo = mid;
			flo = fm;
			if (kept == -1)
				fhi /= 2;
			kept = -1;
		} else {
			hi = mid;
			fhi = fm;
			if (kept == 1)
				flo /= 2;
			kept = 1;
		}
	}
	return lo + (hi - lo) / 2.0;
}

/* P(Z > z) for z >= 0; the unused arguments fit solve_upper(). */
static double normal_upper(double z, double unused1, double unused2)
{
	return 0.5 * erfc(z / M_SQRT2);
}

double stats_normal_quantile(double p)
{
	if (!(p > 0) || !(p < 1))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -solve_upper(normal_upper, 0, 0, p);
	return solve_upper(normal_upper, 0, 0, 1.0 - p);
}

/* P(T > t) for t >= 0. */
static double t_upper(double t, double df, double unused)
{
	if (df > T_DF_NORMAL)
		return normal_upper(t, 0, 0);
	return 0.5 * stats_betai(df / 2.0, 0.5, df / (df + t * t));
}

double stats_t_cdf(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	if (t >= 0)
		return 1.0 - t_upper(t, df, 0);
	return t_upper(-t, df, 0);
}

/*
 * Quantiles of t with at least this many degrees of freedom come from the
 * normal quantile by the Cornish-Fisher expansion (Abramowitz and Stegun
 * 26.7.5), whose first omitted term is below 1e-6 relative here; the
 * incomplete beta function needs hundreds of continued-fraction terms at
 * such df.
 */
#define T_DF_EXPANSION	200

static double t_quantile_expansion(double p, double df)
{
	double z = stats_normal_quantile(p);
	double z2 = z * z;
	double g1 = (z2 + 1) * z / 4;
	double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
	double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
	double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;

	return z + g1 / df + g2 / (df * df) + g3 / (df * df * df) + g4 / (df * df * df * df);
}

double stats_t_quantile(double p, double df)
{
	if (!(p > 0) || !(p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (df >= T_DF_EXPANSION && p > 1e-12 && p < 1 - 1e-12)
		return t_quantile_expansion(p, df);
	if (p < 0.5)
		return -solve_upper(t_upper, df, 0, p);
	return solve_upper(t_upper, df, 0, 1.0 - p);
}

/* P(F > x) for x >= 0, computed directly so that small tails stay exact. */
static double f_upper(double x, double d1, double d2)
{
	if (x <= 0)
		return 1.0;
	if (isinf(x))
		return 0.0;
	return stats_betai(d2 / 2.0, d1 / 2.0, d2 / (d2 + d1 * x));
}

double stats_f_cdf(double x, double d1, double d2)
{
	if (!(d1 > 0) || !(d2 > 0) || isnan(x))
		return NAN;
	if (x <= 0)
		return 0.0;
	if (isinf(x))
		return 1.0;
	return stats_betai(d1 / 2.0, d2 / 2.0, d1 * x / (d1 * x + d2));
}

/* P(F <= x) as a decreasing function of 1/x, for the lower quantiles. */
static double f_lower_inv(double y, double d1, double d2)
{
	if (y <= 0)
		return 1.0;
	return stats_f_cdf(1.0 / y, d1, d2);
}

double stats_f_quantile(double p, double d1, double d2)
{
	if (!(p > 0) || !(p < 1) || !(d1 > 0) || !(d2 > 0))
		return NAN;
	if (p >= 0.5)
		return solve_upper(f_upper, d1, d2, 1.0 - p);
	return 1.0 / solve_upper(f_lower_inv, d1, d2, p);
}
