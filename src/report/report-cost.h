/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report-cost.h - the cost model's part of the replay report: the
 * per-decision "cost" object, the summary's "cost" block (totals per
 * policy, per class, per task, node x node matrices, calibration, fault
 * model counters) and its text (docs/json-schema.md, docs/cost-model.md).
 */
#ifndef SR_REPORT_REPORT_COST_H
#define SR_REPORT_REPORT_COST_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "cost/cost-ledger.h"
#include "model/model.h"

/* The cost model's assumptions in one line: every report prints it. */
#define REPORT_COST_ASSUMPTIONS \
	"cost: first-order; accesses = the task's NUMA hinting faults, memory placement = its " \
	"decayed per-node fault shares, price = shares x the remote/local latency ratio (the " \
	"measured profile's, else the SLIT distance / 10 with a lower prior: cost.latency), " \
	"each decision " \
	"priced until the task's next decision, exit or trace end; later decisions are not " \
	"re-simulated"

/**
 * struct report_cost_in - what the cost block is built from
 * @totals:         the ledger's sums (NULL: no cost model ran)
 * @ledger:         for the top-N tasks
 * @fstats:         the fault model's counters
 * @scan_period_ns: the period the fault model decayed by
 * @vmstat_source:  "schedreplay_vmstat", "vmstat-before.txt/vmstat-after.txt" or NULL
 * @top_tasks:      how many tasks to list
 * @latency_origin: where the topology's latency profile came from (a file,
 *                  or the trace's lines), NULL when it has none
 */
struct report_cost_in {
	const struct cost_totals	*totals;
	const struct cost_ledger	*ledger;
	const struct model_fault_stats	*fstats;
	uint64_t			scan_period_ns;
	const char			*vmstat_source;
	size_t				top_tasks;
	const char			*latency_origin;
};

/**
 * report_cost_item_json() - a decision's "cost" object
 * Return: owned, or NULL on allocation failure.
 */
json_t *report_cost_item_json(const struct cost_item *it);

/**
 * report_cost_json() - the summary's "cost" block
 * Return: owned, or NULL on allocation failure.
 */
json_t *report_cost_json(const struct report_cost_in *in);

/** report_cost_measured() - did a measured latency profile price the "cost" block @cost */
bool report_cost_measured(const json_t *cost);

/**
 * report_cost_text() - the text of a "cost" block (report_cost_json())
 * @out: the stream
 * @cost: the block
 * @verbose: every class row, also those neither side priced
 * Return: 0 (write errors are the caller's to check on @out).
 */
int report_cost_text(FILE *out, const json_t *cost, bool verbose);

#endif
