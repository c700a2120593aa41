/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jscan.h - a small JSON reader for the TUI's index: one value parsed into
 * a flat array of nodes that point into the caller's buffer, no allocation
 * per node and no hash per object.  A decision object of a report is read
 * this way in about a microsecond (Jansson takes ten), which is what lets a
 * million-decision report be indexed in the background in seconds.
 *
 * Strings stay as spans of the buffer, escapes included; js_str() decodes
 * one when it is needed.  Object keys are compared raw: a key spelled with
 * escapes does not match its plain name (a report never writes one).
 * The grammar is RFC 8259's; nesting is limited to JS_MAX_DEPTH.
 */
#ifndef SR_TUI_JSCAN_H
#define SR_TUI_JSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JS_MAX_DEPTH	64

enum js_type { JS_NULL, JS_FALSE, JS_TRUE, JS_INT, JS_REAL, JS_STR, JS_ARR, JS_OBJ };

/**
 * struct js_node - one value
 * @type:    enum js_type
 * @esc:     a JS_STR span holds escapes
 * @key, @key_len: the member name's span, for a member of an object
 * @s, @len: a JS_STR's span (without the quotes)
 * @i, @d:   a JS_INT's and a JS_REAL's value (a JS_INT has @d too)
 * @first:   first child of an array or object, 0 when empty
 * @next:    next sibling, 0 for the last
 */
struct js_node {
	uint8_t		type;
	bool		esc;
	uint32_t	key_len;
	uint32_t	len;
	uint32_t	first;
	uint32_t	next;
	const char	*key;
	const char	*s;
	int64_t		i;
	double		d;
};

/**
 * struct js_doc - the nodes of one parsed value; node 0 is unused, node 1
 * the value.  Reused from one js_parse() to the next.
 */
struct js_doc {
	struct js_node	*n;
	size_t		nr;
	size_t		alloc;
};

/* js_parse() results besides 0 */
#define JS_ERR_MORE	(-1)	/* the buffer ended inside the value */
#define JS_ERR_SYNTAX	(-2)	/* not JSON; *@pos is where */
#define JS_ERR_NOMEM	(-3)

/**
 * js_parse() - parse the value at @b[*@pos]
 * @b, @len: the buffer (need not be NUL-terminated)
 * @pos:     in: where the value starts (white space skipped); out: past its
 *           end, or where the syntax error is
 * @what:    set to a short description of a syntax error
 * Return: 0 (node 1 is the value), JS_ERR_MORE, JS_ERR_SYNTAX or JS_ERR_NOMEM.
 */
int js_parse(struct js_doc *d, const char *b, size_t len, size_t *pos, const char **what);

/** js_release() - free the nodes */
void js_release(struct js_doc *d);

/** js_get() - member @key of object node @obj.  Return: its node, or NULL. */
const struct js_node *js_get(const struct js_doc *d, const struct js_node *obj, const char *key);

/** js_child() - the first element of an array/object.  Return: NULL when none. */
const struct js_node *js_child(const struct js_doc *d, const struct js_node *n);

/** js_next() - the next sibling.  Return: NULL after the last. */
const struct js_node *js_next(const struct js_doc *d, const struct js_node *n);

/**
 * js_str() - a JS_STR decoded into @buf (UTF-8, NUL-terminated, truncated
 * to @size - 1 bytes; a \u0000 stops it)
 * Return: the bytes written (not counting the NUL), or -1 when @n is not a string.
 */
int js_str(const struct js_node *n, char *buf, size_t size);

/** js_is(): whether string node @n is exactly @lit (false for a non-string) */
bool js_is(const struct js_node *n, const char *lit);

/** js_skip_ws() - the first byte at or after @pos that is not white space */
size_t js_skip_ws(const char *b, size_t len, size_t pos);

#endif
