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
#include "cli-opt.h"
#include "source.h"
#include "report/report.h"
#include "report/report-sink.h"

static const struct cli_opt_cmd info_cmd = {
	.name = "info",
	.bit = CLI_INFO,
	.usage = "usage: schedreplay info [OPTIONS] TRACE\n"
		 "\n"
		 "Describe a trace: format and version, kernel release, CPUs, nodes and\n"
		 "where the topology came from, time span, events by name, lost events per\n"
		 "CPU, tasks and migrations seen, and any damage read around.\n"
		 "TRACE is a trace.dat, a text trace (tracefs 'trace', 'trace-cmd report'\n"
		 "or 'perf script' output), a capture folder holding trace.dat, or - for a\n"
		 "text trace on standard input.\n",
};

struct info_args {
	struct cli_source_opts	so;
	const char		*trace;
	const char		*output;
	bool			json;
};

static int info_opt(void *ctx, int id, const char *arg)
{
	struct info_args *a = ctx;
	int r;

	switch (id) {
	case CLI_OPT_JSON:
		a->json = true;
		return 0;
	case CLI_OPT_OUTPUT:
		a->output = arg;
		return 0;
	case CLI_OPT_ARG:
		if (a->trace)
			return cli_usage_error("info", "one TRACE at a time ('%s' and '%s')", a->trace,
					       arg);
		a->trace = arg;
		return 0;
	}
	r = cli_source_take(&a->so, id, arg, "info");
	return r < 0 ? -r : 0;
}

int cmd_info(int argc, char **argv)
{
	struct info_args a = { 0 };
	struct session_opts sopt;
	struct cli_source src = { 0 };
	struct report_sink k = { 0 };
	struct session_sink sink = { .ops = &report_info_sink_ops, .priv = &k };
	struct report_out out;
	const char *output;
	int r, ret;

	ret = cli_opt_parse(&info_cmd, argc, argv, info_opt, &a, NULL);
	if (ret)
		return ret < 0 ? CLI_EXIT_OK : ret;
	if (!a.trace)
		return cli_usage_error("info", "no TRACE given");
	output = a.output;

	session_opts_init(&sopt);
	sopt.mode = SESSION_INFO;
	ret = cli_source_open(&src, a.trace, &a.so, &sopt, "info");
	if (ret)
		return ret;
	r = report_out_open(&out, output);
	if (r < 0) {
		cli_error("cannot write '%s': %s", output, strerror(-r));
		ret = CLI_EXIT_INTERNAL;
		goto out;
	}
	k.f = out.f;
	k.json = a.json;
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
