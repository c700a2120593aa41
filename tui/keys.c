// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * keys.c - key names and key scripts (--keys): a test or a script types
 * into the browser the way a user would, one token at a time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

static const struct {
	const char	*name;
	int		key;
} key_names[] = {
	{ "Up", TUI_KEY_UP },		{ "Down", TUI_KEY_DOWN },
	{ "Left", TUI_KEY_LEFT },	{ "Right", TUI_KEY_RIGHT },
	{ "PgUp", TUI_KEY_PGUP },	{ "PgDn", TUI_KEY_PGDN },
	{ "Home", TUI_KEY_HOME },	{ "End", TUI_KEY_END },
	{ "Enter", TUI_KEY_ENTER },	{ "Esc", TUI_KEY_ESC },
	{ "Tab", TUI_KEY_TAB },		{ "BTab", TUI_KEY_BTAB },
	{ "BSpace", TUI_KEY_BACKSPACE },	{ "Space", ' ' },
	{ "Resize", TUI_KEY_RESIZE },
};

#define NR_KEY_NAMES (sizeof(key_names) / sizeof(key_names[0]))

static int push(struct tui_key_ev **v, size_t *n, size_t *alloc, int key, int w, int h)
{
	if (*n == *alloc) {
		size_t na = *alloc ? 2 * *alloc : 32;
		struct tui_key_ev *p = realloc(*v, na * sizeof(*p));

		if (!p)
			return -ENOMEM;
		*v = p;
		*alloc = na;
	}
	(*v)[*n].key = key;
	(*v)[*n].w = w;
	(*v)[*n].h = h;
	(*n)++;
	return 0;
}

int tui_keys_parse(const char *script, struct tui_key_ev **out, size_t *n, struct err *err)
{
	struct tui_key_ev *v = NULL;
	size_t alloc = 0, i;
	const char *p = script;
	int ret = 0;

	*n = 0;
	while (*p) {
		const char *end;
		size_t len;
		bool named = false;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			break;
		for (end = p; *end && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r';)
			end++;
		len = (size_t)(end - p);
		if (len > 7 && !strncmp(p, "Resize:", 7)) {
			int w, h;
			char tail;

			if (sscanf(p + 7, "%dx%d%c", &w, &h, &tail) < 2 || w < 1 || h < 1 ||
			    w > 1000 || h > 1000 || (tail != ' ' && tail != '\t' && tail != '\n' &&
			     tail != '\r' && p + 7 + strcspn(p + 7, " \t\r\n") != end)) {
				ret = err_set(err, -SR_EUSAGE, "bad key '%.*s' (Resize:WxH)",
					      (int)(len > 40 ? 40 : len), p);
				goto fail;
			}
			ret = push(&v, n, &alloc, TUI_KEY_RESIZE, w, h);
			named = true;
		}
		for (i = 0; !named && i < NR_KEY_NAMES; i++) {
			if (strlen(key_names[i].name) == len && !strncmp(p, key_names[i].name, len) &&
			    key_names[i].key != TUI_KEY_RESIZE) {
				ret = push(&v, n, &alloc, key_names[i].key, 0, 0);
				named = true;
			}
		}
		for (; !named && p < end; p++) {
			unsigned char c = (unsigned char)*p;

			if (c < 0x20 || c >= 0x7f) {
				ret = err_set(err, -SR_EUSAGE, "keys must be printable ASCII or key names");
				goto fail;
			}
			ret = push(&v, n, &alloc, c, 0, 0);
			if (ret < 0)
				break;
		}
		if (ret < 0) {
			err_set(err, ret, "out of memory");
			goto fail;
		}
		p = end;
	}
	*out = v;
	return 0;
fail:
	free(v);
	*n = 0;
	*out = NULL;
	return ret;
}

const char *tui_key_name(int key, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < NR_KEY_NAMES; i++)
		if (key_names[i].key == key) {
			snprintf(buf, len, "%s", key_names[i].name);
			return buf;
		}
	if (key > 0x20 && key < 0x7f)
		snprintf(buf, len, "%c", key);
	else
		snprintf(buf, len, "U+%04X", (unsigned int)key);
	return buf;
}
