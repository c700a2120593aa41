/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * marker.h - the key=value lines schedreplay writes into traces through
 * trace_marker (schedreplay_meta / _node / _sysctl / _vmstat / _events /
 * _record / _lost and numa_sample; docs/formats.md), as one table and the
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

/** enum marker_type - how a key's value is written */
enum marker_type {
	MARKER_T_I64,		/* decimal integer, optional '-' */
	MARKER_T_INT,		/* the same, stored in an int */
	MARKER_T_STR,		/* a word without spaces, kept as (pointer, length) */
	MARKER_T_COMM,		/* a task name, copied into char[SR_COMM_LEN] and cut there */
	MARKER_T_CPULIST,	/* "0-3,8"; ids 0 .. hi */
	MARKER_T_INTLIST,	/* "10,20,40"; each lo .. hi, at most MARKER_MAX_NODES */
	MARKER_T_FAULTS,	/* numa_sample f=: "node:tp/ts/gp/gs,..." */
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
       MK_META__COUNT };
enum { MK_NODE_NODE, MK_NODE_CPUS, MK_NODE_DISTANCE, MK_NODE__COUNT };
enum { MK_SYSCTL_SCAN_MIN, MK_SYSCTL_SCAN_MIN_OLD, MK_SYSCTL_SCHED_FEATURES,
       MK_SYSCTL__COUNT };
enum { MK_VMSTAT_PHASE, MK_VMSTAT_HINT_FAULTS, MK_VMSTAT_HINT_LOCAL, MK_VMSTAT__COUNT };
enum { MK_SAMPLE_T, MK_SAMPLE_SEQ, MK_SAMPLE_PID, MK_SAMPLE_TID, MK_SAMPLE_COMM, MK_SAMPLE_CPU,
       MK_SAMPLE_PREF, MK_SAMPLE_NODE, MK_SAMPLE_GRP, MK_SAMPLE_TF, MK_SAMPLE_MIG,
       MK_SAMPLE_SCAN, MK_SAMPLE_NMIG, MK_SAMPLE_FORCED, MK_SAMPLE_FHOT, MK_SAMPLE_FRUN,
       MK_SAMPLE_FAFF, MK_SAMPLE_F, MK_SAMPLE__COUNT };
enum { MK_RECORD_OPTIONS, MK_RECORD_KPROBE, MK_RECORD__COUNT };
enum { MK_LOST_CPU, MK_LOST_LOST, MK_LOST_LOST_PAGES, MK_LOST_OVERRUN, MK_LOST_DROPPED,
       MK_LOST_PAGES, MK_LOST__COUNT };
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

/** struct marker_sysctl - schedreplay_sysctl: the NUMA balancer's knobs */
struct marker_sysctl {
	int64_t			scan_period_min_ms;	/* numa_balancing.scan_period_min_ms */
	int64_t			scan_period_min_ms_old;	/* scan_period_min_ms (older recorders) */
	struct marker_str	sched_features;
	uint8_t			status[MARKER_MAX_KEYS];
};

/** enum marker_phase - a schedreplay_vmstat line's phase= */
enum marker_phase {
	MARKER_PHASE_OTHER = 0,	/* absent or another word */
	MARKER_PHASE_START,
	MARKER_PHASE_END,
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
