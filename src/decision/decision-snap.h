/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decision-snap.h - clearing and copying snapshots by the part of them a
 * trace's machine uses (decision-snap.c).  Private to src/decision/.
 *
 * A struct sr_snapshot is about 12 KB because the ABI fixes its per-node
 * arrays at SR_MAX_NODES and its per-CPU ones at SR_PLACE_MAX_CPUS entries;
 * a 2-CPU, 1-node trace uses a few hundred bytes of it, and every wake-up
 * builds one (and copies it once).  The entries at and beyond the trace's
 * node and CPU counts are zero in every snapshot the decision context
 * builds, as the ABI says of unused entries (docs/plugin-abi.md), and
 * nothing here writes anything but zero to them: so storage that starts
 * zeroed stays zero there, and a clear or a copy needs to touch only the
 * used entries, and what shares their 16-byte windows.
 */
#ifndef SR_DECISION_SNAP_H
#define SR_DECISION_SNAP_H

#include <stddef.h>
#include <stdint.h>

#include <schedreplay/sr-snapshot.h>

/* the 16-byte windows that cover a snapshot whole */
#define DECISION_SNAP_WIN	16
#define DECISION_SNAP_WINS	((sizeof(struct sr_snapshot) + DECISION_SNAP_WIN - 1) / DECISION_SNAP_WIN)

/**
 * struct decision_snap_layout - the bytes of a snapshot that can be
 * non-zero for a machine of @nr_nodes nodes and @nr_cpus CPUs: its ranges
 * (every scalar, padding and reserved word; of each per-node or per-CPU
 * array, the entries below the count; of the distance matrix, the first
 * @nr_nodes entries of its first @nr_nodes rows), as the windows that
 * cover them
 * @nr_nodes: nodes (capped at SR_MAX_NODES)
 * @nr_cpus:  CPUs (capped at SR_PLACE_MAX_CPUS)
 * @used:     the bytes the windows hold (decision_snap_used())
 * @nr_win:   windows in @win
 * @win:      the offsets of the DECISION_SNAP_WIN-byte windows that cover
 *            the ranges, in order: aligned to their size but the last,
 *            which ends with the struct.  What they hold beyond the
 *            ranges is zero in every snapshot these functions are given,
 *            so clearing and copying it changes nothing; and a clear, a
 *            copy or a pack is one loop of 16-byte moves, a few for each
 *            range, with no branch on a range's length.
 */
struct decision_snap_layout {
	int		nr_nodes;
	int		nr_cpus;
	size_t		used;
	int		nr_win;
	uint16_t	win[DECISION_SNAP_WINS];
};

/**
 * decision_snap_layout_init() - work out the ranges for a machine's size
 * @l:        the layout to fill
 * @nr_nodes: the topology's nodes (more than SR_MAX_NODES count as that)
 * @nr_cpus:  its CPUs (more than SR_PLACE_MAX_CPUS count as that)
 *
 * A layout for more nodes or CPUs covers every range of one for fewer, so
 * snapshots cleared under a smaller one may be copied under a larger one.
 */
void decision_snap_layout_init(struct decision_snap_layout *l, int nr_nodes, int nr_cpus);

/* decision_snap_layout_grow()'s work, when there is some */
void decision_snap_layout_widen(struct decision_snap_layout *l, int nr_nodes, int nr_cpus);

/**
 * decision_snap_layout_grow() - widen @l to a topology that grew
 * @l:        a layout made by decision_snap_layout_init()
 * @nr_nodes: the topology's nodes now
 * @nr_cpus:  its CPUs now
 *
 * Context: once per event; does nothing unless a capped count is larger.
 */
static inline void decision_snap_layout_grow(struct decision_snap_layout *l, int nr_nodes,
					     int nr_cpus)
{
	if ((nr_nodes > l->nr_nodes && l->nr_nodes < SR_MAX_NODES) ||
	    (nr_cpus > l->nr_cpus && l->nr_cpus < SR_PLACE_MAX_CPUS))
		decision_snap_layout_widen(l, nr_nodes, nr_cpus);
}

/**
 * decision_snap_clear() - zero a snapshot whose unused entries are zero
 * @l: the layout
 * @s: the snapshot; every byte outside @l's ranges must be zero already
 *
 * Context: once per decision built; the same as memset() of the whole
 * struct for such a snapshot.
 */
void decision_snap_clear(const struct decision_snap_layout *l, struct sr_snapshot *s);

/**
 * decision_snap_copy() - copy a snapshot onto one whose unused entries are zero
 * @l:    the layout
 * @to:   the copy; every byte outside @l's ranges must be zero already
 * @from: the original, likewise zero outside them
 *
 * Context: the same as a struct assignment for such snapshots.
 */
void decision_snap_copy(const struct decision_snap_layout *l, struct sr_snapshot *to,
			const struct sr_snapshot *from);

/**
 * decision_snap_used() - the bytes of @l's windows, all told (its
 * ranges and what lies around them in their windows)
 * @l: the layout
 *
 * Return: the size decision_snap_pack() writes.
 */
size_t decision_snap_used(const struct decision_snap_layout *l);

/**
 * decision_snap_pack() - the windows of a snapshot, back to back
 * @l:   the layout
 * @buf: decision_snap_used(@l) bytes
 * @s:   the snapshot, zero outside @l's ranges
 */
void decision_snap_pack(const struct decision_snap_layout *l, void *buf,
			const struct sr_snapshot *s);

/**
 * decision_snap_unpack() - a snapshot from what decision_snap_pack() wrote
 * @l:   the layout it was packed with
 * @s:   the snapshot; every byte outside @l's ranges must be zero already
 * @buf: the packed bytes
 *
 * Context: @s ends up equal to the snapshot that was packed.
 */
void decision_snap_unpack(const struct decision_snap_layout *l, struct sr_snapshot *s,
			  const void *buf);

#endif
