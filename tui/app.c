// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * app.c - the browser: header and status line, the search prompt, the
 * global keys (help, search, filters, sort, view switching, quit) and the
 * dispatch of other keys and of drawing to the current view's ops.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "replay/replay.h"
#include "tui-local.h"

static const struct tui_view_ops *const views[TUI__VIEWS] = {
	[TUI_VIEW_LIST] = &tui_view_list,
	[TUI_VIEW_DETAIL] = &tui_view_detail,
	[TUI_VIEW_MATRIX] = &tui_view_matrix,
	[TUI_VIEW_TIMELINE] = &tui_view_timeline,
	[TUI_VIEW_HELP] = &tui_view_help,
};

void tui_format_time(char *buf, size_t len, uint64_t ts_ns)
{
	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, ts_ns / 1000000000u,
		 (ts_ns % 1000000000u) / 1000u);
}

void tui_format_milli(char *buf, size_t len, int64_t v, bool sign)
{
	snprintf(buf, len, sign ? "%+.1f" : "%.1f", (double)v / 1000.0);
}

void tui_format_cost(char *buf, size_t len, const struct tui_row *r)
{
	if (!(r->flags & TUI_ROW_COST))
		snprintf(buf, len, "-");
	else
		tui_format_milli(buf, len, r->cost_delta, true);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int tui_verdict_style(const struct tui_verdict *v)
{
	if (!v)
		return TUI_ST_DIM;
	switch (v->verdict) {
	case SR_VERDICT_ALLOW:
		return TUI_ST_ALLOW;
	case SR_VERDICT_RESIST:
		return TUI_ST_RESIST;
	case SR_VERDICT_UNKNOWN:
		return TUI_ST_UNKNOWN;
	default:
		return TUI_ST_DIM;
	}
}

struct tui_app *tui_app_new(const struct tui_store *store, const struct tui_app_opts *o)
{
	struct tui_app *a = calloc(1, sizeof(*a));
	int v;

	if (!a)
		return NULL;
	a->store = store;
	if (o)
		a->opts = *o;
	a->canvas.ascii = a->opts.ascii;
	tui_list_init(&a->list, store);
	/* reviewer first: the disagreements, with the summary above them */
	a->list.disagree_only = true;
	if (tui_list_rebuild(&a->list) < 0)
		goto fail;
	a->seen_rows = tui_store_count(store);
	tui_store_progress(store, &a->prog);
	a->seen_order = a->prog.order_gen;
	a->prog.loading = true;	/* the first poll sees a load that is already over end */
	a->last_rebuild = now_s();
	tui_app_poll(a);
	for (v = 0; v < TUI__VIEWS; v++)
		if (views[v]->init && views[v]->init(a) < 0)
			goto fail;
	if (tui_app_resize(a, 80, 24) < 0)
		goto fail;
	return a;
fail:
	tui_app_free(a);
	return NULL;
}

void tui_app_free(struct tui_app *a)
{
	int v;

	if (!a)
		return;
	for (v = 0; v < TUI__VIEWS; v++)
		if (views[v]->free)
			views[v]->free(a);
	tui_list_release(&a->list);
	tui_canvas_release(&a->canvas);
	free(a);
}

int tui_app_body_rows(const struct tui_app *a)
{
	return a->body_h > 1 ? a->body_h - 1 : 1;
}

int tui_app_resize(struct tui_app *a, int w, int h)
{
	int v, ret = tui_canvas_resize(&a->canvas, w, h);

	if (ret < 0)
		return ret;
	a->body_y = TUI_HEADER_ROWS;
	a->body_h = a->canvas.h - TUI_HEADER_ROWS - 2;
	if (a->body_h < 1)
		a->body_h = 1;
	for (v = 0; v < TUI__VIEWS; v++)
		if (views[v]->resize)
			views[v]->resize(a);
	a->drawn_valid = false;
	tui_list_move(&a->list, 0, tui_app_body_rows(a));
	return 0;
}

struct tui_canvas *tui_app_canvas(struct tui_app *a)
{
	return &a->canvas;
}

struct tui_list *tui_app_list(struct tui_app *a)
{
	return &a->list;
}

const char *tui_app_view_name(const struct tui_app *a)
{
	return a->help ? "help" : views[a->view]->name;
}

void tui_app_lock(struct tui_app *a)
{
	tui_store_lock(a->store);
}

void tui_app_unlock(struct tui_app *a)
{
	tui_store_unlock(a->store);
}

bool tui_app_poll(struct tui_app *a)
{
	struct tui_list *l = &a->list;
	struct tui_progress p;
	size_t n = tui_store_count(a->store);
	bool changed, was_loading = a->prog.loading;
	double t = now_s();

	tui_store_progress(a->store, &p);
	changed = p.bytes != a->prog.bytes || p.loading != a->prog.loading ||
		  p.following != a->prog.following || p.truncated != a->prog.truncated ||
		  p.failed != a->prog.failed;
	a->prog = p;
	if (p.order_gen != a->seen_order || (n != a->seen_rows && (l->sort == TUI_SORT_TIME ||
	    !p.loading || t - a->last_rebuild >= 1.0))) {
		/* rows moved, or more came: a sorted list is rebuilt once a second at most */
		int ret = p.order_gen != a->seen_order ? tui_list_rebuild(l) :
			  tui_list_extend(l, a->seen_rows);

		if (ret < 0) {
			snprintf(a->msg, sizeof(a->msg), "out of memory: the list was not rebuilt");
		} else {
			a->seen_rows = n;
			a->seen_order = p.order_gen;
			a->last_rebuild = t;
		}
		a->drawn_valid = false;
		changed = true;
	}
	if (was_loading && !p.loading && !p.failed && l->disagree_only && !l->nr &&
	    !a->auto_all && a->view == TUI_VIEW_LIST) {
		/* nothing disagrees: say so and show every decision */
		a->auto_all = true;
		l->disagree_only = false;
		if (tui_list_rebuild(l) == 0)
			snprintf(a->msg, sizeof(a->msg), "no disagreements: showing every decision");
		a->drawn_valid = false;
		changed = true;
	}
	return changed;
}

void tui_app_set_view(struct tui_app *a, int view)
{
	if (view == TUI_VIEW_DETAIL && a->view != TUI_VIEW_DETAIL) {
		a->back = a->view;
		a->detail_scroll = 0;
	}
	a->view = view;
	a->drawn_valid = false;
}

/* ---- keys ------------------------------------------------------------------ */

static void search_go(struct tui_app *a, int dir, bool include_cursor)
{
	struct tui_list *l = &a->list;
	long pos;

	if (!l->search[0]) {
		snprintf(a->msg, sizeof(a->msg), "no search yet: type / and a task name or tid");
		return;
	}
	if (include_cursor && l->nr && tui_list_match(l, tui_list_row(l, l->cursor)))
		pos = (long)l->cursor;
	else
		pos = tui_list_find(l, l->cursor, dir);
	if (pos < 0) {
		snprintf(a->msg, sizeof(a->msg), "no match for '%s'", l->search);
		return;
	}
	tui_list_move(l, pos - (long)l->cursor, tui_app_body_rows(a));
	snprintf(a->msg, sizeof(a->msg), "match for '%s' at %zu of %zu", l->search, l->cursor + 1,
		 l->nr);
	a->detail_scroll = 0;
}

static unsigned int prompt_key(struct tui_app *a, int key)
{
	if (key == TUI_KEY_ESC) {
		a->prompt = false;
		a->msg[0] = '\0';
	} else if (key == TUI_KEY_ENTER) {
		a->prompt = false;
		a->prompt_buf[a->prompt_len] = '\0';
		snprintf(a->list.search, sizeof(a->list.search), "%s", a->prompt_buf);
		if (a->view != TUI_VIEW_LIST && a->view != TUI_VIEW_DETAIL)
			tui_app_set_view(a, TUI_VIEW_LIST);
		a->msg[0] = '\0';
		if (a->list.search[0])
			search_go(a, 1, true);
	} else if (key == TUI_KEY_BACKSPACE || key == 0x7f || key == 8) {
		if (a->prompt_len)
			a->prompt_len--;
	} else if (key >= 0x20 && key < 0x7f && a->prompt_len + 1 < sizeof(a->prompt_buf)) {
		a->prompt_buf[a->prompt_len++] = (char)key;
	}
	a->prompt_buf[a->prompt_len] = '\0';
	return TUI_REDRAW_VIEW;
}

static unsigned int recompute(struct tui_app *a)
{
	if (tui_list_rebuild(&a->list) < 0) {
		snprintf(a->msg, sizeof(a->msg), "out of memory: the list was not rebuilt");
		return TUI_REDRAW_VIEW;
	}
	tui_list_move(&a->list, 0, tui_app_body_rows(a));
	a->drawn_valid = false;
	return TUI_RECOMPUTE | TUI_REDRAW_VIEW;
}

static unsigned int global_key(struct tui_app *a, int key)
{
	struct tui_list *l = &a->list;

	switch (key) {
	case '?':
		a->help = true;
		a->help_scroll = 0;
		return TUI_REDRAW_VIEW;
	case '/':
		a->prompt = true;
		a->prompt_len = 0;
		a->prompt_buf[0] = '\0';
		return TUI_REDRAW_VIEW;
	case 'n':
	case 'N':
		search_go(a, key == 'n' ? 1 : -1, false);
		a->drawn_valid = false;
		return TUI_REDRAW_VIEW;
	case 'd':
		l->disagree_only = !l->disagree_only;
		snprintf(a->msg, sizeof(a->msg), "%s", l->disagree_only ?
			 "showing disagreements only (d: all)" : "showing every decision");
		return recompute(a);
	case ']':
	case '[': {
		long pos = tui_list_next_flag(l, l->cursor, key == ']' ? 1 : -1, TUI_ROW_DISAGREE);

		if (pos < 0) {
			snprintf(a->msg, sizeof(a->msg), "no disagreement %s this one",
				 key == ']' ? "after" : "before");
			return TUI_REDRAW_VIEW;
		}
		tui_list_move(l, pos - (long)l->cursor, tui_app_body_rows(a));
		a->detail_scroll = 0;
		a->drawn_valid = false;
		return TUI_REDRAW_VIEW;
	}
	case 'u':
	case 'w':
	case 'o': {
		unsigned int bit = key == 'u' ? TUI_ROW_UNKNOWN : key == 'w' ? TUI_ROW_LOST :
				   TUI_ROW_UNSEEN;
		const char *what = key == 'u' ? "unknown verdicts" : key == 'w' ?
				   "decisions in lost-event windows" :
				   "decisions on CPUs not seen (cpu-unseen)";

		l->need ^= bit;
		snprintf(a->msg, sizeof(a->msg), "%s %s (%c again: off)", l->need & bit ?
			 "only" : "no filter on", what, key);
		return recompute(a);
	}
	case 't': {
		const struct tui_row *r = tui_list_row(l, l->cursor);

		if (l->task_on) {
			l->task_on = false;
			snprintf(a->msg, sizeof(a->msg), "every task");
		} else if (r) {
			l->task_on = true;
			l->task = r->tid;
			snprintf(a->msg, sizeof(a->msg), "only task %d (t again: every task)", r->tid);
		} else {
			return TUI_REDRAW_VIEW;
		}
		return recompute(a);
	}
	case 'c':
		l->cls = l->cls + 1 >= SR_DECISION_CLASS__COUNT ? -1 : l->cls + 1;
		snprintf(a->msg, sizeof(a->msg), "class: %s (c: next)",
			 l->cls < 0 ? "all" : replay_class_name(l->cls));
		return recompute(a);
	case 's':
		l->sort = (l->sort + 1) % TUI_SORT__COUNT;
		snprintf(a->msg, sizeof(a->msg), "sorted by %s (s: next)", tui_sort_name(l->sort));
		return recompute(a);
	case TUI_KEY_TAB:
	case TUI_KEY_BTAB: {
		static const int order[] = { TUI_VIEW_LIST, TUI_VIEW_MATRIX, TUI_VIEW_TIMELINE };
		int i, cur = 0;

		for (i = 0; i < 3; i++)
			if (order[i] == (a->view == TUI_VIEW_DETAIL ? TUI_VIEW_LIST : a->view))
				cur = i;
		cur = (cur + (key == TUI_KEY_TAB ? 1 : 2)) % 3;
		tui_app_set_view(a, order[cur]);
		a->msg[0] = '\0';
		return TUI_REDRAW_VIEW;
	}
	case 'q':
		return TUI_QUIT;
	case TUI_KEY_ESC:
		/* Esc closes what is open, then drops the filters; it never quits */
		if (a->view == TUI_VIEW_DETAIL) {
			tui_app_set_view(a, a->back);
			return TUI_REDRAW_VIEW;
		}
		if (a->view != TUI_VIEW_LIST) {
			tui_app_set_view(a, TUI_VIEW_LIST);
			return TUI_REDRAW_VIEW;
		}
		if (tui_list_filtered(l)) {
			l->disagree_only = l->range = l->task_on = false;
			l->need = 0;
			l->cls = l->src_node = l->dst_node = -1;
			a->tl_mark = -1;
			snprintf(a->msg, sizeof(a->msg), "filters cleared: every decision (d: disagreements)");
			return recompute(a);
		}
		snprintf(a->msg, sizeof(a->msg), "nothing to close: q quits");
		return TUI_REDRAW_VIEW;
	case 'x':
		if (l->range || l->src_node >= 0 || l->dst_node >= 0) {
			l->range = false;
			l->src_node = l->dst_node = -1;
			a->tl_mark = -1;
			snprintf(a->msg, sizeof(a->msg), "time range and node pair cleared");
			return recompute(a);
		}
		return 0;
	default:
		return 0;
	}
}

unsigned int tui_app_key(struct tui_app *a, int key)
{
	unsigned int r;

	if (key == TUI_KEY_RESIZE)
		return TUI_REDRAW_VIEW;
	if (a->prompt)
		return prompt_key(a, key);
	if (a->help)
		return tui_view_help.key(a, key);
	a->msg[0] = '\0';
	r = views[a->view]->key ? views[a->view]->key(a, key) : 0;
	if (r & TUI_RECOMPUTE)
		r |= recompute(a);
	if (r)
		return r;
	return global_key(a, key);
}

/* ---- drawing ---------------------------------------------------------------- */

static void draw_header(struct tui_app *a)
{
	const struct tui_header *h = tui_store_header(a->store);
	struct tui_canvas *c = &a->canvas;
	char buf[256], fid[64], cost[128];
	int x;

	tui_canvas_fill(c, 0, 0, c->w, ' ', TUI_ST_HEADER);
	x = tui_canvas_put(c, 0, 0, -1, TUI_ST_HEADER, " schedreplay tui  ");
	x += tui_canvas_put_untrusted(c, 0, x, c->w - x - 1, TUI_ST_HEADER, h->trace,
				      sizeof(h->trace));
	snprintf(buf, sizeof(buf), "  %s, %d cpus, %d nodes, kernel ", h->format[0] ? h->format : "?",
		 h->nr_cpus, h->nr_nodes);
	x += tui_canvas_put(c, 0, x, -1, TUI_ST_HEADER, buf);
	tui_canvas_put_untrusted(c, 0, x, -1, TUI_ST_HEADER, h->kernel[0] ? h->kernel : "unknown",
				 sizeof(h->kernel));

	tui_canvas_fill(c, 1, 0, c->w, ' ', TUI_ST_NORMAL);
	x = tui_canvas_put(c, 1, 1, -1, TUI_ST_TITLE, "old ");
	x += 1 + tui_canvas_put_untrusted(c, 1, x + 1, -1, TUI_ST_NORMAL, h->policies[TUI_OLD],
					  sizeof(h->policies[0]));
	x += tui_canvas_put(c, 1, x, -1, TUI_ST_TITLE, "  new ");
	x += tui_canvas_put_untrusted(c, 1, x, -1, TUI_ST_NORMAL, h->policies[TUI_NEW],
				      sizeof(h->policies[0]));
	x += tui_canvas_put(c, 1, x, -1, TUI_ST_TITLE, "  kernel ");
	tui_canvas_put_untrusted(c, 1, x, -1, TUI_ST_NORMAL,
				 h->policies[TUI_KERNEL][0] ? h->policies[TUI_KERNEL] : "none",
				 sizeof(h->policies[0]));

	if (h->fid_decisions)
		snprintf(fid, sizeof(fid), "%" PRIu64 "/%" PRIu64 " (%.1f%%)", h->fid_reproduced,
			 h->fid_decisions, 100.0 * (double)h->fid_reproduced / (double)h->fid_decisions);
	else
		snprintf(fid, sizeof(fid), "-");
	/* the report's paired figure (both sides priced), as its summary holds it */
	if (h->nr_cost) {
		char d[32];

		tui_format_milli(d, sizeof(d), h->cost_delta, true);
		snprintf(cost, sizeof(cost), "%s %s (%" PRIu64 " paired)",
			 tui_canvas_glyph(c, "Δ", "d"), d, h->nr_cost);
	} else {
		snprintf(cost, sizeof(cost), "-");
	}
	tui_canvas_fill(c, 2, 0, c->w, ' ', TUI_ST_NORMAL);
	tui_canvas_printf(c, 2, 1, -1, TUI_ST_NORMAL,
			  "decisions %" PRIu64 "%s  disagree %" PRIu64 "  unknown %" PRIu64
			  "  cost %s  lost-window %" PRIu64 "  cpu-unseen %" PRIu64
			  "  fidelity %s", h->decisions, h->have_summary ? "" : " so far",
			  h->disagreements, h->unknown, cost, h->lost, h->unseen, fid);
}

static const char *const key_bar[] = {
	"?", "Help", "]", "NextDis", "d", "Disagree", "c", "Class", "/", "Search", "s", "Sort",
	"u", "Unknown", "w", "Lost", "o", "Unseen", "t", "Task", "Tab", "Views", "Esc", "Back",
	"q", "Quit",
};

static void draw_keybar(struct tui_app *a)
{
	struct tui_canvas *c = &a->canvas;
	size_t i, n = sizeof(key_bar) / sizeof(key_bar[0]) - 2;
	int y = c->h - 1, x = 0;

	tui_canvas_fill(c, y, 0, c->w, ' ', TUI_ST_NORMAL);
	/* as many keys as fit, and always q Quit last */
	for (i = 0; i < n; i += 2) {
		int need = tui_text_width(key_bar[i]) + tui_text_width(key_bar[i + 1]) + 1;

		if (x + need > c->w - 6)
			break;
		x += tui_canvas_put(c, y, x, -1, TUI_ST_KEY, key_bar[i]);
		x += tui_canvas_put(c, y, x, -1, TUI_ST_STATUS, key_bar[i + 1]);
		x += tui_canvas_put(c, y, x, -1, TUI_ST_NORMAL, " ");
	}
	x += tui_canvas_put(c, y, x, -1, TUI_ST_KEY, key_bar[n]);
	tui_canvas_put(c, y, x, -1, TUI_ST_STATUS, key_bar[n + 1]);
}

static void loading_note(const struct tui_app *a, char *buf, size_t len)
{
	const struct tui_progress *p = &a->prog;

	buf[0] = '\0';
	if (p->failed)
		snprintf(buf, len, " | stopped: %s", p->msg);
	else if (p->following)
		snprintf(buf, len, " | %s at byte %" PRIu64 ", waiting for more", p->truncated ?
			 "report still being written" : "following the stream", p->bytes);
	else if (p->loading && p->total)
		snprintf(buf, len, " | indexing %.0f%% (%zu decisions)",
			 100.0 * (double)p->bytes / (double)p->total, p->rows);
	else if (p->loading)
		snprintf(buf, len, " | replaying (%zu decisions so far)", p->rows);
	else if (p->truncated)
		snprintf(buf, len, " | the report ends early, at byte %" PRIu64
			 " (still being written?)", p->bytes);
}

static void draw_status(struct tui_app *a)
{
	struct tui_canvas *c = &a->canvas;
	struct tui_list *l = &a->list;
	char buf[800], rng[96] = "", node[32] = "", task[32] = "", load[400];
	int y = c->h - 2, x;

	tui_canvas_fill(c, y, 0, c->w, ' ', TUI_ST_STATUS);
	if (a->prompt) {
		x = tui_canvas_put(c, y, 0, -1, TUI_ST_STATUS, "search (comm or tid): ");
		x += tui_canvas_put_untrusted(c, y, x, -1, TUI_ST_STATUS, a->prompt_buf,
					      a->prompt_len);
		tui_canvas_put(c, y, x, 1, TUI_ST_SELECT, " ");
		return;
	}
	if (l->range) {
		char t0[32], t1[32];

		tui_format_time(t0, sizeof(t0), l->t0);
		tui_format_time(t1, sizeof(t1), l->t1);
		snprintf(rng, sizeof(rng), " time %s..%s", t0, t1);
	}
	if (l->src_node >= 0 || l->dst_node >= 0)
		snprintf(node, sizeof(node), " node %d->%d", l->src_node, l->dst_node);
	if (l->task_on)
		snprintf(task, sizeof(task), " tid=%d", l->task);
	loading_note(a, load, sizeof(load));
	snprintf(buf, sizeof(buf), " %s | %zu/%zu | sort %s | filter%s%s%s%s%s%s%s%s%s%s%s",
		 tui_app_view_name(a), l->nr ? l->cursor + 1 : 0, l->nr, tui_sort_name(l->sort),
		 l->disagree_only ? " disagree" : "", l->cls >= 0 ? " class=" : "",
		 l->cls >= 0 ? replay_class_name(l->cls) : "",
		 l->need & TUI_ROW_UNKNOWN ? " unknown" : "", l->need & TUI_ROW_LOST ? " lost" : "",
		 l->need & TUI_ROW_UNSEEN ? " cpu-unseen" : "", task, rng, node,
		 tui_list_filtered(l) ? "" : " none", load);
	x = tui_canvas_put(c, y, 0, -1, TUI_ST_STATUS, buf);
	if (a->msg[0])
		tui_canvas_printf(c, y, x, -1, TUI_ST_STATUS, " | %s", a->msg);
}

void tui_app_draw(struct tui_app *a, bool full)
{
	struct tui_canvas *c = &a->canvas;

	if (c->w < TUI_MIN_W || c->h < TUI_MIN_H) {
		tui_canvas_resize(c, c->w, c->h);
		tui_canvas_printf(c, 0, 0, -1, TUI_ST_NORMAL, "terminal too small (%dx%d),", c->w,
				  c->h);
		tui_canvas_printf(c, 1, 0, -1, TUI_ST_NORMAL, "need %dx%d; q quits", TUI_MIN_W,
				  TUI_MIN_H);
		a->drawn_valid = false;
		return;
	}
	if (a->help || a->prompt)
		full = true;
	if (full) {
		draw_header(a);
		views[a->view]->draw(a, a->body_y, a->body_h, true);
		if (a->help)
			tui_view_help.draw(a, a->body_y, a->body_h, true);
	} else {
		views[a->view]->draw(a, a->body_y, a->body_h, false);
	}
	draw_status(a);
	draw_keybar(a);
}
