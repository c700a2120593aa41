// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store-replay.c - rows from a live replay: each engine result becomes a
 * row, its verdicts interned, and the snapshot fields the detail view
 * shows copied into the snapshot side array.  The store is a session's
 * sink (tui_store_sink_ops): decisions arrive as their costs complete and
 * are put back in trace order at the end.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "replay/engine/engine.h"
#include "replay/replay.h"
#include "report/report-sink.h"
#include "store-local.h"

static int verdict_id(struct tui_store *s, const struct replay_policy *pol,
		      const struct sr_verdict *v, uint32_t *out)
{
	const struct sr_policy_ops *ops;
	struct tui_verdict tv = { 0 };
	uint32_t i;
	int id;

	*out = TUI_NONE;
	if (!pol)
		return 0;
	ops = replay_policy_ops(pol);
	id = tui_store_intern_policy(s, ops->name);
	if (id < 0)
		return id;
	tv.policy = (uint16_t)id;
	tv.verdict = (uint8_t)v->verdict;
	tv.flags = (uint8_t)v->flags;
	tv.target_node = v->target_node >= 0 && v->target_node < TUI_MAX_NODES ?
			 (int8_t)v->target_node : -1;
	for (i = 0; i < v->nr_reasons && i < SR_MAX_REASONS; i++) {
		unsigned int code = v->reasons[i];
		const char *desc = replay_reason_description(ops, code);
		char buf[512];

		if (code >= SR_REASON_MISSING_FIRST && code < SR_REASON_PLUGIN_FIRST) {
			snprintf(buf, sizeof(buf), "unknown: %s", desc);
			desc = buf;
		}
		id = tui_store_intern_reason(s, replay_reason_name(ops, code), desc);
		if (id < 0)
			return id;
		tv.reasons[tv.nr_reasons++] = (uint16_t)id;
	}
	*out = tui_store_intern_verdict(s, &tv);
	return *out == UINT32_MAX ? -ENOMEM : 0;
}

/* a side's choice, as report_choice_json() says it */
static void set_choice(struct tui_row *row, int side, const struct decision_choice *c)
{
	switch (c->kind) {
	case DECISION_CHOICE_NONE:
		row->choice[side] = TUI_CHOICE_NOTHING;
		break;
	case DECISION_CHOICE_TASK:
		row->choice[side] = TUI_CHOICE_TASK;
		row->choice_tid[side] = c->tid;
		break;
	case DECISION_CHOICE_PLACE:
		row->choice[side] = TUI_CHOICE_PLACE;
		row->choice_cpu[side] = c->cpu >= 0 && c->cpu <= INT16_MAX ? (int16_t)c->cpu : -1;
		row->choice_node[side] = c->node >= 0 && c->node < TUI_MAX_NODES ? (int8_t)c->node : -1;
		break;
	default:
		row->choice[side] = TUI_CHOICE_UNKNOWN;
	}
}

static int copy_snap(struct tui_store *s, struct tui_row *row, const struct sr_snapshot *sp)
{
	int n = sp->known & SR_SNAP_NR_NODES ? sp->nr_nodes : 0;
	struct tui_snap *sn;
	uint64_t *f;
	int32_t *nr;
	int i;

	if (n < 0 || n > TUI_MAX_NODES || n > SR_MAX_NODES)
		n = 0;
	sn = tui_store_append_snap(s, row, n);
	if (!sn)
		return -ENOMEM;
	sn->known = sp->known;
	sn->since_ran_ns = sp->since_ran_ns;
	sn->group_active = sp->group_active;
	sn->pref_node = sp->pref_node;
	sn->numa_group = sp->numa_group;
	sn->src_nr_running = sp->src_nr_running;
	sn->src_nr_preferred = sp->src_nr_preferred;
	sn->dst_nr_running = sp->dst_nr_running;
	sn->numa_inflight = sp->numa_inflight;
	sn->dst_idle = (int8_t)sp->dst_idle;
	sn->task_running = (int8_t)sp->task_running;
	sn->has_faults = (int8_t)sp->has_faults;
	sn->task_class = (int8_t)sp->task_class;
	sn->idle_type = (int8_t)sp->idle_type;
	f = s->faults + sn->faults;
	nr = s->node_nr + sn->node_nr;
	for (i = 0; i < n; i++) {
		f[i] = sp->task_faults[i];
		f[n + i] = sp->group_faults[i];
		nr[i] = sp->node_nr_running[i];
	}
	return 0;
}

int tui_store_add_result(struct tui_store *s, const struct engine_result *r)
{
	const struct decision *d = r->d;
	const struct sr_snapshot *sp = &d->snap;
	struct tui_row *row = tui_store_append(s);
	int side, ret;

	if (!row)
		return -ENOMEM;
	row->ts_ns = sp->ts_ns;
	row->tid = sp->tid;
	row->tgid = sp->tgid;
	row->partner_tid = d->partner_tid;
	row->src_cpu = (int16_t)sp->src_cpu;
	row->dst_cpu = (int16_t)sp->dst_cpu;
	if (sp->known & SR_SNAP_SRC_NODE && sp->src_node >= 0 && sp->src_node < TUI_MAX_NODES)
		row->src_node = (int8_t)sp->src_node;
	if (sp->known & SR_SNAP_DST_NODE && sp->dst_node >= 0 && sp->dst_node < TUI_MAX_NODES)
		row->dst_node = (int8_t)sp->dst_node;
	row->cls = (uint8_t)sp->decision_class;
	if (sp->known & SR_SNAP_COMM) {
		/* NUL-padded, as the task sort compares the whole field */
		memcpy(row->comm, sp->comm, strnlen(sp->comm, sizeof(row->comm) - 1));
		row->flags |= TUI_ROW_COMM;
	}
	if (sp->known & SR_SNAP_TGID)
		row->flags |= TUI_ROW_TGID;
	if (r->disagree)
		row->flags |= TUI_ROW_DISAGREE;
	if (r->unknown)
		row->flags |= TUI_ROW_UNKNOWN;
	if (r->flips)
		row->flags |= TUI_ROW_BF_DEP;
	if (d->flags & DECISION_F_LOST)
		row->flags |= TUI_ROW_LOST;
	if (d->flags & DECISION_F_STATE_GUESS)
		row->flags |= TUI_ROW_STATE_GUESS;
	if (d->flags & DECISION_F_UNSEEN)
		row->flags |= TUI_ROW_UNSEEN;
	ret = tui_store_intern_evidence(s, decision_why_name(d->why));
	if (ret < 0)
		return ret;
	row->evidence = (uint8_t)ret;
	for (side = 0; side < TUI__SIDES; side++) {
		ret = verdict_id(s, r->pol[side], &r->v[side], &row->verdict[side]);
		if (ret < 0)
			return ret;
		if (r->pol[side])
			set_choice(row, side, &r->choice[side]);
	}
	ret = copy_snap(s, row, sp);
	if (ret < 0)
		return ret;
	tui_store_commit(s);
	return 0;
}

static int sink_decision(void *priv, const struct engine_result *r, const struct cost_item *cost,
			 struct err *err)
{
	struct tui_store_sink *k = priv;
	struct tui_store *s = k->store;
	int ret = 0;

	/* as the JSON, only listed ones come (.wants) */
	if (k->nr_seqs == k->alloc_seqs) {
		size_t n = k->alloc_seqs ? k->alloc_seqs * 2 : 1024;
		uint64_t *a = realloc(k->seqs, n * sizeof(*a));

		if (!a)
			return err_set(err, -ENOMEM, "out of memory");
		k->seqs = a;
		k->alloc_seqs = n;
	}
	tui_store_loader_lock(s);
	if (tui_store_add_result(s, r) < 0) {
		pthread_mutex_unlock(&s->mu);
		return err_set(err, -ENOMEM, "out of memory");
	}
	k->seqs[k->nr_seqs++] = r->d->seq;
	/* the figures the JSON report writes for this decision (report-cost.c) */
	if (cost->v[COST_OLD].known && cost->v[COST_NEW].known)
		ret = tui_store_set_cost(s, tui_store_count(s) - 1, cost->v[COST_OLD].weighted,
					 cost->v[COST_NEW].weighted);
	pthread_mutex_unlock(&s->mu);
	return ret < 0 ? err_set(err, ret, "%s", sr_strerror(ret)) : 0;
}

struct seq_idx {
	uint64_t	seq;
	size_t		i;
};

static int cmp_seq(const void *a, const void *b)
{
	const struct seq_idx *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The rows in trace (seq) order, as a replay's rows always are. */
static int sort_rows(struct tui_store_sink *k)
{
	struct tui_store *s = k->store;
	size_t n = k->nr_seqs, i;
	struct seq_idx *ix;
	struct tui_row *rows;

	if (n != s->nr_rows || n < 2)
		return 0;
	ix = malloc(n * sizeof(*ix));
	rows = malloc(n * sizeof(*rows));
	if (!ix || !rows) {
		free(ix);
		free(rows);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		ix[i].seq = k->seqs[i];
		ix[i].i = i;
	}
	qsort(ix, n, sizeof(*ix), cmp_seq);
	for (i = 0; i < n; i++)
		rows[i] = s->rows[ix[i].i];
	free(s->rows);
	s->rows = rows;
	s->alloc_rows = n;
	free(ix);
	return tui_store_rekey(s);
}

static int sink_end(void *priv, const struct session *ss, struct err *err)
{
	struct tui_store_sink *k = priv;
	json_t *doc;
	int ret;

	doc = report_replay_doc(ss, 0);
	tui_store_loader_lock(k->store);
	ret = sort_rows(k);
	if (!ret)
		ret = doc ? tui_store_set_header(k->store, doc) : -ENOMEM;
	k->store->prog.order_gen++;
	pthread_mutex_unlock(&k->store->mu);
	json_decref(doc);
	return ret < 0 ? err_set(err, -ENOMEM, "out of memory") : 0;
}

const struct session_sink_ops tui_store_sink_ops = {
	.name		= "tui",
	.decision	= sink_decision,
	.wants		= engine_place_listed,
	.end		= sink_end,
};

void tui_store_sink_release(struct tui_store_sink *k)
{
	free(k->seqs);
	k->seqs = NULL;
	k->nr_seqs = k->alloc_seqs = 0;
}
