/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report-row.h - the flat decision row (`replay --ndjson-format flat`):
 * every decision as one JSON object whose values are scalars or arrays of
 * scalars, so that a column store without a JSON object type (ClickHouse
 * 18.16) loads it with `FORMAT JSONEachRow`.  A row carries what a fleet
 * query groups by (host, kernel, labels, trace, policies) next to the
 * decision's own fields.  Row schema: docs/fleet.md, versioned by
 * REPORT_ROW_VERSION.
 */
#ifndef SR_REPORT_REPORT_ROW_H
#define SR_REPORT_REPORT_ROW_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "replay/engine/engine.h"

/*
 * Raised when a column is removed or renamed or changes meaning; adding a
 * column does not raise it.
 */
#define REPORT_ROW_VERSION 2

/* Bytes read from each end of a trace file for its id. */
#define REPORT_TRACE_ID_SPAN 65536

/**
 * struct report_row_in - the per-trace columns of every row
 * @host:         host name (never NULL; "unknown" when nothing said it)
 * @kernel:       kernel release (never NULL; "unknown" likewise)
 * @label_keys:   --label keys, in order
 * @label_values: their values
 * @nr_labels:    how many
 * @trace_id:     report_trace_id()'s 16 hex digits
 * @trace_path:   the trace file read
 * @trace_time:   when it was recorded, seconds since the epoch (UTC)
 * @cpus, @nodes: machine size
 * @engine:       the policies of each side, with their parameters
 */
struct report_row_in {
	const char		*host;
	const char		*kernel;
	const char *const	*label_keys;
	const char *const	*label_values;
	size_t			nr_labels;
	const char		*trace_id;
	const char		*trace_path;
	int64_t			trace_time;
	int			cpus;
	int			nodes;
	const struct engine	*engine;
};

/**
 * report_row_header() - the columns every row of one trace shares
 * @in: the trace's facts; strings are copied (untrusted bytes escaped)
 *
 * Context: once per trace, before the first row.
 * Return: owned (json_decref()), or NULL on allocation failure.
 */
json_t *report_row_header(const struct report_row_in *in);

/**
 * report_row_json() - one flat row from a decision object
 * @header:   report_row_header()'s object
 * @decision: report_decision_json()'s object with its "cost" set
 *            (docs/json-schema.md); read only
 *
 * Nested values become prefixed columns (old_verdict, cost_new_remote...)
 * or arrays (old_reasons); an absent side or an unknown cost is null.
 * Context: once per decision; pure.
 * Return: owned, or NULL on allocation failure.
 */
json_t *report_row_json(const json_t *header, const json_t *decision);

/**
 * report_trace_id() - a trace file's id: FNV-1a 64 over its size in
 * decimal, a newline, its first REPORT_TRACE_ID_SPAN bytes and its last
 * REPORT_TRACE_ID_SPAN bytes (the two overlap in a small file)
 * @path: the file
 * @out:  17 bytes: 16 lowercase hex digits and a NUL
 *
 * Content, not name: a copy of the file has the same id, and the id does
 * not need the trace to be read to its end first.
 * Return: 0, or a negative errno when the file cannot be read.
 */
int report_trace_id(const char *path, char *out);

#endif
