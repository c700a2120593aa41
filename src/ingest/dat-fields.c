// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dat-fields.c - per-event decoding for the trace.dat decoder: each event
 * id is looked up once (struct dat_evinfo: kind, name, and the offset,
 * size and signedness of each field the kind needs); records are then
 * decoded by reading those offsets, each read bounded by the record's
 * size, into struct sr_event.  Nothing is allocated per record; strings
 * are copied into the handle's one string buffer (valid until the next
 * event).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>

#include "../util/lines.h"
#include "dat-local.h"
#include "ingest-local.h"
#include "marker.h"

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
	struct dat_field	*pf;		/* probe kinds: SR_PF__COUNT fields */
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

/* ---- event info -------------------------------------------------------- */

/* where @tf is, when the format has it (@f stays not present otherwise) */
static void field_from(struct dat_field *f, const struct tep_format_field *tf)
{
	if (!tf || tf->offset < 0 || tf->size < 0)
		return;
	f->offset = tf->offset;
	f->size = tf->size;
	f->flags = tf->flags;
	f->present = true;
}

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
		field_from(&ei->f[i], tf);
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

static void resolve_common(struct dat_buf *b);

/* a decision probe's fields, by the names of the probe table; Return: 0 or -ENOMEM */
static int resolve_probe_fields(struct tep_event *event, struct dat_evinfo *ei)
{
	struct tep_format_field *tf;
	int i;

	ei->pf = util_calloc_lines(SR_PF__COUNT, sizeof(*ei->pf));
	if (!ei->pf)
		return -ENOMEM;
	for (i = 0; i < SR_PF__COUNT; i++) {
		tf = tep_find_field(event, ingest_probe_field_name(i));
		field_from(&ei->pf[i], tf);
	}
	return 0;
}

static struct dat_evinfo *evinfo_get(struct dat_buf *b, int id)
{
	struct dat_evinfo **ev;
	const struct dat_fmt *fmt;
	struct dat_evinfo *ei;
	struct tep_event *event;
	int cap;

	static struct dat_evinfo undescribed = { .unknown = true, .name = "", .system = "" };

	if (id < 0 || id > DAT_MAX_EVENT_ID)
		return NULL;
	if (id < b->ev_cap && b->ev[id])
		return b->ev[id];
	if (b->frozen)
		return &undescribed;	/* dat_evinfo_prepare() saw every described id */
	if (id >= b->ev_cap) {
		cap = b->ev_cap ? b->ev_cap : 64;
		while (cap <= id)
			cap *= 2;
		/* apart from other memory: the reader threads read it per event */
		ev = util_calloc_lines(cap, sizeof(*ev));
		if (!ev)
			return NULL;
		if (b->ev_cap)
			memcpy(ev, b->ev, b->ev_cap * sizeof(*ev));
		free(b->ev);
		b->ev = ev;
		b->ev_cap = cap;
	}
	ei = util_calloc_lines(1, sizeof(*ei));
	if (!ei)
		return NULL;
	event = tep_find_event(b->tep, id);
	fmt = event ? NULL : dat_meta_find(b->meta, id);
	if (fmt) {
		/* not parsed (dat-meta.c): an event whose fields nothing reads */
		ei->name = fmt->name;
		ei->system = fmt->system;
		ei->kind = SR_EV_OTHER;
	} else if (!event) {
		ei->unknown = true;
		ei->name = "";
		ei->system = "";
	} else {
		ei->name = event->name ? event->name : "";
		ei->system = event->system ? event->system : "";
		ei->kind = ingest_event_kind_from_name(ei->name);
		if (ei->kind == SR_EV_PRINT && strcmp(ei->system, "ftrace"))
			ei->kind = SR_EV_OTHER;
		if (ei->kind == SR_EV_OTHER)
			ei->kind = ingest_probe_kind(ei->system, ei->name);
		if (ei->kind == SR_EV_OTHER && is_numa_fault(event))
			ei->kind = SR_EV_NUMA_FAULT;
		if (ingest_kind_is_probe(ei->kind) && resolve_probe_fields(event, ei) < 0) {
			free(ei);
			return NULL;
		}
		if (ei->kind == SR_EV_MIGRATE_PAGES)
			ei->numa_misplaced = find_numa_misplaced(event);
		resolve_fields(event, ei);
	}
	b->ev[id] = ei;
	return ei;
}

void dat_evinfo_free(struct dat_evinfo *ei)
{
	if (!ei)
		return;
	free(ei->pf);
	free(ei);
}

int dat_evinfo_prepare(struct dat_buf *b)
{
	struct tep_event **evs = tep_list_events(b->tep, TEP_EVENT_SORT_ID);
	int i;

	for (i = 0; evs && evs[i]; i++)
		if (evs[i]->id >= 0 && evs[i]->id <= DAT_MAX_EVENT_ID && !evinfo_get(b, evs[i]->id))
			return -ENOMEM;
	for (i = 0; b->meta && i < b->meta->nr_fmts; i++)
		if (b->meta->fmts[i].id <= DAT_MAX_EVENT_ID && !evinfo_get(b, b->meta->fmts[i].id))
			return -ENOMEM;
	if (!b->common_done)
		resolve_common(b);
	b->frozen = true;
	return 0;
}

bool dat_common_inline(struct dat_buf *b)
{
	if (!b->common_done)
		resolve_common(b);
	return b->type_size && b->pid_size;
}

/* ---- field readers (bounded by the record size) ------------------------- */

struct dat_rec {
	const unsigned char	*data;
	unsigned int		size;
	bool			swap;	/* the file's byte order is not the host's */
	bool			bad;	/* a field lay outside the record */
};

static inline int64_t rd_int(struct dat_rec *r, const struct dat_field *f)
{
	uint64_t v;
	unsigned int sz = f->size;

	if (!f->present || (sz != 1 && sz != 2 && sz != 4 && sz != 8))
		return -1;
	if (f->offset + sz > r->size) {
		r->bad = true;
		return -1;
	}
	v = dat_read_num(r->data + f->offset, sz, r->swap);
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

static const char *rd_str(struct dat_rec *r, const struct dat_field *f, uint32_t *len);

/*
 * A task name: char[16], or (sched_migrate_task since Linux 6.12 or so,
 * "__data_loc char[] comm") a dynamic string, cut to SR_COMM_LEN - 1.
 */
static void rd_comm(struct dat_rec *r, const struct dat_field *f, char *out)
{
	const char *s;
	uint32_t len;
	unsigned int n;

	out[0] = '\0';
	if (!f->present)
		return;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		s = rd_str(r, f, &len);
		if (!s)
			return;
		n = len < SR_COMM_LEN - 1 ? len : SR_COMM_LEN - 1;
		memcpy(out, s, n);
		out[n] = '\0';
		return;
	}
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
		loc = dat_read_num(r->data + f->offset, 4, r->swap);
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
static const char *keep_str(struct dat_strs *sb, const char *s, uint32_t len)
{
	char *p;

	if (!s)
		return NULL;
	if (len + 1 > sb->cap) {
		size_t cap = sb->cap ? sb->cap : 256;

		while (cap < len + 1)
			cap *= 2;
		p = realloc(sb->buf, cap);
		if (!p)
			return NULL;
		sb->buf = p;
		sb->cap = cap;
	}
	memcpy(sb->buf, s, len);
	sb->buf[len] = '\0';
	return sb->buf;
}

/* ---- decoding one record ------------------------------------------------ */

static void dat_fill(struct dat_strs *sb, const struct dat_evinfo *ei, struct dat_rec *r,
		     struct sr_event *ev)
{
	const struct dat_field *f = ei->f;
	struct sr_ev_probe pr;
	const char *s;
	uint32_t n;
	int i;

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
		ev->str = keep_str(sb, s, n);
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
	case SR_EV_CMT:
	case SR_EV_CMT_RET:
	case SR_EV_STRF:
	case SR_EV_STRF_RET:
	case SR_EV_TNM:
	case SR_EV_TNM_RET:
		memset(&pr, 0, sizeof(pr));
		for (i = 0; ei->pf && i < SR_PF__COUNT; i++) {
			if (!ei->pf[i].present)
				continue;
			pr.v[i] = rd_int(r, &ei->pf[i]);
			sr_probe_set(&pr, i);
		}
		ev->str = keep_str(sb, (const char *)&pr, sizeof(pr));
		ev->str_len = ev->str ? sizeof(pr) : 0;
		break;
	case SR_EV_PRINT:
		s = rd_str(r, &f[0], &n);
		while (s && n && (s[n - 1] == '\n'))
			n--;
		ev->str = keep_str(sb, s, n);
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
/*
 * Where common_type and common_pid are, from the file's first event
 * format (they are the same in all); sizes stay 0 -- libtraceevent's
 * tep_data_type() and tep_data_pid() are used -- when that fails.
 */
static void resolve_common(struct dat_buf *b)
{
	struct tep_event **evs = tep_list_events(b->tep, TEP_EVENT_SORT_ID);
	struct tep_format_field *f;

	b->common_done = true;
	b->swap = dat_swapped(tep_is_file_bigendian(b->tep));
	if (!evs || !evs[0])
		return;
	f = tep_find_common_field(evs[0], "common_type");
	if (f && (f->size == 1 || f->size == 2 || f->size == 4) &&
	    f->offset + f->size <= DAT_COMMON_SIZE) {
		b->type_off = f->offset;
		b->type_size = f->size;
	}
	f = tep_find_common_field(evs[0], "common_pid");
	if (f && f->size == 4 && f->offset + f->size <= DAT_COMMON_SIZE) {
		b->pid_off = f->offset;
		b->pid_size = f->size;
	}
}

/* fill @dmg; Return: 0 (the record is skipped) */
static int damage(struct dat_damage *dmg, uint64_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int damage(struct dat_damage *dmg, uint64_t pos, const char *fmt, ...)
{
	va_list ap;

	dmg->code = -SR_EBADTRACE;
	dmg->pos = pos;
	va_start(ap, fmt);
	vsnprintf(dmg->msg, sizeof(dmg->msg), fmt, ap);
	va_end(ap);
	return 0;
}

int dat_decode(struct dat_buf *b, struct dat_strs *sb, const struct tep_record *rec,
	       struct sr_event *ev, struct dat_damage *dmg)
{
	struct dat_rec r = { .data = rec->data };
	struct dat_evinfo *ei;
	int id;

	if (rec->size < DAT_COMMON_SIZE || !rec->data)
		return damage(dmg, rec->offset, "record of %d bytes is shorter than an event header",
			      rec->size);
	if (!b->common_done)
		resolve_common(b);
	r.size = rec->size;
	r.swap = b->swap;
	if (b->type_size)
		id = (int)dat_read_num(r.data + b->type_off, b->type_size, r.swap);
	else
		id = tep_data_type(b->tep, (struct tep_record *)rec);
	ei = evinfo_get(b, id);
	if (!ei) {
		if (id < 0 || id > DAT_MAX_EVENT_ID)
			return damage(dmg, rec->offset, "bad event id %d", id);
		return -ENOMEM;
	}
	if (ei->unknown)
		return damage(dmg, rec->offset, "event id %d not described in the file", id);
	ev->ts_ns = rec->ts;
	ev->cpu = rec->cpu;
	if (b->pid_size)
		ev->pid = (int)dat_read_num(r.data + b->pid_off, 4, r.swap);
	else
		ev->pid = tep_data_pid(b->tep, (struct tep_record *)rec);
	ev->kind = ei->kind;
	ev->name = ei->name;
	ev->system = ei->system;
	ev->src_pos = rec->offset;
	dat_fill(sb, ei, &r, ev);
	if (r.bad)
		return damage(dmg, rec->offset, "%s event of %d bytes is too short for its fields",
			      ei->name, rec->size);
	return 1;
}
