// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-policies.c - the built-in policies, the registry and parameter
 * parsing.
 *
 * The policy tests are one table, one row per branch of each modelled
 * kernel function, each row named "<policy>/<function>/<branch>".  A row
 * starts from a base snapshot (a load-balancer pull of a cold, queued,
 * NUMA-faulting task from node 0 to node 1 on seed 002's 4-node machine,
 * everything known) and applies up to five named changes, then parameter
 * settings, and states the whole expected answer: verdict, first and
 * second reason, flags and target node.  The rows named seed002/... run the
 * same situations through lb-v4.1, lb-v4.1-numa-hotness and lb-v4.3 (table
 * 2.7 of docs/kernel-behaviour.md); the rows named seed000/... do the same for
 * numa-v4.18 and numa-v4.19 on a claimed destination.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check-common.h"
#include "replay/replay.h"

/* ---- snapshot building blocks ---- */

typedef void (*mod_fn)(struct sr_snapshot *s);

/* seed 002's numactl -H distance matrix */
static const uint8_t seed002_distance[4][4] = {
	{ 10, 20, 40, 40 },
	{ 20, 10, 40, 40 },
	{ 40, 40, 10, 20 },
	{ 40, 40, 20, 10 },
};

static void base_snapshot(struct sr_snapshot *s)
{
	int a, b;

	replay_snapshot_init(s);
	/*
	 * nr_balance_failed comes from the parameters here, and the task's
	 * affinity is not known, as in a trace without probes
	 */
	s->known = ~0ull & ((1ull << SR_SNAP_BIT__COUNT) - 1) &
		   ~(SR_SNAP_BALANCE_FAILED | SR_SNAP_DST_ALLOWED | SR_SNAP_ALLOWED_CPU);
	s->decision_class = SR_DECISION_CLASS_LB_PULL;
	s->ts_ns = 1000000000;
	s->tid = 1234;
	s->tgid = 1200;
	strcpy(s->comm, "numa01");
	s->task_class = SR_TASK_FAIR;
	s->src_cpu = 0;
	s->dst_cpu = 2;
	s->src_node = 0;
	s->dst_node = 1;
	s->cross_node = 1;
	s->sd_level = SR_SD_NUMA;
	s->nr_nodes = 4;
	for (a = 0; a < 4; a++)
		for (b = 0; b < 4; b++)
			s->distance[a][b] = seed002_distance[a][b];
	s->pref_node = 2;		/* neither src nor dst */
	s->numa_group = 0;
	s->has_faults = 1;
	s->task_faults[0] = 200;	/* src and dst equal by default */
	s->task_faults[1] = 200;
	s->task_faults[2] = 500;
	s->task_faults[3] = 100;
	s->group_faults[0] = 400;
	s->group_faults[1] = 400;
	s->group_faults[2] = 100;
	s->group_faults[3] = 100;
	s->group_active = 0;
	s->src_nr_running = 2;
	s->src_nr_preferred = 2;	/* every task on src is on its preferred node */
	s->dst_nr_running = 0;
	s->dst_idle = 1;
	s->task_running = 0;
	s->since_ran_ns = 10000000;	/* 10 ms: cold */
	s->idle_type = SR_IDLE_NOT_IDLE;
	s->buddy = 0;
	s->numa_inflight = 0;
	for (a = 0; a < 4; a++)
		s->node_nr_cpus[a] = 2;
	s->node_nr_running[0] = 2;
	s->node_nr_running[1] = 1;
	s->node_nr_running[2] = 3;
	s->node_nr_running[3] = 4;
	s->exec_seq = 0;
}

static void hot(struct sr_snapshot *s) { s->since_ran_ns = 100000; }
static void hot_edge(struct sr_snapshot *s) { s->since_ran_ns = 499999; }
/* exec-v6.1: node 0 fully busy without the exec'ing task; node 1 with both CPUs idle */
static void local_busy(struct sr_snapshot *s) { s->node_nr_running[0] = 3; }
static void local_overloaded(struct sr_snapshot *s) { s->node_nr_running[0] = 4; }
static void node1_overloaded(struct sr_snapshot *s) { s->node_nr_running[1] = 3; }
static void node1_idle(struct sr_snapshot *s) { s->node_nr_running[1] = 0; s->node_nr_idle[1] = 2; }
/* exec-v6.1 imb_numa_nr: one other task on node 0 (one CPU idle), or the task alone */
static void node0_one_other(struct sr_snapshot *s) { s->node_nr_idle[0] = 1; }
static void node0_alone(struct sr_snapshot *s) { s->node_nr_running[0] = 1; s->node_nr_idle[0] = 1; }
static void node1_two_tasks(struct sr_snapshot *s) { s->node_nr_running[1] = 2; s->node_nr_idle[1] = 0; }
/* nodes 2 and 3 idle, and no preferred node (the base one is node 2) */
static void far_nodes_idle(struct sr_snapshot *s)
{
	s->node_nr_running[2] = s->node_nr_running[3] = 0;
	s->node_nr_idle[2] = s->node_nr_idle[3] = 2;
	s->pref_node = -1;
}
static void unk_node_idle(struct sr_snapshot *s) { s->known &= ~SR_SNAP_NODE_NR_IDLE; }
static void no_pelt(struct sr_snapshot *s) { s->known &= ~SR_SNAP_NODE_PELT; }
/* early in a trace: only nodes 0 and 1 (the exec domain of node 0) have every CPU known */
static void near_nodes_known(struct sr_snapshot *s)
{
	s->known &= ~(SR_SNAP_NODE_NR_RUNNING | SR_SNAP_NODE_NR_IDLE | SR_SNAP_NODE_PELT);
	s->node_known = s->node_pelt_known = 0x3;
}
static void only_src_node_known(struct sr_snapshot *s)
{
	near_nodes_known(s);
	s->node_known = s->node_pelt_known = 0x1;
}
/* every CPU busy all the time, 1.5 tasks runnable each on node 0 (the task's load included) */
static void busy_pelt(struct sr_snapshot *s)
{
	int n;

	for (n = 0; n < 4; n++) {
		s->node_util[n] = 2048;
		s->node_runnable[n] = 1024 * s->node_nr_running[n];
	}
}
/* moved (or forked) since it last ran: se.exec_start is 0 */
static void moved(struct sr_snapshot *s) { s->moved_since_ran = 1; }
static void cold_edge(struct sr_snapshot *s) { s->since_ran_ns = 500000; }
static void running(struct sr_snapshot *s) { s->task_running = 1; s->since_ran_ns = 0; }
static void active(struct sr_snapshot *s) { s->decision_class = SR_DECISION_CLASS_LB_ACTIVE; }
static void same_node(struct sr_snapshot *s)
{
	s->dst_cpu = 1;
	s->dst_node = 0;
	s->cross_node = 0;
	s->sd_level = SR_SD_MC;
}
static void smt(struct sr_snapshot *s) { s->sd_level = SR_SD_SMT; }
static void no_sd_level(struct sr_snapshot *s) { s->known &= ~SR_SNAP_SD_LEVEL; }
static void dst_far(struct sr_snapshot *s) { s->dst_cpu = 4; s->dst_node = 2; }
static void no_faults(struct sr_snapshot *s)
{
	s->has_faults = 0;
	memset(s->task_faults, 0, sizeof(s->task_faults));
}
static void pref_src(struct sr_snapshot *s) { s->pref_node = 0; }
static void pref_dst(struct sr_snapshot *s) { s->pref_node = 1; }
static void src_misplaced(struct sr_snapshot *s) { s->src_nr_running = 3; s->src_nr_preferred = 1; }
static void faults_dst_more(struct sr_snapshot *s) { s->task_faults[1] = 400; }
static void faults_dst_fewer(struct sr_snapshot *s) { s->task_faults[1] = 50; }
static void faults_zero(struct sr_snapshot *s) { memset(s->task_faults, 0, sizeof(s->task_faults)); }
/* raw faults: dst (node 2) fewer than src; with node 1 and 3 as neighbours, more */
static void faults_backplane(struct sr_snapshot *s)
{
	s->task_faults[0] = 300;
	s->task_faults[1] = 0;
	s->task_faults[2] = 200;
	s->task_faults[3] = 200;
	s->pref_node = -1;
}
static void group(struct sr_snapshot *s) { s->numa_group = 1200; }
static void grp_src_active(struct sr_snapshot *s) { s->group_active |= 1ull << 0; }
static void grp_dst_active(struct sr_snapshot *s) { s->group_active |= 1ull << 1; }
static void gfaults_dst_more(struct sr_snapshot *s) { s->group_faults[1] = 900; }
static void gfaults_dst_fewer(struct sr_snapshot *s) { s->group_faults[1] = 10; }
static void not_fair(struct sr_snapshot *s) { s->task_class = SR_TASK_RT; }
static void idle_policy(struct sr_snapshot *s) { s->task_class = SR_TASK_FAIR_IDLE; }
static void buddy(struct sr_snapshot *s) { s->buddy = 1; s->dst_nr_running = 1; s->dst_idle = 0; }
static void buddy_dst_idle(struct sr_snapshot *s) { s->buddy = 1; }
static void buddy_unknown(struct sr_snapshot *s)
{
	s->known &= ~SR_SNAP_BUDDY;
	s->dst_nr_running = 1;
	s->dst_idle = 0;
}
static void cpu_idle(struct sr_snapshot *s) { s->idle_type = SR_IDLE_CPU_IDLE; }
static void newly_idle(struct sr_snapshot *s) { s->idle_type = SR_IDLE_NEWLY_IDLE; }
static void unk_running(struct sr_snapshot *s) { s->known &= ~SR_SNAP_TASK_RUNNING; }
static void unk_since_ran(struct sr_snapshot *s) { s->known &= ~SR_SNAP_SINCE_RAN; }
static void unk_pref(struct sr_snapshot *s) { s->known &= ~SR_SNAP_PREF_NODE; }
static void unk_src_rq(struct sr_snapshot *s) { s->known &= ~SR_SNAP_SRC_NR_RUNNING; }
static void unk_idle_type(struct sr_snapshot *s) { s->known &= ~SR_SNAP_IDLE_TYPE; }
static void unk_cross(struct sr_snapshot *s)
{
	s->known &= ~(SR_SNAP_CROSS_NODE | SR_SNAP_SD_LEVEL);
}
static void unk_faults(struct sr_snapshot *s) { s->known &= ~SR_SNAP_HAS_FAULTS; }
static void unk_inflight(struct sr_snapshot *s) { s->known &= ~SR_SNAP_NUMA_INFLIGHT; }
static void unk_dst_cpu(struct sr_snapshot *s) { s->known &= ~SR_SNAP_DST_CPU; }
static void unk_node_running(struct sr_snapshot *s) { s->known &= ~SR_SNAP_NODE_NR_RUNNING; }
static void unk_exec_seq(struct sr_snapshot *s) { s->known &= ~SR_SNAP_EXEC_SEQ; }
static void numa_move(struct sr_snapshot *s) { s->decision_class = SR_DECISION_CLASS_NUMA_MOVE; }
static void numa_swap(struct sr_snapshot *s) { s->decision_class = SR_DECISION_CLASS_NUMA_SWAP; }
static void numa_stick(struct sr_snapshot *s) { s->decision_class = SR_DECISION_CLASS_NUMA_STICK; }
static void no_candidate(struct sr_snapshot *s) { s->dst_cpu = -1; s->dst_node = -1; }
static void claimed(struct sr_snapshot *s) { s->numa_inflight = 1; }
static void exec(struct sr_snapshot *s) { s->decision_class = SR_DECISION_CLASS_EXEC; }
static void fork_class(struct sr_snapshot *s) { s->decision_class = SR_DECISION_CLASS_FORK; }
/* exec-v6.1: the task bound to one CPU (taskset -c), with the CPUs' nodes known */
static void bound(struct sr_snapshot *s, int cpu)
{
	int c;

	s->known |= SR_SNAP_ALLOWED_CPU;
	s->allowed_cpu = cpu;
	s->nr_cpus = 8;
	for (c = 0; c < 8; c++)
		s->cpu_node[c] = (int16_t)(c / 2);
}
static void bound_src(struct sr_snapshot *s) { bound(s, 0); }
static void bound_dst(struct sr_snapshot *s) { bound(s, 2); }
static void bound_many(struct sr_snapshot *s) { s->known |= SR_SNAP_ALLOWED_CPU; }
static void dst_node0(struct sr_snapshot *s) { s->dst_cpu = 1; s->dst_node = 0; }
static void dst_node3(struct sr_snapshot *s) { s->dst_cpu = 6; s->dst_node = 3; }
static void seq1(struct sr_snapshot *s) { s->exec_seq = 1; }
static void seq5(struct sr_snapshot *s) { s->exec_seq = 5; }
static void seq_max(struct sr_snapshot *s) { s->exec_seq = UINT64_MAX; }
static void node1_no_cpus(struct sr_snapshot *s)
{
	s->node_nr_cpus[1] = 0;
	s->node_nr_running[1] = 0;
}
static void no_cpus(struct sr_snapshot *s) { memset(s->node_nr_cpus, 0, sizeof(s->node_nr_cpus)); }
/* node 0: 4 CPUs, 4 runnable (3 without the exec'ing task); node 1: 1 CPU, 1 runnable */
static void uneven_cpus(struct sr_snapshot *s)
{
	s->node_nr_cpus[0] = 4;
	s->node_nr_running[0] = 4;
	s->node_nr_cpus[1] = 1;
	s->node_nr_running[1] = 1;
}

/* ---- the table ---- */

#define A	SR_VERDICT_ALLOW
#define R	SR_VERDICT_RESIST
#define NA	SR_VERDICT_NOT_APPLICABLE
#define UNK	SR_VERDICT_UNKNOWN
#define FD	SR_VF_FAILED_DEPENDENT
#define FORCED	SR_VF_FORCED
#define NOBUD	SR_VF_ASSUMED_NOT_BUDDY
#define NOSMT	SR_VF_ASSUMED_NOT_SMT
#define MISSING(b)	(SR_REASON_MISSING_FIRST + SR_SNAP_BIT_##b)
#define RS(x)	SR_REASON_##x

/*
 * One row: @r2 == 0 means "no second reason"; @target is the expected
 * target_node (-1 for policies that do not place).
 */
struct policy_case {
	const char	*name;
	const char	*policy;
	mod_fn		mods[5];
	const char	*params;	/* "a=1,b=2" or NULL */
	int		verdict;
	unsigned int	r1;
	unsigned int	r2;
	uint32_t	flags;
	int		target;
};

static const struct policy_case cases[] = {
	/* lb-v4.1: can_migrate_task() (1.2) */
	{ "lb-v4.1/class/not-load-balance", "lb-v4.1", { numa_move }, NULL,
	  NA, RS(CLASS_NOT_HANDLED), 0, 0, -1 },
	{ "lb-v4.1/can_migrate/task-running", "lb-v4.1", { running }, NULL,
	  R, RS(TASK_RUNNING), 0, 0, -1 },
	{ "lb-v4.1/can_migrate/running-unknown", "lb-v4.1", { unk_running }, NULL,
	  UNK, MISSING(TASK_RUNNING), 0, 0, -1 },
	{ "lb-v4.1/can_migrate/cold-moves", "lb-v4.1", { 0 }, NULL,
	  A, RS(TASK_COLD), 0, 0, -1 },
	{ "lb-v4.1/can_migrate/hot-stays", "lb-v4.1", { hot }, NULL,
	  R, RS(TASK_HOT), RS(EQUAL_FAULTS), FD, -1 },
	{ "lb-v4.1/can_migrate/hot-failed-exceeds-tries", "lb-v4.1", { hot },
	  "nr_balance_failed=3", A, RS(BALANCE_FAILED_EXCEEDED), RS(TASK_HOT), FORCED | FD, -1 },
	{ "lb-v4.1/can_migrate/hot-failed-equals-numa-tries", "lb-v4.1", { hot },
	  "nr_balance_failed=2", R, RS(TASK_HOT), RS(EQUAL_FAULTS), FD, -1 },
	{ "lb-v4.1/can_migrate/hot-failed-exceeds-mc-tries", "lb-v4.1", { hot, same_node },
	  "nr_balance_failed=2", A, RS(BALANCE_FAILED_EXCEEDED), RS(TASK_HOT), FORCED | FD, -1 },
	{ "lb-v4.1/can_migrate/explicit-cache-nice-tries", "lb-v4.1", { hot },
	  "nr_balance_failed=2,cache_nice_tries=1", A, RS(BALANCE_FAILED_EXCEEDED),
	  RS(TASK_HOT), FORCED | FD, -1 },
	{ "lb-v4.1/can_migrate/active-balance-forces", "lb-v4.1", { active, hot }, NULL,
	  A, RS(ACTIVE_BALANCE), RS(TASK_HOT), FORCED, -1 },
	{ "lb-v4.1/can_migrate/improves-overrides-hot", "lb-v4.1", { hot, pref_dst }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(DST_PREFERRED), FORCED, -1 },
	{ "lb-v4.1/can_migrate/level-unknown-failed-2-mc", "lb-v4.1",
	  { hot, same_node, no_sd_level }, "nr_balance_failed=2",
	  A, RS(BALANCE_FAILED_EXCEEDED), RS(TASK_HOT), FORCED | FD | NOSMT, -1 },
	{ "lb-v4.1/can_migrate/level-unknown-no-failures", "lb-v4.1",
	  { hot, same_node, no_sd_level }, NULL, R, RS(TASK_HOT), RS(SAME_NODE), FD, -1 },
	{ "lb-v4.1/can_migrate/tries-unknown-failed-1", "lb-v4.1", { hot, unk_cross },
	  "nr_balance_failed=1", UNK, MISSING(CROSS_NODE), 0, 0, -1 },
	/* lb-v4.1: task_hot() (1.3) */
	{ "lb-v4.1/task_hot/not-fair-class", "lb-v4.1", { hot, not_fair }, NULL,
	  A, RS(TASK_COLD), RS(NOT_FAIR_TASK), 0, -1 },
	{ "lb-v4.1/task_hot/sched-idle-policy", "lb-v4.1", { hot, idle_policy }, NULL,
	  A, RS(TASK_COLD), RS(IDLE_POLICY), 0, -1 },
	{ "lb-v4.1/task_hot/buddy-dst-busy", "lb-v4.1", { buddy }, NULL,
	  R, RS(TASK_HOT), RS(BUDDY_HOT), FD, -1 },
	{ "lb-v4.1/task_hot/buddy-dst-idle", "lb-v4.1", { buddy_dst_idle }, NULL,
	  A, RS(TASK_COLD), 0, 0, -1 },
	{ "lb-v4.1/task_hot/buddy-unknown-assumed-not", "lb-v4.1", { buddy_unknown }, NULL,
	  A, RS(TASK_COLD), 0, NOBUD, -1 },
	{ "lb-v4.1/task_hot/buddy-feature-off", "lb-v4.1", { buddy }, "CACHE_HOT_BUDDY=off",
	  A, RS(TASK_COLD), 0, 0, -1 },
	{ "lb-v4.1/task_hot/cost-minus-one-all-hot", "lb-v4.1", { 0 },
	  "sched_migration_cost_ns=-1", R, RS(TASK_HOT), RS(MIGRATION_COST_ALL_HOT), FD, -1 },
	{ "lb-v4.1/task_hot/cost-zero-none-hot", "lb-v4.1", { hot },
	  "sched_migration_cost_ns=0", A, RS(TASK_COLD), RS(MIGRATION_COST_NONE_HOT), 0, -1 },
	{ "lb-v4.1/task_hot/delta-below-cost", "lb-v4.1", { hot_edge }, NULL,
	  R, RS(TASK_HOT), RS(EQUAL_FAULTS), FD, -1 },
	{ "lb-v4.1/task_hot/delta-equals-cost", "lb-v4.1", { cold_edge }, NULL,
	  A, RS(TASK_COLD), 0, 0, -1 },
	{ "lb-v4.1/task_hot/since-ran-unknown", "lb-v4.1", { unk_since_ran }, NULL,
	  UNK, MISSING(SINCE_RAN), 0, FD, -1 },
	{ "lb-v4.1/task_hot/since-ran-unknown-improves", "lb-v4.1", { unk_since_ran, pref_dst },
	  NULL, A, RS(IMPROVES_LOCALITY), RS(DST_PREFERRED), 0, -1 },
	/* lb-v4.1: migrate_improves_locality() (1.4) */
	{ "lb-v4.1/improves/favour-higher-off", "lb-v4.1", { hot, pref_dst },
	  "NUMA_FAVOUR_HIGHER=0", R, RS(TASK_HOT), RS(FAVOUR_HIGHER_OFF), FD, -1 },
	{ "lb-v4.1/improves/no-numa-faults", "lb-v4.1", { hot, pref_dst, no_faults }, NULL,
	  R, RS(TASK_HOT), RS(NO_NUMA_FAULTS), FD, -1 },
	{ "lb-v4.1/improves/same-node", "lb-v4.1", { hot, same_node }, NULL,
	  R, RS(TASK_HOT), RS(SAME_NODE), FD, -1 },
	{ "lb-v4.1/improves/group-src-active", "lb-v4.1",
	  { hot, group, grp_src_active, grp_dst_active }, NULL,
	  R, RS(TASK_HOT), RS(GROUP_SRC_ACTIVE), FD, -1 },
	{ "lb-v4.1/improves/group-enters-active", "lb-v4.1", { hot, group, grp_dst_active }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(GROUP_ENTERS_ACTIVE), FORCED, -1 },
	{ "lb-v4.1/improves/group-dst-more-faults", "lb-v4.1", { hot, group, gfaults_dst_more },
	  NULL, A, RS(IMPROVES_LOCALITY), RS(DST_MORE_FAULTS), FORCED, -1 },
	{ "lb-v4.1/improves/group-dst-fewer-faults", "lb-v4.1", { hot, group, gfaults_dst_fewer },
	  NULL, R, RS(TASK_HOT), RS(DST_FEWER_FAULTS), FD, -1 },
	{ "lb-v4.1/improves/group-ignores-preferred", "lb-v4.1", { hot, group, pref_dst }, NULL,
	  R, RS(TASK_HOT), RS(EQUAL_FAULTS), FD, -1 },
	{ "lb-v4.1/improves/dst-more-faults", "lb-v4.1", { hot, faults_dst_more }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(DST_MORE_FAULTS), FORCED, -1 },
	{ "lb-v4.1/improves/pref-unknown", "lb-v4.1", { hot, unk_pref }, NULL,
	  UNK, MISSING(PREF_NODE), 0, FD, -1 },
	{ "lb-v4.1/improves/faults-known-unknown-same-node", "lb-v4.1",
	  { hot, unk_faults, same_node }, NULL, R, RS(TASK_HOT), RS(SAME_NODE), FD, -1 },
	/* lb-v4.1: migrate_degrades_locality() (1.5), only reached for cold tasks */
	{ "lb-v4.1/degrades/resist-lower-off-default", "lb-v4.1", { pref_src }, "NUMA=1",
	  A, RS(TASK_COLD), 0, 0, -1 },
	{ "lb-v4.1/degrades/numa-feature-off", "lb-v4.1", { pref_src }, "NUMA_RESIST_LOWER=1",
	  A, RS(TASK_COLD), 0, 0, -1 },
	{ "lb-v4.1/degrades/src-preferred", "lb-v4.1", { pref_src },
	  "NUMA=1,NUMA_RESIST_LOWER=1", R, RS(DEGRADES_LOCALITY), RS(SRC_PREFERRED), FD, -1 },
	{ "lb-v4.1/degrades/dst-fewer-faults", "lb-v4.1", { faults_dst_fewer },
	  "NUMA=1,NUMA_RESIST_LOWER=1", R, RS(DEGRADES_LOCALITY), RS(DST_FEWER_FAULTS), FD, -1 },
	{ "lb-v4.1/degrades/equal-faults", "lb-v4.1", { 0 }, "NUMA=1,NUMA_RESIST_LOWER=1",
	  A, RS(TASK_COLD), 0, 0, -1 },
	{ "lb-v4.1/degrades/group-dst-active", "lb-v4.1",
	  { group, grp_dst_active, grp_src_active, gfaults_dst_fewer },
	  "NUMA=1,NUMA_RESIST_LOWER=1", A, RS(TASK_COLD), 0, 0, -1 },
	{ "lb-v4.1/degrades/group-leaves-active", "lb-v4.1", { group, grp_src_active },
	  "NUMA=1,NUMA_RESIST_LOWER=1", R, RS(DEGRADES_LOCALITY), RS(GROUP_LEAVES_ACTIVE), FD, -1 },
	{ "lb-v4.1/degrades/group-dst-fewer-faults", "lb-v4.1", { group, gfaults_dst_fewer },
	  "NUMA=1,NUMA_RESIST_LOWER=1", R, RS(DEGRADES_LOCALITY), RS(DST_FEWER_FAULTS), FD, -1 },
	{ "lb-v4.1/degrades/same-node", "lb-v4.1", { same_node, pref_src },
	  "NUMA=1,NUMA_RESIST_LOWER=1", A, RS(TASK_COLD), 0, 0, -1 },
	{ "lb-v4.1/degrades/no-numa-faults", "lb-v4.1", { no_faults, pref_src },
	  "NUMA=1,NUMA_RESIST_LOWER=1", A, RS(TASK_COLD), 0, 0, -1 },

	/* lb-v4.1-numa-hotness: the posted tri-state migrate_degrades_locality() (2.1) */
	{ "lb-v4.1-numa-hotness/class/not-load-balance", "lb-v4.1-numa-hotness", { exec }, NULL,
	  NA, RS(CLASS_NOT_HANDLED), 0, 0, -1 },
	{ "lb-v4.1-numa-hotness/can_migrate/task-running", "lb-v4.1-numa-hotness", { running },
	  NULL, R, RS(TASK_RUNNING), 0, 0, -1 },
	{ "lb-v4.1-numa-hotness/degrades/no-numa-faults", "lb-v4.1-numa-hotness",
	  { hot, no_faults }, NULL, R, RS(TASK_HOT), RS(NO_NUMA_FAULTS), FD, -1 },
	{ "lb-v4.1-numa-hotness/degrades/numa-feature-off", "lb-v4.1-numa-hotness",
	  { hot, pref_dst }, "NUMA=0", R, RS(TASK_HOT), RS(NUMA_FEATURE_OFF), FD, -1 },
	{ "lb-v4.1-numa-hotness/degrades/numa-off-faults-unknown", "lb-v4.1-numa-hotness",
	  { unk_faults, unk_since_ran }, "NUMA=0", UNK, MISSING(SINCE_RAN), 0, FD, -1 },
	{ "lb-v4.1-numa-hotness/degrades/same-node", "lb-v4.1-numa-hotness", { same_node }, NULL,
	  A, RS(TASK_COLD), RS(SAME_NODE), 0, -1 },
	{ "lb-v4.1-numa-hotness/degrades/group-enters-active", "lb-v4.1-numa-hotness",
	  { hot, group, grp_dst_active }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(GROUP_ENTERS_ACTIVE), 0, -1 },
	{ "lb-v4.1-numa-hotness/degrades/group-leaves-active", "lb-v4.1-numa-hotness",
	  { group, grp_src_active }, NULL,
	  R, RS(DEGRADES_LOCALITY), RS(GROUP_LEAVES_ACTIVE), FD, -1 },
	{ "lb-v4.1-numa-hotness/degrades/group-both-active-dst-more", "lb-v4.1-numa-hotness",
	  { hot, group, grp_src_active, grp_dst_active, gfaults_dst_more }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(DST_MORE_FAULTS), 0, -1 },
	{ "lb-v4.1-numa-hotness/degrades/group-dst-fewer-faults", "lb-v4.1-numa-hotness",
	  { group, gfaults_dst_fewer }, NULL,
	  R, RS(DEGRADES_LOCALITY), RS(DST_FEWER_FAULTS), FD, -1 },
	{ "lb-v4.1-numa-hotness/degrades/group-equal-faults", "lb-v4.1-numa-hotness",
	  { hot, group }, NULL, A, RS(IMPROVES_LOCALITY), RS(EQUAL_FAULTS), 0, -1 },
	{ "lb-v4.1-numa-hotness/degrades/group-ignores-preferred", "lb-v4.1-numa-hotness",
	  { group, pref_dst, grp_src_active }, NULL,
	  R, RS(DEGRADES_LOCALITY), RS(GROUP_LEAVES_ACTIVE), FD, -1 },
	{ "lb-v4.1-numa-hotness/degrades/src-preferred-misplaced", "lb-v4.1-numa-hotness",
	  { pref_src, src_misplaced }, NULL,
	  R, RS(DEGRADES_LOCALITY), RS(SRC_PREFERRED), FD, -1 },
	{ "lb-v4.1-numa-hotness/degrades/src-preferred-all-preferred", "lb-v4.1-numa-hotness",
	  { pref_src }, NULL, A, RS(TASK_COLD), RS(SRC_PREFERRED), 0, -1 },
	{ "lb-v4.1-numa-hotness/degrades/src-preferred-all-preferred-hot",
	  "lb-v4.1-numa-hotness", { hot, pref_src }, NULL,
	  R, RS(TASK_HOT), RS(SRC_PREFERRED), FD, -1 },
	{ "lb-v4.1-numa-hotness/degrades/src-rq-unknown", "lb-v4.1-numa-hotness",
	  { pref_src, unk_src_rq }, NULL, UNK, MISSING(SRC_NR_RUNNING), 0, FD, -1 },
	{ "lb-v4.1-numa-hotness/degrades/dst-preferred", "lb-v4.1-numa-hotness",
	  { hot, pref_dst }, NULL, A, RS(IMPROVES_LOCALITY), RS(DST_PREFERRED), 0, -1 },
	{ "lb-v4.1-numa-hotness/degrades/dst-fewer-faults", "lb-v4.1-numa-hotness",
	  { faults_dst_fewer }, NULL, R, RS(DEGRADES_LOCALITY), RS(DST_FEWER_FAULTS), FD, -1 },
	{ "lb-v4.1-numa-hotness/degrades/dst-more-faults", "lb-v4.1-numa-hotness",
	  { hot, faults_dst_more }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(DST_MORE_FAULTS), 0, -1 },
	{ "lb-v4.1-numa-hotness/degrades/equal-faults-improve", "lb-v4.1-numa-hotness",
	  { hot }, NULL, A, RS(IMPROVES_LOCALITY), RS(EQUAL_FAULTS), 0, -1 },
	{ "lb-v4.1-numa-hotness/can_migrate/degrades-failed-exceeded", "lb-v4.1-numa-hotness",
	  { faults_dst_fewer }, "nr_balance_failed=3",
	  A, RS(BALANCE_FAILED_EXCEEDED), RS(DEGRADES_LOCALITY), FORCED | FD, -1 },
	{ "lb-v4.1-numa-hotness/can_migrate/active-balance", "lb-v4.1-numa-hotness",
	  { active, faults_dst_fewer }, NULL,
	  A, RS(ACTIVE_BALANCE), RS(DEGRADES_LOCALITY), FORCED, -1 },
	{ "lb-v4.1-numa-hotness/task_hot/not-fair", "lb-v4.1-numa-hotness",
	  { hot, no_faults, not_fair }, NULL, A, RS(TASK_COLD), RS(NOT_FAIR_TASK), 0, -1 },

	/* seed 002, table 2.2: the same situation through before / posted / landed */
	{ "seed002/A-hot-leaves-preferred/lb-v4.1", "lb-v4.1", { hot, pref_src, src_misplaced },
	  NULL, R, RS(TASK_HOT), RS(EQUAL_FAULTS), FD, -1 },
	{ "seed002/A-hot-leaves-preferred/lb-v4.1-numa-hotness", "lb-v4.1-numa-hotness",
	  { hot, pref_src, src_misplaced }, NULL,
	  R, RS(DEGRADES_LOCALITY), RS(SRC_PREFERRED), FD, -1 },
	{ "seed002/B-cold-leaves-preferred/lb-v4.1", "lb-v4.1", { pref_src, src_misplaced }, NULL,
	  A, RS(TASK_COLD), 0, 0, -1 },
	{ "seed002/B-cold-leaves-preferred/lb-v4.1-numa-hotness", "lb-v4.1-numa-hotness",
	  { pref_src, src_misplaced }, NULL, R, RS(DEGRADES_LOCALITY), RS(SRC_PREFERRED), FD, -1 },
	{ "seed002/B-cold-leaves-preferred/lb-v4.3", "lb-v4.3", { pref_src, src_misplaced }, NULL,
	  R, RS(DEGRADES_LOCALITY), RS(SRC_PREFERRED), FD, -1 },
	{ "seed002/C-cold-all-preferred/lb-v4.1", "lb-v4.1", { pref_src }, NULL,
	  A, RS(TASK_COLD), 0, 0, -1 },
	{ "seed002/C-cold-all-preferred/lb-v4.1-numa-hotness", "lb-v4.1-numa-hotness",
	  { pref_src }, NULL, A, RS(TASK_COLD), RS(SRC_PREFERRED), 0, -1 },
	{ "seed002/D-hot-to-preferred/lb-v4.1", "lb-v4.1", { hot, pref_dst }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(DST_PREFERRED), FORCED, -1 },
	{ "seed002/D-hot-to-preferred/lb-v4.1-numa-hotness", "lb-v4.1-numa-hotness",
	  { hot, pref_dst }, NULL, A, RS(IMPROVES_LOCALITY), RS(DST_PREFERRED), 0, -1 },
	{ "seed002/F-hot-equal-faults/lb-v4.1", "lb-v4.1", { hot }, NULL,
	  R, RS(TASK_HOT), RS(EQUAL_FAULTS), FD, -1 },
	{ "seed002/F-hot-equal-faults/lb-v4.1-numa-hotness", "lb-v4.1-numa-hotness", { hot }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(EQUAL_FAULTS), 0, -1 },
	{ "seed002/F-hot-zero-faults/lb-v4.3", "lb-v4.3", { hot, faults_zero }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(EQUAL_FAULTS), 0, -1 },
	{ "seed002/G-cold-fewer-faults/lb-v4.1", "lb-v4.1", { faults_dst_fewer }, NULL,
	  A, RS(TASK_COLD), 0, 0, -1 },
	{ "seed002/G-cold-fewer-faults/lb-v4.1-numa-hotness", "lb-v4.1-numa-hotness",
	  { faults_dst_fewer }, NULL, R, RS(DEGRADES_LOCALITY), RS(DST_FEWER_FAULTS), FD, -1 },
	{ "seed002/H-hot-group-interleaved-dst-more/lb-v4.1", "lb-v4.1",
	  { hot, group, grp_src_active, grp_dst_active, gfaults_dst_more }, NULL,
	  R, RS(TASK_HOT), RS(GROUP_SRC_ACTIVE), FD, -1 },
	{ "seed002/H-hot-group-interleaved-dst-more/lb-v4.1-numa-hotness", "lb-v4.1-numa-hotness",
	  { hot, group, grp_src_active, grp_dst_active, gfaults_dst_more }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(DST_MORE_FAULTS), 0, -1 },
	{ "seed002/posted-vs-landed-group-to-preferred/lb-v4.1-numa-hotness",
	  "lb-v4.1-numa-hotness", { group, grp_src_active, pref_dst }, NULL,
	  R, RS(DEGRADES_LOCALITY), RS(GROUP_LEAVES_ACTIVE), FD, -1 },
	{ "seed002/posted-vs-landed-group-to-preferred/lb-v4.3", "lb-v4.3",
	  { group, grp_src_active, pref_dst }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(DST_PREFERRED), 0, -1 },

	/* lb-v4.3: the landed tri-state migrate_degrades_locality() (2.1) */
	{ "lb-v4.3/class/not-load-balance", "lb-v4.3", { numa_swap }, NULL,
	  NA, RS(CLASS_NOT_HANDLED), 0, 0, -1 },
	{ "lb-v4.3/can_migrate/task-running", "lb-v4.3", { running }, NULL,
	  R, RS(TASK_RUNNING), 0, 0, -1 },
	{ "lb-v4.3/degrades/no-numa-faults", "lb-v4.3", { hot, no_faults }, NULL,
	  R, RS(TASK_HOT), RS(NO_NUMA_FAULTS), FD, -1 },
	{ "lb-v4.3/degrades/numa-feature-off", "lb-v4.3", { faults_dst_fewer }, "NUMA=false",
	  A, RS(TASK_COLD), RS(NUMA_FEATURE_OFF), 0, -1 },
	{ "lb-v4.3/degrades/same-node", "lb-v4.3", { hot, same_node }, NULL,
	  R, RS(TASK_HOT), RS(SAME_NODE), FD, -1 },
	{ "lb-v4.3/degrades/src-preferred-misplaced", "lb-v4.3", { hot, pref_src, src_misplaced },
	  NULL, R, RS(DEGRADES_LOCALITY), RS(SRC_PREFERRED), FD, -1 },
	{ "lb-v4.3/degrades/src-preferred-all-preferred", "lb-v4.3", { pref_src }, NULL,
	  A, RS(TASK_COLD), RS(SRC_PREFERRED), 0, -1 },
	{ "lb-v4.3/degrades/src-preferred-group-member", "lb-v4.3",
	  { group, pref_src, src_misplaced, grp_dst_active, gfaults_dst_more }, NULL,
	  R, RS(DEGRADES_LOCALITY), RS(SRC_PREFERRED), FD, -1 },
	{ "lb-v4.3/degrades/dst-preferred", "lb-v4.3", { hot, pref_dst, faults_dst_fewer }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(DST_PREFERRED), 0, -1 },
	{ "lb-v4.3/degrades/group-uses-group-faults", "lb-v4.3",
	  { group, faults_dst_more, gfaults_dst_fewer }, NULL,
	  R, RS(DEGRADES_LOCALITY), RS(DST_FEWER_FAULTS), FD, -1 },
	{ "lb-v4.3/degrades/group-no-active-node-test", "lb-v4.3",
	  { hot, group, grp_src_active }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(EQUAL_FAULTS), 0, -1 },
	{ "lb-v4.3/degrades/task-dst-fewer-faults", "lb-v4.3", { faults_dst_fewer }, NULL,
	  R, RS(DEGRADES_LOCALITY), RS(DST_FEWER_FAULTS), FD, -1 },
	{ "lb-v4.3/degrades/task-dst-more-faults", "lb-v4.3", { hot, faults_dst_more }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(DST_MORE_FAULTS), 0, -1 },
	{ "lb-v4.3/degrades/raw-faults-ignore-neighbours", "lb-v4.3",
	  { dst_far, faults_backplane }, NULL,
	  R, RS(DEGRADES_LOCALITY), RS(DST_FEWER_FAULTS), FD, -1 },
	{ "lb-v4.3/can_migrate/failed-exceeded", "lb-v4.3", { faults_dst_fewer },
	  "nr_balance_failed=5", A, RS(BALANCE_FAILED_EXCEEDED), RS(DEGRADES_LOCALITY),
	  FORCED | FD, -1 },
	{ "lb-v4.3/can_migrate/active-balance", "lb-v4.3", { active, hot, no_faults }, NULL,
	  A, RS(ACTIVE_BALANCE), RS(TASK_HOT), FORCED, -1 },

	/* lb-v6.1: can_migrate_task() / migrate_degrades_locality() / task_hot() (2.4, 2.5) */
	{ "lb-v6.1/task_hot/moved-since-ran-cold", "lb-v6.1", { hot, no_faults, moved }, NULL,
	  A, RS(TASK_COLD), RS(MOVED_COLD), 0, -1 },
	{ "lb-v6.1/task_hot/moved-since-ran-no-last-run", "lb-v6.1",
	  { unk_since_ran, no_faults, moved }, NULL, A, RS(TASK_COLD), RS(MOVED_COLD), 0, -1 },
	{ "lb-v4.1/task_hot/moved-since-ran-cold", "lb-v4.1", { hot, moved }, NULL,
	  A, RS(TASK_COLD), RS(MOVED_COLD), 0, -1 },
	{ "lb-v6.1/class/not-load-balance", "lb-v6.1", { fork_class }, NULL,
	  NA, RS(CLASS_NOT_HANDLED), 0, 0, -1 },
	{ "lb-v6.1/can_migrate/task-running", "lb-v6.1", { running }, NULL,
	  R, RS(TASK_RUNNING), 0, 0, -1 },
	{ "lb-v6.1/can_migrate/active-lb-not-forced", "lb-v6.1", { active, hot, faults_dst_fewer },
	  NULL, A, RS(ACTIVE_BALANCE), 0, 0, -1 },
	{ "lb-v6.1/can_migrate/failed-exceeded", "lb-v6.1", { hot, no_faults },
	  "nr_balance_failed=3", A, RS(BALANCE_FAILED_EXCEEDED), RS(TASK_HOT), FORCED | FD, -1 },
	{ "lb-v6.1/degrades/numa-balancing-off", "lb-v6.1", { hot, pref_dst }, "numa_balancing=0",
	  R, RS(TASK_HOT), RS(NUMA_FEATURE_OFF), FD, -1 },
	{ "lb-v6.1/degrades/no-numa-faults", "lb-v6.1", { no_faults }, NULL,
	  A, RS(TASK_COLD), RS(NO_NUMA_FAULTS), 0, -1 },
	{ "lb-v6.1/degrades/same-node", "lb-v6.1", { hot, same_node }, NULL,
	  R, RS(TASK_HOT), RS(SAME_NODE), FD, -1 },
	{ "lb-v6.1/degrades/src-preferred-misplaced", "lb-v6.1", { pref_src, src_misplaced }, NULL,
	  R, RS(DEGRADES_LOCALITY), RS(SRC_PREFERRED), FD, -1 },
	{ "lb-v6.1/degrades/src-preferred-all-preferred", "lb-v6.1", { hot, pref_src }, NULL,
	  R, RS(TASK_HOT), RS(SRC_PREFERRED), FD, -1 },
	{ "lb-v6.1/degrades/dst-preferred", "lb-v6.1", { hot, pref_dst, faults_dst_fewer }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(DST_PREFERRED), 0, -1 },
	{ "lb-v6.1/degrades/idle-override-cold", "lb-v6.1", { cpu_idle, faults_dst_fewer }, NULL,
	  A, RS(TASK_COLD), RS(IDLE_OVERRIDE), 0, -1 },
	{ "lb-v6.1/degrades/idle-override-hot", "lb-v6.1", { cpu_idle, hot, faults_dst_more },
	  NULL, R, RS(TASK_HOT), RS(IDLE_OVERRIDE), FD, -1 },
	{ "lb-v6.1/degrades/newly-idle-no-override", "lb-v6.1", { newly_idle, faults_dst_fewer },
	  NULL, R, RS(DEGRADES_LOCALITY), RS(DST_LOWER_WEIGHT), FD, -1 },
	{ "lb-v6.1/degrades/idle-type-unknown", "lb-v6.1", { unk_idle_type, faults_dst_fewer },
	  NULL, UNK, MISSING(IDLE_TYPE), 0, FD, -1 },
	{ "lb-v6.1/degrades/task-lower-weight", "lb-v6.1", { faults_dst_fewer }, NULL,
	  R, RS(DEGRADES_LOCALITY), RS(DST_LOWER_WEIGHT), FD, -1 },
	{ "lb-v6.1/degrades/task-higher-weight", "lb-v6.1", { hot, faults_dst_more }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(DST_HIGHER_WEIGHT), 0, -1 },
	{ "lb-v6.1/degrades/equal-weight", "lb-v6.1", { hot }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(EQUAL_WEIGHT), 0, -1 },
	{ "lb-v6.1/degrades/zero-total-faults", "lb-v6.1", { hot, faults_zero }, NULL,
	  A, RS(IMPROVES_LOCALITY), RS(EQUAL_WEIGHT), 0, -1 },
	{ "lb-v6.1/degrades/backplane-nearby-nodes", "lb-v6.1", { dst_far, faults_backplane },
	  NULL, A, RS(IMPROVES_LOCALITY), RS(DST_HIGHER_WEIGHT), 0, -1 },
	{ "lb-v6.1/degrades/group-lower-weight", "lb-v6.1",
	  { group, faults_dst_more, gfaults_dst_fewer }, NULL,
	  R, RS(DEGRADES_LOCALITY), RS(DST_LOWER_WEIGHT), FD, -1 },
	{ "lb-v6.1/task_hot/smt-siblings-never-hot", "lb-v6.1", { hot, same_node, smt }, NULL,
	  A, RS(TASK_COLD), RS(SMT_SIBLINGS), 0, -1 },
	{ "lb-v6.1/task_hot/level-unknown-assumed-not-smt", "lb-v6.1",
	  { hot, same_node, no_sd_level }, NULL, R, RS(TASK_HOT), RS(SAME_NODE), FD | NOSMT, -1 },
	{ "lb-v6.1/task_hot/not-fair", "lb-v6.1", { hot, not_fair, no_faults }, NULL,
	  A, RS(TASK_COLD), RS(NOT_FAIR_TASK), 0, -1 },
	{ "lb-v6.1/task_hot/buddy-dst-busy", "lb-v6.1", { buddy, no_faults }, NULL,
	  R, RS(TASK_HOT), RS(BUDDY_HOT), FD, -1 },
	{ "lb-v6.1/task_hot/buddy-unknown", "lb-v6.1", { buddy_unknown, no_faults }, NULL,
	  A, RS(TASK_COLD), RS(NO_NUMA_FAULTS), NOBUD, -1 },
	{ "lb-v6.1/task_hot/cost-minus-one", "lb-v6.1", { no_faults },
	  "sched_migration_cost_ns=-1", R, RS(TASK_HOT), RS(MIGRATION_COST_ALL_HOT), FD, -1 },
	{ "lb-v6.1/task_hot/since-ran-unknown", "lb-v6.1", { no_faults, unk_since_ran }, NULL,
	  UNK, MISSING(SINCE_RAN), 0, FD, -1 },

	/* numa-v4.18: no numa_migrate_on (3.5, 3.6) */
	{ "numa-v4.18/class/not-numa", "numa-v4.18", { 0 }, NULL,
	  NA, RS(CLASS_NOT_HANDLED), 0, 0, -1 },
	{ "numa-v4.18/numa_balancing/off", "numa-v4.18", { numa_move }, "numa_balancing=0",
	  R, RS(NUMA_FEATURE_OFF), 0, 0, -1 },
	{ "numa-v4.18/compare/move-free", "numa-v4.18", { numa_move }, NULL,
	  A, RS(NUMA_CONCURRENT_ALLOWED), 0, 0, -1 },
	{ "numa-v4.18/compare/no-candidate", "numa-v4.18", { numa_stick, no_candidate }, NULL,
	  NA, RS(NO_CANDIDATE), 0, 0, -1 },
	{ "numa-v4.18/compare/dst-unknown", "numa-v4.18", { numa_move, unk_dst_cpu }, NULL,
	  UNK, MISSING(DST_CPU), 0, 0, -1 },
	{ "numa-v4.18/compare/inflight-unknown-irrelevant", "numa-v4.18",
	  { numa_move, unk_inflight }, NULL, A, RS(NUMA_CONCURRENT_ALLOWED), 0, 0, -1 },
	/* numa-v4.19: the numa_migrate_on claim (3.6) */
	{ "numa-v4.19/class/not-numa", "numa-v4.19", { exec }, NULL,
	  NA, RS(CLASS_NOT_HANDLED), 0, 0, -1 },
	{ "numa-v4.19/numa_balancing/off", "numa-v4.19", { numa_swap }, "numa_balancing=off",
	  R, RS(NUMA_FEATURE_OFF), 0, 0, -1 },
	{ "numa-v4.19/compare/move-free", "numa-v4.19", { numa_move }, NULL,
	  A, RS(DST_NUMA_FREE), 0, 0, -1 },
	{ "numa-v4.19/compare/no-candidate", "numa-v4.19", { numa_stick, no_candidate }, NULL,
	  NA, RS(NO_CANDIDATE), 0, 0, -1 },
	{ "numa-v4.19/compare/inflight-unknown", "numa-v4.19", { numa_move, unk_inflight }, NULL,
	  UNK, MISSING(NUMA_INFLIGHT), 0, 0, -1 },
	{ "numa-v4.19/compare/stick-claimed", "numa-v4.19", { numa_stick, claimed }, NULL,
	  R, RS(DST_NUMA_CLAIMED), 0, 0, -1 },
	/* seed 000: a second NUMA move onto a CPU another move has claimed */
	{ "seed000/move-onto-claimed/numa-v4.18", "numa-v4.18", { numa_move, claimed }, NULL,
	  A, RS(NUMA_CONCURRENT_ALLOWED), RS(DST_NUMA_CLAIMED), 0, -1 },
	{ "seed000/move-onto-claimed/numa-v4.19", "numa-v4.19", { numa_move, claimed }, NULL,
	  R, RS(DST_NUMA_CLAIMED), 0, 0, -1 },
	{ "seed000/swap-onto-claimed/numa-v4.18", "numa-v4.18", { numa_swap, claimed }, NULL,
	  A, RS(NUMA_CONCURRENT_ALLOWED), RS(DST_NUMA_CLAIMED), 0, -1 },
	{ "seed000/swap-onto-claimed/numa-v4.19", "numa-v4.19", { numa_swap, claimed }, NULL,
	  R, RS(DST_NUMA_CLAIMED), 0, 0, -1 },

	/*
	 * exec-v6.1: find_idlest_cpu() inside the SD_BALANCE_EXEC domains
	 * (distance <= 30: nodes 0 and 1 from node 0); runnable {2,1,3,4}
	 * on 2 CPUs each, the task itself on node 0
	 */
	{ "exec-v6.1/class/not-exec", "exec-v6.1", { fork_class }, NULL,
	  NA, RS(CLASS_NOT_HANDLED), 0, 0, -1 },
	{ "exec-v6.1/domain/far-node-outside", "exec-v6.1", { exec, dst_node3 }, NULL,
	  R, RS(EXEC_OUTSIDE_DOMAIN), RS(EXEC_IDLER_ELSEWHERE), 0, 0 },
	{ "exec-v6.1/domain/reclaim-distance-40", "exec-v6.1", { exec, dst_node3 },
	  "node_reclaim_distance=40", R, RS(EXEC_IDLER_ELSEWHERE), RS(EXEC_PELT_ESTIMATE), 0, 0 },
	{ "exec-v6.1/spare/equal-idle-stays", "exec-v6.1", { exec, dst_node0 }, NULL,
	  A, RS(EXEC_IDLEST), 0, 0, 0 },
	/*
	 * imb_numa_nr, one LLC per 2-CPU node: max(1, 2 / 8) = 1, so only a
	 * task alone on its node stays for an idle-CPU difference of 1
	 */
	{ "exec-v6.1/imb_numa_nr/one-llc-eighth-of-node", "exec-v6.1",
	  { exec, node0_one_other, node1_idle }, NULL, A, RS(EXEC_IDLEST), 0, 0, 1 },
	{ "exec-v6.1/imb_numa_nr/alone-stays", "exec-v6.1", { exec, node0_alone, node1_idle }, NULL,
	  R, RS(EXEC_IDLER_ELSEWHERE), 0, 0, 0 },
	{ "exec-v6.1/imb_numa_nr/llcs-per-node", "exec-v6.1", { exec, node0_one_other, node1_idle },
	  "llcs_per_node=2", R, RS(EXEC_IDLER_ELSEWHERE), 0, 0, 0 },
	/* 4 LLCs per node would allow 4; the task's allowed CPUs in node 0 (2) cap it */
	{ "exec-v6.1/imb_numa_nr/capped-by-local-group", "exec-v6.1", { exec, local_busy, node1_idle },
	  "llcs_per_node=4", A, RS(EXEC_IDLEST), RS(EXEC_PELT_ESTIMATE), 0, 1 },
	/* the distance-40 level spans 8 CPUs, twice the first NUMA level: 2 there, 1 below */
	{ "exec-v6.1/imb_numa_nr/level-factor", "exec-v6.1",
	  { exec, node0_one_other, node1_two_tasks, far_nodes_idle, dst_far },
	  "node_reclaim_distance=40", R, RS(EXEC_IDLER_ELSEWHERE), RS(EXEC_PELT_ESTIMATE), 0, 0 },
	{ "exec-v6.1/spare/small-imbalance-no-move", "exec-v6.1", { exec }, NULL,
	  R, RS(EXEC_IDLER_ELSEWHERE), 0, 0, 0 },
	{ "exec-v6.1/spare/preferred-idlest", "exec-v6.1", { exec, pref_dst }, NULL,
	  A, RS(EXEC_IDLEST), 0, 0, 1 },
	{ "exec-v6.1/type/busy-local-spare-remote", "exec-v6.1", { exec, local_busy, node1_idle },
	  NULL, A, RS(EXEC_IDLEST), RS(EXEC_PELT_ESTIMATE), 0, 1 },
	/*
	 * exec-pelt-estimate follows when a group's type came from the util and
	 * runnable estimates (as many tasks as CPUs or more) or busy loads were
	 * compared; a type the counts alone decide (more tasks than CPUs, no
	 * estimates) does not add it
	 */
	{ "exec-v6.1/busy/equal-load-stays", "exec-v6.1",
	  { exec, local_overloaded, node1_overloaded, no_pelt }, NULL,
	  R, RS(EXEC_IDLER_ELSEWHERE), RS(EXEC_PELT_ESTIMATE), 0, 0 },
	{ "exec-v6.1/busy/lighter-remote-by-margin", "exec-v6.1",
	  { exec, local_overloaded, no_pelt }, NULL, A, RS(EXEC_IDLEST), 0, 0, 1 },
	/* 3 tasks on 2 CPUs that hardly run: spare capacity, a small imbalance stays */
	{ "exec-v6.1/pelt/light-tasks-have-spare", "exec-v6.1", { exec, local_overloaded }, NULL,
	  R, RS(EXEC_IDLER_ELSEWHERE), RS(EXEC_PELT_ESTIMATE), 0, 0 },
	/* busy: node 0 load 4 x 1024 less the task's own 1024, node 1 3 x 1024: stay */
	{ "exec-v6.1/pelt/own-load-taken-away", "exec-v6.1",
	  { exec, local_overloaded, node1_overloaded, busy_pelt }, NULL,
	  R, RS(EXEC_IDLER_ELSEWHERE), RS(EXEC_PELT_ESTIMATE), 0, 0 },
	{ "exec-v6.1/known/far-nodes-do-not-matter", "exec-v6.1", { exec, dst_node0, near_nodes_known },
	  NULL, A, RS(EXEC_IDLEST), 0, 0, 0 },
	{ "exec-v6.1/unknown/near-node", "exec-v6.1", { exec, only_src_node_known }, NULL,
	  UNK, MISSING(NODE_NR_RUNNING), 0, 0, -1 },
	{ "exec-v6.1/unknown/node-idle", "exec-v6.1", { exec, unk_node_idle }, NULL,
	  UNK, MISSING(NODE_NR_IDLE), 0, 0, -1 },
	{ "exec-v6.1/unknown/pref-node", "exec-v6.1", { exec, unk_pref }, NULL,
	  UNK, MISSING(PREF_NODE), 0, 0, -1 },
	/* sched_exec() asks the class, but find_idlest_cpu() sees only the allowed CPUs */
	{ "exec-v6.1/cpus_ptr/one-cpu-stays", "exec-v6.1", { exec, node1_idle, bound_src }, NULL,
	  R, RS(PLACE_ONE_CPU), RS(PLACE_OTHER_CPU), 0, 0 },
	{ "exec-v6.1/cpus_ptr/one-cpu-is-dst", "exec-v6.1", { exec, local_busy, bound_dst }, NULL,
	  A, RS(PLACE_ONE_CPU), RS(PLACE_SAME_CPU), 0, 1 },
	{ "exec-v6.1/cpus_ptr/one-cpu-before-unknown-inputs", "exec-v6.1",
	  { exec, unk_pref, bound_src }, NULL, R, RS(PLACE_ONE_CPU), RS(PLACE_OTHER_CPU), 0, 0 },
	{ "exec-v6.1/cpus_ptr/several-cpus-the-groups-decide", "exec-v6.1",
	  { exec, local_busy, node1_idle, bound_many }, NULL, A, RS(EXEC_IDLEST), RS(EXEC_PELT_ESTIMATE),
	  0, 1 },

	/* exec-least-loaded: sched_best_node() (5.1); loads per CPU {50,50,150,200} */
	{ "exec-least-loaded/class/not-exec", "exec-least-loaded", { fork_class }, NULL,
	  NA, RS(CLASS_NOT_HANDLED), 0, 0, -1 },
	{ "exec-least-loaded/best_node/dst-least-loaded", "exec-least-loaded",
	  { exec, dst_node0 }, NULL, A, RS(EXEC_LEAST_LOADED), 0, 0, 0 },
	{ "exec-least-loaded/best_node/other-node-less-loaded", "exec-least-loaded",
	  { exec, dst_node3 }, NULL, R, RS(EXEC_LESS_LOADED_ELSEWHERE), 0, 0, 0 },
	{ "exec-least-loaded/best_node/tie-starts-at-cursor", "exec-least-loaded",
	  { exec, seq1 }, NULL, A, RS(EXEC_LEAST_LOADED), 0, 0, 1 },
	{ "exec-least-loaded/best_node/self-counted", "exec-least-loaded",
	  { exec, dst_node0 }, "subtract_self=0", R, RS(EXEC_LESS_LOADED_ELSEWHERE), 0, 0, 1 },
	{ "exec-least-loaded/best_node/skip-cpuless-node", "exec-least-loaded",
	  { exec, seq1, node1_no_cpus }, NULL, R, RS(EXEC_LESS_LOADED_ELSEWHERE), 0, 0, 0 },
	{ "exec-least-loaded/best_node/load-per-cpu", "exec-least-loaded",
	  { exec, uneven_cpus, seq1, dst_node0 }, NULL, A, RS(EXEC_LEAST_LOADED), 0, 0, 0 },
	{ "exec-least-loaded/best_node/no-node-has-cpus", "exec-least-loaded",
	  { exec, no_cpus }, NULL, NA, RS(EXEC_NO_NODE), 0, 0, -1 },
	{ "exec-least-loaded/best_node/loads-unknown", "exec-least-loaded",
	  { exec, unk_node_running }, NULL, UNK, MISSING(NODE_NR_RUNNING), 0, 0, -1 },
	/* exec-round-robin: the while loop only (5.1) */
	{ "exec-round-robin/class/not-exec", "exec-round-robin", { 0 }, NULL,
	  NA, RS(CLASS_NOT_HANDLED), 0, 0, -1 },
	{ "exec-round-robin/next_node/first-exec-node0", "exec-round-robin",
	  { exec, dst_node0 }, NULL, A, RS(EXEC_ROUND_ROBIN), 0, 0, 0 },
	{ "exec-round-robin/next_node/wraps", "exec-round-robin", { exec, seq5 }, NULL,
	  A, RS(EXEC_ROUND_ROBIN), 0, 0, 1 },
	{ "exec-round-robin/next_node/elsewhere", "exec-round-robin", { exec, dst_node3 }, NULL,
	  R, RS(EXEC_ROUND_ROBIN_ELSEWHERE), 0, 0, 0 },
	{ "exec-round-robin/next_node/offset", "exec-round-robin", { exec, dst_node3, seq1 },
	  "offset=2", A, RS(EXEC_ROUND_ROBIN), 0, 0, 3 },
	{ "exec-round-robin/next_node/skip-cpuless-node", "exec-round-robin",
	  { exec, seq5, node1_no_cpus }, NULL, R, RS(EXEC_ROUND_ROBIN_ELSEWHERE), 0, 0, 2 },
	{ "exec-round-robin/next_node/cursor-max", "exec-round-robin", { exec, seq_max }, NULL,
	  R, RS(EXEC_ROUND_ROBIN_ELSEWHERE), 0, 0, 3 },
	{ "exec-round-robin/next_node/cursor-unknown", "exec-round-robin",
	  { exec, unk_exec_seq }, NULL, UNK, MISSING(EXEC_SEQ), 0, 0, -1 },
};

#define NR_CASES ((int)(sizeof(cases) / sizeof(cases[0])))

static void apply_params(const struct sr_policy_ops *ops, struct sr_param_values *vals,
			 const char *params, const char *row)
{
	char buf[256];
	char *tok, *save = NULL;
	struct err err = { 0 };

	replay_params_defaults(ops, vals);
	if (!params)
		return;
	snprintf(buf, sizeof(buf), "%s", params);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		ck_assert_msg(replay_param_parse(ops, vals, tok, &err) == 0, "%s: param %s: %s",
			      row, tok, err.msg);
}

static void run_case(const struct policy_case *c, struct sr_verdict *out)
{
	const struct sr_policy_ops *ops = replay_registry_lookup(c->policy);
	struct sr_param_values vals;
	struct sr_snapshot snap, copy;
	struct sr_verdict again;
	int i;

	ck_assert_msg(ops != NULL, "%s: no policy %s", c->name, c->policy);
	base_snapshot(&snap);
	for (i = 0; i < 5 && c->mods[i]; i++)
		c->mods[i](&snap);
	apply_params(ops, &vals, c->params, c->name);
	memcpy(&copy, &snap, sizeof(snap));

	replay_verdict_init(out);
	ck_assert_int_eq(ops->evaluate(&vals, &snap, out), 0);
	/* pure: the snapshot is untouched and a second run says the same */
	ck_assert_msg(!memcmp(&copy, &snap, sizeof(snap)), "%s: snapshot modified", c->name);
	replay_verdict_init(&again);
	ck_assert_int_eq(ops->evaluate(&vals, &snap, &again), 0);
	ck_assert_msg(!memcmp(out, &again, sizeof(again)), "%s: not deterministic", c->name);
}

START_TEST(test_policy_table)
{
	const struct policy_case *c = &cases[_i];
	const struct sr_policy_ops *ops = replay_registry_lookup(c->policy);
	struct sr_verdict out;
	unsigned int r2;

	run_case(c, &out);
	r2 = out.nr_reasons > 1 ? out.reasons[1] : 0;
	ck_assert_msg(out.verdict == c->verdict, "%s: verdict %s, expected %s", c->name,
		      replay_verdict_name(out.verdict), replay_verdict_name(c->verdict));
	ck_assert_msg(out.nr_reasons >= 1 && out.reasons[0] == c->r1,
		      "%s: first reason %s, expected %s", c->name,
		      out.nr_reasons ? replay_reason_name(ops, out.reasons[0]) : "(none)",
		      replay_reason_name(ops, c->r1));
	ck_assert_msg(r2 == c->r2, "%s: second reason %s, expected %s", c->name,
		      r2 ? replay_reason_name(ops, r2) : "(none)",
		      c->r2 ? replay_reason_name(ops, c->r2) : "(none)");
	ck_assert_msg(out.flags == c->flags, "%s: flags 0x%x, expected 0x%x", c->name,
		      out.flags, c->flags);
	ck_assert_msg(out.target_node == c->target, "%s: target node %d, expected %d", c->name,
		      out.target_node, c->target);
	if (out.verdict == SR_VERDICT_UNKNOWN)
		ck_assert_msg(out.missing & (1ull << (out.reasons[0] - SR_REASON_MISSING_FIRST)),
			      "%s: missing mask does not name the first reason", c->name);
	else
		ck_assert_msg(out.missing == 0, "%s: missing set on a known verdict", c->name);
}
END_TEST

/* The seed rows above must actually disagree where table 2.2 says so. */
START_TEST(test_seed_pairs_disagree)
{
	static const char *const disagree[] = {
		"seed002/B-cold-leaves-preferred/",
		"seed002/F-hot-equal-faults/",
		"seed002/G-cold-fewer-faults/",
		"seed002/H-hot-group-interleaved-dst-more/",
		"seed002/posted-vs-landed-group-to-preferred/",
		"seed000/move-onto-claimed/",
		"seed000/swap-onto-claimed/",
	};
	static const char *const agree[] = {
		"seed002/A-hot-leaves-preferred/",
		"seed002/C-cold-all-preferred/",
		"seed002/D-hot-to-preferred/",
	};
	size_t k;

	for (k = 0; k < sizeof(disagree) / sizeof(disagree[0]) + sizeof(agree) / sizeof(agree[0]);
	     k++) {
		bool want_disagree = k < sizeof(disagree) / sizeof(disagree[0]);
		const char *prefix = want_disagree ? disagree[k] :
				     agree[k - sizeof(disagree) / sizeof(disagree[0])];
		int verdicts[2];
		int n = 0, i;

		for (i = 0; i < NR_CASES; i++) {
			struct sr_verdict out;

			if (strncmp(cases[i].name, prefix, strlen(prefix)) || n == 2)
				continue;
			run_case(&cases[i], &out);
			verdicts[n++] = out.verdict;
		}
		ck_assert_msg(n == 2, "%s: expected two rows, found %d", prefix, n);
		ck_assert_msg((verdicts[0] != verdicts[1]) == want_disagree,
			      "%s: policies %s", prefix, want_disagree ? "agree" : "disagree");
	}
}
END_TEST

/* Every branch-named row belongs to a registered policy and names are unique. */
START_TEST(test_table_names)
{
	int i, j;

	for (i = 0; i < NR_CASES; i++) {
		ck_assert_ptr_nonnull(replay_registry_lookup(cases[i].policy));
		for (j = 0; j < i; j++)
			ck_assert_msg(strcmp(cases[i].name, cases[j].name), "duplicate row %s",
				      cases[i].name);
	}
	/* every built-in has rows (the placement ones in check-wakeup.c) */
	for (j = 0; j < (int)replay_registry_count(); j++) {
		const char *name = replay_registry_get((size_t)j)->name;
		int n = 0;

		if (!strncmp(name, "wakeup-", 7) || !strncmp(name, "fork-", 5))
			continue;
		for (i = 0; i < NR_CASES; i++)
			n += !strcmp(cases[i].policy, name);
		ck_assert_msg(n >= 6, "policy %s has only %d rows", name, n);
	}
}
END_TEST

/* ---- robustness: random snapshots, random known bits ---- */

static uint64_t rng_next(uint64_t *state)
{
	/* xorshift64*: deterministic, so a failure is reproducible */
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545F4914F6CDD1Dull;
}

static int32_t rnd_small(uint64_t *st)
{
	/* mostly sane values, sometimes hostile ones */
	static const int32_t odd[] = { -1, -1000, 64, 65, 1000, INT32_MAX, INT32_MIN };
	uint64_t r = rng_next(st);

	if (r % 8 == 0)
		return odd[(r >> 8) % (sizeof(odd) / sizeof(odd[0]))];
	return (int32_t)((r >> 8) % 5);
}

START_TEST(test_random_snapshots)
{
	uint64_t st = 0x9e3779b97f4a7c15ull;
	int round, p, n;

	for (round = 0; round < 3000; round++) {
		struct sr_snapshot s;
		struct sr_param_values vals;
		struct sr_verdict out;
		const struct sr_policy_ops *ops;

		replay_snapshot_init(&s);
		s.known = rng_next(&st);
		s.decision_class = (int32_t)(rng_next(&st) % (SR_DECISION_CLASS__COUNT + 1));
		s.task_class = rnd_small(&st);
		s.src_cpu = rnd_small(&st);
		s.dst_cpu = rnd_small(&st);
		s.src_node = rnd_small(&st);
		s.dst_node = rnd_small(&st);
		s.cross_node = rnd_small(&st);
		s.sd_level = rnd_small(&st);
		s.nr_nodes = rnd_small(&st);
		for (n = 0; n < SR_MAX_NODES; n++) {
			s.task_faults[n] = rng_next(&st) % 4 ? rng_next(&st) % 1000 : rng_next(&st);
			s.group_faults[n] = rng_next(&st) % 1000;
			s.node_nr_running[n] = rnd_small(&st);
			s.node_nr_cpus[n] = rnd_small(&st);
			for (p = 0; p < SR_MAX_NODES; p++)
				s.distance[n][p] = (uint8_t)(rng_next(&st) % 4 ? 10 + 10 *
							     (rng_next(&st) % 4) : rng_next(&st));
		}
		s.pref_node = rnd_small(&st);
		s.numa_group = rnd_small(&st);
		s.has_faults = rnd_small(&st);
		s.group_active = rng_next(&st);
		s.src_nr_running = rnd_small(&st);
		s.src_nr_preferred = rnd_small(&st);
		s.dst_nr_running = rnd_small(&st);
		s.task_running = rnd_small(&st);
		s.idle_type = rnd_small(&st);
		s.since_ran_ns = rng_next(&st) % 2 ? rng_next(&st) % 1000000 : rng_next(&st);
		s.buddy = rnd_small(&st);
		s.numa_inflight = rnd_small(&st);
		s.exec_seq = rng_next(&st);

		for (p = 0; p < (int)replay_registry_count(); p++) {
			ops = replay_registry_get((size_t)p);
			replay_params_defaults(ops, &vals);
			replay_verdict_init(&out);
			ck_assert_int_eq(ops->evaluate(&vals, &s, &out), 0);
			ck_assert_int_ge(out.verdict, SR_VERDICT_NOT_APPLICABLE);
			ck_assert_int_le(out.verdict, SR_VERDICT_UNKNOWN);
			ck_assert_uint_ge(out.nr_reasons, 1);
			ck_assert_uint_le(out.nr_reasons, SR_MAX_REASONS);
			for (n = 0; n < (int)out.nr_reasons; n++)
				ck_assert_str_ne(replay_reason_name(ops, out.reasons[n]), "invalid");
			if (out.verdict == SR_VERDICT_UNKNOWN) {
				ck_assert_uint_ge(out.reasons[0], SR_REASON_MISSING_FIRST);
				ck_assert_uint_lt(out.reasons[0],
						  SR_REASON_MISSING_FIRST + SR_SNAP_BIT__COUNT);
				ck_assert(out.missing != 0);
				/* an unknown answer only ever names inputs that were unknown */
				/*
				 * except lb-v6.1's weights, which report the distance
				 * matrix missing when a node lies outside it
				 */
				ck_assert((out.missing & s.known) == 0 ||
					  out.reasons[0] == sr_reason_missing(SR_SNAP_BIT_DISTANCE));
			}
		}
	}
}
END_TEST

START_TEST(test_nothing_known)
{
	struct sr_snapshot s;
	struct sr_param_values vals;
	struct sr_verdict out;
	size_t p;

	replay_snapshot_init(&s);
	for (p = 0; p < replay_registry_count(); p++) {
		const struct sr_policy_ops *ops = replay_registry_get(p);

		replay_params_defaults(ops, &vals);
		replay_verdict_init(&out);
		ck_assert_int_eq(ops->evaluate(&vals, &s, &out), 0);
		/* without a class, nobody claims the decision */
		ck_assert_int_eq(out.verdict, SR_VERDICT_NOT_APPLICABLE);
		ck_assert_uint_eq(out.reasons[0], SR_REASON_CLASS_NOT_HANDLED);
	}
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct sr_snapshot s;
	struct sr_param_values vals;
	struct sr_verdict out;
	size_t p;

	base_snapshot(&s);
	for (p = 0; p < replay_registry_count(); p++) {
		const struct sr_policy_ops *ops = replay_registry_get(p);

		replay_params_defaults(ops, &vals);
		ck_assert_int_eq(ops->evaluate(NULL, &s, &out), -EINVAL);
		ck_assert_int_eq(ops->evaluate(&vals, NULL, &out), -EINVAL);
		ck_assert_int_eq(ops->evaluate(&vals, &s, NULL), -EINVAL);
		s.size = 16;
		ck_assert_int_eq(ops->evaluate(&vals, &s, &out), -EINVAL);
		s.size = sizeof(s);
		vals.nr = 0;
		ck_assert_int_eq(ops->evaluate(&vals, &s, &out), -EINVAL);
	}
}
END_TEST

/* ---- registry ---- */

START_TEST(test_registry)
{
	static const char *const names[] = {
		"lb-v4.1", "lb-v4.1-numa-hotness", "lb-v4.3", "lb-v6.1",
		"numa-v4.18", "numa-v4.19", "exec-least-loaded", "exec-round-robin",
		"exec-v6.1", "wakeup-v4.15", "wakeup-v4.16", "wakeup-v5.19", "wakeup-v6.1",
		"fork-v5.10", "fork-v5.11", "fork-v6.1",
	};
	struct err err = { 0 };
	size_t i, j;

	ck_assert_uint_eq(replay_registry_count(), sizeof(names) / sizeof(names[0]));
	for (i = 0; i < replay_registry_count(); i++) {
		const struct sr_policy_ops *ops = replay_registry_get(i);

		ck_assert_str_eq(ops->name, names[i]);
		ck_assert_ptr_eq(replay_registry_lookup(names[i]), ops);
		ck_assert_msg(replay_ops_check(ops, &err) == 0, "%s: %s", ops->name, err.msg);
		ck_assert(ops->provenance && strlen(ops->provenance) > 10);
		ck_assert(ops->description && *ops->description);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(replay_registry_get(j)->name, ops->name);
	}
	ck_assert_ptr_null(replay_registry_get(replay_registry_count()));
	/* exact names only */
	ck_assert_ptr_null(replay_registry_lookup("lb-v4"));
	ck_assert_ptr_null(replay_registry_lookup("LB-V4.1"));
	ck_assert_ptr_null(replay_registry_lookup("lb-v4.1 "));
	ck_assert_ptr_null(replay_registry_lookup(""));
	ck_assert_ptr_null(replay_registry_lookup(NULL));
	/* the load balancers share their first parameters */
	for (i = 0; i < 4; i++) {
		const struct sr_policy_ops *ops = replay_registry_get(i);

		ck_assert_int_eq(replay_param_index(ops, "sched_migration_cost_ns"), 0);
		ck_assert_int_eq(replay_param_index(ops, "cache_nice_tries"), 1);
		ck_assert_int_eq(replay_param_index(ops, "nr_balance_failed"), 2);
		ck_assert_int_eq(replay_param_index(ops, "CACHE_HOT_BUDDY"), 3);
		ck_assert_int_eq(ops->params[0].def, 500000);
		ck_assert_int_eq(ops->params[2].def, 0);
	}
	/* v4.1's feature defaults (docs/kernel-behaviour.md section 2.4) */
	{
		const struct sr_policy_ops *v41 = replay_registry_lookup("lb-v4.1");

		ck_assert_int_eq(v41->params[replay_param_index(v41, "NUMA")].def, 0);
		ck_assert_int_eq(v41->params[replay_param_index(v41, "NUMA_FAVOUR_HIGHER")].def, 1);
		ck_assert_int_eq(v41->params[replay_param_index(v41, "NUMA_RESIST_LOWER")].def, 0);
	}
}
END_TEST

START_TEST(test_names)
{
	unsigned int c, k;
	int b;

	for (c = 0; c < SR_REASON__COUNT; c++) {
		const char *n = replay_reason_name(NULL, c);

		ck_assert_str_ne(n, "invalid");
		ck_assert_str_ne(replay_reason_description(NULL, c), "invalid");
		for (k = 0; k < c; k++)
			ck_assert_str_ne(replay_reason_name(NULL, k), n);
	}
	ck_assert_str_eq(replay_reason_name(NULL, SR_REASON_TASK_HOT), "task-hot");
	ck_assert_str_eq(replay_reason_description(NULL, SR_REASON_TASK_HOT),
			 "task ran within sched_migration_cost");
	for (b = 0; b < SR_SNAP_BIT__COUNT; b++) {
		char want[64];

		snprintf(want, sizeof(want), "missing-%s", replay_snap_field_name(b));
		ck_assert_str_eq(replay_reason_name(NULL, sr_reason_missing(b)), want);
		ck_assert_str_ne(replay_snap_field_description(b), "invalid");
	}
	ck_assert_str_eq(replay_reason_name(NULL, sr_reason_missing(SR_SNAP_BIT_PREF_NODE)),
			 "missing-pref-node");
	ck_assert_str_eq(replay_reason_name(NULL, SR_REASON__COUNT), "invalid");
	ck_assert_str_eq(replay_reason_name(NULL, SR_REASON_PLUGIN_FIRST), "invalid");
	ck_assert_str_eq(replay_snap_field_name(SR_SNAP_BIT__COUNT), "invalid");
	ck_assert_str_eq(replay_snap_field_name(-1), "invalid");
	/* the known-bit masks match the bit numbers */
	ck_assert(SR_SNAP_EXEC_SEQ == 1ull << 31);
	ck_assert(SR_SNAP_PREF_NODE == 1ull << SR_SNAP_BIT_PREF_NODE);

	for (b = 0; b < SR_DECISION_CLASS__COUNT; b++)
		ck_assert_int_eq(replay_class_from_name(replay_class_name(b)), b);
	ck_assert_str_eq(replay_class_name(SR_DECISION_CLASS_LB_ACTIVE), "lb-active");
	ck_assert_str_eq(replay_class_name(SR_DECISION_CLASS__COUNT), "invalid");
	ck_assert_int_eq(replay_class_from_name("lb"), -1);
	ck_assert_str_eq(replay_verdict_name(SR_VERDICT_RESIST), "resist");
	ck_assert_str_eq(replay_verdict_name(42), "invalid");
}
END_TEST

/* ---- parameters ---- */

START_TEST(test_params)
{
	const struct sr_policy_ops *ops = replay_registry_lookup("lb-v4.1");
	struct sr_param_values vals;
	struct err err = { 0 };
	char buf[32];
	int i;

	replay_params_defaults(ops, &vals);
	ck_assert_uint_eq(vals.nr, (unsigned int)replay_param_count(ops));
	ck_assert_int_eq(replay_param_parse(ops, &vals, "nr_balance_failed=3", &err), 0);
	i = replay_param_index(ops, "nr_balance_failed");
	ck_assert_int_eq(vals.v[i], 3);
	ck_assert_int_eq(replay_param_parse(ops, &vals, "NUMA=on", &err), 0);
	ck_assert_int_eq(vals.v[replay_param_index(ops, "NUMA")], 1);
	ck_assert_int_eq(replay_param_parse(ops, &vals, "NUMA=no", &err), 0);
	ck_assert_int_eq(vals.v[replay_param_index(ops, "NUMA")], 0);
	ck_assert_int_eq(replay_param_parse(ops, &vals, "sched_migration_cost_ns=-1", &err), 0);

	ck_assert_int_eq(replay_param_parse(ops, &vals, "nr_balance_failed", &err), -SR_EUSAGE);
	ck_assert_ptr_nonnull(strstr(err.msg, "expected name=value"));
	err_clear(&err);
	ck_assert_int_eq(replay_param_parse(ops, &vals, "=3", &err), -SR_EUSAGE);
	err_clear(&err);
	ck_assert_int_eq(replay_param_parse(ops, &vals, "nr_balance_fail=3", &err), -SR_ENOTFOUND);
	ck_assert_str_eq(err.msg, "unknown parameter 'nr_balance_fail' for policy 'lb-v4.1'");
	err_clear(&err);
	ck_assert_int_eq(replay_param_parse(ops, &vals, "numa=1", &err), -SR_ENOTFOUND);
	err_clear(&err);
	ck_assert_int_eq(replay_param_parse(ops, &vals, "NUMA=maybe", &err), -SR_ERANGE);
	ck_assert_ptr_nonnull(strstr(err.msg, "'maybe' for parameter 'NUMA'"));
	err_clear(&err);
	ck_assert_int_eq(replay_param_parse(ops, &vals, "nr_balance_failed=-1", &err), -SR_ERANGE);
	ck_assert_ptr_nonnull(strstr(err.msg, "expected an integer in [0, 1000]"));
	err_clear(&err);
	ck_assert_int_eq(replay_param_parse(ops, &vals, "nr_balance_failed=3x", &err),
			 -SR_ERANGE);
	err_clear(&err);
	ck_assert_int_eq(replay_param_parse(ops, &vals, "nr_balance_failed=", &err), -SR_ERANGE);
	err_clear(&err);
	ck_assert_int_eq(replay_param_parse(ops, &vals,
					    "sched_migration_cost_ns=99999999999999999999999", &err),
			 -SR_ERANGE);
	err_clear(&err);
	ck_assert_int_eq(replay_param_parse(ops, &vals, "sched_migration_cost_ns=-2", &err),
			 -SR_ERANGE);
	err_clear(&err);
	/* a failed parse leaves the value alone */
	ck_assert_int_eq(vals.v[i], 3);

	ck_assert_str_eq(replay_param_format(&ops->params[replay_param_index(ops, "NUMA")], 1,
					     buf, sizeof(buf)), "true");
	ck_assert_str_eq(replay_param_format(&ops->params[0], 500000, buf, sizeof(buf)),
			 "500000");
	ck_assert_int_eq(replay_param_index(ops, "NUMA_"), -1);
}
END_TEST

START_TEST(test_instance)
{
	const struct sr_policy_ops *ops = replay_registry_lookup("lb-v4.1");
	struct replay_policy *pol = replay_policy_new(ops);
	struct sr_snapshot snap;
	struct sr_verdict out;
	struct err err = { 0 };

	ck_assert_ptr_nonnull(pol);
	base_snapshot(&snap);
	hot(&snap);
	ck_assert_int_eq(replay_policy_evaluate(pol, &snap, &out, &err), -EINVAL);
	err_clear(&err);
	ck_assert_int_eq(replay_policy_set_param(pol, "nr_balance_failed=3", &err), 0);
	ck_assert_int_eq(replay_policy_start(pol, &err), 0);
	ck_assert_int_eq(replay_policy_set_param(pol, "nr_balance_failed=0", &err), -EBUSY);
	err_clear(&err);
	ck_assert_int_eq(replay_policy_evaluate(pol, &snap, &out, &err), 0);
	ck_assert_int_eq(out.verdict, SR_VERDICT_ALLOW);
	ck_assert_uint_eq(out.reasons[0], SR_REASON_BALANCE_FAILED_EXCEEDED);
	ck_assert_ptr_eq(replay_policy_ops(pol), ops);
	ck_assert_int_eq(replay_policy_values(pol)->v[2], 3);
	snap.size = 8;
	ck_assert_int_eq(replay_policy_evaluate(pol, &snap, &out, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "lb-v4.1"));
	replay_policy_free(pol);
	replay_policy_free(NULL);
	ck_assert_ptr_null(replay_policy_new(NULL));
}
END_TEST

static Suite *policies_suite(void)
{
	Suite *s = suite_create("policies");
	TCase *tc = tcase_create("table");

	tcase_add_loop_test(tc, test_policy_table, 0, NR_CASES);
	tcase_add_test(tc, test_seed_pairs_disagree);
	tcase_add_test(tc, test_table_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("robustness");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_random_snapshots);
	tcase_add_test(tc, test_nothing_known);
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);

	tc = tcase_create("registry");
	tcase_add_test(tc, test_registry);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_params);
	tcase_add_test(tc, test_instance);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(policies_suite)
