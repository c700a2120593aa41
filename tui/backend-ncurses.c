// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * backend-ncurses.c - the terminal: set curses up, copy the canvas out
 * cell by cell, read keys, follow resizes, and always restore the
 * terminal (on quit, on error, and on SIGINT/SIGTERM/SIGHUP).
 *
 * Styles map to color pairs when the terminal has colors and the user
 * did not ask for none (NO_COLOR, --no-color); otherwise to bold,
 * reverse, underline and dim, so that the monochrome screen still tells
 * a disagreement, a selection and a heat level apart.
 *
 * The curses screen is the one process-wide state of the program; the
 * signal flag below goes with it.
 */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>

#include "tui.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

struct style_map {
	short	fg;
	short	bg;
	attr_t	color_attr;
	attr_t	mono_attr;
};

static const struct style_map style_map[TUI_ST__COUNT] = {
	[TUI_ST_NORMAL]   = { -1, -1, A_NORMAL, A_NORMAL },
	[TUI_ST_HEADER]   = { COLOR_WHITE, COLOR_BLUE, A_BOLD, A_REVERSE | A_BOLD },
	[TUI_ST_TITLE]    = { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[TUI_ST_SELECT]   = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
	[TUI_ST_DISAGREE] = { COLOR_RED, -1, A_BOLD, A_BOLD },
	[TUI_ST_DIM]      = { -1, -1, A_DIM, A_DIM },
	[TUI_ST_ALLOW]    = { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
	[TUI_ST_RESIST]   = { COLOR_RED, -1, A_NORMAL, A_BOLD },
	[TUI_ST_UNKNOWN]  = { COLOR_YELLOW, -1, A_NORMAL, A_UNDERLINE },
	[TUI_ST_BAR]      = { COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
	[TUI_ST_BAR2]     = { COLOR_MAGENTA, -1, A_BOLD, A_BOLD },
	[TUI_ST_HEAT0]    = { -1, -1, A_NORMAL, A_NORMAL },
	[TUI_ST_HEAT1]    = { COLOR_WHITE, COLOR_BLUE, A_NORMAL, A_UNDERLINE },
	[TUI_ST_HEAT2]    = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_BOLD },
	[TUI_ST_HEAT3]    = { COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_REVERSE },
	[TUI_ST_HEAT4]    = { COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD },
	[TUI_ST_STATUS]   = { COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_REVERSE },
	[TUI_ST_MATCH]    = { COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_UNDERLINE | A_BOLD },
	[TUI_ST_KEY]      = { COLOR_CYAN, -1, A_BOLD, A_BOLD },
};

struct term {
	bool	color;
	bool	utf8;
};

static void setup_colors(struct term *t)
{
	int i;

	if (!t->color || !has_colors() || start_color() == ERR) {
		t->color = false;
		return;
	}
	use_default_colors();
	for (i = 1; i < TUI_ST__COUNT; i++)
		init_pair((short)i, style_map[i].fg, style_map[i].bg);
}

static void blit(const struct term *t, const struct tui_canvas *c)
{
	int y, x;

	for (y = 0; y < c->h && y < LINES; y++) {
		for (x = 0; x < c->w && x < COLS; x++) {
			const struct tui_cell *cell = &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
			int st = cell->style < TUI_ST__COUNT ? cell->style : 0;
			attr_t attr = t->color ? style_map[st].color_attr : style_map[st].mono_attr;
			wchar_t wc[2] = { 0, 0 };
			cchar_t cc;

			if (cell->ch == TUI_CELL_CONT)
				continue;
			/* the canvas never holds controls; be sure anyway */
			wc[0] = cell->ch < 0x20 || (cell->ch >= 0x7f && cell->ch < 0xa0) ? L'?' :
				(wchar_t)cell->ch;
			if (!t->utf8 && cell->ch >= 0x80)
				wc[0] = L'?';
			setcchar(&cc, wc, attr, t->color ? (short)st : 0, NULL);
			mvadd_wch(y, x, &cc);
		}
	}
}

static int map_key(int ret, wint_t wch)
{
	if (ret == KEY_CODE_YES) {
		switch (wch) {
		case KEY_UP: return TUI_KEY_UP;
		case KEY_DOWN: return TUI_KEY_DOWN;
		case KEY_LEFT: return TUI_KEY_LEFT;
		case KEY_RIGHT: return TUI_KEY_RIGHT;
		case KEY_PPAGE: return TUI_KEY_PGUP;
		case KEY_NPAGE: return TUI_KEY_PGDN;
		case KEY_HOME: return TUI_KEY_HOME;
		case KEY_END: return TUI_KEY_END;
		case KEY_ENTER: return TUI_KEY_ENTER;
		case KEY_BTAB: return TUI_KEY_BTAB;
		case KEY_BACKSPACE: return TUI_KEY_BACKSPACE;
		case KEY_RESIZE: return TUI_KEY_RESIZE;
		default: return -1;
		}
	}
	switch (wch) {
	case '\r':
	case '\n':
		return TUI_KEY_ENTER;
	case 27:
		return TUI_KEY_ESC;
	case '\t':
		return TUI_KEY_TAB;
	case 127:
	case 8:
		return TUI_KEY_BACKSPACE;
	default:
		return (int)wch;
	}
}

/* A key is waiting: the loop skips drawing until the keys stop coming. */
static bool key_pending(void)
{
	wint_t wch;
	int ret;

	nodelay(stdscr, TRUE);
	ret = wget_wch(stdscr, &wch);
	nodelay(stdscr, FALSE);
	if (ret == ERR)
		return false;
	if (ret == KEY_CODE_YES)
		ungetch((int)wch);
	else
		unget_wch((wchar_t)wch);
	return true;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Redraws while the index grows: at most this many a second. */
#define TUI_FRAMES_PER_S	10

int tui_run_terminal(struct tui_app *a, const struct tui_run_opts *o)
{
	struct sigaction sa = { 0 }, old_int, old_term, old_hup;
	struct term t = { .color = o->color };
	unsigned long frames = 0;
	SCREEN *scr;
	size_t ki = 0;
	bool full = true, draw = true, owed_full = false, shown_rows = false;
	double last_draw = 0;
	int ret = 0;
	const char *cs;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return -ENOTTY;
	cs = nl_langinfo(CODESET);
	t.utf8 = cs && !strcmp(cs, "UTF-8");
	tui_app_canvas(a)->ascii = tui_app_canvas(a)->ascii || !t.utf8;
	scr = newterm(NULL, stdout, stdin);
	if (!scr)
		return -ENOTTY;
	set_term(scr);
	stop_signal = 0;
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	setup_colors(&t);
	/* wake up to take what the loader added even when no key comes */
	wtimeout(stdscr, 25);
	tui_app_lock(a);
	ret = tui_app_resize(a, COLS, LINES);
	tui_app_unlock(a);

	while (!ret && !stop_signal) {
		unsigned int r;
		wint_t wch;
		int key, kr;

		if (draw) {
			tui_app_lock(a);
			if (tui_app_poll(a))
				full = true;
			tui_app_draw(a, full);
			shown_rows = tui_app_list(a)->nr > 0;
			tui_app_unlock(a);
			blit(&t, tui_app_canvas(a));
			refresh();
			last_draw = now_s();
			frames++;
			if (o->frames && frames >= o->frames)
				break;
		}
		if (ki < o->nr_keys) {
			key = o->keys[ki++].key;
		} else {
			kr = wget_wch(stdscr, &wch);
			if (kr == ERR) {
				bool more;

				/* no key: redraw if the index grew, capped at TUI_FRAMES_PER_S */
				tui_app_lock(a);
				more = tui_app_poll(a);
				tui_app_unlock(a);
				owed_full = owed_full || more;
				/* the first rows are shown as soon as they come */
				draw = owed_full && (now_s() - last_draw >= 1.0 / TUI_FRAMES_PER_S ||
						     !shown_rows);
				if (draw) {
					full = true;
					owed_full = false;
				}
				continue;
			}
			key = map_key(kr, wch);
		}
		draw = true;
		if (key == TUI_KEY_RESIZE) {
			tui_app_lock(a);
			ret = tui_app_resize(a, COLS, LINES);
			tui_app_unlock(a);
			clear();
			full = true;
			continue;
		}
		if (key < 0)
			continue;
		tui_app_lock(a);
		r = tui_app_key(a, key);
		tui_app_unlock(a);
		if (r & TUI_QUIT)
			break;
		full = owed_full || r != TUI_REDRAW_LINE;
		owed_full = false;
		if (ki >= o->nr_keys && key_pending()) {
			/* keys are coming faster than frames: draw once they stop */
			draw = false;
			owed_full = full;
		}
	}
	endwin();
	delscreen(scr);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	if (stop_signal)
		return -EINTR;
	return ret;
}
