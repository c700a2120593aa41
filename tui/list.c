// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * list.c - the filtered, sorted list of decisions: an array of row
 * indices rebuilt when a filter or the sort changes (never per frame), so
 * that moving through a million rows touches only the rows on screen.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "util/digits.h"

void tui_list_init(struct tui_list *l, const struct tui_store *store)
{
	memset(l, 0, sizeof(*l));
	l->store = store;
	l->cls = -1;
	l->src_node = l->dst_node = -1;
}

void tui_list_release(struct tui_list *l)
{
	free(l->idx);
	l->idx = NULL;
	l->nr = l->alloc = 0;
}

const char *tui_sort_name(int sort)
{
	switch (sort) {
	case TUI_SORT_COST:
		return "cost";
	case TUI_SORT_TASK:
		return "task";
	default:
		return "time";
	}
}

bool tui_list_filter_pass(const struct tui_list *l, const struct tui_row *r, bool use_range)
{
	if (l->disagree_only && !(r->flags & TUI_ROW_DISAGREE))
		return false;
	if ((r->flags & l->need) != l->need)
		return false;
	if (l->task_on && r->tid != l->task)
		return false;
	if (l->cls >= 0 && r->cls != l->cls)
		return false;
	if (l->src_node >= 0 && r->src_node != l->src_node)
		return false;
	if (l->dst_node >= 0 && r->dst_node != l->dst_node)
		return false;
	if (use_range && l->range && (r->ts_ns < l->t0 || r->ts_ns > l->t1))
		return false;
	return true;
}

/* The filters that the row key answers; the time range and the task need the row. */
static bool key_pass(const struct tui_list *l, uint32_t k)
{
	if (l->disagree_only && !(k & TUI_ROW_DISAGREE))
		return false;
	if ((TUI_KEY_FLAGS(k) & l->need) != l->need)
		return false;
	if (l->cls >= 0 && TUI_KEY_CLS(k) != l->cls)
		return false;
	if (l->src_node >= 0 && TUI_KEY_SRC(k) != l->src_node)
		return false;
	return l->dst_node < 0 || TUI_KEY_DST(k) == l->dst_node;
}

/* Rows [from, n) that pass, appended to @idx; returns the new count. */
static size_t filter_into(const struct tui_list *l, uint32_t *idx, size_t nr, size_t from, size_t n)
{
	const uint32_t *keys = tui_store_keys(l->store);
	bool rows = l->task_on || l->range;
	size_t i;

	if (!tui_list_filtered(l)) {
		for (i = from; i < n; i++)
			idx[nr++] = (uint32_t)i;
		return nr;
	}
	for (i = from; i < n; i++)
		if (key_pass(l, keys[i]) &&
		    (!rows || tui_list_filter_pass(l, tui_store_row(l->store, i), true)))
			idx[nr++] = (uint32_t)i;
	return nr;
}

/*
 * Sorting a million rows: each index gets a 64-bit key and the pairs are
 * radix sorted (stable, 16 bits a pass, passes whose digit is the same
 * everywhere skipped), so ties stay in trace order; no comparison touches
 * the rows.
 */
struct sort_pair {
	uint64_t	k;
	uint32_t	i;
};

static int radix_sort(struct sort_pair *a, size_t n)
{
	struct sort_pair *tmp, *src = a, *dst;
	size_t *count, i, pass;

	if (n < 2)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	count = malloc(65536 * sizeof(*count));
	if (!tmp || !count) {
		free(tmp);
		free(count);
		return -ENOMEM;
	}
	dst = tmp;
	for (pass = 0; pass < 4; pass++) {
		unsigned int sh = (unsigned int)pass * 16;
		size_t sum = 0, c;

		memset(count, 0, 65536 * sizeof(*count));
		for (i = 0; i < n; i++)
			count[(src[i].k >> sh) & 0xffff]++;
		if (count[(src[0].k >> sh) & 0xffff] == n)
			continue;	/* one digit everywhere: nothing to move */
		for (i = 0; i < 65536; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[(src[i].k >> sh) & 0xffff]++] = src[i];
		dst = src;
		src = src == a ? tmp : a;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
	free(tmp);
	free(count);
	return 0;
}

static uint64_t be64(const char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | (unsigned char)p[i];
	return v;
}

/* Sort @idx by @sort; one radix pass per key, least significant first. */
static int sort_idx(const struct tui_list *l, uint32_t *idx, size_t nr)
{
	struct sort_pair *p = malloc((nr ? nr : 1) * sizeof(*p));
	int stage, stages = l->sort == TUI_SORT_COST ? 1 : 3, ret = 0;
	size_t i;

	if (!p)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		p[i].i = idx[i];
	for (stage = 0; stage < stages && !ret; stage++) {
		for (i = 0; i < nr; i++) {
			const struct tui_row *r = tui_store_row(l->store, p[i].i);

			if (l->sort == TUI_SORT_COST)
				/* largest |delta| first, rows without a cost last */
				p[i].k = r->flags & TUI_ROW_COST ?
					 (uint64_t)INT64_MAX - (uint64_t)llabs(r->cost_delta) : UINT64_MAX;
			else if (stage == 0)	/* task: comm, then tid */
				p[i].k = (uint64_t)(uint32_t)r->tid ^ 0x80000000u;
			else
				p[i].k = be64(r->comm + (stage == 1 ? 8 : 0));
		}
		ret = radix_sort(p, nr);
	}
	for (i = 0; i < nr && !ret; i++)
		idx[i] = p[i].i;
	free(p);
	return ret;
}

int tui_list_rebuild(struct tui_list *l)
{
	size_t n = tui_store_count(l->store), i, nr;
	uint32_t keep = l->cursor < l->nr ? l->idx[l->cursor] : UINT32_MAX;
	uint32_t *idx = l->idx;

	if (n > l->alloc) {
		idx = realloc(l->idx, n * sizeof(*idx));
		if (!idx)
			return -ENOMEM;
		l->idx = idx;
		l->alloc = n;
	}
	nr = filter_into(l, idx, 0, 0, n);
	if (l->sort != TUI_SORT_TIME && sort_idx(l, idx, nr) < 0) {
		l->nr = 0;
		return -ENOMEM;
	}
	l->nr = nr;
	l->gen++;
	if (keep != UINT32_MAX) {
		size_t best = 0;

		/* the same row if shown, else the first row after it in trace order */
		for (i = 0; i < nr; i++) {
			if (idx[i] == keep) {
				best = i;
				break;
			}
			if (l->sort == TUI_SORT_TIME && idx[i] < keep)
				best = i + 1 < nr ? i + 1 : i;
		}
		l->cursor = best;
	}
	if (l->cursor >= nr)
		l->cursor = nr ? nr - 1 : 0;
	if (l->top > l->cursor)
		l->top = l->cursor;
	return 0;
}

bool tui_list_filtered(const struct tui_list *l)
{
	return l->disagree_only || l->need || l->task_on || l->cls >= 0 || l->range ||
	       l->src_node >= 0 || l->dst_node >= 0;
}

int tui_list_extend(struct tui_list *l, size_t from)
{
	size_t n = tui_store_count(l->store);

	if (l->sort != TUI_SORT_TIME)
		return tui_list_rebuild(l);
	if (n > l->alloc) {
		size_t na = l->alloc ? l->alloc : 4096;
		uint32_t *idx;

		while (na < n)
			na *= 2;
		idx = realloc(l->idx, na * sizeof(*idx));
		if (!idx)
			return -ENOMEM;
		l->idx = idx;
		l->alloc = na;
	}
	l->nr = filter_into(l, l->idx, l->nr, from, n);
	l->gen++;
	return 0;
}

long tui_list_next_flag(const struct tui_list *l, size_t from, int dir, unsigned int flag)
{
	size_t pos = from;

	while (dir > 0 ? pos + 1 < l->nr : pos > 0) {
		pos = dir > 0 ? pos + 1 : pos - 1;
		if (tui_list_row(l, pos)->flags & flag)
			return (long)pos;
	}
	return -1;
}

const struct tui_row *tui_list_row(const struct tui_list *l, size_t pos)
{
	return pos < l->nr ? tui_store_row(l->store, l->idx[pos]) : NULL;
}

bool tui_list_match(const struct tui_list *l, const struct tui_row *r)
{
	char comm[sizeof(r->comm) + 1];

	if (!l->search[0])
		return false;
	if (util_all_digits(l->search))
		return r->tid == atoi(l->search) || r->tgid == atoi(l->search);
	memcpy(comm, r->comm, sizeof(r->comm));
	comm[sizeof(r->comm)] = '\0';
	return strstr(comm, l->search) != NULL;
}

long tui_list_find(const struct tui_list *l, size_t from, int dir)
{
	size_t i, pos;

	if (!l->nr || !l->search[0])
		return -1;
	if (from >= l->nr)
		from = l->nr - 1;
	for (i = 1; i <= l->nr; i++) {
		pos = dir > 0 ? (from + i) % l->nr : (from + l->nr - i % l->nr) % l->nr;
		if (tui_list_match(l, tui_list_row(l, pos)))
			return (long)pos;
	}
	return -1;
}

void tui_list_move(struct tui_list *l, long delta, int rows)
{
	long c = (long)l->cursor + delta;

	if (rows < 1)
		rows = 1;
	if (c < 0 || !l->nr)
		c = 0;
	else if ((size_t)c >= l->nr)
		c = (long)l->nr - 1;
	l->cursor = (size_t)c;
	if (l->cursor < l->top)
		l->top = l->cursor;
	else if (l->cursor >= l->top + (size_t)rows)
		l->top = l->cursor - (size_t)rows + 1;
}
