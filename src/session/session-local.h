/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session-local.h - the session's state, shared by the files of
 * src/session/ only.
 */
#ifndef SR_SESSION_SESSION_LOCAL_H
#define SR_SESSION_SESSION_LOCAL_H

#include "session.h"
#include "replay/replay.h"
#include "ingest/marker.h"

/*
 * A decision kept until its cost is known (only when a sink takes
 * decisions): its copy and its engine result, whose d points to the copy.
 * Kept on a free list once handed out.
 */
struct session_pending {
	struct decision		*d;	/* calloc'd: zero past the used part */
	struct engine_result	r;
	struct session		*owner;
	struct session_pending	*next;
};

/*
 * The settings the trace recorded (the first schedreplay_sysctl line of
 * phase start, found by the pre-scan); -1 and "" where absent.
 */
struct session_recorded {
	bool		sysctl;
	int64_t		numa_balancing;			/* kernel.numa_balancing */
	int64_t		migration_cost_ns;
	const char	*migration_cost_key;		/* the sysctl it came from */
	char		features[2048];			/* sched_features, "" when absent */
};

/* the longest plugin path a policy list may name */
#define SESSION_PLUGIN_PATH_MAX	256

struct session {
	struct session_opts		opts;
	struct session_trace		tr;
	struct topo			*topo;		/* owned; tr.topo */
	struct ingest			*in;
	int				spool_fd;	/* standard input's copy, -1 */
	struct replay_plugin		*plugins[SESSION_MAX_PLUGINS];
	/* the path each was loaded from, for a policy named by it (--new ./x.so) */
	char				plugin_path[SESSION_MAX_PLUGINS][SESSION_PLUGIN_PATH_MAX];
	int				nr_plugins;
	struct engine			*engine;
	struct model			*model;
	struct decision_ctx		*dec;
	struct cost_ledger		*ledger;
	struct strcount			names;
	struct session_recorded		rec;
	struct model_seed		*seeds;		/* the start snapshot's tasks (pre-scan) */
	size_t				nr_seeds;
	size_t				cap_seeds;
	bool				seeds_done;	/* its schedreplay_snapshot line was read */
	struct marker_task		*task_line;	/* scratch for the pre-scan */
	struct session_schedstat	kstat;
	bool				have_kstat;
	const char			*vmstat_source;
	const struct session_sink	*sinks;
	int				nr_sinks;
	bool				keep;		/* some sink takes decisions */
	struct session_pending		*free_list;
	uint64_t			nr_read;
	bool				ran;
	struct err			err;
	/*
	 * Where what follows a decision (engine, ledger, sinks) writes its
	 * errors: err, or the decision thread's own while it runs
	 */
	struct err			*derr;
	struct session_pipe		*pipe;		/* that thread, or NULL */
};

/* session-open.c */
int session_open_trace(struct session *s, const char *trace, struct err *e);

/* session-policies.c: the engine of opts' policy names */
int session_load_plugins(struct session *s, struct err *e);
int session_build_engine(struct session *s, struct err *e);

/* session-sidecar.c: the capture folder's files */
void session_read_uname(struct session *s);
int session_read_numactl(struct session *s, struct topo **out, struct err *e);
void session_read_capture_counters(struct session *s);

/**
 * session_decide() - what follows decision @d (session.c): the engine,
 * the sinks' wants, the ledger; on whichever thread judges decisions
 * @own: NULL, or where the caller holds @d to give: a decision kept is
 *       then not copied but swapped with the keeper's spare (*@own then
 *       points to that, a decision as zero past its used part)
 * Return: 0 or a negative code with *s->derr set.
 */
int session_decide(struct session *s, const struct decision *d, struct decision **own);

/*
 * session-pipe.c: the decision thread.  session_pipe_wanted(): the options
 * allow a second thread (--threads 2 or more, or the default on a host
 * with two CPUs or more).  After a successful
 * session_pipe_start(), hand it every decision (session_pipe_decision())
 * and every event after decision_feed() (session_pipe_feed(): in place of
 * cost_ledger_feed()), then session_pipe_stop() with the loop's result:
 * it joins the thread and returns the first error in trace order.
 */
bool session_pipe_wanted(const struct session *s);
int session_pipe_start(struct session *s);
int session_pipe_decision(struct session *s, const struct decision *d);
int session_pipe_feed(struct session *s, const struct sr_event *ev);
int session_pipe_stop(struct session *s, int ret);
void session_pipe_free(struct session *s);

/**
 * session_cost_parts() - the tasks decision @d prices and where each side
 * leaves them (session.c), from the engine's result @r
 * Return: how many of @parts were filled (1..COST_MAX_PARTS).
 */
int session_cost_parts(const struct decision *d, const struct engine_result *r,
		       struct cost_part_in parts[COST_MAX_PARTS]);

#endif
