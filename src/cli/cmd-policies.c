// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-policies.c - `schedreplay policies`: the built-in policies (and any
 * --plugin ones) with the classes they decide, their parameters with
 * defaults, and where they come from.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
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

int cmd_policies(int argc, char **argv)
{
	struct replay_plugin *pl[8] = { 0 };
	int nr = 0, i, ret = CLI_EXIT_OK;
	bool json = false;
	size_t k;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: schedreplay policies [--json] [--plugin FILE.so]...\n\n"
			       "List the policies: the classes each decides, its parameters with\n"
			       "their defaults, and the kernel code it models.\n");
			return CLI_EXIT_OK;
		}
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--plugin") && i + 1 < argc && nr < 8) {
			struct err e = { 0 };
			char buf[1400];

			pl[nr] = replay_plugin_open(argv[++i], &e);
			if (!pl[nr]) {
				ret = cli_error("%s", err_format(&e, buf, sizeof(buf)));
				goto out;
			}
			nr++;
		} else {
			ret = cli_usage_error("policies", "unknown argument '%s'", argv[i]);
			goto out;
		}
	}
	if (json) {
		json_t *a = json_array();

		for (k = 0; k < replay_registry_count(); k++) {
			struct replay_policy *p = replay_policy_new(replay_registry_get(k));

			if (p)
				json_array_append_new(a, report_policy_json(p));
			replay_policy_free(p);
		}
		for (i = 0; i < nr; i++) {
			struct replay_policy *p = replay_policy_new(replay_plugin_ops(pl[i]));

			if (p)
				json_array_append_new(a, report_policy_json(p));
			replay_policy_free(p);
		}
		if (report_write_json(a, "-") < 0)
			ret = CLI_EXIT_INTERNAL;
		json_decref(a);
		goto out;
	}
	for (k = 0; k < replay_registry_count(); k++)
		show(stdout, replay_registry_get(k), NULL);
	for (i = 0; i < nr; i++)
		show(stdout, replay_plugin_ops(pl[i]), replay_plugin_path(pl[i]));
out:
	for (i = 0; i < nr; i++)
		replay_plugin_close(pl[i]);
	return ret;
}
