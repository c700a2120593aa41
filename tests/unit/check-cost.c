// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-cost.c - the cost model's functions on hand-computed examples (a
 * two-node machine, a four-node one with equal remote distances, and the
 * seed 002 `numactl -H` matrix), and the ledger: a decision priced over
 * the interval until the task's next decision, with the faults in it.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "check-common.h"
#include "check-topo2.h"
#include "cost/cost-ledger.h"
#include "model/model.h"
#include "topo/topo.h"

#define EPS 1e-9

static const int dist2[4] = { 10, 20, 20, 10 };
/* seed 002's "node distances" (fixtures/topo/seed002-numactl-H.txt) */
static const int seed002[16] = {
	10, 20, 40, 40,
	20, 10, 40, 40,
	40, 40, 10, 20,
	40, 40, 20, 10,
};
static const int direct4[16] = {
	10, 20, 20, 20,
	20, 10, 20, 20,
	20, 20, 10, 20,
	20, 20, 20, 10,
};

/* r(c,k) of the high prior from a distance matrix */
static const double *ratios(const int *dist, int n)
{
	static double r[16];
	int a, b;

	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++)
			r[a * n + b] = cost_ratio_from_distance(dist, n, a, b);
	return r;
}

START_TEST(shares_normalise)
{
	uint64_t f[2] = { 300, 100 };
	uint64_t z[3] = { 0, 0, 0 };
	double s[3] = { 9, 9, 9 };

	ck_assert_int_eq(cost_shares(f, 2, s), 0);
	ck_assert_double_eq_tol(s[0], 0.75, EPS);
	ck_assert_double_eq_tol(s[1], 0.25, EPS);
	ck_assert_int_eq(cost_shares(z, 3, s), -ENODATA);
	ck_assert_double_eq(s[0] + s[1] + s[2], 0);
	ck_assert_int_eq(cost_shares(f, 0, s), -EINVAL);
}
END_TEST

START_TEST(price_two_nodes)
{
	double s[2] = { 0.75, 0.25 }, r, w;

	/* on node 0: 1/4 remote; 0.75 * 10/10 + 0.25 * 20/10 = 1.25 */
	ck_assert_int_eq(cost_price(s, 2, dist2, 0, &r, &w), 0);
	ck_assert_double_eq_tol(r, 0.25, EPS);
	ck_assert_double_eq_tol(w, 1.25, EPS);
	/* on node 1: 3/4 remote; 0.75 * 2 + 0.25 * 1 = 1.75 */
	ck_assert_int_eq(cost_price(s, 2, dist2, 1, &r, &w), 0);
	ck_assert_double_eq_tol(r, 0.75, EPS);
	ck_assert_double_eq_tol(w, 1.75, EPS);
	ck_assert_int_eq(cost_price(s, 2, dist2, 2, &r, &w), -EINVAL);
	ck_assert_int_eq(cost_price(s, 2, dist2, -1, &r, &w), -EINVAL);
}
END_TEST

START_TEST(price_seed002)
{
	uint64_t f[4] = { 10, 20, 30, 40 };
	double s[4], r, w;

	ck_assert_int_eq(cost_shares(f, 4, s), 0);
	/* node 0: 0.1*1 + 0.2*2 + 0.3*4 + 0.4*4 = 3.3, remote 0.9 */
	ck_assert_int_eq(cost_price(s, 4, seed002, 0, &r, &w), 0);
	ck_assert_double_eq_tol(w, 3.3, EPS);
	ck_assert_double_eq_tol(r, 0.9, EPS);
	/* node 3: 0.1*4 + 0.2*4 + 0.3*2 + 0.4*1 = 2.2, remote 0.6 */
	ck_assert_int_eq(cost_price(s, 4, seed002, 3, &r, &w), 0);
	ck_assert_double_eq_tol(w, 2.2, EPS);
	ck_assert_double_eq_tol(r, 0.6, EPS);
	/* node 2: 0.1*4 + 0.2*4 + 0.3*1 + 0.4*2 = 2.3 */
	ck_assert_int_eq(cost_price(s, 4, seed002, 2, &r, &w), 0);
	ck_assert_double_eq_tol(w, 2.3, EPS);
	/* equal remote distances: node 2 is 0.1*2 + 0.2*2 + 0.3 + 0.4*2 = 1.7 */
	ck_assert_int_eq(cost_price(s, 4, direct4, 2, &r, &w), 0);
	ck_assert_double_eq_tol(w, 1.7, EPS);
	ck_assert_double_eq_tol(r, 0.7, EPS);
}
END_TEST

START_TEST(cost_of_accumulated)
{
	double acc[4] = { 0 }, s[4] = { 0.5, 0.5, 0, 0 };
	struct cost_value v;
	int bad[4] = { 10, 0, 0, 10 };

	/* 40 accesses, 3/4 on node 0 */
	cost_accumulate(acc, (double[]){ 0.75, 0.25 }, 2, 40);
	cost_of(acc, 2, ratios(dist2, 2), 1, &v);
	ck_assert(v.known);
	ck_assert_double_eq_tol(v.accesses, 40, EPS);
	ck_assert_double_eq_tol(v.remote, 30, EPS);
	ck_assert_double_eq_tol(v.weighted, 30 * 2 + 10, EPS);
	cost_of(acc, 2, ratios(dist2, 2), 0, &v);
	ck_assert_double_eq_tol(v.remote, 10, EPS);
	ck_assert_double_eq_tol(v.weighted, 30 + 10 * 2, EPS);
	cost_of(acc, 2, ratios(dist2, 2), -1, &v);
	ck_assert(!v.known);
	cost_of(acc, 2, ratios(bad, 2), 0, &v);	/* a distance it needs is missing */
	ck_assert(!v.known);

	/* seed 002: 10 accesses half on 0, half on 1, run on node 2: all remote at 40 */
	memset(acc, 0, sizeof(acc));
	cost_accumulate(acc, s, 4, 10);
	cost_of(acc, 4, ratios(seed002, 4), 2, &v);
	ck_assert_double_eq_tol(v.remote, 10, EPS);
	ck_assert_double_eq_tol(v.weighted, 40, EPS);
	cost_of(acc, 4, ratios(seed002, 4), 1, &v);
	ck_assert_double_eq_tol(v.remote, 5, EPS);
	ck_assert_double_eq_tol(v.weighted, 5 * 2 + 5, EPS);
	/* no accesses: a known zero */
	memset(acc, 0, sizeof(acc));
	cost_of(acc, 4, ratios(seed002, 4), 1, &v);
	ck_assert(v.known);
	ck_assert_double_eq(v.weighted, 0);
}
END_TEST

START_TEST(ratio_and_low_prior)
{
	/* SLIT 21 vs 10: 2.1 high; the low prior is the measured 1.53 it comes from */
	const int slit[4] = { 10, 21, 21, 10 };
	double acc[2] = { 0, 100 };
	struct cost_value v;

	ck_assert_double_eq_tol(cost_ratio_from_distance(slit, 2, 0, 1), 2.1, EPS);
	ck_assert_double_eq_tol(cost_ratio_from_distance(slit, 2, 1, 1), 1, EPS);
	ck_assert_double_eq(cost_ratio_from_distance(slit, 2, 0, 2), -1);
	ck_assert_double_eq(cost_ratio_from_distance((int[]){ 0, 20, 20, 10 }, 2, 0, 1), -1);
	/* 100 remote accesses: 210 at the high prior, 153 at the low one */
	cost_of(acc, 2, ratios(slit, 2), 0, &v);
	ck_assert_double_eq_tol(v.weighted, 210, 1e-6);
	ck_assert_double_eq_tol(cost_weighted_low(v.accesses, v.weighted), 153, 1e-6);
	/* local accesses cost 1 under either prior */
	ck_assert_double_eq_tol(cost_weighted_low(100, 100), 100, EPS);
	/* a difference over the same accesses: the excess scales */
	ck_assert_double_eq_tol(cost_weighted_low(0, 110), 53, 1e-6);
}
END_TEST

START_TEST(rate_and_share)
{
	/* decayed sum 2000 = 2N: N = 1000 per 200 ms = 5000/s */
	ck_assert_double_eq_tol(cost_rate_from_decayed(2000, 200ull * 1000 * 1000), 5000, EPS);
	ck_assert_double_eq(cost_rate_from_decayed(2000, 0), 0);
	ck_assert_double_eq_tol(cost_share(1, 4), 0.25, EPS);
	ck_assert_double_eq(cost_share(1, 0), -1);
}
END_TEST

/* ---- the ledger ----------------------------------------------------------- */

static struct cost_item items[16];
static int nr_items;

static int take(const struct cost_item *it, void *arg)
{
	(void)arg;
	ck_assert_int_lt(nr_items, 16);
	items[nr_items++] = *it;
	return 0;
}

static void step(struct cost_ledger *l, struct model *m, struct sr_event *ev)
{
	ev->name = ingest_event_kind_name(ev->kind);
	ck_assert_int_eq(cost_ledger_feed(l, m, ev), 0);
	ck_assert_int_eq(model_feed(m, ev), 0);
}

static void sample(struct cost_ledger *l, struct model *m, uint64_t ts, const char *txt)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = 0, .pid = 50, .kind = SR_EV_PRINT,
			       .marker = SR_MARK_NUMA_SAMPLE, .str = txt,
			       .str_len = (uint32_t)strlen(txt) };

	step(l, m, &ev);
}

static void fault(struct cost_ledger *l, struct model *m, uint64_t ts, int cpu, int node,
		  int flags)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .pid = 100, .kind = SR_EV_NUMA_FAULT };

	ev.u.fault.mem_node = node;
	ev.u.fault.pages = 1;
	ev.u.fault.flags = flags;
	ev.u.fault.last_cpupid = -1;
	step(l, m, &ev);
}

static void migrate(struct cost_ledger *l, struct model *m, uint64_t ts, int from, int to)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = from, .pid = 0, .kind = SR_EV_MIGRATE };

	ev.u.mig.pid = 100;
	ev.u.mig.orig_cpu = from;
	ev.u.mig.dest_cpu = to;
	strcpy(ev.u.mig.comm, "t");
	step(l, m, &ev);
}

static void decide(struct cost_ledger *l, uint64_t seq, uint64_t ts, int src_node, int dst_node,
		   int old_node, int new_node)
{
	struct decision d = { 0 };
	int node[COST__SIDES] = { old_node, new_node, dst_node };

	d.seq = seq;
	d.snap.ts_ns = ts;
	d.snap.tid = 100;
	d.snap.decision_class = SR_DECISION_CLASS_LB_PULL;
	d.snap.src_node = src_node;
	d.snap.dst_node = dst_node;
	d.snap.known = SR_SNAP_SRC_NODE | SR_SNAP_DST_NODE | SR_SNAP_CLASS;
	ck_assert_int_eq(cost_ledger_decide(l, &d, node, NULL), 0);
}

/*
 * check_topo2(), or (@wide) the same CPUs in a 10-node topology whose
 * other nodes hold none: more nodes than the ledger keeps an interval's
 * accesses for in place, so they are allocated
 */
static struct topo *ledger_topo(bool wide)
{
	struct topo *t;
	int a, b;

	if (!wide)
		return check_topo2();
	t = topo_new(10, 4);
	ck_assert_ptr_nonnull(t);
	t->cpu_node[0] = t->cpu_node[1] = 0;
	t->cpu_node[2] = t->cpu_node[3] = 1;
	for (a = 0; a < 10; a++)
		for (b = 0; b < 10; b++)
			t->distance[a * 10 + b] = a == b ? 10 : 20;
	return t;
}

START_TEST(ledger_prices_interval)
{
	struct topo *t = ledger_topo(_i == 1);
	int n = t->nr_nodes;
	struct model *m = model_new(t);
	struct cost_ledger *l = cost_ledger_new(t, take, NULL, NULL);
	const struct cost_totals *tot;

	nr_items = 0;
	/* the kernel's numbers: 3/4 of the task's memory on node 0 */
	sample(l, m, 1000, "numa_sample t=1 seq=0 pid=100 tid=100 comm=t cpu=0 pref=0 node=0 "
		"grp=0 tf=400 mig=0 scan=1 f=0:300/0/0/0,1:100/0/0/0");
	fault(l, m, 2000, 0, 0, MODEL_TNF_FAULT_LOCAL);		/* before any decision */
	migrate(l, m, 10000, 0, 2);				/* node 0 -> node 1 */
	fault(l, m, 11000, 2, 0, 0);
	fault(l, m, 12000, 2, 0, 0);
	/* the decision arrives late, as the classifier emits it */
	decide(l, 0, 10000, 0, 1, 0, 1);
	ck_assert_int_eq(nr_items, 0);		/* its interval is still open */
	fault(l, m, 13000, 2, 1, MODEL_TNF_FAULT_LOCAL);
	fault(l, m, 14000, 2, 0, 0);
	migrate(l, m, 20000, 2, 0);				/* the next decision: closes it */
	ck_assert_int_eq(nr_items, 1);
	ck_assert_uint_eq(items[0].seq, 0);
	ck_assert_uint_eq(items[0].end_ns - items[0].start_ns, 10000);
	ck_assert_int_eq(items[0].unknown, COST_UNKNOWN_NONE);
	/* 4 faults, each 3/4 node 0: from node 0 (old) 1 remote, weighted 3 + 2 = 5 */
	ck_assert(items[0].v[COST_OLD].known);
	ck_assert_double_eq_tol(items[0].v[COST_OLD].accesses, 4, EPS);
	ck_assert_double_eq_tol(items[0].v[COST_OLD].remote, 1, EPS);
	ck_assert_double_eq_tol(items[0].v[COST_OLD].weighted, 5, EPS);
	/* from node 1 (new and what the kernel did): 3 remote, 3 * 2 + 1 = 7 */
	ck_assert_double_eq_tol(items[0].v[COST_NEW].remote, 3, EPS);
	ck_assert_double_eq_tol(items[0].v[COST_NEW].weighted, 7, EPS);
	ck_assert_double_eq_tol(items[0].v[COST_TRACE].weighted, 7, EPS);

	/* the faults before the first decision, and the last interval: no decision */
	ck_assert_int_eq(cost_ledger_finish(l, 30000), 0);
	tot = cost_ledger_totals(l);
	ck_assert_uint_eq(tot->decisions, 1);
	ck_assert_uint_eq(tot->dropped_intervals, 2);
	ck_assert_double_eq_tol(tot->matrix[COST_NEW][1 * n + 0], 3, EPS);
	ck_assert_double_eq_tol(tot->matrix[COST_NEW][1 * n + 1], 1, EPS);
	/* calibration: 5 faults priced, local shares 3/4 (node 0) + 4 x 1/4 (node 1) */
	ck_assert_uint_eq(tot->cal.faults, 5);
	ck_assert_uint_eq(tot->cal.flag_local, 2);
	ck_assert_uint_eq(tot->cal.priced, 5);
	ck_assert_double_eq_tol(tot->cal.est_local, 0.75 + 4 * 0.25, EPS);
	cost_ledger_free(l);
	model_free(m);
	topo_free(t);
}
END_TEST

static void fault_of(struct cost_ledger *l, struct model *m, int pid, uint64_t ts, int cpu,
		     int node)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .pid = pid, .kind = SR_EV_NUMA_FAULT };

	ev.u.fault.mem_node = node;
	ev.u.fault.pages = 1;
	ev.u.fault.last_cpupid = -1;
	step(l, m, &ev);
}

static void migrate_of(struct cost_ledger *l, struct model *m, int pid, uint64_t ts, int from,
		       int to)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = to, .pid = 0, .kind = SR_EV_MIGRATE };

	ev.u.mig.pid = pid;
	ev.u.mig.orig_cpu = from;
	ev.u.mig.dest_cpu = to;
	strcpy(ev.u.mig.comm, "t");
	step(l, m, &ev);
}

/*
 * A pull the sides choose differently: the kernel (and old) pull X = 100
 * from node 1 to node 0, new pulls Y = 200 instead.  Each side prices both
 * tasks: X until its next decision, Y from the pass until its own, its
 * faults between the pass and the (late) decision included.
 */
START_TEST(ledger_prices_other_task)
{
	struct topo *t = check_topo2();
	struct model *m = model_new(t);
	struct cost_ledger *l = cost_ledger_new(t, take, NULL, NULL);
	const struct cost_totals *tot;
	struct decision d = { 0 };
	struct cost_part_in parts[2] = {
		{ .tid = 100, .from_node = 1, .node = { 0, 1, 0 } },	/* old pulls X, new leaves it */
		{ .tid = 200, .from_node = 1, .node = { 1, 0, 1 } },	/* new pulls Y */
	};
	const struct cost_item *it;

	nr_items = 0;
	sample(l, m, 1000, "numa_sample t=1 seq=0 pid=100 tid=100 comm=x cpu=2 pref=0 node=1 "
		"grp=0 tf=400 mig=0 scan=1 f=0:300/0/0/0,1:100/0/0/0");
	sample(l, m, 1500, "numa_sample t=1 seq=1 pid=200 tid=200 comm=y cpu=2 pref=0 node=1 "
		"grp=0 tf=400 mig=0 scan=1 f=0:400/0/0/0,1:0/0/0/0");
	fault_of(l, m, 200, 5000, 2, 0);		/* before the pass: not Y's part */
	migrate_of(l, m, 100, 10000, 2, 0);		/* the kernel pulls X */
	fault_of(l, m, 200, 11000, 2, 0);		/* after it, before the decision comes */
	fault_of(l, m, 100, 11000, 0, 0);
	d.seq = 7;
	d.snap.ts_ns = 10000;
	d.snap.tid = 100;
	d.snap.decision_class = SR_DECISION_CLASS_LB_PULL;
	d.snap.src_node = 1;
	d.snap.dst_node = 0;
	d.snap.known = SR_SNAP_SRC_NODE | SR_SNAP_DST_NODE | SR_SNAP_CLASS;
	ck_assert_int_eq(cost_ledger_decide_parts(l, &d, parts, 2, NULL), 0);
	fault_of(l, m, 200, 13000, 2, 0);
	fault_of(l, m, 200, 14000, 2, 0);
	fault_of(l, m, 100, 15000, 0, 0);
	migrate_of(l, m, 200, 20000, 2, 3);		/* Y's next decision: its part closes */
	fault_of(l, m, 200, 21000, 3, 0);		/* after it: not priced */
	ck_assert_int_eq(nr_items, 0);			/* X's interval is still open */
	migrate_of(l, m, 100, 25000, 0, 1);		/* X's next decision */
	ck_assert_int_eq(nr_items, 1);
	it = &items[0];
	ck_assert_uint_eq(it->seq, 7);
	ck_assert_int_eq(it->unknown, COST_UNKNOWN_NONE);
	ck_assert_int_eq(it->nr_parts, 2);
	ck_assert_int_eq(it->part[0].tid, 100);
	ck_assert_int_eq(it->part[1].tid, 200);
	ck_assert_uint_eq(it->part[0].end_ns - it->part[0].start_ns, 15000);
	ck_assert_uint_eq(it->part[1].start_ns, 10000);
	ck_assert_uint_eq(it->part[1].end_ns, 20000);
	ck_assert_int_eq(it->part[1].end, COST_END_NEXT);
	ck_assert(!it->part[1].short_history);
	/* X: 2 faults, 3/4 on node 0: on node 0 weighted 1.5 + 0.5 x 2, on node 1 0.5 + 1.5 x 2 */
	ck_assert_double_eq_tol(it->part[0].v[COST_OLD].weighted, 2.5, EPS);
	ck_assert_double_eq_tol(it->part[0].v[COST_NEW].weighted, 3.5, EPS);
	/* Y: 3 faults, all node 0: left on node 1 (old, the kernel) 6, pulled to node 0 (new) 3 */
	ck_assert_double_eq_tol(it->part[1].v[COST_OLD].accesses, 3, EPS);
	ck_assert_double_eq_tol(it->part[1].v[COST_OLD].weighted, 6, EPS);
	ck_assert_double_eq_tol(it->part[1].v[COST_NEW].weighted, 3, EPS);
	ck_assert_double_eq_tol(it->part[1].v[COST_TRACE].remote, 3, EPS);
	/* each side: the sum of its parts */
	ck_assert_double_eq_tol(it->v[COST_OLD].weighted, 8.5, EPS);
	ck_assert_double_eq_tol(it->v[COST_NEW].weighted, 6.5, EPS);
	ck_assert_double_eq_tol(it->v[COST_TRACE].weighted, 8.5, EPS);
	ck_assert_double_eq_tol(it->v[COST_NEW].remote - it->v[COST_OLD].remote, 1.5 - 3.5, EPS);
	ck_assert_int_eq(cost_ledger_finish(l, 30000), 0);
	tot = cost_ledger_totals(l);
	ck_assert_uint_eq(tot->parts, 1);
	ck_assert_double_eq_tol(tot->pair.v[COST_NEW].weighted - tot->pair.v[COST_OLD].weighted, -2,
				EPS);
	/* new's matrix: Y's 3 accesses on row node 0, X's 1.5 + 0.5 on row node 1 */
	ck_assert_double_eq_tol(tot->matrix[COST_NEW][0 * 2 + 0], 3, EPS);
	ck_assert_double_eq_tol(tot->matrix[COST_NEW][1 * 2 + 0], 1.5, EPS);
	cost_ledger_free(l);
	model_free(m);
	topo_free(t);
}
END_TEST

/* the other task's next decision came before the ledger was told: its part ends there */
START_TEST(ledger_other_task_closed_early)
{
	struct topo *t = check_topo2();
	struct model *m = model_new(t);
	struct cost_ledger *l = cost_ledger_new(t, take, NULL, NULL);
	struct decision d = { 0 };
	struct cost_part_in parts[2] = {
		{ .tid = 100, .from_node = 1, .node = { 0, 1, 0 } },
		{ .tid = 200, .from_node = 1, .node = { 1, 0, 1 } },
	};

	nr_items = 0;
	sample(l, m, 1000, "numa_sample t=1 seq=0 pid=100 tid=100 comm=x cpu=2 pref=0 node=1 "
		"grp=0 tf=400 mig=0 scan=1 f=0:300/0/0/0,1:100/0/0/0");
	sample(l, m, 1500, "numa_sample t=1 seq=1 pid=200 tid=200 comm=y cpu=2 pref=0 node=1 "
		"grp=0 tf=400 mig=0 scan=1 f=0:400/0/0/0,1:0/0/0/0");
	migrate_of(l, m, 100, 10000, 2, 0);
	fault_of(l, m, 200, 11000, 2, 0);
	migrate_of(l, m, 200, 12000, 2, 3);		/* Y's next decision, before ours came */
	fault_of(l, m, 200, 13000, 3, 0);
	d.seq = 3;
	d.snap.ts_ns = 10000;
	d.snap.tid = 100;
	d.snap.decision_class = SR_DECISION_CLASS_LB_PULL;
	d.snap.src_node = 1;
	d.snap.dst_node = 0;
	d.snap.known = SR_SNAP_SRC_NODE | SR_SNAP_DST_NODE | SR_SNAP_CLASS;
	ck_assert_int_eq(cost_ledger_decide_parts(l, &d, parts, 2, NULL), 0);
	ck_assert_int_eq(nr_items, 0);
	ck_assert_int_eq(cost_ledger_finish(l, 30000), 0);	/* X's interval: to the end */
	ck_assert_int_eq(nr_items, 1);
	ck_assert_int_eq(items[0].part[1].end, COST_END_NEXT);
	ck_assert_uint_eq(items[0].part[1].end_ns, 12000);
	ck_assert_double_eq_tol(items[0].part[1].v[COST_OLD].accesses, 1, EPS);
	ck_assert_double_eq_tol(items[0].part[1].v[COST_NEW].weighted, 1, EPS);
	ck_assert_int_eq(items[0].part[0].end, COST_END_TRACE);
	cost_ledger_free(l);
	model_free(m);
	topo_free(t);
}
END_TEST

/* the same interval as ledger_prices_interval, priced with a profile */
START_TEST(ledger_measured_profile)
{
	struct topo *t = check_topo2();
	struct topo_latency *lat = topo_latency_new(2);
	struct model *m;
	struct cost_ledger *l;
	const struct cost_totals *tot;
	struct err e = { 0 };

	/* node 0: local 80 ns, remote 120 (1.5x); node 1: local 100, remote 130 (1.3x) */
	ck_assert_ptr_nonnull(lat);
	lat->ns[0] = 80;
	lat->ns[1] = 120;
	lat->ns[2] = 130;
	lat->ns[3] = 100;
	ck_assert_int_eq(topo_attach_latency(t, lat, &e), 0);
	m = model_new(t);
	l = cost_ledger_new(t, take, NULL, NULL);
	tot = cost_ledger_totals(l);
	ck_assert_int_eq(tot->latency, COST_LATENCY_MEASURED);
	ck_assert_int_eq(tot->latency_missing, 0);
	ck_assert_double_eq_tol(tot->ratio[1], 1.5, EPS);
	ck_assert_double_eq_tol(tot->ratio[2], 1.3, EPS);
	nr_items = 0;
	sample(l, m, 1000, "numa_sample t=1 seq=0 pid=100 tid=100 comm=t cpu=0 pref=0 node=0 "
		"grp=0 tf=400 mig=0 scan=1 f=0:300/0/0/0,1:100/0/0/0");
	migrate(l, m, 10000, 0, 2);
	decide(l, 0, 10000, 0, 1, 0, 1);
	fault(l, m, 11000, 2, 0, 0);
	fault(l, m, 12000, 2, 0, 0);
	fault(l, m, 13000, 2, 1, MODEL_TNF_FAULT_LOCAL);
	fault(l, m, 14000, 2, 0, 0);
	migrate(l, m, 20000, 2, 0);
	ck_assert_int_eq(nr_items, 1);
	/* 4 faults, 3/4 on node 0: from node 0, 3 + 1 x 1.5 = 4.5 (SLIT: 5) */
	ck_assert_double_eq_tol(items[0].v[COST_OLD].remote, 1, EPS);
	ck_assert_double_eq_tol(items[0].v[COST_OLD].weighted, 4.5, EPS);
	/* from node 1, 3 x 1.3 + 1 = 4.9 (SLIT: 7): the remote price follows the row */
	ck_assert_double_eq_tol(items[0].v[COST_NEW].remote, 3, EPS);
	ck_assert_double_eq_tol(items[0].v[COST_NEW].weighted, 4.9, EPS);
	cost_ledger_free(l);
	model_free(m);

	/* a profile lacking a pair a task can run on: the priors price everything */
	lat = topo_latency_new(2);
	ck_assert_ptr_nonnull(lat);
	lat->ns[0] = 80;
	lat->ns[1] = 120;
	lat->ns[3] = 100;
	ck_assert_int_eq(topo_attach_latency(t, lat, &e), 0);
	l = cost_ledger_new(t, take, NULL, NULL);
	tot = cost_ledger_totals(l);
	ck_assert_int_eq(tot->latency, COST_LATENCY_PRIOR);
	ck_assert_int_eq(tot->latency_missing, 1);
	ck_assert_double_eq_tol(tot->ratio[1], 2, EPS);
	cost_ledger_free(l);
	/* a profile of another size is refused */
	lat = topo_latency_new(3);
	ck_assert_int_eq(topo_attach_latency(t, lat, &e), -SR_EBADTOPO);
	topo_latency_free(lat);
	topo_free(t);
}
END_TEST

START_TEST(ledger_without_faults)
{
	struct topo *t = check_topo2();
	struct model *m = model_new(t);
	struct cost_ledger *l = cost_ledger_new(t, take, NULL, NULL);

	nr_items = 0;
	migrate(l, m, 10000, 0, 2);
	decide(l, 0, 10000, 0, 1, 0, 1);
	/* the task exits: the interval ends there */
	{
		struct sr_event ev = { .ts_ns = 15000, .cpu = 2, .pid = 100, .kind = SR_EV_EXIT };

		ev.u.exit.pid = 100;
		step(l, m, &ev);
	}
	ck_assert_int_eq(nr_items, 1);
	ck_assert_int_eq(items[0].unknown, COST_UNKNOWN_NO_FAULTS);
	ck_assert_int_eq(items[0].end, COST_END_EXIT);
	ck_assert(!items[0].v[COST_OLD].known);
	ck_assert_uint_eq(cost_ledger_totals(l)->unknown[COST_UNKNOWN_NO_FAULTS], 1);
	cost_ledger_free(l);
	model_free(m);
	topo_free(t);
}
END_TEST

static Suite *cost_suite(void)
{
	Suite *s = suite_create("cost");
	TCase *tc = tcase_create("functions");

	tcase_add_test(tc, shares_normalise);
	tcase_add_test(tc, price_two_nodes);
	tcase_add_test(tc, price_seed002);
	tcase_add_test(tc, cost_of_accumulated);
	tcase_add_test(tc, ratio_and_low_prior);
	tcase_add_test(tc, rate_and_share);
	suite_add_tcase(s, tc);
	tc = tcase_create("ledger");
	tcase_add_loop_test(tc, ledger_prices_interval, 0, 2);
	tcase_add_test(tc, ledger_prices_other_task);
	tcase_add_test(tc, ledger_other_task_closed_early);
	tcase_add_test(tc, ledger_measured_profile);
	tcase_add_test(tc, ledger_without_faults);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(cost_suite)
