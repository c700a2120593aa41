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
#include "report/report-cost.h"

struct replay_run {
	json_t			**by_seq;	/* for --json: decisions by seq (priced out of order) */
	size_t			nr_by_seq;
	bool			json;
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

static void release_json(void *user)
{
	json_decref(user);
}

/* Each decision's object goes to the ledger, which hands it back priced. */
static int emit_decision(const struct engine_result *r, void *arg, struct err *err, void **user)
{
	struct replay_run *run = arg;

	if (r->disagree)
		run->disagreements++;
	if (!run->json && !run->nd_open)
		return 0;
	*user = report_decision_json(r);
	if (!*user)
		return err_set(err, -ENOMEM, "out of memory");
	return 0;
}

/* A decision whose cost is known: add it, then write or keep the object. */
static int cost_done(const struct cost_item *it, void *arg)
{
	struct replay_run *run = arg;
	json_t *o = it->user, *c;

	if (!o)
		return 0;
	c = report_cost_item_json(it);
	if (!c || json_object_set_new(o, "cost", c) < 0) {
		json_decref(o);
		return -ENOMEM;
	}
	if (run->nd_open) {
		if (json_dumpf(o, run->nd.f, JSON_SORT_KEYS | JSON_COMPACT | JSON_REAL_PRECISION(12)) < 0 ||
		    fputc('\n', run->nd.f) == EOF) {
			json_decref(o);
			return -EIO;
		}
	}
	if (!run->json) {
		json_decref(o);
		return 0;
	}
	if (it->seq >= run->nr_by_seq) {
		size_t n = run->nr_by_seq ? run->nr_by_seq : 256;
		json_t **a;

		while (n <= it->seq)
			n *= 2;
		a = realloc(run->by_seq, n * sizeof(*a));
		if (!a) {
			json_decref(o);
			return -ENOMEM;
		}
		memset(a + run->nr_by_seq, 0, (n - run->nr_by_seq) * sizeof(*a));
		run->by_seq = a;
		run->nr_by_seq = n;
	}
	json_decref(run->by_seq[it->seq]);
	run->by_seq[it->seq] = o;
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
	struct report_cost_in cin;
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
	run.json = o.json != NULL;
	ret = replay_setup_run(&setup, emit_decision, &run, cost_done, release_json);
	if (ret)
		goto out;

	replay_setup_report_in(&setup, &ri, &kstat, &tc, &cin, o.top);
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
		json_t *all = json_array();
		size_t k;

		for (k = 0; all && k < run.nr_by_seq; k++)
			if (run.by_seq[k] && json_array_append(all, run.by_seq[k]) < 0) {
				json_decref(all);
				all = NULL;
			}
		if (!all || json_object_set_new(doc, "decisions", all) < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("out of memory");
			goto out;
		}
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
	for (size_t k = 0; k < run.nr_by_seq; k++)
		json_decref(run.by_seq[k]);
	free(run.by_seq);
	replay_setup_close(&setup);
	return ret;
}
