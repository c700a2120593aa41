/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decision-probe.h - the decision probes' part of the classifier: a
 * candidate's snapshot from the inputs the kernel read, and entry/return
 * pairing per CPU (decision-probe.c).  Private to src/decision/.
 */
#ifndef SR_DECISION_PROBE_H
#define SR_DECISION_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include <schedreplay/sr-snapshot.h>

#include "ingest/event.h"

/* can_migrate_task, select_task_rq_fair, task_numa_migrate */
#define DECISION_PROBE_FAMILIES	3

/* one open entry event, waiting for its return */
struct decision_probe_entry {
	bool			open;
	enum sr_event_kind	kind;
	uint64_t		ts_ns;
	uint64_t		src_pos;
	int			pid;		/* common_pid of the entry */
	struct sr_ev_probe	pr;
};

struct decision_probe_cpu {
	struct decision_probe_entry	fam[DECISION_PROBE_FAMILIES];
};

/*
 * One task_numa_migrate() call of a task: from its tnm to its tnm_ret
 * (paired by task, as the task may return on the CPU it moved to), and the
 * CPU its move or swap targeted (-1 until one is seen in the window).
 */
struct decision_numa_eval {
	int		pid;
	bool		open;
	uint64_t	start_ns;
	uint64_t	ret_ns;
	int		target;
};

/* per CPU, each family's open entry; and the damage counted */
struct decision_probe_pairs {
	struct decision_probe_cpu	*cpu;
	int				nr_cpus;
	struct decision_numa_eval	*evals;
	int				nr_evals;
	int				evals_cap;
	int64_t				se_off;		/* offsetof(task_struct, se), -1 unknown */
	uint64_t			unpaired_entries;	/* an entry whose return never came */
	uint64_t			returns_without_entry;
};

/**
 * decision_probe_apply() - put a can_migrate_task entry's inputs into @s
 * @s:      a snapshot the model filled; the fields the probe carries replace
 *          the model's (idle type, running, since-ran, NUMA state, runqueue
 *          counts, buddies, nr_balance_failed and cache_nice_tries, domain level)
 * @pr:     the entry's fields
 * @se_off: offsetof(struct task_struct, se) from the recording's cmt
 *          schedreplay_probe line, or -1: a buddy pointer is then taken
 *          as p's own when it points within 4 KiB after p
 */
void decision_probe_apply(struct sr_snapshot *s, const struct sr_ev_probe *pr, int64_t se_off);

/**
 * decision_probe_marker() - a schedreplay_probe line: the cmt line's
 * se_off is kept in @pp (a line with a bad or absent se_off changes nothing)
 */
void decision_probe_marker(struct decision_probe_pairs *pp, const struct sr_event *ev);

/** decision_probe_is_active() - env->flags has LBF_ACTIVE_LB (the stopper's balance) */
bool decision_probe_is_active(const struct sr_ev_probe *pr);

/**
 * decision_probe_enter() - an entry event on its CPU; an entry still open
 * there in the same family is counted unpaired and replaced
 * Return: 0 or -ENOMEM.
 */
int decision_probe_enter(struct decision_probe_pairs *pp, const struct sr_event *ev,
			 const struct sr_ev_probe *pr);

/**
 * decision_probe_leave() - a return event: the entry it closes
 * @entry_kind: the kind of the entry it pairs with (SR_EV_CMT for SR_EV_CMT_RET)
 * Return: borrowed (valid until the next enter on that CPU), NULL when no
 * entry was open (counted in returns_without_entry).
 */
const struct decision_probe_entry *decision_probe_leave(struct decision_probe_pairs *pp,
							const struct sr_event *ev,
							enum sr_event_kind entry_kind);

/**
 * decision_probe_tnm_enter() / _leave() - a task_numa_migrate() entry or
 * return of task @pid; _leave returns the window's length via @len_ns
 * Return: enter: 0 or -ENOMEM; leave: true when an entry was open.
 */
int decision_probe_tnm_enter(struct decision_probe_pairs *pp, int pid, uint64_t ts);
bool decision_probe_tnm_leave(struct decision_probe_pairs *pp, int pid, uint64_t ts,
			      uint64_t *len_ns);

/**
 * decision_probe_numa_target() - task @pid's NUMA move or swap targets @cpu
 * Return: the start of its open evaluation window, 0 when it has none.
 */
uint64_t decision_probe_numa_target(struct decision_probe_pairs *pp, int pid, int cpu);

/**
 * decision_probe_numa_claims() - the other evaluation windows (not of
 * @pid or @partner) that targeted @cpu and overlapped [@from, @to]: the
 * numa_migrate_on claims that may have covered @cpu then
 */
int decision_probe_numa_claims(const struct decision_probe_pairs *pp, int cpu, int pid,
			       int partner, uint64_t from, uint64_t to);

/** decision_probe_lost() - lost events on @cpu: its open entries are unpaired */
void decision_probe_lost(struct decision_probe_pairs *pp, int cpu);

/** decision_probe_finish() - the trace ended: what is still open is unpaired */
void decision_probe_finish(struct decision_probe_pairs *pp);

/** decision_probe_free() - free the per-CPU table */
void decision_probe_free(struct decision_probe_pairs *pp);

#endif
