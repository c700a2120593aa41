/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report-choice.h - the choices in the replay report (report-choice.c):
 * each side's "choice", a load-balance decision's "candidates", and
 * summary.choice_fidelity / summary.candidates for the load-balance
 * classes.  Private to src/report/.
 */
#ifndef SR_REPORT_CHOICE_H
#define SR_REPORT_CHOICE_H

#include <jansson.h>

#include "report-replay.h"

/**
 * report_choice_json() - a side's "choice": {"tid": N, ...} for a task
 * pulled, {"cpu": C, "node": N} for a placement, null for none, or
 * {"unknown": true} when it cannot be said
 * Return: owned (json_null() included), NULL on allocation failure.
 */
json_t *report_choice_json(const struct engine_result *r, int side);

/**
 * report_candidates_json() - a load-balance decision's "candidates":
 * how its candidates were found, how many, which pull of its pass it is;
 * NULL for the other classes
 */
json_t *report_candidates_json(const struct decision *d);

/** report_choice_fidelity_lb() - add the lb-pull and lb-active entries to @fid */
void report_choice_fidelity_lb(json_t *fid, const struct engine *e);

/** report_candidates_summary() - summary.candidates from the classifier's counters */
json_t *report_candidates_summary(const struct decision_stats *ds);

#endif
