/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * marker.h - the key=value lines schedreplay writes into traces through
 * trace_marker (schedreplay_meta / _node / _sysctl / _vmstat / _events /
 * _record / _lost / _latency, numa_sample, and the snapshot's schedreplay_task /
 * _domain / _snapshot; docs/formats.md), as one table and the
 * typed events decoded from it.
 *
 * The table (marker_format()) says, for every kind of line, its leading
 * word and its keys with their types, whether each is required, and the
 * range of its values.  The recorder (src/record/) writes lines from it
 * and the decoder here reads them with it: only src/ingest/ decodes marker
 * text, and everything above ingest takes the typed structs below from
 * marker_decode_*(), never the text.
 *
 * Lines are untrusted: every parser bounds its reads by the given length
 * and never needs a NUL terminator.
 */
#ifndef SR_INGEST_MARKER_H
#define SR_INGEST_MARKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

#define MARKER_MAX_NODES	1024
#define MARKER_MAX_CPUS		4096
#define MARKER_MAX_DISTANCE	255
#define MARKER_MAX_KEYS		24
#define MARKER_MAX_LATENCY_LINES	(64 * 64)	/* RECORD_LATENCY_MAX_NODES squared */

/** enum marker_type - how a key's value is written */
enum marker_type {
	MARKER_T_I64,		/* decimal integer, optional '-' */
	MARKER_T_INT,		/* the same, stored in an int */
	MARKER_T_STR,		/* a word without spaces, kept as (pointer, length) */
	MARKER_T_COMM,		/* a task name, copied into char[SR_COMM_LEN] and cut there */
	MARKER_T_CPULIST,	/* "0-3,8"; ids 0 .. hi */
	MARKER_T_INTLIST,	/* "10,20,40"; each lo .. hi, at most MARKER_MAX_NODES */
	MARKER_T_FAULTS,	/* numa_sample f=: "node:tp/ts/gp/gs,..." */
	MARKER_T_MILLI,		/* "95.312": a decimal with at most 3 fraction digits, kept
				 * in an int64_t as thousandths (95312); lo/hi in them */
};

/**
 * struct marker_key - one key of a kind of line
 * @name:     the key, without '='
 * @type:     how its value is written
 * @required: a line without it is bad
 * @lo, @hi:  the range of an integer (or of each list item; @hi is the
 *            highest CPU id for a CPU list)
 * @off:      where the decoded value goes in the kind's struct
 */
struct marker_key {
	const char		*name;
	enum marker_type	type;
	bool			required;
	int64_t			lo;
	int64_t			hi;
	size_t			off;
};

/**
 * struct marker_format - one kind of line
 * @kind:    its enum sr_marker_kind
 * @word:    the leading word ("schedreplay_meta")
 * @keys:    its keys, in the order the recorder writes them
 * @nr_keys: entries in @keys
 * @open:    other keys may follow (sysctl files, vmstat counters, event
 *           names): the recorder adds them by name, the decoder skips them
 */
struct marker_format {
	enum sr_marker_kind		kind;
	const char			*word;
	const struct marker_key		*keys;
	int				nr_keys;
	bool				open;
};

/**
 * marker_format() - the table entry of a kind
 * @kind: SR_MARK_META .. SR_MARK__COUNT - 1
 * Return: static, or NULL for SR_MARK_NONE and values out of range.
 */
const struct marker_format *marker_format(enum sr_marker_kind kind);

/** enum marker_status - what the decoder found for one key */
enum marker_status {
	MARKER_ABSENT = 0,	/* not in the line (an error when required) */
	MARKER_OK,
	MARKER_BAD,		/* present but malformed */
	MARKER_RANGE,		/* a number or list item out of the key's range */
};

/** struct marker_str - a string value, borrowed from the event's text */
struct marker_str {
	const char	*s;
	size_t		len;
};

/* Key indices of each kind, in table order (status[] is indexed by them). */
enum { MK_META_RELEASE, MK_META_MACHINE, MK_META_NODES, MK_META_CPUS, MK_META_RECORDER,
       MK_META_CLOCK, MK_META_SAMPLE_MS, MK_META_BUFFER_KB, MK_META_KPROBE, MK_META_PAGE_SIZE,
       MK_META_LATENCY, MK_META__COUNT };
enum { MK_NODE_NODE, MK_NODE_CPUS, MK_NODE_DISTANCE, MK_NODE__COUNT };
enum { MK_SYSCTL_SCAN_MIN, MK_SYSCTL_SCAN_MIN_OLD, MK_SYSCTL_SCHED_FEATURES,
       MK_SYSCTL_PHASE, MK_SYSCTL_NUMA_BALANCING, MK_SYSCTL_MIGRATION_COST,
       MK_SYSCTL_MIGRATION_COST_OLD, MK_SYSCTL__COUNT };
enum { MK_VMSTAT_PHASE, MK_VMSTAT_HINT_FAULTS, MK_VMSTAT_HINT_LOCAL, MK_VMSTAT__COUNT };
enum { MK_SAMPLE_T, MK_SAMPLE_SEQ, MK_SAMPLE_PID, MK_SAMPLE_TID, MK_SAMPLE_COMM, MK_SAMPLE_CPU,
       MK_SAMPLE_PREF, MK_SAMPLE_NODE, MK_SAMPLE_GRP, MK_SAMPLE_TF, MK_SAMPLE_MIG,
       MK_SAMPLE_SCAN, MK_SAMPLE_NMIG, MK_SAMPLE_FORCED, MK_SAMPLE_FHOT, MK_SAMPLE_FRUN,
       MK_SAMPLE_FAFF, MK_SAMPLE_F, MK_SAMPLE__COUNT };
enum { MK_RECORD_OPTIONS, MK_RECORD_KPROBE, MK_RECORD__COUNT };
enum { MK_LOST_CPU, MK_LOST_LOST, MK_LOST_LOST_PAGES, MK_LOST_OVERRUN, MK_LOST_DROPPED,
       MK_LOST_PAGES, MK_LOST__COUNT };
enum { MK_LATENCY_FROM, MK_LATENCY_TO, MK_LATENCY_NS, MK_LATENCY_SPREAD, MK_LATENCY_REPEATS,
       MK_LATENCY_LOADS, MK_LATENCY__COUNT };
enum { MK_TASK_PHASE, MK_TASK_TID, MK_TASK_PID, MK_TASK_PPID, MK_TASK_COMM, MK_TASK_KTHREAD,
       MK_TASK_POLICY, MK_TASK_PRIO, MK_TASK_NICE, MK_TASK_CPUS, MK_TASK_CPU, MK_TASK_PREF,
       MK_TASK_GRP, MK_TASK_TF, MK_TASK_EXEC_START, MK_TASK_NMIG, MK_TASK_F, MK_TASK__COUNT };
enum { MK_DOMAIN_PHASE, MK_DOMAIN_CPU, MK_DOMAIN_LEVEL, MK_DOMAIN_NAME, MK_DOMAIN_FLAGS,
       MK_DOMAIN_SPAN, MK_DOMAIN_SPAN_FROM, MK_DOMAIN__COUNT };
enum { MK_SNAP_PHASE, MK_SNAP_TASKS, MK_SNAP_KTHREADS, MK_SNAP_UNWRITTEN, MK_SNAP_ABSENT,
       MK_SNAP_DOMAINS, MK_SNAP_DEBUGFS, MK_SNAP_READ_NS, MK_SNAP__COUNT };
enum { MK_PROBE_NAME, MK_PROBE_FUNC, MK_PROBE_KIND, MK_PROBE_SYMBOL, MK_PROBE_STATUS,
       MK_PROBE_SE_OFF, MK_PROBE_MISSING, MK_PROBE_REASON, MK_PROBE_PHASE, MK_PROBE_HITS,
       MK_PROBE_MISSES, MK_PROBE__COUNT };

/* Integers are -1 and strings empty where a key is absent. */

/** struct marker_meta - schedreplay_meta: the recording machine and options */
struct marker_meta {
	struct marker_str	release;
	struct marker_str	machine;
	int			nodes;
	int			cpus;
	struct marker_str	recorder;
	struct marker_str	clock;
	int64_t			sample_ms;
	int64_t			buffer_kb;
	struct marker_str	kprobe;
	int64_t			page_size;
	int			latency;	/* schedreplay_latency lines that follow */
	uint8_t			status[MARKER_MAX_KEYS];
};

/** struct marker_node - schedreplay_node: one NUMA node */
struct marker_node {
	int		node;
	uint64_t	cpus[MARKER_MAX_CPUS / 64];	/* empty when cpus= is absent */
	int		nr_distance;			/* entries in @distance */
	int		distance[MARKER_MAX_NODES];
	uint8_t		status[MARKER_MAX_KEYS];
};

/** enum marker_phase - the phase= of a vmstat, sysctl or snapshot line */
enum marker_phase {
	MARKER_PHASE_OTHER = 0,	/* absent or another word */
	MARKER_PHASE_START,
	MARKER_PHASE_END,
};

/**
 * struct marker_sysctl - schedreplay_sysctl: the scheduler's knobs (the
 * ones the model and the kernel-side policies read; the line has more)
 * @phase:          start (or an older recorder's line without phase=) or end
 * @sched_features: debugfs sched/features as written: "A,NO_B,..."
 * @migration_cost_ns:     debugfs sched/migration_cost_ns (v5.13 on)
 * @migration_cost_ns_old: /proc/sys/kernel/sched_migration_cost_ns (before)
 */
struct marker_sysctl {
	int64_t			scan_period_min_ms;	/* numa_balancing.scan_period_min_ms */
	int64_t			scan_period_min_ms_old;	/* scan_period_min_ms (older recorders) */
	struct marker_str	sched_features;
	struct marker_str	phase_word;
	enum marker_phase	phase;
	int64_t			numa_balancing;		/* kernel.numa_balancing */
	int64_t			migration_cost_ns;
	int64_t			migration_cost_ns_old;
	uint8_t			status[MARKER_MAX_KEYS];
};

/** struct marker_vmstat - schedreplay_vmstat: /proc/vmstat's NUMA counters */
struct marker_vmstat {
	enum marker_phase	phase;
	struct marker_str	phase_word;
	int64_t			numa_hint_faults;
	int64_t			numa_hint_faults_local;
	uint8_t			status[MARKER_MAX_KEYS];
};

/**
 * struct marker_node_faults - one node's entry in a numa_sample f= list
 * (the kernel's decayed fault statistics as /proc/PID/sched prints them)
 */
struct marker_node_faults {
	int64_t	task_private;
	int64_t	task_shared;
	int64_t	group_private;
	int64_t	group_shared;
};

/**
 * struct marker_sample - a numa_sample line: one thread's
 * /proc/PID/task/TID/sched numbers; -1 where absent
 * @nr_nodes:	entries in @faults (0 when f= was empty: no fault yet); the
 *		nodes an f= list skips are -1 throughout
 */
struct marker_sample {
	int64_t	t;
	int64_t	seq;
	int	pid;		/* tgid */
	int	tid;
	char	comm[SR_COMM_LEN];
	int	cpu;
	int	pref;
	int	node;
	int	grp;
	int64_t	tf;
	int64_t	mig;
	int64_t	scan;
	int64_t	nmig;
	int64_t	forced;
	int64_t	fhot;
	int64_t	frun;
	int64_t	faff;
	int	nr_nodes;
	struct marker_node_faults faults[MARKER_MAX_NODES];
};

/** struct marker_record - schedreplay_record: how the recorder was run */
struct marker_record {
	struct marker_str	options;
	struct marker_str	kprobe;
	uint8_t			status[MARKER_MAX_KEYS];
};

/** struct marker_lost - schedreplay_lost: one CPU's ring-buffer losses */
struct marker_lost {
	int		cpu;
	int64_t		lost;
	int64_t		lost_pages;
	int64_t		overrun;
	int64_t		dropped;
	int64_t		pages;
	uint8_t		status[MARKER_MAX_KEYS];
};

/**
 * struct marker_latency - schedreplay_latency: one pair of the host's
 * memory latency profile (`schedreplay latency`, docs/formats.md)
 * @from, @to:  the node whose CPUs loaded, the node whose memory was loaded
 * @ns_milli:   median latency of one dependent load, in 1/1000 ns
 * @spread_milli: max - min of the repeats, 1/1000 ns (-1: absent)
 * @repeats, @loads: how it was measured (-1: absent)
 */
struct marker_latency {
	int		from;
	int		to;
	int64_t		ns_milli;
	int64_t		spread_milli;
	int		repeats;
	int64_t		loads;
	uint8_t		status[MARKER_MAX_KEYS];
};

/**
 * struct marker_task - schedreplay_task: one task (thread) of a snapshot;
 * integers -1 where absent
 * @s:        the keys it shares with numa_sample (tid, pid = tgid, comm,
 *            cpu = last CPU, pref, grp, tf, nmig, f=), decoded as there;
 *            the numa_sample keys a task line lacks (t, seq, mig, ...) are -1
 * @kthread:  1 when /proc/PID/stat's flags have PF_KTHREAD, 0 when not
 * @policy, @prio, @nice: /proc/PID/stat's policy, priority and nice
 * @cpus:     the allowed CPUs (Cpus_allowed_list), empty when absent
 * @exec_start_ns: se.exec_start in ns (the task's rq clock_task)
 */
struct marker_task {
	struct marker_sample	s;	/* first: the f= decoder fills s.faults */
	struct marker_str	phase_word;
	enum marker_phase	phase;
	int			ppid;
	int			kthread;
	int			policy;
	int			prio;
	int			nice;
	int64_t			exec_start_ns;
	uint64_t		cpus[MARKER_MAX_CPUS / 64];
	uint8_t			status[MARKER_MAX_KEYS];
};

/**
 * struct marker_domain - schedreplay_domain: one sched domain of one CPU
 * (debugfs sched/domains/cpuN/domainM); its knobs follow by name
 * @flags:     the flags file, blanks as ','
 * @span:      its CPUs; empty when absent
 * @span_from: "debugfs", or "topology" when derived from sysfs
 */
struct marker_domain {
	struct marker_str	phase_word;
	enum marker_phase	phase;
	int			cpu;
	int			level;
	struct marker_str	name;
	struct marker_str	flags;
	uint64_t		span[MARKER_MAX_CPUS / 64];
	struct marker_str	span_from;
	uint8_t			status[MARKER_MAX_KEYS];
};

/**
 * struct marker_snapshot - schedreplay_snapshot: what one snapshot holds
 * @tasks:     schedreplay_task lines written
 * @kthreads:  of them, kernel threads
 * @unwritten: task lines the marker refused (a full buffer, an error)
 * @absent:    the task fields /proc did not show for any task, ','-joined
 *             ("none" when every field was there)
 * @domains:   schedreplay_domain lines written
 * @debugfs:   "mounted" or why the debugfs parts are missing
 * @read_ns:   how long reading it took
 */
struct marker_snapshot {
	struct marker_str	phase_word;
	enum marker_phase	phase;
	int64_t			tasks;
	int64_t			kthreads;
	int64_t			unwritten;
	struct marker_str	absent;
	int64_t			domains;
	struct marker_str	debugfs;
	int64_t			read_ns;
	uint8_t			status[MARKER_MAX_KEYS];
};

/**
 * struct marker_probe - schedreplay_probe: one decision probe placed or left
 * out (docs/recording.md, "Decision probes")
 */
struct marker_probe {
	struct marker_str	name;		/* cmt, cmt_ret, strf, ... */
	struct marker_str	func;
	struct marker_str	kind;		/* kprobe or kretprobe */
	struct marker_str	symbol;		/* as in kallsyms */
	struct marker_str	status;		/* added or missing */
	int64_t			se_off;		/* cmt: offsetof(struct task_struct, se) */
	struct marker_str	missing;	/* fields left out, comma-separated */
	struct marker_str	reason;		/* status=missing: why */
	struct marker_str	phase;		/* absent at the start; "end" for the counts */
	int64_t			hits;		/* phase=end: kprobe_profile hits */
	int64_t			misses;		/* phase=end: kprobe_profile misses */
	uint8_t			key_status[MARKER_MAX_KEYS];
};

/**
 * marker_classify() - which of our lines, if any, @s is
 * @s:   line text (no trailing newline needed)
 * @len: its length
 *
 * Only the leading word is looked at.
 * Return: the kind, SR_MARK_NONE for anything else.
 */
enum sr_marker_kind marker_classify(const char *s, size_t len);

/**
 * marker_decode_meta() - the typed fields of a schedreplay_meta event
 * @ev:  an SR_EV_PRINT event whose marker is SR_MARK_META
 * @out: filled: every key the line has, and each key's status
 *
 * The marker_decode_*() functions all work alike: every key of the table
 * is looked for, decoded into @out and given a status (enum
 * marker_status, indexed by the kind's MK_* values), so a consumer can
 * still use the good keys of a line with a bad one.  Strings are borrowed
 * from @ev's text (valid as long as it is).
 *
 * Return: 0, or -SR_EBADTEXT when the event is not of that kind, a
 * required key is absent or a key is malformed or out of range.
 */
int marker_decode_meta(const struct sr_event *ev, struct marker_meta *out);
/** marker_decode_node() - a schedreplay_node event, as marker_decode_meta(). */
int marker_decode_node(const struct sr_event *ev, struct marker_node *out);
/** marker_decode_sysctl() - a schedreplay_sysctl event, as marker_decode_meta(). */
int marker_decode_sysctl(const struct sr_event *ev, struct marker_sysctl *out);
/** marker_decode_vmstat() - a schedreplay_vmstat event, as marker_decode_meta(). */
int marker_decode_vmstat(const struct sr_event *ev, struct marker_vmstat *out);
/**
 * marker_decode_sample() - a numa_sample event
 * Return: 0, or -SR_EBADTEXT when tid= is missing or a field is malformed
 * (then @out is not to be used).
 */
int marker_decode_sample(const struct sr_event *ev, struct marker_sample *out);
/** marker_decode_record() - a schedreplay_record event, as marker_decode_meta(). */
int marker_decode_record(const struct sr_event *ev, struct marker_record *out);
/** marker_decode_lost() - a schedreplay_lost event, as marker_decode_meta(). */
int marker_decode_lost(const struct sr_event *ev, struct marker_lost *out);
/** marker_decode_latency() - a schedreplay_latency event, as marker_decode_meta(). */
int marker_decode_latency(const struct sr_event *ev, struct marker_latency *out);

/**
 * marker_decode_task() - a schedreplay_task event, as marker_decode_meta()
 * (phase= and tid= are required)
 */
int marker_decode_task(const struct sr_event *ev, struct marker_task *out);
/** marker_decode_domain() - a schedreplay_domain event, as marker_decode_meta(). */
int marker_decode_domain(const struct sr_event *ev, struct marker_domain *out);
/** marker_decode_snapshot() - a schedreplay_snapshot event, as marker_decode_meta(). */
int marker_decode_snapshot(const struct sr_event *ev, struct marker_snapshot *out);
/** marker_decode_probe() - a schedreplay_probe event, as marker_decode_meta(). */
int marker_decode_probe(const struct sr_event *ev, struct marker_probe *out);

/**
 * marker_parse_sample() - marker_decode_sample() on a line of text
 * @s, @len: the line
 * @out:     filled
 *
 * Return: as marker_decode_sample().
 */
int marker_parse_sample(const char *s, size_t len, struct marker_sample *out);

/**
 * marker_get() - find "key=value" in a line of space-separated words
 * @s, @len: the line
 * @key:     the key (without '=')
 * @val:     set to the value's start (borrowed, inside @s)
 * @val_len: set to the value's length (up to the next space)
 *
 * For decoders inside src/ingest/ (ftrace's own key=value bodies too).
 * Return: true when found.
 */
bool marker_get(const char *s, size_t len, const char *key, const char **val, size_t *val_len);

/** marker_get_i64() - marker_get() and parse a decimal integer.  Return: true when found and valid. */
bool marker_get_i64(const char *s, size_t len, const char *key, int64_t *out);

/**
 * marker_parse_cpulist() - parse "0-3,8,10-11" into a bitmap of CPUs
 * @s, @len:  the list; ',' and blanks separate items, empty items are
 *            skipped (as the topology's own readers do)
 * @cpus:     bitmap, @max bits
 * @max:      highest CPU + 1 accepted
 *
 * Return: number of CPUs set, or -SR_EBADTEXT / -SR_ERANGE.
 */
int marker_parse_cpulist(const char *s, size_t len, uint64_t *cpus, int max);

#endif
