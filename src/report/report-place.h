/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report-place.h - the placement classes' parts of the replay report
 * (report-place.c).
 */
#ifndef SR_REPORT_REPORT_PLACE_H
#define SR_REPORT_REPORT_PLACE_H

#include <stdbool.h>

#include <jansson.h>

#include "replay/engine/engine.h"

/** report_place_choice_fidelity() - add the wakeup/fork/exec entries to @cf */
void report_place_choice_fidelity(json_t *cf, const struct engine *e);

/** report_place_ground_truth() - summary.ground_truth.placement.  Return: owned. */
json_t *report_place_ground_truth(const struct engine *e, const struct decision_stats *ds);

/**
 * report_place_listed() - whether the JSON lists a decision: every one of
 * the other classes; a placement only when the task moved or a side's
 * choice differs from the kernel's (docs/replay.md)
 */
bool report_place_listed(const struct engine_result *r);

#endif
