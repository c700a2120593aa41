// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-wakeup.c - the placement policies: wake-up (replay/policy-wakeup.c)
 * and, below, fork (replay/policy-fork.c).  Wake-up:
 * one row per branch of select_task_rq_fair()'s wake-up path as each
 * version models it (wake_wide, the affine domain, wake_affine_idle,
 * wake_affine_weight, select_idle_sibling's early returns, the LLC scan
 * and its budget).  A row starts from a base: 8 CPUs in 4 nodes of 2 (the
 * lab's 10/20/40 machine), the wakee's prev CPU 2 and the waker on CPU 3
 * (same node), every CPU busy with one task, loads and flips known.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check-common.h"
#include "replay/engine/engine.h"
#include "replay/replay.h"

static const uint8_t dist4[4][4] = {
	{ 10, 20, 40, 40 }, { 20, 10, 40, 40 }, { 40, 40, 10, 20 }, { 40, 40, 20, 10 },
};

static void base(struct sr_snapshot *s)
{
	int a, b, c;

	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
	s->known = SR_SNAP_CLASS | SR_SNAP_SRC_CPU | SR_SNAP_DST_CPU | SR_SNAP_WAKER_CPU |
		   SR_SNAP_PLACE_CPUS | SR_SNAP_WAKEE_FLIPS | SR_SNAP_RECENT_USED |
		   SR_SNAP_CPU_UTIL | SR_SNAP_WAKE_SYNC | SR_SNAP_NR_NODES | SR_SNAP_DISTANCE |
		   SR_SNAP_ALLOWED_CPU;
	s->decision_class = SR_DECISION_CLASS_WAKEUP;
	s->allowed_cpu = -1;	/* allowed on several CPUs */
	s->nr_nodes = 4;
	for (a = 0; a < 4; a++)
		for (b = 0; b < 4; b++)
			s->distance[a][b] = dist4[a][b];
	s->src_cpu = 2;
	s->dst_cpu = 2;
	s->waker_cpu = 3;
	s->recent_used_cpu = -1;
	s->nr_cpus = 8;
	for (c = 0; c < 8; c++) {
		s->cpu_node[c] = (int16_t)(c / 2);
		s->cpu_flags[c] = SR_PCPU_KNOWN | SR_PCPU_SINGLE | SR_PCPU_PELT;
		s->cpu_util[c] = 1000;
		s->cpu_load[c] = 1024;
	}
}

static void set_idle(struct sr_snapshot *s, int c)
{
	s->cpu_flags[c] = SR_PCPU_KNOWN | SR_PCPU_IDLE | SR_PCPU_PELT;
	s->cpu_util[c] = 0;
	s->cpu_load[c] = 0;
}

struct row {
	const char	*name;
	const char	*policy;
	int		waker;		/* -1: keep 3 */
	int		idle[3];	/* CPUs made idle, -1 ends */
	int		recent;		/* recent_used_cpu, -1 none */
	int		sync;
	int		flips[2];	/* waker, wakee */
	int		util;		/* all CPUs' util when > 0 */
	int		load_prev;	/* prev's load when > 0 */
	bool		kthread;
	bool		flips_unknown;
	int		verdict;
	int		cpu;		/* target_cpu */
	const char	*reason;	/* first reason */
	int		unseen;		/* 1 + a CPU made unknown, 0 none */
	bool		waker_unknown;
	bool		wakelist;	/* the engine ruled out prev's LLC but prev as the waker */
	int		load[2][2];	/* { 1 + CPU, load } set after the rest, { 0 } none */
	const char	*also;		/* a reason the chain also holds, NULL none */
	int		mask;		/* 0 or -1 several CPUs, 1 + c only CPU c, MASK_UNKNOWN */
	int		dst;		/* the kernel's CPU when > 0: 1 + c; 0 keeps prev */
};

#define MASK_UNKNOWN	(-2)	/* the trace does not show the mask */

#define NONE	{ -1, -1, -1 }
static const struct row rows[] = {
	/* wake_wide() */
	{ "all/wake_wide/wide: no affine, prev's LLC", "wakeup-*", -1, { 2, -1, -1 }, -1, 0,
	  { 8, 4 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-target-idle", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "all/wake_wide/flips unknown", "wakeup-*", -1, NONE, -1, 0, { 0, 0 }, 0, 0, false,
	  true, SR_VERDICT_UNKNOWN, -1, "missing-wakee-flips", 0, false, false, { { 0 } }, NULL, 0, 0 },
	/* the walk: the affine domain */
	{ "all/walk/waker on prev: wake_affine not asked", "wakeup-*", 2, { 3, -1, -1 }, -1, 0,
	  { 0, 0 }, 0, 0, false, false, SR_VERDICT_RESIST, 3, "sis-scan-idle", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "all/walk/no SD_WAKE_AFFINE beyond distance 30", "wakeup-*", 4, { 4, -1, -1 }, -1, 0,
	  { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-scan-none", 0, false, false, { { 0 } }, NULL, 0, 0 },
	/* wake_affine_idle() */
	{ "v6.1/wake_affine_idle/idle waker, idle prev: prev", "wakeup-v6.1", -1, { 3, 2, -1 }, -1,
	  0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-target-idle", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v6.1/wake_affine_idle/idle waker sharing the cache: waker", "wakeup-v6.1", -1,
	  { 3, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_RESIST, 3, "sis-target-idle", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v6.1/wake_affine_idle/idle waker on another node: not counted", "wakeup-v6.1", 0,
	  { 0, -1, -1 }, -1, 0, { 0, 0 }, 0, 2048, false, false, SR_VERDICT_RESIST, 0,
	  "sis-target-idle", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v4.15/wake_affine_idle/idle waker on another node: pulls", "wakeup-v4.15", 0,
	  { 0, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_RESIST, 0, "sis-target-idle", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v6.1/wake_affine_idle/sync from a CPU running only the waker", "wakeup-v6.1", -1, NONE,
	  -1, 1, { 0, 0 }, 0, 0, false, false, SR_VERDICT_RESIST, 3, "sis-scan-none", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v6.1/wake_affine_idle/idle prev wins (5.11)", "wakeup-v6.1", 0, { 2, -1, -1 }, -1, 0,
	  { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-target-idle", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v4.16/wake_affine_idle/idle prev across nodes: weight decides", "wakeup-v4.16", 0,
	  { 2, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-target-idle", 0, false, false, { { 0 } }, NULL, 0, 0 },
	/* wake_affine_weight() */
	{ "v6.1/wake_affine_weight/prev heavier: waker", "wakeup-v6.1", -1, NONE, -1, 0, { 0, 0 },
	  0, 3072, false, false, SR_VERDICT_RESIST, 3, "sis-scan-none", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v6.1/wake_affine_weight/equal loads: the WA_BIAS margin favours the waker", "wakeup-v6.1",
	  -1, NONE, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_RESIST, 3, "sis-scan-none", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v6.1/wake_affine_weight/prev lighter: prev", "wakeup-v6.1", -1, NONE, -1, 0, { 0, 0 }, 0,
	  512, false, false, SR_VERDICT_ALLOW, 2, "sis-scan-none", 0, false, false, { { 0 } }, NULL, 0, 0 },
	/* select_idle_sibling() */
	{ "v6.1/wake_affine_idle/idle prev before the weights", "wakeup-v6.1", -1, { 2, -1, -1 }, -1,
	  0, { 0, 0 }, 0, 3072, false, false, SR_VERDICT_ALLOW, 2, "sis-target-idle", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v4.16/sis/prev idle and sharing the cache with the target", "wakeup-v4.16", -1,
	  { 2, -1, -1 }, -1, 0, { 0, 0 }, 0, 3072, false, false, SR_VERDICT_ALLOW, 2, "sis-prev-idle", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v6.1/sis/per-CPU kthread waker on prev", "wakeup-v6.1", 2, NONE, -1, 0, { 0, 0 }, 0, 0,
	  true, false, SR_VERDICT_ALLOW, 2, "sis-kthread-stack", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v6.1/sis/recent_used_cpu idle in the LLC", "wakeup-v6.1", 4, { 3, -1, -1 }, 3, 0,
	  { 0, 0 }, 0, 0, false, false, SR_VERDICT_RESIST, 3, "sis-recent-used", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v4.15/sis/no recent_used_cpu: the scan finds it", "wakeup-v4.15", 4, { 3, -1, -1 }, 3, 0,
	  { 0, 0 }, 100, 0, false, false, SR_VERDICT_RESIST, 3, "sis-scan-idle", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v6.1/select_idle_cpu/SIS_UTIL budget 0 at high util", "wakeup-v6.1", 4, { 3, -1, -1 },
	  -1, 0, { 0, 0 }, 1000, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-scan-none", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v6.1/select_idle_cpu/SIS_UTIL budget left at low util", "wakeup-v6.1", 4, { 3, -1, -1 },
	  -1, 0, { 0, 0 }, 100, 0, false, false, SR_VERDICT_RESIST, 3, "sis-scan-idle", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "v5.19/select_idle_cpu/SIS_PROP minimum budget", "wakeup-v5.19", 4, { 3, -1, -1 }, -1, 0,
	  { 0, 0 }, 1000, 0, false, false, SR_VERDICT_RESIST, 3, "sis-scan-idle", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "all/select_idle_cpu/nothing idle: the target", "wakeup-*", 4, NONE, -1, 0, { 0, 0 },
	  0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-scan-none", 0, false, false, { { 0 } }, NULL, 0, 0 },
	{ "all/sis/an unseen CPU in the scan: unknown", "wakeup-*", 4, NONE, -1, 0, { 0, 0 },
	  0, 0, false, false, SR_VERDICT_UNKNOWN, -1, "missing-place-cpus", 4, false, false, { { 0 } }, NULL, 0, 0 },
	{ "all/sis/an unseen CPU elsewhere: known", "wakeup-*", 4, NONE, -1, 0, { 0, 0 },
	  0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-scan-none", 7, false, false, { { 0 } }, NULL, 0, 0 },
	{ "all/walk/waker CPU unknown, idle prev: every waker agrees", "wakeup-*", -1,
	  { 2, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2,
	  "sis-target-idle", 0, true, false, { { 0 } }, NULL, 0, 0 },
	{ "all/walk/waker CPU unknown, idle CPU 3: wakers disagree", "wakeup-*", -1,
	  { 3, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_UNKNOWN, -1,
	  "missing-waker-cpu", 0, true, false, { { 0 } }, NULL, 0, 0 },
	/* a waker on CPU 3 pulls (lighter), those on node 0 leave it on prev (heavier) */
	{ "all/walk/waker CPU unknown, the LLC's waker pulls: wakers disagree", "wakeup-*", -1,
	  NONE, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_UNKNOWN, -1, "missing-waker-cpu",
	  0, true, false, { { 4, 512 }, { 1, 2048 } }, NULL, 0, 0 },
	{ "all/walk/waker CPU unknown, busy target: its LLC ruled out (6.0 wakelist)", "wakeup-*",
	  -1, NONE, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-scan-none", 0,
	  true, true, { { 4, 512 }, { 1, 2048 } }, "waker-cpu-wakelist", 0, 0 },
	/* wake_wide() with the flip counts unknown: both answers tried */
	{ "all/wake_wide/flips unknown, both answers agree", "wakeup-*", -1, { 2, -1, -1 }, -1, 0,
	  { 0, 0 }, 0, 0, false, true, SR_VERDICT_ALLOW, 2, "sis-target-idle", 0, false, false,
	  { { 0 } }, "wake-wide-either", 0, 0 },
	{ "all/wake_wide/flips known: no wake-wide-either", "wakeup-*", -1, { 2, -1, -1 }, -1, 0,
	  { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-target-idle", 0, false, false,
	  { { 0 } }, NULL, 0, 0 },
	/* select_task_rq(): nr_cpus_allowed 1 never asks the class */
	{ "all/select_task_rq/a one-CPU mask: that CPU though prev is idle", "wakeup-*", -1,
	  { 2, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_RESIST, 5,
	  "place-one-cpu", 0, false, false, { { 0 } }, "place-other-cpu", 1 + 5, 0 },
	{ "all/select_task_rq/a one-CPU mask of prev, the idle waker's CPU not taken", "wakeup-*",
	  -1, { 3, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2,
	  "place-one-cpu", 0, false, false, { { 0 } }, "place-same-cpu", 1 + 2, 0 },
	{ "all/select_task_rq/a one-CPU mask decides even with the flips unknown", "wakeup-*", -1,
	  NONE, -1, 0, { 0, 0 }, 0, 0, false, true, SR_VERDICT_RESIST, 6, "place-one-cpu", 0,
	  false, false, { { 0 } }, NULL, 1 + 6, 0 },
	{ "all/select_task_rq/several CPUs allowed: the class decides", "wakeup-*", -1,
	  { 2, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2,
	  "sis-target-idle", 0, false, false, { { 0 } }, NULL, -1, 0 },
	/* the mask not shown: the task may be pinned to prev, where the kernel kept it */
	{ "all/select_task_rq/mask unknown, kept on prev, another CPU picked: unknown", "wakeup-*",
	  -1, { 3, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_UNKNOWN, -1,
	  "missing-allowed-cpus", 0, false, false, { { 0 } }, NULL, MASK_UNKNOWN, 0 },
	{ "all/select_task_rq/mask unknown, prev picked: known", "wakeup-*", -1, { 2, -1, -1 },
	  -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-target-idle", 0, false,
	  false, { { 0 } }, NULL, MASK_UNKNOWN, 0 },
	{ "all/select_task_rq/mask unknown, the kernel moved it: not pinned to prev", "wakeup-*",
	  -1, { 3, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 3,
	  "sis-target-idle", 0, false, false, { { 0 } }, NULL, MASK_UNKNOWN, 1 + 3 },
};

#define NR_ROWS ((int)(sizeof(rows) / sizeof(rows[0])))

/* one row through one policy */
static void run_row(const struct row *r, const struct sr_policy_ops *ops)
{
	struct replay_policy *pol;
	struct sr_snapshot s;
	struct sr_verdict v;
	struct err err = { 0 };
	int i;

	base(&s);
	if (r->waker >= 0)
		s.waker_cpu = r->waker;
	for (i = 0; i < 3 && r->idle[i] >= 0; i++)
		set_idle(&s, r->idle[i]);
	if (r->util > 0)
		for (i = 0; i < 8; i++)
			s.cpu_util[i] = r->util;
	if (r->load_prev > 0)
		s.cpu_load[2] = r->load_prev;
	s.recent_used_cpu = r->recent;
	s.wake_sync = r->sync;
	s.waker_flips = r->flips[0];
	s.wakee_flips = r->flips[1];
	s.waker_kthread = r->kthread;
	if (r->flips_unknown)
		s.known &= ~SR_SNAP_WAKEE_FLIPS;
	if (r->unseen > 0)
		s.cpu_flags[r->unseen - 1] = 0;
	if (r->waker_unknown)
		s.known &= ~SR_SNAP_WAKER_CPU;
	if (r->wakelist)
		s.cpu_flags[3] |= SR_PCPU_NOT_WAKER;
	if (r->mask == MASK_UNKNOWN)
		s.known &= ~SR_SNAP_ALLOWED_CPU;
	else
		s.allowed_cpu = r->mask > 0 ? r->mask - 1 : -1;
	if (r->dst > 0)
		s.dst_cpu = r->dst - 1;
	for (i = 0; i < 2; i++)
		if (r->load[i][0] > 0) {
			s.cpu_load[r->load[i][0] - 1] = r->load[i][1];
			/* node 0 alike: both its CPUs */
			if (r->load[i][0] - 1 == 0)
				s.cpu_load[1] = r->load[i][1];
		}
	pol = replay_policy_new(ops);
	ck_assert_ptr_nonnull(pol);
	ck_assert_int_eq(replay_policy_start(pol, &err), 0);
	replay_verdict_init(&v);
	ck_assert_int_eq(replay_policy_evaluate(pol, &s, &v, &err), 0);
	ck_assert_msg(v.verdict == r->verdict, "%s (%s): verdict %s", r->name, ops->name,
		      replay_verdict_name(v.verdict));
	ck_assert_msg(v.target_cpu == r->cpu, "%s (%s): cpu %d", r->name, ops->name, v.target_cpu);
	ck_assert_msg(v.nr_reasons > 0 && !strcmp(replay_reason_name(ops, v.reasons[0]), r->reason),
		      "%s (%s): first reason %s", r->name, ops->name,
		      v.nr_reasons ? replay_reason_name(ops, v.reasons[0]) : "(none)");
	if (v.target_cpu >= 0)
		ck_assert_int_eq(v.target_node, v.target_cpu / 2);
	for (i = 0; i < (int)v.nr_reasons; i++)
		if (!strcmp(replay_reason_name(ops, v.reasons[i]), "wake-wide-either"))
			break;
	ck_assert_msg((i < (int)v.nr_reasons) == (r->also && !strcmp(r->also, "wake-wide-either")),
		      "%s (%s): wake-wide-either %s", r->name, ops->name,
		      i < (int)v.nr_reasons ? "present" : "absent");
	if (r->also) {
		for (i = 0; i < (int)v.nr_reasons; i++)
			if (!strcmp(replay_reason_name(ops, v.reasons[i]), r->also))
				break;
		ck_assert_msg(i < (int)v.nr_reasons, "%s (%s): no %s", r->name, ops->name, r->also);
	}
	replay_policy_free(pol);
}

/* "wakeup-*": every wake-up version answers the row alike */
static bool row_has(const char *pattern, const char *name)
{
	size_t n = strlen(pattern);

	if (n && pattern[n - 1] == '*')
		return !strncmp(pattern, name, n - 1);
	return !strcmp(pattern, name);
}

START_TEST(test_wakeup_row)
{
	const struct row *r = &rows[_i];
	size_t i;
	int n = 0;

	for (i = 0; i < replay_registry_count(); i++)
		if (row_has(r->policy, replay_registry_get(i)->name)) {
			run_row(r, replay_registry_get(i));
			n++;
		}
	ck_assert_msg(n > 0, "%s: no policy %s", r->name, r->policy);
}
END_TEST


/*
 * Fork placement (replay/policy-fork.c): 2 nodes of 4 CPUs, distance 20;
 * the parent runs on CPU 0, the rest idle (CPU 5 idle the shortest, the
 * idle CPUs of node 0 with utils 300/100/200), loads and utils known.
 */
static void fork_base(struct sr_snapshot *s)
{
	int c;

	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
	s->known = SR_SNAP_CLASS | SR_SNAP_SRC_CPU | SR_SNAP_DST_CPU | SR_SNAP_SRC_NODE |
		   SR_SNAP_DST_NODE | SR_SNAP_WAKER_CPU | SR_SNAP_PLACE_CPUS | SR_SNAP_CPU_UTIL |
		   SR_SNAP_NR_NODES | SR_SNAP_DISTANCE | SR_SNAP_NODE_NR_CPUS |
		   SR_SNAP_NODE_NR_RUNNING | SR_SNAP_NODE_NR_IDLE | SR_SNAP_NODE_KNOWN |
		   SR_SNAP_PREF_NODE | SR_SNAP_ALLOWED_CPU;
	s->decision_class = SR_DECISION_CLASS_FORK;
	s->allowed_cpu = -1;
	s->nr_nodes = 2;
	s->distance[0][0] = s->distance[1][1] = 10;
	s->distance[0][1] = s->distance[1][0] = 20;
	s->node_known = 3;
	s->pref_node = -1;
	s->src_cpu = s->waker_cpu = 0;
	s->src_node = 0;
	s->dst_cpu = 0;
	s->dst_node = 0;
	s->nr_cpus = 8;
	for (c = 0; c < 8; c++) {
		s->cpu_node[c] = (int16_t)(c / 4);
		s->cpu_flags[c] = SR_PCPU_KNOWN | SR_PCPU_PELT | SR_PCPU_IDLE;
		s->cpu_idle_ns[c] = 10000000;
	}
	s->cpu_idle_ns[5] = 1000;
	s->cpu_util[1] = 300;
	s->cpu_util[2] = 100;
	s->cpu_util[3] = 200;
	s->cpu_flags[0] = SR_PCPU_KNOWN | SR_PCPU_PELT | SR_PCPU_SINGLE;
	s->cpu_nr_running[0] = 1;
	s->cpu_util[0] = s->cpu_load[0] = 1024;
	s->node_nr_cpus[0] = s->node_nr_cpus[1] = 4;
	s->node_nr_running[0] = 1;
	s->node_nr_idle[0] = 3;
	s->node_nr_idle[1] = 4;
}

/* make CPU @c busy with @nr tasks */
static void fork_busy(struct sr_snapshot *s, int c, int nr)
{
	int n = c / 4;

	if (!(s->cpu_flags[c] & SR_PCPU_IDLE))
		s->node_nr_running[n] -= s->cpu_nr_running[c];
	else
		s->node_nr_idle[n]--;
	s->cpu_flags[c] = SR_PCPU_KNOWN | SR_PCPU_PELT | (nr == 1 ? SR_PCPU_SINGLE : 0);
	s->cpu_nr_running[c] = (int16_t)nr;
	s->node_nr_running[n] += nr;
	s->cpu_util[c] = 1024;
	s->cpu_load[c] = 1024 * nr;
}

struct fork_row {
	const char	*name;
	const char	*policy;
	int		busy;		/* CPUs 1..busy of node 0 busy too */
	bool		node1_busy;	/* every CPU of node 1 busy */
	int		pref;		/* numa_preferred_nid */
	int		llcs;		/* llcs_per_node, 0 default */
	int		unseen;		/* 1 + a CPU not seen, 0 none */
	int		light;		/* 1 + a CPU whose load is 512, 0 none */
	int		verdict;	/* against dst_cpu 0 */
	int		cpu;
	const char	*reason2;	/* second reason, "" none */
	int		mask;		/* 0 many CPUs, 1 + c only CPU c, -1 not known */
	const char	*node_why;	/* find_idlest_group()'s branch, first reason */
	int		spare;		/* 1 + a busy CPU whose util is 200 (spare capacity), 0 none */
	int		pending;	/* 1 + an idle CPU a wake-up is on its way to, 0 none */
};

static const struct fork_row fork_rows[] = {
	{ "v6.1/find_idlest_group/spare capacity: the node with more idle CPUs", "fork-v6.1", 0,
	  false, -1, 0, 0, 0, SR_VERDICT_RESIST, 5, "place-other-cpu", 0, "node-more-idle", 0, 0 },
	{ "v6.1/find_idlest_group/imb_numa_nr keeps a small imbalance", "fork-v6.1", 0, false, -1,
	  2, 0, 0, SR_VERDICT_RESIST, 2, "place-load-estimate", 0, "node-spill-imb-numa", 0, 0 },
	{ "v5.10/find_idlest_group/the local node has an idle CPU: stays", "fork-v5.10", 0, false,
	  -1, 0, 0, 0, SR_VERDICT_RESIST, 2, "place-load-estimate", 0, "node-spill-idle", 0, 0 },
	{ "v5.11/find_idlest_group/below a quarter of the domain: stays", "fork-v5.11", 0, false,
	  -1, 0, 0, 0, SR_VERDICT_RESIST, 2, "place-load-estimate", 0, "node-spill-quarter", 0, 0 },
	{ "v5.11/find_idlest_group/a quarter reached: the idler node", "fork-v5.11", 1, false, -1,
	  0, 0, 0, SR_VERDICT_RESIST, 5, "place-other-cpu", 0, "node-more-idle", 0, 0 },
	{ "v5.10/find_idlest_group/an idle CPU left: stays on the node", "fork-v5.10", 2, false,
	  -1, 0, 0, 0, SR_VERDICT_RESIST, 3, "place-load-estimate", 0, "node-spill-idle", 0, 0 },
	{ "all/find_idlest_group/local fully busy: the node with spare capacity", "fork-*", 3,
	  false, -1, 0, 0, 0, SR_VERDICT_RESIST, 5, "place-other-cpu", 0, "node-group-type-go", 0, 0 },
	{ "all/find_idlest_group/the local node is preferred: stays", "fork-*", 1, false, 0, 0, 0,
	  0, SR_VERDICT_RESIST, 2, "place-load-estimate", 0, "node-preferred", 0, 0 },
	{ "all/find_idlest_group/the idler node is preferred: goes", "fork-*", 0, false, 1, 0, 0,
	  0, SR_VERDICT_RESIST, 5, "place-other-cpu", 0, "node-preferred", 0, 0 },
	{ "all/find_idlest_group_cpu/a CPU of the node not seen: unknown", "fork-*", 3, false, -1, 0,
	  7, 0, SR_VERDICT_UNKNOWN, -1, "", 0, NULL, 0, 0 },
	{ "all/find_idlest_group/both busy: the lighter CPU of the local node", "fork-*", 3, true,
	  -1, 0, 0, 2, SR_VERDICT_RESIST, 1, "place-load-estimate", 0, "node-avg-load", 0, 0 },
	{ "all/find_idlest_group/both busy, equal loads: the parent's CPU", "fork-*", 3, true, -1,
	  0, 0, 0, SR_VERDICT_ALLOW, 0, "place-load-estimate", 0, "node-avg-load", 0, 0 },
	{ "all/find_idlest_group/no CPU idle, the parent's has spare capacity: stays", "fork-*", 3,
	  true, -1, 0, 0, 2, SR_VERDICT_ALLOW, 0, "place-load-estimate", 0, "node-avg-load", 1 + 0, 0 },
	{ "all/find_idlest_group/no CPU idle, another has spare capacity: goes", "fork-*", 3, true,
	  -1, 0, 0, 0, SR_VERDICT_RESIST, 2, "place-load-estimate", 0, "node-avg-load", 1 + 2, 0 },
	{ "all/select_task_rq/a one-CPU mask: that CPU, the class not asked", "fork-*", 0, false,
	  -1, 0, 0, 0, SR_VERDICT_RESIST, 6, "place-other-cpu", 1 + 6, NULL, 0, 0 },
	{ "all/select_task_rq/a one-CPU mask of the parent's CPU, though others idle", "fork-*", 0,
	  false, -1, 0, 0, 0, SR_VERDICT_ALLOW, 0, "place-same-cpu", 1 + 0, NULL, 0, 0 },
	{ "all/select_task_rq/the mask not known: unknown", "fork-*", 0, false, -1, 0, 0, 0,
	  SR_VERDICT_UNKNOWN, -1, "", -1, NULL, 0, 0 },
	{ "all/find_idlest_group_cpu/a wake-up on its way (ttwu_pending): not idle", "fork-*", 0,
	  false, 1, 0, 0, 0, SR_VERDICT_RESIST, 4, "place-other-cpu", 0, "node-preferred", 0,
	  1 + 5 },
	{ "all/find_idlest_group/a wake-up on its way to the last idle CPU: the idler node",
	  "fork-*", 2, false, -1, 0, 0, 0, SR_VERDICT_RESIST, 5, "place-other-cpu", 0,
	  "node-more-idle", 0, 1 + 3 },
};

#define NR_FORK_ROWS ((int)(sizeof(fork_rows) / sizeof(fork_rows[0])))

static void run_fork_row(const struct fork_row *r, const struct sr_policy_ops *ops)
{
	struct replay_policy *pol;
	struct sr_snapshot s;
	struct sr_verdict v;
	struct err err = { 0 };
	char set[64];
	int c;

	fork_base(&s);
	for (c = 1; c <= r->busy; c++)
		fork_busy(&s, c, 1);
	if (r->node1_busy)
		for (c = 4; c < 8; c++)
			fork_busy(&s, c, 1);
	s.pref_node = r->pref;
	if (r->unseen > 0)
		s.cpu_flags[r->unseen - 1] = 0;
	if (r->light > 0)
		s.cpu_load[r->light - 1] = 512;
	if (r->spare > 0)
		s.cpu_util[r->spare - 1] = 200;
	if (r->pending > 0) {
		/* nothing queued yet, but not SR_PCPU_IDLE: nor is it in node_nr_idle */
		s.cpu_flags[r->pending - 1] &= (uint8_t)~SR_PCPU_IDLE;
		s.node_nr_idle[(r->pending - 1) / 4]--;
	}
	if (r->mask > 0)
		s.allowed_cpu = r->mask - 1;
	else if (r->mask < 0)
		s.known &= ~SR_SNAP_ALLOWED_CPU;
	pol = replay_policy_new(ops);
	ck_assert_ptr_nonnull(pol);
	if (r->llcs) {
		snprintf(set, sizeof(set), "llcs_per_node=%d", r->llcs);
		ck_assert_int_eq(replay_policy_set_param(pol, set, &err), 0);
	}
	ck_assert_int_eq(replay_policy_start(pol, &err), 0);
	replay_verdict_init(&v);
	ck_assert_int_eq(replay_policy_evaluate(pol, &s, &v, &err), 0);
	ck_assert_msg(v.verdict == r->verdict, "%s (%s): verdict %s", r->name, ops->name,
		      replay_verdict_name(v.verdict));
	ck_assert_msg(v.target_cpu == r->cpu, "%s (%s): cpu %d", r->name, ops->name, v.target_cpu);
	if (r->verdict == SR_VERDICT_UNKNOWN) {
		ck_assert_str_eq(replay_reason_name(ops, v.reasons[0]),
				 r->mask < 0 ? "missing-allowed-cpus" : "missing-place-cpus");
	} else {
		int k = 0;

		if (r->node_why) {
			ck_assert_msg(!strcmp(replay_reason_name(ops, v.reasons[0]), r->node_why),
				      "%s (%s): node reason %s", r->name, ops->name,
				      replay_reason_name(ops, v.reasons[0]));
			k = 1;
		}
		ck_assert_str_eq(replay_reason_name(ops, v.reasons[k]),
				 r->mask > 0 ? "place-one-cpu" : "place-idlest-cpu");
		ck_assert_msg(v.nr_reasons > (uint32_t)k + 1 &&
			      !strcmp(replay_reason_name(ops, v.reasons[k + 1]), r->reason2),
			      "%s (%s): second reason %s", r->name, ops->name,
			      v.nr_reasons > (uint32_t)k + 1 ?
			      replay_reason_name(ops, v.reasons[k + 1]) : "(none)");
		ck_assert_int_eq(v.target_node, v.target_cpu / 4);
	}
	replay_policy_free(pol);
}

START_TEST(test_fork_row)
{
	const struct fork_row *r = &fork_rows[_i];
	size_t i;
	int n = 0;

	for (i = 0; i < replay_registry_count(); i++)
		if (row_has(r->policy, replay_registry_get(i)->name)) {
			run_fork_row(r, replay_registry_get(i));
			n++;
		}
	ck_assert_msg(n > 0, "%s: no policy %s", r->name, r->policy);
}
END_TEST

/* every placement built-in has at least six rows of its own or shared */
START_TEST(test_rows_per_policy)
{
	size_t i;
	int j, n;

	for (i = 0; i < replay_registry_count(); i++) {
		const char *name = replay_registry_get(i)->name;

		if (strncmp(name, "wakeup-", 7) && strncmp(name, "fork-", 5))
			continue;
		n = 0;
		for (j = 0; j < NR_ROWS; j++)
			n += row_has(rows[j].policy, name);
		for (j = 0; j < NR_FORK_ROWS; j++)
			n += row_has(fork_rows[j].policy, name);
		ck_assert_msg(n >= 6, "policy %s has only %d rows", name, n);
	}
}
END_TEST

/*
 * The engine's inference of an unknown waker's CPU (engine.c
 * infer_waker()): the base with the waker unknown, CPU 3 lighter than prev
 * (a waker there pulls the wakee to it) and node 0 heavier (a waker there
 * leaves it on prev); nodes 2 and 3 are beyond the affine distance.  One
 * row per outcome, with wakeup-v6.1 as the kernel model.
 */
struct infer_row {
	const char	*name;
	int		dst;		/* the CPU the kernel picked */
	bool		kernel;		/* a kernel side at all */
	int		verdict;	/* the old side's (wakeup-v5.19) */
	int		cpu;
	bool		inferred;	/* its chain names waker-cpu-inferred */
};

static const struct infer_row infer_rows[] = {
	{ "kept on prev: the LLC's waker ruled out", 2, true, SR_VERDICT_ALLOW, 2, true },
	{ "moved to CPU 3: every waker but CPU 3 ruled out", 3, true, SR_VERDICT_ALLOW, 3, true },
	{ "a CPU no waker gives: nothing ruled out", 5, true, SR_VERDICT_UNKNOWN, -1, false },
	{ "no kernel model: nothing ruled out", 2, false, SR_VERDICT_UNKNOWN, -1, false },
};

#define NR_INFER_ROWS ((int)(sizeof(infer_rows) / sizeof(infer_rows[0])))

static struct replay_policy *started(const char *name)
{
	struct replay_policy *p = replay_policy_new(replay_registry_lookup(name));
	struct err err = { 0 };

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(replay_policy_start(p, &err), 0);
	return p;
}

static bool chain_has(const struct sr_verdict *v, unsigned int code)
{
	int i;

	for (i = 0; i < (int)v->nr_reasons; i++)
		if (v->reasons[i] == code)
			return true;
	return false;
}

START_TEST(test_infer_waker_row)
{
	const struct infer_row *row = &infer_rows[_i];
	struct engine *e = engine_new();
	struct engine_result r;
	struct err err = { 0 };
	static struct decision d;
	struct sr_snapshot before;

	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(engine_add(e, ENGINE_OLD, started("wakeup-v5.19"), &err), 0);
	ck_assert_int_eq(engine_add(e, ENGINE_NEW, started("wakeup-v4.15"), &err), 0);
	if (row->kernel)
		ck_assert_int_eq(engine_add(e, ENGINE_KERNEL, started("wakeup-v6.1"), &err), 0);
	memset(&d, 0, sizeof(d));
	base(&d.snap);
	d.snap.known &= ~SR_SNAP_WAKER_CPU;
	d.snap.cpu_load[3] = 512;
	d.snap.cpu_load[0] = d.snap.cpu_load[1] = 2048;
	d.snap.dst_cpu = row->dst;
	d.snap.dst_node = row->dst / 2;
	before = d.snap;
	ck_assert_int_eq(engine_evaluate(e, &d, &r, &err), 0);
	ck_assert_msg(r.v[ENGINE_OLD].verdict == row->verdict, "%s: verdict %s", row->name,
		      replay_verdict_name(r.v[ENGINE_OLD].verdict));
	ck_assert_msg(r.v[ENGINE_OLD].target_cpu == row->cpu, "%s: cpu %d", row->name,
		      r.v[ENGINE_OLD].target_cpu);
	ck_assert_msg(chain_has(&r.v[ENGINE_OLD], SR_REASON_WAKER_CPU_INFERRED) == row->inferred,
		      "%s: waker-cpu-inferred %s", row->name, row->inferred ? "absent" : "present");
	ck_assert_msg(!chain_has(&r.v[ENGINE_NEW], SR_REASON_WAKER_CPU_INFERRED) || row->inferred,
		      "%s: the new side inferred", row->name);
	if (row->kernel) {
		/* judged on the snapshot as the trace left it: its own answer is no evidence */
		ck_assert_int_eq(r.v[ENGINE_KERNEL].verdict, SR_VERDICT_UNKNOWN);
		ck_assert(!chain_has(&r.v[ENGINE_KERNEL], SR_REASON_WAKER_CPU_INFERRED));
	}
	ck_assert_msg(!memcmp(&before, &d.snap, sizeof(before)), "%s: the decision changed",
		      row->name);
	engine_free(e);
}
END_TEST

static Suite *wakeup_suite(void)
{
	Suite *s = suite_create("wakeup");
	TCase *tc = tcase_create("table");

	tcase_add_loop_test(tc, test_wakeup_row, 0, NR_ROWS);
	tcase_add_loop_test(tc, test_fork_row, 0, NR_FORK_ROWS);
	tcase_add_test(tc, test_rows_per_policy);
	tcase_add_loop_test(tc, test_infer_waker_row, 0, NR_INFER_ROWS);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(wakeup_suite)
