// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-wakeup.c - the wake-up placement policies (replay/policy-wakeup.c):
 * one row per branch of select_task_rq_fair()'s wake-up path as each
 * version models it (wake_wide, the affine domain, wake_affine_idle,
 * wake_affine_weight, select_idle_sibling's early returns, the LLC scan
 * and its budget).  A row starts from a base: 8 CPUs in 4 nodes of 2 (the
 * lab's 10/20/40 machine), the wakee's prev CPU 2 and the waker on CPU 3
 * (same node), every CPU busy with one task, loads and flips known.
 */
#include <stdbool.h>
#include <string.h>

#include "check-common.h"
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
		   SR_SNAP_CPU_UTIL | SR_SNAP_WAKE_SYNC | SR_SNAP_NR_NODES | SR_SNAP_DISTANCE;
	s->decision_class = SR_DECISION_CLASS_WAKEUP;
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
};

#define NONE	{ -1, -1, -1 }
static const struct row rows[] = {
	/* wake_wide() */
	{ "v6.1/wake_wide/wide: no affine, prev's LLC", "wakeup-v6.1", -1, { 2, -1, -1 }, -1, 0,
	  { 8, 4 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-target-idle", 0, false },
	{ "v6.1/wake_wide/flips unknown", "wakeup-v6.1", -1, NONE, -1, 0, { 0, 0 }, 0, 0, false,
	  true, SR_VERDICT_UNKNOWN, -1, "missing-wakee-flips", 0, false },
	/* the walk: the affine domain */
	{ "v6.1/walk/waker on prev: wake_affine not asked", "wakeup-v6.1", 2, { 3, -1, -1 }, -1, 0,
	  { 0, 0 }, 0, 0, false, false, SR_VERDICT_RESIST, 3, "sis-scan-idle", 0, false },
	{ "v6.1/walk/no SD_WAKE_AFFINE beyond distance 30", "wakeup-v6.1", 4, { 4, -1, -1 }, -1, 0,
	  { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-scan-none", 0, false },
	/* wake_affine_idle() */
	{ "v6.1/wake_affine_idle/idle waker, idle prev: prev", "wakeup-v6.1", -1, { 3, 2, -1 }, -1,
	  0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-target-idle", 0, false },
	{ "v6.1/wake_affine_idle/idle waker sharing the cache: waker", "wakeup-v6.1", -1,
	  { 3, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_RESIST, 3, "sis-target-idle", 0, false },
	{ "v6.1/wake_affine_idle/idle waker on another node: not counted", "wakeup-v6.1", 0,
	  { 0, -1, -1 }, -1, 0, { 0, 0 }, 0, 2048, false, false, SR_VERDICT_RESIST, 0,
	  "sis-target-idle", 0, false },
	{ "v4.15/wake_affine_idle/idle waker on another node: pulls", "wakeup-v4.15", 0,
	  { 0, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_RESIST, 0, "sis-target-idle", 0, false },
	{ "v6.1/wake_affine_idle/sync from a CPU running only the waker", "wakeup-v6.1", -1, NONE,
	  -1, 1, { 0, 0 }, 0, 0, false, false, SR_VERDICT_RESIST, 3, "sis-scan-none", 0, false },
	{ "v6.1/wake_affine_idle/idle prev wins (5.11)", "wakeup-v6.1", 0, { 2, -1, -1 }, -1, 0,
	  { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-target-idle", 0, false },
	{ "v4.16/wake_affine_idle/idle prev across nodes: weight decides", "wakeup-v4.16", 0,
	  { 2, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-target-idle", 0, false },
	/* wake_affine_weight() */
	{ "v6.1/wake_affine_weight/prev heavier: waker", "wakeup-v6.1", -1, NONE, -1, 0, { 0, 0 },
	  0, 3072, false, false, SR_VERDICT_RESIST, 3, "sis-scan-none", 0, false },
	{ "v6.1/wake_affine_weight/equal loads: the WA_BIAS margin favours the waker", "wakeup-v6.1",
	  -1, NONE, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_RESIST, 3, "sis-scan-none", 0, false },
	{ "v6.1/wake_affine_weight/prev lighter: prev", "wakeup-v6.1", -1, NONE, -1, 0, { 0, 0 }, 0,
	  512, false, false, SR_VERDICT_ALLOW, 2, "sis-scan-none", 0, false },
	/* select_idle_sibling() */
	{ "v6.1/wake_affine_idle/idle prev before the weights", "wakeup-v6.1", -1, { 2, -1, -1 }, -1,
	  0, { 0, 0 }, 0, 3072, false, false, SR_VERDICT_ALLOW, 2, "sis-target-idle", 0, false },
	{ "v4.16/sis/prev idle and sharing the cache with the target", "wakeup-v4.16", -1,
	  { 2, -1, -1 }, -1, 0, { 0, 0 }, 0, 3072, false, false, SR_VERDICT_ALLOW, 2, "sis-prev-idle", 0, false },
	{ "v6.1/sis/per-CPU kthread waker on prev", "wakeup-v6.1", 2, NONE, -1, 0, { 0, 0 }, 0, 0,
	  true, false, SR_VERDICT_ALLOW, 2, "sis-kthread-stack", 0, false },
	{ "v6.1/sis/recent_used_cpu idle in the LLC", "wakeup-v6.1", 4, { 3, -1, -1 }, 3, 0,
	  { 0, 0 }, 0, 0, false, false, SR_VERDICT_RESIST, 3, "sis-recent-used", 0, false },
	{ "v4.15/sis/no recent_used_cpu: the scan finds it", "wakeup-v4.15", 4, { 3, -1, -1 }, 3, 0,
	  { 0, 0 }, 100, 0, false, false, SR_VERDICT_RESIST, 3, "sis-scan-idle", 0, false },
	{ "v6.1/select_idle_cpu/SIS_UTIL budget 0 at high util", "wakeup-v6.1", 4, { 3, -1, -1 },
	  -1, 0, { 0, 0 }, 1000, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-scan-none", 0, false },
	{ "v6.1/select_idle_cpu/SIS_UTIL budget left at low util", "wakeup-v6.1", 4, { 3, -1, -1 },
	  -1, 0, { 0, 0 }, 100, 0, false, false, SR_VERDICT_RESIST, 3, "sis-scan-idle", 0, false },
	{ "v5.19/select_idle_cpu/SIS_PROP minimum budget", "wakeup-v5.19", 4, { 3, -1, -1 }, -1, 0,
	  { 0, 0 }, 1000, 0, false, false, SR_VERDICT_RESIST, 3, "sis-scan-idle", 0, false },
	{ "v6.1/select_idle_cpu/nothing idle: the target", "wakeup-v6.1", 4, NONE, -1, 0, { 0, 0 },
	  0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-scan-none", 0, false },
	{ "v6.1/sis/an unseen CPU in the scan: unknown", "wakeup-v6.1", 4, NONE, -1, 0, { 0, 0 },
	  0, 0, false, false, SR_VERDICT_UNKNOWN, -1, "missing-place-cpus", 4, false },
	{ "v6.1/sis/an unseen CPU elsewhere: known", "wakeup-v6.1", 4, NONE, -1, 0, { 0, 0 },
	  0, 0, false, false, SR_VERDICT_ALLOW, 2, "sis-scan-none", 7, false },
	{ "v6.1/walk/waker CPU unknown, idle prev: every waker agrees", "wakeup-v6.1", -1,
	  { 2, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_ALLOW, 2,
	  "sis-target-idle", 0, true },
	{ "v6.1/walk/waker CPU unknown, idle CPU 3: wakers disagree", "wakeup-v6.1", -1,
	  { 3, -1, -1 }, -1, 0, { 0, 0 }, 0, 0, false, false, SR_VERDICT_UNKNOWN, -1,
	  "missing-waker-cpu", 0, true },
};

#define NR_ROWS ((int)(sizeof(rows) / sizeof(rows[0])))

START_TEST(test_wakeup_row)
{
	const struct row *r = &rows[_i];
	const struct sr_policy_ops *ops = replay_registry_lookup(r->policy);
	struct replay_policy *pol;
	struct sr_snapshot s;
	struct sr_verdict v;
	struct err err = { 0 };
	int i;

	ck_assert_msg(ops, "%s: no policy %s", r->name, r->policy);
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
	pol = replay_policy_new(ops);
	ck_assert_ptr_nonnull(pol);
	ck_assert_int_eq(replay_policy_start(pol, &err), 0);
	replay_verdict_init(&v);
	ck_assert_int_eq(replay_policy_evaluate(pol, &s, &v, &err), 0);
	ck_assert_msg(v.verdict == r->verdict, "%s: verdict %s", r->name,
		      replay_verdict_name(v.verdict));
	ck_assert_msg(v.target_cpu == r->cpu, "%s: cpu %d", r->name, v.target_cpu);
	ck_assert_msg(v.nr_reasons > 0 && !strcmp(replay_reason_name(ops, v.reasons[0]), r->reason),
		      "%s: first reason %s", r->name,
		      v.nr_reasons ? replay_reason_name(ops, v.reasons[0]) : "(none)");
	if (v.target_cpu >= 0)
		ck_assert_int_eq(v.target_node, v.target_cpu / 2);
	replay_policy_free(pol);
}
END_TEST

static Suite *wakeup_suite(void)
{
	Suite *s = suite_create("wakeup");
	TCase *tc = tcase_create("table");

	tcase_add_loop_test(tc, test_wakeup_row, 0, NR_ROWS);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(wakeup_suite)
