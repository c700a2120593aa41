// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * canvas.c - the in-memory screen: cells of one code point and one style.
 *
 * Widths are decided here, not by the locale (tests must not depend on
 * it): East Asian wide and emoji ranges take two cells, combining marks
 * and other zero-width code points are shown as '?', everything else one.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "util/escape.h"

int tui_canvas_resize(struct tui_canvas *c, int w, int h)
{
	struct tui_cell *cells;
	size_t i, n;

	if (w < 1)
		w = 1;
	if (h < 1)
		h = 1;
	n = (size_t)w * (size_t)h;
	cells = realloc(c->cells, n * sizeof(*cells));
	if (!cells)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		cells[i].ch = ' ';
		cells[i].style = TUI_ST_NORMAL;
	}
	c->cells = cells;
	c->w = w;
	c->h = h;
	return 0;
}

void tui_canvas_release(struct tui_canvas *c)
{
	free(c->cells);
	c->cells = NULL;
	c->w = c->h = 0;
}

struct tui_cell *tui_canvas_cell(struct tui_canvas *c, int y, int x)
{
	if (y < 0 || x < 0 || y >= c->h || x >= c->w)
		return NULL;
	return &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
}

void tui_canvas_fill(struct tui_canvas *c, int y, int x, int n, uint32_t ch, int style)
{
	int i;

	for (i = 0; i < n; i++) {
		struct tui_cell *cell = tui_canvas_cell(c, y, x + i);

		if (!cell)
			break;
		cell->ch = ch;
		cell->style = (uint8_t)style;
	}
}

void tui_canvas_style(struct tui_canvas *c, int y, int x, int n, int style)
{
	int i;

	for (i = 0; i < n; i++) {
		struct tui_cell *cell = tui_canvas_cell(c, y, x + i);

		if (!cell)
			break;
		cell->style = (uint8_t)style;
	}
}

static int cp_width(uint32_t cp)
{
	if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || cp == 0xfeff ||
	    (cp >= 0xfe00 && cp <= 0xfe0f))
		return 0;
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
	    (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return 1;
}

/* Decode one UTF-8 character; returns its length, 0 at NUL, and '?' for a bad one. */
static size_t utf8_next(const char *s, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n, i;

	if (!u[0])
		return 0;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if ((u[0] & 0xe0) == 0xc0) {
		n = 2;
		*cp = u[0] & 0x1f;
	} else if ((u[0] & 0xf0) == 0xe0) {
		n = 3;
		*cp = u[0] & 0x0f;
	} else if ((u[0] & 0xf8) == 0xf0) {
		n = 4;
		*cp = u[0] & 0x07;
	} else {
		*cp = '?';
		return 1;
	}
	for (i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80) {
			*cp = '?';
			return i;
		}
		*cp = (*cp << 6) | (u[i] & 0x3f);
	}
	return n;
}

int tui_canvas_put(struct tui_canvas *c, int y, int x, int maxw, int style, const char *s)
{
	int col = 0;
	uint32_t cp;
	size_t n;

	if (y < 0 || y >= c->h)
		return 0;
	if (maxw < 0 || x + maxw > c->w)
		maxw = c->w - x;
	while ((n = utf8_next(s, &cp)) > 0) {
		int wd = cp < 0x20 || cp == 0x7f ? 0 : cp_width(cp);
		struct tui_cell *cell;

		s += n;
		if (wd == 0) {
			cp = '?';
			wd = 1;
		}
		if (col + wd > maxw)
			break;
		cell = tui_canvas_cell(c, y, x + col);
		if (!cell)
			break;
		cell->ch = cp;
		cell->style = (uint8_t)style;
		if (wd == 2) {
			cell = tui_canvas_cell(c, y, x + col + 1);
			if (cell) {
				cell->ch = TUI_CELL_CONT;
				cell->style = (uint8_t)style;
			}
		}
		col += wd;
	}
	return col;
}

int tui_canvas_printf(struct tui_canvas *c, int y, int x, int maxw, int style, const char *fmt,
		      ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return tui_canvas_put(c, y, x, maxw, style, buf);
}

int tui_canvas_put_untrusted(struct tui_canvas *c, int y, int x, int maxw, int style,
			     const char *s, size_t len)
{
	char buf[4 * 1024 + 1];

	escape_text(buf, sizeof(buf), s, len);
	return tui_canvas_put(c, y, x, maxw, style, buf);
}

int tui_text_width(const char *s)
{
	int col = 0;
	uint32_t cp;
	size_t n;

	while ((n = utf8_next(s, &cp)) > 0) {
		int wd = cp_width(cp);

		col += wd ? wd : 1;
		s += n;
	}
	return col;
}

const char *tui_canvas_glyph(const struct tui_canvas *c, const char *utf8, const char *ascii)
{
	return c->ascii ? ascii : utf8;
}

#define TUI_STYLE_CHAR_(id, ch)	ch,
static const char style_chars[TUI_ST__COUNT] = { TUI_STYLES(TUI_STYLE_CHAR_) };
#undef TUI_STYLE_CHAR_

static void put_utf8(FILE *f, uint32_t cp)
{
	if (cp < 0x80) {
		fputc((int)cp, f);
	} else if (cp < 0x800) {
		fputc((int)(0xc0 | (cp >> 6)), f);
		fputc((int)(0x80 | (cp & 0x3f)), f);
	} else if (cp < 0x10000) {
		fputc((int)(0xe0 | (cp >> 12)), f);
		fputc((int)(0x80 | ((cp >> 6) & 0x3f)), f);
		fputc((int)(0x80 | (cp & 0x3f)), f);
	} else {
		fputc((int)(0xf0 | (cp >> 18)), f);
		fputc((int)(0x80 | ((cp >> 12) & 0x3f)), f);
		fputc((int)(0x80 | ((cp >> 6) & 0x3f)), f);
		fputc((int)(0x80 | (cp & 0x3f)), f);
	}
}

int tui_canvas_dump(const struct tui_canvas *c, FILE *f, bool styles)
{
	int y, x, end;

	for (y = 0; y < c->h; y++) {
		const struct tui_cell *row = &c->cells[(size_t)y * (size_t)c->w];

		for (end = c->w; end > 0 && row[end - 1].ch == ' '; end--)
			;
		for (x = 0; x < end; x++)
			if (row[x].ch != TUI_CELL_CONT)
				put_utf8(f, row[x].ch);
		fputc('\n', f);
	}
	if (styles) {
		fputs("--\n", f);
		for (y = 0; y < c->h; y++) {
			const struct tui_cell *row = &c->cells[(size_t)y * (size_t)c->w];

			for (end = c->w; end > 0 && row[end - 1].style == TUI_ST_NORMAL; end--)
				;
			for (x = 0; x < end; x++)
				fputc(row[x].style < TUI_ST__COUNT ? style_chars[row[x].style] : '?', f);
			fputc('\n', f);
		}
	}
	return fflush(f) == EOF || ferror(f) ? -EIO : 0;
}
