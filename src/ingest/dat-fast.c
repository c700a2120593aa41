// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dat-fast.c - the trace.dat fast reader: each (buffer, CPU) stream's
 * ring-buffer pages read straight from the file and parsed with
 * libtraceevent's kbuffer, compressed chunks decompressed one at a time.
 *
 * Why by hand: libtracecmd 3.1 (the reference reader, dat.c's other path)
 * costs a malloc per record, decompresses all of a compressed file's CPU
 * data into temporary files when it opens it (memory and disk as large as
 * the trace), and re-reads timestamps through several layers per record.
 * This reader keeps one window of pages (uncompressed) or one chunk
 * (compressed) per stream, and the look-ahead record is a struct inside
 * the stream: no allocation per event, memory set by the number of CPUs,
 * not by the trace's length.  What it does not do it leaves to
 * libtracecmd: dat_open() picks it only when the header walk found nothing
 * it does not handle (timestamp-adjusting options, latency data, damaged
 * chunk tables, a file cut short: dat_layout.fast_ok).
 *
 * Equivalence: every record carries what libtracecmd's would -- the same
 * timestamp (kbuffer's, unadjusted), size, CPU, missed-events count and
 * offset (the file offset of uncompressed data; for compressed data the
 * offset libtracecmd gives it in its decompressed copy: each CPU's data
 * placed one after the other from one page into the file, rounded up to
 * a page, the instances after the top buffer).  tests/e2e/test-reader.sh
 * compares the two readers event for event.
 *
 * Damage: pages are checked as dat-check.c checks them in a full walk --
 * a commit size larger than its page is fatal in uncompressed data (as it
 * is there) and ends a compressed stream at that chunk (reported as the
 * full walk reports a bad chunk); a record running past its page is read
 * around.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "dat-local.h"
#include "ingest-local.h"

#define DAT_FAST_WINDOW	(256u << 10)	/* bytes of uncompressed pages read at once */
#define DAT_COMMIT_MASK	((1u << 27) - 1)	/* the commit word's size bits */

static uint64_t get_num(const unsigned char *p, unsigned int len, bool big_endian)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < len; i++) {
		if (big_endian)
			v = (v << 8) | p[i];
		else
			v |= (uint64_t)p[i] << (8 * i);
	}
	return v;
}

/* room for @want bytes of pages plus one page of zeros after them */
static int grow_buf(struct dat_fsrc *fs, size_t want, uint32_t ps)
{
	unsigned char *p;

	if (want + ps <= fs->cap)
		return 0;
	p = realloc(fs->buf, want + ps);
	if (!p)
		return -ENOMEM;
	fs->buf = p;
	fs->cap = want + ps;
	return 0;
}

/* whether the page at @p, @left bytes of it present, has a commit size that fits */
static bool page_ok(const struct dat_layout *lay, const unsigned char *p, size_t left)
{
	unsigned int hdr = 8 + lay->long_size;

	if (left < hdr)
		return false;
	return (get_num(p + 8, lay->long_size, lay->big_endian) & DAT_COMMIT_MASK) <= left - hdr;
}

/* fill @dmg; Return: @code */
static int fail(struct dat_damage *dmg, int code, uint64_t pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct dat_damage *dmg, int code, uint64_t pos, const char *fmt, ...)
{
	va_list ap;

	dmg->code = code;
	dmg->pos = pos;
	va_start(ap, fmt);
	vsnprintf(dmg->msg, sizeof(dmg->msg), fmt, ap);
	va_end(ap);
	return code;
}

/* the next window of an uncompressed stream; Return: 1, 0 at its end, or negative (@dmg) */
static int fill_plain(struct dat *d, struct dat_stream *s, struct dat_damage *dmg)
{
	struct dat_fsrc *fs = &s->fs;
	uint32_t ps = d->lay.page_size;
	uint64_t window = DAT_FAST_WINDOW > ps ? DAT_FAST_WINDOW / ps * ps : ps;
	uint64_t n = fs->end - fs->pos;
	size_t want, at;
	ssize_t got;

	if (!n)
		return 0;
	if (n > window)
		n = window;
	want = (n + ps - 1) / ps * ps;
	if (grow_buf(fs, want, ps) < 0)
		return fail(dmg, -ENOMEM, fs->pos, "out of memory");
	got = pread(d->fd, fs->buf, n, (off_t)fs->pos);
	if (got != (ssize_t)n)
		return fail(dmg, got < 0 ? -errno : -SR_ETRUNCATED, fs->pos,
			    "cpu %d: cannot read its data%s", s->cpu,
			    got < 0 ? "" : " (file shrank)");
	memset(fs->buf + n, 0, want + ps - n);
	for (at = 0; at < n; at += ps) {
		if (page_ok(&d->lay, fs->buf + at, ps))
			continue;
		return fail(dmg, -SR_EBADTRACE, fs->pos + at,
			    "cpu %d: corrupted page (commit size %llu larger than the page)", s->cpu,
			    (unsigned long long)(get_num(fs->buf + at + 8, d->lay.long_size,
							 d->lay.big_endian) & DAT_COMMIT_MASK));
	}
	fs->base = fs->pos;
	fs->pos += n;
	fs->len = want;
	fs->at = 0;
	return 1;
}

/*
 * The next chunk of a compressed stream, after the part of a page the
 * last one left (normally none: trace-cmd compresses whole pages).
 * A chunk that does not decompress, or holds a page whose commit size is
 * larger than the page, ends the stream there, reported as the full walk
 * reports it (DAT_READ_DAMAGE, @dmg filled).  Return: 1, 0 at the
 * stream's end, DAT_READ_DAMAGE, or negative (@dmg).
 */
static int fill_chunk(struct dat *d, struct dat_stream *s, struct dat_unz *z,
		      struct dat_damage *dmg)
{
	struct dat_fsrc *fs = &s->fs;
	const struct dat_layout *lay = &d->lay;
	uint32_t ps = lay->page_size;
	size_t left = fs->len - fs->at, pos;
	unsigned char hdr[8], *zin;
	const char *why = NULL;
	uint64_t at = fs->pos;
	uint32_t zsize, usize;
	ssize_t got;
	int ret;

	if (!fs->chunks)
		return 0;
	if (fs->end - fs->pos < 8 || pread(d->fd, hdr, 8, (off_t)fs->pos) != 8) {
		why = "compressed block header past the end of its data";
		goto bad;
	}
	zsize = (uint32_t)get_num(hdr, 4, lay->big_endian);
	usize = (uint32_t)get_num(hdr + 4, 4, lay->big_endian);
	if (zsize > fs->end - fs->pos - 8) {
		why = "compressed block runs past the end of its data";
		goto bad;
	}
	zin = dat_unz_input(z, zsize);
	if (!zin || !usize || usize > DAT_UNZ_MAX_BLOCK) {
		why = "impossible compressed size";
		goto bad;
	}
	got = pread(d->fd, zin, zsize, (off_t)(fs->pos + 8));
	if (got != (ssize_t)zsize) {
		why = "truncated compressed block";
		goto bad;
	}
	if (grow_buf(fs, left + usize + ps, ps) < 0)
		return fail(dmg, -ENOMEM, fs->pos, "out of memory");
	memmove(fs->buf, fs->buf + fs->at, left);
	ret = dat_unz_to(z, zsize, usize, fs->buf + left, &why);
	if (ret < 0)
		goto bad;
	fs->base += fs->at;
	fs->at = 0;
	fs->len = left + usize;
	memset(fs->buf + fs->len, 0, fs->cap - fs->len);
	for (pos = 0; pos < fs->len; pos += ps) {
		if (pos + ps > fs->len && fs->chunks > 1)
			break;	/* completed by the next chunk */
		if (!page_ok(lay, fs->buf + pos, fs->len - pos < ps ? fs->len - pos : ps)) {
			why = "a page's commit size is larger than the page";
			fs->len = 0;
			goto bad;
		}
	}
	fs->chunks--;
	fs->pos += 8 + zsize;
	if (!fs->chunks)
		fs->len = (fs->len + ps - 1) / ps * ps;	/* the last page, zero-padded */
	return 1;

bad:
	fail(dmg, -SR_EBADTRACE, at, "cpu %d compressed data: %s; reading its first %u of %u chunks",
	     s->cpu, why, fs->range->nr_chunks - fs->chunks, fs->range->nr_chunks);
	fs->chunks = 0;
	fs->len = fs->at = 0;
	return DAT_READ_DAMAGE;
}

int dat_fast_read(struct dat *d, int si, struct dat_unz *z, struct dat_damage *dmg)
{
	struct dat_stream *s = &d->streams[si];
	struct dat_fsrc *fs = &s->fs;
	uint32_t ps = d->lay.page_size;
	unsigned long long ts;
	unsigned char *page;
	void *data;
	int size;
	int ret;

	for (;;) {
		if (fs->at + ps <= fs->len) {
			page = fs->buf + fs->at;
			data = kbuffer_read_event(fs->kbuf, &ts);
			if (data) {
				size = kbuffer_event_size(fs->kbuf);
				if (size < 0 || (unsigned char *)data < page ||
				    (unsigned char *)data + size > page + ps) {
					fail(dmg, -SR_EBADTRACE,
					     fs->base + fs->at + kbuffer_curr_offset(fs->kbuf),
					     "cpu %d: record runs past the end of its page; skipping the rest of the page",
					     s->cpu);
					fs->at += ps;
					if (fs->at + ps <= fs->len)
						kbuffer_load_subbuffer(fs->kbuf, fs->buf + fs->at);
					return DAT_READ_DAMAGE;
				}
				s->fs.rec.ts = ts;
				s->fs.rec.size = size;
				s->fs.rec.data = data;
				s->fs.rec.offset = fs->base + fs->at + kbuffer_curr_offset(fs->kbuf);
				s->fs.rec.missed_events = kbuffer_missed_events(fs->kbuf);
				s->fs.rec.record_size = kbuffer_curr_size(fs->kbuf);
				s->fs.told_lost = false;
				kbuffer_next_event(fs->kbuf, NULL);
				return 1;
			}
			fs->at += ps;
		}
		if (fs->at + ps > fs->len) {
			ret = fs->range->compressed ? fill_chunk(d, s, z, dmg) : fill_plain(d, s, dmg);
			if (ret != 1)
				return ret;
			if (fs->at + ps > fs->len)
				continue;	/* a chunk holding part of a page only */
		}
		kbuffer_load_subbuffer(fs->kbuf, fs->buf + fs->at);
	}
}

/* index in d->bufs of the layout's buffer @lb, or -1 when not selected */
static int buf_index(const struct dat *d, int lb)
{
	int i;

	for (i = 0; i < d->nr_bufs; i++)
		if (d->bufs[i].name == d->lay.bufs[lb].name)
			return i;
	return -1;
}

int dat_fast_streams(struct ingest *in, struct dat *d, bool read_first)
{
	const struct dat_layout *lay = &d->lay;
	struct tep_handle *tep = d->bufs ? d->bufs[0].tep : NULL;
	enum kbuffer_long_size ls = lay->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4;
	enum kbuffer_endian en = lay->big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE;
	uint64_t next = lay->page_size, top_end = lay->page_size;
	const struct dat_range *r;
	struct dat_stream *s;
	int lb, bi, i, ret;

	d->streams = calloc(lay->nr_ranges ? lay->nr_ranges : 1, sizeof(*d->streams));
	d->heap = calloc(lay->nr_ranges ? lay->nr_ranges : 1, sizeof(*d->heap));
	if (!d->streams || !d->heap)
		return err_set(&in->err, -ENOMEM, "out of memory");
	/* by buffer, in table order: libtracecmd's order of placing compressed data */
	for (lb = 0; lb < lay->nr_bufs; lb++) {
		if (lb == 1)
			top_end = next;
		next = top_end;
		bi = buf_index(d, lb);
		for (i = 0; i < lay->nr_ranges; i++) {
			r = &lay->ranges[i];
			if (r->buf != lb || !r->size)
				continue;
			s = &d->streams[d->nr_streams];
			memset(s, 0, sizeof(*s));
			s->buf = bi;
			s->cpu = r->cpu;
			s->fs.range = r;
			s->fs.pos = r->off;
			s->fs.end = r->off + r->size;
			s->start = r->off;
			s->size = r->size;
			if (r->compressed) {
				s->fs.pos += 4;
				s->fs.end += 4;
				s->fs.chunks = r->nr_chunks;
				s->start = next;
				s->size = r->usize;
				next = (next + r->usize + lay->page_size - 1) / lay->page_size *
				       lay->page_size;
			}
			s->fs.base = s->start;
			if (bi < 0)
				continue;	/* placed, but not read */
			s->fs.rec.cpu = r->cpu;
			s->fs.kbuf = kbuffer_alloc(ls, en);
			if (!s->fs.kbuf)
				return err_set(&in->err, -ENOMEM, "out of memory");
			if (tep && tep_is_old_format(tep))
				kbuffer_set_old_format(s->fs.kbuf);
			if (!read_first) {
				d->total += s->size;
				d->nr_streams++;
				continue;
			}
			ret = dat_read_reported(d, d->nr_streams);
			if (ret < 0)
				return ret;
			if (!ret) {
				/* an empty stream: free now, reuse the slot */
				kbuffer_free(s->fs.kbuf);
				free(s->fs.buf);
				s->fs.kbuf = NULL;
				s->fs.buf = NULL;
				continue;
			}
			s->rec = &s->fs.rec;
			d->total += s->size;
			d->heap[d->nr_heap++] = d->nr_streams++;
		}
	}
	return 0;
}

void dat_fast_release(struct dat *d)
{
	int i;

	for (i = 0; d->streams && i < d->nr_streams; i++) {
		kbuffer_free(d->streams[i].fs.kbuf);
		free(d->streams[i].fs.buf);
	}
}
