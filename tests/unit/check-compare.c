// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-compare.c - the readers and the analysis of src/compare.
 *
 * Fixtures are fixtures/compare/ (seed tables copied verbatim, synthetic
 * plain numbers, columns and replay reports); malformed inputs are written
 * to temporary files by the tests themselves.
 */
#include <errno.h>
#include <math.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check-common.h"
#include "compare/compare.h"

#define ck_close(x, ref, tol)						\
	ck_assert_msg(fabs((x) - (ref)) <= (tol), "%s = %.12g, expected %.12g", #x,	\
		      (double)(x), (double)(ref))

static const struct compare_read_opts no_count = { 0 };
static const struct compare_read_opts count5 = { .count = 5 };

/* Write @text to a new temporary file; returns its path (static buffer per call site). */
static void tmp_file(char *path, size_t len, const char *text, size_t n)
{
	int fd;

	snprintf(path, len, "/tmp/check-compare-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, n), (ssize_t)n);
	close(fd);
}

/* Read @text as a file; return the code and fill @e. */
static int read_text(struct compare_side *s, const char *text, size_t n,
		     const struct compare_read_opts *o, struct err *e)
{
	char path[64];
	int ret;

	tmp_file(path, sizeof(path), text, n);
	ret = compare_read_file(s, path, o, e);
	unlink(path);
	return ret;
}

static bool has_note(const struct compare_result *r, const char *needle)
{
	size_t i;

	for (i = 0; i < r->nnotes; i++)
		if (strstr(r->notes[i], needle))
			return true;
	return false;
}

START_TEST(test_seed000_tables)
{
	struct compare_side all;
	struct compare_side base;
	struct compare_side new;
	struct compare_metric *b;
	struct compare_metric *n;
	struct err e = { 0 };

	compare_side_init(&all);
	compare_side_init(&base);
	compare_side_init(&new);
	ck_assert_int_eq(compare_read_file(&all, SR_FIXTURE("compare/seed000-dbench.txt"),
					   &no_count, &e), 0);
	ck_assert_uint_eq(all.n, 8);
	ck_assert_int_ne(compare_side_check_unique(&all, &e), 0);
	err_clear(&e);
	ck_assert_int_eq(compare_side_split_pairs(&all, &base, &new, &e), 0);
	ck_assert_uint_eq(base.n, 4);
	ck_assert_uint_eq(new.n, 4);
	ck_assert_str_eq(base.m[0].name, "dbench on 2 Socket/2 Node Intel");
	b = compare_side_find(&base, "dbench on 2 Socket/4 Node Power8 (PowerNV)");
	n = compare_side_find(&new, "dbench on 2 Socket/4 Node Power8 (PowerNV)");
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(n);
	ck_assert_int_eq(b->kind, COMPARE_KIND_SUMMARY);
	ck_assert_uint_eq(b->line, 10);
	ck_close(b->count, 5, 0);
	ck_close(b->min, 4968.51, 1e-9);
	ck_close(b->max, 5006.62, 1e-9);
	ck_close(b->mean, 4981.31, 1e-9);
	ck_close(b->disp, 13.4151, 1e-9);
	ck_assert_int_eq(b->disp_kind, COMPARE_DISP_VAR);
	ck_assert(isnan(b->change));
	ck_close(n->change, -2.90646, 1e-9);
	ck_close(n->disp, 261.109, 1e-9);
	compare_side_release(&all);
	compare_side_release(&base);
	compare_side_release(&new);
}
END_TEST

/* The "Done when" of issue 7: the Power8 rows as the reviewer quoted them. */
START_TEST(test_seed000_power8_verdict)
{
	struct compare_side all;
	struct compare_side base;
	struct compare_side new;
	struct compare_opts o = { .alpha = 0.05, .higher_is_better = true };
	struct compare_result r;
	struct err e = { 0 };

	compare_side_init(&all);
	compare_side_init(&base);
	compare_side_init(&new);
	ck_assert_int_eq(compare_read_file(&all, SR_FIXTURE("compare/seed000-power8.txt"),
					   &no_count, &e), 0);
	ck_assert_int_eq(compare_side_split_pairs(&all, &base, &new, &e), 0);
	ck_assert_uint_eq(base.n, 1);
	ck_assert_int_eq(compare_analyze(&base.m[0], &new.m[0], &o, &r), 0);
	ck_close(r.change_pct, -2.90646, 5e-5);
	/* "Variance" read as an sd with divisor n: s = v sqrt(5/4) */
	ck_close(r.base.sd, 13.4151 * sqrt(1.25), 1e-9);
	ck_close(r.new.sd, 261.109 * sqrt(1.25), 1e-9);
	ck_assert(has_note(&r, "looks like a standard deviation computed with divisor n"));
	ck_assert(r.p > 0.3 && r.p < 0.36);
	ck_assert(r.ci_lo < 0 && r.ci_hi > 0);
	ck_close(r.spread_ratio, 261.109 / 13.4151, 1e-9);
	ck_assert(r.spread_p < 0.001);
	ck_assert_int_eq(r.verdict, COMPARE_INCONCLUSIVE);
	ck_assert_str_eq(compare_verdict_name(r.verdict), "inconclusive");
	ck_assert(r.runs_needed >= 30 && r.runs_needed <= 40);
	compare_result_release(&r);
	compare_side_release(&all);
	compare_side_release(&base);
	compare_side_release(&new);
}
END_TEST

START_TEST(test_seed002_tables)
{
	struct compare_side all;
	struct compare_side base;
	struct compare_side new;
	struct compare_opts o = { .alpha = 0.05, .higher_is_better = false, .dir_given = true };
	struct compare_result r;
	struct compare_metric *m;
	struct err e = { 0 };

	compare_side_init(&all);
	compare_side_init(&base);
	compare_side_init(&new);
	/* no count column: an error at the first header, line 5 */
	ck_assert_int_eq(compare_read_file(&all, SR_FIXTURE("compare/seed002-autonuma.txt"),
					   &no_count, &e), -SR_EBADTEXT);
	ck_assert_str_eq(e.where, "line 5");
	ck_assert(strstr(e.msg, "--count"));
	compare_side_release(&all);
	err_clear(&e);
	ck_assert_int_eq(compare_read_file(&all, SR_FIXTURE("compare/seed002-autonuma.txt"),
					   &count5, &e), 0);
	ck_assert_uint_eq(all.n, 16);
	ck_assert_int_eq(compare_side_split_pairs(&all, &base, &new, &e), 0);
	m = compare_side_find(&new, "system_numa01");
	ck_assert_ptr_nonnull(m);
	ck_close(m->disp, 290.98, 1e-9);
	ck_assert_int_eq(m->disp_kind, COMPARE_DISP_SD);
	ck_close(m->change, 26.14, 1e-9);
	ck_assert_int_eq(compare_analyze(compare_side_find(&base, "elapsed_numa01"),
					 compare_side_find(&new, "elapsed_numa01"), &o, &r), 0);
	ck_assert(has_note(&r, "(base Avg - new Avg) / new Max"));
	ck_assert_int_eq(r.verdict, COMPARE_NO_DIFFERENCE);
	ck_assert(!isnan(r.runs_needed));
	compare_result_release(&r);
	compare_side_release(&all);
	compare_side_release(&base);
	compare_side_release(&new);
}
END_TEST

START_TEST(test_numbers_and_columns)
{
	struct compare_side b;
	struct compare_side n;
	struct compare_opts o = { .alpha = 0.05, .higher_is_better = false };
	struct compare_result r;
	struct compare_metric *m;
	struct err e = { 0 };

	compare_side_init(&b);
	compare_side_init(&n);
	ck_assert_int_eq(compare_read_file(&b, SR_FIXTURE("compare/numbers-base.txt"),
					   &no_count, &e), 0);
	ck_assert_uint_eq(b.n, 1);
	ck_assert_str_eq(b.m[0].name, "value");
	ck_assert_int_eq(b.m[0].kind, COMPARE_KIND_NUMBERS);
	ck_assert_uint_eq(b.m[0].nruns, 5);
	ck_close(b.m[0].runs[4], 5006.62, 1e-9);
	compare_side_release(&b);

	ck_assert_int_eq(compare_read_file(&b, SR_FIXTURE("compare/runs-base.txt"),
					   &no_count, &e), 0);
	ck_assert_int_eq(compare_read_file(&n, SR_FIXTURE("compare/runs-new.txt"),
					   &no_count, &e), 0);
	ck_assert_uint_eq(b.n, 3);
	m = compare_side_find(&b, "user");
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(m->kind, COMPARE_KIND_COLUMNS);
	ck_assert_uint_eq(m->nruns, 5);
	ck_close(m->runs[0], 55810.3, 1e-9);
	ck_assert_int_eq(compare_analyze(compare_side_find(&b, "elapsed"),
					 compare_side_find(&n, "elapsed"), &o, &r), 0);
	ck_assert_int_eq(r.verdict, COMPARE_BETTER);
	ck_assert(r.p < 0.001);
	ck_assert(has_note(&r, "Brown-Forsythe"));
	ck_assert(isnan(r.runs_needed));
	compare_result_release(&r);
	o.higher_is_better = true;
	o.dir_given = true;
	ck_assert_int_eq(compare_analyze(compare_side_find(&b, "elapsed"),
					 compare_side_find(&n, "elapsed"), &o, &r), 0);
	ck_assert_int_eq(r.verdict, COMPARE_WORSE);
	compare_result_release(&r);
	ck_assert_int_eq(compare_analyze(compare_side_find(&b, "system"),
					 compare_side_find(&n, "system"), &o, &r), 0);
	ck_assert_int_eq(r.verdict, COMPARE_NO_DIFFERENCE);
	ck_assert(r.runs_needed > 5);
	compare_result_release(&r);
	compare_side_release(&b);
	compare_side_release(&n);
}
END_TEST

START_TEST(test_reports)
{
	struct compare_side s;
	struct compare_metric *m;
	struct err e = { 0 };
	int i;

	compare_side_init(&s);
	for (i = 1; i <= 3; i++) {
		char path[256];

		snprintf(path, sizeof(path), SR_FIXTURE("compare/report-base-%d.json"), i);
		ck_assert_int_eq(compare_read_file(&s, path, &no_count, &e), 0);
	}
	m = compare_side_find(&s, "disagreements");
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(m->kind, COMPARE_KIND_REPORT);
	ck_assert_uint_eq(m->nruns, 3);
	ck_assert_uint_eq(m->nfiles, 3);
	ck_close(m->runs[2], 49, 0);
	/* the headline figures only, by default */
	ck_assert_ptr_null(compare_side_find(&s, "by_class.numa_swap.disagreements"));
	ck_assert_ptr_null(compare_side_find(&s, "cost.remote_access_ns.new"));
	ck_assert_ptr_null(compare_side_find(&s, "label"));
	ck_assert_ptr_null(compare_side_find(&s, "schema"));
	compare_side_release(&s);
	/* --metric picks others, by name or dotted prefix */
	{
		const char *pick[] = { "by_class", "cost.remote_access_ns.new" };
		struct compare_read_opts ro = { .metrics = pick, .nmetrics = 2 };

		compare_side_init(&s);
		ck_assert_int_eq(compare_read_file(&s, SR_FIXTURE("compare/report-base-1.json"),
						   &ro, &e), 0);
		ck_assert_ptr_nonnull(compare_side_find(&s, "by_class.numa_swap.disagreements"));
		m = compare_side_find(&s, "cost.remote_access_ns.new");
		ck_assert_ptr_nonnull(m);
		ck_close(m->runs[0], 119700, 0);
		ck_assert_ptr_null(compare_side_find(&s, "disagreements"));
		compare_side_release(&s);
	}
}
END_TEST

static const struct {
	const char	*text;
	int		code;
	const char	*where;
} bad_inputs[] = {
	{ "1\n2\nthree\n", -SR_EBADTEXT, "line 3" },
	{ "a b\n1 2\n3\n", -SR_EBADTEXT, "line 3" },
	{ "# nothing\n\n", -SR_EEMPTY, "" },
	{ "", -SR_EEMPTY, "" },
	{ "1\n2\nnan\n", -SR_EBADTEXT, "line 3" },
	{ "{\"summary\": {\"decisions\": 3,}}", -SR_EBADTEXT, "line 1" },
	{ "{\"runs\": [1, 2]}", -SR_EUNSUPPORTED, "" },
	{ "{\"summary\": {\"label\": \"x\"}}", -SR_EEMPTY, "" },
	{ "count Min Max Avg StdDev\n5 1 2 1.5 0.5\n5 1 2 1.5\n", -SR_EBADTEXT, "line 3" },
	{ "count Min Max Avg StdDev\n5.5 1 2 1.5 0.5\n", -SR_EBADTEXT, "line 2" },
	{ "count Min Max Avg StdDev\n", -SR_EEMPTY, "" },
	{ "x\n1\n2\0\n", -SR_EUNSUPPORTED, "byte 5" },
};

START_TEST(test_bad_inputs)
{
	struct compare_side s;
	struct err e = { 0 };
	const char *text = bad_inputs[_i].text;
	size_t len = strlen(text);

	if (_i == 11)
		len = 8;	/* the one with a NUL byte */
	compare_side_init(&s);
	ck_assert_int_eq(read_text(&s, text, len, &no_count, &e), bad_inputs[_i].code);
	ck_assert_str_eq(e.where, bad_inputs[_i].where);
	ck_assert(strstr(e.file, "/tmp/check-compare-"));
	compare_side_release(&s);
}
END_TEST

START_TEST(test_table_layouts)
{
	static const char text[] =
		"Some prose 5 runs\n"
		"\tName:  N  Min  Max  Mean  SD\n"
		"  a:  4  1  5  3  1.8257\n"
		"  b\x1b[2J:  4  10  10  10  0\n"
		"\n"
		"count Min Max Avg Variance %Change\n"
		"named 3 1 3 2 1\n";
	struct compare_side s;
	struct err e = { 0 };
	struct compare_metric *m;

	compare_side_init(&s);
	ck_assert_int_eq(read_text(&s, text, sizeof(text) - 1, &no_count, &e), 0);
	ck_assert_uint_eq(s.n, 3);
	m = compare_side_find(&s, "a");
	ck_assert_ptr_nonnull(m);
	ck_close(m->count, 4, 0);
	ck_close(m->disp, 1.8257, 1e-12);
	ck_assert_str_eq(s.m[1].name, "b?[2J");	/* escape byte neutralised */
	m = compare_side_find(&s, "named");
	ck_assert_ptr_nonnull(m);
	ck_close(m->count, 3, 0);
	ck_assert_int_eq(m->disp_kind, COMPARE_DISP_VAR);
	ck_assert(isnan(m->change));
	compare_side_release(&s);
}
END_TEST

START_TEST(test_json_output)
{
	struct compare_side b;
	struct compare_side n;
	struct compare_opts o = { .alpha = 0.05, .higher_is_better = true };
	struct compare_result r;
	struct err e = { 0 };
	json_t *j;
	json_t *m;

	compare_side_init(&b);
	compare_side_init(&n);
	ck_assert_int_eq(compare_read_file(&b, SR_FIXTURE("compare/numbers-base.txt"),
					   &no_count, &e), 0);
	ck_assert_int_eq(compare_read_file(&n, SR_FIXTURE("compare/numbers-new.txt"),
					   &no_count, &e), 0);
	ck_assert_int_eq(compare_analyze(&b.m[0], &n.m[0], &o, &r), 0);
	j = compare_results_json(&r, 1);
	ck_assert_ptr_nonnull(j);
	m = json_array_get(json_object_get(j, "metrics"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(m, "verdict")), "better");
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(m, "base"), "n")), 5);
	ck_assert(json_is_real(json_object_get(json_object_get(m, "new"), "stddev")));
	ck_assert_uint_eq(json_array_size(json_object_get(m, "ci95")), 2);
	ck_assert(json_is_null(json_object_get(m, "runs_needed")));
	ck_assert(json_is_array(json_object_get(m, "notes")));
	ck_assert_uint_eq(json_object_size(m), 16);
	json_decref(j);
	compare_result_release(&r);
	compare_side_release(&b);
	compare_side_release(&n);
}
END_TEST

/*
 * Found by fuzz-compare-text: a change far too small for its spread gave a
 * runs_needed past 2^53 (or inf), which the JSON writer cast to an integer
 * (undefined behaviour).  It is now "none feasible": NaN, null in JSON, and
 * a note that says so.
 */
START_TEST(test_runs_needed_unbounded)
{
	static const char base_txt[] = "0\n2\n0\n2\n0\n2\n";
	static const char new_txt[] = "0\n2\n0\n2\n0\n2.000000001\n";
	/* spreads whose squares overflow: runs_needed came out inf */
	static const char huge_base[] = "1e200\n-1e200\n1e200\n-1e200\n0\n";
	static const char huge_new[] = "1e200\n-1e200\n1e200\n-1e200\n1\n";
	struct compare_opts o = { .alpha = 0.05, .higher_is_better = true };
	struct compare_side b;
	struct compare_side n;
	struct compare_result r;
	struct err e = { 0 };
	json_t *j;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		compare_side_init(&b);
		compare_side_init(&n);
		ck_assert_int_eq(read_text(&b, pass ? huge_base : base_txt,
					   pass ? sizeof(huge_base) - 1 : sizeof(base_txt) - 1,
					   &no_count, &e), 0);
		ck_assert_int_eq(read_text(&n, pass ? huge_new : new_txt,
					   pass ? sizeof(huge_new) - 1 : sizeof(new_txt) - 1,
					   &no_count, &e), 0);
		ck_assert_int_eq(compare_analyze(&b.m[0], &n.m[0], &o, &r), 0);
		ck_assert(isnan(r.runs_needed));
		if (pass) {
			/* the squares overflow: no figure can be trusted (issue 22) */
			ck_assert_int_eq(r.verdict, COMPARE_INCONCLUSIVE);
			ck_assert(has_note(&r, "too large"));
		} else {
			ck_assert_int_eq(r.verdict, COMPARE_NO_DIFFERENCE);
			ck_assert(has_note(&r, "too small for any feasible number of runs"));
		}
		j = compare_results_json(&r, 1);
		ck_assert_ptr_nonnull(j);
		ck_assert(json_is_null(json_object_get(json_array_get(json_object_get(j, "metrics"), 0),
						       "runs_needed")));
		json_decref(j);
		compare_result_release(&r);
		compare_side_release(&b);
		compare_side_release(&n);
	}
}
END_TEST

/* Values near 1e308: the mean overflows; never "no difference" (issue 22). */
START_TEST(test_overflow_inconclusive)
{
	static const char big[] = "1.7e308\n1.7e308\n1.6e308\n1.7e308\n";
	struct compare_opts o = { .alpha = 0.05, .higher_is_better = true };
	struct compare_side b;
	struct compare_side n;
	struct compare_result r;
	struct err e = { 0 };

	compare_side_init(&b);
	compare_side_init(&n);
	ck_assert_int_eq(read_text(&b, big, sizeof(big) - 1, &no_count, &e), 0);
	ck_assert_int_eq(read_text(&n, big, sizeof(big) - 1, &no_count, &e), 0);
	ck_assert_int_eq(compare_analyze(&b.m[0], &n.m[0], &o, &r), 0);
	ck_assert_int_eq(r.verdict, COMPARE_INCONCLUSIVE);
	ck_assert(has_note(&r, "too large"));
	compare_result_release(&r);
	compare_side_release(&b);
	compare_side_release(&n);
}
END_TEST

/*
 * 50k metrics on each side are read and paired in well under a second of
 * CPU time (CPU time, so a busy machine does not fail the test).
 */
START_TEST(test_many_metrics_fast)
{
	enum { N = 50000 };
	struct compare_side b;
	struct compare_side n;
	struct compare_pair *pairs;
	size_t npairs;
	struct err e = { 0 };
	struct timespec t0;
	struct timespec t1;
	char *text = malloc((size_t)N * 64 + 64);
	size_t len = 0;
	double secs;
	int i;

	ck_assert_ptr_nonnull(text);
	len += (size_t)sprintf(text, "name count Min Max Avg StdDev\n");
	for (i = 0; i < N; i++)
		len += (size_t)sprintf(text + len, "m%d 5 1 3 2 0.8\n", i);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	compare_side_init(&b);
	compare_side_init(&n);
	ck_assert_int_eq(read_text(&b, text, len, &no_count, &e), 0);
	ck_assert_int_eq(read_text(&n, text, len, &no_count, &e), 0);
	ck_assert_uint_eq(b.n, N);
	ck_assert_int_eq(compare_side_check_unique(&b, &e), 0);
	ck_assert_int_eq(compare_make_pairs(&b, &n, NULL, &pairs, &npairs), 0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	ck_assert_uint_eq(npairs, N);
	ck_assert_ptr_eq(pairs[N - 1].new, &n.m[N - 1]);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	fprintf(stderr, "50k metrics: %.3f s of CPU\n", secs);
	ck_assert_msg(secs < 1.0, "50k metrics took %.2f s", secs);
	free(pairs);
	free(text);
	compare_side_release(&b);
	compare_side_release(&n);
}
END_TEST

static Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tr = tcase_create("readers");
	TCase *ta = tcase_create("analysis");

	tcase_add_test(tr, test_seed000_tables);
	tcase_add_test(tr, test_seed002_tables);
	tcase_add_test(tr, test_numbers_and_columns);
	tcase_add_test(tr, test_reports);
	tcase_add_loop_test(tr, test_bad_inputs, 0, sizeof(bad_inputs) / sizeof(bad_inputs[0]));
	tcase_add_test(tr, test_table_layouts);
	suite_add_tcase(s, tr);
	tcase_add_test(ta, test_seed000_power8_verdict);
	tcase_add_test(ta, test_json_output);
	tcase_add_test(ta, test_runs_needed_unbounded);
	tcase_add_test(ta, test_overflow_inconclusive);
	tcase_add_test(ta, test_many_metrics_fast);
	suite_add_tcase(s, ta);
	return s;
}

SR_CHECK_MAIN(compare_suite)
