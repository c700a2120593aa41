// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model.c - the model handle and the scheduler events: switch, wakeup,
 * migrate, fork, exec, exit and lost markers (NUMA events and samples are
 * in model-numa.c).  The rules are listed in model.h; each handler below
 * says which it applies.  Every CPU or state change goes through
 * model_place(), which keeps the per-CPU runnable counts consistent.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model-local.h"

/* sched_switch prev_state: the task-state report bits (kernel >= 4.14) */
#define MODEL_PREV_STATE_MASK	0xffl	/* S D T t X Z P I; above: the preempt bit */
#define MODEL_PREV_STATE_DEAD	0x30l	/* EXIT_DEAD "X" | EXIT_ZOMBIE "Z" */

struct model *model_new(const struct topo *topo)
{
	struct model *m;
	bool nomem = false;

	if (!topo)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->topo = topo;
	m->nr_nodes = topo->nr_nodes;
	m->scan_period_ns = MODEL_SCAN_PERIOD_DEFAULT_NS;
	if (topo->nr_cpus > 0 && !model_cpu_ensure(m, topo->nr_cpus - 1, &nomem)) {
		free(m);
		return NULL;
	}
	return m;
}

void model_free(struct model *m)
{
	if (!m)
		return;
	model_faults_free(m);
	model_tasks_free(m);
	free(m->clock_pairs);
	free(m->clock_off);
	free(m->clock_off_known);
	free(m->seeds);
	free(m->cpus);
	free(m);
}

const struct model_task *model_task_lookup(const struct model *m, int tid)
{
	const struct model_slot *s = model_task_find(m, tid);

	return s ? &s->pub : NULL;
}

const struct model_cpu *model_cpu_get(const struct model *m, int cpu)
{
	if (cpu < 0 || cpu >= m->nr_cpus)
		return NULL;
	return &m->cpus[cpu];
}

const struct model_stats *model_stats(const struct model *m)
{
	return &m->stats;
}

int model_nr_cpus(const struct model *m)
{
	return m->nr_cpus;
}

int model_for_each_task(const struct model *m,
			int (*fn)(const struct model_task *t, void *arg), void *arg)
{
	const struct model_chunk *c;
	int ret = 0;
	int i;

	for (c = m->chunks; c; c = c->next) {
		for (i = 0; i < c->used; i++) {
			ret = fn(&c->slots[i].pub, arg);
			if (ret)
				return ret;
		}
	}
	return ret;
}

/* A CPU named by an event; NULL (bad_cpu counted) or -ENOMEM in *ret. */
static struct model_cpu *cpu_of(struct model *m, int cpu, int *ret)
{
	bool nomem = false;
	struct model_cpu *c = model_cpu_ensure(m, cpu, &nomem);

	if (nomem)
		*ret = -ENOMEM;
	return c;
}

static enum model_task_state switched_out_state(long prev_state)
{
	long bits = prev_state & MODEL_PREV_STATE_MASK;

	if (bits & MODEL_PREV_STATE_DEAD)
		return MODEL_TASK_DEAD;
	if (bits == 0)
		return MODEL_TASK_RUNNABLE;	/* preempted, or yielded while runnable */
	return MODEL_TASK_SLEEPING;
}

static int feed_switch(struct model *m, const struct sr_event *ev)
{
	const struct sr_ev_switch *sw = &ev->u.sw;
	struct model_slot *prev = NULL;
	struct model_slot *next;
	struct model_cpu *c;
	int ret = 0;

	c = cpu_of(m, ev->cpu, &ret);
	if (!c)
		return ret;
	if (c->known && c->curr != sw->prev_pid) {
		/*
		 * The switch away from c->curr is missing.  It is not running
		 * here any more, and whether it sleeps or waits is not known:
		 * so a later wakeup places it, which a task still "running"
		 * would not get.
		 */
		m->stats.switch_missing++;
		if (c->curr == 0)
			m->stats.switch_missing_idle++;
		prev = c->curr > 0 ? model_task_find(m, c->curr) : NULL;
		if (prev) {
			prev->pub.switch_out_missing++;
			if (prev->pub.state == MODEL_TASK_RUNNING && prev->pub.cpu == ev->cpu)
				model_place(m, prev, ev->cpu, MODEL_TASK_UNKNOWN);
		}
		prev = NULL;
	}
	if (sw->prev_pid > 0) {
		prev = model_task_get(m, sw->prev_pid, ev->ts_ns);
		if (!prev)
			return -ENOMEM;
		model_set_comm(&prev->pub, sw->prev_comm, sizeof(sw->prev_comm));
		prev->pub.last_ran_ns = ev->ts_ns;
		prev->pub.known |= MODEL_KNOWN_LAST_RAN | MODEL_KNOWN_MOVED;
		prev->pub.moved_since_ran = false;
		model_place(m, prev, ev->cpu, switched_out_state(sw->prev_state));
	}
	c = &m->cpus[ev->cpu];
	model_cpu_pelt_advance(m, c);
	c->curr = sw->next_pid > 0 ? sw->next_pid : 0;
	c->known = true;
	if (sw->next_pid <= 0)
		return 0;
	next = model_task_get(m, sw->next_pid, ev->ts_ns);
	if (!next)
		return -ENOMEM;
	model_set_comm(&next->pub, sw->next_comm, sizeof(sw->next_comm));
	next->pub.moved_since_ran = false;	/* set_next_entity() sets exec_start */
	next->pub.known |= MODEL_KNOWN_MOVED;
	next->pub.rq_head_ns = ev->ts_ns;
	next->pub.rq_head_known = true;
	if (next->pub.ran_cpu < 0)
		next->pub.ran_cpu = ev->cpu;
	else if (next->pub.ran_cpu != ev->cpu)
		next->pub.aff = MODEL_AFF_MANY;	/* ran on two CPUs: nr_cpus_allowed > 1 */
	model_place(m, next, ev->cpu, MODEL_TASK_RUNNING);
	return 0;
}

static int feed_wakeup(struct model *m, const struct sr_event *ev)
{
	const struct sr_ev_wakeup *w = &ev->u.wake;
	struct model_slot *s;
	struct model_cpu *c;
	int ret = 0;

	if (w->pid <= 0)
		return 0;
	s = model_task_get(m, w->pid, ev->ts_ns);
	if (!s)
		return -ENOMEM;
	model_set_comm(&s->pub, w->comm, sizeof(w->comm));
	if (ev->kind == SR_EV_WAKING)
		return 0;	/* the CPU is chosen after this; sched_wakeup says */
	if (ev->kind == SR_EV_WAKEUP_NEW && ev->pid > 0 && ev->pid != w->pid &&
	    w->target_cpu >= 0 && w->target_cpu != ev->cpu) {
		/*
		 * The parent runs on ev->cpu, so that CPU is in its mask, and
		 * the child, with a copy of the mask, went to another: the
		 * parent may run on two CPUs (for its later forks; this
		 * child's own decision was read before).
		 */
		struct model_slot *par = model_task_get(m, ev->pid, ev->ts_ns);

		if (!par)
			return -ENOMEM;
		par->pub.aff = MODEL_AFF_MANY;
	}
	if (s->pub.state == MODEL_TASK_RUNNING)
		return 0;	/* ttwu of a task still on its CPU: nothing moves */
	c = cpu_of(m, w->target_cpu, &ret);
	if (ret)
		return ret;
	model_place(m, s, c ? w->target_cpu : -1, MODEL_TASK_RUNNABLE);
	s->pub.rq_head_ns = ev->ts_ns;
	s->pub.rq_head_known = true;
	return 0;
}

static int feed_migrate(struct model *m, const struct sr_event *ev)
{
	const struct sr_ev_migrate *mig = &ev->u.mig;
	enum model_task_state st;
	struct model_slot *s;
	struct model_cpu *c;
	int ret = 0;

	m->stats.migrations++;
	if (mig->pid <= 0)
		return 0;
	s = model_task_get(m, mig->pid, ev->ts_ns);
	if (!s)
		return -ENOMEM;
	model_set_comm(&s->pub, mig->comm, sizeof(mig->comm));
	s->pub.nr_migrations++;
	s->pub.moved_since_ran = true;
	s->pub.known |= MODEL_KNOWN_MOVED;
	c = cpu_of(m, mig->dest_cpu, &ret);
	if (ret)
		return ret;
	/* a task cannot keep running on the CPU it was taken from */
	st = s->pub.state == MODEL_TASK_RUNNING ? MODEL_TASK_RUNNABLE : s->pub.state;
	model_place(m, s, c ? mig->dest_cpu : -1, st);
	if (st == MODEL_TASK_RUNNABLE) {
		s->pub.rq_head_ns = ev->ts_ns;
		s->pub.rq_head_known = true;
	}
	return 0;
}

static int feed_fork(struct model *m, const struct sr_event *ev)
{
	const struct sr_ev_fork *f = &ev->u.fork;
	struct model_slot *s;
	int aff = MODEL_AFF_UNKNOWN, aff_cpu = -1;

	if (f->parent_pid > 0) {
		s = model_task_get(m, f->parent_pid, ev->ts_ns);
		if (!s)
			return -ENOMEM;
		model_set_comm(&s->pub, f->parent_comm, sizeof(f->parent_comm));
		aff = s->pub.aff;
		aff_cpu = s->pub.aff_cpu;
	}
	if (f->child_pid <= 0)
		return 0;
	s = model_task_find(m, f->child_pid);
	if (s && s->pub.state != MODEL_TASK_DEAD) {
		/* the kernel never hands out a live tid: its end was not seen */
		m->stats.pid_reuse++;
		model_task_reset(m, s, ev->ts_ns);
	}
	s = model_task_get(m, f->child_pid, ev->ts_ns);
	if (!s)
		return -ENOMEM;
	model_set_comm(&s->pub, f->child_comm, sizeof(f->child_comm));
	/*
	 * A new task starts with no NUMA fault statistics (the kernel's
	 * init_numa_balancing()); a child of kthreadd is a kernel thread,
	 * which has no mm and never takes a hinting fault.
	 */
	s->pub.born = true;
	s->pub.has_faults = false;
	s->pub.moved_since_ran = true;	/* __sched_fork(): se.exec_start = 0 */
	/* init_numa_balancing(): numa_preferred_nid = NUMA_NO_NODE */
	model_set_pref(m, &s->pub, -1, true);
	s->pub.known |= MODEL_KNOWN_MOVED;
	s->pub.kthread_child = f->parent_pid == 2;
	s->pub.aff = aff;	/* dup_task_struct(): the parent's cpus_mask */
	s->pub.aff_cpu = aff_cpu;
	return 0;
}

/* A NUMA hinting fault: the faulting task is the one running (common_pid). */
static int feed_fault(struct model *m, const struct sr_event *ev)
{
	struct model_slot *s;

	m->stats.fault_events++;
	if (ev->pid <= 0)
		return 0;
	s = model_task_get(m, ev->pid, ev->ts_ns);
	if (!s)
		return -ENOMEM;
	s->pub.nr_fault_events++;
	s->pub.has_faults = true;
	s->pub.known |= MODEL_KNOWN_HAS_FAULTS;
	return 0;
}

/* comm after exec: the file name's last part, as the kernel's __set_task_comm() */
static void exec_comm(struct model_task *t, const char *file, uint32_t len)
{
	const char *base = file;
	uint32_t i;

	if (!file || !len)
		return;
	for (i = 0; i < len && file[i]; i++)
		if (file[i] == '/')
			base = file + i + 1;
	model_set_comm(t, base, (size_t)(file + i - base));
}

/*
 * The exec'ing thread keeps what is known of it; when it was not the leader
 * it takes over the leader's tid (de_thread()) and its own tid is gone.
 */
static void exec_takeover(struct model *m, struct model_slot *old, struct model_slot *s)
{
	struct model_task keep = old->pub;
	struct model_fstate fs = old->fs;
	uint64_t *faults = s->pub.faults;
	uint64_t *group_faults = s->pub.group_faults;

	model_place(m, s, -1, MODEL_TASK_UNKNOWN);
	model_place(m, old, old->pub.cpu, MODEL_TASK_DEAD);
	old->pub.faults = faults;
	old->pub.group_faults = group_faults;
	old->fs = s->fs;
	s->fs = fs;
	s->pub = keep;
	s->pub.state = MODEL_TASK_UNKNOWN;
	s->pub.known &= ~(MODEL_KNOWN_CPU | MODEL_KNOWN_STATE);
	s->pub.cpu = -1;
}

static int feed_exec(struct model *m, const struct sr_event *ev)
{
	const struct sr_ev_exec *x = &ev->u.exec;
	struct model_slot *old;
	struct model_slot *s;
	struct model_cpu *c;
	int tid;
	int ret = 0;

	if (x->pid <= 0)
		return 0;
	c = cpu_of(m, ev->cpu, &ret);
	if (ret)
		return ret;
	if (x->old_pid > 0 && x->old_pid != x->pid) {
		old = model_task_get(m, x->old_pid, ev->ts_ns);
		s = model_task_find(m, x->pid);
		if (!s)
			s = model_task_get(m, x->pid, ev->ts_ns);
		if (!old || !s)
			return -ENOMEM;
		tid = s->pub.tid;
		exec_takeover(m, old, s);
		s->pub.tid = tid;
		if (c && c->curr == x->old_pid)
			c->curr = x->pid;
	} else {
		s = model_task_get(m, x->pid, ev->ts_ns);
		if (!s)
			return -ENOMEM;
	}
	s->pub.tgid = x->pid;
	s->pub.known |= MODEL_KNOWN_TGID;
	s->pub.moved_since_ran = false;	/* it is running */
	s->pub.known |= MODEL_KNOWN_MOVED;
	exec_comm(&s->pub, ev->str, ev->str_len);
	/*
	 * taskset, numactl and the like set the mask (sched_setaffinity(),
	 * not traced) and then exec: what was known of it is not any more.
	 */
	s->pub.aff = MODEL_AFF_UNKNOWN;
	s->pub.ran_cpu = ev->cpu;
	model_place(m, s, c ? ev->cpu : -1, MODEL_TASK_RUNNING);
	return 0;
}

static int feed_exit(struct model *m, const struct sr_event *ev)
{
	struct model_slot *s;

	if (ev->u.exit.pid <= 0)
		return 0;
	s = model_task_get(m, ev->u.exit.pid, ev->ts_ns);
	if (!s)
		return -ENOMEM;
	/* still running: it becomes DEAD at its switch-out with X or Z */
	model_set_comm(&s->pub, ev->u.exit.comm, sizeof(ev->u.exit.comm));
	return 0;
}

/*
 * Events lost on @cpu (-1: every CPU): a task there may have run unseen,
 * so whether it moved since it last ran is no longer known.
 */
static void lost_moved(struct model *m, int cpu)
{
	struct model_chunk *c;
	int i;

	for (c = m->chunks; c; c = c->next)
		for (i = 0; i < c->used; i++) {
			struct model_task *t = &c->slots[i].pub;

			if (cpu == -1 || !(t->known & MODEL_KNOWN_CPU) || t->cpu == cpu)
				t->known &= ~MODEL_KNOWN_MOVED;
		}
}

static void feed_lost(struct model *m, const struct sr_event *ev)
{
	int i;

	if (ev->cpu >= -1)
		lost_moved(m, ev->cpu);

	m->stats.lost_records++;
	if (ev->u.lost.count > 0)
		m->stats.lost_events += (uint64_t)ev->u.lost.count;
	if (ev->cpu >= 0 && ev->cpu < m->nr_cpus) {
		m->cpus[ev->cpu].curr = -1;
		m->cpus[ev->cpu].known = false;
	} else if (ev->cpu == -1) {
		for (i = 0; i < m->nr_cpus; i++) {
			m->cpus[i].curr = -1;
			m->cpus[i].known = false;
		}
	} else {
		m->stats.bad_cpu++;
	}
}

int model_feed(struct model *m, const struct sr_event *ev)
{
	int ret;

	m->stats.events++;
	if (m->have_ts && ev->ts_ns < m->last_ts_ns)
		m->stats.unordered++;
	m->last_ts_ns = ev->ts_ns;
	m->have_ts = true;

	switch (ev->kind) {
	case SR_EV_SWITCH:
		return feed_switch(m, ev);
	case SR_EV_WAKING:
	case SR_EV_WAKEUP:
	case SR_EV_WAKEUP_NEW:
		return feed_wakeup(m, ev);
	case SR_EV_MIGRATE:
		return feed_migrate(m, ev);
	case SR_EV_MOVE_NUMA:
	case SR_EV_SWAP_NUMA:
	case SR_EV_STICK_NUMA:
		return model_feed_numa(m, ev);
	case SR_EV_FORK:
		return feed_fork(m, ev);
	case SR_EV_EXEC:
		return feed_exec(m, ev);
	case SR_EV_EXIT:
		return feed_exit(m, ev);
	case SR_EV_NUMA_FAULT:
		ret = model_feed_fault(m, ev);	/* before feed_fault() marks has_faults */
		return ret ? ret : feed_fault(m, ev);
	case SR_EV_MIGRATE_PAGES:
		return model_feed_misplaced(m, ev);
	case SR_EV_PRINT:
		if (ev->marker == SR_MARK_NUMA_SAMPLE)
			return model_feed_sample(m, ev);
		if (ev->marker == SR_MARK_SYSCTL)
			model_feed_sysctl(m, ev);
		if (ev->marker == SR_MARK_TASK)
			return model_feed_snapshot_task(m, ev);
		if (ev->marker == SR_MARK_SNAPSHOT)
			return model_feed_snapshot_end(m, ev);
		return 0;
	case SR_EV_LOST:
		feed_lost(m, ev);
		return 0;
	default:
		return 0;
	}
}
