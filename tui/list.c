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

static int cmp_cost(const void *a, const void *b, void *arg)
{
	const struct tui_store *s = arg;
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
	const struct tui_row *ra = tui_store_row(s, ia), *rb = tui_store_row(s, ib);
	bool ca = ra->flags & TUI_ROW_COST, cb = rb->flags & TUI_ROW_COST;

	if (ca != cb)
		return ca ? -1 : 1;
	if (ca) {
		/* by size: a -3 is as much news as a +3 (deltas are bounded: no overflow) */
		int64_t xa = llabs(ra->cost_delta), xb = llabs(rb->cost_delta);

		if (xa != xb)
			return xa > xb ? -1 : 1;
	}
	return ia < ib ? -1 : ia > ib;
}

static int cmp_task(const void *a, const void *b, void *arg)
{
	const struct tui_store *s = arg;
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
	const struct tui_row *ra = tui_store_row(s, ia), *rb = tui_store_row(s, ib);
	int c = strncmp(ra->comm, rb->comm, sizeof(ra->comm));

	if (c)
		return c;
	if (ra->tid != rb->tid)
		return ra->tid < rb->tid ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

int tui_list_rebuild(struct tui_list *l)
{
	size_t n = tui_store_count(l->store), i, nr = 0;
	uint32_t keep = l->cursor < l->nr ? l->idx[l->cursor] : UINT32_MAX;
	uint32_t *idx = l->idx;

	if (n > l->alloc) {
		idx = realloc(l->idx, n * sizeof(*idx));
		if (!idx)
			return -ENOMEM;
		l->idx = idx;
		l->alloc = n;
	}
	for (i = 0; i < n; i++)
		if (tui_list_filter_pass(l, tui_store_row(l->store, i), true))
			idx[nr++] = (uint32_t)i;
	if (l->sort == TUI_SORT_COST)
		qsort_r(idx, nr, sizeof(*idx), cmp_cost, (void *)l->store);
	else if (l->sort == TUI_SORT_TASK)
		qsort_r(idx, nr, sizeof(*idx), cmp_task, (void *)l->store);
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
	size_t n = tui_store_count(l->store), i;

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
	for (i = from; i < n; i++)
		if (tui_list_filter_pass(l, tui_store_row(l->store, i), true))
			l->idx[l->nr++] = (uint32_t)i;
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
