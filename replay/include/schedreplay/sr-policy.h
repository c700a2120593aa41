/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sr-policy.h - the policy plugin ABI: the ops table, verdicts, reason
 * codes and parameters.
 *
 * A policy is a pure function of (snapshot, parameters) -> verdict plus a
 * chain of reason codes.  Built-in policies (replay/policy-*.c) and plugins
 * (a shared object exporting SR_POLICY_ENTRY) use exactly this interface;
 * docs/plugin-abi.md explains it with a complete example.
 *
 * Ownership: every pointer passed to a hook is borrowed for that call only
 * (the snapshot, the verdict, the parameter values).  Hooks return 0 or a
 * negative errno; a negative return stops the replay and is reported.
 *
 * Plain C11; includes only sr-version.h, sr-snapshot.h and <stdint.h>.
 */
#ifndef SCHEDREPLAY_SR_POLICY_H
#define SCHEDREPLAY_SR_POLICY_H

#include <stdint.h>

#include "sr-snapshot.h"
#include "sr-version.h"

/**
 * enum sr_verdict_kind - what a policy says about one decision
 * @SR_VERDICT_NOT_APPLICABLE: the policy does not decide this decision
 *                             (another class, or no move to judge)
 * @SR_VERDICT_ALLOW:          the policy would have made this move
 * @SR_VERDICT_RESIST:         the policy would have refused it (or, for a
 *                             placement policy, put the task elsewhere:
 *                             see sr_verdict.target_node)
 * @SR_VERDICT_UNKNOWN:        the snapshot lacks an input the answer
 *                             depends on; the first reason is the
 *                             SR_REASON_MISSING_* code naming it
 */
enum sr_verdict_kind {
	SR_VERDICT_NOT_APPLICABLE = 0,
	SR_VERDICT_ALLOW = 1,
	SR_VERDICT_RESIST = 2,
	SR_VERDICT_UNKNOWN = 3,
};

/*
 * Reason codes: X(ID, "short-name", "one line in words").  The first reason
 * of a verdict is the one that decided it; the ones after it say which
 * branch led there (e.g. task-cold, numa-feature-off).
 */
#define SR_REASONS(X)								\
	X(NONE,			"none",			"no reason recorded")	\
	X(CLASS_NOT_HANDLED,	"class-not-handled",	"the policy does not decide this class of decision") \
	X(TASK_RUNNING,		"task-running",		"the task was running on the source CPU, which can_migrate_task() refuses") \
	X(ACTIVE_BALANCE,	"active-balance",	"active balancing moves the task without the hotness and locality tests") \
	X(BALANCE_FAILED_EXCEEDED, "balance-failed-exceeded", "nr_balance_failed > cache_nice_tries forces the move") \
	X(TASK_HOT,		"task-hot",		"task ran within sched_migration_cost") \
	X(TASK_COLD,		"task-cold",		"task last ran at least sched_migration_cost ago") \
	X(NOT_FAIR_TASK,	"not-fair-task",	"not a CFS task, which task_hot() never calls hot") \
	X(IDLE_POLICY,		"idle-policy",		"SCHED_IDLE task, which task_hot() never calls hot") \
	X(SMT_SIBLINGS,		"smt-siblings",		"src and dst are SMT siblings, which task_hot() never calls hot (v5.x+)") \
	X(BUDDY_HOT,		"buddy-hot",		"task is a cfs next/last buddy and dst is busy (CACHE_HOT_BUDDY)") \
	X(MIGRATION_COST_ALL_HOT, "migration-cost-all-hot", "sched_migration_cost is -1: every task is hot") \
	X(MIGRATION_COST_NONE_HOT, "migration-cost-none-hot", "sched_migration_cost is 0: no task is hot") \
	X(IMPROVES_LOCALITY,	"improves-locality",	"the move improves NUMA locality, so migration is preferred") \
	X(DEGRADES_LOCALITY,	"degrades-locality",	"the move degrades NUMA locality") \
	X(LOCALITY_INDIFFERENT,	"locality-indifferent",	"NUMA locality has no say, cache hotness decides") \
	X(NUMA_FEATURE_OFF,	"numa-feature-off",	"sched feature NUMA (numa_balancing) is off") \
	X(FAVOUR_HIGHER_OFF,	"favour-higher-off",	"sched feature NUMA_FAVOUR_HIGHER is off") \
	X(RESIST_LOWER_OFF,	"resist-lower-off",	"sched feature NUMA_RESIST_LOWER is off") \
	X(NO_NUMA_FAULTS,	"no-numa-faults",	"the task has no NUMA fault statistics") \
	X(SAME_NODE,		"same-node",		"src and dst are in the same node (no SD_NUMA)") \
	X(DST_PREFERRED,	"dst-preferred",	"dst is the task's preferred node") \
	X(SRC_PREFERRED,	"src-preferred",	"src is the task's preferred node") \
	X(SRC_HAS_MISPLACED,	"src-has-misplaced",	"the source runqueue has tasks off their preferred node") \
	X(SRC_ALL_PREFERRED,	"src-all-preferred",	"every task on the source runqueue is on its preferred node") \
	X(GROUP_SRC_ACTIVE,	"group-src-active",	"src is one of the NUMA group's active nodes") \
	X(GROUP_DST_ACTIVE,	"group-dst-active",	"dst is one of the NUMA group's active nodes") \
	X(GROUP_ENTERS_ACTIVE,	"group-enters-active",	"the move enters the NUMA group's active nodes") \
	X(GROUP_LEAVES_ACTIVE,	"group-leaves-active",	"the move leaves the NUMA group's active nodes") \
	X(DST_MORE_FAULTS,	"dst-more-faults",	"dst has more memory faults (task or group) than src") \
	X(DST_FEWER_FAULTS,	"dst-fewer-faults",	"dst has fewer memory faults (task or group) than src") \
	X(EQUAL_FAULTS,		"equal-faults",		"dst and src have as many memory faults") \
	X(DST_HIGHER_WEIGHT,	"dst-higher-weight",	"dst has a higher task/group weight (faults with nearby nodes) than src") \
	X(DST_LOWER_WEIGHT,	"dst-lower-weight",	"dst has a lower task/group weight than src") \
	X(EQUAL_WEIGHT,		"equal-weight",		"dst and src have the same task/group weight") \
	X(IDLE_OVERRIDE,	"idle-override",	"the balancing CPU is CPU_IDLE, so locality gives way (v4.13+)") \
	X(NUMA_CONCURRENT_ALLOWED, "numa-concurrent-allowed", "NUMA moves to a CPU another move targets are allowed (before v4.19)") \
	X(DST_NUMA_CLAIMED,	"dst-numa-claimed",	"the target CPU's numa_migrate_on is claimed by a NUMA move in flight") \
	X(DST_NUMA_FREE,	"dst-numa-free",	"no NUMA move in flight targets the CPU") \
	X(NO_CANDIDATE,		"no-candidate",		"the NUMA balancer found no CPU to move to") \
	X(EXEC_LEAST_LOADED,	"exec-least-loaded",	"dst is the least loaded node per CPU (sched_best_node())") \
	X(EXEC_LESS_LOADED_ELSEWHERE, "exec-less-loaded-elsewhere", "another node had fewer runnable tasks per CPU than dst") \
	X(EXEC_ROUND_ROBIN,	"exec-round-robin",	"dst is the round-robin node for this exec") \
	X(EXEC_ROUND_ROBIN_ELSEWHERE, "exec-round-robin-elsewhere", "round robin picks another node for this exec") \
	X(EXEC_NO_NODE,		"exec-no-node",		"no node has CPUs to place the task on") \
	X(MOVED_COLD,		"moved-cold",		"the task was moved or forked and has not run since: se.exec_start is 0, so task_hot() calls it cold") \
	X(EXEC_IDLEST,		"exec-idlest",		"dst is where find_idlest_cpu() goes within the domains that balance exec") \
	X(EXEC_IDLER_ELSEWHERE,	"exec-idler-elsewhere",	"find_idlest_cpu() would pick another group or CPU than dst") \
	X(EXEC_OUTSIDE_DOMAIN,	"exec-outside-domain",	"dst is outside every domain with SD_BALANCE_EXEC (nodes beyond node_reclaim_distance)") \
	X(EXEC_PELT_ESTIMATE,	"exec-pelt-estimate",	"a group type or load comparison on the way rests on estimates of PELT averages (util_est and load_avg are not traced)") \
	X(DST_NOT_ALLOWED,	"dst-not-allowed",	"the task may not run on dst: a kernel thread bound to its CPU or node, which can_migrate_task() refuses first") \
	X(PULLS_EARLIER,	"pulls-earlier",	"the policy pulls a candidate detach_tasks() reaches before the task the kernel pulled") \
	X(PULLS_LATER,		"pulls-later",		"the policy refuses the task the kernel pulled (or an earlier pull) and pulls one further down the runqueue") \
	X(ALL_REFUSED,		"all-refused",		"the policy allows fewer candidates than the kernel pulled in the pass: it pulls nothing here") \
	X(WAKE_WIDE,		"wake-wide",		"wake_wide(): the waker and wakee flip between many partners, so no affine wake-up") \
	X(WAKE_NO_AFFINE_DOMAIN, "wake-no-affine-domain", "no SD_WAKE_AFFINE domain spans the waker's CPU and prev (nodes beyond node_reclaim_distance)") \
	X(WAKE_SAME_CPU,	"wake-same-cpu",	"the waker runs on prev, so wake_affine() is not asked") \
	X(WA_IDLE_WAKER,	"wa-idle-waker",	"wake_affine_idle(): the waker's CPU is idle (an interrupt), so the wakee comes to it") \
	X(WA_IDLE_PREV,		"wa-idle-prev",		"wake_affine_idle(): prev is idle, so the wakee stays near it") \
	X(WA_SYNC,		"wa-sync",		"wake_affine_idle(): a sync wake-up from a CPU running only the waker") \
	X(WA_WEIGHT_AFFINE,	"wa-weight-affine",	"wake_affine_weight(): the waker's side is lighter, so the wakee comes to it") \
	X(WA_WEIGHT_PREV,	"wa-weight-prev",	"wake_affine_weight(): prev's side is not heavier, so the wakee stays near prev") \
	X(WA_LOAD_ESTIMATE,	"wa-load-estimate",	"the wake_affine_weight() test used the estimated runnable loads (loads are not traced; the wakee's own load taken as 0)") \
	X(SIS_TARGET_IDLE,	"sis-target-idle",	"select_idle_sibling(): the target CPU is idle") \
	X(SIS_PREV_IDLE,	"sis-prev-idle",	"select_idle_sibling(): prev shares the cache with the target and is idle") \
	X(SIS_KTHREAD_STACK,	"sis-kthread-stack",	"select_idle_sibling(): a per-CPU kernel thread woke the task on prev, which runs nothing else") \
	X(SIS_RECENT_USED,	"sis-recent-used",	"select_idle_sibling(): the wakee's recent_used_cpu shares the cache and is idle") \
	X(SIS_SCAN_IDLE,	"sis-scan-idle",	"select_idle_cpu(): the scan of the target's LLC found an idle CPU within its budget") \
	X(SIS_SCAN_NONE,	"sis-scan-none",	"select_idle_cpu(): no idle CPU within the scan budget, so the target") \
	X(SIS_UTIL_ESTIMATE,	"sis-util-estimate",	"the SIS_UTIL scan budget came from the estimated LLC utilisation (util_avg is not traced)") \
	X(SIS_PROP_MIN_BUDGET,	"sis-prop-min-budget",	"SIS_PROP: the idle CPU lies within the budget every avg_idle allows (at least 4 - 1 CPUs)") \
	X(PLACE_IDLEST_CPU,	"place-idlest-cpu",	"find_idlest_group_cpu(): the idle CPU of the group that went idle last, else the least loaded") \
	X(PLACE_LOAD_ESTIMATE,	"place-load-estimate",	"the CPU inside the group was the least loaded by the estimated runnable loads") \
	X(PLACE_SAME_CPU,	"place-same-cpu",	"the policy picks the CPU the kernel picked") \
	X(PLACE_OTHER_CPU,	"place-other-cpu",	"the policy picks another CPU than the kernel did") \
	X(WAKER_CPU_ANY,	"waker-cpu-any",	"the waker's CPU is not known (the wake-up was logged on its target), and every CPU it could have been gives this answer") \
	X(WAKE_SYNC_ASSUMED_OFF, "wake-sync-assumed-off", "WF_SYNC is not traced (only a select_task_rq_fair probe shows it) and was taken as off where it mattered") \
	X(NODE_GROUP_TYPE_STAY,	"node-group-type-stay",	"find_idlest_group(): the parent's node is of a less busy group type than any other node: the child stays on it") \
	X(NODE_GROUP_TYPE_GO,	"node-group-type-go",	"find_idlest_group(): another node is of a less busy group type (it has spare capacity, the parent's not): the child goes there") \
	X(NODE_AVG_LOAD,	"node-avg-load",	"find_idlest_group(): both nodes fully busy, their avg_load with imbalance_pct decided") \
	X(NODE_PREFERRED,	"node-preferred",	"find_idlest_group() with NUMA balancing: the task's preferred node decided") \
	X(NODE_SPILL_IDLE,	"node-spill-idle",	"5.5-5.10 find_idlest_group(): the parent's node still has an idle CPU, so the child stays") \
	X(NODE_SPILL_QUARTER,	"node-spill-quarter",	"5.11 allow_numa_imbalance(): the parent's node runs fewer tasks than a quarter of the domain's CPUs, so the child stays") \
	X(NODE_SPILL_IMB_NUMA,	"node-spill-imb-numa",	"6.0 adjust_numa_imbalance(): idle counts within 2 and the parent's node below imb_numa_nr tasks, so the child stays") \
	X(NODE_MORE_IDLE,	"node-more-idle",	"find_idlest_group(): past the NUMA imbalance allowance, the node with more idle CPUs takes the child") \
	X(NODE_IDLE_STAY,	"node-idle-stay",	"find_idlest_group(): past the NUMA imbalance allowance, the parent's node has as many idle CPUs as any: the child stays") \
	X(PLACE_ONE_CPU,	"place-one-cpu",	"the task may run on one CPU only (nr_cpus_allowed 1): select_task_rq() takes it without asking the class") \
	X(WAKE_WIDE_EITHER,	"wake-wide-either",	"wake_wide()'s flip counts are not known yet (the trace's first second), and both of its answers give this CPU") \
	X(WAKER_CPU_WAKELIST,	"waker-cpu-wakelist", "the waker's CPU is not known: the wake-up was logged on its target, whose runqueue was not empty, so (6.0+ ttwu_queue_cond()) the waker ran there or on a CPU not sharing its cache; each of those gives this answer") \
	X(WAKER_CPU_INFERRED,	"waker-cpu-inferred", "the waker's CPU is not known (the wake-up was logged on its target); of the CPUs it could have been, those from which the recording kernel's model places the task where the trace shows each give this answer (an estimate: the others are ruled out by that model)")

#define SR_REASON_ENUM_(id, name, desc)	SR_REASON_##id,
/**
 * enum sr_reason - reason codes of the chain in struct sr_verdict
 *
 * Values below SR_REASON__COUNT come from SR_REASONS.  From
 * SR_REASON_MISSING_FIRST on, SR_REASON_MISSING_FIRST + SR_SNAP_BIT_x means
 * "input x was unknown" (see sr_reason_missing()).  From
 * SR_REASON_PLUGIN_FIRST on, codes belong to the plugin that returned them
 * and are named by its sr_policy_ops.reasons table.
 */
enum sr_reason {
	SR_REASONS(SR_REASON_ENUM_)
	SR_REASON__COUNT,
	SR_REASON_MISSING_FIRST = 0x1000,
	SR_REASON_PLUGIN_FIRST = 0x4000,
	SR_REASON_PLUGIN_LAST = 0x7fff,
};
#undef SR_REASON_ENUM_

/**
 * sr_reason_missing() - the reason code for an unknown snapshot field
 * @bit: the field's SR_SNAP_BIT_* number
 *
 * Context: pure, any thread.
 * Return: SR_REASON_MISSING_FIRST + @bit.
 */
static inline unsigned int sr_reason_missing(enum sr_snap_bit bit)
{
	return SR_REASON_MISSING_FIRST + (unsigned int)bit;
}

/* Reasons a verdict carries at most. */
#define SR_MAX_REASONS	8

/* Bits of sr_verdict.flags. */
/* The verdict flips if nr_balance_failed is taken the other side of cache_nice_tries. */
#define SR_VF_FAILED_DEPENDENT	(1u << 0)
/* Allowed although hot or degrading: the kernel counts it in lb_hot_gained / nr_forced_migrations. */
#define SR_VF_FORCED		(1u << 1)
/* The buddy status was unknown and taken as "not a buddy" where it could matter. */
#define SR_VF_ASSUMED_NOT_BUDDY	(1u << 2)
/* The domain level was unknown and a same-node pair taken as "not SMT siblings". */
#define SR_VF_ASSUMED_NOT_SMT	(1u << 3)

/**
 * struct sr_verdict - one policy's answer for one decision
 * @size:        sizeof(struct sr_verdict) as the engine built it
 * @verdict:     enum sr_verdict_kind
 * @flags:       SR_VF_* bits
 * @nr_reasons:  entries used in @reasons
 * @reasons:     enum sr_reason codes, decisive one first
 * @target_node: for a placement policy, the node it would have chosen; -1
 *               otherwise
 * @target_cpu:  the CPU it would have chosen, -1 when it does not say
 * @missing:     SR_SNAP_* bits of the inputs the policy needed and lacked
 *               (non-zero only with SR_VERDICT_UNKNOWN)
 * @target_tid:  (ABI 2) for a load-balance choice (sr_policy_ops.choose),
 *               the task the policy pulls: a tid > 0, SR_CHOICE_NONE when
 *               it pulls nothing, SR_CHOICE_UNSAID (-1) when it does not say
 *
 * Before each evaluate() or choose() the engine zeroes the struct and sets
 * @size, @verdict = SR_VERDICT_NOT_APPLICABLE and @target_node =
 * @target_cpu = @target_tid = -1.
 */
struct sr_verdict {
	uint32_t	size;
	int32_t		verdict;
	uint32_t	flags;
	uint32_t	nr_reasons;
	uint16_t	reasons[SR_MAX_REASONS];
	int32_t		target_node;
	int32_t		target_cpu;
	uint64_t	missing;
	int32_t		target_tid;
	uint32_t	reserved;
};

/* sr_verdict.target_tid: the policy pulls nothing / does not say */
#define SR_CHOICE_NONE		0
#define SR_CHOICE_UNSAID	(-1)

/**
 * sr_verdict_push() - append a reason code to a verdict's chain
 * @out:    the verdict
 * @reason: an enum sr_reason code
 *
 * Reasons past SR_MAX_REASONS are dropped.
 * Context: pure, allocates nothing.
 */
static inline void sr_verdict_push(struct sr_verdict *out, unsigned int reason)
{
	if (out->nr_reasons < SR_MAX_REASONS)
		out->reasons[out->nr_reasons++] = (uint16_t)reason;
}

/**
 * enum sr_param_type - how a parameter's value is written and stored
 * @SR_PARAM_BOOL: 0/1; written 0, 1, true, false, on, off, yes, no
 * @SR_PARAM_INT:  a decimal int64 within [min, max]
 */
enum sr_param_type {
	SR_PARAM_BOOL = 1,
	SR_PARAM_INT = 2,
};

/**
 * struct sr_param_desc - one parameter a policy takes
 * @name:        exact name used in --param name=value (no '=' or ',')
 * @type:        enum sr_param_type
 * @def:         default value
 * @min:         smallest value accepted (SR_PARAM_INT)
 * @max:         largest value accepted (SR_PARAM_INT)
 * @description: one line in words, with the unit
 *
 * A policy's table ends with an entry whose @name is NULL.
 */
struct sr_param_desc {
	const char	*name;
	uint32_t	type;
	uint32_t	reserved;
	int64_t		def;
	int64_t		min;
	int64_t		max;
	const char	*description;
};

/* Parameters a policy may declare at most. */
#define SR_MAX_PARAMS	32

/**
 * struct sr_param_values - parameter values, in the order of the policy's
 * sr_param_desc table
 * @nr: entries used
 * @v:  values; v[i] belongs to params[i]
 */
struct sr_param_values {
	uint32_t	nr;
	uint32_t	reserved;
	int64_t		v[SR_MAX_PARAMS];
};

/**
 * struct sr_reason_desc - a reason code a plugin defines
 * @code:        SR_REASON_PLUGIN_FIRST..SR_REASON_PLUGIN_LAST
 * @name:        short name, lowercase with hyphens
 * @description: one line in words
 *
 * A table ends with an entry whose @name is NULL.
 */
struct sr_reason_desc {
	uint32_t	code;
	const char	*name;
	const char	*description;
};

/* Candidates a decision point lists at most: sched_nr_migrate's default,
 * the most tasks one detach_tasks() pass looks at (env.loop_max). */
#define SR_MAX_CANDIDATES	32

/* Bits of sr_decision_point.flags */
/* The candidates and their order are the kernel's own (can_migrate_task probes). */
#define SR_DP_PROBE_ORDER	(1u << 0)
/* The candidates and their order are rebuilt from the model's runqueue. */
#define SR_DP_RECONSTRUCTED	(1u << 1)
/* The task the kernel pulled was not on the model's runqueue: appended last. */
#define SR_DP_PULLED_ADDED	(1u << 2)
/* The runqueue had more tasks than SR_MAX_CANDIDATES: the walk stops there, as the kernel's does. */
#define SR_DP_TRUNCATED		(1u << 3)

/**
 * struct sr_decision_point - a load-balance decision as a choice (ABI 2)
 * @size:      sizeof(struct sr_decision_point) as the engine built it
 * @flags:     SR_DP_* bits
 * @snap:      the kernel's own move (the task it pulled), what evaluate()
 *             gets
 * @nr_cand:   entries in @cand
 * @nr_pull:   how many tasks this decision pulls: the kernel's pull it
 *             stands for is the @nr_pull-th of its balance pass, so a
 *             policy chooses the @nr_pull-th candidate it allows
 * @cand:      one snapshot per candidate, in the order detach_tasks()
 *             walks them (tail of cfs_tasks first); the same balancing
 *             environment (CPUs, idle type, nr_balance_failed) as @snap,
 *             each with its own task's fields
 *
 * Borrowed for the choose() call only.
 */
struct sr_decision_point {
	uint32_t			size;
	uint32_t			flags;
	const struct sr_snapshot	*snap;
	uint32_t			nr_cand;
	uint32_t			nr_pull;
	const struct sr_snapshot	*cand;
};

/**
 * struct sr_policy_ops - one policy
 * @abi_version: SR_POLICY_ABI_VERSION the policy was built against
 * @size:        sizeof(struct sr_policy_ops) as the policy saw it
 * @name:        unique name, lowercase with hyphens and dots ("lb-v4.1")
 * @provenance:  the kernel version and commit it models, or the patch
 * @description: one line in words
 * @classes:     mask of SR_CLASS_BIT(SR_DECISION_CLASS_*) it decides
 * @params:      NULL-name terminated table, or NULL for none
 * @init:        optional.  Builds the policy's private state from the
 *               parameter values (borrowed for the call) into *@priv.  May
 *               allocate.  When NULL, priv is the engine's struct
 *               sr_param_values itself, valid until fini.
 * @fini:        optional.  Frees what init built.
 * @evaluate:    required.  Pure: reads @priv and @snap, writes @out (which
 *               the engine initialised, see struct sr_verdict); no
 *               allocation, no I/O, no globals.  Returns 0, or a negative
 *               errno for a programming error (which stops the replay).
 *               An unknown input is a verdict, not an error.
 * @reasons:     optional table of the plugin's own reason codes
 * @choose:      (ABI 2) optional.  For a load-balance decision point: the
 *               task this policy pulls, in @out->target_tid, with the
 *               reasons that decided it and @out->verdict ALLOW when it
 *               pulls one, RESIST when it pulls none, UNKNOWN when a
 *               missing input decides.  Pure, as @evaluate.  When NULL
 *               (and for every ABI 1 plugin) the engine chooses for it:
 *               it walks @dp->cand in order with @evaluate and takes the
 *               @dp->nr_pull-th candidate allowed (docs/plugin-abi.md).
 *
 * The loader refuses an ABI major version outside
 * SR_POLICY_ABI_MAJOR_OLDEST..SR_POLICY_ABI_MAJOR and an @size that does
 * not reach @evaluate; @reasons and @choose are read only when @size
 * covers them.
 */
struct sr_policy_ops {
	uint32_t			abi_version;
	uint32_t			size;
	const char			*name;
	const char			*provenance;
	const char			*description;
	unsigned int			classes;
	const struct sr_param_desc	*params;
	int	(*init)(void **priv, const struct sr_param_values *vals);
	void	(*fini)(void *priv);
	int	(*evaluate)(const void *priv, const struct sr_snapshot *snap,
			    struct sr_verdict *out);
	const struct sr_reason_desc	*reasons;
	int	(*choose)(const void *priv, const struct sr_decision_point *dp,
			  struct sr_verdict *out);
};

/* The one symbol a plugin exports: a pointer to its ops table. */
#define SR_POLICY_ENTRY_SYMBOL	"sr_policy_entry"

/*
 * SR_POLICY_ENTRY(ops) - export @ops (a struct sr_policy_ops object) from a
 * plugin built with -fvisibility=hidden.  Use once, at file scope.
 */
#define SR_POLICY_ENTRY(ops)						\
	extern __attribute__((visibility("default")))			\
	const struct sr_policy_ops *const sr_policy_entry;		\
	__attribute__((visibility("default")))				\
	const struct sr_policy_ops *const sr_policy_entry = &(ops)

#endif
