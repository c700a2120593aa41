/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report-replay.h - the replay report: one JSON document (schema in
 * docs/json-schema.md), the same per-decision objects for NDJSON, and the
 * text summary rendered from the document's summary.
 */
#ifndef SR_REPORT_REPORT_REPLAY_H
#define SR_REPORT_REPORT_REPLAY_H

#include <stdio.h>

#include <jansson.h>

#include "ingest/ingest.h"
#include "replay/engine/engine.h"
#include "topo/topo.h"
#include "report/report-cost.h"
#include "session/session.h"

#define REPORT_REPLAY_SCHEMA 2


/*
 * The kernel's own per-task counters (numa_sample nmig= forced= fhot=,
 * last sample minus first) summed over the sampled tasks, next to what the
 * replay saw for the same tasks.
 */
struct report_task_counters {
	uint64_t	tasks;
	int64_t		kernel_nr_migrations;
	int64_t		kernel_forced;
	int64_t		kernel_failed_hot;
	uint64_t	trace_migrations;	/* sched_migrate_task between the same samples */
	uint64_t	replay_forced;		/* kernel model: hot but let through */
	uint64_t	replay_resisted_hot;	/* kernel model: refused as hot */
};

/**
 * struct report_replay_in - what a replay produced, for the report
 * @trace:          path of the trace read
 * @info:           the ingest handle's final info
 * @kernel_release: "" when unknown
 * @topo:           the topology in use
 * @engine:         policies and totals
 * @dstats:         the classifier's counters
 * @schedstat:      kernel counters, or NULL when the capture has none
 * @warnings:       damage warnings issued while reading
 * @cost:           the cost model's totals, or NULL when it did not run
 */
struct report_replay_in {
	const char			*trace;
	const struct ingest_info	*info;
	const char			*kernel_release;
	const char			*release_origin;
	const struct topo		*topo;
	const struct engine		*engine;
	const struct decision_stats	*dstats;
	const struct session_schedstat	*schedstat;
	uint64_t			warnings;
	size_t				top_tasks;
	const struct report_task_counters *task_counters;	/* NULL when no sample had them */
	const struct report_cost_in	*cost;
};

/**
 * report_decision_json() - one replayed decision as a JSON object
 * Return: owned, or NULL on allocation failure.
 */
json_t *report_decision_json(const struct engine_result *r);

/*
 * The names of a verdict's flags (struct sr_verdict.flags, SR_VF_*) and of
 * a decision's (struct decision.flags, DECISION_F_*), in the order both
 * writers list them in "flags"; each table ends with a NULL name.
 */
struct report_flag_name {
	unsigned int	bit;
	const char	*name;
};

extern const struct report_flag_name report_verdict_flags[];
extern const struct report_flag_name report_decision_flags[];

struct report_jw;

/**
 * struct report_decision_memo - the text of each side's last verdict, and
 * what it was made of: a run of decisions with the same verdicts (on a
 * trace of pinned tasks, a million "unknown: allowed-cpus") writes them
 * once.  Zeroed before first use; one per output.
 */
struct report_decision_memo {
	struct report_verdict_memo {
		bool				valid;
		bool				lb;
		const struct replay_policy	*pol;
		struct sr_verdict		v;
		struct sr_verdict		cv;
		struct decision_choice		choice;
		size_t				len;
		char				text[1024];
	} side[ENGINE__SIDES];
	uint64_t	hits;
};

/**
 * report_decision_write() - the same object with @cost as its "cost"
 * (report_cost_item_json()), written to @w with no tree
 * (report-decision-write.c); report_jw_end() says whether it was written
 * @memo: may be NULL; used for compact output only
 */
void report_decision_write(struct report_jw *w, const struct engine_result *r,
			   const struct cost_item *cost, struct report_decision_memo *memo);

/**
 * report_replay_build() - the report document without "decisions"
 * (the caller appends them, or streams them as NDJSON instead)
 * Return: owned, or NULL.
 */
json_t *report_replay_build(const struct report_replay_in *in);

/** report_replay_has_probes() - the trace had decision-probe events */
bool report_replay_has_probes(const struct decision_stats *ds);

/**
 * report_replay_text() - the text summary of report_replay_build()'s object
 * @out: the stream
 * @doc: the report
 * @verbose: every section and class, the policies' parameters and the
 *	assumptions; else the sections with nothing to say are left out (a
 *	line says which)
 *
 * The answer comes first (decisions, disagreements, the paired cost delta,
 * fidelity and what to trust), lines fit REPORT_TEXT_COLS columns, and
 * every figure is one the JSON holds (docs/replay.md).
 *
 * Return: 0, or -EIO when @out failed.
 */
int report_replay_text(FILE *out, const json_t *doc, bool verbose);

/**
 * report_replay_no_fidelity() - why a report has no fidelity (no model of
 * the recording kernel): its release is unknown, unmodelled, or the model
 * was turned off with --kernel-policy none
 * @doc: report_replay_build()'s object
 * Return: a static phrase for the text summary.
 */
const char *report_replay_no_fidelity(const json_t *doc);

/**
 * report_policy_json() - a policy instance: name, provenance, classes and
 * parameter values
 */
json_t *report_policy_json(const struct replay_policy *pol);

#endif
