// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * view-help.c - the help overlay: every key, drawn in a box over the body
 * of whatever view is open.  Any key closes it.
 */
#include <string.h>

#include "tui-local.h"

static const char *const help_lines[] = {
	"Moving                          Filters and search",
	"  Up/k Down/j   row               d     disagreements only (again: all)",
	"  PgUp/b PgDn/Space  page         c     next decision class (all, numa-move, ...)",
	"  Home/g End/G  first / last      /     search task name or tid; Enter goes",
	"  Enter/l       open the detail   n N   next / previous match",
	"  Esc/q         back; quit from   s     sort: time, cost delta, task",
	"                the list          x     clear time range and node pair",
	"  Tab/BTab      list, matrix,     Esc   (in the list) clear the filters",
	"                timeline",
	"Detail                          Matrix",
	"  j/k PgUp/PgDn scroll            arrows/hjkl  move between cells",
	"  [ ] Left/Right previous / next  m Space  migrations, disagreements, cost",
	"                                  Enter    filter the list to the node pair",
	"Timeline",
	"  h/l Left/Right move, H/L by 10, Home/End   Space/Enter mark range ends",
	"",
	"Rows marked ! are disagreements, ? have an unknown verdict.   ? this help",
};

#define NR_HELP (sizeof(help_lines) / sizeof(help_lines[0]))

static void help_draw(struct tui_app *a, int y0, int h, bool full)
{
	struct tui_canvas *c = &a->canvas;
	int w = 86, bh = (int)NR_HELP + 4, x0, y, i;

	if (w > c->w - 2)
		w = c->w - 2;
	if (bh > h)
		bh = h;
	x0 = (c->w - w) / 2;
	y = y0 + (h - bh) / 2;
	for (i = 0; i < bh; i++)
		tui_canvas_fill(c, y + i, x0, w, ' ', TUI_ST_NORMAL);
	tui_canvas_fill(c, y, x0, w, ' ', TUI_ST_HEADER);
	tui_canvas_put(c, y, x0 + 2, w - 4, TUI_ST_HEADER, "schedreplay tui: keys");
	for (i = 0; i < (int)NR_HELP && i + 2 < bh - 1; i++)
		tui_canvas_put(c, y + 2 + i, x0 + 2, w - 4, i == 0 || i == 9 || i == 13 ?
			       TUI_ST_TITLE : TUI_ST_NORMAL, help_lines[i]);
	tui_canvas_fill(c, y + bh - 1, x0, w, ' ', TUI_ST_HEADER);
	tui_canvas_put(c, y + bh - 1, x0 + 2, w - 4, TUI_ST_HEADER, "any key closes this help");
	(void)full;
}

const struct tui_view_ops tui_view_help = {
	.name = "help",
	.draw = help_draw,
};
