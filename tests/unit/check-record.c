// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-record.c - the recorder's pure parts (src/record/record-meta.c):
 * reading /proc/PID/task/TID/sched as 6.1 and 6.18 kernels print it, and
 * numa_sample lines that the ingest parser (marker_parse_sample) reads
 * back field for field.  Nothing here needs root or tracefs; the live
 * recorder is tests/e2e/test-record-root.sh.
 */
#include <stdio.h>
#include <string.h>

#include "check-common.h"
#include "ingest/marker.h"
#include "record/record.h"

/* a 6.1 kernel with schedstats on, a task that has faulted on 2 nodes */
static const char sched_61[] =
	"numabench (281, #threads: 5)\n"
	"-------------------------------------------------------------------\n"
	"se.exec_start                                :          8186.114583\n"
	"se.nr_migrations                             :                   17\n"
	"nr_switches                                  :                  120\n"
	"nr_failed_migrations_affine                  :                    2\n"
	"nr_failed_migrations_running                 :                    3\n"
	"nr_failed_migrations_hot                     :                    4\n"
	"nr_forced_migrations                         :                    1\n"
	"mm->numa_scan_seq                            :                    6\n"
	"numa_pages_migrated                          :                  315\n"
	"numa_preferred_nid                           :                    1\n"
	"total_numa_faults                            :                  990\n"
	"current_node=1, numa_group_id=281\n"
	"numa_faults node=0 task_private=12 task_shared=0 group_private=30 group_shared=1\n"
	"numa_faults node=1 task_private=700 task_shared=5 group_private=900 group_shared=8\n";

/* this host's 6.18 kernel, schedstats off, no fault yet */
static const char sched_618[] =
	"cat (32467, #threads: 1)\n"
	"se.nr_migrations                             :                    0\n"
	"mm->numa_scan_seq                            :                    0\n"
	"numa_pages_migrated                          :                    0\n"
	"numa_preferred_nid                           :                   -1\n"
	"total_numa_faults                            :                    0\n"
	"current_node=0, numa_group_id=0\n";

static struct marker_sample back;

START_TEST(test_parse_61)
{
	struct record_task_sched s;

	record_parse_sched(sched_61, sizeof(sched_61) - 1, &s);
	ck_assert_int_eq(s.pref, 1);
	ck_assert_int_eq(s.node, 1);
	ck_assert_int_eq(s.grp, 281);
	ck_assert_int_eq(s.tf, 990);
	ck_assert_int_eq(s.mig, 315);
	ck_assert_int_eq(s.scan, 6);
	ck_assert_int_eq(s.nmig, 17);
	ck_assert_int_eq(s.forced, 1);
	ck_assert_int_eq(s.fhot, 4);
	ck_assert_int_eq(s.frun, 3);
	ck_assert_int_eq(s.faff, 2);
	ck_assert_str_eq(s.faults, "0:12/0/30/1,1:700/5/900/8");
}
END_TEST

START_TEST(test_parse_618_absent_fields)
{
	struct record_task_sched s;

	record_parse_sched(sched_618, sizeof(sched_618) - 1, &s);
	ck_assert_int_eq(s.pref, -1);
	ck_assert_int_eq(s.nmig, 0);
	ck_assert_int_eq(s.forced, -1);	/* not printed without schedstats */
	ck_assert_int_eq(s.fhot, -1);
	ck_assert_int_eq(s.frun, -1);
	ck_assert_int_eq(s.faff, -1);
	ck_assert_str_eq(s.faults, "");	/* no fault yet: empty f= */
}
END_TEST

START_TEST(test_parse_hostile)
{
	struct record_task_sched s;
	static const char junk[] = "se.nr_migrations :\nnuma_faults node=x\n"
				   "numa_preferred_nid:abc\ncurrent_node=";

	record_parse_sched(junk, sizeof(junk) - 1, &s);
	ck_assert_int_eq(s.nmig, -1);
	ck_assert_int_eq(s.pref, -1);
	ck_assert_int_eq(s.node, -1);
	ck_assert_str_eq(s.faults, "");
	record_parse_sched(sched_61, 40, &s);	/* cut short: bounded */
	ck_assert_int_eq(s.tf, -1);
}
END_TEST

START_TEST(test_format_reads_back)
{
	struct record_task_sched s;
	char line[1024];
	size_t n;

	record_parse_sched(sched_61, sizeof(sched_61) - 1, &s);
	n = record_format_sample(line, sizeof(line), 7693267432ULL, 3, 281, 282, "nb shared\n0",
				 5, &s);
	ck_assert_uint_eq(n, strlen(line));
	ck_assert_int_eq(marker_classify(line, n), SR_MARK_NUMA_SAMPLE);
	ck_assert_int_eq(marker_parse_sample(line, n, &back), 0);
	ck_assert_int_eq(back.t, 7693267432LL);
	ck_assert_int_eq(back.seq, 3);
	ck_assert_int_eq(back.pid, 281);
	ck_assert_int_eq(back.tid, 282);
	ck_assert_str_eq(back.comm, "nb_shared_0");	/* blanks and controls -> '_' */
	ck_assert_int_eq(back.cpu, 5);
	ck_assert_int_eq(back.pref, 1);
	ck_assert_int_eq(back.node, 1);
	ck_assert_int_eq(back.grp, 281);
	ck_assert_int_eq(back.tf, 990);
	ck_assert_int_eq(back.forced, 1);
	ck_assert_int_eq(back.faff, 2);
	ck_assert_int_eq(back.nr_nodes, 2);
	ck_assert_int_eq(back.faults[1].task_private, 700);
	ck_assert_int_eq(back.faults[1].group_shared, 8);
	ck_assert_int_eq(back.faults[0].group_private, 30);
}
END_TEST

START_TEST(test_format_short_buffer)
{
	struct record_task_sched s;
	char line[1024];
	size_t n;
	size_t full;

	record_parse_sched(sched_61, sizeof(sched_61) - 1, &s);
	full = record_format_sample(line, sizeof(line), 1, 0, 1, 1, "a", 0, &s);
	/* room for the fixed fields and the first f= entry only */
	n = record_format_sample(line, full - 10, 1, 0, 1, 1, "a", 0, &s);
	ck_assert_uint_lt(n, full);
	ck_assert_ptr_nonnull(strstr(line, "f=0:12/0/30/1"));
	ck_assert_ptr_null(strstr(line, ",1:"));
	ck_assert_int_eq(marker_parse_sample(line, n, &back), 0);
	ck_assert_int_eq(back.nr_nodes, 1);
	/* too short for the fixed fields: nothing rather than a broken line */
	ck_assert_uint_eq(record_format_sample(line, 40, 1, 0, 1, 1, "a", 0, &s), 0);
	ck_assert_str_eq(line, "");
}
END_TEST

START_TEST(test_new_checks_options)
{
	struct record_opts o = { .output = "x.dat", .buffer_kb = 16, .sample_ms = 1000 };
	struct err e = { 0 };
	struct record *r;

	ck_assert_ptr_null(record_new(&o, &e));
	ck_assert_int_eq(e.code, -SR_ERANGE);
	err_clear(&e);
	o.buffer_kb = 1024;
	o.output = "";
	ck_assert_ptr_null(record_new(&o, &e));
	ck_assert_int_eq(e.code, -SR_EUSAGE);
	err_clear(&e);
	o.output = "x.dat";
	r = record_new(&o, &e);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(record_summary(r)->kprobe, "not tried");
	record_free(r);	/* nothing created: nothing to undo */
}
END_TEST

static Suite *record_suite(void)
{
	Suite *s = suite_create("record");
	TCase *tc = tcase_create("pure");

	tcase_add_test(tc, test_parse_61);
	tcase_add_test(tc, test_parse_618_absent_fields);
	tcase_add_test(tc, test_parse_hostile);
	tcase_add_test(tc, test_format_reads_back);
	tcase_add_test(tc, test_format_short_buffer);
	tcase_add_test(tc, test_new_checks_options);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(record_suite)
