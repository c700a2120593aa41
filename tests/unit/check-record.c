// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-record.c - the recorder's pure parts (src/record/record-meta.c):
 * reading /proc/PID/task/TID/sched as 6.1 and 6.18 kernels print it, and
 * numa_sample lines that the ingest parser (marker_parse_sample) reads
 * back field for field.  Nothing here needs root or tracefs; the live
 * recorder is tests/e2e/test-record-root.sh.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
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
static struct marker_sample smp;	/* ~32 KiB: not on the stack */

/* the fields the sampler sets before it formats a line */
static void who(int64_t t, int64_t seq, int tgid, int tid, int cpu)
{
	smp.t = t;
	smp.seq = seq;
	smp.pid = tgid;
	smp.tid = tid;
	smp.cpu = cpu;
}

START_TEST(test_parse_61)
{

	record_parse_sched(sched_61, sizeof(sched_61) - 1, &smp);
	ck_assert_int_eq(smp.pref, 1);
	ck_assert_int_eq(smp.node, 1);
	ck_assert_int_eq(smp.grp, 281);
	ck_assert_int_eq(smp.tf, 990);
	ck_assert_int_eq(smp.mig, 315);
	ck_assert_int_eq(smp.scan, 6);
	ck_assert_int_eq(smp.nmig, 17);
	ck_assert_int_eq(smp.forced, 1);
	ck_assert_int_eq(smp.fhot, 4);
	ck_assert_int_eq(smp.frun, 3);
	ck_assert_int_eq(smp.faff, 2);
	ck_assert_int_eq(smp.nr_nodes, 2);
	ck_assert_int_eq(smp.faults[0].task_private, 12);
	ck_assert_int_eq(smp.faults[0].group_private, 30);
	ck_assert_int_eq(smp.faults[1].task_shared, 5);
	ck_assert_int_eq(smp.faults[1].group_shared, 8);
}
END_TEST

START_TEST(test_parse_618_absent_fields)
{

	record_parse_sched(sched_618, sizeof(sched_618) - 1, &smp);
	ck_assert_int_eq(smp.pref, -1);
	ck_assert_int_eq(smp.nmig, 0);
	ck_assert_int_eq(smp.forced, -1);	/* not printed without schedstats */
	ck_assert_int_eq(smp.fhot, -1);
	ck_assert_int_eq(smp.frun, -1);
	ck_assert_int_eq(smp.faff, -1);
	ck_assert_int_eq(smp.nr_nodes, 0);	/* no fault yet: empty f= */
}
END_TEST

START_TEST(test_parse_hostile)
{
	static const char junk[] = "se.nr_migrations :\nnuma_faults node=x\n"
				   "numa_preferred_nid:abc\ncurrent_node=";

	record_parse_sched(junk, sizeof(junk) - 1, &smp);
	ck_assert_int_eq(smp.nmig, -1);
	ck_assert_int_eq(smp.pref, -1);
	ck_assert_int_eq(smp.node, -1);
	ck_assert_int_eq(smp.nr_nodes, 0);
	record_parse_sched(sched_61, 40, &smp);	/* cut short: bounded */
	ck_assert_int_eq(smp.tf, -1);
}
END_TEST

START_TEST(test_format_reads_back)
{
	char line[1024];
	size_t n;

	record_parse_sched(sched_61, sizeof(sched_61) - 1, &smp);
	who(7693267432LL, 3, 281, 282, 5);
	n = record_format_sample(line, sizeof(line), "nb shared\n0", &smp);
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
	char line[1024];
	size_t n;
	size_t full;

	record_parse_sched(sched_61, sizeof(sched_61) - 1, &smp);
	who(1, 0, 1, 1, 0);
	full = record_format_sample(line, sizeof(line), "a", &smp);
	/* room for the fixed fields and the first f= entry only */
	n = record_format_sample(line, full - 10, "a", &smp);
	ck_assert_uint_lt(n, full);
	ck_assert_ptr_nonnull(strstr(line, "f=0:12/0/30/1"));
	ck_assert_ptr_null(strstr(line, ",1:"));
	ck_assert_int_eq(marker_parse_sample(line, n, &back), 0);
	ck_assert_int_eq(back.nr_nodes, 1);
	/* too short for the fixed fields: nothing rather than a broken line */
	ck_assert_uint_eq(record_format_sample(line, 40, "a", &smp), 0);
	ck_assert_str_eq(line, "");
}
END_TEST

/* ---- every kind of the marker table through the writer and the decoder - */

static union {
	struct marker_meta	meta;
	struct marker_node	node;
	struct marker_sysctl	sysctl;
	struct marker_vmstat	vmstat;
	struct marker_record	record;
	struct marker_lost	lost;
	struct marker_latency	latency;
	struct marker_task	task;
	struct marker_domain	domain;
	struct marker_snapshot	snapshot;
	struct marker_probe	probe;
} dec;

/* the decoder of @kind; @status set to its per-key statuses */
static int decode(enum sr_marker_kind kind, const struct sr_event *ev, const uint8_t **status)
{
	switch (kind) {
	case SR_MARK_META:
		*status = dec.meta.status;
		return marker_decode_meta(ev, &dec.meta);
	case SR_MARK_NODE:
		*status = dec.node.status;
		return marker_decode_node(ev, &dec.node);
	case SR_MARK_SYSCTL:
		*status = dec.sysctl.status;
		return marker_decode_sysctl(ev, &dec.sysctl);
	case SR_MARK_VMSTAT:
		*status = dec.vmstat.status;
		return marker_decode_vmstat(ev, &dec.vmstat);
	case SR_MARK_RECORD:
		*status = dec.record.status;
		return marker_decode_record(ev, &dec.record);
	case SR_MARK_LOST:
		*status = dec.lost.status;
		return marker_decode_lost(ev, &dec.lost);
	case SR_MARK_LATENCY:
		*status = dec.latency.status;
		return marker_decode_latency(ev, &dec.latency);
	case SR_MARK_TASK:
		*status = dec.task.status;
		return marker_decode_task(ev, &dec.task);
	case SR_MARK_DOMAIN:
		*status = dec.domain.status;
		return marker_decode_domain(ev, &dec.domain);
	case SR_MARK_SNAPSHOT:
		*status = dec.snapshot.status;
		return marker_decode_snapshot(ev, &dec.snapshot);
	case SR_MARK_PROBE:
		*status = dec.probe.key_status;
		return marker_decode_probe(ev, &dec.probe);
	default:
		ck_abort_msg("no decoder for kind %d", kind);
		return -1;
	}
}

/*
 * A value for key @k: pass 0 the low end of its range, pass 1 the high
 * end, pass 2 just outside it (NULL when the range has no outside).
 */
static const char *value_for(const struct marker_key *k, int i, int pass, char *buf, size_t len)
{
	int64_t lo = k->type == MARKER_T_INT && k->lo < INT_MIN ? INT_MIN : k->lo;
	int64_t hi = k->type == MARKER_T_INT && k->hi > INT_MAX ? INT_MAX : k->hi;
	int64_t x;

	switch (k->type) {
	case MARKER_T_I64:
	case MARKER_T_INT:
		if (pass == 2) {
			if (hi == INT64_MAX)
				return NULL;
			snprintf(buf, len, "%" PRId64, hi + 1);
		} else {
			snprintf(buf, len, "%" PRId64, pass ? hi : lo);
		}
		return buf;
	case MARKER_T_MILLI:	/* thousandths, written as a decimal */
		x = pass == 2 ? hi + 1 : pass ? hi : lo;
		snprintf(buf, len, "%" PRId64 ".%03" PRId64, x / 1000, x % 1000);
		return buf;
	case MARKER_T_STR:
	case MARKER_T_COMM:
		if (pass == 2)
			return NULL;
		snprintf(buf, len, "v%d-%d", i, pass);
		return buf;
	case MARKER_T_CPULIST:
		snprintf(buf, len, pass == 2 ? "0-%" PRId64 : pass ? "0-2,%" PRId64 : "%" PRId64,
			 pass == 2 ? hi + 1 : hi);
		return buf;
	case MARKER_T_INTLIST:
		snprintf(buf, len, pass == 2 ? "10,%" PRId64 : pass ? "10,20,%" PRId64 : "%" PRId64,
			 pass == 2 ? hi + 1 : pass ? hi : lo);
		return buf;
	default:
		return NULL;	/* f= is the numa_sample's: test_round_trip_sample */
	}
}

/* the decoded value of key @k in @out is what @val wrote */
static void check_value(const struct marker_key *k, const void *out, const char *val)
{
	const char *p = (const char *)out + k->off;
	const struct marker_str *str = (const void *)p;
	int64_t x = strtoll(val, NULL, 10);
	const uint64_t *cpus = (const void *)p;
	const struct marker_node *nd = out;

	switch (k->type) {
	case MARKER_T_I64:
		ck_assert_int_eq(*(const int64_t *)p, x);
		break;
	case MARKER_T_MILLI:
		ck_assert_int_eq(*(const int64_t *)p, x * 1000 + strtoll(strchr(val, '.') + 1, NULL, 10));
		break;
	case MARKER_T_INT:
		ck_assert_int_eq(*(const int *)p, x);
		break;
	case MARKER_T_STR:
		ck_assert_uint_eq(str->len, strlen(val));
		ck_assert(!memcmp(str->s, val, str->len));
		break;
	case MARKER_T_COMM:
		ck_assert_str_eq(p, val);
		break;
	case MARKER_T_CPULIST:
		ck_assert(cpus[k->hi / 64] & (1ull << (k->hi % 64)));
		ck_assert_int_eq((int)(cpus[0] & 7), strchr(val, '-') ? 7 : 0);
		break;
	case MARKER_T_INTLIST:
		ck_assert_int_eq(nd->nr_distance, strchr(val, ',') ? 3 : 1);
		ck_assert_int_eq(nd->distance[nd->nr_distance - 1],
				 nd->nr_distance == 3 ? k->hi : k->lo);
		break;
	default:
		ck_abort_msg("key %s: no check", k->name);
	}
}

START_TEST(test_round_trip_kinds)
{
	char bufs[MARKER_MAX_KEYS][64];
	const char *vals[MARKER_MAX_KEYS];
	const struct marker_format *f;
	const uint8_t *status;
	struct sr_event ev = { .kind = SR_EV_PRINT };
	char line[4096];
	int kinds = 0;
	int pass;
	int kind;
	int i;

	for (kind = SR_MARK_NONE + 1; kind < SR_MARK__COUNT; kind++) {
		f = marker_format(kind);
		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(f->kind, kind);
		if (kind == SR_MARK_NUMA_SAMPLE)
			continue;	/* its own writer: test_round_trip_sample */
		kinds++;
		for (pass = 0; pass < 3; pass++) {
			bool outside = false;

			for (i = 0; i < f->nr_keys; i++) {
				vals[i] = value_for(&f->keys[i], i, pass, bufs[i], sizeof(bufs[i]));
				outside |= pass == 2 && vals[i];
			}
			ev.str = line;
			ev.str_len = (uint32_t)record_marker_line(line, sizeof(line), kind, vals);
			ck_assert_uint_gt(ev.str_len, 0);
			ev.marker = marker_classify(line, ev.str_len);
			ck_assert_msg((int)ev.marker == kind, "'%s' read back as kind %d", line, ev.marker);
			if (!f->nr_keys)
				continue;	/* schedreplay_events: names only */
			if (pass < 2) {
				ck_assert_msg(decode(kind, &ev, &status) == 0, "'%s' did not decode",
					      line);
				for (i = 0; i < f->nr_keys; i++) {
					/* f= has no value here: test_format_task_reads_back */
					ck_assert_int_eq(status[i], vals[i] ? MARKER_OK : MARKER_ABSENT);
					if (vals[i])
						check_value(&f->keys[i], &dec, vals[i]);
				}
			} else if (outside) {
				ck_assert_msg(decode(kind, &ev, &status) == -SR_EBADTEXT,
					      "'%s' decoded", line);
				for (i = 0; i < f->nr_keys; i++)
					ck_assert_int_eq(status[i], vals[i] ? MARKER_RANGE :
							 MARKER_ABSENT);
			}
		}
		/* the same line without its keys: required ones are missed */
		for (i = 0; i < f->nr_keys; i++)
			vals[i] = NULL;
		ev.str_len = (uint32_t)record_marker_line(line, sizeof(line), kind, vals);
		if (f->nr_keys) {
			bool required = false;

			for (i = 0; i < f->nr_keys; i++)
				required |= f->keys[i].required;
			ck_assert_int_eq(decode(kind, &ev, &status), required ? -SR_EBADTEXT : 0);
		}
	}
	ck_assert_int_eq(kinds, SR_MARK__COUNT - 2);
	/* the names come from the table */
	ck_assert_str_eq(record_key_name(SR_MARK_NODE, MK_NODE_DISTANCE), "distance");
	ck_assert_ptr_null(record_key_name(SR_MARK_NODE, MK_NODE__COUNT));
	ck_assert_ptr_null(record_key_name(SR_MARK_NONE, 0));
	/* too small a buffer: nothing rather than a cut line */
	ck_assert_uint_eq(record_marker_line(line, 10, SR_MARK_RECORD, vals), 0);
	ck_assert_str_eq(line, "");
}
END_TEST

START_TEST(test_round_trip_sample)
{
	struct sr_event ev = { .kind = SR_EV_PRINT };
	char line[3072];
	int i;

	record_parse_sched("", 0, &smp);
	who(INT64_MAX, 9, 100, INT_MAX, 4095);
	smp.pref = 3;
	smp.node = INT_MIN;
	smp.grp = -1;
	smp.tf = INT64_MIN;
	smp.mig = 1;
	smp.scan = 2;
	smp.nmig = 3;
	smp.forced = 4;
	smp.fhot = 5;
	smp.frun = 6;
	smp.faff = 7;
	smp.nr_nodes = 4;
	for (i = 0; i < 4; i++) {
		smp.faults[i].task_private = i * 10;
		smp.faults[i].task_shared = i * 10 + 1;
		smp.faults[i].group_private = INT64_MAX - i;
		smp.faults[i].group_shared = i;
	}
	/* node 2 was not listed by /proc */
	smp.faults[2].task_private = smp.faults[2].task_shared = -1;
	smp.faults[2].group_private = smp.faults[2].group_shared = -1;
	ev.str = line;
	ev.str_len = (uint32_t)record_format_sample(line, sizeof(line), "kworker/0:1", &smp);
	ev.marker = marker_classify(line, ev.str_len);
	ck_assert_int_eq(ev.marker, SR_MARK_NUMA_SAMPLE);
	ck_assert_msg(marker_decode_sample(&ev, &back) == 0, "%s", line);
	ck_assert_int_eq(back.t, INT64_MAX);
	ck_assert_int_eq(back.seq, 9);
	ck_assert_int_eq(back.pid, 100);
	ck_assert_int_eq(back.tid, INT_MAX);
	ck_assert_str_eq(back.comm, "kworker/0:1");
	ck_assert_int_eq(back.cpu, 4095);
	ck_assert_int_eq(back.pref, 3);
	ck_assert_int_eq(back.node, INT_MIN);
	ck_assert_int_eq(back.grp, -1);
	ck_assert_int_eq(back.tf, INT64_MIN);
	ck_assert_int_eq(back.mig + back.scan + back.nmig + back.forced + back.fhot, 15);
	ck_assert_int_eq(back.frun, 6);
	ck_assert_int_eq(back.faff, 7);
	ck_assert_int_eq(back.nr_nodes, 4);
	ck_assert(!memcmp(back.faults, smp.faults, 4 * sizeof(smp.faults[0])));
	/* a comm of 15 bytes, the kernel's longest, comes back whole */
	ev.str_len = (uint32_t)record_format_sample(line, sizeof(line), "abcdefghijklmno", &smp);
	ck_assert_int_eq(marker_decode_sample(&ev, &back), 0);
	ck_assert_str_eq(back.comm, "abcdefghijklmno");
}
END_TEST

/* ---- the snapshot's lines ----------------------------------------------- */

START_TEST(test_parse_stat)
{
	static const char stat[] =
		"4242 (a) b (c)) S 17 4242 4242 0 -1 2097216 0 0 0 0 1 2 0 0 39 19 1 0 "
		"500 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 3 0 5 0 0 0\n";
	struct record_stat st;

	ck_assert_int_eq(record_parse_stat(stat, sizeof(stat) - 1, &st), 0);
	ck_assert_str_eq(st.comm, "a) b (c)");	/* up to the last ')' */
	ck_assert_int_eq(st.ppid, 17);
	ck_assert_uint_eq(st.flags, 2097216);	/* 0x200040: PF_KTHREAD set */
	ck_assert(st.flags & 0x00200000);
	ck_assert_int_eq(st.prio, 39);
	ck_assert_int_eq(st.nice, 19);
	ck_assert_int_eq(st.cpu, 3);
	ck_assert_int_eq(st.policy, 5);		/* SCHED_IDLE */
	ck_assert_int_eq(record_parse_stat("no comm here", 12, &st), -EINVAL);
	ck_assert_int_eq(record_parse_stat("1 (x) S 0 1", 11, &st), -EINVAL);
	/* a cut line: what it has, -1 for the rest */
	ck_assert_int_eq(record_parse_stat(stat, (size_t)(strstr(stat, " 19 1 0") - stat) + 3, &st),
			 0);
	ck_assert_int_eq(st.prio, 39);
	ck_assert_int_eq(st.cpu, -1);
	ck_assert_int_eq(st.policy, -1);
}
END_TEST

START_TEST(test_exec_start)
{
	ck_assert_int_eq(record_parse_exec_start(sched_61, sizeof(sched_61) - 1), 8186114583LL);
	ck_assert_int_eq(record_parse_exec_start(sched_618, sizeof(sched_618) - 1), -1);
	ck_assert_int_eq(record_parse_exec_start("se.exec_start : 12.5\n", 21), 12500000);
	ck_assert_int_eq(record_parse_exec_start("se.exec_start : x\n", 18), -1);
	ck_assert_int_eq(record_parse_exec_start("se.exec_starts : 1\n", 19), -1);
}
END_TEST

static struct marker_task task, task_back;

START_TEST(test_format_task_reads_back)
{
	struct sr_event ev = { .kind = SR_EV_PRINT };
	char line[1024];
	size_t n;
	int k;

	memset(&task, 0, sizeof(task));
	record_parse_sched(sched_61, sizeof(sched_61) - 1, &task.s);
	task.exec_start_ns = record_parse_exec_start(sched_61, sizeof(sched_61) - 1);
	task.phase_word.s = "start";
	task.phase_word.len = 5;
	task.s.tid = 282;
	task.s.pid = 281;
	task.s.cpu = 5;
	task.ppid = 1;
	task.kthread = 0;
	task.policy = 0;
	task.prio = 20;
	task.nice = -5;
	ck_assert_int_eq(marker_parse_cpulist("0-3,8", 5, task.cpus, MARKER_MAX_CPUS), 5);
	for (k = 0; k < MK_TASK__COUNT; k++)
		task.status[k] = MARKER_OK;
	n = record_format_task(line, sizeof(line), "x y\x7f=z", &task);
	ck_assert_uint_eq(n, strlen(line));
	ev.str = line;
	ev.str_len = (uint32_t)n;
	ev.marker = marker_classify(line, n);
	ck_assert_int_eq(ev.marker, SR_MARK_TASK);
	ck_assert_msg(marker_decode_task(&ev, &task_back) == 0, "'%s'", line);
	ck_assert_int_eq(task_back.phase, MARKER_PHASE_START);
	ck_assert_int_eq(task_back.s.tid, 282);
	ck_assert_int_eq(task_back.s.pid, 281);
	ck_assert_str_eq(task_back.s.comm, "x_y_=z");
	ck_assert_int_eq(task_back.ppid, 1);
	ck_assert_int_eq(task_back.kthread, 0);
	ck_assert_int_eq(task_back.nice, -5);
	ck_assert_int_eq(task_back.s.cpu, 5);
	ck_assert_int_eq(task_back.s.pref, 1);
	ck_assert_int_eq(task_back.s.grp, 281);
	ck_assert_int_eq(task_back.s.tf, 990);
	ck_assert_int_eq(task_back.s.nmig, 17);
	ck_assert_int_eq(task_back.exec_start_ns, 8186114583LL);
	ck_assert_uint_eq(task_back.cpus[0], 0x10f);
	ck_assert_int_eq(task_back.s.nr_nodes, 2);
	ck_assert_int_eq(task_back.s.faults[1].task_private, 700);
	/* the numa_sample fields a task line has no key for */
	ck_assert_int_eq(task_back.s.forced, -1);
	ck_assert_int_eq(task_back.s.seq, -1);
	/* a field the recorder did not have is left out, and decodes absent */
	task.status[MK_TASK_EXEC_START] = MARKER_ABSENT;
	task.status[MK_TASK_PREF] = MARKER_ABSENT;
	task.kthread = 1;
	n = record_format_task(line, sizeof(line), "kworker/0:1", &task);
	ev.str_len = (uint32_t)n;
	ck_assert(!strstr(line, "exec_start_ns=") && !strstr(line, "pref="));
	ck_assert_int_eq(marker_decode_task(&ev, &task_back), 0);
	ck_assert_int_eq(task_back.status[MK_TASK_EXEC_START], MARKER_ABSENT);
	ck_assert_int_eq(task_back.exec_start_ns, -1);
	ck_assert_int_eq(task_back.kthread, 1);
	/* every line fits one marker write, and a short buffer gives nothing */
	ck_assert_uint_lt(n, 960);
	ck_assert_uint_eq(record_format_task(line, 20, "x", &task), 0);
	ck_assert_str_eq(line, "");
	/* a line without tid= or phase= is bad */
	ev.str = "schedreplay_task phase=start pid=3";
	ev.str_len = (uint32_t)strlen(ev.str);
	ck_assert_int_eq(marker_decode_task(&ev, &task_back), -SR_EBADTEXT);
}
END_TEST

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(test_format_domain)
{
	char dir[] = "/tmp/check-record-domain-XXXXXX";
	struct sr_event ev = { .kind = SR_EV_PRINT };
	struct marker_domain d;
	char line[1024];
	char cmd[600];
	size_t n;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* what 6.1's debugfs sched/domains/cpu0/domain1 holds */
	put(dir, "name", "NUMA\n");
	put(dir, "flags", "SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_SERIALIZE SD_NUMA \n");
	put(dir, "groups_flags", "\n");
	put(dir, "imbalance_pct", "117\n");
	put(dir, "cache_nice_tries", "2\n");
	put(dir, "min_interval", "4\n");
	put(dir, "max_interval", "8\n");
	put(dir, "busy_factor", "16\n");
	n = record_format_domain(line, sizeof(line), dir, "start", 3, 1);
	ck_assert_uint_eq(n, strlen(line));
	ck_assert_str_eq(line, "schedreplay_domain phase=start cpu=3 level=1 name=NUMA "
			       "flags=SD_BALANCE_NEWIDLE,SD_BALANCE_EXEC,SD_SERIALIZE,SD_NUMA "
			       "busy_factor=16 cache_nice_tries=2 imbalance_pct=117 "
			       "max_interval=8 min_interval=4");
	ev.str = line;
	ev.str_len = (uint32_t)n;
	ck_assert_int_eq(marker_classify(line, n), SR_MARK_DOMAIN);
	ck_assert_int_eq(marker_decode_domain(&ev, &d), 0);
	ck_assert_int_eq(d.cpu, 3);
	ck_assert_int_eq(d.level, 1);
	ck_assert_int_eq(d.phase, MARKER_PHASE_START);
	ck_assert_uint_eq(d.name.len, 4);
	ck_assert_int_eq(d.status[MK_DOMAIN_SPAN], MARKER_ABSENT);	/* NUMA: not derived */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
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
	tcase_add_test(tc, test_round_trip_kinds);
	tcase_add_test(tc, test_round_trip_sample);
	tcase_add_test(tc, test_new_checks_options);
	tcase_add_test(tc, test_parse_stat);
	tcase_add_test(tc, test_exec_start);
	tcase_add_test(tc, test_format_task_reads_back);
	tcase_add_test(tc, test_format_domain);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(record_suite)
