/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ingest.h - open a trace in any supported format and read it as one
 * time-ordered stream of struct sr_event.
 *
 * Memory stays flat: events are produced one at a time and nothing is kept
 * per event.  Damage that can be read around (a garbage text line, a
 * truncated last page, timestamps going backwards) is counted in struct
 * ingest_info and reported through the warning callback; with
 * ingest_opts.strict any such damage is an error instead.
 */
#ifndef SR_INGEST_INGEST_H
#define SR_INGEST_INGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "../util/err.h"

#define INGEST_MAX_CPUS 4096

enum ingest_format {
	INGEST_FMT_AUTO = 0,	/* detect from content */
	INGEST_FMT_TRACE_DAT,	/* trace-cmd trace.dat, versions 6 and 7 */
	INGEST_FMT_TRACEFS,	/* the tracefs `trace` file (and trace_pipe) */
	INGEST_FMT_REPORT,	/* `trace-cmd report` output */
	INGEST_FMT_PERF,	/* `perf script` output */
};

/**
 * typedef ingest_warn_fn - called once per piece of damage read around
 * @arg: ingest_opts.warn_arg
 * @e:   what and where (file, byte offset or line)
 */
typedef void (*ingest_warn_fn)(void *arg, const struct err *e);

/**
 * enum ingest_reader - which trace.dat reader (docs/performance.md)
 * @INGEST_READER_AUTO:        the fast reader when it can read the file,
 *                             libtracecmd's otherwise
 * @INGEST_READER_FAST:        the fast reader, or an error saying why not
 * @INGEST_READER_LIBTRACECMD: libtracecmd's, the reference
 */
enum ingest_reader {
	INGEST_READER_AUTO = 0,
	INGEST_READER_FAST,
	INGEST_READER_LIBTRACECMD,
};

struct ingest_opts {
	enum ingest_format	format;
	bool			strict;		/* damage is fatal */
	const char		*buffer;	/* trace.dat instance name; NULL = all */
	enum ingest_reader	reader;		/* trace.dat only */
	int			threads;	/* fast reader: threads in all (the
						 * caller's included); 0 = one per
						 * usable CPU, 1 = none of its own */
	int			batch;		/* fast reader on threads: events a
						 * batch (1..1024); 0 = its choice.
						 * Tests use tiny ones */
	uint32_t		piece;		/* fast reader on threads: bytes of a
						 * CPU's data decoded apart from the
						 * rest (whole pages, whole chunks);
						 * 0 = its choice.  Tests use tiny ones */
	bool			no_poll;	/* fast reader on threads: sleep at
						 * once when waiting, as the caller
						 * has busy threads of its own */
	ingest_warn_fn		warn;		/* may be NULL */
	void			*warn_arg;
};

/**
 * struct ingest_info - what is known about the source
 *
 * Filled at open time where the format says it up front (trace.dat), and
 * completed while reading (text formats learn CPUs as they go).  Counters
 * are final once ingest_next() has returned 0.
 */
/**
 * struct ingest_gap - a stretch where a CPU was not seen: from its last
 * event before a lost-events record to the record (its next event)
 * @cpu:      the CPU
 * @from_ns:  its event before the record; 0 when the record is its first
 *            (the stretch then starts where the trace does)
 * @to_ns:    the record's timestamp
 * @count:    events lost, -1 unknown
 */
struct ingest_gap {
	int		cpu;
	uint64_t	from_ns;
	uint64_t	to_ns;
	int64_t		count;
};

/*
 * A CPU's stretch before its first event, or after its last, counts as
 * unseen (info lists it, decisions in it are flagged) from this length on;
 * a lost-events gap counts whatever its length.
 */
#define INGEST_UNSEEN_MIN_NS	(20ull * 1000 * 1000)

struct ingest_info {
	enum ingest_format	format;
	int			file_version;	/* trace.dat version, 0 for text */
	char			compression[32];/* "zstd", "zlib", "" (none) */
	char			kernel_release[128]; /* "" when the file does not say */
	char			hostname[65];	/* uname's nodename; "" when unsaid or "(none)" */
	char			clock[32];	/* trace clock, "" when unknown */
	char			reader[16];	/* trace.dat: "fast" or "libtracecmd"; else "" */
	char			reader_note[96]; /* why not the fast reader, "" when it is used */
	int			nr_cpus;	/* highest CPU seen + 1, or the file's count */
	uint64_t		first_ts_ns;
	uint64_t		last_ts_ns;
	uint64_t		nr_events;
	/* lost events, indexed by CPU (nr_cpus entries); -1 in lost_unknown */
	int64_t			*lost_per_cpu;	/* owned by the ingest handle */
	uint64_t		*lost_records_per_cpu;	/* how many lost markers */
	/* coverage, indexed by CPU: its first and last event (0 = none seen) */
	uint64_t		*first_ts_per_cpu;
	uint64_t		*last_ts_per_cpu;
	struct ingest_gap	*gaps;		/* one per lost-events record, in order */
	size_t			nr_gaps;
	uint64_t		bad_lines;	/* text lines that could not be parsed */
	uint64_t		skipped_lines;	/* headers, comments, blank lines */
	uint64_t		truncated;	/* truncated pages / records read around */
	uint64_t		unordered;	/* events whose timestamp went backwards */
	uint64_t		bad_markers;	/* print lines that looked like ours but did not parse */
};

struct ingest;

/**
 * ingest_open() - open a trace file
 * @path: trace.dat or a text trace
 * @opts: options, or NULL for the defaults
 * @err:  where a failure is described
 *
 * Return: owned handle (free with ingest_close()), or NULL with @err set
 * (missing file, empty file, wrong magic, unreadable header...).
 */
struct ingest *ingest_open(const char *path, const struct ingest_opts *opts, struct err *err);

/**
 * ingest_rewind() - read the trace again from its first event
 * @in:   the handle; what it has read so far is forgotten
 * @opts: the reading options from here on (NULL: the open's).  strict,
 *        threads, batch, no_poll, warn and warn_arg may differ from the
 *        open's; the format, buffer, reader and piece of the open are kept
 * @err:  where a failure is described
 *
 * The trace.dat readers keep what their open read and checked (the header
 * walk, the event formats): the fast reader starts its streams, and its
 * threads, again; libtracecmd's reads every CPU from its first record
 * again (tracecmd_read_cpu_first()).  A caller that reads the head of a
 * trace first (the session's pre-scan for topology lines) thus opens and
 * checks the file once.  The text readers are opened again.
 * ingest_info()'s counters start again from zero, and damage the open
 * found (a file cut short) is reported again, under the new options.  A
 * pipe read as it came (ingest_open() of a FIFO) cannot be rewound.
 *
 * Return: 0, or a negative code with @err set; after a failure the handle
 * can only be closed.
 */
int ingest_rewind(struct ingest *in, const struct ingest_opts *opts, struct err *err);

/**
 * ingest_next() - read the next event
 * @in: the handle
 * @ev: filled on success; borrowed pointers in it stay valid until the next
 *      call
 *
 * Return: 1 when @ev holds an event, 0 at the end, a negative code on a
 * fatal error (see ingest_err()).
 */
int ingest_next(struct ingest *in, struct sr_event *ev);

/**
 * ingest_next_borrowed() - ingest_next() without copying the event
 * @in: the handle
 * @ev: set to the event on success, borrowed (with the pointers in it)
 *      until the next call
 *
 * The threaded trace.dat reader hands out its decoded events where they
 * lie instead of copying 120 bytes per event; the other readers fill one
 * event kept in the handle.
 *
 * Return: 1 with *@ev set (the event, its strings and names borrowed:
 * valid until the next call on @in or ingest_close()), 0 at the end, or a
 * negative code on a fatal error (see ingest_err()), as ingest_next().
 */
int ingest_next_borrowed(struct ingest *in, const struct sr_event **ev);

/** ingest_info() - what is known so far.  Return: borrowed, valid until ingest_close(). */
const struct ingest_info *ingest_info(const struct ingest *in);

/** ingest_err() - the failure behind a negative ingest_next().  Return: borrowed. */
const struct err *ingest_err(const struct ingest *in);

/**
 * ingest_progress() - how far reading has got
 *
 * Return: a fraction in [0, 1], or a negative value when unknown.
 */
double ingest_progress(const struct ingest *in);

/**
 * ingest_pos_is_line() - whether sr_event.src_pos of this source is a line
 * number (text formats) rather than a byte offset (trace.dat)
 */
bool ingest_pos_is_line(const struct ingest *in);

/**
 * ingest_err_at() - set @e's location to @pos, a sr_event.src_pos of
 * this source: a line (text formats) or a byte offset (trace.dat)
 */
void ingest_err_at(const struct ingest *in, struct err *e, uint64_t pos);

/** ingest_close() - free the handle (NULL is fine). */
void ingest_close(struct ingest *in);

/** ingest_format_name() - "trace.dat", "tracefs", "trace-cmd-report", "perf-script". */
const char *ingest_format_name(enum ingest_format fmt);

/**
 * ingest_format_parse() - the inverse of ingest_format_name(), also taking
 * "auto", "dat", "trace", "report", "perf".
 *
 * Return: 0 and *out set, or -SR_EUSAGE.
 */
int ingest_format_parse(const char *s, enum ingest_format *out);

/**
 * ingest_reader_parse() - "auto", "fast" or "libtracecmd"
 * Return: 0 and *out set, or -SR_EUSAGE.
 */
int ingest_reader_parse(const char *s, enum ingest_reader *out);

#endif
