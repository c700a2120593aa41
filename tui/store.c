// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store.c - the row store: rows in one growing array, verdicts and reason
 * names interned in hash tables, snapshot fields of live replays in a side
 * array with per-node values in pools.
 *
 * Invariants: id 0 of every intern table is "none"; a row's verdict ids,
 * evidence id and snap index always refer to existing entries.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/replay.h"
#include "store-local.h"

static int grow(void **p, size_t *alloc, size_t need, size_t size)
{
	size_t n = *alloc ? *alloc : 64;
	void *q;

	if (need <= *alloc)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*alloc = n;
	return 0;
}

static uint32_t hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

struct tui_store *tui_store_new(void)
{
	struct tui_store *s = calloc(1, sizeof(*s));
	struct tui_verdict none = { 0 };

	if (!s)
		return NULL;
	s->fd = -1;
	pthread_mutex_init(&s->mu, NULL);
	atomic_init(&s->ui_wait, 0);
	atomic_init(&s->stop, false);
	s->hdr.mig_cost_ns = -2;
	/* id 0 of each table is "none" */
	if (tui_store_intern_policy(s, "") < 0 || tui_store_intern_reason(s, "", NULL) < 0 ||
	    tui_store_intern_evidence(s, "") < 0 || tui_store_intern_verdict(s, &none) == UINT32_MAX) {
		tui_store_free(s);
		return NULL;
	}
	return s;
}

void tui_store_free(struct tui_store *s)
{
	size_t i;

	if (!s)
		return;
	if (s->have_th) {
		atomic_store(&s->stop, true);
		pthread_join(s->th, NULL);
	}
	if (s->fd >= 0)
		close(s->fd);
	free(s->path);
	pthread_mutex_destroy(&s->mu);
	for (i = 0; i < s->nr_policies; i++)
		free(s->policies[i]);
	for (i = 0; i < s->nr_reasons; i++) {
		free(s->reasons[i].name);
		free(s->reasons[i].desc);
	}
	for (i = 0; i < s->nr_evidence; i++)
		free(s->evidence[i]);
	free(s->policies);
	free(s->reasons);
	free(s->reason_hash);
	free(s->evidence);
	free(s->verdicts);
	free(s->verdict_hash);
	free(s->rows);
	free(s->keys);
	free(s->snaps);
	free(s->faults);
	free(s->node_nr);
	free(s);
}

int tui_store_intern_policy(struct tui_store *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr_policies; i++)
		if (!strcmp(s->policies[i], name))
			return (int)i;
	if (s->nr_policies >= 0xffff)
		return -ENOSPC;
	if (grow((void **)&s->policies, &s->alloc_policies, s->nr_policies + 1, sizeof(char *)))
		return -ENOMEM;
	s->policies[s->nr_policies] = strdup(name);
	if (!s->policies[s->nr_policies])
		return -ENOMEM;
	return (int)s->nr_policies++;
}

int tui_store_intern_evidence(struct tui_store *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr_evidence; i++)
		if (!strcmp(s->evidence[i], name))
			return (int)i;
	if (s->nr_evidence >= 255)
		return 0;	/* more kinds than the classifier has: show none */
	if (grow((void **)&s->evidence, &s->alloc_evidence, s->nr_evidence + 1, sizeof(char *)))
		return -ENOMEM;
	s->evidence[s->nr_evidence] = strdup(name);
	if (!s->evidence[s->nr_evidence])
		return -ENOMEM;
	return (int)s->nr_evidence++;
}

/* The description of a built-in or missing-input reason named @name, or NULL. */
static const char *builtin_reason_desc(const char *name, char *buf, size_t len)
{
	unsigned int c;

	for (c = 0; c < SR_REASON__COUNT; c++)
		if (!strcmp(replay_reason_name(NULL, c), name))
			return replay_reason_description(NULL, c);
	for (c = 0; c < SR_SNAP_BIT__COUNT; c++) {
		unsigned int code = SR_REASON_MISSING_FIRST + c;

		if (!strcmp(replay_reason_name(NULL, code), name)) {
			snprintf(buf, len, "unknown: %s", replay_reason_description(NULL, code));
			return buf;
		}
	}
	return NULL;
}

static int reason_rehash(struct tui_store *s, size_t slots)
{
	uint32_t *h = calloc(slots, sizeof(*h));
	size_t i;

	if (!h)
		return -ENOMEM;
	for (i = 1; i < s->nr_reasons; i++) {
		uint32_t k = hash_bytes(s->reasons[i].name, strlen(s->reasons[i].name)) & (slots - 1);

		while (h[k])
			k = (k + 1) & (slots - 1);
		h[k] = (uint32_t)i;
	}
	free(s->reason_hash);
	s->reason_hash = h;
	s->reason_slots = slots;
	return 0;
}

int tui_store_intern_reason(struct tui_store *s, const char *name, const char *desc)
{
	char buf[512];
	uint32_t k;
	size_t id;

	if (!name[0] && s->nr_reasons)
		return 0;
	if (s->reason_slots) {
		k = hash_bytes(name, strlen(name)) & (s->reason_slots - 1);
		while (s->reason_hash[k]) {
			if (!strcmp(s->reasons[s->reason_hash[k]].name, name))
				return (int)s->reason_hash[k];
			k = (k + 1) & (s->reason_slots - 1);
		}
	}
	if (s->nr_reasons >= 0xffff)
		return -ENOSPC;
	if (grow((void **)&s->reasons, &s->alloc_reasons, s->nr_reasons + 1, sizeof(*s->reasons)))
		return -ENOMEM;
	if (!desc)
		desc = builtin_reason_desc(name, buf, sizeof(buf));
	id = s->nr_reasons;
	s->reasons[id].name = strdup(name);
	s->reasons[id].desc = desc ? strdup(desc) : NULL;
	if (!s->reasons[id].name || (desc && !s->reasons[id].desc)) {
		free(s->reasons[id].name);
		free(s->reasons[id].desc);
		return -ENOMEM;
	}
	s->nr_reasons++;
	if (2 * s->nr_reasons > s->reason_slots) {
		if (reason_rehash(s, s->reason_slots ? 2 * s->reason_slots : 64) < 0) {
			s->nr_reasons--;
			free(s->reasons[id].name);
			free(s->reasons[id].desc);
			return -ENOMEM;
		}
	} else if (id) {
		k = hash_bytes(name, strlen(name)) & (s->reason_slots - 1);
		while (s->reason_hash[k])
			k = (k + 1) & (s->reason_slots - 1);
		s->reason_hash[k] = (uint32_t)id;
	}
	return (int)id;
}

static int verdict_rehash(struct tui_store *s, size_t slots)
{
	uint32_t *h = calloc(slots, sizeof(*h));
	size_t i;

	if (!h)
		return -ENOMEM;
	for (i = 1; i < s->nr_verdicts; i++) {
		uint32_t k = hash_bytes(&s->verdicts[i], sizeof(s->verdicts[i])) & (slots - 1);

		while (h[k])
			k = (k + 1) & (slots - 1);
		h[k] = (uint32_t)i;
	}
	free(s->verdict_hash);
	s->verdict_hash = h;
	s->verdict_slots = slots;
	return 0;
}

uint32_t tui_store_intern_verdict(struct tui_store *s, const struct tui_verdict *v)
{
	static const struct tui_verdict none;
	uint32_t k, id;

	if (s->nr_verdicts && !memcmp(v, &none, sizeof(*v)))
		return TUI_NONE;
	if (s->verdict_slots) {
		k = hash_bytes(v, sizeof(*v)) & (s->verdict_slots - 1);
		while (s->verdict_hash[k]) {
			if (!memcmp(&s->verdicts[s->verdict_hash[k]], v, sizeof(*v)))
				return s->verdict_hash[k];
			k = (k + 1) & (s->verdict_slots - 1);
		}
	}
	if (s->nr_verdicts >= UINT32_MAX - 1 ||
	    grow((void **)&s->verdicts, &s->alloc_verdicts, s->nr_verdicts + 1, sizeof(*v)))
		return UINT32_MAX;
	id = (uint32_t)s->nr_verdicts++;
	s->verdicts[id] = *v;
	if (2 * s->nr_verdicts > s->verdict_slots) {
		if (verdict_rehash(s, s->verdict_slots ? 2 * s->verdict_slots : 64) < 0) {
			s->nr_verdicts--;
			return UINT32_MAX;
		}
	} else if (id) {
		k = hash_bytes(v, sizeof(*v)) & (s->verdict_slots - 1);
		while (s->verdict_hash[k])
			k = (k + 1) & (s->verdict_slots - 1);
		s->verdict_hash[k] = id;
	}
	return id;
}

struct tui_row *tui_store_append(struct tui_store *s)
{
	struct tui_row *r;

	if (s->nr_rows >= UINT32_MAX - 1 ||
	    grow((void **)&s->rows, &s->alloc_rows, s->nr_rows + 1, sizeof(*s->rows)) ||
	    grow((void **)&s->keys, &s->alloc_keys, s->nr_rows + 1, sizeof(*s->keys)))
		return NULL;
	r = &s->rows[s->nr_rows];
	memset(r, 0, sizeof(*r));
	r->snap = UINT32_MAX;
	r->off = TUI_NO_OFF;
	r->src_node = r->dst_node = -1;
	r->src_cpu = r->dst_cpu = -1;
	return r;
}

static void add_sat(int64_t *sum, int64_t v)
{
	/* rows read from a report are untrusted: the totals saturate */
	if (__builtin_add_overflow(*sum, v, sum))
		*sum = v < 0 ? INT64_MIN : INT64_MAX;
}

static void cost_totals(struct tui_header *h, const struct tui_row *r, int sign)
{
	if (h->have_cost)
		return;
	add_sat(&h->cost_old, sign * r->cost_old);
	add_sat(&h->cost_new, sign * r->cost_new);
	add_sat(&h->cost_delta, sign * r->cost_delta);
	h->nr_cost += (uint64_t)(int64_t)sign;
}

uint32_t tui_row_key(const struct tui_row *r)
{
	return (uint32_t)(r->flags & 0x1ffu) | (uint32_t)(r->cls & 0xfu) << 9 |
	       (uint32_t)((r->src_node + 1) & 0x7f) << 13 | (uint32_t)((r->dst_node + 1) & 0x7f) << 20;
}

const uint32_t *tui_store_keys(const struct tui_store *s)
{
	return s->keys;
}

int tui_store_rekey(struct tui_store *s)
{
	size_t i;

	if (grow((void **)&s->keys, &s->alloc_keys, s->nr_rows, sizeof(*s->keys)))
		return -ENOMEM;
	for (i = 0; i < s->nr_rows; i++)
		s->keys[i] = tui_row_key(&s->rows[i]);
	return 0;
}

void tui_store_commit(struct tui_store *s)
{
	struct tui_row *r = &s->rows[s->nr_rows++];
	struct tui_header *h = &s->hdr;

	s->keys[s->nr_rows - 1] = tui_row_key(r);
	if (s->nr_rows == 1 || r->ts_ns < h->ts_first)
		h->ts_first = r->ts_ns;
	if (s->nr_rows == 1 || r->ts_ns > h->ts_last)
		h->ts_last = r->ts_ns;
	s->nr_disagree += !!(r->flags & TUI_ROW_DISAGREE);
	s->nr_unknown += !!(r->flags & TUI_ROW_UNKNOWN);
	h->lost += !!(r->flags & TUI_ROW_LOST);
	h->unseen += !!(r->flags & TUI_ROW_UNSEEN);
	if (!h->have_summary) {
		h->decisions = s->nr_rows;
		h->disagreements = s->nr_disagree;
		h->unknown = s->nr_unknown;
	}
	if (r->flags & TUI_ROW_COST)
		cost_totals(h, r, 1);
}

bool tui_cost_milli(double v, int64_t *out)
{
	/* the report's rounding (report-cost.c: three decimals), in integers */
	v = round(v * 1000.0);
	if (!(v >= -9.2e18 && v <= 9.2e18))
		return false;
	*out = (int64_t)v;
	return true;
}

int tui_store_set_cost(struct tui_store *s, size_t i, double cost_old, double cost_new)
{
	int64_t o, n, d;
	struct tui_row *r;

	if (i >= s->nr_rows)
		return -EINVAL;
	if (!tui_cost_milli(cost_old, &o) || !tui_cost_milli(cost_new, &n) ||
	    !tui_cost_milli(cost_new - cost_old, &d))
		return 0;
	r = &s->rows[i];
	if (r->flags & TUI_ROW_COST)
		cost_totals(&s->hdr, r, -1);
	r->cost_old = o;
	r->cost_new = n;
	r->cost_delta = d;
	r->flags |= TUI_ROW_COST;
	s->keys[i] = tui_row_key(r);
	cost_totals(&s->hdr, r, 1);
	return 0;
}

/* ---- loading ---------------------------------------------------------------- */

void tui_store_lock(const struct tui_store *cs)
{
	struct tui_store *s = (struct tui_store *)cs;

	atomic_fetch_add(&s->ui_wait, 1);
	pthread_mutex_lock(&s->mu);
	atomic_fetch_sub(&s->ui_wait, 1);
}

void tui_store_unlock(const struct tui_store *cs)
{
	pthread_mutex_unlock(&((struct tui_store *)cs)->mu);
}

void tui_store_loader_lock(struct tui_store *s)
{
	/* input wins: the loader lets a waiting interface have the store first */
	while (atomic_load(&s->ui_wait))
		sched_yield();
	pthread_mutex_lock(&s->mu);
}

void tui_store_progress(const struct tui_store *s, struct tui_progress *p)
{
	*p = s->prog;
	p->rows = s->nr_rows;
}

void tui_store_loaded(struct tui_store *s, int ret, const struct err *e)
{
	tui_store_loader_lock(s);
	s->result = ret;
	s->prog.loading = false;
	s->prog.following = false;
	if (e && e->code) {
		char buf[400];

		s->load_err = *e;
		s->prog.failed = true;
		snprintf(s->prog.msg, sizeof(s->prog.msg), "%s", err_format(e, buf, sizeof(buf)));
	} else if (ret) {
		s->prog.failed = true;
		snprintf(s->prog.msg, sizeof(s->prog.msg), "loading failed (exit code %d)", ret);
	}
	pthread_mutex_unlock(&s->mu);
}

static void *run_thread(void *arg)
{
	struct tui_store *s = arg;
	int ret = s->fn(s->fn_arg);

	tui_store_loaded(s, ret, NULL);
	return NULL;
}

int tui_store_run(struct tui_store *s, int (*fn)(void *arg), void *arg)
{
	int ret;

	if (s->have_th)
		return -EBUSY;
	s->fn = fn;
	s->fn_arg = arg;
	s->prog.loading = true;
	ret = pthread_create(&s->th, NULL, run_thread, s);
	if (ret) {
		s->prog.loading = false;
		return -ret;
	}
	s->have_th = true;
	return 0;
}

void tui_store_stop(struct tui_store *s)
{
	atomic_store(&s->stop, true);
}

int tui_store_wait(struct tui_store *s, struct err *err)
{
	if (s->have_th) {
		pthread_join(s->th, NULL);
		s->have_th = false;
	}
	if (err && s->load_err.code)
		*err = s->load_err;
	return s->result;
}

struct tui_snap *tui_store_append_snap(struct tui_store *s, struct tui_row *row, int nr_nodes)
{
	struct tui_snap *sn;

	if (nr_nodes < 0 || nr_nodes > TUI_MAX_NODES)
		nr_nodes = 0;
	if (grow((void **)&s->snaps, &s->alloc_snaps, s->nr_snaps + 1, sizeof(*s->snaps)) ||
	    grow((void **)&s->faults, &s->alloc_faults, s->nr_faults + 2 * (size_t)nr_nodes,
		 sizeof(*s->faults)) ||
	    grow((void **)&s->node_nr, &s->alloc_node_nr, s->nr_node_nr + (size_t)nr_nodes,
		 sizeof(*s->node_nr)))
		return NULL;
	sn = &s->snaps[s->nr_snaps];
	memset(sn, 0, sizeof(*sn));
	sn->nr_nodes = (uint8_t)nr_nodes;
	sn->faults = (uint32_t)s->nr_faults;
	sn->node_nr = (uint32_t)s->nr_node_nr;
	s->nr_faults += 2 * (size_t)nr_nodes;
	s->nr_node_nr += (size_t)nr_nodes;
	row->snap = (uint32_t)s->nr_snaps++;
	return sn;
}

size_t tui_store_count(const struct tui_store *s)
{
	return s->nr_rows;
}

const struct tui_row *tui_store_row(const struct tui_store *s, size_t i)
{
	return i < s->nr_rows ? &s->rows[i] : NULL;
}

const struct tui_header *tui_store_header(const struct tui_store *s)
{
	return &s->hdr;
}

const struct tui_verdict *tui_store_verdict(const struct tui_store *s, uint32_t id)
{
	return id && id < s->nr_verdicts ? &s->verdicts[id] : NULL;
}

const char *tui_store_policy_name(const struct tui_store *s, unsigned int id)
{
	return id < s->nr_policies ? s->policies[id] : "";
}

const char *tui_store_reason_name(const struct tui_store *s, unsigned int id)
{
	return id < s->nr_reasons ? s->reasons[id].name : "";
}

const char *tui_store_reason_text(const struct tui_store *s, unsigned int id)
{
	if (id >= s->nr_reasons)
		return "";
	return s->reasons[id].desc ? s->reasons[id].desc : s->reasons[id].name;
}

const char *tui_store_evidence_name(const struct tui_store *s, unsigned int id)
{
	return id < s->nr_evidence ? s->evidence[id] : "";
}

const struct tui_snap *tui_store_snap(const struct tui_store *s, const struct tui_row *row)
{
	return row->snap < s->nr_snaps ? &s->snaps[row->snap] : NULL;
}

const uint64_t *tui_store_task_faults(const struct tui_store *s, const struct tui_snap *snap)
{
	return &s->faults[snap->faults];
}

const uint64_t *tui_store_group_faults(const struct tui_store *s, const struct tui_snap *snap)
{
	return &s->faults[snap->faults + snap->nr_nodes];
}

const int32_t *tui_store_node_nr(const struct tui_store *s, const struct tui_snap *snap)
{
	return &s->node_nr[snap->node_nr];
}

const char *tui_verdict_short(const struct tui_verdict *v)
{
	if (!v)
		return "-";
	switch (v->verdict) {
	case SR_VERDICT_ALLOW:
		return "allow";
	case SR_VERDICT_RESIST:
		return "resist";
	case SR_VERDICT_UNKNOWN:
		return "unknown";
	default:
		return "n/a";
	}
}
