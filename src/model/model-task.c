// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model-task.c - the task table: tid -> slot by open addressing with
 * linear probing (never deleted from: a dead task stays, a reused tid is
 * reset in place), slots carved from chunks so pointers stay valid, fault
 * arrays carved from an arena.  Also the per-CPU array and model_place(),
 * the one function that changes a task's CPU or state, so that every
 * CPU's nr_runnable stays equal to the tasks RUNNING or RUNNABLE there.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model-local.h"

#define MODEL_TABLE_MIN 1024

/* model_debug_fill(): the byte fresh blocks are filled with, -1 for none */
static int debug_fill = -1;

void model_debug_fill(int byte)
{
	debug_fill = byte >= 0 && byte <= 0xff ? byte : -1;
}

/* What fresh memory holds before the model writes it, when a test asks. */
static void fresh(void *p, size_t n)
{
	if (debug_fill >= 0)
		memset(p, debug_fill, n);
}

static size_t hash_tid(int tid, size_t size)
{
	return ((uint32_t)tid * 2654435761u) & (size - 1);
}

struct model_slot *model_task_find(const struct model *m, int tid)
{
	size_t i;

	if (!m->table)
		return NULL;
	for (i = hash_tid(tid, m->table_size); m->table[i]; i = (i + 1) & (m->table_size - 1)) {
		if (m->table[i]->pub.tid == tid)
			return m->table[i];
	}
	return NULL;
}

static int table_grow(struct model *m)
{
	size_t size = m->table_size ? m->table_size * 2 : MODEL_TABLE_MIN;
	struct model_slot **table;
	size_t i;
	size_t j;

	table = calloc(size, sizeof(*table));
	if (!table)
		return -ENOMEM;
	for (i = 0; i < m->table_size; i++) {
		if (!m->table[i])
			continue;
		for (j = hash_tid(m->table[i]->pub.tid, size); table[j]; j = (j + 1) & (size - 1))
			;
		table[j] = m->table[i];
	}
	free(m->table);
	m->table = table;
	m->table_size = size;
	return 0;
}

static struct model_slot *slot_alloc(struct model *m)
{
	struct model_chunk *c = m->chunks;

	if (!c || c->used == MODEL_CHUNK_TASKS) {
		c = malloc(sizeof(*c));
		if (!c)
			return NULL;
		fresh(c, sizeof(*c));
		c->used = 0;
		c->next = m->chunks;
		m->chunks = c;
	}
	return &c->slots[c->used++];
}

static bool counted(const struct model *m, const struct model_task *t)
{
	return (t->state == MODEL_TASK_RUNNING || t->state == MODEL_TASK_RUNNABLE) &&
	       (t->known & MODEL_KNOWN_CPU) && t->cpu >= 0 && t->cpu < m->nr_cpus;
}

/* Add (+1) or remove (-1) a counted task from its CPU's counters. */
static void account(struct model *m, const struct model_task *t, int d)
{
	struct model_cpu *c = &m->cpus[t->cpu];

	model_cpu_pelt_advance(m, c);
	c->nr_runnable += d;
	if (!(t->known & MODEL_KNOWN_PREF_NODE))
		c->nr_pref_unknown += d;
	else if (t->pref_node >= 0 && t->pref_node == topo_cpu_node(m->topo, t->cpu))
		c->nr_preferred += d;
}

void model_set_pref(struct model *m, struct model_task *t, int pref, bool known)
{
	bool was = counted(m, t);

	if (was)
		account(m, t, -1);
	t->pref_node = pref;
	if (known)
		t->known |= MODEL_KNOWN_PREF_NODE;
	else
		t->known &= ~MODEL_KNOWN_PREF_NODE;
	if (was)
		account(m, t, +1);
}

void model_place(struct model *m, struct model_slot *s, int cpu, enum model_task_state st)
{
	struct model_task *t = &s->pub;

	if (counted(m, t))
		account(m, t, -1);
	if (t->state != MODEL_TASK_DEAD && st == MODEL_TASK_DEAD) {
		m->stats.tasks_live--;
		model_faults_exit(m, s);	/* the kernel's task_numa_free() */
	}
	else if (t->state == MODEL_TASK_DEAD && st != MODEL_TASK_DEAD)
		m->stats.tasks_live++;
	if (cpu >= 0 && cpu < m->nr_cpus) {
		t->cpu = cpu;
		t->known |= MODEL_KNOWN_CPU;
	} else {
		t->cpu = -1;
		t->known &= ~MODEL_KNOWN_CPU;
	}
	t->state = st;
	if (st == MODEL_TASK_UNKNOWN)
		t->known &= ~MODEL_KNOWN_STATE;
	else
		t->known |= MODEL_KNOWN_STATE;
	if (counted(m, t))
		account(m, t, +1);
}

void model_task_reset(struct model *m, struct model_slot *s, uint64_t ts_ns)
{
	struct model_task *t = &s->pub;

	model_place(m, s, -1, MODEL_TASK_UNKNOWN);
	t->tgid = -1;
	memset(t->comm, 0, sizeof(t->comm));
	t->known = 0;
	t->pref_node = -1;
	t->last_ran_ns = 0;
	t->first_seen_ns = ts_ns;
	t->pref_node = -1;
	t->numa_group = -1;
	t->nr_migrations = 0;
	t->nr_fault_events = 0;
	t->has_faults = false;
	t->born = false;
	t->moved_since_ran = false;
	t->kthread_child = false;
	t->comm_kthread = false;
	t->comm_stopper = false;
	t->aff = MODEL_AFF_UNKNOWN;
	t->aff_cpu = -1;
	t->ran_cpu = -1;
	t->snap_kthread = -1;
	t->exec_start_ns = -1;
	t->rq_head_ns = 0;
	t->rq_head_known = false;
	t->ks_seen = false;
	model_faults_exit(m, s);
	if (s->fs.mem)
		memset(s->fs.mem, 0, 8 * (size_t)m->nr_nodes * sizeof(uint64_t));
	s->fs.active = false;
	s->fs.epoch = 0;
	s->fs.placements = 0;
	s->fs.base_known = false;
	s->fs.sampled = false;
	m->stats.tasks_seen++;
}

struct model_slot *model_task_get(struct model *m, int tid, uint64_t ts_ns)
{
	struct model_slot *s;
	size_t i;

	if (tid <= 0)
		return NULL;
	s = model_task_find(m, tid);
	if (s) {
		if (s->pub.state == MODEL_TASK_DEAD) {
			m->stats.pid_reuse++;
			model_task_reset(m, s, ts_ns);
		}
		return s;
	}
	if ((m->table_used + 1) * 10 > m->table_size * 7 && table_grow(m))
		return NULL;
	s = slot_alloc(m);
	if (!s)
		return NULL;
	memset(s, 0, sizeof(*s));
	s->pub.tid = tid;
	s->pub.cpu = -1;
	m->stats.tasks_live++;
	model_task_reset(m, s, ts_ns);
	model_seed_apply(m, s);
	for (i = hash_tid(tid, m->table_size); m->table[i]; i = (i + 1) & (m->table_size - 1))
		;
	m->table[i] = s;
	m->table_used++;
	return s;
}

uint64_t *model_arena_take(struct model *m, size_t n)
{
	struct model_arena *a = m->arena;
	uint64_t *v;
	size_t cap;

	if (!a || a->cap - a->used < n) {
		cap = 2 * (size_t)(m->nr_nodes > 0 ? m->nr_nodes : 1) * MODEL_ARENA_TASKS;
		if (cap < n)
			cap = n;
		a = malloc(sizeof(*a) + cap * sizeof(uint64_t));
		if (!a)
			return NULL;
		fresh(a->vals, cap * sizeof(uint64_t));
		a->used = 0;
		a->cap = cap;
		a->next = m->arena;
		m->arena = a;
	}
	v = &a->vals[a->used];
	a->used += n;
	memset(v, 0, n * sizeof(uint64_t));
	return v;
}

int model_task_faults(struct model *m, struct model_slot *s)
{
	uint64_t *v;

	if (s->pub.faults)
		return 0;
	v = model_arena_take(m, 2 * (size_t)m->nr_nodes);
	if (!v)
		return -ENOMEM;
	s->pub.faults = v;
	s->pub.group_faults = v + m->nr_nodes;
	return 0;
}

void model_tasks_free(struct model *m)
{
	struct model_chunk *c;
	struct model_arena *a;

	while ((c = m->chunks)) {
		m->chunks = c->next;
		free(c);
	}
	while ((a = m->arena)) {
		m->arena = a->next;
		free(a);
	}
	free(m->table);
	m->table = NULL;
	m->table_size = 0;
	m->table_used = 0;
}

/* what is left of a PELT average after @dt ns: util and runnable share it */
static double pelt_decay(uint64_t dt)
{
	return exp2(-(double)dt / (double)MODEL_PELT_HALFLIFE_NS);
}

/* decay @v by @f (pelt_decay()) and add @level for that time (PELT's geometric series) */
static double pelt_step(double v, double f, double level)
{
	return v * f + level * (1.0 - f);
}

void model_cpu_pelt_advance(struct model *m, struct model_cpu *c)
{
	uint64_t now = m->last_ts_ns;
	double f;

	if (!c->pelt_on) {
		c->pelt_on = true;
		c->pelt_ns = c->pelt_from_ns = now;
		c->util = c->runnable = 0;
		return;
	}
	if (now <= c->pelt_ns)
		return;
	if (now - c->pelt_ns == c->memo_dt) {
		f = c->memo_f;
	} else {
		f = pelt_decay(now - c->pelt_ns);
		c->memo_dt = now - c->pelt_ns;
		c->memo_f = f;
	}
	c->util = pelt_step(c->util, f, c->curr > 0 ? 1024.0 : 0.0);
	c->runnable = pelt_step(c->runnable, f, 1024.0 * (c->nr_runnable > 0 ? c->nr_runnable : 0));
	c->pelt_ns = now;
}

bool model_cpu_pelt(const struct model *m, int cpu, uint64_t ts_ns, double *util, double *runnable)
{
	const struct model_cpu *c;
	uint64_t dt;
	double f;

	if (cpu < 0 || cpu >= m->nr_cpus)
		return false;
	c = &m->cpus[cpu];
	if (!c->pelt_on || !c->known || c->curr < 0 || ts_ns < c->pelt_from_ns + MODEL_PELT_SETTLE_NS)
		return false;
	dt = ts_ns > c->pelt_ns ? ts_ns - c->pelt_ns : 0;
	if (!dt) {
		/* brought up to date at this time: nothing decays (exp2(0) is 1 exactly) */
		*util = c->util;
		*runnable = c->runnable;
		return true;
	}
	if (dt == c->memo_dt) {
		f = c->memo_f;
	} else {
		/* the model is the caller's to read: the memo is a cache of it, not a change */
		struct model_cpu *mc = &m->cpus[cpu];

		f = pelt_decay(dt);
		mc->memo_dt = dt;
		mc->memo_f = f;
	}
	*util = pelt_step(c->util, f, c->curr > 0 ? 1024.0 : 0.0);
	*runnable = pelt_step(c->runnable, f, 1024.0 * (c->nr_runnable > 0 ? c->nr_runnable : 0));
	return true;
}

struct model_cpu *model_cpu_ensure(struct model *m, int cpu, bool *nomem)
{
	struct model_cpu *cpus;
	int cap;
	int i;

	if (cpu < 0 || cpu >= TOPO_MAX_CPUS) {
		m->stats.bad_cpu++;
		return NULL;
	}
	if (cpu >= m->cap_cpus) {
		cap = m->cap_cpus ? m->cap_cpus : 8;
		while (cap <= cpu)
			cap *= 2;
		if (cap > TOPO_MAX_CPUS)
			cap = TOPO_MAX_CPUS;
		cpus = realloc(m->cpus, (size_t)cap * sizeof(*cpus));
		if (!cpus) {
			*nomem = true;
			return NULL;
		}
		fresh(cpus + m->cap_cpus, (size_t)(cap - m->cap_cpus) * sizeof(*cpus));
		m->cpus = cpus;
		m->cap_cpus = cap;
	}
	/* every field: a counter left to the allocator is undefined behaviour */
	for (i = m->nr_cpus; i <= cpu; i++) {
		memset(&m->cpus[i], 0, sizeof(m->cpus[i]));
		m->cpus[i].curr = -1;
	}
	if (cpu >= m->nr_cpus)
		m->nr_cpus = cpu + 1;
	return &m->cpus[cpu];
}

void model_set_comm(struct model_task *t, const char *comm, size_t max)
{
	size_t n;

	if (!comm || !max || !comm[0])
		return;
	/*
	 * The usual case, the name it had: @comm is the same 16 bytes
	 * (t->comm[15] is always NUL, so @comm's is too, and what the copy
	 * below would make is what is there).  Switches and wake-ups name
	 * a task each time; this check is a few instructions, the copy a
	 * strnlen() and a memcpy() call.
	 */
	if (max >= SR_COMM_LEN && !memcmp(t->comm, comm, SR_COMM_LEN)) {
		t->known |= MODEL_KNOWN_COMM;
		return;
	}
	if (max > SR_COMM_LEN - 1)
		max = SR_COMM_LEN - 1;
	n = strnlen(comm, max);
	memcpy(t->comm, comm, n);
	t->comm[n] = '\0';
	t->comm_kthread = model_kthread_name(t->comm, sizeof(t->comm));
	t->comm_stopper = !strncmp(t->comm, "migration/", 10);
	t->known |= MODEL_KNOWN_COMM;
}
