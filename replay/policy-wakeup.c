// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy-wakeup.c - wake-up placement: select_task_rq_fair() for a
 * wake-up (WF_TTWU / SD_BALANCE_WAKE) as four kernel versions had it.
 *
 * Models (kernel/sched/fair.c; docs/kernel-behaviour.md "Placement",
 * docs/policies.md):
 *   record_wakee()/wake_wide(): want_affine unless the waker and wakee
 *     both flip between at least llc_size partners and one llc_size times
 *     the other (63b0e9edceec, v4.3);
 *   the walk up from the waker's CPU: the lowest SD_WAKE_AFFINE domain
 *     spanning prev; none when their nodes are farther than
 *     node_reclaim_distance (sd_init()); no SD_BALANCE_WAKE level ever, so
 *     no slow path;
 *   wake_affine(): wake_affine_idle() then wake_affine_weight();
 *       v4.15: the waker's CPU idle, or a sync wake-up from a CPU running
 *              only the waker, brings the wakee to it (d153b153446f, v4.14);
 *       v4.16: an idle waker's CPU counts only when it shares the cache
 *              with prev, and then an idle prev wins (7332dec055f2,
 *              806486c377e3);
 *       v5.11: an idle prev wins in every case (d8fcb81f1acf);
 *   select_idle_sibling(p, prev, target): the target idle; prev idle and
 *     sharing the cache; (v5.6, 52262ee567ad) a per-CPU kernel thread
 *     waking the task on prev that runs only it; (v4.16, 32e839dda3ba)
 *     recent_used_cpu; then select_idle_cpu() over the target's LLC in
 *     wrap order, from the target (from target + 1 since 56498cfb045d,
 *     v5.15), within a budget:
 *       SIS_PROP (1ad3aaf3fcd2, v4.13 - v5.19): max(4, span * avg_idle /
 *         avg_scan_cost) - 1 CPUs; avg_idle is not traced, so the policy
 *         takes the minimum (3 CPUs), named sis-prop-min-budget;
 *       SIS_UTIL (70fb5ccf2ebb, v6.0): llc * (1 - min(1, (x * pct /
 *         102400)^2)) CPUs, x the LLC's average util, estimated from the
 *         trace's switches (sis-util-estimate).
 *
 * Estimates, named in the reasons: wake_affine_weight() compares the
 * estimated runnable loads of the two CPUs with the wakee's own load taken
 * as 0 (wa-load-estimate); WF_SYNC, unless a probe recorded it, is taken
 * as off where it matters (wake-sync-assumed-off); an LLC is a node (the
 * topology sources hold no caches); no SMT (no idle-core scan).
 * recent_used_cpu in the snapshot follows 6.1's updates for every version.
 * A wakee whose mask the trace does not show may be pinned to prev: where
 * the kernel kept it there, an answer of another CPU is unknown
 * (missing-allowed-cpus).  A waker's CPU the trace does not show is tried
 * for each CPU it leaves open (waker-cpu-any, -wakelist), or each the
 * engine leaves after asking the kernel model (waker-cpu-inferred).
 *
 * Verdict: allow when the CPU picked is the kernel's, resist otherwise;
 * target_cpu / target_node always say which CPU the policy picks.
 */
#include <stdint.h>
#include <stdlib.h>

#include "replay-local.h"

enum {
	P_RECLAIM_DISTANCE = 0,
	P_IMBALANCE_PCT,
	P__COUNT
};

static const struct sr_param_desc wakeup_params[] = {
	{ .name = "node_reclaim_distance", .type = SR_PARAM_INT, .def = 30, .min = 10, .max = 255,
	  .description = "NUMA levels farther than this lose SD_WAKE_AFFINE (RECLAIM_DISTANCE)" },
	{ .name = "imbalance_pct", .type = SR_PARAM_INT, .def = 117, .min = 100, .max = 1000,
	  .description = "sd->imbalance_pct: WA_BIAS margin and the SIS_UTIL curve" },
	{ .name = NULL },
};

enum wk_sis {
	WK_SIS_PROP = 0,
	WK_SIS_UTIL = 1,
};

struct wk_version {
	bool	wa_share_cache;		/* v4.16: idle waker CPU only within the LLC; idle prev wins */
	bool	wa_prev_idle;		/* v5.11: an idle prev always wins */
	bool	affine_returns_cpu;	/* v4.16: wake_affine() returns a CPU */
	bool	recent_used;		/* v4.16 */
	bool	kthread_stack;		/* v5.6 */
	bool	scan_after_target;	/* v5.15 */
	int	sis;
};

#define WK_UNKNOWN	(-2)

struct wk_eval {
	struct replay_eval	ev;
	const struct wk_version	*ver;
	unsigned int		why;	/* the decisive branch */
	unsigned int		est[3];	/* estimates used */
	int			nr_est;
	bool			unknown;	/* an unseen CPU was asked about */
	bool			flips_split;	/* wake_wide()'s two answers differ */
	bool			either;		/* flips unknown, both answers agree */
};

static void wk_est(struct wk_eval *w, unsigned int r)
{
	int i;

	for (i = 0; i < w->nr_est; i++)
		if (w->est[i] == r)
			return;
	if (w->nr_est < 3)
		w->est[w->nr_est++] = r;
}

static bool cpu_ok(const struct sr_snapshot *s, int c)
{
	return c >= 0 && c < s->nr_cpus;
}

/*
 * available_idle_cpu(): 1 idle, 0 busy; a CPU the model has not seen
 * makes the whole answer unknown (w->unknown), as it is only asked where
 * the answer depends on it
 */
static bool wk_idle(struct wk_eval *w, int c)
{
	const struct sr_snapshot *s = w->ev.snap;

	if (!cpu_ok(s, c))
		return false;
	if (!(s->cpu_flags[c] & SR_PCPU_KNOWN)) {
		w->unknown = true;
		return false;
	}
	return s->cpu_flags[c] & SR_PCPU_IDLE;
}
#define idle(s, c)	wk_idle(w, (c))

static bool share_cache(const struct sr_snapshot *s, int a, int b)
{
	return cpu_ok(s, a) && cpu_ok(s, b) && s->cpu_node[a] >= 0 && s->cpu_node[a] == s->cpu_node[b];
}

static int llc_size(const struct sr_snapshot *s, int c)
{
	int i, n = 0;

	for (i = 0; i < s->nr_cpus; i++)
		n += share_cache(s, i, c);
	return n;
}

/* wake_wide() of v4.3+: 1 wide, 0 not */
static int wake_wide(const struct sr_snapshot *s, int factor)
{
	int master = s->waker_flips, slave = s->wakee_flips;

	if (master < slave) {
		int t = master;

		master = slave;
		slave = t;
	}
	if (slave < factor || master < slave * factor)
		return 0;
	return 1;
}

static bool wk_sync(struct wk_eval *w)
{
	const struct sr_snapshot *s = w->ev.snap;

	if (s->known & SR_SNAP_WAKE_SYNC)
		return s->wake_sync;
	wk_est(w, SR_REASON_WAKE_SYNC_ASSUMED_OFF);
	return false;
}

/* the PELT estimates of CPU @c are known; else the answer is unknown */
static bool wk_pelt(struct wk_eval *w, int c)
{
	const struct sr_snapshot *s = w->ev.snap;

	if (cpu_ok(s, c) && (s->cpu_flags[c] & SR_PCPU_PELT))
		return true;
	replay_need(&w->ev, SR_SNAP_BIT_CPU_UTIL);
	w->ev.missing |= SR_SNAP_CPU_UTIL;
	if (!w->ev.missing_reason)
		w->ev.missing_reason = sr_reason_missing(SR_SNAP_BIT_CPU_UTIL);
	return false;
}

/* wake_affine_weight() on the estimated loads: the waker's CPU or prev */
static int wa_weight(struct wk_eval *w, int cpu, int prev, bool sync)
{
	const struct sr_snapshot *s = w->ev.snap;
	int64_t this_eff, prev_eff;

	if (!wk_pelt(w, cpu) || !wk_pelt(w, prev))
		return WK_UNKNOWN;
	wk_est(w, SR_REASON_WA_LOAD_ESTIMATE);
	this_eff = s->cpu_load[cpu];
	if (sync) {
		/* the waker's own share: one task of the CPU's load */
		int64_t cur = s->cpu_flags[cpu] & SR_PCPU_SINGLE ? this_eff : 1024;

		if (cur > this_eff) {
			w->why = SR_REASON_WA_WEIGHT_AFFINE;
			return cpu;
		}
		this_eff -= cur;
	}
	this_eff *= 100;
	prev_eff = (int64_t)s->cpu_load[prev] * (100 + (w->ev.param[P_IMBALANCE_PCT] - 100) / 2);
	if (sync)
		prev_eff += 1;
	if (this_eff < prev_eff) {
		w->why = SR_REASON_WA_WEIGHT_AFFINE;
		return cpu;
	}
	w->why = SR_REASON_WA_WEIGHT_PREV;
	return prev;
}

/* wake_affine(): the target select_idle_sibling() starts from */
static int wake_affine(struct wk_eval *w, int cpu, int prev)
{
	const struct sr_snapshot *s = w->ev.snap;
	const struct wk_version *v = w->ver;
	bool single = s->cpu_flags[cpu] & SR_PCPU_SINGLE;

	if (v->wa_share_cache) {
		if (idle(s, cpu) && share_cache(s, cpu, prev)) {
			w->why = idle(s, prev) ? SR_REASON_WA_IDLE_PREV : SR_REASON_WA_IDLE_WAKER;
			return idle(s, prev) ? prev : cpu;
		}
	} else if (idle(s, cpu)) {
		w->why = SR_REASON_WA_IDLE_WAKER;
		return cpu;
	}
	if (single && wk_sync(w)) {
		w->why = SR_REASON_WA_SYNC;
		return cpu;
	}
	if (v->wa_prev_idle && idle(s, prev)) {
		w->why = SR_REASON_WA_IDLE_PREV;
		return prev;
	}
	return wa_weight(w, cpu, prev, (s->known & SR_SNAP_WAKE_SYNC) && s->wake_sync);
}

/* the SIS_UTIL budget: sd_llc_shared->nr_idle_scan from the LLC's util estimate */
static int sis_util_budget(struct wk_eval *w, int target)
{
	const struct sr_snapshot *s = w->ev.snap;
	int64_t sum = 0, x, tmp, pct = w->ev.param[P_IMBALANCE_PCT];
	int i, n = 0;

	for (i = 0; i < s->nr_cpus; i++)
		if (share_cache(s, i, target)) {
			if (!wk_pelt(w, i))
				return -1;
			sum += s->cpu_util[i];
			n++;
		}
	if (!n)
		return 0;
	x = sum / n;
	tmp = x * x * pct * pct / (10000 * 1024);
	if (tmp > 1024)
		tmp = 1024;
	return (int)((1024 - tmp) * n / 1024);
}

/* select_idle_sibling() without SMT */
static int sis(struct wk_eval *w, int prev, int target)
{
	const struct sr_snapshot *s = w->ev.snap;
	const struct wk_version *v = w->ver;
	int i, k = 0, found = -1, budget, start;

	if (idle(s, target)) {
		w->why = SR_REASON_SIS_TARGET_IDLE;
		return target;
	}
	if (prev != target && share_cache(s, prev, target) && idle(s, prev)) {
		w->why = SR_REASON_SIS_PREV_IDLE;
		return prev;
	}
	if (v->kthread_stack && s->waker_kthread && prev == s->waker_cpu &&
	    (s->cpu_flags[prev] & SR_PCPU_SINGLE)) {
		w->why = SR_REASON_SIS_KTHREAD_STACK;
		return prev;
	}
	/* the scan: the first idle CPU of the target's LLC in wrap order */
	start = v->scan_after_target ? target + 1 : target;
	for (i = 0; i < s->nr_cpus; i++) {
		int c = (start + i) % s->nr_cpus;

		if (!share_cache(s, c, target))
			continue;
		k++;
		if (idle(s, c)) {
			found = c;
			break;
		}
	}
	if (v->recent_used) {
		int r = s->recent_used_cpu;

		if (!(s->known & SR_SNAP_RECENT_USED)) {
			/* it can only matter when an idle CPU shares the target's cache */
			if (found >= 0 && !replay_need(&w->ev, SR_SNAP_BIT_RECENT_USED))
				return WK_UNKNOWN;
		} else if (r != prev && r != target && share_cache(s, r, target) && idle(s, r)) {
			w->why = SR_REASON_SIS_RECENT_USED;
			return r;
		}
	}
	if (found < 0) {
		w->why = SR_REASON_SIS_SCAN_NONE;
		return target;
	}
	if (v->sis == WK_SIS_UTIL) {
		budget = sis_util_budget(w, target);
		if (budget < 0)
			return WK_UNKNOWN;
		wk_est(w, SR_REASON_SIS_UTIL_ESTIMATE);
	} else {
		budget = 3;
		wk_est(w, SR_REASON_SIS_PROP_MIN_BUDGET);
	}
	if (k > budget) {
		w->why = SR_REASON_SIS_SCAN_NONE;
		return target;
	}
	w->why = SR_REASON_SIS_SCAN_IDLE;
	return found;
}

/*
 * the CPU one version picks for waker CPU @cpu with wake_wide() answering
 * @wide; WK_UNKNOWN when an input it read is unknown
 */
static int wk_choose_wide(struct wk_eval *w, int cpu, int prev, bool wide, unsigned int *path)
{
	const struct sr_snapshot *snap = w->ev.snap;
	int target = prev, choice, d;

	w->why = 0;
	w->unknown = false;
	*path = wide ? SR_REASON_WAKE_WIDE : 0;
	d = snap->distance[snap->cpu_node[cpu]][snap->cpu_node[prev]];
	if (!wide) {
		if (cpu == prev) {
			*path = SR_REASON_WAKE_SAME_CPU;
		} else if (d > w->ev.param[P_RECLAIM_DISTANCE]) {
			*path = SR_REASON_WAKE_NO_AFFINE_DOMAIN;
		} else {
			target = wake_affine(w, cpu, prev);
			if (target == WK_UNKNOWN || w->unknown)
				return WK_UNKNOWN;
			if (!w->ver->affine_returns_cpu && target != cpu)
				target = prev;
			*path = w->why;
		}
	}
	choice = sis(w, prev, target);
	if (w->unknown)
		return WK_UNKNOWN;
	return choice;
}

/*
 * the CPU one version picks for waker CPU @cpu.  Before the flip counts
 * are known (the first second of a trace: record_wakee()'s decay has not
 * run once), both of wake_wide()'s answers are tried, and the choice is
 * known when they agree (wake-wide-either); w->why and @path are then the
 * affine branch's.
 */
static int wk_choose(struct wk_eval *w, int cpu, int prev, unsigned int *path)
{
	const struct sr_snapshot *snap = w->ev.snap;
	unsigned int p;
	int a, b;

	if (snap->known & SR_SNAP_WAKEE_FLIPS)
		return wk_choose_wide(w, cpu, prev, wake_wide(snap, llc_size(snap, cpu)), path);
	b = wk_choose_wide(w, cpu, prev, true, &p);
	if (b == WK_UNKNOWN)
		return WK_UNKNOWN;
	a = wk_choose_wide(w, cpu, prev, false, path);
	if (a == WK_UNKNOWN)
		return WK_UNKNOWN;
	if (a != b) {
		w->flips_split = true;
		return WK_UNKNOWN;
	}
	w->either = true;
	return a;
}

static bool node_ok(const struct sr_snapshot *s, int c)
{
	return cpu_ok(s, c) && s->cpu_node[c] >= 0 && s->cpu_node[c] < s->nr_nodes &&
	       s->cpu_node[c] < SR_MAX_NODES;
}

static int wakeup_evaluate(const void *priv, const struct sr_snapshot *snap,
			   struct sr_verdict *out, const struct wk_version *ver)
{
	struct wk_eval w = { .ver = ver };
	int prev, choice = -1, c, ret, i;
	unsigned int path = 0, why = 0, any = 0;
	bool narrowed = false, inferred = false;

	ret = replay_eval_begin(&w.ev, priv, snap, out, P__COUNT,
				SR_CLASS_BIT(SR_DECISION_CLASS_WAKEUP));
	if (ret)
		return ret < 0 ? ret : 0;
	/* select_task_rq(): nr_cpus_allowed 1 never reaches select_task_rq_fair() */
	if (replay_place_one_cpu(&w.ev, out))
		return 0;
	if (!SR_SNAP_HAS(snap, cpu_load) || !replay_need(&w.ev, SR_SNAP_BIT_SRC_CPU) ||
	    !replay_need(&w.ev, SR_SNAP_BIT_PLACE_CPUS)) {
		replay_verdict_unknown(out, &w.ev);
		return 0;
	}
	prev = snap->src_cpu;
	if (!node_ok(snap, prev) || snap->nr_cpus > SR_PLACE_MAX_CPUS) {
		replay_verdict_set(out, &w.ev, SR_VERDICT_NOT_APPLICABLE, SR_REASON_NONE, 0, 0);
		return 0;
	}
	if (snap->known & SR_SNAP_WAKER_CPU) {
		if (!node_ok(snap, snap->waker_cpu)) {
			replay_verdict_set(out, &w.ev, SR_VERDICT_NOT_APPLICABLE, SR_REASON_NONE, 0, 0);
			return 0;
		}
		choice = wk_choose(&w, snap->waker_cpu, prev, &path);
		why = w.why;
	} else {
		/*
		 * logged on the target: the waker could be any CPU the trace
		 * does not rule out (SR_PCPU_NOT_WAKER); known if all agree
		 */
		for (c = 0; c < snap->nr_cpus; c++) {
			int r;
			unsigned int p;

			if (!node_ok(snap, c))
				continue;
			if (snap->cpu_flags[c] & SR_PCPU_NOT_WAKER) {
				narrowed = true;
				inferred |= !!(snap->cpu_flags[c] & SR_PCPU_WAKER_INFERRED);
				continue;
			}
			r = wk_choose(&w, c, prev, &p);
			if (r == WK_UNKNOWN || (choice >= 0 && r != choice)) {
				choice = WK_UNKNOWN;
				break;
			}
			if (choice < 0 || c == prev) {
				why = w.why;
				path = p;
			}
			choice = r;
		}
		/* a split of wake_wide()'s answers is said below, as for a known waker */
		if ((choice == WK_UNKNOWN && !w.flips_split) || (choice < 0 && choice != WK_UNKNOWN)) {
			replay_need(&w.ev, SR_SNAP_BIT_WAKER_CPU);
			replay_verdict_unknown(out, &w.ev);
			return 0;
		}
		any = inferred ? SR_REASON_WAKER_CPU_INFERRED :
		      narrowed ? SR_REASON_WAKER_CPU_WAKELIST : SR_REASON_WAKER_CPU_ANY;
	}
	if (choice == WK_UNKNOWN && w.flips_split) {
		replay_need(&w.ev, SR_SNAP_BIT_WAKEE_FLIPS);
		replay_verdict_unknown(out, &w.ev);
		return 0;
	}
	if (choice == WK_UNKNOWN) {
		/* an unseen CPU was asked about, unless another input was missing */
		if (!w.ev.missing) {
			w.ev.missing = SR_SNAP_PLACE_CPUS;
			w.ev.missing_reason = sr_reason_missing(SR_SNAP_BIT_PLACE_CPUS);
		}
		replay_verdict_unknown(out, &w.ev);
		return 0;
	}
	/*
	 * select_task_rq(): a task allowed on one CPU goes there, the class not
	 * asked.  Where the trace does not show the mask and the kernel kept
	 * the task on prev, it may be pinned there, so another CPU is not a
	 * known answer; a task the kernel moved was not pinned to prev.
	 */
	if (choice != prev && snap->dst_cpu == prev &&
	    !replay_need(&w.ev, SR_SNAP_BIT_ALLOWED_CPU)) {
		replay_verdict_unknown(out, &w.ev);
		return 0;
	}
	out->target_cpu = choice;
	out->target_node = snap->cpu_node[choice];
	replay_verdict_set(out, &w.ev, choice == snap->dst_cpu ? SR_VERDICT_ALLOW : SR_VERDICT_RESIST,
			   why, path != why ? path : 0, any);
	if (w.either)
		sr_verdict_push(out, SR_REASON_WAKE_WIDE_EITHER);
	for (i = 0; i < w.nr_est; i++)
		sr_verdict_push(out, w.est[i]);
	return 0;
}

static const struct wk_version v415 = { .sis = WK_SIS_PROP };
static const struct wk_version v416 = {
	.wa_share_cache = true, .affine_returns_cpu = true, .recent_used = true,
	.sis = WK_SIS_PROP,
};
static const struct wk_version v519 = {
	.wa_share_cache = true, .wa_prev_idle = true, .affine_returns_cpu = true,
	.recent_used = true, .kthread_stack = true, .scan_after_target = true,
	.sis = WK_SIS_PROP,
};
static const struct wk_version v61 = {
	.wa_share_cache = true, .wa_prev_idle = true, .affine_returns_cpu = true,
	.recent_used = true, .kthread_stack = true, .scan_after_target = true,
	.sis = WK_SIS_UTIL,
};

static int wakeup_v415_evaluate(const void *priv, const struct sr_snapshot *s, struct sr_verdict *o)
{
	return wakeup_evaluate(priv, s, o, &v415);
}

static int wakeup_v416_evaluate(const void *priv, const struct sr_snapshot *s, struct sr_verdict *o)
{
	return wakeup_evaluate(priv, s, o, &v416);
}

static int wakeup_v519_evaluate(const void *priv, const struct sr_snapshot *s, struct sr_verdict *o)
{
	return wakeup_evaluate(priv, s, o, &v519);
}

static int wakeup_v61_evaluate(const void *priv, const struct sr_snapshot *s, struct sr_verdict *o)
{
	return wakeup_evaluate(priv, s, o, &v61);
}

#define WAKEUP_CLASSES	SR_CLASS_BIT(SR_DECISION_CLASS_WAKEUP)

const struct sr_policy_ops policy_wakeup_v415_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "wakeup-v4.15",
	.provenance	= "Linux v4.14-v4.15 select_task_rq_fair() wake-up path: wake_affine_idle() "
			  "of d153b153446f (v4.14), SIS_PROP 1ad3aaf3fcd2 (v4.13), no recent_used_cpu",
	.description	= "wake-up placement of 4.15: an idle waker's CPU pulls the wakee from any "
			  "node in reach",
	.classes	= WAKEUP_CLASSES,
	.params		= wakeup_params,
	.evaluate	= wakeup_v415_evaluate,
};

const struct sr_policy_ops policy_wakeup_v416_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "wakeup-v4.16",
	.provenance	= "Linux v4.16-v5.4 wake_affine_idle() of 7332dec055f2 + 806486c377e3 "
			  "(v4.16), recent_used_cpu 32e839dda3ba (v4.16), SIS_PROP",
	.description	= "wake-up placement of 4.16: an idle waker's CPU pulls only within the "
			  "LLC and an idle prev wins there",
	.classes	= WAKEUP_CLASSES,
	.params		= wakeup_params,
	.evaluate	= wakeup_v416_evaluate,
};

const struct sr_policy_ops policy_wakeup_v519_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "wakeup-v5.19",
	.provenance	= "Linux v5.15-v5.19 (SIS_PROP 1ad3aaf3fcd2; idle prev d8fcb81f1acf v5.11; "
			  "kthread stacking 52262ee567ad v5.6; scan from target+1 56498cfb045d v5.15)",
	.description	= "wake-up placement of 5.19: SIS_PROP scan budget (taken at its minimum)",
	.classes	= WAKEUP_CLASSES,
	.params		= wakeup_params,
	.evaluate	= wakeup_v519_evaluate,
};

const struct sr_policy_ops policy_wakeup_v61_ops = {
	REPLAY_OPS_BUILTIN,
	.name		= "wakeup-v6.1",
	.provenance	= "Linux v6.0-v6.1 (Debian 6.1.0-57-amd64) select_task_rq_fair() wake-up "
			  "path: SIS_UTIL 70fb5ccf2ebb (v6.0) on top of wakeup-v5.19",
	.description	= "wake-up placement of 6.1: SIS_UTIL scan budget from the LLC's utilisation",
	.classes	= WAKEUP_CLASSES,
	.params		= wakeup_params,
	.evaluate	= wakeup_v61_evaluate,
};
