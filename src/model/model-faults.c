// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model-faults.c - the fault model: per-fault kprobe events on
 * task_numa_fault() accumulated per task and per NUMA group, per node,
 * with the kernel's decay (docs/kernel-behaviour.md section 4.1-4.3).
 *
 * Each fault adds its pages to the task's current-window buffers, MEMBUF
 * by the page's node and CPUBUF by the faulting CPU's node, private or
 * shared as the kernel judges it from last_cpupid.  When a fault arrives in
 * a later scan epoch (trace time / scan period) than the task's last
 * placement, task_numa_placement() runs first: MEM = MEM/2 + MEMBUF,
 * CPU = CPU/2 + CPUBUF (not runtime-weighted: the trace has no PELT sums),
 * and the task's group totals move by the same deltas.  The current fault
 * goes into the buffers after placement, as in the kernel.
 *
 * Invariants: a group's mem/cpu arrays are the sum of the arrays of the
 * tasks whose contrib_gid is that group; a task's fault-model numbers are
 * published into model_task only while no numa_sample has given them
 * (samples win) and once they are known (the task's history before the
 * trace is empty, or decayed away: MODEL_FAULT_SETTLE_EPOCHS).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model-local.h"

#define GROUP_TABLE_MIN 64
/* numa_is_active_node(): faults_cpu * ACTIVE_NODE_FRACTION > max_faults_cpu */
#define ACTIVE_NODE_FRACTION 3

const struct model_fault_stats *model_fault_stats(const struct model *m)
{
	return &m->fstats;
}

void model_set_scan_period(struct model *m, uint64_t ns)
{
	if (!ns)
		return;
	m->scan_period_ns = ns;
	m->scan_period_fixed = true;
}

uint64_t model_scan_period(const struct model *m)
{
	return m->scan_period_ns;
}

void model_faults_free(struct model *m)
{
	free(m->groups);
	m->groups = NULL;
	m->groups_size = 0;
	m->groups_used = 0;
	free(m->misplaced);
	m->misplaced = NULL;
	m->nr_misplaced = 0;
}

/* ---- groups -------------------------------------------------------------- */

static size_t hash_gid(int gid, size_t size)
{
	return ((uint32_t)gid * 2654435761u) & (size - 1);
}

static struct model_group *group_find(const struct model *m, int gid)
{
	size_t i;

	if (!m->groups || gid <= 0)
		return NULL;
	for (i = hash_gid(gid, m->groups_size); m->groups[i].gid;
	     i = (i + 1) & (m->groups_size - 1))
		if (m->groups[i].gid == gid)
			return &m->groups[i];
	return NULL;
}

static int groups_grow(struct model *m)
{
	size_t size = m->groups_size ? m->groups_size * 2 : GROUP_TABLE_MIN, i, j;
	struct model_group *t = calloc(size, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < m->groups_size; i++) {
		if (!m->groups[i].gid)
			continue;
		for (j = hash_gid(m->groups[i].gid, size); t[j].gid; j = (j + 1) & (size - 1))
			;
		t[j] = m->groups[i];
	}
	free(m->groups);
	m->groups = t;
	m->groups_size = size;
	return 0;
}

static struct model_group *group_get(struct model *m, int gid)
{
	struct model_group *g = group_find(m, gid);
	uint64_t *v;
	size_t i;

	if (g)
		return g;
	if ((m->groups_used + 1) * 10 > m->groups_size * 7 && groups_grow(m))
		return NULL;
	v = model_arena_take(m, 2 * (size_t)m->nr_nodes);
	if (!v)
		return NULL;
	for (i = hash_gid(gid, m->groups_size); m->groups[i].gid; i = (i + 1) & (m->groups_size - 1))
		;
	g = &m->groups[i];
	memset(g, 0, sizeof(*g));
	g->gid = gid;
	g->mem = v;
	g->cpu = v + m->nr_nodes;
	m->groups_used++;
	return g;
}

static bool settled(const struct model_fstate *fs)
{
	return fs->base_known || fs->placements >= MODEL_FAULT_SETTLE_EPOCHS;
}

static void group_add(struct model *m, struct model_group *g, const struct model_fstate *fs,
		      int sign)
{
	int n;

	for (n = 0; n < m->nr_nodes; n++) {
		uint64_t mem = fs->mem[2 * n] + fs->mem[2 * n + 1];
		uint64_t cpu = fs->cpu[2 * n] + fs->cpu[2 * n + 1];

		if (sign > 0) {
			g->mem[n] += mem;
			g->cpu[n] += cpu;
		} else {
			g->mem[n] = g->mem[n] > mem ? g->mem[n] - mem : 0;
			g->cpu[n] = g->cpu[n] > cpu ? g->cpu[n] - cpu : 0;
		}
	}
}

static void contrib_remove(struct model *m, struct model_slot *s)
{
	struct model_group *g = group_find(m, s->fs.contrib_gid);

	if (g) {
		group_add(m, g, &s->fs, -1);
		g->members--;
		if (s->fs.incomplete_in_group)
			g->incomplete--;
	}
	s->fs.contrib_gid = 0;
	s->fs.incomplete_in_group = false;
}

/* Put the task's numbers into the group it is known to be in now. */
static int contrib_add(struct model *m, struct model_slot *s)
{
	const struct model_task *t = &s->pub;
	struct model_group *g;

	if (!(t->known & MODEL_KNOWN_NUMA_GROUP) || t->numa_group <= 0 || !s->fs.mem)
		return 0;
	g = group_get(m, t->numa_group);
	if (!g)
		return -ENOMEM;
	group_add(m, g, &s->fs, +1);
	g->members++;
	s->fs.contrib_gid = t->numa_group;
	if (!settled(&s->fs)) {
		g->incomplete++;
		s->fs.incomplete_in_group = true;
	}
	return 0;
}

void model_faults_exit(struct model *m, struct model_slot *s)
{
	contrib_remove(m, s);
}

/* ---- per task ------------------------------------------------------------ */

static int fstate_init(struct model *m, struct model_slot *s, uint64_t epoch)
{
	struct model_fstate *fs = &s->fs;
	size_t nr = 2 * (size_t)m->nr_nodes;

	if (!fs->mem) {
		uint64_t *v = model_arena_take(m, 5 * nr);

		if (!v)
			return -ENOMEM;
		fs->mem = v;
		fs->membuf = v + nr;
		fs->cpu = v + 2 * nr;
		fs->cpubuf = v + 3 * nr;
		fs->mig = v + 4 * nr;
		fs->migbuf = fs->mig + m->nr_nodes;
	}
	memset(fs->mem, 0, 5 * nr * sizeof(uint64_t));
	fs->epoch = epoch;
	fs->placements = 0;
	fs->active = true;
	return 0;
}

static int argmax(const uint64_t *v, int nr, uint64_t *max)
{
	int n, best = -1;

	*max = 0;
	for (n = 0; n < nr; n++)
		if (v[n] > *max) {	/* strict: ties go to the lowest node, as the kernel */
			*max = v[n];
			best = n;
		}
	return best;
}

/* The preferred node as v4.19+ task_numa_placement() picks it (section 4.3). */
static int derived_pref(const struct model *m, const struct model_slot *s, uint64_t *tmp)
{
	const struct model_group *g = group_find(m, s->fs.contrib_gid);
	uint64_t max;
	int n, nid;

	for (n = 0; n < m->nr_nodes; n++)
		tmp[n] = s->fs.mem[2 * n] + s->fs.mem[2 * n + 1];
	nid = argmax(tmp, m->nr_nodes, &max);
	if (nid < 0)
		return -1;
	if (g)
		nid = argmax(g->mem, m->nr_nodes, &max);
	return nid;
}

/* Publish the fault model's numbers as the task's, when samples have not. */
static int publish(struct model *m, struct model_slot *s)
{
	struct model_task *t = &s->pub;
	const struct model_group *g;
	int n, pref;

	if (s->fs.sampled || !settled(&s->fs))
		return 0;
	if (model_task_faults(m, s))
		return -ENOMEM;
	if (!(t->known & MODEL_KNOWN_FAULTS_MODELLED))
		m->fstats.modelled_tasks++;
	for (n = 0; n < m->nr_nodes; n++)
		t->faults[n] = s->fs.mem[2 * n] + s->fs.mem[2 * n + 1];
	t->known |= MODEL_KNOWN_FAULTS | MODEL_KNOWN_FAULTS_MODELLED;
	t->known &= ~MODEL_KNOWN_GROUP_FAULTS;
	if (t->known & MODEL_KNOWN_NUMA_GROUP) {
		g = group_find(m, s->fs.contrib_gid);
		if (t->numa_group == 0) {
			memset(t->group_faults, 0, (size_t)m->nr_nodes * sizeof(uint64_t));
			t->known |= MODEL_KNOWN_GROUP_FAULTS;
		} else if (g && g->gid == t->numa_group && !g->incomplete) {
			memcpy(t->group_faults, g->mem, (size_t)m->nr_nodes * sizeof(uint64_t));
			t->known |= MODEL_KNOWN_GROUP_FAULTS;
		}
	}
	/* group_faults is scratch for derived_pref(); it is rewritten below */
	pref = derived_pref(m, s, t->group_faults);
	if (t->known & MODEL_KNOWN_GROUP_FAULTS) {
		if (t->numa_group == 0)
			memset(t->group_faults, 0, (size_t)m->nr_nodes * sizeof(uint64_t));
		else
			memcpy(t->group_faults, group_find(m, s->fs.contrib_gid)->mem,
			       (size_t)m->nr_nodes * sizeof(uint64_t));
	} else {
		memset(t->group_faults, 0, (size_t)m->nr_nodes * sizeof(uint64_t));
	}
	if (pref >= 0)
		model_set_pref(m, t, pref, true);
	else if (!(t->known & MODEL_KNOWN_PREF_NODE) && s->fs.base_known)
		model_set_pref(m, t, -1, true);	/* NUMA_NO_NODE until max_faults > 0 */
	return 0;
}

/* task_numa_placement(): the decay, once per scan epoch (section 4.3). */
static int placement(struct model *m, struct model_slot *s, uint64_t epoch)
{
	struct model_fstate *fs = &s->fs;
	size_t i, nr = 2 * (size_t)m->nr_nodes;

	contrib_remove(m, s);
	for (i = 0; i < nr; i++) {
		fs->mem[i] = fs->mem[i] / 2 + fs->membuf[i];
		fs->membuf[i] = 0;
		fs->cpu[i] = fs->cpu[i] / 2 + fs->cpubuf[i];
		fs->cpubuf[i] = 0;
	}
	for (i = 0; i < (size_t)m->nr_nodes; i++) {
		fs->mig[i] = fs->mig[i] / 2 + fs->migbuf[i];
		fs->migbuf[i] = 0;
	}
	fs->epoch = epoch;
	fs->placements++;
	m->fstats.placements++;
	if (contrib_add(m, s))
		return -ENOMEM;
	return publish(m, s);
}

/*
 * last_cpupid is "never set" when its CPU field is all ones (the kernel
 * masks -1 to LAST_CPUPID_MASK, whose CPU part is NR_CPUS_BITS wide).
 */
static bool cpupid_unset(int cpupid)
{
	uint32_t cpuf = (uint32_t)cpupid >> 8;

	return cpupid < 0 || (cpuf >= 0xff && !(cpuf & (cpuf + 1)));
}

static void misplaced_attribute(struct model *m, const struct sr_event *ev, int node)
{
	struct model_misplaced *p;

	if (ev->cpu < 0 || ev->cpu >= m->nr_misplaced)
		return;
	p = &m->misplaced[ev->cpu];
	if (p->pid != ev->pid || !p->pages)
		return;
	if (node >= 0 && node < SR_MAX_NODES_MODEL) {
		m->fstats.misplaced_by_node[node] += p->pages;
		m->fstats.misplaced_unattributed -= p->pages;
	}
	p->pages = 0;
}

int model_feed_fault(struct model *m, const struct sr_event *ev)
{
	const struct sr_ev_numa_fault *f = &ev->u.fault;
	struct model_slot *s;
	struct model_task *t;
	uint64_t epoch = ev->ts_ns / m->scan_period_ns, pages;
	int priv, cnode;

	if (ev->pid <= 0)
		return 0;
	if (f->mem_node < 0 || f->mem_node >= m->nr_nodes) {
		m->stats.bad_node++;
		return 0;
	}
	s = model_task_get(m, ev->pid, ev->ts_ns);
	if (!s)
		return -ENOMEM;
	t = &s->pub;
	if (!s->fs.active) {
		/* its first fault in the trace: was there any history before? */
		if (fstate_init(m, s, epoch))
			return -ENOMEM;
		s->fs.base_known = t->born ||
				   ((t->known & MODEL_KNOWN_HAS_FAULTS) && !t->has_faults);
		if (contrib_add(m, s))
			return -ENOMEM;
	} else if (epoch != s->fs.epoch && placement(m, s, epoch)) {
		return -ENOMEM;
	}
	pages = f->pages > 0 ? (uint64_t)f->pages : 1;
	priv = cpupid_unset(f->last_cpupid) || (f->last_cpupid & 0xff) == (ev->pid & 0xff);
	s->fs.membuf[2 * f->mem_node + priv] += pages;
	cnode = topo_cpu_node(m->topo, ev->cpu);
	if (cnode >= 0 && cnode < m->nr_nodes)
		s->fs.cpubuf[2 * cnode + priv] += pages;

	m->fstats.faults++;
	m->fstats.fault_pages += pages;
	if (priv)
		m->fstats.private_faults++;
	if (f->flags & MODEL_TNF_FAULT_LOCAL)
		m->fstats.flag_local++;
	if (f->flags & MODEL_TNF_MIGRATED) {
		s->fs.migbuf[f->mem_node] += pages;
		m->fstats.flag_migrated++;
		misplaced_attribute(m, ev, f->mem_node);
	}
	return publish(m, s);
}

int model_feed_misplaced(struct model *m, const struct sr_event *ev)
{
	const struct sr_ev_migrate_pages *mp = &ev->u.pages;
	struct model_misplaced *p;

	if (!mp->numa_misplaced)
		return 0;
	m->fstats.misplaced_pages += mp->succeeded;
	m->fstats.misplaced_unattributed += mp->succeeded;
	if (ev->cpu < 0 || ev->cpu >= TOPO_MAX_CPUS)
		return 0;
	if (ev->cpu >= m->nr_misplaced) {
		int nr = ev->cpu + 1 > m->nr_cpus ? ev->cpu + 1 : m->nr_cpus;

		p = realloc(m->misplaced, (size_t)nr * sizeof(*p));
		if (!p)
			return -ENOMEM;
		memset(p + m->nr_misplaced, 0, (size_t)(nr - m->nr_misplaced) * sizeof(*p));
		m->misplaced = p;
		m->nr_misplaced = nr;
	}
	/* migrate_misplaced_page() runs in the fault, before task_numa_fault() */
	p = &m->misplaced[ev->cpu];
	p->pid = ev->pid;
	p->pages = mp->succeeded;
	return 0;
}

void model_feed_sysctl(struct model *m, const struct sr_event *ev)
{
	struct marker_sysctl sc;
	int64_t v;

	if (m->scan_period_fixed)
		return;
	marker_decode_sysctl(ev, &sc);
	if (sc.phase != MARKER_PHASE_START)
		return;	/* the end's line: the period the trace ran with is the start's */
	if (sc.status[MK_SYSCTL_SCAN_MIN] == MARKER_OK)
		v = sc.scan_period_min_ms;
	else if (sc.status[MK_SYSCTL_SCAN_MIN_OLD] == MARKER_OK)
		v = sc.scan_period_min_ms_old;
	else
		return;
	if (v > 0)
		m->scan_period_ns = (uint64_t)v * 1000 * 1000;
}

void model_faults_sampled(struct model *m, struct model_slot *s, const struct marker_sample *smp,
			  uint64_t ts_ns)
{
	struct model_fstate *fs = &s->fs;
	uint64_t model_tot = 0, smp_tot = 0, tmp[SR_MAX_NODES_MODEL];
	int n, nr = smp->nr_nodes < m->nr_nodes ? smp->nr_nodes : m->nr_nodes;
	int pref;

	if (fs->active && m->nr_nodes <= SR_MAX_NODES_MODEL) {
		for (n = 0; n < m->nr_nodes; n++)
			model_tot += fs->mem[2 * n] + fs->mem[2 * n + 1];
		for (n = 0; n < nr; n++)
			if (smp->faults[n].task_private >= 0)
				smp_tot += (uint64_t)smp->faults[n].task_private +
					   (uint64_t)smp->faults[n].task_shared;
		m->fstats.samples_compared++;
		m->fstats.gap_faults += model_tot > smp_tot ? model_tot - smp_tot : smp_tot - model_tot;
		m->fstats.sample_faults += smp_tot;
		pref = derived_pref(m, s, tmp);
		if (pref >= 0 && smp->pref >= 0 && pref != smp->pref)
			m->fstats.pref_mismatch++;
	}
	/* re-seed: the kernel's own numbers from here on */
	if (!fs->active && fstate_init(m, s, ts_ns / m->scan_period_ns))
		return;	/* out of memory: the fault model just stays unseeded */
	contrib_remove(m, s);
	for (n = 0; n < m->nr_nodes; n++) {
		const struct marker_node_faults *f = n < nr ? &smp->faults[n] : NULL;

		fs->mem[2 * n] = f && f->task_shared > 0 ? (uint64_t)f->task_shared : 0;
		fs->mem[2 * n + 1] = f && f->task_private > 0 ? (uint64_t)f->task_private : 0;
	}
	fs->base_known = true;
	fs->sampled = true;
	s->pub.known &= ~MODEL_KNOWN_FAULTS_MODELLED;
	contrib_add(m, s);	/* out of memory: the group just lacks this member */
}

double model_task_migrated_share(const struct model *m, const struct model_task *t, int node)
{
	const struct model_slot *s = t ? model_task_find(m, t->tid) : NULL;
	uint64_t tot = 0;
	int n;

	if (!s || !s->fs.active || !s->fs.mig || node < 0 || node >= m->nr_nodes)
		return 0;
	for (n = 0; n < 2 * m->nr_nodes; n++)
		tot += s->fs.mem[n];
	return tot ? (double)s->fs.mig[node] / (double)tot : 0;
}

bool model_group_active(const struct model *m, const struct model_task *t, uint64_t *mask)
{
	const struct model_group *g;
	uint64_t max;
	int n;

	*mask = 0;
	if (!(t->known & MODEL_KNOWN_NUMA_GROUP))
		return false;
	if (t->numa_group == 0)
		return true;
	g = group_find(m, t->numa_group);
	if (!g || g->incomplete || argmax(g->cpu, m->nr_nodes, &max) < 0)
		return false;
	for (n = 0; n < m->nr_nodes && n < 64; n++)
		if (g->cpu[n] * ACTIVE_NODE_FRACTION > max)
			*mask |= 1ull << n;
	return true;
}
