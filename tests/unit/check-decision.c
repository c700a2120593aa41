// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-decision.c - one hand-made event sequence per classification rule
 * of decision.h, the snapshot fields each sequence makes known, the NUMA
 * claim count, and the trace-order guarantee; then every real trace in
 * fixtures/ (as trace-cmd report text when trace-cmd is there) must give
 * exactly one decision per sched_migrate_task and sched_stick_numa.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-common.h"
#include "check-topo2.h"
#include "decision/decision.h"
#include "ingest/ingest.h"

#define MS (1000ull * 1000)

static struct topo *topo;
static struct model *m;
static struct decision_ctx *d;
static struct decision got[64];
static int nr_got;

static int collect(const struct decision *dec, void *arg)
{
	(void)arg;
	ck_assert_int_lt(nr_got, 64);
	got[nr_got++] = *dec;
	return 0;
}

/* 2 nodes x 2 CPUs, distance 20 between them */
static void setup(void)
{
	topo = check_topo2();
	m = model_new(topo);
	d = decision_new(topo, collect, NULL);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(d);
	nr_got = 0;
}

static void teardown(void)
{
	decision_free(d);
	model_free(m);
	topo_free(topo);
}

static void feed(struct sr_event *ev)
{
	ev->name = ingest_event_kind_name(ev->kind);
	ck_assert_int_eq(decision_feed(d, m, ev), 0);
	ck_assert_int_eq(model_feed(m, ev), 0);
}

static void sw(uint64_t ts, int cpu, int prev, long state, int next, const char *next_comm)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .pid = prev, .kind = SR_EV_SWITCH };

	ev.u.sw.prev_pid = prev;
	ev.u.sw.prev_state = state;
	ev.u.sw.prev_prio = 120;
	ev.u.sw.next_pid = next;
	ev.u.sw.next_prio = 120;
	snprintf(ev.u.sw.next_comm, sizeof(ev.u.sw.next_comm), "%s", next_comm);
	feed(&ev);
}

static void wake(uint64_t ts, int cpu, int cur, enum sr_event_kind kind, int pid, int target)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .pid = cur, .kind = kind };

	ev.u.wake.pid = pid;
	ev.u.wake.prio = 120;
	ev.u.wake.target_cpu = target;
	snprintf(ev.u.wake.comm, sizeof(ev.u.wake.comm), "t%d", pid);
	feed(&ev);
}

static void mig(uint64_t ts, int cpu, int cur, int pid, int from, int to)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .pid = cur, .kind = SR_EV_MIGRATE };

	ev.u.mig.pid = pid;
	ev.u.mig.prio = 120;
	ev.u.mig.orig_cpu = from;
	ev.u.mig.dest_cpu = to;
	snprintf(ev.u.mig.comm, sizeof(ev.u.mig.comm), "t%d", pid);
	feed(&ev);
}

static void numa(uint64_t ts, int cpu, enum sr_event_kind kind, int pid, int src, int dpid, int dst)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .pid = pid, .kind = kind };

	ev.u.numa.src_pid = pid;
	ev.u.numa.src_tgid = pid;
	ev.u.numa.src_ngid = 0;
	ev.u.numa.src_cpu = src;
	ev.u.numa.src_nid = src / 2;
	ev.u.numa.dst_pid = dpid;
	ev.u.numa.dst_cpu = dst;
	ev.u.numa.dst_nid = dst < 0 ? -1 : dst / 2;
	feed(&ev);
}

static void finish(void)
{
	ck_assert_int_eq(decision_finish(d), 0);
}

/* task 10 runs on cpu 0, then sleeps; cpu 2 idles */
static void base(void)
{
	sw(1 * MS, 0, 0, 0, 10, "t10");
	sw(1 * MS, 1, 0, 0, 0, "swapper/1");
	sw(1 * MS, 2, 0, 0, 0, "swapper/2");
	sw(1 * MS, 3, 0, 0, 0, "swapper/3");
	sw(2 * MS, 0, 10, 1, 0, "swapper/0");
}

START_TEST(test_wakeup)
{
	base();
	mig(3 * MS, 1, 0, 10, 0, 2);
	wake(3 * MS + 1000, 1, 0, SR_EV_WAKEUP, 10, 2);
	finish();
	ck_assert_int_eq(nr_got, 1);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_WAKEUP);
	ck_assert_int_eq(got[0].why, DECISION_WHY_WAKEUP);
	ck_assert_int_eq(got[0].snap.src_node, 0);
	ck_assert_int_eq(got[0].snap.dst_node, 1);
	ck_assert_int_eq(got[0].snap.cross_node, 1);
	ck_assert(got[0].snap.known & SR_SNAP_SINCE_RAN);
	ck_assert_uint_eq(got[0].snap.since_ran_ns, 1 * MS);
	ck_assert(got[0].snap.known & SR_SNAP_TASK_RUNNING);
	ck_assert_int_eq(got[0].snap.task_running, 0);
}
END_TEST

START_TEST(test_fork)
{
	base();
	mig(3 * MS, 0, 0, 11, 0, 3);
	wake(3 * MS + 10, 0, 0, SR_EV_WAKEUP_NEW, 11, 3);
	finish();
	ck_assert_int_eq(nr_got, 1);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_FORK);
}
END_TEST

START_TEST(test_exec)
{
	struct sr_event ev = { .ts_ns = 3 * MS + 500, .cpu = 3, .pid = 10, .kind = SR_EV_EXEC };

	base();
	wake(2 * MS + 100, 0, 0, SR_EV_WAKEUP, 10, 0);
	sw(2 * MS + 200, 0, 0, 0, 10, "t10");
	sw(2 * MS + 300, 0, 10, 0, 30, "migration/0");
	mig(3 * MS, 0, 30, 10, 0, 3);
	ev.u.exec.pid = 10;
	ev.u.exec.old_pid = 10;
	feed(&ev);
	finish();
	ck_assert_int_eq(nr_got, 1);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_EXEC);
	ck_assert(got[0].snap.known & SR_SNAP_EXEC_SEQ);
	ck_assert_uint_eq(got[0].snap.exec_seq, 0);
}
END_TEST

START_TEST(test_lb_active)
{
	base();
	wake(2 * MS + 100, 0, 0, SR_EV_WAKEUP, 10, 0);
	sw(2 * MS + 200, 0, 0, 0, 10, "t10");
	sw(2 * MS + 300, 0, 10, 0, 30, "migration/0");
	mig(3 * MS, 0, 30, 10, 0, 2);
	finish();
	ck_assert_int_eq(nr_got, 1);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_LB_ACTIVE);
	ck_assert_int_eq(got[0].why, DECISION_WHY_STOPPER);
	ck_assert_int_eq(got[0].snap.idle_type, SR_IDLE_CPU_IDLE);
}
END_TEST

START_TEST(test_lb_pull_idle)
{
	base();
	/* 10 and 12 queued on cpu 0, 12 running; idle cpu 2 pulls 10 */
	wake(2 * MS + 100, 0, 0, SR_EV_WAKEUP, 12, 0);
	sw(2 * MS + 150, 0, 0, 0, 12, "t12");
	wake(2 * MS + 200, 0, 12, SR_EV_WAKEUP, 10, 0);
	mig(3 * MS, 2, 0, 10, 0, 2);
	sw(3 * MS + 10, 2, 0, 0, 10, "t10");
	finish();
	ck_assert_int_eq(nr_got, 1);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_LB_PULL);
	ck_assert_int_eq(got[0].snap.src_nr_running, 2);
	ck_assert_int_eq(got[0].snap.dst_idle, 1);
	ck_assert_int_eq(got[0].snap.idle_type, SR_IDLE_CPU_IDLE);
	ck_assert(got[0].snap.known & SR_SNAP_NODE_NR_RUNNING);
	ck_assert_int_eq(got[0].snap.node_nr_running[0], 2);
	ck_assert_int_eq(got[0].snap.node_nr_running[1], 0);
}
END_TEST

START_TEST(test_lb_pull_newly_idle)
{
	base();
	wake(2 * MS + 100, 0, 0, SR_EV_WAKEUP, 12, 0);
	sw(2 * MS + 150, 0, 0, 0, 12, "t12");
	wake(2 * MS + 200, 0, 12, SR_EV_WAKEUP, 10, 0);
	/* cpu 2 runs 13, which blocks; newidle balance pulls 10 first */
	wake(2 * MS + 300, 2, 0, SR_EV_WAKEUP, 13, 2);
	sw(2 * MS + 400, 2, 0, 0, 13, "t13");
	mig(3 * MS, 2, 13, 10, 0, 2);
	sw(3 * MS + 10, 2, 13, 1, 10, "t10");
	finish();
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_LB_PULL);
	ck_assert_int_eq(got[0].snap.idle_type, SR_IDLE_NEWLY_IDLE);
	ck_assert_int_eq(got[0].snap.dst_idle, 0);
}
END_TEST

START_TEST(test_other_sleeping)
{
	base();
	mig(3 * MS, 1, 0, 10, 0, 2);	/* asleep, and no wake-up in the window */
	wake(3 * MS + DECISION_WINDOW_NS + 1, 1, 0, SR_EV_WAKEUP, 10, 2);
	finish();
	ck_assert_int_eq(nr_got, 1);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_OTHER);
	ck_assert_int_eq(got[0].why, DECISION_WHY_SLEEPING);
}
END_TEST

START_TEST(test_other_unknown_task)
{
	mig(3 * MS, 1, 0, 99, 0, 2);
	finish();
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_OTHER);
	ck_assert_int_eq(got[0].why, DECISION_WHY_STATE_UNKNOWN);
	ck_assert(got[0].flags & DECISION_F_STATE_GUESS);
	ck_assert(!(got[0].snap.known & SR_SNAP_SINCE_RAN));
	ck_assert(!(got[0].snap.known & SR_SNAP_PREF_NODE));
}
END_TEST

START_TEST(test_numa_move_and_claims)
{
	base();
	wake(2 * MS + 100, 0, 0, SR_EV_WAKEUP, 10, 0);
	sw(2 * MS + 200, 0, 0, 0, 10, "t10");
	/* two moves aimed at cpu 2: the second sees one claim in flight */
	numa(3 * MS, 0, SR_EV_MOVE_NUMA, 10, 0, -1, 2);
	numa(3 * MS + 10, 1, SR_EV_MOVE_NUMA, 11, 1, -1, 2);
	mig(3 * MS + 100, 0, 30, 10, 0, 2);
	mig(3 * MS + 200, 1, 31, 11, 1, 2);
	finish();
	ck_assert_int_eq(nr_got, 2);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_NUMA_MOVE);
	ck_assert_int_eq(got[0].snap.numa_inflight, 0);
	ck_assert_int_eq(got[1].snap.decision_class, SR_DECISION_CLASS_NUMA_MOVE);
	ck_assert_int_eq(got[1].snap.numa_inflight, 1);
}
END_TEST

START_TEST(test_numa_swap_and_stick)
{
	base();
	numa(3 * MS, 0, SR_EV_SWAP_NUMA, 10, 0, 20, 2);
	mig(3 * MS + 100, 0, 30, 10, 0, 2);
	mig(3 * MS + 110, 2, 32, 20, 2, 0);
	numa(4 * MS, 0, SR_EV_SWAP_NUMA, 10, 2, 21, 1);
	numa(4 * MS + 50, 0, SR_EV_STICK_NUMA, 10, 2, 21, 1);
	finish();
	ck_assert_int_eq(nr_got, 3);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_NUMA_SWAP);
	ck_assert_int_eq(got[0].partner_tid, 20);
	ck_assert_int_eq(got[1].snap.decision_class, SR_DECISION_CLASS_NUMA_SWAP);
	ck_assert_int_eq(got[1].partner_tid, 10);
	ck_assert_int_eq(got[2].snap.decision_class, SR_DECISION_CLASS_NUMA_STICK);
	ck_assert_int_eq(got[2].snap.dst_cpu, 1);
	ck_assert_int_eq(got[2].snap.dst_node, 0);
}
END_TEST

START_TEST(test_stick_no_candidate)
{
	numa(4 * MS, 0, SR_EV_STICK_NUMA, 10, 2, 0, -1);
	finish();
	ck_assert_int_eq(nr_got, 1);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_NUMA_STICK);
	ck_assert_int_eq(got[0].snap.dst_cpu, -1);
	ck_assert_int_eq(got[0].snap.dst_node, -1);
	ck_assert(!(got[0].snap.known & SR_SNAP_CROSS_NODE));
}
END_TEST

START_TEST(test_trace_order)
{
	/* an unresolved decision holds back a resolved later one */
	base();
	mig(3 * MS, 1, 0, 10, 0, 2);			/* waits for a wake-up */
	numa(3 * MS + 10, 0, SR_EV_STICK_NUMA, 11, 0, 0, 2);	/* settled at once */
	ck_assert_int_eq(nr_got, 0);
	wake(3 * MS + 20, 1, 0, SR_EV_WAKEUP, 10, 2);
	ck_assert_int_eq(nr_got, 2);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_WAKEUP);
	ck_assert_int_eq(got[1].snap.decision_class, SR_DECISION_CLASS_NUMA_STICK);
	ck_assert_uint_eq(got[0].seq, 0);
	ck_assert_uint_eq(got[1].seq, 1);
	finish();
}
END_TEST

START_TEST(test_lost_flag)
{
	struct sr_event ev = { .ts_ns = 2 * MS + 500, .cpu = 2, .kind = SR_EV_LOST };

	base();
	ev.u.lost.count = 5;
	feed(&ev);
	mig(3 * MS, 1, 0, 10, 0, 2);
	wake(3 * MS + 10, 1, 0, SR_EV_WAKEUP, 10, 2);
	finish();
	ck_assert(got[0].flags & DECISION_F_LOST);
	ck_assert_uint_eq(decision_stats(d)->lost_flagged, 1);
}
END_TEST

/* Real traces: one decision per sched_migrate_task and sched_stick_numa. */
static int count_only(const struct decision *dec, void *arg)
{
	(void)dec;
	(*(uint64_t *)arg)++;
	return 0;
}

static const char *const real[] = { "numa01-4n", "numa02-2n", "host-baseline-1n" };

START_TEST(test_real_traces_one_decision_each)
{
	char path[1024], topo_path[1024];
	struct ingest *in;
	struct topo *t;
	struct model *rm;
	struct decision_ctx *rd;
	struct sr_event ev;
	struct err e = { 0 };
	uint64_t emitted = 0, want = 0, sum = 0;
	int i, r;

	snprintf(path, sizeof(path), SR_FIXTURE("%s/trace.dat"), real[_i]);
	snprintf(topo_path, sizeof(topo_path), SR_FIXTURE("%s/numactl-H.txt"), real[_i]);
	in = ingest_open(path, NULL, &e);
	ck_assert_msg(in != NULL, "%s: %s", path, e.msg);
	t = topo_load(topo_path, &e);
	ck_assert_msg(t != NULL, "%s: %s", topo_path, e.msg);
	rm = model_new(t);
	rd = decision_new(t, count_only, &emitted);
	while ((r = ingest_next(in, &ev)) > 0) {
		if (ev.kind == SR_EV_MIGRATE || ev.kind == SR_EV_STICK_NUMA)
			want++;
		ck_assert_int_eq(decision_feed(rd, rm, &ev), 0);
		ck_assert_int_eq(model_feed(rm, &ev), 0);
	}
	ck_assert_int_eq(r, 0);
	ck_assert_int_eq(decision_finish(rd), 0);
	ck_assert_uint_gt(want, 0);
	ck_assert_uint_eq(emitted, want);
	for (i = 0; i < SR_DECISION_CLASS__COUNT; i++)
		sum += decision_stats(rd)->by_class[i];
	ck_assert_uint_eq(sum, want);
	decision_free(rd);
	model_free(rm);
	topo_free(t);
	ingest_close(in);
}
END_TEST

static Suite *decision_suite(void)
{
	Suite *s = suite_create("decision");
	TCase *tc = tcase_create("rules");
	TCase *rt = tcase_create("real");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_wakeup);
	tcase_add_test(tc, test_fork);
	tcase_add_test(tc, test_exec);
	tcase_add_test(tc, test_lb_active);
	tcase_add_test(tc, test_lb_pull_idle);
	tcase_add_test(tc, test_lb_pull_newly_idle);
	tcase_add_test(tc, test_other_sleeping);
	tcase_add_test(tc, test_other_unknown_task);
	tcase_add_test(tc, test_numa_move_and_claims);
	tcase_add_test(tc, test_numa_swap_and_stick);
	tcase_add_test(tc, test_stick_no_candidate);
	tcase_add_test(tc, test_trace_order);
	tcase_add_test(tc, test_lost_flag);
	suite_add_tcase(s, tc);
	tcase_set_timeout(rt, 60);
	tcase_add_loop_test(rt, test_real_traces_one_decision_each, 0,
			    sizeof(real) / sizeof(real[0]));
	suite_add_tcase(s, rt);
	return s;
}

SR_CHECK_MAIN(decision_suite)
