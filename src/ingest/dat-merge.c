// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dat-merge.c - merging the streams of the trace.dat decoder: every
 * (buffer, CPU) pair is one stream holding one look-ahead record from
 * tracecmd_read_data(), and a binary min-heap keyed by (timestamp, buffer,
 * CPU) yields them in one time-ordered sequence -- the order `trace-cmd
 * report` prints.  Progress is the bytes of CPU data behind the
 * look-ahead records.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>

#include "../util/lines.h"
#include "dat-local.h"
#include "ingest-local.h"

/* ---- damage ------------------------------------------------------------- */

int dat_report_damage(struct ingest *in, const struct dat_damage *dmg)
{
	in->info.truncated++;
	return ingest_damage(in, dmg->code, dmg->pos, "%s", dmg->msg);
}

int dat_read_reported(struct dat *d, int si)
{
	struct dat_damage dmg;
	int ret;

	for (;;) {
		ret = dat_fast_read(d, si, &d->unz, &dmg);
		if (ret != DAT_READ_DAMAGE)
			break;
		ret = dat_report_damage(d->in, &dmg);
		if (ret < 0)
			return ret;
	}
	if (ret < 0) {
		err_set(&d->in->err, ret, "%s", dmg.msg);
		err_at_byte(&d->in->err, dmg.pos);
	}
	return ret;
}

void dat_lost_event(const struct tep_record *rec, struct sr_event *ev)
{
	ev->kind = SR_EV_LOST;
	ev->name = "lost_events";
	ev->system = "";
	ev->ts_ns = rec->ts;
	ev->cpu = rec->cpu;
	ev->pid = -1;
	ev->src_pos = rec->offset;
	ev->u.lost.count = rec->missed_events > 0 ? rec->missed_events : -1;
}

/* ---- stream merge ------------------------------------------------------- */

/* read the next record of stream @si; account progress; Return: 0 or negative (fast reader) */
static int stream_advance(struct dat *d, int si)
{
	struct dat_stream *s = &d->streams[si];
	uint64_t done;
	int ret = 0;

	if (d->fast) {
		ret = dat_read_reported(d, si);
		s->rec = ret > 0 ? &s->fs.rec : NULL;
	} else {
		/*
		 * libtracecmd returns NULL at the end and when an allocation
		 * failed alike: ENOMEM tells them apart (sticky, dat_next()
		 * fails at its next call rather than end the stream early)
		 */
		errno = 0;
		s->rec = tracecmd_read_data(d->bufs[s->buf].h, s->cpu);
		if (!s->rec && errno == ENOMEM)
			d->oom = true;
	}
	if (s->rec)
		d->hk[si].key = s->rec->ts;
	if (s->rec && s->rec->offset >= s->start)
		done = s->rec->offset - s->start;
	else
		done = s->size;
	if (done > s->size)
		done = s->size;
	if (done > s->done) {
		d->done += done - s->done;
		s->done = done;
	}
	return ret < 0 ? ret : 0;
}

/* pop the earliest record; Return: NULL at the end */
struct tep_record *dat_heap_pop(struct dat *d, int *bi)
{
	struct dat_stream *s;
	struct tep_record *rec;

	if (!d->nr_heap)
		return NULL;
	s = &d->streams[d->heap[0]];
	rec = s->rec;
	*bi = s->buf;
	dat_heap_advance(d);	/* libtracecmd's streams: no error to return */
	return rec;
}

int dat_heap_keys(struct dat *d)
{
	int i;

	d->hk = util_calloc_lines(d->nr_streams, sizeof(*d->hk));
	if (!d->hk)
		return -ENOMEM;
	for (i = 0; i < d->nr_streams; i++) {
		d->hk[i].buf = d->streams[i].buf;
		d->hk[i].cpu = d->streams[i].cpu;
		d->hk[i].key = d->streams[i].rec ? d->streams[i].rec->ts : 0;
	}
	return 0;
}

int dat_heap_advance(struct dat *d)
{
	int ret;

	if (!d->nr_heap)
		return 0;
	ret = stream_advance(d, d->heap[0]);
	if (!d->streams[d->heap[0]].rec)
		d->heap[0] = d->heap[--d->nr_heap];
	dat_heap_down(d, 0);
	return ret;
}

int dat_streams_init(struct dat *d, bool again)
{
	struct dat_stream *s;
	int total = 0;
	int bi;
	int cpu;
	int i;

	if (d->fast) {
		i = dat_fast_streams(d->in, d, true);
		if (i < 0)
			return i;
		goto heapify;
	}
	for (bi = 0; bi < d->nr_bufs; bi++)
		total += d->bufs[bi].nr_cpus;
	d->streams = calloc(total ? total : 1, sizeof(*d->streams));
	d->heap = calloc(total ? total : 1, sizeof(*d->heap));
	if (!d->streams || !d->heap)
		return -ENOMEM;
	for (bi = 0; bi < d->nr_bufs; bi++) {
		for (cpu = 0; cpu < d->bufs[bi].nr_cpus; cpu++) {
			s = &d->streams[d->nr_streams];
			s->buf = bi;
			s->cpu = cpu;
			s->rec = again ? tracecmd_read_cpu_first(d->bufs[bi].h, cpu) :
					 tracecmd_read_data(d->bufs[bi].h, cpu);
			if (!s->rec)
				continue;
			s->size = tracecmd_get_cpu_file_size(d->bufs[bi].h, cpu);
			s->start = s->rec->offset & ~(uint64_t)(tracecmd_page_size(d->bufs[bi].h) - 1);
			d->total += s->size;
			d->heap[d->nr_heap++] = d->nr_streams++;
		}
	}
heapify:
	if (dat_heap_keys(d) < 0)
		return -ENOMEM;
	for (i = d->nr_heap / 2 - 1; i >= 0; i--)
		dat_heap_down(d, i);
	return 0;
}
