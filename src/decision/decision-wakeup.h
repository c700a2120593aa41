/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decision-wakeup.h - the placement part of the classifier: per-CPU idle
 * state and per-task wake-up state (recent_used_cpu, wakee_flips) that a
 * wake-up or fork decision's snapshot carries (decision-wakeup.c).
 * Private to src/decision/; the rules are in docs/replay.md, "Placement".
 */
#ifndef SR_DECISION_WAKEUP_H
#define SR_DECISION_WAKEUP_H

#include <stdbool.h>
#include <stdint.h>

#include <schedreplay/sr-snapshot.h>

#include "ingest/event.h"
#include "model/model.h"
#include "topo/topo.h"

/* select_task_rq_fair()'s wake flags (6.1) */
#define DPLACE_WF_EXEC	0x02
#define DPLACE_WF_FORK	0x04
#define DPLACE_WF_TTWU	0x08
#define DPLACE_WF_SYNC	0x10

/* wakee_flips decay once a second (HZ jiffies); before that much trace they are unknown */
#define DPLACE_FLIP_DECAY_NS	(1000ull * 1000 * 1000)

struct dplace;

/** dplace_new() - empty state.  Return: owned, or NULL. */
struct dplace *dplace_new(void);

/** dplace_free() - free (NULL is fine) */
void dplace_free(struct dplace *dp);

/**
 * dplace_feed() - follow an event: CPUs going idle (sched_switch to pid 0)
 * Return: 0 or -ENOMEM.
 */
int dplace_feed(struct dplace *dp, const struct sr_event *ev);

/**
 * dplace_fill() - fill the placement block of @s (ABI 1.3 fields)
 * @waker_cpu:  the CPU select_task_rq() ran on
 * @waker_pid:  the waker (common_pid), 0 for the idle task (an interrupt)
 * @waker_comm: its name as the model knows it, or NULL
 * @ttwu:       a wake-up: record_wakee() counts this one for the waker
 *
 * Return: 0 or -ENOMEM.
 */
int dplace_fill(struct dplace *dp, const struct model *m, const struct topo *t,
		struct sr_snapshot *s, int waker_cpu, int waker_pid, const char *waker_comm,
		bool ttwu);

/** dplace_claim() - a wake-up targets @cpu (@delta 1) or has arrived there (-1) */
void dplace_claim(struct dplace *dp, int cpu, int delta);

/**
 * dplace_claimed() - a wake-up is on its way to @cpu (the kernel's
 * rq->ttwu_pending while it sits on the wakelist): not idle for
 * idle_cpu() / idle_cpu_without() even with nothing queued yet
 */
bool dplace_claimed(const struct dplace *dp, int cpu);

/**
 * dplace_placed() - the kernel placed @tid on @cpu from @prev: update its
 * recent_used_cpu by 6.1's rule (docs/replay.md)
 * @s: the decision's snapshot (the idle states select_idle_sibling() saw)
 * @fork: a fork: wake_up_new_task() set it to the parent's CPU
 * Return: 0 or -ENOMEM.
 */
int dplace_placed(struct dplace *dp, int tid, const struct sr_snapshot *s, int cpu, bool fork);

/** dplace_percpu_kthread() - @comm names a thread bound to one CPU ("kworker/3:1") */
bool dplace_percpu_kthread(const char *comm, size_t len);

#endif
