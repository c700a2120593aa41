// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report-sink.c - the sinks of report-sink.h: each turns the decisions a
 * session hands out, and the session's totals at the end, into one output.
 * The report document is built from the session after the run
 * (report_replay_in_session()); the per-decision objects as each decision's
 * cost completes.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report.h"
#include "report/report-sink.h"
#include "report/report-place.h"
#include "report/report-json-write.h"

struct tc_arg {
	struct report_task_counters	*tc;
	const struct engine		*engine;
};

static int sum_task_counters(const struct model_task *t, void *arg)
{
	struct tc_arg *a = arg;
	const struct engine_task *et;

	if (!t->ks_seen)
		return 0;
	a->tc->tasks++;
	a->tc->kernel_nr_migrations += t->ks_last[MODEL_KS_NMIG] - t->ks_first[MODEL_KS_NMIG];
	a->tc->kernel_forced += t->ks_last[MODEL_KS_FORCED] - t->ks_first[MODEL_KS_FORCED];
	a->tc->kernel_failed_hot += t->ks_last[MODEL_KS_FHOT] - t->ks_first[MODEL_KS_FHOT];
	a->tc->trace_migrations += t->mig_last - t->mig_first;
	et = engine_task_get(a->engine, t->tid);
	if (et) {
		a->tc->replay_forced += et->kernel_forced;
		a->tc->replay_resisted_hot += et->kernel_resist_hot;
	}
	return 0;
}

void report_replay_in_session(struct report_replay_in *ri, struct report_replay_parts *p,
			      const struct session *s, size_t top)
{
	const struct session_trace *tr = session_trace(s);
	struct tc_arg tca = { .tc = &p->tc, .engine = session_engine(s) };
	const struct model *m = session_model(s);
	struct report_cost_in *cin = &p->cin;

	memset(ri, 0, sizeof(*ri));
	ri->trace = tr->path;
	ri->info = tr->info;
	ri->kernel_release = tr->kernel_release;
	ri->release_origin = tr->release_origin;
	ri->topo = tr->topo;
	ri->engine = session_engine(s);
	ri->dstats = session_decision_stats(s);
	ri->schedstat = session_schedstat(s);
	ri->warnings = tr->warnings;
	ri->top_tasks = top;
	memset(&p->tc, 0, sizeof(p->tc));
	model_for_each_task(m, sum_task_counters, &tca);
	ri->task_counters = p->tc.tasks ? &p->tc : NULL;

	memset(cin, 0, sizeof(*cin));
	cin->vmstat_source = session_vmstat_source(s);
	cin->totals = cost_ledger_totals(session_ledger(s));
	cin->ledger = session_ledger(s);
	cin->fstats = model_fault_stats(m);
	cin->scan_period_ns = model_scan_period(m);
	cin->top_tasks = top;
	cin->latency_origin = tr->topo && tr->topo->latency ?
			      (tr->topo->latency->origin[0] ? tr->topo->latency->origin :
			       "the trace's schedreplay_latency lines") : NULL;
	ri->cost = cin;
}

json_t *report_replay_doc(const struct session *s, size_t top)
{
	struct report_replay_parts p;
	struct report_replay_in ri;

	report_replay_in_session(&ri, &p, s, top);
	return report_replay_build(&ri);
}

void report_sink_release(struct report_sink *k)
{
	size_t i;

	if (k->spill)
		fclose(k->spill);
	k->spill = NULL;
	k->spill_len = 0;
	free(k->spill_buf);
	k->spill_buf = NULL;
	k->spill_max = 0;
	free(k->by_seq);
	for (i = 0; i < k->nr_top_dis; i++)
		json_decref(k->top_dis[i]);
	free(k->top_dis);
	k->top_dis = NULL;
	k->nr_top_dis = 0;
	k->by_seq = NULL;
	k->nr_by_seq = 0;
	json_decref(k->row_header);
	k->row_header = NULL;
	memset(&k->memo, 0, sizeof(k->memo));
	free(k->lines);
	k->lines = NULL;
	json_decref(k->doc);
	k->doc = NULL;
	k->hole = NULL;
}

/* One decision's object with its "cost" block.  Return: owned, or NULL. */
static json_t *decision_obj(const struct engine_result *r, const struct cost_item *cost)
{
	json_t *o, *c;

	report_json_watch();
	o = report_decision_json(r);
	if (!o)
		return NULL;
	c = report_cost_item_json(cost);
	if (!c || json_object_set_new(o, "cost", c) < 0 || report_json_lost()) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* ---- text ----------------------------------------------------------------- */

static uint64_t obj_seq(const json_t *o)
{
	return (uint64_t)json_integer_value(json_object_get(o, "seq"));
}

/* |new - old| weighted of a decision object, 0 when not priced on both sides */
static double obj_key(const json_t *o)
{
	double d = json_number_value(json_object_get(json_object_get(json_object_get(o, "cost"),
								     "delta"), "weighted"));

	return d < 0 ? -d : d;
}

/* a decision of key @ka and seq @sa ranks before one of @kb, @sb: larger |delta|, then the earlier */
static bool key_before(double ka, uint64_t sa, double kb, uint64_t sb)
{
	return ka != kb ? ka > kb : sa < sb;
}

/* @a ranks before @b */
static bool ranks_before(const json_t *a, const json_t *b)
{
	return key_before(obj_key(a), obj_seq(a), obj_key(b), obj_seq(b));
}

/* obj_key() of the object decision_obj() would make of @cost */
static double cost_key(const struct cost_item *cost)
{
	double d;

	if (!cost->v[COST_OLD].known || !cost->v[COST_NEW].known)
		return 0;
	d = cost->v[COST_NEW].weighted - cost->v[COST_OLD].weighted;
	return d < 0 ? -d : d;
}

/* keep the @top disagreements that rank first */
static int text_decision(void *priv, const struct engine_result *r, const struct cost_item *cost,
			 struct err *err)
{
	struct report_sink *k = priv;
	size_t i, last = 0;
	json_t *o;

	(void)err;
	if (!k->top)	/* only disagreements come (disagrees()) */
		return 0;
	if (!k->top_dis) {
		k->top_dis = calloc(k->top, sizeof(*k->top_dis));
		if (!k->top_dis)
			return -ENOMEM;
	}
	if (k->nr_top_dis == k->top) {
		/* the list is full: a decision that would not enter it is not made an object */
		for (i = 1; i < k->nr_top_dis; i++)
			if (ranks_before(k->top_dis[last], k->top_dis[i]))
				last = i;
		if (!key_before(cost_key(cost), r->d->seq, obj_key(k->top_dis[last]),
				obj_seq(k->top_dis[last])))
			return 0;
	}
	o = decision_obj(r, cost);
	if (!o)
		return -ENOMEM;
	if (k->nr_top_dis < k->top) {
		k->top_dis[k->nr_top_dis++] = o;
		return 0;
	}
	json_decref(k->top_dis[last]);
	k->top_dis[last] = o;
	return 0;
}

static int by_rank(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;

	return ranks_before(x, y) ? -1 : ranks_before(y, x) ? 1 : 0;
}

static int text_end(void *priv, const struct session *s, struct err *err)
{
	struct report_sink *k = priv;
	json_t *doc;
	size_t i;
	int r;

	report_json_watch();
	doc = report_replay_doc(s, k->top);
	if (!doc || report_json_lost()) {
		json_decref(doc);
		return err_set(err, -ENOMEM, "out of memory");
	}
	if (k->nr_top_dis) {
		json_t *top = json_array();

		qsort(k->top_dis, k->nr_top_dis, sizeof(k->top_dis[0]), by_rank);
		for (i = 0; top && i < k->nr_top_dis; i++)
			json_array_append(top, k->top_dis[i]);
		json_object_set_new(doc, "top_disagreements", top);
	}
	r = report_replay_text(k->f, doc, k->verbose);
	json_decref(doc);
	/* the list is in the document now; a caller need not release a text sink */
	for (i = 0; i < k->nr_top_dis; i++)
		json_decref(k->top_dis[i]);
	free(k->top_dis);
	k->top_dis = NULL;
	k->nr_top_dis = 0;
	if (report_json_lost())	/* a piece of the text could not be made */
		return err_set(err, -ENOMEM, "out of memory");
	if (r < 0)
		return err_set(err, -EIO, "cannot write the summary: %s", strerror(EIO));
	return 0;
}

/* the text lists disagreements only */
static bool disagrees(const struct engine_result *r)
{
	return r->disagree;
}

const struct session_sink_ops report_text_sink_ops = {
	.name		= "text",
	.decision	= text_decision,
	.wants		= disagrees,
	.end		= text_end,
};

/* ---- json ----------------------------------------------------------------- */

/*
 * The code of a temporary file's error: what the session counts as the
 * machine's fault (exit 4), never the trace's; the message says the errno.
 */
static int spill_code(int e)
{
	return e == ENOSPC || e == EDQUOT || e == EFBIG || e == EROFS || e == ENOMEM ? -e : -EIO;
}

/* the unlinked temporary file the decisions wait in, in $TMPDIR or /tmp */
static int spill_open(struct report_sink *k, struct err *err)
{
	const char *dir = getenv("TMPDIR");
	char path[PATH_MAX];
	int fd, e;

	if (!dir || !*dir)
		dir = "/tmp";
	if (snprintf(path, sizeof(path), "%s/schedreplay-decisions-XXXXXX", dir) >= (int)sizeof(path))
		return err_set(err, -EIO, "cannot make a temporary file in '%s': %s", dir,
			       strerror(ENAMETOOLONG));
	fd = mkstemp(path);
	if (fd < 0 || unlink(path) < 0 || !(k->spill = fdopen(fd, "w+"))) {
		e = errno;
		if (fd >= 0)
			close(fd);
		return err_set(err, spill_code(e), "cannot make a temporary file in '%s': %s", dir,
			       strerror(e));
	}
	return 0;
}

static int spill_error(struct err *err)
{
	int e = errno ? errno : EIO;

	return err_set(err, spill_code(e), "cannot write a temporary file: %s", strerror(e));
}

static int json_decision(void *priv, const struct engine_result *r, const struct cost_item *cost,
			 struct err *err)
{
	struct report_sink *k = priv;
	struct report_jw w;
	uint64_t n = 0;
	int ret;

	if (!k->spill && (ret = spill_open(k, err)) < 0)
		return ret;
	/* priced out of order: kept by seq */
	if (cost->seq >= k->nr_by_seq) {
		size_t cap = k->nr_by_seq ? k->nr_by_seq : 256;
		struct report_spilled *a;

		while (cap <= cost->seq)
			cap *= 2;
		a = realloc(k->by_seq, cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		memset(a + k->nr_by_seq, 0, (cap - k->nr_by_seq) * sizeof(*a));
		k->by_seq = a;
		k->nr_by_seq = cap;
	}
	/*
	 * only listed ones come (.wants): a placement kept where every side put
	 * it is counted; written as it will stand in the document, an item of
	 * the top level's "decisions"
	 */
	errno = 0;
	report_jw_begin(&w, k->spill, REPORT_JSON_FLAGS, 2);
	report_decision_write(&w, r, cost, NULL);
	ret = report_jw_end(&w, &n);
	if (ret < 0 || n > UINT32_MAX)
		return spill_error(err);
	k->by_seq[cost->seq].off = k->spill_len;
	k->by_seq[cost->seq].len = (uint32_t)n;
	k->spill_len += n;
	if (n > k->spill_max)
		k->spill_max = n;
	return 0;
}

/* report_json_hole's next: the spilled decisions, by seq */
static int spill_next(void *arg, const char **text, size_t *len)
{
	struct report_sink *k = arg;
	const struct report_spilled *sp;

	while (k->spill_at < k->nr_by_seq && !k->by_seq[k->spill_at].len)
		k->spill_at++;
	if (k->spill_at == k->nr_by_seq)
		return 0;
	sp = &k->by_seq[k->spill_at++];
	if (pread(fileno(k->spill), k->spill_buf, sp->len, (off_t)sp->off) != (ssize_t)sp->len)
		return -1;
	*text = k->spill_buf;
	*len = sp->len;
	return 1;
}

int report_sink_write_json(struct report_sink *k)
{
	struct report_json_hole hole = { .at = k->hole, .next = spill_next, .arg = k };

	if (k->spill && fflush(k->spill) == EOF)
		return -(errno ? errno : EIO);
	if (k->spill_max && !k->spill_buf && !(k->spill_buf = malloc(k->spill_max)))
		return -ENOMEM;
	k->spill_at = 0;
	return report_write_json_hole(k->doc, k->path, &hole);
}

static int json_end(void *priv, const struct session *s, struct err *err)
{
	struct report_sink *k = priv;
	json_t *doc;
	int r;

	report_json_watch();
	doc = report_replay_doc(s, k->top);
	k->hole = json_array();
	if (!doc || !k->hole || json_object_set_new(doc, "decisions", k->hole) < 0 ||
	    report_json_lost()) {
		if (!doc)
			json_decref(k->hole);
		json_decref(doc);
		k->hole = NULL;
		return err_set(err, -ENOMEM, "out of memory");
	}
	json_decref(k->doc);
	k->doc = doc;
	if (k->defer)
		return 0;
	r = report_sink_write_json(k);
	if (r < 0)
		return err_set(err, r, "cannot write '%s': %s", k->path, strerror(-r));
	return 0;
}

const struct session_sink_ops report_json_sink_ops = {
	.name		= "json",
	.wants		= report_place_listed,
	.decision	= json_decision,
	.end		= json_end,
};

/* ---- ndjson and flat rows --------------------------------------------------- */

#define NDJSON_FLAGS	(JSON_SORT_KEYS | JSON_COMPACT | JSON_REAL_PRECISION(12))

/*
 * A line that was not written: the error names the output and the first
 * real error (ENOSPC for a full disk) that @k->out saw, when the sink has it.
 */
static int write_failed(struct report_sink *k, struct err *err)
{
	int e = k->out ? report_out_error(k->out) : 0;

	if (!e)
		e = errno ? errno : EIO;
	return err_set(err, -e, "cannot write '%s': %s",
		       k->path && strcmp(k->path, "-") ? k->path : "stdout", strerror(e));
}

static int write_line(struct report_sink *k, const json_t *line, struct err *err)
{
	if (report_json_dumpf(line, k->f, NDJSON_FLAGS) >= 0 && fputc('\n', k->f) != EOF)
		return 0;
	return write_failed(k, err);
}

static int ndjson_decision(void *priv, const struct engine_result *r,
			   const struct cost_item *cost, struct err *err)
{
	struct report_sink *k = priv;
	struct report_json_arena arena = { 0 };
	json_t *o, *line;
	int ret = -ENOMEM;

	if (!k->row_header) {
		/*
		 * a decision's line, with no tree (only listed ones come:
		 * .wants), after the lines before it in @k->lines
		 */
		errno = 0;
		report_decision_write(k->lines, r, cost, &k->memo);
		report_jw_line_end(k->lines);
		return k->lines->err ? write_failed(k, err) : 0;
	}
	/* a flat row: the decision's tree, its columns taken out */
	report_json_arena_begin(&arena);
	o = decision_obj(r, cost);
	if (o) {
		report_json_watch();
		line = report_row_json(k->row_header, o);
		if (line && !report_json_lost())
			ret = write_line(k, line, err);
		json_decref(line);
		json_decref(o);
	}
	report_json_arena_end(&arena);
	return ret;
}

/*
 * A new session's policies: a verdict kept from another's would be keyed by
 * freed pointers.  Its lines are gathered and written 16 KiB at a time: a
 * write to @f a line cost more than a quarter of writing the line.
 */
static int ndjson_begin(void *priv, const struct session *s, struct err *err)
{
	struct report_sink *k = priv;

	(void)s;
	memset(&k->memo, 0, sizeof(k->memo));
	if (!k->lines && !(k->lines = malloc(sizeof(*k->lines))))
		return err_set(err, -ENOMEM, "out of memory");
	report_jw_begin(k->lines, k->f, NDJSON_FLAGS, 0);
	return 0;
}

/* the lines not yet written */
static int ndjson_end(void *priv, const struct session *s, struct err *err)
{
	struct report_sink *k = priv;

	(void)s;
	errno = 0;
	if (report_jw_end(k->lines, NULL) < 0)
		return write_failed(k, err);
	return 0;
}

const struct session_sink_ops report_ndjson_sink_ops = {
	.name		= "ndjson",
	.begin		= ndjson_begin,
	.wants		= report_place_listed,
	.decision	= ndjson_decision,
	.end		= ndjson_end,
};

/* The per-trace columns of the flat rows. */
static int flat_begin(void *priv, const struct session *s, struct err *err)
{
	struct report_sink *k = priv;
	const struct session_trace *tr = session_trace(s);
	static const char unknown[] = "unknown";
	char id[17];
	struct stat st;
	int r;

	r = report_trace_id(tr->read_path, id);
	if (r < 0 || stat(tr->read_path, &st) < 0)
		return err_set(err, -SR_ENOTFOUND, "cannot read '%s': %s", tr->path,
			       strerror(r < 0 ? -r : errno));
	if (!k->row.host)
		k->row.host = tr->hostname[0] ? tr->hostname : unknown;
	k->row.kernel = tr->kernel_release[0] ? tr->kernel_release : unknown;
	k->row.trace_id = id;
	k->row.trace_path = tr->path;
	if (!k->have_time)
		k->row.trace_time = (int64_t)st.st_mtime;
	k->row.cpus = tr->topo->nr_cpus > tr->info->nr_cpus ? tr->topo->nr_cpus : tr->info->nr_cpus;
	k->row.nodes = tr->topo->nr_nodes;
	k->row.engine = session_engine(s);
	report_json_watch();
	k->row_header = report_row_header(&k->row);
	k->row.trace_id = NULL;	/* it was on this stack */
	if (k->row_header && report_json_lost()) {
		json_decref(k->row_header);
		k->row_header = NULL;
	}
	if (!k->row_header)
		return err_set(err, -ENOMEM, "out of memory");
	return 0;
}

const struct session_sink_ops report_flat_sink_ops = {
	.name		= "flat",
	.begin		= flat_begin,
	.wants		= report_place_listed,
	.decision	= ndjson_decision,
};

/* ---- info ----------------------------------------------------------------- */

static int info_end(void *priv, const struct session *s, struct err *err)
{
	struct report_sink *k = priv;
	const struct session_trace *tr = session_trace(s);
	struct report_info_in ri = { 0 };
	json_t *report;
	int r;

	ri.path = tr->path;
	ri.capture_dir = tr->capture_dir;
	ri.kernel_release = tr->kernel_release;
	ri.release_origin = tr->release_origin;
	ri.info = tr->info;
	ri.topo = tr->topo;
	ri.events = session_event_names(s);
	ri.stats = model_stats(session_model(s));
	ri.model = session_model(s);
	ri.warnings = tr->warnings;
	report_json_watch();
	report = report_info_build(&ri);
	if (report && report_json_lost()) {
		json_decref(report);
		report = NULL;
	}
	if (!report)
		return err_set(err, -ENOMEM, "out of memory");
	if (k->json)
		r = report_json_dumpf(report, k->f, JSON_SORT_KEYS | JSON_INDENT(2)) < 0 ||
		    fputc('\n', k->f) == EOF ? -EIO : 0;
	else
		r = report_info_text(k->f, report);
	json_decref(report);
	if (r < 0)
		return err_set(err, -EIO, "cannot write '%s': %s", k->path, strerror(-r));
	return 0;
}

const struct session_sink_ops report_info_sink_ops = {
	.name	= "info",
	.end	= info_end,
};
