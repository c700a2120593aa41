// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * session-pipe.c - a replay's decisions judged on a thread of their own.
 *
 * One thread reads the trace, classifies it into decisions and moves the
 * model on (session.c's loop); a second one runs what follows a decision:
 * the engine, the cost ledger and the sinks.  They meet in a ring of
 * slots, in trace order: a decision (its copy, candidates included) or an
 * event the ledger needs, with what the ledger reads of the model captured
 * when the event was read (cost_ledger_capture()), since the model has
 * moved on by the time the ledger applies it.  So the second thread sees
 * exactly what the serial loop's on_decision() and cost_ledger_feed() see,
 * in the same order, and a replay's output does not depend on its threads.
 *
 * Each side publishes its position every batch of slots and before it
 * waits, and sleeps on the condition variable only when the ring is full
 * (the reader) or empty (the judge), until half of it is free (or filled,
 * or the reader is done): on a 2-CPU host three threads (reader worker,
 * reader, judge) share two CPUs, and spinning would take one from the
 * other.
 *
 * Errors: the judge stops at its first and says so (failed); the reader's
 * next slot then fails with -ECANCELED and the session reports the
 * judge's error.  When the reader fails first, the judge still finishes
 * the slots before the failure, so the error reported is the first in
 * trace order, as in the serial loop.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "session-local.h"
#include "decision/decision-snap.h"
#include "util/cpus.h"

/*
 * The ring's size: its packed decisions take about PIPE_BYTES, in
 * PIPE_SLOTS_MIN..MAX slots (a power of two), published PIPE_BATCHES
 * times a lap.  Deep enough that each side runs on while the other waits
 * for a CPU: with 256 slots, published every 32, the judge slept and was
 * woken some 10,000 times in a 6 M-event replay, and on a 2-CPU VM those
 * wake-ups cost a fifth of the replay's time (docs/performance.md).
 */
#define PIPE_BYTES	(4u << 20)
#define PIPE_SLOTS_MIN	256
#define PIPE_SLOTS_MAX	8192
#define PIPE_BATCHES	32
#define PIPE_PK_KEEP	(64u << 10)	/* a slot's buffer kept past this: a long pass's, freed */

enum pipe_kind {
	PIPE_DECISION = 1,
	PIPE_FEED,
};

struct pipe_slot {
	int			kind;
	int			nr_cand;	/* candidates packed after it... */
	size_t			cand_off;	/* ...from this byte on */
	struct cost_feed	feed;
	/*
	 * The decision, packed (decision_pack()), then its candidates
	 * (decision_pack_cand()): a few hundred bytes in a row on a small
	 * machine, where a struct decision spreads them over 12 KiB.
	 */
	void			*pk;
	size_t			pk_cap;
};

struct session_pipe {
	struct session		*s;
	struct pipe_slot	*slot;
	size_t			nr_slots;	/* a power of two */
	size_t			batch;		/* likewise, and below nr_slots */
	/* the reader's own */
	size_t			head;		/* next slot to fill */
	size_t			tail_seen;	/* its last look at pub_tail */
	/* shared */
	atomic_size_t		pub_head;	/* slots below it are filled */
	atomic_size_t		pub_tail;	/* slots below it are done with */
	atomic_bool		reader_waits;
	atomic_bool		judge_waits;
	atomic_bool		done;		/* the reader will fill no more */
	atomic_bool		failed;		/* the judge stopped at an error */
	pthread_mutex_t		mu;
	pthread_cond_t		cv;
	pthread_t		thread;
	bool			started;
	/* the judge's */
	struct err		err;
	int			ret;
	/*
	 * the decision it unpacks a slot into, zero past the part its
	 * snapshot uses (a kept one is swapped out for the keeper's spare),
	 * and the layout of that part
	 */
	struct decision		*d;
	struct decision_snap_layout layout;
	struct sr_snapshot	*cand;		/* its candidates, likewise zero past that part */
	int			cand_cap;
};

static void wake(struct session_pipe *p, atomic_bool *waits)
{
	if (!atomic_load(waits))
		return;
	pthread_mutex_lock(&p->mu);
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/*
 * Whether a side that waits has enough to go on with: half the ring free
 * for the reader, half of it filled for the judge (or the reader done).
 * Woken sooner, each would take a batch and wait again: when the judge
 * is the slower side (a million NDJSON lines), the reader slept and was
 * woken at every batch the judge finished, some 2,400 times in a replay
 * of a pinned trace; some 250 now (docs/performance.md).
 */
static bool pipe_room(const struct session_pipe *p, size_t head, size_t tail)
{
	return head - tail <= p->nr_slots / 2;
}

static bool pipe_work(const struct session_pipe *p, size_t head, size_t tail)
{
	return head - tail >= p->nr_slots / 2;
}

static void publish_head(struct session_pipe *p)
{
	atomic_store(&p->pub_head, p->head);
	if (atomic_load(&p->judge_waits) && pipe_work(p, p->head, atomic_load(&p->pub_tail)))
		wake(p, &p->judge_waits);
}

/* the next slot to fill, NULL once the judge has failed */
static struct pipe_slot *slot_get(struct session_pipe *p)
{
	if (p->head - p->tail_seen == p->nr_slots) {
		p->tail_seen = atomic_load(&p->pub_tail);
		if (p->head - p->tail_seen == p->nr_slots) {
			publish_head(p);
			pthread_mutex_lock(&p->mu);
			atomic_store(&p->reader_waits, true);
			/* on until half the ring is free again (pipe_room()) */
			while (!pipe_room(p, p->head, p->tail_seen = atomic_load(&p->pub_tail)) &&
			       !atomic_load(&p->failed))
				pthread_cond_wait(&p->cv, &p->mu);
			atomic_store(&p->reader_waits, false);
			pthread_mutex_unlock(&p->mu);
		}
	}
	if (atomic_load_explicit(&p->failed, memory_order_relaxed))
		return NULL;
	return &p->slot[p->head & (p->nr_slots - 1)];
}

static void slot_commit(struct session_pipe *p)
{
	if ((++p->head & (p->batch - 1)) == 0)
		publish_head(p);
}

int session_pipe_decision(struct session *s, const struct decision *d)
{
	struct session_pipe *p = s->pipe;
	struct pipe_slot *sl = slot_get(p);
	int nr_cand = d->nr_cand > 0 && d->cand ? d->nr_cand : 0;
	size_t dsize, need;

	if (!sl)
		return -ECANCELED;
	dsize = decision_pack_size(s->dec);
	need = dsize + decision_pack_cand_size(s->dec, nr_cand);
	if (need > sl->pk_cap) {
		void *b = malloc(need);

		if (!b)
			return err_set(&s->err, -ENOMEM, "out of memory");
		free(sl->pk);
		sl->pk = b;
		sl->pk_cap = need;
	}
	decision_pack(s->dec, sl->pk, d);
	if (nr_cand)
		decision_pack_cand(s->dec, (char *)sl->pk + dsize, d->cand, nr_cand);
	sl->nr_cand = nr_cand;
	sl->cand_off = dsize;
	sl->kind = PIPE_DECISION;
	slot_commit(p);
	return 0;
}

int session_pipe_feed(struct session *s, const struct sr_event *ev)
{
	struct session_pipe *p = s->pipe;
	struct pipe_slot *sl;

	/*
	 * Most events are nothing to the ledger: no slot for them, and no
	 * write to one, whose line the judge may be reading (a capture into
	 * the next slot at every event was 1-2% of a two-thread replay's
	 * samples)
	 */
	if (!cost_ledger_wants(ev))
		return atomic_load_explicit(&p->failed, memory_order_relaxed) ? -ECANCELED : 0;
	sl = slot_get(p);
	if (!sl)
		return -ECANCELED;
	cost_ledger_capture(s->ledger, s->model, ev, &sl->feed);
	sl->kind = PIPE_FEED;
	slot_commit(p);
	return 0;
}

/* room for @n candidates in the judge's array, zero past what unpacks write */
static int cand_room(struct session_pipe *p, int n)
{
	struct sr_snapshot *c;
	int cap;

	if (n <= p->cand_cap)
		return 0;
	cap = p->cand_cap ? p->cand_cap : 4;
	while (cap < n)
		cap *= 2;
	c = realloc(p->cand, (size_t)cap * sizeof(*c));
	if (!c)
		return -ENOMEM;
	memset(c + p->cand_cap, 0, (size_t)(cap - p->cand_cap) * sizeof(*c));
	p->cand = c;
	p->cand_cap = cap;
	return 0;
}

static int judge(struct session_pipe *p, struct pipe_slot *sl)
{
	struct session *s = p->s;
	int ret;

	if (sl->kind == PIPE_FEED)
		return cost_ledger_apply(s->ledger, &sl->feed);
	decision_unpack(&p->layout, p->d, sl->pk);
	p->d->cand = NULL;
	if (sl->nr_cand) {
		if (cand_room(p, sl->nr_cand))
			return err_set(&p->err, -ENOMEM, "out of memory");
		decision_unpack_cand(&p->layout, p->cand, (const char *)sl->pk + sl->cand_off,
				     sl->nr_cand);
		p->d->cand = p->cand;
	}
	ret = session_decide(s, p->d, &p->d);
	/* a long pass's candidates are not kept in the slot: 8192 slots of them would be a lot */
	if (sl->pk_cap > PIPE_PK_KEEP) {
		free(sl->pk);
		sl->pk = NULL;
		sl->pk_cap = 0;
	}
	return ret;
}

static void *judge_main(void *arg)
{
	struct session_pipe *p = arg;
	size_t tail = 0, head = 0;
	int ret;

	/* the reading thread sets the pace: the judge woken for a filled ring does not preempt it */
	util_thread_helper();
	for (;;) {
		if (tail == head) {
			atomic_store(&p->pub_tail, tail);
			wake(p, &p->reader_waits);
			head = atomic_load(&p->pub_head);
		}
		if (tail == head) {
			pthread_mutex_lock(&p->mu);
			atomic_store(&p->judge_waits, true);
			while (!pipe_work(p, head = atomic_load(&p->pub_head), tail) &&
			       !atomic_load(&p->done))
				pthread_cond_wait(&p->cv, &p->mu);
			atomic_store(&p->judge_waits, false);
			pthread_mutex_unlock(&p->mu);
			head = atomic_load(&p->pub_head);
			if (tail == head)
				break;		/* done, and every slot judged */
		}
		ret = judge(p, &p->slot[tail & (p->nr_slots - 1)]);
		if (ret < 0) {
			p->ret = ret;
			if (!p->err.code)
				err_set(&p->err, ret, "%s", sr_strerror(ret));
			atomic_store(&p->failed, true);
			pthread_mutex_lock(&p->mu);
			pthread_cond_signal(&p->cv);
			pthread_mutex_unlock(&p->mu);
			break;
		}
		if ((++tail & (p->batch - 1)) == 0) {
			atomic_store(&p->pub_tail, tail);
			if (atomic_load(&p->reader_waits) &&
			    pipe_room(p, atomic_load(&p->pub_head), tail))
				wake(p, &p->reader_waits);
		}
	}
	return NULL;
}

bool session_pipe_wanted(const struct session *s)
{
	int threads = s->opts.ingest.threads ? s->opts.ingest.threads : util_cpus_available();

	return threads >= 2;
}

int session_pipe_start(struct session *s)
{
	struct session_pipe *p = calloc(1, sizeof(*p));
	size_t per;
	int ret;

	if (!p)
		return err_set(&s->err, -ENOMEM, "out of memory");
	/* the ring for this machine's decisions: PIPE_BYTES of them, in bounds */
	per = decision_pack_size(s->dec) + sizeof(*p->slot);
	p->nr_slots = PIPE_SLOTS_MIN;
	while (p->nr_slots < PIPE_SLOTS_MAX && (p->nr_slots * 2) * per <= PIPE_BYTES)
		p->nr_slots *= 2;
	if (s->opts.pipe_slots >= 2 && !(s->opts.pipe_slots & (s->opts.pipe_slots - 1)))
		p->nr_slots = s->opts.pipe_slots;
	p->batch = p->nr_slots >= PIPE_BATCHES ? p->nr_slots / PIPE_BATCHES : 1;
	p->slot = calloc(p->nr_slots, sizeof(*p->slot));
	if (!p->slot) {
		free(p);
		return err_set(&s->err, -ENOMEM, "out of memory");
	}
	p->s = s;
	atomic_init(&p->pub_head, 0);
	atomic_init(&p->pub_tail, 0);
	atomic_init(&p->reader_waits, false);
	atomic_init(&p->judge_waits, false);
	atomic_init(&p->done, false);
	atomic_init(&p->failed, false);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	s->pipe = p;
	if (!(p->d = calloc(1, sizeof(*p->d))))
		return err_set(&s->err, -ENOMEM, "out of memory");
	/* the judge's errors are its own until the reader joins it */
	s->derr = &p->err;
	/* signals reach the reading thread only, as the reader's workers (cpus.h) */
	ret = util_thread_start(&p->thread, judge_main, p, "sr-judge");
	if (ret) {
		s->derr = &s->err;
		return err_set(&s->err, -ret, "cannot start the decision thread: %s", strerror(ret));
	}
	p->started = true;
	return 0;
}

int session_pipe_stop(struct session *s, int ret)
{
	struct session_pipe *p = s->pipe;

	if (!p || !p->started)
		return ret;
	publish_head(p);
	pthread_mutex_lock(&p->mu);
	atomic_store(&p->done, true);
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->thread, NULL);
	p->started = false;
	s->derr = &s->err;
	if (p->ret < 0) {	/* the judge's error came first in trace order */
		s->err = p->err;
		return p->ret;
	}
	return ret;
}

void session_pipe_free(struct session *s)
{
	struct session_pipe *p = s->pipe;
	size_t i;

	if (!p)
		return;
	session_pipe_stop(s, 0);
	for (i = 0; i < p->nr_slots; i++)
		free(p->slot[i].pk);
	free(p->cand);
	free(p->d);
	free(p->slot);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	free(p);
	s->pipe = NULL;
}
