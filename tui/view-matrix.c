// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * view-matrix.c - the node matrix: a src x dst node heatmap of the
 * decisions the list shows (migrations, disagreements, or summed cost
 * delta; m or Space toggles), with the node distance matrix beside it.
 * Enter on a cell filters the list to that node pair.
 *
 * The counts are recomputed only when the list is rebuilt (list.gen).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tui-local.h"

static int matrix_init(struct tui_app *a)
{
	a->matrix = calloc((size_t)TUI_MAX_NODES * TUI_MAX_NODES, sizeof(*a->matrix));
	a->matrix_gen = UINT64_MAX;
	return a->matrix ? 0 : -1;
}

static void matrix_free(struct tui_app *a)
{
	free(a->matrix);
	a->matrix = NULL;
}

static const char *mode_name(int mode)
{
	switch (mode) {
	case TUI_MATRIX_DISAGREE:
		return "disagreements";
	case TUI_MATRIX_COST:
		return "cost delta";
	default:
		return "migrations";
	}
}

static void compute(struct tui_app *a)
{
	struct tui_list *l = &a->list;
	size_t i;

	if (a->matrix_gen == l->gen * TUI_MATRIX__MODES + (uint64_t)a->matrix_mode)
		return;
	memset(a->matrix, 0, (size_t)TUI_MAX_NODES * TUI_MAX_NODES * sizeof(*a->matrix));
	a->matrix_any_cost = false;
	for (i = 0; i < l->nr; i++) {
		const struct tui_row *r = tui_list_row(l, i);
		int64_t *cell;

		if (r->src_node < 0 || r->dst_node < 0)
			continue;
		cell = &a->matrix[r->src_node * TUI_MAX_NODES + r->dst_node];
		if (a->matrix_mode == TUI_MATRIX_MIGRATIONS)
			/* a placement that kept the task on its CPU is a decision, not a migration */
			*cell += r->src_cpu < 0 || r->src_cpu != r->dst_cpu;
		else if (a->matrix_mode == TUI_MATRIX_DISAGREE)
			*cell += (r->flags & TUI_ROW_DISAGREE) != 0;
		else if (r->flags & TUI_ROW_COST) {
			*cell += r->cost_delta;
			a->matrix_any_cost = true;
		}
	}
	a->matrix_gen = l->gen * TUI_MATRIX__MODES + (uint64_t)a->matrix_mode;
}

static void matrix_draw(struct tui_app *a, int y0, int h, bool full)
{
	const struct tui_header *hd = tui_store_header(a->store);
	struct tui_canvas *c = &a->canvas;
	int n = hd->nr_nodes, i, j, cw = 8, x0 = 9, dx, y;
	int64_t max = 0;

	for (i = 0; i < h; i++)
		tui_canvas_fill(c, y0 + i, 0, c->w, ' ', TUI_ST_NORMAL);
	if (n <= 0) {
		tui_canvas_put(c, y0 + 1, 2, -1, TUI_ST_DIM, "no topology in this replay");
		return;
	}
	compute(a);
	if (a->matrix_y >= n)
		a->matrix_y = n - 1;
	if (a->matrix_x >= n)
		a->matrix_x = n - 1;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			int64_t v = llabs(a->matrix[i * TUI_MAX_NODES + j]);

			if (v > max)
				max = v;
		}
	tui_canvas_printf(c, y0, 1, -1, TUI_ST_TITLE, "%s, src node (rows) -> dst node (columns)",
			  mode_name(a->matrix_mode));
	tui_canvas_put(c, y0, c->w - 34 > 50 ? c->w - 34 : 50, -1, TUI_ST_DIM,
		       "m: mode  Enter: filter to the pair");
	dx = x0 + n * cw + 4;
	tui_canvas_put(c, y0 + 1, dx, -1, TUI_ST_TITLE, "distance");
	for (j = 0; j < n && x0 + (j + 1) * cw < c->w; j++) {
		tui_canvas_printf(c, y0 + 2, x0 + j * cw, cw, TUI_ST_TITLE, "%*s%d", cw - 3, "n", j);
		if (dx + (j + 1) * 5 < c->w)
			tui_canvas_printf(c, y0 + 2, dx + j * 5, 5, TUI_ST_TITLE, "%4s%d", "n", j);
	}
	for (i = 0; i < n; i++) {
		y = y0 + 3 + i;
		if (y >= y0 + h)
			break;
		tui_canvas_printf(c, y, 1, -1, TUI_ST_TITLE, "src n%d", i);
		for (j = 0; j < n && x0 + (j + 1) * cw <= c->w; j++) {
			int64_t v = a->matrix[i * TUI_MAX_NODES + j];
			int level = !v || !max ? 0 : 1 + (int)((llabs(v) * 4 - 1) / max);
			bool sel = i == a->matrix_y && j == a->matrix_x;
			int st = sel ? TUI_ST_SELECT : TUI_ST_HEAT0 + (level > 4 ? 4 : level);

			if (a->matrix_mode == TUI_MATRIX_COST && !a->matrix_any_cost)
				tui_canvas_printf(c, y, x0 + j * cw, cw, st, "%*s ", cw - 1, "-");
			else if (a->matrix_mode == TUI_MATRIX_COST)
				tui_canvas_printf(c, y, x0 + j * cw, cw, st, "%*.0f ", cw - 1,
						  (double)v / 1000.0);
			else
				tui_canvas_printf(c, y, x0 + j * cw, cw, st, "%*" PRId64 " ", cw - 1, v);
		}
		if (dx + 5 < c->w)
			tui_canvas_printf(c, y, dx - 4, -1, TUI_ST_TITLE, "n%d", i);
		for (j = 0; j < n && dx + (j + 1) * 5 <= c->w; j++)
			tui_canvas_printf(c, y, dx + j * 5, 5, i == j ? TUI_ST_DIM : TUI_ST_NORMAL,
					  "%5d", hd->distance[i][j]);
	}
	y = y0 + 4 + n;
	if (y < y0 + h) {
		int64_t v = a->matrix[a->matrix_y * TUI_MAX_NODES + a->matrix_x];

		if (a->matrix_mode == TUI_MATRIX_COST && !a->matrix_any_cost)
			tui_canvas_printf(c, y, 1, -1, TUI_ST_NORMAL,
					  "node %d -> %d (distance %d): no cost in this replay",
					  a->matrix_y, a->matrix_x, hd->distance[a->matrix_y][a->matrix_x]);
		else if (a->matrix_mode == TUI_MATRIX_COST)
			tui_canvas_printf(c, y, 1, -1, TUI_ST_NORMAL,
					  "node %d -> %d (distance %d): %+.1f %s", a->matrix_y,
					  a->matrix_x, hd->distance[a->matrix_y][a->matrix_x],
					  (double)v / 1000.0, mode_name(a->matrix_mode));
		else
			tui_canvas_printf(c, y, 1, -1, TUI_ST_NORMAL,
					  "node %d -> %d (distance %d): %" PRId64 " %s", a->matrix_y,
					  a->matrix_x, hd->distance[a->matrix_y][a->matrix_x], v,
					  mode_name(a->matrix_mode));
	}
	(void)full;
}

static unsigned int matrix_key(struct tui_app *a, int key)
{
	int n = tui_store_header(a->store)->nr_nodes;

	switch (key) {
	case TUI_KEY_UP:
	case 'k':
		a->matrix_y = a->matrix_y > 0 ? a->matrix_y - 1 : 0;
		break;
	case TUI_KEY_DOWN:
	case 'j':
		a->matrix_y = a->matrix_y + 1 < n ? a->matrix_y + 1 : a->matrix_y;
		break;
	case TUI_KEY_LEFT:
	case 'h':
		a->matrix_x = a->matrix_x > 0 ? a->matrix_x - 1 : 0;
		break;
	case TUI_KEY_RIGHT:
	case 'l':
		a->matrix_x = a->matrix_x + 1 < n ? a->matrix_x + 1 : a->matrix_x;
		break;
	case 'm':
	case ' ':
		a->matrix_mode = (a->matrix_mode + 1) % TUI_MATRIX__MODES;
		break;
	case TUI_KEY_ENTER:
		if (n <= 0)
			return TUI_REDRAW_VIEW;
		a->list.src_node = a->matrix_y;
		a->list.dst_node = a->matrix_x;
		snprintf(a->msg, sizeof(a->msg), "node pair %d->%d (x clears)", a->matrix_y,
			 a->matrix_x);
		tui_app_set_view(a, TUI_VIEW_LIST);
		return TUI_RECOMPUTE | TUI_REDRAW_VIEW;
	default:
		return 0;
	}
	return TUI_REDRAW_VIEW;
}

const struct tui_view_ops tui_view_matrix = {
	.name = "matrix",
	.init = matrix_init,
	.free = matrix_free,
	.draw = matrix_draw,
	.key = matrix_key,
};
