// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dat-threads.c - the fast trace.dat reader on several threads.  The
 * per-CPU streams are read and decoded (pages, decompression, kbuffer,
 * fields: dat-fast.c and dat-fields.c) in batches of finished events; the
 * caller's thread merges the streams' batches in time order and hands the
 * events out through ingest_next_borrowed() (where they lie in the batch)
 * or ingest_next() (a copy), so the model, the policies and the
 * report run beside the decoding.
 *
 * Who decodes: worker threads, each over its share of the streams (dealt
 * round-robin), keeping every stream at most mt->qmax batches ahead of
 * the merge, the stream with the fewest queued first; and the caller's
 * thread itself whenever the stream it merges next has no batch ready: it
 * decodes that stream's next batch when no worker is at it, or else the
 * batch of another stream with room.  So on two cores the decoding is
 * shared between both threads as the merge's own load allows, instead of
 * one core decoding everything while the other waits (a pipeline of one
 * decoding thread and one merging thread is no faster than one thread:
 * reading is two thirds of a replay).
 *
 * Pieces: a stream that holds a large share of the events (make_lanes())
 * is cut into pieces of whole pages, or of whole compressed chunks
 * (dat_fast_piece(): each piece decodes alone, as the ring buffer's pages
 * do), and up to DAT_MT_LANES consecutive pieces are decoded at once, each
 * in a lane with its own reading state and queue.  Without them, a trace
 * with nearly every event on one CPU is decoded by one thread at a time.
 * A lane is decoded by one thread at a time (its "filling" claim), batch
 * after batch, so its batches queue in its piece's order, and the merge
 * reads the lanes of a stream piece after piece; a lane read to its end
 * takes the piece DAT_MT_LANES after its own.  Memory: per lane at most
 * qmax batches queued (DAT_MT_QUEUED shared out, within
 * DAT_MT_QUEUE_MIN..MAX) and one being decoded, per stream the one being
 * merged, plus the one behind the last event handed out; a batch holds up
 * to DAT_MT_BATCH items (DAT_MT_ITEMS shared out, at least
 * DAT_MT_BATCH_MIN; 128 bytes each) and an arena for the strings of print
 * and exec events, which keeps its largest size when the batch is reused.
 * Whatever the trace's length: 128 KiB batches for a few CPUs, 8 KiB ones
 * for a thousand.
 *
 * Order: a stream's items are in its own order, and the merge takes the
 * earliest head (timestamp, buffer, CPU) as the one-thread reader does, so
 * events come out in the same order.  Damage found while decoding travels
 * as an item at the place it was found (the timestamp of the record it
 * concerns, or of the record before it: in the piece before, when it comes
 * first in its piece, DAT_ITEM_TS_PREV) and is reported by the merge when
 * it gets there; a fatal error likewise, and the stream ends there.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../util/cpus.h"
#include "../util/lines.h"
#include "dat-local.h"
#include "ingest-local.h"

#define DAT_MT_BATCH	1024	/* items a batch, at most */
#define DAT_MT_BATCH_MIN 64	/* and at least */
#define DAT_MT_ITEMS	16384	/* shared out among the streams' batches (within those) */
#define DAT_MT_QUEUED	16	/* batches queued in all, at most... */
#define DAT_MT_QUEUE_MIN 2	/* ...but each stream may have this many */
#define DAT_MT_QUEUE_MAX 8	/* and none more than this */
#define DAT_MT_SPIN	4000	/* polls before sleeping (some 100 microseconds) */
#define DAT_MT_LANES	3	/* pieces of one stream decoded at once, at most */

/* a polling loop's pause: easier on the core's other hyperthread */
static inline void mt_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

enum {
	DAT_ITEM_EVENT,
	DAT_ITEM_DAMAGE,
	DAT_ITEM_FATAL,
	DAT_ITEM_KIND		= 0xff,
	/*
	 * flag: found before the first record of a piece after the first, so
	 * at the timestamp of the record before it, in the piece before: the
	 * merge gives it the stream's last key
	 */
	DAT_ITEM_TS_PREV	= 0x100,
};

/*
 * Two whole cache lines: what the merging core reads of each event is most
 * of what threads cost, and an item straddling three lines costs three.
 */
struct dat_item {
	struct sr_event	ev;		/* damage/fatal: ts_ns, src_pos, and the
					 * error code in pid */
	uint32_t	str_off;	/* ev.str, or the message: offset in the arena */
	uint32_t	type;
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct dat_item) == 128, "an item is two cache lines");

struct dat_batch {
	struct dat_batch	*next;
	int			n;
	int			pos;		/* the merge's next item */
	uint64_t		done;		/* stream bytes behind the last item */
	char			*arena;		/* strings and messages of the items */
	size_t			arena_len;
	size_t			arena_cap;
	struct dat_item		items[];		/* dat_mt.batch of them */
};

/*
 * A lane: one piece of a stream (dat_fast_piece()), decoded by one thread
 * at a time, batch after batch, into its own queue.  A stream has one lane
 * or, when it is split, up to DAT_MT_LANES: pieces first, first + 1, ...
 * in lanes[piece % nr_lanes], each reading with a state of its own.
 */
struct dat_lane {
	struct dat_batch	*head;		/* queued, oldest first */
	struct dat_batch	*tail;
	int			queued;
	int			si;		/* its stream */
	uint32_t		piece;
	bool			open;		/* holds a piece, or will again */
	bool			filling;	/* a thread is decoding its next batch */
	bool			done;		/* its piece is decoded to its end */
	bool			oom;		/* ...because a batch could not be allocated */
	bool			has_rec;	/* fs.rec is read, not yet decoded */
	struct dat_fsrc		fs;
} __attribute__((aligned(64)));

struct dat_mtq {
	struct dat_lane		*lanes;		/* in dat_mt.lanes */
	int			nr_lanes;
	uint32_t		first;		/* the piece the merge reads */
	uint32_t		nr_pieces;
	bool			done;		/* no more batches will come */
	bool			oom;		/* ...because a batch could not be allocated */
	struct dat_batch	*cur;		/* the merge's batch */
};

/*
 * What a decoding thread owns: a worker's, or the caller's (the last).
 * Each in lines of its own: the threads write their string buffers' state
 * while decoding.
 */
struct dat_worker {
	struct dat_mt		*mt;
	int			id;
	pthread_t		tid;
	bool			started;
	struct dat_unz		unz;
	struct dat_strs		strs;
} __attribute__((aligned(64)));

struct dat_mt {
	struct dat		*d;
	pthread_mutex_t		lock;
	pthread_cond_t		work_cv;	/* a stream has room, or stop */
	pthread_cond_t		data_cv;	/* a batch is queued or a stream done */
	bool			stop;
	int			qmax;		/* batches a stream may have queued */
	int			batch;		/* items a batch */
	int			nr_workers;	/* threads started */
	int			spin;		/* polls before sleeping */
	uint64_t		piece;		/* bytes a piece (dat_fast_piece()) */
	struct dat_worker	*w;		/* nr_workers + 1: the caller's last */
	struct dat_mtq		*q;		/* by stream */
	struct dat_lane		*lanes;		/* every stream's */
	int			nr_lanes;
	struct dat_batch	*free;		/* released longest ago first */
	struct dat_batch	*free_tail;
	struct dat_batch	*hold;		/* behind the last event handed out */
	/*
	 * The smaller of the heap root's children's keys (UINT64_MAX with no
	 * child, 0 until the first look): while the root stream's next key is
	 * below it, the root stays the earliest and the heap is not looked at.
	 */
	uint64_t		limit;
	/* polled by waiting threads: apart from what the merge writes per batch */
	unsigned int		work_gen __attribute__((aligned(64)));	/* counts work_cv's
									 * events (atomic) */
	unsigned int		data_gen;	/* counts data_cv's events (atomic) */
};

/* ---- waiting ------------------------------------------------------------ */

/*
 * Wait for @cv, whose events @gen counts; called with mt->lock held.
 * Polls a while first, the lock released: a batch takes some tens of
 * microseconds to make, and sleeping and being woken costs about as much
 * on a virtual machine (a futex call and an interprocessor interrupt).
 * Not when the caller runs threads of its own besides the reader's
 * (ingest_opts.no_poll): polling then takes a CPU one of them needs.
 */
static void mt_wait(struct dat_mt *mt, pthread_cond_t *cv, unsigned int *gen)
{
	unsigned int g = __atomic_load_n(gen, __ATOMIC_ACQUIRE);
	int i;

	pthread_mutex_unlock(&mt->lock);
	for (i = 0; i < mt->spin && __atomic_load_n(gen, __ATOMIC_ACQUIRE) == g; i++)
		mt_pause();
	pthread_mutex_lock(&mt->lock);
	if (__atomic_load_n(gen, __ATOMIC_ACQUIRE) == g)
		pthread_cond_wait(cv, &mt->lock);
}

/* wake the waiters on @cv, whose events @gen counts; with mt->lock held */
static void mt_signal(pthread_cond_t *cv, unsigned int *gen)
{
	__atomic_add_fetch(gen, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(cv);
}

/*
 * Put @b on the free list, behind the others: the batch used again is the
 * one released longest ago.  Writing lines that another core still holds
 * stalls the writer until that core lets go of them.
 */
static void free_put(struct dat_mt *mt, struct dat_batch *b)
{
	b->next = NULL;
	if (mt->free_tail)
		mt->free_tail->next = b;
	else
		mt->free = b;
	mt->free_tail = b;
}

static struct dat_batch *free_get(struct dat_mt *mt)
{
	struct dat_batch *b = mt->free;

	if (b) {
		mt->free = b->next;
		if (!mt->free)
			mt->free_tail = NULL;
	}
	return b;
}

/* ---- decoding ----------------------------------------------------------- */

static const struct sr_event zero_event;

/* a lost-events, damage or fatal item (rare: built in place) */
static struct dat_item *add_item(struct dat_batch *b, int type, uint64_t ts)
{
	struct dat_item *it = &b->items[b->n++];

	it->ev = zero_event;
	it->ev.ts_ns = ts;
	it->type = type;
	it->str_off = 0;
	return it;
}

/* copy @len bytes and a NUL into the arena; Return: the offset, or -1 */
static int64_t arena_put(struct dat_batch *b, const char *s, size_t len)
{
	size_t need = b->arena_len + len + 1, cap;
	char *p;

	if (need > b->arena_cap) {
		cap = b->arena_cap ? b->arena_cap : 4096;
		while (cap < need)
			cap *= 2;
		p = realloc(b->arena, cap);
		if (!p)
			return -1;
		b->arena = p;
		b->arena_cap = cap;
	}
	memcpy(b->arena + b->arena_len, s, len);
	b->arena[b->arena_len + len] = '\0';
	b->arena_len = need;
	return (int64_t)(need - len - 1);
}

/* a damage or fatal item from @dmg (@type may carry DAT_ITEM_TS_PREV) */
static void add_damage(struct dat_batch *b, int type, uint64_t ts, const struct dat_damage *dmg)
{
	struct dat_item *it = add_item(b, type, ts);
	int64_t off = arena_put(b, dmg->msg, strlen(dmg->msg));

	it->ev.pid = dmg->code;
	it->ev.src_pos = dmg->pos;
	it->str_off = off < 0 ? UINT32_MAX : (uint32_t)off;
}

/*
 * Fill @b from lane @l: read and decode up to mt->batch items of its piece.
 * Return: true when the piece has ended (its last items are in @b); after
 * a fatal item, with l->fs.cut set: the stream ends there.
 */
static bool fill_batch(struct dat_worker *w, struct dat_lane *l, struct dat_batch *b)
{
	struct dat *d = w->mt->d;
	struct dat_stream *s = &d->streams[l->si];
	struct dat_fsrc *fs = &l->fs;
	struct tep_record *rec = &fs->rec;
	struct dat_damage dmg = { .code = -ENOMEM, .msg = "out of memory" };
	struct dat_item *it;
	struct sr_event ev;
	int64_t off;
	int ret;

	b->n = 0;
	b->pos = 0;
	b->done = 0;
	b->arena_len = 0;
	while (b->n < w->mt->batch) {
		if (!l->has_rec) {
			ret = dat_fast_read_from(d, s, fs, &w->unz, &dmg);
			if (ret == DAT_READ_DAMAGE || ret < 0)
				add_damage(b, (ret < 0 ? DAT_ITEM_FATAL : DAT_ITEM_DAMAGE) |
					      (fs->ts_unknown ? DAT_ITEM_TS_PREV : 0),
					   fs->last_ts, &dmg);
			if (ret == DAT_READ_DAMAGE)
				continue;
			if (ret < 0)
				fs->cut = true;
			if (ret <= 0)
				return true;
			l->has_rec = true;
		}
		fs->last_ts = rec->ts;
		fs->ts_unknown = false;
		if (rec->missed_events && !fs->told_lost) {
			fs->told_lost = true;
			dat_lost_event(rec, &add_item(b, DAT_ITEM_EVENT, rec->ts)->ev);
			continue;
		}
		/*
		 * Decoded here, then copied whole into the batch: the batch's
		 * lines were last read on the merging core, and decoding into
		 * them field by field stalled on each line in turn.
		 */
		ev = zero_event;
		ev.ts_ns = rec->ts;
		ret = dat_decode(&d->bufs[s->buf], &w->strs, rec, &ev, &dmg);
		l->has_rec = false;
		if (rec->offset >= s->start && rec->offset - s->start < s->size)
			b->done = rec->offset - s->start;
		if (ret <= 0) {
			add_damage(b, ret ? DAT_ITEM_FATAL : DAT_ITEM_DAMAGE, rec->ts, &dmg);
			if (ret) {
				fs->cut = true;
				return true;
			}
			continue;
		}
		it = &b->items[b->n++];
		it->ev = ev;
		it->type = DAT_ITEM_EVENT;
		it->str_off = 0;
		if (ev.str) {
			off = arena_put(b, ev.str, ev.str_len);
			if (off < 0) {
				b->n--;
				dmg.code = -ENOMEM;
				strcpy(dmg.msg, "out of memory");
				add_damage(b, DAT_ITEM_FATAL, rec->ts, &dmg);
				fs->cut = true;
				return true;
			}
			it->str_off = (uint32_t)off;
		}
	}
	return false;
}

/*
 * Decode lane @l's next batch as @w and queue it.  Called, and returns,
 * with mt->lock held; the lane is open, not done, nobody else is filling it.
 */
static void fill_one(struct dat_worker *w, struct dat_lane *l)
{
	struct dat_mt *mt = w->mt;
	struct dat_batch *b;
	bool ended;

	l->filling = true;
	b = free_get(mt);
	pthread_mutex_unlock(&mt->lock);
	if (!b)
		b = util_calloc_lines(1, sizeof(*b) + (size_t)mt->batch * sizeof(b->items[0]));
	ended = b ? fill_batch(w, l, b) : true;
	pthread_mutex_lock(&mt->lock);
	l->filling = false;
	if (b && b->n) {
		b->next = NULL;
		if (l->tail)
			l->tail->next = b;
		else
			l->head = b;
		l->tail = b;
		l->queued++;
	} else if (b) {
		free_put(mt, b);
	}
	if (!b)
		l->oom = true;
	if (ended)
		l->done = true;
	mt_signal(&mt->data_cv, &mt->data_gen);
	if (w->id == mt->nr_workers)	/* the caller let go of a lane a worker may fill */
		mt_signal(&mt->work_cv, &mt->work_gen);
}

/*
 * The lane with room that @w may fill, or NULL: the one with the fewest
 * batches queued, counting a piece's distance from the one its stream's
 * merge reads as batches queued before it.  A worker fills its own share
 * of the lanes; the caller's thread (the last in mt->w) any.
 * *all_done: none of them will get more batches.
 */
static struct dat_lane *pick_lane(struct dat_worker *w, bool *all_done)
{
	struct dat_mt *mt = w->mt;
	bool caller = w->id == mt->nr_workers;
	int step = caller ? 1 : mt->nr_workers;
	struct dat_lane *best = NULL, *l;
	unsigned int rank, best_rank = 0;
	int li;

	*all_done = true;
	for (li = caller ? 0 : w->id; li < mt->nr_lanes; li += step) {
		l = &mt->lanes[li];
		if (!l->open)
			continue;
		*all_done = false;
		if (l->done || l->filling || l->queued >= mt->qmax)
			continue;
		rank = (unsigned int)l->queued + (l->piece - mt->q[l->si].first);
		if (!best || rank < best_rank) {
			best = l;
			best_rank = rank;
		}
	}
	return best;
}

static void *worker_main(void *arg)
{
	struct dat_worker *w = arg;
	struct dat_mt *mt = w->mt;
	struct dat_lane *l;
	bool all_done;

	/* the merging thread sets the pace: a worker woken for room does not preempt it */
	util_thread_helper();
	pthread_mutex_lock(&mt->lock);
	while (!mt->stop) {
		l = pick_lane(w, &all_done);
		if (all_done)
			break;
		if (!l)
			mt_wait(mt, &mt->work_cv, &mt->work_gen);
		else
			fill_one(w, l);
	}
	pthread_mutex_unlock(&mt->lock);
	return NULL;
}

/* set lane @l to piece @k of its stream; with mt->lock held, or before the workers start */
static void lane_open(struct dat_mt *mt, struct dat_lane *l, uint32_t k)
{
	/* a stream not cut is one piece: the whole of it */
	dat_fast_piece(mt->d, &mt->d->streams[l->si], mt->q[l->si].nr_pieces > 1 ? mt->piece : 0,
		       k, &l->fs);
	l->piece = k;
	l->open = true;
	l->done = false;
	l->oom = false;
	l->has_rec = false;
}

/* ---- the merge (the caller's thread) ------------------------------------ */

/*
 * Stream @si is done: its lanes get no more pieces.  With mt->lock held.
 */
static void stream_done(struct dat_mt *mt, int si)
{
	struct dat_mtq *q = &mt->q[si];
	int i;

	q->done = true;
	for (i = 0; i < q->nr_lanes; i++)
		q->lanes[i].open = false;
	mt_signal(&mt->work_cv, &mt->work_gen);
}

/*
 * The next batch of stream @si, decoding while it waits (see the top);
 * NULL when the stream has ended.  A lane whose piece is read to its end
 * takes the piece nr_lanes after it.
 */
static struct dat_batch *next_batch(struct dat_mt *mt, int si)
{
	struct dat_worker *self = &mt->w[mt->nr_workers];
	struct dat_mtq *q = &mt->q[si];
	struct dat_lane *l, *other;
	struct dat_batch *b = NULL;
	bool all_done;

	pthread_mutex_lock(&mt->lock);
	while (!q->done) {
		l = &q->lanes[q->first % (uint32_t)q->nr_lanes];
		if (l->head) {
			b = l->head;
			l->head = b->next;
			b->next = NULL;
			if (!l->head)
				l->tail = NULL;
			l->queued--;
			mt_signal(&mt->work_cv, &mt->work_gen);
			break;
		}
		if (l->done) {
			q->oom = l->oom;
			if (l->oom || l->fs.cut || q->first + 1 >= q->nr_pieces) {
				stream_done(mt, si);
				break;
			}
			if (q->first + (uint32_t)q->nr_lanes < q->nr_pieces)
				lane_open(mt, l, q->first + (uint32_t)q->nr_lanes);
			else
				l->open = false;
			q->first++;
			mt_signal(&mt->work_cv, &mt->work_gen);
			continue;
		}
		if (!l->filling) {
			fill_one(self, l);
			continue;
		}
		other = pick_lane(self, &all_done);
		if (other)
			fill_one(self, other);
		else
			mt_wait(mt, &mt->data_cv, &mt->data_gen);
	}
	pthread_mutex_unlock(&mt->lock);
	return b;
}

static void release_batch(struct dat_mt *mt, struct dat_batch *b)
{
	if (!b)
		return;
	pthread_mutex_lock(&mt->lock);
	free_put(mt, b);
	pthread_mutex_unlock(&mt->lock);
}

/* mt->limit for the heap as it is: the smaller key of the root's children */
static inline uint64_t root_limit(const struct dat *d)
{
	uint64_t a = d->nr_heap > 1 ? d->hk[d->heap[1]].key : UINT64_MAX;
	uint64_t b = d->nr_heap > 2 ? d->hk[d->heap[2]].key : UINT64_MAX;

	return a < b ? a : b;
}

/* the merge heap's key of item @it of stream @si */
static inline uint64_t item_key(const struct dat *d, int si, const struct dat_item *it)
{
	return it->type & DAT_ITEM_TS_PREV ? d->hk[si].key : it->ev.ts_ns;
}

/*
 * Make @b stream @si's current batch.  Return: 1, 0 when the stream has
 * ended, or -ENOMEM when it ended for want of a batch (in->err set).
 */
static int take_batch(struct ingest *in, struct dat *d, int si, struct dat_batch *b)
{
	struct dat_stream *s = &d->streams[si];

	d->mt->q[si].cur = b;
	if (!b) {
		if (d->mt->q[si].oom)
			return err_set(&in->err, -ENOMEM, "out of memory");
		/* the stream is read to its end */
		d->done += s->size - s->done;
		s->done = s->size;
		return 0;
	}
	d->hk[si].key = item_key(d, si, &b->items[0]);
	if (b->done > s->done) {
		d->done += b->done - s->done;
		s->done = b->done;
	}
	return 1;
}

/*
 * A damage or fatal item reached by the merge: reported, or made the
 * error.  Out of line: its 512-byte message would make the merge's frame,
 * set up at every event, that much larger.
 */
static __attribute__((noinline)) int item_damage(struct ingest *in, const struct dat_batch *b,
						 const struct dat_item *it)
{
	struct dat_damage dmg;

	dmg.code = it->ev.pid;
	dmg.pos = it->ev.src_pos;
	snprintf(dmg.msg, sizeof(dmg.msg), "%s",
		 it->str_off == UINT32_MAX ? "out of memory" : b->arena + it->str_off);
	if ((it->type & DAT_ITEM_KIND) == DAT_ITEM_DAMAGE)
		return dat_report_damage(in, &dmg);
	err_set(&in->err, dmg.code, "%s", dmg.msg);
	err_at_byte(&in->err, dmg.pos);
	return dmg.code;
}

int dat_mt_next_borrowed(struct ingest *in, struct dat *d, const struct sr_event **ev)
{
	struct dat_mt *mt = d->mt;
	struct dat_batch *b;
	struct dat_item *it;
	int si;
	int ret;
	int more;

	release_batch(mt, mt->hold);
	mt->hold = NULL;
	if (d->deferred) {
		ret = d->deferred;
		d->deferred = 0;
		return ret;
	}
	while (d->nr_heap) {
		si = d->heap[0];
		b = mt->q[si].cur;
		it = &b->items[b->pos++];
		/* the items may have been written on another core: fetch ahead */
		if (b->pos + 8 < b->n) {
			__builtin_prefetch(&b->items[b->pos + 8]);
			__builtin_prefetch((const char *)&b->items[b->pos + 8] + 64);
		}
		ret = 0;
		if (it->type == DAT_ITEM_EVENT) {
			/* the decoder's pointer, stale: the string is in the arena */
			if (it->ev.str)
				it->ev.str = b->arena + it->str_off;
			*ev = &it->ev;
			ret = 1;
		} else {
			ret = item_damage(in, b, it);
		}
		if (b->pos < b->n) {
			d->hk[si].key = item_key(d, si, &b->items[b->pos]);
			/*
			 * Earlier than both children: still the root, as
			 * dat_heap_down() would find (a key equal to one goes
			 * there, for the buffer and CPU that break the tie).
			 * Most events of a trace follow one of the same CPU.
			 */
			if (d->hk[si].key < mt->limit) {
				if (ret)
					return ret;
				continue;
			}
		} else {
			if (ret == 1)
				mt->hold = b;	/* *ev is in it */
			else
				release_batch(mt, b);
			more = take_batch(in, d, si, next_batch(mt, si));
			if (more <= 0)
				d->heap[0] = d->heap[--d->nr_heap];
			/* out of memory: after the event in hand, as dat.c's fast_next() */
			if (more < 0 && ret == 1)
				d->deferred = more;
			else if (more < 0 && !ret)
				ret = more;
		}
		dat_heap_down(d, 0);
		mt->limit = root_limit(d);
		if (ret)
			return ret;
	}
	return 0;
}

int dat_mt_next(struct ingest *in, struct dat *d, struct sr_event *ev)
{
	const struct sr_event *p;
	int ret = dat_mt_next_borrowed(in, d, &p);

	if (ret == 1)
		*ev = *p;
	return ret;
}

/* ---- set up and tear down ----------------------------------------------- */

/*
 * Cut the streams into lanes: a stream holding at least 1 / (@threads + 1)
 * of the data (of d->total) is decoded in pieces, up to DAT_MT_LANES at
 * once, so that several threads can decode it when most events are in it
 * (and when two CPUs share them: two threads then decode both streams, not
 * one each, as the merge takes from one or the other); every stream when
 * the caller asked for a piece size (tests).  So at most @threads + 1
 * streams are cut, and memory stays set by the number of CPUs, not by the
 * trace's length.
 * Return: the lanes in all, or -ENOMEM.
 */
static int make_lanes(struct ingest *in, struct dat *d, struct dat_mt *mt, int threads)
{
	struct dat_mtq *q;
	uint32_t n;
	int si, i, nl = 0;

	mt->piece = d->lay.piece;	/* as the header walk cut compressed data */
	for (si = 0; si < d->nr_streams; si++) {
		q = &mt->q[si];
		n = dat_fast_pieces(d, &d->streams[si], mt->piece);
		if (!in->opts.piece && d->streams[si].size * (uint64_t)(threads + 1) < d->total)
			n = 1;
		q->nr_pieces = n;
		q->nr_lanes = n < DAT_MT_LANES ? (int)n : DAT_MT_LANES;
		nl += q->nr_lanes;
	}
	mt->lanes = util_calloc_lines((size_t)nl, sizeof(*mt->lanes));
	if (!mt->lanes)
		return -ENOMEM;
	mt->nr_lanes = nl;
	for (si = 0, nl = 0; si < d->nr_streams; si++) {
		q = &mt->q[si];
		q->lanes = &mt->lanes[nl];
		for (i = 0; i < q->nr_lanes; i++) {
			q->lanes[i].si = si;
			lane_open(mt, &q->lanes[i], (uint32_t)i);
		}
		nl += q->nr_lanes;
	}
	return nl;
}

int dat_mt_start(struct ingest *in, struct dat *d, int threads)
{
	struct dat_mt *mt;
	int nw = threads - 1;
	int i;
	int ret;

	for (i = 0; i < d->nr_bufs; i++)
		if (dat_evinfo_prepare(&d->bufs[i]) < 0)
			return err_set(&in->err, -ENOMEM, "out of memory");
	mt = util_calloc_lines(1, sizeof(*mt));
	if (!mt)
		return err_set(&in->err, -ENOMEM, "out of memory");
	d->mt = mt;
	mt->d = d;
	pthread_mutex_init(&mt->lock, NULL);
	pthread_cond_init(&mt->work_cv, NULL);
	pthread_cond_init(&mt->data_cv, NULL);
	mt->q = util_calloc_lines(d->nr_streams, sizeof(*mt->q));
	if (!mt->q || make_lanes(in, d, mt, threads) < 0)
		return err_set(&in->err, -ENOMEM, "out of memory");
	if (nw > mt->nr_lanes)
		nw = mt->nr_lanes;
	if (nw < 1)
		nw = 1;
	mt->w = util_calloc_lines(nw + 1, sizeof(*mt->w));
	if (!mt->w)
		return err_set(&in->err, -ENOMEM, "out of memory");
	mt->nr_workers = nw;
	mt->spin = in->opts.no_poll ? 0 : DAT_MT_SPIN;
	/* memory: batches by the stream, smaller when there are many streams */
	mt->batch = d->nr_streams ? DAT_MT_ITEMS / d->nr_streams : DAT_MT_BATCH;
	if (mt->batch < DAT_MT_BATCH_MIN)
		mt->batch = DAT_MT_BATCH_MIN;
	if (mt->batch > DAT_MT_BATCH)
		mt->batch = DAT_MT_BATCH;
	if (in->opts.batch > 0)
		mt->batch = in->opts.batch < DAT_MT_BATCH ? in->opts.batch : DAT_MT_BATCH;
	mt->qmax = mt->nr_lanes ? DAT_MT_QUEUED / mt->nr_lanes : 1;
	if (mt->qmax < DAT_MT_QUEUE_MIN)
		mt->qmax = DAT_MT_QUEUE_MIN;
	if (mt->qmax > DAT_MT_QUEUE_MAX)
		mt->qmax = DAT_MT_QUEUE_MAX;
	for (i = 0; i <= nw; i++) {
		mt->w[i].mt = mt;
		mt->w[i].id = i;
		if (d->lay.compression[0] && dat_unz_init(&mt->w[i].unz, d->lay.compression) < 0)
			return err_set(&in->err, -ENOMEM, "out of memory");
	}
	/* every signal blocked, so that they reach the main thread only (cpus.h) */
	for (i = 0, ret = 0; i < nw && !ret; i++) {
		ret = util_thread_start(&mt->w[i].tid, worker_main, &mt->w[i], "sr-read");
		mt->w[i].started = !ret;
	}
	if (ret)
		return err_set(&in->err, -ret, "cannot start a reader thread: %s", strerror(ret));
	/* every stream's first batch: the heap's keys */
	if (dat_heap_keys(d) < 0)
		return err_set(&in->err, -ENOMEM, "out of memory");
	for (i = 0; i < d->nr_streams; i++) {
		ret = take_batch(in, d, i, next_batch(mt, i));
		if (ret < 0)
			return ret;
		if (ret)
			d->heap[d->nr_heap++] = i;
	}
	for (i = d->nr_heap / 2 - 1; i >= 0; i--)
		dat_heap_down(d, i);
	return 0;
}

int dat_mt_batch(const struct ingest *in)
{
	const struct dat *d = in && in->ops == &ingest_dat_ops ? in->priv : NULL;

	return d && d->mt ? d->mt->batch : 0;
}

uint64_t dat_mt_pieces(const struct ingest *in, int *lanes)
{
	const struct dat *d = in && in->ops == &ingest_dat_ops ? in->priv : NULL;
	uint64_t n = 0;
	int i;

	*lanes = d && d->mt ? d->mt->nr_lanes : 0;
	for (i = 0; d && d->mt && i < d->nr_streams; i++)
		n += d->mt->q[i].nr_pieces;
	return n;
}

static void free_list(struct dat_batch *b)
{
	struct dat_batch *n;

	for (; b; b = n) {
		n = b->next;
		free(b->arena);
		free(b);
	}
}

void dat_mt_stop(struct dat *d)
{
	struct dat_mt *mt = d->mt;
	int i;

	if (!mt)
		return;
	pthread_mutex_lock(&mt->lock);
	mt->stop = true;
	mt_signal(&mt->work_cv, &mt->work_gen);
	pthread_mutex_unlock(&mt->lock);
	for (i = 0; mt->w && i <= mt->nr_workers; i++) {
		if (mt->w[i].started)
			pthread_join(mt->w[i].tid, NULL);
		dat_unz_release(&mt->w[i].unz);
		free(mt->w[i].strs.buf);
	}
	for (i = 0; mt->lanes && i < mt->nr_lanes; i++) {
		free_list(mt->lanes[i].head);
		free(mt->lanes[i].fs.buf);
	}
	for (i = 0; mt->q && i < d->nr_streams; i++)
		free_list(mt->q[i].cur);
	free_list(mt->hold);
	free_list(mt->free);
	pthread_mutex_destroy(&mt->lock);
	pthread_cond_destroy(&mt->work_cv);
	pthread_cond_destroy(&mt->data_cv);
	free(mt->q);
	free(mt->lanes);
	free(mt->w);
	free(mt);
	d->mt = NULL;
}
