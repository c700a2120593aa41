// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-compare.c - `schedreplay compare BASE... --vs NEW...`: repeated runs
 * of a base and a new kernel (or policy), per metric N/Min/Max/Avg/StdDev/
 * CV/%Change, a 95% interval of the difference, Welch's p, a spread test
 * and a verdict.  Options and output streams only; the reading and the
 * statistics live in src/compare/ and src/stats/.  See docs/compare.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "compare/compare.h"

static const char compare_usage[] =
	"usage: schedreplay compare BASE... --vs NEW... [options]\n"
	"       schedreplay compare TABLE... [options]   (tables holding before/after rows)\n"
	"\n"
	"Compare repeated runs and say, per metric, whether the change is real or noise.\n"
	"Inputs: replay JSON reports (one run each), plain numbers (one run per line,\n"
	"or columns under a header line), or summary tables (count Min Max Avg\n"
	"StdDev/Variance, as benchmark mails paste them).\n"
	"\n"
	"  --vs NEW...           the inputs after --vs are the new side\n"
	"  --json FILE|-         write every figure as JSON to FILE (- for stdout, no table)\n"
	"  --alpha A             significance level, 0 < A < 0.5 (default 0.05)\n"
	"  --higher-is-better    verdict direction (default)\n"
	"  --lower-is-better     for times, costs, disagreements\n"
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
		} else if (!strcmp(arg, "--higher-is-better")) {
			a->opts.higher_is_better = true;
		} else if (!strcmp(arg, "--lower-is-better")) {
			a->opts.higher_is_better = false;
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
	return -1;
}

static int read_side(struct compare_side *s, char **files, int n,
		     const struct compare_read_opts *ro)
{
	int i;

	for (i = 0; i < n; i++) {
		struct err e = { 0 };
		char msg[1200];
		int ret = compare_read_file(s, files[i], ro, &e);

		if (ret == -ENOMEM)
			return fail_internal("out of memory");
		if (ret)
			return cli_error("%s", err_format(&e, msg, sizeof(msg)));
	}
	return CLI_EXIT_OK;
}

static int compare_sides(const struct compare_side *base, const struct compare_side *new,
			 const struct compare_args *a)
{
	struct compare_result *res;
	size_t nres = 0;
	size_t i;
	int ret = CLI_EXIT_OK;

	res = calloc(base->n ? base->n : 1, sizeof(*res));
	if (!res)
		return fail_internal("out of memory");
	for (i = 0; i < new->n; i++)
		if (!compare_side_find(base, new->m[i].name))
			cli_warn("metric '%s' is only on the new side: skipped", new->m[i].name);
	for (i = 0; i < base->n; i++) {
		const struct compare_metric *m = compare_side_find(new, base->m[i].name);

		if (!m) {
			cli_warn("metric '%s' is only on the base side: skipped", base->m[i].name);
			continue;
		}
		if (compare_analyze(&base->m[i], m, &a->opts, &res[nres])) {
			ret = fail_internal("out of memory");
			goto out;
		}
		nres++;
	}
	if (!nres) {
		ret = cli_error("no metric is on both sides: nothing to compare");
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
	if (!a.base || !a.new) {
		ret = CLI_EXIT_INTERNAL;
		cli_error("out of memory");
		goto out;
	}
	ret = parse_args(argc, argv, &a);
	if (ret >= 0)
		goto out;
	if (a.vs) {
		ret = read_side(&base, a.base, a.nbase, &a.read);
		if (ret == CLI_EXIT_OK)
			ret = read_side(&new, a.new, a.nnew, &a.read);
		if (ret == CLI_EXIT_OK && (compare_side_check_unique(&base, &e) ||
					   compare_side_check_unique(&new, &e)))
			ret = cli_error("%s", err_format(&e, msg, sizeof(msg)));
	} else {
		struct compare_side all;

		compare_side_init(&all);
		ret = read_side(&all, a.base, a.nbase, &a.read);
		if (ret == CLI_EXIT_OK && compare_side_split_pairs(&all, &base, &new, &e)) {
			ret = e.code == -ENOMEM ? CLI_EXIT_INTERNAL : CLI_EXIT_BADINPUT;
			cli_error("%s", err_format(&e, msg, sizeof(msg)));
		}
		compare_side_release(&all);
	}
	if (ret == CLI_EXIT_OK)
		ret = compare_sides(&base, &new, &a);
out:
	compare_side_release(&base);
	compare_side_release(&new);
	free(a.base);
	free(a.new);
	return ret;
}
