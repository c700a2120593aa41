// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * strcount.c - string counter; see strcount.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "strcount.h"

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ull;
	}
	return h;
}

void strcount_init(struct strcount *c)
{
	memset(c, 0, sizeof(*c));
}

void strcount_release(struct strcount *c)
{
	size_t i;

	for (i = 0; i < c->cap; i++)
		free(c->slots[i].key);
	free(c->slots);
	strcount_init(c);
}

static size_t find_slot(const struct strcount_entry *slots, size_t cap, const char *key)
{
	size_t i = hash_str(key) & (cap - 1);

	while (slots[i].key && strcmp(slots[i].key, key))
		i = (i + 1) & (cap - 1);
	return i;
}

static int grow(struct strcount *c)
{
	size_t cap = c->cap ? c->cap * 2 : 64, i, j;
	struct strcount_entry *slots;

	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < c->cap; i++) {
		if (!c->slots[i].key)
			continue;
		j = find_slot(slots, cap, c->slots[i].key);
		slots[j] = c->slots[i];
	}
	free(c->slots);
	c->slots = slots;
	c->cap = cap;
	return 0;
}

int strcount_add(struct strcount *c, const char *key, uint64_t n)
{
	size_t i;

	if (!key)
		key = "";
	if ((c->used + 1) * 2 > c->cap && grow(c) < 0)
		return -ENOMEM;
	i = find_slot(c->slots, c->cap, key);
	if (!c->slots[i].key) {
		c->slots[i].key = strdup(key);
		if (!c->slots[i].key)
			return -ENOMEM;
		c->used++;
	}
	c->slots[i].count += n;
	return 0;
}

uint64_t strcount_get(const struct strcount *c, const char *key)
{
	size_t i;

	if (!c->cap)
		return 0;
	i = find_slot(c->slots, c->cap, key);
	return c->slots[i].key ? c->slots[i].count : 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct strcount_entry *x = a, *y = b;

	return strcmp(x->key, y->key);
}

struct strcount_entry *strcount_sorted(const struct strcount *c, size_t *n)
{
	struct strcount_entry *out;
	size_t i, k = 0;

	*n = 0;
	if (!c->used)
		return NULL;
	out = malloc(c->used * sizeof(*out));
	if (!out) {
		*n = c->used;
		return NULL;
	}
	for (i = 0; i < c->cap; i++)
		if (c->slots[i].key)
			out[k++] = c->slots[i];
	qsort(out, k, sizeof(*out), cmp_entry);
	*n = k;
	return out;
}
