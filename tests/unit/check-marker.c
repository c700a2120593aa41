// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-marker.c - the trace_marker line parsers (src/ingest/marker.c) on
 * real numa_sample lines from fixtures/<capture>/samples.txt and on hostile ones.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-common.h"
#include "ingest/marker.h"
#include "util/err.h"

static struct marker_sample sample;

#define L(s) s, sizeof(s) - 1

START_TEST(test_classify)
{
	ck_assert_int_eq(marker_classify(L("numa_sample t=1 tid=2")), SR_MARK_NUMA_SAMPLE);
	ck_assert_int_eq(marker_classify(L("numa_sample")), SR_MARK_NUMA_SAMPLE);
	ck_assert_int_eq(marker_classify(L("schedreplay_meta release=6.1 cpus=8")), SR_MARK_META);
	ck_assert_int_eq(marker_classify(L("schedreplay_node node=0 cpus=0-1")), SR_MARK_NODE);
	ck_assert_int_eq(marker_classify(L("schedreplay_sysctl a=1")), SR_MARK_SYSCTL);
	ck_assert_int_eq(marker_classify(L("schedreplay_vmstat phase=end")), SR_MARK_VMSTAT);
	ck_assert_int_eq(marker_classify(L("<faulted>")), SR_MARK_NONE);
	ck_assert_int_eq(marker_classify(L("numa_samplex t=1")), SR_MARK_NONE);
	ck_assert_int_eq(marker_classify(L(" numa_sample t=1")), SR_MARK_NONE);
	ck_assert_int_eq(marker_classify(L("schedreplay_metadata x=1")), SR_MARK_NONE);
	ck_assert_int_eq(marker_classify("numa_sample", 5), SR_MARK_NONE);	/* bounded */
	ck_assert_int_eq(marker_classify(NULL, 0), SR_MARK_NONE);
	ck_assert_int_eq(marker_classify(L("")), SR_MARK_NONE);
}
END_TEST

START_TEST(test_get)
{
	static const char s[] = "numa_sample pref=-1 f=0:1/2/3/4 cpu=3 x= comm=a=b";
	const char *v;
	size_t n;
	int64_t i;

	ck_assert(marker_get(L(s), "f", &v, &n));
	ck_assert_int_eq(n, 9);
	ck_assert(!memcmp(v, "0:1/2/3/4", 9));
	ck_assert(marker_get_i64(L(s), "pref", &i));
	ck_assert_int_eq(i, -1);
	ck_assert(marker_get_i64(L(s), "cpu", &i));
	ck_assert_int_eq(i, 3);
	ck_assert(marker_get(L(s), "x", &v, &n));
	ck_assert_int_eq(n, 0);
	ck_assert(!marker_get_i64(L(s), "x", &i));
	ck_assert(marker_get(L(s), "comm", &v, &n));
	ck_assert_int_eq(n, 3);
	ck_assert(!marker_get(L(s), "ref", &v, &n));	/* only at word starts */
	ck_assert(!marker_get(L(s), "numa_sample", &v, &n));
	ck_assert(!marker_get(L(s), "a", &v, &n));
	/* the length bounds the search: "cpu=3" lies past it */
	ck_assert(!marker_get(s, 30, "cpu", &v, &n));
	ck_assert(!marker_get_i64(L("k=99999999999999999999"), "k", &i));
	ck_assert(marker_get_i64(L("k=-9223372036854775808"), "k", &i));
	ck_assert(i == INT64_MIN);
	ck_assert(!marker_get_i64(L("k=-"), "k", &i));
	ck_assert(!marker_get_i64(L("k=1x"), "k", &i));
}
END_TEST

START_TEST(test_sample_real)
{
	/* numa01-4n/samples.txt, a 4-node line with faults */
	static const char s[] = "numa_sample t=14233053746 seq=10 pid=283 tid=289 comm=nb-w1 cpu=2 pref=1 "
		"node=1 grp=290 tf=45930 mig=4097 scan=4 nmig=6 forced=0 fhot=4 frun=13 faff=0 "
		"f=0:0/0/0/0,1:40001/2560/90902/7809,2:1537/0/2049/0,3:0/1832/7613/6235";

	ck_assert_int_eq(marker_parse_sample(L(s), &sample), 0);
	ck_assert(sample.t == 14233053746LL);
	ck_assert_int_eq(sample.seq, 10);
	ck_assert_int_eq(sample.pid, 283);
	ck_assert_int_eq(sample.tid, 289);
	ck_assert_str_eq(sample.comm, "nb-w1");
	ck_assert_int_eq(sample.cpu, 2);
	ck_assert_int_eq(sample.pref, 1);
	ck_assert_int_eq(sample.node, 1);
	ck_assert_int_eq(sample.grp, 290);
	ck_assert_int_eq(sample.tf, 45930);
	ck_assert_int_eq(sample.mig, 4097);
	ck_assert_int_eq(sample.scan, 4);
	ck_assert_int_eq(sample.nmig, 6);
	ck_assert_int_eq(sample.forced, 0);
	ck_assert_int_eq(sample.fhot, 4);
	ck_assert_int_eq(sample.frun, 13);
	ck_assert_int_eq(sample.faff, 0);
	ck_assert_int_eq(sample.nr_nodes, 4);
	ck_assert_int_eq(sample.faults[0].task_private, 0);
	ck_assert_int_eq(sample.faults[1].task_private, 40001);
	ck_assert_int_eq(sample.faults[1].task_shared, 2560);
	ck_assert_int_eq(sample.faults[1].group_private, 90902);
	ck_assert_int_eq(sample.faults[1].group_shared, 7809);
	ck_assert_int_eq(sample.faults[2].group_private, 2049);
	ck_assert_int_eq(sample.faults[3].task_shared, 1832);
	ck_assert_int_eq(sample.faults[3].group_shared, 6235);
}
END_TEST

START_TEST(test_sample_minus_one_and_empty)
{
	/* host-baseline-1n: -1 for fields the kernel did not print */
	static const char a[] = "numa_sample t=4319485658242 seq=0 pid=8171 tid=8171 comm=numabench cpu=0 "
		"pref=-1 node=0 grp=0 tf=0 mig=0 scan=0 nmig=0 forced=-1 fhot=-1 frun=-1 faff=-1 "
		"f=0:0/0/0/0";
	/* an older line: no nmig..faff, and f= empty before the first fault */
	static const char b[] = "numa_sample t=5 seq=1 pid=7 tid=8 comm=x cpu=1 pref=-1 node=0 grp=0 tf=0 f=";

	ck_assert_int_eq(marker_parse_sample(L(a), &sample), 0);
	ck_assert_int_eq(sample.pref, -1);
	ck_assert_int_eq(sample.forced, -1);
	ck_assert_int_eq(sample.faff, -1);
	ck_assert_int_eq(sample.nr_nodes, 1);
	ck_assert_int_eq(marker_parse_sample(L(b), &sample), 0);
	ck_assert_int_eq(sample.nr_nodes, 0);
	ck_assert_int_eq(sample.nmig, -1);
	ck_assert_int_eq(sample.faff, -1);
	ck_assert_int_eq(sample.tid, 8);
}
END_TEST

START_TEST(test_sample_sparse_nodes)
{
	static const char s[] = "numa_sample tid=1 f=2:1/2/3/4,0:5/6/7/-1";

	ck_assert_int_eq(marker_parse_sample(L(s), &sample), 0);
	ck_assert_int_eq(sample.nr_nodes, 3);
	ck_assert_int_eq(sample.faults[0].task_private, 5);
	ck_assert_int_eq(sample.faults[0].group_shared, -1);
	ck_assert_int_eq(sample.faults[1].task_private, -1);	/* not listed */
	ck_assert_int_eq(sample.faults[2].group_shared, 4);
	ck_assert_int_eq(sample.t, -1);
	ck_assert_str_eq(sample.comm, "");
}
END_TEST

static const char *const bad_samples[] = {
	"numa_sample t=1 pid=2",				/* no tid */
	"numa_sample tid=x",
	"numa_sample tid=1 cpu=99999999999",			/* int overflow */
	"numa_sample tid=1 f=0:1/2/3",				/* three values */
	"numa_sample tid=1 f=0:1/2/3/4/5",
	"numa_sample tid=1 f=0:1/2/3/4,",			/* trailing comma */
	"numa_sample tid=1 f=0:1/2/3/4,0:1/2/3/4",		/* node twice */
	"numa_sample tid=1 f=1024:1/2/3/4",			/* node past MARKER_MAX_NODES */
	"numa_sample tid=1 f=-1:1/2/3/4",
	"numa_sample tid=1 f=0:1/a/3/4",
	"numa_sample tid=1 f=:1/2/3/4",
	"numa_sample tid=1 f=,",
	"numa_sample tid=1 tf=1.5",
	"<faulted>",
	"schedreplay_meta tid=1",
};

START_TEST(test_sample_bad)
{
	const char *s = bad_samples[_i];

	ck_assert_msg(marker_parse_sample(s, strlen(s), &sample) == -SR_EBADTEXT, "%s", s);
}
END_TEST

START_TEST(test_sample_comm_long)
{
	static const char s[] = "numa_sample tid=1 comm=abcdefghijklmnopqrstuvwxyz";

	ck_assert_int_eq(marker_parse_sample(L(s), &sample), 0);
	ck_assert_int_eq(strlen(sample.comm), SR_COMM_LEN - 1);
}
END_TEST

/* every numa_sample line of every capture folder parses */
START_TEST(test_sample_all_real)
{
	static const char *const folders[] = {
		"numa01-4n", "numa01-shm-4n", "numa02-2n", "mixed-2n", "host-baseline-1n",
	};
	char path[1024];
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	size_t i;
	long count;

	for (i = 0; i < sizeof(folders) / sizeof(folders[0]); i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s/samples.txt", SR_FIXTURES_DIR, folders[i]);
		f = fopen(path, "r");
		ck_assert_msg(f, "%s: %s", path, strerror(errno));
		count = 0;
		while ((n = getline(&line, &cap, f)) > 0) {
			if (line[n - 1] == '\n')
				n--;
			ck_assert_int_eq(marker_classify(line, n), SR_MARK_NUMA_SAMPLE);
			ck_assert_msg(marker_parse_sample(line, n, &sample) == 0, "%s: %.*s", path,
				      (int)n, line);
			ck_assert_int_ge(sample.tid, 0);
			ck_assert_int_ge(sample.nr_nodes, 1);
			count++;
		}
		fclose(f);
		ck_assert_int_gt(count, 100);
	}
	free(line);
}
END_TEST

START_TEST(test_cpulist)
{
	uint64_t cpus[2];

	ck_assert_int_eq(marker_parse_cpulist(L("0-3,8,10-11"), cpus, 128), 7);
	ck_assert(cpus[0] == 0xd0f);
	ck_assert_int_eq(marker_parse_cpulist(L("0-1"), cpus, 2), 2);
	ck_assert_int_eq(marker_parse_cpulist(L("64,127"), cpus, 128), 2);
	ck_assert(cpus[0] == 0 && cpus[1] == (1ull | (1ull << 63)));
	ck_assert_int_eq(marker_parse_cpulist(L("1,1,0-1"), cpus, 8), 2);
	ck_assert_int_eq(marker_parse_cpulist(L(""), cpus, 8), 0);
	ck_assert_int_eq(marker_parse_cpulist(L("0-2"), cpus, 2), -SR_ERANGE);
	ck_assert_int_eq(marker_parse_cpulist(L("99999999999"), cpus, 8), -SR_ERANGE);
	ck_assert_int_eq(marker_parse_cpulist(L("3-1"), cpus, 8), -SR_EBADTEXT);
	/* ',' and blanks separate, empty items are skipped (as topo's readers do) */
	ck_assert_int_eq(marker_parse_cpulist(L("1,"), cpus, 8), 1);
	ck_assert_int_eq(marker_parse_cpulist(L(",1,,2"), cpus, 8), 2);
	ck_assert_int_eq(marker_parse_cpulist(L("1-"), cpus, 8), -SR_EBADTEXT);
	ck_assert_int_eq(marker_parse_cpulist(L("a"), cpus, 8), -SR_EBADTEXT);
	ck_assert_int_eq(marker_parse_cpulist(L("-1"), cpus, 8), -SR_EBADTEXT);
	ck_assert_int_eq(marker_parse_cpulist(L("0 1"), cpus, 8), 2);
	ck_assert_int_eq(marker_parse_cpulist(L("0;1"), cpus, 8), -SR_EBADTEXT);
	ck_assert_int_eq(marker_parse_cpulist(L("1-2-3"), cpus, 8), -SR_EBADTEXT);
	/* bounded by the length, not a NUL */
	ck_assert_int_eq(marker_parse_cpulist("1,2xxxx", 3, cpus, 8), 2);
}
END_TEST

/* a print event of a line, as the readers hand it out */
static struct sr_event print(const char *s, size_t len)
{
	struct sr_event ev = { .kind = SR_EV_PRINT, .str = s, .str_len = (uint32_t)len };

	ev.marker = marker_classify(s, len);
	return ev;
}

#define P(s) print(s, sizeof(s) - 1)

static struct marker_node node;

START_TEST(test_decode_hostile)
{
	struct marker_meta meta;
	struct marker_sysctl sc;
	struct marker_vmstat vm;
	struct marker_lost lost;
	struct marker_record rec;
	struct sr_event ev;

	/* a bad key spoils the line, the good ones are still there */
	ev = P("schedreplay_meta release=6.1 nodes=abc cpus=99999 page_size=4096");
	ck_assert_int_eq(marker_decode_meta(&ev, &meta), -SR_EBADTEXT);
	ck_assert_int_eq(meta.status[MK_META_RELEASE], MARKER_OK);
	ck_assert_uint_eq(meta.release.len, 3);
	ck_assert_int_eq(meta.status[MK_META_NODES], MARKER_BAD);
	ck_assert_int_eq(meta.nodes, -1);
	ck_assert_int_eq(meta.status[MK_META_CPUS], MARKER_RANGE);
	ck_assert_int_eq(meta.status[MK_META_MACHINE], MARKER_ABSENT);
	ck_assert_uint_eq(meta.machine.len, 0);
	ck_assert_int_eq(meta.page_size, 4096);
	/* the first of a key repeated wins; a required key missing is an error */
	ev = P("schedreplay_meta nodes=2 nodes=3");
	ck_assert_int_eq(marker_decode_meta(&ev, &meta), 0);
	ck_assert_int_eq(meta.nodes, 2);
	ev = P("schedreplay_meta release=x");
	ck_assert_int_eq(marker_decode_meta(&ev, &meta), -SR_EBADTEXT);
	ck_assert_int_eq(meta.status[MK_META_NODES], MARKER_ABSENT);
	/* a line of another kind, or no print event, decodes to nothing */
	ev = P("schedreplay_node node=0 cpus=0 distance=10");
	ck_assert_int_eq(marker_decode_meta(&ev, &meta), -SR_EBADTEXT);
	ck_assert_int_eq(marker_decode_node(&ev, &node), 0);
	ev.kind = SR_EV_SWITCH;
	ck_assert_int_eq(marker_decode_node(&ev, &node), -SR_EBADTEXT);
	ck_assert_int_eq(node.status[MK_NODE_NODE], MARKER_ABSENT);
	ck_assert_int_eq(marker_decode_node(NULL, &node), -SR_EBADTEXT);
	/* bounded by the length: "distance=10" is past it */
	ev = print("schedreplay_node node=0 cpus=0 distance=10", 30);
	ck_assert_int_eq(marker_decode_node(&ev, &node), -SR_EBADTEXT);
	ck_assert_int_eq(node.status[MK_NODE_CPUS], MARKER_OK);
	ck_assert_int_eq(node.status[MK_NODE_DISTANCE], MARKER_ABSENT);
	/* lists: items out of range, too many, malformed */
	ev = P("schedreplay_node node=0 cpus=4096 distance=256");
	ck_assert_int_eq(marker_decode_node(&ev, &node), -SR_EBADTEXT);
	ck_assert_int_eq(node.status[MK_NODE_CPUS], MARKER_RANGE);
	ck_assert_int_eq(node.status[MK_NODE_DISTANCE], MARKER_RANGE);
	ev = P("schedreplay_node node=1024 cpus=a distance=10,-1");
	ck_assert_int_eq(marker_decode_node(&ev, &node), -SR_EBADTEXT);
	ck_assert_int_eq(node.status[MK_NODE_NODE], MARKER_RANGE);
	ck_assert_int_eq(node.status[MK_NODE_CPUS], MARKER_BAD);
	ck_assert_int_eq(node.status[MK_NODE_DISTANCE], MARKER_BAD);
	ev = P("schedreplay_node node=0 distance=");
	ck_assert_int_eq(marker_decode_node(&ev, &node), 0);
	ck_assert_int_eq(node.nr_distance, 0);	/* the topology says "bad distance=" */
	/* sysctl: the knob under its old name when the new one is malformed */
	ev = P("schedreplay_sysctl numa_balancing.scan_period_min_ms=1x scan_period_min_ms=5 a=b");
	ck_assert_int_eq(marker_decode_sysctl(&ev, &sc), -SR_EBADTEXT);
	ck_assert_int_eq(sc.status[MK_SYSCTL_SCAN_MIN], MARKER_BAD);
	ck_assert_int_eq(sc.status[MK_SYSCTL_SCAN_MIN_OLD], MARKER_OK);
	ck_assert_int_eq(sc.scan_period_min_ms_old, 5);
	/* vmstat phases */
	ev = P("schedreplay_vmstat phase=start numa_hint_faults=10 numa_hint_faults_local=4");
	ck_assert_int_eq(marker_decode_vmstat(&ev, &vm), 0);
	ck_assert_int_eq(vm.phase, MARKER_PHASE_START);
	ck_assert_int_eq(vm.numa_hint_faults, 10);
	ck_assert_int_eq(vm.numa_hint_faults_local, 4);
	ev = P("schedreplay_vmstat phase=end");
	ck_assert_int_eq(marker_decode_vmstat(&ev, &vm), 0);
	ck_assert_int_eq(vm.phase, MARKER_PHASE_END);
	ck_assert_int_eq(vm.status[MK_VMSTAT_HINT_FAULTS], MARKER_ABSENT);
	ev = P("schedreplay_vmstat phase=ends numa_hint_faults=1");
	ck_assert_int_eq(marker_decode_vmstat(&ev, &vm), 0);
	ck_assert_int_eq(vm.phase, MARKER_PHASE_OTHER);
	ev = P("schedreplay_vmstat numa_hint_faults=1");
	ck_assert_int_eq(marker_decode_vmstat(&ev, &vm), -SR_EBADTEXT);	/* no phase= */
	ck_assert_int_eq(vm.phase, MARKER_PHASE_OTHER);
	/* lost and record lines */
	ev = P("schedreplay_lost lost=3");
	ck_assert_int_eq(marker_decode_lost(&ev, &lost), -SR_EBADTEXT);	/* no cpu= */
	ck_assert_int_eq(lost.lost, 3);
	ev = P("schedreplay_lost cpu=1 lost=-1 overrun=-1");
	ck_assert_int_eq(marker_decode_lost(&ev, &lost), -SR_EBADTEXT);
	ck_assert_int_eq(lost.status[MK_LOST_LOST], MARKER_RANGE);
	ck_assert_int_eq(lost.status[MK_LOST_OVERRUN], MARKER_OK);
	ev = P("schedreplay_record options=-o,x.dat kprobe=numa_fault");
	ck_assert_int_eq(marker_decode_record(&ev, &rec), 0);
	ck_assert_uint_eq(rec.options.len, 8);
	ck_assert_int_eq(marker_classify(L("schedreplay_events sched_switch=on")), SR_MARK_EVENTS);
	ck_assert_ptr_null(marker_format(SR_MARK_NONE));
	ck_assert_ptr_null(marker_format(SR_MARK__COUNT));
}
END_TEST

static Suite *marker_suite(void)
{
	Suite *s = suite_create("marker");
	TCase *tc = tcase_create("marker");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_classify);
	tcase_add_test(tc, test_get);
	tcase_add_test(tc, test_sample_real);
	tcase_add_test(tc, test_sample_minus_one_and_empty);
	tcase_add_test(tc, test_sample_sparse_nodes);
	tcase_add_loop_test(tc, test_sample_bad, 0, sizeof(bad_samples) / sizeof(bad_samples[0]));
	tcase_add_test(tc, test_sample_comm_long);
	tcase_add_test(tc, test_sample_all_real);
	tcase_add_test(tc, test_cpulist);
	tcase_add_test(tc, test_decode_hostile);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(marker_suite)
