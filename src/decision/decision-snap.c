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

/* add [@off, @off + @len) to @l, merged with the range before it when they touch */
static void add_range(struct decision_snap_layout *l, size_t off, size_t len)
{
	if (!len)
		return;
	if (l->nr_segs && l->seg[l->nr_segs - 1].off + l->seg[l->nr_segs - 1].len == off) {
		l->seg[l->nr_segs - 1].len += (uint32_t)len;
		return;
	}
	l->seg[l->nr_segs].off = (uint32_t)off;
	l->seg[l->nr_segs].len = (uint32_t)len;
	l->nr_segs++;
}

void decision_snap_layout_init(struct decision_snap_layout *l, int nr_nodes, int nr_cpus)
{
	size_t pos = 0, i, a;
	size_t dist = offsetof(struct sr_snapshot, distance);

	l->nr_nodes = nr_nodes < 0 ? 0 : nr_nodes > SR_MAX_NODES ? SR_MAX_NODES : nr_nodes;
	l->nr_cpus = nr_cpus < 0 ? 0 : nr_cpus > SR_PLACE_MAX_CPUS ? SR_PLACE_MAX_CPUS : nr_cpus;
	l->nr_segs = 0;
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
	l->used = 0;
	for (i = 0; i < (size_t)l->nr_segs; i++)
		l->used += l->seg[i].len;
}

void decision_snap_layout_grow(struct decision_snap_layout *l, int nr_nodes, int nr_cpus)
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
 * A range is mostly a few entries of an array: 2 to 100 bytes on the
 * machines traced so far, some 15 of them a snapshot, and every wake-up
 * clears one snapshot and packs and unpacks another.  A call of libc's
 * memcpy() or memset() per range was 6-10% of a two-thread replay's samples
 * (the call and its dispatch on the size, for a handful of bytes), so a
 * short range is moved here in fixed-size pieces, which the compiler makes
 * plain loads and stores, the last piece overlapping the one before it;
 * a long one goes to libc.  (Left to itself, GCC turns the loop of pieces
 * back into a memcpy() or memset(), inlined as a rep movsq or rep stosq,
 * which costs more to start than the bytes it moves.)
 */
#define SNAP_SHORT	256

static inline void copy_range(char *to, const char *from, size_t n)
{
	size_t i;

	if (n > SNAP_SHORT) {
		memcpy(to, from, n);
	} else if (n >= 16) {
		for (i = 0; i + 16 <= n; i += 16) {
			memcpy(to + i, from + i, 16);
			/* an opaque step: GCC would make the loop a memcpy again */
			__asm__("" : "+r"(i));
		}
		if (i < n)
			memcpy(to + n - 16, from + n - 16, 16);
	} else if (n >= 8) {
		memcpy(to, from, 8);
		memcpy(to + n - 8, from + n - 8, 8);
	} else if (n >= 4) {
		memcpy(to, from, 4);
		memcpy(to + n - 4, from + n - 4, 4);
	} else if (n) {
		to[0] = from[0];
		to[n / 2] = from[n / 2];
		to[n - 1] = from[n - 1];
	}
}

/* a short range is cleared as a copy of zeroes, by copy_range()'s pieces */
static inline void zero_range(char *to, size_t n)
{
	static const char zero[SNAP_SHORT];

	if (n > SNAP_SHORT)
		memset(to, 0, n);
	else
		copy_range(to, zero, n);
}

void decision_snap_clear(const struct decision_snap_layout *l, struct sr_snapshot *s)
{
	int i;

	for (i = 0; i < l->nr_segs; i++)
		zero_range((char *)s + l->seg[i].off, l->seg[i].len);
}

void decision_snap_copy(const struct decision_snap_layout *l, struct sr_snapshot *to,
			const struct sr_snapshot *from)
{
	int i;

	for (i = 0; i < l->nr_segs; i++)
		copy_range((char *)to + l->seg[i].off, (const char *)from + l->seg[i].off,
			   l->seg[i].len);
}

size_t decision_snap_used(const struct decision_snap_layout *l)
{
	return l->used;
}

void decision_snap_pack(const struct decision_snap_layout *l, void *buf,
			const struct sr_snapshot *s)
{
	char *b = buf;
	int i;

	for (i = 0; i < l->nr_segs; i++) {
		copy_range(b, (const char *)s + l->seg[i].off, l->seg[i].len);
		b += l->seg[i].len;
	}
}

void decision_snap_unpack(const struct decision_snap_layout *l, struct sr_snapshot *s,
			  const void *buf)
{
	const char *b = buf;
	int i;

	for (i = 0; i < l->nr_segs; i++) {
		copy_range((char *)s + l->seg[i].off, b, l->seg[i].len);
		b += l->seg[i].len;
	}
}
