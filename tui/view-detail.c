// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * view-detail.c - one decision in full: the snapshot the policies saw
 * (per-node faults as bars, preferred node, group and active nodes,
 * distances from the source and destination node, runqueue counts, time
 * since the task last ran against sched_migration_cost), each side's
 * verdict with its reason chain in words, and the cost under each.
 *
 * From a JSON report only what the report holds is shown; the snapshot
 * needs a live replay of the trace.  Lines are generated on each draw and
 * only those in the scrolled window are written.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "replay/replay.h"
#include "tui-local.h"

struct dw {
	struct tui_app	*a;
	struct tui_canvas *c;
	int		y0;
	int		h;
	int		line;
};

/* The canvas row of the next line, or -1 when it is scrolled out. */
static int dw_next(struct dw *d)
{
	int rel = d->line++ - d->a->detail_scroll;

	if (rel < 0 || rel >= d->h)
		return -1;
	return d->y0 + rel;
}

static void dw_text(struct dw *d, int x, int style, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void dw_text(struct dw *d, int x, int style, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int y = dw_next(d);

	if (y < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tui_canvas_put(d->c, y, x, -1, style, buf);
}

static void bar(struct tui_canvas *c, int y, int x, int w, uint64_t v, uint64_t max, int style)
{
	static const char *const eighths[8] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
	uint64_t units = max ? (v * (uint64_t)w * 8 + max / 2) / max : 0;
	int full = (int)(units / 8), i;

	for (i = 0; i < full && i < w; i++)
		tui_canvas_put(c, y, x + i, 1, style, tui_canvas_glyph(c, "█", "#"));
	if (i < w && units % 8 && !c->ascii)
		tui_canvas_put(c, y, x + i, 1, style, eighths[units % 8]);
}

static void fault_bars(struct dw *d, const char *label, const uint64_t *f, int n, int pref,
		       int src, int dst)
{
	uint64_t max = 0;
	int i, bw = d->c->w - 44;

	if (bw > 40)
		bw = 40;
	if (bw < 5)
		bw = 5;
	for (i = 0; i < n; i++)
		if (f[i] > max)
			max = f[i];
	for (i = 0; i < n; i++) {
		int y = dw_next(d);

		if (y < 0)
			continue;
		if (!i)
			tui_canvas_put(d->c, y, 3, -1, TUI_ST_TITLE, label);
		tui_canvas_printf(d->c, y, 20, -1, TUI_ST_NORMAL, "node %-2d", i);
		bar(d->c, y, 28, bw, f[i], max, i == pref ? TUI_ST_BAR2 : TUI_ST_BAR);
		tui_canvas_printf(d->c, y, 29 + bw, -1, TUI_ST_NORMAL, "%10" PRIu64 "%s%s%s", f[i],
				  i == src ? " src" : "", i == dst ? " dst" : "",
				  i == pref ? " pref" : "");
	}
}

static void distances(struct dw *d, const char *label, int node)
{
	const struct tui_header *h = tui_store_header(d->a->store);
	char buf[400];
	size_t used = 0;
	int j, y;

	if (node < 0 || node >= h->nr_nodes)
		return;
	for (j = 0; j < h->nr_nodes && used + 16 < sizeof(buf); j++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, " n%d:%d", j,
					 h->distance[node][j]);
	y = dw_next(d);
	if (y < 0)
		return;
	tui_canvas_printf(d->c, y, 3, -1, TUI_ST_TITLE, "%s", label);
	tui_canvas_printf(d->c, y, 20, -1, TUI_ST_NORMAL, "node %d:%s", node, buf);
}

static void fmt_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 1000000000u)
		snprintf(buf, len, "%.3f s", (double)ns / 1e9);
	else if (ns >= 1000000u)
		snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.3f us", (double)ns / 1e3);
}

#define KNOWN(sn, bit) ((sn)->known & (1ull << SR_SNAP_BIT_##bit))

static void snapshot(struct dw *d, const struct tui_row *r, const struct tui_snap *sn)
{
	const struct tui_store *s = d->a->store;
	const struct tui_header *h = tui_store_header(s);
	char a[64], b[64], nodes[256];
	size_t used = 0;
	int i, y;

	dw_text(d, 1, TUI_ST_HEADER, " Snapshot: what the policies saw ");
	if (!sn) {
		dw_text(d, 3, TUI_ST_DIM, "a JSON report does not hold the snapshot: open the trace itself");
		dw_text(d, 3, TUI_ST_DIM, "(schedreplay tui TRACE) for faults, runqueues and timing");
		distances(d, "distance src", r->src_node);
		distances(d, "distance dst", r->dst_node);
		return;
	}
	snprintf(a, sizeof(a), KNOWN(sn, PREF_NODE) ? (sn->pref_node >= 0 ? "%d" : "none") :
		 "unknown", sn->pref_node);
	snprintf(b, sizeof(b), KNOWN(sn, NUMA_GROUP) ? (sn->numa_group ? "%d" : "none") : "unknown",
		 sn->numa_group);
	if (KNOWN(sn, GROUP_ACTIVE)) {
		for (i = 0; i < sn->nr_nodes; i++)
			if (sn->group_active & (1ull << i))
				used += (size_t)snprintf(nodes + used, sizeof(nodes) - used, "%s%d",
							 used ? "," : "", i);
		if (!used)
			snprintf(nodes, sizeof(nodes), "none");
	} else {
		snprintf(nodes, sizeof(nodes), "unknown");
	}
	y = dw_next(d);
	if (y >= 0) {
		tui_canvas_put(d->c, y, 3, -1, TUI_ST_TITLE, "preferred node");
		tui_canvas_printf(d->c, y, 20, -1, TUI_ST_NORMAL, "%-8s", a);
		tui_canvas_put(d->c, y, 30, -1, TUI_ST_TITLE, "numa group");
		tui_canvas_printf(d->c, y, 42, -1, TUI_ST_NORMAL, "%-8s", b);
		tui_canvas_put(d->c, y, 52, -1, TUI_ST_TITLE, "active nodes");
		tui_canvas_put(d->c, y, 66, -1, TUI_ST_NORMAL, nodes);
	}
	if (KNOWN(sn, TASK_FAULTS) && sn->has_faults)
		fault_bars(d, "task faults", tui_store_task_faults(s, sn), sn->nr_nodes,
			   KNOWN(sn, PREF_NODE) ? sn->pref_node : -1, r->src_node, r->dst_node);
	else
		dw_text(d, 3, TUI_ST_DIM, "task faults      %s", KNOWN(sn, HAS_FAULTS) &&
			!sn->has_faults ? "none: the task took no NUMA hinting fault" : "unknown");
	if (KNOWN(sn, GROUP_FAULTS) && sn->numa_group)
		fault_bars(d, "group faults", tui_store_group_faults(s, sn), sn->nr_nodes,
			   KNOWN(sn, PREF_NODE) ? sn->pref_node : -1, r->src_node, r->dst_node);
	distances(d, "distance src", r->src_node);
	distances(d, "distance dst", r->dst_node);
	y = dw_next(d);
	if (y >= 0) {
		tui_canvas_put(d->c, y, 3, -1, TUI_ST_TITLE, "runqueues");
		if (KNOWN(sn, SRC_NR_RUNNING))
			snprintf(a, sizeof(a), "%d running", sn->src_nr_running);
		else
			snprintf(a, sizeof(a), "unknown");
		b[0] = '\0';
		if (KNOWN(sn, SRC_NR_PREFERRED))
			snprintf(b, sizeof(b), ", %d on preferred node", sn->src_nr_preferred);
		tui_canvas_printf(d->c, y, 20, -1, TUI_ST_NORMAL, "src cpu %d: %s%s", r->src_cpu, a, b);
	}
	y = dw_next(d);
	if (y >= 0) {
		snprintf(a, sizeof(a), KNOWN(sn, DST_NR_RUNNING) ? "%d running" : "unknown",
			 sn->dst_nr_running);
		snprintf(b, sizeof(b), "%s", KNOWN(sn, DST_IDLE) ? (sn->dst_idle ? " (idle)" :
								     " (busy)") : "");
		tui_canvas_printf(d->c, y, 20, -1, TUI_ST_NORMAL, "dst cpu %d: %s%s", r->dst_cpu, a, b);
	}
	if (KNOWN(sn, NODE_NR_RUNNING) && sn->nr_nodes) {
		const int32_t *nr = tui_store_node_nr(s, sn);

		used = 0;
		for (i = 0; i < sn->nr_nodes && used + 16 < sizeof(nodes); i++)
			used += (size_t)snprintf(nodes + used, sizeof(nodes) - used, " n%d:%d", i, nr[i]);
		dw_text(d, 3, TUI_ST_NORMAL, "%-17s%s", "running per node", nodes);
	}
	y = dw_next(d);
	if (y >= 0) {
		tui_canvas_put(d->c, y, 3, -1, TUI_ST_TITLE, "last ran");
		if (KNOWN(sn, TASK_RUNNING) && sn->task_running) {
			snprintf(nodes, sizeof(nodes), "running on the source CPU");
		} else if (KNOWN(sn, SINCE_RAN)) {
			fmt_ns(a, sizeof(a), sn->since_ran_ns);
			if (h->mig_cost_ns >= 0) {
				fmt_ns(b, sizeof(b), (uint64_t)h->mig_cost_ns);
				snprintf(nodes, sizeof(nodes), "%s ago %s sched_migration_cost %s (%s): %s",
					 a, sn->since_ran_ns < (uint64_t)h->mig_cost_ns ? "<" : ">=",
					 b, h->mig_cost_policy, sn->since_ran_ns <
					 (uint64_t)h->mig_cost_ns ? "cache hot" : "cold");
			} else {
				snprintf(nodes, sizeof(nodes), "%s ago", a);
			}
		} else {
			snprintf(nodes, sizeof(nodes), "unknown");
		}
		tui_canvas_put(d->c, y, 20, -1, TUI_ST_NORMAL, nodes);
	}
	if (KNOWN(sn, NUMA_INFLIGHT) && r->cls <= SR_DECISION_CLASS_NUMA_STICK)
		dw_text(d, 3, TUI_ST_NORMAL, "%-17sother NUMA moves in flight to the target: %d",
			"numa in flight", sn->numa_inflight);
}

static void verdicts(struct dw *d, const struct tui_row *r)
{
	static const char *const label[TUI__SIDES] = { "old", "new", "kernel" };
	const struct tui_store *s = d->a->store;
	int side, i, y;

	dw_text(d, 1, TUI_ST_HEADER, " Verdicts and their reasons ");
	for (side = 0; side < TUI__SIDES; side++) {
		const struct tui_verdict *v = tui_store_verdict(s, r->verdict[side]);

		y = dw_next(d);
		if (y >= 0) {
			tui_canvas_put(d->c, y, 3, -1, TUI_ST_TITLE, label[side]);
			if (!v) {
				tui_canvas_put(d->c, y, 11, -1, TUI_ST_DIM, "no policy decides this class");
				continue;
			}
			tui_canvas_put(d->c, y, 11, 22, TUI_ST_NORMAL, tui_store_policy_name(s, v->policy));
			tui_canvas_put(d->c, y, 34, -1, tui_verdict_style(v), tui_verdict_short(v));
			tui_canvas_printf(d->c, y, 43, -1, TUI_ST_DIM, "%s%s%s%s",
					  v->flags & SR_VF_FORCED ? "[forced] " : "",
					  v->flags & SR_VF_FAILED_DEPENDENT ? "[flips with nr_balance_failed] " : "",
					  v->flags & SR_VF_ASSUMED_NOT_BUDDY ? "[assumed not a buddy] " : "",
					  v->flags & SR_VF_ASSUMED_NOT_SMT ? "[assumed not SMT] " : "");
		}
		if (!v)
			continue;
		switch (r->choice[side]) {
		case TUI_CHOICE_NOTHING:
			dw_text(d, 11, TUI_ST_NORMAL, "chooses: %s",
				r->cls == SR_DECISION_CLASS_LB_PULL ||
				r->cls == SR_DECISION_CLASS_LB_ACTIVE ? "pulls nothing in this pass" :
									"no move");
			break;
		case TUI_CHOICE_TASK:
			dw_text(d, 11, TUI_ST_NORMAL, "chooses: pulls tid %d%s", (int)r->choice_tid[side],
				r->choice_tid[side] == r->tid ? " (the one the kernel pulled)" : " (not the one the kernel pulled)");
			break;
		case TUI_CHOICE_PLACE:
			dw_text(d, 11, TUI_ST_NORMAL, "chooses: cpu %d, node %d%s",
				(int)r->choice_cpu[side], (int)r->choice_node[side],
				r->choice_cpu[side] == r->dst_cpu ? " (the kernel's)" : " (not the kernel's)");
			break;
		case TUI_CHOICE_UNKNOWN:
			dw_text(d, 11, TUI_ST_DIM, "chooses: unknown");
			break;
		default:
			if (v->target_node >= 0)
				dw_text(d, 11, TUI_ST_NORMAL, "would place it on node %d", v->target_node);
		}
		for (i = 0; i < v->nr_reasons; i++) {
			y = dw_next(d);
			if (y < 0)
				continue;
			tui_canvas_printf(d->c, y, 11, -1, TUI_ST_NORMAL, "%d. %s: %s",
					  i + 1, tui_store_reason_name(s, v->reasons[i]),
					  tui_store_reason_text(s, v->reasons[i]));
		}
	}
}

/* a node of a part's side, or "?" */
static const char *part_node(char *buf, size_t len, const json_t *v)
{
	const json_t *n = json_object_get(v, "node");

	if (!json_is_integer(n))
		return "?";
	snprintf(buf, len, "%" PRId64, (int64_t)json_integer_value(n));
	return buf;
}

/* cost.parts: each task a side's choice priced, where each side leaves it */
static void saved_parts(struct dw *d, const json_t *parts)
{
	static const char *const sides[] = { "old", "new", "trace" };
	char nb[3][16];
	const json_t *p, *v[3];
	size_t i, k;

	if (json_array_size(parts) < 2)
		return;
	dw_text(d, 3, TUI_ST_TITLE, "priced for each side's own choice (task: node, weighted):");
	json_array_foreach((json_t *)parts, i, p) {
		for (k = 0; k < 3; k++)
			v[k] = json_object_get(p, sides[k]);
		dw_text(d, 5, TUI_ST_NORMAL, "%-7" PRId64 " old %s %.3f  new %s %.3f  trace %s %.3f  "
			"until %.20s",
			(int64_t)json_integer_value(json_object_get(p, "tid")),
			part_node(nb[0], sizeof(nb[0]), v[0]), json_number_value(json_object_get(v[0], "weighted")),
			part_node(nb[1], sizeof(nb[1]), v[1]), json_number_value(json_object_get(v[1], "weighted")),
			part_node(nb[2], sizeof(nb[2]), v[2]), json_number_value(json_object_get(v[2], "weighted")),
			json_string_value(json_object_get(p, "interval_end")) ?
			json_string_value(json_object_get(p, "interval_end")) : "?");
	}
}

/* From a report: the decision's cost object, decoded from the file now that it is shown. */
static void saved_cost(struct dw *d, const struct tui_row *r)
{
	json_t *o = tui_store_read_decision(d->a->store, r), *cost, *v;
	static const char *const sides[] = { "old", "new", "trace" };
	const char *end, *unk;
	size_t i;

	if (!o)
		return;
	cost = json_object_get(o, "cost");
	for (i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		v = json_object_get(cost, sides[i]);
		if (json_is_object(v))
			dw_text(d, 3, TUI_ST_NORMAL, "%-6s accesses %.1f  remote %.1f  weighted %.3f",
				sides[i], json_number_value(json_object_get(v, "accesses")),
				json_number_value(json_object_get(v, "remote_accesses")),
				json_number_value(json_object_get(v, "weighted")));
	}
	end = json_string_value(json_object_get(cost, "interval_end"));
	unk = json_string_value(json_object_get(cost, "unknown"));
	if (json_is_integer(json_object_get(cost, "interval_ns")))
		dw_text(d, 3, TUI_ST_DIM, "interval %" PRId64 " ns, ended by %.40s%s%.40s",
			(int64_t)json_integer_value(json_object_get(cost, "interval_ns")),
			end ? end : "?", unk ? "; unknown: " : "", unk ? unk : "");
	saved_parts(d, json_object_get(cost, "parts"));
	json_decref(o);
}

static void detail_draw(struct tui_app *a, int y0, int h, bool full)
{
	struct tui_list *l = &a->list;
	const struct tui_row *r = tui_list_row(l, l->cursor);
	struct dw d = { .a = a, .c = &a->canvas, .y0 = y0, .h = h };
	char t[32];
	int y, x, i;

	for (i = 0; i < h; i++)
		tui_canvas_fill(&a->canvas, y0 + i, 0, a->canvas.w, ' ', TUI_ST_NORMAL);
	if (!r) {
		tui_canvas_put(&a->canvas, y0, 1, -1, TUI_ST_DIM, "no decision selected");
		return;
	}
	tui_format_time(t, sizeof(t), r->ts_ns);
	dw_text(&d, 1, TUI_ST_TITLE, "Decision %zu of %zu shown  (row %zu of the replay)",
		l->cursor + 1, l->nr, (size_t)l->idx[l->cursor] + 1);
	dw_text(&d, 3, r->flags & TUI_ROW_DISAGREE ? TUI_ST_DISAGREE : TUI_ST_NORMAL,
		"%s", r->flags & TUI_ROW_DISAGREE ? "old and new DISAGREE" :
		r->flags & TUI_ROW_UNKNOWN ? "a side answered unknown" : "old and new agree");
	dw_text(&d, 3, TUI_ST_NORMAL, "time %s s   class %s   evidence %s", t,
		replay_class_name(r->cls), tui_store_evidence_name(a->store, r->evidence)[0] ?
		tui_store_evidence_name(a->store, r->evidence) : "-");
	y = dw_next(&d);
	if (y >= 0) {
		char tg[16] = "?", pt[40] = "";

		x = tui_canvas_put(&a->canvas, y, 3, -1, TUI_ST_NORMAL, "task ");
		if (r->flags & TUI_ROW_COMM)
			x += tui_canvas_put_untrusted(&a->canvas, y, 3 + x, 40, TUI_ST_TITLE, r->comm,
						      sizeof(r->comm));
		else
			x += tui_canvas_put(&a->canvas, y, 3 + x, -1, TUI_ST_TITLE, "?");

		if (r->flags & TUI_ROW_TGID)
			snprintf(tg, sizeof(tg), "%d", r->tgid);
		if (r->partner_tid)
			snprintf(pt, sizeof(pt), "  swap partner tid %d", r->partner_tid);
		tui_canvas_printf(&a->canvas, y, 3 + x, -1, TUI_ST_NORMAL, "  tid %d  tgid %s%s",
				  r->tid, tg, pt);
	}
	dw_text(&d, 3, TUI_ST_NORMAL, "cpu %d %s %d   node %d %s %d%s%s%s", r->src_cpu,
		tui_canvas_glyph(&a->canvas, "→", "->"), r->dst_cpu, r->src_node,
		tui_canvas_glyph(&a->canvas, "→", "->"), r->dst_node,
		r->flags & TUI_ROW_LOST ? "   [lost events nearby]" : "",
		r->flags & TUI_ROW_STATE_GUESS ? "   [task state unknown]" : "",
		r->flags & TUI_ROW_BF_DEP ? "   [flips with nr_balance_failed]" : "");
	d.line++;
	snapshot(&d, r, tui_store_snap(a->store, r));
	d.line++;
	verdicts(&d, r);
	d.line++;
	dw_text(&d, 1, TUI_ST_HEADER, " Cost (remote-access estimate) ");
	if (r->flags & TUI_ROW_COST) {
		char o[32], n[32], dl[32];

		tui_format_milli(o, sizeof(o), r->cost_old, false);
		tui_format_milli(n, sizeof(n), r->cost_new, false);
		tui_format_milli(dl, sizeof(dl), r->cost_delta, true);
		dw_text(&d, 3, TUI_ST_NORMAL, "old %s   new %s   delta %s   (weighted)", o, n, dl);
	} else {
		dw_text(&d, 3, TUI_ST_DIM, "old -   new -   delta -   (no cost for this decision)");
	}
	saved_cost(&d, r);
	a->detail_lines = d.line;
	(void)full;
}

static unsigned int detail_key(struct tui_app *a, int key)
{
	int max = a->detail_lines - a->body_h;
	struct tui_list *l = &a->list;

	if (max < 0)
		max = 0;
	switch (key) {
	case TUI_KEY_DOWN:
	case 'j':
		a->detail_scroll++;
		break;
	case TUI_KEY_UP:
	case 'k':
		a->detail_scroll--;
		break;
	case TUI_KEY_PGDN:
	case ' ':
		a->detail_scroll += a->body_h;
		break;
	case TUI_KEY_PGUP:
	case 'b':
		a->detail_scroll -= a->body_h;
		break;
	case TUI_KEY_HOME:
	case 'g':
		a->detail_scroll = 0;
		break;
	case TUI_KEY_END:
	case 'G':
		a->detail_scroll = max;
		break;
	case ']':
	case TUI_KEY_RIGHT:
		tui_list_move(l, 1, tui_app_body_rows(a));
		a->detail_scroll = 0;
		break;
	case '[':
	case TUI_KEY_LEFT:
		tui_list_move(l, -1, tui_app_body_rows(a));
		a->detail_scroll = 0;
		break;
	case TUI_KEY_ENTER:
	case 'h':
		tui_app_set_view(a, a->back);
		break;
	default:
		return 0;
	}
	if (a->detail_scroll > max)
		a->detail_scroll = max;
	if (a->detail_scroll < 0)
		a->detail_scroll = 0;
	return TUI_REDRAW_VIEW;
}

const struct tui_view_ops tui_view_detail = {
	.name = "detail",
	.draw = detail_draw,
	.key = detail_key,
};
