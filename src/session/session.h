/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.h - one trace through the whole pipeline, for every command:
 *
 *   session_open()   the TRACE argument (a trace file, a capture folder, or
 *                    "-" for text on standard input); the sidecars of a
 *                    capture folder (uname.txt, numactl-H.txt,
 *                    vmstat-*.txt, schedstat-delta.txt); the kernel release;
 *                    the topology, found once and then frozen; for a replay,
 *                    the plugins and the engine built from the policy names
 *   session_run()    decode -> range check -> decisions -> policies ->
 *                    cost, handing each decision with its cost to the
 *                    sinks (one call per decision), then the sinks' end
 *   session_close()  free everything
 *
 * Like every library under src/, nothing here prints or exits: failures are
 * a negative code with the message in the session's struct err, damage read
 * around and notices go to the callbacks of struct session_opts.
 */
#ifndef SR_SESSION_SESSION_H
#define SR_SESSION_SESSION_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "cost/cost-ledger.h"
#include "decision/decision.h"
#include "ingest/ingest.h"
#include "model/model.h"
#include "replay/engine/engine.h"
#include "topo/topo.h"
#include "util/err.h"
#include "util/strcount.h"

#define SESSION_MAX_PARAMS	64
#define SESSION_MAX_PLUGINS	8
/* Events the pre-scan reads, at most, for the trace's own topology lines. */
#define SESSION_PRESCAN_EVENTS	500000
/* Events read past a complete topology for the recorded settings line. */
#define SESSION_PRESCAN_AFTER	4096

struct session;

/**
 * enum session_mode - what session_run() does with each event
 * @SESSION_INFO:   the state model only, and events counted by name (`info`)
 * @SESSION_REPLAY: the whole pipeline (`replay`, `tui`)
 */
enum session_mode {
	SESSION_INFO = 0,
	SESSION_REPLAY,
};

/**
 * typedef session_warn_fn - damage read around (counted in the warnings)
 * @e: borrowed for the call
 */
typedef void (*session_warn_fn)(void *arg, const struct err *e);

/** typedef session_note_fn - a notice about the topology (not counted) */
typedef void (*session_note_fn)(void *arg, const char *msg);

/**
 * typedef session_progress_fn - called every 65536 events
 * @nr_read:  events read so far
 * @fraction: of the file read, 0..1, or negative when unknown
 */
typedef void (*session_progress_fn)(void *arg, uint64_t nr_read, double fraction);

/**
 * struct session_opts - how to open and run a trace
 * @mode:           enum session_mode
 * @ingest:         format, reader, threads, buffer, strict; its warn hook is
 *                  the session's own (see @warn)
 * @topology:       --topology PATH, NULL for none
 * @latency:        --latency FILE (a latency profile's JSON), NULL for the
 *                  trace's own schedreplay_latency lines
 * @old_list, @new_list: comma-separated policy names of each side (replay)
 * @kernel_policy:  the kernel side's names, "none", or NULL for the models of
 *                  the trace's release
 * @params:         "[P:]K=V" settings, in order
 * @plugins:        policy plugin files, in order
 * @scan_period_ns: decay period of the NUMA fault model, 0 for the trace's
 * @pipe_slots:     slots of the ring to the decision thread (a power of two
 *                  >= 2), 0 for some 4 MiB of decisions; for tests, which
 *                  make it small to fill and drain it often
 * @warn, @note, @progress, @cb_arg: callbacks, each may be NULL
 */
struct session_opts {
	enum session_mode	mode;
	struct ingest_opts	ingest;
	const char		*topology;
	const char		*latency;
	const char		*old_list;
	const char		*new_list;
	const char		*kernel_policy;
	const char		*params[SESSION_MAX_PARAMS];
	int			nr_params;
	const char		*plugins[SESSION_MAX_PLUGINS];
	int			nr_plugins;
	uint64_t		scan_period_ns;
	size_t			pipe_slots;
	session_warn_fn		warn;
	session_note_fn		note;
	session_progress_fn	progress;
	void			*cb_arg;
};

/* Kernel counters of a capture folder (schedstat-delta.txt), -1 when absent. */
struct session_schedstat {
	int64_t	lb_gained;		/* lb_gained over every idle type and level */
	int64_t	alb_pushed;
	int64_t	ttwu_move_affine;
	int64_t	ttwu_move_balance;
	int64_t	lb_hot_gained;
};

/**
 * struct session_trace - what was found around the trace (valid from
 * session_open() until session_close())
 * @path:            the trace file read, as given ("-" for standard input)
 * @read_path:       the file the decoder reads: @path, or the in-memory
 *                   copy of standard input or of a pipe (/proc/self/fd/N)
 * @capture_dir:     the capture folder, "" when TRACE was a file
 * @kernel_release:  "" when nothing said it; escaped
 * @release_origin:  "trace.dat", "schedreplay_meta", "uname.txt" or ""
 * @hostname:        uname's nodename from trace.dat, else uname.txt; "" when
 *                   neither says (or says the kernel's "(none)"); escaped
 * @topo:            never NULL; frozen (no CPU or node is added while
 *                   events stream)
 * @info:            the decoder's counters (final after session_run())
 * @warnings:        damage read around, as given to the warn callback
 * @beyond_topo:     of them, events naming a CPU beyond a guessed topology
 */
struct session_trace {
	char				path[PATH_MAX];
	char				read_path[PATH_MAX];
	char				capture_dir[PATH_MAX];
	char				kernel_release[128];
	const char			*release_origin;
	char				hostname[128];
	const struct topo		*topo;
	const struct ingest_info	*info;
	uint64_t			warnings;
	uint64_t			beyond_topo;
};

/**
 * struct session_sink_ops - where the decisions of a run go
 * @name:     for messages
 * @begin:    before the first event (the trace, its topology and the
 *            engine are known); may be NULL
 * @decision: once per decision, when its cost is known: in the order the
 *            costs complete, not trace order (@r->d->seq tells); @r and
 *            @cost are borrowed for the call.  NULL: the sink takes no
 *            decisions, and the session keeps none for it
 * @wants:    which decisions @decision takes (NULL: every one); the
 *            session keeps for a sink only those it wants, from the
 *            decision's evaluation until its cost is known (a copy of the
 *            used part of a 12 KiB struct decision each)
 * @end:      after the trace ended and every decision was handed out; the
 *            session's totals are final; may be NULL
 *
 * Each hook returns 0 or a negative code that stops the run, with @err set
 * (when it is not, the code's own text is used).
 */
struct session_sink_ops {
	const char	*name;
	int		(*begin)(void *priv, const struct session *s, struct err *err);
	int		(*decision)(void *priv, const struct engine_result *r,
				    const struct cost_item *cost, struct err *err);
	bool		(*wants)(const struct engine_result *r);
	int		(*end)(void *priv, const struct session *s, struct err *err);
};

/** struct session_sink - an ops table and its state */
struct session_sink {
	const struct session_sink_ops	*ops;
	void				*priv;
};

/**
 * session_opts_init() - the defaults: a replay of the seeds' old and new
 * policies, the kernel side from the trace's release
 * @o: filled
 */
void session_opts_init(struct session_opts *o);

/**
 * session_open() - open TRACE and everything found around it
 * @trace: a trace file, a capture folder holding trace.dat, or "-"
 * @o:     options; copied (the strings it points to must outlive the session)
 * @err:   where a failure is described
 *
 * The topology is taken from, first to last: @o->topology, the
 * schedreplay_meta / schedreplay_node lines inside the trace (found by a
 * pre-scan of at most SESSION_PRESCAN_EVENTS events), the capture folder's
 * numactl-H.txt, and a single node as the last resort (a notice).  A guessed
 * topology holds the CPUs the pre-scan saw (and, when the pre-scan did not
 * reach the end, every CPU the trace's header counts); it does not grow
 * while events stream.
 *
 * Return: owned (session_close()), or NULL with @err set; session_fail()
 * of @err->code tells a usage error (an unknown policy, a --param no policy
 * takes) from bad input and from an internal failure.
 */
struct session *session_open(const char *trace, const struct session_opts *o, struct err *err);

/**
 * session_run() - read the whole trace, handing decisions to @sinks
 * @sinks:    called in array order at each step
 * @nr_sinks: how many
 *
 * Call once.  Return: 0, or a negative code with session_err() set.
 */
int session_run(struct session *s, const struct session_sink *sinks, int nr_sinks);

/** session_close() - free everything (NULL is fine) */
void session_close(struct session *s);

/** session_err() - the failure of session_run().  Return: borrowed. */
const struct err *session_err(const struct session *s);

/**
 * enum session_fail - what kind of failure a code is, for exit codes
 * @SESSION_FAIL_INPUT:    unreadable or malformed input
 * @SESSION_FAIL_USAGE:    the options name what does not exist
 * @SESSION_FAIL_INTERNAL: out of memory, I/O error on output, a policy that
 *                         would not start
 */
enum session_fail {
	SESSION_FAIL_INPUT = 0,
	SESSION_FAIL_USAGE,
	SESSION_FAIL_INTERNAL,
};

/** session_fail() - the kind of a failure code of this header's functions */
enum session_fail session_fail(int code);

/** session_trace() - the trace and what was found around it.  Return: borrowed. */
const struct session_trace *session_trace(const struct session *s);

/** session_engine() - the policies (replay only, else NULL).  Return: borrowed. */
const struct engine *session_engine(const struct session *s);

/** session_model() - the state model, after session_run().  Return: borrowed. */
const struct model *session_model(const struct session *s);

/** session_decision_stats() - the classifier's counters (replay).  Return: borrowed. */
const struct decision_stats *session_decision_stats(const struct session *s);

/** session_ledger() - the cost ledger (replay).  Return: borrowed. */
const struct cost_ledger *session_ledger(const struct session *s);

/**
 * session_vmstat_source() - where the cost calibration's kernel counters
 * came from: "schedreplay_vmstat" (the trace's own lines),
 * "vmstat-before.txt/vmstat-after.txt" (the capture folder), or NULL
 */
const char *session_vmstat_source(const struct session *s);

/** session_schedstat() - schedstat-delta.txt of the capture folder, or NULL */
const struct session_schedstat *session_schedstat(const struct session *s);

/** session_event_names() - events counted by name (info mode).  Return: borrowed. */
const struct strcount *session_event_names(const struct session *s);

/** session_disagreements() - decisions where the old and new side disagree */
uint64_t session_disagreements(const struct session *s);

/**
 * session_check_event() - the range check every event passes: the CPUs and
 * nodes it names against @topo (model_check_event()), the failure placed at
 * the event's byte or line in @path
 * @in: the reader of @ev (for how its positions count)
 * Return: 0, or -SR_ERANGE / -ENOMEM with @e set.
 */
int session_check_event(const struct topo *topo, const struct ingest *in, const char *path,
			const struct sr_event *ev, struct err *e);

#endif
