// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-faults.c - the model's fault model (src/model/model-faults.c):
 * decay once per scan epoch with the current fault added after placement,
 * the preferred node (ties to the lowest node), samples winning and the
 * gap counted, tasks from before the trace unknown until their history
 * has decayed, group active nodes, misplaced pages per node, and the scan
 * period from the schedreplay_sysctl line.
 */
#include <string.h>

#include "check-common.h"
#include "check-topo2.h"
#include "model/model.h"
#include "topo/topo.h"

#define SEC 1000000000ull

static struct topo *topo;
static struct model *m;

static void setup(void)
{
	topo = check_topo2();
	m = model_new(topo);
	ck_assert_ptr_nonnull(m);
	model_set_scan_period(m, SEC);
}

static void teardown(void)
{
	model_free(m);
	topo_free(topo);
}

static void feed(struct sr_event *ev)
{
	ev->name = ingest_event_kind_name(ev->kind);
	ck_assert_int_eq(model_feed(m, ev), 0);
}

static void fork_task(int child)
{
	struct sr_event ev = { .ts_ns = 1, .cpu = 0, .pid = 1, .kind = SR_EV_FORK };

	ev.u.fork.parent_pid = 1;
	ev.u.fork.child_pid = child;
	strcpy(ev.u.fork.child_comm, "w");
	feed(&ev);
}

static void fault(int tid, uint64_t ts, int cpu, int node, int pages, int flags)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = cpu, .pid = tid, .kind = SR_EV_NUMA_FAULT };

	ev.u.fault.mem_node = node;
	ev.u.fault.pages = pages;
	ev.u.fault.flags = flags;
	ev.u.fault.last_cpupid = 2097151;	/* never set */
	feed(&ev);
}

static void print(uint64_t ts, enum sr_marker_kind kind, const char *txt)
{
	struct sr_event ev = { .ts_ns = ts, .cpu = 0, .pid = 9, .kind = SR_EV_PRINT,
			       .marker = kind, .str = txt, .str_len = (uint32_t)strlen(txt) };

	feed(&ev);
}

START_TEST(decay_per_epoch)
{
	const struct model_task *t;

	fork_task(100);
	fault(100, SEC / 10, 0, 1, 1, 0);
	fault(100, SEC / 10 + 1, 0, 1, 1, 0);
	fault(100, SEC / 10 + 2, 0, 1, 1, 0);
	fault(100, SEC / 10 + 3, 0, 0, 1, 0);
	t = model_task_lookup(m, 100);
	/* born in the trace: known; MEM is 0 until the first placement */
	ck_assert(t->known & MODEL_KNOWN_FAULTS);
	ck_assert(t->known & MODEL_KNOWN_FAULTS_MODELLED);
	ck_assert_uint_eq(t->faults[0] + t->faults[1], 0);
	ck_assert(t->known & MODEL_KNOWN_PREF_NODE);
	ck_assert_int_eq(t->pref_node, -1);

	/* epoch 1: MEM = 0/2 + {1, 3}; this fault waits in the buffer */
	fault(100, SEC + SEC / 10, 0, 0, 1, 0);
	t = model_task_lookup(m, 100);
	ck_assert_uint_eq(t->faults[0], 1);
	ck_assert_uint_eq(t->faults[1], 3);
	ck_assert_int_eq(t->pref_node, 1);

	/* epoch 2: MEM = {1/2 + 1, 3/2 + 0} = {1, 1}: a tie goes to node 0 */
	fault(100, 2 * SEC + SEC / 2, 2, 1, 512, 0);
	t = model_task_lookup(m, 100);
	ck_assert_uint_eq(t->faults[0], 1);
	ck_assert_uint_eq(t->faults[1], 1);
	ck_assert_int_eq(t->pref_node, 0);

	/* epoch 5 (no faults in 3 and 4): one decay, as the kernel's lazy placement */
	fault(100, 5 * SEC, 2, 1, 1, 0);
	t = model_task_lookup(m, 100);
	ck_assert_uint_eq(t->faults[0], 0);
	ck_assert_uint_eq(t->faults[1], 512);
	ck_assert_int_eq(t->pref_node, 1);
	ck_assert_uint_eq(model_fault_stats(m)->faults, 7);
	ck_assert_uint_eq(model_fault_stats(m)->fault_pages, 6 + 512);
	ck_assert_uint_eq(model_fault_stats(m)->placements, 3);
}
END_TEST

START_TEST(samples_win)
{
	const struct model_task *t;
	const struct model_fault_stats *fs = model_fault_stats(m);

	fork_task(100);
	fault(100, SEC / 10, 0, 0, 1, 0);
	fault(100, SEC + 1, 0, 0, 1, 0);	/* MEM = {1, 0} */
	print(SEC + 2, SR_MARK_NUMA_SAMPLE, "numa_sample t=1 seq=0 pid=100 tid=100 comm=w cpu=0 "
	      "pref=1 node=0 grp=0 tf=40 mig=0 scan=2 f=0:10/0/0/0,1:30/0/0/0");
	t = model_task_lookup(m, 100);
	ck_assert_uint_eq(t->faults[0], 10);
	ck_assert_uint_eq(t->faults[1], 30);
	ck_assert_int_eq(t->pref_node, 1);
	ck_assert(!(t->known & MODEL_KNOWN_FAULTS_MODELLED));
	ck_assert_uint_eq(fs->samples_compared, 1);
	ck_assert_uint_eq(fs->gap_faults, 39);		/* |1 - 40| */
	ck_assert_uint_eq(fs->sample_faults, 40);
	ck_assert_uint_eq(fs->pref_mismatch, 1);	/* the fault model said node 0 */
	/* later faults do not overwrite the kernel's numbers */
	fault(100, 2 * SEC + 1, 0, 0, 1, 0);
	fault(100, 3 * SEC + 1, 0, 0, 1, 0);
	t = model_task_lookup(m, 100);
	ck_assert_uint_eq(t->faults[0], 10);
	ck_assert_uint_eq(t->faults[1], 30);
	ck_assert_int_eq(t->pref_node, 1);
}
END_TEST

START_TEST(history_before_trace)
{
	const struct model_task *t;
	uint64_t e;

	/* no fork: the task may have faulted before the trace began */
	for (e = 0; e < MODEL_FAULT_SETTLE_EPOCHS; e++) {
		fault(200, e * SEC + 1, 2, 1, 1, 0);
		t = model_task_lookup(m, 200);
		ck_assert(!(t->known & MODEL_KNOWN_FAULTS));
		ck_assert(!(t->known & MODEL_KNOWN_PREF_NODE));
	}
	fault(200, e * SEC + 1, 2, 1, 1, 0);	/* the 8th decay: settled */
	t = model_task_lookup(m, 200);
	ck_assert(t->known & MODEL_KNOWN_FAULTS);
	ck_assert_int_eq(t->pref_node, 1);
}
END_TEST

static void set_group(int tid, int ngid)
{
	struct sr_event ev = { .ts_ns = 2, .cpu = 0, .pid = tid, .kind = SR_EV_MOVE_NUMA };

	memset(&ev.u.numa, 0xff, sizeof(ev.u.numa));
	ev.u.numa.src_pid = tid;
	ev.u.numa.src_tgid = 100;
	ev.u.numa.src_ngid = ngid;
	ev.u.numa.src_cpu = 0;
	ev.u.numa.src_nid = 0;
	ev.u.numa.dst_nid = 0;
	feed(&ev);
}

START_TEST(group_active_nodes)
{
	uint64_t mask = 99;
	int i;

	fork_task(100);
	fork_task(101);
	set_group(100, 7);
	set_group(101, 7);
	ck_assert(!model_group_active(m, model_task_lookup(m, 100), &mask));	/* no faults yet */
	for (i = 0; i < 4; i++)
		fault(100, SEC / 10 + i, 0, 0, 1, 0);	/* CPU node 0 */
	fault(101, SEC / 10, 2, 0, 1, 0);		/* CPU node 1 */
	fault(100, SEC + 1, 0, 0, 1, 0);		/* decays: group CPU faults {4, 1} */
	fault(101, SEC + 2, 2, 0, 1, 0);
	ck_assert(model_group_active(m, model_task_lookup(m, 101), &mask));
	ck_assert_uint_eq(mask, 1);			/* 1 * 3 > 4 fails for node 1 */
	/* group faults (memory side) are the members' sums */
	ck_assert(model_task_lookup(m, 101)->known & MODEL_KNOWN_GROUP_FAULTS);
	ck_assert_uint_eq(model_task_lookup(m, 101)->group_faults[0], 5);
	/* in no group: known, no active nodes */
	set_group(100, 0);
	ck_assert(model_group_active(m, model_task_lookup(m, 100), &mask));
	ck_assert_uint_eq(mask, 0);
}
END_TEST

START_TEST(misplaced_pages)
{
	struct sr_event ev = { .ts_ns = 10, .cpu = 2, .pid = 100, .kind = SR_EV_MIGRATE_PAGES };
	const struct model_fault_stats *fs = model_fault_stats(m);

	fork_task(100);
	ev.u.pages.succeeded = 512;
	ev.u.pages.numa_misplaced = true;
	feed(&ev);
	fault(100, 11, 2, 1, 512, MODEL_TNF_MIGRATED);
	ev.ts_ns = 20;
	ev.u.pages.succeeded = 1;
	feed(&ev);					/* no fault follows it */
	ev.u.pages.numa_misplaced = false;		/* compaction etc.: not counted */
	feed(&ev);
	ck_assert_uint_eq(fs->misplaced_pages, 513);
	ck_assert_uint_eq(fs->misplaced_by_node[1], 512);
	ck_assert_uint_eq(fs->misplaced_by_node[0], 0);
	ck_assert_uint_eq(fs->misplaced_unattributed, 1);
	ck_assert_uint_eq(fs->flag_migrated, 1);
}
END_TEST

START_TEST(scan_period_from_sysctl)
{
	struct model *n = model_new(topo);

	ck_assert_uint_eq(model_scan_period(n), MODEL_SCAN_PERIOD_DEFAULT_NS);
	{
		const char *txt = "schedreplay_sysctl kernel.numa_balancing=1 "
				  "numa_balancing.scan_period_min_ms=200 numa_balancing.scan_size_mb=256";
		struct sr_event ev = { .ts_ns = 1, .kind = SR_EV_PRINT, .marker = SR_MARK_SYSCTL,
				       .str = txt, .str_len = (uint32_t)strlen(txt) };

		ev.name = "print";
		ck_assert_int_eq(model_feed(n, &ev), 0);
		ck_assert_uint_eq(model_scan_period(n), 200ull * 1000 * 1000);
		/* a period the caller set is not overridden */
		print(1, SR_MARK_SYSCTL, txt);
		ck_assert_uint_eq(model_scan_period(m), SEC);
	}
	model_free(n);
}
END_TEST

static Suite *faults_suite(void)
{
	Suite *s = suite_create("faults");
	TCase *tc = tcase_create("fault-model");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, decay_per_epoch);
	tcase_add_test(tc, samples_win);
	tcase_add_test(tc, history_before_trace);
	tcase_add_test(tc, group_active_nodes);
	tcase_add_test(tc, misplaced_pages);
	tcase_add_test(tc, scan_period_from_sysctl);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(faults_suite)
