/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sr-snapshot.h - the context snapshot: everything a policy may read.
 *
 * The replay engine builds one struct sr_snapshot per decision (one
 * sched_migrate_task, or one sched_stick_numa) from the state model and
 * hands it to each policy's evaluate().  It is a plain value: no pointers,
 * per-node data in fixed arrays of SR_MAX_NODES entries (indices
 * 0..nr_nodes-1 are meaningful, the rest are zero), so a policy can copy it,
 * keep it, or compare two of them with memcmp().
 *
 * Unknown is never zero.  Every field has a bit in @known; a field whose bit
 * is clear holds no information (it is zero-filled) and a policy that needs
 * it must answer SR_VERDICT_UNKNOWN with the matching SR_REASON_MISSING_*
 * code (sr-policy.h) instead of guessing.  The traces never show some
 * kernel state at all (cfs buddies, nr_balance_failed, PELT loads); those
 * are either absent here (policies take them as parameters) or present with
 * their known bit normally clear.
 *
 * Growth: fields are only ever appended.  @size is sizeof(struct
 * sr_snapshot) as the engine was built; a plugin built against a newer minor
 * ABI checks SR_SNAP_HAS() before reading a field the engine may not have.
 *
 * Time is in nanoseconds of the trace clock.  CPU and node ids are ints,
 * -1 meaning "none".
 */
#ifndef SCHEDREPLAY_SR_SNAPSHOT_H
#define SCHEDREPLAY_SR_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "sr-version.h"

/* Per-node arrays hold this many nodes; a trace with more is rejected by the engine. */
#define SR_MAX_NODES	64
/* Task name length, as the kernel's TASK_COMM_LEN (NUL included). */
#define SR_SNAP_COMM_LEN	16

/**
 * enum sr_decision_class - why the kernel moved (or refused to move) a task
 * @SR_DECISION_CLASS_NUMA_MOVE:  NUMA balancer moved the task to an idle or
 *                                chosen CPU (after sched_move_numa)
 * @SR_DECISION_CLASS_NUMA_SWAP:  one of the two migrations of a NUMA swap
 *                                (after sched_swap_numa)
 * @SR_DECISION_CLASS_NUMA_STICK: NUMA balancer move or swap that did not
 *                                happen (sched_stick_numa, no migration)
 * @SR_DECISION_CLASS_EXEC:       exec balancing (sched_exec) just before the
 *                                task's sched_process_exec
 * @SR_DECISION_CLASS_FORK:       placement of a new task (sched_wakeup_new)
 * @SR_DECISION_CLASS_WAKEUP:     wake-up placement (select_task_rq)
 * @SR_DECISION_CLASS_LB_PULL:    load balancing pulled a queued, not-running
 *                                task (detach_tasks -> can_migrate_task)
 * @SR_DECISION_CLASS_LB_ACTIVE:  active balancing: the migration/N stopper
 *                                pushed the task that was running
 * @SR_DECISION_CLASS_OTHER:      affinity change, hotplug, or evidence that
 *                                settles nothing
 */
enum sr_decision_class {
	SR_DECISION_CLASS_NUMA_MOVE = 0,
	SR_DECISION_CLASS_NUMA_SWAP = 1,
	SR_DECISION_CLASS_NUMA_STICK = 2,
	SR_DECISION_CLASS_EXEC = 3,
	SR_DECISION_CLASS_FORK = 4,
	SR_DECISION_CLASS_WAKEUP = 5,
	SR_DECISION_CLASS_LB_PULL = 6,
	SR_DECISION_CLASS_LB_ACTIVE = 7,
	SR_DECISION_CLASS_OTHER = 8,
	SR_DECISION_CLASS__COUNT
};

/* The bit of class @c in sr_policy_ops.classes. */
#define SR_CLASS_BIT(c)		(1u << (c))
/* Every class this ABI version defines. */
#define SR_CLASS_ALL		((1u << SR_DECISION_CLASS__COUNT) - 1)

/**
 * enum sr_idle_type - the kernel's enum cpu_idle_type of the balancing CPU
 * @SR_IDLE_CPU_IDLE:     periodic balance on an idle CPU, or the active
 *                        balance stopper
 * @SR_IDLE_NOT_IDLE:     periodic balance on a busy CPU
 * @SR_IDLE_NEWLY_IDLE:   the CPU is about to go idle (idle_balance /
 *                        sched_balance_newidle)
 *
 * Our own numbering: kernels number these differently by version.
 */
enum sr_idle_type {
	SR_IDLE_CPU_IDLE = 0,
	SR_IDLE_NOT_IDLE = 1,
	SR_IDLE_NEWLY_IDLE = 2,
};

/**
 * enum sr_task_class - the scheduling class and policy of the task
 * @SR_TASK_FAIR:       CFS, SCHED_NORMAL or SCHED_BATCH (prio 100..139)
 * @SR_TASK_FAIR_IDLE:  CFS with SCHED_IDLE policy
 * @SR_TASK_RT:         SCHED_FIFO / SCHED_RR (prio 0..99)
 * @SR_TASK_DEADLINE:   SCHED_DEADLINE
 * @SR_TASK_OTHER:      stop or idle class
 *
 * The traced prio tells FAIR from RT; it does not tell SCHED_IDLE from
 * SCHED_NORMAL, so an engine that only has prio reports SR_TASK_FAIR.
 */
enum sr_task_class {
	SR_TASK_FAIR = 0,
	SR_TASK_FAIR_IDLE = 1,
	SR_TASK_RT = 2,
	SR_TASK_DEADLINE = 3,
	SR_TASK_OTHER = 4,
};

/**
 * enum sr_sd_level - the level of the sched domain that spans src and dst
 * @SR_SD_SMT:  SMT siblings (SD_SHARE_CPUCAPACITY)
 * @SR_SD_MC:   same last-level cache (SD_SHARE_PKG_RESOURCES / SD_SHARE_LLC)
 * @SR_SD_PKG:  same package or node without a shared cache (DIE / PKG)
 * @SR_SD_NUMA: different nodes (SD_NUMA)
 */
enum sr_sd_level {
	SR_SD_SMT = 0,
	SR_SD_MC = 1,
	SR_SD_PKG = 2,
	SR_SD_NUMA = 3,
};

/*
 * The fields, in known-bit order: X(ID, bit, "name", "description").
 * Generates enum sr_snap_bit; sr-policy.h derives SR_REASON_MISSING_* from
 * the same bit numbers.
 */
#define SR_SNAP_FIELDS(X)							\
	X(CLASS,	0,  "class",		"decision class")		\
	X(TIME,		1,  "time",		"time of the decision")		\
	X(TID,		2,  "tid",		"task id")			\
	X(TGID,		3,  "tgid",		"process id")			\
	X(COMM,		4,  "comm",		"task name")			\
	X(TASK_CLASS,	5,  "task-class",	"scheduling class and policy")	\
	X(SRC_CPU,	6,  "src-cpu",		"source CPU")			\
	X(DST_CPU,	7,  "dst-cpu",		"destination CPU")		\
	X(SRC_NODE,	8,  "src-node",		"source node")			\
	X(DST_NODE,	9,  "dst-node",		"destination node")		\
	X(CROSS_NODE,	10, "cross-node",	"whether src and dst are in different nodes (SD_NUMA)") \
	X(SD_LEVEL,	11, "sd-level",		"sched domain level spanning src and dst") \
	X(NR_NODES,	12, "nr-nodes",		"number of nodes")		\
	X(DISTANCE,	13, "distance",		"node distance matrix")		\
	X(PREF_NODE,	14, "pref-node",	"task's preferred node")	\
	X(NUMA_GROUP,	15, "numa-group",	"task's NUMA group id")		\
	X(HAS_FAULTS,	16, "has-faults",	"whether the task has NUMA fault statistics") \
	X(TASK_FAULTS,	17, "task-faults",	"task's per-node memory faults") \
	X(GROUP_FAULTS,	18, "group-faults",	"NUMA group's per-node memory faults") \
	X(GROUP_ACTIVE,	19, "group-active",	"NUMA group's active nodes")	\
	X(SRC_NR_RUNNING, 20, "src-nr-running",	"runnable tasks on the source runqueue") \
	X(SRC_NR_PREFERRED, 21, "src-nr-preferred", "source runqueue tasks on their preferred node") \
	X(DST_NR_RUNNING, 22, "dst-nr-running",	"runnable tasks on the destination runqueue") \
	X(DST_IDLE,	23, "dst-idle",		"whether the destination CPU was idle") \
	X(TASK_RUNNING,	24, "task-running",	"whether the task was running on the source CPU") \
	X(SINCE_RAN,	25, "since-ran",	"time since the task last ran")	\
	X(IDLE_TYPE,	26, "idle-type",	"idle type of the balancing CPU") \
	X(BUDDY,	27, "buddy",		"whether the task is a cfs next/last buddy") \
	X(NUMA_INFLIGHT, 28, "numa-inflight",	"NUMA moves in flight to the same CPU") \
	X(NODE_NR_RUNNING, 29, "node-nr-running", "runnable tasks per node")	\
	X(NODE_NR_CPUS,	30, "node-nr-cpus",	"CPUs per node")		\
	X(EXEC_SEQ,	31, "exec-seq",		"exec balancing points seen before this one") \
	X(MOVED_SINCE_RAN, 32, "moved-since-ran", "whether the task was moved to another CPU, or forked, and has not run since") \
	X(NODE_NR_IDLE,	33, "node-nr-idle",	"idle CPUs per node") \
	X(NODE_PELT,	34, "node-pelt",	"util and runnable averages per node") \
	X(NODE_KNOWN,	35, "node-known",	"nodes whose per-node counts are known") \
	X(BALANCE_FAILED, 36, "balance-failed",	"the balancing domain's nr_balance_failed and cache_nice_tries") \
	X(DST_ALLOWED,	37, "dst-allowed",	"whether the task may run on the destination CPU (affinity, per-CPU kernel thread)") \
	X(PLACE_CPUS,	38, "place-cpus",	"per CPU: node, idle state and idle since (placement decisions)") \
	X(WAKER_CPU,	39, "waker-cpu",	"the CPU the wake-up or fork was issued on (the waker's or parent's)") \
	X(WAKE_SYNC,	40, "wake-sync",	"whether the wake-up was WF_SYNC (only a select_task_rq_fair probe says)") \
	X(RECENT_USED,	41, "recent-used-cpu",	"the wakee's recent_used_cpu") \
	X(WAKEE_FLIPS,	42, "wakee-flips",	"wakee_flips of the waker and the wakee (wake_wide())") \
	X(CPU_UTIL,	43, "cpu-util",		"per CPU: estimates of util_avg and runnable load (PELT, not traced)") \
	X(ALLOWED_CPU,	44, "allowed-cpus",	"whether the task may run on one CPU only (nr_cpus_allowed 1), and which")

#define SR_SNAP_BIT_ENUM_(id, bit, name, desc)	SR_SNAP_BIT_##id = (bit),
/* Bit numbers of sr_snapshot.known (SR_SNAP_BIT_CLASS ...). */
enum sr_snap_bit {
	SR_SNAP_FIELDS(SR_SNAP_BIT_ENUM_)
	SR_SNAP_BIT__COUNT
};
#undef SR_SNAP_BIT_ENUM_

/* Masks of sr_snapshot.known; each names the field(s) it covers. */
#define SR_SNAP_CLASS		(1ull << SR_SNAP_BIT_CLASS)
#define SR_SNAP_TIME		(1ull << SR_SNAP_BIT_TIME)
#define SR_SNAP_TID		(1ull << SR_SNAP_BIT_TID)
#define SR_SNAP_TGID		(1ull << SR_SNAP_BIT_TGID)
#define SR_SNAP_COMM		(1ull << SR_SNAP_BIT_COMM)
#define SR_SNAP_TASK_CLASS	(1ull << SR_SNAP_BIT_TASK_CLASS)
#define SR_SNAP_SRC_CPU		(1ull << SR_SNAP_BIT_SRC_CPU)
#define SR_SNAP_DST_CPU		(1ull << SR_SNAP_BIT_DST_CPU)
#define SR_SNAP_SRC_NODE	(1ull << SR_SNAP_BIT_SRC_NODE)
#define SR_SNAP_DST_NODE	(1ull << SR_SNAP_BIT_DST_NODE)
#define SR_SNAP_CROSS_NODE	(1ull << SR_SNAP_BIT_CROSS_NODE)
#define SR_SNAP_SD_LEVEL	(1ull << SR_SNAP_BIT_SD_LEVEL)
#define SR_SNAP_NR_NODES	(1ull << SR_SNAP_BIT_NR_NODES)
#define SR_SNAP_DISTANCE	(1ull << SR_SNAP_BIT_DISTANCE)
#define SR_SNAP_PREF_NODE	(1ull << SR_SNAP_BIT_PREF_NODE)
#define SR_SNAP_NUMA_GROUP	(1ull << SR_SNAP_BIT_NUMA_GROUP)
#define SR_SNAP_HAS_FAULTS	(1ull << SR_SNAP_BIT_HAS_FAULTS)
#define SR_SNAP_TASK_FAULTS	(1ull << SR_SNAP_BIT_TASK_FAULTS)
#define SR_SNAP_GROUP_FAULTS	(1ull << SR_SNAP_BIT_GROUP_FAULTS)
#define SR_SNAP_GROUP_ACTIVE	(1ull << SR_SNAP_BIT_GROUP_ACTIVE)
#define SR_SNAP_SRC_NR_RUNNING	(1ull << SR_SNAP_BIT_SRC_NR_RUNNING)
#define SR_SNAP_SRC_NR_PREFERRED (1ull << SR_SNAP_BIT_SRC_NR_PREFERRED)
#define SR_SNAP_DST_NR_RUNNING	(1ull << SR_SNAP_BIT_DST_NR_RUNNING)
#define SR_SNAP_DST_IDLE	(1ull << SR_SNAP_BIT_DST_IDLE)
#define SR_SNAP_TASK_RUNNING	(1ull << SR_SNAP_BIT_TASK_RUNNING)
#define SR_SNAP_SINCE_RAN	(1ull << SR_SNAP_BIT_SINCE_RAN)
#define SR_SNAP_IDLE_TYPE	(1ull << SR_SNAP_BIT_IDLE_TYPE)
#define SR_SNAP_BUDDY		(1ull << SR_SNAP_BIT_BUDDY)
#define SR_SNAP_NUMA_INFLIGHT	(1ull << SR_SNAP_BIT_NUMA_INFLIGHT)
#define SR_SNAP_NODE_NR_RUNNING	(1ull << SR_SNAP_BIT_NODE_NR_RUNNING)
#define SR_SNAP_NODE_NR_CPUS	(1ull << SR_SNAP_BIT_NODE_NR_CPUS)
#define SR_SNAP_EXEC_SEQ	(1ull << SR_SNAP_BIT_EXEC_SEQ)
#define SR_SNAP_MOVED_SINCE_RAN	(1ull << SR_SNAP_BIT_MOVED_SINCE_RAN)
#define SR_SNAP_NODE_NR_IDLE	(1ull << SR_SNAP_BIT_NODE_NR_IDLE)
#define SR_SNAP_NODE_PELT	(1ull << SR_SNAP_BIT_NODE_PELT)
#define SR_SNAP_NODE_KNOWN	(1ull << SR_SNAP_BIT_NODE_KNOWN)
#define SR_SNAP_BALANCE_FAILED	(1ull << SR_SNAP_BIT_BALANCE_FAILED)
#define SR_SNAP_DST_ALLOWED	(1ull << SR_SNAP_BIT_DST_ALLOWED)
#define SR_SNAP_PLACE_CPUS	(1ull << SR_SNAP_BIT_PLACE_CPUS)
#define SR_SNAP_WAKER_CPU	(1ull << SR_SNAP_BIT_WAKER_CPU)
#define SR_SNAP_WAKE_SYNC	(1ull << SR_SNAP_BIT_WAKE_SYNC)
#define SR_SNAP_RECENT_USED	(1ull << SR_SNAP_BIT_RECENT_USED)
#define SR_SNAP_WAKEE_FLIPS	(1ull << SR_SNAP_BIT_WAKEE_FLIPS)
#define SR_SNAP_CPU_UTIL	(1ull << SR_SNAP_BIT_CPU_UTIL)
#define SR_SNAP_ALLOWED_CPU	(1ull << SR_SNAP_BIT_ALLOWED_CPU)

/* Placement decisions describe this many CPUs at most; beyond, PLACE_CPUS is unknown. */
#define SR_PLACE_MAX_CPUS	256
/* sr_snapshot.cpu_flags bits */
#define SR_PCPU_IDLE		(1u << 0)	/* idle task current, nothing queued, no wake-up pending */
#define SR_PCPU_KNOWN		(1u << 1)	/* the model knows this CPU's state */
#define SR_PCPU_SINGLE		(1u << 2)	/* exactly one task runnable there (nr_running 1) */
#define SR_PCPU_PELT		(1u << 3)	/* cpu_util / cpu_load hold its estimates */
#define SR_PCPU_NOT_WAKER	(1u << 4)	/* without WAKER_CPU: the trace rules this CPU out as the waker's */
#define SR_PCPU_WAKER_INFERRED	(1u << 5)	/* with NOT_WAKER: ruled out by the recording kernel's model, not the trace alone */

/**
 * struct sr_snapshot - the state one decision was made in
 * @size:            sizeof(struct sr_snapshot) as the engine built it
 * @known:           SR_SNAP_* bits of the fields below that hold information
 * @decision_class:  enum sr_decision_class [CLASS]
 * @ts_ns:           when the decision happened: the sched_migrate_task (or
 *                   sched_stick_numa) timestamp [TIME]
 * @tid:             the task [TID]
 * @tgid:            its process [TGID]
 * @comm:            its name: untrusted bytes from the trace, NUL-terminated,
 *                   not necessarily UTF-8 [COMM]
 * @task_class:      enum sr_task_class [TASK_CLASS]
 * @src_cpu:         CPU the task left (sched_migrate_task orig_cpu) [SRC_CPU]
 * @dst_cpu:         CPU it went to; for a numa-stick, the CPU the refused
 *                   move or swap aimed at, -1 when the balancer found no
 *                   candidate [DST_CPU]
 * @src_node:        node of @src_cpu [SRC_NODE]
 * @dst_node:        node of @dst_cpu, -1 when @dst_cpu is -1 [DST_NODE]
 * @cross_node:      1 when src and dst are in different nodes, i.e. the
 *                   balancing domain has SD_NUMA; 0 otherwise [CROSS_NODE]
 * @sd_level:        enum sr_sd_level of the lowest domain spanning src and
 *                   dst; needs SMT/cache topology, usually unknown [SD_LEVEL]
 * @nr_nodes:        nodes 0..nr_nodes-1, at most SR_MAX_NODES [NR_NODES]
 * @distance:        node_distance(a, b) as distance[a][b]; local is 10
 *                   [DISTANCE]
 * @pref_node:       numa_preferred_nid, -1 when the task has none [PREF_NODE]
 * @numa_group:      numa_group id (the ngid of the NUMA tracepoints), 0 when
 *                   the task is in no group [NUMA_GROUP]
 * @has_faults:      1 when p->numa_faults exists (the task took at least one
 *                   hinting fault), 0 when it does not [HAS_FAULTS]
 * @task_faults:     task_faults(p, node): decayed memory faults, private +
 *                   shared, per node [TASK_FAULTS]
 * @group_faults:    group_faults(p, node), the same for the task's group
 *                   [GROUP_FAULTS]
 * @group_active:    bit n set when node n is one of the group's active
 *                   nodes (v4.1 active_nodes mask; v4.6+
 *                   numa_is_active_node()) [GROUP_ACTIVE]
 * @src_nr_running:  rq->nr_running of the source CPU, every class, the task
 *                   included [SRC_NR_RUNNING]
 * @src_nr_preferred: rq->nr_preferred_running of the source CPU: its CFS tasks
 *                   that are on their preferred node [SRC_NR_PREFERRED]
 * @dst_nr_running:  rq->nr_running of the destination CPU before the move
 *                   [DST_NR_RUNNING]
 * @dst_idle:        1 when the destination CPU ran its idle task [DST_IDLE]
 * @task_running:    1 when the task was the current task of the source CPU
 *                   when the decision was taken.  For active balancing the
 *                   stopper is current, so it is 0 there [TASK_RUNNING]
 * @since_ran_ns:    now - p->se.exec_start, approximated by the time since
 *                   the task was last switched out; 0 when it was running
 *                   [SINCE_RAN]
 * @idle_type:       enum sr_idle_type of the balancing CPU [IDLE_TYPE]
 * @buddy:           1 when the task is its cfs_rq's next or last buddy
 *                   (never traced; normally unknown) [BUDDY]
 * @numa_inflight:   other NUMA moves or swaps in flight (between their
 *                   sched_move_numa / sched_swap_numa and their migration,
 *                   kernel-behaviour.md section 3.4) that target the CPU this
 *                   NUMA decision targets; the v4.19 numa_migrate_on flag of
 *                   that runqueue would be set iff it is > 0.  For the
 *                   partner's half of a swap the target is the initiating
 *                   task's destination, i.e. the partner's source CPU
 *                   [NUMA_INFLIGHT]
 * @node_nr_running: sum of nr_running over each node's CPUs, the task itself
 *                   included on @src_node [NODE_NR_RUNNING]
 * @node_nr_cpus:    online CPUs per node [NODE_NR_CPUS]
 * @exec_seq:        exec balancing points (sched_process_exec events,
 *                   migrating or not) seen in the trace before this decision:
 *                   the round-robin cursor of seed 003, kept by the engine so
 *                   that policies stay pure [EXEC_SEQ]
 *
 * Added in ABI 1.1 (check SR_SNAP_HAS() before reading them):
 * @moved_since_ran: 1 when the task was moved to another CPU (any
 *                   sched_migrate_task) or forked, and has not run since:
 *                   the kernel's se.exec_start is 0 then (__sched_fork();
 *                   migrate_task_rq_fair() up to v6.2, enqueue_entity()
 *                   with ENQUEUE_MIGRATED from v6.3 and in 6.1.y), so
 *                   task_hot() finds it cold; 0 when it ran since its last
 *                   move [MOVED_SINCE_RAN]
 * @node_nr_idle:    per node, the CPUs whose runqueue was empty (nr_running
 *                   0, the task itself counted on @src_cpu): the idle_cpus
 *                   of find_idlest_group()'s statistics [NODE_NR_IDLE]
 * @node_util:       per node, the sum over its CPUs of an estimate of
 *                   util_avg (1024 = a CPU always running a task): the
 *                   fraction of time a task ran, averaged with PELT's 32 ms
 *                   half-life from the trace's switches [NODE_PELT]
 * @node_runnable:   the same of runnable_avg (1024 per task always
 *                   runnable: the averaged nr_running) [NODE_PELT]
 * @node_known:      bit n set when every CPU of node n is known, so that
 *                   node n's entries of @node_nr_running and @node_nr_idle
 *                   hold its counts (and of @node_util / @node_runnable
 *                   when its CPUs' averages are known: bit n of
 *                   @node_pelt_known) even while the whole-machine bits
 *                   NODE_NR_RUNNING / NODE_NR_IDLE / NODE_PELT are clear;
 *                   nodes beyond 64 have no bit [NODE_KNOWN]
 * @node_pelt_known: bit n set when node n's PELT estimates are known
 *                   [NODE_KNOWN]
 *
 * Added in ABI 1.2:
 * @nr_balance_failed: env->sd->nr_balance_failed of the domain the load
 *                   balancer judged the candidate in, as the kernel read it
 *                   (a can_migrate_task probe; never in a plain trace)
 *                   [BALANCE_FAILED]
 * @cache_nice_tries: env->sd->cache_nice_tries of that domain
 *                   [BALANCE_FAILED]
 * @dst_allowed:     0 when the task may not run on @dst_cpu: a kernel
 *                   thread bound to one CPU (kthread_is_per_cpu(), or
 *                   cpus_ptr of that one CPU) or to one node's CPUs
 *                   (kcompactdN, kswapdN) other than @dst_cpu's; 1 when it
 *                   may.  Known only where the evidence says (a decision
 *                   probe's p_flags and the task's name) [DST_ALLOWED]
 *
 * Placement (ABI 2.0; wake-up, fork and exec decisions; docs/replay.md):
 * @waker_cpu:       the CPU select_task_rq() ran on: the waker's (the CPU
 *                   of sched_waking) or the parent's (sched_wakeup_new's
 *                   logging CPU) [WAKER_CPU]
 * @wake_sync:       1 when the wake-up passed WF_SYNC [WAKE_SYNC]
 * @recent_used_cpu: the wakee's p->recent_used_cpu, kept by the engine by
 *                   the recording kernel's rules, -1 when none [RECENT_USED]
 * @waker_flips:     the waker's wakee_flips after record_wakee() [WAKEE_FLIPS]
 * @wakee_flips:     the wakee's own wakee_flips [WAKEE_FLIPS]
 * @waker_kthread:   1 when the waker is a per-CPU kernel thread (by its
 *                   name: kworker/N:M, ksoftirqd/N, ...) [WAKER_CPU]
 * @nr_cpus:         CPUs described in @cpu_node / @cpu_flags and the other
 *                   per-CPU arrays; their entries from @nr_cpus on are zero
 *                   [PLACE_CPUS]
 * @cpu_node:        node of each CPU, -1 when not placed [PLACE_CPUS]
 * @cpu_flags:       SR_PCPU_* bits of each CPU; a CPU without SR_PCPU_KNOWN
 *                   (not seen yet) is unknown, which a policy answers
 *                   with missing-place-cpus only where it matters [PLACE_CPUS]
 * @cpu_idle_ns:     for an idle CPU, how long it has been idle [PLACE_CPUS]
 * @cpu_util:        per CPU, estimated util_avg (1024 = always running)
 *                   [CPU_UTIL]
 * @cpu_load:        per CPU, estimated runnable load (1024 per nice-0 task
 *                   always runnable) [CPU_UTIL]
 * @cpu_nr_running:  per CPU, rq->nr_running as the model has it (capped at
 *                   32767) [PLACE_CPUS, per CPU with SR_PCPU_KNOWN]
 *
 * In what was reserved5 (same size and offset, so no ABI bump: a policy
 * reads it only when known has ALLOWED_CPU, which older engines never set):
 * @allowed_cpu:     the one CPU the task may run on when nr_cpus_allowed is
 *                   1 (taskset to one CPU), -1 when it may run on more than
 *                   one; known (wake-up, fork and exec decisions: a fork
 *                   child's is its parent's) when the recorder's start
 *                   snapshot gave the Cpus_allowed_list of the task or of an
 *                   ancestor it forked from in the trace, or when the task
 *                   (or that ancestor) was seen running on two CPUs
 *                   [ALLOWED_CPU]
 */
struct sr_snapshot {
	uint32_t	size;
	uint32_t	reserved0;
	uint64_t	known;

	int32_t		decision_class;
	int32_t		reserved1;
	uint64_t	ts_ns;
	int32_t		tid;
	int32_t		tgid;
	char		comm[SR_SNAP_COMM_LEN];
	int32_t		task_class;

	int32_t		src_cpu;
	int32_t		dst_cpu;
	int32_t		src_node;
	int32_t		dst_node;
	int32_t		cross_node;
	int32_t		sd_level;
	int32_t		nr_nodes;
	uint8_t		distance[SR_MAX_NODES][SR_MAX_NODES];

	int32_t		pref_node;
	int32_t		numa_group;
	int32_t		has_faults;
	int32_t		reserved2;
	uint64_t	task_faults[SR_MAX_NODES];
	uint64_t	group_faults[SR_MAX_NODES];
	uint64_t	group_active;

	int32_t		src_nr_running;
	int32_t		src_nr_preferred;
	int32_t		dst_nr_running;
	int32_t		dst_idle;
	int32_t		task_running;
	int32_t		idle_type;
	uint64_t	since_ran_ns;
	int32_t		buddy;
	int32_t		numa_inflight;

	int32_t		node_nr_running[SR_MAX_NODES];
	int32_t		node_nr_cpus[SR_MAX_NODES];
	uint64_t	exec_seq;

	/* ABI 1.1 */
	int32_t		moved_since_ran;
	int32_t		reserved3;
	int32_t		node_nr_idle[SR_MAX_NODES];
	int32_t		node_util[SR_MAX_NODES];
	int32_t		node_runnable[SR_MAX_NODES];
	uint64_t	node_known;
	uint64_t	node_pelt_known;

	/* ABI 1.2 */
	int32_t		nr_balance_failed;
	int32_t		cache_nice_tries;
	int32_t		dst_allowed;
	int32_t		reserved4;

	/* ABI 2.0: placement */
	int32_t		waker_cpu;
	int32_t		wake_sync;
	int32_t		recent_used_cpu;
	int32_t		waker_flips;
	int32_t		wakee_flips;
	int32_t		waker_kthread;
	int32_t		allowed_cpu;	/* was reserved5: valid only with ALLOWED_CPU */
	int32_t		nr_cpus;
	int16_t		cpu_node[SR_PLACE_MAX_CPUS];
	uint8_t		cpu_flags[SR_PLACE_MAX_CPUS];
	uint64_t	cpu_idle_ns[SR_PLACE_MAX_CPUS];
	int32_t		cpu_util[SR_PLACE_MAX_CPUS];
	int32_t		cpu_load[SR_PLACE_MAX_CPUS];
	int16_t		cpu_nr_running[SR_PLACE_MAX_CPUS];
};

/*
 * True when the engine's snapshot is large enough to hold @field: a plugin
 * built against a newer minor ABI uses it before reading a field added after
 * 1.0.  Every 1.0 field is always present.
 */
#define SR_SNAP_HAS(snap, field)					\
	(offsetof(struct sr_snapshot, field) + sizeof((snap)->field) <= (snap)->size)

#endif
