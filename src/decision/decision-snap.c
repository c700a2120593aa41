// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * decision-snap.c - the byte ranges of a snapshot a machine's size can make
 * non-zero; see decision-snap.h.
 *
 * Everything that is not a per-node or per-CPU array is in a range whole
 * (scalars, padding, the reserved words); of each array, the entries below
 * the node or CPU count; of the distance matrix, the first nr_nodes entries
 * of its first nr_nodes rows.
 */
#include <stdbool.h>
#include <string.h>

#include "decision-snap.h"

/* an array of the snapshot: where it starts, an entry's size, which count it has */
struct snap_array {
	size_t	off;
	size_t	size;
	size_t	max;
	bool	per_cpu;
};

#define NODE_ARRAY(f)	{ offsetof(struct sr_snapshot, f),			\
			  sizeof(((struct sr_snapshot *)0)->f[0]), SR_MAX_NODES, false }
#define CPU_ARRAY(f)	{ offsetof(struct sr_snapshot, f),			\
			  sizeof(((struct sr_snapshot *)0)->f[0]), SR_PLACE_MAX_CPUS, true }

/* every array after the distance matrix, in the struct's order */
static const struct snap_array snap_arrays[] = {
	NODE_ARRAY(task_faults),
	NODE_ARRAY(group_faults),
	NODE_ARRAY(node_nr_running),
	NODE_ARRAY(node_nr_cpus),
	NODE_ARRAY(node_nr_idle),
	NODE_ARRAY(node_util),
	NODE_ARRAY(node_runnable),
	CPU_ARRAY(cpu_node),
	CPU_ARRAY(cpu_flags),
	CPU_ARRAY(cpu_idle_ns),
	CPU_ARRAY(cpu_util),
	CPU_ARRAY(cpu_load),
	CPU_ARRAY(cpu_nr_running),
};

/*
 * The windows of [@off, @off + @len) added to @l: aligned to their size,
 * but one that would run past the struct ends with it; one the range
 * before already has (ranges come in offset order), once.
 */
static void add_range(struct decision_snap_layout *l, size_t off, size_t len)
{
	size_t w, at;

	if (!len)
		return;
	for (w = off & ~(size_t)(DECISION_SNAP_WIN - 1); w < off + len; w += DECISION_SNAP_WIN) {
		at = w + DECISION_SNAP_WIN <= sizeof(struct sr_snapshot) ? w :
		     sizeof(struct sr_snapshot) - DECISION_SNAP_WIN;
		if (!l->nr_win || l->win[l->nr_win - 1] != at)
			l->win[l->nr_win++] = (uint16_t)at;
	}
}

void decision_snap_layout_init(struct decision_snap_layout *l, int nr_nodes, int nr_cpus)
{
	size_t pos = 0, i, a;
	size_t dist = offsetof(struct sr_snapshot, distance);

	l->nr_nodes = nr_nodes < 0 ? 0 : nr_nodes > SR_MAX_NODES ? SR_MAX_NODES : nr_nodes;
	l->nr_cpus = nr_cpus < 0 ? 0 : nr_cpus > SR_PLACE_MAX_CPUS ? SR_PLACE_MAX_CPUS : nr_cpus;
	l->nr_win = 0;
	/* up to the matrix, then its rows: the used ones' first entries */
	for (a = 0; a < SR_MAX_NODES; a++) {
		size_t row = dist + a * SR_MAX_NODES;

		add_range(l, pos, row - pos);
		if (a < (size_t)l->nr_nodes)
			add_range(l, row, (size_t)l->nr_nodes);
		pos = row + SR_MAX_NODES;
	}
	for (i = 0; i < sizeof(snap_arrays) / sizeof(snap_arrays[0]); i++) {
		const struct snap_array *sa = &snap_arrays[i];
		size_t used = (size_t)(sa->per_cpu ? l->nr_cpus : l->nr_nodes);

		add_range(l, pos, sa->off - pos);
		add_range(l, sa->off, used * sa->size);
		pos = sa->off + sa->max * sa->size;
	}
	add_range(l, pos, sizeof(struct sr_snapshot) - pos);
	l->used = (size_t)l->nr_win * DECISION_SNAP_WIN;
}

/* decision_snap_layout_grow() when a count is larger: unless capped, a wider layout */
void decision_snap_layout_widen(struct decision_snap_layout *l, int nr_nodes, int nr_cpus)
{
	if (nr_nodes > SR_MAX_NODES)
		nr_nodes = SR_MAX_NODES;
	if (nr_cpus > SR_PLACE_MAX_CPUS)
		nr_cpus = SR_PLACE_MAX_CPUS;
	if (nr_nodes <= l->nr_nodes && nr_cpus <= l->nr_cpus)
		return;
	decision_snap_layout_init(l, nr_nodes > l->nr_nodes ? nr_nodes : l->nr_nodes,
				  nr_cpus > l->nr_cpus ? nr_cpus : l->nr_cpus);
}

/*
 * One window moved: GCC makes it a 16-byte load and store.  The loops
 * below run over the layout's windows, a few a range (a call of libc's
 * memcpy() or memset() a range, for a handful of bytes, was 6-10% of a
 * two-thread replay's samples; a loop that moved each range in pieces,
 * with branches on its length, still took some 400 instructions to pack
 * the 14 ranges of a 2-CPU machine's snapshot, and as many to clear one).
 */
static inline void win_move(char *to, const char *from)
{
	memcpy(to, from, DECISION_SNAP_WIN);
}

void decision_snap_clear(const struct decision_snap_layout *l, struct sr_snapshot *s)
{
	static const char zero[DECISION_SNAP_WIN];
	int i, n = l->nr_win;

	for (i = 0; i < n; i++)
		win_move((char *)s + l->win[i], zero);
}

void decision_snap_copy(const struct decision_snap_layout *l, struct sr_snapshot *to,
			const struct sr_snapshot *from)
{
	int i, n = l->nr_win;

	for (i = 0; i < n; i++)
		win_move((char *)to + l->win[i], (const char *)from + l->win[i]);
}

size_t decision_snap_used(const struct decision_snap_layout *l)
{
	return l->used;
}

void decision_snap_pack(const struct decision_snap_layout *l, void *buf,
			const struct sr_snapshot *s)
{
	char *b = buf;
	int i, n = l->nr_win;

	for (i = 0; i < n; i++)
		win_move(b + (size_t)i * DECISION_SNAP_WIN, (const char *)s + l->win[i]);
}

void decision_snap_unpack(const struct decision_snap_layout *l, struct sr_snapshot *s,
			  const void *buf)
{
	const char *b = buf;
	int i, n = l->nr_win;

	for (i = 0; i < n; i++)
		win_move((char *)s + l->win[i], b + (size_t)i * DECISION_SNAP_WIN);
}
