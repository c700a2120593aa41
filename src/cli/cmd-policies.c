// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-policies.c - `schedreplay policies`: the built-in policies (and any
 * --plugin ones) with the classes they decide, their parameters with
 * defaults, and where they come from.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli-opt.h"
#include "replay/replay.h"
#include "report/report.h"
#include "report/report-replay.h"
#include "util/escape.h"

static void show(FILE *out, const struct sr_policy_ops *ops, const char *origin)
{
	char buf[64], esc[1024];
	int i, n = replay_param_count(ops);

	fprintf(out, "%s%s%s\n", ops->name, origin ? "  from " : "",
		origin ? escape_text(esc, sizeof(esc), origin, strlen(origin)) : "");
	fprintf(out, "  classes:   ");
	for (i = 0; i < SR_DECISION_CLASS__COUNT; i++)
		if (ops->classes & SR_CLASS_BIT(i))
			fprintf(out, "%s ", replay_class_name(i));
	fputc('\n', out);
	if (ops->description)
		fprintf(out, "  what:      %s\n",
			escape_text(esc, sizeof(esc), ops->description, strlen(ops->description)));
	if (ops->provenance)
		fprintf(out, "  models:    %s\n",
			escape_text(esc, sizeof(esc), ops->provenance, strlen(ops->provenance)));
	for (i = 0; i < n; i++) {
		const struct sr_param_desc *p = &ops->params[i];

		fprintf(out, "  --param %s=%s", p->name, replay_param_format(p, p->def, buf, sizeof(buf)));
		if (p->description)
			fprintf(out, "  %s", escape_text(esc, sizeof(esc), p->description,
							  strlen(p->description)));
		fputc('\n', out);
	}
	fputc('\n', out);
}

static const struct cli_opt_cmd policies_cmd = {
	.name = "policies",
	.bit = CLI_POLICIES,
	.usage = "usage: schedreplay policies [--json] [--plugin FILE.so]... [-o FILE]\n"
		 "\n"
		 "List the policies: the classes each decides, its parameters with\n"
		 "their defaults, and the kernel code it models.\n",
};

struct policies_args {
	const char	*plugins[8];
	int		nr_plugins;
	const char	*output;
	bool		json;
};

static int policies_opt(void *ctx, int id, const char *arg)
{
	struct policies_args *a = ctx;

	switch (id) {
	case CLI_OPT_JSON:
		a->json = true;
		return 0;
	case CLI_OPT_OUTPUT:
		a->output = arg;
		return 0;
	case CLI_OPT_PLUGIN:
		if (a->nr_plugins == 8)
			return cli_usage_error("policies", "at most 8 --plugin");
		a->plugins[a->nr_plugins++] = arg;
		return 0;
	}
	return cli_usage_error("policies", "unknown argument '%s'", arg);
}

int cmd_policies(int argc, char **argv)
{
	struct policies_args a = { 0 };
	struct replay_plugin *pl[8] = { 0 };
	struct report_out out = { 0 };
	bool out_open = false;
	int nr = 0, i, r, ret;
	size_t k;

	ret = cli_opt_parse(&policies_cmd, argc, argv, policies_opt, &a, NULL);
	if (ret)
		return ret < 0 ? CLI_EXIT_OK : ret;
	for (nr = 0; nr < a.nr_plugins; nr++) {
		struct err e = { 0 };
		char buf[1400];

		pl[nr] = replay_plugin_open(a.plugins[nr], &e);
		if (!pl[nr]) {
			ret = cli_error("%s", err_format(&e, buf, sizeof(buf)));
			goto out;
		}
	}
	if (a.json) {
		json_t *arr = json_array();

		for (k = 0; k < replay_registry_count(); k++) {
			struct replay_policy *p = replay_policy_new(replay_registry_get(k));

			if (p)
				json_array_append_new(arr, report_policy_json(p));
			replay_policy_free(p);
		}
		for (i = 0; i < nr; i++) {
			struct replay_policy *p = replay_policy_new(replay_plugin_ops(pl[i]));

			if (p)
				json_array_append_new(arr, report_policy_json(p));
			replay_policy_free(p);
		}
		ret = cli_write_json(arr, a.output ? a.output : "-",
				     JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(12));
		json_decref(arr);
		goto out;
	}
	r = report_out_open(&out, a.output);
	if (r < 0) {
		ret = CLI_EXIT_INTERNAL;
		cli_error("cannot write '%s': %s", a.output, strerror(-r));
		goto out;
	}
	out_open = true;
	for (k = 0; k < replay_registry_count(); k++)
		show(out.f, replay_registry_get(k), NULL);
	for (i = 0; i < nr; i++)
		show(out.f, replay_plugin_ops(pl[i]), replay_plugin_path(pl[i]));
	out_open = false;
	r = report_out_error(&out) ? -report_out_error(&out) : 0;
	if (!r)
		r = report_out_close(&out, true);
	else
		report_out_close(&out, false);
	if (r < 0) {
		ret = CLI_EXIT_INTERNAL;
		cli_error("cannot write '%s': %s", a.output ? a.output : "stdout", strerror(-r));
	}
out:
	if (out_open)
		report_out_close(&out, false);
	for (i = 0; i < nr; i++)
		replay_plugin_close(pl[i]);
	return ret;
}
