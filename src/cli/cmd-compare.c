// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-compare.c - `schedreplay compare BASE... --vs NEW...`: repeated runs
 * of a base and a new kernel (or policy), per metric N/Min/Max/Avg/StdDev/
 * CV/%Change, a 95% interval of the difference, Welch's p, a spread test
 * and a verdict.  Options and output streams only; the reading and the
 * statistics live in src/compare/ and src/stats/.  See docs/compare.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli-opt.h"
#include "report/report.h"
#include "compare/compare.h"
#include "stats/stats.h"

static const struct cli_opt_cmd compare_cmd = {
	.name = "compare",
	.bit = CLI_COMPARE,
	.usage = "usage: schedreplay compare BASE... --vs NEW... [options]\n"
		 "       schedreplay compare TABLE... [options]   (tables holding before/after rows)\n"
		 "\n"
		 "Compare repeated runs and say, per metric, whether the change is real or noise.\n"
		 "Inputs: replay JSON reports (one run each), plain numbers (one run per line,\n"
		 "or columns under a header line), or summary tables (count Min Max Avg\n"
		 "StdDev/Variance, as benchmark mails paste them); - reads one from standard input.\n"
		 "\n"
		 "Also benchmark output: perf bench sched messaging/pipe, perf stat (-r N),\n"
		 "hackbench, dbench, schbench, mmtests compare-kernels, and tables of kernels\n"
		 "as columns or rows; whole mails with prose around them.\n",
	.footer = "Exit status: 0 compared, 2 usage error, 3 bad input, 4 internal or output error.\n",
};

/**
 * struct compare_args - the parsed command line
 * @base:      BASE inputs (borrowed from argv)
 * @nbase:     how many
 * @new:       NEW inputs (borrowed from argv)
 * @nnew:      how many
 * @vs:        --vs was given
 * @json:      --json target or NULL
 * @output:    -o target of the table, or NULL for stdout
 * @stdin_used: an input is "-"
 * @base_label: --base NAME, or NULL
 * @uncorrected: --uncorrected: no Holm-Bonferroni over the metrics
 * @opts:      judging options
 * @read:      reading options
 */
struct compare_args {
	char			**base;
	int			nbase;
	char			**new;
	int			nnew;
	bool			vs;
	const char		*json;
	const char		*output;
	bool			stdin_used;
	const char		*base_label;
	bool			uncorrected;
	struct compare_opts	opts;
	struct compare_read_opts read;
};

/* Report an internal or output failure; cli_error() alone means bad input. */
static int fail_internal(const char *what)
{
	cli_error("%s", what);
	return CLI_EXIT_INTERNAL;
}

static bool parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return s[0] && !*end && !errno;
}

static int compare_opt(void *ctx, int id, const char *v)
{
	struct compare_args *a = ctx;

	switch (id) {
	case CLI_OPT_ARG:
		if (!strcmp(v, "-")) {
			if (a->stdin_used)
				return cli_usage_error("compare", "standard input (-) is one input, given twice");
			a->stdin_used = true;
		}
		if (a->vs)
			a->new[a->nnew++] = (char *)v;
		else
			a->base[a->nbase++] = (char *)v;
		return 0;
	case CLI_OPT_VS:
		if (a->vs)
			return cli_usage_error("compare", "--vs given twice");
		a->vs = true;
		return 0;
	case CLI_OPT_JSON:
		if (!*v)
			return cli_usage_error("compare", "--json needs a file name or -");
		a->json = v;
		return 0;
	case CLI_OPT_OUTPUT:
		if (!*v)
			return cli_usage_error("compare", "-o needs a file name or -");
		a->output = v;
		return 0;
	case CLI_OPT_ALPHA:
		if (!parse_double(v, &a->opts.alpha) || !(a->opts.alpha > 0) ||
		    !(a->opts.alpha < 0.5))
			return cli_usage_error("compare", "--alpha needs a number in (0, 0.5)");
		return 0;
	case CLI_OPT_COUNT:
		if (!parse_double(v, &a->read.count) || !(a->read.count >= 1) ||
		    a->read.count > 1e9 || a->read.count != (double)(long)a->read.count)
			return cli_usage_error("compare", "--count needs a whole number >= 1");
		return 0;
	case CLI_OPT_BASE:
		if (!*v)
			return cli_usage_error("compare", "--base needs a kernel (label) name");
		a->base_label = v;
		return 0;
	case CLI_OPT_METRIC:
		if (!*v)
			return cli_usage_error("compare", "--metric needs a metric name");
		a->read.metrics[a->read.nmetrics++] = v;
		return 0;
	case CLI_OPT_HIGHER:
	case CLI_OPT_LOWER:
		if (v && !*v)
			return cli_usage_error("compare", "--%s-is-better= needs a name",
					       id == CLI_OPT_HIGHER ? "higher" : "lower");
		if (!v) {
			a->opts.higher_is_better = id == CLI_OPT_HIGHER;
			a->opts.dir_given = true;
		} else if (id == CLI_OPT_HIGHER) {
			a->opts.higher[a->opts.nhigher++] = v;
		} else {
			a->opts.lower[a->opts.nlower++] = v;
		}
		return 0;
	case CLI_OPT_UNCORRECTED:
		a->uncorrected = true;
		return 0;
	case CLI_OPT_HARMONIC:
		a->opts.harmonic = true;
		return 0;
	}
	return 0;
}

/* Return: -1 to go on, or an exit code. */
static int parse_args(int argc, char **argv, struct compare_args *a)
{
	int r;

	a->opts.alpha = 0.05;
	a->opts.higher_is_better = true;
	a->opts.family_p = NAN;
	r = cli_opt_parse(&compare_cmd, argc, argv, compare_opt, a, NULL);
	if (r)
		return r < 0 ? CLI_EXIT_OK : r;
	if (!a->nbase)
		return cli_usage_error("compare", "no BASE input");
	if (a->vs && !a->nnew)
		return cli_usage_error("compare", "no NEW input after --vs");
	if (a->output && a->json && !strcmp(a->output, "-") && !strcmp(a->json, "-"))
		return cli_usage_error("compare", "-o - and --json - cannot both go to stdout");
	if (a->vs && a->base_label)
		return cli_usage_error("compare", "--base is for inputs without --vs");
	return -1;
}

static int read_side(struct compare_side *s, char **files, int n,
		     const struct compare_read_opts *ro_in, bool vs)
{
	int i;

	for (i = 0; i < n; i++) {
		struct compare_read_opts ro = *ro_in;
		struct err e = { 0 };
		char msg[1200];
		int ret;

		ro.pool = vs;
		ro.label = vs ? NULL : files[i];
		/* "-": standard input, which the reader opens by name */
		ret = compare_read_file(s, strcmp(files[i], "-") ? files[i] : "/dev/stdin", &ro, &e);

		if (ret == -ENOMEM)
			return fail_internal("out of memory");
		if (ret)
			return cli_error("%s", err_format(&e, msg, sizeof(msg)));
	}
	return CLI_EXIT_OK;
}

/*
 * Holm-Bonferroni over the metrics compared together: each is judged again
 * on its adjusted p (docs/compare.md, "Several metrics at once").
 */
static int family_correct(const struct compare_pair *pairs, size_t npairs,
			  struct compare_result *res, size_t nres, const struct compare_opts *o)
{
	double *p = calloc(nres, sizeof(*p));
	double *adj = calloc(nres, sizeof(*adj));
	size_t i;
	size_t k = 0;
	size_t m = 0;
	int ret = -1;

	if (!p || !adj)
		goto out;
	for (i = 0; i < nres; i++) {
		p[i] = res[i].p;
		m += !isnan(p[i]);
	}
	if (m < 2 || stats_holm(p, nres, adj)) {
		ret = m < 2 ? 0 : -1;
		goto out;
	}
	for (i = 0; i < npairs && k < nres; i++) {
		if (!pairs[i].base || !pairs[i].new)
			continue;
		if (compare_result_family(&res[k], pairs[i].base, pairs[i].new, o, adj[k], m))
			goto out;
		k++;
	}
	ret = 0;
out:
	free(p);
	free(adj);
	return ret;
}

static int compare_sides(const struct compare_side *base, const struct compare_side *new,
			 const struct compare_args *a)
{
	struct compare_result *res = NULL;
	struct compare_pair *pairs = NULL;
	size_t npairs = 0;
	size_t nres = 0;
	size_t i;
	int ret = CLI_EXIT_OK;

	if (compare_make_pairs(base, a->vs ? new : NULL, a->base_label, &pairs, &npairs))
		return fail_internal("out of memory");
	if (a->base_label) {
		for (i = 0; i < npairs; i++)
			if (pairs[i].base && pairs[i].base->label &&
			    !strcmp(pairs[i].base->label, a->base_label))
				break;
		if (i == npairs) {
			free(pairs);
			return cli_usage_error("compare",
					       "--base '%s' is the label of no row or file of the inputs",
					       a->base_label);
		}
	}
	res = calloc(npairs ? npairs : 1, sizeof(*res));
	if (!res) {
		free(pairs);
		return fail_internal("out of memory");
	}
	for (i = 0; i < npairs; i++) {
		if (!pairs[i].base) {
			cli_warn("metric '%s' is only on the new side: skipped", pairs[i].new->name);
			continue;
		}
		if (!pairs[i].new) {
			if (a->vs)
				cli_warn("metric '%s' is only on the base side: skipped",
					 pairs[i].base->name);
			else
				cli_warn("metric '%s' has one row or set of runs ('%s' line %lu): nothing to compare it with, skipped",
					 pairs[i].base->name, pairs[i].base->file, pairs[i].base->line);
			continue;
		}
		if (compare_analyze(pairs[i].base, pairs[i].new, &a->opts, &res[nres])) {
			ret = fail_internal("out of memory");
			goto out;
		}
		nres++;
	}
	if (!nres) {
		ret = cli_error("no metric is on both sides: nothing to compare");
		goto out;
	}
	if (!a->uncorrected && nres > 1 && family_correct(pairs, npairs, res, nres, &a->opts)) {
		ret = fail_internal("out of memory");
		goto out;
	}
	if (a->output || !a->json || strcmp(a->json, "-")) {
		struct report_out out;
		int r = report_out_open(&out, a->output);

		if (r >= 0) {
			int pr = compare_print_table(out.f, res, nres, &a->opts);
			int we = report_out_error(&out);

			r = report_out_close(&out, !pr && !we);
			if (!r && (pr || we))
				r = -(we ? we : EIO);
		}
		if (r < 0) {
			cli_error("cannot write '%s': %s", a->output ? a->output : "stdout",
				  strerror(-r));
			ret = CLI_EXIT_INTERNAL;
			goto out;
		}
	}
	if (a->json) {
		json_t *root;

		report_json_watch();
		root = compare_results_json(res, nres);
		if (root && report_json_lost()) {
			json_decref(root);
			root = NULL;
		}
		if (!root) {
			ret = fail_internal("out of memory");
			goto out;
		}
		ret = cli_write_json(root, a->json, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		json_decref(root);
	}
out:
	for (i = 0; i < nres; i++)
		compare_result_release(&res[i]);
	free(res);
	free(pairs);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { 0 };
	struct compare_side base;
	struct compare_side new;
	struct err e = { 0 };
	char msg[1200];
	int ret;

	compare_side_init(&base);
	compare_side_init(&new);
	a.base = calloc(argc > 0 ? argc : 1, sizeof(*a.base));
	a.new = calloc(argc > 0 ? argc : 1, sizeof(*a.new));
	a.read.metrics = calloc(argc > 0 ? argc : 1, sizeof(*a.read.metrics));
	a.opts.lower = calloc(argc > 0 ? argc : 1, sizeof(*a.opts.lower));
	a.opts.higher = calloc(argc > 0 ? argc : 1, sizeof(*a.opts.higher));
	if (!a.base || !a.new || !a.read.metrics || !a.opts.lower || !a.opts.higher) {
		ret = CLI_EXIT_INTERNAL;
		cli_error("out of memory");
		goto out;
	}
	ret = parse_args(argc, argv, &a);
	if (ret >= 0)
		goto out;
	ret = read_side(&base, a.base, a.nbase, &a.read, a.vs);
	if (ret == CLI_EXIT_OK && a.vs)
		ret = read_side(&new, a.new, a.nnew, &a.read, true);
	if (ret == CLI_EXIT_OK && a.vs && (compare_side_check_unique(&base, &e) ||
					   compare_side_check_unique(&new, &e)))
		ret = e.code == -ENOMEM ? CLI_EXIT_INTERNAL :
		      cli_error("%s", err_format(&e, msg, sizeof(msg)));
	if (ret == CLI_EXIT_OK) {
		struct compare_side *sides[2] = { &base, &new };

		compare_choose_readings(sides, 2);
		ret = compare_sides(&base, &new, &a);
	}
out:
	compare_side_release(&base);
	compare_side_release(&new);
	free(a.base);
	free(a.new);
	free(a.read.metrics);
	free(a.opts.lower);
	free(a.opts.higher);
	return ret;
}
