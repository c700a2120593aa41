/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model-local.h - private to src/model/: the model handle, the task table
 * (open addressing keyed by tid, tasks in chunks so their addresses never
 * move) and the fault-array arena.
 *
 * No per-event allocation: a task is allocated once per tid (from a chunk),
 * its fault arrays once, on its first numa_sample (from the arena); a
 * reused tid keeps both.
 */
#ifndef SR_MODEL_LOCAL_H
#define SR_MODEL_LOCAL_H

#include "model.h"
#include "../ingest/marker.h"

/**
 * struct model_fstate - the fault model of one task (model-faults.c): the
 * kernel's four regions, each nr_nodes x 2 (index 2 * node + priv, priv 0 =
 * shared, 1 = private), carved from the arena on the task's first fault
 * @mem, @membuf: decayed / current-window faults by memory node (pages)
 * @cpu, @cpubuf: the same by the faulting CPU's node (not runtime-weighted)
 * @mig, @migbuf: of @mem / @membuf, by memory node (private + shared), the
 *                faults that migrated their page there (TNF_MIGRATED):
 *                booked where the page went, they were remote when taken
 * @epoch:        scan epoch (ts / scan period) of the last placement
 * @placements:   placements (decays) run since the first fault seen
 * @contrib_gid:  group whose totals hold this task's mem/cpu (0: none)
 * @active:       the arrays hold this task's numbers (reset with the task)
 * @base_known:   the task's fault history before its first traced fault is
 *                known to be empty (born in the trace, or a sample said so)
 * @sampled:      a numa_sample gave its faults: samples win, the fault model
 *                no longer writes the public arrays
 * @incomplete_in_group: counted in its group's incomplete members
 */
struct model_fstate {
	uint64_t	*mem;
	uint64_t	*membuf;
	uint64_t	*cpu;
	uint64_t	*cpubuf;
	uint64_t	*mig;
	uint64_t	*migbuf;
	uint64_t	epoch;
	uint32_t	placements;
	int		contrib_gid;
	bool		active;
	bool		base_known;
	bool		sampled;
	bool		incomplete_in_group;
};

/**
 * struct model_group - a NUMA group's fault totals as the fault model sums
 * them from its members (the kernel adjusts them by each member's deltas)
 * @gid:        the group id (the kernel's ngid), > 0
 * @mem, @cpu:  per node, private + shared
 * @incomplete: members whose history before the trace is not known
 */
struct model_group {
	int		gid;
	uint64_t	*mem;
	uint64_t	*cpu;
	int		members;
	int		incomplete;
};

/* per CPU: a numa_misplaced page migration waiting for the fault that did it */
struct model_misplaced {
	int		pid;
	uint64_t	pages;
};

/**
 * struct model_slot - a task as the table holds it
 * @pub: what model_task_lookup() hands out; model-only per-task fields go
 *       next to it
 */
/* a task's switch-out time in the trace less its se.exec_start, on @cpu's rq */
struct model_clock_pair {
	int	cpu;
	int64_t	off;
};

struct model_slot {
	struct model_task	pub;
	struct model_fstate	fs;
};

#define MODEL_CHUNK_TASKS 1024

struct model_chunk {
	struct model_chunk	*next;
	int			used;
	struct model_slot	slots[MODEL_CHUNK_TASKS];
};

/* fault arena block: room for this many tasks' two arrays */
#define MODEL_ARENA_TASKS 256

struct model_arena {
	struct model_arena	*next;
	size_t			used;	/* uint64_t entries handed out */
	size_t			cap;
	uint64_t		vals[];
};

struct model {
	const struct topo	*topo;
	int			nr_nodes;
	struct model_cpu	*cpus;
	int			nr_cpus;
	int			cap_cpus;

	struct model_slot	**table;	/* open addressing, power-of-two size */
	size_t			table_size;
	size_t			table_used;
	struct model_chunk	*chunks;	/* newest first */
	struct model_arena	*arena;		/* newest first */

	struct model_stats	stats;
	uint64_t		last_ts_ns;
	bool			have_ts;
	struct marker_sample	sample;		/* scratch for numa_sample lines */
	struct marker_task	snap;		/* scratch for schedreplay_task lines */
	struct model_clock_pair	*clock_pairs;	/* trace clock - exec_start, per task */
	size_t			nr_clock_pairs;
	size_t			cap_clock_pairs;
	bool			snap_done;	/* the start snapshot's summary line was seen */
	struct model_seed	*seeds;		/* by tid, model_seed_tasks() */
	size_t			nr_seeds;
	int64_t			*clock_off;	/* per CPU, nr_clock_off entries */
	bool			*clock_off_known;
	int			nr_clock_off;

	/* the fault model (model-faults.c) */
	uint64_t		scan_period_ns;
	bool			scan_period_fixed;	/* set by the caller: sysctl lines do not change it */
	struct model_group	*groups;		/* open addressing by gid */
	size_t			groups_size;
	size_t			groups_used;
	struct model_misplaced	*misplaced;		/* per CPU, nr_cpus entries */
	int			nr_misplaced;
	struct model_fault_stats fstats;
};

/**
 * model_arena_take() - @n zeroed uint64_t from the arena (freed with the model)
 * Return: the entries, or NULL on allocation failure.
 */
uint64_t *model_arena_take(struct model *m, size_t n);

/** model_feed_fault() - a NUMA hinting fault.  Return: 0 or -ENOMEM. */
int model_feed_fault(struct model *m, const struct sr_event *ev);

/* model-numa.c: a sample's numbers onto @s (@count: a numa_sample line, not a snapshot) */
int model_apply_sample(struct model *m, struct model_slot *s, const struct marker_sample *smp,
		       uint64_t ts_ns, bool count);
bool model_sample_faults_valid(const struct marker_sample *smp);

/* model-snapshot.c: schedreplay_task and schedreplay_snapshot lines */
int model_feed_snapshot_task(struct model *m, const struct sr_event *ev);
int model_feed_snapshot_end(struct model *m, const struct sr_event *ev);
void model_seed_apply(struct model *m, struct model_slot *s);

/** model_feed_misplaced() - mm_migrate_pages.  Return: 0 or -ENOMEM. */
int model_feed_misplaced(struct model *m, const struct sr_event *ev);

/** model_feed_sysctl() - a schedreplay_sysctl line: the scan period. */
void model_feed_sysctl(struct model *m, const struct sr_event *ev);

/**
 * model_faults_sampled() - a numa_sample gave @s's faults (already in its
 * public arrays): count the gap to the fault model and re-seed it
 * @smp: the parsed sample
 */
void model_faults_sampled(struct model *m, struct model_slot *s, const struct marker_sample *smp,
			  uint64_t ts_ns);

/** model_faults_exit() - @s is gone: take its faults out of its group. */
void model_faults_exit(struct model *m, struct model_slot *s);

/** model_faults_free() - free the group table and the per-CPU array. */
void model_faults_free(struct model *m);

/** model_task_find() - the slot of @tid, or NULL. */
struct model_slot *model_task_find(const struct model *m, int tid);

/**
 * model_task_get() - the slot of @tid, created when unseen; a DEAD tid
 * is reset as a new task and counted as reused
 * @ts_ns: the event's time, for first_seen_ns
 * Return: the slot, or NULL on allocation failure (or tid <= 0).
 */
struct model_slot *model_task_get(struct model *m, int tid, uint64_t ts_ns);

/** model_task_reset() - forget all about @s (tid kept): a new task with this tid. */
void model_task_reset(struct model *m, struct model_slot *s, uint64_t ts_ns);

/**
 * model_task_faults() - make sure @s has its two fault arrays
 * Return: 0 or -ENOMEM.
 */
int model_task_faults(struct model *m, struct model_slot *s);

/** model_tasks_free() - free the table, chunks and arena. */
void model_tasks_free(struct model *m);

/**
 * model_cpu_pelt_advance() - bring a CPU's PELT-like averages up to the
 * model's current time, before its current task or nr_runnable changes
 */
void model_cpu_pelt_advance(struct model *m, struct model_cpu *c);

/**
 * model_cpu_ensure() - grow the CPU array to hold @cpu
 * Return: the CPU, or NULL when @cpu is out of 0..TOPO_MAX_CPUS-1 (counted
 * in bad_cpu) or on allocation failure (*@nomem set).
 */
struct model_cpu *model_cpu_ensure(struct model *m, int cpu, bool *nomem);

/**
 * model_set_pref() - set a task's preferred node, keeping the per-CPU
 * nr_preferred / nr_pref_unknown counts right
 */
void model_set_pref(struct model *m, struct model_task *t, int pref, bool known);

/**
 * model_place() - set a task's CPU and state, keeping nr_runnable right
 * @cpu: new CPU, or -1 for unknown
 */
void model_place(struct model *m, struct model_slot *s, int cpu, enum model_task_state st);

/** model_set_comm() - copy a comm (bounded, NUL-terminated); empty ones are ignored. */
void model_set_comm(struct model_task *t, const char *comm, size_t max);

/** model_feed_numa() - sched_move_numa / swap_numa / stick_numa.  Return: 0 or -ENOMEM. */
int model_feed_numa(struct model *m, const struct sr_event *ev);

/** model_feed_sample() - a numa_sample print event.  Return: 0 or -ENOMEM. */
int model_feed_sample(struct model *m, const struct sr_event *ev);

#endif
