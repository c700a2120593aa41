/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report-json-write.h - the serializer of report-json-write.c as a stream:
 * a value written member by member, with no tree, in the bytes
 * report_json_dumpf() would write for the same tree.  For the outputs that
 * write one object per decision, a million times (report-decision-write.c).
 *
 * The caller writes an object's keys in the order JSON_SORT_KEYS gives
 * (bytes, then length: "kernel" before "kernel_verdict"); nothing here
 * checks it: tests/unit/check-session.c compares report-decision-write.c's
 * objects with the sorted trees they stand for.  Keys are plain ASCII the
 * caller spells; string values are escaped as report_json_dumpf() escapes
 * them.
 */
#ifndef SR_REPORT_REPORT_JSON_WRITE_H
#define SR_REPORT_REPORT_JSON_WRITE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "report.h"

#define REPORT_JW_MAX_DEPTH	16

/**
 * struct report_jw - a serializer's state, for report-json-write.c and
 * the inline calls below only; a caller reads @buf and @len of an
 * in-memory one (@f NULL) after report_jw_end()
 *
 * About 17 KiB: a stack variable for one document or line.
 */
struct report_jw {
	FILE				*f;
	size_t				flags;
	int				indent;
	int				err;
	const struct report_json_hole	*hole;
	uint64_t			total;	/* bytes handed to @f */
	/* the stream: containers open, below the value at depth @base */
	int				base;
	int				open;
	bool				compact;	/* JSON_COMPACT, no indent */
	bool				first;	/* the innermost container has no member yet */
	char				fast;	/* compact: the innermost container's kind, else 0 */
	char				lvl[REPORT_JW_MAX_DEPTH];	/* '{' or '[' */
	size_t				len;
	char				buf[16384];
};

/**
 * report_jw_begin() - start a value that will stand at @depth of a
 * document written with json_dumpf() @flags (JSON_SORT_KEYS is implied);
 * @f NULL: in memory only, @buf's 16 KiB at most (more is an error)
 */
void report_jw_begin(struct report_jw *w, FILE *f, size_t flags, int depth);

/**
 * report_jw_end() - flush what is left to @f
 * @written: out, may be NULL: the bytes written
 * Return: 0, or -1 when a write failed, a string was not UTF-8, a real was
 * not finite, or the containers did not balance.
 */
int report_jw_end(struct report_jw *w, uint64_t *written);

/*
 * report_jw_line_end() - end a line of NDJSON: a newline after a whole
 * value; the next value starts the next line (an error while a container
 * is open)
 */
void report_jw_line_end(struct report_jw *w);

/* @n bytes of UTF-8 */
void report_jw_string(struct report_jw *w, const char *s, size_t n);

/*
 * The rest are inline for compact output, the one form NDJSON writes, some
 * 60 calls a decision; each falls back on its _any_() function, which
 * writes every form.
 */
void report_jw_key_any_(struct report_jw *w, const char *quoted, size_t qlen);
void report_jw_cstring_any_(struct report_jw *w, const char *s);
void report_jw_open_any_(struct report_jw *w, char kind);
void report_jw_close_any_(struct report_jw *w);
void report_jw_null_any_(struct report_jw *w);
void report_jw_bool_any_(struct report_jw *w, bool v);
void report_jw_int_any_(struct report_jw *w, int64_t v);
void report_jw_raw_any_(struct report_jw *w, const char *text, size_t n);
void report_jw_real_any_(struct report_jw *w, double v);
extern const bool report_jw_plain_[256];

/* "00" to "99": the digits of a number below 100 */
extern const char report_jw_pairs_[200];

/* the digits of @v, written backwards ending at @end (REPORT_JW_INT_MAX bytes before it), two at a time */
#define REPORT_JW_INT_MAX	21
static inline char *report_jw_digits_(char *end, int64_t v)
{
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	const char *d;

	while (u >= 100) {
		d = report_jw_pairs_ + 2 * (u % 100);
		u /= 100;
		*--end = d[1];
		*--end = d[0];
	}
	if (u >= 10) {
		d = report_jw_pairs_ + 2 * u;
		*--end = d[1];
		*--end = d[0];
	} else {
		*--end = (char)('0' + u);
	}
	if (v < 0)
		*--end = '-';
	return end;
}

/*
 * Where a value of up to @n bytes goes in compact output, after an array's
 * comma; NULL when it is not compact output, not inside a container, or
 * the buffer is short: the caller's _any_() function then writes it.
 */
static inline char *report_jw_fast_(struct report_jw *w, size_t n)
{
	char *p;

	if (!w->fast || sizeof(w->buf) - w->len < n + 1)
		return NULL;
	p = w->buf + w->len;
	if (w->fast == '[') {
		*p = ',';
		p += !w->first;
		w->first = false;
	}
	return p;
}

/* the buffer filled up to @p */
static inline void report_jw_fast_end_(struct report_jw *w, char *p)
{
	w->len = (size_t)(p - w->buf);
}

/** report_jw_object(), report_jw_array() - open a container as the next value */
static inline void report_jw_open_(struct report_jw *w, char kind)
{
	char *p;

	if (w->open == REPORT_JW_MAX_DEPTH || !(p = report_jw_fast_(w, 1))) {
		report_jw_open_any_(w, kind);
		return;
	}
	w->lvl[w->open++] = kind;
	w->first = true;
	w->fast = kind;
	*p++ = kind;
	report_jw_fast_end_(w, p);
}

static inline void report_jw_object(struct report_jw *w)
{
	report_jw_open_(w, '{');
}

static inline void report_jw_array(struct report_jw *w)
{
	report_jw_open_(w, '[');
}

/** report_jw_close() - close the innermost container */
static inline void report_jw_close(struct report_jw *w)
{
	if (!w->fast || sizeof(w->buf) - w->len < 1) {
		report_jw_close_any_(w);
		return;
	}
	w->buf[w->len++] = w->fast == '{' ? '}' : ']';
	w->open--;
	w->first = false;	/* the container was its parent's member */
	w->fast = w->open ? w->lvl[w->open - 1] : 0;
}

/* the next value */
static inline void report_jw_null(struct report_jw *w)
{
	char *p = report_jw_fast_(w, 4);

	if (!p) {
		report_jw_null_any_(w);
		return;
	}
	memcpy(p, "null", 4);
	report_jw_fast_end_(w, p + 4);
}

static inline void report_jw_bool(struct report_jw *w, bool v)
{
	char *p = report_jw_fast_(w, 5);

	if (!p) {
		report_jw_bool_any_(w, v);
		return;
	}
	if (v) {
		memcpy(p, "true", 4);
		p += 4;
	} else {
		memcpy(p, "false", 5);
		p += 5;
	}
	report_jw_fast_end_(w, p);
}

static inline void report_jw_int(struct report_jw *w, int64_t v)
{
	/*
	 * The digits end mid-way through @tmp, so that a copy of
	 * REPORT_JW_INT_MAX bytes from the first (a few moves, where a copy
	 * of their number is a call to memcpy()) stays inside it.  What the
	 * copy takes past the digits (zeros: @tmp is set) lands in the
	 * buffer past the value, where the next write goes.
	 */
	char tmp[2 * REPORT_JW_INT_MAX] = { 0 };
	char *d = report_jw_digits_(tmp + REPORT_JW_INT_MAX, v);
	char *p = report_jw_fast_(w, REPORT_JW_INT_MAX);

	if (!p) {
		report_jw_int_any_(w, v);
		return;
	}
	memcpy(p, d, REPORT_JW_INT_MAX);
	report_jw_fast_end_(w, p + (tmp + REPORT_JW_INT_MAX - d));
}

/* as json_real(): @v must be finite; a zero (the most common) inline */
static inline void report_jw_real(struct report_jw *w, double v)
{
	char *p;

	if (v != 0.0 || signbit(v) || !(p = report_jw_fast_(w, 3))) {
		report_jw_real_any_(w, v);
		return;
	}
	memcpy(p, "0.0", 3);
	report_jw_fast_end_(w, p + 3);
}

/*
 * REPORT_JW_KEY(w, "name") - the next member's key, a literal of plain
 * ASCII, in sorted order; written as one copy of "\"name\":"
 */
#define REPORT_JW_KEY(w, lit)	report_jw_key_quoted((w), "\"" lit "\":", sizeof(lit) + 2)

/* the next member's key as it is written, "\"name\":" (@qlen bytes) */
static inline void report_jw_key_quoted(struct report_jw *w, const char *quoted, size_t qlen)
{
	char *p;

	if (w->fast != '{' || sizeof(w->buf) - w->len < qlen + 1) {
		report_jw_key_any_(w, quoted, qlen);
		return;
	}
	p = w->buf + w->len;
	*p = ',';
	p += !w->first;
	w->first = false;
	memcpy(p, quoted, qlen);
	w->len = (size_t)(p + qlen - w->buf);
}

/* a value already written (by a writer of the same flags and depth) */
static inline void report_jw_raw(struct report_jw *w, const char *text, size_t n)
{
	char *p = n < sizeof(w->buf) ? report_jw_fast_(w, n) : NULL;

	if (!p) {
		report_jw_raw_any_(w, text, n);
		return;
	}
	memcpy(p, text, n);
	report_jw_fast_end_(w, p + n);
}

/*
 * report_jw_plain() - @n bytes the caller found plain (report_jw_plain_[]
 * of each is true) as a string: copied between quotes
 */
static inline void report_jw_plain(struct report_jw *w, const char *s, size_t n)
{
	char *p = n < sizeof(w->buf) - 2 ? report_jw_fast_(w, n + 2) : NULL;

	if (!p) {
		report_jw_string(w, s, n);
		return;
	}
	*p = '"';
	memcpy(p + 1, s, n);
	p[n + 1] = '"';
	report_jw_fast_end_(w, p + n + 2);
}

/* report_jw_string() of a NUL-terminated string */
static inline void report_jw_cstring(struct report_jw *w, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t run = 0;

	/* a plain ASCII name: found and copied in one pass */
	while (report_jw_plain_[u[run]])
		run++;
	if (u[run]) {
		report_jw_cstring_any_(w, s);
		return;
	}
	report_jw_plain(w, s, run);
}

#endif
