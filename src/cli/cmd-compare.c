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
#include "compare/compare.h"
#include "stats/stats.h"

static const char compare_usage[] =
	"usage: schedreplay compare BASE... --vs NEW... [options]\n"
	"       schedreplay compare TABLE... [options]   (tables holding before/after rows)\n"
	"\n"
	"Compare repeated runs and say, per metric, whether the change is real or noise.\n"
	"Inputs: replay JSON reports (one run each), plain numbers (one run per line,\n"
	"or columns under a header line), or summary tables (count Min Max Avg\n"
	"StdDev/Variance, as benchmark mails paste them).\n"
	"\n"
	"Also benchmark output: perf bench sched messaging/pipe, perf stat (-r N),\n"
	"hackbench, dbench, schbench, mmtests compare-kernels, and tables of kernels\n"
	"as columns or rows; whole mails with prose around them.\n"
	"\n"
	"  --vs NEW...           the inputs after --vs are the new side\n"
	"  --base NAME           without --vs: compare every kernel with NAME (default:\n"
	"                        the first row or file of each metric)\n"
	"  --json FILE|-         write every figure as JSON to FILE (- for stdout, no table)\n"
	"  --alpha A             significance level, 0 < A < 0.5 (default 0.05)\n"
	"  --higher-is-better[=NAME]  higher is better for metrics whose name holds\n"
	"                        NAME (repeatable); without =NAME for every metric\n"
	"  --lower-is-better[=NAME]   the same, lower is better (times, costs)\n"
	"                        (default: from the metric's name, the input, or higher)\n"
	"  --metric NAME         replay reports: compare NAME (a dotted summary name or\n"
	"                        prefix; repeatable) instead of the headline figures\n"
	"  --uncorrected         judge each metric on its own p (default: Holm-Bonferroni\n"
	"                        over the metrics compared together)\n"
	"  --harmonic            harmonic means (for rates), where raw runs exist\n"
	"  --count N             runs behind each row of a table without a count column\n"
	"  -h, --help            this text\n"
	"\n"
	"Exit status: 0 compared, 2 usage error, 3 bad input, 4 internal or output error.\n";

/**
 * struct compare_args - the parsed command line
 * @base:      BASE inputs (borrowed from argv)
 * @nbase:     how many
 * @new:       NEW inputs (borrowed from argv)
 * @nnew:      how many
 * @vs:        --vs was given
 * @json:      --json target or NULL
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

/* The value of an option: "--opt=V" or the next argument. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt)
{
	size_t len = strlen(opt);

	if (argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static bool opt_is(const char *arg, const char *opt, bool takes_value)
{
	size_t len = strlen(opt);

	return !strncmp(arg, opt, len) && (!arg[len] || (takes_value && arg[len] == '='));
}

static bool parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return s[0] && !*end && !errno;
}

/* Return: -1 to go on, or an exit code. */
static int parse_args(int argc, char **argv, struct compare_args *a)
{
	bool only_files = false;
	int i;

	a->opts.alpha = 0.05;
	a->opts.higher_is_better = true;
	a->opts.family_p = NAN;
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *v;

		if (only_files || arg[0] != '-' || !arg[1]) {
			if (a->vs)
				a->new[a->nnew++] = argv[i];
			else
				a->base[a->nbase++] = argv[i];
		} else if (!strcmp(arg, "--")) {
			only_files = true;
		} else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			fputs(compare_usage, stdout);
			return CLI_EXIT_OK;
		} else if (!strcmp(arg, "--vs")) {
			if (a->vs)
				return cli_usage_error("compare", "--vs given twice");
			a->vs = true;
		} else if (opt_is(arg, "--json", true)) {
			v = opt_value(argc, argv, &i, "--json");
			if (!v || !*v)
				return cli_usage_error("compare", "--json needs a file name or -");
			a->json = v;
		} else if (opt_is(arg, "--alpha", true)) {
			v = opt_value(argc, argv, &i, "--alpha");
			if (!v || !parse_double(v, &a->opts.alpha) || !(a->opts.alpha > 0) ||
			    !(a->opts.alpha < 0.5))
				return cli_usage_error("compare", "--alpha needs a number in (0, 0.5)");
		} else if (opt_is(arg, "--count", true)) {
			v = opt_value(argc, argv, &i, "--count");
			if (!v || !parse_double(v, &a->read.count) || !(a->read.count >= 1) ||
			    a->read.count > 1e9 || a->read.count != (double)(long)a->read.count)
				return cli_usage_error("compare", "--count needs a whole number >= 1");
		} else if (opt_is(arg, "--base", true)) {
			v = opt_value(argc, argv, &i, "--base");
			if (!v || !*v)
				return cli_usage_error("compare", "--base needs a kernel (label) name");
			a->base_label = v;
		} else if (opt_is(arg, "--metric", true)) {
			v = opt_value(argc, argv, &i, "--metric");
			if (!v || !*v)
				return cli_usage_error("compare", "--metric needs a metric name");
			a->read.metrics[a->read.nmetrics++] = v;
		} else if (!strcmp(arg, "--higher-is-better")) {
			a->opts.higher_is_better = true;
			a->opts.dir_given = true;
		} else if (!strcmp(arg, "--lower-is-better")) {
			a->opts.higher_is_better = false;
			a->opts.dir_given = true;
		} else if (!strncmp(arg, "--higher-is-better=", 19)) {
			if (!arg[19])
				return cli_usage_error("compare", "--higher-is-better= needs a name");
			a->opts.higher[a->opts.nhigher++] = arg + 19;
		} else if (!strncmp(arg, "--lower-is-better=", 18)) {
			if (!arg[18])
				return cli_usage_error("compare", "--lower-is-better= needs a name");
			a->opts.lower[a->opts.nlower++] = arg + 18;
		} else if (!strcmp(arg, "--uncorrected")) {
			a->uncorrected = true;
		} else if (!strcmp(arg, "--harmonic")) {
			a->opts.harmonic = true;
		} else {
			return cli_usage_error("compare", "unknown option '%s'", arg);
		}
	}
	if (!a->nbase)
		return cli_usage_error("compare", "no BASE input");
	if (a->vs && !a->nnew)
		return cli_usage_error("compare", "no NEW input after --vs");
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
		ret = compare_read_file(s, files[i], &ro, &e);

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
	if (!a->json || strcmp(a->json, "-")) {
		if (compare_print_table(stdout, res, nres, &a->opts)) {
			ret = fail_internal("cannot write to stdout");
			goto out;
		}
	}
	if (a->json) {
		json_t *root = compare_results_json(res, nres);

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
