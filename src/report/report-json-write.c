// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report-json-write.c - the serializer behind report_json_dumpf().
 *
 * json_dump_callback() costs more than building the tree it writes: for
 * every array and object it checks for cycles in a hash table keyed by a
 * printed pointer, it sorts an object's keys with qsort() into a fresh
 * allocation, it formats every integer with snprintf(), and it hands the
 * text over a few bytes at a time, which report_json_dumpf() then had to
 * scan again to escape DEL, C1 and the bidi controls.  On a replay that
 * lists a million wake-ups as NDJSON that was most of the run
 * (docs/performance.md).
 *
 * This writes the same bytes in one pass, for the flags the reports use:
 * JSON_SORT_KEYS (always: keys come out in byte order, as Jansson's
 * comparison of bytes then lengths gives, whatever order they were set
 * in), JSON_COMPACT, JSON_INDENT(n) and JSON_REAL_PRECISION(p).  The trees
 * are ours and acyclic, so there is no cycle check.  Strings are escaped
 * as Jansson escapes them (\" \\ \b \f \n \r \t, other C0 as \u00XX) and,
 * in the same pass DEL, C1 and the bidi controls (escape_unsafe_cp()) as
 * \u00xx, which Jansson lets through; a string that is not well-formed UTF-8 fails the
 * dump, as in Jansson.  A real is printed by Jansson itself (json_dumpb()),
 * so its digits are what the installed Jansson writes (the build may use
 * dtoa or printf), but for a whole number of at most min(precision, 15)
 * digits, which both write as its digits and ".0".  A "hole"
 * (report_json_dumpf_hole()) is an array the caller writes item by item,
 * already serialized.
 *
 * The same writer also runs as a stream (report-json-write.h): a value
 * written member by member with no tree, the caller keeping the keys in
 * sorted order, for the one object per decision that NDJSON and the --json
 * spill write (report-decision-write.c).
 *
 * tests/unit/check-util.c compares it on random trees with Jansson's
 * output escaped afterwards; check-session.c the stream with the tree.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report-json-write.h"
#include "util/escape.h"

#define JW_FLAG_INDENT(f)	((int)((f) & 0x1f))

static const double exp10_int[15] = {
	1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
};

static void jw_flush(struct report_jw *w)
{
	if (w->len && !w->f) {
		w->err = -1;	/* in memory, and out of room */
		w->len = 0;
		return;
	}
	if (w->len && !w->err && fwrite(w->buf, 1, w->len, w->f) != w->len)
		w->err = -1;
	w->total += w->len;
	w->len = 0;
}

/* room for @n more bytes (n <= sizeof(buf)) */
static inline char *jw_room(struct report_jw *w, size_t n)
{
	if (sizeof(w->buf) - w->len < n)
		jw_flush(w);
	return w->buf + w->len;
}

static inline void jw_put(struct report_jw *w, const char *s, size_t n)
{
	memcpy(jw_room(w, n), s, n);
	w->len += n;
}

/* any number of bytes, a buffer at a time */
static void jw_put_long(struct report_jw *w, const char *s, size_t n)
{
	while (n) {
		size_t take = n < sizeof(w->buf) ? n : sizeof(w->buf);

		jw_put(w, s, take);
		s += take;
		n -= take;
	}
}

static void jw_newline(struct report_jw *w, int depth)
{
	size_t n = (size_t)w->indent * (size_t)depth;
	char *p;

	if (n > sizeof(w->buf) - 1)
		n = sizeof(w->buf) - 1;	/* a depth no report has */
	p = jw_room(w, n + 1);
	*p = '\n';
	memset(p + 1, ' ', n);
	w->len += n + 1;
}

static void jw_int(struct report_jw *w, json_int_t v)
{
	char tmp[REPORT_JW_INT_MAX], *p = report_jw_digits_(tmp + sizeof(tmp), v);

	jw_put(w, p, (size_t)(tmp + sizeof(tmp) - p));
}

/* @v as Jansson prints a real; @j: @v as a json_t when the caller has one */
static int jw_real(struct report_jw *w, double v, const json_t *j)
{
	int prec = (int)(w->flags >> 11 & 0x1f);
	json_t *own = NULL;
	char tmp[128];
	size_t n;

	/*
	 * A whole number of at most min(precision, 15) digits: its digits and
	 * ".0", which is what printf's %.*g and dtoa both give (-0.0 is left
	 * to Jansson).
	 */
	if (fabs(v) < (prec && prec < 15 ? exp10_int[prec] : 1e15) && v == trunc(v) && v != 0.0) {
		jw_int(w, (json_int_t)v);
		jw_put(w, ".0", 2);
		return 0;
	}
	if (v == 0.0 && !signbit(v)) {
		jw_put(w, "0.0", 3);
		return 0;
	}
	if (!j && !(j = own = json_real(v)))
		return -1;	/* not finite (json_real() refuses it), or out of memory */
	n = json_dumpb(j, tmp, sizeof(tmp), JSON_ENCODE_ANY | (w->flags & JSON_REAL_PRECISION(31)));
	json_decref(own);
	if (!n || n > sizeof(tmp))
		return -1;
	jw_put(w, tmp, n);
	return 0;
}

static const char hexup[] = "0123456789ABCDEF";
static const char hexlo[] = "0123456789abcdef";

static void jw_u(struct report_jw *w, uint32_t cp, const char *hex)
{
	char *p = jw_room(w, 6);

	p[0] = '\\';
	p[1] = 'u';
	p[2] = hex[cp >> 12 & 0xf];
	p[3] = hex[cp >> 8 & 0xf];
	p[4] = hex[cp >> 4 & 0xf];
	p[5] = hex[cp & 0xf];
	w->len += 6;
}

const char report_jw_pairs_[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* the bytes a string holds as they are: printable ASCII but " and \\ */
const bool report_jw_plain_[256] = {
	[0x20 ... 0x21] = true,		/* '"' is 0x22 */
	[0x23 ... 0x5b] = true,		/* '\\' is 0x5c */
	[0x5d ... 0x7e] = true,
};

static int jw_string(struct report_jw *w, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run, len;
	uint32_t cp;

	jw_put(w, "\"", 1);
	while (i < n) {
		/* plain ASCII, copied as it is */
		for (run = i; run < n && report_jw_plain_[s[run]]; run++)
			;
		jw_put_long(w, str + i, run - i);
		i = run;
		if (i == n)
			break;
		if (s[i] < 0x80) {
			switch (s[i]) {
			case '"':  jw_put(w, "\\\"", 2); break;
			case '\\': jw_put(w, "\\\\", 2); break;
			case '\b': jw_put(w, "\\b", 2); break;
			case '\f': jw_put(w, "\\f", 2); break;
			case '\n': jw_put(w, "\\n", 2); break;
			case '\r': jw_put(w, "\\r", 2); break;
			case '\t': jw_put(w, "\\t", 2); break;
			default:
				/* C0 as Jansson writes it, DEL in lower case as C1 */
				jw_u(w, s[i], s[i] == 0x7f ? hexlo : hexup);
				break;
			}
			i++;
			continue;
		}
		len = escape_utf8_seq(s + i, n - i, &cp);
		if (!len)
			return -1;
		if (escape_unsafe_cp(cp))
			jw_u(w, cp, hexlo);
		else
			jw_put(w, str + i, len);
		i += len;
	}
	jw_put(w, "\"", 1);
	return 0;
}

struct jw_key {
	const char *key;
	size_t len;
	json_t *value;
};

static int key_cmp(const void *a, const void *b)
{
	const struct jw_key *x = a, *y = b;
	size_t i, n = x->len < y->len ? x->len : y->len;

	/* keys are short: a byte loop beats a call to memcmp() */
	for (i = 0; i < n; i++)
		if (x->key[i] != y->key[i])
			return (unsigned char)x->key[i] - (unsigned char)y->key[i];
	return x->len < y->len ? -1 : x->len > y->len;
}

static void keys_sort(struct jw_key *k, size_t n)
{
	struct jw_key t;
	size_t i, j;

	if (n > 24) {
		qsort(k, n, sizeof(*k), key_cmp);
		return;
	}
	for (i = 1; i < n; i++) {
		t = k[i];
		for (j = i; j > 0 && key_cmp(&k[j - 1], &t) > 0; j--)
			k[j] = k[j - 1];
		k[j] = t;
	}
}

static int jw_value(struct report_jw *w, const json_t *j, int depth);

/* what comes before the @i-th member of a container at @depth */
static void jw_sep(struct report_jw *w, size_t i, int depth)
{
	if (i) {
		jw_put(w, ",", 1);
		if (!w->indent && !(w->flags & JSON_COMPACT))
			jw_put(w, " ", 1);
	}
	if (w->indent)
		jw_newline(w, depth + 1);
}

/* the end of a container of @n members at @depth: "]" or "}" */
static void jw_close(struct report_jw *w, size_t n, int depth, const char *end)
{
	if (n && w->indent)
		jw_newline(w, depth);
	jw_put(w, end, 1);
}

static int jw_object(struct report_jw *w, const json_t *j, int depth)
{
	struct jw_key stack[32], *keys = stack;
	size_t n = json_object_size(j), i = 0;
	void *it;
	int ret = 0;

	if (n > sizeof(stack) / sizeof(stack[0])) {
		keys = malloc(n * sizeof(*keys));
		if (!keys)
			return -1;
	}
	for (it = json_object_iter((json_t *)j); it && i < n;
	     it = json_object_iter_next((json_t *)j, it), i++) {
		keys[i].key = json_object_iter_key(it);
		keys[i].len = json_object_iter_key_len(it);
		keys[i].value = json_object_iter_value(it);
	}
	n = i;
	keys_sort(keys, n);
	jw_put(w, "{", 1);
	for (i = 0; i < n && !ret; i++) {
		jw_sep(w, i, depth);
		ret = jw_string(w, keys[i].key, keys[i].len);
		if (!ret) {
			if (w->flags & JSON_COMPACT)
				jw_put(w, ":", 1);
			else
				jw_put(w, ": ", 2);
			ret = jw_value(w, keys[i].value, depth + 1);
		}
	}
	if (!ret)
		jw_close(w, n, depth, "}");
	if (keys != stack)
		free(keys);
	return ret;
}

static int jw_array(struct report_jw *w, const json_t *j, int depth)
{
	size_t n = json_array_size(j), i;

	jw_put(w, "[", 1);
	for (i = 0; i < n; i++) {
		jw_sep(w, i, depth);
		if (jw_value(w, json_array_get(j, i), depth + 1))
			return -1;
	}
	jw_close(w, n, depth, "]");
	return 0;
}

/* the caller's items, each written already at depth + 1, as an array */
static int jw_hole(struct report_jw *w, int depth)
{
	const struct report_json_hole *h = w->hole;
	const char *text;
	size_t i, n;
	int r;

	jw_put(w, "[", 1);
	for (i = 0; (r = h->next(h->arg, &text, &n)) > 0; i++) {
		jw_sep(w, i, depth);
		jw_put_long(w, text, n);
	}
	if (r < 0)
		return -1;
	jw_close(w, i, depth, "]");
	return 0;
}

static int jw_value(struct report_jw *w, const json_t *j, int depth)
{
	if (!j)
		return -1;
	if (w->hole && j == w->hole->at)
		return jw_hole(w, depth);
	switch (json_typeof(j)) {
	case JSON_NULL:
		jw_put(w, "null", 4);
		return 0;
	case JSON_TRUE:
		jw_put(w, "true", 4);
		return 0;
	case JSON_FALSE:
		jw_put(w, "false", 5);
		return 0;
	case JSON_INTEGER:
		jw_int(w, json_integer_value(j));
		return 0;
	case JSON_REAL:
		return jw_real(w, json_real_value(j), j);
	case JSON_STRING:
		return jw_string(w, json_string_value(j), json_string_length(j));
	case JSON_ARRAY:
		return jw_array(w, j, depth);
	case JSON_OBJECT:
		return jw_object(w, j, depth);
	}
	return -1;
}

static int dump(const json_t *root, FILE *f, size_t flags, int depth,
		const struct report_json_hole *hole, uint64_t *written)
{
	struct report_jw w;	/* 16 KiB on the stack, for one document or line */
	int ret;

	if (!json_is_object(root) && !json_is_array(root))
		return -1;	/* as json_dumpf() without JSON_ENCODE_ANY */
	report_jw_begin(&w, f, flags, depth);
	w.hole = hole;
	ret = jw_value(&w, root, depth);
	jw_flush(&w);
	if (w.err)
		ret = -1;
	if (written)
		*written = w.total;
	return ret;
}

int report_json_dumpf(const json_t *root, FILE *f, size_t flags)
{
	return dump(root, f, flags, 0, NULL, NULL);
}

int report_json_dump_at(const json_t *root, FILE *f, size_t flags, int depth, uint64_t *written)
{
	return dump(root, f, flags, depth, NULL, written);
}

int report_json_dumpf_hole(const json_t *root, FILE *f, size_t flags,
			   const struct report_json_hole *hole)
{
	return dump(root, f, flags, 0, hole, NULL);
}

/* ---- the stream ------------------------------------------------------------ */

void report_jw_begin(struct report_jw *w, FILE *f, size_t flags, int depth)
{
	w->f = f;
	w->flags = flags | JSON_SORT_KEYS;
	w->indent = JW_FLAG_INDENT(flags);
	w->err = 0;
	w->hole = NULL;
	w->total = 0;
	w->base = depth;
	w->open = 0;
	w->compact = !w->indent && (flags & JSON_COMPACT);
	w->first = false;
	w->fast = 0;
	w->len = 0;
}

int report_jw_end(struct report_jw *w, uint64_t *written)
{
	if (w->open)
		w->err = -1;
	if (w->f)
		jw_flush(w);
	if (written)
		*written = w->total;
	return w->err ? -1 : 0;
}

void report_jw_line_end(struct report_jw *w)
{
	if (w->open)
		w->err = -1;
	jw_put(w, "\n", 1);
}

/* before a value: an array's separator (an object's came with the key) */
static inline void jw_item(struct report_jw *w)
{
	int top = w->open - 1;

	if (top >= 0 && w->lvl[top] == '[') {
		jw_sep(w, !w->first, w->base + top);
		w->first = false;
	}
}

void report_jw_key_any_(struct report_jw *w, const char *quoted, size_t qlen)
{
	int top = w->open - 1;

	if (top < 0 || w->lvl[top] != '{' || qlen > sizeof(w->buf)) {
		w->err = -1;
		return;
	}
	jw_sep(w, !w->first, w->base + top);
	w->first = false;
	jw_put(w, quoted, qlen);
	if (!(w->flags & JSON_COMPACT))
		jw_put(w, " ", 1);
}

void report_jw_open_any_(struct report_jw *w, char kind)
{
	jw_item(w);
	if (w->open == REPORT_JW_MAX_DEPTH) {
		w->err = -1;
		return;
	}
	w->lvl[w->open++] = kind;
	w->first = true;
	w->fast = w->compact ? kind : 0;
	jw_put(w, kind == '{' ? "{" : "[", 1);
}

void report_jw_close_any_(struct report_jw *w)
{
	int top = w->open - 1;

	if (top < 0) {
		w->err = -1;
		return;
	}
	jw_close(w, !w->first, w->base + top, w->lvl[top] == '{' ? "}" : "]");
	w->open--;
	w->first = false;	/* the container was its parent's member */
	w->fast = w->compact && w->open ? w->lvl[w->open - 1] : 0;
}

void report_jw_null_any_(struct report_jw *w)
{
	jw_item(w);
	jw_put(w, "null", 4);
}

void report_jw_bool_any_(struct report_jw *w, bool v)
{
	jw_item(w);
	if (v)
		jw_put(w, "true", 4);
	else
		jw_put(w, "false", 5);
}

void report_jw_int_any_(struct report_jw *w, int64_t v)
{
	jw_item(w);
	jw_int(w, (json_int_t)v);
}

void report_jw_real_any_(struct report_jw *w, double v)
{
	jw_item(w);
	if (jw_real(w, v, NULL) < 0)
		w->err = -1;
}

void report_jw_raw_any_(struct report_jw *w, const char *text, size_t n)
{
	jw_item(w);
	jw_put_long(w, text, n);
}

void report_jw_string(struct report_jw *w, const char *s, size_t n)
{
	jw_item(w);
	if (jw_string(w, s, n) < 0)
		w->err = -1;
}

void report_jw_cstring_any_(struct report_jw *w, const char *s)
{
	report_jw_string(w, s, strlen(s));
}
