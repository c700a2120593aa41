// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * marker-format.c - the one table of the marker lines schedreplay writes
 * into a trace: each kind's leading word and its keys, with their types,
 * whether they are required and their ranges.  The recorder writes from it
 * (src/record/record-meta.c, record-dat.c) and the decoder reads with it
 * (marker.c); docs/formats.md describes the same lines in words.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "marker.h"

#define I64(n, req, lo, hi, st, f) { n, MARKER_T_I64, req, lo, hi, offsetof(st, f) }
#define INT(n, req, lo, hi, st, f) { n, MARKER_T_INT, req, lo, hi, offsetof(st, f) }
#define STR(n, req, st, f) { n, MARKER_T_STR, req, 0, 0, offsetof(st, f) }

static const struct marker_key meta_keys[MK_META__COUNT] = {
	[MK_META_RELEASE]	= STR("release", false, struct marker_meta, release),
	[MK_META_MACHINE]	= STR("machine", false, struct marker_meta, machine),
	[MK_META_NODES]		= INT("nodes", true, 1, MARKER_MAX_NODES, struct marker_meta, nodes),
	[MK_META_CPUS]		= INT("cpus", false, 0, MARKER_MAX_CPUS, struct marker_meta, cpus),
	[MK_META_RECORDER]	= STR("recorder", false, struct marker_meta, recorder),
	[MK_META_CLOCK]		= STR("clock", false, struct marker_meta, clock),
	[MK_META_SAMPLE_MS]	= I64("sample_ms", false, 0, UINT32_MAX, struct marker_meta, sample_ms),
	[MK_META_BUFFER_KB]	= I64("buffer_kb", false, 0, UINT32_MAX, struct marker_meta, buffer_kb),
	[MK_META_KPROBE]	= STR("kprobe", false, struct marker_meta, kprobe),
	[MK_META_PAGE_SIZE]	= I64("page_size", false, 0, INT_MAX, struct marker_meta, page_size),
	[MK_META_LATENCY]	= INT("latency", false, 0, MARKER_MAX_LATENCY_LINES, struct marker_meta,
				      latency),
};

static const struct marker_key node_keys[MK_NODE__COUNT] = {
	[MK_NODE_NODE]		= INT("node", true, 0, MARKER_MAX_NODES - 1, struct marker_node, node),
	[MK_NODE_CPUS]		= { "cpus", MARKER_T_CPULIST, false, 0, MARKER_MAX_CPUS - 1,
				    offsetof(struct marker_node, cpus) },
	[MK_NODE_DISTANCE]	= { "distance", MARKER_T_INTLIST, true, 0, MARKER_MAX_DISTANCE,
				    offsetof(struct marker_node, distance) },
};

/* the knobs the model reads; the recorder adds every other one by its name */
static const struct marker_key sysctl_keys[MK_SYSCTL__COUNT] = {
	[MK_SYSCTL_SCAN_MIN]	= I64("numa_balancing.scan_period_min_ms", false, INT64_MIN,
				      INT64_MAX, struct marker_sysctl, scan_period_min_ms),
	[MK_SYSCTL_SCAN_MIN_OLD] = I64("scan_period_min_ms", false, INT64_MIN, INT64_MAX,
				       struct marker_sysctl, scan_period_min_ms_old),
	[MK_SYSCTL_SCHED_FEATURES] = STR("sched_features", false, struct marker_sysctl,
					 sched_features),
	[MK_SYSCTL_PHASE]	= STR("phase", false, struct marker_sysctl, phase_word),
	[MK_SYSCTL_NUMA_BALANCING] = I64("kernel.numa_balancing", false, INT64_MIN, INT64_MAX,
					 struct marker_sysctl, numa_balancing),
	[MK_SYSCTL_MIGRATION_COST] = I64("sched.migration_cost_ns", false, INT64_MIN, INT64_MAX,
					 struct marker_sysctl, migration_cost_ns),
	[MK_SYSCTL_MIGRATION_COST_OLD] = I64("kernel.sched_migration_cost_ns", false, INT64_MIN,
					     INT64_MAX, struct marker_sysctl,
					     migration_cost_ns_old),
};

/* the counters the cost ledger reads; the recorder adds the other NUMA ones */
static const struct marker_key vmstat_keys[MK_VMSTAT__COUNT] = {
	[MK_VMSTAT_PHASE]	= STR("phase", true, struct marker_vmstat, phase_word),
	[MK_VMSTAT_HINT_FAULTS]	= I64("numa_hint_faults", false, INT64_MIN, INT64_MAX,
				      struct marker_vmstat, numa_hint_faults),
	[MK_VMSTAT_HINT_LOCAL]	= I64("numa_hint_faults_local", false, INT64_MIN, INT64_MAX,
				      struct marker_vmstat, numa_hint_faults_local),
};

#define S64(n, f) I64(n, false, INT64_MIN, INT64_MAX, struct marker_sample, f)
#define S32(n, f) INT(n, false, INT_MIN, INT_MAX, struct marker_sample, f)
static const struct marker_key sample_keys[MK_SAMPLE__COUNT] = {
	[MK_SAMPLE_T]		= S64("t", t),
	[MK_SAMPLE_SEQ]		= S64("seq", seq),
	[MK_SAMPLE_PID]		= S32("pid", pid),
	[MK_SAMPLE_TID]		= INT("tid", true, 0, INT_MAX, struct marker_sample, tid),
	[MK_SAMPLE_COMM]	= { "comm", MARKER_T_COMM, false, 0, SR_COMM_LEN - 1,
				    offsetof(struct marker_sample, comm) },
	[MK_SAMPLE_CPU]		= S32("cpu", cpu),
	[MK_SAMPLE_PREF]	= S32("pref", pref),
	[MK_SAMPLE_NODE]	= S32("node", node),
	[MK_SAMPLE_GRP]		= S32("grp", grp),
	[MK_SAMPLE_TF]		= S64("tf", tf),
	[MK_SAMPLE_MIG]		= S64("mig", mig),
	[MK_SAMPLE_SCAN]	= S64("scan", scan),
	[MK_SAMPLE_NMIG]	= S64("nmig", nmig),
	[MK_SAMPLE_FORCED]	= S64("forced", forced),
	[MK_SAMPLE_FHOT]	= S64("fhot", fhot),
	[MK_SAMPLE_FRUN]	= S64("frun", frun),
	[MK_SAMPLE_FAFF]	= S64("faff", faff),
	[MK_SAMPLE_F]		= { "f", MARKER_T_FAULTS, false, 0, MARKER_MAX_NODES - 1,
				    offsetof(struct marker_sample, faults) },
};

static const struct marker_key record_keys[MK_RECORD__COUNT] = {
	[MK_RECORD_OPTIONS]	= STR("options", false, struct marker_record, options),
	[MK_RECORD_KPROBE]	= STR("kprobe", false, struct marker_record, kprobe),
};

#define L64(n, lo, f) I64(n, false, lo, INT64_MAX, struct marker_lost, f)
static const struct marker_key lost_keys[MK_LOST__COUNT] = {
	[MK_LOST_CPU]		= INT("cpu", true, 0, MARKER_MAX_CPUS - 1, struct marker_lost, cpu),
	[MK_LOST_LOST]		= L64("lost", 0, lost),
	[MK_LOST_LOST_PAGES]	= L64("lost_pages", 0, lost_pages),
	[MK_LOST_OVERRUN]	= L64("overrun", INT64_MIN, overrun),
	[MK_LOST_DROPPED]	= L64("dropped", INT64_MIN, dropped),
	[MK_LOST_PAGES]		= L64("pages", 0, pages),
};

/* ns between 0.001 and one second, in thousandths */
#define MILLI(n, req, lo, f) { n, MARKER_T_MILLI, req, lo, 1000000000000LL, \
			       offsetof(struct marker_latency, f) }
static const struct marker_key latency_keys[MK_LATENCY__COUNT] = {
	[MK_LATENCY_FROM]	= INT("from", true, 0, MARKER_MAX_NODES - 1, struct marker_latency, from),
	[MK_LATENCY_TO]		= INT("to", true, 0, MARKER_MAX_NODES - 1, struct marker_latency, to),
	[MK_LATENCY_NS]		= MILLI("ns", true, 1, ns_milli),
	[MK_LATENCY_SPREAD]	= MILLI("spread", false, 0, spread_milli),
	[MK_LATENCY_REPEATS]	= INT("repeats", false, 1, INT_MAX, struct marker_latency, repeats),
	[MK_LATENCY_LOADS]	= I64("loads", false, 1, INT64_MAX, struct marker_latency, loads),
};

/* a snapshot's task: the keys numa_sample also has decode into .s as there */
#define T32(n, f) INT(n, false, INT_MIN, INT_MAX, struct marker_task, f)
static const struct marker_key task_keys[MK_TASK__COUNT] = {
	[MK_TASK_PHASE]		= STR("phase", true, struct marker_task, phase_word),
	[MK_TASK_TID]		= INT("tid", true, 1, INT_MAX, struct marker_task, s.tid),
	[MK_TASK_PID]		= T32("pid", s.pid),
	[MK_TASK_PPID]		= T32("ppid", ppid),
	[MK_TASK_COMM]		= { "comm", MARKER_T_COMM, false, 0, SR_COMM_LEN - 1,
				    offsetof(struct marker_task, s.comm) },
	[MK_TASK_KTHREAD]	= INT("kthread", false, 0, 1, struct marker_task, kthread),
	[MK_TASK_POLICY]	= T32("policy", policy),
	[MK_TASK_PRIO]		= T32("prio", prio),
	[MK_TASK_NICE]		= INT("nice", false, -20, 19, struct marker_task, nice),
	[MK_TASK_CPUS]		= { "cpus", MARKER_T_CPULIST, false, 0, MARKER_MAX_CPUS - 1,
				    offsetof(struct marker_task, cpus) },
	[MK_TASK_CPU]		= T32("cpu", s.cpu),
	[MK_TASK_PREF]		= T32("pref", s.pref),
	[MK_TASK_GRP]		= T32("grp", s.grp),
	[MK_TASK_TF]		= I64("tf", false, INT64_MIN, INT64_MAX, struct marker_task, s.tf),
	[MK_TASK_EXEC_START]	= I64("exec_start_ns", false, 0, INT64_MAX, struct marker_task,
				      exec_start_ns),
	[MK_TASK_NMIG]		= I64("nmig", false, INT64_MIN, INT64_MAX, struct marker_task,
				      s.nmig),
	[MK_TASK_F]		= { "f", MARKER_T_FAULTS, false, 0, MARKER_MAX_NODES - 1,
				    offsetof(struct marker_task, s) },
};

/* a snapshot's sched domain; its knobs follow by their debugfs names */
static const struct marker_key domain_keys[MK_DOMAIN__COUNT] = {
	[MK_DOMAIN_PHASE]	= STR("phase", true, struct marker_domain, phase_word),
	[MK_DOMAIN_CPU]		= INT("cpu", true, 0, MARKER_MAX_CPUS - 1, struct marker_domain, cpu),
	[MK_DOMAIN_LEVEL]	= INT("level", true, 0, 64, struct marker_domain, level),
	[MK_DOMAIN_NAME]	= STR("name", false, struct marker_domain, name),
	[MK_DOMAIN_FLAGS]	= STR("flags", false, struct marker_domain, flags),
	[MK_DOMAIN_SPAN]	= { "span", MARKER_T_CPULIST, false, 0, MARKER_MAX_CPUS - 1,
				    offsetof(struct marker_domain, span) },
	[MK_DOMAIN_SPAN_FROM]	= STR("span_from", false, struct marker_domain, span_from),
};

#define N64(n, f) I64(n, false, 0, INT64_MAX, struct marker_snapshot, f)
static const struct marker_key snapshot_keys[MK_SNAP__COUNT] = {
	[MK_SNAP_PHASE]		= STR("phase", true, struct marker_snapshot, phase_word),
	[MK_SNAP_TASKS]		= N64("tasks", tasks),
	[MK_SNAP_KTHREADS]	= N64("kthreads", kthreads),
	[MK_SNAP_UNWRITTEN]	= N64("unwritten", unwritten),
	[MK_SNAP_ABSENT]	= STR("absent", false, struct marker_snapshot, absent),
	[MK_SNAP_DOMAINS]	= N64("domains", domains),
	[MK_SNAP_DEBUGFS]	= STR("debugfs", false, struct marker_snapshot, debugfs),
	[MK_SNAP_READ_NS]	= N64("read_ns", read_ns),
};

#define PS(n, req, f) STR(n, req, struct marker_probe, f)
#define PI(n, lo, f) I64(n, false, lo, INT64_MAX, struct marker_probe, f)
static const struct marker_key probe_keys[MK_PROBE__COUNT] = {
	[MK_PROBE_NAME]		= PS("name", true, name),
	[MK_PROBE_FUNC]		= PS("func", false, func),
	[MK_PROBE_KIND]		= PS("kind", false, kind),
	[MK_PROBE_SYMBOL]	= PS("symbol", false, symbol),
	[MK_PROBE_STATUS]	= PS("status", true, status),
	[MK_PROBE_SE_OFF]	= PI("se_off", 0, se_off),
	[MK_PROBE_MISSING]	= PS("missing", false, missing),
	[MK_PROBE_REASON]	= PS("reason", false, reason),
	[MK_PROBE_PHASE]	= PS("phase", false, phase),
	[MK_PROBE_HITS]		= PI("hits", 0, hits),
	[MK_PROBE_MISSES]	= PI("misses", 0, misses),
};

#define KEYS(k) k, (int)(sizeof(k) / sizeof(k[0]))
static const struct marker_format formats[SR_MARK__COUNT] = {
	[SR_MARK_META]		= { SR_MARK_META, "schedreplay_meta", KEYS(meta_keys), false },
	[SR_MARK_NODE]		= { SR_MARK_NODE, "schedreplay_node", KEYS(node_keys), false },
	[SR_MARK_SYSCTL]	= { SR_MARK_SYSCTL, "schedreplay_sysctl", KEYS(sysctl_keys), true },
	[SR_MARK_VMSTAT]	= { SR_MARK_VMSTAT, "schedreplay_vmstat", KEYS(vmstat_keys), true },
	[SR_MARK_NUMA_SAMPLE]	= { SR_MARK_NUMA_SAMPLE, "numa_sample", KEYS(sample_keys), false },
	[SR_MARK_EVENTS]	= { SR_MARK_EVENTS, "schedreplay_events", NULL, 0, true },
	[SR_MARK_RECORD]	= { SR_MARK_RECORD, "schedreplay_record", KEYS(record_keys), false },
	[SR_MARK_LOST]		= { SR_MARK_LOST, "schedreplay_lost", KEYS(lost_keys), false },
	[SR_MARK_LATENCY]	= { SR_MARK_LATENCY, "schedreplay_latency", KEYS(latency_keys), false },
	[SR_MARK_TASK]		= { SR_MARK_TASK, "schedreplay_task", KEYS(task_keys), false },
	[SR_MARK_DOMAIN]	= { SR_MARK_DOMAIN, "schedreplay_domain", KEYS(domain_keys), true },
	[SR_MARK_SNAPSHOT]	= { SR_MARK_SNAPSHOT, "schedreplay_snapshot", KEYS(snapshot_keys),
				    false },
	[SR_MARK_PROBE]		= { SR_MARK_PROBE, "schedreplay_probe", KEYS(probe_keys), false },
};

_Static_assert(MK_META__COUNT <= MARKER_MAX_KEYS && MK_SAMPLE__COUNT <= MARKER_MAX_KEYS &&
	       MK_LOST__COUNT <= MARKER_MAX_KEYS && MK_TASK__COUNT <= MARKER_MAX_KEYS &&
	       MK_SYSCTL__COUNT <= MARKER_MAX_KEYS && MK_PROBE__COUNT <= MARKER_MAX_KEYS,
	       "status[] too small");
_Static_assert(offsetof(struct marker_task, s) == 0, "the f= decoder writes a marker_sample");

const struct marker_format *marker_format(enum sr_marker_kind kind)
{
	if (kind <= SR_MARK_NONE || kind >= SR_MARK__COUNT)
		return NULL;
	return &formats[kind];
}
