// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model-snapshot.c - the recorder's start snapshot (schedreplay_task lines,
 * then one schedreplay_snapshot line; docs/formats.md) seeds the tasks that
 * are older than the trace.
 *
 * The session's pre-scan hands the start lines' lasting facts (tgid,
 * PF_KTHREAD, comm) to model_seed_tasks() before the first event, so the
 * decisions before a task's line know them too.  Each task line is then
 * applied where it sits in the trace: its comm and tgid
 * when the trace had not told them, its last CPU when the model had none,
 * PF_KTHREAD (kernel-thread evidence "snapshot", model-kthread.c), and for
 * a user task its NUMA numbers as a numa_sample's (preferred node, group,
 * per-node faults: the kernel's own at that moment).  End lines are not
 * applied: the replay has the trace's own account by then.
 *
 * se.exec_start is in the rq's clock_task, which runs behind the trace's
 * clock by the IRQ and steal time accounted since boot.  The offset is
 * measured on the trace itself, per CPU (each rq keeps its own clock_task):
 * a task that the trace saw switched out and not switched in again before
 * its line had exec_start set at that switch-out, on that CPU, so
 * (switch-out time - exec_start) is that CPU's offset; the median over
 * those tasks is taken at the summary line, and every task whose last run
 * the trace has not shown gets exec_start + its CPU's offset as its last
 * run (what task_hot() reads).  A CPU no such task measured seeds none.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model-local.h"

static int add_pair(struct model *m, int cpu, int64_t off)
{
	if (m->nr_clock_pairs == m->cap_clock_pairs) {
		size_t cap = m->cap_clock_pairs ? 2 * m->cap_clock_pairs : 256;
		struct model_clock_pair *p = realloc(m->clock_pairs, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		m->clock_pairs = p;
		m->cap_clock_pairs = cap;
	}
	m->clock_pairs[m->nr_clock_pairs].cpu = cpu;
	m->clock_pairs[m->nr_clock_pairs++].off = off;
	return 0;
}

int model_feed_snapshot_task(struct model *m, const struct sr_event *ev)
{
	struct marker_task *tl = &m->snap;
	struct model_slot *s;
	struct model_task *t;
	int ret;

	if (marker_decode_task(ev, tl) || !model_sample_faults_valid(&tl->s)) {
		m->stats.snapshot_bad++;
		return 0;
	}
	if (tl->phase != MARKER_PHASE_START || m->snap_done)
		return 0;
	s = model_task_find(m, tl->s.tid);
	if (s && s->pub.state == MODEL_TASK_DEAD)
		return 0;	/* exited before its line: read before the exit */
	s = model_task_get(m, tl->s.tid, ev->ts_ns);
	if (!s)
		return -ENOMEM;
	t = &s->pub;
	m->stats.snapshot_tasks++;
	if (!(t->known & MODEL_KNOWN_COMM) && tl->status[MK_TASK_COMM] == MARKER_OK)
		model_set_comm(t, tl->s.comm, sizeof(tl->s.comm));
	if (tl->s.pid > 0) {
		t->tgid = tl->s.pid;
		t->known |= MODEL_KNOWN_TGID;
	}
	if (tl->status[MK_TASK_KTHREAD] == MARKER_OK) {
		t->snap_kthread = tl->kthread;
		m->stats.snapshot_kthreads += tl->kthread == 1;
	}
	if (tl->status[MK_TASK_CPUS] == MARKER_OK) {
		int n = 0, one = -1;
		size_t w;

		for (w = 0; w < MARKER_MAX_CPUS / 64; w++)
			if (tl->cpus[w]) {
				n += __builtin_popcountll(tl->cpus[w]);
				one = (int)(w * 64) + __builtin_ctzll(tl->cpus[w]);
			}
		if (n == 1) {
			t->aff = MODEL_AFF_ONE;
			t->aff_cpu = one;
		} else if (n > 1) {
			t->aff = MODEL_AFF_MANY;
		}
	}
	if (!(t->known & MODEL_KNOWN_CPU) && tl->s.cpu >= 0 && tl->s.cpu < m->nr_cpus)
		model_place(m, s, tl->s.cpu, t->state);
	if (tl->status[MK_TASK_EXEC_START] == MARKER_OK) {
		t->exec_start_ns = tl->exec_start_ns;
		t->known |= MODEL_KNOWN_EXEC_START;
		if ((t->known & MODEL_KNOWN_LAST_RAN) && (t->known & MODEL_KNOWN_STATE) &&
		    (t->known & MODEL_KNOWN_CPU) && t->state != MODEL_TASK_RUNNING &&
		    t->state != MODEL_TASK_DEAD && t->cpu == tl->s.cpu &&
		    add_pair(m, t->cpu, (int64_t)t->last_ran_ns - tl->exec_start_ns) < 0)
			return -ENOMEM;
	}
	/* a kernel thread has no mm: no NUMA numbers (the trace's evidence says so) */
	if (tl->kthread != 1 && tl->status[MK_TASK_NMIG] == MARKER_OK) {
		ret = model_apply_sample(m, s, &tl->s, ev->ts_ns, false);
		if (ret)
			return ret;
	}
	return 0;
}

static int cmp_pair(const void *a, const void *b)
{
	const struct model_clock_pair *x = a, *y = b;

	if (x->cpu != y->cpu)
		return (x->cpu > y->cpu) - (x->cpu < y->cpu);
	return (x->off > y->off) - (x->off < y->off);
}

bool model_clock_task_offset(const struct model *m, int cpu, int64_t *off_ns)
{
	if (cpu < 0 || cpu >= m->nr_clock_off || !m->clock_off_known[cpu])
		return false;
	*off_ns = m->clock_off[cpu];
	return true;
}

/* each CPU's median offset; Return: 0 or -ENOMEM */
static int clock_offsets(struct model *m)
{
	size_t i, j;

	m->nr_clock_off = m->nr_cpus;
	m->clock_off = calloc((size_t)m->nr_cpus, sizeof(*m->clock_off));
	m->clock_off_known = calloc((size_t)m->nr_cpus, sizeof(*m->clock_off_known));
	if (!m->clock_off || !m->clock_off_known)
		return -ENOMEM;
	qsort(m->clock_pairs, m->nr_clock_pairs, sizeof(m->clock_pairs[0]), cmp_pair);
	for (i = 0; i < m->nr_clock_pairs; i = j) {
		int cpu = m->clock_pairs[i].cpu;

		for (j = i; j < m->nr_clock_pairs && m->clock_pairs[j].cpu == cpu; j++)
			;
		if (cpu < 0 || cpu >= m->nr_cpus)
			continue;
		m->clock_off[cpu] = m->clock_pairs[i + (j - i) / 2].off;
		m->clock_off_known[cpu] = true;
	}
	m->stats.exec_clock_pairs = m->nr_clock_pairs;
	return 0;
}

int model_feed_snapshot_end(struct model *m, const struct sr_event *ev)
{
	struct marker_snapshot sn;
	struct model_chunk *c;
	int i;

	if (marker_decode_snapshot(ev, &sn) < 0 || sn.phase != MARKER_PHASE_START || m->snap_done)
		return 0;
	m->snap_done = true;
	if (!m->nr_clock_pairs)
		return 0;
	if (clock_offsets(m) < 0)
		return -ENOMEM;
	for (c = m->chunks; c; c = c->next) {
		for (i = 0; i < c->used; i++) {
			struct model_task *t = &c->slots[i].pub;
			int64_t off, ran;

			if (!(t->known & MODEL_KNOWN_EXEC_START) || (t->known & MODEL_KNOWN_LAST_RAN) ||
			    !(t->known & MODEL_KNOWN_CPU) || t->state == MODEL_TASK_RUNNING ||
			    t->state == MODEL_TASK_DEAD || !model_clock_task_offset(m, t->cpu, &off))
				continue;
			ran = t->exec_start_ns + off;
			if (ran < 0 || (uint64_t)ran > ev->ts_ns)
				continue;
			t->last_ran_ns = (uint64_t)ran;
			t->known |= MODEL_KNOWN_LAST_RAN;
			m->stats.snapshot_last_ran++;
		}
	}
	return 0;
}

static int cmp_seed(const void *a, const void *b)
{
	const struct model_seed *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

int model_seed_tasks(struct model *m, const struct model_seed *seeds, size_t n)
{
	size_t i, o = 0;

	free(m->seeds);
	m->seeds = NULL;
	m->nr_seeds = 0;
	if (!n)
		return 0;
	m->seeds = malloc(n * sizeof(*seeds));
	if (!m->seeds)
		return -ENOMEM;
	memcpy(m->seeds, seeds, n * sizeof(*seeds));
	/* stable for equal tids is not needed: the first of a tid is kept below */
	for (i = 0; i < n; i++)
		m->seeds[i].comm[SR_COMM_LEN - 1] = '\0';
	qsort(m->seeds, n, sizeof(*seeds), cmp_seed);
	for (i = 0; i < n; i++)
		if (!o || m->seeds[o - 1].tid != m->seeds[i].tid)
			m->seeds[o++] = m->seeds[i];
	m->nr_seeds = o;
	return 0;
}

void model_seed_apply(struct model *m, struct model_slot *s)
{
	struct model_seed key = { .tid = s->pub.tid };
	const struct model_seed *sd;
	struct model_task *t = &s->pub;

	if (!m->nr_seeds)
		return;
	sd = bsearch(&key, m->seeds, m->nr_seeds, sizeof(key), cmp_seed);
	if (!sd)
		return;
	if (sd->tgid > 0) {
		t->tgid = sd->tgid;
		t->known |= MODEL_KNOWN_TGID;
	}
	t->snap_kthread = sd->kthread;
	if (!(t->known & MODEL_KNOWN_COMM) && sd->comm[0])
		model_set_comm(t, sd->comm, sizeof(sd->comm));
}
