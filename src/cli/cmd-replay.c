// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-replay.c - `schedreplay replay TRACE`: every migration decision of
 * the trace through the old and the new policies, and the model of the
 * recording kernel; a text summary, one JSON document, or an NDJSON
 * stream of decisions.
 *
 * Flow per event: decision_feed() (before the model moves on), then
 * model_feed(); each decision the classifier emits goes straight through
 * the engine and out, so memory stays flat (except the --json document,
 * which holds one object per decision by definition).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "source.h"
#include "decision/decision.h"
#include "model/model.h"
#include "replay/engine.h"
#include "report/report.h"
#include "report/report-replay.h"
#include "report/report-cost.h"
#include "cost/cost-ledger.h"

#define MAX_LIST 16
#define MAX_PARAMS 64
#define MAX_PLUGINS 8

struct replay_opts {
	const char	*old_list;
	const char	*new_list;
	const char	*kernel_policy;
	const char	*params[MAX_PARAMS];
	int		nr_params;
	const char	*plugins[MAX_PLUGINS];
	int		nr_plugins;
	const char	*json;
	const char	*ndjson;
	size_t		top;
	uint64_t	scan_period_ns;
	bool		fail_on_disagree;
};

struct replay_run {
	struct engine		*engine;
	struct cost_ledger	*ledger;
	json_t			**by_seq;	/* for --json: decisions by seq (they are priced out of order) */
	size_t			nr_by_seq;
	bool			json;
	struct report_out	nd;		/* for --ndjson */
	bool			nd_open;
	struct err		err;
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
		"  --old P[,P...]      old policies (default lb-v4.1,numa-v4.18,exec-least-loaded)\n"
		"  --new P[,P...]      new policies (default lb-v4.1-numa-hotness,numa-v4.19,\n"
		"                      exec-round-robin); the first policy of a side that decides a\n"
		"                      class decides it ('schedreplay policies' lists them)\n"
		"  --param [P:]K=V     set parameter K (of policy P, or of every chosen policy\n"
		"                      that has K); repeatable\n"
		"  --plugin FILE.so    load a policy plugin (docs/plugin-abi.md); repeatable\n"
		"  --kernel-policy P[,P...]  model of the recording kernel for fidelity (default:\n"
		"                      from the kernel release; 'none' for no fidelity)\n"
		"  --json FILE|-       write the report as one JSON document (docs/json-schema.md)\n"
		"  --ndjson FILE|-     stream one JSON object per decision, a line each\n"
		"  --top N             tasks listed with most disagreements, and with the\n"
		"                      costliest decisions (default 10)\n"
		"  --scan-period-ms N  decay period of the NUMA fault model (default: the trace's\n"
		"                      scan_period_min_ms, else 1000; docs/cost-model.md)\n"
		"  --fail-on-disagree  exit 1 when the policies disagree on any decision\n"
		"%s"
		"  -h, --help          this help\n",
		cli_source_opts_help());
}

/* Does @name appear in the comma-separated @list? */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p && *p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p = c ? c + 1 : NULL;
	}
	return false;
}

static const struct sr_policy_ops *find_ops(const char *name, struct replay_plugin **plugins,
					    int nr_plugins)
{
	const struct sr_policy_ops *ops = replay_registry_lookup(name);
	int i;

	for (i = 0; !ops && i < nr_plugins; i++)
		if (!strcmp(replay_plugin_ops(plugins[i])->name, name))
			ops = replay_plugin_ops(plugins[i]);
	return ops;
}

/*
 * Make an instance of @name with the --param settings that apply to it.
 * @used[i] is set for each --param this policy took.
 */
static int make_policy(const char *name, const struct replay_opts *o,
		       struct replay_plugin **plugins, int nr_plugins, bool *used,
		       struct replay_policy **out)
{
	const struct sr_policy_ops *ops = find_ops(name, plugins, nr_plugins);
	struct replay_policy *pol;
	struct err e = { 0 };
	int i, ret;

	if (!ops) {
		cli_usage_error("replay", "unknown policy '%s' ('schedreplay policies' lists them)",
				name);
		return CLI_EXIT_USAGE;
	}
	pol = replay_policy_new(ops);
	if (!pol) {
		cli_error("out of memory");
		return CLI_EXIT_INTERNAL;
	}
	for (i = 0; i < o->nr_params; i++) {
		const char *p = o->params[i], *colon = strchr(p, ':'), *eq = strchr(p, '=');
		char key[128];
		size_t kl;

		if (colon && (!eq || colon < eq)) {
			/* P:K=V is for policy P alone */
			if ((size_t)(colon - p) != strlen(name) || strncmp(p, name, colon - p))
				continue;
			p = colon + 1;
		} else if (eq) {
			/* K=V goes to every chosen policy that has K */
			kl = (size_t)(eq - p) < sizeof(key) ? (size_t)(eq - p) : sizeof(key) - 1;
			memcpy(key, p, kl);
			key[kl] = '\0';
			if (replay_param_index(ops, key) < 0)
				continue;
		}
		ret = replay_policy_set_param(pol, p, &e);
		if (ret < 0) {
			replay_policy_free(pol);
			cli_usage_error("replay", "--param '%s': %s", o->params[i], e.msg);
			return CLI_EXIT_USAGE;
		}
		used[i] = true;
	}
	ret = replay_policy_start(pol, &e);
	if (ret < 0) {
		replay_policy_free(pol);
		cli_error("policy '%s': %s", name, e.msg);
		return CLI_EXIT_INTERNAL;
	}
	*out = pol;
	return CLI_EXIT_OK;
}

static int add_side(struct engine *eng, enum engine_side side, const char *list,
		    const struct replay_opts *o, struct replay_plugin **plugins, int nr_plugins,
		    bool *used)
{
	char name[128];
	const char *p = list;
	struct err e = { 0 };
	int ret;

	while (p && *p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		struct replay_policy *pol;

		if (!len || len >= sizeof(name)) {
			cli_usage_error("replay", "bad policy list '%s'", list);
			return CLI_EXIT_USAGE;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		ret = make_policy(name, o, plugins, nr_plugins, used, &pol);
		if (ret)
			return ret;
		if (engine_add(eng, side, pol, &e) < 0) {
			cli_usage_error("replay", "%s", e.msg);
			return CLI_EXIT_USAGE;
		}
		p = c ? c + 1 : NULL;
	}
	return CLI_EXIT_OK;
}

/* The kernel side: --kernel-policy, or the built-ins that model the release. */
static int add_kernel_side(struct engine *eng, const struct cli_source *src,
			   const struct replay_opts *o, struct replay_plugin **plugins,
			   int nr_plugins, bool *used)
{
	char list[512] = "";
	int c;

	if (o->kernel_policy) {
		if (!strcmp(o->kernel_policy, "none"))
			return CLI_EXIT_OK;
		return add_side(eng, ENGINE_KERNEL, o->kernel_policy, o, plugins, nr_plugins, used);
	}
	for (c = 0; c < SR_DECISION_CLASS__COUNT; c++) {
		const char *n = engine_kernel_policy_name(src->kernel_release, c);
		size_t l = strlen(list);

		if (!n || in_list(list, n))
			continue;
		snprintf(list + l, sizeof(list) - l, "%s%s", l ? "," : "", n);
	}
	if (!list[0])
		return CLI_EXIT_OK;
	return add_side(eng, ENGINE_KERNEL, list, o, plugins, nr_plugins, used);
}

static void release_json(void *user)
{
	json_decref(user);
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
		return err_set(&run->err, -ENOMEM, "out of memory");
	}
	if (run->nd_open) {
		if (json_dumpf(o, run->nd.f, JSON_SORT_KEYS | JSON_COMPACT | JSON_REAL_PRECISION(12)) < 0 ||
		    fputc('\n', run->nd.f) == EOF) {
			json_decref(o);
			return err_set(&run->err, -EIO, "cannot write '%s'",
				       run->nd.path ? run->nd.path : "stdout");
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
			return err_set(&run->err, -ENOMEM, "out of memory");
		}
		memset(a + run->nr_by_seq, 0, (n - run->nr_by_seq) * sizeof(*a));
		run->by_seq = a;
		run->nr_by_seq = n;
	}
	json_decref(run->by_seq[it->seq]);
	run->by_seq[it->seq] = o;
	return 0;
}

static int emit_decision(const struct decision *d, void *arg)
{
	struct replay_run *run = arg;
	struct engine_result r;
	int node[COST__SIDES];
	json_t *o = NULL;
	int ret, s;

	ret = engine_evaluate(run->engine, d, &r, &run->err);
	if (ret < 0)
		return ret;
	if (r.disagree)
		run->disagreements++;
	if (run->json || run->nd_open) {
		o = report_decision_json(&r);
		if (!o)
			return err_set(&run->err, -ENOMEM, "out of memory");
	}
	for (s = 0; s < 2; s++)
		node[s] = r.pol[s] ? cost_verdict_node(&d->snap, &r.v[s]) : -1;
	node[COST_TRACE] = cost_trace_node(&d->snap);
	ret = cost_ledger_decide(run->ledger, d, node, o);
	if (ret < 0 && !run->err.code)
		err_set(&run->err, ret, "%s", sr_strerror(ret));
	return ret;
}

/* The capture folder's vmstat-before.txt / vmstat-after.txt, for calibration. */
static void vmstat_files(struct replay_run *run, const char *dir, struct report_cost_in *cin)
{
	char path[PATH_MAX + 32];
	int64_t fb = 0, lb = 0, fa = 0, la = 0;

	if (cost_ledger_totals(run->ledger)->cal.windowed)
		return;	/* the trace's own lines win */
	snprintf(path, sizeof(path), "%s/vmstat-before.txt", dir);
	if (report_vmstat_read(path, &fb, &lb))
		return;
	snprintf(path, sizeof(path), "%s/vmstat-after.txt", dir);
	if (report_vmstat_read(path, &fa, &la))
		return;
	cost_ledger_set_vmstat(run->ledger, fb, lb, fa, la);
	cin->vmstat_source = "vmstat-before.txt/vmstat-after.txt";
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
		if (!strcmp(a, "--old"))
			slot = &o->old_list;
		else if (!strcmp(a, "--new"))
			slot = &o->new_list;
		else if (!strcmp(a, "--kernel-policy"))
			slot = &o->kernel_policy;
		else if (!strcmp(a, "--json"))
			slot = &o->json;
		else if (!strcmp(a, "--ndjson"))
			slot = &o->ndjson;
		if (slot || !strcmp(a, "--param") || !strcmp(a, "--plugin") || !strcmp(a, "--top") ||
		    !strcmp(a, "--scan-period-ms")) {
			if (i + 1 >= argc)
				return cli_usage_error("replay", "option '%s' needs a value", a);
			if (slot) {
				*slot = argv[++i];
			} else if (!strcmp(a, "--param")) {
				if (o->nr_params == MAX_PARAMS)
					return cli_usage_error("replay", "at most %d --param", MAX_PARAMS);
				o->params[o->nr_params++] = argv[++i];
			} else if (!strcmp(a, "--plugin")) {
				if (o->nr_plugins == MAX_PLUGINS)
					return cli_usage_error("replay", "at most %d --plugin", MAX_PLUGINS);
				o->plugins[o->nr_plugins++] = argv[++i];
			} else if (!strcmp(a, "--scan-period-ms")) {
				char *end;
				long v = strtol(argv[++i], &end, 10);

				if (*end || v < 1 || v > 3600 * 1000)
					return cli_usage_error("replay",
							       "--scan-period-ms takes milliseconds (1..3600000), not '%s'",
							       argv[i]);
				o->scan_period_ns = (uint64_t)v * 1000 * 1000;
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
	struct replay_opts o = { .old_list = "lb-v4.1,numa-v4.18,exec-least-loaded",
				 .new_list = "lb-v4.1-numa-hotness,numa-v4.19,exec-round-robin",
				 .top = 10 };
	struct cli_source_opts so = { 0 };
	struct replay_plugin *plugins[MAX_PLUGINS] = { 0 };
	struct replay_run run = { 0 };
	struct report_schedstat kstat;
	struct report_replay_in ri = { 0 };
	struct report_cost_in cin = { 0 };
	struct cli_source src;
	struct decision_ctx *dec = NULL;
	struct model *model = NULL;
	struct report_out out = { 0 };
	struct sr_event ev;
	const char *trace = NULL;
	bool used[MAX_PARAMS] = { 0 };
	bool src_open = false, have_kstat = false;
	json_t *doc = NULL;
	struct err e = { 0 };
	int i, r, ret;

	ret = parse_args(argc, argv, &o, &so, &trace);
	if (ret)
		return ret < 0 ? CLI_EXIT_OK : ret;

	for (i = 0; i < o.nr_plugins; i++) {
		plugins[i] = replay_plugin_open(o.plugins[i], &e);
		if (!plugins[i]) {
			char buf[1400];

			ret = cli_error("%s", err_format(&e, buf, sizeof(buf)));
			goto out;
		}
	}
	ret = cli_source_open(&src, trace, &so);
	if (ret)
		goto out;
	src_open = true;

	run.engine = engine_new();
	if (!run.engine) {
		ret = CLI_EXIT_INTERNAL;
		cli_error("out of memory");
		goto out;
	}
	ret = add_side(run.engine, ENGINE_OLD, o.old_list, &o, plugins, o.nr_plugins, used);
	if (!ret)
		ret = add_side(run.engine, ENGINE_NEW, o.new_list, &o, plugins, o.nr_plugins, used);
	if (!ret)
		ret = add_kernel_side(run.engine, &src, &o, plugins, o.nr_plugins, used);
	if (ret)
		goto out;
	for (i = 0; i < o.nr_params; i++) {
		if (!used[i]) {
			ret = cli_usage_error("replay", "--param '%s': no chosen policy has that parameter",
					      o.params[i]);
			goto out;
		}
	}

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
	model = model_new(src.topo);
	dec = decision_new(src.topo, emit_decision, &run);
	run.ledger = cost_ledger_new(src.topo, cost_done, release_json, &run);
	if (!model || !dec || !run.ledger) {
		ret = CLI_EXIT_INTERNAL;
		cli_error("out of memory");
		goto out;
	}
	if (o.scan_period_ns)
		model_set_scan_period(model, o.scan_period_ns);
	while ((r = cli_source_next(&src, &ev)) > 0) {
		r = decision_feed(dec, model, &ev);
		if (r >= 0)
			r = cost_ledger_feed(run.ledger, model, &ev);
		if (r >= 0)
			r = model_feed(model, &ev);
		if (r < 0)
			break;
	}
	if (r == 0)
		r = decision_finish(dec);
	if (r == 0)
		r = cost_ledger_finish(run.ledger, ingest_info(src.in)->last_ts_ns);
	if (r < 0) {
		char buf[1400];

		if (r == -CLI_EXIT_BADINPUT || r == -CLI_EXIT_INTERNAL) {
			ret = -r;	/* cli_source_next() said it */
		} else {
			ret = r == -ENOMEM || r == -EIO ? CLI_EXIT_INTERNAL : CLI_EXIT_BADINPUT;
			if (!run.err.code)
				err_set(&run.err, r, "%s", sr_strerror(r));
			cli_error("%s", err_format(&run.err, buf, sizeof(buf)));
		}
		goto out;
	}

	if (src.capture_dir[0]) {
		char path[PATH_MAX + 32];

		snprintf(path, sizeof(path), "%s/schedstat-delta.txt", src.capture_dir);
		have_kstat = report_schedstat_read(path, &kstat) == 0;
		vmstat_files(&run, src.capture_dir, &cin);
	}
	if (cost_ledger_totals(run.ledger)->cal.windowed)
		cin.vmstat_source = "schedreplay_vmstat";
	cin.totals = cost_ledger_totals(run.ledger);
	cin.ledger = run.ledger;
	cin.fstats = model_fault_stats(model);
	cin.scan_period_ns = model_scan_period(model);
	cin.top_tasks = o.top;
	ri.cost = &cin;
	ri.trace = src.path;
	ri.info = ingest_info(src.in);
	ri.kernel_release = src.kernel_release;
	ri.release_origin = src.release_origin;
	ri.topo = src.topo;
	ri.engine = run.engine;
	ri.dstats = decision_stats(dec);
	ri.schedstat = have_kstat ? &kstat : NULL;
	ri.warnings = src.warnings;
	ri.top_tasks = o.top;
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
	for (i = 0; i < (int)run.nr_by_seq; i++)
		json_decref(run.by_seq[i]);
	free(run.by_seq);
	cost_ledger_free(run.ledger);
	decision_free(dec);
	model_free(model);
	engine_free(run.engine);
	if (src_open)
		cli_source_close(&src);
	for (i = 0; i < o.nr_plugins; i++)
		replay_plugin_close(plugins[i]);
	return ret;
}
