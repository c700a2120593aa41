// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * view-help.c - the help: every key, in one column of at most 72 columns
 * drawn in a box over the body of whatever view is open, so that it fits
 * an 80x24 terminal; when the body is shorter than the text it scrolls
 * (j/k, arrows, PgUp/PgDn, Space, Home/End).  Esc, q or ? close it.
 */
#include <string.h>

#include "tui-local.h"

static const char *const help[] = {
	"#Reviewing",
	"  The list opens on the disagreements, under the summary of the replay.",
	"  ] [      next / previous disagreement, whatever the filters",
	"  d        disagreements only, or every decision",
	"  s        sort: time, |cost delta| (largest first), task",
	"#Filters (on the whole index)",
	"  c        next decision class (all, numa-move, ...)",
	"  u        only decisions with an unknown verdict",
	"  w        only decisions in a lost-events window",
	"  o        only decisions on a CPU not seen then (cpu-unseen)",
	"  t        only the task under the cursor (again: every task)",
	"  x        clear the time range and the node pair",
	"  Esc      (in the list) clear every filter",
	"#Search",
	"  /        search a task name or tid; Enter goes there",
	"  n  N     next / previous match",
	"#Moving",
	"  Up/k  Down/j        one row",
	"  PgUp/b  PgDn/Space  one page",
	"  Home/g  End/G       first / last",
	"  Enter/l             open the decision",
	"  Tab  BTab           list, matrix, timeline",
	"  Esc                 close what is open; it never quits",
	"  q                   quit",
	"#Decision",
	"  j/k PgUp/PgDn       scroll",
	"  [ ]  Left/Right     previous / next decision of the list",
	"#Matrix",
	"  arrows, hjkl        move between cells",
	"  m  Space            migrations, disagreements, cost",
	"  Enter               filter the list to the pair",
	"#Timeline",
	"  h/l  H/L  Home/End  move (H/L by 10)",
	"  Space/Enter         mark the ends of a range",
	"#Marks and figures",
	"  !  a disagreement   ?  an unknown verdict",
	"  COST d  new - old weighted cost, as the JSON report holds it",
	"#While loading",
	"  The status line shows how far the index is; keys work meanwhile.",
};

#define NR_HELP (int)(sizeof(help) / sizeof(help[0]))

const char *const *tui_help_lines(int *n)
{
	*n = NR_HELP;
	return help;
}

/* Text rows the box shows for a body of @h rows */
static int help_rows(int h)
{
	int rows = h - 2;

	return rows < 1 ? 1 : rows > NR_HELP ? NR_HELP : rows;
}

static void help_draw(struct tui_app *a, int y0, int h, bool full)
{
	struct tui_canvas *c = &a->canvas;
	int w = c->w - 2 < 74 ? c->w - 2 : 74, rows = help_rows(h), x0, y, i, max;
	char foot[80];

	max = NR_HELP - rows;
	if (a->help_scroll > max)
		a->help_scroll = max;
	if (a->help_scroll < 0)
		a->help_scroll = 0;
	x0 = (c->w - w) / 2;
	y = y0 + (h - rows - 2) / 2;
	for (i = 0; i < rows + 2; i++)
		tui_canvas_fill(c, y + i, x0, w, ' ', TUI_ST_NORMAL);
	tui_canvas_fill(c, y, x0, w, ' ', TUI_ST_HEADER);
	tui_canvas_put(c, y, x0 + 1, w - 2, TUI_ST_HEADER, "schedreplay tui: keys");
	for (i = 0; i < rows; i++) {
		const char *s = help[a->help_scroll + i];

		if (s[0] == '#')
			tui_canvas_put(c, y + 1 + i, x0 + 1, w - 2, TUI_ST_TITLE, s + 1);
		else
			tui_canvas_put(c, y + 1 + i, x0 + 1, w - 2, TUI_ST_NORMAL, s);
	}
	if (max > 0)
		snprintf(foot, sizeof(foot), "lines %d-%d of %d: j/k PgUp/PgDn scroll; Esc, q, ? close",
			 a->help_scroll + 1, a->help_scroll + rows, NR_HELP);
	else
		snprintf(foot, sizeof(foot), "Esc, q or ? closes this help");
	tui_canvas_fill(c, y + rows + 1, x0, w, ' ', TUI_ST_HEADER);
	tui_canvas_put(c, y + rows + 1, x0 + 1, w - 2, TUI_ST_HEADER, foot);
	(void)full;
}

static unsigned int help_key(struct tui_app *a, int key)
{
	int page = help_rows(a->body_h);

	switch (key) {
	case TUI_KEY_ESC:
	case 'q':
	case '?':
		a->help = false;
		break;
	case TUI_KEY_DOWN:
	case 'j':
		a->help_scroll++;
		break;
	case TUI_KEY_UP:
	case 'k':
		a->help_scroll--;
		break;
	case TUI_KEY_PGDN:
	case ' ':
		a->help_scroll += page;
		break;
	case TUI_KEY_PGUP:
	case 'b':
		a->help_scroll -= page;
		break;
	case TUI_KEY_HOME:
	case 'g':
		a->help_scroll = 0;
		break;
	case TUI_KEY_END:
	case 'G':
		a->help_scroll = NR_HELP;
		break;
	default:
		break;
	}
	if (a->help_scroll > NR_HELP - page)
		a->help_scroll = NR_HELP - page;
	if (a->help_scroll < 0)
		a->help_scroll = 0;
	return TUI_REDRAW_VIEW;
}

const struct tui_view_ops tui_view_help = {
	.name = "help",
	.draw = help_draw,
	.key = help_key,
};
