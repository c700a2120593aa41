// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store-replay.c - rows from a live replay: each engine result becomes a
 * row, its verdicts interned, and the snapshot fields the detail view
 * shows copied into the snapshot side array.
 */
#include <errno.h>
#include <string.h>

#include "replay/replay.h"
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
		memcpy(row->comm, sp->comm, sizeof(row->comm));
		row->comm[sizeof(row->comm) - 1] = '\0';
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
	ret = tui_store_intern_evidence(s, decision_why_name(d->why));
	if (ret < 0)
		return ret;
	row->evidence = (uint8_t)ret;
	for (side = 0; side < TUI__SIDES; side++) {
		ret = verdict_id(s, r->pol[side], &r->v[side], &row->verdict[side]);
		if (ret < 0)
			return ret;
	}
	ret = copy_snap(s, row, sp);
	if (ret < 0)
		return ret;
	tui_store_commit(s);
	return 0;
}
