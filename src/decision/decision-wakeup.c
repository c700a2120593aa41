// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * decision-wakeup.c - per-CPU idle state and per-task wake-up state for
 * the placement decisions (decision-wakeup.h).
 *
 * Kept by the recording kernel's rules (6.1, kernel/sched/fair.c):
 *   record_wakee()   the waker's wakee_flips: +1 when its last wakee
 *                    changes, halved once when a second (HZ) has passed
 *                    since its last decay; an interrupt's waker is the
 *                    idle task of its CPU;
 *   recent_used_cpu  set to the parent's CPU at fork; set to prev by
 *                    select_idle_sibling() when neither the target nor an
 *                    idle prev ended it early (the chosen CPU then was not
 *                    the idle target or prev);
 *   idle             the idle task current, nothing queued and no wake-up
 *                    on its way to it (claims between a placement and its
 *                    sched_wakeup).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decision-wakeup.h"

struct dp_task {
	int		tid;		/* 0 = free slot; idle tasks are -(cpu + 1) */
	int		recent_used;	/* -1 none */
	bool		recent_known;
	int		last_wakee;
	int		flips;
	uint64_t	decay_ns;
};

struct dplace {
	struct dp_task	*tab;
	size_t		cap;
	size_t		used;
	uint64_t	*idle_since;	/* per CPU: when it switched to idle + 1, 0 = busy/unknown */
	int		*claims;	/* per CPU: wake-ups on their way */
	int		nr_cpus;
	uint64_t	first_ns;
	bool		started;
};

struct dplace *dplace_new(void)
{
	return calloc(1, sizeof(struct dplace));
}

void dplace_free(struct dplace *dp)
{
	if (!dp)
		return;
	free(dp->tab);
	free(dp->idle_since);
	free(dp->claims);
	free(dp);
}

static size_t hash_tid(int tid)
{
	return (size_t)((uint32_t)tid * 2654435761u);
}

/* the slot of @tid, NULL when absent */
static struct dp_task *task_find(struct dplace *dp, int tid)
{
	size_t i;

	if (!dp->cap)
		return NULL;
	i = hash_tid(tid) & (dp->cap - 1);
	while (dp->tab[i].tid) {
		if (dp->tab[i].tid == tid)
			return &dp->tab[i];
		i = (i + 1) & (dp->cap - 1);
	}
	return NULL;
}

/*
 * The slot of @tid, added when absent.  Adding may move the table: a
 * pointer from an earlier call is valid only until the next one adds.
 */
static struct dp_task *task_get(struct dplace *dp, int tid)
{
	struct dp_task *t = task_find(dp, tid);
	size_t i;

	if (t)
		return t;
	if (dp->used * 2 >= dp->cap) {
		size_t cap = dp->cap ? dp->cap * 2 : 256, j;
		struct dp_task *n = calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (j = 0; j < dp->cap; j++) {
			if (!dp->tab[j].tid)
				continue;
			i = hash_tid(dp->tab[j].tid) & (cap - 1);
			while (n[i].tid)
				i = (i + 1) & (cap - 1);
			n[i] = dp->tab[j];
		}
		free(dp->tab);
		dp->tab = n;
		dp->cap = cap;
	}
	i = hash_tid(tid) & (dp->cap - 1);
	while (dp->tab[i].tid)
		i = (i + 1) & (dp->cap - 1);
	dp->tab[i].tid = tid;
	dp->tab[i].recent_used = -1;
	dp->used++;
	return &dp->tab[i];
}

static int grow(struct dplace *dp, int cpu)
{
	int n;
	uint64_t *is;
	int *cl;

	if (cpu < dp->nr_cpus)
		return 0;
	n = cpu + 1 > 2 * dp->nr_cpus ? cpu + 1 : 2 * dp->nr_cpus;
	is = realloc(dp->idle_since, n * sizeof(*is));
	if (!is)
		return -ENOMEM;
	dp->idle_since = is;
	cl = realloc(dp->claims, n * sizeof(*cl));
	if (!cl)
		return -ENOMEM;
	dp->claims = cl;
	memset(is + dp->nr_cpus, 0, (n - dp->nr_cpus) * sizeof(*is));
	memset(cl + dp->nr_cpus, 0, (n - dp->nr_cpus) * sizeof(*cl));
	dp->nr_cpus = n;
	return 0;
}

int dplace_feed(struct dplace *dp, const struct sr_event *ev)
{
	if (!dp->started) {
		dp->started = true;
		dp->first_ns = ev->ts_ns;
	}
	if (ev->kind != SR_EV_SWITCH || ev->cpu < 0 || ev->cpu >= TOPO_MAX_CPUS)
		return 0;
	if (grow(dp, ev->cpu) < 0)
		return -ENOMEM;
	dp->idle_since[ev->cpu] = ev->u.sw.next_pid <= 0 ? ev->ts_ns + 1 : 0;
	return 0;
}

void dplace_claim(struct dplace *dp, int cpu, int delta)
{
	if (cpu < 0 || grow(dp, cpu) < 0)
		return;
	dp->claims[cpu] += delta;
	if (dp->claims[cpu] < 0)
		dp->claims[cpu] = 0;
}

bool dplace_claimed(const struct dplace *dp, int cpu)
{
	return dp && cpu >= 0 && cpu < dp->nr_cpus && dp->claims[cpu] > 0;
}

bool dplace_percpu_kthread(const char *comm, size_t len)
{
	const char *slash = memchr(comm, '/', len);

	/* "kworker/3:1", "ksoftirqd/0", "migration/7"; not "kworker/u17:1" */
	return slash && (size_t)(slash - comm) + 1 < len && slash[1] >= '0' && slash[1] <= '9';
}

static void record_wakee(struct dp_task *w, int wakee, uint64_t now)
{
	if (now > w->decay_ns + DPLACE_FLIP_DECAY_NS) {
		w->flips >>= 1;
		w->decay_ns = now;
	}
	if (w->last_wakee != wakee) {
		w->last_wakee = wakee;
		w->flips++;
	}
}

int dplace_fill(struct dplace *dp, const struct model *m, const struct topo *t,
		struct sr_snapshot *s, int waker_cpu, int waker_pid, const char *waker_comm,
		bool ttwu)
{
	struct dp_task *w, *p;
	int c, n = t->nr_cpus, wkey;
	bool util_known = false;

	if (grow(dp, n > 0 ? n - 1 : 0) < 0)
		return -ENOMEM;
	s->waker_cpu = waker_cpu;
	s->known |= SR_SNAP_WAKER_CPU;
	s->waker_kthread = waker_comm && dplace_percpu_kthread(waker_comm, SR_COMM_LEN);

	/*
	 * A waker that is no task (an interrupt, the idle task) by its CPU's
	 * key; tid 0 marks the table's empty slots, so neither the wakee nor
	 * the waker may be 0 (the callers pass tasks; a CPU below 0 is none)
	 */
	wkey = waker_pid > 0 ? waker_pid : waker_cpu >= 0 ? -(waker_cpu + 1) : 0;
	if (s->tid > 0 && wkey) {
		/* both added first, then looked up: adding may move the table */
		if (!task_get(dp, s->tid) || !task_get(dp, wkey))
			return -ENOMEM;
		p = task_find(dp, s->tid);
		w = task_find(dp, wkey);
		if (p->recent_known) {
			s->recent_used_cpu = p->recent_used;
			s->known |= SR_SNAP_RECENT_USED;
		}
		if (ttwu)
			record_wakee(w, s->tid, s->ts_ns);
		s->waker_flips = w->flips;
		s->wakee_flips = p->flips;
		if (s->ts_ns >= dp->first_ns + DPLACE_FLIP_DECAY_NS)
			s->known |= SR_SNAP_WAKEE_FLIPS;
	}

	if (n > SR_PLACE_MAX_CPUS)
		return 0;	/* PLACE_CPUS stays unknown */
	s->nr_cpus = n;
	for (c = 0; c < n; c++) {
		const struct model_cpu *mc = model_cpu_get(m, c);
		double util, runnable;

		s->cpu_node[c] = (int16_t)topo_cpu_node(t, c);
		s->cpu_flags[c] = 0;
		if (!mc || !mc->known || mc->curr < 0) {
			/* a CPU not seen yet: unknown, which matters only if a policy looks at it */
			continue;
		}
		s->cpu_flags[c] = SR_PCPU_KNOWN | (mc->nr_runnable == 1 ? SR_PCPU_SINGLE : 0);
		s->cpu_nr_running[c] = (int16_t)(mc->nr_runnable < 0 ? 0 :
						 mc->nr_runnable > 32767 ? 32767 : mc->nr_runnable);
		if (mc->curr == 0 && mc->nr_runnable <= 0 && !dp->claims[c]) {
			s->cpu_flags[c] |= SR_PCPU_IDLE;
			if (dp->idle_since[c] && s->ts_ns + 1 >= dp->idle_since[c])
				s->cpu_idle_ns[c] = s->ts_ns + 1 - dp->idle_since[c];
		}
		if (model_cpu_pelt(m, c, s->ts_ns, &util, &runnable)) {
			s->cpu_util[c] = (int32_t)(util + 0.5);
			s->cpu_load[c] = (int32_t)(runnable + 0.5);
			s->cpu_flags[c] |= SR_PCPU_PELT;
			util_known = true;
		}
	}
	s->known |= SR_SNAP_PLACE_CPUS;
	if (util_known)
		s->known |= SR_SNAP_CPU_UTIL;
	return 0;
}

static bool idle_in(const struct sr_snapshot *s, int cpu)
{
	return cpu >= 0 && cpu < s->nr_cpus && (s->cpu_flags[cpu] & SR_PCPU_IDLE);
}

int dplace_placed(struct dplace *dp, int tid, const struct sr_snapshot *s, int cpu, bool fork)
{
	struct dp_task *p;

	if (tid <= 0)
		return 0;	/* no task (tid 0 marks the table's empty slots) */
	p = task_get(dp, tid);
	if (!p)
		return -ENOMEM;
	if (fork) {
		p->recent_used = s->waker_cpu;
		p->recent_known = true;
		return 0;
	}
	/* select_idle_sibling() returned before the recent_used_cpu step */
	if ((cpu == s->src_cpu || cpu == s->waker_cpu) && idle_in(s, cpu))
		return 0;
	p->recent_used = s->src_cpu;
	p->recent_known = true;
	return 0;
}
