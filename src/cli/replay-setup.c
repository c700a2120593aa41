// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay-setup.c - the policy options, the engine built from them, and the
 * event loop of a replay; shared by `replay` (cmd-replay.c) and `tui`
 * (cmd-tui.c) so both replay a trace the same way.
 *
 * Flow per event: decision_feed() (before the model moves on), then
 * model_feed(); each decision the classifier emits goes through the engine
 * and on to the caller's function, so memory stays flat.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "replay-setup.h"

void cli_replay_opts_init(struct cli_replay_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->old_list = "lb-v4.1,numa-v4.18,exec-least-loaded";
	o->new_list = "lb-v4.1-numa-hotness,numa-v4.19,exec-round-robin";
	o->top = 10;
}

const char *cli_replay_opts_help(void)
{
	return "  --old P[,P...]      old policies (default lb-v4.1,numa-v4.18,exec-least-loaded)\n"
	       "  --new P[,P...]      new policies (default lb-v4.1-numa-hotness,numa-v4.19,\n"
	       "                      exec-round-robin); the first policy of a side that decides a\n"
	       "                      class decides it ('schedreplay policies' lists them)\n"
	       "  --param [P:]K=V     set parameter K (of policy P, or of every chosen policy\n"
	       "                      that has K); repeatable\n"
	       "  --plugin FILE.so    load a policy plugin (docs/plugin-abi.md); repeatable\n"
	       "  --kernel-policy P[,P...]  model of the recording kernel for fidelity (default:\n"
	       "                      from the kernel release; 'none' for no fidelity)\n"
	       "  --scan-period-ms N  decay period of the NUMA fault model (default: the trace's\n"
	       "                      scan_period_min_ms, else 1000; docs/cost-model.md)\n";
}

int cli_replay_opts_parse_policy(struct cli_replay_opts *o, int argc, char **argv, int *i,
				 const char *cmd)
{
	const char *a = argv[*i];
	const char **slot = NULL;

	if (!strcmp(a, "--old"))
		slot = &o->old_list;
	else if (!strcmp(a, "--new"))
		slot = &o->new_list;
	else if (!strcmp(a, "--kernel-policy"))
		slot = &o->kernel_policy;
	else if (strcmp(a, "--param") && strcmp(a, "--plugin") && strcmp(a, "--scan-period-ms"))
		return 0;
	if (*i + 1 >= argc)
		return -cli_usage_error(cmd, "option '%s' needs a value", a);
	if (!strcmp(a, "--scan-period-ms")) {
		char *end;
		long v = strtol(argv[++*i], &end, 10);

		if (*end || v < 1 || v > 3600 * 1000)
			return -cli_usage_error(cmd, "--scan-period-ms takes milliseconds (1..3600000), not '%s'",
						argv[*i]);
		o->scan_period_ns = (uint64_t)v * 1000 * 1000;
		return 1;
	}
	if (slot) {
		*slot = argv[++*i];
	} else if (!strcmp(a, "--param")) {
		if (o->nr_params == CLI_REPLAY_MAX_PARAMS)
			return -cli_usage_error(cmd, "at most %d --param", CLI_REPLAY_MAX_PARAMS);
		o->params[o->nr_params++] = argv[++*i];
	} else {
		if (o->nr_plugins == CLI_REPLAY_MAX_PLUGINS)
			return -cli_usage_error(cmd, "at most %d --plugin", CLI_REPLAY_MAX_PLUGINS);
		o->plugins[o->nr_plugins++] = argv[++*i];
	}
	return 1;
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
static int make_policy(const char *name, const struct cli_replay_opts *o,
		       struct cli_replay_setup *s, bool *used, const char *cmd,
		       struct replay_policy **out)
{
	const struct sr_policy_ops *ops = find_ops(name, s->plugins, s->nr_plugins);
	struct replay_policy *pol;
	struct err e = { 0 };
	int i, ret;

	if (!ops) {
		cli_usage_error(cmd, "unknown policy '%s' ('schedreplay policies' lists them)", name);
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
			cli_usage_error(cmd, "--param '%s': %s", o->params[i], e.msg);
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

static int add_side(struct cli_replay_setup *s, enum engine_side side, const char *list,
		    const struct cli_replay_opts *o, bool *used, const char *cmd)
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
			cli_usage_error(cmd, "bad policy list '%s'", list);
			return CLI_EXIT_USAGE;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		ret = make_policy(name, o, s, used, cmd, &pol);
		if (ret)
			return ret;
		if (engine_add(s->engine, side, pol, &e) < 0) {
			cli_usage_error(cmd, "%s", e.msg);
			return CLI_EXIT_USAGE;
		}
		p = c ? c + 1 : NULL;
	}
	return CLI_EXIT_OK;
}

/* The kernel side: --kernel-policy, or the built-ins that model the release. */
static int add_kernel_side(struct cli_replay_setup *s, const struct cli_replay_opts *o, bool *used,
			   const char *cmd)
{
	char list[512] = "";
	int c;

	if (o->kernel_policy) {
		if (!strcmp(o->kernel_policy, "none"))
			return CLI_EXIT_OK;
		return add_side(s, ENGINE_KERNEL, o->kernel_policy, o, used, cmd);
	}
	for (c = 0; c < SR_DECISION_CLASS__COUNT; c++) {
		const char *n = engine_kernel_policy_name(s->src.kernel_release, c);
		size_t l = strlen(list);

		if (!n || in_list(list, n))
			continue;
		snprintf(list + l, sizeof(list) - l, "%s%s", l ? "," : "", n);
	}
	if (!list[0])
		return CLI_EXIT_OK;
	return add_side(s, ENGINE_KERNEL, list, o, used, cmd);
}

int cli_replay_setup_open(struct cli_replay_setup *s, const struct cli_replay_opts *o,
			  const char *trace, const struct cli_source_opts *so, const char *cmd)
{
	bool used[CLI_REPLAY_MAX_PARAMS] = { 0 };
	struct err e = { 0 };
	int i, ret;

	s->scan_period_ns = o->scan_period_ns;
	for (i = 0; i < o->nr_plugins; i++) {
		s->plugins[i] = replay_plugin_open(o->plugins[i], &e);
		if (!s->plugins[i]) {
			char buf[1400];

			return cli_error("%s", err_format(&e, buf, sizeof(buf)));
		}
		s->nr_plugins = i + 1;
	}
	ret = cli_source_open(&s->src, trace, so);
	if (ret)
		return ret;
	s->src_open = true;

	s->engine = engine_new();
	if (!s->engine) {
		cli_error("out of memory");
		return CLI_EXIT_INTERNAL;
	}
	ret = add_side(s, ENGINE_OLD, o->old_list, o, used, cmd);
	if (!ret)
		ret = add_side(s, ENGINE_NEW, o->new_list, o, used, cmd);
	if (!ret)
		ret = add_kernel_side(s, o, used, cmd);
	if (ret)
		return ret;
	for (i = 0; i < o->nr_params; i++)
		if (!used[i])
			return cli_usage_error(cmd, "--param '%s': no chosen policy has that parameter",
					       o->params[i]);
	return CLI_EXIT_OK;
}

static int setup_emit(const struct decision *d, void *arg)
{
	struct cli_replay_setup *s = arg;
	struct engine_result r;
	int ret;

	int node[COST__SIDES];
	void *user = NULL;
	int side;

	ret = engine_evaluate(s->engine, d, &r, &s->err);
	if (ret < 0)
		return ret;
	ret = s->fn(&r, s->arg, &s->err, &user);
	if (ret < 0)
		return ret;
	for (side = 0; side < 2; side++)
		node[side] = r.pol[side] ? cost_verdict_node(&d->snap, &r.v[side]) : -1;
	node[COST_TRACE] = cost_trace_node(&d->snap);
	ret = cost_ledger_decide(s->ledger, d, node, user);
	if (ret < 0 && !s->err.code)
		err_set(&s->err, ret, "%s", sr_strerror(ret));
	return ret;
}

static int no_done(const struct cost_item *it, void *arg)
{
	(void)it;
	(void)arg;
	return 0;
}

int cli_replay_setup_run(struct cli_replay_setup *s, cli_replay_setup_fn fn, void *arg,
			 cost_done_fn done, cost_release_fn release)
{
	const struct sr_event *ev;
	int r;

	s->fn = fn;
	s->arg = arg;
	s->model = model_new(s->src.topo);
	s->dec = decision_new(s->src.topo, setup_emit, s);
	s->ledger = cost_ledger_new(s->src.topo, done ? done : no_done, release, arg);
	if (!s->model || !s->dec || !s->ledger) {
		cli_error("out of memory");
		return CLI_EXIT_INTERNAL;
	}
	if (s->scan_period_ns)
		model_set_scan_period(s->model, s->scan_period_ns);
	while ((r = cli_source_next(&s->src, &ev)) > 0) {
		r = decision_feed(s->dec, s->model, ev);
		if (r >= 0)
			r = cost_ledger_feed(s->ledger, s->model, ev);
		if (r >= 0)
			r = model_feed(s->model, ev);
		if (r < 0)
			break;
	}
	if (r == 0)
		r = decision_finish(s->dec);
	if (r == 0)
		r = cost_ledger_finish(s->ledger, ingest_info(s->src.in)->last_ts_ns);
	if (r < 0) {
		char buf[1400];

		if (r == -CLI_EXIT_BADINPUT || r == -CLI_EXIT_INTERNAL)
			return -r;	/* cli_source_next() said it */
		if (!s->err.code)
			err_set(&s->err, r, "%s", sr_strerror(r));
		cli_error("%s", err_format(&s->err, buf, sizeof(buf)));
		return r == -ENOMEM || r == -EIO ? CLI_EXIT_INTERNAL : CLI_EXIT_BADINPUT;
	}
	return CLI_EXIT_OK;
}

struct tc_arg {
	struct report_task_counters	*tc;
	const struct engine		*engine;
};

static int sum_task_counters(const struct model_task *t, void *arg)
{
	struct tc_arg *a = arg;
	const struct engine_task *et;

	if (!t->ks_seen)
		return 0;
	a->tc->tasks++;
	a->tc->kernel_nr_migrations += t->ks_last[MODEL_KS_NMIG] - t->ks_first[MODEL_KS_NMIG];
	a->tc->kernel_forced += t->ks_last[MODEL_KS_FORCED] - t->ks_first[MODEL_KS_FORCED];
	a->tc->kernel_failed_hot += t->ks_last[MODEL_KS_FHOT] - t->ks_first[MODEL_KS_FHOT];
	a->tc->trace_migrations += t->mig_last - t->mig_first;
	et = engine_task_get(a->engine, t->tid);
	if (et) {
		a->tc->replay_forced += et->kernel_forced;
		a->tc->replay_resisted_hot += et->kernel_resist_hot;
	}
	return 0;
}

/* The capture folder's vmstat-before.txt / vmstat-after.txt, for calibration. */
static const char *vmstat_files(struct cost_ledger *l, const char *dir)
{
	char path[PATH_MAX + 32];
	int64_t fb = 0, lb = 0, fa = 0, la = 0;

	snprintf(path, sizeof(path), "%s/vmstat-before.txt", dir);
	if (report_vmstat_read(path, &fb, &lb))
		return NULL;
	snprintf(path, sizeof(path), "%s/vmstat-after.txt", dir);
	if (report_vmstat_read(path, &fa, &la))
		return NULL;
	cost_ledger_set_vmstat(l, fb, lb, fa, la);
	return "vmstat-before.txt/vmstat-after.txt";
}

void cli_replay_setup_report_in(struct cli_replay_setup *s, struct report_replay_in *ri,
				struct cli_replay_setup_report *rep, size_t top)
{
	struct report_task_counters *tc = &rep->tc;
	struct report_cost_in *cin = &rep->cin;
	struct tc_arg tca = { .tc = tc, .engine = s->engine };
	bool have_kstat = false;

	if (s->src.capture_dir[0]) {
		char path[PATH_MAX + 32];

		snprintf(path, sizeof(path), "%s/schedstat-delta.txt", s->src.capture_dir);
		have_kstat = report_schedstat_read(path, &rep->kstat) == 0;
	}
	memset(ri, 0, sizeof(*ri));
	ri->trace = s->src.path;
	ri->info = ingest_info(s->src.in);
	ri->kernel_release = s->src.kernel_release;
	ri->release_origin = s->src.release_origin;
	ri->topo = s->src.topo;
	ri->engine = s->engine;
	ri->dstats = decision_stats(s->dec);
	ri->schedstat = have_kstat ? &rep->kstat : NULL;
	ri->warnings = s->src.warnings;
	ri->top_tasks = top;
	memset(tc, 0, sizeof(*tc));
	model_for_each_task(s->model, sum_task_counters, &tca);
	ri->task_counters = tc->tasks ? tc : NULL;

	memset(cin, 0, sizeof(*cin));
	if (cost_ledger_totals(s->ledger)->cal.windowed)
		cin->vmstat_source = "schedreplay_vmstat";	/* the trace's own lines win */
	else if (s->src.capture_dir[0])
		cin->vmstat_source = vmstat_files(s->ledger, s->src.capture_dir);
	cin->totals = cost_ledger_totals(s->ledger);
	cin->ledger = s->ledger;
	cin->fstats = model_fault_stats(s->model);
	cin->scan_period_ns = model_scan_period(s->model);
	cin->top_tasks = top;
	ri->cost = cin;
}

void cli_replay_setup_close(struct cli_replay_setup *s)
{
	int i;

	decision_free(s->dec);
	cost_ledger_free(s->ledger);
	model_free(s->model);
	engine_free(s->engine);
	if (s->src_open)
		cli_source_close(&s->src);
	for (i = 0; i < s->nr_plugins; i++)
		replay_plugin_close(s->plugins[i]);
	memset(s, 0, sizeof(*s));
}
