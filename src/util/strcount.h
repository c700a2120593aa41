/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * strcount.h - count occurrences of strings (event names, reason pairs).
 *
 * An open-addressing hash table (FNV-1a, linear probing) that owns copies
 * of its keys.
 */
#ifndef SR_UTIL_STRCOUNT_H
#define SR_UTIL_STRCOUNT_H

#include <stddef.h>
#include <stdint.h>

struct strcount_entry {
	char		*key;
	uint64_t	count;
};

struct strcount {
	struct strcount_entry	*slots;
	size_t			cap;
	size_t			used;
};

/** strcount_init() - an empty table (no allocation yet). */
void strcount_init(struct strcount *c);

/** strcount_release() - free the keys and the table; it is empty after. */
void strcount_release(struct strcount *c);

/**
 * strcount_add() - add @n to @key's count (the key is copied on first use)
 * Return: 0 or -ENOMEM.
 */
int strcount_add(struct strcount *c, const char *key, uint64_t n);

/** strcount_get() - @key's count, 0 when absent. */
uint64_t strcount_get(const struct strcount *c, const char *key);

/**
 * strcount_sorted() - the entries sorted by key
 * @n: set to the number of entries
 * Return: owned array (free() it; keys stay owned by @c), NULL when empty
 * (*n is 0) or on allocation failure (*n is the number it could not
 * return: a caller tells the two apart by it).
 */
struct strcount_entry *strcount_sorted(const struct strcount *c, size_t *n);

#endif
