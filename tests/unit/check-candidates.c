// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-candidates.c - load-balance decision points: the candidate walk
 * (replay/candidates.c, the choice of a policy without choose()), the
 * order rebuilt from the model (src/decision/decision-cand.c), and each
 * side's choice from its verdicts (replay/engine/engine-choice.c).
 * Table-driven: one row per branch.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check-common.h"
#include "check-topo2.h"

#include "decision/decision-cand.h"
#include "decision/decision.h"
#include "replay/engine/engine.h"
#include "replay/replay.h"

/* ---- the walk ---------------------------------------------------------- */

#define MAXC 4

/* the verdict a row's fake policy gives candidate tid 100 + i */
struct walk_policy {
	int	verdict[MAXC];
};

static int fake_evaluate(const void *priv, const struct sr_snapshot *snap, struct sr_verdict *out)
{
	const struct walk_policy *p = priv;
	int i = snap->tid - 100;

	if (i < 0 || i >= MAXC)
		return -EINVAL;
	out->verdict = p->verdict[i];
	if (out->verdict == SR_VERDICT_UNKNOWN) {
		out->missing = SR_SNAP_SINCE_RAN;
		sr_verdict_push(out, sr_reason_missing(SR_SNAP_BIT_SINCE_RAN));
	} else {
		sr_verdict_push(out, out->verdict == SR_VERDICT_ALLOW ? SR_REASON_TASK_COLD :
				SR_REASON_TASK_HOT);
	}
	return 0;
}

enum { A = SR_VERDICT_ALLOW, R = SR_VERDICT_RESIST, U = SR_VERDICT_UNKNOWN,
       N = SR_VERDICT_NOT_APPLICABLE };

static const struct {
	const char	*branch;
	int		nr_cand;
	int		verdict[MAXC];
	int		kernel;		/* index of the task the kernel pulled */
	int		nr_pull;
	unsigned int	flags;
	int		want_verdict;
	int		want_tid;	/* SR_CHOICE_NONE, SR_CHOICE_UNSAID or 100 + i */
	unsigned int	want_first;	/* first reason */
} walk_rows[] = {
	{ "allowed first, the kernel's own", 2, { A, A }, 0, 1, SR_DP_RECONSTRUCTED,
	  A, 100, SR_REASON_TASK_COLD },
	{ "allowed first, before the kernel's", 3, { R, A, A }, 2, 1, SR_DP_RECONSTRUCTED,
	  A, 101, SR_REASON_PULLS_EARLIER },
	{ "kernel's refused, a later one pulled", 3, { R, R, A }, 1, 1, SR_DP_RECONSTRUCTED,
	  A, 102, SR_REASON_PULLS_LATER },
	{ "all refused", 3, { R, R, R }, 0, 1, SR_DP_RECONSTRUCTED,
	  R, SR_CHOICE_NONE, SR_REASON_ALL_REFUSED },
	{ "not-applicable is no pull", 2, { N, N }, 0, 1, SR_DP_RECONSTRUCTED,
	  R, SR_CHOICE_NONE, SR_REASON_ALL_REFUSED },
	{ "fewer allowed than pulled", 3, { A, R, R }, 1, 2, SR_DP_RECONSTRUCTED,
	  R, SR_CHOICE_NONE, SR_REASON_ALL_REFUSED },
	{ "second pull of the pass", 4, { A, R, A, A }, 1, 2, SR_DP_RECONSTRUCTED,
	  A, 102, SR_REASON_PULLS_LATER },
	{ "unknown before the choice", 2, { U, A }, 1, 1, SR_DP_RECONSTRUCTED,
	  U, SR_CHOICE_UNSAID, SR_REASON_MISSING_FIRST + SR_SNAP_BIT_SINCE_RAN },
	{ "unknown after the choice", 2, { A, U }, 0, 1, SR_DP_RECONSTRUCTED,
	  A, 100, SR_REASON_TASK_COLD },
	{ "probe-ordered, the kernel allowed it", 1, { A }, 0, 1, SR_DP_PROBE_ORDER,
	  A, 100, SR_REASON_TASK_COLD },
	{ "probe-ordered, the policy refuses it", 1, { R }, 0, 1, SR_DP_PROBE_ORDER,
	  R, SR_CHOICE_NONE, SR_REASON_ALL_REFUSED },
	/* detach_one_task(): one pull; the running task comes first and is refused */
	{ "active balance", 3, { R, A, A }, 2, 1, SR_DP_RECONSTRUCTED,
	  A, 101, SR_REASON_PULLS_EARLIER },
};

START_TEST(test_walk)
{
	struct sr_snapshot cand[MAXC];
	struct walk_policy pol;
	struct sr_decision_point dp;
	struct sr_verdict out;
	int r = _i, i;

	memset(cand, 0, sizeof(cand));
	for (i = 0; i < MAXC; i++) {
		cand[i].tid = 100 + i;
		cand[i].dst_cpu = 3;
		cand[i].dst_node = 1;
		cand[i].known = SR_SNAP_TID | SR_SNAP_DST_NODE;
	}
	memcpy(pol.verdict, walk_rows[r].verdict, sizeof(pol.verdict));
	dp = (struct sr_decision_point){
		.size = sizeof(dp), .flags = walk_rows[r].flags,
		.snap = &cand[walk_rows[r].kernel], .nr_cand = (uint32_t)walk_rows[r].nr_cand,
		.nr_pull = (uint32_t)walk_rows[r].nr_pull, .cand = cand,
	};
	replay_verdict_init(&out);
	ck_assert_int_eq(replay_candidates_walk(fake_evaluate, &pol, &dp, &out), 0);
	ck_assert_msg(out.verdict == walk_rows[r].want_verdict, "%s: verdict %d, want %d",
		      walk_rows[r].branch, out.verdict, walk_rows[r].want_verdict);
	ck_assert_msg(out.target_tid == walk_rows[r].want_tid, "%s: tid %d, want %d",
		      walk_rows[r].branch, out.target_tid, walk_rows[r].want_tid);
	ck_assert_msg(out.nr_reasons >= 1 && out.reasons[0] == walk_rows[r].want_first,
		      "%s: first reason %u, want %u", walk_rows[r].branch,
		      out.nr_reasons ? out.reasons[0] : 0, walk_rows[r].want_first);
	if (out.target_tid > 0) {
		ck_assert_int_eq(out.target_cpu, 3);
		ck_assert_int_eq(out.target_node, 1);
	}
}
END_TEST

/* an evaluate error stops the walk and comes back */
START_TEST(test_walk_error)
{
	struct sr_snapshot cand[1];
	struct walk_policy pol = { { A } };
	struct sr_decision_point dp = { .size = sizeof(dp), .nr_cand = 1, .nr_pull = 1,
					.cand = cand, .snap = cand };
	struct sr_verdict out;

	memset(cand, 0, sizeof(cand));
	cand[0].tid = 7;	/* not a tid the fake knows */
	replay_verdict_init(&out);
	ck_assert_int_eq(replay_candidates_walk(fake_evaluate, &pol, &dp, &out), -EINVAL);
}
END_TEST

/* ---- the order rebuilt from the model ---------------------------------- */

static struct topo *topo;
static struct model *m;

static void setup(void)
{
	int i;

	topo = topo_new(2, 4);
	ck_assert_ptr_nonnull(topo);
	for (i = 0; i < 4; i++)
		topo->cpu_node[i] = i / 2;
	m = model_new(topo);
	ck_assert_ptr_nonnull(m);
}

static void teardown(void)
{
	model_free(m);
	topo_free(topo);
}

static void feed(const struct sr_event *ev)
{
	ck_assert_int_eq(model_feed(m, ev), 0);
}

static void sw(uint64_t ts, int cpu, int prev, long prev_state, int next, const char *next_comm)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .kind = SR_EV_SWITCH };

	ev.u.sw.prev_pid = prev;
	ev.u.sw.prev_state = prev_state;
	ev.u.sw.next_pid = next;
	strcpy(ev.u.sw.prev_comm, prev ? "task" : "swapper");
	strcpy(ev.u.sw.next_comm, next ? next_comm : "swapper");
	feed(&ev);
}

static void wake(uint64_t ts, int pid, int target)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = target, .kind = SR_EV_WAKEUP };

	ev.u.wake.pid = pid;
	ev.u.wake.target_cpu = target;
	strcpy(ev.u.wake.comm, "task");
	feed(&ev);
}

/*
 * CPU 0: 11 is picked at 100, 14 woken onto it at 150, 12 picked at 200
 * (11 preempted, still queued: a preemption does not move it), 13 woken at
 * 300.  The walk starts at the task least recently enqueued or picked: 11
 * (100), 14 (150), 12 (200), 13 (300).
 */
static void runqueue(void)
{
	sw(100, 0, 0, 0, 11, "task");
	wake(150, 14, 0);
	sw(200, 0, 11, 0, 12, "task");	/* 11 preempted: "R" */
	wake(300, 13, 0);
}

START_TEST(test_order_tail_first)
{
	int tid[SR_MAX_CANDIDATES];
	unsigned int flags;
	int n;

	runqueue();
	n = decision_cand_order(m, 0, 0, 13, tid, &flags);
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(flags, SR_DP_RECONSTRUCTED);
	ck_assert_int_eq(tid[0], 11);
	ck_assert_int_eq(tid[1], 14);
	ck_assert_int_eq(tid[2], 12);	/* running now: listed, can_migrate_task() refuses it */
	ck_assert_int_eq(tid[3], 13);
}
END_TEST

/* an active balance leaves out the task given (the stopper running there) */
START_TEST(test_order_skip_and_added)
{
	int tid[SR_MAX_CANDIDATES];
	unsigned int flags;
	int n;

	runqueue();
	n = decision_cand_order(m, 0, 12, 11, tid, &flags);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(tid[0], 11);
	ck_assert_int_eq(tid[1], 14);
	ck_assert_int_eq(tid[2], 13);
	/* a pulled task the model did not have there is appended, and said so */
	n = decision_cand_order(m, 0, 0, 99, tid, &flags);
	ck_assert_int_eq(n, 5);
	ck_assert_int_eq(tid[4], 99);
	ck_assert_uint_eq(flags, SR_DP_RECONSTRUCTED | SR_DP_PULLED_ADDED);
	/* a stopper is no CFS task: never listed */
	sw(400, 1, 0, 0, 50, "migration/1");
	n = decision_cand_order(m, 1, 0, 0, tid, &flags);
	ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(test_order_truncated)
{
	int tid[SR_MAX_CANDIDATES];
	unsigned int flags;
	int i, n;

	for (i = 0; i < SR_MAX_CANDIDATES + 3; i++)
		wake(1000 + (uint64_t)i, 200 + i, 2);
	n = decision_cand_order(m, 2, 0, 200 + SR_MAX_CANDIDATES + 2, tid, &flags);
	ck_assert_int_eq(n, SR_MAX_CANDIDATES);
	ck_assert(flags & SR_DP_TRUNCATED);
	ck_assert(flags & SR_DP_PULLED_ADDED);	/* beyond the walk: put last */
	ck_assert_int_eq(tid[0], 200);
	ck_assert_int_eq(tid[SR_MAX_CANDIDATES - 1], 200 + SR_MAX_CANDIDATES + 2);
}
END_TEST

/* ---- a pass ------------------------------------------------------------ */

START_TEST(test_pass_joins)
{
	struct decision_pass p = { .src = 0, .dst = 1, .log_cpu = 1, .last_ns = 1000, .nr = 2,
				   .tid = { 5, 6 } };

	ck_assert(decision_pass_joins(&p, 6, 0, 1, 1, 1000 + DECISION_PASS_GAP_NS));
	ck_assert(!decision_pass_joins(&p, 6, 0, 1, 1, 1001 + DECISION_PASS_GAP_NS));
	ck_assert(!decision_pass_joins(&p, 7, 0, 1, 1, 1001));	/* not a candidate */
	ck_assert(!decision_pass_joins(&p, 6, 2, 1, 1, 1001));	/* another source */
	ck_assert(!decision_pass_joins(&p, 6, 0, 1, 0, 1001));	/* logged elsewhere */
	p.taken[1] = true;
	ck_assert(!decision_pass_joins(&p, 6, 0, 1, 1, 1001));	/* pulled already */
	p.active = true;
	ck_assert(!decision_pass_joins(&p, 5, 0, 1, 1, 1001));	/* detach_one_task(): one */
	ck_assert(!decision_pass_joins(NULL, 5, 0, 1, 1, 1001));
}
END_TEST

/* ---- each side's choice from its verdicts ------------------------------ */

static const struct {
	const char	*branch;
	int		cls;
	int		verdict;
	int		target_cpu;
	int		target_node;
	int		cv_tid;		/* -2: no choice verdict (not a decision point) */
	int		want_kind;
	int		want_cpu;
	int		want_tid;
} choice_rows[] = {
	{ "lb pulls a task", SR_DECISION_CLASS_LB_PULL, A, -1, -1, 42,
	  DECISION_CHOICE_TASK, 5, 42 },
	{ "lb pulls nothing", SR_DECISION_CLASS_LB_PULL, R, -1, -1, SR_CHOICE_NONE,
	  DECISION_CHOICE_NONE, -1, 0 },
	{ "lb cannot say", SR_DECISION_CLASS_LB_PULL, U, -1, -1, SR_CHOICE_UNSAID,
	  DECISION_CHOICE_UNKNOWN, -1, 0 },
	{ "lb without candidates, allowed", SR_DECISION_CLASS_LB_ACTIVE, A, -1, -1, -2,
	  DECISION_CHOICE_TASK, 5, 9 },
	{ "lb without candidates, refused", SR_DECISION_CLASS_LB_ACTIVE, R, -1, -1, -2,
	  DECISION_CHOICE_UNKNOWN, -1, 0 },
	{ "placement names its CPU", SR_DECISION_CLASS_EXEC, R, 6, 3, -2,
	  DECISION_CHOICE_PLACE, 6, 0 },
	{ "placement allows the kernel's", SR_DECISION_CLASS_EXEC, A, -1, -1, -2,
	  DECISION_CHOICE_PLACE, 5, 0 },
	{ "placement resists, names nothing", SR_DECISION_CLASS_EXEC, R, -1, -1, -2,
	  DECISION_CHOICE_UNKNOWN, -1, 0 },
	{ "NUMA move resisted: stays", SR_DECISION_CLASS_NUMA_MOVE, R, -1, -1, -2,
	  DECISION_CHOICE_NONE, -1, 0 },
	{ "unknown verdict", SR_DECISION_CLASS_NUMA_SWAP, U, -1, -1, -2,
	  DECISION_CHOICE_UNKNOWN, -1, 0 },
};

START_TEST(test_choice_of)
{
	struct decision d;
	struct sr_verdict v, cv;
	struct decision_choice c;
	int r = _i;

	memset(&d, 0, sizeof(d));
	d.snap.tid = 9;
	d.snap.src_cpu = 1;
	d.snap.dst_cpu = 5;
	d.snap.dst_node = 2;
	d.snap.known = SR_SNAP_DST_NODE | SR_SNAP_CLASS;
	d.snap.decision_class = choice_rows[r].cls;
	replay_verdict_init(&v);
	v.verdict = choice_rows[r].verdict;
	v.target_cpu = choice_rows[r].target_cpu;
	v.target_node = choice_rows[r].target_node;
	cv = v;
	cv.target_tid = choice_rows[r].cv_tid;
	engine_choice_of(&d, &v, choice_rows[r].cv_tid == -2 ? NULL : &cv, &c);
	ck_assert_msg(c.kind == choice_rows[r].want_kind, "%s: kind %d", choice_rows[r].branch,
		      c.kind);
	if (c.kind == DECISION_CHOICE_TASK)
		ck_assert_int_eq(c.tid, choice_rows[r].want_tid);
	if (c.kind == DECISION_CHOICE_TASK || c.kind == DECISION_CHOICE_PLACE)
		ck_assert_int_eq(c.cpu, choice_rows[r].want_cpu);
}
END_TEST

/* what the kernel did, and when two choices are the same */
START_TEST(test_kernel_choice)
{
	struct decision d;
	struct decision_choice k, c;

	memset(&d, 0, sizeof(d));
	d.snap.tid = 9;
	d.snap.dst_cpu = 5;
	d.snap.decision_class = SR_DECISION_CLASS_LB_PULL;
	decision_kernel_choice(&d, &k);
	ck_assert_int_eq(k.kind, DECISION_CHOICE_TASK);
	ck_assert_int_eq(k.tid, 9);
	c = k;
	ck_assert(decision_choice_same(&k, &c));
	c.tid = 10;
	ck_assert(!decision_choice_same(&k, &c));
	d.has_truth = true;
	d.truth = 0;	/* a probe saw the kernel refuse it: it pulled nothing here */
	decision_kernel_choice(&d, &k);
	ck_assert_int_eq(k.kind, DECISION_CHOICE_NONE);
	d.snap.decision_class = SR_DECISION_CLASS_NUMA_STICK;
	decision_kernel_choice(&d, &k);
	ck_assert_int_eq(k.kind, DECISION_CHOICE_NONE);
	d.snap.decision_class = SR_DECISION_CLASS_EXEC;
	decision_kernel_choice(&d, &k);
	ck_assert_int_eq(k.kind, DECISION_CHOICE_PLACE);
	/* a side naming only the node is compared on the node */
	c = (struct decision_choice){ .kind = DECISION_CHOICE_PLACE, .cpu = -1, .node = -1 };
	k.node = 2;
	c.node = 2;
	ck_assert(decision_choice_same(&k, &c));
	c.kind = DECISION_CHOICE_UNKNOWN;
	ck_assert(!decision_choice_same(&c, &c));	/* unknown is never the same */
}
END_TEST

/* ---- passes through the classifier ------------------------------------- */

#define US 1000ull
#define MS (1000ull * US)

struct seen {
	int		cls;
	int		tid;
	int		nr_cand;
	int		nr_pull;
	unsigned int	flags;
	int		cand[SR_MAX_CANDIDATES];
	int		cand_src[SR_MAX_CANDIDATES];
	int		cand_dst[SR_MAX_CANDIDATES];
	int		cand_class[SR_MAX_CANDIDATES];
	bool		cand_clear[SR_MAX_CANDIDATES];	/* zero past the CPUs seen */
};

static struct seen seen[8];
static int nr_seen;
static struct decision_ctx *dctx;

/* the candidates are borrowed for the call: copy their tids */
static int collect_points(const struct decision *dec, void *arg)
{
	struct seen *s = &seen[nr_seen++];
	int i;

	(void)arg;
	ck_assert_int_le(nr_seen, 8);
	s->cls = dec->snap.decision_class;
	s->tid = dec->snap.tid;
	s->nr_cand = dec->nr_cand;
	s->nr_pull = dec->nr_pull;
	s->flags = dec->dp_flags;
	for (i = 0; i < dec->nr_cand && i < SR_MAX_CANDIDATES; i++) {
		const struct sr_snapshot *c = &dec->cand[i];
		int k;

		s->cand[i] = c->tid;
		s->cand_src[i] = c->src_cpu;
		s->cand_dst[i] = c->dst_cpu;
		s->cand_class[i] = c->decision_class;
		s->cand_clear[i] = true;
		for (k = 8; k < SR_PLACE_MAX_CPUS; k++)
			if (c->cpu_nr_running[k] || c->cpu_util[k] || c->cpu_idle_ns[k])
				s->cand_clear[i] = false;
	}
	return 0;
}

static void setup_pipe(void)
{
	topo = check_topo2();
	m = model_new(topo);
	dctx = decision_new(topo, collect_points, NULL);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(dctx);
	nr_seen = 0;
}

static void teardown_pipe(void)
{
	decision_free(dctx);
	model_free(m);
	topo_free(topo);
}

static void pfeed(struct sr_event *ev)
{
	ev->name = ingest_event_kind_name(ev->kind);
	ck_assert_int_eq(decision_feed(dctx, m, ev), 0);
	ck_assert_int_eq(model_feed(m, ev), 0);
}

static void psw(uint64_t ts, int cpu, int prev, long state, int next, const char *comm)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .pid = prev, .kind = SR_EV_SWITCH };

	ev.u.sw.prev_pid = prev;
	ev.u.sw.prev_state = state;
	ev.u.sw.prev_prio = 120;
	ev.u.sw.next_pid = next;
	ev.u.sw.next_prio = 120;
	snprintf(ev.u.sw.next_comm, sizeof(ev.u.sw.next_comm), "%s", comm);
	pfeed(&ev);
}

static void pwake(uint64_t ts, int cpu, int pid, const char *comm)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .pid = 0, .kind = SR_EV_WAKEUP };

	ev.u.wake.pid = pid;
	ev.u.wake.prio = 120;
	ev.u.wake.target_cpu = cpu;
	snprintf(ev.u.wake.comm, sizeof(ev.u.wake.comm), "%s", comm);
	pfeed(&ev);
}

/* @cur: the task that logged it (common_pid), 0 for the idle task */
static void pmig(uint64_t ts, int log_cpu, int cur, int pid, int from, int to)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = log_cpu, .pid = cur, .kind = SR_EV_MIGRATE };

	ev.u.mig.pid = pid;
	ev.u.mig.prio = 120;
	ev.u.mig.orig_cpu = from;
	ev.u.mig.dest_cpu = to;
	snprintf(ev.u.mig.comm, sizeof(ev.u.mig.comm), "t%d", pid);
	pfeed(&ev);
}

/* CPU 0 runs 10 with 11 and 12 queued; the idle CPU 2 pulls */
static void busy_cpu0(void)
{
	psw(1 * MS, 0, 0, 0, 10, "t10");
	psw(1 * MS, 1, 0, 0, 0, "swapper/1");
	psw(1 * MS, 2, 0, 0, 0, "swapper/2");
	psw(1 * MS, 3, 0, 0, 0, "swapper/3");
	pwake(1 * MS + 100 * US, 0, 11, "t11");
	pwake(1 * MS + 200 * US, 0, 12, "t12");
}

/* two pulls back to back are one pass: the second is its second pull */
START_TEST(test_pass_two_pulls)
{
	busy_cpu0();
	pmig(3 * MS, 2, 0, 11, 0, 2);
	pmig(3 * MS + 10 * US, 2, 0, 12, 0, 2);
	ck_assert_int_eq(decision_finish(dctx), 0);
	ck_assert_int_eq(nr_seen, 2);
	ck_assert_int_eq(seen[0].cls, SR_DECISION_CLASS_LB_PULL);
	ck_assert_int_eq(seen[0].nr_pull, 1);
	ck_assert_int_eq(seen[1].nr_pull, 2);
	ck_assert_uint_eq(seen[0].flags, SR_DP_RECONSTRUCTED);
	/* the walk as the model had it before the pass: 10 (picked at 1 ms), 11, 12 */
	ck_assert_int_eq(seen[0].nr_cand, 3);
	ck_assert_int_eq(seen[1].nr_cand, 3);
	ck_assert_int_eq(seen[0].cand[0], 10);
	ck_assert_int_eq(seen[0].cand[1], 11);
	ck_assert_int_eq(seen[0].cand[2], 12);
	ck_assert_int_eq(seen[1].cand[2], 12);
}
END_TEST

/*
 * A CPU seen for the first time in the middle of a pass widens the
 * snapshots' layout: the pass's candidates, stored under the layout it
 * began with, come out of the second pull whole all the same
 */
START_TEST(test_pass_layout_widens)
{
	int i;

	busy_cpu0();
	pmig(3 * MS, 2, 0, 11, 0, 2);
	ck_assert_int_eq(topo_grow_cpus(topo, 8), 0);
	psw(3 * MS + 5 * US, 6, 0, 0, 0, "swapper/6");
	pmig(3 * MS + 10 * US, 2, 0, 12, 0, 2);
	ck_assert_int_eq(decision_finish(dctx), 0);
	ck_assert_int_eq(nr_seen, 2);
	ck_assert_int_eq(seen[1].nr_pull, 2);
	ck_assert_int_eq(seen[1].nr_cand, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(seen[1].cand[i], 10 + i);
		ck_assert_int_eq(seen[1].cand_src[i], 0);
		ck_assert_int_eq(seen[1].cand_dst[i], 2);
		ck_assert_int_eq(seen[1].cand_class[i], seen[1].cls);
		ck_assert(seen[1].cand_clear[i]);
	}
}
END_TEST

/* a gap longer than DECISION_PASS_GAP_NS starts another pass */
START_TEST(test_pass_gap)
{
	busy_cpu0();
	pmig(3 * MS, 2, 0, 11, 0, 2);
	pmig(3 * MS + DECISION_PASS_GAP_NS + 1, 2, 0, 12, 0, 2);
	ck_assert_int_eq(decision_finish(dctx), 0);
	ck_assert_int_eq(nr_seen, 2);
	ck_assert_int_eq(seen[1].nr_pull, 1);
	/* 11 has left CPU 0 by then */
	ck_assert_int_eq(seen[1].nr_cand, 2);
	ck_assert_int_eq(seen[1].cand[0], 10);
	ck_assert_int_eq(seen[1].cand[1], 12);
}
END_TEST

/* an active balance: the stopper running on the source is no candidate */
START_TEST(test_pass_active)
{
	busy_cpu0();
	psw(2 * MS, 0, 10, 0, 30, "migration/0");
	pmig(3 * MS, 0, 30, 10, 0, 2);	/* logged by migration/0 */
	ck_assert_int_eq(decision_finish(dctx), 0);
	ck_assert_int_eq(nr_seen, 1);
	ck_assert_int_eq(seen[0].cls, SR_DECISION_CLASS_LB_ACTIVE);
	ck_assert_int_eq(seen[0].nr_pull, 1);
	ck_assert_int_eq(seen[0].nr_cand, 3);
	/*
	 * 10, preempted by the stopper, went to the head when picked at 1 ms;
	 * 11 and 12 were enqueued in front of it since: it is at the tail
	 */
	ck_assert_int_eq(seen[0].cand[0], 10);
	ck_assert_int_eq(seen[0].cand[1], 11);
	ck_assert_int_eq(seen[0].cand[2], 12);
}
END_TEST

static Suite *candidates_suite(void)
{
	Suite *s = suite_create("candidates");
	TCase *tc = tcase_create("walk");

	tcase_add_loop_test(tc, test_walk, 0, (int)(sizeof(walk_rows) / sizeof(walk_rows[0])));
	tcase_add_test(tc, test_walk_error);
	tcase_add_loop_test(tc, test_choice_of, 0,
			    (int)(sizeof(choice_rows) / sizeof(choice_rows[0])));
	tcase_add_test(tc, test_kernel_choice);
	tcase_add_test(tc, test_pass_joins);
	suite_add_tcase(s, tc);
	tc = tcase_create("order");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_order_tail_first);
	tcase_add_test(tc, test_order_skip_and_added);
	tcase_add_test(tc, test_order_truncated);
	suite_add_tcase(s, tc);
	tc = tcase_create("passes");
	tcase_add_checked_fixture(tc, setup_pipe, teardown_pipe);
	tcase_add_test(tc, test_pass_two_pulls);
	tcase_add_test(tc, test_pass_gap);
	tcase_add_test(tc, test_pass_active);
	tcase_add_test(tc, test_pass_layout_widens);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(candidates_suite)
