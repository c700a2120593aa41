/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * store.h - the TUI's row store: every decision of a replay kept compactly
 * in memory, so that a million of them fit and the views can format only
 * the rows they show.
 *
 * A row is a small flat struct (struct tui_row, about 110 bytes): where its
 * JSON object is in the report file, time,
 * class, task, CPUs and nodes, the three sides' verdicts, cost, flags.  A
 * verdict (policy, verdict kind, flags, reason chain) is interned: a replay
 * has few distinct verdicts, so a row holds three 32-bit ids into one table.
 * Reasons are interned too, by name, with their description in words.  The
 * snapshot a policy saw is kept only when the rows come from a live replay
 * (a JSON report does not hold it): a struct tui_snap per row, with per-node
 * arrays in shared pools.
 *
 * Nothing here touches the terminal; the store is filled by a loading
 * thread, a replay through the session (tui_store_sink_ops, tui_store_run())
 * or the report reader (tui_store_open_json()), under the store's lock,
 * and read by the views, which take the lock first (tui_store_lock()).
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
#define TUI_ROW_UNSEEN		(1u << 8)	/* a CPU inside a stretch where it was not seen */

/* No file offset: a row of a live replay */
#define TUI_NO_OFF		UINT64_MAX

/**
 * struct tui_row - one decision
 * @ts_ns:       trace time
 * @off, @len:  where the decision's JSON object is in the report file
 *               (TUI_NO_OFF for a live replay): decoded again only when shown
 * @cost_old, @cost_new, @cost_delta: distance-weighted remote-access cost
 *               under each side and new - old, in thousandths of the cost
 *               model's unit, valid with TUI_ROW_COST.  Both are the
 *               report's figures: the JSON writes each to three decimals,
 *               and the delta is rounded once, not made of rounded sides.
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
/* tui_row.choice: what a side chose (json-schema.md, "Choices") */
enum tui_choice {
	TUI_CHOICE_NOT_SAID = 0,	/* no policy, or a report without choices */
	TUI_CHOICE_NOTHING,		/* pulls nothing / no move (JSON null) */
	TUI_CHOICE_TASK,		/* pulls choice_tid */
	TUI_CHOICE_PLACE,		/* puts the task on choice_cpu / choice_node */
	TUI_CHOICE_UNKNOWN,
};

struct tui_row {
	uint64_t	ts_ns;
	uint64_t	off;
	uint32_t	len;
	int64_t		cost_old;
	int64_t		cost_new;
	int64_t		cost_delta;
	int32_t		tid;
	int32_t		tgid;
	int32_t		partner_tid;
	uint32_t	verdict[TUI__SIDES];
	int32_t		choice_tid[TUI__SIDES];	/* TUI_CHOICE_TASK */
	int16_t		choice_cpu[TUI__SIDES];	/* TUI_CHOICE_PLACE, -1 unknown */
	int8_t		choice_node[TUI__SIDES]; /* TUI_CHOICE_PLACE, -1 unknown */
	uint8_t		choice[TUI__SIDES];	/* enum tui_choice */
	uint32_t	snap;
	int16_t		src_cpu;
	int16_t		dst_cpu;
	int8_t		src_node;
	int8_t		dst_node;
	uint8_t		cls;
	uint8_t		evidence;
	uint16_t	flags;
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
 * @have_summary:   the report's "summary" was read (decisions..unknown hold
 *                  its totals); until then they count the rows indexed
 * @have_cost:      the summary's cost totals were read: @cost_old,
 *                  @cost_new and @cost_delta are its paired figures
 *                  (thousandths), @nr_cost the decisions both sides priced
 * @cost_old, @cost_new, @cost_delta, @nr_cost: otherwise the sums over the
 *                  rows indexed that have a cost
 * @lost, @unseen:  rows in a lost-events window, rows flagged cpu-unseen
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
	bool		have_summary;
	bool		have_cost;
	int64_t		cost_old;
	int64_t		cost_new;
	int64_t		cost_delta;
	uint64_t	nr_cost;
	uint64_t	lost;
	uint64_t	unseen;
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
 * tui_store_set_cost() - give row @i its cost, once the cost model knows it
 * @cost_old, @cost_new: each side's distance-weighted cost
 *
 * Kept as the JSON report writes them: thousandths, with the delta taken
 * from the unrounded sides (report-cost.c), so that a replay browsed live
 * and its saved report show the same figures.
 * Return: 0, or -EINVAL when @i is not a row.
 */
int tui_store_set_cost(struct tui_store *s, size_t i, double cost_old, double cost_new);

/** tui_cost_milli() - @v in thousandths, rounded as the report rounds it; false when out of range */
bool tui_cost_milli(double v, int64_t *out);

/**
 * tui_store_open_json() - start indexing a saved report in the background
 * @path:   a `replay --json` report or a `replay --ndjson` stream
 * @follow: at the end of a file that is not complete yet (a report still
 *          being written, an NDJSON stream), wait for more instead of
 *          stopping
 * @err:    why it could not be opened
 *
 * A thread reads the file with pread() in chunks (never mmap: a file
 * being written or truncated under it cannot crash the browser) and
 * appends one row per decision, under the store's lock, which the
 * interface takes first whenever it wants it (tui_store_lock()).
 * Return: 0, or a negative code (-errno, -SR_EEMPTY, -SR_EUNSUPPORTED).
 */
int tui_store_open_json(struct tui_store *s, const char *path, bool follow, struct err *err);

/**
 * tui_store_load_json() - tui_store_open_json() without following, and
 * wait for the end
 * @err: the file and byte offset of what was wrong
 * Return: 0 (also for a report that ends early: tui_store_progress() says
 * so), or a negative code (-SR_EBADTEXT, -ENOMEM, -errno).
 */
int tui_store_load_json(struct tui_store *s, const char *path, struct err *err);

/**
 * tui_store_run() - fill the store in a thread: @fn(@arg) (a replay whose
 * sink is the store); its return value is kept (tui_store_wait())
 * Return: 0, or -errno when no thread could be started.
 */
int tui_store_run(struct tui_store *s, int (*fn)(void *arg), void *arg);

/**
 * tui_store_wait() - wait for the loading thread to finish
 * @err: its error, if any (a JSON loader's file and byte)
 * Return: the loader's result (0, a negative code, or @fn's value).
 */
int tui_store_wait(struct tui_store *s, struct err *err);

/** tui_store_stop() - ask the loader to stop (it ends at its next decision or wait) */
void tui_store_stop(struct tui_store *s);

/**
 * struct tui_progress - how far loading is
 * @bytes, @total: bytes indexed and the file's size (0 and 0 for a replay)
 * @rows:      rows in the store
 * @order_gen: bumped when rows already there changed place (a replay
 *             sorts its rows into trace order at the end)
 * @loading:   the thread still runs
 * @following: it waits at the end of the file for more
 * @truncated: the file ends inside the report (at @bytes)
 * @failed:    it stopped on an error: @msg says which, with the place
 */
struct tui_progress {
	uint64_t	bytes;
	uint64_t	total;
	size_t		rows;
	uint64_t	order_gen;
	bool		loading;
	bool		following;
	bool		truncated;
	bool		failed;
	char		msg[300];
};

/** tui_store_progress() - a copy of the loading state (take the lock first) */
void tui_store_progress(const struct tui_store *s, struct tui_progress *p);

/**
 * tui_store_lock() - hold the store still: the loader stops appending
 * until tui_store_unlock(), and yields to a waiting interface
 */
void tui_store_lock(const struct tui_store *s);
void tui_store_unlock(const struct tui_store *s);

/** tui_store_loader_lock() - the loader's side of the lock: waits while the interface wants it */
void tui_store_loader_lock(struct tui_store *s);

/**
 * tui_store_read_decision() - decode @row's whole JSON object again from
 * the report (for the detail view)
 * Return: owned (json_decref()), or NULL for a live replay's row or when
 * the file no longer holds it.
 */
json_t *tui_store_read_decision(const struct tui_store *s, const struct tui_row *row);

/*
 * A row's filter key: what the list's filters test, packed in 32 bits so
 * that filtering a million rows reads 4 MB, not the rows themselves.
 */
#define TUI_KEY_FLAGS(k)	((k) & 0x1ffu)
#define TUI_KEY_CLS(k)		((int)(((k) >> 9) & 0xfu))
#define TUI_KEY_SRC(k)		((int)(((k) >> 13) & 0x7fu) - 1)
#define TUI_KEY_DST(k)		((int)(((k) >> 20) & 0x7fu) - 1)

/** tui_row_key() - @r's filter key */
uint32_t tui_row_key(const struct tui_row *r);

/** tui_store_keys() - every row's filter key, in row order.  Return: borrowed. */
const uint32_t *tui_store_keys(const struct tui_store *s);

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
