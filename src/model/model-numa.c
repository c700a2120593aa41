// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model-numa.c - what the NUMA balancer's events and the numa_sample lines
 * tell about a task: tgid, NUMA group, preferred node and per-node faults.
 *
 * Only what an event says becomes known.  sched_move/swap/stick_numa give
 * tgid and numa group id (ngid 0 = no group) of the tasks they name; a
 * numa_sample (the kernel's /proc/PID/task/TID/sched numbers, parsed by
 * marker_decode_sample()) gives tgid, group, preferred node and the decayed
 * per-node fault counts: task faults = task_private + task_shared, group
 * faults = group_private + group_shared.  Node ids outside the topology
 * are counted in bad_node and ignored.
 */
#include <errno.h>
#include <string.h>

#include "model-local.h"

static int apply_numa(struct model *m, uint64_t ts_ns, int pid, int tgid, int ngid)
{
	struct model_slot *s;

	if (pid <= 0)
		return 0;
	s = model_task_get(m, pid, ts_ns);
	if (!s)
		return -ENOMEM;
	if (tgid > 0) {
		s->pub.tgid = tgid;
		s->pub.known |= MODEL_KNOWN_TGID;
	}
	if (ngid >= 0) {
		s->pub.numa_group = ngid;
		s->pub.known |= MODEL_KNOWN_NUMA_GROUP;
	}
	return 0;
}

static void check_nid(struct model *m, int nid)
{
	if (nid != -1 && !topo_node_present(m->topo, nid))
		m->stats.bad_node++;
}

int model_feed_numa(struct model *m, const struct sr_event *ev)
{
	const struct sr_ev_numa *n = &ev->u.numa;
	int ret;

	check_nid(m, n->src_nid);
	check_nid(m, n->dst_nid);
	ret = apply_numa(m, ev->ts_ns, n->src_pid, n->src_tgid, n->src_ngid);
	if (ret || ev->kind == SR_EV_MOVE_NUMA)
		return ret;
	/* swap: the task swapped with; stick: the one it would have been (0: none) */
	return apply_numa(m, ev->ts_ns, n->dst_pid, n->dst_tgid, n->dst_ngid);
}

/* marker_decode_sample() marks the nodes an f= list skipped with -1 throughout */
static bool unlisted(const struct marker_node_faults *f)
{
	return f->task_private == -1 && f->task_shared == -1 && f->group_private == -1 &&
	       f->group_shared == -1;
}

bool model_sample_faults_valid(const struct marker_sample *smp)
{
	const struct marker_node_faults *f;
	int i;

	if (smp->nr_nodes < 0 || smp->nr_nodes > MARKER_MAX_NODES)
		return false;
	for (i = 0; i < smp->nr_nodes; i++) {
		f = &smp->faults[i];
		if (unlisted(f))
			continue;
		if (f->task_private < 0 || f->task_shared < 0 || f->group_private < 0 ||
		    f->group_shared < 0)
			return false;
	}
	return true;
}

int model_feed_sample(struct model *m, const struct sr_event *ev)
{
	struct marker_sample *smp = &m->sample;
	struct model_slot *s;

	if (marker_decode_sample(ev, smp) || smp->tid <= 0 || !model_sample_faults_valid(smp)) {
		m->stats.bad_samples++;
		return 0;
	}
	s = model_task_find(m, smp->tid);
	if (s && s->pub.state == MODEL_TASK_DEAD) {
		m->stats.stale_samples++;
		return 0;
	}
	s = model_task_get(m, smp->tid, ev->ts_ns);
	if (!s)
		return -ENOMEM;
	return model_apply_sample(m, s, smp, ev->ts_ns, true);
}

int model_apply_sample(struct model *m, struct model_slot *s, const struct marker_sample *smp,
		       uint64_t ts_ns, bool count)
{
	struct model_task *t = &s->pub;
	int nr = smp->nr_nodes;
	int i;

	if (model_task_faults(m, s))
		return -ENOMEM;
	if (count)
		m->stats.samples++;

	/* the sampler writes '_' for spaces: a comm from a sched event is exact */
	if (!(t->known & MODEL_KNOWN_COMM))
		model_set_comm(t, smp->comm, sizeof(smp->comm));
	if (smp->pid > 0) {
		t->tgid = smp->pid;
		t->known |= MODEL_KNOWN_TGID;
	}
	if (smp->nmig >= 0 && smp->forced >= 0 && smp->fhot >= 0) {
		if (!t->ks_seen) {
			t->ks_first[MODEL_KS_NMIG] = smp->nmig;
			t->ks_first[MODEL_KS_FORCED] = smp->forced;
			t->ks_first[MODEL_KS_FHOT] = smp->fhot;
			t->mig_first = t->nr_migrations;
			t->ks_seen = true;
		}
		t->ks_last[MODEL_KS_NMIG] = smp->nmig;
		t->ks_last[MODEL_KS_FORCED] = smp->forced;
		t->ks_last[MODEL_KS_FHOT] = smp->fhot;
		t->mig_last = t->nr_migrations;
	}
	if (smp->pref == -1 || topo_node_present(m->topo, smp->pref)) {
		model_set_pref(m, t, smp->pref, true);
	} else {
		m->stats.bad_node++;
	}
	if (smp->grp >= 0) {
		t->numa_group = smp->grp;
		t->known |= MODEL_KNOWN_NUMA_GROUP;
	}
	if (nr > m->nr_nodes) {
		m->stats.bad_node++;
		nr = m->nr_nodes;
	}
	/* nodes the kernel did not list (none yet, or absent ids) have no faults */
	memset(t->faults, 0, (size_t)m->nr_nodes * sizeof(uint64_t));
	memset(t->group_faults, 0, (size_t)m->nr_nodes * sizeof(uint64_t));
	for (i = 0; i < nr; i++) {
		if (unlisted(&smp->faults[i]))
			continue;
		t->faults[i] = (uint64_t)smp->faults[i].task_private +
			       (uint64_t)smp->faults[i].task_shared;
		t->group_faults[i] = (uint64_t)smp->faults[i].group_private +
				     (uint64_t)smp->faults[i].group_shared;
	}
	t->known |= MODEL_KNOWN_FAULTS | MODEL_KNOWN_GROUP_FAULTS;
	/* f= is empty until the first fault (the kernel's numa_faults is NULL) */
	t->has_faults = nr > 0;
	t->known |= MODEL_KNOWN_HAS_FAULTS;
	model_faults_sampled(m, s, smp, ts_ns);
	return 0;
}
