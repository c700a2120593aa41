// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * text-body.c - the body of one text event line ("prev_comm=sh prev_pid=..."
 * or trace-cmd's "sh:242 [120] S ==> swapper/0:0 [120]") into the
 * kind-specific fields of struct sr_event.
 *
 * Comms are untrusted bytes that may hold spaces, '=', ':' and '['.  Fields
 * after a comm are found by the key that must follow it (kernel format) or
 * from the right-hand end (trace-cmd plugin format), never by splitting on
 * spaces.  A comm is at most TEXT_MAX_COMM bytes long in the text, which
 * also bounds the backtracking of the kernel-format parser.
 */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "marker.h"
#include "text-local.h"
#include "util/digits.h"

/* A comm longer than this in a text line is not one the kernel wrote. */
#define TEXT_MAX_COMM 64

/* TASK_REPORT_MAX: the "preempted" bit sched_switch adds ("R+"). */
#define TEXT_STATE_PREEMPT 0x100L

/* Letters of the kernel's sched_switch print format, bit i = letter i. */
static const char kernel_states[] = "SDTtXZPI";
/* trace-cmd's sched_switch plugin table (an older kernel's order). */
static const char plugin_states[] = "SDTtZXxW";

static bool parse_long(const char *s, size_t len, long lo, long hi, long *out)
{
	unsigned long v = 0;
	bool neg = false;
	size_t i = 0;
	long r;

	if (len && s[0] == '-') {
		neg = true;
		i = 1;
	}
	if (i == len || len - i > 18)
		return false;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	r = neg ? -(long)v : (long)v;
	if (r < lo || r > hi)
		return false;
	*out = r;
	return true;
}

static bool parse_int(const char *s, size_t len, int *out)
{
	long v;

	if (!parse_long(s, len, INT_MIN, INT_MAX, &v))
		return false;
	*out = (int)v;
	return true;
}

static bool parse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (v > (UINT64_MAX - (s[i] - '0')) / 10)
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

/*
 * A prev_state value: a number (raw), or letters joined by '|' from
 * @table, "R" for none, with '+' for preempted.  Letters we do not know
 * give -1 (unknown), which is not an error.
 */
static bool parse_state(const char *s, size_t len, const char *table, long *out)
{
	long v = 0;
	size_t i;

	if (!len)
		return false;
	if ((s[0] >= '0' && s[0] <= '9') || s[0] == '-')
		return parse_long(s, len, LONG_MIN / 2, LONG_MAX / 2, out);
	for (i = 0; i < len; i++) {
		const char *c;

		if (s[i] == '|')
			continue;
		if (s[i] == '+') {
			v |= TEXT_STATE_PREEMPT;
			continue;
		}
		if (s[i] == 'R' && (i + 1 == len || s[i + 1] == '+'))
			continue;
		c = memchr(table, s[i], strlen(table));
		if (!c) {
			*out = -1;
			return true;
		}
		v |= 1L << (c - table);
	}
	*out = v;
	return true;
}

static void copy_comm(char *dst, const char *s, size_t len)
{
	if (len >= SR_COMM_LEN)
		len = SR_COMM_LEN - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/* ---- kernel print format and trace-cmd raw fields: key=value in order ---- */

enum kv_type {
	KV_INT,		/* int */
	KV_STATE,	/* long, see parse_state() */
	KV_COMM,	/* char[SR_COMM_LEN]; may hold spaces */
	KV_STR,		/* ev->str; may hold spaces */
};

struct kv_field {
	const char	*key;
	const char	*alt;		/* another spelling, or NULL */
	enum kv_type	type;
	bool		optional;
	size_t		off;		/* into struct sr_event */
};

#define EVOFF(m) offsetof(struct sr_event, m)

static size_t key_match(const char *p, const char *end, const char *key)
{
	size_t k;

	if (!key)
		return 0;
	k = strlen(key);
	if ((size_t)(end - p) <= k || memcmp(p, key, k) || p[k] != '=')
		return 0;
	return k + 1;
}

static bool kv_store(struct sr_event *ev, const struct kv_field *f, const char *v, size_t vlen)
{
	char *dst = (char *)ev + f->off;
	long l;

	switch (f->type) {
	case KV_INT:
		return parse_int(v, vlen, (int *)dst);
	case KV_STATE:
		if (!parse_state(v, vlen, kernel_states, &l))
			return false;
		*(long *)dst = l;
		return true;
	case KV_COMM:
		if (vlen > TEXT_MAX_COMM)
			return false;
		copy_comm(dst, v, vlen);
		return true;
	case KV_STR:
		ev->str = v;
		ev->str_len = (uint32_t)vlen;
		return true;
	}
	return false;
}

/*
 * Match @f[0..n) against the text at @p.  A comm or string value ends at
 * the first space after which the rest matches; extra fields after the
 * last one we know are ignored (newer kernels append fields).
 */
static bool kv_seq(struct sr_event *ev, const char *p, const char *end,
		   const struct kv_field *f, int n)
{
	const char *v;
	const char *q;
	size_t k;

	if (n == 0)
		return true;
	while (p < end && *p == ' ')
		p++;
	if (end - p >= 4 && !memcmp(p, "==> ", 4)) {
		p += 4;
		while (p < end && *p == ' ')
			p++;
	}
	k = key_match(p, end, f->key);
	if (!k)
		k = key_match(p, end, f->alt);
	if (!k)
		return f->optional && kv_seq(ev, p, end, f + 1, n - 1);
	v = p + k;
	if (f->type == KV_INT || f->type == KV_STATE) {
		q = v;
		while (q < end && *q != ' ')
			q++;
		return kv_store(ev, f, v, q - v) && kv_seq(ev, q, end, f + 1, n - 1);
	}
	if (n == 1)
		return kv_store(ev, f, v, end - v);
	for (q = v; q < end; q++) {
		if (*q != ' ')
			continue;
		if (f->type == KV_COMM && q - v > TEXT_MAX_COMM)
			return false;
		if (kv_seq(ev, q, end, f + 1, n - 1))
			return kv_store(ev, f, v, q - v);
	}
	return false;
}

#define KV(k, a, t, o, m) { .key = k, .alt = a, .type = t, .optional = o, .off = EVOFF(m) }

static const struct kv_field kv_switch[] = {
	KV("prev_comm",	NULL, KV_COMM,	false, u.sw.prev_comm),
	KV("prev_pid",	NULL, KV_INT,	false, u.sw.prev_pid),
	KV("prev_prio",	NULL, KV_INT,	false, u.sw.prev_prio),
	KV("prev_state", NULL, KV_STATE, false, u.sw.prev_state),
	KV("next_comm",	NULL, KV_COMM,	false, u.sw.next_comm),
	KV("next_pid",	NULL, KV_INT,	false, u.sw.next_pid),
	KV("next_prio",	NULL, KV_INT,	false, u.sw.next_prio),
};

static const struct kv_field kv_wakeup[] = {
	KV("comm",	NULL, KV_COMM,	false, u.wake.comm),
	KV("pid",	NULL, KV_INT,	false, u.wake.pid),
	KV("prio",	NULL, KV_INT,	false, u.wake.prio),
	KV("success",	NULL, KV_INT,	true,  u.wake.target_cpu),	/* overwritten below */
	KV("target_cpu", NULL, KV_INT,	true,  u.wake.target_cpu),
};

static const struct kv_field kv_migrate[] = {
	KV("comm",	NULL, KV_COMM,	false, u.mig.comm),
	KV("pid",	NULL, KV_INT,	false, u.mig.pid),
	KV("prio",	NULL, KV_INT,	false, u.mig.prio),
	KV("orig_cpu",	NULL, KV_INT,	false, u.mig.orig_cpu),
	KV("dest_cpu",	NULL, KV_INT,	false, u.mig.dest_cpu),
};

static const struct kv_field kv_fork[] = {
	KV("comm",	"parent_comm", KV_COMM, false, u.fork.parent_comm),
	KV("pid",	"parent_pid", KV_INT,	false, u.fork.parent_pid),
	KV("child_comm", NULL, KV_COMM,	false, u.fork.child_comm),
	KV("child_pid",	NULL, KV_INT,	false, u.fork.child_pid),
};

static const struct kv_field kv_exec[] = {
	KV("filename",	NULL, KV_STR,	false, str),
	KV("pid",	NULL, KV_INT,	false, u.exec.pid),
	KV("old_pid",	NULL, KV_INT,	false, u.exec.old_pid),
};

static const struct kv_field kv_exit[] = {
	KV("comm",	NULL, KV_COMM,	false, u.exit.comm),
	KV("pid",	NULL, KV_INT,	false, u.exit.pid),
	KV("prio",	NULL, KV_INT,	false, u.exit.prio),
};

#define KV_RUN(ev, b, e, t) kv_seq(ev, b, e, t, (int)(sizeof(t) / sizeof(t[0])))

/* ---- trace-cmd's sched plugin: "comm:pid [prio]" anchored at the right ---- */

/* Take the last space-separated word of [s, *end) off the end. */
static bool last_word(const char *s, const char **end, const char **w, size_t *wlen)
{
	const char *e = *end;
	const char *b;

	while (e > s && e[-1] == ' ')
		e--;
	b = e;
	while (b > s && b[-1] != ' ')
		b--;
	if (b == e)
		return false;
	*w = b;
	*wlen = e - b;
	*end = b;
	return true;
}

/* "comm:pid [prio]" filling the whole of [s, end) */
static bool task_tail(const char *s, const char *end, char *comm, int *pid, int *prio)
{
	const char *w;
	const char *c;
	size_t wlen;

	if (!last_word(s, &end, &w, &wlen) || wlen < 3 || w[0] != '[' || w[wlen - 1] != ']')
		return false;
	if (!parse_int(w + 1, wlen - 2, prio))
		return false;
	if (end == s || end[-1] != ' ')
		return false;
	end--;
	c = end;
	while (c > s && c[-1] >= '0' && c[-1] <= '9')
		c--;
	if (c == end || c == s || c[-1] != ':' || !parse_int(c, end - c, pid))
		return false;
	if ((size_t)(c - 1 - s) > TEXT_MAX_COMM)
		return false;
	copy_comm(comm, s, c - 1 - s);
	return true;
}

static bool plugin_switch(struct sr_event *ev, const char *b, const char *end)
{
	struct sr_ev_switch *sw = &ev->u.sw;
	const char *p;

	for (p = b; end - p >= 5; p++) {
		const char *le = p;
		const char *w;
		size_t wlen;

		if (memcmp(p, " ==> ", 5))
			continue;
		if (!last_word(b, &le, &w, &wlen) || !parse_state(w, wlen, plugin_states,
								  &sw->prev_state))
			continue;
		if (le == b || le[-1] != ' ')
			continue;
		if (!task_tail(b, le - 1, sw->prev_comm, &sw->prev_pid, &sw->prev_prio))
			continue;
		if (task_tail(p + 5, end, sw->next_comm, &sw->next_pid, &sw->next_prio))
			return true;
	}
	return false;
}

static bool plugin_wakeup(struct sr_event *ev, const char *b, const char *end)
{
	struct sr_ev_wakeup *wk = &ev->u.wake;
	const char *e = end;
	const char *w;
	size_t wlen;
	int dummy;

	wk->target_cpu = -1;
	if (!last_word(b, &e, &w, &wlen))
		return false;
	if (wlen > 4 && !memcmp(w, "CPU:", 4)) {
		if (!parse_int(w + 4, wlen - 4, &wk->target_cpu))
			return false;
		end = e;
		if (!last_word(b, &e, &w, &wlen))
			return false;
	}
	if (wlen > 8 && !memcmp(w, "success=", 8) && parse_int(w + 8, wlen - 8, &dummy))
		end = e;
	while (end > b && end[-1] == ' ')
		end--;
	return task_tail(b, end, wk->comm, &wk->pid, &wk->prio);
}

/* ---- fields found by key anywhere in the body (no comm in these) ---- */

static bool get_int(const char *b, size_t len, const char *key, int *out)
{
	const char *v;
	size_t vlen;

	return marker_get(b, len, key, &v, &vlen) && parse_int(v, vlen, out);
}

static bool get_u64(const char *b, size_t len, const char *key, const char *alt, uint64_t *out)
{
	const char *v;
	size_t vlen;

	if (!marker_get(b, len, key, &v, &vlen) && !marker_get(b, len, alt, &v, &vlen))
		return false;
	return parse_u64(v, vlen, out);
}

/* A symbolic value: its index in @names, or a number. */
static bool get_sym(const char *b, size_t len, const char *key, const char *const *names,
		    int nr, int *out)
{
	const char *v;
	size_t vlen;
	int i;

	if (!marker_get(b, len, key, &v, &vlen))
		return false;
	for (i = 0; i < nr; i++) {
		if (strlen(names[i]) == vlen && !memcmp(names[i], v, vlen)) {
			*out = i;
			return true;
		}
	}
	return parse_int(v, vlen, out);
}

static bool numa_fields(struct sr_event *ev, const char *b, size_t len)
{
	struct sr_ev_numa *n = &ev->u.numa;

	n->dst_pid = n->dst_tgid = n->dst_ngid = -1;
	if (ev->kind == SR_EV_MOVE_NUMA)
		return get_int(b, len, "pid", &n->src_pid) &&
		       get_int(b, len, "tgid", &n->src_tgid) &&
		       get_int(b, len, "ngid", &n->src_ngid) &&
		       get_int(b, len, "src_cpu", &n->src_cpu) &&
		       get_int(b, len, "src_nid", &n->src_nid) &&
		       get_int(b, len, "dst_cpu", &n->dst_cpu) &&
		       get_int(b, len, "dst_nid", &n->dst_nid);
	return get_int(b, len, "src_pid", &n->src_pid) &&
	       get_int(b, len, "src_tgid", &n->src_tgid) &&
	       get_int(b, len, "src_ngid", &n->src_ngid) &&
	       get_int(b, len, "src_cpu", &n->src_cpu) &&
	       get_int(b, len, "src_nid", &n->src_nid) &&
	       get_int(b, len, "dst_pid", &n->dst_pid) &&
	       get_int(b, len, "dst_tgid", &n->dst_tgid) &&
	       get_int(b, len, "dst_ngid", &n->dst_ngid) &&
	       get_int(b, len, "dst_cpu", &n->dst_cpu) &&
	       get_int(b, len, "dst_nid", &n->dst_nid);
}

/* include/linux/migrate_mode.h and the MR_* list of 6.1 */
static const char *const migrate_modes[] = {
	"MIGRATE_ASYNC", "MIGRATE_SYNC_LIGHT", "MIGRATE_SYNC", "MIGRATE_SYNC_NO_COPY",
};
static const char *const migrate_reasons[] = {
	"compaction", "memory_failure", "memory_hotplug", "syscall_or_cpuset",
	"mempolicy_mbind", "numa_misplaced", "contig_range", "longterm_pin", "demotion",
};
#define MR_NUMA_MISPLACED 5

static bool pages_fields(struct sr_event *ev, const char *b, size_t len)
{
	struct sr_ev_migrate_pages *m = &ev->u.pages;

	if (!get_u64(b, len, "nr_succeeded", "succeeded", &m->succeeded) ||
	    !get_u64(b, len, "nr_failed", "failed", &m->failed))
		return false;
	if (!get_u64(b, len, "nr_thp_succeeded", "thp_succeeded", &m->thp_succeeded))
		m->thp_succeeded = 0;
	if (!get_u64(b, len, "nr_thp_failed", "thp_failed", &m->thp_failed))
		m->thp_failed = 0;
	if (!get_u64(b, len, "nr_thp_split", "thp_split", &m->thp_split))
		m->thp_split = 0;
	if (!get_sym(b, len, "mode", migrate_modes, 4, &m->mode))
		m->mode = -1;
	if (!get_sym(b, len, "reason", migrate_reasons, 9, &m->reason))
		m->reason = -1;
	m->numa_misplaced = m->reason == MR_NUMA_MISPLACED;
	return true;
}

static bool fault_fields(struct sr_event *ev, const char *b, size_t len)
{
	struct sr_ev_numa_fault *f = &ev->u.fault;

	return get_int(b, len, "last_cpupid", &f->last_cpupid) &&
	       get_int(b, len, "mem_node", &f->mem_node) &&
	       get_int(b, len, "pages", &f->pages) &&
	       get_int(b, len, "flags", &f->flags);
}

/* a probe value: decimal (signed) or 0x-hex, as the kprobe print format writes them */
static bool parse_probe_value(const char *v, size_t vlen, int64_t *out)
{
	uint64_t x = 0;
	size_t i;
	int d;

	if (vlen > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		if (vlen > 18)
			return false;
		for (i = 2; i < vlen; i++) {
			d = util_hex_digit(v[i]);
			if (d < 0)
				return false;
			x = x << 4 | (uint64_t)d;
		}
		*out = (int64_t)x;
		return true;
	}
	if (vlen > 1 && v[0] == '-') {
		if (!parse_u64(v + 1, vlen - 1, &x) || x > (uint64_t)INT64_MAX + 1)
			return false;
		*out = (int64_t)(0 - x);
		return true;
	}
	if (!parse_u64(v, vlen, &x))
		return false;
	*out = (int64_t)x;
	return true;
}

bool text_parse_probe(const char *b, size_t len, struct sr_ev_probe *out)
{
	const char *v;
	size_t vlen;
	int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < SR_PF__COUNT; i++) {
		if (!marker_get(b, len, ingest_probe_field_name(i), &v, &vlen))
			continue;
		if (!parse_probe_value(v, vlen, &out->v[i]))
			return false;
		sr_probe_set(out, i);
	}
	return true;
}

static bool has_key(const char *b, size_t len, const char *key)
{
	const char *v;
	size_t vlen;

	return marker_get(b, len, key, &v, &vlen);
}

static bool has_fault_fields(const char *b, size_t len)
{
	return has_key(b, len, "last_cpupid") && has_key(b, len, "mem_node") &&
	       has_key(b, len, "pages") && has_key(b, len, "flags");
}

/*
 * The text of a print event: "tracing_mark_write: text" (report, and the
 * tracefs line whose name already was tracing_mark_write), "ip=... buf=text"
 * (report -R), or "<symbol or (nil)>: text".
 */
static void print_text(struct sr_event *ev, const char *b, size_t len)
{
	static const char tmw[] = "tracing_mark_write: ";
	const char *p;
	size_t i;

	if (len >= sizeof(tmw) - 1 && !memcmp(b, tmw, sizeof(tmw) - 1)) {
		b += sizeof(tmw) - 1;
		len -= sizeof(tmw) - 1;
	} else if (len > 3 && !memcmp(b, "ip=", 3) && (p = memmem(b, len, " buf=", 5))) {
		len -= p + 5 - b;
		b = p + 5;
	} else {
		for (i = 0; i + 1 < len && b[i] != ' '; i++) {
			if (b[i] == ':' && b[i + 1] == ' ') {
				b += i + 2;
				len -= i + 2;
				break;
			}
		}
	}
	ev->str = b;
	ev->str_len = (uint32_t)len;
}

bool text_parse_body(struct sr_event *ev, const char *body, size_t len, const char **why)
{
	const char *end = body + len;
	bool kv;
	bool ok = true;

	*why = "malformed fields";
	kv = (len >= 5 && !memcmp(body, "comm=", 5)) || (len >= 10 && !memcmp(body, "prev_comm=", 10));
	switch (ev->kind) {
	case SR_EV_SWITCH:
		ok = kv ? KV_RUN(ev, body, end, kv_switch) : plugin_switch(ev, body, end);
		*why = "malformed sched_switch fields";
		break;
	case SR_EV_WAKING:
	case SR_EV_WAKEUP:
	case SR_EV_WAKEUP_NEW:
		ev->u.wake.target_cpu = -1;
		if (kv) {
			ok = KV_RUN(ev, body, end, kv_wakeup);
			/* "success" (old kernels) shares the slot: drop it */
			if (ok && !has_key(body, len, "target_cpu"))
				ev->u.wake.target_cpu = -1;
		} else {
			ok = plugin_wakeup(ev, body, end);
		}
		*why = "malformed wakeup fields";
		/* -1 is "not in the line"; the kernel never prints a negative cpu */
		if (ok && ev->u.wake.target_cpu < -1) {
			ok = false;
			*why = "negative target_cpu in a wakeup";
		} else if (ok && ev->u.wake.target_cpu == -1 &&
			   (has_key(body, len, "target_cpu") || memmem(body, len, "CPU:-", 5))) {
			ok = false;
			*why = "negative target_cpu in a wakeup";
		}
		break;
	case SR_EV_MIGRATE:
		ok = KV_RUN(ev, body, end, kv_migrate);
		*why = "malformed sched_migrate_task fields";
		if (ok && (ev->u.mig.orig_cpu < 0 || ev->u.mig.dest_cpu < 0)) {
			ok = false;
			*why = "negative cpu number in sched_migrate_task";
		}
		break;
	case SR_EV_MOVE_NUMA:
	case SR_EV_SWAP_NUMA:
	case SR_EV_STICK_NUMA:
		ok = numa_fields(ev, body, len);
		*why = "malformed numa placement fields";
		break;
	case SR_EV_FORK:
		ok = KV_RUN(ev, body, end, kv_fork);
		*why = "malformed sched_process_fork fields";
		break;
	case SR_EV_EXEC:
		ok = KV_RUN(ev, body, end, kv_exec);
		*why = "malformed sched_process_exec fields";
		break;
	case SR_EV_EXIT:
		ok = KV_RUN(ev, body, end, kv_exit);
		*why = "malformed sched_process_exit fields";
		break;
	case SR_EV_MIGRATE_PAGES:
		ok = pages_fields(ev, body, len);
		*why = "malformed mm_migrate_pages fields";
		break;
	case SR_EV_PRINT:
		print_text(ev, body, len);
		break;
	case SR_EV_NUMA_FAULT:
		ok = fault_fields(ev, body, len);
		*why = "malformed numa fault fields";
		break;
	case SR_EV_OTHER:
		if (has_fault_fields(body, len)) {
			ev->kind = SR_EV_NUMA_FAULT;
			ok = fault_fields(ev, body, len);
			*why = "malformed numa fault fields";
		}
		break;
	default:
		break;
	}
	return ok;
}
