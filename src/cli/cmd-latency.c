// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-latency.c - `schedreplay latency`: measure this host's memory latency
 * profile (src/record/record-latency.c: a pinned pointer chase from every
 * node to every node) and print it as a matrix, or as the JSON that
 * `replay --latency FILE` reads.  The JSON is built first; the text is
 * printed from it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "cli-opt.h"
#include "record/record-latency.h"
#include "report/report.h"

static const struct cli_opt_cmd latency_cmd = {
	.name = "latency",
	.bit = CLI_LATENCY,
	.usage = "usage: schedreplay latency [--json] [--seconds S] [-o FILE]\n"
		 "\n"
		 "Measure the memory latency from every NUMA node's CPUs to every node's\n"
		 "memory with a pinned pointer chase, and print the matrix: the median ns\n"
		 "per dependent load over 5 repeats and their spread (max - min).\n",
	.footer = "'schedreplay record' stores the same profile in the trace; the replay's cost\n"
		  "model prices remote accesses with it (docs/cost-model.md).\n"
		  "exit codes: 0 ok, 2 usage, 4 cannot measure or write\n",
};

struct latency_args {
	const char	*output;
	double		seconds;
	bool		json;
};

static int latency_opt(void *ctx, int id, const char *arg)
{
	struct latency_args *a = ctx;
	char *end;

	switch (id) {
	case CLI_OPT_JSON:
		a->json = true;
		return 0;
	case CLI_OPT_OUTPUT:
		a->output = arg;
		return 0;
	case CLI_OPT_SECONDS:
		errno = 0;
		a->seconds = strtod(arg, &end);
		if (errno || end == arg || *end || !(a->seconds > 0) ||
		    a->seconds > RECORD_LATENCY_MAX_S)
			return cli_usage_error("latency", "bad --seconds '%s' (0 < S <= %g)", arg,
					       RECORD_LATENCY_MAX_S);
		return 0;
	}
	return cli_usage_error("latency", "unknown argument '%s'", arg);
}

/* a real rounded to 1/1000, or null when not measured */
static json_t *jreal(double v)
{
	if (!(v >= 0) || !isfinite(v))
		return json_null();
	return json_real(round(v * 1000.0) / 1000.0);
}

static json_t *matrix(const struct record_latency *l, const double *m, bool ratio)
{
	json_t *rows = json_array();
	int a, b, n = l->nr_nodes;

	for (a = 0; a < n; a++) {
		json_t *row = json_array();

		for (b = 0; b < n; b++) {
			double v = m[a * n + b];

			if (ratio)
				v = l->ns[a * n + a] > 0 && v > 0 ? v / l->ns[a * n + a] : -1;
			json_array_append_new(row, jreal(v));
		}
		json_array_append_new(rows, row);
	}
	return rows;
}

static json_t *latency_json(const struct record_latency *l)
{
	json_t *o = json_object(), *root = json_object();

	json_object_set_new(o, "nodes", json_integer(l->nr_nodes));
	json_object_set_new(o, "unit", json_string("ns per dependent load"));
	json_object_set_new(o, "method", json_string(l->numa ?
			    "pointer chase pinned to each node's CPUs, buffer on each node (libnuma)" :
			    "pointer chase, unpinned (libnuma unavailable: one node)"));
	json_object_set_new(o, "ns", matrix(l, l->ns, false));
	json_object_set_new(o, "spread", matrix(l, l->spread, false));
	json_object_set_new(o, "ratio", matrix(l, l->ns, true));
	json_object_set_new(o, "loads", matrix(l, l->loads, false));
	json_object_set_new(o, "repeats", json_integer(l->repeats));
	json_object_set_new(o, "buffer_bytes", json_integer((json_int_t)l->buffer_bytes));
	json_object_set_new(o, "seconds", jreal(l->seconds));
	json_object_set_new(root, "latency", o);
	return root;
}

static void latency_text(FILE *out, const json_t *root)
{
	const json_t *o = json_object_get(root, "latency");
	const json_t *ns = json_object_get(o, "ns"), *sp = json_object_get(o, "spread");
	const json_t *ra = json_object_get(o, "ratio");
	int n = (int)json_integer_value(json_object_get(o, "nodes")), a, b;

	fprintf(out, "memory latency, %s (median of %d repeats, spread = max - min),\n",
		json_string_value(json_object_get(o, "unit")),
		(int)json_integer_value(json_object_get(o, "repeats")));
	fprintf(out, "%d node%s, %.0f MiB buffer per node, %.1f s:\n", n, n == 1 ? "" : "s",
		(double)json_integer_value(json_object_get(o, "buffer_bytes")) / 1048576.0,
		json_number_value(json_object_get(o, "seconds")));
	fprintf(out, "  %-9s", "from\\to");
	for (b = 0; b < n; b++)
		fprintf(out, " %15d", b);
	fputc('\n', out);
	for (a = 0; a < n; a++) {
		fprintf(out, "  node %-4d", a);
		for (b = 0; b < n; b++) {
			const json_t *v = json_array_get(json_array_get(ns, a), b);
			const json_t *s = json_array_get(json_array_get(sp, a), b);
			char cell[40];

			if (json_is_number(v))
				snprintf(cell, sizeof(cell), "%.1f ±%.1f", json_number_value(v),
					 json_number_value(s));
			else
				snprintf(cell, sizeof(cell), "-");
			fprintf(out, " %*s", 15 + (json_is_number(v) ? 1 : 0), cell);
		}
		fputc('\n', out);
	}
	fprintf(out, "remote / local (what the cost model prices an access with):\n");
	for (a = 0; a < n; a++) {
		fprintf(out, "  node %-4d", a);
		for (b = 0; b < n; b++) {
			const json_t *v = json_array_get(json_array_get(ra, a), b);

			if (json_is_number(v))
				fprintf(out, " %15.3f", json_number_value(v));
			else
				fprintf(out, " %15s", "-");
		}
		fputc('\n', out);
	}
}

int cmd_latency(int argc, char **argv)
{
	struct latency_args a = { .seconds = RECORD_LATENCY_DEFAULT_S };
	struct report_out out = { 0 };
	struct record_latency *l;
	struct err e = { 0 };
	json_t *root;
	int ret, r;

	ret = cli_opt_parse(&latency_cmd, argc, argv, latency_opt, &a, NULL);
	if (ret)
		return ret < 0 ? CLI_EXIT_OK : ret;
	l = record_latency_measure(a.seconds, &e);
	if (!l) {
		cli_error("cannot measure the memory latency: %s", e.msg);
		return CLI_EXIT_INTERNAL;
	}
	root = latency_json(l);
	record_latency_free(l);
	if (!root) {
		cli_error("out of memory");
		return CLI_EXIT_INTERNAL;
	}
	if (a.json) {
		ret = cli_write_json(root, a.output ? a.output : "-",
				     JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(12));
		json_decref(root);
		return ret;
	}
	r = report_out_open(&out, a.output);
	if (r < 0) {
		json_decref(root);
		cli_error("cannot write '%s': %s", a.output, strerror(-r));
		return CLI_EXIT_INTERNAL;
	}
	latency_text(out.f, root);
	json_decref(root);
	r = report_out_error(&out) ? -report_out_error(&out) : 0;
	if (!r)
		r = report_out_close(&out, true);
	else
		report_out_close(&out, false);
	if (r < 0) {
		cli_error("cannot write '%s': %s", a.output ? a.output : "stdout", strerror(-r));
		return CLI_EXIT_INTERNAL;
	}
	return CLI_EXIT_OK;
}
