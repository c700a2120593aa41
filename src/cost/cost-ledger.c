// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cost-ledger.c - per-task intervals between decisions, priced with the
 * functions of cost.c; see cost-ledger.h for the flow.
 *
 * Per task: a short array of intervals in time order.  The last one is
 * open (accumulating the task's faults) unless the task exited; earlier
 * ones are closed and wait for their decision (the classifier emits a
 * decision up to DECISION_NUMA_WINDOW_NS after it happened).  An interval
 * starts at a sched_migrate_task or sched_stick_numa of the task: exactly
 * the events decisions are made of, so a decision finds its interval by
 * its timestamp.  The task table is open addressing by tid.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost-ledger.h"
#include "ingest/marker.h"

/*
 * A decision comes to the ledger up to DECISION_NUMA_WINDOW_NS after its
 * event, and a task another side pulls instead is priced from the
 * decision's time: per task, its last RING_MARKS faults and decision
 * boundaries, replayed when such a part starts.
 */
#define RING_MARKS	32

enum mark_kind { MARK_PRICED, MARK_UNPRICED, MARK_NEXT, MARK_EXIT };

struct mark {
	uint64_t		ts;
	int			kind;
};

/* a task a side pulled instead (a cost_part but part[0]) while its interval is open */
struct rider {
	bool			used;
	bool			closed;
	int			tid;
	int			owner_tid;
	uint64_t		owner_seq;
	uint64_t		start_ns;
	uint64_t		end_ns;
	int			end;
	double			priced;
	double			unpriced;
	bool			short_history;
	double			*acc;		/* nr_nodes */
};

#define ACC_INLINE	8

struct interval {
	uint64_t		start_ns;
	uint64_t		end_ns;
	bool			closed;
	bool			decided;
	bool			by_decision;	/* opened by cost_ledger_decide() before its event */
	int			end;
	double			priced;
	double			unpriced;
	struct cost_item	item;
	int			rider[COST_MAX_PARTS];	/* part k's rider index (k >= 1) */
	int			waiting;	/* riders still open */
	/*
	 * nr_nodes accesses, in acc_in on a machine of up to ACC_INLINE
	 * nodes (acc NULL: one calloc() and free() a decision fewer), else
	 * in acc; iv_acc() says which
	 */
	double			*acc;
	double			acc_in[ACC_INLINE];
};

static double *iv_acc(struct interval *iv)
{
	return iv->acc ? iv->acc : iv->acc_in;
}

struct ltask {
	int			tid;
	bool			used;
	struct interval		*iv;
	int			nr;
	int			cap;
	struct cost_task	sum;
	int			riders;		/* its open riders */
	struct mark		*ring;		/* RING_MARKS, oldest at ring_head */
	double			*ring_sh;	/* RING_MARKS x nr_nodes: a priced fault's shares */
	int			ring_nr;
	int			ring_head;
	bool			ring_lost;	/* a mark was overwritten */
};

struct cost_ledger {
	const struct topo	*topo;
	int			nr_nodes;
	double			*ratio;		/* r(c,k), cost.h */
	cost_done_fn		done;
	cost_release_fn		release;
	void			*arg;
	struct cost_totals	tot;
	struct ltask		*tasks;
	size_t			tasks_cap;
	size_t			tasks_used;
	bool			in_window;	/* between vmstat start and end (or no lines) */
	double			*shares;	/* scratch */
	struct rider		*riders;
	int			nr_riders;
	int			riders_cap;
};

static const char *const unknown_names[COST_UNKNOWN__COUNT] = {
	[COST_UNKNOWN_NONE]		= "none",
	[COST_UNKNOWN_NO_FAULTS]	= "no-fault-events",
	[COST_UNKNOWN_PLACEMENT]	= "placement-unknown",
	[COST_UNKNOWN_INTERVAL]		= "no-interval",
};

const char *cost_unknown_name(int why)
{
	return why >= 0 && why < COST_UNKNOWN__COUNT ? unknown_names[why] : "invalid";
}

const char *cost_end_name(int end)
{
	switch (end) {
	case COST_END_NEXT:
		return "next-decision";
	case COST_END_EXIT:
		return "exit";
	case COST_END_TRACE:
		return "trace-end";
	default:
		return "invalid";
	}
}

int cost_verdict_node(const struct sr_snapshot *s, const struct sr_verdict *v)
{
	switch (v->verdict) {
	case SR_VERDICT_ALLOW:
		return (s->known & SR_SNAP_DST_NODE) ? s->dst_node : -1;
	case SR_VERDICT_RESIST:
		if (v->target_node >= 0)
			return v->target_node;
		return (s->known & SR_SNAP_SRC_NODE) ? s->src_node : -1;
	default:
		return -1;
	}
}

int cost_choice_node(const struct sr_snapshot *s, const struct decision_choice *c)
{
	switch (c->kind) {
	case DECISION_CHOICE_TASK:
		if (c->tid == s->tid)
			return (s->known & SR_SNAP_DST_NODE) ? s->dst_node : -1;
		/* it pulls another: this one stays */
		return (s->known & SR_SNAP_SRC_NODE) ? s->src_node : -1;
	case DECISION_CHOICE_NONE:
		return (s->known & SR_SNAP_SRC_NODE) ? s->src_node : -1;
	case DECISION_CHOICE_PLACE:
		return c->node;
	default:
		return -1;
	}
}

int cost_trace_node(const struct sr_snapshot *s)
{
	if (s->decision_class == SR_DECISION_CLASS_NUMA_STICK)
		return (s->known & SR_SNAP_SRC_NODE) ? s->src_node : -1;
	return (s->known & SR_SNAP_DST_NODE) ? s->dst_node : -1;
}

/* does a task ever run on node @node: does it hold a CPU */
static bool node_has_cpu(const struct topo *topo, int node)
{
	int c;

	for (c = 0; c < topo->nr_cpus; c++)
		if (topo->cpu_node[c] == node)
			return true;
	return false;
}

/*
 * r(c,k) for every pair: the measured profile's ratio when it covers every
 * pair a task can be priced on (a node with CPUs to a present node), else
 * the high prior (the distances) throughout, with the pairs it lacked
 * counted.
 */
static void set_ratios(struct cost_ledger *l, const struct topo *topo, int n)
{
	int *dist = l->tot.latency_dist;
	int a, b, need = 0, have = 0;

	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++)
			dist[a * n + b] = topo->nr_nodes > 0 ? topo_distance(topo, a, b) :
					  COST_LOCAL_DISTANCE;
	for (a = 0; a < n && topo->latency; a++) {
		if (!node_has_cpu(topo, a))
			continue;
		for (b = 0; b < n; b++) {
			if (!topo_node_present(topo, b))
				continue;
			need++;
			have += topo_latency_ratio(topo, a, b) > 0;
		}
	}
	l->tot.latency = topo->latency && need && have == need ? COST_LATENCY_MEASURED :
			 COST_LATENCY_PRIOR;
	l->tot.latency_missing = topo->latency ? need - have : 0;
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++)
			l->ratio[a * n + b] = l->tot.latency == COST_LATENCY_MEASURED &&
					      topo_latency_ratio(topo, a, b) > 0 ?
					      topo_latency_ratio(topo, a, b) :
					      cost_ratio_from_distance(dist, n, a, b);
	l->tot.ratio = l->ratio;
}

struct cost_ledger *cost_ledger_new(const struct topo *topo, cost_done_fn done,
				    cost_release_fn release, void *arg)
{
	struct cost_ledger *l = calloc(1, sizeof(*l));
	int n = topo->nr_nodes > 0 ? topo->nr_nodes : 1, s;

	if (!l)
		return NULL;
	if (n > COST_MAX_NODES)
		n = COST_MAX_NODES;	/* cost_of() prices at most 64 nodes, as snapshots hold */
	l->topo = topo;
	l->nr_nodes = n;
	l->done = done;
	l->release = release;
	l->arg = arg;
	l->in_window = true;
	l->tot.nr_nodes = n;
	l->ratio = calloc((size_t)n * n, sizeof(*l->ratio));
	l->tot.actual = calloc((size_t)n * n, sizeof(double));
	l->tot.latency_dist = calloc((size_t)n * n, sizeof(int));
	for (s = 0; s < COST__SIDES; s++)
		l->tot.matrix[s] = calloc((size_t)n * n, sizeof(double));
	if (!l->ratio || !l->tot.latency_dist || !l->tot.actual || !l->tot.matrix[0] || !l->tot.matrix[1] ||
	    !l->tot.matrix[2]) {
		cost_ledger_free(l);
		return NULL;
	}
	set_ratios(l, topo, n);
	return l;
}

static void task_clear(struct cost_ledger *l, struct ltask *t)
{
	int i;

	for (i = 0; i < t->nr; i++) {
		if (t->iv[i].decided && t->iv[i].item.user && l->release)
			l->release(t->iv[i].item.user);
		free(t->iv[i].acc);
	}
	free(t->iv);
	t->iv = NULL;
	t->nr = t->cap = 0;
	free(t->ring);
	free(t->ring_sh);
	t->ring = NULL;
	t->ring_sh = NULL;
}

void cost_ledger_free(struct cost_ledger *l)
{
	size_t i;
	int s;

	if (!l)
		return;
	for (i = 0; i < l->tasks_cap; i++)
		if (l->tasks[i].used)
			task_clear(l, &l->tasks[i]);
	free(l->tasks);
	for (i = 0; i < (size_t)l->nr_riders; i++)
		free(l->riders[i].acc);
	free(l->riders);
	free(l->ratio);
	free(l->tot.actual);
	free(l->tot.latency_dist);
	for (s = 0; s < COST__SIDES; s++)
		free(l->tot.matrix[s]);
	free(l);
}

const struct cost_totals *cost_ledger_totals(const struct cost_ledger *l)
{
	return &l->tot;
}

void cost_ledger_set_vmstat(struct cost_ledger *l, int64_t faults_before, int64_t local_before,
			    int64_t faults_after, int64_t local_after)
{
	struct cost_calibration *c = &l->tot.cal;

	if (c->have_start || c->have_end)
		return;	/* the trace's own lines are closer to the events */
	c->have_start = c->have_end = true;
	c->vm_faults_start = faults_before;
	c->vm_local_start = local_before;
	c->vm_faults_end = faults_after;
	c->vm_local_end = local_after;
}

/* ---- the task table ------------------------------------------------------ */

static uint64_t hash_tid(int tid)
{
	return (uint64_t)(uint32_t)tid * 0x9e3779b97f4a7c15ull;
}

/* @tid's slot in the table, or the free one where it would go */
static size_t task_slot(const struct cost_ledger *l, int tid)
{
	size_t i = (hash_tid(tid) >> 20) & (l->tasks_cap - 1);

	while (l->tasks[i].used && l->tasks[i].tid != tid)
		i = (i + 1) & (l->tasks_cap - 1);
	return i;
}

static struct ltask *task_get(struct cost_ledger *l, int tid)
{
	size_t i;

	if ((l->tasks_used + 1) * 2 > l->tasks_cap) {
		size_t cap = l->tasks_cap ? l->tasks_cap * 2 : 256, j;
		struct ltask *n = calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (j = 0; j < l->tasks_cap; j++) {
			if (!l->tasks[j].used)
				continue;
			i = (hash_tid(l->tasks[j].tid) >> 20) & (cap - 1);
			while (n[i].used)
				i = (i + 1) & (cap - 1);
			n[i] = l->tasks[j];
		}
		free(l->tasks);
		l->tasks = n;
		l->tasks_cap = cap;
	}
	i = task_slot(l, tid);
	if (!l->tasks[i].used) {
		l->tasks[i].used = true;
		l->tasks[i].tid = tid;
		l->tasks[i].sum.tid = tid;
		l->tasks_used++;
	}
	return &l->tasks[i];
}

/* @tid's entry when it has one; never grows the table (pointers into it stay valid) */
static struct ltask *task_find(struct cost_ledger *l, int tid)
{
	size_t i;

	if (!l->tasks_cap)
		return NULL;
	i = task_slot(l, tid);
	return l->tasks[i].used ? &l->tasks[i] : NULL;
}

static struct interval *open_iv(struct ltask *t)
{
	return t->nr && !t->iv[t->nr - 1].closed ? &t->iv[t->nr - 1] : NULL;
}

static struct interval *iv_push(struct cost_ledger *l, struct ltask *t, uint64_t ts)
{
	struct interval *iv;

	if (t->nr == t->cap) {
		int cap = t->cap ? t->cap * 2 : 2;

		iv = realloc(t->iv, (size_t)cap * sizeof(*iv));
		if (!iv)
			return NULL;
		t->iv = iv;
		t->cap = cap;
	}
	iv = &t->iv[t->nr];
	memset(iv, 0, sizeof(*iv));
	if (l->nr_nodes > ACC_INLINE && !(iv->acc = calloc((size_t)l->nr_nodes, sizeof(double))))
		return NULL;
	iv->start_ns = ts;
	t->nr++;
	return iv;
}

static void iv_remove(struct ltask *t, int i)
{
	free(t->iv[i].acc);
	memmove(&t->iv[i], &t->iv[i + 1], (size_t)(t->nr - i - 1) * sizeof(t->iv[0]));
	t->nr--;
}

/* ---- the tasks a side pulled instead ------------------------------------- */

/* remember a fault (@sh: its shares, NULL unpriced) or a boundary of @t */
static int ring_push(struct cost_ledger *l, struct ltask *t, uint64_t ts, int kind,
		     const double *sh)
{
	int i;

	if (!t->ring) {
		t->ring = calloc(RING_MARKS, sizeof(*t->ring));
		t->ring_sh = calloc((size_t)RING_MARKS * l->nr_nodes, sizeof(double));
		if (!t->ring || !t->ring_sh)
			return -ENOMEM;
	}
	if (t->ring_nr == RING_MARKS) {
		t->ring_head = (t->ring_head + 1) % RING_MARKS;
		t->ring_nr--;
		t->ring_lost = true;
	}
	i = (t->ring_head + t->ring_nr++) % RING_MARKS;
	t->ring[i].ts = ts;
	t->ring[i].kind = kind;
	if (sh)
		memcpy(&t->ring_sh[(size_t)i * l->nr_nodes], sh, (size_t)l->nr_nodes * sizeof(double));
	return 0;
}

static void rider_close(struct rider *r, uint64_t ts, int end)
{
	r->closed = true;
	r->end_ns = ts >= r->start_ns ? ts : r->start_ns;
	r->end = end;
}

/* the fault's shares (@sh, NULL unpriced) to every open rider of @tid */
static void riders_fault(struct cost_ledger *l, int tid, const double *sh)
{
	int i;

	for (i = 0; i < l->nr_riders; i++) {
		struct rider *r = &l->riders[i];

		if (!r->used || r->closed || r->tid != tid)
			continue;
		if (sh) {
			cost_accumulate(r->acc, sh, l->nr_nodes, 1.0);
			r->priced += 1;
		} else {
			r->unpriced += 1;
		}
	}
}

static int settle(struct cost_ledger *l, struct ltask *t, bool final);

/* @tid's next decision (or exit, or the end): its riders close, their owners may settle */
static int riders_close(struct cost_ledger *l, struct ltask *t, uint64_t ts, int end)
{
	int i, j, ret;

	for (i = 0; i < l->nr_riders && t->riders; i++) {
		struct rider *r = &l->riders[i];
		struct ltask *o;

		if (!r->used || r->closed || r->tid != t->tid)
			continue;
		rider_close(r, ts, end);
		t->riders--;
		o = task_find(l, r->owner_tid);
		if (!o)
			continue;
		for (j = 0; j < o->nr; j++)
			if (o->iv[j].decided && o->iv[j].item.seq == r->owner_seq)
				break;
		if (j == o->nr)
			continue;
		o->iv[j].waiting--;
		if (o->iv[j].waiting == 0 && o->iv[j].closed) {
			ret = settle(l, o, end == COST_END_TRACE);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int rider_new(struct cost_ledger *l)
{
	int i;

	for (i = 0; i < l->nr_riders; i++)
		if (!l->riders[i].used)
			break;
	if (i == l->nr_riders) {
		if (l->nr_riders == l->riders_cap) {
			int cap = l->riders_cap ? 2 * l->riders_cap : 16;
			struct rider *n = realloc(l->riders, (size_t)cap * sizeof(*n));

			if (!n)
				return -ENOMEM;
			memset(n + l->riders_cap, 0, (size_t)(cap - l->riders_cap) * sizeof(*n));
			l->riders = n;
			l->riders_cap = cap;
		}
		l->nr_riders++;
	}
	if (!l->riders[i].acc) {
		l->riders[i].acc = calloc((size_t)l->nr_nodes, sizeof(double));
		if (!l->riders[i].acc)
			return -ENOMEM;
	}
	return i;
}

/*
 * Start pricing @tid from @start_ns for the decision (@owner_tid, @seq):
 * what its ring holds since then, up to its first boundary after @start_ns.
 * Return: the rider's index, or -ENOMEM.
 */
static int rider_start(struct cost_ledger *l, int tid, int owner_tid, uint64_t seq,
		       uint64_t start_ns)
{
	struct ltask *t = task_find(l, tid);	/* cost_ledger_decide_parts() made it */
	struct rider *r;
	double *acc;
	int i, k, ix;

	if (!t)
		return -EINVAL;
	ix = rider_new(l);
	if (ix < 0)
		return ix;
	r = &l->riders[ix];
	acc = r->acc;
	memset(r, 0, sizeof(*r));
	memset(acc, 0, (size_t)l->nr_nodes * sizeof(double));
	r->acc = acc;
	r->used = true;
	r->tid = tid;
	r->owner_tid = owner_tid;
	r->owner_seq = seq;
	r->start_ns = start_ns;
	/* the ring lost marks and its oldest is after the start: some may be missing */
	r->short_history = t->ring_lost && t->ring_nr && t->ring[t->ring_head].ts > start_ns;
	for (k = 0; k < t->ring_nr && !r->closed; k++) {
		i = (t->ring_head + k) % RING_MARKS;
		if (t->ring[i].ts < start_ns)
			continue;
		switch (t->ring[i].kind) {
		case MARK_PRICED:
			cost_accumulate(r->acc, &t->ring_sh[(size_t)i * l->nr_nodes], l->nr_nodes, 1.0);
			r->priced += 1;
			break;
		case MARK_UNPRICED:
			r->unpriced += 1;
			break;
		default:
			if (t->ring[i].ts > start_ns)
				rider_close(r, t->ring[i].ts, t->ring[i].kind == MARK_EXIT ?
					    COST_END_EXIT : COST_END_NEXT);
			break;
		}
	}
	if (!r->closed)
		t->riders++;
	return ix;
}

/* ---- pricing ------------------------------------------------------------- */

/* old and new go into the pair only together, so that new - old compares like with like */
static void pair_add(struct cost_pair *p, const struct cost_item *it)
{
	bool o = it->v[COST_OLD].known, n = it->v[COST_NEW].known;

	if (o && n) {
		double d = it->v[COST_NEW].weighted - it->v[COST_OLD].weighted;

		p->decisions++;
		cost_add(&p->v[COST_OLD], &it->v[COST_OLD]);
		cost_add(&p->v[COST_NEW], &it->v[COST_NEW]);
		if (fabs(d) > fabs(p->max_delta) ||
		    (fabs(d) == fabs(p->max_delta) && d != 0 && it->seq < p->max_seq)) {
			p->max_delta = d;
			p->max_seq = it->seq;
		}
	} else if (o) {
		p->only[COST_OLD]++;
	} else if (n) {
		p->only[COST_NEW]++;
	}
}

/* @acc: per part, its accesses (NULL: the decision's costs are unknown) */
static void add_totals(struct cost_ledger *l, struct ltask *t, const double *const *acc,
		       const struct cost_item *it)
{
	struct cost_totals *tot = &l->tot;
	struct cost_class_totals *ct = NULL;
	int s, k, p, n = l->nr_nodes;

	tot->decisions++;
	tot->unknown[it->unknown]++;
	if (it->cls >= 0 && it->cls < SR_DECISION_CLASS__COUNT)
		ct = &tot->cls[it->cls];
	if (ct)
		ct->decisions++;
	t->sum.decisions++;
	pair_add(&tot->pair, it);
	if (ct)
		pair_add(&ct->pair, it);
	for (s = 0; s < COST__SIDES; s++) {
		if (!it->v[s].known)
			continue;
		tot->side_known[s]++;
		cost_add(&tot->side[s], &it->v[s]);
		/* a task's old and new: over the decisions both priced; each part to its own task */
		for (p = 0; (s == COST_TRACE || (it->v[COST_OLD].known && it->v[COST_NEW].known)) &&
			    p < (acc ? it->nr_parts : 1); p++) {
			struct ltask *pt = p ? task_find(l, it->part[p].tid) : t;

			if (pt)
				cost_add(&pt->sum.v[s], acc && it->nr_parts > 1 ? &it->part[p].v[s] :
					 &it->v[s]);
		}
		if (ct) {
			ct->known[s]++;
			cost_add(&ct->v[s], &it->v[s]);
		}
		for (p = 0; acc && p < it->nr_parts; p++)
			for (k = 0; k < n; k++)
				tot->matrix[s][it->part[p].node[s] * n + k] += acc[p][k];
	}
}

/* the decision of interval @i, its riders all closed: price every part, hand it back */
static int finalize(struct cost_ledger *l, struct ltask *t, int i)
{
	struct interval *iv = &t->iv[i];
	struct cost_item it = iv->item;
	const double *acc[COST_MAX_PARTS];
	int s, p, ret;

	it.start_ns = iv->start_ns;
	it.end_ns = iv->end_ns;
	it.end = iv->end;
	it.unpriced = iv->unpriced;
	if (it.nr_parts < 1)
		it.nr_parts = 1;
	it.part[0].start_ns = iv->start_ns;
	it.part[0].end_ns = iv->end_ns;
	it.part[0].end = iv->end;
	it.part[0].unpriced = iv->unpriced;
	acc[0] = iv_acc(iv);
	if (!l->tot.fault_events)
		it.unknown = COST_UNKNOWN_NO_FAULTS;
	else if (iv->priced == 0 && iv->unpriced > 0)
		it.unknown = COST_UNKNOWN_PLACEMENT;
	for (p = 1; p < it.nr_parts; p++) {
		const struct rider *r = &l->riders[iv->rider[p]];

		it.part[p].start_ns = r->start_ns;
		it.part[p].end_ns = r->end_ns;
		it.part[p].end = r->end;
		it.part[p].unpriced = r->unpriced;
		it.part[p].short_history = r->short_history;
		l->tot.parts++;
		l->tot.parts_short += r->short_history;
		acc[p] = r->acc;
		if (!it.unknown && r->priced == 0 && r->unpriced > 0)
			it.unknown = COST_UNKNOWN_PLACEMENT;
	}
	for (s = 0; s < COST__SIDES; s++) {
		memset(&it.v[s], 0, sizeof(it.v[s]));
		for (p = 0; p < it.nr_parts; p++)
			memset(&it.part[p].v[s], 0, sizeof(it.part[p].v[s]));
		if (it.unknown)
			continue;
		it.v[s].known = true;
		for (p = 0; p < it.nr_parts; p++) {
			cost_of(acc[p], l->nr_nodes, l->ratio, it.part[p].node[s], &it.part[p].v[s]);
			if (!it.part[p].v[s].known) {
				memset(&it.v[s], 0, sizeof(it.v[s]));
				break;
			}
			cost_add(&it.v[s], &it.part[p].v[s]);
		}
	}
	add_totals(l, t, it.unknown ? NULL : acc, &it);
	for (p = 1; p < it.nr_parts; p++)
		l->riders[iv->rider[p]].used = false;
	iv_remove(t, i);
	ret = l->done(&it, l->arg);
	return ret < 0 ? ret : 0;
}

static void iv_close(struct interval *iv, uint64_t ts, int end)
{
	iv->closed = true;
	iv->end_ns = ts >= iv->start_ns ? ts : iv->start_ns;
	iv->end = end;
}

/*
 * Hand back every closed interval that has its decision; at the end of the
 * trace (@final) drop the closed ones that never got one.
 */
static int settle(struct cost_ledger *l, struct ltask *t, bool final)
{
	int i = 0, ret;

	while (i < t->nr) {
		if (t->iv[i].closed && t->iv[i].decided && !t->iv[i].waiting) {
			ret = finalize(l, t, i);
			if (ret)
				return ret;
		} else if (t->iv[i].closed && !t->iv[i].decided && final) {
			l->tot.dropped_intervals++;
			iv_remove(t, i);
		} else {
			i++;
		}
	}
	return 0;
}

static int task_close(struct cost_ledger *l, struct ltask *t, uint64_t ts, int end)
{
	struct interval *iv = open_iv(t);

	int ret;

	if (iv)
		iv_close(iv, ts, end);
	if (end != COST_END_TRACE) {
		ret = ring_push(l, t, ts, end == COST_END_EXIT ? MARK_EXIT : MARK_NEXT, NULL);
		if (ret)
			return ret;
	}
	ret = t->riders ? riders_close(l, t, ts, end) : 0;
	if (ret)
		return ret;
	return settle(l, t, end == COST_END_TRACE);
}

/* A new interval starts at @ts for @tid (its migration or stick event). */
static int task_boundary(struct cost_ledger *l, int tid, uint64_t ts)
{
	struct ltask *t = task_get(l, tid);
	struct interval *iv;
	int ret;

	if (!t)
		return -ENOMEM;
	iv = open_iv(t);
	if (iv && iv->by_decision && iv->start_ns == ts) {
		iv->by_decision = false;	/* its decision came first */
		return 0;
	}
	ret = task_close(l, t, ts, COST_END_NEXT);
	if (ret)
		return ret;
	return iv_push(l, t, ts) ? 0 : -ENOMEM;
}

/*
 * What feed_fault() needs of the model, read now: the task's memory
 * placement (its shares) and what of @cnode's share its page migrations
 * booked there.
 */
static void capture_fault(const struct cost_ledger *l, const struct model *m,
			  const struct sr_event *ev, struct cost_feed *f)
{
	const struct model_task *mt = model_task_lookup(m, ev->pid);
	int cnode = topo_cpu_node(l->topo, ev->cpu), n = l->nr_nodes;

	f->cnode = cnode;
	f->fault_flags = ev->u.fault.flags;
	f->priced = ev->pid > 0 && mt && (mt->known & MODEL_KNOWN_FAULTS) && mt->faults &&
		    cost_shares(mt->faults, n, f->shares) == 0;
	f->migrated_share = f->priced && cnode >= 0 && cnode < n &&
			    !(f->fault_flags & MODEL_TNF_MIGRATED) ?
			    model_task_migrated_share(m, mt, cnode) : 0;
}

static int feed_fault(struct cost_ledger *l, const struct cost_feed *f)
{
	struct cost_calibration *c = &l->tot.cal;
	const double *shares = f->shares;
	int cnode = f->cnode, n = l->nr_nodes, k;
	struct ltask *t;
	struct interval *iv;
	bool priced = f->priced;

	l->tot.fault_events++;
	if (f->pid <= 0)
		return 0;
	t = task_get(l, f->pid);
	if (!t)
		return -ENOMEM;
	iv = open_iv(t);
	if (!iv && !(iv = iv_push(l, t, f->ts_ns)))	/* before its first decision */
		return -ENOMEM;
	if (priced) {
		cost_accumulate(iv_acc(iv), shares, n, 1.0);
		iv->priced += 1;
	} else {
		iv->unpriced += 1;
		l->tot.unpriced_faults++;
	}
	if (ring_push(l, t, f->ts_ns, priced ? MARK_PRICED : MARK_UNPRICED,
		      priced ? shares : NULL))
		return -ENOMEM;
	if (t->riders)
		riders_fault(l, f->pid, priced ? shares : NULL);
	if (!l->in_window)
		return 0;
	c->faults++;
	if (f->fault_flags & MODEL_TNF_FAULT_LOCAL)
		c->flag_local++;
	if (!priced || cnode < 0 || cnode >= n)
		return 0;
	c->priced++;
	/*
	 * numa_hint_faults_local records locality before the fault's page
	 * migration, the shares book the fault where the page went: a fault
	 * that migrated its page (TNF_MIGRATED: it was misplaced, so remote)
	 * counts as remote here, as in the kernel's counter
	 */
	c->est_local_post += shares[cnode];
	if (f->fault_flags & MODEL_TNF_MIGRATED) {
		c->migrated_remote++;
	} else {
		/* and the earlier such faults in the share: booked away, pre-migration */
		double pre = shares[cnode] - f->migrated_share;

		c->est_local += pre > 0 ? pre : 0;
	}
	for (k = 0; k < n; k++)
		l->tot.actual[cnode * n + k] += shares[k];
	return 0;
}

static void capture_vmstat(const struct sr_event *ev, struct cost_feed *f)
{
	struct marker_vmstat vm;

	marker_decode_vmstat(ev, &vm);
	f->vm_ok = vm.status[MK_VMSTAT_PHASE] == MARKER_OK &&
		   vm.status[MK_VMSTAT_HINT_FAULTS] == MARKER_OK &&
		   vm.status[MK_VMSTAT_HINT_LOCAL] == MARKER_OK;
	f->vm_phase = vm.phase;
	f->vm_faults = vm.numa_hint_faults;
	f->vm_local = vm.numa_hint_faults_local;
}

static void feed_vmstat(struct cost_ledger *l, const struct cost_feed *vm)
{
	struct cost_calibration *c = &l->tot.cal;
	int64_t f, loc;

	if (!vm->vm_ok)
		return;
	f = vm->vm_faults;
	loc = vm->vm_local;
	if (vm->vm_phase == MARKER_PHASE_START && !c->have_start) {
		if (c->have_end)
			return;
		c->have_start = true;
		c->vm_faults_start = f;
		c->vm_local_start = loc;
		c->windowed = true;
		/* only the faults from here on are in the kernel's difference */
		c->faults = c->flag_local = c->priced = c->migrated_remote = 0;
		c->est_local = c->est_local_post = 0;
		memset(l->tot.actual, 0, (size_t)l->nr_nodes * l->nr_nodes * sizeof(double));
		l->in_window = true;
	} else if (vm->vm_phase == MARKER_PHASE_END && c->have_start && !c->have_end) {
		c->have_end = true;
		c->vm_faults_end = f;
		c->vm_local_end = loc;
		l->in_window = false;
	}
}

bool cost_ledger_capture(const struct cost_ledger *l, const struct model *m,
			 const struct sr_event *ev, struct cost_feed *f)
{
	if (!cost_ledger_wants(ev))
		return false;
	f->kind = ev->kind;
	f->ts_ns = ev->ts_ns;
	f->pid = ev->pid;
	switch (ev->kind) {
	case SR_EV_NUMA_FAULT:
		capture_fault(l, m, ev, f);
		break;
	case SR_EV_MIGRATE:
		f->pid = ev->u.mig.pid;
		break;
	case SR_EV_STICK_NUMA:
		f->pid = ev->u.numa.src_pid;
		break;
	case SR_EV_EXIT:
		f->pid = ev->u.exit.pid;
		break;
	case SR_EV_PRINT:
		capture_vmstat(ev, f);
		break;
	default:
		break;
	}
	return true;
}

int cost_ledger_apply(struct cost_ledger *l, const struct cost_feed *f)
{
	struct ltask *t;

	switch (f->kind) {
	case SR_EV_NUMA_FAULT:
		return feed_fault(l, f);
	case SR_EV_MIGRATE:
	case SR_EV_STICK_NUMA:
		return task_boundary(l, f->pid, f->ts_ns);
	case SR_EV_EXIT:
		t = task_get(l, f->pid);
		if (!t)
			return -ENOMEM;
		return task_close(l, t, f->ts_ns, COST_END_EXIT);
	case SR_EV_PRINT:
		feed_vmstat(l, f);
		return 0;
	default:
		return 0;
	}
}

int cost_ledger_feed(struct cost_ledger *l, const struct model *m, const struct sr_event *ev)
{
	struct cost_feed f;

	return cost_ledger_capture(l, m, ev, &f) ? cost_ledger_apply(l, &f) : 0;
}

/*
 * What a decision says of its cost into @it, which is zero: an interval's
 * item is until its decision (iv_push() clears it whole), so it is written
 * there in place, not built aside and copied (two passes over 650 bytes a
 * decision).
 */
static void item_init(const struct cost_ledger *l, struct cost_item *it, const struct decision *d,
		      const struct cost_part_in *parts, int nr, void *user)
{
	const struct sr_snapshot *s = &d->snap;
	int side, p;

	it->seq = d->seq;
	it->tid = s->tid;
	it->cls = s->decision_class;
	it->user = user;
	if (nr > COST_MAX_PARTS)
		nr = COST_MAX_PARTS;
	it->nr_parts = nr > 0 ? nr : 1;
	for (p = 0; p < nr; p++) {
		it->part[p].tid = p ? parts[p].tid : s->tid;
		it->part[p].from_node = parts[p].from_node >= 0 && parts[p].from_node < l->nr_nodes ?
					parts[p].from_node : -1;
		for (side = 0; side < COST__SIDES; side++)
			it->part[p].node[side] = parts[p].node[side] >= 0 &&
						 parts[p].node[side] < l->nr_nodes ?
						 parts[p].node[side] : -1;
	}
	for (side = 0; side < COST__SIDES; side++)
		it->node[side] = it->part[0].node[side];
}

int cost_ledger_decide_parts(struct cost_ledger *l, const struct decision *d,
			     const struct cost_part_in *parts, int nr, void *user)
{
	const struct sr_snapshot *s = &d->snap;
	struct ltask *t = NULL;
	struct interval *iv;
	int i, ret, p, nr_parts;

	/* every part's task first: the table grows here, not once @t is held */
	for (p = 1; p < nr && p < COST_MAX_PARTS; p++)
		if (!task_get(l, parts[p].tid))
			break;
	if (p >= nr || p >= COST_MAX_PARTS)
		t = task_get(l, s->tid);
	if (!t) {
		if (user && l->release)
			l->release(user);
		return -ENOMEM;
	}
	if (s->known & SR_SNAP_COMM)
		memcpy(t->sum.comm, s->comm, sizeof(t->sum.comm) - 1);

	for (i = 0; i < t->nr; i++)
		if (!t->iv[i].decided && t->iv[i].start_ns == s->ts_ns)
			break;
	if (i == t->nr) {
		iv = open_iv(t);
		if (iv && iv->start_ns > s->ts_ns) {
			/* its interval is gone (or never was): no cost */
			struct cost_item it = { 0 };

			item_init(l, &it, d, parts, nr, user);
			it.unknown = COST_UNKNOWN_INTERVAL;
			it.start_ns = it.end_ns = s->ts_ns;
			for (p = 0; p < it.nr_parts; p++)
				it.part[p].start_ns = it.part[p].end_ns = s->ts_ns;
			add_totals(l, t, NULL, &it);
			ret = l->done(&it, l->arg);
			return ret < 0 ? ret : 0;
		}
		/* emitted before the ledger saw its event: open it now */
		ret = task_close(l, t, s->ts_ns, COST_END_NEXT);
		iv = ret ? NULL : iv_push(l, t, s->ts_ns);
		if (!iv) {
			if (user && l->release)
				l->release(user);
			return ret ? ret : -ENOMEM;
		}
		iv->by_decision = true;
		i = t->nr - 1;
	}
	/* earlier intervals of the task that never got a decision never will */
	while (i > 0 && t->iv[0].closed && !t->iv[0].decided) {
		l->tot.dropped_intervals++;
		iv_remove(t, 0);
		i--;
	}
	iv = &t->iv[i];
	iv->decided = true;
	item_init(l, &iv->item, d, parts, nr, user);
	iv->waiting = 0;
	nr_parts = iv->item.nr_parts;
	/* the other tasks, from the decision on (riders_close() may settle @t: not yet decided) */
	for (p = 1; p < nr_parts; p++) {
		int ix = rider_start(l, t->iv[i].item.part[p].tid, s->tid, d->seq, s->ts_ns);

		if (ix < 0)
			return ix;
		/* t->iv may have moved (task_get() grows the table, not the intervals) */
		t->iv[i].rider[p] = ix;
		if (!l->riders[ix].closed)
			t->iv[i].waiting++;
	}
	iv = &t->iv[i];
	return iv->closed && !iv->waiting ? settle(l, t, false) : 0;
}

int cost_ledger_decide(struct cost_ledger *l, const struct decision *d,
		       const int node[COST__SIDES], void *user)
{
	struct cost_part_in p = { .tid = d->snap.tid, .from_node = -1 };
	int side;

	if (d->snap.known & SR_SNAP_SRC_NODE)
		p.from_node = d->snap.src_node;
	for (side = 0; side < COST__SIDES; side++)
		p.node[side] = node[side];
	return cost_ledger_decide_parts(l, d, &p, 1, user);
}


int cost_ledger_finish(struct cost_ledger *l, uint64_t end_ns)
{
	size_t i;
	int ret;

	for (i = 0; i < l->tasks_cap; i++) {
		if (!l->tasks[i].used)
			continue;
		ret = task_close(l, &l->tasks[i], end_ns, COST_END_TRACE);
		if (ret)
			return ret;
	}
	return 0;
}

static double delta_w(const struct cost_task *t)
{
	if (!t->v[COST_OLD].known || !t->v[COST_NEW].known)
		return 0;
	return fabs(t->v[COST_NEW].weighted - t->v[COST_OLD].weighted);
}

static int cmp_task(const void *a, const void *b)
{
	const struct cost_task *x = a, *y = b;
	double dx = delta_w(x), dy = delta_w(y);

	if (dx != dy)
		return dx < dy ? 1 : -1;
	if (x->v[COST_TRACE].weighted != y->v[COST_TRACE].weighted)
		return x->v[COST_TRACE].weighted < y->v[COST_TRACE].weighted ? 1 : -1;
	return x->tid - y->tid;
}

struct cost_task *cost_ledger_top_tasks(const struct cost_ledger *l, size_t *n)
{
	struct cost_task *out;
	size_t i, k = 0;

	if (!l->tasks_used || !*n) {
		*n = 0;
		return NULL;
	}
	out = malloc(l->tasks_used * sizeof(*out));
	if (!out) {
		*n = 0;
		return NULL;
	}
	for (i = 0; i < l->tasks_cap; i++)
		if (l->tasks[i].used && l->tasks[i].sum.decisions &&
		    (l->tasks[i].sum.v[COST_OLD].known || l->tasks[i].sum.v[COST_TRACE].known))
			out[k++] = l->tasks[i].sum;
	qsort(out, k, sizeof(*out), cmp_task);
	if (k < *n)
		*n = k;
	if (!k) {
		free(out);
		return NULL;
	}
	return out;
}
