/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.h - `schedreplay record`: record the scheduler events the replay
 * reads into a trace.dat (version 6) through a private tracefs instance.
 *
 * The recorder owns exactly one tracefs instance ("schedreplay-<pid>") and,
 * where the kernel has kprobe events, one probe group ("schedreplay_<pid>");
 * it changes nothing else.  Lifecycle:
 *
 *	record_new()      options, no side effects
 *	record_create()   remove stale instances of dead recorders, create ours,
 *	                  enable events, add the probe, write the metadata marker
 *	                  lines, start the sampler thread, turn tracing on
 *	record_poll()     move full ring-buffer pages to the per-CPU temp files
 *	record_stop()     end marker lines, tracing off, drain every CPU
 *	record_finish()   assemble trace.dat under a temporary name and rename it
 *	record_destroy()  remove the instance and the probe (every exit path)
 *	record_free()     also calls record_destroy(); unlinks anything temporary
 *
 * Library code: nothing here prints or exits.  Failures are in the struct
 * err passed to record_new().
 */
#ifndef SR_RECORD_RECORD_H
#define SR_RECORD_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ingest/marker.h"
#include "record-latency.h"
#include "util/err.h"

#define RECORD_INSTANCE_PREFIX	"schedreplay-"
#define RECORD_PROBE_PREFIX	"schedreplay_"
#define RECORD_DEFAULT_SAMPLE_MS	1000
#define RECORD_DEFAULT_BUFFER_KB	8192

/**
 * struct record_opts - what to record and where
 * @output:	the trace.dat to write (replaced whole at the end)
 * @pids:	processes whose threads are sampled (borrowed)
 * @nr_pids:	entries in @pids
 * @comms:	process names whose threads are sampled (borrowed)
 * @nr_comms:	entries in @comms
 * @sample_ms:	numa_sample period in milliseconds (0: no sampler)
 * @buffer_kb:	ring buffer per CPU, KiB
 * @cmdline:	the recorder's own options as one line, stored as metadata
 * @latency_s:	time budget of the memory latency profile measured before
 *		tracing starts (record-latency.h); 0: not measured
 * @no_probes:	no decision probes (--no-probes; docs/recording.md)
 *
 * With no @pids, @comms or child (record_create()), every user-space
 * thread is sampled.  Events are always recorded system-wide: the replay
 * needs every CPU's runqueue.
 */
struct record_opts {
	const char		*output;
	const pid_t		*pids;
	int			nr_pids;
	const char *const	*comms;
	int			nr_comms;
	unsigned int		sample_ms;
	unsigned int		buffer_kb;
	const char		*cmdline;
	double			latency_s;
	bool			no_probes;
};

/**
 * struct record_cpu_stats - what one CPU's ring buffer gave
 * @pages:	ring-buffer pages written to the file
 * @bytes:	their size in bytes
 * @lost:	events the kernel reported lost inside the pages (missed-events
 *		counts in page headers; a page flagged without a count adds 1)
 * @lost_pages:	pages carrying a missed-events flag
 * @overrun:	the kernel's "overrun" counter at the end (events overwritten
 *		before they were read), -1 when unknown
 * @dropped:	the kernel's "dropped events" counter, -1 when unknown
 */
struct record_cpu_stats {
	uint64_t	pages;
	uint64_t	bytes;
	uint64_t	lost;
	uint64_t	lost_pages;
	int64_t		overrun;
	int64_t		dropped;
};

/**
 * struct record_summary - the result, for the caller to print
 * @nr_cpus:	entries in @cpu
 * @cpu:	per-CPU statistics (owned by the record)
 * @samples:	numa_sample lines written
 * @kprobe:	"added", or why the numa_fault probe is absent (static text)
 * @latency:	the latency profile written into the trace (owned by the
 *		record), NULL when none
 * @latency_why: "measured", "off" (not asked for) or why it failed
 * @probes:	the decision probes, one line each ("cmt: added ...", "strf: missing: why")
 * @stale_removed: stale instances of dead recorders removed
 * @stale_probes: stale probe groups of dead recorders removed
 * @file_bytes:	size of the trace.dat written
 * @duration_ns: time tracing was on
 * @snapshot_tasks: schedreplay_task lines of the last snapshot written
 * @snapshot_unwritten: of its tasks, lines the marker refused
 * @snapshot_domains: schedreplay_domain lines of it (0 without debugfs)
 */
struct record_summary {
	int				nr_cpus;
	const struct record_cpu_stats	*cpu;
	uint64_t			samples;
	const char			*kprobe;
	const struct record_latency	*latency;
	const char			*latency_why;
	const char			*probes;
	int				stale_removed;
	int				stale_probes;
	uint64_t			file_bytes;
	uint64_t			duration_ns;
	int64_t				snapshot_tasks;
	int64_t				snapshot_unwritten;
	int64_t				snapshot_domains;
};

struct record;

/**
 * record_new() - check options and allocate a recorder
 * @opts: options; copied, the strings and arrays are borrowed until
 *        record_free()
 * @e:    error slot, used for the recorder's whole life
 *
 * Context: no side effects on tracing or files.
 * Return: the recorder, or NULL with @e set.
 */
struct record *record_new(const struct record_opts *opts, struct err *e);

/**
 * record_check_access() - can this process record at all?
 * @r: the recorder
 *
 * Mounts tracefs when it is not mounted (remembering to unmount it at
 * record_destroy()), then checks it may create instances.
 *
 * Return: 0; -EPERM/-EACCES when not allowed (not root); -ENODEV when
 * there is no tracefs.
 */
int record_check_access(struct record *r);

/**
 * record_create() - start recording
 * @r:     the recorder (record_check_access() done)
 * @child: a process whose descendants are sampled (a started command), or 0
 *
 * Removes stale instances and probe groups whose recorder died, creates the
 * instance, sizes its buffers, enables the events, adds the kprobe where
 * possible, opens the output's temporary files (so an unwritable folder is
 * found before anything runs), writes the schedreplay_* marker lines,
 * starts the sampler and turns tracing on in the instance.
 *
 * Return: 0 or a negative code; on failure record_destroy() undoes it all.
 */
int record_create(struct record *r, pid_t child);

/**
 * record_poll() - move the pages ready in the ring buffers to disk
 * @r: the recorder
 *
 * Call a few times a second while recording.
 * Return: 0 or a negative code (-ENOSPC when the disk is full).
 */
int record_poll(struct record *r);

/**
 * record_stop() - stop recording and drain the buffers
 * @r: the recorder
 *
 * Writes the end marker lines, stops the sampler, turns tracing off in the
 * instance, drains every CPU and reads the kernel's per-CPU counters.
 * Return: 0 or a negative code.
 */
int record_stop(struct record *r);

/**
 * record_finish() - write the trace.dat and move it into place
 * @r: the recorder (record_stop() done)
 *
 * Reads the event formats, cmdlines and printk formats, writes the file
 * under a temporary name in the output's folder, fsyncs and renames it.
 * Return: 0 or a negative code; on failure nothing is left at the output
 * path (an earlier file there is untouched).
 */
int record_finish(struct record *r);

/**
 * record_destroy() - remove the instance and the probe; unmount tracefs
 * when record_check_access() mounted it
 * @r: the recorder (NULL allowed)
 *
 * Safe to call at any point and more than once.
 */
void record_destroy(struct record *r);

/**
 * record_summary() - statistics of a run
 * @r: the recorder
 *
 * Return: borrowed, valid until record_free().
 */
const struct record_summary *record_summary(const struct record *r);

/** record_free() - record_destroy(), unlink temporary files, free. NULL allowed. */
void record_free(struct record *r);

/**
 * record_cleanup_stale() - remove instances and probe groups of dead
 * recorders
 * @e: error slot
 * @nr_probes: set to the number of probe groups removed (NULL: not wanted)
 *
 * An instance "schedreplay-<pid>" or a probe group "schedreplay_<pid>" is
 * stale when no process <pid> runs schedreplay.  Done by record_create() too.
 * Return: the number of instances removed, or a negative code.
 */
int record_cleanup_stale(struct err *e, int *nr_probes);

/* ---- the parts below are pure functions, tested without tracefs ---- */

/**
 * record_parse_sched() - read the text of a /proc/.../sched file into the
 * fields a numa_sample line carries
 * @text: the file's bytes
 * @len:  their count
 * @out:  pref, node, grp, tf, mig, scan, nmig, forced, fhot, frun, faff
 *        and the per-node faults (nr_nodes 0 before any fault); every
 *        field -1 unless found, t/seq/pid/tid/cpu -1 and comm "" for the
 *        caller to fill
 */
void record_parse_sched(const char *text, size_t len, struct marker_sample *out);

/**
 * record_format_sample() - one numa_sample line (no newline), its keys in
 * the order of the marker table
 * @buf, @len: destination; the f= list is cut at an entry when short
 * @comm:   the task's name (untrusted: blanks and control bytes become '_')
 * @s:      the sample: t, seq, pid (tgid), tid, cpu and what
 *          record_parse_sched() read
 *
 * Return: the line's length, 0 (and "") when even the fixed keys do not fit.
 */
size_t record_format_sample(char *buf, size_t len, const char *comm,
			    const struct marker_sample *s);

/**
 * struct record_stat - the fields of /proc/PID/stat a snapshot keeps;
 * -1 where the line was too short (nice 0)
 * @comm:  between the first '(' and the last ')' (the name may hold both)
 * @flags: field 9 (PF_KTHREAD is 0x00200000)
 * @prio, @nice: fields 18 and 19; @cpu: field 39; @policy: field 41
 */
struct record_stat {
	char		comm[64];
	int		ppid;
	unsigned long	flags;
	int		prio;
	int		nice;
	int		cpu;
	int		policy;
};

/**
 * record_parse_stat() - read a /proc/PID/stat line
 * @text, @len: its bytes (no NUL needed)
 * @out:        filled
 * Return: 0, or -EINVAL when there is no "(comm)" or fewer than 19 fields.
 */
int record_parse_stat(const char *text, size_t len, struct record_stat *out);

/**
 * record_parse_exec_start() - se.exec_start of a /proc/.../sched text
 * ("se.exec_start : 12333015.052034", milliseconds) in ns
 * Return: the value, -1 when the line is absent or malformed.
 */
int64_t record_parse_exec_start(const char *text, size_t len);

/**
 * record_format_domain() - one schedreplay_domain line from a debugfs
 * sched/domains/cpuN/domainM folder
 * @buf, @len: destination; knobs that do not fit are left out
 * @dir:       the folder: name and flags, then every other file as a knob
 *             (in name order, blanks of a value as ',')
 * @phase:     "start" or "end"
 * @cpu, @level: N and M
 *
 * The span comes from sysfs by the domain's name (SMT, CLS, MC, PKG, DIE;
 * span_from=topology); other domains (NUMA levels) have none.
 * Return: the line's length, 0 (and "") when the fixed keys do not fit.
 */
size_t record_format_domain(char *buf, size_t len, const char *dir, const char *phase, int cpu,
			    int level);

/**
 * record_comm_encode() - a task name as marker lines carry it (comm=):
 * blanks, control bytes and DEL become '_', an empty name "_"
 * @name, @len: destination, cut at @len - 1 bytes
 * @comm:       the name as /proc gives it (untrusted)
 */
void record_comm_encode(char *name, size_t len, const char *comm);

/**
 * record_format_task() - one schedreplay_task line (no newline), keys in
 * the order of the marker table
 * @buf, @len: destination; the f= list is cut at an entry when short, and
 *             a cpus= list longer than 511 bytes is left out
 * @comm:      the task's name (encoded as record_comm_encode() does)
 * @t:         the task; a key is written only when @t->status[key] is
 *             MARKER_OK (the recorder had that field)
 *
 * Return: the line's length, 0 (and "") when even the fixed keys do not fit.
 */
size_t record_format_task(char *buf, size_t len, const char *comm, const struct marker_task *t);

/**
 * record_marker_line() - a marker line of @kind from the table: its word,
 * then " key=value" for every key whose value is not NULL
 * @buf, @len: destination (no newline written)
 * @kind:      the kind of line
 * @vals:      one value per key of the kind's table, in table order
 *
 * Return: the line's length, 0 (and "") when it does not fit.
 */
size_t record_marker_line(char *buf, size_t len, enum sr_marker_kind kind,
			  const char *const vals[]);

/** record_key_name() - the name of key @key (an MK_* index) of @kind.  Return: static or NULL. */
const char *record_key_name(enum sr_marker_kind kind, int key);

#endif
