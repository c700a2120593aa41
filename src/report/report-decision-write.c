// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report-decision-write.c - a decision's object, "cost" included, written
 * straight to a stream (report-json-write.h) with no tree: the bytes
 * report_json_dumpf() writes for report_decision_json() with
 * report_cost_item_json() as its "cost".
 *
 * NDJSON and the --json spill write one such object per listed decision;
 * a pinned trace lists a million.  Building each as a Jansson tree (some 60
 * values, each hashed into its object, then sorted back out) took four
 * fifths of such a run (docs/performance.md).  The trees stay for what
 * keeps or reads decisions (the text report's top list, the TUI, the flat
 * rows); tests/unit/check-session.c holds the two to the same bytes on the
 * fixtures' decisions and on random variations of them.
 *
 * Keys are written in sorted order, as JSON_SORT_KEYS writes them; that
 * test is what holds them there.  Where Jansson would drop a value (a name
 * from a plugin that is not UTF-8, a real that rounds to infinity), the
 * member is dropped here too.
 */
#include <math.h>
#include <string.h>

#include "report.h"
#include "report-json-write.h"
#include "report-replay.h"
#include "util/escape.h"

#define KEY(w, lit)	REPORT_JW_KEY(w, lit)

static void str(struct report_jw *w, const char *s)
{
	report_jw_cstring(w, s);
}

/* a string json_string() takes: UTF-8 (it refuses anything else) */
static bool utf8_ok(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t cp;
	size_t i = 0, len;

	while (i < n) {
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		len = escape_utf8_seq(u + i, n - i, &cp);
		if (!len)
			return false;
		i += len;
	}
	return true;
}

/* a name from a policy (a plugin's may be anything): json_string() refuses one that is not UTF-8 */
static bool name_ok(const char *s)
{
	return utf8_ok(s, strlen(s));
}

/* report_json_str(): a task name, escaped to UTF-8 */
static void comm_str(struct report_jw *w, const char *comm, size_t cap)
{
	const unsigned char *u = (const unsigned char *)comm;
	char buf[4 * 1024 + 1];
	size_t i, n = strnlen(comm, cap);

	/* printable ASCII but the quote and the backslash: copied as it is */
	for (i = 0; i < n && report_jw_plain_[u[i]]; i++)
		;
	if (i == n) {
		report_jw_plain(w, comm, n);
		return;
	}
	/* other ASCII without a backslash is its own escaped form */
	for (; i < n; i++)
		if (u[i] >= 0x80 || u[i] == '\\')
			break;
	if (i == n) {
		report_jw_string(w, comm, n);
		return;
	}
	escape_utf8(buf, sizeof(buf), comm, n);
	str(w, buf);
}

static void int_or_null(struct report_jw *w, bool known, int64_t v)
{
	if (known)
		report_jw_int(w, v);
	else
		report_jw_null(w);
}

/*
 * KREAL(w, "name", v) - the member report-cost.c's jreal() makes: @v to
 * 1/1000; null when not finite, left out when only the rounding is not
 */
#define KREAL(w, lit, v)	kreal((w), "\"" lit "\":", sizeof(lit) + 2, (v))

static void kreal(struct report_jw *w, const char *quoted, size_t qlen, double v)
{
	double r = round(v * 1000.0) / 1000.0;

	if (isfinite(v) && !isfinite(r))
		return;
	report_jw_key_quoted(w, quoted, qlen);
	if (isfinite(v))
		report_jw_real(w, r);
	else
		report_jw_null(w);
}

/* report-cost.c's value_json(), with the node */
static void cost_value(struct report_jw *w, const struct cost_value *v, int node)
{
	if (!v->known) {
		report_jw_null(w);
		return;
	}
	report_jw_object(w);
	KREAL(w, "accesses", v->accesses);
	KEY(w, "node");
	report_jw_int(w, node);
	KREAL(w, "remote_accesses", v->remote);
	KREAL(w, "weighted", v->weighted);
	report_jw_close(w);
}

static void cost_delta(struct report_jw *w, const struct cost_value *old, const struct cost_value *new)
{
	if (!old->known || !new->known) {
		report_jw_null(w);
		return;
	}
	report_jw_object(w);
	KREAL(w, "remote_accesses", new->remote - old->remote);
	KREAL(w, "weighted", new->weighted - old->weighted);
	report_jw_close(w);
}

/* a part's side: null when the decision's cost is unknown */
static void part_value(struct report_jw *w, const struct cost_part *p, int side, bool unknown)
{
	if (unknown)
		report_jw_null(w);
	else
		cost_value(w, &p->v[side], p->node[side]);
}

static void cost_part(struct report_jw *w, const struct cost_part *p, bool unknown)
{
	report_jw_object(w);
	KEY(w, "from_node");
	int_or_null(w, p->from_node >= 0, p->from_node);
	KEY(w, "interval_end");
	str(w, cost_end_name(p->end));
	KEY(w, "interval_ns");
	report_jw_int(w, (int64_t)(p->end_ns - p->start_ns));
	KEY(w, "new");
	part_value(w, p, COST_NEW, unknown);
	KEY(w, "old");
	part_value(w, p, COST_OLD, unknown);
	if (p->short_history) {
		KEY(w, "short_history");
		report_jw_bool(w, true);
	}
	KEY(w, "tid");
	report_jw_int(w, p->tid);
	KEY(w, "trace");
	part_value(w, p, COST_TRACE, unknown);
	KREAL(w, "unpriced_faults", p->unpriced);
	report_jw_close(w);
}

/* report_cost_item_json() */
static void cost_item(struct report_jw *w, const struct cost_item *it)
{
	int p;

	report_jw_object(w);
	KEY(w, "delta");
	cost_delta(w, &it->v[COST_OLD], &it->v[COST_NEW]);
	KEY(w, "interval_end");
	str(w, cost_end_name(it->end));
	KEY(w, "interval_ns");
	report_jw_int(w, (int64_t)(it->end_ns - it->start_ns));
	KEY(w, "new");
	cost_value(w, &it->v[COST_NEW], it->node[COST_NEW]);
	KEY(w, "old");
	cost_value(w, &it->v[COST_OLD], it->node[COST_OLD]);
	if (it->nr_parts > 1) {
		KEY(w, "parts");
		report_jw_array(w);
		for (p = 0; p < it->nr_parts; p++)
			cost_part(w, &it->part[p], it->unknown != 0);
		report_jw_close(w);
	}
	KEY(w, "trace");
	cost_value(w, &it->v[COST_TRACE], it->node[COST_TRACE]);
	KEY(w, "unknown");
	if (it->unknown)
		str(w, cost_unknown_name(it->unknown));
	else
		report_jw_null(w);
	KREAL(w, "unpriced_faults", it->unpriced);
	report_jw_close(w);
}

/* a policy's reason names; one that is not UTF-8 is left out, as json_array_append_new(NULL) leaves it */
static void reasons(struct report_jw *w, const struct replay_policy *pol, const struct sr_verdict *v)
{
	const struct sr_policy_ops *ops = replay_policy_ops(pol);
	uint32_t i;

	report_jw_array(w);
	for (i = 0; i < v->nr_reasons && i < SR_MAX_REASONS; i++) {
		const char *name = replay_reason_name(ops, v->reasons[i]);

		if (name_ok(name))
			str(w, name);
	}
	report_jw_close(w);
}

/* report_choice_json() */
static void choice(struct report_jw *w, const struct engine_result *r, int side)
{
	const struct decision_choice *c = &r->choice[side];

	switch (c->kind) {
	case DECISION_CHOICE_NONE:
		report_jw_null(w);
		return;
	case DECISION_CHOICE_TASK:
		report_jw_object(w);
		KEY(w, "candidate");
		int_or_null(w, c->pos >= 0, c->pos);
		KEY(w, "comm");
		if (c->comm[0])
			comm_str(w, c->comm, sizeof(c->comm));
		else
			report_jw_null(w);
		if (decision_is_lb(r->d->snap.decision_class) && r->pol[side]) {
			KEY(w, "reasons");
			reasons(w, r->pol[side], &r->cv[side]);
		}
		KEY(w, "tid");
		report_jw_int(w, c->tid);
		report_jw_close(w);
		return;
	case DECISION_CHOICE_PLACE:
		report_jw_object(w);
		KEY(w, "cpu");
		int_or_null(w, c->cpu >= 0, c->cpu);
		KEY(w, "node");
		int_or_null(w, c->node >= 0, c->node);
		report_jw_close(w);
		return;
	default:
		report_jw_object(w);
		KEY(w, "unknown");
		report_jw_bool(w, true);
		report_jw_close(w);
		return;
	}
}

/* a "flags" array: the names of the bits of @set that are in @bits */
static void flags(struct report_jw *w, const struct report_flag_name *set, unsigned int bits)
{
	report_jw_array(w);
	for (; set->name; set++)
		if (bits & set->bit)
			str(w, set->name);
	report_jw_close(w);
}

/* verdict_json() of report-replay.c */
static void verdict(struct report_jw *w, const struct engine_result *r, int side)
{
	const struct replay_policy *pol = r->pol[side];
	const struct sr_verdict *v = &r->v[side];
	const char *name;

	if (!pol) {
		report_jw_null(w);
		return;
	}
	name = replay_policy_ops(pol)->name;
	report_jw_object(w);
	KEY(w, "choice");
	choice(w, r, side);
	KEY(w, "flags");
	flags(w, report_verdict_flags, v->flags);
	if (name_ok(name)) {
		KEY(w, "policy");
		str(w, name);
	}
	KEY(w, "reasons");
	reasons(w, pol, v);
	if (v->target_cpu >= 0) {
		KEY(w, "target_cpu");
		report_jw_int(w, v->target_cpu);
	}
	if (v->target_node >= 0) {
		KEY(w, "target_node");
		report_jw_int(w, v->target_node);
	}
	KEY(w, "verdict");
	str(w, replay_verdict_name(v->verdict));
	report_jw_close(w);
}

/* @a and @b give the same reason names (a few: compared in a loop, not by a call to memcmp()) */
static bool same_reasons(const struct sr_verdict *a, const struct sr_verdict *b)
{
	uint32_t na = a->nr_reasons < SR_MAX_REASONS ? a->nr_reasons : SR_MAX_REASONS;
	uint32_t nb = b->nr_reasons < SR_MAX_REASONS ? b->nr_reasons : SR_MAX_REASONS;
	uint32_t i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (a->reasons[i] != b->reasons[i])
			return false;
	return true;
}

/* @m was made of what verdict() would read for @side of @r */
static bool memo_holds(const struct report_verdict_memo *m, const struct engine_result *r,
		       int side, bool lb)
{
	const struct sr_verdict *v = &r->v[side];
	const struct decision_choice *c = &r->choice[side];

	if (!m->valid || m->pol != r->pol[side] || m->lb != lb ||
	    m->v.verdict != v->verdict || m->v.flags != v->flags ||
	    m->v.target_node != v->target_node || m->v.target_cpu != v->target_cpu ||
	    !same_reasons(&m->v, v) || m->choice.kind != c->kind)
		return false;
	switch (c->kind) {
	case DECISION_CHOICE_TASK:
		return m->choice.tid == c->tid && m->choice.pos == c->pos &&
		       !strncmp(m->choice.comm, c->comm, sizeof(c->comm)) &&
		       (!lb || same_reasons(&m->cv, &r->cv[side]));
	case DECISION_CHOICE_PLACE:
		return m->choice.cpu == c->cpu && m->choice.node == c->node;
	default:
		return true;
	}
}

/* verdict(), through @memo: the side's text made again only when what it is made of changed */
static void verdict_memo(struct report_jw *w, const struct engine_result *r, int side,
			 bool lb, struct report_decision_memo *memo)
{
	struct report_verdict_memo *m = &memo->side[side];
	struct report_jw mw;

	if (memo_holds(m, r, side, lb)) {
		memo->hits++;
		report_jw_raw(w, m->text, m->len);
		return;
	}
	m->valid = false;
	report_jw_begin(&mw, NULL, w->flags, 0);
	verdict(&mw, r, side);
	if (report_jw_end(&mw, NULL) < 0 || mw.len > sizeof(m->text)) {
		verdict(w, r, side);	/* too long to keep: written as it is */
		return;
	}
	memcpy(m->text, mw.buf, mw.len);
	m->len = mw.len;
	m->pol = r->pol[side];
	m->lb = lb;
	m->v = r->v[side];
	m->cv = r->cv[side];
	m->choice = r->choice[side];
	m->valid = true;
	report_jw_raw(w, m->text, m->len);
}

/* the "kernel", "new" and "old" members; @lb: the decision is a balance pass's */
static void side(struct report_jw *w, const struct engine_result *r, int s, bool lb,
		 struct report_decision_memo *memo)
{
	if (memo && w->compact && r->pol[s])
		verdict_memo(w, r, s, lb, memo);
	else
		verdict(w, r, s);
}

/* report_candidates_json() */
static void candidates(struct report_jw *w, const struct decision *d)
{
	report_jw_object(w);
	KEY(w, "count");
	report_jw_int(w, d->nr_cand);
	KEY(w, "order");
	str(w, (d->dp_flags & SR_DP_PROBE_ORDER) ? "kernel" :
	       (d->dp_flags & SR_DP_RECONSTRUCTED) ? "reconstructed" : "none");
	KEY(w, "pull");
	report_jw_int(w, d->nr_pull);
	KEY(w, "pulled_added");
	report_jw_bool(w, d->dp_flags & SR_DP_PULLED_ADDED);
	KEY(w, "truncated");
	report_jw_bool(w, d->dp_flags & SR_DP_TRUNCATED);
	report_jw_close(w);
}

void report_decision_write(struct report_jw *w, const struct engine_result *r,
			   const struct cost_item *cost, struct report_decision_memo *memo)
{
	const struct decision *d = r->d;
	const struct sr_snapshot *s = &d->snap;
	bool lb = decision_is_lb(s->decision_class);

	report_jw_object(w);
	KEY(w, "balance_failed_dependent");
	report_jw_bool(w, r->flips);
	if (lb) {
		KEY(w, "candidates");
		candidates(w, d);
	}
	KEY(w, "class");
	str(w, replay_class_name(s->decision_class));
	KEY(w, "comm");
	if (s->known & SR_SNAP_COMM)
		comm_str(w, s->comm, sizeof(s->comm));
	else
		report_jw_null(w);
	KEY(w, "cost");
	cost_item(w, cost);
	KEY(w, "disagree");
	report_jw_bool(w, r->disagree);
	KEY(w, "dst_cpu");
	report_jw_int(w, s->dst_cpu);
	KEY(w, "dst_node");
	int_or_null(w, s->known & SR_SNAP_DST_NODE, s->dst_node);
	KEY(w, "evidence");
	str(w, decision_why_name(d->why));
	KEY(w, "flags");
	flags(w, report_decision_flags, d->flags);
	KEY(w, "kernel");
	side(w, r, ENGINE_KERNEL, lb, memo);
	if (d->has_truth) {
		KEY(w, "kernel_verdict");
		str(w, d->truth ? "allowed" : "refused");
	}
	KEY(w, "new");
	side(w, r, ENGINE_NEW, lb, memo);
	KEY(w, "old");
	side(w, r, ENGINE_OLD, lb, memo);
	if (d->partner_tid) {
		KEY(w, "partner_tid");
		report_jw_int(w, d->partner_tid);
	}
	KEY(w, "seq");
	report_jw_int(w, (int64_t)d->seq);
	KEY(w, "src_cpu");
	report_jw_int(w, s->src_cpu);
	KEY(w, "src_node");
	int_or_null(w, s->known & SR_SNAP_SRC_NODE, s->src_node);
	KEY(w, "tgid");
	int_or_null(w, s->known & SR_SNAP_TGID, s->tgid);
	KEY(w, "tid");
	report_jw_int(w, s->tid);
	KEY(w, "ts_ns");
	report_jw_int(w, (int64_t)s->ts_ns);
	KEY(w, "unknown");
	report_jw_bool(w, r->unknown);
	KEY(w, "verdicts_differ");
	report_jw_bool(w, r->verdicts_differ);
	report_jw_close(w);
}
