/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * canvas.h - the in-memory screen the views draw into.
 *
 * A canvas is a grid of cells, each one Unicode code point and one style.
 * Views never call curses: they draw here, and backend-ncurses.c copies
 * the canvas to the terminal (tmux's screen / tty split).  Tests dump a
 * canvas as text and compare it with a golden file.
 *
 * Untrusted bytes (task names, paths from a trace) go through
 * tui_canvas_put_untrusted(), which escapes them first (util/escape.h):
 * nothing placed in a cell is a control character.
 */
#ifndef SR_TUI_CANVAS_H
#define SR_TUI_CANVAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The cell right of a double-width character holds this. */
#define TUI_CELL_CONT	0xffffffffu

/*
 * Styles: semantic, mapped to colors or to monochrome attributes by the
 * backend.  X(ID, dump letter).
 */
#define TUI_STYLES(X)		\
	X(NORMAL, ' ')		\
	X(HEADER, 'H')		\
	X(TITLE, 'T')		\
	X(SELECT, 'S')		\
	X(DISAGREE, 'D')	\
	X(DIM, 'd')		\
	X(ALLOW, 'a')		\
	X(RESIST, 'r')		\
	X(UNKNOWN, 'u')		\
	X(BAR, 'B')		\
	X(BAR2, 'b')		\
	X(HEAT0, '0')		\
	X(HEAT1, '1')		\
	X(HEAT2, '2')		\
	X(HEAT3, '3')		\
	X(HEAT4, '4')		\
	X(STATUS, 'L')		\
	X(MATCH, 'M')		\
	X(KEY, 'K')

#define TUI_STYLE_ENUM_(id, c)	TUI_ST_##id,
enum tui_style {
	TUI_STYLES(TUI_STYLE_ENUM_)
	TUI_ST__COUNT
};
#undef TUI_STYLE_ENUM_

struct tui_cell {
	uint32_t	ch;
	uint8_t		style;
};

/**
 * struct tui_canvas - a grid of @w x @h cells
 * @ascii: draw bars and lines with ASCII only (no UTF-8 terminal)
 */
struct tui_canvas {
	int		w;
	int		h;
	bool		ascii;
	struct tui_cell	*cells;
};

/**
 * tui_canvas_resize() - set the size; the contents are cleared
 * Return: 0, or -ENOMEM (the canvas keeps its old size).
 */
int tui_canvas_resize(struct tui_canvas *c, int w, int h);

/** tui_canvas_release() - free the cells of an embedded canvas */
void tui_canvas_release(struct tui_canvas *c);

/** tui_canvas_cell() - the cell at (@y, @x).  Return: borrowed, NULL when outside. */
struct tui_cell *tui_canvas_cell(struct tui_canvas *c, int y, int x);

/** tui_canvas_fill() - set @n cells of row @y from @x to @ch in @style */
void tui_canvas_fill(struct tui_canvas *c, int y, int x, int n, uint32_t ch, int style);

/** tui_canvas_style() - restyle @n cells of row @y from @x, keeping their text */
void tui_canvas_style(struct tui_canvas *c, int y, int x, int n, int style);

/**
 * tui_canvas_put() - write trusted UTF-8 text at (@y, @x), at most @maxw columns
 * @s: program text (never bytes from a trace); invalid UTF-8 shows as '?'
 * Return: columns written.
 */
int tui_canvas_put(struct tui_canvas *c, int y, int x, int maxw, int style, const char *s);

/** tui_canvas_printf() - tui_canvas_put() of a formatted string (up to 512 bytes) */
int tui_canvas_printf(struct tui_canvas *c, int y, int x, int maxw, int style, const char *fmt,
		      ...) __attribute__((format(printf, 6, 7)));

/**
 * tui_canvas_put_untrusted() - write untrusted bytes, escaped
 * @s, @len: the bytes (stop at NUL or @len)
 * Return: columns written.
 */
int tui_canvas_put_untrusted(struct tui_canvas *c, int y, int x, int maxw, int style,
			     const char *s, size_t len);

/** tui_text_width() - columns trusted UTF-8 text takes */
int tui_text_width(const char *s);

/** tui_canvas_glyph() - the UTF-8 glyph, or its ASCII stand-in on an ASCII canvas */
const char *tui_canvas_glyph(const struct tui_canvas *c, const char *utf8, const char *ascii);

/**
 * tui_canvas_dump() - write the canvas as text: @h lines of cells, then,
 * with @styles, a line "--" and @h lines of style letters (TUI_STYLES)
 * Return: 0, or -EIO.
 */
int tui_canvas_dump(const struct tui_canvas *c, FILE *f, bool styles);

#endif
