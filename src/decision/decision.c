// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * decision.c - classify migrations and build their snapshots; see
 * decision.h for the rules.
 *
 * Two small tables carry the evidence:
 *   numa[]   sched_move_numa / sched_swap_numa halves waiting for their
 *            migration (at most a few per CPU); each holds the CPU its
 *            move claims, which is what the v4.19 numa_migrate_on flag
 *            would have held, and how many other claims on that CPU were
 *            in flight when it was made;
 *   queue[]  migrations waiting for the event that says why they happened
 *            (a wake-up or an exec of the task), at most one window of
 *            trace time long; emitted from the head, in trace order.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decision.h"
#include "decision-cand.h"
#include "decision-probe.h"
#include "decision-snap.h"
#include "decision-wakeup.h"

#define IDLE_TID 0

struct numa_pending {
	int		tid;
	int		cls;		/* SR_DECISION_CLASS_NUMA_MOVE or _SWAP */
	int		dst_cpu;	/* where this task should go */
	int		claim_cpu;	/* the runqueue the balancer claimed */
	int		inflight;	/* other claims on claim_cpu at the time */
	int		partner;
	uint64_t	ts_ns;
	uint64_t	eval_ns;	/* start of its task_numa_migrate() window (tnm), 0 = none */
};

struct stopper_wake {
	uint64_t	ts_ns;
	int		waker;		/* common_pid of the sched_wakeup */
	int		cpu;		/* the CPU that logged it */
};

struct pending {
	struct decision	d;		/* first, its snapshot first: see queue_push() */
	uint64_t	deadline_ns;
	int		state;		/* enum model_task_state at the migration */
	bool		by_stopper;	/* logged by migration/N on CPU N = orig_cpu */
	bool		self_woken;	/* ...which the task itself woke on CPU N */
	bool		resolved;
	int		task_cpu;	/* the task's last known CPU, -1 unknown */
	bool		dst_switch_seen;	/* first switch on dst after it... */
	bool		dst_went_idle;		/* ...had a sleeping prev */
	struct decision_pass *pass;	/* its balance pass (a reference), NULL for none */
	int		pass_pull;	/* 1-based: the pass's pull it is */
	int		ev_cpu;		/* the CPU that logged the migration */
};

_Static_assert(offsetof(struct pending, d) == 0 && offsetof(struct decision, snap) == 0,
	       "queue_push() clears all of a pending decision but its snapshot");

/*
 * A place in the queue: a decision as built (@p), or one settled for good
 * and packed (@packed: queue_pack()), which is what most queued decisions
 * are, a wake-up each, behind an older one still waiting.
 */
struct queue_slot {
	struct pending	*p;
	void		*packed;
};

/* what queue_pack() writes: this, the pending decision but its snapshot, the snapshot's ranges */
struct packed_head {
	int		nr_nodes;	/* the layout it was packed with */
	int		nr_cpus;
};
_Static_assert(offsetof(struct decision, snap) == 0,
	       "decision_copy() copies the snapshot apart from what follows it");

/* a sched_waking waiting for its placement and its sched_wakeup */
struct pend_wake {
	int		tid;
	int		waker_cpu;
	int		prev;
	bool		migrated;
	int		claim_cpu;	/* the CPU claimed for it, -1 none */
	bool		strf;		/* a select_task_rq_fair probe placed it */
	int		strf_ret;
	/*
	 * its decision, built at the sched_waking: a pending one from the
	 * pool, which on_wakeup() queues as it is (no 12 KiB copy)
	 */
	struct pending	*p;
};

/*
 * select_task_rq_fair pairs of forks and execs, until their
 * sched_wakeup_new, or their sched_process_exec
 */
#define FORK_STRF_SLOTS	32
struct strf_seen {
	int		pid;
	int		ret;
	int		flags;
};

struct decision_ctx {
	const struct topo	*topo;
	decision_emit_fn	emit;
	void			*arg;
	struct decision_stats	stats;

	struct numa_pending	*numa;
	int			nr_numa;
	int			numa_cap;

	struct queue_slot	*queue;
	size_t			head;
	size_t			tail;
	size_t			cap;
	/*
	 * Pending decisions not in the queue, for queue_push() to reuse:
	 * their snapshots, as every snapshot here, zero past the used part.
	 */
	struct pending		**pool;
	size_t			nr_pool;
	size_t			pool_cap;
	struct pending		*pack_tmpl;	/* queue_push_packed()'s, its snapshot unused */
	/*
	 * The queue's places still waiting for evidence, in queue order (some
	 * may have been settled since: each scan drops those), so an event
	 * looks only at these and not at the settled decisions queued behind
	 * an older one that waits (every wake-up is a decision: thousands).
	 */
	size_t			*open;
	size_t			nr_open;
	size_t			open_cap;

	uint64_t		*lost_ts;	/* per CPU: last lost-event marker + 1 (0 = none) */
	uint64_t		*seen_ts;	/* per CPU: its last event + 1 (0 = none yet) */
	uint64_t		first_ns;	/* the first event's time... */
	bool			started;	/* ...once there was one */
	int			nr_lost_cpus;
	/* per CPU N: the last wake-up of migration/N, who logged it and where */
	struct stopper_wake	*swake;
	int			nr_swake;
	uint64_t		exec_seq;
	uint64_t		now_ns;
	/*
	 * What of a snapshot the topology's nodes and CPUs use.  Every
	 * snapshot in the queue, the pool and wakes[] (pending decisions
	 * all, allocated zeroed) is zero beyond it, so fill_snapshot() clears
	 * and decision_copy() copies only that part (decision-snap.h).
	 */
	struct decision_snap_layout snap_layout;

	struct decision_probe_pairs	pairs;
	/* per CPU: the last allowed candidate, for its sched_migrate_task */
	struct decision_probe_entry	*allowed;
	int			nr_allowed;
	/* the balance pass the next pull may continue (a reference) */
	struct decision_pass	*pass_cur;
	/*
	 * SR_MAX_CANDIDATES snapshots (allocated at the first load-balance
	 * decision, zeroed): a pass's candidates, unpacked for the decision
	 * emitted (attach_candidates())
	 */
	struct sr_snapshot	*cand;

	struct dplace		*dp;
	struct pend_wake	*wakes;
	int			nr_wakes;
	int			wakes_cap;
	struct strf_seen	fork_strf[FORK_STRF_SLOTS];
	int			fork_strf_next;
	bool			have_strf;	/* the trace has select_task_rq_fair probes */
	bool			wakelist_idle;	/* 6.0+: same-LLC wakelist only to an empty rq */
};

static const char *const why_names[DECISION_WHY__COUNT] = {
	[DECISION_WHY_MOVE_NUMA]	= "sched_move_numa-preceded",
	[DECISION_WHY_SWAP_NUMA]	= "sched_swap_numa-preceded",
	[DECISION_WHY_STICK_NUMA]	= "sched_stick_numa",
	[DECISION_WHY_WAKEUP_NEW]	= "wakeup_new-followed",
	[DECISION_WHY_WAKEUP]		= "wakeup-followed",
	[DECISION_WHY_EXEC]		= "exec-followed",
	[DECISION_WHY_STOPPER]		= "stopper-moved-it",
	[DECISION_WHY_QUEUED]		= "queued-not-running",
	[DECISION_WHY_RUNNING]		= "running-no-stopper",
	[DECISION_WHY_SLEEPING]		= "asleep-no-wakeup-followed",
	[DECISION_WHY_STATE_UNKNOWN]	= "task-state-unknown",
	[DECISION_WHY_CANDIDATE]	= "can_migrate_task-probe",
	[DECISION_WHY_WAKING]		= "waking-preceded",
	[DECISION_WHY_WAKING_STAYED]	= "waking-stayed-on-prev",
	[DECISION_WHY_RUNNING_ON_DST]	= "running-moved-from-dst",
	[DECISION_WHY_SLEEPING_ON_DST]	= "asleep-moved-from-dst",
};

const char *decision_why_name(int why)
{
	if (why < 0 || why >= DECISION_WHY__COUNT)
		return "invalid";
	return why_names[why];
}

struct decision_ctx *decision_new(const struct topo *topo, decision_emit_fn emit, void *arg)
{
	struct decision_ctx *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->topo = topo;
	d->emit = emit;
	d->arg = arg;
	d->pairs.se_off = -1;
	decision_snap_layout_init(&d->snap_layout, topo->nr_nodes, topo->nr_cpus);
	d->dp = dplace_new();
	if (!d->dp) {
		free(d);
		return NULL;
	}
	return d;
}

void decision_free(struct decision_ctx *d)
{
	size_t i;

	if (!d)
		return;
	for (i = d->head; i < d->tail; i++) {
		if (d->queue[i].p)
			decision_pass_put(d->queue[i].p->pass);
		free(d->queue[i].p);
		free(d->queue[i].packed);
	}
	for (i = 0; i < d->nr_pool; i++)
		free(d->pool[i]);
	free(d->pool);
	free(d->pack_tmpl);
	free(d->cand);
	decision_pass_put(d->pass_cur);
	free(d->numa);
	free(d->queue);
	free(d->open);
	free(d->lost_ts);
	free(d->seen_ts);
	free(d->swake);
	decision_probe_free(&d->pairs);
	free(d->allowed);
	dplace_free(d->dp);
	for (i = 0; i < (size_t)d->nr_wakes; i++)
		free(d->wakes[i].p);
	free(d->wakes);
	free(d);
}

const struct decision_stats *decision_stats(const struct decision_ctx *d)
{
	return &d->stats;
}

/* ---- snapshots --------------------------------------------------------- */

static int task_class_of(int prio)
{
	if (prio < 0)
		return SR_TASK_DEADLINE;
	if (prio < 100)
		return SR_TASK_RT;
	return SR_TASK_FAIR;
}

/* @cpu not seen yet at @ts, though the trace has run DECISION_UNSEEN_MIN_NS */
static bool unseen_before_first(const struct decision_ctx *d, int cpu, uint64_t ts)
{
	if (cpu < 0 || !d->started || ts - d->first_ns < DECISION_UNSEEN_MIN_NS)
		return false;
	return cpu >= d->nr_lost_cpus || !d->seen_ts[cpu];
}

/* the task's last known CPU, -1 when unknown */
static int task_cpu_of(const struct model *m, int tid)
{
	const struct model_task *task = model_task_lookup(m, tid);

	return task && (task->known & MODEL_KNOWN_CPU) ? task->cpu : -1;
}

static bool lost_near(const struct decision_ctx *d, int cpu, uint64_t ts)
{
	if (cpu < 0 || cpu >= d->nr_lost_cpus || !d->lost_ts[cpu])
		return false;
	return d->lost_ts[cpu] - 1 + DECISION_WINDOW_NS >= ts;
}

static bool is_stopper_tid(const struct model *m, int pid)
{
	const struct model_task *t = pid > 0 ? model_task_lookup(m, pid) : NULL;

	return t && (t->known & MODEL_KNOWN_COMM) && t->comm_stopper;
}

/*
 * The kernel's idle_cpu_without(cpu, p) with nr_running less p's own share
 * (update_sg_wakeup_stats()): nothing left on the runqueue once the task
 * itself, and a migration/N stopper running on its behalf, are taken away,
 * and no wake-up on its way there: idle_cpu_without() also says busy while
 * rq->ttwu_pending is set, which on a 6.x kernel covers the whole stretch
 * from a remote sched_waking to the target's sched_wakeup (a claim).
 */
static bool cpu_idle_without(const struct model *m, const struct dplace *dp,
			     const struct model_cpu *mc, int cpu, const struct model_task *task)
{
	int n = mc->nr_runnable;

	if (dplace_claimed(dp, cpu))
		return false;

	if (task && (task->known & MODEL_KNOWN_CPU) && task->cpu == cpu &&
	    (task->state == MODEL_TASK_RUNNING || task->state == MODEL_TASK_RUNNABLE))
		n--;
	if (mc->curr > 0 && is_stopper_tid(m, mc->curr))
		n--;
	return n <= 0;
}

/*
 * The task's cpus_mask as far as the trace tells (model_task.aff): a fork's
 * child has its parent's; wake-ups and execs read the task's own
 */
static void fill_allowed(const struct model *m, struct sr_snapshot *s, int tid)
{
	const struct model_task *t = model_task_lookup(m, tid);

	if (!t || t->aff == MODEL_AFF_UNKNOWN)
		return;
	s->allowed_cpu = t->aff == MODEL_AFF_ONE ? t->aff_cpu : -1;
	s->known |= SR_SNAP_ALLOWED_CPU;
}

/* nr_cpus_allowed 1 as the trace shows it: select_task_rq() does not ask the class */
static bool bound_to_one(const struct model_task *t)
{
	return t && t->aff == MODEL_AFF_ONE;
}

/*
 * Fill what the model and the topology say about a task moving from
 * @src to @dst at @ts.  @dst may be -1 (a stick with no candidate).
 */
static void fill_snapshot(const struct decision_ctx *d, const struct model *m,
			  struct decision *dec, int tid, const char *comm, int prio,
			  int src, int dst, uint64_t ts)
{
	struct sr_snapshot *s = &dec->snap;
	const struct topo *t = d->topo;
	const struct model_task *task = model_task_lookup(m, tid);
	const struct model_cpu *sc = src >= 0 ? model_cpu_get(m, src) : NULL;
	const struct model_cpu *dc = dst >= 0 ? model_cpu_get(m, dst) : NULL;
	int nr_nodes = t->nr_nodes < SR_MAX_NODES ? t->nr_nodes : SR_MAX_NODES;
	bool all_cpus_known = true, pelt_known = true;
	uint64_t node_unknown = 0, pelt_unknown = 0;
	double pu[SR_MAX_NODES], pr[SR_MAX_NODES], util, runnable;
	int a, b, c, kt;

	decision_snap_clear(&d->snap_layout, s);
	/* the nodes' sums: only nr_nodes of them (a 1 KB initialiser was 4% of a replay) */
	for (a = 0; a < nr_nodes; a++)
		pu[a] = pr[a] = 0;
	s->size = sizeof(*s);
	s->known = SR_SNAP_TIME | SR_SNAP_TID | SR_SNAP_SRC_CPU | SR_SNAP_DST_CPU |
		   SR_SNAP_NR_NODES | SR_SNAP_DISTANCE | SR_SNAP_NODE_NR_CPUS | SR_SNAP_EXEC_SEQ;
	s->ts_ns = ts;
	s->tid = tid;
	s->src_cpu = src;
	s->dst_cpu = dst;
	s->nr_nodes = nr_nodes;
	s->exec_seq = d->exec_seq;
	for (a = 0; a < nr_nodes; a++)
		for (b = 0; b < nr_nodes; b++) {
			int dist = topo_distance(t, a, b);

			s->distance[a][b] = dist > 0 && dist < 256 ? (uint8_t)dist : 0;
		}
	for (c = 0; c < t->nr_cpus; c++) {
		int n = topo_cpu_node(t, c);

		if (n >= 0 && n < nr_nodes)
			s->node_nr_cpus[n]++;
	}

	if (comm && comm[0]) {
		memcpy(s->comm, comm, SR_SNAP_COMM_LEN - 1);
		s->known |= SR_SNAP_COMM;
	} else if (task && (task->known & MODEL_KNOWN_COMM)) {
		memcpy(s->comm, task->comm, SR_SNAP_COMM_LEN - 1);
		s->known |= SR_SNAP_COMM;
	}
	if (prio != INT32_MIN) {
		s->task_class = task_class_of(prio);
		s->known |= SR_SNAP_TASK_CLASS;
	}

	s->src_node = topo_cpu_node(t, src);
	s->dst_node = dst >= 0 ? topo_cpu_node(t, dst) : -1;
	if (s->src_node >= 0)
		s->known |= SR_SNAP_SRC_NODE;
	if (s->dst_node >= 0 || dst < 0)
		s->known |= SR_SNAP_DST_NODE;
	if (s->src_node >= 0 && s->dst_node >= 0) {
		s->cross_node = s->src_node != s->dst_node;
		s->known |= SR_SNAP_CROSS_NODE;
		if (s->cross_node) {
			/* the lowest domain spanning two nodes is a NUMA one */
			s->sd_level = SR_SD_NUMA;
			s->known |= SR_SNAP_SD_LEVEL;
		}
	}

	if (task) {
		if (task->known & MODEL_KNOWN_TGID) {
			s->tgid = task->tgid;
			s->known |= SR_SNAP_TGID;
		}
		if (task->known & MODEL_KNOWN_PREF_NODE) {
			s->pref_node = task->pref_node;
			s->known |= SR_SNAP_PREF_NODE;
		}
		if (task->known & MODEL_KNOWN_NUMA_GROUP) {
			s->numa_group = task->numa_group;
			s->known |= SR_SNAP_NUMA_GROUP;
		}
		if ((task->known & MODEL_KNOWN_FAULTS) && task->faults) {
			for (a = 0; a < nr_nodes; a++)
				s->task_faults[a] = task->faults[a];
			s->known |= SR_SNAP_TASK_FAULTS;
		}
		if (task->known & MODEL_KNOWN_HAS_FAULTS) {
			s->has_faults = task->has_faults;
			s->known |= SR_SNAP_HAS_FAULTS;
		} else if ((kt = model_task_kthread(task)) != MODEL_KTHREAD_NONE) {
			/* no mm, so no hinting fault ever: p->numa_faults is NULL */
			s->has_faults = 0;
			s->known |= SR_SNAP_HAS_FAULTS;
			dec->kthread = kt;
		} else if (task->born && model_stats(m)->fault_events) {
			/*
			 * Born in the trace, and the trace carries every hinting
			 * fault (the fault probe is there): none of them was its.
			 */
			s->has_faults = 0;
			s->known |= SR_SNAP_HAS_FAULTS;
		}
		if ((s->known & SR_SNAP_HAS_FAULTS) && !s->has_faults)
			s->known |= SR_SNAP_TASK_FAULTS;	/* task_faults() is 0 without numa_faults */
		if ((task->known & MODEL_KNOWN_GROUP_FAULTS) && task->group_faults) {
			for (a = 0; a < nr_nodes; a++)
				s->group_faults[a] = task->group_faults[a];
			s->known |= SR_SNAP_GROUP_FAULTS;
		}
		if (model_group_active(m, task, &s->group_active))
			s->known |= SR_SNAP_GROUP_ACTIVE;
		if (task->known & MODEL_KNOWN_STATE) {
			s->task_running = task->state == MODEL_TASK_RUNNING && task->cpu == src;
			s->known |= SR_SNAP_TASK_RUNNING;
		}
		if (task->known & MODEL_KNOWN_STATE && task->state == MODEL_TASK_RUNNING &&
		    task->cpu == src) {
			s->since_ran_ns = 0;
			s->known |= SR_SNAP_SINCE_RAN;
		} else if (task->known & MODEL_KNOWN_LAST_RAN && ts >= task->last_ran_ns) {
			s->since_ran_ns = ts - task->last_ran_ns;
			s->known |= SR_SNAP_SINCE_RAN;
		}
		if (task->known & MODEL_KNOWN_MOVED) {
			s->moved_since_ran = task->moved_since_ran;
			s->known |= SR_SNAP_MOVED_SINCE_RAN;
		}
	}
	if (sc && sc->known) {
		s->src_nr_running = sc->nr_runnable;
		s->known |= SR_SNAP_SRC_NR_RUNNING;
		if (!sc->nr_pref_unknown) {
			s->src_nr_preferred = sc->nr_preferred;
			s->known |= SR_SNAP_SRC_NR_PREFERRED;
		}
	}
	if (dc && dc->known) {
		s->dst_nr_running = dc->nr_runnable;
		s->dst_idle = dc->curr == IDLE_TID;
		s->known |= SR_SNAP_DST_NR_RUNNING;
		if (dc->curr >= 0)
			s->known |= SR_SNAP_DST_IDLE;
	}
	for (c = 0; c < t->nr_cpus; c++) {
		const struct model_cpu *mc = model_cpu_get(m, c);
		int n = topo_cpu_node(t, c);

		if (!mc || !mc->known) {
			all_cpus_known = false;
			if (n >= 0 && n < 64)
				node_unknown |= 1ull << n;
			continue;
		}
		if (n >= 0 && n < nr_nodes) {
			/* a stopper running for the move is not part of the load it balanced */
			s->node_nr_running[n] += mc->nr_runnable -
						 (mc->curr > 0 && is_stopper_tid(m, mc->curr));
			if (cpu_idle_without(m, d->dp, mc, c, task))
				s->node_nr_idle[n]++;
			if (model_cpu_pelt(m, c, ts, &util, &runnable)) {
				pu[n] += util;
				pr[n] += runnable;
			} else {
				pelt_known = false;
				if (n < 64)
					pelt_unknown |= 1ull << n;
			}
		}
	}
	s->node_known = (nr_nodes >= 64 ? ~0ull : (1ull << nr_nodes) - 1) & ~node_unknown;
	s->node_pelt_known = s->node_known & ~pelt_unknown;
	/* a node not known holds nothing (zero), as every unknown field */
	for (a = 0; a < nr_nodes; a++) {
		bool nk = a < 64 && (s->node_known >> a & 1);
		bool pk = a < 64 && (s->node_pelt_known >> a & 1);

		if (!nk)
			s->node_nr_running[a] = s->node_nr_idle[a] = 0;
		s->node_util[a] = pk ? (int32_t)(pu[a] + 0.5) : 0;
		s->node_runnable[a] = pk ? (int32_t)(pr[a] + 0.5) : 0;
	}
	s->known |= SR_SNAP_NODE_KNOWN;
	if (all_cpus_known)
		s->known |= SR_SNAP_NODE_NR_RUNNING | SR_SNAP_NODE_NR_IDLE;
	if (all_cpus_known && pelt_known)
		s->known |= SR_SNAP_NODE_PELT;
	if (lost_near(d, src, ts) || lost_near(d, dst, ts))
		dec->flags |= DECISION_F_LOST;
	if (unseen_before_first(d, src, ts) || unseen_before_first(d, dst, ts) ||
	    unseen_before_first(d, task_cpu_of(m, tid), ts))
		dec->flags |= DECISION_F_UNSEEN;
}

static void set_class(struct decision *dec, int cls, int why)
{
	dec->snap.decision_class = cls;
	dec->snap.known |= SR_SNAP_CLASS;
	dec->why = why;
}

/* ---- the NUMA table ---------------------------------------------------- */

static int numa_claims(const struct decision_ctx *d, int cpu, int except_tid)
{
	int i, n = 0;

	for (i = 0; i < d->nr_numa; i++)
		if (d->numa[i].claim_cpu == cpu && d->numa[i].tid != except_tid &&
		    d->numa[i].partner != except_tid)
			n++;
	return n;
}

static int numa_find(const struct decision_ctx *d, int tid)
{
	int i;

	for (i = 0; i < d->nr_numa; i++)
		if (d->numa[i].tid == tid)
			return i;
	return -1;
}

static void numa_drop(struct decision_ctx *d, int i)
{
	d->numa[i] = d->numa[--d->nr_numa];
}

static int numa_add(struct decision_ctx *d, const struct numa_pending *np)
{
	int i = numa_find(d, np->tid);

	if (i >= 0) {
		/* a newer move of the same task replaces the older one */
		d->stats.numa_expired++;
		d->numa[i] = *np;
		return 0;
	}
	if (d->nr_numa == d->numa_cap) {
		int cap = d->numa_cap ? d->numa_cap * 2 : 16;
		struct numa_pending *n = realloc(d->numa, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		d->numa = n;
		d->numa_cap = cap;
	}
	d->numa[d->nr_numa++] = *np;
	return 0;
}

static void numa_expire(struct decision_ctx *d, uint64_t now)
{
	int i = 0;

	while (i < d->nr_numa) {
		if (d->numa[i].ts_ns + DECISION_NUMA_WINDOW_NS < now) {
			d->stats.numa_expired++;
			numa_drop(d, i);
		} else {
			i++;
		}
	}
}

/* ---- the queue --------------------------------------------------------- */

/* a pending decision to fill: from the pool, else new (zeroed) */
static struct pending *pool_get(struct decision_ctx *d)
{
	return d->nr_pool ? d->pool[--d->nr_pool] : calloc(1, sizeof(struct pending));
}

/*
 * pool_get() with all but the snapshot cleared: every caller fills the
 * snapshot (fill_snapshot() or decision_copy(), which clear or copy the
 * used part; past it, a pooled snapshot is zero)
 */
static struct pending *pool_get_clear(struct decision_ctx *d)
{
	struct pending *p = pool_get(d);

	if (p)
		memset((char *)p + sizeof(p->d.snap), 0, sizeof(*p) - sizeof(p->d.snap));
	return p;
}

/* back to the pool, its snapshot as it was left: zero past the used part */
static void pool_put(struct decision_ctx *d, struct pending *p)
{
	if (d->nr_pool == d->pool_cap) {
		size_t cap = d->pool_cap ? d->pool_cap * 2 : 16;
		struct pending **n = realloc(d->pool, cap * sizeof(*n));

		if (!n) {
			free(p);
			return;
		}
		d->pool = n;
		d->pool_cap = cap;
	}
	d->pool[d->nr_pool++] = p;
}

/* room at the queue's tail for one more: -ENOMEM without */
static int queue_room(struct decision_ctx *d)
{
	struct queue_slot *q;

	if (d->head > 0 && d->tail == d->cap) {
		size_t i, n = 0;

		memmove(d->queue, d->queue + d->head, (d->tail - d->head) * sizeof(*d->queue));
		for (i = 0; i < d->nr_open; i++)	/* those emitted are gone */
			if (d->open[i] >= d->head)
				d->open[n++] = d->open[i] - d->head;
		d->nr_open = n;
		d->tail -= d->head;
		d->head = 0;
	}
	if (d->tail == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 32;

		q = realloc(d->queue, cap * sizeof(*q));
		if (!q)
			return -ENOMEM;
		d->queue = q;
		d->cap = cap;
	}
	return 0;
}

/*
 * A place at the queue's tail for @given, a pending decision from the
 * pool whose decision is filled (its own fields cleared here), or for a
 * new one (@given NULL: all but its snapshot cleared, for the caller to
 * fill).  Return: the pending decision, NULL without memory (@given
 * stays the caller's).
 */
static struct pending *queue_push_given(struct decision_ctx *d, struct pending *given)
{
	struct pending *p;

	if (queue_room(d))
		return NULL;
	if (d->nr_open == d->open_cap) {
		size_t cap = d->open_cap ? d->open_cap * 2 : 32;
		size_t *o = realloc(d->open, cap * sizeof(*o));

		if (!o)
			return NULL;
		d->open = o;
		d->open_cap = cap;
	}
	p = given ? given : pool_get_clear(d);
	if (!p)
		return NULL;
	d->open[d->nr_open++] = d->tail;
	d->queue[d->tail].p = p;
	d->queue[d->tail++].packed = NULL;
	if (given)
		memset((char *)p + sizeof(p->d), 0, sizeof(*p) - sizeof(p->d));
	return p;
}

static struct pending *queue_push(struct decision_ctx *d)
{
	return queue_push_given(d, NULL);
}

/*
 * Pack the decision queue_push() gave last, settled for good (nothing
 * finds it in the queue again to change it, and it has no balance pass):
 * the part of its snapshot in use and the rest of it, a few hundred bytes
 * on a small machine instead of 12 KB, for the time it waits behind older
 * decisions.  Without memory for that it stays as it is.
 */
static void queue_pack(struct decision_ctx *d)
{
	struct queue_slot *q = &d->queue[d->tail - 1];
	const struct decision_snap_layout *l = &d->snap_layout;
	size_t rest = sizeof(struct pending) - sizeof(q->p->d.snap);
	struct packed_head *h;

	/* the only one: the next drain emits it as it is */
	if (d->tail - 1 == d->head)
		return;
	h = malloc(sizeof(*h) + rest + decision_snap_used(l));
	if (!h)
		return;
	h->nr_nodes = l->nr_nodes;
	h->nr_cpus = l->nr_cpus;
	memcpy(h + 1, (const char *)q->p + sizeof(q->p->d.snap), rest);
	decision_snap_pack(l, (char *)(h + 1) + rest, &q->p->d.snap);
	pool_put(d, q->p);
	q->p = NULL;
	q->packed = h;
}

/*
 * Queue @dec, settled for good, as queue_pack() would leave it, packed
 * straight from where it was built (a sched_waking's pend_wake) instead of
 * copied whole into a pending decision first; @task_cpu and @state are the
 * pending decision's.  Return: 0, or 1 when it must go the long way (the
 * queue is empty, so the next drain emits it; or no memory for the packed
 * form).
 */
static int queue_push_packed(struct decision_ctx *d, const struct decision *dec, int task_cpu,
			     int state)
{
	const struct decision_snap_layout *l = &d->snap_layout;
	size_t rest = sizeof(struct pending) - sizeof(dec->snap);
	struct pending *t = d->pack_tmpl;
	struct packed_head *h;

	if (d->head == d->tail)
		return 1;
	if (!t && !(t = d->pack_tmpl = calloc(1, sizeof(*t))))
		return 1;
	if (queue_room(d))
		return 1;
	h = malloc(sizeof(*h) + rest + decision_snap_used(l));
	if (!h)
		return 1;
	/* what queue_push() and decision_copy() would have made of it, but the snapshot */
	memset((char *)t + sizeof(t->d.snap), 0, rest);
	memcpy((char *)&t->d + sizeof(t->d.snap), (const char *)dec + sizeof(dec->snap),
	       sizeof(*dec) - sizeof(dec->snap));
	t->task_cpu = task_cpu;
	t->state = state;
	t->resolved = true;
	h->nr_nodes = l->nr_nodes;
	h->nr_cpus = l->nr_cpus;
	memcpy(h + 1, (const char *)t + sizeof(t->d.snap), rest);
	decision_snap_pack(l, (char *)(h + 1) + rest, &dec->snap);
	d->queue[d->tail].p = NULL;
	d->queue[d->tail++].packed = h;
	return 0;
}

/* the decision queue_pack() packed into @q, whole again; NULL without memory */
static struct pending *queue_unpack(struct decision_ctx *d, struct queue_slot *q)
{
	const struct packed_head *h = q->packed;
	const struct decision_snap_layout *l = &d->snap_layout;
	struct decision_snap_layout was;
	struct pending *p = pool_get(d);
	size_t rest = sizeof(*p) - sizeof(p->d.snap);

	if (!p)
		return NULL;
	if (h->nr_nodes != l->nr_nodes || h->nr_cpus != l->nr_cpus) {
		/* the topology grew since: the smaller layout it was packed with */
		decision_snap_layout_init(&was, h->nr_nodes, h->nr_cpus);
		l = &was;
	}
	memcpy((char *)p + sizeof(p->d.snap), h + 1, rest);
	decision_snap_unpack(l, &p->d.snap, (const char *)(h + 1) + rest);
	free(q->packed);
	q->packed = NULL;
	q->p = p;
	return p;
}

/* What a migration is when nothing that followed it said more. */
static void classify_fallback(struct pending *p)
{
	if (p->by_stopper)
		set_class(&p->d, SR_DECISION_CLASS_LB_ACTIVE, DECISION_WHY_STOPPER);
	else if (p->state == MODEL_TASK_RUNNABLE)
		set_class(&p->d, SR_DECISION_CLASS_LB_PULL, DECISION_WHY_QUEUED);
	/*
	 * Logged on the destination: what detach_task() of a pull, or the
	 * waker's set_task_cpu() of an affine wake-up, looks like; so the
	 * model's state is stale (a wake-up or switch the trace lacks)
	 */
	else if (p->state == MODEL_TASK_RUNNING)
		set_class(&p->d, SR_DECISION_CLASS_OTHER, p->ev_cpu == p->d.snap.dst_cpu ?
			  DECISION_WHY_RUNNING_ON_DST : DECISION_WHY_RUNNING);
	else if (p->state == MODEL_TASK_SLEEPING)
		set_class(&p->d, SR_DECISION_CLASS_OTHER, p->ev_cpu == p->d.snap.dst_cpu ?
			  DECISION_WHY_SLEEPING_ON_DST : DECISION_WHY_SLEEPING);
	else
		set_class(&p->d, SR_DECISION_CLASS_OTHER, DECISION_WHY_STATE_UNKNOWN);

	if (p->d.snap.decision_class == SR_DECISION_CLASS_LB_PULL ||
	    p->d.snap.decision_class == SR_DECISION_CLASS_LB_ACTIVE) {
		struct sr_snapshot *s = &p->d.snap;

		/*
		 * The balancing CPU is the destination.  Idle when it ran its
		 * idle task; newly idle when its next switch put a sleeping task
		 * away (idle_balance runs inside schedule()); busy otherwise.
		 * The stopper runs with CPU_IDLE semantics (docs/kernel-behaviour.md
		 * section 2.1).
		 */
		if (s->decision_class == SR_DECISION_CLASS_LB_ACTIVE) {
			s->idle_type = SR_IDLE_CPU_IDLE;
			s->known |= SR_SNAP_IDLE_TYPE;
		} else if ((s->known & SR_SNAP_DST_IDLE) && s->dst_idle) {
			s->idle_type = SR_IDLE_CPU_IDLE;
			s->known |= SR_SNAP_IDLE_TYPE;
		} else if (p->dst_switch_seen) {
			s->idle_type = p->dst_went_idle ? SR_IDLE_NEWLY_IDLE : SR_IDLE_NOT_IDLE;
			s->known |= SR_SNAP_IDLE_TYPE;
		}
	}
}

/*
 * A load-balance decision's candidates: its pass's, in the same balancing
 * environment as the decision itself (its class and the idle type the
 * classification settled), its own slot being its own snapshot; a probed
 * candidate is a point of one (the kernel's walk, step by step).
 * The pass's packed snapshots are unpacked into d->cand, whole snapshots
 * as the ABI hands them out, zero past the part the layout uses: each
 * cleared by the context's layout first, which covers the pass's and
 * anything an earlier decision left there (layouts only widen).
 * Return: 0 or -ENOMEM.
 */
static int attach_candidates(struct decision_ctx *d, struct pending *p)
{
	struct decision *dec = &p->d;
	const struct sr_snapshot *s = &dec->snap;
	struct decision_pass *ps = p->pass;
	const uint64_t env = SR_SNAP_IDLE_TYPE | SR_SNAP_CLASS;
	size_t used;
	int i;

	if (!decision_is_lb(s->decision_class))
		return 0;
	if (dec->has_truth) {
		dec->cand = s;
		dec->nr_cand = 1;
		dec->nr_pull = 1;
		dec->dp_flags = SR_DP_PROBE_ORDER;
		return 0;
	}
	if (!ps)
		return 0;
	if (!d->cand) {
		/* zeroed, and written only within layouts from here on */
		d->cand = calloc(SR_MAX_CANDIDATES, sizeof(*d->cand));
		if (!d->cand)
			return -ENOMEM;
	}
	used = decision_snap_used(&ps->layout);
	for (i = 0; i < ps->nr; i++) {
		struct sr_snapshot *c = &d->cand[i];

		decision_snap_clear(&d->snap_layout, c);
		decision_snap_unpack(&ps->layout, c, ps->pk + (size_t)i * used);

		if (ps->tid[i] == s->tid) {
			*c = *s;
			continue;
		}
		c->decision_class = s->decision_class;
		c->idle_type = s->idle_type;
		c->known = (c->known & ~env) | (s->known & env);
	}
	dec->cand = d->cand;
	dec->nr_cand = ps->nr;
	dec->nr_pull = p->pass_pull;
	dec->dp_flags = ps->flags;
	return 0;
}

static int emit_one(struct decision_ctx *d, struct pending *p)
{
	struct decision *dec = &p->d;
	int ret;

	ret = attach_candidates(d, p);
	if (ret < 0) {
		decision_pass_put(p->pass);
		p->pass = NULL;
		return ret;
	}
	if (decision_is_lb(dec->snap.decision_class)) {
		d->stats.lb_points++;
		d->stats.lb_candidates += (uint64_t)dec->nr_cand;
		if (dec->dp_flags & SR_DP_PROBE_ORDER)
			d->stats.lb_probe_order++;
		if (dec->dp_flags & SR_DP_RECONSTRUCTED)
			d->stats.lb_reconstructed++;
		if (dec->dp_flags & SR_DP_PULLED_ADDED)
			d->stats.lb_pulled_added++;
		if (dec->dp_flags & SR_DP_TRUNCATED)
			d->stats.lb_truncated++;
		if (dec->nr_pull > 1)
			d->stats.lb_multi_pull++;
	}
	dec->seq = d->stats.decisions++;
	d->stats.by_class[dec->snap.decision_class]++;
	d->stats.by_why[dec->why]++;
	if (dec->flags & DECISION_F_LOST)
		d->stats.lost_flagged++;
	if (dec->flags & DECISION_F_UNSEEN)
		d->stats.unseen_flagged++;
	if (dec->kthread > 0 && dec->kthread < MODEL_KTHREAD__COUNT)
		d->stats.kthread_by[dec->kthread]++;
	ret = d->emit(dec, d->arg);
	dec->cand = NULL;
	decision_pass_put(p->pass);
	p->pass = NULL;
	return ret;
}

/* Emit from the head every decision that is settled or out of time. */
static int queue_drain(struct decision_ctx *d, uint64_t now, bool all)
{
	int ret;

	while (d->head < d->tail) {
		struct queue_slot *q = &d->queue[d->head];
		struct pending *p = q->packed ? queue_unpack(d, q) : q->p;

		if (!p)
			return -ENOMEM;
		if (!p->resolved) {
			if (!all && now <= p->deadline_ns)
				break;
			classify_fallback(p);
			p->resolved = true;
		}
		ret = emit_one(d, p);
		d->head++;
		q->p = NULL;
		pool_put(d, p);
		if (ret < 0)
			return ret;
	}
	if (d->head == d->tail) {
		d->head = d->tail = 0;
		d->nr_open = 0;
	}
	return 0;
}

/*
 * queue_drain(d, now, false) where it has work: twice an event, and most
 * find the queue empty or its head waiting for its evidence (a call of
 * queue_drain() for that was 2% of a replay's samples)
 */
static inline int queue_drain_due(struct decision_ctx *d, uint64_t now)
{
	if (d->head < d->tail) {
		const struct queue_slot *q = &d->queue[d->head];

		if (!q->packed && !q->p->resolved && now <= q->p->deadline_ns)
			return 0;
	} else if (!d->tail && !d->nr_open) {
		return 0;
	}
	return queue_drain(d, now, false);
}

/*
 * sched_exec()'s select_task_rq_fair(WF_EXEC) return, seen before the
 * stopper's move, as the truth of the exec decision of @tid
 */
static void exec_truth(struct decision_ctx *d, struct decision *dec, int tid)
{
	int k;

	/* newest first: an earlier exec of the task that did not move left its own */
	for (k = 1; k <= FORK_STRF_SLOTS; k++) {
		struct strf_seen *sl = &d->fork_strf[(unsigned int)(d->fork_strf_next - k) %
						     FORK_STRF_SLOTS];

		if (sl->pid == tid && (sl->flags & DPLACE_WF_EXEC)) {
			dec->has_place_truth = true;
			dec->place_truth_cpu = sl->ret;
			sl->pid = 0;
			return;
		}
	}
}

/* The event may settle waiting decisions about its task or its CPU. */
static void queue_evidence(struct decision_ctx *d, const struct sr_event *ev)
{
	size_t i, n = 0;

	for (i = 0; i < d->nr_open; i++) {
		struct pending *p;
		int tid;

		/* emitted, or settled elsewhere (packed ones are): dropped */
		if (d->open[i] < d->head || !d->queue[d->open[i]].p || d->queue[d->open[i]].p->resolved)
			continue;
		p = d->queue[d->open[i]].p;
		tid = p->d.snap.tid;
		d->open[n++] = d->open[i];
		switch (ev->kind) {
		case SR_EV_WAKEUP_NEW:
			if (ev->u.wake.pid == tid && ev->u.wake.target_cpu == p->d.snap.dst_cpu) {
				set_class(&p->d, SR_DECISION_CLASS_FORK, DECISION_WHY_WAKEUP_NEW);
				p->resolved = true;
			}
			break;
		case SR_EV_WAKING:
		case SR_EV_WAKEUP:
			if (ev->u.wake.pid == tid && p->state != MODEL_TASK_RUNNING &&
			    p->state != MODEL_TASK_RUNNABLE &&
			    (ev->u.wake.target_cpu == p->d.snap.dst_cpu || ev->u.wake.target_cpu < 0)) {
				set_class(&p->d, SR_DECISION_CLASS_WAKEUP, DECISION_WHY_WAKEUP);
				p->resolved = true;
			}
			break;
		case SR_EV_EXEC:
			/* sched_exec() moves through the stopper it wakes itself */
			if (p->by_stopper && p->self_woken &&
			    (ev->u.exec.pid == tid || ev->u.exec.old_pid == tid)) {
				set_class(&p->d, SR_DECISION_CLASS_EXEC, DECISION_WHY_EXEC);
				exec_truth(d, &p->d, tid);
				p->resolved = true;
			}
			break;
		case SR_EV_SWITCH:
			if (ev->cpu == p->d.snap.dst_cpu && !p->dst_switch_seen) {
				p->dst_switch_seen = true;
				p->dst_went_idle = ev->u.sw.prev_state != 0 &&
						   ev->u.sw.prev_state != 0x100;
			}
			break;
		case SR_EV_LOST:
			if (ev->cpu == p->d.snap.src_cpu || ev->cpu == p->d.snap.dst_cpu)
				p->d.flags |= DECISION_F_LOST;
			/* made after the CPU's last event before the gap: inside it */
			if ((ev->cpu == p->d.snap.src_cpu || ev->cpu == p->d.snap.dst_cpu ||
			     ev->cpu == p->task_cpu) && ev->cpu >= 0 &&
			    (ev->cpu >= d->nr_lost_cpus || p->d.snap.ts_ns + 1 >= d->seen_ts[ev->cpu]))
				p->d.flags |= DECISION_F_UNSEEN;
			break;
		default:
			break;
		}
	}
	d->nr_open = n;
}

/* ---- events ------------------------------------------------------------ */

/* "migration/N": the stopper thread of CPU N (-1 for any other name) */
static int stopper_cpu_of(const char *comm)
{
	int cpu = 0;
	int i;

	if (strncmp(comm, "migration/", 10) || !comm[10])
		return -1;
	for (i = 10; i < SR_COMM_LEN && comm[i]; i++) {
		if (comm[i] < '0' || comm[i] > '9' || cpu > TOPO_MAX_CPUS)
			return -1;
		cpu = cpu * 10 + (comm[i] - '0');
	}
	return cpu;
}

/*
 * The migration was done by the source CPU's stopper: logged on CPU N by
 * migration/N, N the CPU the task left (active balancing, sched_exec(),
 * NUMA moves, affinity changes).  A pull that softirq balancing did while
 * migration/N happened to be current is logged on the destination CPU.
 */
static bool by_src_stopper(const struct model *m, const struct sr_event *ev)
{
	const struct model_task *t = model_task_lookup(m, ev->pid);

	return t && (t->known & MODEL_KNOWN_COMM) && ev->cpu == ev->u.mig.orig_cpu &&
	       stopper_cpu_of(t->comm) == ev->u.mig.orig_cpu;
}

/* Which task woke migration/N, and on which CPU the wake-up was logged. */
static int note_stopper_wake(struct decision_ctx *d, const struct sr_event *ev)
{
	int cpu = stopper_cpu_of(ev->u.wake.comm);

	if (cpu < 0 || cpu >= TOPO_MAX_CPUS)
		return 0;
	if (cpu >= d->nr_swake) {
		int n = cpu + 1 > 2 * d->nr_swake ? cpu + 1 : 2 * d->nr_swake;
		struct stopper_wake *w = realloc(d->swake, n * sizeof(*w));

		if (!w)
			return -ENOMEM;
		memset(w + d->nr_swake, 0, (n - d->nr_swake) * sizeof(*w));
		d->swake = w;
		d->nr_swake = n;
	}
	d->swake[cpu].ts_ns = ev->ts_ns;
	d->swake[cpu].waker = ev->pid;
	d->swake[cpu].cpu = ev->cpu;
	return 0;
}

/* The stopper of @cpu was last woken by @tid on @cpu itself. */
static bool stopper_self_woken(const struct decision_ctx *d, int cpu, int tid)
{
	return cpu >= 0 && cpu < d->nr_swake && d->swake[cpu].ts_ns &&
	       d->swake[cpu].waker == tid && d->swake[cpu].cpu == cpu;
}

/*
 * The migration of a candidate can_migrate_task() allowed just before, on
 * this CPU (detach_task() follows it under the same lock): that candidate
 * already is the decision.
 */
static bool claimed_by_candidate(struct decision_ctx *d, const struct sr_event *ev)
{
	struct decision_probe_entry *a;

	if (ev->cpu < 0 || ev->cpu >= d->nr_allowed)
		return false;
	a = &d->allowed[ev->cpu];
	if (!a->open || a->pr.v[SR_PF_PID] != ev->u.mig.pid ||
	    a->pr.v[SR_PF_SRC_CPU] != ev->u.mig.orig_cpu ||
	    a->pr.v[SR_PF_DST_CPU] != ev->u.mig.dest_cpu)
		return false;
	a->open = false;
	return true;
}

/*
 * A migration that may be a load-balance pull: the pass it continues, or
 * a new one with the source runqueue's tasks as the model has them before
 * the pass (decision-cand.c).  An active balance is a pass of its own,
 * without the stopper running on the source CPU.
 */
static int attach_pass(struct decision_ctx *d, const struct model *m, struct pending *p,
		       const struct sr_event *ev)
{
	const struct sr_ev_migrate *mg = &ev->u.mig;
	int tid[SR_MAX_CANDIDATES], src = mg->orig_cpu, dst = mg->dest_cpu;
	struct decision_pass *ps = d->pass_cur;
	const struct model_cpu *sc;
	struct pending *scratch;
	unsigned int flags;
	size_t used;
	int i, n, skip = 0;

	if (p->by_stopper || !decision_pass_joins(ps, mg->pid, src, dst, ev->cpu, ev->ts_ns)) {
		decision_pass_put(ps);
		d->pass_cur = NULL;
		sc = p->by_stopper ? model_cpu_get(m, src) : NULL;
		if (sc && sc->curr > 0)
			skip = sc->curr;
		n = decision_cand_order(m, src, skip, mg->pid, tid, &flags);
		if (n < 0)
			return n;
		used = decision_snap_used(&d->snap_layout);
		ps = calloc(1, sizeof(*ps) + (size_t)n * used);
		if (!ps)
			return -ENOMEM;
		ps->layout = d->snap_layout;
		ps->refs = 1;
		ps->src = src;
		ps->dst = dst;
		ps->log_cpu = ev->cpu;
		ps->active = p->by_stopper;
		ps->flags = flags;
		ps->nr = n;
		memcpy(ps->tid, tid, (size_t)n * sizeof(tid[0]));
		/*
		 * Each candidate's snapshot made in a pooled decision's, zero
		 * past the used part as fill_snapshot() needs, and packed by
		 * that part (a whole 12 KB cleared and copied per candidate was
		 * 200,000 instructions a pass of 18)
		 */
		scratch = pool_get(d);
		if (!scratch) {
			free(ps);
			return -ENOMEM;
		}
		for (i = 0; i < n; i++) {
			/* only CFS tasks are on cfs_tasks: prio 120 stands for "fair" */
			fill_snapshot(d, m, &scratch->d, tid[i], NULL, 120, src, dst, ev->ts_ns);
			decision_snap_pack(&ps->layout, ps->pk + (size_t)i * used, &scratch->d.snap);
		}
		pool_put(d, scratch);
		d->pass_cur = ps;
	}
	i = decision_pass_find(ps, mg->pid);
	if (i >= 0)
		ps->taken[i] = true;
	ps->pulls++;
	ps->last_ns = ev->ts_ns;
	ps->refs++;
	p->pass = ps;
	p->pass_pull = ps->pulls;
	return 0;
}
static int wake_migrated(struct decision_ctx *d, struct pending *p, const struct sr_event *ev);
static void wake_settled(struct decision_ctx *d, int tid);

static int on_migrate(struct decision_ctx *d, const struct model *m, const struct sr_event *ev)
{
	const struct sr_ev_migrate *mg = &ev->u.mig;
	const struct model_task *task = model_task_lookup(m, mg->pid);
	struct pending *p;
	int i;

	/*
	 * The idle task is never migrated: a damaged record, which the model
	 * and the ledger pass over too, and the session warns of (a stopper's
	 * move of pid 0 crashed the placement's task table, whose empty slots
	 * are tid 0)
	 */
	if (mg->pid <= 0)
		return 0;
	if (claimed_by_candidate(d, ev)) {
		d->stats.probe_paired_migrations++;
		return 0;
	}

	p = queue_push(d);
	if (!p)
		return -ENOMEM;
	p->d.src_pos = ev->src_pos;
	fill_snapshot(d, m, &p->d, mg->pid, mg->comm, mg->prio, mg->orig_cpu, mg->dest_cpu,
		      ev->ts_ns);
	p->task_cpu = task_cpu_of(m, mg->pid);
	p->ev_cpu = ev->cpu;
	p->deadline_ns = ev->ts_ns + DECISION_WINDOW_NS;
	p->state = task && (task->known & MODEL_KNOWN_STATE) ? (int)task->state :
							       MODEL_TASK_UNKNOWN;
	if (p->state == MODEL_TASK_UNKNOWN)
		p->d.flags |= DECISION_F_STATE_GUESS;
	p->by_stopper = by_src_stopper(m, ev);
	p->self_woken = p->by_stopper && stopper_self_woken(d, mg->orig_cpu, mg->pid);
	if (p->self_woken)
		p->deadline_ns = ev->ts_ns + DECISION_EXEC_WINDOW_NS;
	if (!p->by_stopper) {
		int ret = wake_migrated(d, p, ev);

		if (ret < 0 || p->resolved)
			return ret;
	} else {
		/* an exec placement, perhaps: the CPUs it was chosen among */
		int ret = dplace_fill(d->dp, m, d->topo, &p->d.snap, ev->cpu, mg->pid, NULL,
				      false);

		if (ret < 0)
			return ret;
		fill_allowed(m, &p->d.snap, mg->pid);
		wake_settled(d, mg->pid);
	}

	i = numa_find(d, mg->pid);
	if (i >= 0 && d->numa[i].dst_cpu == mg->dest_cpu) {
		const struct numa_pending *np = &d->numa[i];

		set_class(&p->d, np->cls, np->cls == SR_DECISION_CLASS_NUMA_MOVE ?
			  DECISION_WHY_MOVE_NUMA : DECISION_WHY_SWAP_NUMA);
		p->d.snap.numa_inflight = np->inflight;
		if (np->eval_ns) {
			/*
			 * the recorded window: claims of other evaluations on the
			 * CPU while this one ran, up to its move or swap
			 */
			p->d.snap.numa_inflight =
				decision_probe_numa_claims(&d->pairs, np->claim_cpu, np->tid,
							   np->partner, np->eval_ns, np->ts_ns);
			d->stats.probe_numa_claim_windows++;
			if (p->d.snap.numa_inflight > 0)
				d->stats.probe_numa_claimed++;
		}
		p->d.snap.known |= SR_SNAP_NUMA_INFLIGHT;
		p->d.partner_tid = np->partner;
		p->resolved = true;
		numa_drop(d, i);
	}
	if (!p->resolved && (p->state == MODEL_TASK_RUNNABLE || p->by_stopper))
		return attach_pass(d, m, p, ev);
	return 0;
}

static int on_stick(struct decision_ctx *d, const struct model *m, const struct sr_event *ev)
{
	const struct sr_ev_numa *n = &ev->u.numa;
	struct pending *p;
	int i;

	p = queue_push(d);
	if (!p)
		return -ENOMEM;
	p->d.src_pos = ev->src_pos;
	fill_snapshot(d, m, &p->d, n->src_pid, NULL, INT32_MIN, n->src_cpu, n->dst_cpu,
		      ev->ts_ns);
	p->task_cpu = task_cpu_of(m, n->src_pid);
	set_class(&p->d, SR_DECISION_CLASS_NUMA_STICK, DECISION_WHY_STICK_NUMA);
	p->d.partner_tid = n->dst_pid > 0 ? n->dst_pid : 0;
	if (n->src_tgid > 0) {
		p->d.snap.tgid = n->src_tgid;
		p->d.snap.known |= SR_SNAP_TGID;
	}
	if (n->src_ngid >= 0) {
		p->d.snap.numa_group = n->src_ngid;
		p->d.snap.known |= SR_SNAP_NUMA_GROUP;
	}
	/* the refused move or swap: its claim, if it was traced, or the state now */
	i = numa_find(d, n->src_pid);
	if (i >= 0) {
		p->d.snap.numa_inflight = d->numa[i].inflight;
		numa_drop(d, i);
		i = n->dst_pid > 0 ? numa_find(d, n->dst_pid) : -1;
		if (i >= 0)
			numa_drop(d, i);
	} else {
		p->d.snap.numa_inflight = n->dst_cpu >= 0 ? numa_claims(d, n->dst_cpu, n->src_pid) : 0;
	}
	p->d.snap.known |= SR_SNAP_NUMA_INFLIGHT;
	p->resolved = true;
	return 0;
}

static int on_numa(struct decision_ctx *d, const struct sr_event *ev)
{
	const struct sr_ev_numa *n = &ev->u.numa;
	struct numa_pending np = { 0 };
	int ret;

	np.ts_ns = ev->ts_ns;
	np.claim_cpu = n->dst_cpu;
	np.inflight = numa_claims(d, n->dst_cpu, n->src_pid);
	np.tid = n->src_pid;
	np.dst_cpu = n->dst_cpu;
	/* made inside the task's own task_numa_migrate(), when the probe is there */
	np.eval_ns = decision_probe_numa_target(&d->pairs, n->src_pid, n->dst_cpu);
	if (ev->kind == SR_EV_MOVE_NUMA) {
		np.cls = SR_DECISION_CLASS_NUMA_MOVE;
		return numa_add(d, &np);
	}
	np.cls = SR_DECISION_CLASS_NUMA_SWAP;
	np.partner = n->dst_pid;
	ret = numa_add(d, &np);
	if (ret < 0 || n->dst_pid <= 0)
		return ret;
	/* the partner goes the other way; the claim is the initiator's */
	np.tid = n->dst_pid;
	np.dst_cpu = n->src_cpu;
	np.partner = n->src_pid;
	return numa_add(d, &np);
}

/* ---- placement: wake-ups and forks (decision-wakeup.c) ----------------- */

static int wake_find(const struct decision_ctx *d, int tid)
{
	int i;

	for (i = 0; i < d->nr_wakes; i++)
		if (d->wakes[i].tid == tid)
			return i;
	return -1;
}

/*
 * *@to = *@from for two decisions whose snapshots are zero beyond what the
 * topology uses (the queue's, wakes[]'s, the session's kept ones): the
 * snapshot's used part, and what follows it whole.
 */
void decision_copy(const struct decision_ctx *d, struct decision *to, const struct decision *from)
{
	decision_snap_copy(&d->snap_layout, &to->snap, &from->snap);
	memcpy((char *)to + sizeof(to->snap), (const char *)from + sizeof(from->snap),
	       sizeof(*to) - sizeof(to->snap));
}

/* what decision_pack() writes first: the layout it packed with */
struct decision_pack_head {
	int32_t	nr_nodes;
	int32_t	nr_cpus;
};

size_t decision_pack_size(const struct decision_ctx *d)
{
	return sizeof(struct decision_pack_head) + sizeof(struct decision) -
	       sizeof(struct sr_snapshot) + decision_snap_used(&d->snap_layout);
}

void decision_pack(const struct decision_ctx *d, void *buf, const struct decision *from)
{
	struct decision_pack_head h = { d->snap_layout.nr_nodes, d->snap_layout.nr_cpus };
	size_t rest = sizeof(*from) - sizeof(from->snap);
	char *b = buf;

	memcpy(b, &h, sizeof(h));
	memcpy(b + sizeof(h), (const char *)from + sizeof(from->snap), rest);
	decision_snap_pack(&d->snap_layout, b + sizeof(h) + rest, &from->snap);
}

void decision_unpack(struct decision_snap_layout *l, struct decision *to, const void *buf)
{
	struct decision_pack_head h;
	size_t rest = sizeof(*to) - sizeof(to->snap);
	const char *b = buf;

	memcpy(&h, b, sizeof(h));
	if (!l->nr_win || h.nr_nodes != l->nr_nodes || h.nr_cpus != l->nr_cpus)
		decision_snap_layout_init(l, h.nr_nodes, h.nr_cpus);
	memcpy((char *)to + sizeof(to->snap), b + sizeof(h), rest);
	decision_snap_unpack(l, &to->snap, b + sizeof(h) + rest);
}

size_t decision_pack_cand_size(const struct decision_ctx *d, int n)
{
	return n > 0 ? (size_t)n * decision_snap_used(&d->snap_layout) : 0;
}

void decision_pack_cand(const struct decision_ctx *d, void *buf, const struct sr_snapshot *from,
			int n)
{
	size_t used = decision_snap_used(&d->snap_layout);
	int i;

	for (i = 0; i < n; i++)
		decision_snap_pack(&d->snap_layout, (char *)buf + (size_t)i * used, &from[i]);
}

void decision_unpack_cand(const struct decision_snap_layout *l, struct sr_snapshot *to,
			  const void *buf, int n)
{
	size_t used = decision_snap_used(l);
	int i;

	for (i = 0; i < n; i++)
		decision_snap_unpack(l, &to[i], (const char *)buf + (size_t)i * used);
}

void decision_copy_snaps(const struct decision_ctx *d, struct sr_snapshot *to,
			 const struct sr_snapshot *from, int n)
{
	int i;

	for (i = 0; i < n; i++)
		decision_snap_copy(&d->snap_layout, &to[i], &from[i]);
}

static void wake_drop(struct decision_ctx *d, int i)
{
	struct pend_wake *to = &d->wakes[i], *from = &d->wakes[d->nr_wakes - 1];

	if (to->claim_cpu >= 0)
		dplace_claim(d->dp, to->claim_cpu, -1);
	if (to->p)
		pool_put(d, to->p);
	if (i != d->nr_wakes - 1)
		*to = *from;
	d->nr_wakes--;
}

/*
 * Move @pw's claim to @cpu (-1: none).  The kernel's rq->ttwu_pending makes
 * the target busy for idle_cpu() from the moment ttwu_queue_wakelist()
 * queues the wake-up until the target's IPI runs it (its sched_wakeup);
 * until select_task_rq() is seen to choose, the target taken is prev,
 * which sched_waking names and a wake-up keeps unless a migration says
 * otherwise.
 */
static void wake_claim(struct decision_ctx *d, struct pend_wake *pw, int cpu)
{
	if (pw->claim_cpu == cpu)
		return;
	if (pw->claim_cpu >= 0)
		dplace_claim(d->dp, pw->claim_cpu, -1);
	pw->claim_cpu = cpu;
	if (cpu >= 0)
		dplace_claim(d->dp, cpu, 1);
}

/*
 * @tid runs, or a stopper moved it: whatever its wake-up left on a
 * wakelist has been delivered, even when no sched_wakeup says so (a
 * sched_waking the kernel settled without one), so its CPU is no longer
 * claimed; the wake-up itself stays open for its decision
 */
static void wake_settled(struct decision_ctx *d, int tid)
{
	int i = tid > 0 ? wake_find(d, tid) : -1;

	if (i >= 0)
		wake_claim(d, &d->wakes[i], -1);
}

static void wake_expire(struct decision_ctx *d, uint64_t now)
{
	int i = 0;

	while (i < d->nr_wakes) {
		if (d->wakes[i].p->d.snap.ts_ns + DECISION_NUMA_WINDOW_NS < now) {
			d->stats.wakeups_no_placement++;
			wake_drop(d, i);
		} else {
			i++;
		}
	}
}

/* the placement block (ABI 1.3 fields and their known bits) of @from into @to */
#define PLACE_KNOWN	(SR_SNAP_PLACE_CPUS | SR_SNAP_WAKER_CPU | SR_SNAP_WAKE_SYNC |	\
			 SR_SNAP_RECENT_USED | SR_SNAP_WAKEE_FLIPS | SR_SNAP_CPU_UTIL |	\
			 SR_SNAP_ALLOWED_CPU)
static void copy_place(struct sr_snapshot *to, const struct sr_snapshot *from)
{
	size_t off = offsetof(struct sr_snapshot, waker_cpu);

	memcpy((char *)to + off, (const char *)from + off, sizeof(*to) - off);
	to->known = (to->known & ~PLACE_KNOWN) | (from->known & PLACE_KNOWN);
}

static const char *comm_of(const struct model *m, int pid)
{
	const struct model_task *t = pid > 0 ? model_task_lookup(m, pid) : NULL;

	return t && (t->known & MODEL_KNOWN_COMM) ? t->comm : NULL;
}

/* sched_waking: the task will be placed, unless nothing moves it (docs/replay.md) */
static int on_waking(struct decision_ctx *d, const struct model *m, const struct sr_event *ev)
{
	const struct sr_ev_wakeup *w = &ev->u.wake;
	const struct model_task *task = model_task_lookup(m, w->pid);
	struct pend_wake *pw;
	int i, ret;

	if (w->pid <= 0 || w->target_cpu < 0 || w->target_cpu >= d->topo->nr_cpus)
		return 0;
	i = wake_find(d, w->pid);
	if (i >= 0)
		wake_drop(d, i);
	/* ttwu_runnable(): still on its runqueue; or bound to one CPU */
	if ((task && (task->known & MODEL_KNOWN_STATE) &&
	     (task->state == MODEL_TASK_RUNNING || task->state == MODEL_TASK_RUNNABLE)) ||
	    dplace_percpu_kthread(w->comm, sizeof(w->comm))) {
		d->stats.wakeups_no_placement++;
		return 0;
	}
	if (d->nr_wakes == d->wakes_cap) {
		int cap = d->wakes_cap ? d->wakes_cap * 2 : 16;
		struct pend_wake *n = realloc(d->wakes, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		d->wakes = n;
		d->wakes_cap = cap;
	}
	pw = &d->wakes[d->nr_wakes];
	memset(pw, 0, sizeof(*pw));
	if (!(pw->p = pool_get_clear(d)))
		return -ENOMEM;
	d->nr_wakes++;
	pw->tid = w->pid;
	pw->waker_cpu = ev->cpu;
	pw->prev = w->target_cpu;
	pw->claim_cpu = -1;
	pw->p->d.src_pos = ev->src_pos;
	fill_snapshot(d, m, &pw->p->d, w->pid, w->comm, w->prio, w->target_cpu, w->target_cpu,
		      ev->ts_ns);
	/* record_wakee() is in select_task_rq_fair(), which a task bound to one CPU skips */
	ret = dplace_fill(d->dp, m, d->topo, &pw->p->d.snap, ev->cpu, ev->pid, comm_of(m, ev->pid),
			  !bound_to_one(task));
	fill_allowed(m, &pw->p->d.snap, w->pid);
	wake_claim(d, pw, w->target_cpu);
	return ret;
}

/* a select_task_rq_fair() return: the kernel's own placement */
static void on_strf(struct decision_ctx *d, const struct decision_probe_entry *e,
		    const struct sr_ev_probe *ret)
{
	int pid, flags, cpu, i;

	if (!sr_probe_has(&e->pr, SR_PF_PID) || !sr_probe_has(ret, SR_PF_RET) ||
	    !sr_probe_has(&e->pr, SR_PF_WAKE_FLAGS))
		return;
	pid = (int)e->pr.v[SR_PF_PID];
	flags = (int)e->pr.v[SR_PF_WAKE_FLAGS];
	cpu = (int)ret->v[SR_PF_RET];
	d->have_strf = true;
	if (flags & DPLACE_WF_TTWU) {
		i = wake_find(d, pid);
		if (i < 0) {
			d->stats.place_truth_unmatched++;
			return;
		}
		d->wakes[i].strf = true;
		d->wakes[i].strf_ret = cpu;
		d->wakes[i].p->d.snap.wake_sync = !!(flags & DPLACE_WF_SYNC);
		d->wakes[i].p->d.snap.known |= SR_SNAP_WAKE_SYNC;
		if (cpu >= 0)
			wake_claim(d, &d->wakes[i], cpu);
	} else if (flags & (DPLACE_WF_FORK | DPLACE_WF_EXEC)) {
		struct strf_seen *sl = &d->fork_strf[d->fork_strf_next++ % FORK_STRF_SLOTS];

		sl->pid = pid;
		sl->ret = cpu;
		sl->flags = flags;
	}
}

static void wake_truth(struct decision *dec, const struct pend_wake *pw)
{
	if (pw->strf) {
		dec->has_place_truth = true;
		dec->place_truth_cpu = pw->strf_ret;
	}
}

/* a migration the waker's select_task_rq() made (P.6: same CPU, orig = prev) */
static int wake_migrated(struct decision_ctx *d, struct pending *p, const struct sr_event *ev)
{
	int i = wake_find(d, ev->u.mig.pid);
	struct pend_wake *pw;

	if (i < 0)
		return 0;
	pw = &d->wakes[i];
	if (pw->migrated || ev->cpu != pw->waker_cpu || ev->u.mig.orig_cpu != pw->prev)
		return 0;
	copy_place(&p->d.snap, &pw->p->d.snap);
	set_class(&p->d, SR_DECISION_CLASS_WAKEUP, DECISION_WHY_WAKING);
	wake_truth(&p->d, pw);
	p->resolved = true;
	pw->migrated = true;
	if (!pw->strf)
		wake_claim(d, pw, ev->u.mig.dest_cpu);
	return dplace_placed(d->dp, pw->tid, &p->d.snap, ev->u.mig.dest_cpu, false);
}

/*
 * The waker of a wake-up logged on its target @cpu, with no sched_waking to
 * say where it ran: ttwu_queue() runs the wake-up on the waker's CPU, which
 * logs it, unless ttwu_queue_cond() sends it to @cpu's wakelist.  From 6.0
 * (f3dd3f674555) that happens for a waker sharing @cpu's cache only when
 * @cpu's runqueue is empty (the wakee is not on it).  So when the model has
 * @cpu running or queueing a task, the waker ran on @cpu itself or outside
 * its LLC (a node, as the policies take it): the CPUs of the node but @cpu
 * are ruled out (SR_PCPU_NOT_WAKER).  Earlier kernels, or an unknown
 * release, rule nothing out.
 */
static void narrow_waker(const struct decision_ctx *d, const struct model *m,
			 struct sr_snapshot *s, int cpu)
{
	const struct model_cpu *mc = model_cpu_get(m, cpu);
	int c, node = topo_cpu_node(d->topo, cpu);

	s->known &= ~SR_SNAP_WAKER_CPU;
	if (!d->wakelist_idle || !(s->known & SR_SNAP_PLACE_CPUS) || node < 0 || !mc ||
	    !mc->known || mc->curr < 0 || (mc->curr == 0 && mc->nr_runnable <= 0))
		return;
	for (c = 0; c < s->nr_cpus; c++)
		if (c != cpu && s->cpu_node[c] == node)
			s->cpu_flags[c] |= SR_PCPU_NOT_WAKER;
}

void decision_set_kernel(struct decision_ctx *d, const char *release)
{
	int major = 0, minor = 0;

	d->wakelist_idle = release && sscanf(release, "%d.%d", &major, &minor) == 2 &&
			   major * 1000 + minor >= 6000;
}

/*
 * A sched_wakeup no sched_waking announced (traces without sched_waking):
 * the migration it settled gets its placement block, from the CPU that
 * logged it (the waker's); a wake-up that kept prev is a decision of its
 * own, the waker's CPU known only when the event was logged elsewhere than
 * on the target (otherwise it may be the wakelist IPI's).
 */
static int wakeup_unannounced(struct decision_ctx *d, const struct model *m,
			      const struct sr_event *ev)
{
	const struct sr_ev_wakeup *w = &ev->u.wake;
	const struct model_task *task = model_task_lookup(m, w->pid);
	struct pending *p;
	size_t i;
	int ret, prev;

	if (w->pid <= 0 || w->target_cpu < 0 || w->target_cpu >= d->topo->nr_cpus || d->have_strf)
		return 0;
	for (i = d->tail; i > d->head; i--) {
		p = d->queue[i - 1].p;	/* a packed one is no DECISION_WHY_WAKEUP */
		if (p && p->d.snap.tid == w->pid && p->d.snap.decision_class == SR_DECISION_CLASS_WAKEUP &&
		    p->d.why == DECISION_WHY_WAKEUP && !(p->d.snap.known & SR_SNAP_WAKER_CPU)) {
			ret = dplace_fill(d->dp, m, d->topo, &p->d.snap, p->ev_cpu,
					  model_cpu_get(m, p->ev_cpu) ? model_cpu_get(m, p->ev_cpu)->curr : 0,
					  NULL, !bound_to_one(task));
			if (ret < 0)
				return ret;
			fill_allowed(m, &p->d.snap, w->pid);
			return dplace_placed(d->dp, w->pid, &p->d.snap, p->d.snap.dst_cpu, false);
		}
	}
	if (!task || !(task->known & MODEL_KNOWN_STATE) || !(task->known & MODEL_KNOWN_CPU) ||
	    task->state == MODEL_TASK_RUNNING || task->state == MODEL_TASK_RUNNABLE ||
	    task->cpu != w->target_cpu || dplace_percpu_kthread(w->comm, sizeof(w->comm))) {
		if (task && task->state == MODEL_TASK_SLEEPING)
			d->stats.wakeups_no_placement++;
		return 0;
	}
	prev = task->cpu;
	p = queue_push(d);
	if (!p)
		return -ENOMEM;
	p->d.src_pos = ev->src_pos;
	fill_snapshot(d, m, &p->d, w->pid, w->comm, w->prio, prev, prev, ev->ts_ns);
	ret = dplace_fill(d->dp, m, d->topo, &p->d.snap, ev->cpu, ev->pid, comm_of(m, ev->pid),
			  !bound_to_one(task));
	if (ret < 0)
		return ret;
	fill_allowed(m, &p->d.snap, w->pid);
	if (ev->cpu == w->target_cpu)
		narrow_waker(d, m, &p->d.snap, w->target_cpu);
	p->task_cpu = prev;
	p->state = MODEL_TASK_SLEEPING;
	set_class(&p->d, SR_DECISION_CLASS_WAKEUP, DECISION_WHY_WAKING_STAYED);
	p->resolved = true;
	return dplace_placed(d->dp, w->pid, &p->d.snap, prev, false);
}

/* sched_wakeup: a wake-up that stayed on prev is a decision of its own */
static int on_wakeup(struct decision_ctx *d, const struct model *m, const struct sr_event *ev)
{
	int i = wake_find(d, ev->u.wake.pid), target = ev->u.wake.target_cpu;
	struct pend_wake *pw;
	struct pending *p;
	struct decision *dec;
	struct sr_snapshot *s;
	int ret;

	if (i < 0)
		return wakeup_unannounced(d, m, ev);
	pw = &d->wakes[i];
	if (pw->migrated || (d->have_strf && !pw->strf) || target < 0 ||
	    target >= d->topo->nr_cpus) {
		if (!pw->migrated)
			d->stats.wakeups_no_placement++;
		wake_drop(d, i);
		return 0;
	}
	/* the decision is the one built at the sched_waking, which goes now */
	dec = &pw->p->d;
	s = &dec->snap;
	/* dated at its sched_wakeup: after every decision emitted before it (docs/replay.md) */
	s->ts_ns = ev->ts_ns;
	if (target != pw->prev) {
		/* moved without a sched_migrate_task seen (lost events) */
		s->dst_cpu = target;
		s->dst_node = topo_cpu_node(d->topo, target);
		s->cross_node = s->src_node != s->dst_node;
		set_class(dec, SR_DECISION_CLASS_WAKEUP, DECISION_WHY_WAKING);
	} else {
		set_class(dec, SR_DECISION_CLASS_WAKEUP, DECISION_WHY_WAKING_STAYED);
	}
	wake_truth(dec, pw);
	ret = dplace_placed(d->dp, pw->tid, s, target, false);
	if (queue_push_packed(d, dec, pw->prev, MODEL_TASK_SLEEPING)) {
		/* the pending decision itself goes into the queue */
		p = queue_push_given(d, pw->p);
		if (!p)
			return -ENOMEM;
		pw->p = NULL;
		p->task_cpu = pw->prev;
		p->state = MODEL_TASK_SLEEPING;
		p->resolved = true;
		queue_pack(d);	/* a DECISION_WHY_WAKING(_STAYED): no later event changes it */
	}
	wake_drop(d, i);
	return ret;
}

/* sched_wakeup_new: the child's CPU is the fork decision (no migration since ~v4.8) */
static int on_wakeup_new(struct decision_ctx *d, const struct model *m, const struct sr_event *ev)
{
	const struct sr_ev_wakeup *w = &ev->u.wake;
	struct pending *p;
	size_t q;
	int i, ret;

	if (w->pid <= 0 || w->target_cpu < 0 || w->target_cpu >= d->topo->nr_cpus ||
	    ev->cpu < 0 || ev->cpu >= d->topo->nr_cpus)
		return 0;
	/* 4.1-4.7 log the fork's move: that migration, classified just now, is the decision */
	for (q = d->tail; q > d->head; q--) {
		p = d->queue[q - 1].p;	/* a packed one is no DECISION_WHY_WAKEUP_NEW */
		if (p && p->d.snap.tid == w->pid && p->d.why == DECISION_WHY_WAKEUP_NEW &&
		    !(p->d.snap.known & SR_SNAP_WAKER_CPU)) {
			ret = dplace_fill(d->dp, m, d->topo, &p->d.snap, ev->cpu, ev->pid,
					  comm_of(m, ev->pid), false);
			fill_allowed(m, &p->d.snap, w->pid);
			return ret;
		}
	}
	p = queue_push(d);
	if (!p)
		return -ENOMEM;
	p->d.src_pos = ev->src_pos;
	fill_snapshot(d, m, &p->d, w->pid, w->comm, w->prio, ev->cpu, w->target_cpu, ev->ts_ns);
	ret = dplace_fill(d->dp, m, d->topo, &p->d.snap, ev->cpu, ev->pid, comm_of(m, ev->pid),
			  false);
	if (ret < 0)
		return ret;
	fill_allowed(m, &p->d.snap, w->pid);
	p->task_cpu = ev->cpu;
	p->state = MODEL_TASK_RUNNABLE;
	set_class(&p->d, SR_DECISION_CLASS_FORK, DECISION_WHY_WAKEUP_NEW);
	for (i = 0; i < FORK_STRF_SLOTS; i++)
		if (d->fork_strf[i].pid == w->pid && (d->fork_strf[i].flags & DPLACE_WF_FORK)) {
			p->d.has_place_truth = true;
			p->d.place_truth_cpu = d->fork_strf[i].ret;
			d->fork_strf[i].pid = 0;
			break;
		}
	p->resolved = true;
	return dplace_placed(d->dp, w->pid, &p->d.snap, w->target_cpu, true);
}

/* ---- the decision probes ----------------------------------------------- */

static int note_allowed(struct decision_ctx *d, int cpu, const struct decision_probe_entry *e)
{
	int n;

	if (cpu < 0 || cpu >= TOPO_MAX_CPUS)
		return 0;
	if (cpu >= d->nr_allowed) {
		struct decision_probe_entry *a;

		n = cpu + 1 > 2 * d->nr_allowed ? cpu + 1 : 2 * d->nr_allowed;
		a = realloc(d->allowed, n * sizeof(*a));
		if (!a)
			return -ENOMEM;
		memset(a + d->nr_allowed, 0, (n - d->nr_allowed) * sizeof(*a));
		d->allowed = a;
		d->nr_allowed = n;
	}
	d->allowed[cpu] = *e;
	d->allowed[cpu].open = true;
	return 0;
}

/* a can_migrate_task() entry and its return: one load-balance decision */
static int on_candidate(struct decision_ctx *d, const struct model *m, const struct sr_event *ev,
			const struct decision_probe_entry *e)
{
	const struct sr_ev_probe *pr = &e->pr;
	struct sr_ev_probe ret;
	struct pending *p;
	int pid, src, dst;

	ingest_probe_get(ev, &ret);
	if (!sr_probe_has(pr, SR_PF_PID) || !sr_probe_has(pr, SR_PF_SRC_CPU) ||
	    !sr_probe_has(pr, SR_PF_DST_CPU) || !sr_probe_has(&ret, SR_PF_RET) ||
	    pr->v[SR_PF_SRC_CPU] < 0 || pr->v[SR_PF_SRC_CPU] >= d->topo->nr_cpus ||
	    pr->v[SR_PF_DST_CPU] < 0 || pr->v[SR_PF_DST_CPU] >= d->topo->nr_cpus ||
	    pr->v[SR_PF_PID] <= 0 || pr->v[SR_PF_PID] > INT32_MAX) {
		/* without the task, CPUs of this machine or the verdict it is no decision */
		d->stats.probe_unusable++;
		return 0;
	}
	pid = (int)pr->v[SR_PF_PID];
	src = (int)pr->v[SR_PF_SRC_CPU];
	dst = (int)pr->v[SR_PF_DST_CPU];
	d->stats.probe_candidates++;
	p = queue_push(d);
	if (!p)
		return -ENOMEM;
	p->d.src_pos = e->src_pos;
	/* only CFS tasks are candidates: prio 120 stands for "fair" */
	fill_snapshot(d, m, &p->d, pid, NULL, 120, src, dst, e->ts_ns);
	p->task_cpu = task_cpu_of(m, pid);
	decision_probe_apply(&p->d.snap, pr, d->pairs.se_off);
	if (decision_probe_is_active(pr))
		set_class(&p->d, SR_DECISION_CLASS_LB_ACTIVE, DECISION_WHY_CANDIDATE);
	else
		set_class(&p->d, SR_DECISION_CLASS_LB_PULL, DECISION_WHY_CANDIDATE);
	p->d.has_truth = true;
	p->d.truth = ret.v[SR_PF_RET] != 0;
	p->resolved = true;
	if (p->d.truth)
		return note_allowed(d, ev->cpu, e);
	return 0;
}

static int on_probe(struct decision_ctx *d, const struct model *m, const struct sr_event *ev)
{
	const struct decision_probe_entry *e;
	struct sr_ev_probe pr;
	uint64_t len;

	ingest_probe_get(ev, &pr);
	switch (ev->kind) {
	case SR_EV_CMT:
	case SR_EV_STRF:
		return decision_probe_enter(&d->pairs, ev, &pr);
	case SR_EV_TNM:
		/* the faulting task's own call: common_pid is the task */
		return decision_probe_tnm_enter(&d->pairs, ev->pid, ev->ts_ns);
	case SR_EV_CMT_RET:
		e = decision_probe_leave(&d->pairs, ev, SR_EV_CMT);
		return e ? on_candidate(d, m, ev, e) : 0;
	case SR_EV_STRF_RET:
		e = decision_probe_leave(&d->pairs, ev, SR_EV_STRF);
		if (e) {
			d->stats.probe_placements++;
			on_strf(d, e, &pr);
		}
		return 0;
	case SR_EV_TNM_RET:
		if (decision_probe_tnm_leave(&d->pairs, ev->pid, ev->ts_ns, &len)) {
			d->stats.probe_numa_windows++;
			d->stats.probe_numa_window_ns += len;
			if (len > d->stats.probe_numa_window_max_ns)
				d->stats.probe_numa_window_max_ns = len;
		}
		return 0;
	default:
		return 0;
	}
}

static void sync_probe_damage(struct decision_ctx *d)
{
	d->stats.probe_returns_without_entry = d->pairs.returns_without_entry;
	d->stats.probe_unpaired_entries += d->pairs.unpaired_entries;
	d->pairs.unpaired_entries = 0;
}

/* grow_cpus() when the arrays are too short */
static __attribute__((noinline)) int grow_cpus_to(struct decision_ctx *d, int cpu)
{
	int n = cpu + 1 > 2 * d->nr_lost_cpus ? cpu + 1 : 2 * d->nr_lost_cpus;
	uint64_t *l;

	l = realloc(d->seen_ts, n * sizeof(*l));
	if (!l)
		return -ENOMEM;
	memset(l + d->nr_lost_cpus, 0, (n - d->nr_lost_cpus) * sizeof(*l));
	d->seen_ts = l;
	l = realloc(d->lost_ts, n * sizeof(*l));
	if (!l)
		return -ENOMEM;
	memset(l + d->nr_lost_cpus, 0, (n - d->nr_lost_cpus) * sizeof(*l));
	d->lost_ts = l;
	d->nr_lost_cpus = n;
	return 0;
}

/* room for @cpu in the per-CPU arrays (lost_ts, seen_ts): asked at every event */
static inline int grow_cpus(struct decision_ctx *d, int cpu)
{
	return cpu < d->nr_lost_cpus ? 0 : grow_cpus_to(d, cpu);
}

static int note_lost(struct decision_ctx *d, int cpu, uint64_t ts)
{
	if (cpu < 0)
		return 0;
	if (grow_cpus(d, cpu) < 0)
		return -ENOMEM;
	d->lost_ts[cpu] = ts + 1;
	return 0;
}

/* an event on @cpu: seen from here (after the evidence read its gap) */
static int note_seen(struct decision_ctx *d, int cpu, uint64_t ts)
{
	if (!d->started) {
		d->started = true;
		d->first_ns = ts;
	}
	if (cpu < 0 || cpu >= TOPO_MAX_CPUS)
		return 0;
	if (grow_cpus(d, cpu) < 0)
		return -ENOMEM;
	if (ts + 1 > d->seen_ts[cpu])
		d->seen_ts[cpu] = ts + 1;
	return 0;
}

int decision_feed(struct decision_ctx *d, const struct model *m, const struct sr_event *ev)
{
	int ret = 0;

	if (ev->ts_ns > d->now_ns)
		d->now_ns = ev->ts_ns;
	/* the topology grows (never shrinks) as CPUs turn up: so may the used part */
	decision_snap_layout_grow(&d->snap_layout, d->topo->nr_nodes, d->topo->nr_cpus);
	/* what is out of time is settled before this event can count for it */
	ret = queue_drain_due(d, d->now_ns);
	if (ret < 0)
		return ret;
	queue_evidence(d, ev);
	ret = note_seen(d, ev->cpu, ev->ts_ns);
	if (ret < 0)
		return ret;
	wake_expire(d, d->now_ns);
	switch (ev->kind) {
	case SR_EV_MIGRATE:
		ret = on_migrate(d, m, ev);
		break;
	case SR_EV_SWITCH:
		wake_settled(d, ev->u.sw.next_pid);
		break;
	case SR_EV_STICK_NUMA:
		ret = on_stick(d, m, ev);
		break;
	case SR_EV_MOVE_NUMA:
	case SR_EV_SWAP_NUMA:
		ret = on_numa(d, ev);
		break;
	case SR_EV_EXEC:
		d->exec_seq++;
		break;
	case SR_EV_WAKEUP:
		ret = note_stopper_wake(d, ev);
		if (!ret)
			ret = on_wakeup(d, m, ev);
		break;
	case SR_EV_WAKING:
		ret = on_waking(d, m, ev);
		break;
	case SR_EV_WAKEUP_NEW:
		ret = on_wakeup_new(d, m, ev);
		break;
	case SR_EV_LOST:
		ret = note_lost(d, ev->cpu, ev->ts_ns);
		decision_probe_lost(&d->pairs, ev->cpu);
		if (ev->cpu >= 0 && ev->cpu < d->nr_allowed)
			d->allowed[ev->cpu].open = false;
		break;
	case SR_EV_PRINT:
		if (ev->marker == SR_MARK_PROBE)
			decision_probe_marker(&d->pairs, ev);
		break;
	default:
		if (ingest_kind_is_probe(ev->kind))
			ret = on_probe(d, m, ev);
		break;
	}
	if (ret < 0)
		return ret;
	sync_probe_damage(d);
	numa_expire(d, d->now_ns);
	ret = dplace_feed(d->dp, ev);
	if (ret < 0)
		return ret;
	return queue_drain_due(d, d->now_ns);
}

int decision_finish(struct decision_ctx *d)
{
	decision_probe_finish(&d->pairs);
	sync_probe_damage(d);
	return queue_drain(d, d->now_ns, true);
}
