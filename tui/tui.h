/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tui.h - module API of tui/: the decision browser of `schedreplay tui`.
 *
 * Layers: the row store (store.h) holds the decisions; a struct tui_list
 * is the filtered, sorted view of it that the decision list, the matrix
 * and the timeline show; a struct tui_app holds the list, the current
 * view and the canvas (canvas.h) the views draw into; the backend copies
 * the canvas to a terminal (tui_run_terminal()) or nowhere
 * (tui_run_headless(), for tests and sanitizer runs).  Keys are plain
 * ints: Unicode code points for characters, TUI_KEY_* for the rest.
 *
 * Nothing here prints to stdout/stderr or exits; errors are returned.
 */
#ifndef SR_TUI_TUI_H
#define SR_TUI_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "canvas.h"
#include "store.h"
#include "util/err.h"

enum tui_key {
	TUI_KEY_UP = 0x110000,
	TUI_KEY_DOWN,
	TUI_KEY_LEFT,
	TUI_KEY_RIGHT,
	TUI_KEY_PGUP,
	TUI_KEY_PGDN,
	TUI_KEY_HOME,
	TUI_KEY_END,
	TUI_KEY_ENTER,
	TUI_KEY_ESC,
	TUI_KEY_TAB,
	TUI_KEY_BTAB,
	TUI_KEY_BACKSPACE,
	TUI_KEY_RESIZE,
};

/**
 * struct tui_key_ev - one key of a script
 * @key:  a code point or enum tui_key
 * @w, @h: the new size, for TUI_KEY_RESIZE
 */
struct tui_key_ev {
	int	key;
	int	w;
	int	h;
};

/**
 * tui_keys_parse() - parse a key script
 * @script: whitespace-separated tokens; a token is a key name (Up, Down,
 *          Left, Right, PgUp, PgDn, Home, End, Enter, Esc, Tab, BTab,
 *          BSpace, Space, Resize:WxH) or characters typed one by one
 * @out:    set to an owned array (free())
 * @n:      set to its length
 * @err:    what is wrong with the script
 * Return: 0, -SR_EUSAGE, or -ENOMEM.
 */
int tui_keys_parse(const char *script, struct tui_key_ev **out, size_t *n, struct err *err);

/** tui_key_name() - "Down", "j", ... for messages and tests.  Return: @buf. */
const char *tui_key_name(int key, char *buf, size_t len);

/* Sort orders of the decision list */
enum tui_sort {
	TUI_SORT_TIME = 0,	/* trace order */
	TUI_SORT_COST,		/* |cost delta|, largest first; rows without cost last */
	TUI_SORT_TASK,		/* comm, then tid, then time */
	TUI_SORT__COUNT
};

/**
 * struct tui_list - the decisions the list shows: a filter and a sort over
 * the store, as an array of row indices, with the cursor
 * @idx, @nr:     row indices shown, in order
 * @gen:          bumped at each rebuild (views cache on it)
 * @disagree_only: 'd'
 * @need:         TUI_ROW_* bits a row must have: TUI_ROW_UNKNOWN ('u'),
 *                TUI_ROW_LOST ('w'), TUI_ROW_UNSEEN ('o')
 * @task_on, @task: only the decisions of task @task (a tid; 't')
 * @cls:          class filter, -1 for all ('c')
 * @range, @t0, @t1: time range filter, inclusive (timeline)
 * @src_node, @dst_node: node pair filter, -1 for any (matrix)
 * @sort:         enum tui_sort
 * @search:       the last search: comm substring, or a tid when all digits
 * @cursor, @top: selected position in @idx and the first one on screen
 */
struct tui_list {
	const struct tui_store	*store;
	uint32_t		*idx;
	size_t			nr;
	size_t			alloc;
	uint64_t		gen;
	bool			disagree_only;
	unsigned int		need;
	bool			task_on;
	int32_t			task;
	int			cls;
	bool			range;
	uint64_t		t0;
	uint64_t		t1;
	int			src_node;
	int			dst_node;
	int			sort;
	char			search[64];
	size_t			cursor;
	size_t			top;
};

/** tui_list_init() - a list over @store with no filter, sorted by time */
void tui_list_init(struct tui_list *l, const struct tui_store *store);

/** tui_list_release() - free the index */
void tui_list_release(struct tui_list *l);

/** tui_list_filter_pass() - whether row @r passes the filters (time range included) */
bool tui_list_filter_pass(const struct tui_list *l, const struct tui_row *r, bool use_range);

/**
 * tui_list_rebuild() - apply the filters and the sort again
 *
 * The cursor stays on the row it was on when that row is still shown,
 * otherwise on the nearest position.
 * Return: 0, or -ENOMEM (the list keeps its old contents).
 */
int tui_list_rebuild(struct tui_list *l);

/**
 * tui_list_extend() - take the rows the store gained since the list was
 * built (@from and on): appended in place when sorted by time, otherwise
 * the list is rebuilt
 * Return: 0, or -ENOMEM.
 */
int tui_list_extend(struct tui_list *l, size_t from);

/** tui_list_filtered() - whether any filter is on */
bool tui_list_filtered(const struct tui_list *l);

/**
 * tui_list_next_flag() - the next (@dir > 0) or previous row position after
 * @from whose row has @flag, without wrapping
 * Return: its position, or -1.
 */
long tui_list_next_flag(const struct tui_list *l, size_t from, int dir, unsigned int flag);

/** tui_list_row() - the row at position @pos.  Return: borrowed, NULL past the end. */
const struct tui_row *tui_list_row(const struct tui_list *l, size_t pos);

/** tui_list_match() - whether @r matches the search (false with no search) */
bool tui_list_match(const struct tui_list *l, const struct tui_row *r);

/**
 * tui_list_find() - the next match of the search after (@dir > 0) or before
 * (@dir < 0) position @from, wrapping around; @from itself is tried last
 * Return: its position, or -1 when nothing matches.
 */
long tui_list_find(const struct tui_list *l, size_t from, int dir);

/** tui_list_move() - move the cursor by @delta, clamped, keeping it in a window of @rows */
void tui_list_move(struct tui_list *l, long delta, int rows);

/** tui_sort_name() - "time", "cost", "task" */
const char *tui_sort_name(int sort);

/* What a key did, for the loop to decide what to repaint (htop's reactions). */
#define TUI_REDRAW_LINE	(1u << 0)	/* the cursor moved within the screen */
#define TUI_REDRAW_VIEW	(1u << 1)	/* repaint the view */
#define TUI_RECOMPUTE	(1u << 2)	/* filters or sort changed: rebuild the list */
#define TUI_QUIT	(1u << 3)

/**
 * struct tui_app_opts - how the app looks
 * @color: the backend has colors (the views do not care; kept for the header)
 */
struct tui_app_opts {
	bool	ascii;
	bool	color;
};

struct tui_app;

/**
 * tui_app_new() - the browser over @store
 * @store: borrowed; must outlive the app
 * Return: owned (tui_app_free()), or NULL on allocation failure.
 */
struct tui_app *tui_app_new(const struct tui_store *store, const struct tui_app_opts *o);

/** tui_app_free() - free (NULL is fine) */
void tui_app_free(struct tui_app *a);

/**
 * tui_app_resize() - lay the screen out for @w x @h
 * Return: 0, or -ENOMEM.
 */
int tui_app_resize(struct tui_app *a, int w, int h);

/**
 * tui_app_key() - handle one key
 * Return: TUI_* flags.  TUI_RECOMPUTE has already been acted on.
 */
unsigned int tui_app_key(struct tui_app *a, int key);

/**
 * tui_app_draw() - draw the screen into the canvas
 * @full: false to repaint only what a TUI_REDRAW_LINE change needs
 */
void tui_app_draw(struct tui_app *a, bool full);

/** tui_app_canvas() - the canvas.  Return: borrowed. */
struct tui_canvas *tui_app_canvas(struct tui_app *a);

/** tui_app_list() - the list.  Return: borrowed. */
struct tui_list *tui_app_list(struct tui_app *a);

/**
 * tui_app_poll() - take what the loader added since the last call (hold
 * the store's lock)
 * Return: true when the screen should be drawn again.
 */
bool tui_app_poll(struct tui_app *a);

/** tui_app_lock() - hold the store still while keys are handled and the screen drawn */
void tui_app_lock(struct tui_app *a);
void tui_app_unlock(struct tui_app *a);

/** tui_app_view_name() - "list", "detail", "matrix", "timeline" (and "help" on top) */
const char *tui_app_view_name(const struct tui_app *a);

/**
 * struct tui_run_opts - what a run does besides reading keys
 * @keys, @nr_keys: keys handled first (a script), then the terminal's
 * @frames:  stop after this many frames drawn, 0 for no limit
 * @w, @h:   canvas size of a headless run
 * @dump:    a headless run writes its last canvas here (NULL: not)
 * @styles:  the dump includes the style letters
 * @color:   the terminal may use colors (false for NO_COLOR / --no-color)
 */
struct tui_run_opts {
	const struct tui_key_ev	*keys;
	size_t			nr_keys;
	unsigned long		frames;
	int			w;
	int			h;
	FILE			*dump;
	bool			styles;
	bool			color;
};

/**
 * tui_run_headless() - run the keys against a canvas, no terminal
 * Return: 0, or a negative code.
 */
int tui_run_headless(struct tui_app *a, const struct tui_run_opts *o);

/**
 * tui_run_terminal() - run on the terminal until the user quits
 *
 * Sets up curses on stdin/stdout and always restores the terminal.
 * Return: 0, or a negative code (-ENOTTY when there is no terminal).
 */
int tui_run_terminal(struct tui_app *a, const struct tui_run_opts *o);

#endif
