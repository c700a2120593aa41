// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-truth.c - the decision probes on the replay side, from hand-made
 * event sequences: a refused candidate becomes a decision with the
 * kernel's inputs, an allowed one pairs with its sched_migrate_task,
 * entries and returns pair per CPU (a return without entry, an entry
 * without return are counted, never a crash), the kernel model is checked
 * against the kernel's verdict (agreeing and disagreeing inputs), and the
 * text reader turns trace-cmd report's kprobe lines into probe events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check-decision-fixture.h"
#include "decision/decision-probe.h"
#include "ingest/marker.h"
#include "replay/engine/engine.h"
#include "replay/replay.h"

#define MS (1000ull * 1000)
#define US 1000ull

static void sw(uint64_t ts, int cpu, int prev, long state, int next)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .pid = prev, .kind = SR_EV_SWITCH };

	ev.u.sw.prev_pid = prev;
	ev.u.sw.prev_state = state;
	ev.u.sw.prev_prio = 120;
	ev.u.sw.next_pid = next;
	ev.u.sw.next_prio = 120;
	snprintf(ev.u.sw.next_comm, sizeof(ev.u.sw.next_comm), "t%d", next);
	feed(&ev);
}

static void set(struct sr_ev_probe *pr, int f, int64_t v)
{
	pr->v[f] = v;
	sr_probe_set(pr, f);
}

static void probe(uint64_t ts, int cpu, enum sr_event_kind kind, const struct sr_ev_probe *pr)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .pid = 0, .kind = kind };

	ev.str = (const char *)pr;
	ev.str_len = sizeof(*pr);
	feed(&ev);
}

/*
 * A candidate: task 10 on CPU 0 (node 0, not running), judged by CPU 1
 * newly idle at the MC level; it last ran @since_ns before the source's
 * clock; nr_balance_failed @nr_bf with cache_nice_tries 1; no NUMA faults.
 */
static struct sr_ev_probe candidate(uint64_t since_ns, int nr_bf)
{
	struct sr_ev_probe pr = { 0 };

	set(&pr, SR_PF_TASK, (int64_t)0xffff888004a00000ull);
	set(&pr, SR_PF_PID, 10);
	set(&pr, SR_PF_P_FLAGS, 0x400000);
	set(&pr, SR_PF_ON_CPU, 0);
	set(&pr, SR_PF_EXEC_START, (int64_t)(5 * MS));
	set(&pr, SR_PF_SRC_CLOCK, (int64_t)(5 * MS + since_ns));
	set(&pr, SR_PF_PREF_NID, -1);
	set(&pr, SR_PF_FAULTS, 0);
	set(&pr, SR_PF_NGRP, 0);
	set(&pr, SR_PF_SRC_CPU, 0);
	set(&pr, SR_PF_DST_CPU, 1);
	set(&pr, SR_PF_IDLE, 2);
	set(&pr, SR_PF_ENV_FLAGS, 0x1);
	set(&pr, SR_PF_NR_BF, nr_bf);
	set(&pr, SR_PF_CNT, 1);
	set(&pr, SR_PF_SD_FLAGS, 0x0100 | 0x1);	/* SD_SHARE_PKG_RESOURCES: MC */
	set(&pr, SR_PF_SRC_NR, 2);
	set(&pr, SR_PF_SRC_NPREF, 0);
	set(&pr, SR_PF_DST_NR, 0);
	set(&pr, SR_PF_NEXT, 0);
	set(&pr, SR_PF_LAST, 0);
	return pr;
}

static struct sr_ev_probe retval(int v)
{
	struct sr_ev_probe pr = { 0 };

	set(&pr, SR_PF_RET, v);
	return pr;
}

/* tasks 10 and 12 queued on CPU 0 (12 running), CPU 1 idle */
static void base(void)
{
	sw(1 * MS, 0, 0, 0, 10);
	sw(1 * MS, 1, 0, 0, 0);
	sw(1 * MS, 2, 0, 0, 0);
	sw(1 * MS, 3, 0, 0, 0);
	sw(2 * MS, 0, 10, 0, 12);
}

START_TEST(test_refused_candidate_is_decision)
{
	struct sr_ev_probe pr = candidate(100 * US, 0), ret = retval(0);
	const struct sr_snapshot *s;

	base();
	probe(10 * MS, 1, SR_EV_CMT, &pr);
	probe(10 * MS + 1, 1, SR_EV_CMT_RET, &ret);
	ck_assert_int_eq(decision_finish(d), 0);
	ck_assert_int_eq(nr_got, 1);
	s = &got[0].snap;
	ck_assert_int_eq(s->decision_class, SR_DECISION_CLASS_LB_PULL);
	ck_assert_int_eq(got[0].why, DECISION_WHY_CANDIDATE);
	ck_assert(got[0].has_truth);
	ck_assert_int_eq(got[0].truth, 0);
	ck_assert_int_eq(s->tid, 10);
	ck_assert_int_eq(s->src_cpu, 0);
	ck_assert_int_eq(s->dst_cpu, 1);
	/* the probe's inputs, not the model's guesses */
	ck_assert(s->known & SR_SNAP_BALANCE_FAILED);
	ck_assert_int_eq(s->nr_balance_failed, 0);
	ck_assert_int_eq(s->cache_nice_tries, 1);
	ck_assert(s->known & SR_SNAP_IDLE_TYPE);
	ck_assert_int_eq(s->idle_type, SR_IDLE_NEWLY_IDLE);
	ck_assert(s->known & SR_SNAP_SINCE_RAN);
	ck_assert_uint_eq(s->since_ran_ns, 100 * US);
	ck_assert(s->known & SR_SNAP_BUDDY);
	ck_assert_int_eq(s->buddy, 0);
	ck_assert_int_eq(s->sd_level, SR_SD_MC);
	ck_assert_int_eq(s->src_nr_running, 2);
	ck_assert(s->known & SR_SNAP_HAS_FAULTS);
	ck_assert_int_eq(s->has_faults, 0);
	ck_assert_uint_eq(decision_stats(d)->probe_candidates, 1);
}
END_TEST

START_TEST(test_allowed_pairs_with_migration)
{
	struct sr_ev_probe pr = candidate(2 * MS, 0), ret = retval(1);
	struct sr_event mg = { .ts_ns = 10 * MS + 2, .cpu = 1, .pid = 0, .kind = SR_EV_MIGRATE };

	base();
	probe(10 * MS, 1, SR_EV_CMT, &pr);
	probe(10 * MS + 1, 1, SR_EV_CMT_RET, &ret);
	mg.u.mig.pid = 10;
	mg.u.mig.prio = 120;
	mg.u.mig.orig_cpu = 0;
	mg.u.mig.dest_cpu = 1;
	strcpy(mg.u.mig.comm, "t10");
	feed(&mg);
	ck_assert_int_eq(decision_finish(d), 0);
	/* one decision, the candidate's: no double count */
	ck_assert_int_eq(nr_got, 1);
	ck_assert(got[0].has_truth);
	ck_assert_int_eq(got[0].truth, 1);
	ck_assert_uint_eq(decision_stats(d)->probe_paired_migrations, 1);
	ck_assert_uint_eq(decision_stats(d)->by_class[SR_DECISION_CLASS_LB_PULL], 1);
}
END_TEST

START_TEST(test_active_balance_candidate)
{
	struct sr_ev_probe pr = candidate(2 * MS, 0), ret = retval(1);

	set(&pr, SR_PF_ENV_FLAGS, 0x10);	/* LBF_ACTIVE_LB */
	set(&pr, SR_PF_IDLE, 0);
	base();
	probe(10 * MS, 0, SR_EV_CMT, &pr);
	probe(10 * MS + 1, 0, SR_EV_CMT_RET, &ret);
	ck_assert_int_eq(decision_finish(d), 0);
	ck_assert_int_eq(nr_got, 1);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_LB_ACTIVE);
}
END_TEST

static struct engine *kernel_engine(void)
{
	struct engine *e = engine_new();
	struct replay_policy *p = replay_policy_new(replay_registry_lookup("lb-v6.1"));
	struct err err = { 0 };

	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(replay_policy_start(p, &err), 0);
	ck_assert_int_eq(engine_add(e, ENGINE_KERNEL, p, &err), 0);
	return e;
}

/* a per-CPU kernel thread: can_migrate_task() refuses it before anything else */
START_TEST(test_per_cpu_kthread)
{
	struct sr_ev_probe pr = candidate(3 * MS, 0), r0 = retval(0);
	struct sr_event ev = { .ts_ns = 3 * MS, .cpu = 0, .pid = 12, .kind = SR_EV_SWITCH };
	struct engine *e = kernel_engine();
	struct engine_result r;
	struct err err = { 0 };

	base();
	/* 14 is ksoftirqd/0: it runs once on CPU 0 and is preempted */
	ev.u.sw.prev_pid = 12;
	ev.u.sw.prev_prio = 120;
	ev.u.sw.next_pid = 14;
	ev.u.sw.next_prio = 120;
	strcpy(ev.u.sw.next_comm, "ksoftirqd/0");
	feed(&ev);
	sw(4 * MS, 0, 14, 0, 12);
	set(&pr, SR_PF_PID, 14);
	set(&pr, SR_PF_P_FLAGS, 0x04208040);	/* PF_KTHREAD | PF_NO_SETAFFINITY */
	probe(10 * MS, 1, SR_EV_CMT, &pr);
	probe(10 * MS + 1, 1, SR_EV_CMT_RET, &r0);
	ck_assert_int_eq(decision_finish(d), 0);
	ck_assert_int_eq(nr_got, 1);
	ck_assert(got[0].snap.known & SR_SNAP_DST_ALLOWED);
	ck_assert_int_eq(got[0].snap.dst_allowed, 0);
	ck_assert_int_eq(engine_evaluate(e, &got[0], &r, &err), 0);
	ck_assert_int_eq(r.v[ENGINE_KERNEL].verdict, SR_VERDICT_RESIST);
	ck_assert_int_eq(r.v[ENGINE_KERNEL].reasons[0], SR_REASON_DST_NOT_ALLOWED);
	ck_assert_uint_eq(engine_truth(e)->model_agrees, 1);
	engine_free(e);
}
END_TEST

START_TEST(test_pairing_damage)
{
	struct sr_ev_probe pr = candidate(2 * MS, 0), ret = retval(1), none = { 0 };
	const struct decision_stats *st = decision_stats(d);

	base();
	/* a return without entry */
	probe(10 * MS, 1, SR_EV_CMT_RET, &ret);
	ck_assert_uint_eq(st->probe_returns_without_entry, 1);
	/* two entries: the first lost its return */
	probe(11 * MS, 1, SR_EV_CMT, &pr);
	probe(11 * MS + 5, 1, SR_EV_CMT, &pr);
	ck_assert_uint_eq(st->probe_unpaired_entries, 1);
	/* another CPU's return does not close it */
	probe(11 * MS + 6, 2, SR_EV_CMT_RET, &ret);
	ck_assert_uint_eq(st->probe_returns_without_entry, 2);
	/* a wake-up probe nested inside does not either */
	probe(11 * MS + 7, 1, SR_EV_STRF, &none);
	probe(11 * MS + 8, 1, SR_EV_STRF_RET, &none);
	ck_assert_uint_eq(st->probe_placements, 1);
	probe(11 * MS + 9, 1, SR_EV_CMT_RET, &ret);
	ck_assert_uint_eq(st->probe_candidates, 1);
	/* lost events close what is open on their CPU */
	probe(12 * MS, 3, SR_EV_CMT, &pr);
	{
		struct sr_event lost = { .ts_ns = 12 * MS + 1, .cpu = 3, .kind = SR_EV_LOST };

		lost.u.lost.count = 10;
		feed(&lost);
	}
	ck_assert_uint_eq(st->probe_unpaired_entries, 2);
	probe(12 * MS + 2, 3, SR_EV_CMT_RET, &ret);
	ck_assert_uint_eq(st->probe_returns_without_entry, 3);
	/* the trace ends with an entry open */
	probe(12 * MS + 5, 2, SR_EV_CMT, &pr);
	/* a CPU outside the machine (or no task) makes no decision */
	set(&pr, SR_PF_DST_CPU, 4096);
	probe(13 * MS, 1, SR_EV_CMT, &pr);
	probe(13 * MS + 1, 1, SR_EV_CMT_RET, &ret);
	set(&pr, SR_PF_DST_CPU, 1);
	set(&pr, SR_PF_PID, -5);
	probe(14 * MS, 1, SR_EV_CMT, &pr);
	probe(14 * MS + 1, 1, SR_EV_CMT_RET, &ret);
	/* an entry without its fields (none known) */
	probe(15 * MS, 1, SR_EV_CMT, &none);
	probe(15 * MS + 1, 1, SR_EV_CMT_RET, &ret);
	ck_assert_int_eq(decision_finish(d), 0);
	ck_assert_uint_eq(st->probe_unusable, 3);
	ck_assert_uint_eq(st->probe_unpaired_entries, 3);
	ck_assert_int_eq(nr_got, 1);
	ck_assert_uint_eq(st->probe_returns_without_entry, 3);
}
END_TEST

START_TEST(test_model_against_kernel)
{
	/* hot and refused; hot but failed attempts past cache_nice_tries; cold */
	struct sr_ev_probe hot = candidate(100 * US, 0), forced = candidate(100 * US, 2);
	struct sr_ev_probe cold = candidate(3 * MS, 0);
	struct sr_ev_probe r0 = retval(0), r1 = retval(1);
	struct engine *e = kernel_engine();
	const struct engine_truth *t;
	struct engine_result r;
	struct strcount_entry *pe;
	struct err err = { 0 };
	size_t n;
	int i;

	base();
	probe(10 * MS, 1, SR_EV_CMT, &hot);
	probe(10 * MS + 1, 1, SR_EV_CMT_RET, &r0);
	probe(11 * MS, 1, SR_EV_CMT, &forced);
	probe(11 * MS + 1, 1, SR_EV_CMT_RET, &r1);
	probe(12 * MS, 1, SR_EV_CMT, &cold);
	probe(12 * MS + 1, 1, SR_EV_CMT_RET, &r1);
	/* crafted: the kernel allowed a task the inputs say is hot */
	probe(13 * MS, 1, SR_EV_CMT, &hot);
	probe(13 * MS + 1, 1, SR_EV_CMT_RET, &r1);
	ck_assert_int_eq(decision_finish(d), 0);
	ck_assert_int_eq(nr_got, 4);
	for (i = 0; i < nr_got; i++)
		ck_assert_int_eq(engine_evaluate(e, &got[i], &r, &err), 0);
	t = engine_truth(e);
	ck_assert_str_eq(t->policy, "lb-v6.1");
	ck_assert_uint_eq(t->candidates, 4);
	ck_assert_uint_eq(t->kernel_allowed, 3);
	ck_assert_uint_eq(t->kernel_refused, 1);
	ck_assert_uint_eq(t->judged, 4);
	ck_assert_uint_eq(t->model_agrees, 3);
	pe = strcount_sorted(&t->disagree_by, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(pe[0].key, "resist task-hot, kernel allowed");
	ck_assert_uint_eq(pe[0].count, 1);
	free(pe);
	/* reproduced follows the kernel's verdict, refusals included */
	ck_assert_uint_eq(engine_class(e, SR_DECISION_CLASS_LB_PULL)->reproduced, 3);
	engine_free(e);
}
END_TEST

/*
 * cmt's per-node counters (tfN, gfN; N = 2 * node + private) replace the
 * model's: a task in a group the model never saw gets the group's id and
 * faults, so migrate_degrades_locality() can be judged; a counter missing
 * for one node leaves the group unknown, as before.
 */
START_TEST(test_probe_group_faults)
{
	struct sr_ev_probe pr = candidate(MS, 0);
	struct sr_snapshot s = { 0 };
	int i;

	s.nr_nodes = 4;
	s.known = SR_SNAP_NR_NODES;
	set(&pr, SR_PF_FAULTS, (int64_t)0xffff888005000000ull);
	set(&pr, SR_PF_NGRP, (int64_t)0xffff888006000000ull);
	set(&pr, SR_PF_NGID, 4242);
	for (i = 0; i < 8; i++) {
		set(&pr, SR_PF_TF0 + i, 10 * i);	/* node n: 20n + 20n + 10 */
		set(&pr, SR_PF_GF0 + i, 100 + i);	/* node n: 201 + 4n */
	}
	/* no NUMA_CPU counters: the active nodes stay unknown */
	decision_probe_apply(&s, &pr, -1);
	ck_assert(s.known & SR_SNAP_NUMA_GROUP);
	ck_assert(s.known & SR_SNAP_GROUP_FAULTS);
	ck_assert(!(s.known & SR_SNAP_GROUP_ACTIVE));
	/* NUMA_CPU faults per node 30, 10, 0, 11 (private + shared), max 30: active iff 3x > 30 */
	set(&pr, SR_PF_GF0 + 8, 20);
	set(&pr, SR_PF_GF0 + 9, 10);
	set(&pr, SR_PF_GF0 + 10, 10);
	set(&pr, SR_PF_GF0 + 11, 0);
	set(&pr, SR_PF_GF0 + 12, 0);
	set(&pr, SR_PF_GF0 + 13, 0);
	set(&pr, SR_PF_GF0 + 14, 5);
	set(&pr, SR_PF_GF0 + 15, 6);
	set(&pr, SR_PF_NG_MAXCPU, 30);
	decision_probe_apply(&s, &pr, -1);
	ck_assert(s.known & SR_SNAP_GROUP_ACTIVE);
	ck_assert_uint_eq(s.group_active, 0x9);	/* nodes 0 and 3; node 1's 3 x 10 is not > 30 */
	ck_assert(s.known & SR_SNAP_TASK_FAULTS);
	ck_assert_int_eq(s.numa_group, 4242);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(s.group_faults[i], 201 + 4 * i);
		ck_assert_uint_eq(s.task_faults[i], 40 * i + 10);
	}

	/* the group's counters cut short: its id and faults stay unknown */
	memset(&s, 0, sizeof(s));
	s.nr_nodes = 4;
	s.known = SR_SNAP_NR_NODES;
	pr.have[SR_PF_GF0 / 64] &= ~(1ull << ((SR_PF_GF0 + 7) % 64));
	decision_probe_apply(&s, &pr, -1);
	ck_assert(!(s.known & (SR_SNAP_NUMA_GROUP | SR_SNAP_GROUP_FAULTS)));
	ck_assert(s.known & SR_SNAP_TASK_FAULTS);

	/* the node count unknown: nothing per node is taken */
	memset(&s, 0, sizeof(s));
	decision_probe_apply(&s, &pr, -1);
	ck_assert(!(s.known & (SR_SNAP_TASK_FAULTS | SR_SNAP_GROUP_FAULTS)));
	ck_assert(s.known & SR_SNAP_HAS_FAULTS);

	/* no group at all: known, id 0 */
	set(&pr, SR_PF_NGRP, 0);
	decision_probe_apply(&s, &pr, -1);
	ck_assert(s.known & SR_SNAP_NUMA_GROUP);
	ck_assert_int_eq(s.numa_group, 0);
}
END_TEST

/*
 * A cfs_rq buddy is p's own entity: exactly &p->se when the recording's
 * schedreplay_probe line gave se_off, anything within 4 KiB after p without it
 */
START_TEST(test_probe_buddy_se_off)
{
	static const char line[] =
		"schedreplay_probe name=cmt func=can_migrate_task kind=kprobe "
		"symbol=can_migrate_task status=added se_off=128";
	struct decision_probe_pairs pp = { .se_off = -1 };
	struct sr_event mark = { .kind = SR_EV_PRINT, .str = line, .str_len = sizeof(line) - 1 };
	struct sr_ev_probe pr = candidate(MS, 0);
	const uint64_t task = 0xffff888004a00000ull;
	struct sr_snapshot s = { 0 };

	mark.marker = marker_classify(line, mark.str_len);
	ck_assert_int_eq(mark.marker, SR_MARK_PROBE);
	decision_probe_marker(&pp, &mark);
	ck_assert_int_eq(pp.se_off, 128);

	set(&pr, SR_PF_NEXT, (int64_t)(task + 128));
	decision_probe_apply(&s, &pr, pp.se_off);
	ck_assert(s.known & SR_SNAP_BUDDY);
	ck_assert(s.buddy);
	/* a pointer into p, but not at se: another field, not the buddy */
	set(&pr, SR_PF_NEXT, (int64_t)(task + 200));
	decision_probe_apply(&s, &pr, pp.se_off);
	ck_assert(!s.buddy);
	decision_probe_apply(&s, &pr, -1);
	ck_assert(s.buddy);
	/* the last buddy counts as well */
	set(&pr, SR_PF_NEXT, 0);
	set(&pr, SR_PF_LAST, (int64_t)(task + 128));
	decision_probe_apply(&s, &pr, pp.se_off);
	ck_assert(s.buddy);
}
END_TEST

/* trace-cmd report prints a kprobe as "name: (symbol) field=value ..." */
START_TEST(test_text_probe_lines)
{
	static const char text[] =
		"cpus=4\n"
		"          <idle>-0     [001]   100.000001: cmt:                  "
		"(can_migrate_task+0x0/0x1b0) task=0xffff888004a00000 pid=10 on_cpu=0 "
		"exec_start=5000000 src_clock=5100000 src_cpu=0 dst_cpu=1 idle=2 nr_bf=0 cnt=1 "
		"imbalance=-3\n"
		"          <idle>-0     [001]   100.000002: cmt_ret:              "
		"(load_balance+0x3ab/0xb40 <- can_migrate_task) ret=0\n"
		"          <idle>-0     [001]   100.000003: cmt:                  "
		"(can_migrate_task+0x0/0x1b0) pid=zz\n";
	char path[] = "/tmp/check-truth-XXXXXX";
	struct ingest *in;
	struct sr_event ev;
	struct sr_ev_probe pr;
	struct err err = { 0 };
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, sizeof(text) - 1), (ssize_t)(sizeof(text) - 1));
	close(fd);
	in = ingest_open(path, NULL, &err);
	ck_assert_msg(in != NULL, "%s", err.msg);
	ck_assert_int_eq(ingest_next(in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_CMT);
	ck_assert(ingest_probe_get(&ev, &pr));
	ck_assert_int_eq(pr.v[SR_PF_PID], 10);
	ck_assert_uint_eq((uint64_t)pr.v[SR_PF_TASK], 0xffff888004a00000ull);
	ck_assert_int_eq(pr.v[SR_PF_IMBALANCE], -3);
	ck_assert_int_eq(pr.v[SR_PF_IDLE], 2);
	ck_assert(!sr_probe_has(&pr, SR_PF_NEXT));	/* not in the line: unknown */
	ck_assert_int_eq(ingest_next(in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_CMT_RET);
	ck_assert(ingest_probe_get(&ev, &pr));
	ck_assert_int_eq(pr.v[SR_PF_RET], 0);
	/* a malformed value is a damaged line, skipped */
	ck_assert_int_eq(ingest_next(in, &ev), 0);
	ck_assert_uint_eq(ingest_info(in)->bad_lines, 1);
	ingest_close(in);
	unlink(path);
}
END_TEST

static Suite *truth_suite(void)
{
	Suite *s = suite_create("truth");
	TCase *tc = tcase_create("probes");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_refused_candidate_is_decision);
	tcase_add_test(tc, test_allowed_pairs_with_migration);
	tcase_add_test(tc, test_active_balance_candidate);
	tcase_add_test(tc, test_per_cpu_kthread);
	tcase_add_test(tc, test_pairing_damage);
	tcase_add_test(tc, test_model_against_kernel);
	tcase_add_test(tc, test_probe_group_faults);
	tcase_add_test(tc, test_probe_buddy_se_off);
	tcase_add_test(tc, test_text_probe_lines);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(truth_suite)
