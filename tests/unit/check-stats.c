// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-stats.c - src/stats against published reference values.
 *
 * Quantiles are checked to the 4 significant digits that printed t and F
 * tables give (the computed value must round to the table's value); CDFs
 * against closed forms that hold exactly for small degrees of freedom;
 * Welch's test against R's documented t.test() output on the "sleep" data
 * (Cushny and Peebles, used by Student in 1908); the power analysis
 * against Cohen's two-sample tables; Brown-Forsythe against a data set
 * worked by hand (see the comment at the test).
 */
#include <math.h>
#include <stdio.h>

#include "check-common.h"
#include "stats/stats.h"

/* True when @x rounds to @ref at @ref's 4 significant digits. */
static bool sig4(double x, double ref)
{
	double unit = pow(10.0, floor(log10(fabs(ref))) - 3);

	return fabs(x - ref) <= 0.5 * unit * (1 + 1e-9);
}

#define ck_sig4(x, ref)							\
	ck_assert_msg(sig4((x), (ref)), "%s = %.9g, expected %.4g", #x, (double)(x), (double)(ref))

#define ck_close(x, ref, tol)						\
	ck_assert_msg(fabs((x) - (ref)) <= (tol), "%s = %.12g, expected %.12g", #x,	\
		      (double)(x), (double)(ref))

/* Student t quantiles, from any printed t table. */
static const struct {
	double	p;
	double	df;
	double	t;
} t_table[] = {
	{ 0.975, 1, 12.71 }, { 0.975, 2, 4.303 }, { 0.975, 5, 2.571 },
	{ 0.975, 10, 2.228 }, { 0.975, 30, 2.042 }, { 0.95, 1, 6.314 },
	{ 0.95, 5, 2.015 }, { 0.95, 10, 1.812 }, { 0.995, 10, 3.169 },
	{ 0.995, 20, 2.845 }, { 0.9995, 1, 636.6 }, { 0.90, 4, 1.533 },
	{ 0.80, 8, 0.8889 }, { 0.99, 3, 4.541 },
};

START_TEST(test_t_quantile_table)
{
	ck_sig4(stats_t_quantile(t_table[_i].p, t_table[_i].df), t_table[_i].t);
	ck_sig4(-stats_t_quantile(1 - t_table[_i].p, t_table[_i].df), t_table[_i].t);
	ck_close(stats_t_cdf(stats_t_quantile(t_table[_i].p, t_table[_i].df), t_table[_i].df),
		 t_table[_i].p, 1e-10);
}
END_TEST

/* df = 1 is Cauchy, df = 2 has a closed form: exact references. */
START_TEST(test_t_cdf_closed_forms)
{
	static const double ts[] = { -30, -4.2, -1, -0.3, 0, 0.25, 1.5, 3, 12.7062, 100 };
	size_t i;

	for (i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
		double t = ts[i];

		ck_close(stats_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12);
		ck_close(stats_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-12);
	}
	ck_assert(isnan(stats_t_cdf(1, 0)));
	ck_assert(isnan(stats_t_quantile(1.5, 3)));
	ck_close(stats_t_cdf(1.959964, 1e9), 0.975, 1e-7);	/* normal limit */
}
END_TEST

/* F quantiles from standard F tables (upper 5%, 2.5% and 1% points). */
static const struct {
	double	p;
	double	d1;
	double	d2;
	double	f;
} f_table[] = {
	{ 0.95, 1, 1, 161.4 }, { 0.95, 2, 2, 19.00 }, { 0.95, 4, 4, 6.388 },
	{ 0.95, 5, 10, 3.326 }, { 0.95, 10, 10, 2.978 }, { 0.95, 3, 10, 3.708 },
	{ 0.95, 1, 8, 5.318 }, { 0.95, 2, 20, 3.493 }, { 0.99, 1, 10, 10.04 },
	{ 0.99, 5, 5, 10.97 }, { 0.99, 2, 3, 30.82 }, { 0.975, 4, 4, 9.605 },
	{ 0.975, 6, 12, 3.728 },
};

START_TEST(test_f_quantile_table)
{
	double p = f_table[_i].p;
	double d1 = f_table[_i].d1;
	double d2 = f_table[_i].d2;

	ck_sig4(stats_f_quantile(p, d1, d2), f_table[_i].f);
	/* lower points are reciprocals of upper points with df swapped */
	ck_sig4(1.0 / stats_f_quantile(1 - p, d2, d1), f_table[_i].f);
	ck_close(stats_f_cdf(stats_f_quantile(p, d1, d2), d1, d2), p, 1e-10);
}
END_TEST

START_TEST(test_f_cdf_closed_forms)
{
	static const double xs[] = { 0.01, 0.2, 1, 3.7, 19, 161.45, 5000 };
	size_t i;

	for (i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
		ck_close(stats_f_cdf(xs[i], 2, 2), xs[i] / (1 + xs[i]), 1e-12);
		ck_close(stats_f_cdf(xs[i], 1, 1), 2 / M_PI * atan(sqrt(xs[i])), 1e-12);
	}
	ck_close(stats_f_cdf(0, 3, 4), 0, 0);
	ck_assert(isnan(stats_f_cdf(1, 0, 4)));
}
END_TEST

START_TEST(test_betai_identities)
{
	ck_close(stats_betai(1, 1, 0.3), 0.3, 1e-14);
	ck_close(stats_betai(3, 1, 0.7), pow(0.7, 3), 1e-14);
	ck_close(stats_betai(1, 4, 0.2), 1 - pow(0.8, 4), 1e-14);
	ck_close(stats_betai(7.5, 7.5, 0.5), 0.5, 1e-13);
	ck_close(stats_betai(2.5, 40, 0.05) + stats_betai(40, 2.5, 0.95), 1, 1e-13);
	ck_assert(isnan(stats_betai(-1, 2, 0.5)));
	ck_assert(isnan(stats_betai(1, 2, 1.5)));
}
END_TEST

START_TEST(test_normal)
{
	ck_sig4(stats_normal_quantile(0.975), 1.960);
	ck_sig4(stats_normal_quantile(0.95), 1.645);
	ck_sig4(stats_normal_quantile(0.80), 0.8416);
	ck_sig4(stats_normal_quantile(0.005), -2.576);
	ck_close(stats_normal_cdf(0), 0.5, 1e-15);
	ck_sig4(stats_normal_cdf(1), 0.8413);
}
END_TEST

START_TEST(test_descriptive)
{
	static const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	static const double r[] = { 1, 2, 4 };
	double scratch[8];

	ck_close(stats_mean(x, 8), 5, 1e-15);
	ck_close(stats_stddev(x, 8), sqrt(32.0 / 7), 1e-14);	/* population sd is 2 */
	ck_close(stats_harmonic_mean(r, 3), 3 / 1.75, 1e-15);
	ck_close(stats_median(x, 8, scratch), 4.5, 0);
	ck_close(stats_median(r, 3, scratch), 2, 0);
	ck_close(stats_cv(-10, 2), 0.2, 1e-15);
	ck_assert(isnan(stats_stddev(x, 1)));
	ck_assert(isnan(stats_mean(x, 0)));
	ck_assert(isnan(stats_harmonic_mean(x, 0)));
}
END_TEST

/*
 * R: t.test(extra ~ group, data = sleep) prints
 *	t = -1.8608, df = 17.776, p-value = 0.07939
 *	95 percent confidence interval: -3.3654832  0.2054832
 *	mean in group 1 0.75, mean in group 2 2.33
 * (group 1 minus group 2; here base = group 2, new = group 1).
 */
START_TEST(test_welch_sleep)
{
	static const double g1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
	static const double g2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };
	struct stats_summary a = { 10, stats_mean(g2, 10), stats_stddev(g2, 10) };
	struct stats_summary b = { 10, stats_mean(g1, 10), stats_stddev(g1, 10) };
	struct stats_welch w;

	ck_assert_int_eq(stats_welch_test(&a, &b, 0.95, &w), 0);
	ck_close(a.mean, 2.33, 1e-12);
	ck_close(b.mean, 0.75, 1e-12);
	ck_close(w.t, -1.8608, 0.00005);
	ck_close(w.df, 17.776, 0.0005);
	ck_sig4(w.p, 0.07939);
	ck_close(w.ci_lo, -3.3654832, 5e-7);
	ck_close(w.ci_hi, 0.2054832, 5e-7);
	/* swapping sides flips t and the interval, not p */
	ck_assert_int_eq(stats_welch_test(&b, &a, 0.95, &w), 0);
	ck_close(w.t, 1.8608, 0.00005);
	ck_sig4(w.p, 0.07939);
}
END_TEST

START_TEST(test_welch_degenerate)
{
	struct stats_summary a = { 5, 10, 0 };
	struct stats_summary b = { 5, 10, 0 };
	struct stats_summary one = { 1, 10, 0 };
	struct stats_welch w;

	ck_assert_int_eq(stats_welch_test(&a, &b, 0.95, &w), 0);
	ck_close(w.p, 1, 0);
	b.mean = 11;
	ck_assert_int_eq(stats_welch_test(&a, &b, 0.95, &w), 0);
	ck_close(w.p, 0, 0);
	ck_assert_int_lt(stats_welch_test(&a, &one, 0.95, &w), 0);
	b.sd = NAN;
	ck_assert_int_lt(stats_welch_test(&a, &b, 0.95, &w), 0);
}
END_TEST

START_TEST(test_f_test)
{
	struct stats_summary a = { 5, 0, 1 };
	struct stats_summary b = { 5, 0, sqrt(6.38823) };	/* F.95(4,4) */
	double ratio;
	double p;

	ck_assert_int_eq(stats_f_test(&a, &b, &ratio, &p), 0);
	ck_close(ratio, 6.38823, 1e-9);
	ck_sig4(p, 0.1000);	/* two-sided: twice the upper 5% */
	ck_assert_int_eq(stats_f_test(&b, &a, &ratio, &p), 0);
	ck_sig4(p, 0.1000);
	a.sd = 0;
	ck_assert_int_eq(stats_f_test(&a, &b, &ratio, &p), 0);
	ck_assert(isinf(ratio));
	ck_close(p, 0, 0);
}
END_TEST

/*
 * x = 1..5 (median 3): |x - 3| = 2 1 0 1 2, mean 1.2, SS 2.8;
 * y = 2,4,..,10 (median 6): 4 2 0 2 4, mean 2.4, SS 11.2.
 * Grand mean 1.8; between = 5 * 0.36 * 2 = 3.6; within = 14 on 8 df;
 * F = 3.6 / (14 / 8) = 72/35.  With one numerator df, F = t^2 on 8 df,
 * so p = 2 P(T8 > sqrt(72/35)) = P(F(1, 8) > 72/35), the distribution
 * whose upper 5% point is 5.318 in F tables.
 */
START_TEST(test_brown_forsythe)
{
	static const double x[] = { 1, 2, 3, 4, 5 };
	static const double y[] = { 2, 4, 6, 8, 10 };
	static const double same[] = { 7, 7, 7 };
	double f;
	double p;

	ck_assert_int_eq(stats_brown_forsythe(x, 5, y, 5, &f, &p), 0);
	ck_close(f, 72.0 / 35.0, 1e-12);
	ck_close(p, 2 * stats_t_cdf(-sqrt(72.0 / 35.0), 8), 1e-12);
	ck_close(p, 1 - stats_f_cdf(72.0 / 35.0, 1, 8), 1e-12);
	ck_sig4(stats_f_quantile(0.95, 1, 8), 5.318);
	/* shuffling within a group changes nothing */
	{
		static const double y2[] = { 10, 2, 8, 4, 6 };
		double f2;
		double p2;

		ck_assert_int_eq(stats_brown_forsythe(x, 5, y2, 5, &f2, &p2), 0);
		ck_close(f2, f, 1e-12);
	}
	ck_assert_int_eq(stats_brown_forsythe(same, 3, same, 3, &f, &p), 0);
	ck_close(p, 1, 0);
	ck_assert_int_lt(stats_brown_forsythe(x, 1, y, 5, &f, &p), 0);
}
END_TEST

/*
 * Cohen's tables for the two-sample t test, alpha 0.05 two-sided, power
 * 0.80: d = 1.0 needs 17 per group, d = 0.5 needs 64, d = 0.8 needs 26.
 */
START_TEST(test_runs_needed)
{
	ck_close(stats_runs_needed(1, 1, 1.0, 0.05, 0.80), 17, 0);
	ck_close(stats_runs_needed(1, 1, 0.5, 0.05, 0.80), 64, 0);
	ck_close(stats_runs_needed(2, 2, -1.6, 0.05, 0.80), 26, 0);
	ck_assert(isnan(stats_runs_needed(1, 1, 0, 0.05, 0.8)));
	ck_assert(isnan(stats_runs_needed(0, 0, 1, 0.05, 0.8)));
	ck_assert(stats_runs_needed(1, 1, 100, 0.05, 0.8) >= 2);
}
END_TEST

START_TEST(test_dispersion_fits)
{
	double lo;
	double hi;

	/* 1..5: sample variance 2.5, sd 1.5811; bounds for n 5, 1..5, mean 3 */
	ck_assert_int_eq(stats_ss_bounds(5, 1, 5, 3, &lo, &hi), 0);
	ck_close(lo, 8, 1e-12);
	ck_close(hi, 16, 1e-12);
	ck_assert(stats_dispersion_fits(5, 1, 5, 3, 2.5, 0.005) & STATS_FIT_SAMPLE_VAR);
	ck_assert(stats_dispersion_fits(5, 1, 5, 3, 1.5811, 0.005) & STATS_FIT_SAMPLE_SD);
	ck_assert(!(stats_dispersion_fits(5, 1, 5, 3, 1.5811, 0.005) & STATS_FIT_SAMPLE_VAR));
	ck_assert_uint_eq(stats_dispersion_fits(5, 1, 5, 3, 100, 0.005), 0);
	ck_assert_int_lt(stats_ss_bounds(5, 1, 5, 6, &lo, &hi), 0);
	/* seed 000, Power8 dbench rows: "Variance" fits only an sd with divisor n */
	ck_assert_uint_eq(stats_dispersion_fits(5, 4968.51, 5006.62, 4981.31, 13.4151, 0.005),
			  STATS_FIT_POP_SD);
	ck_assert_uint_eq(stats_dispersion_fits(5, 4319.79, 4998.19, 4836.53, 261.109, 0.005),
			  STATS_FIT_POP_SD);
	/* two runs: the sum of squares is fixed */
	ck_assert_int_eq(stats_ss_bounds(2, 10, 14, 12, &lo, &hi), 0);
	ck_close(lo, 8, 1e-12);
	ck_close(hi, 8, 1e-12);
}
END_TEST

/* Holm-Bonferroni, as R's p.adjust(c(0.01, 0.04, 0.03, 0.005, NA), "holm") */
START_TEST(test_holm)
{
	const double p[] = { 0.01, 0.04, 0.03, 0.005, NAN };
	const double want[] = { 0.03, 0.06, 0.06, 0.02 };
	const double big[] = { 0.5, 0.9 };
	double adj[5];
	size_t i;

	ck_assert_int_eq(stats_holm(p, 5, adj), 0);
	for (i = 0; i < 4; i++)
		ck_assert_double_eq_tol(adj[i], want[i], 1e-12);
	ck_assert(isnan(adj[4]));
	ck_assert_int_eq(stats_holm(big, 2, adj), 0);
	ck_assert(adj[0] == 1.0 && adj[1] == 1.0);
	ck_assert_int_eq(stats_holm(p, 0, adj), 0);
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("distributions");
	TCase *tt = tcase_create("tests");

	tcase_add_loop_test(tc, test_t_quantile_table, 0, sizeof(t_table) / sizeof(t_table[0]));
	tcase_add_test(tc, test_t_cdf_closed_forms);
	tcase_add_loop_test(tc, test_f_quantile_table, 0, sizeof(f_table) / sizeof(f_table[0]));
	tcase_add_test(tc, test_f_cdf_closed_forms);
	tcase_add_test(tc, test_betai_identities);
	tcase_add_test(tc, test_normal);
	suite_add_tcase(s, tc);
	tcase_add_test(tt, test_descriptive);
	tcase_add_test(tt, test_welch_sleep);
	tcase_add_test(tt, test_welch_degenerate);
	tcase_add_test(tt, test_f_test);
	tcase_add_test(tt, test_brown_forsythe);
	tcase_add_test(tt, test_runs_needed);
	tcase_add_test(tt, test_dispersion_fits);
	tcase_add_test(tt, test_holm);
	suite_add_tcase(s, tt);
	return s;
}

SR_CHECK_MAIN(stats_suite)
