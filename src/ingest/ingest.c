// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ingest.c - open a trace, pick its decoder, and do the bookkeeping every
 * decoder shares: time order, lost events per CPU, totals, damage reports.
 *
 * Format detection: the trace.dat magic ("\x17\x08\x44tracing") picks the
 * binary decoder; anything else is offered to ingest_detect_text().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest-local.h"

static const unsigned char dat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

static const struct {
	enum ingest_format	fmt;
	const char		*name;
	const char		*alias;
} formats[] = {
	{ INGEST_FMT_AUTO,	"auto",			"auto" },
	{ INGEST_FMT_TRACE_DAT,	"trace.dat",		"dat" },
	{ INGEST_FMT_TRACEFS,	"tracefs",		"trace" },
	{ INGEST_FMT_REPORT,	"trace-cmd-report",	"report" },
	{ INGEST_FMT_PERF,	"perf-script",		"perf" },
};

const char *ingest_format_name(enum ingest_format fmt)
{
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].fmt == fmt)
			return formats[i].name;
	return "?";
}

/* the --format word of @fmt ("perf") */
static const char *format_option(enum ingest_format fmt)
{
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].fmt == fmt)
			return formats[i].alias;
	return "?";
}

/*
 * A forced text format @given that the head's lines contradict: perf script
 * lines against tracefs or trace-cmd report ones.  tracefs and report lines
 * are of one shape (either decoder reads the other's), and a head that
 * looks like nothing known is the case --format exists for.
 */
static bool mismatch(enum ingest_format given, enum ingest_format seen)
{
	if (seen == INGEST_FMT_AUTO || seen == given)
		return false;
	return given == INGEST_FMT_PERF || seen == INGEST_FMT_PERF;
}

int ingest_format_parse(const char *s, enum ingest_format *out)
{
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (!strcmp(s, formats[i].name) || !strcmp(s, formats[i].alias)) {
			*out = formats[i].fmt;
			return 0;
		}
	}
	return -SR_EUSAGE;
}

int ingest_reader_parse(const char *s, enum ingest_reader *out)
{
	static const char *const names[] = {
		[INGEST_READER_AUTO] = "auto",
		[INGEST_READER_FAST] = "fast",
		[INGEST_READER_LIBTRACECMD] = "libtracecmd",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*out = (enum ingest_reader)i;
			return 0;
		}
	}
	return -SR_EUSAGE;
}

bool ingest_pos_is_line(const struct ingest *in)
{
	return in->info.format != INGEST_FMT_TRACE_DAT;
}

void ingest_err_at(const struct ingest *in, struct err *e, uint64_t pos)
{
	if (ingest_pos_is_line(in))
		err_at_line(e, pos);
	else
		err_at_byte(e, pos);
}

int ingest_damage(struct ingest *in, int code, uint64_t pos, const char *fmt, ...)
{
	struct err e = { 0 };
	va_list ap;

	err_set_file(&e, in->path);
	e.code = code;
	va_start(ap, fmt);
	vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
	va_end(ap);
	ingest_err_at(in, &e, pos);
	if (in->opts.strict) {
		if (!in->err.code)
			in->err = e;
		return code;
	}
	if (in->opts.warn)
		in->opts.warn(in->opts.warn_arg, &e);
	return 0;
}

int ingest_note_cpu_grow(struct ingest *in, int cpu, uint64_t pos)
{
	int64_t *lost;
	uint64_t *lrec;
	int cap;

	if (cpu < 0 || cpu >= INGEST_MAX_CPUS) {
		err_set(&in->err, -SR_ERANGE, "cpu %d out of range (at most %d cpus)", cpu,
			INGEST_MAX_CPUS);
		ingest_err_at(in, &in->err, pos);
		return -SR_ERANGE;
	}
	if (cpu < in->lost_cap) {
		if (cpu >= in->info.nr_cpus)
			in->info.nr_cpus = cpu + 1;
		return 0;
	}
	cap = in->lost_cap ? in->lost_cap : 8;
	while (cap <= cpu)
		cap *= 2;
	lost = realloc(in->info.lost_per_cpu, cap * sizeof(*lost));
	if (!lost)
		return -ENOMEM;
	in->info.lost_per_cpu = lost;
	lrec = realloc(in->info.lost_records_per_cpu, cap * sizeof(*lrec));
	if (!lrec)
		return -ENOMEM;
	in->info.lost_records_per_cpu = lrec;
	lrec = realloc(in->info.first_ts_per_cpu, cap * sizeof(*lrec));
	if (!lrec)
		return -ENOMEM;
	in->info.first_ts_per_cpu = lrec;
	memset(lrec + in->lost_cap, 0, (cap - in->lost_cap) * sizeof(*lrec));
	lrec = realloc(in->info.last_ts_per_cpu, cap * sizeof(*lrec));
	if (!lrec)
		return -ENOMEM;
	in->info.last_ts_per_cpu = lrec;
	memset(lrec + in->lost_cap, 0, (cap - in->lost_cap) * sizeof(*lrec));
	lrec = in->info.lost_records_per_cpu;
	memset(lost + in->lost_cap, 0, (cap - in->lost_cap) * sizeof(*lost));
	memset(lrec + in->lost_cap, 0, (cap - in->lost_cap) * sizeof(*lrec));
	in->lost_cap = cap;
	if (cpu >= in->info.nr_cpus)
		in->info.nr_cpus = cpu + 1;
	return 0;
}

/*
 * Open @path for reading without waiting for a writer (a FIFO nobody
 * writes to would block open() for ever): O_NONBLOCK for the open only.
 */
int ingest_open_fd(const char *path)
{
	int fd, fl;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		fl = -errno;
		close(fd);
		return fl;
	}
	return fd;
}

/* up to @len bytes from @fd's start; Return: 0 or negative (@err set) */
static int read_head(int fd, char *buf, size_t len, size_t *got, struct err *err)
{
	ssize_t n;
	size_t off = 0;

	while (off < len) {
		n = read(fd, buf + off, len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return err_set(err, -errno, "cannot read: %s", strerror(errno));
		}
		if (n == 0)
			break;
		off += n;
	}
	*got = off;
	return 0;
}

struct ingest *ingest_open(const char *path, const struct ingest_opts *opts, struct err *err)
{
	static const struct ingest_opts defaults;
	enum ingest_format fmt, seen;
	struct ingest *in;
	struct stat st;
	char head[8192];
	size_t got = 0;
	bool stream;
	int fd;
	int ret;

	err_set_file(err, path);
	if (stat(path, &st) < 0) {
		err_set(err, -errno, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		err_set(err, -EISDIR, "is a folder, not a trace file");
		return NULL;
	}
	fd = ingest_open_fd(path);
	if (fd < 0) {
		err_set(err, fd, "cannot open: %s", strerror(-fd));
		return NULL;
	}
	stream = !S_ISREG(st.st_mode);
	if (read_head(fd, head, sizeof(head), &got, err) < 0)
		goto out_close;
	if (got == 0) {
		if (stream)
			err_set(err, -SR_EEMPTY, "nothing to read (a pipe or FIFO nobody wrote to)");
		else
			err_set(err, -SR_EEMPTY, "empty file");
		goto out_close;
	}
	if (!opts)
		opts = &defaults;

	fmt = opts->format;
	if (fmt == INGEST_FMT_AUTO) {
		if (got >= sizeof(dat_magic) && !memcmp(head, dat_magic, sizeof(dat_magic)))
			fmt = INGEST_FMT_TRACE_DAT;
		else if (got >= 3 && !memcmp(head, dat_magic, 3))
			fmt = INGEST_FMT_TRACE_DAT;	/* damaged magic: let the reader say */
		else
			fmt = ingest_detect_text(head, got);
	}
	else if (fmt != INGEST_FMT_TRACE_DAT && got >= sizeof(dat_magic) &&
		 !memcmp(head, dat_magic, sizeof(dat_magic))) {
		/* a forced text format would read the binary as 20 damaged lines */
		err_at_byte(err, 0);
		err_set(err, -SR_EBADMAGIC,
			"a trace.dat file, not %s text (drop --format, or give --format dat)",
			ingest_format_name(fmt));
		goto out_close;
	} else if (fmt != INGEST_FMT_TRACE_DAT && mismatch(fmt, seen = ingest_detect_text(head, got))) {
		err_at_byte(err, 0);
		err_set(err, -SR_EBADMAGIC, "%s text, not %s (drop --format, or give --format %s)",
			ingest_format_name(seen), ingest_format_name(fmt), format_option(seen));
		goto out_close;
	}
	if (fmt == INGEST_FMT_AUTO) {
		err_at_byte(err, 0);
		err_set(err, -SR_EBADMAGIC,
			"not a trace.dat file and not a known text trace (use --format to say which)");
		goto out_close;
	}
	if (stream && fmt == INGEST_FMT_TRACE_DAT) {
		/* a trace.dat is read by offset: its tables point forwards and back */
		err_set(err, -SR_EUNSUPPORTED,
			"a trace.dat file cannot be read from a pipe, FIFO or device (save it to a file first)");
		goto out_close;
	}
	if (!stream) {
		close(fd);
		fd = -1;
	}

	in = calloc(1, sizeof(*in));
	if (!in)
		goto out_nomem;
	in->stream_fd = fd;
	if (stream) {
		in->stream_head = malloc(got);
		if (!in->stream_head)
			goto out_free;
		memcpy(in->stream_head, head, got);
		in->stream_got = got;
	}
	in->path = strdup(path);
	if (!in->path)
		goto out_free;
	in->opts = *opts;
	in->info.format = fmt;
	err_set_file(&in->err, path);
	in->ops = fmt == INGEST_FMT_TRACE_DAT ? &ingest_dat_ops : &ingest_text_ops;
	ret = in->ops->open(in);
	if (ret < 0) {
		if (!in->err.code)
			err_set(&in->err, ret, "%s", sr_strerror(ret));
		*err = in->err;
		ingest_close(in);
		return NULL;
	}
	return in;

out_free:
	free(in->stream_head);
	free(in);
out_nomem:
	err_set(err, -ENOMEM, "out of memory");
out_close:
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* a lost-events record: the stretch since its CPU's last event */
static int note_gap(struct ingest *in, const struct sr_event *ev)
{
	struct ingest_gap *g;
	uint64_t last = in->info.last_ts_per_cpu[ev->cpu];

	if (in->info.nr_gaps == in->gap_cap) {
		size_t cap = in->gap_cap ? 2 * in->gap_cap : 8;

		g = realloc(in->info.gaps, cap * sizeof(*g));
		if (!g)
			return -ENOMEM;
		in->info.gaps = g;
		in->gap_cap = cap;
	}
	g = &in->info.gaps[in->info.nr_gaps++];
	g->cpu = ev->cpu;
	g->from_ns = last ? last - 1 : 0;
	g->to_ns = ev->ts_ns;
	g->count = ev->u.lost.count;
	return 0;
}

/* the accounting after a decoder returned @ev; Return: 1 or negative */
static int account(struct ingest *in, const struct sr_event *ev)
{
	int ret;

	ret = ingest_note_cpu(in, ev->cpu, ev->src_pos);
	if (ret < 0)
		return ret;
	if (in->have_ts && ev->ts_ns < in->last_ts_ns) {
		in->info.unordered++;
		ret = ingest_damage(in, -SR_EBADTRACE, ev->src_pos,
				    "timestamp %llu.%09llu earlier than the one before",
				    (unsigned long long)(ev->ts_ns / 1000000000ull),
				    (unsigned long long)(ev->ts_ns % 1000000000ull));
		if (ret < 0)
			return ret;
	} else {
		in->last_ts_ns = ev->ts_ns;
	}
	if (!in->have_ts || ev->ts_ns < in->info.first_ts_ns)
		in->info.first_ts_ns = ev->ts_ns;
	if (ev->ts_ns > in->info.last_ts_ns)
		in->info.last_ts_ns = ev->ts_ns;
	in->have_ts = true;

	if (ev->kind == SR_EV_LOST) {
		in->info.lost_records_per_cpu[ev->cpu]++;
		if (ev->u.lost.count > 0)
			in->info.lost_per_cpu[ev->cpu] += ev->u.lost.count;
		ret = note_gap(in, ev);
		if (ret < 0)
			return ret;
	} else {
		in->info.nr_events++;
	}
	/* +1: a CPU seen at time 0 is seen (0 = not yet) */
	if (!in->info.first_ts_per_cpu[ev->cpu])
		in->info.first_ts_per_cpu[ev->cpu] = ev->ts_ns + 1;
	if (ev->ts_ns + 1 > in->info.last_ts_per_cpu[ev->cpu])
		in->info.last_ts_per_cpu[ev->cpu] = ev->ts_ns + 1;
	return 1;
}

int ingest_next(struct ingest *in, struct sr_event *ev)
{
	int ret;

	memset(ev, 0, sizeof(*ev));
	ret = in->ops->next(in, ev);
	return ret <= 0 ? ret : account(in, ev);
}

int ingest_next_in_handle(struct ingest *in, const struct sr_event **ev)
{
	memset(&in->ev, 0, sizeof(in->ev));
	*ev = &in->ev;
	return in->ops->next(in, &in->ev);
}

int ingest_next_borrowed(struct ingest *in, const struct sr_event **ev)
{
	int ret;

	if (in->ops->next_borrowed)
		ret = in->ops->next_borrowed(in, ev);
	else
		ret = ingest_next_in_handle(in, ev);
	return ret <= 0 ? ret : account(in, *ev);
}

/* the counters of what was read, back to none; per-CPU arrays kept, zeroed */
static void forget_reading(struct ingest *in)
{
	struct ingest_info *i = &in->info;
	size_t n = in->lost_cap;

	if (n) {
		memset(i->lost_per_cpu, 0, n * sizeof(*i->lost_per_cpu));
		memset(i->lost_records_per_cpu, 0, n * sizeof(*i->lost_records_per_cpu));
		memset(i->first_ts_per_cpu, 0, n * sizeof(*i->first_ts_per_cpu));
		memset(i->last_ts_per_cpu, 0, n * sizeof(*i->last_ts_per_cpu));
	}
	i->nr_gaps = 0;
	i->first_ts_ns = 0;
	i->last_ts_ns = 0;
	i->nr_events = 0;
	i->bad_lines = 0;
	i->skipped_lines = 0;
	i->truncated = 0;
	i->unordered = 0;
	i->bad_markers = 0;
	in->last_ts_ns = 0;
	in->have_ts = false;
	err_clear(&in->err);
}

/* what an open said, gone before opening again (the arrays stay allocated) */
static void forget_open(struct ingest *in)
{
	struct ingest_info keep = in->info;

	memset(&in->info, 0, sizeof(in->info));
	in->info.format = keep.format;
	in->info.lost_per_cpu = keep.lost_per_cpu;
	in->info.lost_records_per_cpu = keep.lost_records_per_cpu;
	in->info.first_ts_per_cpu = keep.first_ts_per_cpu;
	in->info.last_ts_per_cpu = keep.last_ts_per_cpu;
	in->info.gaps = keep.gaps;
}

int ingest_rewind(struct ingest *in, const struct ingest_opts *opts, struct err *err)
{
	struct ingest_opts o = opts ? *opts : in->opts;
	int ret = 1;

	if (in->stream_head) {
		err_set_file(err, in->path);
		return err_set(err, -SR_EUNSUPPORTED,
			       "a pipe or FIFO cannot be read twice (save it to a file first)");
	}
	o.format = in->opts.format;
	o.buffer = in->opts.buffer;
	o.reader = in->opts.reader;
	o.piece = in->opts.piece;
	in->opts = o;
	forget_reading(in);
	if (in->ops->rewind)
		ret = in->ops->rewind(in);
	if (ret > 0) {
		in->ops->close(in);
		forget_open(in);
		ret = in->ops->open(in);
	}
	if (ret < 0) {
		if (!in->err.code)
			err_set(&in->err, ret, "%s", sr_strerror(ret));
		*err = in->err;
		return in->err.code;
	}
	return 0;
}

const struct ingest_info *ingest_info(const struct ingest *in)
{
	return &in->info;
}

const struct err *ingest_err(const struct ingest *in)
{
	return &in->err;
}

double ingest_progress(const struct ingest *in)
{
	if (!in->ops->progress)
		return -1.0;
	return in->ops->progress(in);
}

void ingest_close(struct ingest *in)
{
	if (!in)
		return;
	if (in->ops && in->ops->close)
		in->ops->close(in);
	free(in->info.lost_per_cpu);
	free(in->info.lost_records_per_cpu);
	free(in->info.first_ts_per_cpu);
	free(in->info.last_ts_per_cpu);
	free(in->info.gaps);
	free(in->path);
	free(in->stream_head);
	if (in->stream_fd >= 0)
		close(in->stream_fd);
	free(in);
}
