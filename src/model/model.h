/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.h - the scheduler state the decisions need, rebuilt from events.
 *
 * Per CPU: the task running now and how many tasks are runnable there.
 * Per task: comm, tgid, CPU, when it last ran (switch-out), whether it is
 * running / queued / sleeping, preferred node, NUMA group and per-node
 * fault counts.  Anything the trace has not told yet is *unknown* (a flag
 * bit in known), never a silent zero.
 *
 * Pure: no I/O, no libtrace types.  Fed one struct sr_event at a time, in
 * time order.  Inconsistencies in the input (a switch away from a task the
 * model thought ran elsewhere, a tid reused after exit, time going
 * backwards) are counted in struct model_stats, never fatal.
 *
 * Rules (tests/unit/check-model.c pins each one):
 * - nr_runnable of a CPU is the number of tasks whose state is RUNNING or
 *   RUNNABLE and whose known cpu is that CPU; it is kept so by every move.
 * - sched_switch: prev_state with no state bit in its low byte (0, "R", or
 *   the preempt bit "R+") leaves prev RUNNABLE; X or Z (0x10, 0x20) makes
 *   it DEAD; anything else SLEEPING.  next becomes RUNNING there.
 * - sched_process_exit changes nothing but comm: the task still runs; it
 *   becomes DEAD at its last switch-out (X or Z), so that switch-out is
 *   not mistaken for a reused tid.
 * - A DEAD tid named again by any event, or a live tid named as a fork
 *   child, is a new task: pid_reuse++, everything known about it is reset.
 *   A numa_sample naming a DEAD tid is stale (read from /proc before the
 *   exit, written after): counted in stale_samples, not applied.
 * - sched_process_exec: the task is its process's leader now, so its tgid
 *   is known (= pid) and its comm is the file name's last part; when
 *   old_pid differs the thread took over the leader's tid (what was known
 *   of old_pid moves to pid, not counted as reuse) and old_pid is DEAD.
 * - Lost events on a CPU make its current task unknown until its next
 *   switch; a lost marker with cpu -1 does so for every CPU.  They also
 *   make moved_since_ran unknown for the tasks there (or of unknown CPU).
 * - tid 0 (the idle tasks) is never a task; curr 0 means idle.
 * - moved_since_ran: set by the task's fork (as the child) and by each of
 *   its sched_migrate_task, cleared when it is switched in or execs; known
 *   from the first of these seen.
 */
#ifndef SR_MODEL_MODEL_H
#define SR_MODEL_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "../ingest/event.h"
#include "../topo/topo.h"

/* Nodes whose misplaced-page counts are kept (more are counted unattributed) */
#define SR_MAX_NODES_MODEL	64

/* Bits of model_task.known */
#define MODEL_KNOWN_TGID	(1u << 0)
#define MODEL_KNOWN_COMM	(1u << 1)
#define MODEL_KNOWN_CPU		(1u << 2)
#define MODEL_KNOWN_LAST_RAN	(1u << 3)
#define MODEL_KNOWN_STATE	(1u << 4)
#define MODEL_KNOWN_PREF_NODE	(1u << 5)
#define MODEL_KNOWN_NUMA_GROUP	(1u << 6)
#define MODEL_KNOWN_FAULTS	(1u << 7)
#define MODEL_KNOWN_GROUP_FAULTS (1u << 8)
#define MODEL_KNOWN_HAS_FAULTS	(1u << 9)
/* faults / group_faults / pref_node come from the fault model, not a sample */
#define MODEL_KNOWN_FAULTS_MODELLED (1u << 10)
/* moved_since_ran is known: a fork, a migration or a switch-in of it was seen */
#define MODEL_KNOWN_MOVED	(1u << 11)
/* exec_start_ns is known: the recorder's start snapshot gave se.exec_start */
#define MODEL_KNOWN_EXEC_START	(1u << 12)

/* task_numa_fault() flags (docs/kernel-behaviour.md section 4.1) */
#define MODEL_TNF_MIGRATED	0x01
#define MODEL_TNF_NO_GROUP	0x02
#define MODEL_TNF_SHARED	0x04
#define MODEL_TNF_FAULT_LOCAL	0x08
#define MODEL_TNF_MIGRATE_FAIL	0x10

/* The kernel's default numa_balancing_scan_period_min_ms, in ns */
#define MODEL_SCAN_PERIOD_DEFAULT_NS	(1000ull * 1000 * 1000)
/*
 * Placements (decays) after which a task's faults from before the trace are
 * at most 1/256 of what they were: its fault-model numbers count as known.
 */
#define MODEL_FAULT_SETTLE_EPOCHS	8

/* Indices of model_task.ks_first / ks_last */
enum model_ks {
	MODEL_KS_NMIG = 0,	/* se.nr_migrations */
	MODEL_KS_FORCED,	/* se.statistics.nr_forced_migrations */
	MODEL_KS_FHOT,		/* se.statistics.nr_failed_migrations_hot */
};

enum model_task_state {
	MODEL_TASK_UNKNOWN = 0,
	MODEL_TASK_RUNNING,	/* current on its CPU */
	MODEL_TASK_RUNNABLE,	/* queued, not running */
	MODEL_TASK_SLEEPING,	/* blocked */
	MODEL_TASK_DEAD,	/* exited */
};

/**
 * struct model_task - what is known of one task
 * @tgid:         process id, valid when MODEL_KNOWN_TGID (numa_sample pid=,
 *                sched_move/swap/stick_numa tgid, or exec)
 * @pref_node:    numa_preferred_nid; -1 (known) = the kernel had none
 * @numa_group:   NUMA group id; 0 (known) = in no group
 * @faults:       per-node task faults (private + shared), nr_nodes entries,
 *                valid when MODEL_KNOWN_FAULTS
 * @group_faults: per-node group faults, valid when MODEL_KNOWN_GROUP_FAULTS
 *                (all 0 when the task is in no group, as the kernel's
 *                group_faults() reads)
 */
enum { MODEL_AFF_UNKNOWN, MODEL_AFF_ONE, MODEL_AFF_MANY };

struct model_task {
	int			tid;
	int			tgid;
	char			comm[SR_COMM_LEN];
	unsigned int		known;
	int			cpu;
	enum model_task_state	state;
	uint64_t		last_ran_ns;	/* last switch-out */
	uint64_t		first_seen_ns;
	int			pref_node;
	int			numa_group;
	uint64_t		*faults;
	uint64_t		*group_faults;
	uint64_t		nr_migrations;	/* sched_migrate_task seen for it */
	uint64_t		nr_fault_events; /* NUMA hinting faults it took in the trace */
	uint64_t		switch_out_missing; /* switches away from it the trace lacks */
	bool			has_faults;	/* p->numa_faults exists; see MODEL_KNOWN_HAS_FAULTS */
	bool			born;		/* forked inside the trace (so it began with no faults) */
	/*
	 * Moved to another CPU, or forked, and not run since: the kernel's
	 * se.exec_start is 0 then (__sched_fork(); the migration clears it),
	 * so task_hot() calls it cold.  Valid when MODEL_KNOWN_MOVED.
	 */
	bool			moved_since_ran;
	bool			kthread_child;	/* forked by kthreadd (pid 2) in the trace */
	/*
	 * model_kthread_name() of comm, worked out by model_set_comm() when
	 * the name changes: every wake-up asks, and the name list is long.
	 */
	bool			comm_kthread;
	bool			comm_stopper;	/* comm is migration/N: likewise */
	/*
	 * What the trace says of p->cpus_mask: MODEL_AFF_UNKNOWN, MODEL_AFF_ONE
	 * (nr_cpus_allowed 1, that CPU in aff_cpu) or MODEL_AFF_MANY.  Set from
	 * the start snapshot's Cpus_allowed_list, inherited at fork
	 * (dup_task_struct() copies the mask), and MANY once the task is seen
	 * running on two CPUs (ran_cpu: the first CPU it ran on, -1 before).
	 * A sched_setaffinity() is not traced: a later change is not seen.
	 */
	int			aff;
	int			aff_cpu;
	int			ran_cpu;
	/*
	 * The start snapshot (schedreplay_task): snap_kthread is 1 when it
	 * said PF_KTHREAD, 0 when it said a user task, -1 when it said
	 * nothing; exec_start_ns is its se.exec_start (the rq's clock_task),
	 * valid when MODEL_KNOWN_EXEC_START.
	 */
	int			snap_kthread;
	int64_t			exec_start_ns;
	/*
	 * When the task last went to the head of its CPU's cfs_tasks list:
	 * its last switch-in there (the pick moves it to the head), wake-up
	 * onto it or migration to it (the enqueue adds it at the head).
	 * detach_tasks() walks that list from the tail, so the oldest value
	 * comes first.  Valid when rq_head_known (a switch-in, wake-up or move
	 * to its CPU was seen).
	 */
	uint64_t		rq_head_ns;
	bool			rq_head_known;
	/*
	 * The kernel's own per-task counters from numa_sample lines (nmig=,
	 * forced=, fhot=) at the task's first and last sample, and the
	 * sched_migrate_task events the model had counted for it at those
	 * two moments; ks_seen is false until a sample carried all three.
	 */
	bool			ks_seen;
	int64_t			ks_first[3];	/* MODEL_KS_NMIG, _FORCED, _FHOT */
	int64_t			ks_last[3];
	uint64_t		mig_first;
	uint64_t		mig_last;
};

/**
 * struct model_cpu - what is known of one CPU
 * @curr:         tid running now (0 = idle), -1 when unknown
 * @nr_runnable:  tasks queued or running there as far as the model knows
 * @known:        false until the first sched_switch on it
 */
struct model_cpu {
	int		curr;
	int		nr_runnable;
	int		nr_preferred;	/* of nr_runnable: preferred node known and = this CPU's node */
	int		nr_pref_unknown; /* of nr_runnable: preferred node not known */
	bool		known;
	/*
	 * PELT-like averages (half-life 32 ms, scale 1024) up to pelt_ns:
	 * util of the time a task ran, runnable of nr_runnable; pelt_from_ns
	 * is when the model began them (what came before is not known)
	 */
	double		util;
	double		runnable;
	uint64_t	pelt_ns;
	uint64_t	pelt_from_ns;
	bool		pelt_on;
	/*
	 * The last decay worked out, for its time step: a wake-up reads each
	 * CPU's averages twice at one time (model_cpu_pelt(): its snapshot's
	 * node sums, the placement's CPUs), and exp2() is most of the cost.
	 * The thread that moves the model is the only one to touch it.
	 */
	uint64_t	memo_dt;
	double		memo_f;
};

/* PELT's half-life, and how long the averages take to forget the trace's start */
#define MODEL_PELT_HALFLIFE_NS	(32ull * 1000 * 1000)
#define MODEL_PELT_SETTLE_NS	(4 * MODEL_PELT_HALFLIFE_NS)

/** struct model_stats - counts of what the model saw and could not square */
struct model_stats {
	uint64_t	events;
	uint64_t	tasks_seen;	/* distinct tids (a reused tid counts again) */
	uint64_t	tasks_live;
	uint64_t	migrations;	/* sched_migrate_task */
	/*
	 * A sched_switch whose prev task was not the one the model had
	 * current on that CPU, with no lost events between: the switch away
	 * from the current one is not in the trace (docs/robustness.md,
	 * "Switches the trace lacks").
	 */
	uint64_t	switch_missing;
	uint64_t	switch_missing_idle;	/* of those, away from the idle task (pid 0) */
	uint64_t	pid_reuse;	/* an exited tid came back */
	uint64_t	unordered;	/* events older than the last one */
	uint64_t	bad_cpu;	/* CPU id < 0 or >= TOPO_MAX_CPUS (below that, CPUs past the topology grow the model) */
	uint64_t	bad_node;	/* node out of range in a sample or NUMA event */
	uint64_t	samples;	/* numa_sample lines applied */
	uint64_t	bad_samples;	/* numa_sample lines that did not parse */
	uint64_t	stale_samples;	/* numa_sample lines naming a dead tid */
	uint64_t	lost_events;	/* sum of known lost counts */
	uint64_t	lost_records;	/* lost markers, counted or not */
	uint64_t	fault_events;	/* SR_EV_NUMA_FAULT events applied */
	/* the recorder's start snapshot (model-snapshot.c) */
	uint64_t	snapshot_tasks;		/* schedreplay_task phase=start lines applied */
	uint64_t	snapshot_kthreads;	/* of them, PF_KTHREAD */
	uint64_t	snapshot_bad;		/* schedreplay_task lines that did not parse */
	uint64_t	snapshot_last_ran;	/* tasks whose last run the snapshot gave */
	uint64_t	exec_clock_pairs;	/* tasks that gave a CPU's clock_task offset */
};


/**
 * struct model_fault_stats - the fault model against the samples, and the
 * page migrations toward tasks
 * @faults:            hinting faults applied (SR_EV_NUMA_FAULT with a task)
 * @fault_pages:       their pages (512 for a THP fault)
 * @private_faults:    of @faults, private as the kernel judges (last_cpupid
 *                     unset or of the same pid), before group merging
 * @flag_local:        of @faults, TNF_FAULT_LOCAL
 * @flag_migrated:     of @faults, TNF_MIGRATED
 * @placements:        decays run (task_numa_placement epochs)
 * @samples_compared:  numa_sample lines for a task the fault model also had
 * @pref_mismatch:     of those, the preferred node differed (both known)
 * @gap_faults:        sum over them of |fault model - sample| total task faults
 * @sample_faults:     sum over them of the sample's total task faults
 * @modelled_tasks:    tasks whose snapshot faults came from the fault model
 * @misplaced_pages:   pages moved by mm_migrate_pages reason numa_misplaced
 * @misplaced_by_node: of them, per destination node (a following TNF_MIGRATED
 *                     fault of the same task on the same CPU names it);
 *                     model_fault_node_pages() reads it
 * @misplaced_unattributed: of them, not attributed to a node
 */
struct model_fault_stats {
	uint64_t	faults;
	uint64_t	fault_pages;
	uint64_t	private_faults;
	uint64_t	flag_local;
	uint64_t	flag_migrated;
	uint64_t	placements;
	uint64_t	samples_compared;
	uint64_t	pref_mismatch;
	uint64_t	gap_faults;
	uint64_t	sample_faults;
	uint64_t	modelled_tasks;
	uint64_t	misplaced_pages;
	uint64_t	misplaced_unattributed;
	uint64_t	misplaced_by_node[SR_MAX_NODES_MODEL];
};

/**
 * enum model_kthread - the evidence that a task is a kernel thread, strongest
 * first (model-kthread.c)
 */
enum model_kthread {
	MODEL_KTHREAD_NONE = 0,		/* no evidence: a user task, or not known */
	MODEL_KTHREAD_PID2,		/* kthreadd itself */
	MODEL_KTHREAD_CHILD,		/* forked by kthreadd inside the trace */
	MODEL_KTHREAD_SNAPSHOT,		/* the recorder's start snapshot said PF_KTHREAD */
	MODEL_KTHREAD_NAME,		/* a kernel thread's name (docs/replay.md lists them) */
	MODEL_KTHREAD__COUNT
};

/**
 * model_kthread_name() - @comm is a name Linux gives its own threads
 * @max: bytes of @comm readable (it need not be NUL-terminated)
 */
bool model_kthread_name(const char *comm, size_t max);

/**
 * model_task_kthread() - why @t is taken for a kernel thread
 * Return: enum model_kthread, MODEL_KTHREAD_NONE when nothing says so.
 */
int model_task_kthread(const struct model_task *t);

/** model_kthread_evidence_name() - "kthreadd-child", "name", ... */
const char *model_kthread_evidence_name(int ev);

struct model;

/**
 * model_new() - an empty model for a topology
 * @topo: borrowed; must outlive the model
 * Return: owned (free with model_free()), or NULL on allocation failure.
 */
struct model *model_new(const struct topo *topo);

/**
 * model_debug_fill() - test hook: every block the model allocates or grows
 * from then on (the CPU array, task chunks, fault arenas) is filled with
 * @byte before the model writes it, so a field the model forgets to set
 * shows as that pattern instead of whatever the allocator left
 * @byte: 0..255, or -1 (the default) to fill nothing
 *
 * Context: process-wide; for tests (tests/unit/check-model.c).
 */
void model_debug_fill(int byte);

/** model_free() - free (NULL is fine). */
void model_free(struct model *m);

/**
 * model_feed() - apply one event
 * Return: 0, or -ENOMEM.  Input inconsistencies are counted, not errors.
 */
int model_feed(struct model *m, const struct sr_event *ev);

/**
 * model_task_lookup() - a task by tid
 * Return: borrowed, valid until the next model_feed(); NULL when unseen.
 */
const struct model_task *model_task_lookup(const struct model *m, int tid);

/** model_cpu_get() - a CPU's state.  Return: borrowed; NULL when out of range. */
const struct model_cpu *model_cpu_get(const struct model *m, int cpu);

/**
 * model_cpu_pelt() - a CPU's util_avg and runnable_avg as PELT would have
 * them at @ts_ns (exponential averages of "a task runs" and of nr_running,
 * 32 ms half-life, 1024 = always), from the switches and queue changes seen
 * Return: true when known: the CPU's averages began MODEL_PELT_SETTLE_NS
 * before @ts_ns (what came before the trace weighs less than 1/16) and
 * its current task is known.
 */
bool model_cpu_pelt(const struct model *m, int cpu, uint64_t ts_ns, double *util, double *runnable);

/** model_stats() - the counters.  Return: borrowed. */
const struct model_stats *model_stats(const struct model *m);

/**
 * model_clock_task_offset() - how far CPU @cpu's rq clock_task ran behind
 * the trace clock, as the start snapshot measured it (model-snapshot.c)
 * Return: true and *@off_ns when measured on that CPU.
 */
bool model_clock_task_offset(const struct model *m, int cpu, int64_t *off_ns);

/**
 * struct model_seed - what the recorder's start snapshot says of a task
 * that does not change over its life: its process and whether it is a
 * kernel thread
 * @kthread: 1 PF_KTHREAD, 0 a user task, -1 not said
 * @tgid:    -1 when not said
 */
struct model_seed {
	int	tid;
	int	tgid;
	int	kthread;
	char	comm[SR_COMM_LEN];
};

/**
 * model_seed_tasks() - give the model the start snapshot's tasks before the
 * first event, so that a task is known from its first event on, not only
 * from its schedreplay_task line (which the recorder writes after tracing
 * began)
 * @seeds: copied; a tid listed twice takes the first
 * @n:     entries
 *
 * A task takes its seed when the model first meets its tid (not after the
 * tid is reused): tgid, kernel-thread-ness and, until an event names it,
 * comm.  Call once, before model_feed().
 * Return: 0, or -ENOMEM.
 */
int model_seed_tasks(struct model *m, const struct model_seed *seeds, size_t n);

/** model_nr_cpus() - CPUs the model tracks (grows as events name CPUs). */
int model_nr_cpus(const struct model *m);

/**
 * model_for_each_task() - call @fn for every task known (live or dead),
 * in no particular order; stops early when @fn returns non-zero.
 * Return: what @fn returned last.
 */
int model_for_each_task(const struct model *m,
			int (*fn)(const struct model_task *t, void *arg), void *arg);

/** model_fault_stats() - the fault model's counters.  Return: borrowed. */
const struct model_fault_stats *model_fault_stats(const struct model *m);

/**
 * model_set_scan_period() - the scan period the fault model decays by
 * @ns: > 0; from then on schedreplay_sysctl lines do not change it
 *
 * Default: the trace's scan_period_min_ms when a schedreplay_sysctl line
 * says it, else MODEL_SCAN_PERIOD_DEFAULT_NS.
 */
void model_set_scan_period(struct model *m, uint64_t ns);

/** model_scan_period() - the scan period in force, ns. */
uint64_t model_scan_period(const struct model *m);

/**
 * model_group_active() - the active nodes of a task's NUMA group, by the
 * v4.6+ rule (numa_is_active_node(): group CPU faults * 3 > the maximum),
 * from the fault model's CPU-side group faults
 * @t:    the task (from model_task_lookup())
 * @mask: set to bit n for each active node n (0 when the task is in no group)
 *
 * Return: true when known: the task's group is known, and it is no group,
 * or the fault model has CPU faults for it and every member's history is
 * known or settled (MODEL_FAULT_SETTLE_EPOCHS).  Approximate: the kernel
 * weights CPU faults by runtime (section 4.3); this does not.
 */
bool model_group_active(const struct model *m, const struct model_task *t, uint64_t *mask);

/**
 * model_task_migrated_share() - of a task's decayed MEM faults (the fault
 * model's), the share booked at @node by faults that migrated their page
 * there: what the task's share of @node over-counts against where its
 * memory was when the faults were taken (numa_hint_faults_local's view)
 * Return: 0..1; 0 when the fault model has nothing for the task.
 */
double model_task_migrated_share(const struct model *m, const struct model_task *t, int node);

/**
 * model_check_event() - check the CPUs and nodes an event names against the
 * topology, before the event reaches the decision classifier and the model
 * @t:  the topology, never changed; the nodes are not checked against a
 *      guessed one (TOPO_SRC_DEFAULT), whose CPUs were sized before the
 *      first event (model_event_max_cpu() over the pre-scan)
 * @ev: the decoded event; the CPUs checked are ev->cpu and, by kind, the
 *      migration's orig/dest, the wakeup's target or the NUMA move's
 *      src/dst; the nodes, the NUMA move's src/dst nid or the fault's
 *      memory node (a negative id is "not named" and passes)
 * @e:  on failure, the message ("NAME: cpu N out of range (topology from
 *      SOURCE has M)"); the caller names the file and the position
 *      (ev->src_pos), which only ingest knows how to read
 *
 * Context: called once per event, in the session's reader
 * (session_check_event()) and in the fuzz harnesses; no I/O.
 * Return: 0 when every id is in range, -SR_ERANGE when one is not.
 */
int model_check_event(const struct topo *t, const struct sr_event *ev, struct err *e);

/**
 * model_event_max_cpu() - the highest CPU an event names (the ones
 * model_check_event() checks)
 * Return: the CPU, or -1 when it names none.
 */
int model_event_max_cpu(const struct sr_event *ev);

#endif
