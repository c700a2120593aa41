/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dat-local.h - private to the trace.dat decoder (dat.c, dat-merge.c,
 * dat-fields.c, dat-check.c, dat-unz.c): the file layout check that runs
 * before a file is handed to libtracecmd, and the decompression it uses.
 *
 * libtracecmd trusts the sizes and offsets it reads from a file's headers
 * (it mmap()s flyrecord pages of uncompressed files, so a truncated file
 * makes it touch pages past the end of the file: SIGBUS; it reads option
 * strings without checking their terminator; it crashes in its own
 * cleanup when a compressed block does not decompress).
 * dat_layout_check() walks the headers with every read bounded by the file
 * size, and decompresses every compressed block, so that a damaged file
 * becomes one clear error with a byte offset, or a known damage the decoder
 * can read around.
 */
#ifndef SR_INGEST_DAT_LOCAL_H
#define SR_INGEST_DAT_LOCAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include <traceevent/event-parse.h>

#include "../util/err.h"

#define DAT_MAX_CUT 256		/* CPU ranges a cut file may lose */
#define DAT_MAX_BAD 256		/* CPUs whose compressed data may be read around */
#define DAT_MAX_SKIP 8		/* bad chunks read around in one CPU's data */
#define DAT_UNZ_MAX_BLOCK (64u << 20)	/* largest compressed block or chunk, both sizes */

/**
 * struct dat_bad_cpu - compressed CPU data with bad chunks, read around
 * @cpu:	the CPU id from the BUFFER option
 * @at:		byte offset of the first bad chunk's header (or of the chunk count)
 * @why:	what is wrong with it (a string constant)
 * @good:	chunks that decompress; the decoder hands libtracecmd a copy
 *		whose chunk count (at @count_pos, 4 bytes) says @good and whose
 *		chunks after the first bad one are moved down over the bad
 *		ones (@skip), so that it reads every good chunk
 * @count:	the chunk count the file declares
 * @count_pos:	where that count is in the file
 * @end:	where the CPU's data ends in the file
 * @lost_rest:	the chunk at @stop has a header that does not fit (or too
 *		many bad chunks): it and every chunk after it are lost
 * @stop:	where the good chunks end when @lost_rest
 * @cut:	the CPU's data ends at the cut of a file whose CPU table was
 *		rebuilt (dat_layout.rebuilt): not damage of its own
 * @nr_skip:	bad chunks read around, each a whole chunk (header and data)
 * @skip:	their file offsets and lengths, in file order
 */
struct dat_bad_cpu {
	int		cpu;
	uint64_t	at;
	const char	*why;
	uint32_t	good;
	uint32_t	count;
	uint64_t	count_pos;
	uint64_t	end;
	bool		lost_rest;
	bool		cut;
	uint64_t	stop;
	int		nr_skip;
	struct {
		uint64_t	at;
		uint64_t	len;
	}		skip[DAT_MAX_SKIP];
};

/** struct dat_lay_buf - one buffer the header walk found */
struct dat_lay_buf {
	char	*name;
	int	nr_cpus;
};

/**
 * struct dat_layout - what the header walk found
 * @version:		file version (6 or 7)
 * @big_endian:		numbers in the file are big-endian
 * @long_size:		bytes in a long (4 or 8): the page header's commit word
 * @page_size:		ring-buffer page size
 * @compression:	compression algorithm name, "" when none
 * @file_size:		size of the file in bytes
 * @data_checked:	the CPU data extents below were all seen
 * @data_end:		highest end offset of any CPU's flyrecord data
 * @nr_cut:		CPU data ranges that run past the end of the file
 * @first_cut:		file size when @nr_cut > 0 (where the data stops)
 * @cut:		for each cut range: where its size field is in the file
 *			(0: none, a rebuilt table's), the size that ends it at
 *			the end of the file (rounded up to a page; 0 when it
 *			starts past the end) and the page the cut falls in
 * @short_sec:		v7: offset of the last section in the file's chain when
 *			it runs past the end of the file (0: the chain fits);
 *			the file is shorter than its sections say
 * @short_end:		where that section says it ends
 * @rebuilt:		v7: the options section holding the BUFFER options lies
 *			past the end of the cut file, and the top buffer's CPU
 *			table was rebuilt from the data (@ranges, in file order)
 * @rebuilt_how:	how the CPUs were told apart (a string constant)
 * @rebuilt_cpus:	CPUs found before the cut
 * @rebuilt_sec:	where the lost options section was (the decoder's copy
 *			writes one there)
 * @rebuilt_buf:	the BUFFER section the CPU data is in
 * @nr_bad:		compressed CPU data ranges with a bad chunk
 * @bad:		those ranges (struct dat_bad_cpu)
 * @data_deferred:	the walk ran with DAT_CHECK_HEADERS: page headers and
 *			compressed chunks were not read (the fast reader checks
 *			them as it reads), @nr_bad is 0 and @ranges is filled
 * @fast_ok:		the fast reader (dat-fast.c) can read the file; when
 *			not, @fast_why says why
 * @fast_why:		a string constant
 * @clock:		v6: the top buffer's trace clock text ("[local] global
 *			..."); v7: the clock of the first BUFFER option with CPU
 *			data; "" when the file does not say
 * @nr_bufs:		buffers with a CPU table or BUFFER option: index 0 is
 *			the top buffer, then instances in option order
 * @bufs:		their names ("" for the top buffer, owned) and CPU
 *			counts (v6: the file's; v7: the BUFFER option's)
 * @nr_ranges:		entries of @ranges
 * @ranges:		every CPU data range (struct dat_range), by buffer and
 *			then in table order; owned (dat_layout_release())
 * @piece:		DAT_CHECK_HEADERS: the piece size the walk was asked to
 *			cut with (dat_range.pieces), for the threaded reader;
 *			0: none asked
 * @meta_off, @meta_end, @meta_sec:	where the header page and the event
 *			formats are, for dat_meta_load(); with DAT_CHECK_HEADERS
 *			the v7 metadata sections' headers are checked, not their
 *			compressed bytes (kallsyms, printk formats and saved
 *			command lines are never read; dat_meta_load()
 *			decompresses the formats, once)
 * @uname, @opt_clock, @buf_clock:	option texts the fast reader reports
 */
struct dat_layout {
	int		version;
	bool		big_endian;
	unsigned int	long_size;
	uint32_t	page_size;
	char		compression[32];
	uint64_t	file_size;
	uint64_t	nr_formats;	/* v6: ftrace and event formats in the file (0: not counted) */
	bool		data_checked;
	uint64_t	data_end;
	int		nr_cut;
	uint64_t	first_cut;
	struct {
		uint64_t	size_pos;
		uint64_t	size;
		uint64_t	page;
	}		cut[DAT_MAX_CUT];
	uint64_t	short_sec;
	uint64_t	short_end;
	bool		rebuilt;
	const char	*rebuilt_how;
	int		rebuilt_cpus;
	uint64_t	rebuilt_sec;
	uint64_t	rebuilt_buf;
	int		nr_bad;
	struct dat_bad_cpu bad[DAT_MAX_BAD];
	bool		data_deferred;
	bool		fast_ok;
	const char	*fast_why;
	char		clock[128];
	int		nr_bufs;
	struct dat_lay_buf *bufs;
	int		nr_ranges;
	struct dat_range *ranges;
	uint64_t	piece;
	/* where the event formats are (the fast reader parses them itself, dat-meta.c) */
	uint64_t	meta_off;	/* v6: the "header_page" label */
	uint64_t	meta_end;	/* v6: where the event formats end (kallsyms follow) */
	uint64_t	meta_sec[3];	/* v7: HEADER_INFO, FTRACE_EVENTS, EVENT_FORMATS sections (0: none) */
	char		uname[256];	/* the UNAME option's text, "" if none */
	char		opt_clock[128];	/* the TRACECLOCK option's text, "" if none */
	char		buf_clock[128];	/* v7: the top buffer's BUFFER option clock */
};

#define DAT_COMMIT_MASK	((1u << 27) - 1)	/* a page's commit word: its size bits */

/* whether numbers in a file of this byte order must be swapped on this host */
static inline bool dat_swapped(bool big_endian)
{
	return big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

/**
 * dat_read_num() - a number of 1, 2, 4 or 8 bytes in a file's byte order
 * @p:    where it is (no alignment needed)
 * @sz:   its size; any other is read as 8
 * @swap: dat_swapped() of the file
 *
 * What tep_read_number() does, inline: the decoder's and the page
 * parser's hottest read.
 */
static inline uint64_t dat_read_num(const unsigned char *p, unsigned int sz, bool swap)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (sz) {
	case 1:
		return *p;
	case 2:
		memcpy(&v16, p, 2);
		return swap ? __builtin_bswap16(v16) : v16;
	case 4:
		memcpy(&v32, p, 4);
		return swap ? __builtin_bswap32(v32) : v32;
	default:
		memcpy(&v64, p, 8);
		return swap ? __builtin_bswap64(v64) : v64;
	}
}

/**
 * dat_page_commit() - the commit size of the ring-buffer page at @page:
 * timestamp (8), then the commit word (a long), whose low bits are the
 * bytes of event data (the top bits flag missed events).  libtraceevent's
 * kbuffer trusts it; the header walk and the fast reader check it against
 * the page.
 */
static inline uint64_t dat_page_commit(const struct dat_layout *lay, const unsigned char *page)
{
	return dat_read_num(page + 8, lay->long_size, dat_swapped(lay->big_endian)) &
	       DAT_COMMIT_MASK;
}

/**
 * dat_page_fits() - whether the page at @page, of which @left bytes are
 * there, holds its header and the event data its commit size says
 */
static inline bool dat_page_fits(const struct dat_layout *lay, const unsigned char *page,
				 uint64_t left)
{
	unsigned int hdr = 8 + lay->long_size;

	return left >= hdr && dat_page_commit(lay, page) <= left - hdr;
}

/**
 * struct dat_piece_at - where a piece of a CPU's compressed data starts:
 * at a chunk that begins on a page boundary of the uncompressed data, so
 * that the piece decodes with nothing from the chunks before it
 * @pos:	file offset of the chunk's header
 * @ubytes:	uncompressed bytes of the CPU's data before it
 * @chunk:	its index among the CPU's chunks
 */
struct dat_piece_at {
	uint64_t	pos;
	uint64_t	ubytes;
	uint32_t	chunk;
};

/**
 * struct dat_range - one CPU's data as the file declares it
 * @off:	file offset of the first page (uncompressed) or of the chunk
 *		count (compressed)
 * @size:	bytes of pages, or of chunks after the count
 * @cpu:	the CPU id
 * @buf:	index in dat_layout.bufs
 * @compressed:	stored as compressed chunks
 * @nr_chunks:	compressed: the chunk count
 * @usize:	compressed: the sum of the chunks' uncompressed sizes
 *		(DAT_CHECK_HEADERS walk only); else @size
 * @nr_pieces:	compressed, DAT_CHECK_HEADERS walk with a piece size: the
 *		pieces the threaded reader may decode apart (1 or more)
 * @pieces:	where each starts (owned); NULL when the data cannot be cut
 *		(a chunk that is not whole pages) or no piece size was asked
 */
struct dat_range {
	uint64_t		off;
	uint64_t		size;
	int			cpu;
	int			buf;
	bool			compressed;
	uint32_t		nr_chunks;
	uint64_t		usize;
	uint32_t		nr_pieces;
	struct dat_piece_at	*pieces;
};

enum {
	DAT_CHECK_FULL		= 0,	/* read every page header and chunk */
	DAT_CHECK_HEADERS	= 1,	/* headers and chunk tables only */
};

/**
 * dat_layout_check() - walk a trace.dat file's headers, bounds-checked
 * @fd:   open file, read with pread() (its offset is not moved)
 * @lay:  filled on success (release with dat_layout_release(), also on
 *        failure)
 * @mode: DAT_CHECK_FULL, or DAT_CHECK_HEADERS to leave the event pages
 *        and compressed chunks to the reader (only the chunk headers are
 *        read, to find each CPU's uncompressed size)
 * @piece: DAT_CHECK_HEADERS: when not 0, cut each CPU's compressed data
 *        into pieces of at least this many uncompressed bytes
 *        (dat_range.pieces) for the threaded reader
 * @err:  on failure: what is wrong and the byte offset where it was found
 *
 * Checks every size and offset against the file size, that no two CPUs'
 * data ranges overlap, and -- in a compressed version 7 file -- that every
 * compressed options and metadata section and every chunk of CPU data
 * decompresses to exactly its declared size.  A bad chunk is not an error:
 * it is listed in @lay->bad for the decoder to read around.
 *
 * Context: reads the headers, options and per-CPU tables; the event pages
 * only of compressed files (each chunk once, O(file), memory bounded by
 * the largest chunk).
 * Return: 0, or -SR_ETRUNCATED (a header runs past the end of the file),
 * -SR_EBADTRACE (a header holds an impossible value, two CPUs' data
 * overlap, a compressed section does not decompress), -SR_EUNSUPPORTED
 * (a version other than 6 or 7, a compression other than zstd and zlib),
 * -ENOMEM, or a -errno from reading.
 */
int dat_layout_check(int fd, struct dat_layout *lay, int mode, uint64_t piece,
		     struct err *err);

/** dat_layout_release() - free what dat_layout_check() allocated in @lay. */
void dat_layout_release(struct dat_layout *lay);

enum {
	DAT_UNZ_ZSTD = 1,
	DAT_UNZ_ZLIB,
};

/**
 * struct dat_unz - decompression state, reused for every block of a file
 * @algo:	DAT_UNZ_ZSTD or DAT_UNZ_ZLIB
 * @dctx:	the zstd context (owned)
 * @in, @in_cap:	compressed bytes of the current block (owned)
 * @out, @out_cap:	its decompressed bytes (owned)
 */
struct dat_unz {
	int		algo;
	void		*dctx;
	unsigned char	*in;
	size_t		in_cap;
	unsigned char	*out;
	size_t		out_cap;
};

/**
 * dat_unz_init() - set up decompression for a file's algorithm
 * @z:    the state to fill
 * @name: the algorithm name from the file header
 *
 * Return: 0, -SR_EUNSUPPORTED (not "zstd" or "zlib") or -ENOMEM; release
 * @z with dat_unz_release() in every case.
 */
int dat_unz_init(struct dat_unz *z, const char *name);

/** dat_unz_release() - free the buffers and context of @z; @z is zeroed. */
void dat_unz_release(struct dat_unz *z);

/**
 * dat_unz_input() - room for a block's compressed bytes
 * @z:     the state
 * @zsize: compressed size
 *
 * Return: a buffer of @zsize bytes, borrowed (valid until the next call),
 * or NULL when @zsize exceeds DAT_UNZ_MAX_BLOCK or memory runs out.
 */
unsigned char *dat_unz_input(struct dat_unz *z, uint32_t zsize);

/**
 * dat_unz_block() - decompress the block in z->in into z->out
 * @z:     the state; z->in holds @zsize bytes (dat_unz_input())
 * @zsize: compressed size
 * @usize: the uncompressed size the file declares
 * @why:   set to what is wrong (a string constant) on -SR_EBADTRACE
 *
 * Return: 0 when the block decompresses to exactly @usize bytes (in
 * z->out), -SR_EBADTRACE when not, -ENOMEM.
 */
int dat_unz_block(struct dat_unz *z, uint32_t zsize, uint32_t usize, const char **why);

/**
 * dat_unz_to() - as dat_unz_block(), into @out (room for @usize bytes)
 * @z:     the state; z->in holds @zsize bytes
 * @zsize: compressed size
 * @usize: declared uncompressed size, 1 to DAT_UNZ_MAX_BLOCK
 * @out:   where the bytes go (the fast reader's per-stream buffer)
 * @why:   as for dat_unz_block()
 *
 * Return: 0, or -SR_EBADTRACE.
 */
int dat_unz_to(struct dat_unz *z, uint32_t zsize, uint32_t usize, unsigned char *out,
	       const char **why);

/* ---- the decoder's state (dat.c, dat-merge.c, dat-fields.c) ------------- */

struct tracecmd_input;
struct tep_handle;
struct tep_record;
struct dat_evinfo;
struct ingest;
struct sr_event;

/*
 * Exported by libtracecmd.so.1 (trace-cmd 3.0 and later) but declared only
 * in its private header trace-cmd-private.h, which distributions do not
 * install.  Signatures as in trace-cmd 3.1.6
 * lib/trace-cmd/include/private/trace-cmd-private.h.
 */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
off_t tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);
int tracecmd_cpus(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);

/**
 * struct dat_fmt - one event format of the file, indexed (dat-meta.c)
 * @id:		its event id
 * @system:	its system ("ftrace" for the ftrace formats); owned, and
 *		@name is in the same allocation
 * @name:	its name
 * @text:	the format text, in dat_meta.blk
 * @len:	its length
 * @at:		where it is: a file offset, or (v7) an offset in the
 *		decompressed section at @sec
 * @sec:	v7: its section's file offset; 0 in a v6 file
 * @parse:	the decoder reads its fields: libtraceevent parses it
 */
struct dat_fmt {
	int		id;
	char		*system;
	char		*name;
	const unsigned char *text;
	uint32_t	len;
	uint64_t	at;
	uint64_t	sec;
	bool		parse;
};

/**
 * struct dat_meta - the fast reader's header page and event formats
 * @blk:	the bytes read (v6: blk[0]; v7: one per section); owned
 * @hpage:	the header page text, in @blk; @hpage_len its length
 * @fmts:	every event format, in file order (@nr_fmts, room @cap_fmts)
 * @by_id:	index in @fmts by event id, -1 for none (@id_cap entries)
 * @tep:	libtraceevent's handle, holding the parsed formats; owned
 */
struct dat_meta {
	unsigned char		*blk[3];
	const unsigned char	*hpage;
	uint64_t		hpage_len;
	struct dat_fmt		*fmts;
	int			nr_fmts;
	int			cap_fmts;
	int			*by_id;
	int			id_cap;
	struct tep_handle	*tep;
};

/**
 * dat_meta_load() - read and index the header page and event formats
 * @fd:  the file
 * @lay: its header walk (DAT_CHECK_HEADERS is enough)
 * @m:   filled (release with dat_meta_release(), also on failure)
 * @err: what is wrong and where
 *
 * Nothing is parsed yet: dat_meta_parse() does that.
 * Return: 0, -SR_EBADTRACE or -SR_ETRUNCATED (in @err, with the byte
 * offset), -ENOMEM, -EIO.
 */
int dat_meta_load(int fd, const struct dat_layout *lay, struct dat_meta *m, struct err *err);

/**
 * dat_meta_parse() - m->tep with the header page and the formats marked
 * @parse parsed by libtraceevent
 * Return: 0, or a negative code in @err (a format the decoder needs that
 * libtraceevent leaves out; one it flags as failed is formats_check()'s
 * to refuse).
 */
int dat_meta_parse(struct dat_meta *m, const struct dat_layout *lay, struct err *err);

/** dat_meta_find() - the format of event @id, or NULL (NULL @m fine) */
const struct dat_fmt *dat_meta_find(const struct dat_meta *m, int id);

/** dat_meta_release() - free what dat_meta_load() and dat_meta_parse() made */
void dat_meta_release(struct dat_meta *m);

/* damage found while reading or decoding, to be reported in event order */
struct dat_damage {
	int		code;		/* what it is under --strict */
	uint64_t	pos;		/* byte offset */
	char		msg[200];
};

/* damage the open found in the file's headers (dat.c): a rewind says it again */
struct dat_told {
	int		code;
	uint64_t	pos;
	char		msg[sizeof(((struct err *)0)->msg)];
};

/* a growable string buffer: the one ev->str points into */
struct dat_strs {
	char	*buf;
	size_t	cap;
};

struct dat_buf {
	struct tracecmd_input	*h;		/* owned */
	struct tep_handle	*tep;		/* borrowed from @h, or dat.meta's */
	const struct dat_meta	*meta;		/* fast reader: formats not in @tep */
	const char		*name;		/* "" for the top buffer; borrowed */
	int			nr_cpus;
	struct dat_evinfo	**ev;		/* by event id, filled lazily */
	int			ev_cap;
	bool			frozen;		/* @ev is complete: read-only (threads) */
	/* common_type and common_pid, resolved at the first record */
	bool			common_done;
	bool			swap;		/* file byte order is not the host's */
	unsigned int		type_off, type_size;	/* size 0: ask libtraceevent */
	unsigned int		pid_off, pid_size;
};

/*
 * One ring-buffer page being read, kbuffer's state by kbuffer's names:
 * @data the event data (after the page header), @size its commit size,
 * @curr the current event's header, @index its payload, @next the next
 * header (all offsets in @data), @ts the current event's timestamp,
 * @lost the page's missed-events count (-1: some, count unknown).
 */
struct dat_page {
	const unsigned char	*data;
	uint32_t		size;
	uint32_t		curr;
	uint32_t		index;
	uint64_t		next;
	uint64_t		ts;
	int64_t			lost;
};

/*
 * The fast reader's state of one stream (dat-fast.c): the stream's bytes
 * in the file, and a buffer holding a window of its pages (uncompressed)
 * or its current chunk (compressed), parsed page by page as libtraceevent's
 * kbuffer parses a ring-buffer page (struct dat_page).
 */
struct dat_fsrc {
	const struct dat_range	*range;		/* in dat.lay */
	uint64_t		pos;		/* next file byte to read */
	uint64_t		end;		/* end of the stream's bytes */
	uint32_t		chunks;		/* compressed: chunks not yet read */
	uint32_t		chunk_end;	/* compressed: index after the last chunk to read */
	unsigned char		*buf;		/* owned; cap + one page of zeros */
	size_t			cap;
	size_t			len;		/* bytes of pages in buf */
	size_t			at;		/* the current page, in buf */
	uint64_t		base;		/* libtracecmd's offset of buf[0] */
	struct dat_page		pg;		/* the page at @at */
	struct tep_record	rec;		/* the look-ahead (rec.data into buf) */
	bool			told_lost;	/* its lost-events marker is out */
	bool			cut;		/* the stream's data ends here (damage) */
	bool			ts_unknown;	/* threads: no record read yet in a piece
						 * after the first: @last_ts is the
						 * previous piece's, unknown here */
	uint64_t		last_ts;	/* threads: of the last record read */
};

struct dat_stream {
	struct tep_record	*rec;		/* look-ahead, owned (fast: &fs.rec) */
	int			buf;		/* index in dat.bufs */
	int			cpu;		/* libtracecmd's CPU index */
	uint64_t		start;		/* first page offset */
	uint64_t		size;		/* bytes of CPU data */
	uint64_t		done;		/* bytes behind the look-ahead */
	struct dat_fsrc		fs;		/* fast reader only */
	bool			has_rec;	/* threads: fs.rec is read, not yet decoded */
};

/*
 * The merge heap's key of a stream: its next item's timestamp, then buffer
 * and CPU.  Kept apart from struct dat_stream, whose reading state worker
 * threads write: sharing its cache lines made the merge crawl.
 */
struct dat_hkey {
	uint64_t	key;
	int		buf;
	int		cpu;
};

struct dat {
	struct tracecmd_input	*top;		/* owned */
	struct dat_buf		*bufs;
	int			nr_bufs;
	struct dat_stream	*streams;
	int			*heap;		/* stream indexes, min-heap */
	int			nr_heap;
	int			nr_streams;
	struct tep_record	*cur;		/* behind the last event returned */
	bool			oom;		/* libtracecmd failed to allocate a record */
	int			cur_buf;
	struct tep_record	*pending;	/* returned after its lost marker */
	int			pending_buf;
	uint64_t		total;		/* sum of stream sizes */
	uint64_t		done;		/* sum of stream progress */
	uint64_t		real_size;	/* records at or past this are padding */
	uint64_t		data_start;	/* first byte of cpu data (the header walk's) */
	struct dat_strs		strs;
	/* the fast reader (dat-fast.c) */
	bool			fast;
	int			fd;		/* fast: the file, owned */
	struct dat_layout	lay;		/* fast: the header walk, owned */
	struct dat_meta		meta;		/* fast: the event formats, owned */
	struct dat_unz		unz;		/* fast: decompression */
	struct ingest		*in;		/* fast: for damage reports */
	int			deferred;	/* fast (both readers): an error to return next */
	struct dat_mt		*mt;		/* fast, threaded (dat-threads.c) */
	struct dat_hkey		*hk;		/* by stream: heap keys */
	/* what the open said of the file's damage, said again by a rewind */
	struct dat_told		*told;
	int			nr_told;
	uint64_t		told_truncated;	/* what it added to info.truncated */
};

/**
 * dat_streams_init() - one stream per (buffer, CPU) with data, heap built
 * @d:     the decoder, d->bufs filled
 * @again: libtracecmd's reader, rewound: each CPU is read from its first
 *         record again (tracecmd_read_cpu_first())
 *
 * Reads each stream's first record.
 * Return: 0 or -ENOMEM.
 */
int dat_streams_init(struct dat *d, bool again);

/**
 * dat_heap_pop() - the earliest record of all streams
 * @d:  the decoder
 * @bi: set to the index in d->bufs of the record's buffer
 *
 * Context: reads the next record of that stream (the look-ahead).
 * Return: the record, owned by the caller (free with
 * tracecmd_free_record()), or NULL when all streams are done.
 */
struct tep_record *dat_heap_pop(struct dat *d, int *bi);

/**
 * dat_heap_keys() - d->hk for d->nr_streams streams: buffer and CPU set,
 * keys from the look-ahead records (sequential readers) or 0
 * Return: 0 or -ENOMEM.
 */
int dat_heap_keys(struct dat *d);

/* the heap's order: the earlier next item, then the lower buffer, then the lower CPU */
static inline bool dat_stream_less(const struct dat *d, int a, int b)
{
	const struct dat_hkey *x = &d->hk[a];
	const struct dat_hkey *y = &d->hk[b];

	if (x->key != y->key)
		return x->key < y->key;
	if (x->buf != y->buf)
		return x->buf < y->buf;
	return x->cpu < y->cpu;
}

/**
 * dat_heap_down() - restore the heap below @i after a key grew
 * @d: the decoder; d->hk[] are the keys
 * @i: index in d->heap
 */
static inline void dat_heap_down(struct dat *d, int i)
{
	int n = d->nr_heap;
	int c;
	int t;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && dat_stream_less(d, d->heap[c + 1], d->heap[c]))
			c++;
		if (!dat_stream_less(d, d->heap[c], d->heap[i]))
			return;
		t = d->heap[c];
		d->heap[c] = d->heap[i];
		d->heap[i] = t;
		i = c;
	}
}

/** dat_lost_event() - the lost-events marker returned before @rec. */
void dat_lost_event(const struct tep_record *rec, struct sr_event *ev);

/**
 * dat_heap_advance() - the fast reader's pop: move the earliest stream on
 * @d: the decoder (d->fast); the record at the top of the heap has been
 *     used and its bytes may be overwritten
 *
 * Return: 0, or a negative code when reading the stream's next page
 * failed fatally (in->err set; the stream is ended either way).
 */
int dat_heap_advance(struct dat *d);

/**
 * dat_fast_streams() - one fast stream per CPU range of the selected
 * buffers
 * @in:         the handle (damage is reported through it)
 * @d:          the decoder: d->lay, d->fd, d->bufs filled; d->fast set
 * @read_first: read each stream's first record (dat_read_reported()) and
 *              put the streams that have one on the heap; when false
 *              (the threaded reader) the streams are only set up
 *
 * Return: 0, or a negative code with in->err set.
 */
int dat_fast_streams(struct ingest *in, struct dat *d, bool read_first);

#define DAT_FAST_WINDOW	(256u << 10)	/* bytes of uncompressed pages read at once */
/*
 * The threaded reader's piece of a CPU's data, by default: one window, so
 * that a piece reads its pages as the one-thread reader does (a window's
 * pages are checked before any of its records is read); compressed data
 * is cut at the first whole chunk after as many uncompressed bytes.
 */
#define DAT_PIECE	DAT_FAST_WINDOW

#define DAT_READ_DAMAGE 2	/* dat_fast_read(): damage read around */

/**
 * dat_fast_read() - the next record of stream @si into its look-ahead
 * @d:   the decoder
 * @si:  index in d->streams
 * @z:   decompression state (one per thread)
 * @dmg: filled on DAT_READ_DAMAGE and on a negative return
 *
 * Context: touches only stream @si, @z and @dmg: streams may be read by
 * different threads.
 * Return: 1 read (s->fs.rec holds it), 0 the stream is done,
 * DAT_READ_DAMAGE (damage to report; call again), or a negative code
 * (fatal; the stream is done).
 */
int dat_fast_read(struct dat *d, int si, struct dat_unz *z, struct dat_damage *dmg);

/**
 * dat_fast_read_from() - dat_fast_read() of stream @s's bytes in @fs, a
 * reading state of its own (a piece of the stream: dat_fast_piece())
 * Context: touches only @fs, @z and @dmg.
 */
int dat_fast_read_from(struct dat *d, const struct dat_stream *s, struct dat_fsrc *fs,
		       struct dat_unz *z, struct dat_damage *dmg);

/**
 * dat_fast_pieces() - the pieces of stream @s that dat_fast_piece() sets up
 * @piece: 0: the whole stream is one piece; else uncompressed data is cut
 *         into pieces of this many bytes (rounded up to whole pages) and
 *         compressed data where the header walk cut it (d->lay.piece)
 * Return: 1 or more (1: the stream is not cut).
 */
uint32_t dat_fast_pieces(const struct dat *d, const struct dat_stream *s, uint64_t piece);

/**
 * dat_fast_piece() - set @fs to read piece @k of stream @s (of
 * dat_fast_pieces(.., @piece)) from its start, as dat_fast_read() reads the
 * whole stream: the same records, offsets and damage.  @fs's buffer is kept.
 */
void dat_fast_piece(const struct dat *d, const struct dat_stream *s, uint64_t piece, uint32_t k,
		    struct dat_fsrc *fs);

/**
 * dat_read_reported() - dat_fast_read() with damage reported at once
 * (the one-thread reader)
 * Return: 1, 0, or a negative code with in->err set.
 */
int dat_read_reported(struct dat *d, int si);

/**
 * dat_report_damage() - count and report @dmg through ingest_damage()
 * Return: 0, or its code under --strict (in->err set).
 */
int dat_report_damage(struct ingest *in, const struct dat_damage *dmg);

struct dat_mt;

/**
 * dat_mt_start() - read the fast streams on worker threads
 * @in:      the handle
 * @d:       the decoder, streams set up by dat_fast_streams(.., false)
 * @threads: threads in all, the caller's included (2 or more)
 *
 * Starts threads - 1 workers (at most one per lane: a stream, or a piece of
 * one cut in pieces, dat-threads.c), named sr-read, waits for every
 * stream's first batch and builds the heap.
 * Return: 0, or a negative code with in->err set (dat_mt_stop() still
 * cleans up).
 */
int dat_mt_start(struct ingest *in, struct dat *d, int threads);

/**
 * dat_mt_next() - the next event of the threaded reader, as dat_next()
 * Return: 1, 0 at the end, or a negative code with in->err set.
 */
int dat_mt_next(struct ingest *in, struct dat *d, struct sr_event *ev);

/**
 * dat_mt_next_borrowed() - dat_mt_next() handing out the event where it lies
 * in its batch (ingest_next_borrowed())
 *
 * Return: as dat_mt_next(); *@ev is valid until the next call (its batch is
 * held until then).
 */
int dat_mt_next_borrowed(struct ingest *in, struct dat *d, const struct sr_event **ev);

/**
 * dat_mt_batch() - items a batch of @in's threaded reader (for tests)
 * Return: the number, or 0 when @in is not a trace.dat read on threads.
 */
int dat_mt_batch(const struct ingest *in);

/**
 * dat_mt_pieces() - the pieces the streams of @in's threaded reader are cut
 * into, in all (for tests); *@lanes: the lanes decoding them
 * Return: 0 when @in is not a trace.dat read on threads.
 */
uint64_t dat_mt_pieces(const struct ingest *in, int *lanes);

/** dat_mt_stop() - stop and join the workers, free the batches (NULL mt fine). */
void dat_mt_stop(struct dat *d);

/** dat_fast_release() - free the fast reader's buffers of every stream. */
void dat_fast_release(struct dat *d);

/**
 * dat_decode() - decode one record into an event
 * @b:   the record's buffer
 * @sb:  where ev->str is copied (valid until the next call with @sb)
 * @rec: the record
 * @ev:  filled
 * @dmg: filled when the record is damaged
 *
 * Context: thread-safe for different @sb once dat_evinfo_prepare() has
 * run on @b (event ids are then looked up, never added) and
 * dat_common_inline(@b) is true (else libtraceevent's tep_data_type() and
 * tep_data_pid() read them, filling in its handle on first use).
 * Return: 1 decoded, 0 skip the record (@dmg says why; it may be read
 * around), -ENOMEM.
 */
int dat_decode(struct dat_buf *b, struct dat_strs *sb, const struct tep_record *rec,
	       struct sr_event *ev, struct dat_damage *dmg);

/**
 * dat_evinfo_prepare() - resolve every event id the file describes, so
 * that dat_decode() never changes @b (the threaded reader)
 * Return: 0 or -ENOMEM.
 */
int dat_evinfo_prepare(struct dat_buf *b);

/** dat_evinfo_free() - free one event id's info (NULL is fine) */
void dat_evinfo_free(struct dat_evinfo *ei);

/**
 * dat_common_inline() - whether dat_decode() reads common_type and
 * common_pid of @b's records itself (sizes and places it can read: any
 * real trace), not through libtraceevent
 */
bool dat_common_inline(struct dat_buf *b);

#endif
