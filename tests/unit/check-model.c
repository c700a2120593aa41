// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-model.c - hand-made struct sr_event sequences, one rule of
 * model.h each: runnable counts through wakeup / switch / migrate,
 * preempted vs sleeping vs dead, exit, pid reuse, switch mismatch,
 * unordered time, lost events, numa_sample and NUMA events -> faults,
 * preferred node and group, exec, CPUs out of range, and a random stream
 * checked against the runnable-count invariant; model_check_event() on
 * each id an event kind names.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check-common.h"
#include "check-topo2.h"
#include "model/model.h"

static struct topo *topo;
static struct model *m;

/* 2 nodes x 2 CPUs, like numa02-2n */
static void setup(void)
{
	topo = check_topo2();
	m = model_new(topo);
	ck_assert_ptr_nonnull(m);
}

/* 4 nodes x 2 CPUs, like numa01-shm-4n */
static void setup_4n(void)
{
	static const int d[16] = { 10, 20, 40, 40, 20, 10, 40, 40, 40, 40, 10, 20, 40, 40, 20, 10 };
	int i;

	topo = topo_new(4, 8);
	ck_assert_ptr_nonnull(topo);
	for (i = 0; i < 8; i++)
		topo->cpu_node[i] = i / 2;
	memcpy(topo->distance, d, sizeof(d));
	m = model_new(topo);
	ck_assert_ptr_nonnull(m);
}

static void teardown(void)
{
	model_free(m);
	topo_free(topo);
	m = NULL;
	topo = NULL;
}

static void feed(const struct sr_event *ev)
{
	ck_assert_int_eq(model_feed(m, ev), 0);
}

static void sw(uint64_t ts, int cpu, int prev, long prev_state, int next)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .kind = SR_EV_SWITCH };

	ev.u.sw.prev_pid = prev;
	ev.u.sw.prev_state = prev_state;
	ev.u.sw.next_pid = next;
	strcpy(ev.u.sw.prev_comm, prev ? "prev" : "swapper/0");
	strcpy(ev.u.sw.next_comm, next ? "next" : "swapper/0");
	feed(&ev);
}

static void wake(uint64_t ts, enum sr_event_kind kind, int pid, int target)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = 0, .kind = kind };

	ev.u.wake.pid = pid;
	ev.u.wake.target_cpu = target;
	strcpy(ev.u.wake.comm, "woken");
	feed(&ev);
}

static void migrate(uint64_t ts, int pid, int orig, int dest)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = orig, .kind = SR_EV_MIGRATE };

	ev.u.mig.pid = pid;
	ev.u.mig.orig_cpu = orig;
	ev.u.mig.dest_cpu = dest;
	strcpy(ev.u.mig.comm, "mover");
	feed(&ev);
}

static void fork_ev(uint64_t ts, int parent, int child, const char *comm)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = 0, .kind = SR_EV_FORK };

	ev.u.fork.parent_pid = parent;
	ev.u.fork.child_pid = child;
	strcpy(ev.u.fork.parent_comm, "parent");
	strcpy(ev.u.fork.child_comm, comm);
	feed(&ev);
}

static void exit_ev(uint64_t ts, int cpu, int pid)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .kind = SR_EV_EXIT };

	ev.u.exit.pid = pid;
	strcpy(ev.u.exit.comm, "leaving");
	feed(&ev);
}

static void lost(uint64_t ts, int cpu, int64_t count)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .kind = SR_EV_LOST };

	ev.u.lost.count = count;
	feed(&ev);
}

static void sample(uint64_t ts, const char *line)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = 0, .kind = SR_EV_PRINT,
			       .marker = SR_MARK_NUMA_SAMPLE };

	ev.str = line;
	ev.str_len = (uint32_t)strlen(line);
	feed(&ev);
}

static void numa(uint64_t ts, enum sr_event_kind kind, int src, int src_tgid, int src_ngid,
		 int src_nid, int dst, int dst_tgid, int dst_ngid, int dst_nid)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = 0, .kind = kind };

	ev.u.numa = (struct sr_ev_numa){ src, src_tgid, src_ngid, 0, src_nid,
					 dst, dst_tgid, dst_ngid, 2, dst_nid };
	feed(&ev);
}

static const struct model_task *task(int tid)
{
	const struct model_task *t = model_task_lookup(m, tid);

	ck_assert_msg(t, "task %d unknown", tid);
	return t;
}

/*
 * State that grows starts from nothing: with every fresh block filled with
 * a pattern, a CPU the array grew to hold counts only what was put there
 * (nr_preferred and nr_pref_unknown were once left to the allocator).
 */
/* after a move the task is cold until it runs; lost events there make that unknown */
START_TEST(test_moved_since_ran_lost)
{
	sw(10, 0, 0, 0, 100);
	sw(20, 0, 100, 0, 0);
	migrate(30, 100, 0, 1);
	ck_assert(task(100)->known & MODEL_KNOWN_MOVED);
	ck_assert(task(100)->moved_since_ran);
	sw(40, 1, 0, 0, 100);
	ck_assert(!task(100)->moved_since_ran);
	sw(50, 1, 100, 0, 0);
	migrate(60, 100, 1, 2);
	lost(70, 3, 5);			/* elsewhere: still known */
	ck_assert(task(100)->known & MODEL_KNOWN_MOVED);
	lost(80, 2, 5);			/* where it is: it may have run unseen */
	ck_assert(!(task(100)->known & MODEL_KNOWN_MOVED));
}
END_TEST

START_TEST(test_grown_cpus_fresh)
{
	struct topo *t2 = topo_new(1, 1);
	struct model *g;
	const struct model_cpu *c;
	struct model *saved = m;
	int cpu;

	ck_assert_ptr_nonnull(t2);
	t2->cpu_node[0] = 0;
	t2->distance[0] = 10;
	model_debug_fill(0xa5);
	g = model_new(t2);
	model_debug_fill(-1);
	ck_assert_ptr_nonnull(g);
	m = g;
	model_debug_fill(0xa5);
	/* CPU 13 grows the array from 8 to 16 entries */
	sw(10, 13, 0, 0, 101);
	wake(20, SR_EV_WAKEUP, 102, 13);
	model_debug_fill(-1);
	for (cpu = 1; cpu < model_nr_cpus(g); cpu++) {
		c = model_cpu_get(g, cpu);
		ck_assert_ptr_nonnull(c);
		ck_assert_int_eq(c->nr_preferred, 0);
		ck_assert_int_eq(c->nr_pref_unknown, cpu == 13 ? 2 : 0);
		ck_assert_int_eq(c->nr_runnable, cpu == 13 ? 2 : 0);
		if (cpu != 13) {
			ck_assert_int_eq(c->curr, -1);
			ck_assert(!c->known);
		}
	}
	m = saved;
	model_free(g);
	topo_free(t2);
}
END_TEST

static int runnable(int cpu)
{
	return model_cpu_get(m, cpu)->nr_runnable;
}

START_TEST(test_unknown_until_told)
{
	const struct model_task *t;
	const struct model_cpu *c;

	ck_assert_ptr_null(model_task_lookup(m, 100));
	ck_assert_int_eq(model_nr_cpus(m), 4);
	c = model_cpu_get(m, 3);
	ck_assert(!c->known);
	ck_assert_int_eq(c->curr, -1);
	ck_assert_int_eq(c->nr_runnable, 0);
	ck_assert_ptr_null(model_cpu_get(m, 4));
	ck_assert_ptr_null(model_cpu_get(m, -1));

	wake(10, SR_EV_WAKEUP, 100, 1);
	t = task(100);
	ck_assert_uint_eq(t->known, MODEL_KNOWN_COMM | MODEL_KNOWN_CPU | MODEL_KNOWN_STATE);
	ck_assert_int_eq(t->tgid, -1);
	ck_assert_int_eq(t->pref_node, -1);
	ck_assert_int_eq(t->numa_group, -1);
	ck_assert_ptr_null(t->faults);
	ck_assert_str_eq(t->comm, "woken");
	ck_assert_uint_eq(t->first_seen_ns, 10);
	ck_assert_uint_eq(model_stats(m)->tasks_seen, 1);

	/* sched_waking names the task but does not queue it */
	wake(11, SR_EV_WAKING, 101, 2);
	ck_assert_uint_eq(task(101)->known, MODEL_KNOWN_COMM);
	ck_assert_int_eq(task(101)->state, MODEL_TASK_UNKNOWN);
	ck_assert_int_eq(runnable(2), 0);

	/* the idle task is no task */
	sw(12, 0, 0, 0, 0);
	ck_assert_ptr_null(model_task_lookup(m, 0));
	ck_assert_int_eq(model_cpu_get(m, 0)->curr, 0);
	ck_assert(model_cpu_get(m, 0)->known);
}
END_TEST

/* names: the last non-empty one, at most 15 bytes, whatever follows the NUL */
START_TEST(test_comm)
{
	static const char *const names[] = { "worker", "worker", "w", "worker" };
	struct sr_event ev = { .ts_ns = 1, .cpu = 0, .kind = SR_EV_WAKEUP };
	size_t i;

	ev.u.wake.pid = 100;
	ev.u.wake.target_cpu = 1;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		memset(ev.u.wake.comm, 0, sizeof(ev.u.wake.comm));
		strcpy(ev.u.wake.comm, names[i]);
		feed(&ev);
		ck_assert_str_eq(task(100)->comm, names[i]);
		ck_assert(task(100)->known & MODEL_KNOWN_COMM);
	}
	/* bytes after the NUL (the kernel copies all 16) are not the name */
	memcpy(ev.u.wake.comm, "ab\0junkjunkjunk", 16);
	feed(&ev);
	ck_assert_str_eq(task(100)->comm, "ab");
	feed(&ev);
	ck_assert_str_eq(task(100)->comm, "ab");
	/* sixteen bytes and no NUL: the first fifteen */
	memcpy(ev.u.wake.comm, "0123456789abcdef", 16);
	feed(&ev);
	ck_assert_str_eq(task(100)->comm, "0123456789abcde");
	feed(&ev);
	ck_assert_str_eq(task(100)->comm, "0123456789abcde");
	/* an empty name leaves the last one */
	memset(ev.u.wake.comm, 0, sizeof(ev.u.wake.comm));
	feed(&ev);
	ck_assert_str_eq(task(100)->comm, "0123456789abcde");
	/*
	 * exec: the file name (its last part), in a buffer of exactly its
	 * length and no NUL, shorter than a comm: taken by its length
	 */
	{
		static const char file[] = "sh";
		struct sr_event x = { .ts_ns = 2, .cpu = 0, .kind = SR_EV_EXEC };
		char *exact = malloc(sizeof(file) - 1);

		ck_assert_ptr_nonnull(exact);
		memcpy(exact, file, sizeof(file) - 1);
		x.u.exec.pid = 100;
		x.u.exec.old_pid = 100;
		x.str = exact;
		x.str_len = sizeof(file) - 1;
		feed(&x);
		ck_assert_str_eq(task(100)->comm, "sh");
		feed(&x);
		ck_assert_str_eq(task(100)->comm, "sh");
		free(exact);
	}
	/* a kernel thread's name, and a rename away from one, count at once */
	memset(ev.u.wake.comm, 0, sizeof(ev.u.wake.comm));
	strcpy(ev.u.wake.comm, "kworker/0:1");
	feed(&ev);
	ck_assert_int_eq(model_task_kthread(task(100)), MODEL_KTHREAD_NAME);
	feed(&ev);
	ck_assert_int_eq(model_task_kthread(task(100)), MODEL_KTHREAD_NAME);
	strcpy(ev.u.wake.comm, "worker");
	feed(&ev);
	ck_assert_int_eq(model_task_kthread(task(100)), MODEL_KTHREAD_NONE);
	/* a task never named is not known by name */
	memset(ev.u.wake.comm, 0, sizeof(ev.u.wake.comm));
	ev.u.wake.pid = 101;
	feed(&ev);
	ck_assert(!(task(101)->known & MODEL_KNOWN_COMM));
	ck_assert_str_eq(task(101)->comm, "");
}
END_TEST

START_TEST(test_wakeup_switch_counts)
{
	wake(10, SR_EV_WAKEUP_NEW, 100, 1);
	ck_assert_int_eq(task(100)->state, MODEL_TASK_RUNNABLE);
	ck_assert_int_eq(runnable(1), 1);

	sw(20, 1, 0, 0, 100);
	ck_assert_int_eq(task(100)->state, MODEL_TASK_RUNNING);
	ck_assert_int_eq(model_cpu_get(m, 1)->curr, 100);
	ck_assert_int_eq(runnable(1), 1);	/* running counts */
	ck_assert(!(task(100)->known & MODEL_KNOWN_LAST_RAN));

	wake(30, SR_EV_WAKEUP, 101, 1);
	ck_assert_int_eq(runnable(1), 2);
	/* a wakeup of the running task moves nothing */
	wake(31, SR_EV_WAKEUP, 100, 3);
	ck_assert_int_eq(task(100)->state, MODEL_TASK_RUNNING);
	ck_assert_int_eq(task(100)->cpu, 1);
	ck_assert_int_eq(runnable(3), 0);

	sw(40, 1, 100, 0, 101);	/* preempted */
	ck_assert_int_eq(task(100)->state, MODEL_TASK_RUNNABLE);
	ck_assert_uint_eq(task(100)->last_ran_ns, 40);
	ck_assert(task(100)->known & MODEL_KNOWN_LAST_RAN);
	ck_assert_int_eq(runnable(1), 2);

	sw(50, 1, 101, 1, 100);	/* 101 sleeps */
	ck_assert_int_eq(task(101)->state, MODEL_TASK_SLEEPING);
	ck_assert_int_eq(task(101)->cpu, 1);
	ck_assert_int_eq(runnable(1), 1);

	wake(60, SR_EV_WAKEUP, 101, 2);	/* woken elsewhere */
	ck_assert_int_eq(task(101)->cpu, 2);
	ck_assert_int_eq(runnable(1), 1);
	ck_assert_int_eq(runnable(2), 1);
	ck_assert_uint_eq(model_stats(m)->switch_missing, 0);
	ck_assert_uint_eq(model_stats(m)->events, 7);
}
END_TEST

/* a CPU's averages: PELT's series, the same read twice, and read at the time they were brought to */
START_TEST(test_pelt)
{
	const double h = (double)MODEL_PELT_HALFLIFE_NS;
	const uint64_t t0 = 1000000000ull, t1 = t0 + MODEL_PELT_SETTLE_NS + MODEL_PELT_HALFLIFE_NS;
	double u, r, u1, r1, u2, r2;

	wake(t0, SR_EV_WAKEUP_NEW, 100, 1);
	sw(t0, 1, 0, 0, 100);
	ck_assert(!model_cpu_pelt(m, 1, t0 + MODEL_PELT_SETTLE_NS - 1, &u, &r));
	ck_assert(!model_cpu_pelt(m, 0, t1, &u, &r));	/* never seen */

	/* 100 ran alone for 5 half-lives, from nothing */
	ck_assert(model_cpu_pelt(m, 1, t1, &u1, &r1));
	ck_assert_double_eq_tol(u1, 1024.0 * (1.0 - exp2(-(double)(t1 - t0) / h)), 1e-9);
	ck_assert_double_eq_tol(r1, u1, 1e-9);
	ck_assert(model_cpu_pelt(m, 1, t1, &u, &r));
	ck_assert_double_eq(u, u1);
	ck_assert_double_eq(r, r1);

	/* it sleeps at t1: the averages are brought to t1 as they were */
	sw(t1, 1, 100, 1, 0);
	ck_assert(model_cpu_pelt(m, 1, t1, &u, &r));
	ck_assert_double_eq(u, u1);
	ck_assert_double_eq(r, r1);

	/* idle for one half-life: half of it is left, nothing added */
	ck_assert(model_cpu_pelt(m, 1, t1 + MODEL_PELT_HALFLIFE_NS, &u2, &r2));
	ck_assert_double_eq_tol(u2, u1 / 2, 1e-9);
	ck_assert_double_eq_tol(r2, r1 / 2, 1e-9);
	ck_assert(model_cpu_pelt(m, 1, t1 + MODEL_PELT_HALFLIFE_NS, &u, &r));
	ck_assert_double_eq(u, u2);
	ck_assert_double_eq(r, r2);
	/* and read at t1 again: not decayed by the read in between */
	ck_assert(model_cpu_pelt(m, 1, t1, &u, &r));
	ck_assert_double_eq(u, u1);

	/*
	 * A read at a time read before, after a change that did not move the
	 * averages' own time (an event out of order, before it): the change
	 * counts, not the read kept.  200 is runnable on CPU 1 from t1 on.
	 */
	ck_assert(model_cpu_pelt(m, 1, t1 + MODEL_PELT_HALFLIFE_NS, &u, &r));
	ck_assert_double_eq(r, r2);
	wake(t1 - 1, SR_EV_WAKEUP, 200, 1);
	ck_assert_int_eq(runnable(1), 1);
	ck_assert(model_cpu_pelt(m, 1, t1 + MODEL_PELT_HALFLIFE_NS, &u, &r));
	ck_assert_double_eq_tol(u, u2, 1e-9);
	ck_assert_double_eq_tol(r, r1 / 2 + 512.0, 1e-9);
}
END_TEST

static const struct {
	long			prev_state;
	enum model_task_state	want;
	int			runnable;	/* on the CPU afterwards */
} switch_out[] = {
	{ 0x000, MODEL_TASK_RUNNABLE, 1 },	/* R */
	{ 0x100, MODEL_TASK_RUNNABLE, 1 },	/* R+ (6.x preempt bit) */
	{ 0x001, MODEL_TASK_SLEEPING, 0 },	/* S */
	{ 0x002, MODEL_TASK_SLEEPING, 0 },	/* D */
	{ 0x004, MODEL_TASK_SLEEPING, 0 },	/* T */
	{ 0x040, MODEL_TASK_SLEEPING, 0 },	/* P */
	{ 0x080, MODEL_TASK_SLEEPING, 0 },	/* I */
	{ 0x010, MODEL_TASK_DEAD, 0 },		/* X */
	{ 0x020, MODEL_TASK_DEAD, 0 },		/* Z */
};

START_TEST(test_switch_out_states)
{
	wake(10, SR_EV_WAKEUP, 100, 0);
	sw(20, 0, 0, 0, 100);
	ck_assert_uint_eq(model_stats(m)->tasks_live, 1);
	sw(30, 0, 100, switch_out[_i].prev_state, 0);
	ck_assert_int_eq(task(100)->state, switch_out[_i].want);
	ck_assert_int_eq(runnable(0), switch_out[_i].runnable);
	ck_assert_uint_eq(model_stats(m)->tasks_live,
			  switch_out[_i].want == MODEL_TASK_DEAD ? 0 : 1);
	ck_assert_int_eq(model_cpu_get(m, 0)->curr, 0);
}
END_TEST

START_TEST(test_migrate)
{
	/* queued: the count moves with it */
	wake(10, SR_EV_WAKEUP, 100, 0);
	migrate(20, 100, 0, 3);
	ck_assert_int_eq(task(100)->cpu, 3);
	ck_assert_int_eq(runnable(0), 0);
	ck_assert_int_eq(runnable(3), 1);
	ck_assert_uint_eq(task(100)->nr_migrations, 1);

	/* sleeping (migrated on its wakeup path): cpu only, then the wakeup queues it */
	sw(30, 3, 0, 0, 100);
	sw(40, 3, 100, 1, 0);
	ck_assert_int_eq(runnable(3), 0);
	migrate(50, 100, 3, 1);
	ck_assert_int_eq(task(100)->state, MODEL_TASK_SLEEPING);
	ck_assert_int_eq(task(100)->cpu, 1);
	ck_assert_int_eq(runnable(1), 0);
	wake(51, SR_EV_WAKEUP, 100, 1);
	ck_assert_int_eq(runnable(1), 1);

	/* a task the model had running cannot stay running once moved */
	sw(60, 1, 0, 0, 100);
	migrate(70, 100, 1, 2);
	ck_assert_int_eq(task(100)->state, MODEL_TASK_RUNNABLE);
	ck_assert_int_eq(runnable(1), 0);
	ck_assert_int_eq(runnable(2), 1);

	/* unknown task: cpu known, state still unknown, nothing counted */
	migrate(80, 200, 0, 1);
	ck_assert_int_eq(task(200)->state, MODEL_TASK_UNKNOWN);
	ck_assert_int_eq(task(200)->cpu, 1);
	ck_assert_int_eq(runnable(1), 0);
	ck_assert_uint_eq(model_stats(m)->migrations, 4);
	ck_assert_uint_eq(task(100)->nr_migrations, 3);
}
END_TEST

START_TEST(test_exit_and_pid_reuse)
{
	fork_ev(5, 1, 100, "child");
	ck_assert_str_eq(task(100)->comm, "child");
	ck_assert_str_eq(task(1)->comm, "parent");
	wake(10, SR_EV_WAKEUP_NEW, 100, 0);
	sw(20, 0, 0, 0, 100);
	exit_ev(30, 0, 100);
	/* still running until its last switch-out */
	ck_assert_int_eq(task(100)->state, MODEL_TASK_RUNNING);
	ck_assert_str_eq(task(100)->comm, "leaving");
	sw(40, 0, 100, 0x10, 0);
	ck_assert_int_eq(task(100)->state, MODEL_TASK_DEAD);
	ck_assert_uint_eq(model_stats(m)->pid_reuse, 0);
	ck_assert_uint_eq(model_stats(m)->tasks_live, 1);	/* the parent */
	ck_assert_int_eq(runnable(0), 0);

	/* the tid comes back as a fork child: a new task, nothing carried over */
	fork_ev(50, 1, 100, "again");
	ck_assert_uint_eq(model_stats(m)->pid_reuse, 1);
	ck_assert_uint_eq(model_stats(m)->tasks_seen, 3);
	ck_assert_uint_eq(model_stats(m)->tasks_live, 2);
	ck_assert_str_eq(task(100)->comm, "again");
	/*
	 * a new task: only its name, that it has not run (se.exec_start 0)
	 * and that it has no preferred node (init_numa_balancing())
	 */
	ck_assert_uint_eq(task(100)->known,
			  MODEL_KNOWN_COMM | MODEL_KNOWN_MOVED | MODEL_KNOWN_PREF_NODE);
	ck_assert_int_eq(task(100)->pref_node, -1);
	ck_assert(task(100)->moved_since_ran);
	ck_assert_uint_eq(task(100)->first_seen_ns, 50);

	/* any event naming a dead tid also starts a new task */
	sw(60, 1, 0, 0, 100);
	sw(70, 1, 100, 0x20, 0);
	wake(80, SR_EV_WAKEUP, 100, 2);
	ck_assert_uint_eq(model_stats(m)->pid_reuse, 2);
	ck_assert(!(task(100)->known & MODEL_KNOWN_LAST_RAN));
	ck_assert_int_eq(runnable(2), 1);

	/* a fork child whose tid the model thinks is alive: its end was missed */
	fork_ev(90, 1, 100, "third");
	ck_assert_uint_eq(model_stats(m)->pid_reuse, 3);
	ck_assert_int_eq(runnable(2), 0);
	ck_assert_int_eq(task(100)->state, MODEL_TASK_UNKNOWN);
}
END_TEST

START_TEST(test_switch_missing_unordered)
{
	sw(100, 0, 50, 1, 60);	/* first switch on CPU 0: nothing to compare with */
	ck_assert_uint_eq(model_stats(m)->switch_missing, 0);
	sw(200, 0, 60, 1, 70);
	ck_assert_uint_eq(model_stats(m)->switch_missing, 0);
	sw(300, 0, 99, 1, 80);	/* 70 was current */
	ck_assert_uint_eq(model_stats(m)->switch_missing, 1);
	ck_assert_int_eq(model_cpu_get(m, 0)->curr, 80);
	/*
	 * The switch away from 70 is missing: it is not running on CPU 0
	 * any more (80 is), in a state not known, and counted against it.
	 */
	ck_assert_int_eq(task(70)->state, MODEL_TASK_UNKNOWN);
	ck_assert_int_eq(task(70)->cpu, 0);
	ck_assert_uint_eq(task(70)->switch_out_missing, 1);
	ck_assert_uint_eq(task(99)->switch_out_missing, 0);

	/* so its next wakeup places it, as the kernel's did */
	wake(310, SR_EV_WAKEUP, 70, 1);
	ck_assert_int_eq(task(70)->state, MODEL_TASK_RUNNABLE);
	ck_assert_int_eq(task(70)->cpu, 1);

	sw(250, 0, 80, 0, 0);	/* older than the last: counted, still applied */
	ck_assert_uint_eq(model_stats(m)->unordered, 1);
	ck_assert_int_eq(model_cpu_get(m, 0)->curr, 0);
	ck_assert_int_eq(task(80)->state, MODEL_TASK_RUNNABLE);
	sw(260, 0, 0, 0, 80);	/* later than the previous event: ordered */
	ck_assert_uint_eq(model_stats(m)->unordered, 1);
}
END_TEST

START_TEST(test_lost)
{
	sw(10, 0, 0, 0, 100);
	sw(11, 1, 0, 0, 101);
	lost(20, 0, 7);
	ck_assert(!model_cpu_get(m, 0)->known);
	ck_assert_int_eq(model_cpu_get(m, 0)->curr, -1);
	ck_assert(model_cpu_get(m, 1)->known);
	sw(30, 0, 555, 1, 102);	/* no mismatch: CPU 0 was unknown */
	ck_assert_uint_eq(model_stats(m)->switch_missing, 0);
	ck_assert(model_cpu_get(m, 0)->known);
	ck_assert_int_eq(model_cpu_get(m, 0)->curr, 102);

	lost(40, -1, -1);	/* count unknown, CPU unknown: every CPU */
	ck_assert(!model_cpu_get(m, 0)->known);
	ck_assert(!model_cpu_get(m, 1)->known);
	ck_assert_uint_eq(model_stats(m)->lost_records, 2);
	ck_assert_uint_eq(model_stats(m)->lost_events, 7);
	sw(50, 1, 999, 1, 0);
	ck_assert_uint_eq(model_stats(m)->switch_missing, 0);
}
END_TEST

START_TEST(test_cpu_range)
{
	sw(10, 9, 0, 0, 100);	/* beyond the topology's 4: the model grows */
	ck_assert_int_eq(model_nr_cpus(m), 10);
	ck_assert_int_eq(model_cpu_get(m, 9)->curr, 100);
	ck_assert(!model_cpu_get(m, 7)->known);
	ck_assert_int_eq(runnable(9), 1);
	ck_assert_uint_eq(model_stats(m)->bad_cpu, 0);

	sw(20, TOPO_MAX_CPUS, 0, 0, 101);
	sw(21, -1, 0, 0, 101);
	ck_assert_uint_eq(model_stats(m)->bad_cpu, 2);
	ck_assert_ptr_null(model_task_lookup(m, 101));

	wake(30, SR_EV_WAKEUP, 102, 100000);	/* queued, CPU unknown */
	ck_assert_uint_eq(model_stats(m)->bad_cpu, 3);
	ck_assert_int_eq(task(102)->state, MODEL_TASK_RUNNABLE);
	ck_assert(!(task(102)->known & MODEL_KNOWN_CPU));
	ck_assert_int_eq(model_nr_cpus(m), 10);
}
END_TEST

/* numa01-shm-4n/samples.txt: pid 283's thread 286 in NUMA group 285 */
static const char shm_sample[] =
	"numa_sample t=9685894842 seq=4 pid=283 tid=286 comm=nb-w0 cpu=2 pref=1 node=1 grp=285 "
	"tf=20436 mig=2 scan=2 nmig=1 forced=0 fhot=1 frun=4 faff=0 "
	"f=0:0/0/1781/1,1:20364/72/20411/15953,2:0/0/5040/0,3:0/0/927/0";

START_TEST(test_sample_faults)
{
	static const uint64_t faults[4] = { 0, 20436, 0, 0 };
	static const uint64_t group[4] = { 1782, 36364, 5040, 927 };
	const struct model_task *t;
	int i;

	sw(10, 2, 0, 0, 286);
	sample(20, shm_sample);
	t = task(286);
	ck_assert_uint_eq(model_stats(m)->samples, 1);
	ck_assert(t->known & MODEL_KNOWN_TGID);
	ck_assert_int_eq(t->tgid, 283);
	ck_assert(t->known & MODEL_KNOWN_PREF_NODE);
	ck_assert_int_eq(t->pref_node, 1);
	ck_assert(t->known & MODEL_KNOWN_NUMA_GROUP);
	ck_assert_int_eq(t->numa_group, 285);
	ck_assert(t->known & MODEL_KNOWN_FAULTS);
	ck_assert(t->known & MODEL_KNOWN_GROUP_FAULTS);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(t->faults[i], faults[i]);
		ck_assert_uint_eq(t->group_faults[i], group[i]);
	}
	/* the sched event's comm is kept over the sampler's */
	ck_assert_str_eq(t->comm, "next");
	ck_assert_int_eq(t->state, MODEL_TASK_RUNNING);

	/* before the first fault f= is empty: faults known to be zero */
	sample(30, "numa_sample t=1 seq=0 pid=283 tid=286 comm=nb-w0 cpu=2 pref=-1 node=1 grp=0 f=");
	t = task(286);
	ck_assert_int_eq(t->pref_node, -1);
	ck_assert(t->known & MODEL_KNOWN_PREF_NODE);
	ck_assert_int_eq(t->numa_group, 0);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(t->faults[i], 0);
		ck_assert_uint_eq(t->group_faults[i], 0);
	}
	ck_assert_uint_eq(model_stats(m)->samples, 2);
	ck_assert_uint_eq(model_stats(m)->bad_node, 0);

	/* a task seen only through a sample */
	sample(40, "numa_sample t=1 seq=0 pid=7 tid=8 comm=only_sampled cpu=1 pref=3 node=0 grp=-1 "
		   "f=0:1/2/3/4");
	t = task(8);
	ck_assert_str_eq(t->comm, "only_sampled");
	ck_assert(!(t->known & MODEL_KNOWN_NUMA_GROUP));	/* grp=-1: not said */
	ck_assert(!(t->known & MODEL_KNOWN_CPU));		/* the sample's cpu= is not trace time */
	ck_assert_uint_eq(t->faults[0], 3);
	ck_assert_uint_eq(t->faults[1], 0);
	ck_assert_uint_eq(t->group_faults[0], 7);
}
END_TEST

START_TEST(test_sample_bad)
{
	/* five nodes on a four-node topology: the fifth is ignored */
	sample(10, "numa_sample pid=1 tid=2 pref=4 grp=0 f=0:1/0/0/0,4:9/0/0/0");
	ck_assert_uint_eq(model_stats(m)->bad_node, 2);	/* pref=4 and f= node 4 */
	ck_assert(!(task(2)->known & MODEL_KNOWN_PREF_NODE));
	ck_assert_uint_eq(task(2)->faults[0], 1);
	ck_assert_uint_eq(model_stats(m)->samples, 1);

	sample(20, "numa_sample pid=1 comm=x");	/* no tid */
	sample(21, "numa_sample tid=3 f=0:1/2");	/* short fault entry */
	sample(22, "numa_sample tid=3 f=0:-1/0/0/0");	/* negative fault count */
	ck_assert_uint_eq(model_stats(m)->bad_samples, 3);
	ck_assert_ptr_null(model_task_lookup(m, 3));

	/* a sample naming a task that already died: stale, not a reuse */
	sw(30, 0, 0, 0, 4);
	sw(31, 0, 4, 0x10, 0);
	sample(32, "numa_sample pid=4 tid=4 grp=0 f=0:5/0/0/0");
	ck_assert_uint_eq(model_stats(m)->stale_samples, 1);
	ck_assert_uint_eq(model_stats(m)->pid_reuse, 0);
	ck_assert_int_eq(task(4)->state, MODEL_TASK_DEAD);
	ck_assert(!(task(4)->known & MODEL_KNOWN_FAULTS));

	/* a print event that is not a sample is none of the model's business */
	{
		struct sr_event ev = { .ts_ns = 40, .kind = SR_EV_PRINT, .marker = SR_MARK_NODE };

		ev.str = "schedreplay_node node=0";
		ev.str_len = 23;
		feed(&ev);
	}
	ck_assert_uint_eq(model_stats(m)->bad_samples, 3);
}
END_TEST

START_TEST(test_numa_events)
{
	numa(10, SR_EV_MOVE_NUMA, 300, 299, 0, 0, -1, -1, -1, 1);
	ck_assert(task(300)->known & MODEL_KNOWN_TGID);
	ck_assert_int_eq(task(300)->tgid, 299);
	ck_assert(task(300)->known & MODEL_KNOWN_NUMA_GROUP);
	ck_assert_int_eq(task(300)->numa_group, 0);
	ck_assert_ptr_null(model_task_lookup(m, -1));

	numa(20, SR_EV_SWAP_NUMA, 301, 299, 305, 0, 302, 298, 306, 3);
	ck_assert_int_eq(task(301)->numa_group, 305);
	ck_assert_int_eq(task(302)->tgid, 298);
	ck_assert_int_eq(task(302)->numa_group, 306);

	/* stick without a task to swap with */
	numa(30, SR_EV_STICK_NUMA, 303, 299, 305, 1, 0, 0, 0, 2);
	ck_assert_int_eq(task(303)->tgid, 299);
	ck_assert_ptr_null(model_task_lookup(m, 0));

	ck_assert_uint_eq(model_stats(m)->bad_node, 0);
	numa(40, SR_EV_MOVE_NUMA, 300, 299, 0, 0, -1, -1, -1, 7);
	ck_assert_uint_eq(model_stats(m)->bad_node, 1);
	/* nothing here moves a task: sched_migrate_task does */
	ck_assert(!(task(300)->known & MODEL_KNOWN_CPU));
}
END_TEST

START_TEST(test_exec)
{
	struct sr_event ev = { .ts_ns = 30, .cpu = 1, .kind = SR_EV_EXEC };
	static const char file[] = "/usr/bin/a-very-long-program-name";

	sw(10, 1, 0, 0, 400);
	ev.u.exec.pid = 400;
	ev.u.exec.old_pid = 400;
	ev.str = file;
	ev.str_len = sizeof(file) - 1;
	feed(&ev);
	ck_assert(task(400)->known & MODEL_KNOWN_TGID);
	ck_assert_int_eq(task(400)->tgid, 400);
	ck_assert_str_eq(task(400)->comm, "a-very-long-pro");

	/* thread 502 of process 500 execs: it takes tid 500, 502 is gone */
	sw(40, 2, 0, 0, 500);
	sw(41, 2, 500, 0x10, 502);	/* the leader died first (de_thread) */
	ev.ts_ns = 50;
	ev.cpu = 2;
	ev.u.exec.pid = 500;
	ev.u.exec.old_pid = 502;
	ev.str = "sh";
	ev.str_len = 2;
	feed(&ev);
	ck_assert_uint_eq(model_stats(m)->pid_reuse, 0);
	ck_assert_int_eq(task(502)->state, MODEL_TASK_DEAD);
	ck_assert_int_eq(task(500)->state, MODEL_TASK_RUNNING);
	ck_assert_int_eq(task(500)->tgid, 500);
	ck_assert_str_eq(task(500)->comm, "sh");
	ck_assert_int_eq(model_cpu_get(m, 2)->curr, 500);
	ck_assert_int_eq(runnable(2), 1);
	sw(60, 2, 500, 1, 0);	/* no mismatch: 500 is current */
	ck_assert_uint_eq(model_stats(m)->switch_missing, 0);
	ck_assert_int_eq(runnable(2), 0);
}
END_TEST

static int count_task(const struct model_task *t, void *arg)
{
	(*(int *)arg)++;
	return *(int *)arg == 3 ? 7 : 0;
}

START_TEST(test_for_each)
{
	int n = 0;

	ck_assert_int_eq(model_for_each_task(m, count_task, &n), 0);
	ck_assert_int_eq(n, 0);
	wake(1, SR_EV_WAKEUP, 10, 0);
	wake(2, SR_EV_WAKEUP, 11, 0);
	wake(3, SR_EV_WAKEUP, 12, 0);
	wake(4, SR_EV_WAKEUP, 13, 0);
	ck_assert_int_eq(model_for_each_task(m, count_task, &n), 7);	/* stopped at the 3rd */
	ck_assert_int_eq(n, 3);
	model_free(NULL);
	ck_assert_ptr_null(model_new(NULL));
}
END_TEST

struct invariant {
	int	counted[64];
	int	dead;
	int	tasks;
};

static int tally(const struct model_task *t, void *arg)
{
	struct invariant *inv = arg;

	inv->tasks++;
	if (t->state == MODEL_TASK_DEAD)
		inv->dead++;
	if ((t->state == MODEL_TASK_RUNNING || t->state == MODEL_TASK_RUNNABLE) &&
	    (t->known & MODEL_KNOWN_CPU))
		inv->counted[t->cpu]++;
	return 0;
}

/* a random event stream: the counts must always square with the tasks */
START_TEST(test_random_invariant)
{
	const struct model_stats *st;
	struct invariant inv;
	unsigned int seed = 42;
	uint64_t ts = 0;
	int i;
	int r;
	int tid;
	int cpu;

	memset(&inv, 0, sizeof(inv));
	for (i = 0; i < 200000; i++) {
		seed = seed * 1103515245u + 12345u;
		r = (int)(seed >> 16);
		tid = 1 + r % 5000;
		cpu = (r >> 3) % 12;	/* CPUs 4..11 grow the model */
		ts += 100;
		switch (r % 7) {
		case 0:
		case 1:
			sw(ts, cpu, model_cpu_get(m, cpu) ? model_cpu_get(m, cpu)->curr : 0,
			   (r >> 5) % 3 == 0 ? 0 : ((r >> 5) % 3 == 1 ? 1 : 0x10), tid);
			break;
		case 2:
			wake(ts, SR_EV_WAKEUP, tid, cpu);
			break;
		case 3:
			migrate(ts, tid, (cpu + 1) % 12, cpu);
			break;
		case 4:
			fork_ev(ts, tid, 1 + (r >> 4) % 5000, "kid");
			break;
		case 5:
			exit_ev(ts, cpu, tid);
			break;
		default:
			if (i % 1000 == 0)
				lost(ts, cpu, 3);
			else
				sw(ts, cpu, tid, 1, 0);
		}
	}
	model_for_each_task(m, tally, &inv);
	st = model_stats(m);
	ck_assert_int_eq(model_nr_cpus(m), 12);
	for (cpu = 0; cpu < 12; cpu++)
		ck_assert_int_eq(runnable(cpu), inv.counted[cpu]);
	ck_assert_uint_eq(st->tasks_live, (uint64_t)(inv.tasks - inv.dead));
	ck_assert_int_eq(inv.tasks, 5000);
	ck_assert_uint_eq(st->tasks_seen, 5000 + st->pid_reuse);
	ck_assert_uint_eq(st->events, 200000);
	ck_assert_uint_gt(st->pid_reuse, 0);
}
END_TEST

/*
 * model_check_event(): one row per id an event kind names, set out of range
 * on the 4-node, 8-CPU topology (from JSON); the message is the one the CLI
 * prints (tests/e2e/test-info.sh reads it).
 */
#define EV_FIELD(f)	offsetof(struct sr_event, f)

static const struct check_case {
	enum sr_event_kind	kind;
	const char		*name;
	size_t			field;	/* offset of the int id set to bad */
	bool			node;	/* the id is a node (last valid 3, not 7) */
	int			bad;
	const char		*msg;
} check_cases[] = {
	{ SR_EV_SWITCH, "sched_switch", EV_FIELD(cpu), false, 8,
	  "sched_switch: cpu 8 out of range (topology from json has 8)" },
	{ SR_EV_MIGRATE, "sched_migrate_task", EV_FIELD(u.mig.orig_cpu), false, 9,
	  "sched_migrate_task: cpu 9 out of range (topology from json has 8)" },
	{ SR_EV_MIGRATE, "sched_migrate_task", EV_FIELD(u.mig.dest_cpu), false, 100,
	  "sched_migrate_task: cpu 100 out of range (topology from json has 8)" },
	{ SR_EV_WAKEUP, "sched_wakeup", EV_FIELD(u.wake.target_cpu), false, 8,
	  "sched_wakeup: cpu 8 out of range (topology from json has 8)" },
	{ SR_EV_WAKING, NULL, EV_FIELD(u.wake.target_cpu), false, 8,
	  "event: cpu 8 out of range (topology from json has 8)" },
	{ SR_EV_WAKEUP_NEW, "sched_wakeup_new", EV_FIELD(u.wake.target_cpu), false, 12,
	  "sched_wakeup_new: cpu 12 out of range (topology from json has 8)" },
	{ SR_EV_MOVE_NUMA, "sched_move_numa", EV_FIELD(u.numa.src_cpu), false, 8,
	  "sched_move_numa: cpu 8 out of range (topology from json has 8)" },
	{ SR_EV_SWAP_NUMA, "sched_swap_numa", EV_FIELD(u.numa.dst_cpu), false, 8,
	  "sched_swap_numa: cpu 8 out of range (topology from json has 8)" },
	{ SR_EV_STICK_NUMA, "sched_stick_numa", EV_FIELD(u.numa.src_nid), true, 4,
	  "sched_stick_numa: node 4 out of range (topology from json has 4)" },
	{ SR_EV_MOVE_NUMA, "sched_move_numa", EV_FIELD(u.numa.dst_nid), true, 7,
	  "sched_move_numa: node 7 out of range (topology from json has 4)" },
	{ SR_EV_NUMA_FAULT, "numa_fault", EV_FIELD(u.fault.mem_node), true, 4,
	  "numa_fault: node 4 out of range (topology from json has 4)" },
};

/* An event of @kind naming valid ids everywhere, then the id at @field set to @val. */
static void check_event_make(struct sr_event *ev, enum sr_event_kind kind, const char *name,
			     size_t field, int val)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = kind;
	ev->name = name;
	ev->cpu = 1;
	switch (kind) {
	case SR_EV_MIGRATE:
		ev->u.mig.orig_cpu = 2;
		ev->u.mig.dest_cpu = 7;
		break;
	case SR_EV_WAKEUP:
	case SR_EV_WAKING:
	case SR_EV_WAKEUP_NEW:
		ev->u.wake.target_cpu = 7;
		break;
	case SR_EV_MOVE_NUMA:
	case SR_EV_SWAP_NUMA:
	case SR_EV_STICK_NUMA:
		ev->u.numa.src_cpu = 0;
		ev->u.numa.dst_cpu = 7;
		ev->u.numa.src_nid = 0;
		ev->u.numa.dst_nid = 3;
		break;
	case SR_EV_NUMA_FAULT:
		ev->u.fault.mem_node = 3;
		break;
	default:
		break;
	}
	memcpy((char *)ev + field, &val, sizeof(val));
}

START_TEST(test_check_event_range)
{
	const struct check_case *c = &check_cases[_i];
	struct err e = { 0 };
	struct sr_event ev;

	topo->source = TOPO_SRC_JSON;
	/* -1 (not named) where the bad id goes, then the last valid id */
	check_event_make(&ev, c->kind, c->name, c->field, -1);
	ck_assert_int_eq(model_check_event(topo, &ev, &e), 0);
	ck_assert_int_eq(e.code, 0);
	check_event_make(&ev, c->kind, c->name, c->field, c->node ? 3 : 7);
	ck_assert_int_eq(model_check_event(topo, &ev, &e), 0);
	check_event_make(&ev, c->kind, c->name, c->field, c->bad);
	ck_assert_int_eq(model_check_event(topo, &ev, &e), -SR_ERANGE);
	ck_assert_int_eq(e.code, -SR_ERANGE);
	ck_assert_str_eq(e.msg, c->msg);
	ck_assert_int_eq(topo->nr_cpus, 8);	/* a real topology never grows */
}
END_TEST

/* Only the fields an event's kind names are checked: not what else its union holds. */
START_TEST(test_check_event_only_named)
{
	static const enum sr_event_kind kinds[] = { SR_EV_SWITCH, SR_EV_FORK, SR_EV_EXIT,
						    SR_EV_OTHER, SR_EV__COUNT + 3 };
	struct err e = { 0 };
	struct sr_event ev;
	size_t i;

	topo->source = TOPO_SRC_JSON;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		memset(&ev, 0x7f, sizeof(ev));	/* every int in the union 2139062143 */
		ev.kind = kinds[i];
		ev.name = "x";
		ev.cpu = 7;
		ck_assert_int_eq(model_check_event(topo, &ev, &e), 0);
		ev.cpu = 8;
		ck_assert_int_eq(model_check_event(topo, &ev, &e), -SR_ERANGE);
	}
}
END_TEST

/*
 * A guessed topology is never grown by the check (the session sized it
 * before the first event): a CPU beyond it is out of range; nodes pass.
 */
START_TEST(test_check_event_default)
{
	struct err e = { 0 };
	struct sr_event ev;
	int n = topo->nr_cpus;

	ck_assert_int_eq(topo->source, TOPO_SRC_DEFAULT);
	check_event_make(&ev, SR_EV_STICK_NUMA, "sched_stick_numa", EV_FIELD(u.numa.dst_nid), 40);
	ck_assert_int_eq(model_check_event(topo, &ev, &e), 0);
	ck_assert_int_eq(e.code, 0);
	check_event_make(&ev, SR_EV_SWITCH, "sched_switch", EV_FIELD(cpu), n - 1);
	ck_assert_int_eq(model_check_event(topo, &ev, &e), 0);
	check_event_make(&ev, SR_EV_MIGRATE, "sched_migrate_task", EV_FIELD(u.mig.dest_cpu), n);
	ck_assert_int_eq(model_check_event(topo, &ev, &e), -SR_ERANGE);
	ck_assert_int_eq(topo->nr_cpus, n);
	ck_assert_int_eq(model_event_max_cpu(&ev), n);
	err_clear(&e);
	check_event_make(&ev, SR_EV_WAKEUP, "sched_wakeup", EV_FIELD(u.wake.target_cpu),
			 TOPO_MAX_CPUS);
	ck_assert_int_eq(model_check_event(topo, &ev, &e), -SR_ERANGE);
	ck_assert_int_eq(model_event_max_cpu(&ev), TOPO_MAX_CPUS);
	ck_assert_int_eq(topo->nr_cpus, n);
}
END_TEST

static Suite *model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *tc;

	tc = tcase_create("sched");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_unknown_until_told);
	tcase_add_test(tc, test_wakeup_switch_counts);
	tcase_add_test(tc, test_pelt);
	tcase_add_test(tc, test_comm);
	tcase_add_loop_test(tc, test_switch_out_states, 0,
			    sizeof(switch_out) / sizeof(switch_out[0]));
	tcase_add_test(tc, test_migrate);
	tcase_add_test(tc, test_exit_and_pid_reuse);
	tcase_add_test(tc, test_switch_missing_unordered);
	tcase_add_test(tc, test_lost);
	tcase_add_test(tc, test_cpu_range);
	tcase_add_test(tc, test_exec);
	tcase_add_test(tc, test_for_each);
	tcase_add_test(tc, test_random_invariant);
	suite_add_tcase(s, tc);

	tc = tcase_create("numa");
	tcase_add_checked_fixture(tc, setup_4n, teardown);
	tcase_add_test(tc, test_sample_faults);
	tcase_add_test(tc, test_sample_bad);
	tcase_add_test(tc, test_numa_events);
	tcase_add_loop_test(tc, test_check_event_range, 0,
			    sizeof(check_cases) / sizeof(check_cases[0]));
	tcase_add_test(tc, test_grown_cpus_fresh);
	tcase_add_test(tc, test_moved_since_ran_lost);
	tcase_add_test(tc, test_check_event_default);
	tcase_add_test(tc, test_check_event_only_named);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(model_suite)
