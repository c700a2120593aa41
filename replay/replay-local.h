/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay-local.h - private to replay/: the built-in ops tables and the
 * helpers the built-in policies share.
 *
 * A built-in evaluates like the kernel function it models, in the kernel's
 * order, on a struct replay_eval scratch record kept on the stack.  Each
 * predicate answers 0 / 1 (or -1 for the tri-state locality functions) or
 * REPLAY_UNKNOWN when an input it needs is unknown; replay_need() records
 * the first such input, and the verdict is "unknown" only when the outcome
 * really depends on it.
 */
#ifndef SR_REPLAY_LOCAL_H
#define SR_REPLAY_LOCAL_H

#include <stdbool.h>
#include <stdint.h>

#include <schedreplay/sr-policy.h>

/* A predicate's answer when an input it needs is unknown. */
#define REPLAY_UNKNOWN	2

/* The kernel's LOCAL_DISTANCE. */
#define REPLAY_LOCAL_DISTANCE	10

extern const struct sr_policy_ops policy_lb_v41_ops;
extern const struct sr_policy_ops policy_lb_v41_numa_hotness_ops;
extern const struct sr_policy_ops policy_lb_v43_ops;
extern const struct sr_policy_ops policy_lb_v61_ops;
extern const struct sr_policy_ops policy_numa_v418_ops;
extern const struct sr_policy_ops policy_numa_v419_ops;
extern const struct sr_policy_ops policy_exec_least_loaded_ops;
extern const struct sr_policy_ops policy_exec_round_robin_ops;
extern const struct sr_policy_ops policy_exec_v61_ops;
extern const struct sr_policy_ops policy_wakeup_v415_ops;
extern const struct sr_policy_ops policy_wakeup_v416_ops;
extern const struct sr_policy_ops policy_wakeup_v519_ops;
extern const struct sr_policy_ops policy_wakeup_v61_ops;
extern const struct sr_policy_ops policy_fork_v510_ops;
extern const struct sr_policy_ops policy_fork_v511_ops;
extern const struct sr_policy_ops policy_fork_v61_ops;

/*
 * The fields every built-in ops table starts with: built-ins are compiled
 * against this very ABI.
 */
#define REPLAY_OPS_BUILTIN						\
	.abi_version	= SR_POLICY_ABI_VERSION,			\
	.size		= sizeof(struct sr_policy_ops)

/* The classes each family decides: its ops tables' .classes and its frame's check. */
#define REPLAY_LB_CLASSES	(SR_CLASS_BIT(SR_DECISION_CLASS_LB_PULL) |	\
				 SR_CLASS_BIT(SR_DECISION_CLASS_LB_ACTIVE))
#define REPLAY_NUMA_CLASSES	(SR_CLASS_BIT(SR_DECISION_CLASS_NUMA_MOVE) |	\
				 SR_CLASS_BIT(SR_DECISION_CLASS_NUMA_SWAP) |	\
				 SR_CLASS_BIT(SR_DECISION_CLASS_NUMA_STICK))
#define REPLAY_EXEC_CLASSES	SR_CLASS_BIT(SR_DECISION_CLASS_EXEC)

/*
 * Every load-balancer policy's parameter table starts with these four, in
 * this order (REPLAY_LB_PARAMS_COMMON), so the shared helpers find them.
 */
enum replay_lb_param {
	REPLAY_LB_P_MIGRATION_COST = 0,	/* sched_migration_cost_ns */
	REPLAY_LB_P_CACHE_NICE_TRIES,	/* cache_nice_tries, -1 = by domain level */
	REPLAY_LB_P_NR_BALANCE_FAILED,	/* nr_balance_failed assumed */
	REPLAY_LB_P_CACHE_HOT_BUDDY,	/* sched feature CACHE_HOT_BUDDY */
	REPLAY_LB_P__COMMON
};

#define REPLAY_LB_PARAMS_COMMON							\
	{ .name = "sched_migration_cost_ns", .type = SR_PARAM_INT,		\
	  .def = 500000, .min = -1, .max = INT64_C(1000000000000),		\
	  .description = "sysctl_sched_migration_cost in ns: a task that ran "	\
		"more recently is cache hot (-1: all hot, 0: none hot)" },	\
	{ .name = "cache_nice_tries", .type = SR_PARAM_INT,			\
	  .def = -1, .min = -1, .max = 1000,					\
	  .description = "sd->cache_nice_tries; -1 takes the kernel's value "	\
		"for the domain level: 2 at SD_NUMA, 1 at MC/PKG, 0 at SMT" },	\
	{ .name = "nr_balance_failed", .type = SR_PARAM_INT,			\
	  .def = 0, .min = 0, .max = 1000,					\
	  .description = "sd->nr_balance_failed assumed for every decision "	\
		"(never traced); above cache_nice_tries a hot task moves" },	\
	{ .name = "CACHE_HOT_BUDDY", .type = SR_PARAM_BOOL,			\
	  .def = 1, .min = 0, .max = 1,						\
	  .description = "sched feature: a cfs buddy is hot when dst is busy" }

/*
 * Every NUMA-balancer policy's parameter table starts with this one
 * (REPLAY_NUMA_PARAMS_COMMON), which replay_numa_evaluate() reads.
 */
enum replay_numa_param {
	REPLAY_NUMA_P_BALANCING = 0,	/* kernel.numa_balancing */
	REPLAY_NUMA_P__COMMON
};

#define REPLAY_NUMA_PARAMS_COMMON						\
	{ .name = "numa_balancing", .type = SR_PARAM_BOOL,			\
	  .def = 1, .min = 0, .max = 1,						\
	  .description = "kernel.numa_balancing: 0 means the balancer moves nothing" }

/**
 * struct replay_pred - a predicate's answer and why
 * @val:  0, 1, -1 (tri-state locality), or REPLAY_UNKNOWN
 * @why:  reason code of the branch taken, 0 when none
 * @why2: a second reason code for branches that need two, 0 when none
 */
struct replay_pred {
	int		val;
	unsigned int	why;
	unsigned int	why2;
};

/**
 * struct replay_eval - scratch record of one evaluation
 * @snap:           the snapshot
 * @param:          parameter values, indexed like the policy's table
 * @missing_reason: SR_REASON_MISSING_* of the first unknown input needed
 * @missing:        SR_SNAP_* bits of every unknown input needed
 * @flags:          SR_VF_* assumption bits collected on the way
 */
struct replay_eval {
	const struct sr_snapshot	*snap;
	const int64_t			*param;
	unsigned int			missing_reason;
	uint64_t			missing;
	uint32_t			flags;
	uint32_t			mode;	/* REPLAY_MODE_* of the placement policies */
	unsigned int			node_why; /* find_idlest_group()'s deciding branch, 0 none */
};

/* struct replay_eval.mode: how find_idlest_group() runs (policy-exec-v6.1.c) */
#define REPLAY_MODE_FORK		(1u << 0)	/* the task is a new child, on no runqueue */
#define REPLAY_MODE_SPILL_IDLE		(1u << 1)	/* 5.5-5.10 NUMA spare-capacity rule */
#define REPLAY_MODE_SPILL_QUARTER	(1u << 2)	/* 5.11 allow_numa_imbalance() */

/* replay_idlest_node() when it cannot say */
#define REPLAY_NODE_UNKNOWN	(-2)
#define REPLAY_NODE_NONE	(-3)

/* exec-v6.1's parameters, shared by the fork policies (same order) */
extern const struct sr_param_desc replay_idlest_params[];
#define REPLAY_IDLEST_NR_PARAMS	4

/**
 * replay_idlest_node() - select_task_rq_fair()'s slow path at the NUMA
 * levels: the node find_idlest_cpu() goes to (exec-v6.1's rules, with
 * @ev->mode)
 * @est: set when a PELT estimate was on the way
 * Return: the node, REPLAY_NODE_UNKNOWN (@ev records the missing input) or
 * REPLAY_NODE_NONE (no node to place on).
 */
int replay_idlest_node(struct replay_eval *ev, bool *est);

/**
 * replay_place_cpu() - the CPU find_idlest_cpu() ends on inside @node,
 * from @from (the task's CPU: the parent's for a fork)
 * @est: set when estimated loads or utilisations decided; may be NULL
 * Return: the CPU, or -1 when the snapshot cannot say (a CPU of the node
 * not seen, no per-CPU state).
 */
int replay_place_cpu(struct replay_eval *ev, int node, int from, bool *est);

/**
 * replay_place_one_cpu() - a task the trace shows bound to one CPU goes
 * there: select_task_rq() takes cpumask_any(p->cpus_ptr) without asking
 * the class when nr_cpus_allowed is 1 (wake-up, fork); sched_exec() asks
 * the class, whose find_idlest_cpu() looks only at allowed CPUs
 * @ev:  the evaluation
 * @out: the verdict: place-one-cpu, then place-same-cpu / place-other-cpu
 *       against the kernel's @ev->snap->dst_cpu
 *
 * Return: true when it answered (ALLOWED_CPU known and one CPU); false,
 * without recording anything, otherwise.
 */
bool replay_place_one_cpu(const struct replay_eval *ev, struct sr_verdict *out);

/**
 * replay_need() - is a snapshot field known?  Records it when not.
 * @ev:  the evaluation
 * @bit: the field's SR_SNAP_BIT_*
 *
 * Return: true when known.
 */
bool replay_need(struct replay_eval *ev, enum sr_snap_bit bit);

/**
 * replay_pred_make() - build a struct replay_pred
 * @val:  the answer
 * @why:  reason of the branch
 * @why2: second reason or 0
 *
 * Return: the predicate value.
 */
struct replay_pred replay_pred_make(int val, unsigned int why, unsigned int why2);

/**
 * replay_numa_gates() - the "p->numa_faults && sd has SD_NUMA && src node
 * != dst node" gates of every locality function
 * @ev: the evaluation
 *
 * Known-closed gates win over unknown ones, in kernel order.
 *
 * Return: val 1 when all gates are open; 0 with why NO_NUMA_FAULTS or
 * SAME_NODE when one is closed; REPLAY_UNKNOWN.
 */
struct replay_pred replay_numa_gates(struct replay_eval *ev);

/**
 * replay_node_in() - whether @node is set in a 64-bit node mask
 * @mask: node mask
 * @node: node id
 *
 * Return: false for nodes outside 0..SR_MAX_NODES-1.
 */
bool replay_node_in(uint64_t mask, int node);

/**
 * replay_compare_faults() - compare dst and src entries of a fault array
 * @faults: per-node faults
 * @src:    src node
 * @dst:    dst node
 *
 * Return: why DST_MORE_FAULTS / DST_FEWER_FAULTS / EQUAL_FAULTS; val is
 * 1 when dst > src, -1 when dst < src, 0 when equal.
 */
struct replay_pred replay_compare_faults(const uint64_t *faults, int src, int dst);

/**
 * replay_verdict_set() - write a verdict with its reason chain
 * @out:     the verdict
 * @ev:      the evaluation (its assumption flags are copied)
 * @verdict: enum sr_verdict_kind
 * @r1:      decisive reason
 * @r2:      supporting reason or 0
 * @r3:      supporting reason or 0
 */
void replay_verdict_set(struct sr_verdict *out, const struct replay_eval *ev, int verdict,
			unsigned int r1, unsigned int r2, unsigned int r3);

/**
 * replay_verdict_unknown() - verdict "unknown", naming the missing input
 * @out: the verdict
 * @ev:  the evaluation that recorded the missing input
 */
void replay_verdict_unknown(struct sr_verdict *out, const struct replay_eval *ev);

/**
 * replay_tristate_gates() - the gates seed 002's tri-state
 * migrate_degrades_locality() opens with, posted and as landed in v4.3:
 * replay_numa_gates(), then sched_feat(NUMA)
 * @ev:           the evaluation
 * @feature_numa: the policy's NUMA feature parameter
 * @pred:         set when the gates decide
 *
 * A closed gate answers -1 (its reason); the feature off answers -1
 * (NUMA_FEATURE_OFF) and forgets what the gates found unknown; an unknown
 * gate answers REPLAY_UNKNOWN.
 *
 * Return: true when @pred is set, false when every gate is open.
 */
bool replay_tristate_gates(struct replay_eval *ev, bool feature_numa, struct replay_pred *pred);

/**
 * replay_tristate_pref_node() - the preferred-node tests of the tri-state
 * migrate_degrades_locality() (v4.3 on; the posting's for tasks outside a
 * NUMA group)
 * @ev:   the evaluation
 * @pred: set when the tests decide
 *
 * Leaving the preferred node: 1 (SRC_PREFERRED + SRC_HAS_MISPLACED), or -1
 * when every task on the source runqueue is on its preferred node
 * (SRC_ALL_PREFERRED); reaching it: 0 (DST_PREFERRED); an input needed
 * unknown: REPLAY_UNKNOWN.
 *
 * Return: true when @pred is set, false when the move neither leaves nor
 * reaches the preferred node.
 */
bool replay_tristate_pref_node(struct replay_eval *ev, struct replay_pred *pred);

/**
 * replay_faults_of() - the fault array the locality functions compare:
 * group_faults() for a NUMA group member, task_faults() otherwise
 * @ev: the evaluation; the task's NUMA group must be known
 *
 * Return: borrowed from the snapshot, or NULL when that array is unknown
 * (recorded with replay_need()).
 */
const uint64_t *replay_faults_of(struct replay_eval *ev);

/**
 * replay_task_hot_class() - the first tests of every task_hot() version:
 * not a fair task, or SCHED_IDLE, is never hot
 * @ev:   the evaluation
 * @pred: set when the tests decide (0 with NOT_FAIR_TASK or IDLE_POLICY,
 *        or REPLAY_UNKNOWN)
 *
 * Return: true when @pred is set, false when task_hot() goes on.
 */
bool replay_task_hot_class(struct replay_eval *ev, struct replay_pred *pred);

/**
 * replay_task_hot_recent() - the last tests of every task_hot() version:
 * the cache-hot buddy (CACHE_HOT_BUDDY), then sched_migration_cost_ns
 * against the time since the task last ran
 * @ev: the evaluation; uses the REPLAY_LB_P_* parameters
 *
 * Return: val 1 hot / 0 cold / REPLAY_UNKNOWN, why the branch taken.
 */
struct replay_pred replay_task_hot_recent(struct replay_eval *ev);

/**
 * replay_task_hot_v41() - task_hot() of v4.1, unchanged through v4.18
 * @ev: the evaluation; uses the REPLAY_LB_P_* parameters
 *
 * Defined in policy-lb-v4.1.c; lb-v4.1-numa-hotness and lb-v4.3 use it too.
 *
 * Return: val 1 hot / 0 cold / REPLAY_UNKNOWN, why the branch taken.
 */
struct replay_pred replay_task_hot_v41(struct replay_eval *ev);

/* A task_hot() version. */
typedef struct replay_pred (*replay_hot_fn)(struct replay_eval *ev);

/**
 * replay_lb_tristate_tail() - can_migrate_task() after the seed 002 patch
 * (posted and landed alike, and unchanged through v6.13), from the
 * tri-state migrate_degrades_locality() result on:
 *   r = degrades; if (r == -1) r = task_hot();
 *   if (r <= 0 || nr_balance_failed > cache_nice_tries) YES (forced if r == 1)
 *   else NO
 * @ev:       the evaluation
 * @exceeded: nr_balance_failed > cache_nice_tries: 0, 1 or REPLAY_UNKNOWN
 * @active:   the move is active balancing (names the reason)
 * @deg:      migrate_degrades_locality()'s answer: -1, 0, 1 or unknown
 * @hot_fn:   the version's task_hot()
 * @out:      the verdict
 */
void replay_lb_tristate_tail(struct replay_eval *ev, int exceeded, bool active,
			     struct replay_pred deg, replay_hot_fn hot_fn,
			     struct sr_verdict *out);

/*
 * The version-specific body of can_migrate_task() after the running check
 * (the task is known not to be running): fills @out given whether
 * nr_balance_failed exceeds cache_nice_tries (0, 1 or REPLAY_UNKNOWN).
 */
typedef void (*replay_lb_body_fn)(struct replay_eval *ev, int exceeded, struct sr_verdict *out);

/**
 * replay_lb_evaluate() - the load-balancer policies' common evaluate()
 * @priv: the policy's struct sr_param_values (the default priv)
 * @snap: the snapshot
 * @out:  the verdict
 * @body: the version's can_migrate_task() body
 *
 * Answers not-applicable outside lb-pull / lb-active, works out
 * cache_nice_tries, resists a running task (unknown when that is unknown:
 * every version's can_migrate_task() tests it before hotness), runs @body
 * under the nr_balance_failed assumption, runs it again under the opposite
 * one and sets SR_VF_FAILED_DEPENDENT when the verdicts differ.
 *
 * Context: pure; allocates nothing.
 * Return: 0, or -EINVAL for NULL arguments or a snapshot too small.
 */
int replay_lb_evaluate(const void *priv, const struct sr_snapshot *snap,
		       struct sr_verdict *out, replay_lb_body_fn body);

/**
 * replay_eval_begin() - the start of every built-in evaluate()
 * @ev:        the evaluation, set up here (snapshot, parameters)
 * @priv:      the policy's struct sr_param_values (the default priv)
 * @snap:      the snapshot
 * @out:       the verdict, set when the class is not the policy's
 * @nr_params: parameters the policy reads (fewer is -EINVAL)
 * @classes:   mask of SR_CLASS_BIT() the policy decides (its ops .classes)
 *
 * Context: pure, called first in evaluate().
 * Return: 0 when the policy goes on; 1 when @out is decided (not
 * applicable: the class is unknown or not one of @classes); -EINVAL for
 * NULL pointers, a snapshot smaller than struct sr_snapshot or too few
 * parameter values.
 */
int replay_eval_begin(struct replay_eval *ev, const void *priv, const struct sr_snapshot *snap,
		      struct sr_verdict *out, uint32_t nr_params, unsigned int classes);

/* A version-specific evaluation step: fills @out. */
typedef void (*replay_body_fn)(struct replay_eval *ev, struct sr_verdict *out);

/**
 * replay_numa_evaluate() - the NUMA-balancer policies' common evaluate()
 * @priv: the policy's struct sr_param_values; REPLAY_NUMA_PARAMS_COMMON first
 * @snap: the snapshot
 * @out:  the verdict
 * @body: what the version adds once the common checks pass
 *
 * Not a NUMA class (REPLAY_NUMA_CLASSES): not applicable; numa_balancing
 * off: resist; destination CPU unknown: unknown; no candidate CPU (a v5.7+
 * stick): not applicable; else @body decides.
 *
 * Context: pure; allocates nothing.
 * Return: 0, or -EINVAL as replay_eval_begin().
 */
int replay_numa_evaluate(const void *priv, const struct sr_snapshot *snap,
			 struct sr_verdict *out, replay_body_fn body);

/**
 * struct replay_exec_ops - what an exec-placement policy adds to
 * replay_exec_evaluate()
 * @nr_params:     parameter values it reads
 * @need:          replay_need() on each input it reads, in its order;
 *                 false at the first one unknown
 * @pick:          the node the policy places the exec'ing task on, among
 *                 nodes 0..@nr-1 (@nr >= 1, at most SR_MAX_NODES); -1 when
 *                 none can take it
 * @why_here:      reason of "allow" (the task went to the node picked)
 * @why_elsewhere: reason of "resist" (it went elsewhere)
 */
struct replay_exec_ops {
	uint32_t	nr_params;
	bool		(*need)(struct replay_eval *ev);
	int		(*pick)(struct replay_eval *ev, int nr);
	unsigned int	why_here;
	unsigned int	why_elsewhere;
};

/**
 * replay_exec_evaluate() - the exec-placement policies' common evaluate()
 * @priv: the policy's struct sr_param_values
 * @snap: the snapshot
 * @out:  the verdict
 * @ops:  the policy's inputs, choice and reasons
 *
 * Not an exec: not applicable; an input @ops needs unknown: unknown; no
 * node (nr_nodes < 1, or @ops->pick() found none): not applicable; else
 * target_node = the node picked, allow when the task went there, resist
 * when it did not.
 *
 * Context: pure; allocates nothing.
 * Return: 0, or -EINVAL as replay_eval_begin().
 */
int replay_exec_evaluate(const void *priv, const struct sr_snapshot *snap,
			 struct sr_verdict *out, const struct replay_exec_ops *ops);

#endif
