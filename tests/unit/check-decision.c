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

#include "check-decision-fixture.h"
#include "decision/decision-snap.h"

#define MS (1000ull * 1000)

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

/* sched_waking on @cpu at @ts, then its sched_wakeup 10 ns later: a wake-up with its waker's CPU */
static void waking_wakeup(uint64_t ts, int cpu, int pid, int target)
{
	wake(ts, cpu, 0, SR_EV_WAKING, pid, target);
	wake(ts + 10, cpu, 0, SR_EV_WAKEUP, pid, target);
}

/* a wake-up of a task named @comm (the stoppers are known by their names) */
static void wake_comm(uint64_t ts, int cpu, int cur, int pid, int target, const char *comm)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .pid = cur, .kind = SR_EV_WAKEUP };

	ev.u.wake.pid = pid;
	ev.u.wake.prio = 0;
	ev.u.wake.target_cpu = target;
	snprintf(ev.u.wake.comm, sizeof(ev.u.wake.comm), "%s", comm);
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

/* base(), then 10 and 12 queued on cpu 0, 12 running */
static void queued_on_0(void)
{
	base();
	wake(2 * MS + 100, 0, 0, SR_EV_WAKEUP, 12, 0);
	sw(2 * MS + 150, 0, 0, 0, 12, "t12");
	wake(2 * MS + 200, 0, 12, SR_EV_WAKEUP, 10, 0);
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

/* a wake-up that keeps prev is a decision: src = dst = prev, the waker's CPU */
START_TEST(test_wakeup_stayed)
{
	base();
	wake(3 * MS, 1, 0, SR_EV_WAKING, 10, 0);
	wake(3 * MS + 10, 1, 0, SR_EV_WAKEUP, 10, 0);
	/* woken again while still runnable (ttwu_runnable()): no placement */
	wake(3 * MS + 20, 1, 0, SR_EV_WAKING, 10, 0);
	wake(3 * MS + 30, 1, 0, SR_EV_WAKEUP, 10, 0);
	finish();
	ck_assert_int_eq(nr_got, 0);
	ck_assert_int_eq(nr_stays, 1);
	ck_assert_int_eq(stays[0].snap.decision_class, SR_DECISION_CLASS_WAKEUP);
	ck_assert_int_eq(stays[0].snap.src_cpu, 0);
	ck_assert_int_eq(stays[0].snap.dst_cpu, 0);
	ck_assert(stays[0].snap.known & SR_SNAP_WAKER_CPU);
	ck_assert_int_eq(stays[0].snap.waker_cpu, 1);
	ck_assert(stays[0].snap.known & SR_SNAP_PLACE_CPUS);
	ck_assert(stays[0].snap.cpu_flags[2] & SR_PCPU_IDLE);
	ck_assert_uint_eq(decision_stats(d)->wakeups_no_placement, 1);
}
END_TEST

/*
 * wake-ups settled at once wait behind an older migration still waiting
 * for its evidence, packed (queue_pack()): each comes out as it went in
 */
START_TEST(test_wakeup_queued_behind)
{
	base();
	sw(2 * MS + 100, 3, 0, 0, 20, "t20");
	sw(2 * MS + 200, 3, 20, 1, 0, "swapper/3");
	sw(2 * MS + 300, 3, 0, 0, 21, "t21");
	sw(2 * MS + 400, 3, 21, 1, 0, "swapper/3");
	mig(3 * MS, 1, 0, 10, 0, 2);
	waking_wakeup(3 * MS + 100, 1, 20, 3);
	waking_wakeup(3 * MS + 200, 1, 21, 3);
	wake(3 * MS + 1000, 1, 0, SR_EV_WAKEUP, 10, 2);
	finish();
	ck_assert_int_eq(nr_got, 1);
	ck_assert_int_eq(got[0].snap.tid, 10);
	ck_assert_int_eq(nr_stays, 2);
	ck_assert_int_eq(stays[0].snap.tid, 20);
	ck_assert_str_eq(stays[0].snap.comm, "t20");
	ck_assert_uint_eq(stays[0].snap.ts_ns, 3 * MS + 110);
	ck_assert_int_eq(stays[1].snap.tid, 21);
	ck_assert_str_eq(stays[1].snap.comm, "t21");
	ck_assert_uint_eq(stays[1].snap.ts_ns, 3 * MS + 210);
	ck_assert(stays[1].snap.known & SR_SNAP_PLACE_CPUS);
	ck_assert_int_eq(stays[1].snap.cpu_node[3], 1);
	ck_assert_uint_gt(stays[0].seq, got[0].seq);
	ck_assert_uint_gt(stays[1].seq, stays[0].seq);
}
END_TEST

/*
 * no sched_waking, sched_wakeup logged on the target (cpu 0): the waker is
 * unknown; from 6.0 a busy target rules out the other CPU of its LLC
 */
static void wakelist_case(const char *release, bool busy)
{
	decision_set_kernel(d, release);
	base();
	if (busy)
		sw(2 * MS + 50, 0, 0, 0, 11, "t11");
	wake(3 * MS, 0, busy ? 11 : 0, SR_EV_WAKEUP, 10, 0);
	finish();
	ck_assert_int_eq(nr_stays, 1);
	ck_assert(!(stays[0].snap.known & SR_SNAP_WAKER_CPU));
	ck_assert(stays[0].snap.known & SR_SNAP_PLACE_CPUS);
	ck_assert(!(stays[0].snap.cpu_flags[0] & SR_PCPU_NOT_WAKER));
	ck_assert(!(stays[0].snap.cpu_flags[2] & SR_PCPU_NOT_WAKER));
	ck_assert(!(stays[0].snap.cpu_flags[3] & SR_PCPU_NOT_WAKER));
}

START_TEST(test_wakeup_wakelist_busy_61)
{
	wakelist_case("6.1.0-57-amd64", true);
	ck_assert(stays[0].snap.cpu_flags[1] & SR_PCPU_NOT_WAKER);
}
END_TEST

START_TEST(test_wakeup_wakelist_idle_61)
{
	wakelist_case("6.1.0-57-amd64", false);
	ck_assert(!(stays[0].snap.cpu_flags[1] & SR_PCPU_NOT_WAKER));
}
END_TEST

START_TEST(test_wakeup_wakelist_busy_519)
{
	wakelist_case("5.19.0", true);
	ck_assert(!(stays[0].snap.cpu_flags[1] & SR_PCPU_NOT_WAKER));
}
END_TEST

START_TEST(test_wakeup_wakelist_busy_unknown_release)
{
	wakelist_case(NULL, true);
	ck_assert(!(stays[0].snap.cpu_flags[1] & SR_PCPU_NOT_WAKER));
}
END_TEST

/* forks log no migration since ~v4.8: sched_wakeup_new is the decision */
START_TEST(test_fork_no_migration)
{
	base();
	wake(3 * MS, 0, 0, SR_EV_WAKEUP_NEW, 11, 3);
	finish();
	ck_assert_int_eq(nr_got, 1);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_FORK);
	ck_assert_int_eq(got[0].snap.src_cpu, 0);
	ck_assert_int_eq(got[0].snap.dst_cpu, 3);
	ck_assert_int_eq(got[0].snap.waker_cpu, 0);
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

/*
 * a remote wake-up on its way to cpu 0 (6.1's wakelist: rq->ttwu_pending
 * until the target logs sched_wakeup) makes cpu 0 busy for a fork placed
 * meanwhile, in its per-CPU flags and in its node's idle count
 */
START_TEST(test_fork_sees_pending_wakeup)
{
	base();
	sw(2 * MS + 500, 2, 0, 0, 20, "t20");
	wake(3 * MS, 1, 0, SR_EV_WAKING, 10, 0);
	wake(3 * MS + 10, 2, 20, SR_EV_WAKEUP_NEW, 21, 3);
	wake(3 * MS + 20, 0, 0, SR_EV_WAKEUP, 10, 0);
	/* the wake-up has arrived: a second fork finds cpu 1 idle, cpu 0 running 10 */
	sw(3 * MS + 30, 0, 0, 0, 10, "t10");
	sw(3 * MS + 40, 1, 0, 0, 0, "swapper/1");
	wake(3 * MS + 50, 2, 20, SR_EV_WAKEUP_NEW, 22, 1);
	finish();
	ck_assert_int_eq(nr_got, 2);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_FORK);
	ck_assert_int_eq(got[0].snap.tid, 21);
	ck_assert(!(got[0].snap.cpu_flags[0] & SR_PCPU_IDLE));
	ck_assert(got[0].snap.cpu_flags[1] & SR_PCPU_IDLE);
	ck_assert_int_eq(got[0].snap.node_nr_idle[0], 1);
	ck_assert_int_eq(got[0].snap.node_nr_idle[1], 1);
	ck_assert_int_eq(got[1].snap.tid, 22);
	ck_assert_int_eq(got[1].snap.node_nr_idle[0], 1);
	ck_assert(got[1].snap.cpu_flags[1] & SR_PCPU_IDLE);
}
END_TEST

/* a sched_waking that no sched_wakeup follows: the wakee running ends the claim */
START_TEST(test_pending_wakeup_settled_by_switch)
{
	base();
	sw(2 * MS + 500, 2, 0, 0, 20, "t20");
	wake(3 * MS, 1, 0, SR_EV_WAKING, 10, 0);
	sw(3 * MS + 10, 0, 0, 0, 10, "t10");
	sw(3 * MS + 20, 0, 10, 1, 0, "swapper/0");
	wake(3 * MS + 30, 2, 20, SR_EV_WAKEUP_NEW, 21, 3);
	finish();
	ck_assert_int_eq(nr_got, 1);
	ck_assert(got[0].snap.cpu_flags[0] & SR_PCPU_IDLE);
	ck_assert_int_eq(got[0].snap.node_nr_idle[0], 2);
}
END_TEST

/* the recorder's start snapshot line of task @tid with CPU mask @cpus */
static void snap_task(uint64_t ts, int tid, const char *cpus)
{
	char line[160];
	struct sr_event ev = { .ts_ns = ts, .cpu = 1, .pid = 0, .kind = SR_EV_PRINT };

	snprintf(line, sizeof(line),
		 "schedreplay_task phase=start tid=%d pid=%d ppid=1 comm=t%d kthread=0 cpus=%s cpu=0",
		 tid, tid, tid, cpus);
	ev.str = line;
	ev.str_len = (uint32_t)strlen(line);
	ev.marker = SR_MARK_TASK;
	feed(&ev);
}

/*
 * a wake-up carries the task's mask when the trace shows it; a wakee bound
 * to one CPU is no wakee_flips event for its waker
 */
START_TEST(test_wakeup_allowed_cpu)
{
	snap_task(500000, 10, "0");
	snap_task(500000, 12, "0-3");
	base();
	waking_wakeup(3 * MS, 1, 10, 0);
	sw(3 * MS + 20, 0, 0, 0, 10, "t10");
	sw(3 * MS + 30, 0, 10, 1, 0, "swapper/0");
	waking_wakeup(3 * MS + 40, 1, 12, 0);
	waking_wakeup(3 * MS + 60, 1, 13, 0);
	finish();
	ck_assert_int_eq(nr_stays, 3);
	ck_assert_int_eq(stays[0].snap.tid, 10);
	ck_assert(stays[0].snap.known & SR_SNAP_ALLOWED_CPU);
	ck_assert_int_eq(stays[0].snap.allowed_cpu, 0);
	ck_assert_int_eq(stays[1].snap.tid, 12);
	ck_assert(stays[1].snap.known & SR_SNAP_ALLOWED_CPU);
	ck_assert_int_eq(stays[1].snap.allowed_cpu, -1);
	/* select_task_rq_fair(), and its record_wakee(), skipped for 10: one flip, 12's */
	ck_assert_int_eq(stays[1].snap.waker_flips, 1);
	/* no snapshot line, never seen on two CPUs: not known */
	ck_assert_int_eq(stays[2].snap.tid, 13);
	ck_assert(!(stays[2].snap.known & SR_SNAP_ALLOWED_CPU));
}
END_TEST

static void exec_ev(uint64_t ts, int cpu, int pid)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .pid = pid, .kind = SR_EV_EXEC };

	ev.u.exec.pid = pid;
	ev.u.exec.old_pid = pid;
	feed(&ev);
}

/* sched_exec(): task 10 wakes migration/0 on cpu 0, which moves it; it execs on 3 */
static void exec_move(uint64_t ts_exec)
{
	base();
	wake(2 * MS + 100, 0, 0, SR_EV_WAKEUP, 10, 0);
	sw(2 * MS + 200, 0, 0, 0, 10, "t10");
	wake_comm(2 * MS + 250, 0, 10, 30, 0, "migration/0");
	sw(2 * MS + 300, 0, 10, 0, 30, "migration/0");
	mig(3 * MS, 0, 30, 10, 0, 3);
	exec_ev(ts_exec, 3, 10);
	finish();
}

START_TEST(test_exec)
{
	exec_move(3 * MS + 500);
	ck_assert_int_eq(nr_got, 1);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_EXEC);
	ck_assert_int_eq(got[0].why, DECISION_WHY_EXEC);
	ck_assert(got[0].snap.known & SR_SNAP_EXEC_SEQ);
	ck_assert_uint_eq(got[0].snap.exec_seq, 0);
}
END_TEST

/* the exec event may come long after sched_exec() (the binary is loaded between) */
START_TEST(test_exec_late)
{
	exec_move(3 * MS + 100 * MS);
	ck_assert_int_eq(nr_got, 1);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_EXEC);
}
END_TEST

/*
 * A task pulled by load balancing that execs right after is no exec move:
 * sched_exec() moves through the source CPU's stopper, woken by the task.
 */
START_TEST(test_exec_after_pull)
{
	queued_on_0();
	mig(3 * MS, 2, 0, 10, 0, 2);
	sw(3 * MS + 10, 2, 0, 0, 10, "t10");
	exec_ev(3 * MS + 100, 2, 10);
	finish();
	ck_assert_int_eq(nr_got, 1);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_LB_PULL);
}
END_TEST

/* migration/2 current on cpu 2 while softirq balancing there pulls from cpu 0 */
START_TEST(test_pull_under_stopper)
{
	queued_on_0();
	wake_comm(2 * MS + 300, 2, 0, 31, 2, "migration/2");
	sw(2 * MS + 400, 2, 0, 0, 31, "migration/2");
	mig(3 * MS, 2, 31, 10, 0, 2);
	finish();
	ck_assert_int_eq(nr_got, 1);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_LB_PULL);
	ck_assert_int_eq(got[0].why, DECISION_WHY_QUEUED);
}
END_TEST

/*
 * Kernel threads have no NUMA faults: a child of kthreadd by its fork, one
 * older than the trace by its name; a user task of unknown history stays
 * unknown, and a fault event beats a name.
 */
START_TEST(test_kthread_evidence)
{
	struct sr_event f = { .ts_ns = 2 * MS + 500, .cpu = 1, .pid = 2, .kind = SR_EV_FORK };
	struct sr_event flt = { .ts_ns = 2 * MS + 550, .cpu = 3, .pid = 62, .kind = SR_EV_NUMA_FAULT };

	base();
	f.u.fork.parent_pid = 2;
	f.u.fork.child_pid = 60;
	snprintf(f.u.fork.child_comm, sizeof(f.u.fork.child_comm), "kworker/1:2");
	feed(&f);
	sw(2 * MS + 510, 1, 0, 0, 61, "rcu_preempt");
	sw(2 * MS + 520, 1, 61, 0, 0, "swapper/1");
	sw(2 * MS + 530, 3, 0, 0, 62, "kworker/3:0");	/* a user task named like one */
	feed(&flt);
	sw(2 * MS + 560, 3, 62, 0, 0, "swapper/3");
	sw(2 * MS + 570, 3, 0, 0, 63, "trace-cmd");
	sw(2 * MS + 580, 3, 63, 0, 0, "swapper/3");
	mig(3 * MS, 2, 0, 60, 1, 2);
	mig(3 * MS + 10, 2, 0, 61, 1, 2);
	mig(3 * MS + 20, 0, 0, 62, 3, 0);
	mig(3 * MS + 30, 0, 0, 63, 3, 0);
	finish();
	ck_assert_int_eq(nr_got, 4);
	ck_assert(got[0].snap.known & SR_SNAP_HAS_FAULTS);
	ck_assert_int_eq(got[0].snap.has_faults, 0);
	ck_assert_int_eq(got[0].kthread, MODEL_KTHREAD_CHILD);
	ck_assert(got[1].snap.known & SR_SNAP_HAS_FAULTS);
	ck_assert_int_eq(got[1].snap.has_faults, 0);
	ck_assert_int_eq(got[1].kthread, MODEL_KTHREAD_NAME);
	ck_assert(got[2].snap.known & SR_SNAP_HAS_FAULTS);
	ck_assert_int_eq(got[2].snap.has_faults, 1);
	ck_assert_int_eq(got[2].kthread, MODEL_KTHREAD_NONE);
	ck_assert(!(got[3].snap.known & SR_SNAP_HAS_FAULTS));
	ck_assert_int_eq(decision_stats(d)->kthread_by[MODEL_KTHREAD_CHILD], 1);
	ck_assert_int_eq(decision_stats(d)->kthread_by[MODEL_KTHREAD_NAME], 1);
	ck_assert(model_kthread_name("ksoftirqd/3", 16));
	ck_assert(!model_kthread_name("ksoftirqd/", 16));	/* a prefix needs more */
	ck_assert(!model_kthread_name("kswapd-user", 16));
	ck_assert(model_kthread_name("kswapd0", 7));
	ck_assert(model_kthread_name("kcompactd12", 16));
	ck_assert(!model_kthread_name("kswapd", 16));
	ck_assert(!model_kthread_name("kswapd0x", 16));
}
END_TEST

/* exec_start is 0 after a move until the task runs again, and after a fork */
START_TEST(test_moved_since_ran)
{
	struct sr_event f = { .ts_ns = 2 * MS + 500, .cpu = 1, .pid = 50, .kind = SR_EV_FORK };

	base();
	mig(2 * MS + 90, 1, 0, 10, 0, 1);		/* the wake-up moves 10 to cpu 1 */
	wake(2 * MS + 100, 1, 0, SR_EV_WAKEUP, 10, 1);
	f.u.fork.parent_pid = 50;
	f.u.fork.child_pid = 51;
	snprintf(f.u.fork.child_comm, sizeof(f.u.fork.child_comm), "child");
	feed(&f);
	wake(2 * MS + 600, 1, 50, SR_EV_WAKEUP_NEW, 51, 1);
	mig(2 * MS + 700, 2, 0, 10, 1, 2);	/* before it ran: cold */
	mig(2 * MS + 800, 3, 0, 51, 1, 3);	/* never ran: cold */
	sw(3 * MS, 2, 0, 0, 10, "t10");
	sw(3 * MS + 100, 2, 10, 0, 0, "swapper/2");
	mig(3 * MS + 200, 3, 0, 10, 2, 3);	/* ran since: exec_start set */
	finish();
	/* the fork (sched_wakeup_new) is a decision of its own, second */
	ck_assert_int_eq(nr_got, 5);
	ck_assert_int_eq(got[0].snap.decision_class, SR_DECISION_CLASS_WAKEUP);
	ck_assert_int_eq(got[0].snap.moved_since_ran, 0);	/* it ran until 2 ms */
	ck_assert_int_eq(got[1].snap.decision_class, SR_DECISION_CLASS_FORK);
	ck_assert_int_eq(got[1].snap.src_cpu, 1);
	ck_assert_int_eq(got[1].snap.dst_cpu, 1);
	ck_assert(got[2].snap.known & SR_SNAP_MOVED_SINCE_RAN);
	ck_assert_int_eq(got[2].snap.moved_since_ran, 1);
	ck_assert(got[2].snap.known & SR_SNAP_SINCE_RAN);	/* and 700 us since it ran */
	ck_assert(got[3].snap.known & SR_SNAP_MOVED_SINCE_RAN);
	ck_assert_int_eq(got[3].snap.moved_since_ran, 1);
	ck_assert(got[4].snap.known & SR_SNAP_MOVED_SINCE_RAN);
	ck_assert_int_eq(got[4].snap.moved_since_ran, 0);
	ck_assert_uint_eq(got[4].snap.since_ran_ns, 100);
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
	queued_on_0();	/* idle cpu 2 pulls 10 */
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
	queued_on_0();
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

/*
 * Real traces: one decision per sched_migrate_task, sched_stick_numa and
 * sched_wakeup_new, and the wake-ups that kept prev besides.
 */
static uint64_t real_stays;

static int count_only(const struct decision *dec, void *arg)
{
	if (dec->why == DECISION_WHY_WAKING_STAYED)
		real_stays++;
	else
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
	real_stays = 0;
	rd = decision_new(t, count_only, &emitted);
	while ((r = ingest_next(in, &ev)) > 0) {
		if (ev.kind == SR_EV_MIGRATE || ev.kind == SR_EV_STICK_NUMA ||
		    ev.kind == SR_EV_WAKEUP_NEW)
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
	ck_assert_uint_eq(sum, want + real_stays);
	ck_assert_uint_eq(decision_stats(rd)->by_why[DECISION_WHY_WAKING_STAYED], real_stays);
	decision_free(rd);
	model_free(rm);
	topo_free(t);
	ingest_close(in);
}
END_TEST

/*
 * The used part of a snapshot (decision-snap.h): a copy of one whose
 * entries beyond the machine's nodes and CPUs are zero is the whole
 * snapshot, and so is one packed and unpacked (in less than half the
 * size while a node and a CPU are unused); a clear zeroes it whole; none of them
 * touches those entries.
 */
#define SNAP_TAIL(s, f, n)	memset(&(s)->f[(n)], 0,					\
				       sizeof((s)->f) - (size_t)(n) * sizeof((s)->f[0]))
#define SNAP_NODE_ARRAYS(X, s, n)						\
	X(s, task_faults, n) X(s, group_faults, n) X(s, node_nr_running, n)		\
	X(s, node_nr_cpus, n) X(s, node_nr_idle, n) X(s, node_util, n) X(s, node_runnable, n)
#define SNAP_CPU_ARRAYS(X, s, n)						\
	X(s, cpu_node, n) X(s, cpu_flags, n) X(s, cpu_idle_ns, n) X(s, cpu_util, n)	\
	X(s, cpu_load, n) X(s, cpu_nr_running, n)
#define SNAP_TAIL_ZERO(s, f, n)	SNAP_TAIL(s, f, n);
/*
 * the first byte of array @f past the 16-byte window its used entries end
 * in (decision-snap.h): nothing writes it
 */
#define SNAP_UNTOUCHED(s, f, n)							\
	snap_untouched((const unsigned char *)(s), (const unsigned char *)&(s)->f[(n)],	\
		       (const unsigned char *)(&(s)->f + 1), #f);

static void snap_untouched(const unsigned char *s, const unsigned char *end_used,
			   const unsigned char *end, const char *name)
{
	size_t past = ((size_t)(end_used - s) + 15) & ~(size_t)15;

	if (s + past < end)
		ck_assert_msg(s[past] == 0x5a, "%s touched", name);
}

/* every byte of @a is @byte or zero: what was written there is zero */
static void snap_zero_or(const struct sr_snapshot *a, int byte)
{
	const unsigned char *p = (const unsigned char *)a;
	size_t i;

	for (i = 0; i < sizeof(*a); i++)
		ck_assert_msg(p[i] == byte || !p[i], "byte %zu written: 0x%02x", i, p[i]);
}

/* nodes and CPUs: ranges of 1 to 2048 bytes, the capped counts too */
static const int snap_sizes[][2] = {
	{ 1, 2 }, { 4, 8 }, { 3, 300 }, { 64, 256 }, { 70, 1 }, { 2, 3 }, { 5, 5 }, { 7, 33 },
};

START_TEST(test_snap_layout)
{
	const int (*sizes)[2] = snap_sizes;
	struct sr_snapshot *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct sr_snapshot *zero = calloc(1, sizeof(*zero));
	struct decision_snap_layout l;
	int nn = sizes[_i][0], nc = sizes[_i][1], un, uc, r;
	void *buf;

	ck_assert(a && b && zero);
	decision_snap_layout_init(&l, nn, nc);
	un = l.nr_nodes;
	uc = l.nr_cpus;
	ck_assert_int_eq(un, nn < SR_MAX_NODES ? nn : SR_MAX_NODES);
	ck_assert_int_eq(uc, nc < SR_PLACE_MAX_CPUS ? nc : SR_PLACE_MAX_CPUS);
	/*
	 * every used byte set, each to a value of its own (a range moved by
	 * the wrong offset shows), every unused entry zero
	 */
	for (r = 0; r < (int)sizeof(*a); r++)
		((unsigned char *)a)[r] = (unsigned char)(r % 251 + 1);
	for (r = 0; r < SR_MAX_NODES; r++)
		memset(&a->distance[r][r < un ? un : 0], 0,
		       (size_t)(SR_MAX_NODES - (r < un ? un : 0)));
	SNAP_NODE_ARRAYS(SNAP_TAIL_ZERO, a, un)
	SNAP_CPU_ARRAYS(SNAP_TAIL_ZERO, a, uc)
	memset(b, 0, sizeof(*b));
	decision_snap_copy(&l, b, a);
	ck_assert(!memcmp(a, b, sizeof(*a)));
	/* packed and unpacked, the same again */
	buf = malloc(decision_snap_used(&l));
	ck_assert(buf);
	decision_snap_pack(&l, buf, a);
	memset(b, 0, sizeof(*b));
	decision_snap_unpack(&l, b, buf);
	ck_assert(!memcmp(a, b, sizeof(*a)));
	free(buf);
	if (un < SR_MAX_NODES && uc < SR_PLACE_MAX_CPUS)
		ck_assert_uint_lt(decision_snap_used(&l), sizeof(*a) / 2);
	decision_snap_clear(&l, a);
	ck_assert(!memcmp(a, zero, sizeof(*a)));
	/*
	 * and nothing of the unused part is written but zero, and that only
	 * in the windows of the used part: a clear, and an unpack of a
	 * snapshot zero there
	 */
	memset(a, 0x5a, sizeof(*a));
	decision_snap_clear(&l, a);
	SNAP_NODE_ARRAYS(SNAP_UNTOUCHED, a, un)
	SNAP_CPU_ARRAYS(SNAP_UNTOUCHED, a, uc)
	snap_untouched((const unsigned char *)a, &a->distance[0][un], &a->distance[0][SR_MAX_NODES],
		       "distance");
	memset(b, 0, sizeof(*b));
	buf = malloc(decision_snap_used(&l));
	ck_assert(buf);
	decision_snap_pack(&l, buf, b);
	memset(a, 0x5a, sizeof(*a));
	decision_snap_unpack(&l, a, buf);
	free(buf);
	snap_zero_or(a, 0x5a);
	SNAP_NODE_ARRAYS(SNAP_UNTOUCHED, a, un)
	SNAP_CPU_ARRAYS(SNAP_UNTOUCHED, a, uc)
	/* a topology that grows widens the layout; the capped counts do not */
	decision_snap_layout_grow(&l, nn + 1, nc + 1);
	ck_assert_int_eq(l.nr_nodes, nn + 1 < SR_MAX_NODES ? nn + 1 : SR_MAX_NODES);
	ck_assert_int_eq(l.nr_cpus, nc + 1 < SR_PLACE_MAX_CPUS ? nc + 1 : SR_PLACE_MAX_CPUS);
	free(a);
	free(b);
	free(zero);
}
END_TEST

/* @a's used part (layout @un nodes, @uc CPUs) all @byte, the rest zero */
static void snap_fill_used(struct sr_snapshot *a, int un, int uc, int byte)
{
	int r;

	memset(a, byte, sizeof(*a));
	for (r = 0; r < SR_MAX_NODES; r++)
		memset(&a->distance[r][r < un ? un : 0], 0,
		       (size_t)(SR_MAX_NODES - (r < un ? un : 0)));
	SNAP_NODE_ARRAYS(SNAP_TAIL_ZERO, a, un)
	SNAP_CPU_ARRAYS(SNAP_TAIL_ZERO, a, uc)
}

/*
 * A decision and its candidates packed (what crosses session-pipe.c's
 * ring) and unpacked are the same bytes again; one unpacking side, fed a
 * decision of a smaller topology and then of a larger one, redoes its
 * layout and gets the larger one whole.
 */
START_TEST(test_decision_pack)
{
	struct topo *t1 = topo_new_single(2);
	struct decision_ctx *d1 = t1 ? decision_new(t1, collect, NULL) : NULL;
	struct decision *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct decision *to = calloc(1, sizeof(*to));
	struct sr_snapshot *cand = calloc(3, sizeof(*cand)), *cto = calloc(3, sizeof(*cto));
	struct decision_snap_layout l = { 0 };
	void *buf;
	int i;

	ck_assert(d1 && a && b && to && cand && cto);
	snap_fill_used(&a->snap, 1, 2, 0x11);
	a->seq = 7;
	a->why = DECISION_WHY_WAKING_STAYED;
	a->has_place_truth = true;
	a->place_truth_cpu = 1;
	ck_assert_uint_lt(decision_pack_size(d1), sizeof(*a) / 8);
	buf = malloc(decision_pack_size(d1));
	ck_assert(buf);
	decision_pack(d1, buf, a);
	decision_unpack(&l, to, buf);
	ck_assert(!memcmp(to, a, sizeof(*a)));
	ck_assert_int_eq(l.nr_nodes, 1);
	ck_assert_int_eq(l.nr_cpus, 2);
	free(buf);

	/* the fixture's 2 nodes x 2 CPUs, into the same decision and layout */
	snap_fill_used(&b->snap, 2, 4, 0x22);
	b->seq = 8;
	b->nr_cand = 3;
	b->nr_pull = 2;
	for (i = 0; i < 3; i++)
		snap_fill_used(&cand[i], 2, 4, 0x30 + i);
	buf = malloc(decision_pack_size(d) + decision_pack_cand_size(d, 3));
	ck_assert(buf);
	ck_assert_uint_eq(decision_pack_cand_size(d, 0), 0);
	decision_pack(d, buf, b);
	decision_pack_cand(d, (char *)buf + decision_pack_size(d), cand, 3);
	decision_unpack(&l, to, buf);
	ck_assert(!memcmp(to, b, sizeof(*b)));
	ck_assert_int_eq(l.nr_nodes, 2);
	ck_assert_int_eq(l.nr_cpus, 4);
	decision_unpack_cand(&l, cto, (const char *)buf + decision_pack_size(d), 3);
	for (i = 0; i < 3; i++)
		ck_assert_msg(!memcmp(&cto[i], &cand[i], sizeof(cand[i])), "candidate %d", i);
	free(buf);
	free(a);
	free(b);
	free(to);
	free(cand);
	free(cto);
	decision_free(d1);
	topo_free(t1);
}
END_TEST

static Suite *decision_suite(void)
{
	Suite *s = suite_create("decision");
	TCase *tc = tcase_create("rules");
	TCase *rt = tcase_create("real");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_wakeup);
	tcase_add_test(tc, test_decision_pack);
	tcase_add_loop_test(tc, test_snap_layout, 0, (int)(sizeof(snap_sizes) / sizeof(snap_sizes[0])));
	tcase_add_test(tc, test_wakeup_stayed);
	tcase_add_test(tc, test_wakeup_queued_behind);
	tcase_add_test(tc, test_wakeup_wakelist_busy_61);
	tcase_add_test(tc, test_wakeup_wakelist_idle_61);
	tcase_add_test(tc, test_wakeup_wakelist_busy_519);
	tcase_add_test(tc, test_wakeup_wakelist_busy_unknown_release);
	tcase_add_test(tc, test_fork_no_migration);
	tcase_add_test(tc, test_fork);
	tcase_add_test(tc, test_fork_sees_pending_wakeup);
	tcase_add_test(tc, test_pending_wakeup_settled_by_switch);
	tcase_add_test(tc, test_wakeup_allowed_cpu);
	tcase_add_test(tc, test_exec);
	tcase_add_test(tc, test_exec_late);
	tcase_add_test(tc, test_exec_after_pull);
	tcase_add_test(tc, test_pull_under_stopper);
	tcase_add_test(tc, test_moved_since_ran);
	tcase_add_test(tc, test_kthread_evidence);
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
