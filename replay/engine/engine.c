// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine.c - run decisions through the policies of each side and keep the
 * totals; see engine.h for the definitions it counts by.
 *
 * The per-task table is an open-addressing hash keyed by tid; a tid
 * reused by a new task keeps its row (the name is the newest one).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

#define ENGINE_MAX_POLICIES 16

struct task_row {
	struct engine_task	t;
	bool			used;
};

struct engine {
	struct replay_policy		*pols[ENGINE__SIDES][ENGINE_MAX_POLICIES];
	int				nr[ENGINE__SIDES];
	struct replay_policy		*by_class[ENGINE__SIDES][SR_DECISION_CLASS__COUNT];
	struct engine_class_stats	cls[SR_DECISION_CLASS__COUNT];
	uint64_t			missing[64];
	struct strcount			pairs;
	struct engine_truth		truth;
	struct task_row			*tasks;
	size_t				tasks_cap;
	size_t				tasks_used;
	struct engine_place		place;
	struct sr_snapshot		*scratch;	/* infer_waker()'s copy */
	/*
	 * per class and side, an earlier side whose policy gives the same
	 * verdicts (replay_policy_same()), or -1; worked out at the first
	 * evaluation after a policy was added (same_ready)
	 */
	signed char			same[ENGINE__SIDES][SR_DECISION_CLASS__COUNT];
	bool				same_ready;
	uint64_t			waker_inferred;	/* wake-ups it narrowed */
	/* the last reason-pair key made, and of what: most disagreements repeat it */
	char				pair_key[160];
	const char			*pair_of[2];
};

struct engine *engine_new(void)
{
	struct engine *e = calloc(1, sizeof(*e));

	if (e) {
		strcount_init(&e->pairs);
		strcount_init(&e->truth.disagree_by);
		strcount_init(&e->truth.unknown_by);
		strcount_init(&e->place.miss_by);
	}
	return e;
}

void engine_free(struct engine *e)
{
	int s, i;

	if (!e)
		return;
	for (s = 0; s < ENGINE__SIDES; s++)
		for (i = 0; i < e->nr[s]; i++)
			replay_policy_free(e->pols[s][i]);
	strcount_release(&e->pairs);
	strcount_release(&e->truth.disagree_by);
	strcount_release(&e->truth.unknown_by);
	strcount_release(&e->place.miss_by);
	free(e->tasks);
	free(e->scratch);
	free(e);
}

int engine_add(struct engine *e, enum engine_side side, struct replay_policy *pol,
	       struct err *err)
{
	const struct sr_policy_ops *ops = replay_policy_ops(pol);
	bool used = false;
	int c;

	if (e->nr[side] == ENGINE_MAX_POLICIES) {
		replay_policy_free(pol);
		return err_set(err, -SR_EUSAGE, "at most %d policies on a side",
			       ENGINE_MAX_POLICIES);
	}
	for (c = 0; c < SR_DECISION_CLASS__COUNT; c++) {
		if (!(ops->classes & SR_CLASS_BIT(c)) || e->by_class[side][c])
			continue;
		e->by_class[side][c] = pol;
		used = true;
	}
	if (!used) {
		err_set(err, -SR_EUSAGE,
			"policy '%s' decides no class that an earlier policy of the same side does not",
			ops->name);
		replay_policy_free(pol);
		return -SR_EUSAGE;
	}
	e->pols[side][e->nr[side]++] = pol;
	e->same_ready = false;
	return 0;
}

static void same_init(struct engine *e)
{
	int c, s, t;

	for (c = 0; c < SR_DECISION_CLASS__COUNT; c++)
		for (s = 0; s < ENGINE__SIDES; s++) {
			e->same[s][c] = -1;
			for (t = 0; t < s && e->same[s][c] < 0; t++)
				if (replay_policy_same(e->by_class[t][c], e->by_class[s][c]))
					e->same[s][c] = (signed char)t;
		}
	e->same_ready = true;
}

const struct replay_policy *engine_policy(const struct engine *e, enum engine_side side, int cls)
{
	if (cls < 0 || cls >= SR_DECISION_CLASS__COUNT)
		return NULL;
	return e->by_class[side][cls];
}

int engine_nr_policies(const struct engine *e, enum engine_side side)
{
	return e->nr[side];
}

const struct replay_policy *engine_policy_at(const struct engine *e, enum engine_side side, int i)
{
	return i >= 0 && i < e->nr[side] ? e->pols[side][i] : NULL;
}

static uint64_t hash_tid(int tid)
{
	return (uint64_t)(uint32_t)tid * 0x9e3779b97f4a7c15ull;
}

static struct task_row *task_row(struct engine *e, int tid)
{
	size_t i;

	if ((e->tasks_used + 1) * 2 > e->tasks_cap) {
		size_t cap = e->tasks_cap ? e->tasks_cap * 2 : 256, j;
		struct task_row *n = calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (j = 0; j < e->tasks_cap; j++) {
			if (!e->tasks[j].used)
				continue;
			i = hash_tid(e->tasks[j].t.tid) & (cap - 1);
			while (n[i].used)
				i = (i + 1) & (cap - 1);
			n[i] = e->tasks[j];
		}
		free(e->tasks);
		e->tasks = n;
		e->tasks_cap = cap;
	}
	i = hash_tid(tid) & (e->tasks_cap - 1);
	while (e->tasks[i].used && e->tasks[i].t.tid != tid)
		i = (i + 1) & (e->tasks_cap - 1);
	if (!e->tasks[i].used) {
		e->tasks[i].used = true;
		e->tasks[i].t.tid = tid;
		e->tasks_used++;
	}
	return &e->tasks[i];
}

static bool decided(const struct sr_verdict *v)
{
	return v->verdict == SR_VERDICT_ALLOW || v->verdict == SR_VERDICT_RESIST;
}

static const char *first_reason(const struct replay_policy *pol, const struct sr_verdict *v)
{
	if (!pol || !v->nr_reasons)
		return "none";
	return replay_reason_name(replay_policy_ops(pol), v->reasons[0]);
}

/*
 * A candidate the kernel judged (decision.truth): the kernel model's
 * verdict against the kernel's.  Disagreements are counted by the reason
 * that decided the model's verdict and the kernel's answer; unknown
 * verdicts by the field that was missing.
 */
static int count_truth(struct engine *e, const struct engine_result *r, struct err *err)
{
	const struct sr_verdict *kv = &r->v[ENGINE_KERNEL];
	const struct replay_policy *kp = r->pol[ENGINE_KERNEL];
	struct engine_truth *t = &e->truth;
	bool allowed = r->d->truth != 0;
	char key[160];
	int ret = 0, b;

	t->candidates++;
	if (allowed)
		t->kernel_allowed++;
	else
		t->kernel_refused++;
	if (!kp)
		return 0;
	if (!t->policy)
		t->policy = replay_policy_ops(kp)->name;
	if (decided(kv)) {
		t->judged++;
		if ((kv->verdict == SR_VERDICT_ALLOW) == allowed) {
			t->model_agrees++;
			return 0;
		}
		snprintf(key, sizeof(key), "%s %s, kernel %s",
			 kv->verdict == SR_VERDICT_ALLOW ? "allow" : "resist", first_reason(kp, kv),
			 allowed ? "allowed" : "refused");
		ret = strcount_add(&t->disagree_by, key, 1);
	} else if (kv->verdict == SR_VERDICT_UNKNOWN) {
		for (b = 0; b < 64 && !(kv->missing >> b & 1); b++)
			;
		snprintf(key, sizeof(key), "%s", b < 64 ? replay_snap_field_name(b) : "none");
		ret = strcount_add(&t->unknown_by, key, 1);
	}
	return ret < 0 ? err_set(err, -ENOMEM, "out of memory") : 0;
}

/*
 * Each side's choice: at a load-balance decision point the candidate walk
 * (or the policy's own choose()), elsewhere what its verdict says.
 */
static int choose_all(struct engine_result *r, struct err *err)
{
	const struct decision *d = r->d;
	struct sr_decision_point dp = {
		.size = sizeof(dp),
		.flags = d->dp_flags,
		.snap = &d->snap,
		.nr_cand = d->nr_cand > 0 ? (uint32_t)d->nr_cand : 0,
		.nr_pull = d->nr_pull > 0 ? (uint32_t)d->nr_pull : 1,
		.cand = d->cand,
	};
	bool lb = decision_is_lb(d->snap.decision_class) && d->cand && d->nr_cand > 0;
	int s, ret;

	decision_kernel_choice(d, &r->did);
	for (s = 0; s < ENGINE__SIDES; s++) {
		r->cv[s] = r->v[s];
		if (!r->pol[s]) {
			engine_choice_of(d, &r->v[s], NULL, &r->choice[s]);
			r->choice[s].kind = DECISION_CHOICE_UNKNOWN;
			continue;
		}
		if (lb) {
			ret = replay_policy_choose(r->pol[s], &dp, &r->cv[s], err);
			if (ret < 0)
				return ret;
		}
		engine_choice_of(d, &r->v[s], lb ? &r->cv[s] : NULL, &r->choice[s]);
	}
	return 0;
}

/*
 * A wake-up logged on its target names no waker's CPU (a trace without
 * sched_waking).  Of the CPUs the trace leaves open, those from which the
 * recording kernel's model would not have placed the task where the trace
 * shows are ruled out for the other sides (SR_PCPU_NOT_WAKER |
 * SR_PCPU_WAKER_INFERRED), on a copy of the snapshot; the kernel side
 * itself is judged on the snapshot as the trace left it.  A CPU whose
 * answer is unknown stays open, and nothing is ruled out unless one CPU
 * stays and one goes (docs/policies.md, wake-up).
 * Return: 0 with *@snap the snapshot the old and new sides read, or the
 * kernel policy's negative code (@err).
 */
static int infer_waker(struct engine *e, const struct decision *d,
		       const struct replay_policy *kern, const struct sr_snapshot **snap,
		       struct err *err)
{
	const struct sr_snapshot *s = &d->snap;
	struct sr_snapshot *t;
	struct sr_verdict v;
	int c, open = 0, out = 0, ret;

	*snap = s;
	if (!kern || s->decision_class != SR_DECISION_CLASS_WAKEUP ||
	    (s->known & SR_SNAP_WAKER_CPU) || !(s->known & SR_SNAP_PLACE_CPUS) ||
	    s->nr_cpus <= 1 || s->nr_cpus > SR_PLACE_MAX_CPUS || s->dst_cpu < 0 ||
	    s->dst_cpu >= s->nr_cpus)
		return 0;
	if (!e->scratch && !(e->scratch = malloc(sizeof(*e->scratch))))
		return 0;	/* no memory for it: every CPU stays open, as before */
	t = e->scratch;
	memcpy(t, s, sizeof(*t));
	t->known |= SR_SNAP_WAKER_CPU;
	for (c = 0; c < s->nr_cpus; c++) {
		if (s->cpu_flags[c] & SR_PCPU_NOT_WAKER)
			continue;
		t->waker_cpu = c;
		replay_verdict_init(&v);
		ret = replay_policy_evaluate(kern, t, &v, err);
		if (ret < 0)
			return ret;
		if ((v.verdict == SR_VERDICT_ALLOW || v.verdict == SR_VERDICT_RESIST) &&
		    v.target_cpu >= 0 && v.target_cpu != s->dst_cpu) {
			t->cpu_flags[c] |= SR_PCPU_NOT_WAKER | SR_PCPU_WAKER_INFERRED;
			out++;
		} else {
			open++;
		}
	}
	if (!out || !open)
		return 0;
	t->known &= ~SR_SNAP_WAKER_CPU;
	t->waker_cpu = s->waker_cpu;
	e->waker_inferred++;
	*snap = t;
	return 0;
}

int engine_evaluate(struct engine *e, const struct decision *d, struct engine_result *r,
		    struct err *err)
{
	const struct sr_snapshot *snap;
	int cls = d->snap.decision_class, s, ret;
	struct engine_class_stats *cs;
	uint64_t m;
	struct task_row *row;

	if (cls < 0 || cls >= SR_DECISION_CLASS__COUNT)
		return err_set(err, -EINVAL, "decision %llu has no class",
			       (unsigned long long)d->seq);
	memset(r, 0, sizeof(*r));
	r->d = d;
	cs = &e->cls[cls];
	cs->decisions++;
	if (d->snap.src_cpu != d->snap.dst_cpu)
		cs->moved++;
	if (d->flags & DECISION_F_LOST)
		cs->lost++;
	ret = infer_waker(e, d, e->by_class[ENGINE_KERNEL][cls], &snap, err);
	if (ret < 0)
		return ret;
	if (!e->same_ready)
		same_init(e);
	for (s = 0; s < ENGINE__SIDES; s++) {
		const struct sr_snapshot *in = s == ENGINE_KERNEL ? &d->snap : snap;
		int t = e->same[s][cls];

		r->pol[s] = e->by_class[s][cls];
		replay_verdict_init(&r->v[s]);
		if (!r->pol[s])
			continue;
		/*
		 * A side whose policy is an earlier side's (the new policy is
		 * often the recording kernel's model, or the old one is), on
		 * the same snapshot: the same verdict, not worked out twice
		 */
		if (t >= 0 && (t == ENGINE_KERNEL ? &d->snap : snap) == in) {
			r->v[s] = r->v[t];
			continue;
		}
		ret = replay_policy_evaluate(r->pol[s], in, &r->v[s], err);
		if (ret < 0)
			return ret;
	}
	ret = choose_all(r, err);
	if (ret < 0)
		return ret;
	if (r->pol[ENGINE_OLD] || r->pol[ENGINE_NEW])
		cs->decided++;
	r->unknown = r->v[ENGINE_OLD].verdict == SR_VERDICT_UNKNOWN ||
		     r->v[ENGINE_NEW].verdict == SR_VERDICT_UNKNOWN;
	r->verdicts_differ = decided(&r->v[ENGINE_OLD]) && decided(&r->v[ENGINE_NEW]) &&
			     r->v[ENGINE_OLD].verdict != r->v[ENGINE_NEW].verdict;
	r->disagree = r->pol[ENGINE_OLD] && r->pol[ENGINE_NEW] &&
		      r->choice[ENGINE_OLD].kind != DECISION_CHOICE_UNKNOWN &&
		      r->choice[ENGINE_NEW].kind != DECISION_CHOICE_UNKNOWN &&
		      !decision_choice_same(&r->choice[ENGINE_OLD], &r->choice[ENGINE_NEW]);
	if (r->verdicts_differ)
		cs->verdict_disagreements++;
	r->flips = (r->disagree || (decided(&r->v[ENGINE_OLD]) && decided(&r->v[ENGINE_NEW]))) &&
		   ((r->v[ENGINE_OLD].flags | r->v[ENGINE_NEW].flags) & SR_VF_FAILED_DEPENDENT);
	if (r->v[ENGINE_OLD].verdict == SR_VERDICT_ALLOW)
		cs->old_allow++;
	if (r->v[ENGINE_NEW].verdict == SR_VERDICT_ALLOW)
		cs->new_allow++;
	if (r->unknown) {
		cs->unknown++;
		for (s = 0; s < 2; s++)
			for (m = r->v[s].missing; m; m &= m - 1)	/* each bit set */
				e->missing[__builtin_ctzll(m)]++;
	}
	if (r->flips)
		cs->flips++;
	if (r->disagree) {
		/* the reasons of each side's choice (its verdict's, outside load balancing) */
		const char *ro = first_reason(r->pol[ENGINE_OLD], &r->cv[ENGINE_OLD]);
		const char *rn = first_reason(r->pol[ENGINE_NEW], &r->cv[ENGINE_NEW]);

		cs->disagreements++;
		if (!e->pair_key[0] || ro != e->pair_of[0] || rn != e->pair_of[1]) {
			snprintf(e->pair_key, sizeof(e->pair_key), "%s / %s", ro, rn);
			e->pair_of[0] = ro;
			e->pair_of[1] = rn;
		}
		if (strcount_add(&e->pairs, e->pair_key, 1) < 0)
			return err_set(err, -ENOMEM, "out of memory");
	}

	if (r->pol[ENGINE_KERNEL]) {
		const struct sr_verdict *kv = &r->v[ENGINE_KERNEL];

		cs->kernel_decisions++;
		cs->choice_decisions++;
		if (r->choice[ENGINE_KERNEL].kind == DECISION_CHOICE_UNKNOWN)
			cs->choice_unknown++;
		else if (decision_choice_same(&r->choice[ENGINE_KERNEL], &r->did))
			cs->choice_same++;
		r->judged = decided(kv) || kv->verdict == SR_VERDICT_NOT_APPLICABLE;
		if (d->has_truth)
			/* the kernel said what it did with the candidate */
			r->reproduced = decided(kv) && (kv->verdict == SR_VERDICT_ALLOW) == (d->truth != 0);
		else if (cls == SR_DECISION_CLASS_NUMA_STICK)
			r->reproduced = r->judged && kv->verdict != SR_VERDICT_ALLOW;
		else
			r->reproduced = kv->verdict == SR_VERDICT_ALLOW;
		if (r->judged)
			cs->kernel_judged++;
		if (r->reproduced)
			cs->reproduced++;
		if (kv->flags & SR_VF_FORCED)
			cs->kernel_forced++;
	}

	if (engine_place_account(&e->place, r) < 0)
		return err_set(err, -ENOMEM, "out of memory");
	if (d->has_truth) {
		ret = count_truth(e, r, err);
		if (ret < 0)
			return ret;
	}

	row = task_row(e, d->snap.tid);
	if (!row)
		return err_set(err, -ENOMEM, "out of memory");
	if (d->snap.known & SR_SNAP_COMM)
		memcpy(row->t.comm, d->snap.comm, sizeof(row->t.comm));
	row->t.decisions++;
	if (r->disagree)
		row->t.disagreements++;
	if (cls == SR_DECISION_CLASS_LB_PULL || cls == SR_DECISION_CLASS_LB_ACTIVE) {
		const struct sr_verdict *kv = &r->v[ENGINE_KERNEL];

		if (kv->flags & SR_VF_FORCED)
			row->t.kernel_forced++;
		if (kv->verdict == SR_VERDICT_RESIST && kv->nr_reasons &&
		    kv->reasons[0] == SR_REASON_TASK_HOT)
			row->t.kernel_resist_hot++;
	}
	return 0;
}

const struct engine_task *engine_task_get(const struct engine *e, int tid)
{
	size_t i;

	if (!e->tasks_cap)
		return NULL;
	i = hash_tid(tid) & (e->tasks_cap - 1);
	while (e->tasks[i].used) {
		if (e->tasks[i].t.tid == tid)
			return &e->tasks[i].t;
		i = (i + 1) & (e->tasks_cap - 1);
	}
	return NULL;
}

const struct engine_class_stats *engine_class(const struct engine *e, int cls)
{
	return &e->cls[cls];
}

uint64_t engine_missing(const struct engine *e, int bit)
{
	return bit >= 0 && bit < 64 ? e->missing[bit] : 0;
}

uint64_t engine_waker_inferred(const struct engine *e)
{
	return e->waker_inferred;
}

const struct engine_place *engine_place(const struct engine *e)
{
	return &e->place;
}

const struct strcount *engine_reason_pairs(const struct engine *e)
{
	return &e->pairs;
}

const struct engine_truth *engine_truth(const struct engine *e)
{
	return &e->truth;
}

static int cmp_task(const void *a, const void *b)
{
	const struct engine_task *x = a, *y = b;

	if (x->disagreements != y->disagreements)
		return x->disagreements < y->disagreements ? 1 : -1;
	if (x->decisions != y->decisions)
		return x->decisions < y->decisions ? 1 : -1;
	return x->tid - y->tid;
}

struct engine_task *engine_top_tasks(const struct engine *e, size_t *n)
{
	struct engine_task *out;
	size_t i, k = 0;

	if (!e->tasks_used) {
		*n = 0;
		return NULL;
	}
	out = malloc(e->tasks_used * sizeof(*out));
	if (!out) {
		*n = 0;
		return NULL;
	}
	for (i = 0; i < e->tasks_cap; i++)
		if (e->tasks[i].used && e->tasks[i].t.disagreements)
			out[k++] = e->tasks[i].t;
	qsort(out, k, sizeof(*out), cmp_task);
	if (k < *n)
		*n = k;
	return out;
}

/*
 * Which built-in models a release.  Versions from docs/kernel-behaviour.md
 * section 2.9: the seed 002 change landed in v4.3, the idle override and
 * weight-based locality test in v4.13 (lb-v6.1 models that family),
 * numa_migrate_on in v4.19; sched_exec() placement is modelled by
 * exec-least-loaded.
 */
const char *engine_kernel_policy_name(const char *release, int cls)
{
	int major = 0, minor = 0, v;

	if (!release || sscanf(release, "%d.%d", &major, &minor) != 2)
		return NULL;
	v = major * 1000 + minor;
	switch (cls) {
	case SR_DECISION_CLASS_LB_PULL:
	case SR_DECISION_CLASS_LB_ACTIVE:
		if (v >= 4013)
			return "lb-v6.1";
		if (v >= 4003)
			return "lb-v4.3";
		return "lb-v4.1";
	case SR_DECISION_CLASS_NUMA_MOVE:
	case SR_DECISION_CLASS_NUMA_SWAP:
	case SR_DECISION_CLASS_NUMA_STICK:
		if (v >= 4019)
			return "numa-v4.19";
		if (v >= 3014)
			return "numa-v4.18";
		return NULL;
	case SR_DECISION_CLASS_EXEC:
		/* find_idlest_group() by group types from v5.5, imb_numa_nr from v6.0 */
		if (v >= 6000)
			return "exec-v6.1";
		return "exec-least-loaded";
	case SR_DECISION_CLASS_FORK:
		/* the NUMA spare-capacity rule: v5.5, v5.11, v6.0 */
		if (v >= 6000)
			return "fork-v6.1";
		if (v >= 5011)
			return "fork-v5.11";
		if (v >= 5005)
			return "fork-v5.10";
		return NULL;
	case SR_DECISION_CLASS_WAKEUP:
		/* SIS_UTIL from v6.0, SIS_PROP and the 5.11 idle prev before */
		if (v >= 6000)
			return "wakeup-v6.1";
		if (v >= 5015)
			return "wakeup-v5.19";
		if (v >= 4016 && v < 5000)
			return "wakeup-v4.16";
		if (v >= 4014 && v < 4016)
			return "wakeup-v4.15";
		return NULL;
	default:
		return NULL;
	}
}
