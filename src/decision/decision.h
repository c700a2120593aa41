/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decision.h - turn the migrations in a trace into decisions: one per
 * sched_migrate_task and one per sched_stick_numa, each with a class
 * (why the kernel moved the task, judged from the events around it) and
 * a context snapshot (struct sr_snapshot: the state a policy may read).
 *
 * Feed every event to decision_feed() *before* model_feed(), so that a
 * snapshot shows the state the kernel decided in, not the state after.
 * Classification needs a little of the future (a wake-up or an exec that
 * follows the migration), so decisions wait in a small queue until their
 * evidence arrives or DECISION_WINDOW_NS of trace time has passed, and are
 * emitted in trace order.  Memory is bounded by the events of one window.
 *
 * Rules (docs/decisions.md):
 *   numa-move   a sched_move_numa for the task preceded it, with that dst
 *   numa-swap   a sched_swap_numa naming the task preceded it
 *   numa-stick  a sched_stick_numa (the kernel refused the move or swap)
 *   fork        the task's sched_wakeup_new on the destination CPU follows
 *   wakeup      the task's sched_waking/sched_wakeup on the destination
 *               CPU follows (the waker's select_task_rq() moved it)
 *   exec        the source CPU's stopper moved it (migration/N logged it
 *               on CPU N = orig_cpu), woken on CPU N by the task itself,
 *               and the task's sched_process_exec follows
 *   lb-active   the source CPU's stopper moved it, and none of the above
 *   lb-pull     it was queued, not running, on the source CPU
 *   other       none of these: the evidence does not settle it
 * Placement (decision-wakeup.c): every sched_waking that reaches
 * select_task_rq() is a wake-up decision, the migration it caused or
 * (staying on prev) one of its own at its sched_wakeup; every
 * sched_wakeup_new is a fork decision (the child's CPU is its target_cpu).
 */
#ifndef SR_DECISION_DECISION_H
#define SR_DECISION_DECISION_H

#include <stdbool.h>
#include <stdint.h>

#include <schedreplay/sr-snapshot.h>

#include "ingest/event.h"
#include "model/model.h"
#include "topo/topo.h"

struct decision_snap_layout;

/* How long a decision waits for the events that classify it (trace time). */
#define DECISION_WINDOW_NS	(20ull * 1000 * 1000)
/*
 * How long a move by the source CPU's stopper, woken by the task itself,
 * waits for the task's sched_process_exec: sched_exec() runs before the
 * binary is loaded, and the exec event comes after (22-101 ms seen).
 */
#define DECISION_EXEC_WINDOW_NS	(200ull * 1000 * 1000)
/* How long a sched_move_numa / sched_swap_numa waits for its migration. */
#define DECISION_NUMA_WINDOW_NS	(200ull * 1000 * 1000)

/* Bits of struct decision.flags */
#define DECISION_F_LOST		(1u << 0)	/* lost events on src or dst CPU near it */
#define DECISION_F_STATE_GUESS	(1u << 1)	/* the model's view of the task was incomplete */
/*
 * a CPU it touches (source, destination, the task's last known CPU) was
 * not seen at the time: before that CPU's first event (once the trace has
 * run DECISION_UNSEEN_MIN_NS), or between its last event and a lost-events
 * record that came within the decision's window (docs/replay.md)
 */
#define DECISION_F_UNSEEN	(1u << 2)

/* as INGEST_UNSEEN_MIN_NS: shorter stretches before a CPU's first event are not unseen */
#define DECISION_UNSEEN_MIN_NS	(20ull * 1000 * 1000)

/**
 * enum decision_why - the evidence that settled the class
 */
enum decision_why {
	DECISION_WHY_MOVE_NUMA = 0,	/* sched_move_numa preceded */
	DECISION_WHY_SWAP_NUMA,		/* sched_swap_numa preceded */
	DECISION_WHY_STICK_NUMA,	/* the event is sched_stick_numa */
	DECISION_WHY_WAKEUP_NEW,	/* sched_wakeup_new on dst followed */
	DECISION_WHY_WAKEUP,		/* sched_waking/sched_wakeup on dst followed */
	DECISION_WHY_EXEC,		/* sched_process_exec followed */
	DECISION_WHY_STOPPER,		/* migration/N moved it from CPU N */
	DECISION_WHY_QUEUED,		/* queued, not running, on src */
	DECISION_WHY_RUNNING,		/* other: it was running, no stopper */
	DECISION_WHY_SLEEPING,		/* other: asleep, and no wake-up followed */
	DECISION_WHY_STATE_UNKNOWN,	/* other: the model did not know its state */
	DECISION_WHY_CANDIDATE,		/* a can_migrate_task() probe judged it */
	DECISION_WHY_WAKING,		/* sched_waking on the same CPU preceded, orig = its target */
	DECISION_WHY_WAKING_STAYED,	/* a wake-up that left the task on prev (no migration) */
	DECISION_WHY_RUNNING_ON_DST,	/* other: running, the move logged on dst (not a stopper) */
	DECISION_WHY_SLEEPING_ON_DST,	/* other: asleep, the move logged on dst, no wake-up */
	DECISION_WHY__COUNT
};

/**
 * struct decision - one decision, ready for the policies
 * @snap:        what the policies see (class included)
 * @seq:         0-based index of the decision in the trace
 * @src_pos:     byte offset or line of its event, for messages
 * @why:         enum decision_why
 * @flags:       DECISION_F_* bits
 * @partner_tid: the other task of a numa-swap, 0 otherwise
 * @kthread:     enum model_kthread: the evidence that made has-faults "no"
 *               for a kernel thread, MODEL_KTHREAD_NONE otherwise
 * @has_truth:   a decision probe saw the kernel judge it (false for a
 *               decision read from the migrations; zero-filled is "none")
 * @truth:       then can_migrate_task()'s return value: 1 allowed, 0
 *               refused.  Never in @snap: the policies must not see it.
 * @cand:        a load-balance decision point: the candidates' snapshots
 *               in walk order (struct sr_decision_point.cand), borrowed
 *               for the emit call only (NULL in a copy kept after it, and
 *               for the other classes)
 * @nr_cand:     entries in @cand
 * @nr_pull:     the kernel's pull this decision is, 1-based, in its pass
 * @dp_flags:    SR_DP_* bits
 */
struct decision {
	struct sr_snapshot	snap;
	uint64_t		seq;
	uint64_t		src_pos;
	int			why;
	unsigned int		flags;
	int			partner_tid;
	int			kthread;
	bool			has_truth;
	int			truth;
	const struct sr_snapshot *cand;
	int			nr_cand;
	int			nr_pull;
	unsigned int		dp_flags;
	/* a placement a select_task_rq_fair probe saw: the CPU it returned */
	bool			has_place_truth;
	int			place_truth_cpu;
};

/**
 * enum decision_choice_kind - what one side (or the kernel) chose
 * @DECISION_CHOICE_UNKNOWN: it cannot be said (an input was missing, or no policy)
 * @DECISION_CHOICE_NONE:    pulls nothing / no move
 * @DECISION_CHOICE_TASK:    pulls task @tid (load-balance classes)
 * @DECISION_CHOICE_PLACE:   puts the task on @cpu / @node (-1 when not said)
 */
enum decision_choice_kind {
	DECISION_CHOICE_UNKNOWN = 0,
	DECISION_CHOICE_NONE,
	DECISION_CHOICE_TASK,
	DECISION_CHOICE_PLACE,
};

/**
 * struct decision_choice - a choice at a decision point
 * @kind: enum decision_choice_kind
 * @tid:  DECISION_CHOICE_TASK: the task pulled
 * @pos:  DECISION_CHOICE_TASK: its 0-based place in the walk, -1 when not
 *        a listed candidate
 * @cpu, @node: DECISION_CHOICE_PLACE: where; and for a task pulled, where
 *        it goes (the balancing CPU)
 * @comm: DECISION_CHOICE_TASK: its name when known, else empty (not
 *        NUL-terminated when it fills the array)
 */
struct decision_choice {
	int	kind;
	int	tid;
	int	pos;
	int	cpu;
	int	node;
	char	comm[SR_SNAP_COMM_LEN];
};

/** decision_is_lb() - a load-balance class (lb-pull, lb-active) */
bool decision_is_lb(int cls);

/**
 * decision_kernel_choice() - what the kernel did at @d: the task it pulled
 * (for a probed candidate: it, or nothing when can_migrate_task() said 0),
 * the CPU it put the task on, or no move (numa-stick)
 */
void decision_kernel_choice(const struct decision *d, struct decision_choice *c);

/** decision_choice_same() - @a and @b are the same known choice */
bool decision_choice_same(const struct decision_choice *a, const struct decision_choice *b);

/**
 * typedef decision_emit_fn - receives each decision, in trace order
 * @d:   borrowed for the call
 * @arg: decision_new()'s @arg
 * Return: 0, or a negative code that stops the replay.
 */
typedef int (*decision_emit_fn)(const struct decision *d, void *arg);

/** struct decision_stats - what the classifier saw */
struct decision_stats {
	uint64_t	decisions;
	uint64_t	by_class[SR_DECISION_CLASS__COUNT];
	uint64_t	by_why[DECISION_WHY__COUNT];
	uint64_t	numa_expired;	/* move/swap halves that no migration followed */
	uint64_t	lost_flagged;
	uint64_t	unseen_flagged;	/* DECISION_F_UNSEEN */
	/* decisions whose has-faults (no) came from kernel-thread evidence, by enum model_kthread */
	uint64_t	kthread_by[MODEL_KTHREAD__COUNT];
	/* the decision probes (zero without them) */
	uint64_t	probe_candidates;	/* can_migrate_task entry/return pairs */
	uint64_t	probe_paired_migrations;	/* sched_migrate_task of an allowed candidate */
	uint64_t	probe_unpaired_entries;	/* entry without its return (damage) */
	uint64_t	probe_returns_without_entry;	/* return without entry (damage) */
	uint64_t	probe_unusable;	/* pairs without the task, its CPUs (in the topology) or the verdict */
	uint64_t	probe_placements;	/* select_task_rq_fair pairs */
	uint64_t	wakeups_no_placement;	/* sched_waking with no placement (docs/replay.md) */
	uint64_t	place_truth_unmatched;	/* select_task_rq_fair pairs no decision took */
	uint64_t	probe_numa_windows;	/* task_numa_migrate pairs */
	uint64_t	probe_numa_window_ns;	/* their lengths, summed */
	uint64_t	probe_numa_window_max_ns;
	uint64_t	probe_numa_claim_windows;	/* moves/swap halves counted from the windows */
	uint64_t	probe_numa_claimed;	/* ...of which another window claimed the CPU */
	/* load-balance decision points (decision-cand.c) */
	uint64_t	lb_points;		/* lb-pull and lb-active decisions */
	uint64_t	lb_probe_order;		/* ...whose candidate is the kernel's own (a probe) */
	uint64_t	lb_reconstructed;	/* ...whose candidates the model rebuilt */
	uint64_t	lb_pulled_added;	/* ...of which the pulled task was not on the model's runqueue */
	uint64_t	lb_truncated;		/* ...of which the runqueue held more than SR_MAX_CANDIDATES */
	uint64_t	lb_multi_pull;		/* ...that were the second or later pull of their pass */
	uint64_t	lb_candidates;		/* candidates listed, summed */
};

struct decision_ctx;

/**
 * decision_new() - a classifier for one trace
 * @topo: borrowed; must outlive the classifier
 * @emit: called once per decision
 * @arg:  passed to @emit
 * Return: owned (decision_free()), or NULL on allocation failure.
 */
struct decision_ctx *decision_new(const struct topo *topo, decision_emit_fn emit, void *arg);

/**
 * decision_set_kernel() - the recording kernel's release ("6.1.0-57-amd64";
 * NULL or "" when not known), for the rules that say which CPU logged an
 * event: from 6.0 a wake-up logged on its busy target was not sent there by
 * a waker sharing its cache (ttwu_queue_cond(), f3dd3f674555)
 */
void decision_set_kernel(struct decision_ctx *d, const char *release);

/** decision_free() - free (NULL is fine); pending decisions are dropped. */
void decision_free(struct decision_ctx *d);

/**
 * decision_feed() - look at one event, before model_feed() applies it
 * @m: the model, in its state before @ev
 * Return: 0, a negative code from @emit, or -ENOMEM.
 */
int decision_feed(struct decision_ctx *d, const struct model *m, const struct sr_event *ev);

/**
 * decision_finish() - the trace ended: classify and emit what still waits
 * Return: 0 or a negative code from @emit.
 */
int decision_finish(struct decision_ctx *d);

/**
 * decision_copy() - *@to = *@from, copying only the part of the snapshot
 * the topology uses (a struct decision is about 12 KiB, most of it per-CPU
 * room a small machine leaves zero)
 * @to:   a decision zero beyond that part: from calloc(), or only ever
 *        written by decision_copy() of @d
 * @from: one @d emitted
 */
void decision_copy(const struct decision_ctx *d, struct decision *to, const struct decision *from);

/**
 * decision_copy_snaps() - copy @n snapshots (a decision's candidates) as
 * decision_copy() copies its snapshot: only the part @d's machine uses
 * @to: zero outside that part (calloc() memory, or earlier such copies)
 */
void decision_copy_snaps(const struct decision_ctx *d, struct sr_snapshot *to,
			 const struct sr_snapshot *from, int n);

/**
 * decision_pack_size() - the bytes decision_pack() writes for a decision
 * of @d now: a small header, the decision but its snapshot, and the part of
 * the snapshot the topology uses (a few hundred bytes on a small machine,
 * where the struct is 12 KiB)
 */
size_t decision_pack_size(const struct decision_ctx *d);

/** decision_pack() - write @from into @buf, decision_pack_size() bytes */
void decision_pack(const struct decision_ctx *d, void *buf, const struct decision *from);

/**
 * decision_unpack() - the decision decision_pack() wrote into @buf, into
 * @to, which is zero beyond the part of its snapshot earlier unpacks
 * wrote; needs nothing of the decision_ctx, so another thread may unpack
 * @l:  the unpacking side's own layout, redone when @buf's topology is
 *      not the one it holds (zeroed before the first use)
 *
 * Unpacking decisions in the order they were packed keeps @to right: a
 * topology only grows, so a later decision's part covers an earlier's.
 */
void decision_unpack(struct decision_snap_layout *l, struct decision *to, const void *buf);

/**
 * decision_pack_cand_size() - the bytes decision_pack_cand() writes for @n
 * snapshots (a decision's candidates): the used part of each
 */
size_t decision_pack_cand_size(const struct decision_ctx *d, int n);

/** decision_pack_cand() - write @n snapshots into @buf, packed as decision_pack() packs one */
void decision_pack_cand(const struct decision_ctx *d, void *buf, const struct sr_snapshot *from,
			int n);

/**
 * decision_unpack_cand() - the @n snapshots decision_pack_cand() wrote,
 * into @to (zero beyond what earlier unpacks wrote, as decision_unpack())
 * @l: as decision_unpack() left it for the decision packed with them
 */
void decision_unpack_cand(const struct decision_snap_layout *l, struct sr_snapshot *to,
			  const void *buf, int n);

/** decision_stats() - counters so far.  Return: borrowed. */
const struct decision_stats *decision_stats(const struct decision_ctx *d);

/** decision_why_name() - "sched_move_numa", "wakeup-followed", ... */
const char *decision_why_name(int why);

#endif
