// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dat.c - the trace.dat decoder: trace-cmd files, versions 6 and 7,
 * compressed or not, read with libtracecmd and libtraceevent and turned
 * into struct sr_event.
 *
 * Reading: every buffer (the top one and each instance) that has data is
 * opened as its own libtracecmd handle; each (buffer, CPU) pair is one
 * stream holding one look-ahead record from tracecmd_read_data(), and a
 * binary heap keyed by (timestamp, buffer, CPU) merges the streams into one
 * time-ordered sequence -- the same order `trace-cmd report` prints.
 *
 * Decoding: an event id is looked up once (struct dat_evinfo: kind, name,
 * and offset/size/signedness of each field the kind needs); records are
 * then decoded by reading those offsets, each read bounded by the record's
 * size.  Nothing is allocated per record by this file (libtracecmd itself
 * mallocs each struct tep_record).
 *
 * Invariants: the record behind the last event returned (ev->str points
 * into it or into strbuf) is freed at the next call; a record that carries
 * a missed-events count is returned twice: first as an SR_EV_LOST event,
 * then as itself.
 *
 * libtracecmd prints warnings on stderr by default; the library must not
 * print, so dat_open() sets its log level (and libtraceevent's) to none.
 * That setting is process-wide, which is the only way these libraries
 * offer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>

#include "dat-local.h"
#include "ingest-local.h"
#include "marker.h"

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

#define DAT_MAX_FIELDS	10
#define DAT_MAX_EVENT_ID 65535		/* common_type is a 16-bit field */
#define DAT_COMMON_SIZE	8		/* type, flags, preempt count, pid */

/* where one field sits in an event's payload */
struct dat_field {
	unsigned int	offset;
	unsigned int	size;
	unsigned long	flags;		/* TEP_FIELD_IS_* */
	bool		present;
};

/* one event type, resolved once */
struct dat_evinfo {
	enum sr_event_kind	kind;
	bool			unknown;	/* id not in the file's formats */
	const char		*name;
	const char		*system;
	int			numa_misplaced;	/* mm_migrate_pages: MR_NUMA_MISPLACED */
	struct dat_field	f[DAT_MAX_FIELDS];
};

/*
 * Field names each kind reads, in the order dat_decode() uses them;
 * "a|b" takes the first that exists (sched_move_numa names its task
 * fields pid/tgid/ngid, swap/stick use src_pid/...).
 */
static const char *const kind_fields[SR_EV__COUNT][DAT_MAX_FIELDS] = {
	[SR_EV_SWITCH]	= { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm",
			    "next_pid", "next_prio" },
	[SR_EV_WAKING]	= { "comm", "pid", "prio", "target_cpu" },
	[SR_EV_WAKEUP]	= { "comm", "pid", "prio", "target_cpu" },
	[SR_EV_WAKEUP_NEW] = { "comm", "pid", "prio", "target_cpu" },
	[SR_EV_MIGRATE]	= { "comm", "pid", "prio", "orig_cpu", "dest_cpu" },
	[SR_EV_MOVE_NUMA] = { "src_pid|pid", "src_tgid|tgid", "src_ngid|ngid", "src_cpu",
			      "src_nid", "dst_pid", "dst_tgid", "dst_ngid", "dst_cpu", "dst_nid" },
	[SR_EV_SWAP_NUMA] = { "src_pid|pid", "src_tgid|tgid", "src_ngid|ngid", "src_cpu",
			      "src_nid", "dst_pid", "dst_tgid", "dst_ngid", "dst_cpu", "dst_nid" },
	[SR_EV_STICK_NUMA] = { "src_pid|pid", "src_tgid|tgid", "src_ngid|ngid", "src_cpu",
			       "src_nid", "dst_pid", "dst_tgid", "dst_ngid", "dst_cpu", "dst_nid" },
	[SR_EV_FORK]	= { "parent_comm", "parent_pid", "child_comm", "child_pid" },
	[SR_EV_EXEC]	= { "filename", "pid", "old_pid" },
	[SR_EV_EXIT]	= { "comm", "pid", "prio" },
	[SR_EV_MIGRATE_PAGES] = { "succeeded", "failed", "thp_succeeded", "thp_failed",
				  "thp_split", "mode", "reason" },
	[SR_EV_NUMA_FAULT] = { "last_cpupid", "mem_node", "pages", "flags" },
	[SR_EV_PRINT]	= { "buf" },
};

/* MR_NUMA_MISPLACED in include/linux/migrate_mode.h of Linux 6.1 */
#define DAT_MR_NUMA_MISPLACED_6_1 5

struct dat_buf {
	struct tracecmd_input	*h;		/* owned */
	struct tep_handle	*tep;		/* borrowed from @h */
	const char		*name;		/* "" for the top buffer; borrowed */
	int			nr_cpus;
	struct dat_evinfo	**ev;		/* by event id, filled lazily */
	int			ev_cap;
};

struct dat_stream {
	struct tep_record	*rec;		/* look-ahead, owned */
	int			buf;		/* index in dat.bufs */
	int			cpu;		/* libtracecmd's CPU index */
	uint64_t		start;		/* first page offset */
	uint64_t		size;		/* bytes of CPU data */
	uint64_t		done;		/* bytes behind the look-ahead */
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
	int			cur_buf;
	struct tep_record	*pending;	/* returned after its lost marker */
	int			pending_buf;
	uint64_t		total;		/* sum of stream sizes */
	uint64_t		done;		/* sum of stream progress */
	uint64_t		real_size;	/* records at or past this are padding */
	char			*strbuf;
	size_t			strcap;
};

/* ---- event info -------------------------------------------------------- */

static void resolve_fields(struct tep_event *event, struct dat_evinfo *ei)
{
	const char *const *names = kind_fields[ei->kind];
	struct tep_format_field *tf;
	char name[64];
	const char *alt;
	int i;

	for (i = 0; i < DAT_MAX_FIELDS && names[i]; i++) {
		const char *s = names[i];

		tf = NULL;
		while (s && !tf) {
			alt = strchr(s, '|');
			snprintf(name, sizeof(name), "%.*s", alt ? (int)(alt - s) : (int)strlen(s), s);
			tf = tep_find_field(event, name);
			s = alt ? alt + 1 : NULL;
		}
		if (!tf || tf->offset < 0 || tf->size < 0)
			continue;
		ei->f[i].offset = tf->offset;
		ei->f[i].size = tf->size;
		ei->f[i].flags = tf->flags;
		ei->f[i].present = true;
	}
}

/*
 * MR_NUMA_MISPLACED's value: the event's print fmt maps reason values to
 * names with __print_symbolic(REC->reason, {5, "numa_misplaced"}, ...)
 * (the kernel resolves the enum through TRACE_DEFINE_ENUM), so take the
 * value paired with "numa_misplaced" there; when the format does not say,
 * use Linux 6.1's value.
 */
static int find_numa_misplaced(struct tep_event *event)
{
	struct tep_print_arg *arg;
	struct tep_print_flag_sym *sym;
	char *end;
	long v;

	for (arg = event->print_fmt.args; arg; arg = arg->next) {
		if (arg->type != TEP_PRINT_SYMBOL || !arg->symbol.field ||
		    arg->symbol.field->type != TEP_PRINT_FIELD ||
		    !arg->symbol.field->field.name ||
		    strcmp(arg->symbol.field->field.name, "reason"))
			continue;
		for (sym = arg->symbol.symbols; sym; sym = sym->next) {
			if (!sym->str || !sym->value || strcmp(sym->str, "numa_misplaced"))
				continue;
			v = strtol(sym->value, &end, 0);
			if (end != sym->value && !*end)
				return (int)v;
		}
	}
	return DAT_MR_NUMA_MISPLACED_6_1;
}

static bool is_numa_fault(struct tep_event *event)
{
	return tep_find_field(event, "last_cpupid") && tep_find_field(event, "mem_node") &&
	       tep_find_field(event, "pages") && tep_find_field(event, "flags");
}

static struct dat_evinfo *evinfo_get(struct dat_buf *b, int id)
{
	struct dat_evinfo **ev;
	struct dat_evinfo *ei;
	struct tep_event *event;
	int cap;

	if (id < 0 || id > DAT_MAX_EVENT_ID)
		return NULL;
	if (id < b->ev_cap && b->ev[id])
		return b->ev[id];
	if (id >= b->ev_cap) {
		cap = b->ev_cap ? b->ev_cap : 64;
		while (cap <= id)
			cap *= 2;
		ev = realloc(b->ev, cap * sizeof(*ev));
		if (!ev)
			return NULL;
		memset(ev + b->ev_cap, 0, (cap - b->ev_cap) * sizeof(*ev));
		b->ev = ev;
		b->ev_cap = cap;
	}
	ei = calloc(1, sizeof(*ei));
	if (!ei)
		return NULL;
	event = tep_find_event(b->tep, id);
	if (!event) {
		ei->unknown = true;
		ei->name = "";
		ei->system = "";
	} else {
		ei->name = event->name ? event->name : "";
		ei->system = event->system ? event->system : "";
		ei->kind = sr_event_kind_from_name(ei->name);
		if (ei->kind == SR_EV_PRINT && strcmp(ei->system, "ftrace"))
			ei->kind = SR_EV_OTHER;
		if (ei->kind == SR_EV_OTHER && is_numa_fault(event))
			ei->kind = SR_EV_NUMA_FAULT;
		if (ei->kind == SR_EV_MIGRATE_PAGES)
			ei->numa_misplaced = find_numa_misplaced(event);
		resolve_fields(event, ei);
	}
	b->ev[id] = ei;
	return ei;
}

/* ---- field readers (bounded by the record size) ------------------------- */

struct dat_rec {
	const unsigned char	*data;
	unsigned int		size;
	struct tep_handle	*tep;
	bool			bad;	/* a field lay outside the record */
};

static int64_t rd_int(struct dat_rec *r, const struct dat_field *f)
{
	uint64_t v;
	unsigned int sz = f->size;

	if (!f->present || (sz != 1 && sz != 2 && sz != 4 && sz != 8))
		return -1;
	if (f->offset + sz > r->size) {
		r->bad = true;
		return -1;
	}
	v = tep_read_number(r->tep, r->data + f->offset, sz);
	if ((f->flags & TEP_FIELD_IS_SIGNED) && sz < 8) {
		uint64_t sign = 1ull << (sz * 8 - 1);

		v &= (sign << 1) - 1;
		return (int64_t)(v ^ sign) - (int64_t)sign;
	}
	return (int64_t)v;
}

/* counters: unsigned, and all ones when the field is missing */
static uint64_t rd_u64(struct dat_rec *r, const struct dat_field *f)
{
	return (uint64_t)rd_int(r, f);
}

static void rd_comm(struct dat_rec *r, const struct dat_field *f, char *out)
{
	unsigned int n;

	out[0] = '\0';
	if (!f->present)
		return;
	if (f->offset + f->size > r->size) {
		r->bad = true;
		return;
	}
	n = f->size < SR_COMM_LEN - 1 ? f->size : SR_COMM_LEN - 1;
	memcpy(out, r->data + f->offset, n);
	out[n] = '\0';
}

/* a string field: __data_loc, __rel_loc, or a trailing char[] */
static const char *rd_str(struct dat_rec *r, const struct dat_field *f, uint32_t *len)
{
	unsigned int off;
	unsigned int n;
	const char *s;

	*len = 0;
	if (!f->present)
		return NULL;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint64_t loc;

		if (f->offset + 4 > r->size) {
			r->bad = true;
			return NULL;
		}
		loc = tep_read_number(r->tep, r->data + f->offset, 4);
		off = loc & 0xffff;
		n = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	} else {
		off = f->offset;
		n = f->size ? f->size : (r->size > off ? r->size - off : 0);
	}
	if (off > r->size || n > r->size - off) {
		r->bad = true;
		return NULL;
	}
	s = (const char *)r->data + off;
	n = strnlen(s, n);
	*len = n;
	return s;
}

/* copy into the handle's string buffer: NUL-terminated, valid until next */
static const char *keep_str(struct dat *d, const char *s, uint32_t len)
{
	char *p;

	if (!s)
		return NULL;
	if (len + 1 > d->strcap) {
		size_t cap = d->strcap ? d->strcap : 256;

		while (cap < len + 1)
			cap *= 2;
		p = realloc(d->strbuf, cap);
		if (!p)
			return NULL;
		d->strbuf = p;
		d->strcap = cap;
	}
	memcpy(d->strbuf, s, len);
	d->strbuf[len] = '\0';
	return d->strbuf;
}

/* ---- decoding one record ------------------------------------------------ */

static void dat_fill(struct dat *d, const struct dat_evinfo *ei, struct dat_rec *r,
		     struct sr_event *ev)
{
	const struct dat_field *f = ei->f;
	const char *s;
	uint32_t n;

	switch (ei->kind) {
	case SR_EV_SWITCH:
		rd_comm(r, &f[0], ev->u.sw.prev_comm);
		ev->u.sw.prev_pid = rd_int(r, &f[1]);
		ev->u.sw.prev_prio = rd_int(r, &f[2]);
		ev->u.sw.prev_state = rd_int(r, &f[3]);
		rd_comm(r, &f[4], ev->u.sw.next_comm);
		ev->u.sw.next_pid = rd_int(r, &f[5]);
		ev->u.sw.next_prio = rd_int(r, &f[6]);
		break;
	case SR_EV_WAKING:
	case SR_EV_WAKEUP:
	case SR_EV_WAKEUP_NEW:
		rd_comm(r, &f[0], ev->u.wake.comm);
		ev->u.wake.pid = rd_int(r, &f[1]);
		ev->u.wake.prio = rd_int(r, &f[2]);
		ev->u.wake.target_cpu = rd_int(r, &f[3]);
		break;
	case SR_EV_MIGRATE:
		rd_comm(r, &f[0], ev->u.mig.comm);
		ev->u.mig.pid = rd_int(r, &f[1]);
		ev->u.mig.prio = rd_int(r, &f[2]);
		ev->u.mig.orig_cpu = rd_int(r, &f[3]);
		ev->u.mig.dest_cpu = rd_int(r, &f[4]);
		break;
	case SR_EV_MOVE_NUMA:
	case SR_EV_SWAP_NUMA:
	case SR_EV_STICK_NUMA:
		ev->u.numa.src_pid = rd_int(r, &f[0]);
		ev->u.numa.src_tgid = rd_int(r, &f[1]);
		ev->u.numa.src_ngid = rd_int(r, &f[2]);
		ev->u.numa.src_cpu = rd_int(r, &f[3]);
		ev->u.numa.src_nid = rd_int(r, &f[4]);
		ev->u.numa.dst_pid = rd_int(r, &f[5]);
		ev->u.numa.dst_tgid = rd_int(r, &f[6]);
		ev->u.numa.dst_ngid = rd_int(r, &f[7]);
		ev->u.numa.dst_cpu = rd_int(r, &f[8]);
		ev->u.numa.dst_nid = rd_int(r, &f[9]);
		break;
	case SR_EV_FORK:
		rd_comm(r, &f[0], ev->u.fork.parent_comm);
		ev->u.fork.parent_pid = rd_int(r, &f[1]);
		rd_comm(r, &f[2], ev->u.fork.child_comm);
		ev->u.fork.child_pid = rd_int(r, &f[3]);
		break;
	case SR_EV_EXEC:
		s = rd_str(r, &f[0], &n);
		ev->str = keep_str(d, s, n);
		ev->str_len = ev->str ? n : 0;
		ev->u.exec.pid = rd_int(r, &f[1]);
		ev->u.exec.old_pid = rd_int(r, &f[2]);
		break;
	case SR_EV_EXIT:
		rd_comm(r, &f[0], ev->u.exit.comm);
		ev->u.exit.pid = rd_int(r, &f[1]);
		ev->u.exit.prio = rd_int(r, &f[2]);
		break;
	case SR_EV_MIGRATE_PAGES:
		ev->u.pages.succeeded = rd_u64(r, &f[0]);
		ev->u.pages.failed = rd_u64(r, &f[1]);
		ev->u.pages.thp_succeeded = rd_u64(r, &f[2]);
		ev->u.pages.thp_failed = rd_u64(r, &f[3]);
		ev->u.pages.thp_split = rd_u64(r, &f[4]);
		ev->u.pages.mode = rd_int(r, &f[5]);
		ev->u.pages.reason = rd_int(r, &f[6]);
		ev->u.pages.numa_misplaced = f[6].present &&
					     ev->u.pages.reason == ei->numa_misplaced;
		break;
	case SR_EV_NUMA_FAULT:
		ev->u.fault.last_cpupid = rd_int(r, &f[0]);
		ev->u.fault.mem_node = rd_int(r, &f[1]);
		ev->u.fault.pages = rd_int(r, &f[2]);
		ev->u.fault.flags = rd_int(r, &f[3]);
		break;
	case SR_EV_PRINT:
		s = rd_str(r, &f[0], &n);
		while (s && n && (s[n - 1] == '\n'))
			n--;
		ev->str = keep_str(d, s, n);
		ev->str_len = ev->str ? n : 0;
		ev->marker = ev->str ? marker_classify(ev->str, ev->str_len) : SR_MARK_NONE;
		break;
	default:
		break;
	}
}

/*
 * Decode @rec into @ev.  Return: 1 done, 0 skip the record (damage was
 * reported and may be read around), negative: stop.
 */
static int dat_decode(struct ingest *in, struct dat *d, int bi, struct tep_record *rec,
		      struct sr_event *ev)
{
	struct dat_buf *b = &d->bufs[bi];
	struct dat_rec r = { .data = rec->data, .tep = b->tep };
	struct dat_evinfo *ei;
	int id;

	if (rec->size < DAT_COMMON_SIZE || !rec->data) {
		in->info.truncated++;
		return ingest_damage(in, -SR_EBADTRACE, rec->offset,
				     "record of %d bytes is shorter than an event header", rec->size);
	}
	r.size = rec->size;
	id = tep_data_type(b->tep, rec);
	ei = evinfo_get(b, id);
	if (!ei) {
		if (id < 0 || id > DAT_MAX_EVENT_ID) {
			in->info.truncated++;
			return ingest_damage(in, -SR_EBADTRACE, rec->offset, "bad event id %d", id);
		}
		return err_set(&in->err, -ENOMEM, "out of memory");
	}
	if (ei->unknown) {
		in->info.truncated++;
		return ingest_damage(in, -SR_EBADTRACE, rec->offset,
				     "event id %d not described in the file", id);
	}
	ev->ts_ns = rec->ts;
	ev->cpu = rec->cpu;
	ev->pid = tep_data_pid(b->tep, rec);
	ev->kind = ei->kind;
	ev->name = ei->name;
	ev->system = ei->system;
	ev->src_pos = rec->offset;
	dat_fill(d, ei, &r, ev);
	if (r.bad) {
		in->info.truncated++;
		return ingest_damage(in, -SR_EBADTRACE, rec->offset,
				     "%s event of %d bytes is too short for its fields", ei->name,
				     rec->size);
	}
	return 1;
}

/* ---- stream merge ------------------------------------------------------- */

static bool stream_less(const struct dat *d, int a, int b)
{
	const struct dat_stream *x = &d->streams[a];
	const struct dat_stream *y = &d->streams[b];

	if (x->rec->ts != y->rec->ts)
		return x->rec->ts < y->rec->ts;
	if (x->buf != y->buf)
		return x->buf < y->buf;
	return x->cpu < y->cpu;
}

static void heap_down(struct dat *d, int i)
{
	int n = d->nr_heap;
	int c;
	int t;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && stream_less(d, d->heap[c + 1], d->heap[c]))
			c++;
		if (!stream_less(d, d->heap[c], d->heap[i]))
			return;
		t = d->heap[c];
		d->heap[c] = d->heap[i];
		d->heap[i] = t;
		i = c;
	}
}

/* read the next record of stream @si; account progress */
static void stream_advance(struct dat *d, int si)
{
	struct dat_stream *s = &d->streams[si];
	uint64_t done;

	s->rec = tracecmd_read_data(d->bufs[s->buf].h, s->cpu);
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
}

/* pop the earliest record; Return: NULL at the end */
static struct tep_record *heap_pop(struct dat *d, int *bi)
{
	struct dat_stream *s;
	struct tep_record *rec;
	int si;

	if (!d->nr_heap)
		return NULL;
	si = d->heap[0];
	s = &d->streams[si];
	rec = s->rec;
	*bi = s->buf;
	stream_advance(d, si);
	if (!s->rec)
		d->heap[0] = d->heap[--d->nr_heap];
	heap_down(d, 0);
	return rec;
}

static int streams_init(struct dat *d)
{
	struct dat_stream *s;
	int total = 0;
	int bi;
	int cpu;
	int i;

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
			s->rec = tracecmd_read_data(d->bufs[bi].h, cpu);
			if (!s->rec)
				continue;
			s->size = tracecmd_get_cpu_file_size(d->bufs[bi].h, cpu);
			s->start = s->rec->offset & ~(uint64_t)(tracecmd_page_size(d->bufs[bi].h) - 1);
			d->total += s->size;
			d->heap[d->nr_heap++] = d->nr_streams++;
		}
	}
	for (i = d->nr_heap / 2 - 1; i >= 0; i--)
		heap_down(d, i);
	return 0;
}

/* ---- open --------------------------------------------------------------- */

static int add_buf(struct dat *d, struct tracecmd_input *h, const char *name)
{
	struct dat_buf *b = &d->bufs[d->nr_bufs++];

	b->h = h;
	b->tep = tracecmd_get_tep(h);
	b->name = name;
	b->nr_cpus = tracecmd_cpus(h);
	if (b->nr_cpus < 0 || b->nr_cpus > INGEST_MAX_CPUS)
		b->nr_cpus = 0;
	return 0;
}

static int select_buffers(struct ingest *in, struct dat *d)
{
	const char *want = in->opts.buffer;
	int n = tracecmd_buffer_instances(d->top);
	struct tracecmd_input *h;
	const char *name;
	char list[400];
	size_t len;
	int i;

	if (n < 0)
		n = 0;
	d->bufs = calloc(n + 1, sizeof(*d->bufs));
	if (!d->bufs)
		return -ENOMEM;
	if (!want || !*want || !strcmp(want, "top")) {
		add_buf(d, d->top, "");	/* closed as d->top, not as a buffer */
		if (want)
			return 0;
	}
	for (i = 0; i < n; i++) {
		name = tracecmd_buffer_instance_name(d->top, i);
		if (!name || (want && strcmp(want, name)))
			continue;
		h = tracecmd_buffer_instance_handle(d->top, i);
		if (!h)
			return err_set(&in->err, -SR_EBADTRACE, "cannot read buffer \"%s\"", name);
		add_buf(d, h, name);
	}
	if (d->nr_bufs)
		return 0;
	len = snprintf(list, sizeof(list), "top");
	for (i = 0; i < n && len < sizeof(list); i++) {
		name = tracecmd_buffer_instance_name(d->top, i);
		len += snprintf(list + len, sizeof(list) - len, ", %s", name ? name : "?");
	}
	return err_set(&in->err, -SR_ENOTFOUND, "no buffer \"%s\" in the file (it has: %s)",
		       want, list);
}

/*
 * The second and third words of a `uname -a` line: the host name (the
 * kernel's "(none)" when nobody set one counts as unsaid) and the release.
 */
static void set_release(struct ingest *in, const char *uname)
{
	const char *p = uname;
	size_t n;
	int i;

	if (!p)
		return;
	for (i = 0; i < 2; i++) {
		p = strchr(p, ' ');
		if (!p)
			return;
		while (*p == ' ')
			p++;
		n = strcspn(p, " \n");
		if (i == 0 && n && n < sizeof(in->info.hostname) && !(n == 6 && !strncmp(p, "(none)", 6)))
			snprintf(in->info.hostname, sizeof(in->info.hostname), "%.*s", (int)n, p);
	}
	n = strcspn(p, " \n");
	snprintf(in->info.kernel_release, sizeof(in->info.kernel_release), "%.*s", (int)n, p);
}

/* "local" from "local" or from "[local] global counter" */
static void set_clock(struct ingest *in, const char *clock)
{
	const char *p;
	size_t n;

	if (!clock || !*clock)
		return;
	p = strchr(clock, '[');
	if (p) {
		p++;
		n = strcspn(p, "]");
	} else {
		p = clock;
		n = strcspn(p, " \n");
	}
	snprintf(in->info.clock, sizeof(in->info.clock), "%.*s", (int)n, p);
}

/*
 * A file cut inside its event data: hand libtracecmd a copy in which each
 * cut CPU range is shortened to end at the file's end (rounded up to a
 * page, the rest of that page zeros), so that every page it maps exists.
 * Padding up to the declared sizes instead would make it read through as
 * many zero pages as a corrupt size says.  Records in the zeros are
 * dropped in dat_next().
 * Return: a memfd, or a negative code.
 */
static int write_u64(int fd, uint64_t pos, uint64_t v, bool big_endian)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[big_endian ? 7 - i : i] = (unsigned char)(v >> (8 * i));
	return pwrite(fd, b, 8, (off_t)pos) == 8 ? 0 : -1;
}

static int padded_copy(struct ingest *in, int fd, const struct dat_layout *lay)
{
	uint64_t end = (lay->data_end + lay->page_size - 1) & ~(uint64_t)(lay->page_size - 1);
	char buf[65536];
	off_t off = 0;
	ssize_t n;
	int mfd;
	int i;

	mfd = memfd_create("schedreplay-dat", MFD_CLOEXEC);
	if (mfd < 0)
		return err_set(&in->err, -errno, "cannot make a padded copy: %s", strerror(errno));
	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		if (write(mfd, buf, n) != n)
			goto out_err;
		off += n;
	}
	for (i = 0; i < lay->nr_cut && n == 0; i++)
		if (write_u64(mfd, lay->cut[i].size_pos, lay->cut[i].size, lay->big_endian) < 0)
			goto out_err;
	if (n < 0 || ftruncate(mfd, (off_t)end) < 0 || lseek(mfd, 0, SEEK_SET) < 0)
		goto out_err;
	return mfd;

out_err:
	err_set(&in->err, -errno ? -errno : -EIO, "cannot make a padded copy: %s",
		strerror(errno));
	close(mfd);
	return in->err.code;
}

static int dat_open(struct ingest *in)
{
	struct dat_layout lay;
	struct dat *d;
	int max_cpus = 0;
	int fd;
	int tfd;
	int ret;
	int i;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);

	d = calloc(1, sizeof(*d));
	if (!d)
		return err_set(&in->err, -ENOMEM, "out of memory");
	in->priv = d;

	fd = open(in->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(&in->err, -errno, "cannot open: %s", strerror(errno));
	ret = dat_layout_check(fd, &lay, &in->err);
	if (ret < 0)
		goto out_close;
	in->info.file_version = lay.version;
	snprintf(in->info.compression, sizeof(in->info.compression), "%s", lay.compression);
	d->real_size = lay.file_size;
	tfd = fd;
	if (lay.nr_cut) {
		in->info.truncated += lay.nr_cut;
		ret = ingest_damage(in, -SR_ETRUNCATED, lay.first_cut,
				    "file ends inside the event data of %d cpu(s); reading what is there",
				    lay.nr_cut);
		if (ret < 0)
			goto out_close;
		if (!lay.compression[0]) {
			tfd = padded_copy(in, fd, &lay);
			if (tfd < 0) {
				ret = tfd;
				goto out_close;
			}
			close(fd);
		}
	}
	/* libtracecmd owns tfd from here (tracecmd_close() closes it) */
	d->top = tracecmd_open_fd(tfd, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!d->top)
		return err_set(&in->err, -SR_EBADTRACE,
			       "libtracecmd cannot read the file's headers or cpu data");

	set_release(in, tracecmd_get_uname(d->top));
	set_clock(in, tracecmd_get_trace_clock(d->top));
	ret = select_buffers(in, d);
	if (ret < 0)
		return ret;
	for (i = 0; i < d->nr_bufs; i++) {
		if (!in->info.clock[0])
			set_clock(in, tracecmd_get_trace_clock(d->bufs[i].h));
		if (d->bufs[i].nr_cpus > max_cpus)
			max_cpus = d->bufs[i].nr_cpus;
	}
	if (max_cpus) {
		ret = ingest_note_cpu(in, max_cpus - 1, 0);
		if (ret < 0)
			return ret;
	}
	ret = streams_init(d);
	if (ret < 0)
		return err_set(&in->err, ret, "out of memory");
	return 0;

out_close:
	close(fd);
	return ret;
}

/* ---- next, progress, close ---------------------------------------------- */

static int dat_next(struct ingest *in, struct sr_event *ev)
{
	struct dat *d = in->priv;
	struct tep_record *rec;
	int bi;
	int ret;

	if (d->cur) {
		tracecmd_free_record(d->cur);
		d->cur = NULL;
	}
	for (;;) {
		if (d->pending) {
			rec = d->pending;
			bi = d->pending_buf;
			d->pending = NULL;
		} else {
			rec = heap_pop(d, &bi);
			if (!rec)
				return 0;
			if (!in->info.compression[0] &&
			    rec->offset + rec->record_size > d->real_size) {
				/* zero padding of a cut file (already reported) */
				tracecmd_free_record(rec);
				continue;
			}
			if (rec->missed_events) {
				ev->kind = SR_EV_LOST;
				ev->name = "lost_events";
				ev->system = "";
				ev->ts_ns = rec->ts;
				ev->cpu = rec->cpu;
				ev->pid = -1;
				ev->src_pos = rec->offset;
				ev->u.lost.count = rec->missed_events > 0 ? rec->missed_events : -1;
				d->pending = rec;
				d->pending_buf = bi;
				return 1;
			}
		}
		ret = dat_decode(in, d, bi, rec, ev);
		if (ret > 0) {
			d->cur = rec;
			d->cur_buf = bi;
			return 1;
		}
		tracecmd_free_record(rec);
		if (ret < 0)
			return ret;
		memset(ev, 0, sizeof(*ev));
	}
}

static double dat_progress(const struct ingest *in)
{
	const struct dat *d = in->priv;

	if (!d || !d->total)
		return d && d->streams && !d->nr_heap ? 1.0 : -1.0;
	return (double)d->done / (double)d->total;
}

static void dat_close(struct ingest *in)
{
	struct dat *d = in->priv;
	int i;
	int e;

	if (!d)
		return;
	if (d->cur)
		tracecmd_free_record(d->cur);
	if (d->pending)
		tracecmd_free_record(d->pending);
	for (i = 0; i < d->nr_heap; i++)
		tracecmd_free_record(d->streams[d->heap[i]].rec);
	for (i = 0; i < d->nr_bufs; i++) {
		for (e = 0; e < d->bufs[i].ev_cap; e++)
			free(d->bufs[i].ev[e]);
		free(d->bufs[i].ev);
		if (d->bufs[i].h != d->top)
			tracecmd_close(d->bufs[i].h);
	}
	tracecmd_close(d->top);
	free(d->bufs);
	free(d->streams);
	free(d->heap);
	free(d->strbuf);
	free(d);
	in->priv = NULL;
}

const struct ingest_ops ingest_dat_ops = {
	.format		= INGEST_FMT_TRACE_DAT,
	.open		= dat_open,
	.next		= dat_next,
	.progress	= dat_progress,
	.close		= dat_close,
};
