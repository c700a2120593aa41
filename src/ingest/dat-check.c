// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dat-check.c - a bounds-checked walk over a trace.dat file's headers
 * (trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5)) before libtracecmd sees it.
 *
 * Why: libtracecmd 3.1 believes the sizes in the file.  On an uncompressed
 * file it mmap()s each CPU's pages from the offsets in the headers, so a
 * file cut short inside the event data kills the process with SIGBUS on the
 * first page past the end; option payloads are used as C strings without a
 * terminator check (UNAME, DATE, ...), a zero-sized CPUSTAT option writes
 * one byte before its buffer, a CPUCOUNT option shorter than 4 bytes is read
 * past its end; and when a compressed block of a v7 file does not
 * decompress, tracecmd_open_fd() fails and its cleanup reads a NULL
 * pointer in tracecmd_close().  This walk reads every size and offset with
 * the file size as the bound, so bad headers become one error naming the
 * byte offset, and CPU data running past the end of the file is reported
 * to the decoder, which then reads around it.
 *
 * What is covered: every header of a version 6 file; for version 7 the
 * section chain and every option, and, in a compressed file, every
 * compressed block libtracecmd would decompress on opening: the options
 * sections, the metadata sections the options point at (header info,
 * formats, kallsyms, printk, cmdlines), the strings sections (found, as
 * libtracecmd finds them, by walking the sections from the file header
 * on), and each chunk of each CPU's data.  Each block must decompress
 * (dat-unz.c) to exactly its declared size.  A bad block in a metadata
 * section is an error; a bad chunk of CPU data is listed in the layout for
 * the decoder to read around (the chunks before it are good).  No two
 * CPUs' data ranges may overlap.
 *
 * Length: one walk over one format, sharing one bounded reader (struct
 * rd); the decompression itself is in dat-unz.c.  Splitting the v7 half
 * out would mean exporting the reader's internals to a second file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dat-local.h"
#include "ingest.h"

#define DAT_MAX_ITEMS	(1u << 20)	/* event formats, systems, options */
#define DAT_MAX_SECTIONS 4096		/* v7 option sections in one chain */
#define DAT_MAX_RANGES	(1 << 16)	/* CPU data ranges over all buffers */
#define DAT_NR_META	6		/* HEADER_INFO .. CMDLINES */

enum {
	OPT_DONE	= 0,
	OPT_DATE	= 1,
	OPT_CPUSTAT	= 2,
	OPT_BUFFER	= 3,
	OPT_TRACECLOCK	= 4,
	OPT_UNAME	= 5,
	OPT_HOOK	= 6,
	OPT_OFFSET	= 7,
	OPT_CPUCOUNT	= 8,
	OPT_VERSION	= 9,
	OPT_PROCMAPS	= 10,
	OPT_TRACEID	= 11,
	OPT_TIME_SHIFT	= 12,
	OPT_GUEST	= 13,
	OPT_TSC2NSEC	= 14,
	OPT_STRINGS	= 15,
	OPT_HEADER_INFO	= 16,		/* .. OPT_CMDLINES: offsets of metadata sections */
	OPT_FTRACE_EVENTS = 17,
	OPT_EVENT_FORMATS = 18,
	OPT_KALLSYMS	= 19,
	OPT_PRINTK	= 20,
	OPT_CMDLINES	= 21,
	OPT_BUFFER_TEXT	= 22,
	SEC_FL_COMPRESS	= 1,
};

/* one CPU's data as a CPU table or BUFFER option declares it */
struct cpu_range {
	uint64_t	off;
	uint64_t	size;
	uint64_t	at;		/* where the table entry is */
	uint64_t	size_pos;	/* where its size field is (0: in a compressed section) */
	uint64_t	sec;		/* v7: offset of its BUFFER section */
	int		cpu;
	int		buf;		/* index in lay->buf_names */
	int		at_index;	/* in table order (lay->ranges) */
};

/*
 * The reader.  Normally over the file (@fd, bounded by @size); while the
 * options of a compressed section are parsed, over its decompressed bytes
 * (@mem, @size bytes; positions are in those bytes, and errors name the
 * section's file offset @mem_at).
 */
struct rd {
	int		fd;
	const unsigned char *mem;
	uint64_t	mem_at;
	uint64_t	pos;
	uint64_t	size;
	struct err	*err;
	struct dat_layout *lay;
	int		cpus;	/* v6: CPU count from the header */
	struct dat_unz	unz;	/* set up for a compressed v7 file */
	struct cpu_range *ranges;
	int		nr_ranges;
	int		cap_ranges;
	uint64_t	meta[DAT_NR_META];	/* v7: metadata section offsets, 0 if none */
	int		mode;	/* DAT_CHECK_FULL or DAT_CHECK_HEADERS */
	uint64_t	piece;	/* DAT_CHECK_HEADERS: cut compressed data this finely (0: not) */
	int		cur_buf;	/* buffer whose CPU table is being read */
	bool		trace_clock;	/* v6: a TRACECLOCK option was seen */
	uint64_t	cpucount;	/* v7: the CPUCOUNT option's, 0 if none */
	uint64_t	lost_opts;	/* v7: an options section past the end of the file */
	uint64_t	buf_sec;	/* v7: the first BUFFER section of the chain, 0 if none */
	uint64_t	buf_flags;	/* its flags */
	uint64_t	buf_end;	/* where its header says it ends */
};

static int rd_fail(struct rd *r, int code, uint64_t at, const char *what)
{
	if (r->mem) {
		err_set(r->err, code, "%s (byte %llu of the decompressed section at byte %llu)",
			what, (unsigned long long)at, (unsigned long long)r->mem_at);
		err_at_byte(r->err, r->mem_at);
		return code;
	}
	err_set(r->err, code, "%s", what);
	err_at_byte(r->err, at);
	return code;
}

static ssize_t rd_pread(struct rd *r, void *buf, uint64_t len, uint64_t at)
{
	if (!r->mem)
		return pread(r->fd, buf, len, (off_t)at);
	if (at > r->size)
		return 0;
	if (len > r->size - at)
		len = r->size - at;
	memcpy(buf, r->mem + at, len);
	return (ssize_t)len;
}

static int rd_bytes(struct rd *r, void *buf, uint64_t len, const char *what)
{
	ssize_t n;

	if (len > r->size || r->pos > r->size - len)
		return rd_fail(r, -SR_ETRUNCATED, r->pos, what);
	n = rd_pread(r, buf, len, r->pos);
	if (n < 0) {
		err_set(r->err, -errno, "cannot read: %s", strerror(errno));
		err_at_byte(r->err, r->pos);
		return r->err->code;
	}
	if ((uint64_t)n != len)
		return rd_fail(r, -SR_ETRUNCATED, r->pos, what);
	r->pos += len;
	return 0;
}

static int rd_num(struct rd *r, int len, uint64_t *out, const char *what)
{
	unsigned char b[8];
	uint64_t v = 0;
	int i;
	int ret;

	ret = rd_bytes(r, b, len, what);
	if (ret < 0)
		return ret;
	for (i = 0; i < len; i++) {
		if (r->lay->big_endian)
			v = (v << 8) | b[i];
		else
			v |= (uint64_t)b[i] << (8 * i);
	}
	*out = v;
	return 0;
}

/* the 4-byte number at file offset @at, without moving r->pos; 0 or negative */
static int rd_num_at(struct rd *r, uint64_t at, uint64_t *out)
{
	uint64_t pos = r->pos;
	int ret;

	r->pos = at;
	ret = rd_num(r, 4, out, "truncated compressed block");
	r->pos = pos;
	return ret;
}

/* skip @len bytes that must lie inside the file */
static int rd_skip(struct rd *r, uint64_t len, const char *what)
{
	if (len > r->size || r->pos > r->size - len)
		return rd_fail(r, -SR_ETRUNCATED, r->pos, what);
	r->pos += len;
	return 0;
}

/* a NUL-terminated string of at most @max bytes; copied into @buf if given */
static int rd_str(struct rd *r, char *buf, size_t max, const char *what)
{
	char tmp[256];
	uint64_t left = r->size > r->pos ? r->size - r->pos : 0;
	size_t want = max < sizeof(tmp) ? max : sizeof(tmp);
	ssize_t n;
	char *nul;

	if (want > left)
		want = left;
	n = rd_pread(r, tmp, want, r->pos);
	if (n <= 0)
		return rd_fail(r, -SR_ETRUNCATED, r->pos, what);
	nul = memchr(tmp, '\0', n);
	if (!nul)
		return rd_fail(r, (uint64_t)n == left ? -SR_ETRUNCATED : -SR_EBADTRACE, r->pos,
			       what);
	if (buf)
		memcpy(buf, tmp, nul - tmp + 1);
	r->pos += nul - tmp + 1;
	return 0;
}

static int check_section(struct rd *r, uint64_t off, unsigned int want_id, uint64_t *flags,
			 uint64_t *size);

/* note a CPU's data range; checked in check_ranges() once all are known */
static int add_range(struct rd *r, int cpu, uint64_t off, uint64_t size, uint64_t at,
		     uint64_t size_pos, uint64_t sec)
{
	struct cpu_range *p;
	int cap;

	if (!size)
		return 0;
	if (off > UINT64_MAX - size - 4)
		return rd_fail(r, -SR_EBADTRACE, at, "impossible cpu data offset or size");
	if (r->nr_ranges == r->cap_ranges) {
		if (r->nr_ranges == DAT_MAX_RANGES)
			return rd_fail(r, -SR_EBADTRACE, at, "too many cpu data ranges");
		cap = r->cap_ranges ? 2 * r->cap_ranges : 16;
		p = realloc(r->ranges, cap * sizeof(*p));
		if (!p)
			return err_set(r->err, -ENOMEM, "out of memory");
		r->ranges = p;
		r->cap_ranges = cap;
	}
	p = &r->ranges[r->nr_ranges++];
	p->off = off;
	p->size = size;
	p->at = r->mem ? r->mem_at : at;
	p->size_pos = r->mem ? 0 : size_pos;
	p->sec = sec;
	p->cpu = cpu;
	p->buf = r->cur_buf;
	return 0;
}

static int push_buf(struct rd *r, const char *name)
{
	struct dat_layout *lay = r->lay;
	struct dat_lay_buf *p;

	p = realloc(lay->bufs, (lay->nr_bufs + 1) * sizeof(*p));
	if (!p)
		return err_set(r->err, -ENOMEM, "out of memory");
	lay->bufs = p;
	p += lay->nr_bufs;
	p->nr_cpus = r->cpus;
	p->name = strdup(name);
	if (!p->name)
		return err_set(r->err, -ENOMEM, "out of memory");
	lay->nr_bufs++;
	return 0;
}

/*
 * Note a buffer (a CPU table or a BUFFER option) by name and make it
 * r->cur_buf.  Index 0 is always the top buffer ("").
 */
static int add_buf(struct rd *r, const char *name)
{
	struct dat_layout *lay = r->lay;
	int ret;
	int i;

	if (!lay->nr_bufs) {
		ret = push_buf(r, "");
		if (ret < 0)
			return ret;
	}
	r->cur_buf = 0;
	if (!*name)
		return 0;
	for (i = 1; i < lay->nr_bufs; i++) {
		if (!strcmp(lay->bufs[i].name, name)) {
			/* libtracecmd keeps both; the fast reader does not try */
			lay->fast_ok = false;
			lay->fast_why = "two buffers of one name";
		}
	}
	if (lay->nr_bufs >= 4096)
		return rd_fail(r, -SR_EBADTRACE, r->pos, "too many buffers");
	ret = push_buf(r, name);
	r->cur_buf = lay->nr_bufs - 1;
	return ret;
}

void dat_layout_release(struct dat_layout *lay)
{
	int i;

	for (i = 0; i < lay->nr_bufs; i++)
		free(lay->bufs[i].name);
	free(lay->bufs);
	for (i = 0; i < lay->nr_ranges; i++)
		free(lay->ranges[i].pieces);
	free(lay->ranges);
	lay->bufs = NULL;
	lay->ranges = NULL;
	lay->nr_bufs = 0;
	lay->nr_ranges = 0;
}

/*
 * The page headers of uncompressed CPU data, as chunk_pages_ok() checks a
 * decompressed chunk's: libtraceevent's kbuffer trusts each page's commit
 * size and reads that far past the page.  One small read per page (16
 * bytes in 4096), once per open.
 */
static int plain_pages_ok(struct rd *r, const struct cpu_range *c, uint64_t size)
{
	const struct dat_layout *lay = r->lay;
	unsigned int hdr = 8 + lay->long_size;
	uint64_t pos, end = c->off + size;
	unsigned char p[16];

	if (end > lay->file_size)
		end = lay->file_size;
	for (pos = c->off; pos + hdr <= end; pos += lay->page_size) {
		if (pread(r->fd, p, hdr, (off_t)pos) != (ssize_t)hdr)
			return rd_fail(r, -SR_ETRUNCATED, pos, "cannot read a page header");
		if (!dat_page_fits(lay, p, lay->page_size)) {
			err_set(r->err, -SR_EBADTRACE,
				"cpu %d: corrupted page (commit size %llu larger than the page)",
				c->cpu, (unsigned long long)dat_page_commit(lay, p));
			err_at_byte(r->err, pos);
			return -SR_EBADTRACE;
		}
	}
	return 0;
}

/*
 * Uncompressed CPU data: [off, off + size) should lie inside the file.
 * A range cut by the end of the file is noted for the decoder, which
 * shortens it in its padded copy (through the size field at size_pos).
 */
static int note_plain_range(struct rd *r, const struct cpu_range *c)
{
	struct dat_layout *lay = r->lay;
	uint64_t ps = lay->page_size;
	uint64_t size = c->size;
	int ret;

	if (c->off % ps)
		return rd_fail(r, -SR_EBADTRACE, c->at, "cpu data offset not at a page boundary");
	if (c->off + size > lay->file_size) {
		/* a cut file: the decoder reads what is there */
		if (!c->size_pos && !lay->rebuilt)
			return rd_fail(r, -SR_ETRUNCATED, c->at, "cpu data runs past end of file");
		if (lay->nr_cut == DAT_MAX_CUT)
			return rd_fail(r, -SR_ETRUNCATED, lay->file_size,
				       "file cut short and too many cpus lost to read around");
		if (!lay->nr_cut)
			lay->first_cut = lay->file_size;
		lay->fast_ok = false;	/* libtracecmd's path reads around it */
		lay->fast_why = "the file is cut short inside its cpu data";
		lay->cut[lay->nr_cut].size_pos = c->size_pos;	/* 0: a rebuilt table's */
		size = c->off >= lay->file_size ? 0 :
		       (lay->file_size - c->off + ps - 1) / ps * ps;
		lay->cut[lay->nr_cut].size = size;
		/* the page the cut falls in, 0 when it starts past the end */
		lay->cut[lay->nr_cut].page = size ? c->off + size - ps : 0;
		lay->nr_cut++;
	}
	ret = r->mode == DAT_CHECK_FULL ? plain_pages_ok(r, c, size) : 0;
	if (ret < 0)
		return ret;
	if (c->off + size > lay->data_end)
		lay->data_end = c->off + size;
	return 0;
}

/* a compressed block's header at r->pos: compressed size (4), uncompressed size (4) */
static int read_block(struct rd *r, uint64_t end, uint64_t *usize, const char **why)
{
	uint64_t zsize = 0;
	unsigned char *in;
	int ret;

	if (end - r->pos < 8) {
		*why = "compressed block header past the end of its data";
		return -SR_EBADTRACE;
	}
	ret = rd_num(r, 4, &zsize, "truncated compressed block");
	if (!ret)
		ret = rd_num(r, 4, usize, "truncated compressed block");
	if (ret < 0)
		return ret;
	if (zsize > end - r->pos) {
		*why = "compressed block runs past the end of its data";
		return -SR_EBADTRACE;
	}
	in = dat_unz_input(&r->unz, (uint32_t)zsize);
	if (!in) {
		*why = "impossible compressed size";
		return zsize > DAT_UNZ_MAX_BLOCK ? -SR_EBADTRACE : -ENOMEM;
	}
	ret = rd_bytes(r, in, zsize, "truncated compressed block");
	if (ret < 0)
		return ret;
	return dat_unz_block(&r->unz, (uint32_t)zsize, (uint32_t)*usize, why);
}

/*
 * A compressed section's data, at r->pos, @size bytes: one block that must
 * decompress to its declared size.  On success the bytes are in r->unz.out.
 * Return: the uncompressed size, or a negative code (error set).
 */
static int64_t check_zsection(struct rd *r, uint64_t sec, uint64_t size)
{
	const char *why = NULL;
	uint64_t usize = 0;
	int ret;

	ret = read_block(r, r->pos + size, &usize, &why);
	if (ret == -SR_EBADTRACE && why) {
		err_set(r->err, ret, "compressed section: %s", why);
		err_at_byte(r->err, sec);
	}
	if (ret == -ENOMEM)
		err_set(r->err, ret, "out of memory");
	return ret < 0 ? ret : (int64_t)usize;
}

/*
 * The ring-buffer pages of a decompressed chunk: timestamp (8), commit
 * (one long), data.  libtraceevent's kbuffer trusts the commit size
 * (its low 27 bits; the top bits flag missed events) and reads that far,
 * past the end of the page and of the chunk's buffer.
 */
static bool chunk_pages_ok(const struct rd *r, uint64_t usize)
{
	const struct dat_layout *lay = r->lay;
	uint64_t pos;

	for (pos = 0; pos < usize; pos += lay->page_size)
		if (!dat_page_fits(lay, r->unz.out + pos,
				   usize - pos < lay->page_size ? usize - pos : lay->page_size))
			return false;
	return true;
}

/*
 * Compressed CPU data at c->off: chunk count (4), then per chunk
 * compressed size (4), uncompressed size (4), data; the declared size
 * covers the chunks, not the count.  Every chunk is decompressed once
 * (into the one reused buffer).  A chunk that does not decompress, or
 * whose pages are bad, but whose sizes fit the range is read around: the
 * chunks after it are still found by the sizes and read.  A chunk header
 * that does not fit ends the CPU's data there.
 */
static int walk_chunks(struct rd *r, const struct cpu_range *c)
{
	struct dat_layout *lay = r->lay;
	struct dat_bad_cpu bad = { .cpu = c->cpu, .count_pos = c->off };
	uint64_t end = c->off + 4 + c->size;
	uint64_t count = 0, k, at = c->off, usize, zsize;
	const char *why = NULL;
	bool fits;
	int ret;

	if (end > lay->file_size)
		return rd_fail(r, -SR_ETRUNCATED, c->at, "compressed cpu data runs past end of file");
	r->pos = c->off;
	ret = rd_num(r, 4, &count, "truncated cpu data");
	if (ret < 0)
		return ret;
	for (k = 0; k < count; k++) {
		at = r->pos;
		why = NULL;
		ret = read_block(r, end, &usize, &why);
		if (ret < 0 && !(ret == -SR_EBADTRACE && why)) {
			if (ret == -ENOMEM)
				err_set(r->err, ret, "out of memory");
			return ret;
		}
		if (!ret && !chunk_pages_ok(r, usize)) {
			why = "a page's commit size is larger than the page";
			ret = -SR_EBADTRACE;
		}
		if (!ret) {
			bad.good++;
			continue;
		}
		if (!bad.why) {
			bad.why = why;
			bad.at = at;
		}
		/* the chunk's sizes may still say where the next one starts */
		zsize = 0;
		fits = end - at >= 8 && !rd_num_at(r, at, &zsize) &&
		       zsize <= end - at - 8 && bad.nr_skip < DAT_MAX_SKIP;
		if (!fits) {
			bad.lost_rest = true;
			bad.stop = at;
			/* a rebuilt table's last cpu ends at the cut: said once, as the cut */
			bad.cut = lay->rebuilt && at == end && !bad.nr_skip && bad.at == at;
			break;
		}
		bad.skip[bad.nr_skip].at = at;
		bad.skip[bad.nr_skip].len = 8 + zsize;
		bad.nr_skip++;
		r->pos = at + 8 + zsize;
	}
	if (k == count && r->pos != end && !bad.why) {
		/* every counted chunk is good, but they do not fill the range */
		bad.why = "chunk count does not match the cpu data size";
		bad.at = c->off;
	}
	if (!bad.why)
		return 0;
	if (lay->nr_bad == DAT_MAX_BAD)
		return rd_fail(r, -SR_EBADTRACE, bad.at, "too many cpus with damaged data");
	bad.count = (uint32_t)count;
	bad.end = end;
	lay->bad[lay->nr_bad++] = bad;
	return 0;
}

/* note that a piece of @out starts at chunk @k, file offset @pos, after @ubytes */
static int add_piece(struct dat_range *out, uint32_t *cap, uint32_t k, uint64_t pos,
		     uint64_t ubytes)
{
	struct dat_piece_at *p;
	uint32_t n;

	if (out->nr_pieces == *cap) {
		n = *cap ? 2 * *cap : 16;
		p = realloc(out->pieces, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		out->pieces = p;
		*cap = n;
	}
	p = &out->pieces[out->nr_pieces++];
	p->pos = pos;
	p->ubytes = ubytes;
	p->chunk = k;
	return 0;
}

/*
 * DAT_CHECK_HEADERS: compressed CPU data's chunk headers only, for the
 * fast reader, which decompresses (and checks) each chunk as it reads it.
 * The chain of chunk sizes must fill the range exactly; when it does not,
 * the caller falls back to the full walk, which says what is wrong.
 * With r->piece, the range is also cut into pieces for the threaded
 * reader: a piece starts at a chunk at least r->piece uncompressed bytes
 * after the last piece's start.  Only when every chunk but the last holds
 * whole pages: a page split over two chunks would tie a piece to the one
 * before it (trace-cmd writes whole pages; the range is then one piece).
 */
static int walk_chunk_headers(struct rd *r, const struct cpu_range *c, struct dat_range *out)
{
	struct dat_layout *lay = r->lay;
	uint64_t end = c->off + 4 + c->size;
	uint64_t count = 0, k, zsize = 0, usize = 0, total = 0, at, last = 0;
	uint32_t cap = 0;
	bool whole = r->piece != 0;
	int ret;

	if (end > lay->file_size)
		return rd_fail(r, -SR_ETRUNCATED, c->at, "compressed cpu data runs past end of file");
	r->pos = c->off;
	ret = rd_num(r, 4, &count, "truncated cpu data");
	for (k = 0; !ret && k < count; k++) {
		if (end - r->pos < 8)
			break;
		at = r->pos;
		ret = rd_num(r, 4, &zsize, "truncated compressed block");
		if (!ret)
			ret = rd_num(r, 4, &usize, "truncated compressed block");
		if (ret < 0)
			return ret;
		if (zsize > end - r->pos || !usize || usize > DAT_UNZ_MAX_BLOCK ||
		    zsize > DAT_UNZ_MAX_BLOCK)
			break;
		if (!k || total - last >= r->piece) {
			last = total;
			if (whole && add_piece(out, &cap, (uint32_t)k, at, total) < 0)
				return err_set(r->err, -ENOMEM, "out of memory");
		}
		if (usize % lay->page_size && k + 1 < count)
			whole = false;
		r->pos += zsize;
		total += usize;
	}
	if (ret < 0)
		return ret;
	if (k != count || r->pos != end) {
		lay->fast_ok = false;
		lay->fast_why = "a cpu's chunk table does not fill its data";
		return 0;
	}
	if (!whole) {
		free(out->pieces);
		out->pieces = NULL;
		out->nr_pieces = 0;
	}
	out->nr_chunks = (uint32_t)count;
	out->usize = total;
	return 0;
}

static int range_cmp(const void *a, const void *b)
{
	const struct cpu_range *x = a;
	const struct cpu_range *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * All CPU ranges: no two may overlap (a corrupt size in the middle of a
 * table runs into the next CPU's data); then each is checked against the
 * file: compressed ones chunk by chunk, others for a cut.
 */
static int check_ranges(struct rd *r)
{
	struct cpu_range *c;
	uint64_t flags = 0, size = 0, sec = 0;
	bool compressed = false;
	struct dat_range *out;
	int i;
	int ret;

	if (r->nr_ranges) {
		r->lay->ranges = calloc(r->nr_ranges, sizeof(*r->lay->ranges));
		if (!r->lay->ranges)
			return err_set(r->err, -ENOMEM, "out of memory");
		r->lay->nr_ranges = r->nr_ranges;
	}
	for (i = 0; i < r->nr_ranges; i++) {
		out = &r->lay->ranges[i];
		out->off = r->ranges[i].off;
		out->size = out->usize = r->ranges[i].size;
		out->cpu = r->ranges[i].cpu;
		out->buf = r->ranges[i].buf;
		/* table order survives the sort below through @at */
		r->ranges[i].at_index = i;
	}
	if (r->nr_ranges > 1)	/* a damaged table may name no CPU at all */
		qsort(r->ranges, r->nr_ranges, sizeof(*r->ranges), range_cmp);
	for (i = 0; i + 1 < r->nr_ranges; i++) {
		c = &r->ranges[i];
		if (c->off + c->size <= c[1].off)
			continue;
		err_set(r->err, -SR_EBADTRACE,
			"cpu %d data (%llu bytes at byte %llu) overlaps cpu %d data at byte %llu",
			c->cpu, (unsigned long long)c->size, (unsigned long long)c->off, c[1].cpu,
			(unsigned long long)c[1].off);
		err_at_byte(r->err, c->at);
		return -SR_EBADTRACE;
	}
	for (i = 0; i < r->nr_ranges; i++) {
		c = &r->ranges[i];
		if (c->sec && c->sec != sec) {
			sec = c->sec;
			if (r->lay->rebuilt && sec == r->buf_sec) {
				/* the cut section: its data runs to the end of the file */
				flags = r->buf_flags;
				r->pos = sec + 16;
				size = r->size - r->pos;
				ret = 0;
			} else {
				ret = check_section(r, sec, OPT_BUFFER, &flags, &size);
			}
			if (ret < 0)
				return ret;
			compressed = r->lay->compression[0] && (flags & SEC_FL_COMPRESS);
			if (c->off < r->pos || c->off - r->pos > size)
				return rd_fail(r, -SR_EBADTRACE, c->at,
					       "cpu data outside its buffer section");
		}
		out = &r->lay->ranges[c->at_index];
		out->compressed = compressed;
		if (compressed && r->mode == DAT_CHECK_HEADERS)
			ret = walk_chunk_headers(r, c, out);
		else
			ret = compressed ? walk_chunks(r, c) : note_plain_range(r, c);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * One option's payload, at r->pos, @size bytes.  Checks what libtracecmd
 * would use unchecked; BUFFER options locate CPU data (v7) or a buffer's
 * own CPU table (v6, returned in *v6_buffer_off).
 */
/* an option's text (terminated, checked by the caller), cut to @max - 1 bytes */
static void opt_text(struct rd *r, uint64_t at, uint64_t size, char *out, size_t max)
{
	ssize_t n = rd_pread(r, out, size < max ? size : max - 1, at);

	out[n > 0 ? n : 0] = '\0';
}

static int check_option(struct rd *r, unsigned int id, uint64_t size, uint64_t *v6_buffer_off)
{
	uint64_t start = r->pos;
	uint64_t end = r->pos + size;
	unsigned char last;
	uint64_t v = 0, ncpu = 0, off = 0, len = 0, sec = 0, i;
	char name[256];
	char clock[256];
	int ret;

	switch (id) {
	case OPT_DATE:
	case OPT_OFFSET:
	case OPT_TSC2NSEC:
	case OPT_TIME_SHIFT:
	case OPT_GUEST:
		/* libtracecmd shifts or scales every timestamp by these */
		r->lay->fast_ok = false;
		r->lay->fast_why = "the file's timestamps are adjusted by an option";
		break;
	case OPT_TRACECLOCK:
		r->trace_clock = true;
		break;
	default:
		/* the rest libtracecmd does not read timestamps by, or ignores */
		break;
	}

	switch (id) {
	case OPT_DATE:
	case OPT_CPUSTAT:
	case OPT_TRACECLOCK:
	case OPT_UNAME:
	case OPT_HOOK:
	case OPT_OFFSET:
	case OPT_VERSION:
	case OPT_PROCMAPS:
		if (!size)
			return rd_fail(r, -SR_EBADTRACE, start, "empty string option");
		r->pos = end - 1;
		ret = rd_bytes(r, &last, 1, "truncated option");
		if (ret < 0)
			return ret;
		if (last != '\0')
			return rd_fail(r, -SR_EBADTRACE, start, "option string not terminated");
		if (id == OPT_UNAME)
			opt_text(r, start, size, r->lay->uname, sizeof(r->lay->uname));
		else if (id == OPT_TRACECLOCK)
			opt_text(r, start, size, r->lay->opt_clock, sizeof(r->lay->opt_clock));
		break;
	case OPT_CPUCOUNT:
		if (size != 4)
			return rd_fail(r, -SR_EBADTRACE, start, "bad cpu count option size");
		ret = rd_num(r, 4, &v, "truncated option");
		if (ret < 0)
			return ret;
		if (v > INGEST_MAX_CPUS)
			return rd_fail(r, -SR_EBADTRACE, start, "cpu count out of range");
		r->cpucount = v;
		break;
	case OPT_TSC2NSEC:
		if (size < 16)
			return rd_fail(r, -SR_EBADTRACE, start, "bad tsc2nsec option size");
		break;
	case OPT_HEADER_INFO:
	case OPT_FTRACE_EVENTS:
	case OPT_EVENT_FORMATS:
	case OPT_KALLSYMS:
	case OPT_PRINTK:
	case OPT_CMDLINES:
		/* libtracecmd ignores one shorter than 8 bytes */
		if (r->lay->version < 7 || size < 8)
			break;
		ret = rd_num(r, 8, &v, "truncated option");
		if (ret < 0)
			return ret;
		r->meta[id - OPT_HEADER_INFO] = v;
		break;
	case OPT_BUFFER:
	case OPT_BUFFER_TEXT:
		ret = rd_num(r, 8, &sec, "truncated buffer option");
		if (ret < 0)
			return ret;
		ret = rd_str(r, name, end - r->pos, "bad buffer option name");
		if (ret < 0)
			return ret;
		if (r->lay->version < 7) {
			if (sec >= r->size)
				return rd_fail(r, -SR_EBADTRACE, start, "buffer offset past end of file");
			*v6_buffer_off = sec;
			ret = add_buf(r, name);
			if (ret < 0)
				return ret;
			break;
		}
		ret = rd_str(r, clock, end - r->pos, "bad buffer option clock");
		if (ret < 0 || id == OPT_BUFFER_TEXT)
			return ret;
		if (!name[0] && !r->lay->buf_clock[0])
			snprintf(r->lay->buf_clock, sizeof(r->lay->buf_clock), "%.127s", clock);
		ret = rd_num(r, 4, &v, "truncated buffer option");
		if (!ret)
			ret = rd_num(r, 4, &ncpu, "truncated buffer option");
		if (!ret)
			ret = add_buf(r, name);
		if (ret < 0)
			return ret;
		if (v != r->lay->page_size) {
			r->lay->fast_ok = false;
			r->lay->fast_why = "a buffer's page size differs from the file's";
		}
		if (ncpu > INGEST_MAX_CPUS || ncpu * 20 > end - r->pos)
			return rd_fail(r, -SR_EBADTRACE, start, "bad cpu count in buffer option");
		r->lay->bufs[r->cur_buf].nr_cpus = (int)ncpu;
		for (i = 0; i < ncpu; i++) {
			uint64_t at = r->pos;

			ret = rd_num(r, 4, &v, "truncated buffer option");
			if (!ret)
				ret = rd_num(r, 8, &off, "truncated buffer option");
			if (!ret)
				ret = rd_num(r, 8, &len, "truncated buffer option");
			if (!ret && v >= INGEST_MAX_CPUS)
				ret = rd_fail(r, -SR_EBADTRACE, at, "cpu id out of range");
			if (!ret)
				ret = add_range(r, (int)v, off, len, at, r->pos - 8, sec);
			if (ret < 0)
				return ret;
		}
		break;
	default:
		break;
	}
	r->pos = end;
	return 0;
}

/* v6 options: id (2), size (4), payload; id 0 ends them */
static int check_options_v6(struct rd *r, uint64_t *buffers, int *nr_buffers, int max_buffers)
{
	uint64_t id = 0, size = 0, boff;
	unsigned int n;
	int ret;

	for (n = 0; n < DAT_MAX_ITEMS; n++) {
		ret = rd_num(r, 2, &id, "truncated options");
		if (ret < 0 || id == OPT_DONE)
			return ret;
		ret = rd_num(r, 4, &size, "truncated options");
		if (ret < 0)
			return ret;
		if (size > r->size - r->pos)
			return rd_fail(r, -SR_ETRUNCATED, r->pos, "option runs past end of file");
		boff = 0;
		ret = check_option(r, id, size, &boff);
		if (ret < 0)
			return ret;
		if (boff) {
			if (*nr_buffers >= max_buffers)
				return rd_fail(r, -SR_EBADTRACE, r->pos, "too many buffer options");
			buffers[(*nr_buffers)++] = boff;
		}
	}
	return rd_fail(r, -SR_EBADTRACE, r->pos, "too many options");
}

/*
 * v6 with a TRACECLOCK option: the top buffer's trace_clock file follows
 * its CPU table (size (8), text), read by libtracecmd only when it reads
 * the data; the fast reader does not, so it is kept here.  A writer that
 * set the option without the text (trace-cmd once, schedreplay record
 * before this was found) leaves the page padding there, or under 8 bytes
 * of it and the first data page: libtracecmd then reads the events with
 * the local clock ("File has trace_clock bug"), and so does this, with no
 * clock text (the option's name is used), a size that does not fit being
 * no damage.
 */
static int read_clock_v6(struct rd *r)
{
	uint64_t len = 0;
	size_t n;
	int ret;

	r->lay->clock[0] = '\0';
	if (r->pos > r->size || r->size - r->pos < 8)
		return 0;
	ret = rd_num(r, 8, &len, "truncated trace clock");	/* fails on a read error only */
	if (ret < 0 || len > r->size - r->pos)
		return ret < 0 ? ret : 0;
	n = len < sizeof(r->lay->clock) - 1 ? len : sizeof(r->lay->clock) - 1;
	ret = rd_bytes(r, r->lay->clock, n, "truncated trace clock");
	r->lay->clock[ret < 0 ? 0 : n] = '\0';
	return ret;
}

/* v6: "options  " / "latency  " / "flyrecord" and the CPU table after it */
static int check_cpu_table_v6(struct rd *r, uint64_t *buffers, int *nr_buffers, int max_buffers)
{
	char label[10];
	uint64_t off = 0, len = 0;
	int i;
	int ret;

	ret = rd_bytes(r, label, 10, "truncated data label");
	if (ret < 0)
		return ret;
	if (!memcmp(label, "options", 7)) {
		if (!buffers)
			return rd_fail(r, -SR_EBADTRACE, r->pos - 10, "options inside a buffer");
		ret = check_options_v6(r, buffers, nr_buffers, max_buffers);
		if (!ret)
			ret = rd_bytes(r, label, 10, "truncated data label");
		if (ret < 0)
			return ret;
		r->cur_buf = 0;	/* the table below is the top buffer's */
	}
	if (!memcmp(label, "latency", 7)) {
		r->lay->fast_ok = false;
		r->lay->fast_why = "latency-format data";
		return 0;
	}
	if (memcmp(label, "flyrecord", 9))
		return rd_fail(r, -SR_EBADTRACE, r->pos - 10, "expected \"flyrecord\" label");
	for (i = 0; i < r->cpus; i++) {
		uint64_t at = r->pos;

		ret = rd_num(r, 8, &off, "truncated cpu table");
		if (!ret)
			ret = rd_num(r, 8, &len, "truncated cpu table");
		if (!ret)
			ret = add_range(r, i, off, len, at, r->pos - 8, 0);
		if (ret < 0)
			return ret;
	}
	if (buffers && r->trace_clock)
		return read_clock_v6(r);
	return 0;
}

static int check_v6(struct rd *r)
{
	static const char hp[12] = "header_page";
	static const char he[13] = "header_event";
	uint64_t buffers[64];
	int nr_buffers = 0;
	char buf[16];
	uint64_t n = 0, m = 0, len = 0, i, j;
	int ret;

	r->lay->meta_off = r->pos;
	ret = rd_bytes(r, buf, sizeof(hp), "truncated header");
	if (ret < 0)
		return ret;
	if (memcmp(buf, hp, sizeof(hp)))
		return rd_fail(r, -SR_EBADTRACE, r->pos - sizeof(hp), "expected \"header_page\"");
	ret = rd_num(r, 8, &len, "truncated header page");
	if (!ret)
		ret = rd_skip(r, len, "truncated header page");
	if (!ret)
		ret = rd_bytes(r, buf, sizeof(he), "truncated header");
	if (ret < 0)
		return ret;
	if (memcmp(buf, he, sizeof(he)))
		return rd_fail(r, -SR_EBADTRACE, r->pos - sizeof(he), "expected \"header_event\"");
	ret = rd_num(r, 8, &len, "truncated header event");
	if (!ret)
		ret = rd_skip(r, len, "truncated header event");
	if (!ret)
		ret = rd_num(r, 4, &n, "truncated ftrace formats");
	if (ret < 0)
		return ret;
	if (n > DAT_MAX_ITEMS)
		return rd_fail(r, -SR_EBADTRACE, r->pos - 4, "impossible ftrace format count");
	r->lay->nr_formats = n;
	for (i = 0; i < n; i++) {
		ret = rd_num(r, 8, &len, "truncated ftrace formats");
		if (!ret)
			ret = rd_skip(r, len, "truncated ftrace formats");
		if (ret < 0)
			return ret;
	}
	ret = rd_num(r, 4, &n, "truncated event formats");
	if (ret < 0)
		return ret;
	if (n > DAT_MAX_ITEMS)
		return rd_fail(r, -SR_EBADTRACE, r->pos - 4, "impossible event system count");
	for (i = 0; i < n; i++) {
		ret = rd_str(r, NULL, 256, "bad event system name");
		if (!ret)
			ret = rd_num(r, 4, &m, "truncated event formats");
		if (ret < 0)
			return ret;
		if (m > DAT_MAX_ITEMS)
			return rd_fail(r, -SR_EBADTRACE, r->pos - 4, "impossible event count");
		r->lay->nr_formats += m;
		for (j = 0; j < m; j++) {
			ret = rd_num(r, 8, &len, "truncated event formats");
			if (!ret)
				ret = rd_skip(r, len, "truncated event formats");
			if (ret < 0)
				return ret;
		}
	}
	r->lay->meta_end = r->pos;
	ret = rd_num(r, 4, &len, "truncated kallsyms");
	if (!ret)
		ret = rd_skip(r, len, "truncated kallsyms");
	if (!ret)
		ret = rd_num(r, 4, &len, "truncated printk formats");
	if (!ret)
		ret = rd_skip(r, len, "truncated printk formats");
	if (!ret)
		ret = rd_num(r, 8, &len, "truncated saved command lines");
	if (!ret)
		ret = rd_skip(r, len, "truncated saved command lines");
	if (!ret)
		ret = rd_num(r, 4, &n, "truncated cpu count");
	if (ret < 0)
		return ret;
	if (n > INGEST_MAX_CPUS)
		return rd_fail(r, -SR_EBADTRACE, r->pos - 4, "cpu count out of range");
	r->cpus = (int)n;
	ret = add_buf(r, "");
	if (!ret)
		ret = check_cpu_table_v6(r, buffers, &nr_buffers, 64);
	for (i = 0; !ret && i < (uint64_t)nr_buffers; i++) {
		r->pos = buffers[i];
		r->cur_buf = (int)i + 1;
		ret = check_cpu_table_v6(r, NULL, NULL, 0);
	}
	if (!ret)
		ret = check_ranges(r);
	if (!ret)
		r->lay->data_checked = true;
	return ret;
}

/* v7: section header at r->pos: id (2), flags (2), string id (4), size (8) */
static int check_section(struct rd *r, uint64_t off, unsigned int want_id, uint64_t *flags,
			 uint64_t *size)
{
	uint64_t id = 0, sid = 0;
	int ret;

	if (off >= r->size) {
		/*
		 * trace-cmd writes the options section holding the BUFFER
		 * options (the only table of where each CPU's data is) last,
		 * so a v7 file cut anywhere loses it: nothing to read around.
		 */
		err_set(r->err, -SR_ETRUNCATED,
			"file cut short: section at byte %llu lies past its end (%llu bytes)",
			(unsigned long long)off, (unsigned long long)r->size);
		err_at_byte(r->err, r->size);
		return -SR_ETRUNCATED;
	}
	r->pos = off;
	ret = rd_num(r, 2, &id, "truncated section header");
	if (!ret)
		ret = rd_num(r, 2, flags, "truncated section header");
	if (!ret)
		ret = rd_num(r, 4, &sid, "truncated section header");
	if (!ret)
		ret = rd_num(r, 8, size, "truncated section header");
	if (ret < 0)
		return ret;
	if (id != want_id)
		return rd_fail(r, -SR_EBADTRACE, off, "unexpected section id");
	if (*size > r->size - r->pos)
		return rd_fail(r, -SR_ETRUNCATED, r->pos, "section runs past end of file");
	return 0;
}

/*
 * The options of one section, r->pos to @end; *next is set from the DONE
 * option (the next options section, 0 for none).
 */
static int check_options_v7(struct rd *r, uint64_t end, uint64_t *next)
{
	uint64_t id = 0, len = 0, boff;
	unsigned int k;
	int ret;

	*next = 0;
	for (k = 0; k < DAT_MAX_ITEMS; k++) {
		ret = rd_num(r, 2, &id, "truncated options");
		if (!ret)
			ret = rd_num(r, 4, &len, "truncated options");
		if (ret < 0)
			return ret;
		if (len > end - r->pos)
			return rd_fail(r, -SR_EBADTRACE, r->pos - 4, "option runs past its section");
		if (id == OPT_DONE) {
			if (len != 8)
				return rd_fail(r, -SR_EBADTRACE, r->pos - 4, "bad end option");
			return rd_num(r, 8, next, "truncated options");
		}
		boff = 0;
		ret = check_option(r, id, len, &boff);
		if (ret < 0)
			return ret;
	}
	return rd_fail(r, -SR_EBADTRACE, r->pos, "too many options");
}

/* whether a section with these flags is compressed (flags mean nothing in a "none" file) */
static bool is_compressed(const struct rd *r, uint64_t flags)
{
	return r->lay->compression[0] && (flags & SEC_FL_COMPRESS);
}

/* the metadata sections the options point at: id as expected, each compressed block good */
static int check_meta(struct rd *r)
{
	uint64_t flags = 0, size = 0;
	int64_t n;
	int i;
	int ret;

	for (i = 0; i < DAT_NR_META; i++) {
		if (!r->meta[i])
			continue;
		ret = check_section(r, r->meta[i], OPT_HEADER_INFO + i, &flags, &size);
		if (ret < 0)
			return ret;
		if (i < 3)
			r->lay->meta_sec[i] = r->meta[i];
		/* the fast reader decompresses the formats itself and needs no more */
		if (!is_compressed(r, flags) || r->mode == DAT_CHECK_HEADERS)
			continue;
		n = check_zsection(r, r->meta[i], size);
		if (n < 0)
			return (int)n;
	}
	return 0;
}

/*
 * libtracecmd finds the strings sections by walking section headers from
 * @first (right after the file header) by their sizes until one does not
 * fit; each compressed one it finds, it decompresses.  Walk the same way.
 * trace-cmd writes the chain to the end of the file, so a last section
 * that does not fit (or a piece of a header) means the file is shorter
 * than its sections say: noted in lay->short_at for the decoder to warn
 * about (fatal under --strict).
 */
static int check_chain(struct rd *r, uint64_t first)
{
	uint64_t pos = first, id = 0, flags = 0, sid = 0, size = 0;
	struct dat_layout *lay = r->lay;
	unsigned int n;
	int64_t got;
	int ret;

	for (n = 0; n < DAT_MAX_ITEMS && r->size - pos >= 16; n++) {
		r->pos = pos;
		ret = rd_num(r, 2, &id, "truncated section header");
		if (!ret)
			ret = rd_num(r, 2, &flags, "truncated section header");
		if (!ret)
			ret = rd_num(r, 4, &sid, "truncated section header");
		if (!ret)
			ret = rd_num(r, 8, &size, "truncated section header");
		if (ret < 0)
			return ret;
		if (id == OPT_BUFFER && !r->buf_sec) {
			r->buf_sec = pos;
			r->buf_flags = flags;
			r->buf_end = size > UINT64_MAX - r->pos ? UINT64_MAX : r->pos + size;
		}
		if (size > r->size - r->pos) {
			if (id <= OPT_BUFFER_TEXT) {
				lay->short_sec = pos;
				lay->short_end = size > UINT64_MAX - r->pos ? UINT64_MAX : r->pos + size;
			}
			return 0;
		}
		if (id == OPT_STRINGS && is_compressed(r, flags)) {
			got = check_zsection(r, pos, size);
			if (got < 0)
				return (int)got;
		}
		pos += 16 + size;
	}
	if (pos < r->size && r->size - pos < 16) {
		lay->short_sec = pos;
		lay->short_end = pos + 16;
	}
	return 0;
}

/* the error for a cut that took the table of the CPU data, and nothing to rebuild it from */
static int lost_table(struct rd *r, const char *why)
{
	err_set(r->err, -SR_ETRUNCATED,
		"file cut short: the options section at byte %llu, holding the table of where each cpu's data lies, is past its end (%llu bytes), and %s",
		(unsigned long long)r->lost_opts, (unsigned long long)r->size, why);
	err_at_byte(r->err, r->size);
	return -SR_ETRUNCATED;
}

/*
 * A v7 file cut inside its event data (or before its last options
 * section): trace-cmd writes the options section holding the BUFFER
 * options, the only table of where each CPU's data lies, after the data,
 * so the cut took it.  The top buffer's data is still there, in the cut
 * BUFFER section, one CPU after the other in CPU order, each starting at
 * a page boundary:
 *
 * - compressed: each CPU's data is its chunk count and the chunks, so
 *   the sizes lead from one CPU to the next exactly; the CPU the cut
 *   falls in keeps its whole chunks;
 * - uncompressed: the pages carry no CPU number, so a CPU is taken to end
 *   where the page timestamps go back (each CPU's pages are in time
 *   order); the CPU the cut falls in is read to the cut, as in a cut v6
 *   file (its last range runs past the end: note_plain_range()).
 *
 * CPUs are numbered in file order from 0 (a CPU that recorded nothing
 * cannot be told apart in uncompressed data).  Only the top buffer, only
 * when no BUFFER option was read before the cut, and only when the lost
 * section is where the BUFFER section says it ends (as trace-cmd writes
 * it): a damaged offset pointing anywhere else is an error.  The file is
 * reported short (lay->short_sec) and the table rebuilt (lay->rebuilt);
 * libtracecmd is handed a copy with the section written back.
 */
static int rebuild_ranges(struct rd *r)
{
	struct dat_layout *lay = r->lay;
	uint64_t ps = lay->page_size, fs = r->size;
	uint64_t pos, start, at, k, count = 0, zsize = 0, ts = 0, prev = 0;
	int cpu = 0;
	int ret;

	if (r->nr_ranges || lay->nr_bufs)
		return lost_table(r, "the buffers read before it cannot be matched to the data after");
	if (!r->buf_sec)
		return lost_table(r, "no cpu data section is left");
	/* trace-cmd writes that options section right after the data */
	if (r->buf_end != r->lost_opts)
		return lost_table(r, "the cpu data section does not end there (a damaged offset, not a cut)");
	if (!r->cpucount)
		return lost_table(r, "the file does not say how many cpus it has");
	ret = add_buf(r, "");
	if (ret < 0)
		return ret;
	pos = (r->buf_sec + 16 + ps - 1) / ps * ps;
	if (is_compressed(r, r->buf_flags)) {
		for (; cpu < (int)r->cpucount && fs - pos >= 4 && pos < fs; cpu++) {
			r->pos = pos;
			ret = rd_num(r, 4, &count, "truncated cpu data");
			if (ret < 0)
				return ret;
			for (at = pos + 4, k = 0; k < count; k++) {
				if (fs - at < 8 || rd_num_at(r, at, &zsize) < 0 || zsize > fs - at - 8)
					break;
				at += 8 + zsize;
			}
			ret = add_range(r, cpu, pos, at - pos - 4, pos, 0, r->buf_sec);
			if (ret < 0)
				return ret;
			if (k < count) {
				cpu++;
				break;
			}
			pos = (at + ps - 1) / ps * ps;
		}
		lay->rebuilt_how = "by the chunk sizes";
	} else {
		/* the page the cut falls in too, as a cut v6 file's (note_plain_range()) */
		for (start = pos; pos < fs && fs - pos >= 8; pos += ps) {
			r->pos = pos;
			ret = rd_num(r, 8, &ts, "truncated page");
			if (ret < 0)
				return ret;
			if (pos > start && ts < prev) {
				if (cpu + 1 >= (int)r->cpucount)
					return lost_table(r, "the page timestamps go back more often than it has cpus");
				ret = add_range(r, cpu++, start, pos - start, start, 0, r->buf_sec);
				if (ret < 0)
					return ret;
				start = pos;
			}
			prev = ts;
		}
		if (pos > start) {
			ret = add_range(r, cpu++, start, pos - start, start, 0, r->buf_sec);
			if (ret < 0)
				return ret;
		}
		lay->rebuilt_how = "where the page timestamps go back";
	}
	if (!r->nr_ranges)
		return lost_table(r, is_compressed(r, r->buf_flags) ?
				     "no whole compressed chunk of cpu data is left" :
				     "no cpu data is left");
	lay->bufs[0].nr_cpus = (int)r->cpucount;
	lay->rebuilt = true;
	lay->rebuilt_cpus = cpu;
	lay->rebuilt_sec = r->lost_opts;
	lay->rebuilt_buf = r->buf_sec;
	lay->fast_ok = false;	/* libtracecmd's path reads the copy with the table */
	lay->fast_why = "the file is cut short inside its cpu data";
	return 0;
}

static int check_v7(struct rd *r)
{
	uint64_t off = 0, flags = 0, size = 0, first, file_size = r->size;
	int64_t usize;
	unsigned int n;
	int ret;

	ret = rd_str(r, r->lay->compression, sizeof(r->lay->compression),
		     "bad compression name");
	if (!ret)
		ret = rd_str(r, NULL, 64, "bad compression version");
	if (!ret)
		ret = rd_num(r, 8, &off, "truncated options offset");
	if (ret < 0)
		return ret;
	first = r->pos;
	if (!strcmp(r->lay->compression, "none"))
		r->lay->compression[0] = '\0';
	if (r->lay->compression[0]) {
		ret = dat_unz_init(&r->unz, r->lay->compression);
		if (ret == -SR_EUNSUPPORTED) {
			err_set(r->err, ret, "compression \"%.16s\" (zstd and zlib are read)",
				r->lay->compression);
			err_at_byte(r->err, 10);
		} else if (ret < 0) {
			err_set(r->err, ret, "out of memory");
		}
		if (ret < 0)
			return ret;
	}

	for (n = 0; off && n < DAT_MAX_SECTIONS; n++) {
		if (n && off >= r->size) {
			/* the last options section went with a cut: see rebuild_ranges() */
			r->lost_opts = off;
			break;
		}
		ret = check_section(r, off, OPT_DONE, &flags, &size);
		if (ret < 0)
			return ret;
		if (!is_compressed(r, flags)) {
			ret = check_options_v7(r, r->pos + size, &off);
			if (ret < 0)
				return ret;
			continue;
		}
		usize = check_zsection(r, off, size);
		if (usize < 0)
			return (int)usize;
		/* parse the decompressed bytes; positions are now in them */
		r->mem = r->unz.out;
		r->mem_at = off;
		r->size = (uint64_t)usize;
		r->pos = 0;
		ret = check_options_v7(r, r->size, &off);
		r->mem = NULL;
		r->size = file_size;
		if (ret < 0)
			return ret;
	}
	if (n == DAT_MAX_SECTIONS)
		return rd_fail(r, -SR_EBADTRACE, r->pos, "options sections form a loop");
	ret = check_meta(r);
	if (!ret)
		ret = check_chain(r, first);
	if (!ret && r->lost_opts)
		ret = rebuild_ranges(r);
	if (ret < 0)
		return ret;
	ret = check_ranges(r);
	if (ret < 0)
		return ret;
	r->lay->data_checked = true;
	return 0;
}

int dat_layout_check(int fd, struct dat_layout *lay, int mode, uint64_t piece, struct err *err)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	unsigned char head[10];
	char version[16];
	unsigned char b[2];
	uint64_t ps;
	struct stat st;
	struct rd r = { .fd = fd, .err = err, .lay = lay, .mode = mode,
			.piece = mode == DAT_CHECK_HEADERS ? piece : 0 };
	int ret;

	memset(lay, 0, sizeof(*lay));
	lay->piece = r.piece;
	lay->fast_ok = true;
	lay->data_deferred = mode == DAT_CHECK_HEADERS;
	if (fstat(fd, &st) < 0)
		return err_set(err, -errno, "cannot stat: %s", strerror(errno));
	r.size = lay->file_size = (uint64_t)st.st_size;

	ret = rd_bytes(&r, head, sizeof(head), "truncated magic");
	if (ret < 0)
		return ret;
	if (memcmp(head, magic, sizeof(magic)))
		return rd_fail(&r, -SR_EBADMAGIC, 0, "not a trace.dat file (bad magic)");
	ret = rd_str(&r, version, sizeof(version), "bad version string");
	if (ret < 0)
		return ret;
	if (strcmp(version, "6") && strcmp(version, "7")) {
		err_set(err, -SR_EUNSUPPORTED, "trace.dat version \"%.8s\" (6 and 7 are read)",
			version);
		err_at_byte(err, 10);
		return -SR_EUNSUPPORTED;
	}
	lay->version = version[0] - '0';
	ret = rd_bytes(&r, b, 2, "truncated header");
	if (ret < 0)
		return ret;
	if (b[0] > 1 || (b[1] != 4 && b[1] != 8))
		return rd_fail(&r, -SR_EBADTRACE, r.pos - 2, "bad endian or long size byte");
	lay->big_endian = b[0];
	lay->long_size = b[1];
	ret = rd_num(&r, 4, &ps, "truncated header");
	if (ret < 0)
		return ret;
	if (ps < 512 || ps > (1u << 24) || (ps & (ps - 1)))
		return rd_fail(&r, -SR_EBADTRACE, r.pos - 4, "impossible page size");
	lay->page_size = (uint32_t)ps;
	ret = lay->version == 6 ? check_v6(&r) : check_v7(&r);
	dat_unz_release(&r.unz);
	free(r.ranges);
	return ret;
}
