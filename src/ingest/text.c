// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * text.c - the three text decoders (tracefs `trace`, `trace-cmd report`,
 * `perf script`): one ops table, one line reader, one header parser.
 *
 * The file is streamed: one bounded line buffer (TEXT_MAX_LINE), nothing
 * kept per event.  A line that does not parse is damage (counted, reported
 * through ingest_damage(), skipped); comments, headers and blank lines are
 * counted as skipped.  Event and system names are interned in a small table
 * owned here, so the borrowed ev->name stays valid until close.
 *
 * Lost-event lines ("CPU:N [LOST n EVENTS]", trace-cmd's "CPU:N [n EVENTS
 * DROPPED]", tracefs' "##### CPU N buffer started ####", perf's
 * PERF_RECORD_LOST) have no timestamp of their own: they take the last
 * event's, or, before the first event, the first event's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest-local.h"
#include "marker.h"
#include "text-local.h"

#define TEXT_MAX_NAMES		256	/* distinct event/system names kept */
#define TEXT_MAX_NAME_LEN	128
#define TEXT_MAX_PENDING	64	/* lost lines before the first event */

enum text_line_ret {
	TEXT_EOF = 0,
	TEXT_LINE = 1,
	TEXT_LONG = 2,		/* a line over TEXT_MAX_LINE, dropped */
};

struct text_lost {
	int	cpu;
	int64_t	count;
	uint64_t line;
};

struct text_priv {
	int			fd;
	uint64_t		file_size;
	uint64_t		bytes_in;	/* read from the file so far */
	char			*buf;		/* TEXT_MAX_LINE + 1 */
	size_t			start;		/* unconsumed data: buf[start, end) */
	size_t			end;
	bool			eof;
	bool			skipping;	/* inside an overlong line */
	uint64_t		line_no;
	char			*line;
	size_t			line_len;
	bool			pushed_back;	/* line/line_len to be read again */
	bool			long_pending;	/* open() met an overlong line */

	char			*names[TEXT_MAX_NAMES];
	int			nr_names;
	bool			names_full_said;

	bool			have_ts;
	uint64_t		last_ts;
	struct text_lost	pending[TEXT_MAX_PENDING];
	int			nr_pending;
	int			next_pending;
	bool			have_queued;
	struct sr_event		queued;
	struct sr_ev_probe	probe;		/* the last probe event's fields (ev->str) */

	struct marker_sample	sample;
};

/* ---- reading lines ---- */

static int fill(struct text_priv *p)
{
	ssize_t n;

	if (p->start) {
		memmove(p->buf, p->buf + p->start, p->end - p->start);
		p->end -= p->start;
		p->start = 0;
	}
	for (;;) {
		n = read(p->fd, p->buf + p->end, TEXT_MAX_LINE - p->end);
		if (n >= 0)
			break;
		if (errno != EINTR)
			return -errno;
	}
	if (n == 0)
		p->eof = true;
	p->end += n;
	p->bytes_in += n;
	return 0;
}

/*
 * The next line, NUL-terminated in place, without "\n" or "\r\n".
 * Return: TEXT_LINE, TEXT_LONG (line_no counts it), TEXT_EOF, or -errno.
 */
static int read_line(struct text_priv *p)
{
	char *nl;
	int ret;

	if (p->pushed_back) {
		p->pushed_back = false;
		return TEXT_LINE;
	}
	for (;;) {
		nl = memchr(p->buf + p->start, '\n', p->end - p->start);
		if (nl) {
			p->line = p->buf + p->start;
			p->line_len = nl - p->line;
			p->start = nl + 1 - p->buf;
			p->line_no++;
			if (p->skipping) {
				p->skipping = false;
				return TEXT_LONG;
			}
			break;
		}
		if (p->eof) {
			if (p->start == p->end && p->skipping) {
				/* an overlong last line whose length is a multiple of the buffer's */
				p->skipping = false;
				p->line = p->buf;
				p->line_len = 0;
				p->line_no++;
				return TEXT_LONG;
			}
			if (p->start == p->end)
				return TEXT_EOF;
			p->line = p->buf + p->start;
			p->line_len = p->end - p->start;
			p->start = p->end;
			p->line_no++;
			if (p->skipping) {
				p->skipping = false;
				return TEXT_LONG;
			}
			break;
		}
		if (p->end - p->start == TEXT_MAX_LINE) {
			p->skipping = true;	/* drop what we have, keep looking for '\n' */
			p->start = p->end = 0;
		}
		ret = fill(p);
		if (ret < 0)
			return ret;
	}
	if (p->line_len && p->line[p->line_len - 1] == '\r')
		p->line_len--;
	p->line[p->line_len] = '\0';
	return TEXT_LINE;
}

/* ---- names ---- */

static const char *intern(struct ingest *in, const char *s, size_t len)
{
	struct text_priv *p = in->priv;
	char *n;
	int i;

	for (i = p->nr_names - 1; i >= 0; i--)
		if (!strncmp(p->names[i], s, len) && p->names[i][len] == '\0')
			return p->names[i];
	if (p->nr_names == TEXT_MAX_NAMES)
		return NULL;
	n = malloc(len + 1);
	if (!n)
		return NULL;
	memcpy(n, s, len);
	n[len] = '\0';
	p->names[p->nr_names++] = n;
	return n;
}

/* ---- the header: "comm-pid [cpu] flags ts: name: body" ---- */

bool text_parse_ts(const char *s, size_t len, uint64_t *ns)
{
	uint64_t secs = 0;
	uint64_t frac = 0;
	size_t i = 0;
	size_t digits;
	int nfrac = 0;

	while (i < len && s[i] >= '0' && s[i] <= '9') {
		if (secs > (UINT64_MAX - (s[i] - '0')) / 10)
			return false;
		secs = secs * 10 + (s[i] - '0');
		i++;
	}
	digits = i;
	if (!digits)
		return false;
	if (i == len) {			/* a plain counter */
		*ns = secs;
		return true;
	}
	if (s[i++] != '.' || i == len)
		return false;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || ++nfrac > 9)
			return false;
		frac = frac * 10 + (s[i] - '0');
	}
	for (; nfrac < 9; nfrac++)
		frac *= 10;
	if (secs > (UINT64_MAX - frac) / 1000000000ull)
		return false;
	*ns = secs * 1000000000ull + frac;
	return true;
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

/* "[NNN]" at @s[i]: the CPU column candidate; continues with the rest */
static bool head_at(const char *line, size_t len, size_t i, struct text_head *h)
{
	const char *end = line + len;
	const char *p = line + i + 2;	/* past " [" */
	const char *q;
	const char *l;
	const char *r;
	long cpu = 0;
	int n = 0;

	while (p < end && *p >= '0' && *p <= '9' && n < 9) {
		cpu = cpu * 10 + (*p++ - '0');
		n++;
	}
	if (!n || p + 1 >= end || p[0] != ']' || p[1] != ' ')
		return false;
	p += 1;
	while (p < end && *p == ' ')
		p++;
	/* the timestamp, or a flags column and then the timestamp */
	h->has_flags = false;
	for (;;) {
		q = p;
		while (q < end && *q != ' ' && *q != ':')
			q++;
		if (q < end && *q == ':' && text_parse_ts(p, q - p, &h->ts_ns))
			break;
		if (h->has_flags || q == p || q - p > 8 || q == end || *q != ' ')
			return false;
		h->has_flags = true;
		p = q;
		while (p < end && *p == ' ')
			p++;
	}
	p = q + 1;
	while (p < end && *p == ' ')
		p++;
	/* "name:" or perf's "system:name:" */
	q = p;
	while (q < end && is_name_char(*q))
		q++;
	if (q == p || q == end || *q != ':')
		return false;
	h->system = NULL;
	h->system_len = 0;
	h->name = p;
	h->name_len = q - p;
	if (q + 1 < end && is_name_char(q[1])) {
		r = q + 1;
		while (r < end && is_name_char(*r))
			r++;
		if (r < end && *r == ':' && (r + 1 == end || r[1] == ' ')) {
			h->system = p;
			h->system_len = q - p;
			h->name = q + 1;
			h->name_len = r - (q + 1);
			q = r;
		}
	}
	if (q + 1 < end && q[1] != ' ')
		return false;
	p = q + 1;
	while (p < end && *p == ' ')
		p++;
	h->body = p;
	h->body_len = end - p;

	/* the task: "comm-pid" or perf's "comm pid" / "comm pid/tid" */
	l = line + i;
	while (l > line && l[-1] == ' ')
		l--;
	q = l;
	h->pid = 0;
	while (q > line && q[-1] >= '0' && q[-1] <= '9')
		q--;
	if (q == l || q == line || l - q > 9)
		return false;
	for (r = q; r < l; r++)
		h->pid = h->pid * 10 + (*r - '0');
	if (q[-1] == '/') {			/* pid/tid: keep the tid */
		q--;
		while (q > line && q[-1] >= '0' && q[-1] <= '9')
			q--;
		if (q == line)
			return false;
	}
	if (q[-1] != '-' && q[-1] != ' ')
		return false;
	h->sep = q[-1];
	h->cpu = (int)cpu;
	return true;
}

bool text_parse_head(const char *line, size_t len, struct text_head *h)
{
	const char *p = line;
	const char *end = line + len;

	while ((p = memchr(p, '[', end - p))) {
		if (p > line && p[-1] == ' ' && head_at(line, len, p - 1 - line, h))
			return true;
		p++;
	}
	return false;
}

/* ---- header, comment and lost-event lines ---- */

static bool starts(const char *s, size_t len, const char *w)
{
	size_t n = strlen(w);

	return len >= n && !memcmp(s, w, n);
}

/* A decimal number at *s (at most 9 digits), advancing *s. */
static bool number(const char **s, const char *end, long *out)
{
	long v = 0;
	int n = 0;

	while (*s < end && **s >= '0' && **s <= '9' && n < 10) {
		v = v * 10 + (**s - '0');
		(*s)++;
		n++;
	}
	*out = v;
	return n > 0 && n < 10;
}

/*
 * "CPU:N [LOST n EVENTS]" / "[LOST EVENTS]" (kernel), "CPU:N [n EVENTS
 * DROPPED]" / "[EVENTS DROPPED]" (trace-cmd), possibly after a buffer
 * name ("numalab: CPU:1 ..."), and "##### CPU N buffer started ####".
 */
static bool lost_line(const char *s, size_t len, long *cpu, int64_t *count)
{
	const char *end = s + len;
	const char *p;
	long n;

	const char *c;

	*count = -1;
	if (starts(s, len, "##### CPU ")) {
		p = s + 10;
		return number(&p, end, cpu) && starts(p, end - p, " buffer started");
	}
	while (s < end && *s == ' ')
		s++;
	p = memmem(s, end - s, "CPU:", 4);
	if (!p)
		return false;
	if (p != s) {			/* only a buffer name "name: " may come before */
		c = memchr(s, ':', p - s);
		if (!c || c == s || memchr(s, ' ', c - s) || c[1] != ' ')
			return false;
		for (c++; c < p; c++)
			if (*c != ' ')
				return false;
	}
	p += 4;
	if (!number(&p, end, cpu) || !starts(p, end - p, " ["))
		return false;
	p += 2;
	if (starts(p, end - p, "LOST EVENTS]") || starts(p, end - p, "EVENTS DROPPED]"))
		return true;
	if (starts(p, end - p, "LOST ")) {
		p += 5;
		if (!number(&p, end, &n) || !starts(p, end - p, " EVENTS]"))
			return false;
		*count = n;
		return true;
	}
	if (!number(&p, end, &n) || !starts(p, end - p, " EVENTS DROPPED]"))
		return false;
	*count = n;
	return true;
}

/* perf script --show-lost-events: "... PERF_RECORD_LOST lost: 12" */
static bool perf_lost_line(const char *s, size_t len, long *cpu, int64_t *count)
{
	const char *p = memmem(s, len, "PERF_RECORD_LOST", 16);
	const char *end = s + len;
	const char *q;
	long n;

	if (!p)
		return false;
	*cpu = 0;
	*count = -1;
	for (q = s; (q = memchr(q, '[', p - q)); q++) {
		const char *r = q + 1;

		if (number(&r, p, cpu) && r < p && *r == ']')
			break;
		*cpu = 0;
	}
	q = memmem(p, end - p, "lost", 4);
	if (q) {
		q += 4;
		while (q < end && (*q == ':' || *q == ' '))
			q++;
		if (number(&q, end, &n))
			*count = n;
	}
	return true;
}

/*
 * Comments, blank lines and file headers; also picks up the CPU count
 * ("cpus=N" of trace-cmd report, "#P:N" of tracefs).
 * Return: 1 when it was one, 0 when not, negative on a bad CPU count.
 */
static int header_line(struct ingest *in, const char *s, size_t len, uint64_t line)
{
	const char *end = s + len;
	const char *p;
	size_t i;
	long n;

	for (i = 0; i < len && (s[i] == ' ' || s[i] == '\t'); i++)
		;
	if (i == len)
		return 1;
	if (s[0] == '#') {
		if (starts(s, len, "##### CPU "))
			return 0;
		p = memmem(s, len, "#P:", 3);
		if (p) {
			p += 3;
			if (number(&p, end, &n) && n > 0)
				return ingest_note_cpu(in, (int)n - 1, line) < 0 ? -SR_ERANGE : 1;
		}
		return 1;
	}
	if (starts(s, len, "cpus=")) {
		p = s + 5;
		if (!number(&p, end, &n) || p != end || n <= 0)
			return 0;
		return ingest_note_cpu(in, (int)n - 1, line) < 0 ? -SR_ERANGE : 1;
	}
	if (starts(s, len, "version = "))
		return 1;
	return 0;
}

/* ---- the decoder ---- */

static int text_open(struct ingest *in)
{
	struct text_priv *p;
	struct stat st;
	int ret;

	p = calloc(1, sizeof(*p));
	if (!p)
		return err_set(&in->err, -ENOMEM, "out of memory");
	in->priv = p;
	p->fd = -1;
	p->buf = malloc(TEXT_MAX_LINE + 1);
	if (!p->buf)
		return err_set(&in->err, -ENOMEM, "out of memory");
	if (in->stream_fd >= 0) {
		/* a pipe or FIFO: read on from where ingest_open() stopped */
		p->fd = in->stream_fd;
		in->stream_fd = -1;
		memcpy(p->buf, in->stream_head, in->stream_got);
		p->end = in->stream_got;
		p->bytes_in = in->stream_got;
	} else {
		p->fd = ingest_open_fd(in->path);
		if (p->fd < 0)
			return err_set(&in->err, p->fd, "cannot open: %s", strerror(-p->fd));
	}
	if (fstat(p->fd, &st) == 0 && S_ISREG(st.st_mode))
		p->file_size = st.st_size;

	/* read the leading headers now, so nr_cpus is known at open */
	for (;;) {
		ret = read_line(p);
		if (ret < 0)
			return err_set(&in->err, ret, "cannot read: %s", strerror(-ret));
		if (ret != TEXT_LINE)
			break;
		if (memchr(p->line, '\0', p->line_len)) {
			p->pushed_back = true;
			break;
		}
		ret = header_line(in, p->line, p->line_len, p->line_no);
		if (ret < 0)
			return ret;
		if (!ret) {
			p->pushed_back = true;
			break;
		}
		in->info.skipped_lines++;
	}
	if (ret == TEXT_LONG)
		p->long_pending = true;	/* reported from next(), where damage belongs */
	return 0;
}

static int bad_line(struct ingest *in, const char *why)
{
	struct text_priv *p = in->priv;

	in->info.bad_lines++;
	return ingest_damage(in, -SR_EBADTEXT, p->line_no, "%s", why);
}

static void emit_lost(const struct text_lost *l, uint64_t ts, struct sr_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = SR_EV_LOST;
	ev->name = ingest_event_kind_name(SR_EV_LOST);
	ev->system = "";
	ev->cpu = l->cpu;
	ev->pid = -1;
	ev->ts_ns = ts;
	ev->src_pos = l->line;
	ev->u.lost.count = l->count;
}

static int event_line(struct ingest *in, const struct text_head *h, struct sr_event *ev)
{
	struct text_priv *p = in->priv;
	const char *why;
	int ret;

	ret = ingest_note_cpu(in, h->cpu, p->line_no);
	if (ret < 0)
		return ret;
	if (h->name_len > TEXT_MAX_NAME_LEN || h->system_len > TEXT_MAX_NAME_LEN)
		return bad_line(in, "event name too long") < 0 ? -SR_EBADTEXT : 0;
	ev->name = intern(in, h->name, h->name_len);
	ev->system = h->system_len ? intern(in, h->system, h->system_len) : "";
	if (!ev->name || !ev->system) {
		if (p->nr_names < TEXT_MAX_NAMES)
			return err_set(&in->err, -ENOMEM, "out of memory");
		if (!p->names_full_said) {
			p->names_full_said = true;
			ret = ingest_damage(in, -SR_EBADTEXT, p->line_no,
					    "more than %d distinct event names; the rest are named \"unknown\"",
					    TEXT_MAX_NAMES);
			if (ret < 0)
				return ret;
		}
		if (!ev->name)
			ev->name = "unknown";
		if (!ev->system)
			ev->system = "";
	}
	ev->kind = ingest_event_kind_from_name(ev->name);
	/* the decision probes: their group, or trace-cmd report's bare name */
	if (ev->kind == SR_EV_OTHER)
		ev->kind = ingest_probe_kind(h->system_len ? ev->system : "schedreplay_", ev->name);
	if (ev->kind == SR_EV_OTHER && !h->system_len && !strcmp(ev->name, "tracing_mark_write")) {
		ev->kind = SR_EV_PRINT;		/* tracefs prints the ip as the name */
		ev->name = ingest_event_kind_name(SR_EV_PRINT);
	}
	ev->ts_ns = h->ts_ns;
	ev->cpu = h->cpu;
	ev->pid = h->pid;
	ev->src_pos = p->line_no;
	if (ingest_kind_is_probe(ev->kind)) {
		if (!text_parse_probe(h->body, h->body_len, &p->probe))
			return bad_line(in, "malformed decision probe fields") < 0 ? -SR_EBADTEXT : 0;
		ev->str = (const char *)&p->probe;
		ev->str_len = sizeof(p->probe);
	} else if (!text_parse_body(ev, h->body, h->body_len, &why)) {
		memset(&ev->u, 0, sizeof(ev->u));
		return bad_line(in, why) < 0 ? -SR_EBADTEXT : 0;
	}
	if (ev->kind == SR_EV_PRINT) {
		ev->marker = marker_classify(ev->str, ev->str_len);
		if (ev->marker == SR_MARK_NUMA_SAMPLE &&
		    marker_parse_sample(ev->str, ev->str_len, &p->sample) < 0) {
			ev->marker = SR_MARK_NONE;
			in->info.bad_markers++;
		}
	}
	return 1;
}

static int text_next(struct ingest *in, struct sr_event *ev)
{
	struct text_priv *p = in->priv;
	struct text_head h;
	long cpu;
	int64_t count;
	int ret;

	if (p->next_pending < p->nr_pending) {
		emit_lost(&p->pending[p->next_pending++], p->queued.ts_ns, ev);
		return 1;
	}
	p->nr_pending = p->next_pending = 0;
	if (p->have_queued) {
		p->have_queued = false;
		*ev = p->queued;
		return 1;
	}
	for (;;) {
		if (p->long_pending) {
			p->long_pending = false;
			ret = TEXT_LONG;
		} else {
			ret = read_line(p);
		}
		if (ret < 0)
			return err_set(&in->err, ret, "cannot read: %s", strerror(-ret));
		if (ret == TEXT_EOF)
			break;
		if (ret == TEXT_LONG) {
			ret = bad_line(in, "line longer than 65535 bytes");
			if (ret < 0)
				return ret;
			continue;
		}
		if (memchr(p->line, '\0', p->line_len)) {
			ret = bad_line(in, "NUL byte in a text line");
			if (ret < 0)
				return ret;
			continue;
		}
		ret = header_line(in, p->line, p->line_len, p->line_no);
		if (ret < 0)
			return ret;
		if (ret) {
			in->info.skipped_lines++;
			continue;
		}
		if (lost_line(p->line, p->line_len, &cpu, &count) ||
		    (in->info.format == INGEST_FMT_PERF &&
		     perf_lost_line(p->line, p->line_len, &cpu, &count))) {
			struct text_lost l = { .cpu = (int)cpu, .count = count, .line = p->line_no };

			ret = ingest_note_cpu(in, l.cpu, p->line_no);
			if (ret < 0)
				return ret;
			if (p->have_ts) {
				emit_lost(&l, p->last_ts, ev);
				return 1;
			}
			if (p->nr_pending == TEXT_MAX_PENDING) {
				ret = bad_line(in, "too many lost-event lines before the first event");
				if (ret < 0)
					return ret;
				continue;
			}
			p->pending[p->nr_pending++] = l;
			continue;
		}
		if (!text_parse_head(p->line, p->line_len, &h)) {
			ret = bad_line(in, "not an event line");
			if (ret < 0)
				return ret;
			continue;
		}
		memset(ev, 0, sizeof(*ev));
		ret = event_line(in, &h, ev);
		if (ret < 0)
			return ret;
		if (ret == 0)
			continue;
		p->have_ts = true;
		p->last_ts = ev->ts_ns;
		if (p->nr_pending) {
			p->queued = *ev;
			p->have_queued = true;
			emit_lost(&p->pending[p->next_pending++], ev->ts_ns, ev);
		}
		return 1;
	}
	/* lost lines and no event at all: they get time 0 */
	if (p->nr_pending > p->next_pending) {
		emit_lost(&p->pending[p->next_pending++], 0, ev);
		if (p->next_pending == p->nr_pending)
			p->nr_pending = p->next_pending = 0;
		return 1;
	}
	return 0;
}

static double text_progress(const struct ingest *in)
{
	const struct text_priv *p = in->priv;

	if (!p || !p->file_size)
		return -1.0;
	if (p->bytes_in >= p->file_size)
		return 1.0;
	return (double)p->bytes_in / (double)p->file_size;
}

static void text_close(struct ingest *in)
{
	struct text_priv *p = in->priv;
	int i;

	if (!p)
		return;
	for (i = 0; i < p->nr_names; i++)
		free(p->names[i]);
	if (p->fd >= 0)
		close(p->fd);
	free(p->buf);
	free(p);
	in->priv = NULL;
}

const struct ingest_ops ingest_text_ops = {
	.format		= INGEST_FMT_AUTO,	/* all three; in->info.format says which */
	.open		= text_open,
	.next		= text_next,
	.progress	= text_progress,
	.close		= text_close,
};

/* ---- detection ---- */

enum ingest_format ingest_detect_text(const char *head, size_t len)
{
	const char *p = head;
	const char *end = head + len;
	struct text_head h;
	char line[1024];
	int lines = 0;

	if (!head)
		return INGEST_FMT_AUTO;
	while (p < end && lines++ < 64) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n;

		if (!nl)
			break;			/* only whole lines */
		n = nl - p;
		if (memchr(p, '\0', n))
			return INGEST_FMT_AUTO;
		if (n < sizeof(line)) {
			memcpy(line, p, n);
			line[n] = '\0';
			if (starts(line, n, "# tracer:"))
				return INGEST_FMT_TRACEFS;
			if ((starts(line, n, "cpus=") && n > 5 && line[5] >= '0' && line[5] <= '9') ||
			    starts(line, n, "version = "))
				return INGEST_FMT_REPORT;
			if (text_parse_head(line, n, &h)) {
				if (h.has_flags)
					return INGEST_FMT_TRACEFS;
				if (h.system_len || h.sep == ' ')
					return INGEST_FMT_PERF;
				return INGEST_FMT_REPORT;
			}
		}
		p = nl + 1;
	}
	return INGEST_FMT_AUTO;
}
