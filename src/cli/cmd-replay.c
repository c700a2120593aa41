// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-replay.c - `schedreplay replay TRACE`: every migration decision of
 * the trace through the old and the new policies, and the model of the
 * recording kernel; a text summary, one JSON document, or an NDJSON
 * stream of decisions.
 *
 * The trace is read and replayed by replay-setup.c; each replayed decision
 * goes straight out, so memory stays flat (except the --json document,
 * which holds one object per decision by definition).  --ndjson-format
 * flat writes the rows of docs/fleet.md instead of the nested objects;
 * several TRACEs are replayed by a pool of worker processes
 * (replay-batch.c) into one stream of flat rows.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "replay-batch.h"
#include "replay-setup.h"
#include "report/report.h"
#include "report/report-cost.h"
#include "report/report-row.h"

#define REPLAY_MAX_LABELS 32

/* The command line beyond struct replay_opts: flat rows and several traces. */
struct replay_cmd {
	struct replay_opts	o;
	struct cli_source_opts	so;
	bool			flat;		/* --ndjson-format flat */
	const char		*host;		/* --host */
	const char		*label_keys[REPLAY_MAX_LABELS];
	const char		*label_values[REPLAY_MAX_LABELS];
	char			*label_buf[REPLAY_MAX_LABELS];	/* owned "K\0V" */
	size_t			nr_labels;
	int64_t			recorded_at;	/* --recorded-at, when have_recorded_at */
	bool			have_recorded_at;
	int			jobs;		/* --jobs, 0 for the CPUs available */
	const char		**traces;	/* TRACE arguments and --trace-list lines */
	size_t			nr_traces;
	size_t			cap_traces;
	char			*list_text;	/* owned: the --trace-list file's bytes */
};

struct replay_run {
	json_t			**by_seq;	/* for --json: decisions by seq (priced out of order) */
	size_t			nr_by_seq;
	bool			json;
	FILE			*nd;		/* where --ndjson lines go, or NULL */
	const char		*nd_name;	/* its name for messages */
	const struct report_out	*nd_out;	/* the output behind @nd, when this run's */
	json_t			*row_header;	/* flat rows: the per-trace columns */
	uint64_t		disagreements;
};

static void replay_usage(FILE *out)
{
	fprintf(out,
		"usage: schedreplay replay [OPTIONS] TRACE [TRACE...]\n"
		"\n"
		"Re-run every migration decision in TRACE (each sched_migrate_task and\n"
		"sched_stick_numa) through an old and a new policy, and report where they\n"
		"disagree and why, with the fidelity of the recording kernel's model.\n"
		"\n"
		"options:\n"
		"%s"
		"  --json FILE|-       write the report as one JSON document (docs/json-schema.md)\n"
		"  --ndjson FILE|-     stream one JSON object per decision, a line each\n"
		"  --ndjson-format nested|flat  nested decision objects (default), or flat rows\n"
		"                      for a column store such as ClickHouse (docs/fleet.md)\n"
		"  --host NAME         flat rows: the host name (default: the trace's uname, else\n"
		"                      the capture's uname.txt, else 'unknown')\n"
		"  --label K=V         flat rows: a label (e.g. group=db); repeatable\n"
		"  --recorded-at T     flat rows: when the trace was recorded, seconds since the\n"
		"                      epoch or YYYY-MM-DD[THH:MM:SS] UTC (default: the file's mtime)\n"
		"  --trace-list FILE|- more TRACEs, one per line ('#' starts a comment)\n"
		"  -j, --jobs N        traces replayed at once (default: the CPUs available)\n"
		"  --top N             tasks listed with most disagreements (default 10)\n"
		"  --fail-on-disagree  exit 1 when the policies disagree on any decision\n"
		"%s"
		"  -h, --help          this help\n",
		replay_opts_help(), cli_source_opts_help());
}

static void release_json(void *user)
{
	json_decref(user);
}

/* Each decision's object goes to the ledger, which hands it back priced. */
static int emit_decision(const struct engine_result *r, void *arg, struct err *err, void **user)
{
	struct replay_run *run = arg;

	if (r->disagree)
		run->disagreements++;
	if (!run->json && !run->nd)
		return 0;
	*user = report_decision_json(r);
	if (!*user)
		return err_set(err, -ENOMEM, "out of memory");
	return 0;
}

/* A decision whose cost is known: add it, then write or keep the object. */
static int cost_done(const struct cost_item *it, void *arg)
{
	struct replay_run *run = arg;
	json_t *o = it->user, *c;

	if (!o)
		return 0;
	c = report_cost_item_json(it);
	if (!c || json_object_set_new(o, "cost", c) < 0) {
		json_decref(o);
		return -ENOMEM;
	}
	if (run->nd) {
		json_t *line = o;

		if (run->row_header) {
			line = report_row_json(run->row_header, o);
			if (!line) {
				json_decref(o);
				return -ENOMEM;
			}
		}
		if (json_dumpf(line, run->nd, JSON_SORT_KEYS | JSON_COMPACT | JSON_REAL_PRECISION(12)) < 0 ||
		    fputc('\n', run->nd) == EOF) {
			int e = run->nd_out ? report_out_error(run->nd_out) : 0;

			if (!e)
				e = errno ? errno : EIO;
			if (line != o)
				json_decref(line);
			json_decref(o);
			cli_error("cannot write '%s': %s", run->nd_name, strerror(e));
			return -CLI_EXIT_INTERNAL;	/* said: replay_setup_run() exits 4 */
		}
		if (line != o)
			json_decref(line);
	}
	if (!run->json) {
		json_decref(o);
		return 0;
	}
	if (it->seq >= run->nr_by_seq) {
		size_t n = run->nr_by_seq ? run->nr_by_seq : 256;
		json_t **a;

		while (n <= it->seq)
			n *= 2;
		a = realloc(run->by_seq, n * sizeof(*a));
		if (!a) {
			json_decref(o);
			return -ENOMEM;
		}
		memset(a + run->nr_by_seq, 0, (n - run->nr_by_seq) * sizeof(*a));
		run->by_seq = a;
		run->nr_by_seq = n;
	}
	json_decref(run->by_seq[it->seq]);
	run->by_seq[it->seq] = o;
	return 0;
}

static int add_trace(struct replay_cmd *c, const char *t)
{
	if (c->nr_traces == c->cap_traces) {
		size_t n = c->cap_traces ? c->cap_traces * 2 : 16;
		const char **a = realloc(c->traces, n * sizeof(*a));

		if (!a) {
			cli_error("out of memory");
			return CLI_EXIT_INTERNAL;
		}
		c->traces = a;
		c->cap_traces = n;
	}
	c->traces[c->nr_traces++] = t;
	return 0;
}

/* --trace-list FILE: a TRACE per line; blank lines and '#' comments skipped */
static int read_trace_list(struct replay_cmd *c, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t len = 0, cap = 0, n;
	char *p, *end, *nl;
	int ret = 0;

	if (!f)
		return cli_error("cannot read trace list '%s': %s", path, strerror(errno));
	do {
		if (len + 4096 + 1 > cap) {
			char *np;

			cap = cap ? cap * 2 : 8192;
			np = realloc(c->list_text, cap);
			if (!np) {
				ret = CLI_EXIT_INTERNAL;
				cli_error("out of memory");
				goto out_close;
			}
			c->list_text = np;
		}
		n = fread(c->list_text + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		ret = cli_error("cannot read trace list '%s': %s", path, strerror(errno));
		goto out_close;
	}
	if (!c->list_text) {
		ret = cli_usage_error("replay", "trace list '%s' is empty", path);
		goto out_close;
	}
	c->list_text[len] = '\0';
	if (memchr(c->list_text, '\0', len)) {
		ret = cli_error("trace list '%s': a NUL byte at byte %zu", path,
				(size_t)((char *)memchr(c->list_text, '\0', len) - c->list_text));
		goto out_close;
	}
	for (p = c->list_text, end = c->list_text + len; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		ret = add_trace(c, p);
		if (ret)
			break;
	}
out_close:
	if (f != stdin)
		fclose(f);
	return ret;
}

static int parse_label(struct replay_cmd *c, const char *a)
{
	const char *eq = strchr(a, '='), *k;
	char *b;

	if (c->nr_labels == REPLAY_MAX_LABELS)
		return cli_usage_error("replay", "at most %d --label", REPLAY_MAX_LABELS);
	if (!eq || eq == a)
		return cli_usage_error("replay", "--label takes KEY=VALUE, not '%s'", a);
	for (k = a; k < eq; k++)
		if (!isalnum((unsigned char)*k) && *k != '_' && *k != '-' && *k != '.')
			return cli_usage_error("replay", "--label '%s': a key is letters, digits, '_', '-', '.'",
					       a);
	b = strdup(a);
	if (!b) {
		cli_error("out of memory");
		return CLI_EXIT_INTERNAL;
	}
	b[eq - a] = '\0';
	c->label_buf[c->nr_labels] = b;
	c->label_keys[c->nr_labels] = b;
	c->label_values[c->nr_labels] = b + (eq - a) + 1;
	c->nr_labels++;
	return 0;
}

/* seconds since the epoch, or YYYY-MM-DD[THH:MM:SS] in UTC */
static int parse_time(const char *a, int64_t *out)
{
	struct tm tm = { 0 };
	const char *end;
	char *e;

	if (*a >= '0' && *a <= '9' && !strchr(a, '-')) {
		long long v = strtoll(a, &e, 10);

		if (*e || v < 0 || v > 4294967295LL)
			return -1;
		*out = v;
		return 0;
	}
	end = strptime(a, "%Y-%m-%d", &tm);
	if (end && *end == 'T')
		end = strptime(end + 1, "%H:%M:%S", &tm);
	if (!end || *end || tm.tm_year < 70)
		return -1;
	*out = (int64_t)timegm(&tm);
	return *out < 0 || *out > 4294967295LL ? -1 : 0;
}

static int parse_args(int argc, char **argv, struct replay_cmd *c)
{
	struct replay_opts *o = &c->o;
	const char *format = NULL, *list = NULL;
	int i, r;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **slot = NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			replay_usage(stdout);
			return -1;
		}
		if (!strcmp(a, "--fail-on-disagree")) {
			o->fail_on_disagree = true;
			continue;
		}
		r = replay_opts_parse_policy(o, argc, argv, &i, "replay");
		if (r < 0)
			return -r;
		if (r)
			continue;
		if (!strcmp(a, "--json"))
			slot = &o->json;
		else if (!strcmp(a, "--ndjson"))
			slot = &o->ndjson;
		else if (!strcmp(a, "--ndjson-format"))
			slot = &format;
		else if (!strcmp(a, "--host"))
			slot = &c->host;
		else if (!strcmp(a, "--trace-list"))
			slot = &list;
		if (slot || !strcmp(a, "--top") || !strcmp(a, "--label") ||
		    !strcmp(a, "--recorded-at") || !strcmp(a, "--jobs") || !strcmp(a, "-j")) {
			if (i + 1 >= argc)
				return cli_usage_error("replay", "option '%s' needs a value", a);
			if (slot) {
				*slot = argv[++i];
			} else if (!strcmp(a, "--label")) {
				r = parse_label(c, argv[++i]);
				if (r)
					return r;
			} else if (!strcmp(a, "--recorded-at")) {
				if (parse_time(argv[++i], &c->recorded_at) < 0)
					return cli_usage_error("replay", "--recorded-at takes seconds since the epoch or YYYY-MM-DD[THH:MM:SS], not '%s'",
							       argv[i]);
				c->have_recorded_at = true;
			} else {
				char *end;
				long v = strtol(argv[++i], &end, 10);
				bool top = !strcmp(a, "--top");

				if (top && (*end || v < 0 || v > 100000))
					return cli_usage_error("replay", "--top takes a number, not '%s'",
							       argv[i]);
				if (!top && (*end || v < 1 || v > 1024))
					return cli_usage_error("replay", "%s takes 1..1024, not '%s'", a,
							       argv[i]);
				if (top)
					o->top = (size_t)v;
				else
					c->jobs = (int)v;
			}
			continue;
		}
		r = cli_source_parse_opt(&c->so, argc, argv, &i, "replay");
		if (r < 0)
			return -r;
		if (r)
			continue;
		if (a[0] == '-' && a[1])
			return cli_usage_error("replay", "unknown option '%s'", a);
		r = add_trace(c, a);
		if (r)
			return r;
	}
	if (list) {
		r = read_trace_list(c, list);
		if (r)
			return r;
	}
	if (!c->nr_traces)
		return cli_usage_error("replay", "no TRACE given");
	if (format && strcmp(format, "nested") && strcmp(format, "flat"))
		return cli_usage_error("replay", "--ndjson-format is 'nested' or 'flat', not '%s'", format);
	c->flat = format && !strcmp(format, "flat");
	if (!c->flat && (c->host || c->nr_labels || c->have_recorded_at))
		return cli_usage_error("replay", "--host, --label and --recorded-at go into flat rows: add --ndjson-format flat");
	if (c->nr_traces > 1 && o->json)
		return cli_usage_error("replay", "--json takes one TRACE: several stream their rows with --ndjson");
	if (c->nr_traces > 1 && o->ndjson && !c->flat)
		return cli_usage_error("replay", "several traces stream flat rows only, which say their trace: add --ndjson-format flat");
	if (o->json && o->ndjson && !strcmp(o->json, "-") && !strcmp(o->ndjson, "-"))
		return cli_usage_error("replay", "--json and --ndjson cannot both go to stdout");
	return 0;
}

/* The per-trace columns of the flat rows. */
static int row_header(struct replay_cmd *c, struct replay_setup *setup, json_t **out)
{
	const struct ingest_info *info = ingest_info(setup->src.in);
	struct report_row_in in = { 0 };
	char id[17];
	struct stat st;
	int r;

	r = report_trace_id(setup->src.path, id);
	if (r < 0 || stat(setup->src.path, &st) < 0) {
		cli_error("cannot read '%s': %s", setup->src.path, strerror(r < 0 ? -r : errno));
		return CLI_EXIT_BADINPUT;
	}
	in.host = c->host ? c->host : setup->src.hostname[0] ? setup->src.hostname : "unknown";
	in.kernel = setup->src.kernel_release[0] ? setup->src.kernel_release : "unknown";
	in.label_keys = c->label_keys;
	in.label_values = c->label_values;
	in.nr_labels = c->nr_labels;
	in.trace_id = id;
	in.trace_path = setup->src.path;
	in.trace_time = c->have_recorded_at ? c->recorded_at : (int64_t)st.st_mtime;
	in.cpus = setup->src.topo->nr_cpus > info->nr_cpus ? setup->src.topo->nr_cpus : info->nr_cpus;
	in.nodes = setup->src.topo->nr_nodes;
	in.engine = setup->engine;
	*out = report_row_header(&in);
	if (!*out) {
		cli_error("out of memory");
		return CLI_EXIT_INTERNAL;
	}
	return CLI_EXIT_OK;
}

/*
 * Replay one trace.  @rows and @summary are a batch worker's pipes (NULL
 * for none); with @batch false the options' own outputs are used, as a
 * single-trace replay always did.
 */
static int replay_one(struct replay_cmd *c, const char *trace, bool batch, FILE *rows,
		      FILE *summary)
{
	const struct replay_opts *op = &c->o;
	struct replay_setup setup = { 0 };
	struct replay_run run = { 0 };
	struct replay_setup_report rep;
	struct report_replay_in ri;
	struct report_out out = { 0 };
	struct report_out nd = { 0 };
	bool nd_open = false;
	json_t *doc = NULL;
	int r, ret;

	ret = replay_setup_open(&setup, op, trace, &c->so, "replay");
	if (ret)
		goto out;
	if (batch)
		setup.src.progress = false;	/* workers would overwrite each other's line */
	if (c->flat && (batch ? rows != NULL : op->ndjson != NULL)) {
		ret = row_header(c, &setup, &run.row_header);
		if (ret)
			goto out;
	}
	run.nd_name = op->ndjson && strcmp(op->ndjson, "-") ? op->ndjson : "stdout";
	if (batch) {
		run.nd = rows;
	} else if (op->ndjson) {
		r = report_out_open(&nd, op->ndjson);
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("cannot write '%s': %s", op->ndjson, strerror(-r));
			goto out;
		}
		nd_open = true;
		run.nd = nd.f;
		run.nd_out = &nd;
	}
	run.json = op->json != NULL;
	ret = replay_setup_run(&setup, emit_decision, &run, cost_done, release_json);
	if (ret)
		goto out;

	replay_setup_report_in(&setup, &ri, &rep, op->top);
	doc = report_replay_build(&ri);
	if (!doc) {
		ret = CLI_EXIT_INTERNAL;
		cli_error("out of memory");
		goto out;
	}

	ret = CLI_EXIT_OK;
	if (nd_open) {
		nd_open = false;
		r = report_out_close(&nd, true);
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("cannot write '%s': %s", op->ndjson, strerror(-r));
			goto out;
		}
	}
	if (op->json) {
		json_t *all = json_array();
		size_t k;

		for (k = 0; all && k < run.nr_by_seq; k++)
			if (run.by_seq[k] && json_array_append(all, run.by_seq[k]) < 0) {
				json_decref(all);
				all = NULL;
			}
		if (!all || json_object_set_new(doc, "decisions", all) < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("out of memory");
			goto out;
		}
		r = report_write_json(doc, op->json);
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("cannot write '%s': %s", op->json, strerror(-r));
			goto out;
		}
	}
	if (batch) {
		if (summary && report_replay_text(summary, doc) < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("cannot write the summary: %s", strerror(EIO));
			goto out;
		}
	} else if (!(op->json && !strcmp(op->json, "-")) && !(op->ndjson && !strcmp(op->ndjson, "-"))) {
		/* the text summary, unless a JSON stream has stdout */
		r = report_out_open(&out, "-");
		if (r == 0)
			r = report_replay_text(out.f, doc);
		if (r == 0)
			r = report_out_close(&out, true);
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("cannot write the summary: %s", strerror(-r));
			goto out;
		}
	}
	if (op->fail_on_disagree && run.disagreements)
		ret = CLI_EXIT_DISAGREE;
out:
	if (nd_open)
		report_out_close(&nd, false);
	json_decref(run.row_header);
	json_decref(doc);
	for (size_t k = 0; k < run.nr_by_seq; k++)
		json_decref(run.by_seq[k]);
	free(run.by_seq);
	replay_setup_close(&setup);
	return ret;
}

/* A batch worker: disagreements come back as CLI_EXIT_DISAGREE. */
static int batch_one(const char *trace, void *arg, FILE *rows, FILE *summary)
{
	struct replay_cmd *c = arg;

	c->o.fail_on_disagree = true;	/* this process's copy */
	return replay_one(c, trace, true, c->o.ndjson ? rows : NULL, summary);
}

static int replay_many(struct replay_cmd *c)
{
	const struct replay_opts *op = &c->o;
	bool to_stdout = op->ndjson && !strcmp(op->ndjson, "-");
	struct replay_batch b = { 0 };
	struct report_out nd = { 0 };
	int r, ret;

	b.traces = c->traces;
	b.nr_traces = c->nr_traces;
	b.jobs = c->jobs ? c->jobs : replay_batch_jobs();
	if ((size_t)b.jobs > c->nr_traces)
		b.jobs = (int)c->nr_traces;
	/* traces side by side already use the CPUs: one reader thread each, unless told */
	if (b.jobs > 1 && !c->so.threads)
		c->so.threads = "1";
	b.fn = batch_one;
	b.arg = c;
	b.summary = to_stdout ? NULL : stdout;
	if (op->ndjson) {
		r = report_out_open(&nd, op->ndjson);
		if (r < 0) {
			cli_error("cannot write '%s': %s", op->ndjson, strerror(-r));
			return CLI_EXIT_INTERNAL;
		}
		b.rows = nd.f;
	}
	ret = replay_batch_run(&b);
	if (b.summary)
		printf("\nbatch:    %zu traces, %zu failed, %zu rows (%d jobs)\n", c->nr_traces,
		       b.nr_failed, b.nr_rows, b.jobs);
	if (op->ndjson) {
		/* the stream appears whole (every trace replayed) or not at all */
		r = report_out_close(&nd, ret == CLI_EXIT_OK);
		if (r < 0 && ret == CLI_EXIT_OK) {
			cli_error("cannot write '%s': %s", op->ndjson, strerror(-r));
			ret = CLI_EXIT_INTERNAL;
		}
	}
	if (fflush(stdout) == EOF && ret == CLI_EXIT_OK) {
		cli_error("cannot write the summary: %s", strerror(errno));
		ret = CLI_EXIT_INTERNAL;
	}
	if (ret == CLI_EXIT_OK && op->fail_on_disagree && b.disagreed)
		ret = CLI_EXIT_DISAGREE;
	return ret;
}

int cmd_replay(int argc, char **argv)
{
	struct replay_cmd c = { 0 };
	size_t i;
	int ret;

	replay_opts_init(&c.o);
	ret = parse_args(argc, argv, &c);
	if (ret) {
		ret = ret < 0 ? CLI_EXIT_OK : ret;
		goto out;
	}
	if (c.nr_traces == 1)
		ret = replay_one(&c, c.traces[0], false, NULL, NULL);
	else
		ret = replay_many(&c);
out:
	for (i = 0; i < c.nr_labels; i++)
		free(c.label_buf[i]);
	free(c.traces);
	free(c.list_text);
	return ret;
}
