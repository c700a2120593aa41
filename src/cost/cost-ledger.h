/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cost-ledger.h - the cost model applied to a trace: per task, the
 * interval from each decision to the task's next decision (or exit, or
 * the end of the trace), the accesses made in it (A_k of cost.h), and the
 * cost of each side's choice once the interval has closed.
 *
 * A decision's cost is known only when the task's next decision arrives,
 * so the ledger keeps, per task, the intervals still open or still waiting
 * for their decision (normally one or two) and hands each decision back
 * through a callback as soon as both are there: memory is per task, never
 * per event.  Decisions therefore come back in completion order, not trace
 * order (each carries its seq).
 *
 * Feed every event with cost_ledger_feed() after decision_feed() and
 * before model_feed() (the memory placement read is the one the kernel had
 * before the event), and every decision with cost_ledger_decide().
 *
 * Calibration: every hinting fault of the trace (inside the
 * schedreplay_vmstat start/end window when the trace has those lines) is
 * priced from the node of the CPU it ran on, with the same shares: the
 * estimated local share; the kernel's numa_hint_faults(_local) give the
 * measured one.  Counting the faults and their TNF_FAULT_LOCAL flags is
 * the separate, exact check that the ingest saw every fault.
 */
#ifndef SR_COST_COST_LEDGER_H
#define SR_COST_COST_LEDGER_H

#include <stdbool.h>
#include <stdint.h>

#include <schedreplay/sr-policy.h>

#include "cost/cost.h"
#include "decision/decision.h"
#include "ingest/event.h"
#include "model/model.h"
#include "topo/topo.h"

enum cost_side {
	COST_OLD = 0,	/* where the old policy would have left the task */
	COST_NEW = 1,	/* the same for the new policy */
	COST_TRACE = 2,	/* where the kernel put it (what the trace shows) */
	COST__SIDES
};

/**
 * enum cost_unknown - why a decision's costs are unknown
 * @COST_UNKNOWN_NONE:       they are known (on a side, the node may still
 *                           be unknown: see cost_value.known)
 * @COST_UNKNOWN_NO_FAULTS:  the trace has no per-fault events (yet): no
 *                           access intensity
 * @COST_UNKNOWN_PLACEMENT:  the task faulted, but where its memory lives was
 *                           not known (no numa_sample, fault history not
 *                           complete)
 * @COST_UNKNOWN_INTERVAL:   the decision matched no interval of its task
 */
enum cost_unknown {
	COST_UNKNOWN_NONE = 0,
	COST_UNKNOWN_NO_FAULTS,
	COST_UNKNOWN_PLACEMENT,
	COST_UNKNOWN_INTERVAL,
	COST_UNKNOWN__COUNT
};

/* How an interval ended */
enum cost_end {
	COST_END_NEXT = 0,	/* the task's next decision */
	COST_END_EXIT,		/* sched_process_exit */
	COST_END_TRACE,		/* the end of the trace */
};

/*
 * The tasks a decision prices: its own, plus each task a side pulls in
 * its place (at most one per side, and the two sides may agree).
 */
#define COST_MAX_PARTS	3

/**
 * struct cost_part - one task a decision prices, from the decision until
 * that task's own next decision (or exit, or the end of the trace)
 * @tid:       the task
 * @from_node: where it was at the decision (-1 unknown)
 * @node:      per side, where that side's choice leaves it (-1 unknown)
 * @v:         per side, its cost there
 * @start_ns, @end_ns, @end: its interval (enum cost_end)
 * @unpriced:  its faults in the interval whose placement was unknown
 * @short_history: faults between the decision and the ledger being told
 *             of it may be missing (the task's recent-fault ring overflowed)
 */
struct cost_part {
	int			tid;
	int			from_node;
	int			node[COST__SIDES];
	struct cost_value	v[COST__SIDES];
	uint64_t		start_ns;
	uint64_t		end_ns;
	int			end;
	double			unpriced;
	bool			short_history;
};

/**
 * struct cost_part_in - what cost_ledger_decide_parts() prices: a task and
 * the node each side leaves it on
 */
struct cost_part_in {
	int	tid;
	int	from_node;
	int	node[COST__SIDES];
};

/**
 * struct cost_item - one decision with its costs
 * @seq, @tid, @cls: the decision's
 * @start_ns, @end_ns: the interval priced
 * @end:      enum cost_end
 * @node:     per side, the node the decision's task is priced on (-1 unknown)
 * @v:        per side, the cost: the sum of @part's (v[s].known false: unknown)
 * @unpriced: faults of the decision's task in the interval whose placement
 *            was unknown
 * @nr_parts: tasks priced; part[0] is the decision's own (its interval is
 *            @start_ns..@end_ns), the others a side pulled instead
 * @part:     per task, where each side leaves it and what that costs
 * @unknown:  enum cost_unknown
 * @user:     cost_ledger_decide()'s @user
 */
struct cost_item {
	uint64_t		seq;
	int			tid;
	int			cls;
	uint64_t		start_ns;
	uint64_t		end_ns;
	int			end;
	int			node[COST__SIDES];
	struct cost_value	v[COST__SIDES];
	double			unpriced;
	int			unknown;
	void			*user;
	int			nr_parts;
	struct cost_part	part[COST_MAX_PARTS];
};

/**
 * typedef cost_done_fn - receives each decision once its cost is known
 * @it:  borrowed for the call; @it->user is handed over with it
 * Return: 0, or a negative code that stops the replay.
 */
typedef int (*cost_done_fn)(const struct cost_item *it, void *arg);

/**
 * typedef cost_release_fn - frees a decision's user pointer that will never
 * reach cost_done_fn (the ledger freed early, or an allocation failed)
 */
typedef void (*cost_release_fn)(void *user);

/**
 * struct cost_pair - old and new over the same decisions: those both sides
 * priced; what new - old means
 * @decisions: priced on both sides
 * @v:         COST_OLD and COST_NEW summed over them
 * @only:      per side (COST_OLD, COST_NEW), priced on that side only: the
 *             other side's verdict gave no node (unknown, or no policy)
 */
struct cost_pair {
	uint64_t		decisions;
	struct cost_value	v[2];
	uint64_t		only[2];
	/* the decision whose new - old weighted is largest in size (the first of equals) */
	uint64_t		max_seq;
	double			max_delta;
};

/** struct cost_class_totals - one decision class */
struct cost_class_totals {
	uint64_t		decisions;
	uint64_t		known[COST__SIDES];
	struct cost_value	v[COST__SIDES];
	struct cost_pair	pair;
};

/**
 * struct cost_calibration - the estimate against the kernel's counters
 * @vm_start, @vm_end:  numa_hint_faults / numa_hint_faults_local at the
 *                      start and end (have_* false when not seen)
 * @faults:             fault events in the window
 * @flag_local:         of them, with TNF_FAULT_LOCAL
 * @priced:             of them, priced (memory placement known)
 * @est_local:          sum over priced faults of f_{node of its CPU}, a
 *                      fault that migrated its page (TNF_MIGRATED) counted
 *                      0: remote, as numa_hint_faults_local counts it
 * @migrated_remote:    priced faults booked remote so
 * @est_local_post:     the same sum with every fault at f_{its node} (where
 *                      the page is after the migration), for comparison
 * @windowed:           the window is the trace's schedreplay_vmstat lines
 */
struct cost_calibration {
	bool		have_start;
	bool		have_end;
	int64_t		vm_faults_start;
	int64_t		vm_local_start;
	int64_t		vm_faults_end;
	int64_t		vm_local_end;
	uint64_t	faults;
	uint64_t	flag_local;
	uint64_t	priced;
	double		est_local;
	uint64_t	migrated_remote;
	double		est_local_post;
	bool		windowed;
};

/**
 * struct cost_totals - everything the report sums
 * @matrix:  per side, nr_nodes x nr_nodes row-major: row = node the task
 *           ran on (by that side's choice), column = memory node; expected
 *           accesses over the decisions' intervals
 * @actual:  the same over every priced fault of the trace, row = the node
 *           of the CPU the fault was taken on
 * @side:    per side, over every decision that side priced (the sets differ)
 * @pair:    old and new over the decisions both priced: the delta to report
 * @latency: enum cost_latency: what priced remote accesses
 * @latency_missing: pairs a task could be priced on that the topology's
 *           profile lacks (then the priors price them all); 0 without one
 * @ratio:   nr_nodes x nr_nodes: r(c,k) used (cost.h), -1 where unknown
 * @latency_dist: nr_nodes x nr_nodes: the distances the priors rest on
 */
struct cost_totals {
	int				nr_nodes;
	uint64_t			decisions;
	uint64_t			unknown[COST_UNKNOWN__COUNT];
	uint64_t			side_known[COST__SIDES];
	struct cost_value		side[COST__SIDES];
	struct cost_pair		pair;
	struct cost_class_totals	cls[SR_DECISION_CLASS__COUNT];
	double				*matrix[COST__SIDES];
	double				*actual;
	uint64_t			fault_events;
	uint64_t			unpriced_faults;
	uint64_t			dropped_intervals;	/* closed, no decision came */
	uint64_t			parts;		/* other tasks priced (cost_part, not part[0]) */
	uint64_t			parts_short;	/* of them, with short_history */
	struct cost_calibration		cal;
	int				latency;
	int				latency_missing;
	const double			*ratio;
	int				*latency_dist;
};

/**
 * struct cost_task - one task's decision costs (for the top-N list): old and
 * new over the decisions both sides priced, trace over all it priced; the
 * part of a decision that priced this task (its own, or as the task a side
 * pulled instead, cost_part) counts for it
 */
struct cost_task {
	int			tid;
	char			comm[SR_COMM_LEN];
	uint64_t		decisions;
	struct cost_value	v[COST__SIDES];
};

struct cost_ledger;

/**
 * cost_ledger_new() - a ledger for one trace
 * @topo: borrowed; its latency profile (when complete), else its distances
 *        price the accesses (cost.h: r(c,k))
 * @done:    called once per decision given to cost_ledger_decide()
 * @release: frees the user pointer of a decision that never reaches @done;
 *           may be NULL
 * Return: owned (cost_ledger_free()), or NULL on allocation failure.
 */
struct cost_ledger *cost_ledger_new(const struct topo *topo, cost_done_fn done,
				    cost_release_fn release, void *arg);

/**
 * cost_ledger_free() - free (NULL is fine); decisions still waiting are
 * dropped (their user pointers released)
 */
void cost_ledger_free(struct cost_ledger *l);

/**
 * struct cost_feed - what the ledger takes from one event and the model's
 * state before it (cost_ledger_capture()), so that it can be applied later,
 * on another thread (cost_ledger_apply()), while the model moves on
 * @kind, @ts_ns: the event's
 * @pid:    the task whose interval it touches (the event's, or the migrated,
 *          stuck or exiting one)
 * @cnode:  SR_EV_NUMA_FAULT: the faulting CPU's node (-1 unknown)
 * @fault_flags: its TNF_* flags
 * @priced: the task's memory placement was known: @shares holds it
 * @migrated_share: model_task_migrated_share() at @cnode
 * @shares: per node, the first nr_nodes used
 * @vm_ok, @vm_phase, @vm_faults, @vm_local: SR_EV_PRINT: a whole
 *          schedreplay_vmstat line's phase and counters
 */
/* the most nodes the ledger prices (cost_of() and snapshots hold 64) */
#define COST_MAX_NODES	64

struct cost_feed {
	int		kind;
	uint64_t	ts_ns;
	int		pid;
	int		cnode;
	unsigned int	fault_flags;
	bool		priced;
	bool		vm_ok;
	int		vm_phase;
	int64_t		vm_faults;
	int64_t		vm_local;
	double		migrated_share;
	double		shares[COST_MAX_NODES];
};

/**
 * cost_ledger_wants() - whether @ev means anything to the ledger: what
 * cost_ledger_capture() would return, read before a slot is taken for it
 * (most events of a trace, switches and wake-ups, do not; inline, as it
 * is asked at every event)
 */
static inline bool cost_ledger_wants(const struct sr_event *ev)
{
	switch (ev->kind) {
	case SR_EV_NUMA_FAULT:
		return true;
	case SR_EV_MIGRATE:
		return ev->u.mig.pid > 0;
	case SR_EV_STICK_NUMA:
		return ev->u.numa.src_pid > 0;
	case SR_EV_EXIT:
		return ev->u.exit.pid > 0;
	case SR_EV_PRINT:
		return ev->marker == SR_MARK_VMSTAT;
	default:
		return false;
	}
}

/**
 * cost_ledger_capture() - read what @ev means for the ledger (after
 * decision_feed(), before model_feed())
 * @m: the model, in its state before @ev
 * @f: filled
 * Context: reads only what cost_ledger_new() set in @l, so it may run
 * while another thread applies earlier events.
 * Return: true when @f must be given to cost_ledger_apply().
 */
bool cost_ledger_capture(const struct cost_ledger *l, const struct model *m,
			 const struct sr_event *ev, struct cost_feed *f);

/**
 * cost_ledger_apply() - apply a captured event, in trace order with the
 * decisions (cost_ledger_decide_parts()) made before it
 * Return: 0, -ENOMEM, or a negative code from @done.
 */
int cost_ledger_apply(struct cost_ledger *l, const struct cost_feed *f);

/**
 * cost_ledger_feed() - look at one event (after decision_feed(), before
 * model_feed())
 * @m: the model, in its state before @ev
 * Return: 0, -ENOMEM, or a negative code from @done.
 */
int cost_ledger_feed(struct cost_ledger *l, const struct model *m, const struct sr_event *ev);

/**
 * cost_ledger_decide() - a decision and the node each side would leave its
 * task on
 * @node: per enum cost_side, -1 when unknown
 * @user: handed back in cost_item.user
 * Return: 0, -ENOMEM, or a negative code from @done (which may be called
 * now, for an earlier or this decision).
 */
int cost_ledger_decide(struct cost_ledger *l, const struct decision *d,
		       const int node[COST__SIDES], void *user);

/**
 * cost_ledger_decide_parts() - a decision that prices other tasks besides
 * its own: a load-balance pass where a side pulls another task than the
 * kernel did.  Each other task is priced from the decision's time until its
 * own next decision (its exit, the end of the trace), on the node each side
 * leaves it; the decision comes back once every part's interval closed.
 * @parts: @nr of them (1..COST_MAX_PARTS, more are ignored); parts[0] is the
 *         decision's own task (its tid), the node[] cost_ledger_decide() takes
 * Return: as cost_ledger_decide().
 */
int cost_ledger_decide_parts(struct cost_ledger *l, const struct decision *d,
			     const struct cost_part_in *parts, int nr, void *user);

/**
 * cost_ledger_finish() - the trace ended at @end_ns: close every interval,
 * hand back every decision still waiting
 * Return: 0, or a negative code from @done.
 */
int cost_ledger_finish(struct cost_ledger *l, uint64_t end_ns);

/** cost_ledger_totals() - the sums so far.  Return: borrowed. */
const struct cost_totals *cost_ledger_totals(const struct cost_ledger *l);

/**
 * cost_ledger_set_vmstat() - the kernel counters from files around the
 * capture, used when the trace has no schedreplay_vmstat lines
 */
void cost_ledger_set_vmstat(struct cost_ledger *l, int64_t faults_before, int64_t local_before,
			    int64_t faults_after, int64_t local_after);

/**
 * cost_ledger_top_tasks() - the tasks whose decisions cost most, by
 * |new - old| distance-weighted, largest first
 * @n: at most this many; set to how many were returned
 * Return: owned array (free()), NULL when none.
 */
struct cost_task *cost_ledger_top_tasks(const struct cost_ledger *l, size_t *n);

/**
 * cost_verdict_node() - the node a verdict leaves the task on: the
 * destination for allow, the placement policy's target_node or the source
 * for resist; -1 for unknown or not applicable, or when that node is not known
 */
int cost_verdict_node(const struct sr_snapshot *s, const struct sr_verdict *v);

/**
 * cost_choice_node() - the node a side's load-balance choice leaves the
 * decision's task on: the destination's when it pulls that task, the
 * source's when it pulls another or none (the task stays), -1 unknown
 */
int cost_choice_node(const struct sr_snapshot *s, const struct decision_choice *c);

/** cost_trace_node() - where the kernel left the task: src for numa-stick, dst otherwise. */
int cost_trace_node(const struct sr_snapshot *s);

/** cost_unknown_name() - "no-fault-events", "placement-unknown", ... */
const char *cost_unknown_name(int why);

/** cost_end_name() - "next-decision", "exit", "trace-end" */
const char *cost_end_name(int end);

#endif
