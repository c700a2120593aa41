// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-info.c - `schedreplay info TRACE`: what a trace holds.
 *
 * One streaming pass: every event is counted by name and fed to the state
 * model (for tasks and migrations); lost-event markers are counted per
 * CPU by the ingest layer.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "source.h"
#include "model/model.h"
#include "report/report.h"

static void info_usage(FILE *out)
{
	fprintf(out,
		"usage: schedreplay info [OPTIONS] TRACE\n"
		"\n"
		"Describe a trace: format and version, kernel release, CPUs, nodes and\n"
		"where the topology came from, time span, events by name, lost events per\n"
		"CPU, tasks and migrations seen, and any damage read around.\n"
		"TRACE is a trace.dat, a text trace (tracefs 'trace', 'trace-cmd report'\n"
		"or 'perf script' output), or a capture folder holding trace.dat.\n"
		"\n"
		"options:\n"
		"  --json            print one JSON object instead of text (docs/info.md)\n"
		"  -o, --output FILE write to FILE (replaced whole, never half-written)\n"
		"%s"
		"  -h, --help        this help\n",
		cli_source_opts_help());
}

int cmd_info(int argc, char **argv)
{
	struct cli_source_opts so = { 0 };
	struct cli_source src;
	struct report_info_in ri = { 0 };
	struct strcount names;
	struct report_out out;
	struct model *model = NULL;
	const struct sr_event *ev;
	const char *trace = NULL, *output = NULL;
	json_t *report = NULL;
	bool json = false;
	int i, r, ret;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			info_usage(stdout);
			return CLI_EXIT_OK;
		}
		if (!strcmp(a, "--json")) {
			json = true;
			continue;
		}
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (++i >= argc)
				return cli_usage_error("info", "option '%s' needs a value", a);
			output = argv[i];
			continue;
		}
		if (!strncmp(a, "--output=", 9)) {
			output = a + 9;
			continue;
		}
		r = cli_source_parse_opt(&so, argc, argv, &i, "info");
		if (r < 0)
			return -r;
		if (r)
			continue;
		if (a[0] == '-' && a[1])
			return cli_usage_error("info", "unknown option '%s'", a);
		if (trace)
			return cli_usage_error("info", "one TRACE at a time ('%s' and '%s')", trace, a);
		trace = a;
	}
	if (!trace)
		return cli_usage_error("info", "no TRACE given");

	ret = cli_source_open(&src, trace, &so);
	if (ret)
		return ret;
	strcount_init(&names);
	model = model_new(src.topo);
	if (!model) {
		ret = CLI_EXIT_INTERNAL;
		cli_error("out of memory");
		goto out;
	}
	while ((r = cli_source_next(&src, &ev)) > 0) {
		if (ev->kind != SR_EV_LOST && strcount_add(&names, ev->name, 1) < 0)
			r = -ENOMEM;
		else
			r = model_feed(model, ev);
		if (r < 0) {
			cli_error("out of memory");
			ret = CLI_EXIT_INTERNAL;
			goto out;
		}
	}
	if (r < 0) {
		ret = -r;
		goto out;
	}

	ri.path = src.path;
	ri.capture_dir = src.capture_dir;
	ri.kernel_release = src.kernel_release;
	ri.release_origin = src.release_origin;
	ri.info = ingest_info(src.in);
	ri.topo = src.topo;
	ri.events = &names;
	ri.stats = model_stats(model);
	ri.warnings = src.warnings;
	report = report_info_build(&ri);
	if (!report) {
		cli_error("out of memory");
		ret = CLI_EXIT_INTERNAL;
		goto out;
	}
	r = report_out_open(&out, output);
	if (r < 0) {
		cli_error("cannot write '%s': %s", output, strerror(-r));
		ret = CLI_EXIT_INTERNAL;
		goto out;
	}
	if (json)
		r = json_dumpf(report, out.f, JSON_SORT_KEYS | JSON_INDENT(2)) < 0 ||
		    fputc('\n', out.f) == EOF ? -EIO : 0;
	else
		r = report_info_text(out.f, report);
	if (r == 0)
		r = report_out_close(&out, true);
	else
		report_out_close(&out, false);
	if (r < 0) {
		cli_error("cannot write '%s': %s", output ? output : "stdout", strerror(-r));
		ret = CLI_EXIT_INTERNAL;
		goto out;
	}
	ret = CLI_EXIT_OK;
out:
	json_decref(report);
	model_free(model);
	strcount_release(&names);
	cli_source_close(&src);
	return ret;
}
