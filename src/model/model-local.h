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
 * struct model_slot - a task as the table holds it
 * @pub: what model_task_lookup() hands out; model-only per-task fields go
 *       next to it
 */
struct model_slot {
	struct model_task	pub;
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
};

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
