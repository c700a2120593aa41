/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report-sink.h - the outputs of a session (struct session_sink_ops):
 *
 *   text    the replay's text summary (report_replay_text())
 *   json    one JSON document: the report and every decision by seq
 *   ndjson  one JSON object per decision, a line each, as costs complete
 *   flat    the same lines as the flat rows of docs/fleet.md
 *   info    `info`'s text or JSON
 *
 * Each sink's state is a struct the caller fills (zeroed, then the fields
 * marked "in") and releases with report_sink_release() when the sink holds
 * anything; the streams are the caller's to open and close.
 */
#ifndef SR_REPORT_REPORT_SINK_H
#define SR_REPORT_REPORT_SINK_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "report/report-json-write.h"
#include "report/report-replay.h"
#include "report/report-row.h"
#include "session/session.h"

/**
 * struct report_replay_parts - what a report input borrows besides the
 * session: filled by report_replay_in_session(), kept until the report is
 * built
 */
struct report_replay_parts {
	struct report_task_counters	tc;
	struct report_cost_in		cin;
};

/**
 * report_replay_in_session() - the report input of a finished replay
 * @ri:  filled; borrows from @s and @p
 * @top: tasks to list with most disagreements (and costliest decisions)
 */
void report_replay_in_session(struct report_replay_in *ri, struct report_replay_parts *p,
			      const struct session *s, size_t top);

/**
 * report_replay_doc() - the report of a finished replay, without decisions
 * Return: owned, or NULL on allocation failure.
 */
json_t *report_replay_doc(const struct session *s, size_t top);

/* where a listed decision's text lies in a JSON sink's spill file */
struct report_spilled {
	uint64_t	off;
	uint32_t	len;
};

/**
 * struct report_sink - the state of any sink of this header
 * @f:       in: where it writes (text, ndjson, flat, info)
 * @path:    in: json: the file report_write_json() replaces, "-" for stdout;
 *           else the name of @f for messages
 * @top:     in: text, json: tasks listed (--top); text: also the
 *           disagreements listed
 * @json:    in: info: JSON rather than text
 * @verbose: in: text: every section (report_replay_text())
 * @row:     in: flat: the per-trace columns; host, kernel, trace_id,
 *           trace_path, trace_time (unless @have_time is false: the
 *           file's mtime), cpus, nodes and engine are filled by begin
 * @have_time: in: flat: @row.trace_time is set
 * @spill:   json: the decisions so far, each written as it will stand in
 *           the document, to an unlinked temporary file (a replay may list
 *           millions: as JSON trees they took some 8 KiB each)
 * @spill_len: json: its length
 * @by_seq, @nr_by_seq: json: where in @spill each decision is, by seq (len
 *           0: not listed)
 * @spill_max, @spill_buf, @spill_at: json: the longest, the buffer one is
 *           read back into, and the next seq to read
 * @hole:    json: the empty "decisions" array of @doc the spill stands for
 * @row_header: flat: the columns as JSON
 * @defer:   in: json: keep the document in @doc rather than write it, so
 *           a command writing several outputs replaces none of them
 *           unless every one was made (the caller writes @doc last)
 * @doc:     json, with @defer: the finished document (report_sink_release()
 *           drops it)
 * @top_dis, @nr_top_dis: text: the disagreements with the largest
 *           |cost delta| so far (their decision objects), at most @top
 * @memo:    ndjson: the last verdicts written (report_decision_write())
 * @lines:   ndjson: the lines written and not yet handed to @f, which
 *           get there 16 KiB at a time (report_sink_release() frees it)
 */
struct report_sink {
	FILE			*f;
	const char		*path;
	const struct report_out	*out;
	size_t			top;
	bool			json;
	bool			verbose;
	struct report_row_in	row;
	bool			have_time;
	FILE			*spill;
	uint64_t		spill_len;
	struct report_spilled	*by_seq;
	size_t			nr_by_seq;
	size_t			spill_max;
	char			*spill_buf;
	size_t			spill_at;
	json_t			*hole;
	json_t			*row_header;
	bool			defer;
	json_t			*doc;
	json_t			**top_dis;
	size_t			nr_top_dis;
	struct report_decision_memo memo;
	struct report_jw	*lines;
};

extern const struct session_sink_ops report_text_sink_ops;
extern const struct session_sink_ops report_json_sink_ops;
extern const struct session_sink_ops report_ndjson_sink_ops;
extern const struct session_sink_ops report_flat_sink_ops;
extern const struct session_sink_ops report_info_sink_ops;

/**
 * report_sink_write_json() - write a JSON sink's deferred @doc, with its
 * decisions, to its @path
 * Return: 0, or a negative errno.
 */
int report_sink_write_json(struct report_sink *k);

/** report_sink_release() - free what a sink holds (safe on a zeroed one) */
void report_sink_release(struct report_sink *k);

#endif
