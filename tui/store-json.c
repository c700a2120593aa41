// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store-json.c - rows and header from a saved `schedreplay replay --json`
 * report (docs/replay-schema.json).
 *
 * The report of a long trace holds millions of decisions; a Jansson tree
 * of it would take gigabytes, and Jansson decodes a decision in ~10 us.  So
 * a thread walks the top-level object by hand over chunks read with
 * pread(): every member but "decisions" is decoded whole with Jansson
 * (they are small); each element of "decisions" is read by jscan.c, turned
 * into a fixed-size row that remembers its file offset and length, and
 * dropped.  The detail view decodes that one object again when it shows
 * it (tui_store_read_decision()).  A file whose first member is not a
 * report's is an NDJSON stream (`replay --ndjson`): one decision after
 * another.  A file that ends inside the report is not an error: the rows
 * before the end are kept and the progress says where it stopped; when
 * following, the reader waits for the rest.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jscan.h"
#include "replay/replay.h"
#include "store-local.h"
#include "util/escape.h"

/*
 * A report's real number as an int64, rounded; false when it does not fit
 * (converting it would be undefined: found by fuzz-tui-json with 1.61e302).
 */
/* Largest |cost| taken from a report: 2^52 (in thousandths, new - old still fits) */
#define TUI_COST_MAX	4503599627370496.0	/* 2^52 */

static bool real_to_i64(double d, int64_t *out)
{
	d = round(d);
	if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
		return false;
	*out = (int64_t)d;
	return true;
}

static bool real_of(const json_t *v, double *out)
{
	if (!json_is_number(v))
		return false;
	*out = json_number_value(v);
	return true;
}

static int64_t jnum(const json_t *o, const char *k, int64_t def)
{
	const json_t *v = json_object_get(o, k);
	int64_t i;

	if (json_is_integer(v))
		return (int64_t)json_integer_value(v);
	if (json_is_real(v) && real_to_i64(json_real_value(v), &i))
		return i;
	return def;
}

/* a string of the report (in the escaped form, docs/json-schema.md) as its bytes */
static void copy_str(char *dst, size_t len, const json_t *v)
{
	const char *s = json_string_value(v);

	escape_utf8_decode(dst, len, s ? s : "", s ? json_string_length(v) : 0);
}

static void join_policies(char *dst, size_t len, const json_t *a)
{
	const json_t *p;
	size_t i, used = 0;

	dst[0] = '\0';
	json_array_foreach(a, i, p) {
		const char *n = json_string_value(json_object_get(p, "name"));

		if (!n || used + 1 >= len)
			continue;
		used += (size_t)snprintf(dst + used, len - used, "%s%s", used ? "," : "", n);
		if (used >= len)
			used = len - 1;
	}
}

int tui_store_set_header(struct tui_store *s, const json_t *doc)
{
	static const char *const sides[TUI__SIDES] = { "old", "new", "kernel" };
	struct tui_header *h = &s->hdr;
	const json_t *tr = json_object_get(doc, "trace");
	const json_t *pol = json_object_get(doc, "policies");
	const json_t *sum = json_object_get(doc, "summary");
	const json_t *nodes = json_object_get(json_object_get(doc, "topology"), "nodes");
	const json_t *n, *d, *f;
	const char *k;
	size_t i, j;
	int side;

	copy_str(h->trace, sizeof(h->trace), json_object_get(tr, "path"));
	copy_str(h->format, sizeof(h->format), json_object_get(tr, "format"));
	copy_str(h->kernel, sizeof(h->kernel), json_object_get(tr, "kernel_release"));
	h->nr_cpus = (int)jnum(tr, "cpus", 0);
	h->nr_nodes = (int)jnum(tr, "nodes", 0);
	if (h->nr_nodes < 0 || h->nr_nodes > TUI_MAX_NODES)
		h->nr_nodes = 0;
	memset(h->distance, 0, sizeof(h->distance));
	json_array_foreach(nodes, i, n) {
		if (i >= (size_t)h->nr_nodes)
			break;
		json_array_foreach(json_object_get(n, "distance"), j, d) {
			int64_t v = json_integer_value(d);

			if (j < (size_t)h->nr_nodes)
				h->distance[i][j] = (uint8_t)(v < 0 || v > 255 ? 0 : v);
		}
	}
	h->mig_cost_ns = -2;
	for (side = 0; side < TUI__SIDES; side++) {
		const json_t *a = json_object_get(pol, sides[side]), *p;

		join_policies(h->policies[side], sizeof(h->policies[side]), a);
		json_array_foreach(a, i, p) {
			const json_t *v = json_object_get(json_object_get(p, "params"),
							  "sched_migration_cost_ns");

			if (h->mig_cost_ns == -2 && json_is_integer(v)) {
				h->mig_cost_ns = (int64_t)json_integer_value(v);
				copy_str(h->mig_cost_policy, sizeof(h->mig_cost_policy),
					 json_object_get(p, "name"));
			}
		}
	}
	if (json_is_object(sum)) {
		const json_t *tot = json_object_get(json_object_get(sum, "cost"), "totals");
		const json_t *pr = json_object_get(tot, "paired");
		double o, nw, dl;

		h->have_summary = true;
		h->decisions = (uint64_t)jnum(sum, "decisions", 0);
		h->disagreements = (uint64_t)jnum(sum, "disagreements", 0);
		h->unknown = (uint64_t)jnum(sum, "unknown", 0);
		/* the report's own paired figure, not a sum of rounded rows */
		if (real_of(json_object_get(json_object_get(pr, "old"), "weighted"), &o) &&
		    real_of(json_object_get(json_object_get(pr, "new"), "weighted"), &nw) &&
		    real_of(json_object_get(json_object_get(tot, "delta"), "weighted"), &dl) &&
		    tui_cost_milli(o, &h->cost_old) && tui_cost_milli(nw, &h->cost_new) &&
		    tui_cost_milli(dl, &h->cost_delta)) {
			h->have_cost = true;
			h->nr_cost = (uint64_t)jnum(pr, "decisions", 0);
		}
	}
	h->fid_reproduced = h->fid_decisions = 0;
	json_object_foreach((json_t *)json_object_get(sum, "fidelity"), k, f) {
		h->fid_reproduced += (uint64_t)jnum(f, "reproduced", 0);
		h->fid_decisions += (uint64_t)jnum(f, "decisions", 0);
	}
	return 0;
}

/* ---- one decision, from the index reader's nodes ------------------------------ */

static bool js_i64(const struct js_node *v, int64_t *out)
{
	if (v && v->type == JS_INT) {
		*out = v->i;
		return true;
	}
	return v && v->type == JS_REAL && real_to_i64(v->d, out);
}

static int64_t js_num(const struct js_doc *d, const struct js_node *o, const char *k, int64_t def)
{
	int64_t v;

	return js_i64(js_get(d, o, k), &v) ? v : def;
}

/*
 * One side of a decision's "cost": the distance-weighted figure of
 * {"accesses", "remote_accesses", "weighted", "node"} (docs/json-schema.md),
 * or a plain number; in thousandths, as tui_store_set_cost() keeps it.
 */
static bool cost_side(const struct js_doc *d, const struct js_node *cost, const char *side,
		      int64_t *out)
{
	const struct js_node *v = js_get(d, cost, side);

	if (v && v->type == JS_OBJ)
		v = js_get(d, v, "weighted");
	if (!v || (v->type != JS_INT && v->type != JS_REAL))
		return false;
	/* beyond any real cost; bounded so that new - old cannot overflow */
	if (!(v->d >= -TUI_COST_MAX && v->d <= TUI_COST_MAX))
		return false;
	return tui_cost_milli(v->type == JS_INT ? (double)v->i : v->d, out);
}

static int verdict_from_js(struct tui_store *s, const struct js_doc *d, const struct js_node *o,
			   uint32_t *out, struct err *err)
{
	const struct js_node *v, *p, *r;
	struct tui_verdict tv = { 0 };
	char buf[256];
	int64_t t;
	int id;

	*out = TUI_NONE;
	if (!o || o->type == JS_NULL)
		return 0;
	v = js_get(d, o, "verdict");
	if (o->type != JS_OBJ || !v || v->type != JS_STR)
		return err_set(err, -SR_EBADTEXT, "a verdict is not an object with \"verdict\"");
	if (js_is(v, "allow"))
		tv.verdict = SR_VERDICT_ALLOW;
	else if (js_is(v, "resist"))
		tv.verdict = SR_VERDICT_RESIST;
	else if (js_is(v, "unknown"))
		tv.verdict = SR_VERDICT_UNKNOWN;
	else if (js_is(v, "not-applicable"))
		tv.verdict = SR_VERDICT_NOT_APPLICABLE;
	else
		return err_set(err, -SR_EBADTEXT, "unknown verdict \"%.40s\"",
			       js_str(v, buf, sizeof(buf)) >= 0 ? buf : "?");
	p = js_get(d, o, "policy");
	id = tui_store_intern_policy(s, js_str(p, buf, sizeof(buf)) >= 0 ? buf : "?");
	if (id < 0)
		return err_set(err, id, "too many policies");
	tv.policy = (uint16_t)id;
	for (r = js_child(d, js_get(d, o, "flags")); r; r = js_next(d, r)) {
		if (js_is(r, "failed-dependent"))
			tv.flags |= SR_VF_FAILED_DEPENDENT;
		else if (js_is(r, "forced"))
			tv.flags |= SR_VF_FORCED;
		else if (js_is(r, "assumed-not-buddy"))
			tv.flags |= SR_VF_ASSUMED_NOT_BUDDY;
		else if (js_is(r, "assumed-not-smt"))
			tv.flags |= SR_VF_ASSUMED_NOT_SMT;
	}
	tv.target_node = -1;
	v = js_get(d, o, "target_node");
	if (v && v->type == JS_INT) {
		t = v->i;
		tv.target_node = t >= 0 && t < TUI_MAX_NODES ? (int8_t)t : -1;
	}
	for (r = js_child(d, js_get(d, o, "reasons")); r; r = js_next(d, r)) {
		if (tv.nr_reasons == SR_MAX_REASONS || r->type != JS_STR)
			break;
		js_str(r, buf, sizeof(buf));
		id = tui_store_intern_reason(s, buf, NULL);
		if (id < 0)
			return err_set(err, id, "too many reasons");
		tv.reasons[tv.nr_reasons++] = (uint16_t)id;
	}
	*out = tui_store_intern_verdict(s, &tv);
	return *out == UINT32_MAX ? err_set(err, -ENOMEM, "out of memory") : 0;
}

static int8_t node_of(const struct js_node *v)
{
	int64_t n = v && v->type == JS_INT ? v->i : -1;

	return n >= 0 && n < TUI_MAX_NODES ? (int8_t)n : -1;
}

/* a side's "choice" (absent in reports from before choices: not said) */
static void choice_from_js(const struct js_doc *d, const struct js_node *side, struct tui_row *row,
			   int i)
{
	const struct js_node *c = side && side->type == JS_OBJ ? js_get(d, side, "choice") : NULL;
	const struct js_node *v;

	if (!c)
		return;
	if (c->type == JS_NULL) {
		row->choice[i] = TUI_CHOICE_NOTHING;
	} else if (c->type != JS_OBJ) {
		row->choice[i] = TUI_CHOICE_UNKNOWN;
	} else if ((v = js_get(d, c, "tid")) && v->type == JS_INT && v->i > INT32_MIN &&
		   v->i <= INT32_MAX) {
		row->choice[i] = TUI_CHOICE_TASK;
		row->choice_tid[i] = (int32_t)v->i;
	} else if ((v = js_get(d, c, "cpu")) && v->type == JS_INT) {
		row->choice[i] = TUI_CHOICE_PLACE;
		row->choice_cpu[i] = v->i >= 0 && v->i <= INT16_MAX ? (int16_t)v->i : -1;
		row->choice_node[i] = node_of(js_get(d, c, "node"));
	} else {
		row->choice[i] = TUI_CHOICE_UNKNOWN;
	}
}

static int16_t cpu_of(const struct js_node *v)
{
	int64_t n = v && v->type == JS_INT ? v->i : -1;

	return n >= 0 && n <= INT16_MAX ? (int16_t)n : -1;
}

/*
 * Append the decision at node 1 of @d as a row (under the store's lock).
 * Unknown keys are ignored, so reports with more in them still open.
 */
static int add_decision(struct tui_store *s, const struct js_doc *d, uint64_t off, size_t len,
			struct err *err)
{
	static const char *const sides[TUI__SIDES] = { "old", "new", "kernel" };
	const struct js_node *o = &d->n[1], *ts, *comm, *cost, *f, *cls;
	struct tui_row *row;
	char buf[64];
	int c = -1, side, ret;

	if (o->type != JS_OBJ)
		return err_set(err, -SR_EBADTEXT, "a decision is not an object");
	cls = js_get(d, o, "class");
	if (cls && cls->type == JS_STR && !cls->esc && cls->len < sizeof(buf)) {
		memcpy(buf, cls->s, cls->len);
		buf[cls->len] = '\0';
		c = replay_class_from_name(buf);
	}
	if (c < 0)
		return err_set(err, -SR_EBADTEXT, "decision without a known \"class\"");
	ts = js_get(d, o, "ts_ns");
	if (!ts || ts->type != JS_INT || ts->i < 0)
		return err_set(err, -SR_EBADTEXT, "decision without \"ts_ns\"");
	row = tui_store_append(s);
	if (!row)
		return err_set(err, -ENOMEM, "out of memory");
	row->off = off;
	row->len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
	row->ts_ns = (uint64_t)ts->i;
	row->cls = (uint8_t)c;
	row->tid = (int32_t)js_num(d, o, "tid", 0);
	f = js_get(d, o, "tgid");
	if (f && f->type == JS_INT) {
		row->tgid = (int32_t)f->i;
		row->flags |= TUI_ROW_TGID;
	}
	row->partner_tid = (int32_t)js_num(d, o, "partner_tid", 0);
	comm = js_get(d, o, "comm");
	if (comm && comm->type == JS_STR) {
		char cb[4 * SR_SNAP_COMM_LEN];
		int n = js_str(comm, cb, sizeof(cb));

		/* the report holds the escaped form: the row holds the bytes, as from a trace */
		if (n > 0)
			escape_utf8_decode(row->comm, sizeof(row->comm), cb, (size_t)n);
		row->flags |= TUI_ROW_COMM;
	}
	row->src_cpu = cpu_of(js_get(d, o, "src_cpu"));
	row->dst_cpu = cpu_of(js_get(d, o, "dst_cpu"));
	row->src_node = node_of(js_get(d, o, "src_node"));
	row->dst_node = node_of(js_get(d, o, "dst_node"));
	if ((f = js_get(d, o, "disagree")) && f->type == JS_TRUE)
		row->flags |= TUI_ROW_DISAGREE;
	if ((f = js_get(d, o, "unknown")) && f->type == JS_TRUE)
		row->flags |= TUI_ROW_UNKNOWN;
	if ((f = js_get(d, o, "balance_failed_dependent")) && f->type == JS_TRUE)
		row->flags |= TUI_ROW_BF_DEP;
	for (f = js_child(d, js_get(d, o, "flags")); f; f = js_next(d, f)) {
		if (js_is(f, "lost-events-window"))
			row->flags |= TUI_ROW_LOST;
		else if (js_is(f, "task-state-unknown"))
			row->flags |= TUI_ROW_STATE_GUESS;
		else if (js_is(f, "cpu-unseen"))
			row->flags |= TUI_ROW_UNSEEN;
	}
	cost = js_get(d, o, "cost");
	if (cost && cost->type == JS_OBJ && cost_side(d, cost, "old", &row->cost_old) &&
	    cost_side(d, cost, "new", &row->cost_new)) {
		if (!cost_side(d, cost, "delta", &row->cost_delta))
			row->cost_delta = row->cost_new - row->cost_old;
		row->flags |= TUI_ROW_COST;
	}
	f = js_get(d, o, "evidence");
	if (f && f->type == JS_STR) {
		js_str(f, buf, sizeof(buf));
		ret = tui_store_intern_evidence(s, buf);
		if (ret < 0)
			return err_set(err, ret, "out of memory");
		row->evidence = (uint8_t)ret;
	}
	for (side = 0; side < TUI__SIDES; side++) {
		ret = verdict_from_js(s, d, js_get(d, o, sides[side]), &row->verdict[side], err);
		if (ret < 0)
			return ret;
		choice_from_js(d, js_get(d, o, sides[side]), row, side);
	}
	tui_store_commit(s);
	return 0;
}

/* ---- the loader thread -------------------------------------------------------- */

#define CHUNK		(1u << 20)
#define MAX_VALUE	(256u << 20)	/* one member or decision larger than this is refused */
#define BATCH		256		/* decisions appended per hold of the lock */

/**
 * struct loader - reading the file: @buf holds the bytes from file offset
 * @base; @pos is where parsing is, @len how much was read
 */
struct loader {
	struct tui_store	*s;
	int			fd;
	char			*buf;
	size_t			cap;
	size_t			len;
	size_t			pos;
	uint64_t		base;
	bool			eof;
	struct js_doc		js;
	json_t			*doc;
	struct err		*err;
	unsigned int		batch;	/* rows appended since the lock was taken */
	bool			locked;
};

static void unlock_batch(struct loader *L)
{
	if (L->locked) {
		L->s->prog.bytes = L->base + L->pos;
		pthread_mutex_unlock(&L->s->mu);
		L->locked = false;
	}
	L->batch = 0;
}

/* Read more: 1 when bytes came, 0 at the end of the file, or a negative errno. */
static int refill(struct loader *L)
{
	ssize_t n;

	if (L->pos) {
		memmove(L->buf, L->buf + L->pos, L->len - L->pos);
		L->base += L->pos;
		L->len -= L->pos;
		L->pos = 0;
	}
	if (L->cap - L->len < CHUNK / 2) {
		size_t nc = L->cap ? L->cap * 2 : CHUNK;
		char *nb;

		if (nc > MAX_VALUE + CHUNK)
			return -EFBIG;
		nb = realloc(L->buf, nc);
		if (!nb)
			return -ENOMEM;
		L->buf = nb;
		L->cap = nc;
	}
	do
		n = pread(L->fd, L->buf + L->len, L->cap - L->len, (off_t)(L->base + L->len));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	L->len += (size_t)n;
	return n > 0;
}

/* The file ended: wait for more when following.  1: more came; 0: stop here. */
static int at_end(struct loader *L, bool between_values)
{
	struct tui_store *s = L->s;
	int ret;

	unlock_batch(L);
	for (;;) {
		if (!s->follow || atomic_load(&s->stop))
			return 0;
		tui_store_loader_lock(s);
		s->prog.following = true;
		s->prog.truncated = !between_values;
		pthread_mutex_unlock(&s->mu);
		usleep(200000);
		ret = refill(L);
		if (ret != 0) {
			tui_store_loader_lock(s);
			s->prog.following = false;
			s->prog.truncated = false;
			pthread_mutex_unlock(&s->mu);
			return ret;
		}
	}
}

static void note_truncated(struct loader *L)
{
	tui_store_loader_lock(L->s);
	L->s->prog.truncated = true;
	L->s->prog.bytes = L->base + L->len;
	pthread_mutex_unlock(&L->s->mu);
}

/* The next byte that is not white space: 1, 0 at the end of the file, or a negative code. */
static int peek(struct loader *L, bool between_values)
{
	int ret;

	for (;;) {
		L->pos = js_skip_ws(L->buf, L->len, L->pos);
		if (L->pos < L->len)
			return 1;
		ret = refill(L);
		if (ret == 0)
			ret = at_end(L, between_values);
		if (ret < 0)
			return err_set(L->err, ret, "cannot read: %s", strerror(-ret));
		if (ret == 0)
			return 0;
	}
}

static int syntax_err(struct loader *L, uint64_t at, const char *what)
{
	err_set(L->err, -SR_EBADTEXT, "%s", what);
	err_at_byte(L->err, at);
	return -SR_EBADTEXT;
}

/*
 * Parse the value at the current place into L->js: 1 done (L->pos past
 * it), 0 when the file ends inside it (truncated), or a negative code.
 */
static int parse_value(struct loader *L, uint64_t *start)
{
	const char *what = NULL;
	size_t p;
	int ret;

	ret = peek(L, false);
	if (ret <= 0)
		return ret;
	for (;;) {
		p = L->pos;
		*start = L->base + p;
		ret = js_parse(&L->js, L->buf, L->len, &p, &what);
		if (!ret) {
			L->pos = p;
			return 1;
		}
		if (ret == JS_ERR_NOMEM)
			return err_set(L->err, -ENOMEM, "out of memory");
		if (ret == JS_ERR_SYNTAX)
			return syntax_err(L, L->base + p, what);
		unlock_batch(L);
		ret = refill(L);
		if (ret == 0) {
			/* a number at the very end of the file is complete there */
			p = L->pos;
			if (L->len < L->cap) {
				L->buf[L->len] = ' ';
				ret = js_parse(&L->js, L->buf, L->len + 1, &p, &what);
				if (!ret && p <= L->len) {
					L->pos = p;
					return 1;
				}
			}
			ret = at_end(L, false);
		}
		if (ret < 0)
			return err_set(L->err, ret, "cannot read: %s", strerror(-ret));
		if (ret == 0)
			return 0;
	}
}

static int expect_char(struct loader *L, char c, const char *what)
{
	int ret = peek(L, false);

	if (ret <= 0)
		return ret;
	if (L->buf[L->pos] != c)
		return syntax_err(L, L->base + L->pos, what);
	L->pos++;
	return 1;
}

static int take_decision(struct loader *L, uint64_t start)
{
	struct tui_store *s = L->s;
	int ret;

	if (!L->locked) {
		tui_store_loader_lock(s);
		L->locked = true;
	}
	ret = add_decision(s, &L->js, start, L->base + L->pos - start, L->err);
	if (ret < 0) {
		err_at_byte(L->err, start);
		return ret;
	}
	if (++L->batch >= BATCH || atomic_load(&s->ui_wait))
		unlock_batch(L);
	return 1;
}

/* The elements of "decisions": 1 at its ']', 0 truncated, or a negative code. */
static int load_decisions(struct loader *L)
{
	uint64_t start;
	int ret;

	ret = expect_char(L, '[', "'[' expected");
	if (ret <= 0)
		return ret;
	ret = peek(L, false);
	if (ret <= 0)
		return ret;
	if (L->buf[L->pos] == ']') {
		L->pos++;
		return 1;
	}
	for (;;) {
		if (atomic_load(&L->s->stop))
			return 0;
		ret = parse_value(L, &start);
		if (ret <= 0)
			return ret;
		ret = take_decision(L, start);
		if (ret < 0)
			return ret;
		ret = peek(L, false);
		if (ret <= 0)
			return ret;
		if (L->buf[L->pos] == ']') {
			L->pos++;
			return 1;
		}
		if (L->buf[L->pos] != ',')
			return syntax_err(L, L->base + L->pos, "',' or ']'" " expected");
		L->pos++;
	}
}

/* An NDJSON stream: one decision after another, to the end (or on, when following). */
static int load_ndjson(struct loader *L)
{
	uint64_t start;
	int ret;

	for (;;) {
		if (atomic_load(&L->s->stop))
			return 0;
		ret = peek(L, true);
		if (ret <= 0)
			return ret < 0 ? ret : 1;
		ret = parse_value(L, &start);
		if (ret <= 0)
			return ret;
		ret = take_decision(L, start);
		if (ret < 0)
			return ret;
	}
}

static bool report_key(const char *k)
{
	static const char *const keys[] = { "assumptions", "decisions", "policies",
					    "schema_version", "summary", "topology", "trace" };
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(k, keys[i]))
			return true;
	return false;
}

/* A member value other than "decisions", decoded whole with Jansson into L->doc. */
static int take_member(struct loader *L, const char *key)
{
	json_error_t je;
	uint64_t start;
	json_t *v;
	int ret;

	ret = parse_value(L, &start);
	if (ret <= 0)
		return ret;
	v = json_loadb(L->buf + (start - L->base), L->base + L->pos - start,
		       JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	if (!v)
		return syntax_err(L, start + (je.position > 0 ? (uint64_t)je.position : 0), je.text);
	json_object_set_new(L->doc, key, v);
	return 1;
}

static int load(struct loader *L)
{
	bool have_decisions = false, first = true;
	char key[256];
	uint64_t at;
	int ret;

	ret = expect_char(L, '{', "'{' expected");
	if (ret <= 0)
		return ret;
	ret = peek(L, false);
	if (ret <= 0)
		return ret;
	if (L->buf[L->pos] != '}') {
		for (;;) {
			ret = parse_value(L, &at);
			if (ret <= 0)
				return ret;
			if (L->js.n[1].type != JS_STR)
				return syntax_err(L, at, "object key expected");
			js_str(&L->js.n[1], key, sizeof(key));
			if (first && !report_key(key)) {
				/* not a report but an NDJSON stream of decisions */
				L->pos = 0;
				if (L->base)
					return syntax_err(L, 0, "not a report");
				return load_ndjson(L);
			}
			first = false;
			ret = expect_char(L, ':', "':' expected");
			if (ret <= 0)
				return ret;
			if (!strcmp(key, "decisions")) {
				ret = load_decisions(L);
				have_decisions = true;
			} else {
				ret = take_member(L, key);
			}
			if (ret <= 0)
				return ret;
			ret = peek(L, false);
			if (ret <= 0)
				return ret;
			if (L->buf[L->pos] == '}')
				break;
			if (L->buf[L->pos] != ',')
				return syntax_err(L, L->base + L->pos, "',' or '}'" " expected");
			L->pos++;
		}
	}
	L->pos++;
	unlock_batch(L);
	/* trailing data: refill until the end, not following */
	for (;;) {
		L->pos = js_skip_ws(L->buf, L->len, L->pos);
		if (L->pos < L->len)
			return syntax_err(L, L->base + L->pos, "trailing data after the report");
		ret = refill(L);
		if (ret <= 0)
			break;
	}
	if (!have_decisions || !json_is_object(json_object_get(L->doc, "trace"))) {
		err_set(L->err, -SR_EBADTEXT, "not a replay report (no \"%s\"; write one with "
			"'schedreplay replay --json')", have_decisions ? "trace" : "decisions");
		err_at_byte(L->err, 0);
		return -SR_EBADTEXT;
	}
	tui_store_loader_lock(L->s);
	ret = tui_store_set_header(L->s, L->doc);
	pthread_mutex_unlock(&L->s->mu);
	return ret < 0 ? err_set(L->err, ret, "out of memory") : 1;
}

static void *json_thread(void *arg)
{
	struct tui_store *s = arg;
	struct err e = { 0 };
	struct loader L = { .s = s, .fd = s->fd, .err = &e };
	int ret;

	err_set_file(&e, s->path);
	L.doc = json_object();
	ret = L.doc ? load(&L) : err_set(&e, -ENOMEM, "out of memory");
	unlock_batch(&L);
	if (ret == 0 && !atomic_load(&s->stop))
		note_truncated(&L);
	else if (ret > 0) {
		tui_store_loader_lock(s);
		s->prog.bytes = L.base + L.len;
		pthread_mutex_unlock(&s->mu);
	}
	json_decref(L.doc);
	js_release(&L.js);
	free(L.buf);
	tui_store_loaded(s, ret < 0 ? ret : 0, ret < 0 ? &e : NULL);
	return NULL;
}

int tui_store_open_json(struct tui_store *s, const char *path, bool follow, struct err *err)
{
	struct stat st;
	int fd, ret;

	err_set_file(err, path);
	if (s->have_th || s->fd >= 0)
		return err_set(err, -EBUSY, "the store is already loading");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, -errno, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(err, -SR_EUNSUPPORTED, "not a regular file");
	}
	if (S_ISREG(st.st_mode) && st.st_size == 0 && !follow) {
		close(fd);
		return err_set(err, -SR_EEMPTY, "empty report");
	}
	s->path = strdup(path);
	if (!s->path) {
		close(fd);
		return err_set(err, -ENOMEM, "out of memory");
	}
	s->fd = fd;
	s->follow = follow;
	s->prog.total = (uint64_t)st.st_size;
	s->prog.loading = true;
	ret = pthread_create(&s->th, NULL, json_thread, s);
	if (ret) {
		s->prog.loading = false;
		return err_set(err, -ret, "cannot start the reader: %s", strerror(ret));
	}
	s->have_th = true;
	return 0;
}

int tui_store_load_json(struct tui_store *s, const char *path, struct err *err)
{
	int ret = tui_store_open_json(s, path, false, err);

	if (ret < 0)
		return ret;
	ret = tui_store_wait(s, err);
	return ret;
}

json_t *tui_store_read_decision(const struct tui_store *s, const struct tui_row *row)
{
	json_error_t je;
	json_t *v = NULL;
	char *buf;
	ssize_t n;

	if (row->off == TUI_NO_OFF || s->fd < 0 || !row->len || row->len > MAX_VALUE)
		return NULL;
	buf = malloc(row->len);
	if (!buf)
		return NULL;
	n = pread(s->fd, buf, row->len, (off_t)row->off);
	if (n == (ssize_t)row->len)
		v = json_loadb(buf, row->len, JSON_ALLOW_NUL, &je);
	free(buf);
	return v;
}
