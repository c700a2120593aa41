/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * store.h - the TUI's row store: every decision of a replay kept compactly
 * in memory, so that a million of them fit and the views can format only
 * the rows they show.
 *
 * A row is a small flat struct (struct tui_row, under 100 bytes): time,
 * class, task, CPUs and nodes, the three sides' verdicts, cost, flags.  A
 * verdict (policy, verdict kind, flags, reason chain) is interned: a replay
 * has few distinct verdicts, so a row holds three 32-bit ids into one table.
 * Reasons are interned too, by name, with their description in words.  The
 * snapshot a policy saw is kept only when the rows come from a live replay
 * (a JSON report does not hold it): a struct tui_snap per row, with per-node
 * arrays in shared pools.
 *
 * Nothing here touches the terminal; the store is filled by
 * tui_store_add_result() (live replay) or tui_store_load_json() (a saved
 * report), and read by the views.
 */
#ifndef SR_TUI_STORE_H
#define SR_TUI_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <schedreplay/sr-policy.h>

#include "replay/engine/engine.h"
#include "session/session.h"
#include "util/err.h"

enum tui_side {
	TUI_OLD = 0,
	TUI_NEW = 1,
	TUI_KERNEL = 2,
	TUI__SIDES
};

/* Interned ids: 0 means "none" (no policy decided, JSON null). */
#define TUI_NONE	0u

/* Bits of struct tui_row.flags */
#define TUI_ROW_DISAGREE	(1u << 0)	/* old and new disagree */
#define TUI_ROW_UNKNOWN		(1u << 1)	/* either side answered unknown */
#define TUI_ROW_BF_DEP		(1u << 2)	/* balance_failed_dependent */
#define TUI_ROW_COST		(1u << 3)	/* the cost fields hold information */
#define TUI_ROW_LOST		(1u << 4)	/* lost-events window */
#define TUI_ROW_STATE_GUESS	(1u << 5)	/* task state unknown to the model */
#define TUI_ROW_COMM		(1u << 6)	/* comm is known */
#define TUI_ROW_TGID		(1u << 7)	/* tgid is known */

/**
 * struct tui_row - one decision
 * @ts_ns:       trace time
 * @cost_old, @cost_new, @cost_delta: remote-access cost under each side
 *               (the cost model's units), valid with TUI_ROW_COST
 * @tid, @tgid:  the task
 * @partner_tid: the other task of a numa-swap, 0 otherwise
 * @verdict:     interned verdict id of each side (tui_store_verdict())
 * @snap:        index of its struct tui_snap, UINT32_MAX when none
 * @src_cpu, @dst_cpu:   -1 when none
 * @src_node, @dst_node: -1 when unknown
 * @cls:         enum sr_decision_class
 * @evidence:    interned evidence name id
 * @flags:       TUI_ROW_* bits
 * @comm:        raw task name bytes (untrusted, NUL-padded)
 */
struct tui_row {
	uint64_t	ts_ns;
	int64_t		cost_old;
	int64_t		cost_new;
	int64_t		cost_delta;
	int32_t		tid;
	int32_t		tgid;
	int32_t		partner_tid;
	uint32_t	verdict[TUI__SIDES];
	uint32_t	snap;
	int16_t		src_cpu;
	int16_t		dst_cpu;
	int8_t		src_node;
	int8_t		dst_node;
	uint8_t		cls;
	uint8_t		evidence;
	uint8_t		flags;
	char		comm[SR_SNAP_COMM_LEN];
};

/**
 * struct tui_verdict - one interned verdict
 * @policy:      policy name id (tui_store_policy_name()), TUI_NONE when none
 * @verdict:     enum sr_verdict_kind
 * @flags:       SR_VF_* bits
 * @nr_reasons:  entries used in @reasons
 * @target_node: -1 when the policy does not name one
 * @reasons:     interned reason ids, decisive one first
 */
struct tui_verdict {
	uint16_t	policy;
	uint8_t		verdict;
	uint8_t		flags;
	uint8_t		nr_reasons;
	int8_t		target_node;
	uint16_t	reasons[SR_MAX_REASONS];
};

/**
 * struct tui_snap - the snapshot fields the detail view shows
 * @known:       SR_SNAP_* bits, as in struct sr_snapshot
 * @faults:      index in the fault pool of nr_nodes task faults followed by
 *               nr_nodes group faults
 * @node_nr:     index in the int pool of nr_nodes node_nr_running values
 * Other fields as in struct sr_snapshot.
 */
struct tui_snap {
	uint64_t	known;
	uint64_t	since_ran_ns;
	uint64_t	group_active;
	uint32_t	faults;
	uint32_t	node_nr;
	int32_t		pref_node;
	int32_t		numa_group;
	int32_t		src_nr_running;
	int32_t		src_nr_preferred;
	int32_t		dst_nr_running;
	int32_t		numa_inflight;
	int8_t		dst_idle;
	int8_t		task_running;
	int8_t		has_faults;
	int8_t		task_class;
	int8_t		idle_type;
	uint8_t		nr_nodes;
};

#define TUI_MAX_NODES	64

/**
 * struct tui_header - what the header and the matrix show
 * @trace:          trace path (untrusted bytes; escape to show)
 * @format:         "trace.dat", ...
 * @kernel:         kernel release, "" when unknown
 * @policies:       per side, the policy names joined with ','
 * @nr_cpus, @nr_nodes: as the report says
 * @distance:       node distances, [a][b]
 * @decisions, @disagreements, @unknown: the summary's totals
 * @fid_reproduced, @fid_decisions: fidelity summed over classes
 * @mig_cost_ns:    sched_migration_cost_ns of the first policy that has it,
 *                  -2 when none does
 * @mig_cost_policy: that policy's name
 * @cost_old, @cost_new: cost summed over the rows that have it
 * @nr_cost:        rows that have cost
 * @ts_first, @ts_last: earliest and latest row time
 */
struct tui_header {
	char		trace[1024];
	char		format[32];
	char		kernel[128];
	char		policies[TUI__SIDES][256];
	int		nr_cpus;
	int		nr_nodes;
	uint8_t		distance[TUI_MAX_NODES][TUI_MAX_NODES];
	uint64_t	decisions;
	uint64_t	disagreements;
	uint64_t	unknown;
	uint64_t	fid_reproduced;
	uint64_t	fid_decisions;
	int64_t		mig_cost_ns;
	char		mig_cost_policy[64];
	int64_t		cost_old;
	int64_t		cost_new;
	uint64_t	nr_cost;
	uint64_t	ts_first;
	uint64_t	ts_last;
};

struct tui_store;

/** tui_store_new() - an empty store.  Return: owned (tui_store_free()), or NULL. */
struct tui_store *tui_store_new(void);

/** tui_store_free() - free the store and its rows (NULL is fine) */
void tui_store_free(struct tui_store *s);

/**
 * tui_store_set_header() - take the header from a report document
 * @doc: a replay report (its "decisions" are not read); borrowed
 *
 * Reads "trace", "topology", "policies" and "summary"; missing members
 * leave their fields empty.
 * Return: 0, or -ENOMEM.
 */
int tui_store_set_header(struct tui_store *s, const json_t *doc);

/**
 * tui_store_add_result() - append one decision of a live replay
 * @r: the engine's result, borrowed for the call
 *
 * Keeps the snapshot fields the detail view shows.  The cost fields stay
 * empty until tui_store_set_cost() fills them (the cost model knows a
 * decision's cost only at the task's next decision, exit or trace end).
 * Return: 0, or -ENOMEM.
 */
int tui_store_add_result(struct tui_store *s, const struct engine_result *r);

/**
 * struct tui_store_sink - the store as a session's sink (tui_store_sink_ops)
 * @store: in: where the rows go; borrowed
 * @seqs:  each row's decision seq (rows arrive as costs complete; the sink's
 *         end puts them back in trace order)
 */
struct tui_store_sink {
	struct tui_store	*store;
	uint64_t		*seqs;
	size_t			nr_seqs;
	size_t			alloc_seqs;
};

/*
 * Each decision becomes a row with its cost (tui_store_add_result(),
 * tui_store_set_cost()); at the end the rows are sorted by seq and the
 * header is taken from the session's report (tui_store_set_header()).
 */
extern const struct session_sink_ops tui_store_sink_ops;

/** tui_store_sink_release() - free the sink's own arrays (not the store) */
void tui_store_sink_release(struct tui_store_sink *k);

/**
 * tui_store_set_cost() - give row @i its cost (old and new, distance-weighted,
 * rounded), once the cost model knows it
 * Return: 0, or -EINVAL when @i is not a row.
 */
int tui_store_set_cost(struct tui_store *s, size_t i, int64_t cost_old, int64_t cost_new);

/**
 * tui_store_add_json() - append one decision object of a report
 * @o:   an element of "decisions" (docs/replay-schema.json); borrowed
 * @err: what was wrong with it (the caller adds the file and offset)
 * Return: 0, -SR_EBADTEXT when @o is not a decision, or -ENOMEM.
 */
int tui_store_add_json(struct tui_store *s, const json_t *o, struct err *err);

/**
 * tui_store_load_json() - read a saved `replay --json` report
 * @path: the file
 * @err:  the file and byte offset of what was wrong
 *
 * Streams the "decisions" array one element at a time, so memory holds
 * the rows, not a JSON tree of the whole report.
 * Return: 0, or a negative code (-SR_EBADTEXT, -ENOMEM, -errno).
 */
int tui_store_load_json(struct tui_store *s, const char *path, struct err *err);

/** tui_store_count() - number of rows */
size_t tui_store_count(const struct tui_store *s);

/** tui_store_row() - row @i.  Return: borrowed, valid until the next add. */
const struct tui_row *tui_store_row(const struct tui_store *s, size_t i);

/** tui_store_header() - the header.  Return: borrowed. */
const struct tui_header *tui_store_header(const struct tui_store *s);

/** tui_store_verdict() - interned verdict @id.  Return: borrowed; NULL for TUI_NONE. */
const struct tui_verdict *tui_store_verdict(const struct tui_store *s, uint32_t id);

/** tui_store_policy_name() - policy name id's text.  Return: borrowed, "" for none. */
const char *tui_store_policy_name(const struct tui_store *s, unsigned int id);

/** tui_store_reason_name() - reason id's short name.  Return: borrowed. */
const char *tui_store_reason_name(const struct tui_store *s, unsigned int id);

/**
 * tui_store_reason_text() - reason id in words
 * Return: borrowed; the short name when no description is known (a plugin
 * reason read from a report).
 */
const char *tui_store_reason_text(const struct tui_store *s, unsigned int id);

/** tui_store_evidence_name() - evidence id's text.  Return: borrowed. */
const char *tui_store_evidence_name(const struct tui_store *s, unsigned int id);

/** tui_store_snap() - the snapshot of @row.  Return: borrowed, NULL when not kept. */
const struct tui_snap *tui_store_snap(const struct tui_store *s, const struct tui_row *row);

/** tui_store_task_faults() - @snap's nr_nodes task faults.  Return: borrowed. */
const uint64_t *tui_store_task_faults(const struct tui_store *s, const struct tui_snap *snap);

/** tui_store_group_faults() - @snap's nr_nodes group faults.  Return: borrowed. */
const uint64_t *tui_store_group_faults(const struct tui_store *s, const struct tui_snap *snap);

/** tui_store_node_nr() - @snap's runnable tasks per node.  Return: borrowed. */
const int32_t *tui_store_node_nr(const struct tui_store *s, const struct tui_snap *snap);

/** tui_verdict_short() - "allow", "resist", "unknown", "n/a"; "-" for NULL */
const char *tui_verdict_short(const struct tui_verdict *v);

#endif
