// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * decision-cand.c - the candidates of a load-balance pass, rebuilt from
 * the model (docs/replay.md, "Choices").
 *
 * The kernel keeps a runqueue's CFS tasks on rq->cfs_tasks: an enqueue
 * adds the task at the head, and picking it to run moves it to the head.
 * detach_tasks() and detach_one_task() walk the list from the tail, so the
 * task that went longest without being enqueued or picked is looked at
 * first.  The model keeps, per task, when it last went to the head
 * (model_task.rq_head_ns); sorting a CPU's tasks by it gives the walk.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decision.h"
#include "decision-cand.h"

struct gather {
	int				src;
	int				skip;
	const struct model_task		**t;
	size_t				nr;
	size_t				cap;
};

static bool is_stopper(const struct model_task *t)
{
	return (t->known & MODEL_KNOWN_COMM) && !strncmp(t->comm, "migration/", 10);
}

static int gather_one(const struct model_task *t, void *arg)
{
	struct gather *g = arg;

	if (t->tid <= 0 || t->tid == g->skip || !(t->known & MODEL_KNOWN_CPU) ||
	    t->cpu != g->src || !(t->known & MODEL_KNOWN_STATE) ||
	    (t->state != MODEL_TASK_RUNNING && t->state != MODEL_TASK_RUNNABLE) || is_stopper(t))
		return 0;
	if (g->nr == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 64;
		const struct model_task **n = realloc(g->t, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		g->t = n;
		g->cap = cap;
	}
	g->t[g->nr++] = t;
	return 0;
}

static uint64_t head_of(const struct model_task *t)
{
	return t->rq_head_known ? t->rq_head_ns + 1 : 0;
}

/* tail of cfs_tasks first: the oldest head time, unknown ones before all */
static int cmp_walk(const void *a, const void *b)
{
	const struct model_task *x = *(const struct model_task *const *)a;
	const struct model_task *y = *(const struct model_task *const *)b;
	uint64_t hx = head_of(x), hy = head_of(y);

	if (hx != hy)
		return hx < hy ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

int decision_cand_order(const struct model *m, int src, int skip, int pulled,
			int tid[SR_MAX_CANDIDATES], unsigned int *flags)
{
	struct gather g = { .src = src, .skip = skip };
	bool have_pulled = false;
	int n = 0, ret;
	size_t i;

	*flags = SR_DP_RECONSTRUCTED;
	ret = model_for_each_task(m, gather_one, &g);
	if (ret < 0) {
		free(g.t);
		return ret;
	}
	if (g.nr)
		qsort(g.t, g.nr, sizeof(*g.t), cmp_walk);
	for (i = 0; i < g.nr && n < SR_MAX_CANDIDATES; i++) {
		tid[n++] = g.t[i]->tid;
		have_pulled |= g.t[i]->tid == pulled;
	}
	if (g.nr > SR_MAX_CANDIDATES)
		*flags |= SR_DP_TRUNCATED;
	free(g.t);
	if (!have_pulled && pulled > 0) {
		/* the model lost track of it: it was there, place unknown */
		if (n == SR_MAX_CANDIDATES)
			n--;
		tid[n++] = pulled;
		*flags |= SR_DP_PULLED_ADDED;
	}
	return n;
}

int decision_pass_find(const struct decision_pass *p, int tid)
{
	int i;

	for (i = 0; i < p->nr; i++)
		if (p->tid[i] == tid)
			return i;
	return -1;
}

bool decision_pass_joins(const struct decision_pass *p, int tid, int src, int dst, int log_cpu,
			 uint64_t ts)
{
	int i;

	if (!p || p->active || p->src != src || p->dst != dst || p->log_cpu != log_cpu ||
	    ts < p->last_ns || ts - p->last_ns > DECISION_PASS_GAP_NS ||
	    p->pulls >= SR_MAX_CANDIDATES)
		return false;
	i = decision_pass_find(p, tid);
	return i >= 0 && !p->taken[i];
}

void decision_pass_put(struct decision_pass *p)
{
	if (p && --p->refs <= 0)
		free(p);
}

bool decision_is_lb(int cls)
{
	return cls == SR_DECISION_CLASS_LB_PULL || cls == SR_DECISION_CLASS_LB_ACTIVE;
}

void decision_kernel_choice(const struct decision *d, struct decision_choice *c)
{
	const struct sr_snapshot *s = &d->snap;
	int i;

	memset(c, 0, sizeof(*c));
	c->cpu = s->dst_cpu;
	c->node = (s->known & SR_SNAP_DST_NODE) ? s->dst_node : -1;
	c->pos = -1;
	if (decision_is_lb(s->decision_class)) {
		if (d->has_truth && !d->truth) {
			c->kind = DECISION_CHOICE_NONE;
			return;
		}
		c->kind = DECISION_CHOICE_TASK;
		c->tid = s->tid;
		for (i = 0; i < d->nr_cand && d->cand; i++)
			if (d->cand[i].tid == s->tid)
				c->pos = i;
	} else if (s->decision_class == SR_DECISION_CLASS_NUMA_STICK) {
		c->kind = DECISION_CHOICE_NONE;
	} else {
		c->kind = DECISION_CHOICE_PLACE;
	}
}

bool decision_choice_same(const struct decision_choice *a, const struct decision_choice *b)
{
	if (a->kind == DECISION_CHOICE_UNKNOWN || a->kind != b->kind)
		return false;
	switch (a->kind) {
	case DECISION_CHOICE_TASK:
		return a->tid == b->tid;
	case DECISION_CHOICE_PLACE:
		/* a side that names only the node is compared on the node */
		if (a->cpu >= 0 && b->cpu >= 0)
			return a->cpu == b->cpu;
		return a->node == b->node;
	default:
		return true;
	}
}
