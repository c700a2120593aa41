// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-info.c - `schedreplay info TRACE`: what a trace holds.
 *
 * One streaming pass of an info session (src/session/): every event is
 * counted by name and fed to the state model (for tasks and migrations);
 * lost-event markers are counted per CPU by the ingest layer; the info
 * sink (report-sink.h) writes the text or the JSON.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "source.h"
#include "report/report.h"
#include "report/report-sink.h"

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
	struct session_opts sopt;
	struct cli_source src = { 0 };
	struct report_sink k = { 0 };
	struct session_sink sink = { .ops = &report_info_sink_ops, .priv = &k };
	struct report_out out;
	const char *trace = NULL, *output = NULL;
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

	session_opts_init(&sopt);
	sopt.mode = SESSION_INFO;
	ret = cli_source_open(&src, trace, &so, &sopt, "info");
	if (ret)
		return ret;
	r = report_out_open(&out, output);
	if (r < 0) {
		cli_error("cannot write '%s': %s", output, strerror(-r));
		ret = CLI_EXIT_INTERNAL;
		goto out;
	}
	k.f = out.f;
	k.json = json;
	k.path = output ? output : "stdout";
	ret = cli_source_run(&src, &sink, 1);
	if (ret) {
		report_out_close(&out, false);
		goto out;
	}
	r = report_out_close(&out, true);
	if (r < 0) {
		cli_error("cannot write '%s': %s", output ? output : "stdout", strerror(-r));
		ret = CLI_EXIT_INTERNAL;
	}
out:
	cli_source_close(&src);
	return ret;
}
