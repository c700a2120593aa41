// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jscan.c - the small JSON reader of jscan.h: a recursive descent over the
 * buffer that appends one node per value and links siblings by index.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jscan.h"
#include "util/digits.h"

struct js_parser {
	struct js_doc	*d;
	const char	*b;
	size_t		len;
	size_t		pos;
	const char	*what;
};

size_t js_skip_ws(const char *b, size_t len, size_t pos)
{
	while (pos < len && (b[pos] == ' ' || b[pos] == '\t' || b[pos] == '\n' || b[pos] == '\r'))
		pos++;
	return pos;
}

static int syntax(struct js_parser *p, const char *what)
{
	p->what = what;
	return JS_ERR_SYNTAX;
}

static int new_node(struct js_parser *p, uint32_t *out)
{
	struct js_doc *d = p->d;

	if (d->nr == d->alloc) {
		size_t n = d->alloc ? d->alloc * 2 : 256;
		struct js_node *q;

		if (n > UINT32_MAX)
			return JS_ERR_NOMEM;
		q = realloc(d->n, n * sizeof(*q));
		if (!q)
			return JS_ERR_NOMEM;
		d->n = q;
		d->alloc = n;
	}
	memset(&d->n[d->nr], 0, sizeof(d->n[0]));
	*out = (uint32_t)d->nr++;
	return 0;
}

/* A string at p->pos (the opening quote): its span and whether it has escapes. */
static int scan_string(struct js_parser *p, const char **s, uint32_t *len, bool *esc)
{
	const char *b = p->b;
	size_t i;
	int k;

	*esc = false;
	for (i = p->pos + 1; i < p->len; i++) {
		unsigned char c = (unsigned char)b[i];

		if (c == '"')
			break;
		if (c < 0x20) {
			p->pos = i;
			return syntax(p, "control character in a string");
		}
		if (c != '\\')
			continue;
		*esc = true;
		if (i + 1 >= p->len)
			return JS_ERR_MORE;
		c = (unsigned char)b[++i];
		if (c == 'u') {
			if (i + 4 >= p->len)
				return JS_ERR_MORE;
			for (k = 1; k <= 4; k++)
				if (util_hex_digit(b[i + k]) < 0) {
					p->pos = i;
					return syntax(p, "bad \\u escape");
				}
			i += 4;
		} else if (!c || !strchr("\"\\/bfnrt", c)) {
			p->pos = i;
			return syntax(p, "bad escape in a string");
		}
	}
	if (i >= p->len)
		return JS_ERR_MORE;
	if (i - p->pos - 1 > UINT32_MAX)
		return syntax(p, "string too long");
	*s = b + p->pos + 1;
	*len = (uint32_t)(i - p->pos - 1);
	p->pos = i + 1;
	return 0;
}

static int scan_number(struct js_parser *p, struct js_node *n)
{
	const char *b = p->b;
	size_t i = p->pos, start = i;
	bool real = false;
	char buf[512], *end;

	if (i < p->len && b[i] == '-')
		i++;
	if (i >= p->len)
		return JS_ERR_MORE;
	if (b[i] == '0') {
		i++;
	} else if (b[i] >= '1' && b[i] <= '9') {
		while (i < p->len && b[i] >= '0' && b[i] <= '9')
			i++;
	} else {
		p->pos = i;
		return syntax(p, "invalid number");
	}
	if (i < p->len && b[i] == '.') {
		real = true;
		i++;
		if (i >= p->len)
			return JS_ERR_MORE;
		if (b[i] < '0' || b[i] > '9') {
			p->pos = i;
			return syntax(p, "invalid number");
		}
		while (i < p->len && b[i] >= '0' && b[i] <= '9')
			i++;
	}
	if (i < p->len && (b[i] == 'e' || b[i] == 'E')) {
		real = true;
		i++;
		if (i < p->len && (b[i] == '+' || b[i] == '-'))
			i++;
		if (i >= p->len)
			return JS_ERR_MORE;
		if (b[i] < '0' || b[i] > '9') {
			p->pos = i;
			return syntax(p, "invalid number");
		}
		while (i < p->len && b[i] >= '0' && b[i] <= '9')
			i++;
	}
	/* a number that ends the buffer may go on in the next read */
	if (i >= p->len)
		return JS_ERR_MORE;
	if (i - start >= sizeof(buf)) {
		p->pos = start;
		return syntax(p, "number too long");
	}
	memcpy(buf, b + start, i - start);
	buf[i - start] = '\0';
	errno = 0;
	if (!real) {
		long long v = strtoll(buf, &end, 10);

		if (errno != ERANGE) {
			n->type = JS_INT;
			n->i = v;
			n->d = (double)v;
			p->pos = i;
			return 0;
		}
	}
	n->type = JS_REAL;
	n->d = strtod(buf, &end);
	if (!isfinite(n->d)) {
		p->pos = start;
		return syntax(p, "real number overflows");
	}
	p->pos = i;
	return 0;
}

static int literal(struct js_parser *p, const char *lit, int type, struct js_node *n)
{
	size_t l = strlen(lit), have = p->len - p->pos;

	if (memcmp(p->b + p->pos, lit, have < l ? have : l))
		return syntax(p, "invalid literal");
	if (have < l)
		return JS_ERR_MORE;
	n->type = (uint8_t)type;
	p->pos += l;
	return 0;
}

static int parse_value(struct js_parser *p, uint32_t *out, int depth);

static int parse_container(struct js_parser *p, uint32_t self, int depth, bool obj)
{
	uint32_t prev = 0, child;
	char close = obj ? '}' : ']';
	int ret;

	p->pos = js_skip_ws(p->b, p->len, p->pos + 1);
	if (p->pos >= p->len)
		return JS_ERR_MORE;
	if (p->b[p->pos] == close) {
		p->pos++;
		return 0;
	}
	for (;;) {
		const char *key = NULL;
		uint32_t key_len = 0;
		bool esc;

		if (obj) {
			if (p->b[p->pos] != '"')
				return syntax(p, "object key expected");
			ret = scan_string(p, &key, &key_len, &esc);
			if (ret)
				return ret;
			p->pos = js_skip_ws(p->b, p->len, p->pos);
			if (p->pos >= p->len)
				return JS_ERR_MORE;
			if (p->b[p->pos] != ':')
				return syntax(p, "':' expected");
			p->pos++;
		}
		ret = parse_value(p, &child, depth + 1);
		if (ret)
			return ret;
		p->d->n[child].key = key;
		p->d->n[child].key_len = key_len;
		if (prev)
			p->d->n[prev].next = child;
		else
			p->d->n[self].first = child;
		prev = child;
		p->pos = js_skip_ws(p->b, p->len, p->pos);
		if (p->pos >= p->len)
			return JS_ERR_MORE;
		if (p->b[p->pos] == close) {
			p->pos++;
			return 0;
		}
		if (p->b[p->pos] != ',')
			return syntax(p, obj ? "',' or '}' expected" : "',' or ']' expected");
		p->pos = js_skip_ws(p->b, p->len, p->pos + 1);
		if (p->pos >= p->len)
			return JS_ERR_MORE;
	}
}

static int parse_value(struct js_parser *p, uint32_t *out, int depth)
{
	struct js_node *n;
	uint32_t self;
	int ret;

	if (depth > JS_MAX_DEPTH)
		return syntax(p, "nested too deep");
	p->pos = js_skip_ws(p->b, p->len, p->pos);
	if (p->pos >= p->len)
		return JS_ERR_MORE;
	ret = new_node(p, &self);
	if (ret)
		return ret;
	*out = self;
	n = &p->d->n[self];
	switch (p->b[p->pos]) {
	case '{':
		n->type = JS_OBJ;
		return parse_container(p, self, depth, true);
	case '[':
		n->type = JS_ARR;
		return parse_container(p, self, depth, false);
	case '"': {
		const char *s;
		uint32_t len;
		bool esc;

		ret = scan_string(p, &s, &len, &esc);
		if (ret)
			return ret;
		n = &p->d->n[self];
		n->type = JS_STR;
		n->s = s;
		n->len = len;
		n->esc = esc;
		return 0;
	}
	case 't':
		return literal(p, "true", JS_TRUE, n);
	case 'f':
		return literal(p, "false", JS_FALSE, n);
	case 'n':
		return literal(p, "null", JS_NULL, n);
	default:
		return scan_number(p, n);
	}
}

int js_parse(struct js_doc *d, const char *b, size_t len, size_t *pos, const char **what)
{
	struct js_parser p = { .d = d, .b = b, .len = len, .pos = *pos, .what = NULL };
	uint32_t root, zero;
	int ret;

	d->nr = 0;
	ret = new_node(&p, &zero);
	if (!ret)
		ret = parse_value(&p, &root, 0);
	if (ret == JS_ERR_SYNTAX) {
		*pos = p.pos;
		*what = p.what;
	} else if (!ret) {
		*pos = p.pos;
	}
	return ret;
}

void js_release(struct js_doc *d)
{
	free(d->n);
	memset(d, 0, sizeof(*d));
}

const struct js_node *js_child(const struct js_doc *d, const struct js_node *n)
{
	return n && (n->type == JS_OBJ || n->type == JS_ARR) && n->first ? &d->n[n->first] : NULL;
}

const struct js_node *js_next(const struct js_doc *d, const struct js_node *n)
{
	return n->next ? &d->n[n->next] : NULL;
}

const struct js_node *js_get(const struct js_doc *d, const struct js_node *obj, const char *key)
{
	size_t l = strlen(key);
	const struct js_node *c;

	if (!obj || obj->type != JS_OBJ)
		return NULL;
	for (c = js_child(d, obj); c; c = js_next(d, c))
		if (c->key_len == l && !memcmp(c->key, key, l))
			return c;
	return NULL;
}

bool js_is(const struct js_node *n, const char *lit)
{
	return n && n->type == JS_STR && !n->esc && n->len == strlen(lit) &&
	       !memcmp(n->s, lit, n->len);
}

static size_t put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static uint32_t hex4(const char *s)
{
	return (uint32_t)(util_hex_digit(s[0]) << 12 | util_hex_digit(s[1]) << 8 | util_hex_digit(s[2]) << 4 | util_hex_digit(s[3]));
}

int js_str(const struct js_node *n, char *buf, size_t size)
{
	size_t i, o = 0;

	if (!n || n->type != JS_STR || !size)
		return -1;
	for (i = 0; i < n->len; i++) {
		char c = n->s[i], u[4];
		size_t k = 1;

		if (c == '\\') {
			c = n->s[++i];
			switch (c) {
			case 'b': u[0] = '\b'; break;
			case 'f': u[0] = '\f'; break;
			case 'n': u[0] = '\n'; break;
			case 'r': u[0] = '\r'; break;
			case 't': u[0] = '\t'; break;
			case 'u': {
				uint32_t cp = hex4(n->s + i + 1);

				i += 4;
				if (cp >= 0xd800 && cp < 0xdc00 && i + 6 < n->len &&
				    n->s[i + 1] == '\\' && n->s[i + 2] == 'u') {
					uint32_t lo = hex4(n->s + i + 3);

					if (lo >= 0xdc00 && lo < 0xe000) {
						cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
						i += 6;
					}
				}
				if (!cp)
					goto out;
				if (cp >= 0xd800 && cp < 0xe000)
					cp = 0xfffd;	/* a lone surrogate */
				k = put_utf8(u, cp);
				break;
			}
			default: u[0] = c; break;
			}
		} else {
			u[0] = c;
		}
		if (o + k >= size)
			break;
		memcpy(buf + o, u, k);
		o += k;
	}
out:
	buf[o] = '\0';
	return (int)o;
}
