// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * decision-probe.c - the decision probes (docs/recording.md): the inputs
 * can_migrate_task() read, put into a candidate's snapshot in place of the
 * model's guesses, and the pairing of entry and return events per CPU.
 *
 * Kernel constants are those of Linux 6.1 (include/linux/sched/sd_flags.h,
 * kernel/sched/fair.c), the kernel the probes were written for.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decision.h"
#include "ingest/marker.h"
#include "decision-probe.h"

/* include/linux/sched/sd_flags.h of 6.1 */
#define SD_SHARE_CPUCAPACITY	0x0080
#define SD_SHARE_PKG_RESOURCES	0x0100
#define SD_NUMA			0x2000
/* kernel/sched/fair.c of 6.1 */
#define LBF_ACTIVE_LB		0x10
/* include/linux/sched.h */
#define PF_KTHREAD		0x00200000
/*
 * &p->se lies inside *p, at an offset far below sizeof(struct task_struct)
 * (several KiB on every x86-64 build); another task's se is at least that
 * far away, so a buddy pointer this close after p is p's own.
 */
#define PROBE_SE_SPAN		4096

static bool has(const struct sr_ev_probe *pr, int f)
{
	return sr_probe_has(pr, f);
}

/* the number at @p (up to 9 digits, as CPU and node ids are), -1 when none */
static int number_at(const char *p, const char **end)
{
	int v = 0, n = 0;

	while (*p >= '0' && *p <= '9' && n < 9) {
		v = v * 10 + (*p++ - '0');
		n++;
	}
	*end = p;
	return n ? v : -1;
}

/*
 * Where a kernel thread may run, from its name: the per-CPU ones
 * ("ksoftirqd/N", "cpuhp/N", "migration/N", "kworker/N:M", bound by
 * kthread_bind() or kthread_create_on_cpu()) on CPU N, *cpu set; kcompactdN
 * and kswapdN (set_cpus_allowed_ptr(cpumask_of_node(N))) on node N,
 * *node set.  Return: false when the name does not say (an unbound worker
 * "kworker/uN:M" follows its pool's mask, which no event shows).
 */
static bool kthread_binding(const char *comm, int *cpu, int *node)
{
	static const char *const per_cpu[] = { "ksoftirqd/", "cpuhp/", "migration/",
					       "kworker/", "idle_inject/" };
	static const char *const per_node[] = { "kcompactd", "kswapd" };
	const char *end;
	size_t i, n;
	int v;

	*cpu = *node = -1;
	for (i = 0; i < sizeof(per_cpu) / sizeof(per_cpu[0]); i++) {
		n = strlen(per_cpu[i]);
		if (strncmp(comm, per_cpu[i], n))
			continue;
		v = number_at(comm + n, &end);
		/* kworker/N:M, the others end at the number */
		if (v < 0 || (i == 3 ? *end != ':' : *end != '\0'))
			return false;
		*cpu = v;
		return true;
	}
	for (i = 0; i < sizeof(per_node) / sizeof(per_node[0]); i++) {
		n = strlen(per_node[i]);
		if (strncmp(comm, per_node[i], n))
			continue;
		v = number_at(comm + n, &end);
		if (v < 0 || *end)
			return false;
		*node = v;
		return true;
	}
	return false;
}

/* dst_allowed from the task's flags and name (a kernel thread's binding) */
static void apply_binding(struct sr_snapshot *s, const struct sr_ev_probe *pr)
{
	char comm[SR_SNAP_COMM_LEN];
	int cpu, node;

	if (!has(pr, SR_PF_P_FLAGS) || !(pr->v[SR_PF_P_FLAGS] & PF_KTHREAD) ||
	    !(s->known & SR_SNAP_COMM))
		return;
	memcpy(comm, s->comm, sizeof(comm));
	comm[sizeof(comm) - 1] = '\0';
	if (!kthread_binding(comm, &cpu, &node))
		return;
	if (cpu >= 0) {
		s->dst_allowed = s->dst_cpu == cpu;
	} else {
		if (!(s->known & SR_SNAP_DST_NODE))
			return;
		s->dst_allowed = s->dst_node == node;
	}
	s->known |= SR_SNAP_DST_ALLOWED;
}

bool decision_probe_is_active(const struct sr_ev_probe *pr)
{
	return has(pr, SR_PF_ENV_FLAGS) && (pr->v[SR_PF_ENV_FLAGS] & LBF_ACTIVE_LB);
}

/*
 * @buddy (a cfs_rq next/last pointer) is p's own sched_entity: exactly
 * &p->se where the recording says where se is, else within PROBE_SE_SPAN
 */
static bool is_own_se(uint64_t task, uint64_t buddy, int64_t se_off)
{
	if (se_off >= 0)
		return buddy == task + (uint64_t)se_off;
	return buddy >= task && buddy - task < PROBE_SE_SPAN;
}

void decision_probe_marker(struct decision_probe_pairs *pp, const struct sr_event *ev)
{
	struct marker_probe mp;

	if (marker_decode_probe(ev, &mp) < 0 || mp.key_status[MK_PROBE_SE_OFF] != MARKER_OK ||
	    mp.name.len != 3 || memcmp(mp.name.s, "cmt", 3))
		return;
	/* far below any task_struct's size: a larger value is damage */
	if (mp.se_off < PROBE_SE_SPAN)
		pp->se_off = mp.se_off;
}

/*
 * The per-node NUMA_MEM counters from tfN or gfN (@first = SR_PF_TF0 or
 * SR_PF_GF0; N = 2 * node + private), private and shared summed as
 * task_faults() and group_faults() sum them, into @out[node]; false unless
 * the probe carried both counters of every node of the snapshot.
 */
static bool node_faults(const struct sr_snapshot *s, const struct sr_ev_probe *pr, int first,
			uint64_t *out)
{
	int n;

	if (!(s->known & SR_SNAP_NR_NODES) || s->nr_nodes < 1 ||
	    s->nr_nodes > SR_PROBE_FAULT_NODES)
		return false;
	for (n = 0; n < 2 * s->nr_nodes; n++)
		if (!has(pr, first + n))
			return false;
	for (n = 0; n < s->nr_nodes; n++)
		out[n] = (uint64_t)pr->v[first + 2 * n] + (uint64_t)pr->v[first + 2 * n + 1];
	return true;
}

/*
 * The group's active nodes as 6.1's numa_is_active_node() tells them: a
 * node's NUMA_CPU faults (gfN from 2 * nr_nodes on) times
 * ACTIVE_NODE_FRACTION (3) above max_faults_cpu; false without them
 */
static bool group_active(const struct sr_snapshot *s, const struct sr_ev_probe *pr,
			 uint64_t *mask)
{
	uint64_t cpu[SR_PROBE_FAULT_NODES];
	uint64_t max;
	int n;

	if (!has(pr, SR_PF_NG_MAXCPU) || !node_faults(s, pr, SR_PF_GF0 + 2 * s->nr_nodes, cpu))
		return false;
	max = (uint64_t)pr->v[SR_PF_NG_MAXCPU];
	*mask = 0;
	for (n = 0; n < s->nr_nodes; n++)
		if (cpu[n] * 3 > max)
			*mask |= 1ull << n;
	return true;
}

/* p->numa_group from the probe: its id and faults where cmt read them */
static void apply_group(struct sr_snapshot *s, const struct sr_ev_probe *pr)
{
	uint64_t faults[SR_PROBE_FAULT_NODES];
	uint64_t active;
	int32_t gid;
	int n;

	if (!pr->v[SR_PF_NGRP]) {
		s->numa_group = 0;
		s->known |= SR_SNAP_NUMA_GROUP;
		return;
	}
	if (has(pr, SR_PF_NGID) && pr->v[SR_PF_NGID] > 0 && pr->v[SR_PF_NGID] <= INT32_MAX &&
	    node_faults(s, pr, SR_PF_GF0, faults)) {
		gid = (int32_t)pr->v[SR_PF_NGID];
		/* the model's active-node set is the same group's, or unknown */
		if (!(s->known & SR_SNAP_NUMA_GROUP) || s->numa_group != gid)
			s->known &= ~SR_SNAP_GROUP_ACTIVE;
		s->numa_group = gid;
		for (n = 0; n < s->nr_nodes; n++)
			s->group_faults[n] = faults[n];
		s->known |= SR_SNAP_NUMA_GROUP | SR_SNAP_GROUP_FAULTS;
		if (group_active(s, pr, &active)) {
			s->group_active = active;
			s->known |= SR_SNAP_GROUP_ACTIVE;
		}
		return;
	}
	if (!(s->known & SR_SNAP_NUMA_GROUP) || !s->numa_group) {
		/* in a group the model did not know of: its id is unknown */
		s->numa_group = 0;
		s->known &= ~(SR_SNAP_NUMA_GROUP | SR_SNAP_GROUP_FAULTS | SR_SNAP_GROUP_ACTIVE);
	}
}

void decision_probe_apply(struct sr_snapshot *s, const struct sr_ev_probe *pr, int64_t se_off)
{
	uint64_t faults[SR_PROBE_FAULT_NODES];
	int a;

	if (has(pr, SR_PF_IDLE) && pr->v[SR_PF_IDLE] >= 0 && pr->v[SR_PF_IDLE] <= 2) {
		/* enum cpu_idle_type of 6.1 numbers them as enum sr_idle_type does */
		s->idle_type = (int32_t)pr->v[SR_PF_IDLE];
		s->known |= SR_SNAP_IDLE_TYPE;
	}
	if (has(pr, SR_PF_ON_CPU)) {
		s->task_running = pr->v[SR_PF_ON_CPU] != 0;
		s->known |= SR_SNAP_TASK_RUNNING;
	}
	/* task_hot(): rq_clock_task(src_rq) - p->se.exec_start, signed */
	if (has(pr, SR_PF_EXEC_START) && has(pr, SR_PF_SRC_CLOCK)) {
		uint64_t start = (uint64_t)pr->v[SR_PF_EXEC_START];
		uint64_t clock = (uint64_t)pr->v[SR_PF_SRC_CLOCK];

		s->since_ran_ns = clock > start ? clock - start : 0;
		s->known |= SR_SNAP_SINCE_RAN;
		s->moved_since_ran = start == 0;
		s->known |= SR_SNAP_MOVED_SINCE_RAN;
	}
	if (has(pr, SR_PF_PREF_NID)) {
		s->pref_node = pr->v[SR_PF_PREF_NID] < 0 ? -1 : (int32_t)pr->v[SR_PF_PREF_NID];
		s->known |= SR_SNAP_PREF_NODE;
	}
	if (has(pr, SR_PF_FAULTS)) {
		s->has_faults = pr->v[SR_PF_FAULTS] != 0;
		s->known |= SR_SNAP_HAS_FAULTS;
		if (!s->has_faults) {
			for (a = 0; a < SR_MAX_NODES; a++)
				s->task_faults[a] = 0;
			s->known |= SR_SNAP_TASK_FAULTS;
		} else if (node_faults(s, pr, SR_PF_TF0, faults)) {
			/* the kernel's own counters at the call, decayed as it decays them */
			for (a = 0; a < SR_MAX_NODES; a++)
				s->task_faults[a] = a < s->nr_nodes ? faults[a] : 0;
			s->known |= SR_SNAP_TASK_FAULTS;
		}
	}
	if (has(pr, SR_PF_NGRP))
		apply_group(s, pr);
	if (has(pr, SR_PF_SRC_NR)) {
		s->src_nr_running = (int32_t)pr->v[SR_PF_SRC_NR];
		s->known |= SR_SNAP_SRC_NR_RUNNING;
	}
	if (has(pr, SR_PF_SRC_NPREF)) {
		s->src_nr_preferred = (int32_t)pr->v[SR_PF_SRC_NPREF];
		s->known |= SR_SNAP_SRC_NR_PREFERRED;
	}
	if (has(pr, SR_PF_DST_NR)) {
		s->dst_nr_running = (int32_t)pr->v[SR_PF_DST_NR];
		s->known |= SR_SNAP_DST_NR_RUNNING;
	}
	if (has(pr, SR_PF_TASK) && has(pr, SR_PF_NEXT) && has(pr, SR_PF_LAST)) {
		uint64_t task = (uint64_t)pr->v[SR_PF_TASK];

		s->buddy = is_own_se(task, (uint64_t)pr->v[SR_PF_NEXT], se_off) ||
			   is_own_se(task, (uint64_t)pr->v[SR_PF_LAST], se_off);
		s->known |= SR_SNAP_BUDDY;
	}
	if (has(pr, SR_PF_NR_BF) && has(pr, SR_PF_CNT)) {
		s->nr_balance_failed = (int32_t)pr->v[SR_PF_NR_BF];
		s->cache_nice_tries = (int32_t)pr->v[SR_PF_CNT];
		s->known |= SR_SNAP_BALANCE_FAILED;
	}
	if (has(pr, SR_PF_SD_FLAGS)) {
		int64_t f = pr->v[SR_PF_SD_FLAGS];

		s->sd_level = f & SD_SHARE_CPUCAPACITY ? SR_SD_SMT :
			      f & SD_NUMA ? SR_SD_NUMA :
			      f & SD_SHARE_PKG_RESOURCES ? SR_SD_MC : SR_SD_PKG;
		s->known |= SR_SNAP_SD_LEVEL;
	}
	apply_binding(s, pr);
	/* only CFS tasks are on the cfs_tasks list detach_tasks() walks */
	s->task_class = SR_TASK_FAIR;
	s->known |= SR_SNAP_TASK_CLASS;
}

/* ---- pairing entries and returns per CPU ------------------------------- */

/*
 * The three probed functions nest on one CPU (a wake-up in an interrupt
 * during task_numa_migrate(), load balancing in the softirq after it), so
 * each has its own slot.
 */
static int family_of(enum sr_event_kind k)
{
	switch (k) {
	case SR_EV_CMT:
	case SR_EV_CMT_RET:
		return 0;
	case SR_EV_STRF:
	case SR_EV_STRF_RET:
		return 1;
	default:
		return 2;
	}
}

int decision_probe_enter(struct decision_probe_pairs *pp, const struct sr_event *ev,
			 const struct sr_ev_probe *pr)
{
	struct decision_probe_entry *ent;
	struct decision_probe_cpu *e;
	int n;

	if (ev->cpu < 0 || ev->cpu >= TOPO_MAX_CPUS)
		return 0;
	if (ev->cpu >= pp->nr_cpus) {
		n = ev->cpu + 1 > 2 * pp->nr_cpus ? ev->cpu + 1 : 2 * pp->nr_cpus;
		e = realloc(pp->cpu, n * sizeof(*e));
		if (!e)
			return -ENOMEM;
		memset(e + pp->nr_cpus, 0, (n - pp->nr_cpus) * sizeof(*e));
		pp->cpu = e;
		pp->nr_cpus = n;
	}
	ent = &pp->cpu[ev->cpu].fam[family_of(ev->kind)];
	if (ent->open)
		pp->unpaired_entries++;	/* its return was lost */
	ent->open = true;
	ent->kind = ev->kind;
	ent->ts_ns = ev->ts_ns;
	ent->src_pos = ev->src_pos;
	ent->pid = ev->pid;
	ent->pr = *pr;
	return 0;
}

const struct decision_probe_entry *decision_probe_leave(struct decision_probe_pairs *pp,
							const struct sr_event *ev,
							enum sr_event_kind entry_kind)
{
	struct decision_probe_entry *e;

	if (ev->cpu < 0 || ev->cpu >= pp->nr_cpus) {
		pp->returns_without_entry++;
		return NULL;
	}
	e = &pp->cpu[ev->cpu].fam[family_of(entry_kind)];
	if (!e->open || e->kind != entry_kind) {
		pp->returns_without_entry++;
		return NULL;
	}
	e->open = false;
	return e;
}

static void close_cpu(struct decision_probe_pairs *pp, int cpu)
{
	int f;

	for (f = 0; f < DECISION_PROBE_FAMILIES; f++) {
		if (pp->cpu[cpu].fam[f].open)
			pp->unpaired_entries++;
		pp->cpu[cpu].fam[f].open = false;
	}
}

void decision_probe_lost(struct decision_probe_pairs *pp, int cpu)
{
	/* an entry open across lost events may have lost its return */
	if (cpu >= 0 && cpu < pp->nr_cpus)
		close_cpu(pp, cpu);
}

void decision_probe_finish(struct decision_probe_pairs *pp)
{
	int c;

	for (c = 0; c < pp->nr_cpus; c++)
		close_cpu(pp, c);
	for (c = 0; c < pp->nr_evals; c++)
		if (pp->evals[c].open) {
			pp->evals[c].open = false;
			pp->unpaired_entries++;
		}
}

/* ---- task_numa_migrate() windows, by task ------------------------------ */

/* closed windows are kept this long after their return, for later claims */
#define PROBE_EVAL_KEEP_NS	(1000ull * 1000 * 1000)

static int eval_find_open(const struct decision_probe_pairs *pp, int pid)
{
	int i;

	for (i = pp->nr_evals - 1; i >= 0; i--)
		if (pp->evals[i].pid == pid && pp->evals[i].open)
			return i;
	return -1;
}

int decision_probe_tnm_enter(struct decision_probe_pairs *pp, int pid, uint64_t ts)
{
	struct decision_numa_eval *e;
	int i = eval_find_open(pp, pid), j = 0;

	if (i >= 0) {
		pp->unpaired_entries++;	/* its return was lost */
		pp->evals[i].open = false;
		pp->evals[i].ret_ns = pp->evals[i].start_ns;
	}
	/* forget windows closed long ago */
	for (i = 0; i < pp->nr_evals; i++)
		if (pp->evals[i].open || pp->evals[i].ret_ns + PROBE_EVAL_KEEP_NS >= ts)
			pp->evals[j++] = pp->evals[i];
	pp->nr_evals = j;
	if (pp->nr_evals == pp->evals_cap) {
		int cap = pp->evals_cap ? 2 * pp->evals_cap : 16;

		e = realloc(pp->evals, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		pp->evals = e;
		pp->evals_cap = cap;
	}
	e = &pp->evals[pp->nr_evals++];
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	e->open = true;
	e->start_ns = ts;
	e->target = -1;
	return 0;
}

bool decision_probe_tnm_leave(struct decision_probe_pairs *pp, int pid, uint64_t ts,
			      uint64_t *len_ns)
{
	int i = eval_find_open(pp, pid);

	if (i < 0) {
		pp->returns_without_entry++;
		return false;
	}
	pp->evals[i].open = false;
	pp->evals[i].ret_ns = ts > pp->evals[i].start_ns ? ts : pp->evals[i].start_ns;
	*len_ns = pp->evals[i].ret_ns - pp->evals[i].start_ns;
	return true;
}

uint64_t decision_probe_numa_target(struct decision_probe_pairs *pp, int pid, int cpu)
{
	int i = eval_find_open(pp, pid);

	if (i < 0)
		return 0;
	pp->evals[i].target = cpu;
	return pp->evals[i].start_ns ? pp->evals[i].start_ns : 1;
}

int decision_probe_numa_claims(const struct decision_probe_pairs *pp, int cpu, int pid,
			       int partner, uint64_t from, uint64_t to)
{
	const struct decision_numa_eval *e;
	int i, n = 0;

	for (i = 0; i < pp->nr_evals; i++) {
		e = &pp->evals[i];
		if (e->target != cpu || e->pid == pid || e->pid == partner)
			continue;
		if (e->start_ns <= to && (e->open || e->ret_ns >= from))
			n++;
	}
	return n;
}

void decision_probe_free(struct decision_probe_pairs *pp)
{
	free(pp->evals);
	free(pp->cpu);
	memset(pp, 0, sizeof(*pp));
}
