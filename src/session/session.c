// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * session.c - the session's life: open, the event loop, close.
 *
 * Flow per event of a replay (the order matters): the range check; then
 * decision_feed() (before the model moves on: a decision's snapshot is the
 * state the kernel saw), whose decisions go through the engine and into the
 * cost ledger; then cost_ledger_feed() (the memory placement before the
 * event); then model_feed().  The ledger hands each decision back when its
 * interval closes (the task's next decision, its exit, the end of the
 * trace), and that is when the sinks see it, with its cost.  Memory stays
 * flat: a decision is kept only while its cost is open, and only when a
 * sink takes decisions.
 *
 * `info` runs the model alone and counts events by name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session-local.h"

void session_opts_init(struct session_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = SESSION_REPLAY;
	o->old_list = "lb-v4.1,numa-v4.18,exec-least-loaded,wakeup-v5.19,fork-v5.10";
	o->new_list = "lb-v4.1-numa-hotness,numa-v4.19,exec-round-robin,wakeup-v6.1,fork-v6.1";
}

enum session_fail session_fail(int code)
{
	if (code == -SR_EUSAGE)
		return SESSION_FAIL_USAGE;
	if (code == -ENOMEM || code == -EIO || code == -ECANCELED)
		return SESSION_FAIL_INTERNAL;
	/* a sink's output could not be written: not the trace's fault */
	if (code == -ENOSPC || code == -EDQUOT || code == -EFBIG || code == -EPIPE || code == -EROFS)
		return SESSION_FAIL_INTERNAL;
	return SESSION_FAIL_INPUT;
}

/* The decoder's damage warnings: counted, then the caller's callback. */
static void warn_cb(void *arg, const struct err *e)
{
	struct session *s = arg;
	struct err copy;

	s->tr.warnings++;
	if (!s->opts.warn)
		return;
	if (s->spool_fd >= 0 && !strcmp(e->file, s->tr.read_path)) {
		copy = *e;
		err_set_file(&copy, s->tr.path);
		e = &copy;
	}
	s->opts.warn(s->opts.cb_arg, e);
}

struct session *session_open(const char *trace, const struct session_opts *o, struct err *err)
{
	struct session *s = calloc(1, sizeof(*s));
	int ret;

	if (!s) {
		err_set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	s->opts = *o;
	s->spool_fd = -1;
	s->derr = &s->err;
	s->opts.ingest.warn = warn_cb;
	s->opts.ingest.warn_arg = s;
	strcount_init(&s->names);
	ret = s->opts.mode == SESSION_REPLAY ? session_load_plugins(s, &s->err) : 0;
	if (!ret)
		ret = session_open_trace(s, trace, &s->err);
	if (!ret && s->opts.mode == SESSION_REPLAY)
		ret = session_build_engine(s, &s->err);
	if (ret) {
		*err = s->err;
		if (!err->code)
			err->code = ret;
		session_close(s);
		return NULL;
	}
	return s;
}

void session_close(struct session *s)
{
	struct session_pending *p, *n;
	int i;

	if (!s)
		return;
	session_pipe_free(s);
	decision_free(s->dec);
	cost_ledger_free(s->ledger);	/* gives back the decisions still kept */
	model_free(s->model);
	free(s->seeds);
	free(s->task_line);
	engine_free(s->engine);
	ingest_close(s->in);
	topo_free(s->topo);
	for (i = 0; i < s->nr_plugins; i++)
		replay_plugin_close(s->plugins[i]);
	for (p = s->free_list; p; p = n) {
		n = p->next;
		free(p->d);
		free(p);
	}
	strcount_release(&s->names);
	if (s->spool_fd >= 0)
		close(s->spool_fd);
	free(s);
}

int session_check_event(const struct topo *topo, const struct ingest *in, const char *path,
			const struct sr_event *ev, struct err *e)
{
	int ret;

	/* once per event: not `= { 0 }`, which clears 1 KiB of strings each time */
	e->code = 0;
	e->file[0] = e->where[0] = e->msg[0] = '\0';
	ret = model_check_event(topo, ev, e);
	if (ret == 0 || ret == -ENOMEM)
		return ret;
	err_set_file(e, path);
	ingest_err_at(in, e, ev->src_pos);
	return ret;
}

/*
 * The next event that passed the range check.  An event naming a CPU
 * beyond a guessed topology is damage read around (fatal with --strict);
 * beyond a known one, bad input.
 * Return: 1 with *@ev borrowed until the next call, 0 at the end, or a
 * negative code with s->err set.
 */
static int next_event(struct session *s, const struct sr_event **ev)
{
	int ret;

	for (;;) {
		ret = ingest_next_borrowed(s->in, ev);
		if (ret < 0) {
			s->err = *ingest_err(s->in);
			if (s->spool_fd >= 0 && !strcmp(s->err.file, s->tr.read_path))
				err_set_file(&s->err, s->tr.path);
			if (!s->err.code)
				s->err.code = ret;
			return ret;
		}
		if (ret == 0)
			return 0;
		ret = session_check_event(s->topo, s->in, s->tr.path, *ev, &s->err);
		if (ret == 0)
			break;
		if (ret == -ENOMEM)
			return err_set(&s->err, ret, "out of memory");
		if (s->topo->source != TOPO_SRC_DEFAULT || s->opts.ingest.strict)
			return ret;
		s->tr.beyond_topo++;
		s->tr.warnings++;
		if (s->opts.warn)
			s->opts.warn(s->opts.cb_arg, &s->err);
	}
	if ((++s->nr_read & 0xffff) == 0 && s->opts.progress)
		s->opts.progress(s->opts.cb_arg, s->nr_read, ingest_progress(s->in));
	return 1;
}

static struct session_pending *pending_get(struct session *s)
{
	struct session_pending *p = s->free_list;

	if (p) {
		s->free_list = p->next;
		return p;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->d = calloc(1, sizeof(*p->d));	/* zero: decision_copy() writes only what is used */
	if (!p->d) {
		free(p);
		return NULL;
	}
	p->owner = s;
	return p;
}

static void pending_put(void *user)
{
	struct session_pending *p = user;

	p->next = p->owner->free_list;
	p->owner->free_list = p;
}

/*
 * What a decision prices (docs/cost-model.md, "Each side's own choice"):
 * its task where each side's choice leaves it; and in a load-balance pass,
 * each task a side pulls instead, on the balancing CPU's node for that
 * side and on the source's for the others (the kernel left it there).  A
 * placement prices the task on the chosen CPU's node.
 */
int session_cost_parts(const struct decision *d, const struct engine_result *r,
		       struct cost_part_in parts[COST_MAX_PARTS])
{
	const struct sr_snapshot *sn = &d->snap;
	int src = (sn->known & SR_SNAP_SRC_NODE) ? sn->src_node : -1;
	int dst = (sn->known & SR_SNAP_DST_NODE) ? sn->dst_node : -1;
	bool lb = decision_is_lb(sn->decision_class);
	int nr = 1, side, k, j;

	memset(parts, 0, sizeof(*parts));
	parts[0].tid = sn->tid;
	parts[0].from_node = src;
	for (side = 0; side < 2; side++) {
		const struct decision_choice *c = &r->choice[side];

		if (!r->pol[side])
			parts[0].node[side] = -1;
		else if (lb)
			parts[0].node[side] = cost_choice_node(sn, c);
		else if (c->kind == DECISION_CHOICE_PLACE && c->node >= 0)
			parts[0].node[side] = c->node;
		else
			parts[0].node[side] = cost_verdict_node(sn, &r->v[side]);
	}
	parts[0].node[COST_TRACE] = cost_trace_node(sn);
	if (!lb || src < 0 || dst < 0)
		return nr;
	for (side = 0; side < 2; side++) {
		const struct decision_choice *c = &r->choice[side];

		if (!r->pol[side] || c->kind != DECISION_CHOICE_TASK || c->tid <= 0 ||
		    c->tid == sn->tid)
			continue;
		for (k = 1; k < nr && parts[k].tid != c->tid; k++)
			;
		if (k == nr) {
			if (nr == COST_MAX_PARTS)
				continue;
			memset(&parts[k], 0, sizeof(parts[k]));
			parts[k].tid = c->tid;
			parts[k].from_node = src;
			for (j = 0; j < COST__SIDES; j++)
				parts[k].node[j] = j < 2 && !r->pol[j] ? -1 : src;
			nr++;
		}
		parts[k].node[side] = dst;
	}
	return nr;
}

/* whether a sink takes @r: then the session keeps it until its cost is known */
static bool wanted(const struct session *s, const struct engine_result *r)
{
	int i;

	for (i = 0; i < s->nr_sinks; i++)
		if (s->sinks[i].ops->decision &&
		    (!s->sinks[i].ops->wants || s->sinks[i].ops->wants(r)))
			return true;
	return false;
}

/* A decision from the classifier: through the engine, into the ledger. */
int session_decide(struct session *s, const struct decision *d, struct decision **own)
{
	struct session_pending *p = NULL;
	struct engine_result r;
	struct cost_part_in parts[COST_MAX_PARTS];
	struct decision *spare;
	int ret, nr;

	ret = engine_evaluate(s->engine, d, &r, s->derr);
	if (ret < 0)
		return ret;
	if (s->keep && wanted(s, &r)) {
		p = pending_get(s);
		if (!p)
			return err_set(s->derr, -ENOMEM, "out of memory");
		if (own) {
			/* the decision thread's slot takes the spare: no copy */
			spare = p->d;
			p->d = *own;
			*own = spare;
		} else {
			decision_copy(s->dec, p->d, d);
		}
		p->d->cand = NULL;	/* borrowed for this call only */
		p->r = r;
		p->r.d = p->d;
	}
	nr = session_cost_parts(d, &r, parts);
	ret = cost_ledger_decide_parts(s->ledger, d, parts, nr, p);
	if (ret < 0 && !s->derr->code)
		err_set(s->derr, ret, "%s", sr_strerror(ret));
	return ret;
}

static int on_decision(const struct decision *d, void *arg)
{
	struct session *s = arg;

	return s->pipe ? session_pipe_decision(s, d) : session_decide(s, d, NULL);
}

/* A decision whose cost is known: to every sink that takes decisions. */
static int on_cost(const struct cost_item *it, void *arg)
{
	struct session *s = arg;
	struct session_pending *p = it->user;
	int i, ret = 0;

	if (!p)
		return 0;
	for (i = 0; i < s->nr_sinks && ret == 0; i++)
		if (s->sinks[i].ops->decision &&
		    (!s->sinks[i].ops->wants || s->sinks[i].ops->wants(&p->r)))
			ret = s->sinks[i].ops->decision(s->sinks[i].priv, &p->r, it, s->derr);
	pending_put(p);
	return ret;
}

static int run_info(struct session *s)
{
	const struct sr_event *ev;
	int r;

	s->model = model_new(s->topo);
	if (!s->model || model_seed_tasks(s->model, s->seeds, s->nr_seeds) < 0)
		return err_set(&s->err, -ENOMEM, "out of memory");
	while ((r = next_event(s, &ev)) > 0) {
		if (ev->kind != SR_EV_LOST && strcount_add(&s->names, ev->name, 1) < 0)
			r = -ENOMEM;
		else
			r = model_feed(s->model, ev);
		if (r < 0)
			return err_set(&s->err, -ENOMEM, "out of memory");
	}
	return r;
}

/* decision-probe pairing damage counted so far (the classifier's counters) */
static uint64_t probe_damage(const struct decision_stats *st)
{
	return st->probe_unpaired_entries + st->probe_returns_without_entry + st->probe_unusable;
}

/*
 * A decision probe that did not pair, seen at @ev: one warning (counted
 * as damage read around), naming the event; the counts are in the report.
 */
static void warn_probe(struct session *s, const struct sr_event *ev, uint64_t before)
{
	const struct decision_stats *st = decision_stats(s->dec);
	struct err e = { 0 };

	if (probe_damage(st) == before)
		return;
	s->tr.warnings++;
	if (!s->opts.warn)
		return;
	err_set(&e, -SR_EBADTRACE, "decision probe %s: pairing damage (%" PRIu64 " entries without "
		"return, %" PRIu64 " returns without entry, %" PRIu64 " unusable so far)",
		ev->name ? ev->name : "event", st->probe_unpaired_entries,
		st->probe_returns_without_entry, st->probe_unusable);
	err_set_file(&e, s->tr.path);
	ingest_err_at(s->in, &e, ev->src_pos);
	s->opts.warn(s->opts.cb_arg, &e);
}

/*
 * A sched_migrate_task of pid 0 or below: no task the kernel moves (the
 * idle task never is), so no decision (decision.c) and no model change.
 * Damage: one warning, read around; with --strict, the error.
 * Return: 0, or -SR_EBADTRACE with s->err set.
 */
static int bad_migration(struct session *s, const struct sr_event *ev)
{
	struct err e = { 0 };

	err_set(&e, -SR_EBADTRACE, "sched_migrate_task of pid %d: no task to decide for "
		"(the idle task never migrates)", ev->u.mig.pid);
	err_set_file(&e, s->tr.path);
	ingest_err_at(s->in, &e, ev->src_pos);
	if (s->opts.ingest.strict) {
		s->err = e;
		return e.code;
	}
	s->tr.warnings++;
	if (s->opts.warn)
		s->opts.warn(s->opts.cb_arg, &e);
	return 0;
}

static int run_replay(struct session *s)
{
	const struct sr_event *ev;
	uint64_t dmg;
	int r;

	s->model = model_new(s->topo);
	s->dec = decision_new(s->topo, on_decision, s);
	s->ledger = cost_ledger_new(s->topo, on_cost, pending_put, s);
	if (!s->model || !s->dec || !s->ledger ||
	    model_seed_tasks(s->model, s->seeds, s->nr_seeds) < 0)
		return err_set(&s->err, -ENOMEM, "out of memory");
	if (s->opts.scan_period_ns)
		model_set_scan_period(s->model, s->opts.scan_period_ns);
	decision_set_kernel(s->dec, s->tr.kernel_release);
	if (session_pipe_wanted(s) && (r = session_pipe_start(s)) < 0)
		return r;
	while ((r = next_event(s, &ev)) > 0) {
		dmg = probe_damage(decision_stats(s->dec));
		r = decision_feed(s->dec, s->model, ev);
		if (ingest_kind_is_probe(ev->kind) || ev->kind == SR_EV_LOST)
			warn_probe(s, ev, dmg);
		else if (ev->kind == SR_EV_MIGRATE && ev->u.mig.pid <= 0 && r >= 0)
			r = bad_migration(s, ev);
		if (r >= 0)
			r = s->pipe ? session_pipe_feed(s, ev) : cost_ledger_feed(s->ledger, s->model, ev);
		if (r >= 0)
			r = model_feed(s->model, ev);
		if (r < 0)
			break;
	}
	if (r == 0)
		r = decision_finish(s->dec);
	r = session_pipe_stop(s, r);
	if (r == 0)
		r = cost_ledger_finish(s->ledger, ingest_info(s->in)->last_ts_ns);
	if (r == 0)
		session_read_capture_counters(s);
	return r;
}

int session_run(struct session *s, const struct session_sink *sinks, int nr_sinks)
{
	int i, r = 0;

	memset(&s->err, 0, sizeof(s->err));
	if (s->ran)
		return err_set(&s->err, -EINVAL, "a session runs once");
	s->ran = true;
	s->sinks = sinks;
	s->nr_sinks = nr_sinks;
	for (i = 0; i < nr_sinks; i++)
		s->keep |= sinks[i].ops->decision != NULL;
	for (i = 0; i < nr_sinks && r == 0; i++)
		if (sinks[i].ops->begin)
			r = sinks[i].ops->begin(sinks[i].priv, s, &s->err);
	if (r == 0)
		r = s->opts.mode == SESSION_REPLAY ? run_replay(s) : run_info(s);
	for (i = 0; i < nr_sinks && r == 0; i++)
		if (sinks[i].ops->end)
			r = sinks[i].ops->end(sinks[i].priv, s, &s->err);
	if (r < 0 && !s->err.code)
		err_set(&s->err, r, "%s", sr_strerror(r));
	return r < 0 ? r : 0;
}

const struct err *session_err(const struct session *s)
{
	return &s->err;
}

const struct session_trace *session_trace(const struct session *s)
{
	return &s->tr;
}

const struct engine *session_engine(const struct session *s)
{
	return s->engine;
}

const struct model *session_model(const struct session *s)
{
	return s->model;
}

const struct decision_stats *session_decision_stats(const struct session *s)
{
	return s->dec ? decision_stats(s->dec) : NULL;
}

const struct cost_ledger *session_ledger(const struct session *s)
{
	return s->ledger;
}

const char *session_vmstat_source(const struct session *s)
{
	return s->vmstat_source;
}

const struct session_schedstat *session_schedstat(const struct session *s)
{
	return s->have_kstat ? &s->kstat : NULL;
}

const struct strcount *session_event_names(const struct session *s)
{
	return &s->names;
}

uint64_t session_disagreements(const struct session *s)
{
	uint64_t n = 0;
	int c;

	for (c = 0; s->engine && c < SR_DECISION_CLASS__COUNT; c++)
		n += engine_class(s->engine, c)->disagreements;
	return n;
}
