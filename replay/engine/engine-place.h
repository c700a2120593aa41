/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine-place.h - the placement classes' totals (wake-up, fork, exec):
 * how often the kernel model picks the CPU the kernel picked (choice
 * fidelity), and against a select_task_rq_fair probe's return value
 * (ground truth).  engine-place.c.
 */
#ifndef SR_REPLAY_ENGINE_PLACE_H
#define SR_REPLAY_ENGINE_PLACE_H

#include <stdbool.h>
#include <stdint.h>

#include <schedreplay/sr-policy.h>

#include "util/strcount.h"

struct engine_result;

/** struct engine_place_class - one placement class */
struct engine_place_class {
	const char	*policy;	/* the kernel model, NULL when none */
	uint64_t	decisions;
	uint64_t	same;		/* the model's CPU is the one the trace shows */
	uint64_t	unknown;
	uint64_t	truth;		/* decisions with the kernel's own return value */
	uint64_t	truth_judged;	/* ...the model picked a CPU */
	uint64_t	truth_agrees;	/* ...and it is the returned one */
	uint64_t	truth_trace_agrees;	/* the trace's CPU is the returned one */
};

/** struct engine_place - the placement classes, and the misses by cause */
struct engine_place {
	struct engine_place_class	cls[SR_DECISION_CLASS__COUNT];
	struct strcount			miss_by;	/* kernel-model misses by first reason */
	uint64_t			unlisted;	/* placements the JSON leaves out */
	/* the last miss_by key made, and what it was made of: most misses repeat it */
	char				miss_key[96];
	int				miss_cls;
	unsigned int			miss_reason;
	const struct sr_policy_ops	*miss_ops;
};

/** engine_place_is_class() - wake-up, fork or exec */
bool engine_place_is_class(int cls);

/**
 * engine_place_listed() - whether the report lists a decision: every one of
 * the other classes; a placement only when the task moved or a side's
 * choice (kernel model's included) differs from the kernel's CPU
 */
bool engine_place_listed(const struct engine_result *r);

/** engine_place_account() - add one replayed decision.  Return: 0 or -ENOMEM. */
int engine_place_account(struct engine_place *p, const struct engine_result *r);

#endif
