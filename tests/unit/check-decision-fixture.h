/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check-decision-fixture.h - the classifier fixture check-decision.c and
 * check-truth.c share: the 2-node topology of check-topo2.h, a model and a
 * classifier whose decisions are collected in got[], and feed(), which
 * gives an event to the classifier and then to the model as a replay does.
 * Include it once per Check program.
 */
#ifndef SR_TESTS_CHECK_DECISION_FIXTURE_H
#define SR_TESTS_CHECK_DECISION_FIXTURE_H

#include "check-common.h"
#include "check-topo2.h"
#include "decision/decision.h"
#include "ingest/ingest.h"

#define CHECK_MAX_DECISIONS 64

static struct topo *topo;
static struct model *m;
static struct decision_ctx *d;
static struct decision got[CHECK_MAX_DECISIONS];
static int nr_got;
/* wake-ups that kept the task on prev: decisions without a migration, apart */
static struct decision stays[CHECK_MAX_DECISIONS];
static int nr_stays;

static int collect(const struct decision *dec, void *arg)
{
	(void)arg;
	if (dec->why == DECISION_WHY_WAKING_STAYED) {
		ck_assert_int_lt(nr_stays, CHECK_MAX_DECISIONS);
		stays[nr_stays++] = *dec;
		return 0;
	}
	ck_assert_int_lt(nr_got, CHECK_MAX_DECISIONS);
	got[nr_got++] = *dec;
	return 0;
}

/* 2 nodes x 2 CPUs, distance 20 between them */
static void setup(void)
{
	topo = check_topo2();
	m = model_new(topo);
	d = decision_new(topo, collect, NULL);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(d);
	nr_got = 0;
	nr_stays = 0;
}

static void teardown(void)
{
	decision_free(d);
	model_free(m);
	topo_free(topo);
}

static void feed(struct sr_event *ev)
{
	ev->name = ingest_event_kind_name(ev->kind);
	ck_assert_int_eq(decision_feed(d, m, ev), 0);
	ck_assert_int_eq(model_feed(m, ev), 0);
}

#endif
