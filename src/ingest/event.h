/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * event.h - the normalized event every decoder produces.
 *
 * Each input format (trace.dat, tracefs `trace`, `trace-cmd report`,
 * `perf script`) is turned into one time-ordered stream of struct sr_event.
 * Scalar fields are copied out of the source; the two kinds of borrowed
 * pointers are said below.  Nothing downstream of src/ingest/ sees a
 * libtraceevent or libtracecmd type.
 *
 * Comm strings are untrusted: they are copied as the kernel stored them
 * (up to 15 bytes, NUL-terminated here) and must be escaped on output.
 */
#ifndef SR_INGEST_EVENT_H
#define SR_INGEST_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#define SR_COMM_LEN 16

/**
 * enum sr_event_kind - what an event is, as far as the model cares
 *
 * SR_EV_OTHER is any event the model does not read; it is still counted
 * under its name.  SR_EV_LOST is a lost-event marker (see @lost).
 */
enum sr_event_kind {
	SR_EV_OTHER = 0,
	SR_EV_SWITCH,		/* sched_switch */
	SR_EV_WAKING,		/* sched_waking */
	SR_EV_WAKEUP,		/* sched_wakeup */
	SR_EV_WAKEUP_NEW,	/* sched_wakeup_new */
	SR_EV_MIGRATE,		/* sched_migrate_task */
	SR_EV_MOVE_NUMA,	/* sched_move_numa */
	SR_EV_SWAP_NUMA,	/* sched_swap_numa */
	SR_EV_STICK_NUMA,	/* sched_stick_numa */
	SR_EV_FORK,		/* sched_process_fork */
	SR_EV_EXEC,		/* sched_process_exec */
	SR_EV_EXIT,		/* sched_process_exit */
	SR_EV_MIGRATE_PAGES,	/* migrate:mm_migrate_pages */
	SR_EV_NUMA_FAULT,	/* a kprobe carrying task_numa_fault()'s arguments */
	SR_EV_PRINT,		/* ftrace:print (trace_marker lines) */
	SR_EV_CMT,		/* decision probe: can_migrate_task() entry */
	SR_EV_CMT_RET,		/* ...and its return (the verdict) */
	SR_EV_STRF,		/* select_task_rq_fair() entry */
	SR_EV_STRF_RET,		/* ...and its return (the chosen CPU) */
	SR_EV_TNM,		/* task_numa_migrate() entry */
	SR_EV_TNM_RET,		/* ...and its return */
	SR_EV_LOST,		/* lost events on @cpu before this point */
	SR_EV__COUNT
};

/**
 * enum sr_marker_kind - what a print event's text turned out to be; the
 * fields of each kind are decoded by marker_decode_*() (marker.h)
 */
enum sr_marker_kind {
	SR_MARK_NONE = 0,	/* not one of ours (or unparsable: see marker_bad) */
	SR_MARK_META,		/* schedreplay_meta */
	SR_MARK_NODE,		/* schedreplay_node */
	SR_MARK_SYSCTL,		/* schedreplay_sysctl */
	SR_MARK_VMSTAT,		/* schedreplay_vmstat */
	SR_MARK_NUMA_SAMPLE,	/* numa_sample */
	SR_MARK_EVENTS,		/* schedreplay_events */
	SR_MARK_RECORD,		/* schedreplay_record */
	SR_MARK_LOST,		/* schedreplay_lost */
	SR_MARK_LATENCY,	/* schedreplay_latency */
	SR_MARK_TASK,		/* schedreplay_task (a snapshot's task) */
	SR_MARK_DOMAIN,		/* schedreplay_domain (a snapshot's sched domain) */
	SR_MARK_SNAPSHOT,	/* schedreplay_snapshot (what a snapshot holds) */
	SR_MARK_PROBE,		/* schedreplay_probe */
	SR_MARK__COUNT
};

/* Unknown int values in events are -1 unless said otherwise. */

struct sr_ev_switch {
	char	prev_comm[SR_COMM_LEN];
	int	prev_pid;
	int	prev_prio;
	long	prev_state;	/* kernel TASK_* bits; 0 = runnable (preempted) */
	char	next_comm[SR_COMM_LEN];
	int	next_pid;
	int	next_prio;
};

/* sched_waking, sched_wakeup, sched_wakeup_new */
struct sr_ev_wakeup {
	char	comm[SR_COMM_LEN];
	int	pid;
	int	prio;
	int	target_cpu;
};

struct sr_ev_migrate {
	char	comm[SR_COMM_LEN];
	int	pid;
	int	prio;
	int	orig_cpu;
	int	dest_cpu;
};

/* sched_move_numa (dst_pid etc. unused: -1) and sched_swap/stick_numa */
struct sr_ev_numa {
	int	src_pid;
	int	src_tgid;
	int	src_ngid;
	int	src_cpu;
	int	src_nid;
	int	dst_pid;	/* stick: 0 when there was no task to swap with */
	int	dst_tgid;
	int	dst_ngid;
	int	dst_cpu;
	int	dst_nid;
};

struct sr_ev_fork {
	char	parent_comm[SR_COMM_LEN];
	int	parent_pid;
	char	child_comm[SR_COMM_LEN];
	int	child_pid;
};

struct sr_ev_exec {
	int	pid;
	int	old_pid;
	/* the file name is in sr_event.str */
};

struct sr_ev_exit {
	char	comm[SR_COMM_LEN];
	int	pid;
	int	prio;
};

struct sr_ev_migrate_pages {
	uint64_t	succeeded;
	uint64_t	failed;
	uint64_t	thp_succeeded;
	uint64_t	thp_failed;
	uint64_t	thp_split;
	int		mode;
	int		reason;		/* MR_* value; see reason_str when textual */
	bool		numa_misplaced;	/* reason is MR_NUMA_MISPLACED */
};

/* task_numa_fault(last_cpupid, mem_node, pages, flags) */
struct sr_ev_numa_fault {
	int	last_cpupid;
	int	mem_node;
	int	pages;
	int	flags;		/* TNF_* bits */
};

/*
 * The decision probes' fields (docs/recording.md, "Decision probes"):
 * X(ID, "field name").  One table for the six probe events; each event
 * carries the ones its probe defines that the recording kernel could fill.
 */
#define SR_PROBE_FIELDS(X)						\
	X(TASK, "task") X(PID, "pid") X(P_FLAGS, "p_flags")		\
	X(ON_CPU, "on_cpu") X(EXEC_START, "exec_start")			\
	X(LOAD_AVG, "load_avg") X(UTIL_AVG, "util_avg")			\
	X(PREF_NID, "pref_nid") X(FAULTS, "faults") X(TFAULTS, "tfaults") \
	X(NGRP, "ngrp") X(SRC_CPU, "src_cpu") X(DST_CPU, "dst_cpu")	\
	X(IDLE, "idle") X(IMBALANCE, "imbalance") X(ENV_FLAGS, "env_flags") \
	X(MTYPE, "mtype") X(NR_BF, "nr_bf") X(CNT, "cnt")		\
	X(SD_FLAGS, "sd_flags") X(SD_LEVEL, "sd_level") X(SD_SPAN, "sd_span") \
	X(SRC_NR, "src_nr") X(SRC_NPREF, "src_npref") X(SRC_NMIG, "src_nmig") \
	X(SRC_CLOCK, "src_clock") X(DST_NR, "dst_nr") X(NEXT, "next")	\
	X(LAST, "last") X(PREV_CPU, "prev_cpu") X(WAKE_FLAGS, "wake_flags") \
	X(RET, "ret") X(NGID, "ngid") X(NG_MAXCPU, "ng_maxcpu")		\
	SR_PROBE_FAULT_FIELDS(X)

/*
 * Fault counters, for nr_node_ids N up to SR_PROBE_FAULT_NODES
 * (record-probe.c): the task's NUMA_MEM ones, tfI = p->numa_faults[I] for
 * I < 2N (I = 2 * node + private); its group's NUMA_MEM and NUMA_CPU
 * ones, gfI = p->numa_group->faults[I] for I < 4N (NUMA_CPU from 2N on),
 * and ng_maxcpu = the group's max_faults_cpu.
 */
#define SR_PROBE_FAULT_NODES	8
#define SR_PROBE_FAULT_FIELDS(X) \
	X(TF0, "tf0") X(TF1, "tf1") X(TF2, "tf2") X(TF3, "tf3") X(TF4, "tf4") \
	X(TF5, "tf5") X(TF6, "tf6") X(TF7, "tf7") X(TF8, "tf8") X(TF9, "tf9") \
	X(TF10, "tf10") X(TF11, "tf11") X(TF12, "tf12") X(TF13, "tf13") \
	X(TF14, "tf14") X(TF15, "tf15") \
	X(GF0, "gf0") X(GF1, "gf1") X(GF2, "gf2") X(GF3, "gf3") X(GF4, "gf4") \
	X(GF5, "gf5") X(GF6, "gf6") X(GF7, "gf7") X(GF8, "gf8") X(GF9, "gf9") \
	X(GF10, "gf10") X(GF11, "gf11") X(GF12, "gf12") X(GF13, "gf13") \
	X(GF14, "gf14") X(GF15, "gf15") X(GF16, "gf16") X(GF17, "gf17") \
	X(GF18, "gf18") X(GF19, "gf19") X(GF20, "gf20") X(GF21, "gf21") \
	X(GF22, "gf22") X(GF23, "gf23") X(GF24, "gf24") X(GF25, "gf25") \
	X(GF26, "gf26") X(GF27, "gf27") X(GF28, "gf28") X(GF29, "gf29") \
	X(GF30, "gf30") X(GF31, "gf31")

#define SR_PROBE_ENUM_(id, name) SR_PF_##id,
/* Indices of sr_ev_probe.v */
enum sr_probe_field {
	SR_PROBE_FIELDS(SR_PROBE_ENUM_)
	SR_PF__COUNT
};
#undef SR_PROBE_ENUM_

/**
 * struct sr_ev_probe - the fields of one decision-probe event
 * @have: bit SR_PF_* set for each field the event carried (sr_probe_has())
 * @v:    the values; signed fields sign-extended, u64/x64 ones as their
 *        bits.  A field whose bit is clear is 0 and means "unknown".
 *
 * Too large for struct sr_event's union: a probe event's @str points to
 * one of these (@str_len == sizeof), borrowed as @str always is and not
 * necessarily aligned; read it with ingest_probe_get().
 */
struct sr_ev_probe {
	uint64_t	have[(SR_PF__COUNT + 63) / 64];
	int64_t		v[SR_PF__COUNT];
};

/* sr_probe_has() - whether @pr carried field @f (an SR_PF_* index) */
static inline bool sr_probe_has(const struct sr_ev_probe *pr, int f)
{
	return pr->have[f / 64] >> (f % 64) & 1;
}

/* sr_probe_set() - mark field @f of @pr as carried */
static inline void sr_probe_set(struct sr_ev_probe *pr, int f)
{
	pr->have[f / 64] |= 1ull << (f % 64);
}

struct sr_ev_lost {
	int64_t	count;		/* -1 when the source did not say how many */
};

/**
 * struct sr_event - one normalized event
 * @ts_ns:	timestamp in ns, in the trace's clock
 * @cpu:	CPU the event was recorded on
 * @pid:	common_pid: the task that was running when it was recorded
 * @kind:	what it is
 * @name:	event name as the kernel spells it ("sched_switch", "print",
 *		"numa_fault"); borrowed, valid as long as the source is open
 * @system:	event system ("sched", "ftrace", "kprobes"), or ""; borrowed
 *		likewise
 * @src_pos:	byte offset (trace.dat) or line number (text) of the event in
 *		its file, for messages
 * @str:	print: the marker text without its trailing newline;
 *		exec: the file name; otherwise NULL.  Borrowed: valid until
 *		the next ingest_next() or ingest_next_borrowed() call.
 * @str_len:	length of @str
 * @marker:	for SR_EV_PRINT, what kind of line @str is
 */
struct sr_event {
	uint64_t		ts_ns;
	int			cpu;
	int			pid;
	enum sr_event_kind	kind;
	const char		*name;
	const char		*system;
	uint64_t		src_pos;
	const char		*str;
	uint32_t		str_len;
	enum sr_marker_kind	marker;
	union {
		struct sr_ev_switch		sw;
		struct sr_ev_wakeup		wake;
		struct sr_ev_migrate		mig;
		struct sr_ev_numa		numa;
		struct sr_ev_fork		fork;
		struct sr_ev_exec		exec;
		struct sr_ev_exit		exit;
		struct sr_ev_migrate_pages	pages;
		struct sr_ev_numa_fault		fault;
		struct sr_ev_lost		lost;
	} u;
};

/** ingest_kind_is_probe() - one of the six decision-probe kinds */
static inline bool ingest_kind_is_probe(enum sr_event_kind k)
{
	return k >= SR_EV_CMT && k <= SR_EV_TNM_RET;
}

/**
 * ingest_probe_get() - copy a probe event's fields out
 * @ev:  an event of a probe kind
 * @out: filled (have = 0 when @ev carries none)
 * Return: true when @ev is a probe event with its fields attached.
 */
bool ingest_probe_get(const struct sr_event *ev, struct sr_ev_probe *out);

/**
 * ingest_probe_kind() - the kind of a probe event, from its system and name
 * @system: must start with "schedreplay_" (the recorder's kprobe group)
 * @name:   "cmt", "cmt_ret", "strf", "strf_ret", "tnm", "tnm_ret"
 * Return: the kind, or SR_EV_OTHER.
 */
enum sr_event_kind ingest_probe_kind(const char *system, const char *name);

/** ingest_probe_field_name() - "pid", "nr_bf", ... ("?" out of range) */
const char *ingest_probe_field_name(int field);

/**
 * ingest_event_kind_from_name() - map a kernel event name to its kind
 * @name: "sched_switch", "sched_migrate_task", ...
 *
 * The NUMA fault kprobe is matched by its fields, not its name, so it is
 * not found here.
 *
 * Return: the kind, or SR_EV_OTHER.
 */
enum sr_event_kind ingest_event_kind_from_name(const char *name);

/** ingest_event_kind_name() - the kernel's name of a kind ("sched_switch"). */
const char *ingest_event_kind_name(enum sr_event_kind kind);

#endif
