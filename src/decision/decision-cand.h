/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decision-cand.h - load-balance decision points: the candidates of one
 * balance pass in the order detach_tasks() walks them, rebuilt from the
 * model's runqueue, and which migrations belong to the same pass
 * (decision-cand.c).  Private to src/decision/.
 */
#ifndef SR_DECISION_CAND_H
#define SR_DECISION_CAND_H

#include <stdbool.h>
#include <stdint.h>

#include <schedreplay/sr-policy.h>

#include "decision-snap.h"
#include "model/model.h"

/*
 * Two pulls of one detach_tasks() pass are logged back to back by the
 * balancing CPU; a gap longer than this starts another pass.
 */
#define DECISION_PASS_GAP_NS	(50ull * 1000)

/**
 * struct decision_pass - one balance pass: the candidates and what the
 * kernel has pulled of them so far
 * @refs:    the decisions waiting in the queue that use it, plus the
 *           classifier's own while the pass may still grow
 * @src, @dst: the source (busiest) and the balancing CPU
 * @log_cpu: the CPU that logged its migrations
 * @active:  by the source CPU's stopper (detach_one_task(): one pull)
 * @last_ns: its last migration
 * @flags:   SR_DP_* bits
 * @pulls:   migrations of the pass so far
 * @nr:      candidates
 * @tid:     their tids, in walk order
 * @taken:   the kernel pulled it already in this pass
 * @layout:  the snapshot layout when the pass began (decision-snap.h)
 * @pk:      their snapshots, @nr of them, packed under @layout
 *           (decision_snap_pack(), decision_snap_used(@layout) bytes each;
 *           decision.c fills them): a pass's 32 whole snapshots took
 *           384 KB, and a queue of pending pulls held tens of passes
 */
struct decision_pass {
	int			refs;
	int			src;
	int			dst;
	int			log_cpu;
	bool			active;
	uint64_t		last_ns;
	unsigned int		flags;
	int			pulls;
	int			nr;
	int			tid[SR_MAX_CANDIDATES];
	bool			taken[SR_MAX_CANDIDATES];
	struct decision_snap_layout layout;
	unsigned char		pk[];
};

/**
 * decision_cand_order() - the tasks on CPU @src in detach_tasks() order
 * @m:       the model before the migration
 * @src:     the source CPU
 * @skip:    a tid left out (the stopper running for an active balance), or 0
 * @pulled:  the task the kernel pulled: always among the result
 * @tid:     filled with up to SR_MAX_CANDIDATES tids
 * @flags:   set to SR_DP_RECONSTRUCTED, with SR_DP_PULLED_ADDED and
 *           SR_DP_TRUNCATED as they apply
 *
 * The queued and running tasks the model puts on @src, oldest rq_head_ns
 * first (the tail of cfs_tasks: least recently enqueued or picked), a task
 * whose rq_head_ns is unknown before all others, ties by tid.  A stopper
 * (migration/N) is not a CFS task and never listed.
 * Context: pure (reads @m).
 * Return: the number of tids, or -ENOMEM.
 */
int decision_cand_order(const struct model *m, int src, int skip, int pulled,
			int tid[SR_MAX_CANDIDATES], unsigned int *flags);

/** decision_pass_find() - @tid's index in @p, -1 when not a candidate */
int decision_pass_find(const struct decision_pass *p, int tid);

/**
 * decision_pass_joins() - does a migration of @tid from @src to @dst,
 * logged on @log_cpu at @ts, continue pass @p
 */
bool decision_pass_joins(const struct decision_pass *p, int tid, int src, int dst, int log_cpu,
			 uint64_t ts);

/** decision_pass_put() - drop a reference; the last one frees (NULL is fine) */
void decision_pass_put(struct decision_pass *p);

#endif
