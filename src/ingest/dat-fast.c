// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dat-fast.c - the trace.dat fast reader: each (buffer, CPU) stream's
 * ring-buffer pages read straight from the file and parsed in place,
 * compressed chunks decompressed one at a time.
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
 * The page parser does what libtraceevent's kbuffer does (kbuffer-parse.c:
 * event header words, time extends, absolute time stamps, padding, the
 * missed-events count of the page's first event), inline and without its
 * per-word indirect calls: kbuffer was a quarter of a replay's time.  It
 * is stricter on damage: an event whose size runs past its page, or that
 * does not move forward, ends the page.
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
 * is there), when the reader reaches that page, so that a stream read in
 * pieces (dat_fast_piece()) stops where the whole stream does, and makes a
 * compressed chunk bad, read around (reported as the full walk reports a
 * bad chunk); a record running past its page is read around.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "../util/lines.h"
#include "dat-local.h"
#include "ingest-local.h"

#define DAT_MISSED_EVENTS (1ull << 31)	/* the page follows missed events */
#define DAT_MISSED_STORED (1ull << 30)	/* and their count is after the data */

/* event header type_len values (kernel ring_buffer.h) */
enum {
	DAT_RB_PADDING		= 29,
	DAT_RB_TIME_EXTEND	= 30,
	DAT_RB_TIME_STAMP	= 31,
};
#define DAT_TS_SHIFT	27
#define DAT_TS_MSB	(0xf8ull << 56)

/* ---- the page parser (kbuffer-parse.c's, inline) ------------------------ */

/* numbers in the page, in the file's byte order */
static inline uint32_t rd4(const struct dat_layout *lay, const unsigned char *p)
{
	return (uint32_t)dat_read_num(p, 4, dat_swapped(lay->big_endian));
}

static inline uint64_t rdlong(const struct dat_layout *lay, const unsigned char *p)
{
	return dat_read_num(p, lay->long_size, dat_swapped(lay->big_endian));
}

/*
 * Decode the event header at pg->curr (update_pointers()): its type,
 * where its payload starts and the next header; the timestamp moves on.
 * Return: the header's type_len.
 */
static inline unsigned int pg_update(const struct dat_layout *lay, struct dat_page *pg)
{
	const unsigned char *p = pg->data + pg->curr;
	uint32_t word = rd4(lay, p);
	unsigned int type_len;
	uint64_t delta, ext, msb = 0;
	int64_t length;

	if (lay->big_endian) {
		type_len = word >> 27;
		delta = word & ((1u << 27) - 1);
	} else {
		type_len = word & 31;
		delta = word >> 5;
	}
	p += 4;
	switch (type_len) {
	case DAT_RB_PADDING:
		length = rd4(lay, p);
		break;
	case DAT_RB_TIME_STAMP:
		msb = pg->ts & DAT_TS_MSB;
		/* fall through */
	case DAT_RB_TIME_EXTEND:
		ext = rd4(lay, p);
		p += 4;
		delta = ((ext << DAT_TS_SHIFT) + delta) | msb;
		length = 0;
		break;
	case 0:
		length = (int64_t)rd4(lay, p) - 4;
		length = (length + 3) & ~(int64_t)3;
		p += 4;
		break;
	default:
		length = type_len * 4;
		break;
	}
	if (type_len == DAT_RB_TIME_STAMP)
		pg->ts = delta;
	else
		pg->ts += delta;
	pg->index = (uint32_t)(p - pg->data);
	/* kbuffer would loop on a length that does not move forward: end the page */
	pg->next = length > 0 || type_len >= DAT_RB_PADDING ? pg->index + (uint64_t)length :
							      pg->size;
	if (pg->next <= pg->curr)
		pg->next = pg->size;
	return type_len;
}

/* to the next event (__next_event()); Return: false at the page's end */
static inline bool pg_next(const struct dat_layout *lay, struct dat_page *pg)
{
	unsigned int type;

	do {
		if (pg->next >= pg->size) {
			pg->curr = pg->size;
			return false;
		}
		pg->curr = (uint32_t)pg->next;
		type = pg_update(lay, pg);
	} while (type >= DAT_RB_PADDING);
	return true;
}

/* start the page at @page (kbuffer_load_subbuffer()); commit sizes are checked */
static void pg_load(const struct dat_layout *lay, struct dat_page *pg, const unsigned char *page)
{
	unsigned int hdr = 8 + lay->long_size;
	uint64_t flags = rdlong(lay, page + 8);

	pg->ts = dat_read_num(page, 8, dat_swapped(lay->big_endian));
	pg->data = page + hdr;
	pg->size = (uint32_t)(flags & DAT_COMMIT_MASK);
	if (!(flags & DAT_MISSED_EVENTS))
		pg->lost = 0;
	else if (flags & DAT_MISSED_STORED)
		pg->lost = (int64_t)rdlong(lay, pg->data + pg->size);
	else
		pg->lost = -1;
	pg->curr = 0;
	pg->index = 0;
	pg->next = 0;
	pg_next(lay, pg);
}

/* ---- reading the stream's bytes ----------------------------------------- */

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

/*
 * pread() until @len bytes, the end of the file or an error: a regular
 * file may return fewer bytes than asked, and a signal may interrupt.
 * Return: the bytes read, or -1 (errno).
 */
static ssize_t pread_full(int fd, void *buf, size_t len, uint64_t at)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = pread(fd, (char *)buf + done, len - done, (off_t)(at + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* the next window of an uncompressed stream; Return: 1, 0 at its end, or negative (@dmg) */
static int fill_plain(struct dat *d, const struct dat_stream *s, struct dat_fsrc *fs,
		      struct dat_damage *dmg)
{
	uint32_t ps = d->lay.page_size;
	uint64_t window = DAT_FAST_WINDOW > ps ? DAT_FAST_WINDOW / ps * ps : ps;
	uint64_t n = fs->end - fs->pos;
	size_t want;
	ssize_t got;

	if (!n)
		return 0;
	if (n > window)
		n = window;
	want = (n + ps - 1) / ps * ps;
	if (grow_buf(fs, want, ps) < 0)
		return fail(dmg, -ENOMEM, fs->pos, "out of memory");
	got = pread_full(d->fd, fs->buf, n, fs->pos);
	if (got != (ssize_t)n)
		return fail(dmg, got < 0 ? -errno : -SR_ETRUNCATED, fs->pos,
			    "cpu %d: cannot read its data%s", s->cpu,
			    got < 0 ? "" : " (file shrank)");
	memset(fs->buf + n, 0, want + ps - n);
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
 * larger than the page, is read around when its sizes fit the CPU's data
 * (the next chunk is after it), as the full walk and the libtracecmd path
 * do; a chunk header that does not fit ends the stream there.  Either is
 * DAT_READ_DAMAGE, @dmg filled.  Return: 1, 0 at the stream's end,
 * DAT_READ_DAMAGE, or negative (@dmg).
 */
static int fill_chunk(struct dat *d, const struct dat_stream *s, struct dat_fsrc *fs,
		      struct dat_unz *z, struct dat_damage *dmg)
{
	const struct dat_layout *lay = &d->lay;
	uint32_t ps = lay->page_size;
	size_t left = fs->len - fs->at, pos;
	unsigned char hdr[8], *zin;
	const char *why = NULL;
	uint64_t at = fs->pos;
	uint32_t zsize = 0, usize = 0;
	bool skip = false;
	ssize_t got;
	int ret;

	if (!fs->chunks)
		return 0;
	got = fs->end - fs->pos < 8 ? 0 : pread_full(d->fd, hdr, 8, fs->pos);
	if (got < 0)	/* an I/O error is not damage: never read around */
		return fail(dmg, -errno, fs->pos, "cpu %d: cannot read its data: %s", s->cpu,
			    strerror(errno));
	if (got != 8) {
		why = "compressed block header past the end of its data";
		goto bad;
	}
	zsize = rd4(lay, hdr);
	usize = rd4(lay, hdr + 4);
	if (zsize > fs->end - fs->pos - 8) {
		why = "compressed block runs past the end of its data";
		goto bad;
	}
	skip = true;	/* from here on, a bad chunk is read around */
	if (!usize || usize > DAT_UNZ_MAX_BLOCK || zsize > DAT_UNZ_MAX_BLOCK) {
		why = "impossible compressed size";
		goto bad;
	}
	zin = dat_unz_input(z, zsize);
	if (!zin)
		return fail(dmg, -ENOMEM, fs->pos, "out of memory");
	got = pread_full(d->fd, zin, zsize, fs->pos + 8);
	if (got < 0)
		return fail(dmg, -errno, fs->pos, "cpu %d: cannot read its data: %s", s->cpu,
			    strerror(errno));
	if (got != (ssize_t)zsize) {
		why = "truncated compressed block";
		goto bad;
	}
	if (grow_buf(fs, left + usize + ps, ps) < 0)
		return fail(dmg, -ENOMEM, fs->pos, "out of memory");
	memmove(fs->buf, fs->buf + fs->at, left);
	ret = dat_unz_to(z, zsize, usize, fs->buf + left, &why);
	if (ret == -ENOMEM)
		return fail(dmg, -ENOMEM, fs->pos, "out of memory");
	if (ret < 0)
		goto bad;
	fs->base += fs->at;
	fs->at = 0;
	fs->len = left + usize;
	memset(fs->buf + fs->len, 0, fs->cap - fs->len);
	for (pos = 0; pos < fs->len; pos += ps) {
		if (pos + ps > fs->len && fs->chunks > 1)
			break;	/* completed by the next chunk */
		if (!dat_page_fits(lay, fs->buf + pos, fs->len - pos < ps ? fs->len - pos : ps)) {
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
	if (!skip) {
		fail(dmg, -SR_EBADTRACE, at,
		     "cpu %d compressed data: %s; its chunks from this one on (%u of %u) lost",
		     s->cpu, why, fs->range->nr_chunks - fs->chunk_end + fs->chunks,
		     fs->range->nr_chunks);
		fs->chunks = 0;
		fs->cut = true;
		fs->len = fs->at = 0;
		return DAT_READ_DAMAGE;
	}
	/*
	 * The chunk's sizes fit its CPU's data: the next chunk starts after
	 * it.  Read around it (and the partial page before it, which it was to
	 * complete), as the libtracecmd path does with its patched copy.
	 */
	fail(dmg, -SR_EBADTRACE, at, "cpu %d compressed data: chunk %u of %u: %s; reading the chunks after it",
	     s->cpu, fs->chunk_end - fs->chunks + 1, fs->range->nr_chunks, why);
	fs->base += fs->len + (usize <= DAT_UNZ_MAX_BLOCK ? usize : 0);
	fs->chunks--;
	fs->pos += 8 + zsize;
	fs->len = fs->at = 0;
	return DAT_READ_DAMAGE;
}

int dat_fast_read(struct dat *d, int si, struct dat_unz *z, struct dat_damage *dmg)
{
	return dat_fast_read_from(d, &d->streams[si], &d->streams[si].fs, z, dmg);
}

int dat_fast_read_from(struct dat *d, const struct dat_stream *s, struct dat_fsrc *fs,
		       struct dat_unz *z, struct dat_damage *dmg)
{
	uint32_t ps = d->lay.page_size;
	unsigned int hdr = 8 + d->lay.long_size;
	const unsigned char *page;
	struct dat_page *pg;
	uint64_t size;
	int ret;

	for (;;) {
		if (fs->at + ps <= fs->len) {
			pg = &fs->pg;
			if (pg->curr < pg->size) {
				page = fs->buf + fs->at;
				size = pg->next - pg->index;
				if (pg->data + pg->next > page + ps) {
					fail(dmg, -SR_EBADTRACE, fs->base + fs->at + hdr + pg->curr,
					     "cpu %d: record runs past the end of its page; skipping the rest of the page",
					     s->cpu);
					pg->curr = pg->size;
					return DAT_READ_DAMAGE;
				}
				fs->rec.ts = pg->ts;
				fs->rec.size = (int)size;
				fs->rec.data = (void *)(pg->data + pg->index);
				fs->rec.offset = fs->base + fs->at + hdr + pg->curr;
				fs->rec.missed_events = pg->curr ? 0 : (int)pg->lost;
				fs->rec.record_size = (int)(pg->next - pg->curr);
				fs->told_lost = false;
				pg_next(&d->lay, pg);
				return 1;
			}
			fs->at += ps;
		}
		if (fs->at + ps > fs->len) {
			ret = fs->range->compressed ? fill_chunk(d, s, fs, z, dmg) :
						      fill_plain(d, s, fs, dmg);
			if (ret != 1)
				return ret;
			if (fs->at + ps > fs->len)
				continue;	/* a chunk holding part of a page only */
		}
		/* compressed pages were checked with their chunk (fill_chunk()) */
		if (!fs->range->compressed && !dat_page_fits(&d->lay, fs->buf + fs->at, ps))
			return fail(dmg, -SR_EBADTRACE, fs->base + fs->at,
				    "cpu %d: corrupted page (commit size %llu larger than the page)",
				    s->cpu, (unsigned long long)dat_page_commit(&d->lay, fs->buf + fs->at));
		pg_load(&d->lay, &fs->pg, fs->buf + fs->at);
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
	uint64_t next = lay->page_size, top_end = lay->page_size;
	const struct dat_range *r;
	struct dat_stream *s;
	int lb, bi, i, ret;

	d->streams = util_calloc_lines(lay->nr_ranges, sizeof(*d->streams));
	d->heap = util_calloc_lines(lay->nr_ranges, sizeof(*d->heap));
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
				s->fs.chunk_end = r->nr_chunks;
				s->start = next;
				s->size = r->usize;
				next = (next + r->usize + lay->page_size - 1) / lay->page_size *
				       lay->page_size;
			}
			s->fs.base = s->start;
			if (bi < 0)
				continue;	/* placed, but not read */
			s->fs.rec.cpu = r->cpu;
			if (!read_first) {
				d->total += s->size;
				d->nr_streams++;
				continue;
			}
			ret = dat_read_reported(d, d->nr_streams);
			if (ret <= 0) {
				/* an empty stream, or an error: free now (reuse the slot) */
				free(s->fs.buf);
				s->fs.buf = NULL;
			}
			if (ret < 0)
				return ret;
			if (!ret)
				continue;
			s->rec = &s->fs.rec;
			d->total += s->size;
			d->heap[d->nr_heap++] = d->nr_streams++;
		}
	}
	return 0;
}

/* a piece's bytes: whole pages, and at least one */
static uint64_t plain_piece(const struct dat *d, uint64_t piece)
{
	uint32_t ps = d->lay.page_size;

	return piece > ps ? (piece + ps - 1) / ps * ps : ps;
}

uint32_t dat_fast_pieces(const struct dat *d, const struct dat_stream *s, uint64_t piece)
{
	const struct dat_range *r = s->fs.range;
	uint64_t len, n;

	if (!piece)
		return 1;
	if (r->compressed)
		return r->pieces ? r->nr_pieces : 1;
	len = plain_piece(d, piece);
	n = (r->size + len - 1) / len;
	return n > UINT32_MAX ? 1 : n ? (uint32_t)n : 1;
}

void dat_fast_piece(const struct dat *d, const struct dat_stream *s, uint64_t piece, uint32_t k,
		    struct dat_fsrc *fs)
{
	const struct dat_range *r = s->fs.range;
	uint64_t len = plain_piece(d, piece);
	const struct dat_piece_at *p;

	/* the whole stream's state, as dat_fast_streams() sets it up */
	fs->range = r;
	fs->pos = s->fs.pos;
	fs->end = s->fs.end;
	fs->chunks = s->fs.chunks;
	fs->chunk_end = s->fs.chunk_end;
	fs->base = s->fs.base;
	fs->len = 0;
	fs->at = 0;
	memset(&fs->pg, 0, sizeof(fs->pg));
	fs->rec = s->fs.rec;
	fs->told_lost = false;
	fs->cut = false;
	fs->last_ts = 0;
	fs->ts_unknown = k > 0;
	if (dat_fast_pieces(d, s, piece) < 2)
		return;
	if (!r->compressed) {
		fs->pos = r->off + (uint64_t)k * len;
		if (fs->end - fs->pos > len)
			fs->end = fs->pos + len;
		fs->base = fs->pos;
		return;
	}
	p = &r->pieces[k];
	fs->pos = p->pos;
	fs->chunk_end = k + 1 < r->nr_pieces ? p[1].chunk : r->nr_chunks;
	fs->chunks = fs->chunk_end - p->chunk;
	if (k + 1 < r->nr_pieces)
		fs->end = p[1].pos;
	fs->base = s->start + p->ubytes;
}

void dat_fast_release(struct dat *d)
{
	int i;

	for (i = 0; d->streams && i < d->nr_streams; i++) {
		free(d->streams[i].fs.buf);
	}
}
