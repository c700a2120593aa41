// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * view-list.c - the decision list: one row per decision (time, class,
 * task, src->dst CPU and node, old and new verdict, cost delta), with
 * disagreements marked '!' and highlighted.
 *
 * Only the rows on screen are formatted, straight from the store into the
 * canvas.  When only the cursor moved within the screen, the two rows it
 * left and reached are repainted and nothing else (htop's way).
 */
#include <inttypes.h>
#include <string.h>

#include "replay/replay.h"
#include "tui-local.h"

void tui_list_layout(struct tui_list_cols *c, int w)
{
	int fixed;

	memset(c, 0, sizeof(*c));
	c->mark = 1;
	c->time = 12;
	c->cls = 10;
	c->tid = 7;
	c->cpu = 7;
	c->node = 5;
	c->old = 7;
	c->new_ = 7;
	c->cost = 8;
	/* drop columns, least needed first, until the task gets 8 */
	for (;;) {
		fixed = c->mark + c->time + 1 + c->cls + 1 + (c->tid ? c->tid + 1 : 0) +
			c->cpu + 1 + (c->node ? c->node + 1 : 0) + c->old + 1 + c->new_ +
			(c->cost ? c->cost + 1 : 0) + 1;
		if (w - fixed >= 8)
			break;
		if (c->node)
			c->node = 0;
		else if (c->tid)
			c->tid = 0;
		else if (c->cost)
			c->cost = 0;
		else
			break;
	}
	c->task = w - fixed;
	if (c->task > 24)
		c->task = 24;
	if (c->task < 1)
		c->task = 1;
}

static void cell_right(struct tui_canvas *c, int y, int x, int w, int style, const char *s)
{
	int len = tui_text_width(s);

	tui_canvas_put(c, y, x + (len < w ? w - len : 0), w, style, s);
}

static void draw_titles(struct tui_app *a, int y)
{
	const struct tui_list_cols *k = &a->cols;
	struct tui_canvas *c = &a->canvas;
	int x = k->mark;

	tui_canvas_fill(c, y, 0, c->w, ' ', TUI_ST_TITLE);
	cell_right(c, y, x, k->time, TUI_ST_TITLE, "TIME");
	x += k->time + 1;
	tui_canvas_put(c, y, x, k->cls, TUI_ST_TITLE, "CLASS");
	x += k->cls + 1;
	tui_canvas_put(c, y, x, k->task, TUI_ST_TITLE, "TASK");
	x += k->task + 1;
	if (k->tid) {
		cell_right(c, y, x, k->tid, TUI_ST_TITLE, "TID");
		x += k->tid + 1;
	}
	cell_right(c, y, x, k->cpu, TUI_ST_TITLE, "CPU");
	x += k->cpu + 1;
	if (k->node) {
		cell_right(c, y, x, k->node, TUI_ST_TITLE, "NODE");
		x += k->node + 1;
	}
	tui_canvas_put(c, y, x, k->old, TUI_ST_TITLE, "OLD");
	x += k->old + 1;
	tui_canvas_put(c, y, x, k->new_, TUI_ST_TITLE, "NEW");
	x += k->new_ + 1;
	if (k->cost)
		cell_right(c, y, x, k->cost, TUI_ST_TITLE, tui_canvas_glyph(c, "COST Δ", "COST d"));
}

static void draw_row(struct tui_app *a, int y, size_t pos)
{
	const struct tui_list_cols *k = &a->cols;
	const struct tui_row *r = tui_list_row(&a->list, pos);
	struct tui_canvas *c = &a->canvas;
	const struct tui_verdict *vo, *vn;
	bool sel = pos == a->list.cursor, dis;
	int base, x = k->mark;
	char buf[64];

	if (!r) {
		tui_canvas_fill(c, y, 0, c->w, ' ', TUI_ST_NORMAL);
		return;
	}
	dis = r->flags & TUI_ROW_DISAGREE;
	base = sel ? TUI_ST_SELECT : dis ? TUI_ST_DISAGREE : TUI_ST_NORMAL;
	tui_canvas_fill(c, y, 0, c->w, ' ', base);
	tui_canvas_put(c, y, 0, 1, base, dis ? "!" : r->flags & TUI_ROW_UNKNOWN ? "?" : " ");
	tui_format_time(buf, sizeof(buf), r->ts_ns);
	cell_right(c, y, x, k->time, base, buf);
	x += k->time + 1;
	tui_canvas_put(c, y, x, k->cls, base, replay_class_name(r->cls));
	x += k->cls + 1;
	if (r->flags & TUI_ROW_COMM)
		tui_canvas_put_untrusted(c, y, x, k->task,
					 !sel && tui_list_match(&a->list, r) ? TUI_ST_MATCH : base,
					 r->comm, sizeof(r->comm));
	else
		tui_canvas_put(c, y, x, k->task, base, "?");
	x += k->task + 1;
	if (k->tid) {
		snprintf(buf, sizeof(buf), "%d", r->tid);
		cell_right(c, y, x, k->tid, base, buf);
		x += k->tid + 1;
	}
	snprintf(buf, sizeof(buf), "%d%s%d", r->src_cpu, tui_canvas_glyph(c, "→", ">"), r->dst_cpu);
	if (r->dst_cpu < 0)
		snprintf(buf, sizeof(buf), "%d%s-", r->src_cpu, tui_canvas_glyph(c, "→", ">"));
	cell_right(c, y, x, k->cpu, base, buf);
	x += k->cpu + 1;
	if (k->node) {
		char s[8], d[8];

		snprintf(s, sizeof(s), r->src_node >= 0 ? "%d" : "?", r->src_node);
		snprintf(d, sizeof(d), r->dst_node >= 0 ? "%d" : "?", r->dst_node);
		snprintf(buf, sizeof(buf), "%s%s%s", s, tui_canvas_glyph(c, "→", ">"), d);
		cell_right(c, y, x, k->node, base, buf);
		x += k->node + 1;
	}
	vo = tui_store_verdict(a->store, r->verdict[TUI_OLD]);
	vn = tui_store_verdict(a->store, r->verdict[TUI_NEW]);
	tui_canvas_put(c, y, x, k->old, sel ? base : tui_verdict_style(vo), tui_verdict_short(vo));
	x += k->old + 1;
	tui_canvas_put(c, y, x, k->new_, sel ? base : tui_verdict_style(vn), tui_verdict_short(vn));
	x += k->new_ + 1;
	if (k->cost) {
		tui_format_cost(buf, sizeof(buf), r);
		cell_right(c, y, x, k->cost, base, buf);
	}
}

static void list_draw(struct tui_app *a, int y, int h, bool full)
{
	struct tui_list *l = &a->list;
	int rows = h - 1, i;

	tui_list_layout(&a->cols, a->canvas.w);
	tui_list_move(l, 0, rows);
	if (!full && a->drawn_valid && a->drawn_top == l->top && a->drawn_gen == l->gen) {
		/* only the cursor moved: repaint the row it left and the row it is on */
		if (a->drawn_cursor >= l->top && a->drawn_cursor < l->top + (size_t)rows)
			draw_row(a, y + 1 + (int)(a->drawn_cursor - l->top), a->drawn_cursor);
		draw_row(a, y + 1 + (int)(l->cursor - l->top), l->cursor);
	} else {
		draw_titles(a, y);
		for (i = 0; i < rows; i++)
			draw_row(a, y + 1 + i, l->top + (size_t)i);
		if (!l->nr)
			tui_canvas_put(&a->canvas, y + 2, 2, -1, TUI_ST_DIM,
				       a->prog.loading ? "no decision passes the filters yet (loading)" :
				       tui_list_filtered(l) ?
				       "no decision passes the filters (Esc clears them)" :
				       "no decisions in this replay");
	}
	a->drawn_cursor = l->cursor;
	a->drawn_top = l->top;
	a->drawn_gen = l->gen;
	a->drawn_valid = true;
}

static unsigned int list_key(struct tui_app *a, int key)
{
	struct tui_list *l = &a->list;
	int rows = tui_app_body_rows(a);
	size_t top = l->top;

	switch (key) {
	case TUI_KEY_UP:
	case 'k':
		tui_list_move(l, -1, rows);
		break;
	case TUI_KEY_DOWN:
	case 'j':
		tui_list_move(l, 1, rows);
		break;
	case TUI_KEY_PGUP:
	case 'b':
		tui_list_move(l, -rows, rows);
		break;
	case TUI_KEY_PGDN:
	case ' ':
		tui_list_move(l, rows, rows);
		break;
	case TUI_KEY_HOME:
	case 'g':
		tui_list_move(l, -(long)l->nr, rows);
		break;
	case TUI_KEY_END:
	case 'G':
		tui_list_move(l, (long)l->nr, rows);
		break;
	case TUI_KEY_ENTER:
	case TUI_KEY_RIGHT:
	case 'l':
		if (!l->nr)
			return TUI_REDRAW_VIEW;
		tui_app_set_view(a, TUI_VIEW_DETAIL);
		return TUI_REDRAW_VIEW;
	default:
		return 0;
	}
	return top == l->top ? TUI_REDRAW_LINE : TUI_REDRAW_VIEW;
}

const struct tui_view_ops tui_view_list = {
	.name = "list",
	.draw = list_draw,
	.key = list_key,
};
