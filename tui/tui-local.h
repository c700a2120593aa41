/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tui-local.h - the app's insides and the view ops table, shared by app.c
 * and the view-*.c files.  Private to tui/ (and its unit tests).
 *
 * Screen layout (rows):
 *   0..2      header: trace, policies, the summary's counts and cost (app.c)
 *   3..h-3    the body: the current view
 *   h-2       status line: view, position, sort, filters, loading, message
 *             or the search prompt
 *   h-1       key bar: the main keys (htop's function-key bar)
 * The help is drawn over the body and scrolls.
 */
#ifndef SR_TUI_TUI_LOCAL_H
#define SR_TUI_TUI_LOCAL_H

#include "tui.h"

#define TUI_HEADER_ROWS	3
#define TUI_MIN_W	40
#define TUI_MIN_H	10

enum tui_view_id {
	TUI_VIEW_LIST = 0,
	TUI_VIEW_DETAIL,
	TUI_VIEW_MATRIX,
	TUI_VIEW_TIMELINE,
	TUI_VIEW_HELP,
	TUI__VIEWS
};

struct tui_app;

/**
 * struct tui_view_ops - one view (tmux window_mode, htop PanelClass)
 * @name:   shown in the status line
 * @init:   set the view's state up; NULL: nothing to set up
 * @free:   release it; NULL: nothing to release
 * @resize: the body changed size; NULL: nothing to do
 * @draw:   draw the body rows [y, y + h) of the canvas; @full false means
 *          only a cursor move happened since the last draw
 * @key:    handle a key; returns TUI_* flags, 0 when the key is not the
 *          view's (the app then treats it as a global key)
 */
struct tui_view_ops {
	const char	*name;
	int		(*init)(struct tui_app *a);
	void		(*free)(struct tui_app *a);
	void		(*resize)(struct tui_app *a);
	void		(*draw)(struct tui_app *a, int y, int h, bool full);
	unsigned int	(*key)(struct tui_app *a, int key);
};

extern const struct tui_view_ops tui_view_list;
extern const struct tui_view_ops tui_view_detail;
extern const struct tui_view_ops tui_view_matrix;
extern const struct tui_view_ops tui_view_timeline;
extern const struct tui_view_ops tui_view_help;

/* Matrix modes */
enum tui_matrix_mode {
	TUI_MATRIX_MIGRATIONS = 0,
	TUI_MATRIX_DISAGREE,
	TUI_MATRIX_COST,
	TUI_MATRIX__MODES
};

/**
 * struct tui_list_cols - column widths of the decision list (0: hidden)
 */
struct tui_list_cols {
	int	mark;
	int	time;
	int	cls;
	int	task;
	int	tid;
	int	cpu;
	int	node;
	int	old;
	int	new_;
	int	cost;
};

/**
 * tui_list_layout() - the columns of the decision list for a width
 * @w: the canvas width
 * The task column grows with the width (up to 24); below 80 columns the
 * node, then the tid, then the cost column are dropped.
 */
void tui_list_layout(struct tui_list_cols *c, int w);

struct tui_app {
	const struct tui_store	*store;
	struct tui_list		list;
	struct tui_canvas	canvas;
	struct tui_app_opts	opts;
	int			view;		/* enum tui_view_id */
	int			back;		/* where Esc/q goes from detail */
	bool			help;
	int			help_scroll;
	bool			prompt;
	char			prompt_buf[64];
	size_t			prompt_len;
	char			msg[160];
	int			body_y;
	int			body_h;
	/* loading: what the list has taken of the store */
	size_t			seen_rows;
	uint64_t		seen_order;
	double			last_rebuild;
	struct tui_progress	prog;
	bool			auto_all;	/* the opening filter was dropped for lack of disagreements */
	/* list view */
	struct tui_list_cols	cols;
	size_t			drawn_cursor;
	size_t			drawn_top;
	uint64_t		drawn_gen;
	bool			drawn_valid;
	/* detail view */
	int			detail_scroll;
	int			detail_lines;
	/* matrix view */
	int			matrix_mode;
	int			matrix_y;
	int			matrix_x;
	uint64_t		matrix_gen;
	int64_t			*matrix;	/* [src][dst], TUI_MAX_NODES^2 */
	bool			matrix_any_cost;
	/* timeline view */
	int			tl_cursor;
	int			tl_mark;	/* -1: no range being marked */
	int			tl_buckets;
	uint64_t		tl_gen;
	uint64_t		*tl_count;
	uint64_t		*tl_dis;
	int64_t			*tl_cost;
	bool			tl_any_cost;
};

/** tui_app_body_rows() - rows the list shows (the body minus its title row) */
int tui_app_body_rows(const struct tui_app *a);

/** tui_app_set_view() - switch view (the detail remembers where it came from) */
void tui_app_set_view(struct tui_app *a, int view);

/** tui_format_time() - "7574.153468" */
void tui_format_time(char *buf, size_t len, uint64_t ts_ns);

/** tui_format_milli() - thousandths as "+12.3" (@sign) or "12.3" */
void tui_format_milli(char *buf, size_t len, int64_t v, bool sign);

/** tui_help_lines() - the help text, and how many lines it has */
const char *const *tui_help_lines(int *n);

/** tui_format_cost() - "+12.3", "-0.5", "+0.0", or "-" for a row without cost */
void tui_format_cost(char *buf, size_t len, const struct tui_row *r);

/** tui_verdict_style() - TUI_ST_ALLOW/RESIST/UNKNOWN/DIM for a verdict */
int tui_verdict_style(const struct tui_verdict *v);

#endif
