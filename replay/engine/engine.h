/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine.h - the replay engine: every decision goes through the old and
 * the new policy that decide its class, and through the policy that models
 * the kernel which recorded the trace (for fidelity); the engine keeps the
 * totals the report needs.
 *
 * Sides: ENGINE_OLD and ENGINE_NEW are the pair being compared;
 * ENGINE_KERNEL is the model of the recording kernel.  On each side, a
 * class is decided by the first policy added whose classes mask has it.
 *
 * Definitions (docs/replay.md):
 *   choice      what a side does at the decision point: the task it pulls
 *               (load balancing: engine-choice.c walks the candidates), the
 *               CPU/node it puts the task on, or no move
 *   disagree    old and new both made a known choice, and not the same one
 *   unknown     either side answered unknown (a snapshot field it needed
 *               was not known): counted, never guessed
 *   flips       a disagreement that goes away or appears when
 *               nr_balance_failed is taken past cache_nice_tries
 *               (SR_VF_FAILED_DEPENDENT on either side)
 *   reproduced  the kernel model agrees with what the trace shows: it
 *               allows a migration the kernel made, or does not allow a
 *               move the kernel refused (numa-stick), with
 *               nr_balance_failed at its default (no failed attempts)
 */
#ifndef SR_REPLAY_ENGINE_ENGINE_H
#define SR_REPLAY_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include <schedreplay/sr-policy.h>

#include "decision/decision.h"
#include "replay/engine/engine-place.h"
#include "replay/replay.h"
#include "util/err.h"
#include "util/strcount.h"

enum engine_side {
	ENGINE_OLD = 0,
	ENGINE_NEW = 1,
	ENGINE_KERNEL = 2,
	ENGINE__SIDES
};

/**
 * struct engine_result - one decision, replayed
 * @d:          the decision (borrowed for the emit call)
 * @pol:        the policy of each side that decided it, NULL when none
 * @v:          each side's verdict (not-applicable when @pol is NULL)
 * @cv:         each side's choice verdict at a load-balance decision point
 *              (replay_policy_choose(); target_tid says the task); a copy of
 *              @v for the other classes
 * @choice:     each side's choice (unknown when @pol is NULL)
 * @did:        what the kernel did (decision_kernel_choice())
 * @verdicts_differ: old and new both gave allow/resist, and not the same
 *              one (what disagree meant before choices)
 */
struct engine_result {
	const struct decision		*d;
	const struct replay_policy	*pol[ENGINE__SIDES];
	struct sr_verdict		v[ENGINE__SIDES];
	struct sr_verdict		cv[ENGINE__SIDES];
	struct decision_choice		choice[ENGINE__SIDES];
	struct decision_choice		did;
	bool				verdicts_differ;
	bool				disagree;
	bool				unknown;
	bool				flips;
	bool				judged;		/* the kernel side gave allow or resist */
	bool				reproduced;
};

/** struct engine_class_stats - totals of one decision class */
struct engine_class_stats {
	uint64_t	decisions;
	uint64_t	moved;		/* the task changed CPU (a placement may keep it) */
	uint64_t	decided;	/* old or new had a policy for it */
	uint64_t	disagreements;
	uint64_t	unknown;
	uint64_t	flips;
	uint64_t	old_allow;
	uint64_t	new_allow;
	uint64_t	kernel_decisions;	/* the kernel side had a policy for it */
	uint64_t	kernel_judged;
	uint64_t	reproduced;
	uint64_t	kernel_forced;		/* SR_VF_FORCED on the kernel side */
	uint64_t	lost;			/* in a lost-events window */
	/* the kernel model's choice against what the kernel did */
	uint64_t	choice_decisions;	/* the kernel side had a policy */
	uint64_t	choice_same;		/* ...and chose what the kernel did */
	uint64_t	choice_unknown;		/* ...and its choice could not be said */
	uint64_t	verdict_disagreements;	/* verdicts_differ */
};

/**
 * engine_choice_of() - a side's choice from its verdicts (engine-choice.c)
 * @d:  the decision
 * @v:  the side's verdict on the kernel's move
 * @cv: its choice verdict at a load-balance decision point (target_tid), or
 *      NULL for the other classes
 * @c:  filled: for load balancing the task it pulls (none, unknown); for
 *      the others the CPU/node of target_cpu/target_node, or the kernel's
 *      move when it allows it without naming one, or no move when a
 *      NUMA-class policy resists; unknown otherwise
 */
void engine_choice_of(const struct decision *d, const struct sr_verdict *v,
		      const struct sr_verdict *cv, struct decision_choice *c);

/**
 * struct engine_truth - the kernel model against the kernel's own verdicts
 * (load-balance candidates a can_migrate_task probe saw: decision.truth)
 * @policy:         the kernel side's policy for them, NULL when none
 * @candidates:     candidates replayed
 * @kernel_allowed: of them, can_migrate_task() returned 1
 * @kernel_refused: returned 0
 * @judged:         the kernel model answered allow or resist
 * @model_agrees:   of those, its answer was the kernel's
 * @disagree_by:    judged disagreements by "verdict reason, kernel answer"
 * @unknown_by:     unknown verdicts by the first field that was missing
 */
struct engine_truth {
	const char	*policy;
	uint64_t	candidates;
	uint64_t	kernel_allowed;
	uint64_t	kernel_refused;
	uint64_t	judged;
	uint64_t	model_agrees;
	struct strcount	disagree_by;
	struct strcount	unknown_by;
};

struct engine;

/** engine_new() - an engine with no policies.  Return: owned, or NULL. */
struct engine *engine_new(void);

/** engine_free() - free the engine and every policy instance it owns. */
void engine_free(struct engine *e);

/**
 * engine_add() - put a started policy instance on a side
 * @pol: taken over by the engine (freed by engine_free())
 * Return: 0, or -SR_EUSAGE (@err says) when that side already has a policy
 * for every class @pol decides.
 */
int engine_add(struct engine *e, enum engine_side side, struct replay_policy *pol,
	       struct err *err);

/**
 * engine_policy() - the policy deciding @cls on @side
 * Return: borrowed, or NULL.
 */
const struct replay_policy *engine_policy(const struct engine *e, enum engine_side side, int cls);

/** engine_nr_policies() - how many policies a side has */
int engine_nr_policies(const struct engine *e, enum engine_side side);

/** engine_policy_at() - the @i-th policy added on @side.  Return: borrowed. */
const struct replay_policy *engine_policy_at(const struct engine *e, enum engine_side side, int i);

/**
 * engine_evaluate() - replay one decision and add it to the totals
 * @r: filled
 * Return: 0, or a policy's negative code (@err says which and why).
 */
int engine_evaluate(struct engine *e, const struct decision *d, struct engine_result *r,
		    struct err *err);

/** engine_class() - the totals of one class.  Return: borrowed. */
const struct engine_class_stats *engine_class(const struct engine *e, int cls);

/** engine_missing() - decisions with an unknown verdict that lacked field @bit */
uint64_t engine_missing(const struct engine *e, int bit);
/**
 * engine_waker_inferred() - wake-ups without the waker's CPU for which the
 * recording kernel's model ruled some CPUs out (waker-cpu-inferred)
 */
uint64_t engine_waker_inferred(const struct engine *e);

/**
 * engine_reason_pairs() - disagreements counted by "old-reason / new-reason"
 * Return: borrowed.
 */
const struct strcount *engine_reason_pairs(const struct engine *e);

/** engine_place() - the placement classes' totals.  Return: borrowed. */
const struct engine_place *engine_place(const struct engine *e);

/** engine_truth() - the ground-truth totals.  Return: borrowed. */
const struct engine_truth *engine_truth(const struct engine *e);

/** struct engine_task - disagreements of one task */
struct engine_task {
	int		tid;
	char		comm[SR_SNAP_COMM_LEN];
	uint64_t	decisions;
	uint64_t	disagreements;
	uint64_t	kernel_forced;		/* lb decisions the kernel model let through hot */
	uint64_t	kernel_resist_hot;	/* lb decisions the kernel model refused as hot */
};

/**
 * engine_task_get() - one task's row
 * Return: borrowed (valid until the next engine_evaluate()), NULL when the
 * task had no decision.
 */
const struct engine_task *engine_task_get(const struct engine *e, int tid);

/**
 * engine_top_tasks() - the tasks with most disagreements, most first
 * @n: at most this many; set to how many were returned
 * Return: owned array (free()), NULL when none.
 */
struct engine_task *engine_top_tasks(const struct engine *e, size_t *n);

/**
 * engine_kernel_policy_name() - the built-in that models the kernel of a
 * release for a class ("lb-v6.1" for 6.1 load balancing)
 * @release: "6.1.0-57-amd64"; NULL or unparsable gives NULL
 * Return: static name, NULL when no built-in models that class there.
 */
const char *engine_kernel_policy_name(const char *release, int cls);

#endif
