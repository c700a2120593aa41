// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-session.c - the middle of the pipeline in-process: a session
 * opened, run and closed on fixtures with every sink (and a counting one
 * of its own), its failures and their kinds, the frozen topology; the
 * engine and the sinks on decisions made in memory, with one golden line
 * per decision class (tests/unit/expected/decision-CLASS.json;
 * UPDATE_GOLDEN=1 rewrites them for review).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check-common.h"
#include "replay/replay.h"
#include "report/report-json-write.h"
#include "report/report-sink.h"
#include "session/session.h"

#define NUMA02 SR_FIXTURE("numa02-2n")
#define PERF_TEXT SR_FIXTURE("text/perf-host.txt")

/* A sink of the test's own: counts what the session hands it. */
struct count_sink {
	int		begins;
	int		ends;
	uint64_t	decisions;
	uint64_t	seq_sum;
	uint64_t	max_seq;
	uint64_t	disagree;
};

static int count_begin(void *priv, const struct session *s, struct err *err)
{
	struct count_sink *c = priv;

	ck_assert_ptr_nonnull(session_trace(s)->topo);
	c->begins++;
	return 0;
}

static int count_decision(void *priv, const struct engine_result *r, const struct cost_item *cost,
			  struct err *err)
{
	struct count_sink *c = priv;

	ck_assert_uint_eq(r->d->seq, cost->seq);
	ck_assert_int_eq(r->d->snap.tid, cost->tid);
	c->decisions++;
	c->seq_sum += cost->seq;
	if (cost->seq > c->max_seq)
		c->max_seq = cost->seq;
	c->disagree += r->disagree;
	return 0;
}

static int count_end(void *priv, const struct session *s, struct err *err)
{
	struct count_sink *c = priv;

	c->ends++;
	return 0;
}

static const struct session_sink_ops count_ops = {
	.name = "count", .begin = count_begin, .decision = count_decision, .end = count_end,
};

static bool disagrees(const struct engine_result *r)
{
	return r->disagree;
}

static const struct session_sink_ops count_dis_ops = {
	.name = "count-disagreements", .decision = count_decision, .wants = disagrees,
};

static struct session *open_replay(const char *trace)
{
	struct session_opts o;
	struct err e = { 0 };
	struct session *s;

	session_opts_init(&o);
	o.ingest.threads = 1;
	s = session_open(trace, &o, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	return s;
}

/* Every decision reaches the sink once, with its cost; begin and end once. */
START_TEST(test_run_counts)
{
	struct count_sink c = { 0 };
	struct session_sink k = { .ops = &count_ops, .priv = &c };
	struct session *s = open_replay(NUMA02);
	uint64_t n;

	ck_assert_ptr_nonnull(session_engine(s));
	ck_assert_int_eq(session_run(s, &k, 1), 0);
	n = session_decision_stats(s)->decisions;
	ck_assert_uint_gt(n, 0);
	ck_assert_int_eq(c.begins, 1);
	ck_assert_int_eq(c.ends, 1);
	ck_assert_uint_eq(c.decisions, n);
	ck_assert_uint_eq(c.max_seq, n - 1);
	ck_assert_uint_eq(c.seq_sum, n * (n - 1) / 2);	/* each seq once */
	ck_assert_uint_eq(c.disagree, session_disagreements(s));
	ck_assert_uint_eq(cost_ledger_totals(session_ledger(s))->decisions, n);
	ck_assert_int_eq(session_run(s, &k, 1), -EINVAL);	/* once only */
	session_close(s);
}
END_TEST

/*
 * A sink that takes disagreements only gets each of them, with its cost,
 * and nothing else; beside a sink taking every decision, alone, and as
 * the only one.
 */
START_TEST(test_disagreements_only)
{
	struct count_sink all = { 0 }, dis = { 0 }, alone = { 0 };
	struct session_sink both[2] = {
		{ .ops = &count_dis_ops, .priv = &dis }, { .ops = &count_ops, .priv = &all },
	};
	struct session_sink one = { .ops = &count_dis_ops, .priv = &alone };
	struct session *s = open_replay(NUMA02);
	uint64_t n;

	ck_assert_int_eq(session_run(s, both, 2), 0);
	n = session_disagreements(s);
	ck_assert_uint_gt(n, 0);
	ck_assert_uint_eq(all.decisions, session_decision_stats(s)->decisions);
	ck_assert_uint_gt(all.decisions, n);
	ck_assert_uint_eq(dis.decisions, n);
	ck_assert_uint_eq(dis.disagree, n);
	session_close(s);
	s = open_replay(NUMA02);
	ck_assert_int_eq(session_run(s, &one, 1), 0);
	ck_assert_uint_eq(alone.decisions, n);
	ck_assert_uint_eq(alone.disagree, n);
	ck_assert_uint_eq(alone.seq_sum, dis.seq_sum);
	session_close(s);
}
END_TEST

static char *slurp_file(FILE *f, size_t *len)
{
	char *buf;
	long n;

	fflush(f);
	n = ftell(f);
	ck_assert_int_ge(n, 0);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	rewind(f);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

/* The text, JSON, NDJSON and flat sinks side by side in one run. */
START_TEST(test_every_sink)
{
	char jpath[] = "/tmp/check-session-XXXXXX";
	struct report_sink tx = { 0 }, js = { 0 }, nd = { 0 }, fl = { 0 };
	struct session_sink k[4];
	struct session *s = open_replay(NUMA02);
	json_error_t je;
	json_t *doc;
	size_t len, lines = 0, i;
	char *text;
	uint64_t n;
	int fd;

	fd = mkstemp(jpath);
	ck_assert_int_ge(fd, 0);
	close(fd);
	tx.f = tmpfile();
	nd.f = tmpfile();
	fl.f = tmpfile();
	ck_assert(tx.f && nd.f && fl.f);
	tx.top = js.top = 10;
	js.path = jpath;
	fl.row.trace_time = 1;
	fl.have_time = true;
	k[0] = (struct session_sink){ &report_text_sink_ops, &tx };
	k[1] = (struct session_sink){ &report_json_sink_ops, &js };
	k[2] = (struct session_sink){ &report_ndjson_sink_ops, &nd };
	k[3] = (struct session_sink){ &report_flat_sink_ops, &fl };
	ck_assert_int_eq(session_run(s, k, 4), 0);
	n = session_decision_stats(s)->decisions;

	text = slurp_file(tx.f, &len);
	ck_assert_ptr_nonnull(strstr(text, "decisions"));
	free(text);
	doc = json_load_file(jpath, 0, &je);
	ck_assert_msg(doc != NULL, "%s", je.text);
	/* placements kept where every side put the task are counted, not listed */
	n -= (uint64_t)json_integer_value(json_object_get(json_object_get(doc, "summary"), "unlisted"));
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "decisions")), n);
	ck_assert_int_eq(json_integer_value(json_object_get(doc, "schema_version")), REPORT_REPLAY_SCHEMA);
	json_decref(doc);
	text = slurp_file(nd.f, &len);
	for (i = 0; i < len; i++)
		lines += text[i] == '\n';
	ck_assert_uint_eq(lines, n);
	free(text);
	text = slurp_file(fl.f, &len);
	ck_assert_ptr_nonnull(strstr(text, "\"trace_time\":1"));
	free(text);

	report_sink_release(&js);
	report_sink_release(&nd);
	report_sink_release(&fl);
	fclose(tx.f);
	fclose(nd.f);
	fclose(fl.f);
	unlink(jpath);
	session_close(s);
}
END_TEST

/*
 * A replay's output does not depend on its threads: with a decision thread
 * (threads 2, session-pipe.c) the JSON document and the NDJSON lines are
 * those of the serial loop, byte for byte, on fixtures with every class of
 * decision (load-balance candidates, probes, wake-ups, NUMA faults).  Also
 * with a ring of 8 slots, which the fixtures fill and drain
 * thousands of times (each side waiting for half of it), where the
 * default one of thousands of slots may never fill.
 */
static void run_to(const char *trace, int threads, size_t slots, char **json, char **nd)
{
	char jpath[] = "/tmp/check-session-XXXXXX";
	struct report_sink js = { 0 }, k2 = { 0 };
	struct session_sink k[2];
	struct session_opts o;
	struct err e = { 0 };
	struct session *s;
	size_t len;
	FILE *f;
	int fd;

	session_opts_init(&o);
	o.ingest.threads = threads;
	o.pipe_slots = slots;
	s = session_open(trace, &o, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	fd = mkstemp(jpath);
	ck_assert_int_ge(fd, 0);
	close(fd);
	js.path = jpath;
	js.top = 10;
	k2.f = tmpfile();
	ck_assert_ptr_nonnull(k2.f);
	k[0] = (struct session_sink){ &report_json_sink_ops, &js };
	k[1] = (struct session_sink){ &report_ndjson_sink_ops, &k2 };
	ck_assert_msg(session_run(s, k, 2) == 0, "%s", session_err(s)->msg);
	*nd = slurp_file(k2.f, &len);
	fclose(k2.f);
	report_sink_release(&k2);
	f = fopen(jpath, "r");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	*json = slurp_file(f, &len);
	fclose(f);
	report_sink_release(&js);
	unlink(jpath);
	session_close(s);
}

START_TEST(test_threads_same_output)
{
	static const char *const traces[] = {
		SR_FIXTURE("numa02-2n"), SR_FIXTURE("numa01-4n"), SR_FIXTURE("probes-4n"),
		SR_FIXTURE("mixed-2n"), SR_FIXTURE("host-2cpu-mixed.dat"),
	};
	static const size_t slots[] = { 0, 8 };
	char *j1, *n1, *j2, *n2;
	size_t i, k;

	for (i = 0; i < sizeof(traces) / sizeof(traces[0]); i++) {
		run_to(traces[i], 1, 0, &j1, &n1);
		ck_assert_uint_gt(strlen(n1), 0);
		for (k = 0; k < sizeof(slots) / sizeof(slots[0]); k++) {
			run_to(traces[i], 2, slots[k], &j2, &n2);
			ck_assert_msg(!strcmp(j1, j2), "%s: JSON differs with a decision thread (%zu slots)",
				      traces[i], slots[k]);
			ck_assert_msg(!strcmp(n1, n2), "%s: NDJSON differs with a decision thread (%zu slots)",
				      traces[i], slots[k]);
			free(j2);
			free(n2);
		}
		free(j1);
		free(n1);
	}
}
END_TEST

/*
 * The stream writer of a decision (report_decision_write(), used by NDJSON
 * and the --json spill) against the tree it stands in for
 * (report_decision_json() with report_cost_item_json() as "cost",
 * report_json_dump_at()): the same bytes, compact at depth 0 and indented
 * at depth 2, for every decision of fixtures with every class, and for
 * random variations of each (every optional member, flag and choice kind,
 * unknown codes, task names with quotes, controls, bidi and broken UTF-8,
 * reals that are not finite or round to infinity, cost parts).
 */
struct same_sink {
	uint64_t	state;
	uint64_t	compared;
	uint64_t	seen_parts, seen_cand, seen_truth;
	bool		count_only;
	/* the sinks' memo of verdicts: across the fixture's decisions; a variation and its nudge */
	struct report_decision_memo memo_real, memo_vary;
};

static uint32_t rnd(struct same_sink *c)
{
	c->state = c->state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(c->state >> 33);
}

static double rnd_real(struct same_sink *c)
{
	static const double odd[] = { 0.0, -0.0, 1.0, -1.0, 0.0004, 0.0005, 0.0015, -2.5e-4,
				      1e15, 123456789012.5, 1e300, -1e306, 1e-300 };

	switch (rnd(c) % 6) {
	case 0:
		return NAN;
	case 1:
		return rnd(c) & 1 ? INFINITY : -INFINITY;
	case 2:
		return odd[rnd(c) % (sizeof(odd) / sizeof(odd[0]))];
	case 3:
		return (double)(int32_t)rnd(c);
	default:
		return ((double)(int32_t)rnd(c)) / (1 + rnd(c) % 100000);
	}
}

static void rnd_comm(struct same_sink *c, char *comm, size_t cap)
{
	static const char *const bits[] = {
		"a", "\"", "\\", "\n", "\t", "\x01", "\x7f", "\xc2\x85", "\xe2\x80\xae", "\xff",
		"\xe2\x80", "\xf0\x9f\x98\x80", "\xc0\xaf", "/", "kworker/0:1", " ",
	};
	size_t n = 0;

	memset(comm, 0, cap);
	while (n < cap - 1) {
		const char *b = bits[rnd(c) % (sizeof(bits) / sizeof(bits[0]))];
		size_t l = strlen(b);

		if (rnd(c) % 5 == 0 || n + l > cap - 1)
			break;
		memcpy(comm + n, b, l);
		n += l;
	}
	if (rnd(c) % 4 == 0)
		memset(comm, 'x', cap);	/* no NUL: strnlen() stops at the end */
}

static void rnd_value(struct same_sink *c, struct cost_value *v, int *node)
{
	v->known = rnd(c) % 3 != 0;
	v->accesses = rnd_real(c);
	v->remote = rnd_real(c);
	v->weighted = rnd_real(c);
	*node = (int)(rnd(c) % 6) - 1;
}

static void vary(struct same_sink *c, struct engine_result *r, struct decision *d,
		 struct cost_item *it)
{
	int side, i, s;

	d->flags = rnd(c) & 7;
	d->has_truth = rnd(c) & 1;
	d->truth = rnd(c) & 1;
	d->partner_tid = rnd(c) % 3 ? 0 : (int)rnd(c);
	d->why = (int)(rnd(c) % (DECISION_WHY__COUNT + 2)) - 1;
	d->dp_flags = rnd(c) & 15;
	d->nr_cand = (int)(rnd(c) % 300);
	d->nr_pull = (int)(rnd(c) % 4);
	d->snap.decision_class = (int)(rnd(c) % (SR_DECISION_CLASS__COUNT + 2)) - 1;
	d->snap.known ^= rnd(c);
	d->snap.tid = (int)rnd(c);
	d->snap.tgid = -(int)(rnd(c) % 5);
	d->snap.src_node = (int)(rnd(c) % 5) - 1;
	d->snap.ts_ns = (uint64_t)rnd(c) << 31 | rnd(c);
	if (rnd(c) & 1)
		rnd_comm(c, d->snap.comm, sizeof(d->snap.comm));
	r->flips = rnd(c) & 1;
	r->disagree = rnd(c) & 1;
	r->unknown = rnd(c) & 1;
	r->verdicts_differ = rnd(c) & 1;
	for (side = 0; side < ENGINE__SIDES; side++) {
		struct sr_verdict *v = rnd(c) & 1 ? &r->v[side] : &r->cv[side];

		if (rnd(c) % 4 == 0)
			r->pol[side] = rnd(c) & 1 ? NULL : r->pol[(side + 1) % ENGINE__SIDES];
		v->verdict = (int32_t)(rnd(c) % 6) - 1;
		v->flags = rnd(c) & 31;
		v->nr_reasons = rnd(c) % (SR_MAX_REASONS + 3);
		for (i = 0; i < SR_MAX_REASONS; i++)
			v->reasons[i] = (uint16_t)(rnd(c) % 3 ? rnd(c) % SR_REASON__COUNT : rnd(c));
		v->target_node = (int32_t)(rnd(c) % 4) - 1;
		v->target_cpu = (int32_t)(rnd(c) % 4) - 1;
		r->choice[side].kind = (int)(rnd(c) % 5);
		r->choice[side].tid = (int)rnd(c);
		r->choice[side].pos = (int)(rnd(c) % 5) - 1;
		r->choice[side].cpu = (int)(rnd(c) % 5) - 1;
		r->choice[side].node = (int)(rnd(c) % 5) - 1;
		if (rnd(c) & 1)
			rnd_comm(c, r->choice[side].comm, sizeof(r->choice[side].comm));
	}
	for (s = 0; s < COST__SIDES; s++)
		rnd_value(c, &it->v[s], &it->node[s]);
	it->unpriced = rnd_real(c);
	it->unknown = (int)(rnd(c) % (COST_UNKNOWN__COUNT + 1));
	it->end = (int)(rnd(c) % 5) - 1;
	it->start_ns = rnd(c);
	it->end_ns = it->start_ns + rnd(c);
	it->nr_parts = (int)(rnd(c) % (COST_MAX_PARTS + 1));
	for (i = 0; i < it->nr_parts; i++) {
		struct cost_part *p = &it->part[i];

		p->tid = (int)rnd(c);
		p->from_node = (int)(rnd(c) % 4) - 1;
		for (s = 0; s < COST__SIDES; s++)
			rnd_value(c, &p->v[s], &p->node[s]);
		p->start_ns = rnd(c);
		p->end_ns = p->start_ns + rnd(c);
		p->end = (int)(rnd(c) % 4);
		p->unpriced = rnd_real(c);
		p->short_history = rnd(c) & 1;
	}
}

/* one of the inputs a side's verdict is written from, changed */
static void nudge(struct same_sink *c, struct engine_result *r, struct decision *d)
{
	int side = (int)(rnd(c) % ENGINE__SIDES);
	struct sr_verdict *v = &r->v[side];
	struct decision_choice *ch = &r->choice[side];

	switch (rnd(c) % 14) {
	case 0:  v->verdict ^= 1; break;
	case 1:  v->flags ^= 1u << (rnd(c) % 4); break;
	case 2:  v->target_node++; break;
	case 3:  v->target_cpu++; break;
	case 4:  v->nr_reasons = (v->nr_reasons + 1) % (SR_MAX_REASONS + 1); break;
	case 5:  v->reasons[rnd(c) % SR_MAX_REASONS]++; break;
	case 6:  ch->kind = (ch->kind + 1) % 4; break;
	case 7:  ch->tid++; break;
	case 8:  ch->pos++; break;
	case 9:  ch->comm[rnd(c) % 4] ^= 1; break;
	case 10: ch->cpu++; ch->node--; break;
	case 11: r->cv[side].reasons[rnd(c) % SR_MAX_REASONS]++;
		 r->cv[side].nr_reasons = SR_MAX_REASONS; break;
	case 12: r->pol[side] = r->pol[(side + 1) % ENGINE__SIDES]; break;
	default: d->snap.decision_class = (int)(rnd(c) % SR_DECISION_CLASS__COUNT); break;
	}
}

static void same_bytes(struct same_sink *c, const struct engine_result *r,
		       const struct cost_item *cost, struct report_decision_memo *memo)
{
	static const struct { size_t flags; int depth; } forms[] = {
		{ JSON_SORT_KEYS | JSON_COMPACT | JSON_REAL_PRECISION(12), 0 },
		{ REPORT_JSON_FLAGS, 2 },
	};
	size_t i;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		char *tb = NULL, *sb = NULL;
		size_t tl = 0, sl = 0;
		FILE *tf = open_memstream(&tb, &tl), *sf = open_memstream(&sb, &sl);
		json_t *o = report_decision_json(r), *cj = report_cost_item_json(cost);
		struct report_jw w;
		uint64_t n = 0;
		size_t at;

		ck_assert_ptr_nonnull(tf);
		ck_assert_ptr_nonnull(sf);
		ck_assert_ptr_nonnull(o);
		ck_assert_ptr_nonnull(cj);
		ck_assert_int_eq(json_object_set_new(o, "cost", cj), 0);
		ck_assert_int_eq(report_json_dump_at(o, tf, forms[i].flags, forms[i].depth, NULL), 0);
		json_decref(o);
		report_jw_begin(&w, sf, forms[i].flags, forms[i].depth);
		report_decision_write(&w, r, cost, memo);
		ck_assert_int_eq(report_jw_end(&w, &n), 0);
		fclose(tf);
		fclose(sf);
		ck_assert_uint_eq(n, sl);
		for (at = 0; at < tl && at < sl && tb[at] == sb[at]; at++)
			;
		ck_assert_msg(tl == sl && at == tl,
			      "decision %" PRIu64 ", byte %zu: the stream writes ...%.160s, the tree ...%.160s",
			      cost->seq, at, sb + (at > 80 ? at - 80 : 0), tb + (at > 80 ? at - 80 : 0));
		free(tb);
		free(sb);
		c->compared++;
	}
}

static int same_decision(void *priv, const struct engine_result *r, const struct cost_item *cost,
			 struct err *err)
{
	struct same_sink *c = priv;
	struct engine_result vr;
	struct decision vd;
	struct cost_item vc;
	int k;

	(void)err;
	c->seen_parts += cost->nr_parts > 1;
	c->seen_cand += decision_is_lb(r->d->snap.decision_class);
	c->seen_truth += r->d->has_truth;
	if (c->count_only)
		return 0;
	same_bytes(c, r, cost, &c->memo_real);
	/* a variation, then the same with one input of a verdict changed: through one memo */
	for (k = 0; k < 3; k++) {
		if (k < 2) {
			vr = *r;
			vd = *r->d;
			vc = *cost;
			vr.d = &vd;
			vary(c, &vr, &vd, &vc);
		} else {
			nudge(c, &vr, &vd);
		}
		same_bytes(c, &vr, &vc, k ? &c->memo_vary : NULL);
	}
	return 0;
}

static const struct session_sink_ops same_ops = { .name = "same", .decision = same_decision };

static const char *const stream_traces[] = {
	SR_FIXTURE("numa02-2n"), SR_FIXTURE("numa01-4n"), SR_FIXTURE("probes-4n"),
	SR_FIXTURE("mixed-2n"), SR_FIXTURE("host-2cpu-mixed.dat"), SR_FIXTURE("numa01-shm-4n"),
};

START_TEST(test_decision_stream_same_bytes)
{
	struct same_sink c = { .state = 20261206 + (uint64_t)_i };
	struct session_sink k = { .ops = &same_ops, .priv = &c };
	struct session *s = open_replay(stream_traces[_i]);

	ck_assert_msg(session_run(s, &k, 1) == 0, "%s", session_err(s)->msg);
	session_close(s);
	ck_assert_uint_gt(c.compared, 100);
	/* the memo wrote some verdicts from its copy: those were compared too */
	ck_assert_uint_gt(c.memo_real.hits, 0);
}
END_TEST

/* the fixtures have what the variations vary, as the kernel made it */
START_TEST(test_decision_stream_fixtures_cover)
{
	struct same_sink c = { .count_only = true };
	struct session_sink k = { .ops = &same_ops, .priv = &c };
	size_t i;

	for (i = 0; i < sizeof(stream_traces) / sizeof(stream_traces[0]); i++) {
		struct session *s = open_replay(stream_traces[i]);

		ck_assert_msg(session_run(s, &k, 1) == 0, "%s", session_err(s)->msg);
		session_close(s);
	}
	ck_assert_uint_gt(c.seen_parts, 0);
	ck_assert_uint_gt(c.seen_cand, 0);
	ck_assert_uint_gt(c.seen_truth, 0);
}
END_TEST

/*
 * A sink failing at its Nth decision: the same error, serial or threaded.
 * Threaded, its calls come on the decision thread, named sr-judge (top -H,
 * perf) from its start.
 */
struct fail_sink {
	uint64_t	n;
	uint64_t	at;
	char		thread[16];	/* the name of the thread of the first call */
};

static int fail_decision(void *priv, const struct engine_result *r, const struct cost_item *cost,
			 struct err *err)
{
	struct fail_sink *k = priv;

	if (!k->n && pthread_getname_np(pthread_self(), k->thread, sizeof(k->thread)))
		k->thread[0] = '\0';
	if (++k->n < k->at)
		return 0;
	return err_set(err, -ENOSPC, "sink full at decision %llu", (unsigned long long)cost->seq);
}

static const struct session_sink_ops fail_ops = { .name = "fail", .decision = fail_decision };

START_TEST(test_threads_sink_error_named)
{
	static const uint64_t at[] = { 1, 100, 2000 };
	char msg[2][sizeof(((struct err *)0)->msg)];
	struct session_opts o;
	struct err e = { 0 };
	struct session *s;
	size_t i;
	int t, ret[2];

	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		for (t = 0; t < 2; t++) {
			struct fail_sink fk = { .at = at[i] };
			struct session_sink k = { .ops = &fail_ops, .priv = &fk };

			session_opts_init(&o);
			o.ingest.threads = t + 1;
			s = session_open(NUMA02, &o, &e);
			ck_assert_msg(s != NULL, "%s", e.msg);
			ret[t] = session_run(s, &k, 1);
			snprintf(msg[t], sizeof(msg[t]), "%s", session_err(s)->msg);
			ck_assert_uint_eq(fk.n, at[i]);	/* nothing after the failure */
			if (t)
				ck_assert_str_eq(fk.thread, "sr-judge");
			else
				ck_assert_str_ne(fk.thread, "sr-judge");
			session_close(s);
		}
		ck_assert_int_eq(ret[0], -ENOSPC);
		ck_assert_int_eq(ret[1], ret[0]);
		ck_assert_str_eq(msg[1], msg[0]);
		ck_assert_ptr_nonnull(strstr(msg[0], "sink full at decision"));
	}
}
END_TEST

/* info: the model alone, events by name, the info sink's JSON. */
START_TEST(test_info)
{
	struct report_sink k = { .json = true, .path = "memory" };
	struct session_sink sk = { &report_info_sink_ops, &k };
	struct session_opts o;
	struct err e = { 0 };
	struct session *s;
	json_error_t je;
	json_t *doc;
	size_t len;
	char *text;

	session_opts_init(&o);
	o.mode = SESSION_INFO;
	s = session_open(NUMA02, &o, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	ck_assert_ptr_null(session_engine(s));
	k.f = tmpfile();
	ck_assert_int_eq(session_run(s, &sk, 1), 0);
	ck_assert_uint_gt(strcount_get(session_event_names(s), "sched_switch"), 0);
	text = slurp_file(k.f, &len);
	doc = json_loads(text, 0, &je);
	ck_assert_msg(doc != NULL, "%s", je.text);
	ck_assert_str_eq(json_string_value(json_object_get(doc, "trace")),
			 NUMA02 "/trace.dat");
	json_decref(doc);
	free(text);
	fclose(k.f);
	session_close(s);
}
END_TEST

/* No topology anywhere: a guess sized by the pre-scan, never grown. */
START_TEST(test_topology_frozen)
{
	struct count_sink c = { 0 };
	struct session_sink k = { .ops = &count_ops, .priv = &c };
	struct session *s = open_replay(PERF_TEXT);
	const struct topo *t = session_trace(s)->topo;
	int cpus = t->nr_cpus;

	ck_assert_int_eq(t->source, TOPO_SRC_DEFAULT);
	ck_assert_int_eq(cpus, 2);	/* perf-host.txt names CPUs 0 and 1 */
	ck_assert_int_eq(session_run(s, &k, 1), 0);
	ck_assert_ptr_eq(session_trace(s)->topo, t);
	ck_assert_int_eq(t->nr_cpus, cpus);
	ck_assert_uint_eq(session_trace(s)->beyond_topo, 0);
	session_close(s);
}
END_TEST

/*
 * Beyond the pre-scan: a CPU that the first SESSION_PRESCAN_EVENTS events
 * did not name is damage read around under a guessed topology (counted,
 * the event skipped), and fatal with strict.
 */
static void write_long_trace(char *path)
{
	FILE *f;
	int fd, i;

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs("# tracer: nop\n#\n# entries-in-buffer/entries-written: 1/1   #P:1\n#\n", f);
	for (i = 0; i <= SESSION_PRESCAN_EVENTS; i++)
		fprintf(f, "           a-10      [000] d..2. %6d.%06d: sched_wakeup: comm=b pid=11 prio=120 target_cpu=000\n",
			1 + i / 1000000, i % 1000000);
	fputs("           a-10      [003] d..2.     2.000000: sched_wakeup: comm=b pid=11 prio=120 target_cpu=003\n",
	      f);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_beyond_prescan)
{
	char path[] = "/tmp/check-session-long-XXXXXX";
	struct count_sink c = { 0 };
	struct session_sink k = { .ops = &count_ops, .priv = &c };
	struct session_opts o;
	struct err e = { 0 };
	struct session *s;

	write_long_trace(path);
	session_opts_init(&o);
	o.mode = SESSION_INFO;
	s = session_open(path, &o, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	ck_assert_int_eq(session_trace(s)->topo->source, TOPO_SRC_DEFAULT);
	ck_assert_int_eq(session_trace(s)->topo->nr_cpus, 1);
	ck_assert_int_eq(session_run(s, &k, 1), 0);
	ck_assert_uint_eq(session_trace(s)->beyond_topo, 1);
	ck_assert_uint_eq(session_trace(s)->warnings, 1);
	ck_assert_int_eq(session_trace(s)->topo->nr_cpus, 1);
	ck_assert_uint_eq(strcount_get(session_event_names(s), "sched_wakeup"),
			  SESSION_PRESCAN_EVENTS + 1);
	session_close(s);

	o.ingest.strict = true;
	s = session_open(path, &o, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	ck_assert_int_eq(session_run(s, &k, 1), -SR_ERANGE);
	ck_assert_ptr_nonnull(strstr(session_err(s)->msg, "cpu 3 out of range"));
	ck_assert_str_eq(session_err(s)->where, "line 500006");
	session_close(s);
	unlink(path);
}
END_TEST

/* Failures and their kinds (the CLI's exit codes). */
START_TEST(test_open_failures)
{
	struct session_opts o;
	struct err e = { 0 };

	session_opts_init(&o);
	ck_assert_ptr_null(session_open(SR_FIXTURE("no-such.dat"), &o, &e));
	ck_assert_int_eq(session_fail(e.code), SESSION_FAIL_INPUT);
	memset(&e, 0, sizeof(e));
	ck_assert_ptr_null(session_open(SR_FIXTURE("text"), &o, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "a folder without trace.dat"));
	memset(&e, 0, sizeof(e));
	o.old_list = "no-such-policy";
	ck_assert_ptr_null(session_open(NUMA02, &o, &e));
	ck_assert_int_eq(session_fail(e.code), SESSION_FAIL_USAGE);
	ck_assert_str_eq(e.msg, "unknown policy 'no-such-policy' ('schedreplay policies' lists them)");
	session_opts_init(&o);
	o.params[o.nr_params++] = "no_such_param=1";
	memset(&e, 0, sizeof(e));
	ck_assert_ptr_null(session_open(NUMA02, &o, &e));
	ck_assert_int_eq(session_fail(e.code), SESSION_FAIL_USAGE);
	ck_assert_int_eq(session_fail(-ENOMEM), SESSION_FAIL_INTERNAL);
}
END_TEST

/* ---- damage that hides topology lines ------------------------------------ */

#define HEAD_V6 SR_FIXTURE("dat/numa02-head-v6.dat")
#define NUMA02_TOPO SR_FIXTURE("numa02-2n/numactl-H.txt")

/* The bytes of @path, *@len of them; the caller frees. */
static char *read_fixture(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	buf = slurp_file(f, len);
	fclose(f);
	return buf;
}

/* @len bytes of @buf into a new file at @path (a mkstemp() template). */
static void write_copy(char *path, const char *buf, size_t len)
{
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	ck_assert_int_eq(close(fd), 0);
}

static void note_count(void *arg, const char *msg)
{
	(void)msg;
	(*(int *)arg)++;
}

/*
 * A damaged copy that hid node lines: refused with the missing nodes and
 * the damage named, opened and run with --topology (one note says so).
 * Return: 1 when the copy's lines were incomplete, 0 when they were not.
 */
static int check_hidden_topology(const char *path)
{
	struct count_sink c = { 0 };
	struct session_sink k = { .ops = &count_ops, .priv = &c };
	struct session_opts o;
	struct err e = { 0 };
	struct session *s;
	int notes = 0;

	session_opts_init(&o);
	o.mode = SESSION_INFO;
	o.ingest.threads = 1;
	s = session_open(path, &o, &e);
	if (s) {
		session_close(s);
		return 0;
	}
	if (e.code != -SR_EBADTOPO)
		return 0;	/* damage the header reader refuses: not this case */
	ck_assert_msg(!strncmp(e.msg, "schedreplay_node lines for 1 of 2 nodes; the trace is damaged at byte ",
			       strlen("schedreplay_node lines for 1 of 2 nodes; the trace is damaged at byte ")),
		      "%s", e.msg);
	ck_assert_ptr_nonnull(strstr(e.msg, ": give --topology"));
	ck_assert_str_eq(e.file, path);
	ck_assert_int_eq(session_fail(e.code), SESSION_FAIL_INPUT);

	o.topology = NUMA02_TOPO;
	o.note = note_count;
	o.cb_arg = &notes;
	memset(&e, 0, sizeof(e));
	s = session_open(path, &o, &e);
	ck_assert_msg(s != NULL, "%s with --topology: %s", path, e.msg);
	ck_assert_int_eq(session_trace(s)->topo->source, TOPO_SRC_NUMACTL);
	ck_assert_int_eq(session_trace(s)->topo->nr_nodes, 2);
	ck_assert_int_eq(notes, 1);
	ck_assert_int_eq(session_run(s, &k, 1), 0);
	ck_assert_uint_gt(session_trace(s)->warnings, 0);
	session_close(s);
	return 1;
}

/* v6 copies cut at every 4 KiB of the event data before the last node line */
START_TEST(test_cut_hides_topology)
{
	size_t len, off, node1;
	char *buf = read_fixture(HEAD_V6, &len);
	const char *hit;
	int hidden = 0, cuts = 0;

	hit = memmem(buf, len, "schedreplay_node node=0", 23);
	ck_assert_ptr_nonnull(hit);
	node1 = hit - buf;
	for (off = 32768; off < node1; off += 4096) {
		char path[] = "/tmp/check-session-cut-XXXXXX";

		write_copy(path, buf, off);
		hidden += check_hidden_topology(path);
		cuts++;
		unlink(path);
	}
	/* every cut after the meta line and before the node 0 line hides it */
	ck_assert_int_ge(cuts, 30);
	ck_assert_int_ge(hidden, cuts - 2);
	free(buf);
}
END_TEST

/* A mutated copy: the first event of the page holding the node 0 line broken */
START_TEST(test_mutation_hides_topology)
{
	char path[] = "/tmp/check-session-mut-XXXXXX";
	size_t len, page;
	char *buf = read_fixture(HEAD_V6, &len);
	const char *hit = memmem(buf, len, "schedreplay_node node=0", 23);

	ck_assert_ptr_nonnull(hit);
	page = (size_t)(hit - buf) / 4096 * 4096;
	memset(buf + page + 16, 0xee, 4);	/* the page's first event header */
	write_copy(path, buf, len);
	ck_assert_int_eq(check_hidden_topology(path), 1);
	unlink(path);
	free(buf);
}
END_TEST

/* ---- decisions where a CPU was not seen ---------------------------------- */

struct unseen_sink {
	const struct ingest_info *info;	/* its first_ts_ns: the trace's start */
	uint64_t	cpu1_first;	/* CPU 1's first event (ns) */
	uint64_t	touch;		/* decisions touching CPU 1 before it */
	uint64_t	flagged;	/* decisions flagged cpu-unseen */
	uint64_t	flagged_touch;	/* ...of those, touching CPU 1 before it */
};

static int unseen_decision(void *priv, const struct engine_result *r, const struct cost_item *cost,
			   struct err *err)
{
	struct unseen_sink *u = priv;
	const struct decision *d = r->d;
	bool touch = (d->snap.src_cpu == 1 || d->snap.dst_cpu == 1) &&
		     d->snap.ts_ns < u->cpu1_first &&
		     d->snap.ts_ns >= u->info->first_ts_ns + DECISION_UNSEEN_MIN_NS;

	(void)cost;
	(void)err;
	u->touch += touch;
	if (d->flags & DECISION_F_UNSEEN) {
		u->flagged++;
		u->flagged_touch += touch;
	}
	return 0;
}

static const struct session_sink_ops unseen_ops = { .name = "unseen", .decision = unseen_decision };

/*
 * cpu1-late-v6.dat: CPU 1's buffer overflowed, its data starts 5 s late
 * behind one lost record; every decision touching CPU 1 before then is
 * flagged, and counted in the decision stats.
 */
START_TEST(test_unseen_flagged)
{
	struct unseen_sink u = { 0 };
	struct session_sink k = { .ops = &unseen_ops, .priv = &u };
	struct session *s = open_replay(SR_FIXTURE("dat/cpu1-late-v6.dat"));
	const struct ingest_info *info;

	/* from info, as a first pass would: CPU 1's first event */
	info = session_trace(s)->info;
	ck_assert_ptr_nonnull(info);
	u.info = info;
	u.cpu1_first = 11617258000ull;	/* trace-cmd report: CPU:1 [766739 EVENTS DROPPED] */
	ck_assert_int_eq(session_run(s, &k, 1), 0);
	ck_assert_uint_eq((info->first_ts_per_cpu[1] - 1) / 1000, u.cpu1_first / 1000);
	ck_assert_uint_ge(u.touch, 5);
	ck_assert_uint_eq(u.flagged_touch, u.touch);
	/* and one more: 2 -> 3 before CPU 3's first event, 51 ms in */
	ck_assert_uint_eq(u.flagged, u.touch + 1);
	ck_assert_uint_eq(session_decision_stats(s)->unseen_flagged, u.flagged);
	session_close(s);

	/*
	 * the fixture it was cut from (starting 4.8 ms earlier): that one and
	 * 2 -> 0 at 6.661865, before CPU 0's first event at 6.662217 (info's
	 * "before-first-event" stretches of CPU 0 and 3)
	 */
	memset(&u, 0, sizeof(u));
	s = open_replay(HEAD_V6);
	u.info = session_trace(s)->info;
	ck_assert_int_eq(session_run(s, &k, 1), 0);
	ck_assert_uint_eq(u.flagged, 2);
	session_close(s);
}
END_TEST

/* ---- in-memory decisions through the engine and the NDJSON sink ---------- */

static struct engine *default_engine(void)
{
	static const char *const names[2][3] = {
		{ "lb-v4.1", "numa-v4.18", "exec-least-loaded" },
		{ "lb-v4.1-numa-hotness", "numa-v4.19", "exec-round-robin" },
	};
	struct engine *e = engine_new();
	struct err err = { 0 };
	int side, i;

	ck_assert_ptr_nonnull(e);
	for (side = 0; side < 2; side++)
		for (i = 0; i < 3; i++) {
			struct replay_policy *p =
				replay_policy_new(replay_registry_lookup(names[side][i]));

			ck_assert_ptr_nonnull(p);
			ck_assert_int_eq(replay_policy_start(p, &err), 0);
			ck_assert_int_eq(engine_add(e, side, p, &err), 0);
		}
	return e;
}

/* A decision of class @cls on a 2-node, 4-CPU machine: CPU 0 (node 0) to 2 (node 1). */
static void make_decision(struct decision *d, int cls)
{
	int i, j;

	memset(d, 0, sizeof(*d));
	d->seq = (uint64_t)cls;
	d->why = DECISION_WHY_QUEUED;
	d->partner_tid = cls == SR_DECISION_CLASS_NUMA_SWAP ? 201 : 0;
	d->snap.size = sizeof(d->snap);
	d->snap.decision_class = cls;
	d->snap.ts_ns = 1000000000ull + (uint64_t)cls * 1000;
	d->snap.tid = 100 + cls;
	d->snap.tgid = 100;
	snprintf(d->snap.comm, sizeof(d->snap.comm), "task-%d", cls);
	d->snap.src_cpu = 0;
	d->snap.dst_cpu = 2;
	d->snap.src_node = 0;
	d->snap.dst_node = 1;
	d->snap.nr_nodes = 2;
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++)
			d->snap.distance[i][j] = i == j ? 10 : 20;
	d->snap.task_faults[0] = 30;
	d->snap.task_faults[1] = 70;
	d->snap.pref_node = 1;
	d->snap.src_nr_running = 3;
	d->snap.dst_nr_running = 1;
	d->snap.node_nr_running[0] = 3;
	d->snap.node_nr_running[1] = 1;
	d->snap.node_nr_cpus[0] = 2;
	d->snap.node_nr_cpus[1] = 2;
	d->snap.since_ran_ns = 4000000;
	d->snap.known = SR_SNAP_CLASS | SR_SNAP_TIME | SR_SNAP_TID | SR_SNAP_TGID | SR_SNAP_COMM |
			SR_SNAP_SRC_CPU | SR_SNAP_DST_CPU | SR_SNAP_SRC_NODE | SR_SNAP_DST_NODE |
			SR_SNAP_CROSS_NODE | SR_SNAP_NR_NODES | SR_SNAP_DISTANCE |
			SR_SNAP_PREF_NODE | SR_SNAP_HAS_FAULTS | SR_SNAP_TASK_FAULTS |
			SR_SNAP_SRC_NR_RUNNING | SR_SNAP_DST_NR_RUNNING | SR_SNAP_SINCE_RAN |
			SR_SNAP_NODE_NR_RUNNING | SR_SNAP_NODE_NR_CPUS | SR_SNAP_TASK_RUNNING |
			SR_SNAP_DST_IDLE | SR_SNAP_TASK_CLASS | SR_SNAP_NUMA_GROUP |
			SR_SNAP_GROUP_FAULTS | SR_SNAP_NUMA_INFLIGHT | SR_SNAP_EXEC_SEQ;
	d->snap.exec_seq = 3;
	d->snap.task_running = 0;
	d->snap.dst_idle = 1;
	d->snap.numa_group = 0;
	d->snap.cross_node = 1;
	d->snap.has_faults = 1;
}

static void make_cost(struct cost_item *it, const struct decision *d)
{
	memset(it, 0, sizeof(*it));
	it->seq = d->seq;
	it->tid = d->snap.tid;
	it->cls = d->snap.decision_class;
	it->start_ns = d->snap.ts_ns;
	it->end_ns = d->snap.ts_ns + 5000000;
	it->end = COST_END_NEXT;
	it->node[COST_OLD] = 0;
	it->node[COST_NEW] = 1;
	it->node[COST_TRACE] = 1;
	it->v[COST_OLD] = (struct cost_value){ 100, 70, 170, true };
	it->v[COST_NEW] = (struct cost_value){ 100, 30, 130, true };
	it->v[COST_TRACE] = (struct cost_value){ 100, 30, 130, true };
}

/* One golden line per decision class: engine, then the NDJSON sink. */
START_TEST(test_decision_golden)
{
	int cls = _i;
	const char *name = replay_class_name(cls);
	struct engine *e = default_engine();
	struct report_sink nd = { 0 };
	struct engine_result r;
	struct cost_item it;
	struct decision d;
	struct err err = { 0 };
	char path[512], *line, *want;
	size_t len, wlen;
	FILE *f;

	make_decision(&d, cls);
	ck_assert_msg(engine_evaluate(e, &d, &r, &err) == 0, "%s", err.msg);
	ck_assert_ptr_eq(r.d, &d);
	make_cost(&it, &d);
	nd.f = tmpfile();
	ck_assert(report_ndjson_sink_ops.wants(&r));	/* the session hands over only these */
	ck_assert_int_eq(report_ndjson_sink_ops.begin(&nd, NULL, &err), 0);
	ck_assert_int_eq(report_ndjson_sink_ops.decision(&nd, &r, &it, &err), 0);
	ck_assert_int_eq(report_ndjson_sink_ops.end(&nd, NULL, &err), 0);
	line = slurp_file(nd.f, &len);
	fclose(nd.f);
	report_sink_release(&nd);
	ck_assert_uint_gt(len, 0);
	ck_assert_ptr_nonnull(strstr(line, name));
	snprintf(path, sizeof(path), SR_SOURCE_DIR "/tests/unit/expected/decision-%s.json", name);
	if (getenv("UPDATE_GOLDEN") && !strcmp(getenv("UPDATE_GOLDEN"), "1")) {
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fwrite(line, 1, len, f);
		fclose(f);
	}
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "no %s (UPDATE_GOLDEN=1 writes it)", path);
	fseek(f, 0, SEEK_END);
	want = slurp_file(f, &wlen);
	fclose(f);
	ck_assert_str_eq(line, want);
	free(want);
	free(line);
	engine_free(e);
}
END_TEST

static Suite *session_suite(void)
{
	Suite *s = suite_create("session");
	TCase *tc = tcase_create("run");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_run_counts);
	tcase_add_test(tc, test_disagreements_only);
	tcase_add_test(tc, test_every_sink);
	tcase_add_test(tc, test_threads_same_output);
	tcase_add_loop_test(tc, test_decision_stream_same_bytes, 0,
			    (int)(sizeof(stream_traces) / sizeof(stream_traces[0])));
	tcase_add_test(tc, test_decision_stream_fixtures_cover);
	tcase_add_test(tc, test_threads_sink_error_named);
	tcase_add_test(tc, test_info);
	tcase_add_test(tc, test_topology_frozen);
	tcase_add_test(tc, test_open_failures);
	tcase_add_test(tc, test_beyond_prescan);
	tcase_add_test(tc, test_cut_hides_topology);
	tcase_add_test(tc, test_mutation_hides_topology);
	tcase_add_test(tc, test_unseen_flagged);
	suite_add_tcase(s, tc);
	tc = tcase_create("decisions");
	tcase_add_loop_test(tc, test_decision_golden, 0, SR_DECISION_CLASS__COUNT);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(session_suite)
