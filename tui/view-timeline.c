// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * view-timeline.c - decisions, disagreements and cost over trace time as
 * bar strips, one column per time bucket.  Left/Right (h/l, H/L by ten)
 * move the cursor; Space or Enter marks one end of a range and then the
 * other, which filters the list to that time range; x clears it.
 *
 * The buckets cover the whole trace and count the decisions that pass
 * every filter but the time range, so the range can be moved freely.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tui-local.h"

#define TL_X0	12

static int tl_init(struct tui_app *a)
{
	a->tl_mark = -1;
	a->tl_gen = UINT64_MAX;
	return 0;
}

static void tl_free(struct tui_app *a)
{
	free(a->tl_count);
	free(a->tl_dis);
	free(a->tl_cost);
	a->tl_count = a->tl_dis = NULL;
	a->tl_cost = NULL;
	a->tl_buckets = 0;
}

static void tl_resize(struct tui_app *a)
{
	int n = a->canvas.w - TL_X0 - 1;

	if (n < 1)
		n = 1;
	if (n == a->tl_buckets)
		return;
	tl_free(a);
	a->tl_count = calloc((size_t)n, sizeof(*a->tl_count));
	a->tl_dis = calloc((size_t)n, sizeof(*a->tl_dis));
	a->tl_cost = calloc((size_t)n, sizeof(*a->tl_cost));
	if (!a->tl_count || !a->tl_dis || !a->tl_cost) {
		tl_free(a);
		return;
	}
	a->tl_buckets = n;
	a->tl_gen = UINT64_MAX;
	if (a->tl_cursor >= n)
		a->tl_cursor = n - 1;
	a->tl_mark = -1;
}

static uint64_t bucket_start(const struct tui_app *a, int b)
{
	const struct tui_header *h = tui_store_header(a->store);
	uint64_t span = h->ts_last - h->ts_first + 1;

	return h->ts_first + (uint64_t)((double)span * b / a->tl_buckets);
}

static int bucket_of(const struct tui_app *a, uint64_t ts)
{
	const struct tui_header *h = tui_store_header(a->store);
	uint64_t span = h->ts_last - h->ts_first + 1;
	int b = (int)((double)(ts - h->ts_first) * a->tl_buckets / (double)span);

	return b < 0 ? 0 : b >= a->tl_buckets ? a->tl_buckets - 1 : b;
}

static void compute(struct tui_app *a)
{
	const struct tui_list *l = &a->list;
	size_t i, n = tui_store_count(a->store);

	if (a->tl_gen == l->gen)
		return;
	memset(a->tl_count, 0, (size_t)a->tl_buckets * sizeof(*a->tl_count));
	memset(a->tl_dis, 0, (size_t)a->tl_buckets * sizeof(*a->tl_dis));
	memset(a->tl_cost, 0, (size_t)a->tl_buckets * sizeof(*a->tl_cost));
	a->tl_any_cost = false;
	for (i = 0; i < n; i++) {
		const struct tui_row *r = tui_store_row(a->store, i);
		int b;

		if (!tui_list_filter_pass(l, r, false))
			continue;
		b = bucket_of(a, r->ts_ns);
		a->tl_count[b]++;
		a->tl_dis[b] += (r->flags & TUI_ROW_DISAGREE) != 0;
		if (r->flags & TUI_ROW_COST) {
			a->tl_cost[b] += r->cost_delta;
			a->tl_any_cost = true;
		}
	}
	a->tl_gen = l->gen;
}

/* A strip of @rows rows of bars with 8 levels per row, values scaled to their max. */
static void strip(struct tui_app *a, int y, int rows, const char *label, const uint64_t *u,
		  const int64_t *s, int style)
{
	static const char *const levels[9] = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	static const char *const ascii[9] = { " ", ".", ".", ":", ":", "|", "|", "#", "#" };
	struct tui_canvas *c = &a->canvas;
	uint64_t max = 0, v;
	int b, r;

	for (b = 0; b < a->tl_buckets; b++) {
		v = u ? u[b] : (uint64_t)llabs(s[b]);
		if (v > max)
			max = v;
	}
	tui_canvas_put(c, y, 1, TL_X0 - 2, TUI_ST_TITLE, label);
	if (u)
		tui_canvas_printf(c, y + 1, 1, TL_X0 - 2, TUI_ST_DIM, "max %" PRIu64, max);
	else	/* costs are kept in thousandths */
		tui_canvas_printf(c, y + 1, 1, TL_X0 - 2, TUI_ST_DIM, "max %.0f",
				  (double)max / 1000.0);
	for (b = 0; b < a->tl_buckets; b++) {
		uint64_t units;

		v = u ? u[b] : (uint64_t)llabs(s[b]);
		units = max ? (v * (uint64_t)rows * 8 + max - 1) / max : 0;
		for (r = 0; r < rows; r++) {
			uint64_t lvl = units > (uint64_t)(rows - 1 - r) * 8 ?
				       units - (uint64_t)(rows - 1 - r) * 8 : 0;
			int st = style;

			if (lvl > 8)
				lvl = 8;
			if (s && s[b] < 0)
				st = TUI_ST_ALLOW;
			tui_canvas_put(c, y + r, TL_X0 + b, 1, st,
				       c->ascii ? ascii[lvl] : levels[lvl]);
		}
	}
}

static void tl_draw(struct tui_app *a, int y0, int h, bool full)
{
	const struct tui_header *hd = tui_store_header(a->store);
	struct tui_canvas *c = &a->canvas;
	int rows, i, y, b, lo, hi;
	char t0[32], t1[32];

	for (i = 0; i < h; i++)
		tui_canvas_fill(c, y0 + i, 0, c->w, ' ', TUI_ST_NORMAL);
	if (!a->tl_buckets || !tui_store_count(a->store)) {
		tui_canvas_put(c, y0 + 1, 2, -1, TUI_ST_DIM, "no decisions to show over time");
		return;
	}
	compute(a);
	rows = (h - 7) / 3;
	if (rows < 1)
		rows = 1;
	if (rows > 6)
		rows = 6;
	tui_format_time(t0, sizeof(t0), hd->ts_first);
	tui_format_time(t1, sizeof(t1), hd->ts_last);
	tui_canvas_printf(c, y0, 1, -1, TUI_ST_TITLE, "trace time %s .. %s s, %d buckets", t0, t1,
			  a->tl_buckets);
	y = y0 + 1;
	strip(a, y, rows, "decisions", a->tl_count, NULL, TUI_ST_BAR);
	y += rows;
	strip(a, y, rows, "disagree", a->tl_dis, NULL, TUI_ST_DISAGREE);
	y += rows;
	if (a->tl_any_cost)
		strip(a, y, rows, "cost delta", NULL, a->tl_cost, TUI_ST_RESIST);
	else
		tui_canvas_put(c, y, 1, -1, TUI_ST_DIM, "cost       no cost in this replay");
	y += rows > 1 ? rows : 1;
	/* range and cursor marks */
	lo = hi = -1;
	if (a->tl_mark >= 0) {
		lo = a->tl_mark < a->tl_cursor ? a->tl_mark : a->tl_cursor;
		hi = a->tl_mark < a->tl_cursor ? a->tl_cursor : a->tl_mark;
	} else if (a->list.range) {
		lo = bucket_of(a, a->list.t0);
		hi = bucket_of(a, a->list.t1);
	}
	for (b = 0; b < a->tl_buckets; b++) {
		bool in = b >= lo && b <= hi && lo >= 0;

		tui_canvas_put(c, y, TL_X0 + b, 1, b == a->tl_cursor ? TUI_ST_SELECT :
			       in ? TUI_ST_MATCH : TUI_ST_DIM,
			       b == a->tl_cursor ? "^" : in ? "=" : "-");
	}
	b = a->tl_cursor;
	tui_format_time(t0, sizeof(t0), bucket_start(a, b));
	tui_format_time(t1, sizeof(t1), b + 1 < a->tl_buckets ? bucket_start(a, b + 1) :
			hd->ts_last);
	tui_canvas_printf(c, y + 1, 1, -1, TUI_ST_NORMAL,
			  "bucket %s..%s s: %" PRIu64 " decisions, %" PRIu64 " disagreements", t0,
			  t1, a->tl_count[b], a->tl_dis[b]);
	if (a->tl_any_cost)
		tui_canvas_printf(c, y + 2, 1, -1, TUI_ST_NORMAL, "cost delta %+.1f",
				  (double)a->tl_cost[b] / 1000.0);
	tui_canvas_put(c, y + 3, 1, -1, TUI_ST_DIM, a->tl_mark >= 0 ?
		       "move to the other end and press Space/Enter again (Esc: cancel)" :
		       "h/l move, H/L by 10, Space/Enter marks a range to filter, x clears");
	(void)full;
}

static unsigned int tl_key(struct tui_app *a, int key)
{
	int n = a->tl_buckets;

	if (!n)
		return 0;
	switch (key) {
	case TUI_KEY_LEFT:
	case 'h':
		a->tl_cursor = a->tl_cursor > 0 ? a->tl_cursor - 1 : 0;
		break;
	case TUI_KEY_RIGHT:
	case 'l':
		a->tl_cursor = a->tl_cursor + 1 < n ? a->tl_cursor + 1 : n - 1;
		break;
	case 'H':
		a->tl_cursor = a->tl_cursor > 10 ? a->tl_cursor - 10 : 0;
		break;
	case 'L':
		a->tl_cursor = a->tl_cursor + 10 < n ? a->tl_cursor + 10 : n - 1;
		break;
	case TUI_KEY_HOME:
	case 'g':
		a->tl_cursor = 0;
		break;
	case TUI_KEY_END:
	case 'G':
		a->tl_cursor = n - 1;
		break;
	case TUI_KEY_ESC:
		if (a->tl_mark < 0)
			return 0;
		a->tl_mark = -1;
		break;
	case ' ':
	case TUI_KEY_ENTER:
		if (a->tl_mark < 0) {
			a->tl_mark = a->tl_cursor;
			snprintf(a->msg, sizeof(a->msg), "range start marked");
			break;
		} else {
			int lo = a->tl_mark < a->tl_cursor ? a->tl_mark : a->tl_cursor;
			int hi = a->tl_mark < a->tl_cursor ? a->tl_cursor : a->tl_mark;

			a->list.range = true;
			a->list.t0 = bucket_start(a, lo);
			a->list.t1 = hi + 1 < n ? bucket_start(a, hi + 1) - 1 :
				     tui_store_header(a->store)->ts_last;
			a->tl_mark = -1;
			snprintf(a->msg, sizeof(a->msg), "list filtered to the range (x clears)");
			return TUI_RECOMPUTE | TUI_REDRAW_VIEW;
		}
	default:
		return 0;
	}
	return TUI_REDRAW_VIEW;
}

const struct tui_view_ops tui_view_timeline = {
	.name = "timeline",
	.init = tl_init,
	.free = tl_free,
	.resize = tl_resize,
	.draw = tl_draw,
	.key = tl_key,
};
