// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-replay.c - `schedreplay replay TRACE`: every migration decision of
 * the trace through the old and the new policies, and the model of the
 * recording kernel; a text summary, one JSON document, or an NDJSON
 * stream of decisions.
 *
 * The trace is read and replayed by replay-setup.c; each replayed decision
 * goes straight out, so memory stays flat (except the --json document,
 * which holds one object per decision by definition).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "replay-setup.h"
#include "report/report.h"

struct replay_run {
	json_t			*decisions;	/* for --json */
	struct report_out	nd;		/* for --ndjson */
	bool			nd_open;
	uint64_t		disagreements;
};

static void replay_usage(FILE *out)
{
	fprintf(out,
		"usage: schedreplay replay [OPTIONS] TRACE\n"
		"\n"
		"Re-run every migration decision in TRACE (each sched_migrate_task and\n"
		"sched_stick_numa) through an old and a new policy, and report where they\n"
		"disagree and why, with the fidelity of the recording kernel's model.\n"
		"\n"
		"options:\n"
		"%s"
		"  --json FILE|-       write the report as one JSON document (docs/json-schema.md)\n"
		"  --ndjson FILE|-     stream one JSON object per decision, a line each\n"
		"  --top N             tasks listed with most disagreements (default 10)\n"
		"  --fail-on-disagree  exit 1 when the policies disagree on any decision\n"
		"%s"
		"  -h, --help          this help\n",
		replay_opts_help(), cli_source_opts_help());
}

static int emit_decision(const struct engine_result *r, void *arg, struct err *err)
{
	struct replay_run *run = arg;
	json_t *o;

	if (r->disagree)
		run->disagreements++;
	if (!run->decisions && !run->nd_open)
		return 0;
	o = report_decision_json(r);
	if (!o)
		return err_set(err, -ENOMEM, "out of memory");
	if (run->nd_open) {
		if (json_dumpf(o, run->nd.f, JSON_SORT_KEYS | JSON_COMPACT) < 0 ||
		    fputc('\n', run->nd.f) == EOF) {
			json_decref(o);
			return err_set(err, -EIO, "cannot write '%s'",
				       run->nd.path ? run->nd.path : "stdout");
		}
	}
	if (run->decisions)
		json_array_append(run->decisions, o);
	json_decref(o);
	return 0;
}

static int parse_args(int argc, char **argv, struct replay_opts *o, struct cli_source_opts *so,
		      const char **trace)
{
	int i, r;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **slot = NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			replay_usage(stdout);
			return -1;
		}
		if (!strcmp(a, "--fail-on-disagree")) {
			o->fail_on_disagree = true;
			continue;
		}
		r = replay_opts_parse_policy(o, argc, argv, &i, "replay");
		if (r < 0)
			return -r;
		if (r)
			continue;
		if (!strcmp(a, "--json"))
			slot = &o->json;
		else if (!strcmp(a, "--ndjson"))
			slot = &o->ndjson;
		if (slot || !strcmp(a, "--top")) {
			if (i + 1 >= argc)
				return cli_usage_error("replay", "option '%s' needs a value", a);
			if (slot) {
				*slot = argv[++i];
			} else {
				char *end;
				long v = strtol(argv[++i], &end, 10);

				if (*end || v < 0 || v > 100000)
					return cli_usage_error("replay", "--top takes a number, not '%s'",
							       argv[i]);
				o->top = (size_t)v;
			}
			continue;
		}
		r = cli_source_parse_opt(so, argc, argv, &i, "replay");
		if (r < 0)
			return -r;
		if (r)
			continue;
		if (a[0] == '-' && a[1])
			return cli_usage_error("replay", "unknown option '%s'", a);
		if (*trace)
			return cli_usage_error("replay", "one TRACE at a time ('%s' and '%s')", *trace, a);
		*trace = a;
	}
	if (!*trace)
		return cli_usage_error("replay", "no TRACE given");
	if (o->json && o->ndjson && !strcmp(o->json, "-") && !strcmp(o->ndjson, "-"))
		return cli_usage_error("replay", "--json and --ndjson cannot both go to stdout");
	return 0;
}

int cmd_replay(int argc, char **argv)
{
	struct replay_opts o;
	struct cli_source_opts so = { 0 };
	struct replay_setup setup = { 0 };
	struct replay_run run = { 0 };
	struct report_schedstat kstat;
	struct report_task_counters tc;
	struct report_replay_in ri;
	struct report_out out = { 0 };
	const char *trace = NULL;
	json_t *doc = NULL;
	int r, ret;

	replay_opts_init(&o);
	ret = parse_args(argc, argv, &o, &so, &trace);
	if (ret)
		return ret < 0 ? CLI_EXIT_OK : ret;

	ret = replay_setup_open(&setup, &o, trace, &so, "replay");
	if (ret)
		goto out;
	if (o.ndjson) {
		r = report_out_open(&run.nd, o.ndjson);
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("cannot write '%s': %s", o.ndjson, strerror(-r));
			goto out;
		}
		run.nd_open = true;
	}
	if (o.json && !(run.decisions = json_array())) {
		ret = CLI_EXIT_INTERNAL;
		cli_error("out of memory");
		goto out;
	}
	ret = replay_setup_run(&setup, emit_decision, &run);
	if (ret)
		goto out;

	replay_setup_report_in(&setup, &ri, &kstat, &tc, o.top);
	doc = report_replay_build(&ri);
	if (!doc) {
		ret = CLI_EXIT_INTERNAL;
		cli_error("out of memory");
		goto out;
	}

	ret = CLI_EXIT_OK;
	if (run.nd_open) {
		run.nd_open = false;
		r = report_out_close(&run.nd, true);
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("cannot write '%s': %s", o.ndjson, strerror(-r));
			goto out;
		}
	}
	if (o.json) {
		json_object_set(doc, "decisions", run.decisions);
		r = report_write_json(doc, o.json);
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("cannot write '%s': %s", o.json, strerror(-r));
			goto out;
		}
	}
	/* the text summary, unless a JSON stream has stdout */
	if (!(o.json && !strcmp(o.json, "-")) && !(o.ndjson && !strcmp(o.ndjson, "-"))) {
		r = report_out_open(&out, "-");
		if (r == 0)
			r = report_replay_text(out.f, doc);
		if (r == 0)
			r = report_out_close(&out, true);
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("cannot write the summary: %s", strerror(-r));
			goto out;
		}
	}
	if (o.fail_on_disagree && run.disagreements)
		ret = CLI_EXIT_DISAGREE;
out:
	if (run.nd_open)
		report_out_close(&run.nd, false);
	json_decref(doc);
	json_decref(run.decisions);
	replay_setup_close(&setup);
	return ret;
}
