/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ingest-local.h - private to src/ingest/: the decoder ops table and the
 * handle every decoder hangs its state off.
 */
#ifndef SR_INGEST_LOCAL_H
#define SR_INGEST_LOCAL_H

#include <stdio.h>

#include "ingest.h"

struct ingest;

/**
 * struct ingest_ops - one decoder
 * @format: the format it reads
 * @open:   set up in->priv from in->path (the file exists and is not
 *          empty); fill what in->info can say up front.  0 or negative,
 *          with in->err set.
 * @next:   as ingest_next(); the common code does time-order accounting,
 *          lost-event counting and event totals after it returns.
 * @next_borrowed: optional; as ingest_next_borrowed(), for a decoder
 *          whose events already lie somewhere whole (without it, or when
 *          it calls ingest_next_in_handle(), @next fills in->ev)
 * @rewind: optional; as ingest_rewind() after the common code reset the
 *          counters and options: 0, negative (in->err), or 1 when this
 *          handle cannot (the common code then closes and opens again)
 * @progress: optional; fraction read, or negative when unknown
 * @close:  free in->priv (may be called after a failed open)
 */
struct ingest_ops {
	enum ingest_format	format;
	int	(*open)(struct ingest *in);
	int	(*next)(struct ingest *in, struct sr_event *ev);
	int	(*next_borrowed)(struct ingest *in, const struct sr_event **ev);
	int	(*rewind)(struct ingest *in);
	double	(*progress)(const struct ingest *in);
	void	(*close)(struct ingest *in);
};

struct ingest {
	const struct ingest_ops	*ops;
	char			*path;
	struct ingest_opts	opts;
	struct ingest_info	info;
	int			lost_cap;	/* allocated entries of lost arrays */
	size_t			gap_cap;	/* allocated entries of info.gaps */
	struct err		err;
	void			*priv;
	uint64_t		last_ts_ns;
	bool			have_ts;
	struct sr_event		ev;		/* ingest_next_borrowed()'s, without next_borrowed */
	/*
	 * A pipe, FIFO or device given as the trace (not seekable): opened
	 * once, by ingest_open(), which read its first @stream_got bytes into
	 * @stream_head; the text decoder reads on from @stream_fd (it takes
	 * both over).  -1 for a regular file.
	 */
	int			stream_fd;
	char			*stream_head;
	size_t			stream_got;
};

/**
 * ingest_next_in_handle() - @next into in->ev, *@ev pointing at it: what
 * ingest_next_borrowed() does for a decoder with nothing to lend
 * Return: as @next.
 */
int ingest_next_in_handle(struct ingest *in, const struct sr_event **ev);

extern const struct ingest_ops ingest_dat_ops;
extern const struct ingest_ops ingest_text_ops;	/* tracefs, report and perf */

/**
 * ingest_damage() - report damage that can be read around
 * @in:   the handle
 * @code: the code it would be under --strict (-SR_EBADTEXT, -SR_ETRUNCATED...)
 * @pos:  byte offset (trace.dat) or line number (text)
 * @fmt:  message
 *
 * Calls the warning callback; with opts.strict, records the error instead.
 * Return: 0 to carry on, or @code when strict (the decoder returns it).
 */
int ingest_damage(struct ingest *in, int code, uint64_t pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/**
 * ingest_open_fd() - open a file to read without blocking on a FIFO that
 * has no writer (the descriptor is blocking afterwards)
 * Return: the descriptor, or -errno.
 */
int ingest_open_fd(const char *path);

/* ingest_note_cpu() for a CPU the arrays do not cover yet, or out of range */
int ingest_note_cpu_grow(struct ingest *in, int cpu, uint64_t pos);

/**
 * ingest_note_cpu() - make sure per-CPU arrays cover @cpu
 * Return: 0, -ENOMEM, or -SR_ERANGE when @cpu is negative or above
 * INGEST_MAX_CPUS (in->err set).
 * Context: asked at every event; inline for a CPU the arrays cover.
 */
static inline int ingest_note_cpu(struct ingest *in, int cpu, uint64_t pos)
{
	if (cpu >= 0 && cpu < in->lost_cap && cpu < INGEST_MAX_CPUS) {
		if (cpu >= in->info.nr_cpus)
			in->info.nr_cpus = cpu + 1;
		return 0;
	}
	return ingest_note_cpu_grow(in, cpu, pos);
}

/** ingest_pos_is_line() - whether positions of this format are lines. */
bool ingest_pos_is_line(const struct ingest *in);

/**
 * ingest_detect_text() - which text format a file's first lines look like
 * @head, @len: up to the first few KiB of the file
 * Return: INGEST_FMT_TRACEFS, _REPORT, _PERF, or INGEST_FMT_AUTO when none.
 */
enum ingest_format ingest_detect_text(const char *head, size_t len);

#endif
