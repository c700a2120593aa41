// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * view-help.c - the help overlay: every key, drawn in a box over the body
 * of whatever view is open.  Any key closes it.
 */
#include <string.h>

#include "tui-local.h"

/* Two columns side by side on a wide screen, one after the other on a narrow one. */
static const char *const help_left[] = {
	"#Moving",
	"  Up/k  Down/j       one row",
	"  PgUp/b PgDn/Space  one page",
	"  Home/g  End/G      first / last",
	"  Enter/l            open the detail",
	"  Esc/q              back; quit from the list",
	"  Tab  BTab          list, matrix, timeline",
	"#Detail",
	"  j/k PgUp/PgDn      scroll",
	"  [ ]  Left/Right    previous / next decision",
	"#Matrix",
	"  arrows, hjkl       move between cells",
	"  m  Space           migrations, disagreements, cost",
	"  Enter              filter the list to the pair",
};

static const char *const help_right[] = {
	"#Filters and search",
	"  d      disagreements only (again: all)",
	"  c      next decision class (all, numa-move, ...)",
	"  /      search task name or tid, Enter goes",
	"  n  N   next / previous match",
	"  s      sort: time, cost delta, task",
	"  x      clear the time range and node pair",
	"  Esc    (in the list) clear every filter",
	"#Timeline",
	"  h/l  H/L  Home/End  move (H/L by 10)",
	"  Space/Enter        mark the ends of a range",
	"#Marks",
	"  !  a disagreement    ?  an unknown verdict",
	"  ?  this help",
};

#define NR_LEFT (int)(sizeof(help_left) / sizeof(help_left[0]))
#define NR_RIGHT (int)(sizeof(help_right) / sizeof(help_right[0]))

static void help_line(struct tui_canvas *c, int y, int x, int w, const char *s)
{
	if (s[0] == '#')
		tui_canvas_put(c, y, x, w, TUI_ST_TITLE, s + 1);
	else
		tui_canvas_put(c, y, x, w, TUI_ST_NORMAL, s);
}

static void help_draw(struct tui_app *a, int y0, int h, bool full)
{
	struct tui_canvas *c = &a->canvas;
	bool wide = c->w >= 104;
	int w = wide ? 100 : 54, rows = wide ? NR_LEFT : NR_LEFT + NR_RIGHT;
	int bh = rows + 4, x0, y, i;

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
	for (i = 0; i < rows && i + 2 < bh - 1; i++) {
		if (wide) {
			help_line(c, y + 2 + i, x0 + 2, 48, help_left[i]);
			if (i < NR_RIGHT)
				help_line(c, y + 2 + i, x0 + 50, w - 52, help_right[i]);
		} else {
			help_line(c, y + 2 + i, x0 + 2, w - 4,
				  i < NR_LEFT ? help_left[i] : help_right[i - NR_LEFT]);
		}
	}
	tui_canvas_fill(c, y + bh - 1, x0, w, ' ', TUI_ST_HEADER);
	tui_canvas_put(c, y + bh - 1, x0 + 2, w - 4, TUI_ST_HEADER, "any key closes this help");
	(void)full;
}

const struct tui_view_ops tui_view_help = {
	.name = "help",
	.draw = help_draw,
};
