// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-replay.c - `schedreplay replay TRACE`: every decision of the trace
 * (migrations, wake-up and fork placements) through the old and the new
 * policies, and the model of the recording kernel; a text summary, one
 * JSON document, or an NDJSON stream of decisions.
 *
 * The trace is read and replayed by a session (src/session/); each
 * replayed decision goes straight out through the sinks of report-sink.h,
 * so memory stays flat (except the --json document, which holds one object
 * per decision by definition).  --ndjson-format
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
#include "cli-opt.h"
#include "replay-batch.h"
#include "replay-setup.h"
#include "report/report.h"
#include "report/report-sink.h"

#define CLI_REPLAY_MAX_LABELS 32

/* The command line beyond struct cli_replay_opts: flat rows and several traces. */
struct replay_cmd {
	struct cli_replay_opts	o;
	struct cli_source_opts	so;
	bool			flat;		/* --ndjson-format flat */
	bool			verbose;	/* -v: the whole text summary */
	const char		*format;	/* --ndjson-format */
	const char		*list;		/* --trace-list */
	const char		*output;	/* -o: the text summary */
	const char		*host;		/* --host */
	const char		*label_keys[CLI_REPLAY_MAX_LABELS];
	const char		*label_values[CLI_REPLAY_MAX_LABELS];
	char			*label_buf[CLI_REPLAY_MAX_LABELS];	/* owned "K\0V" */
	size_t			nr_labels;
	int64_t			recorded_at;	/* --recorded-at, when have_recorded_at */
	bool			have_recorded_at;
	int			jobs;		/* --jobs, 0 for the CPUs available */
	const char		**traces;	/* TRACE arguments and --trace-list lines */
	size_t			nr_traces;
	size_t			cap_traces;
	char			*list_text;	/* owned: the --trace-list file's bytes */
};

static const struct cli_opt_cmd replay_cmd_help = {
	.name = "replay",
	.bit = CLI_REPLAY,
	.usage = "usage: schedreplay replay [OPTIONS] TRACE [TRACE...]\n"
		 "\n"
		 "Re-run every scheduling decision in TRACE (each sched_migrate_task and\n"
		 "sched_stick_numa, and each wake-up's and fork's placement, moved or not)\n"
		 "through an old and a new policy, and report where they disagree and why,\n"
		 "with the fidelity of the recording kernel's model.\n"
		 "TRACE - is a text trace on standard input.\n",
};

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

	if (c->nr_labels == CLI_REPLAY_MAX_LABELS)
		return cli_usage_error("replay", "at most %d --label", CLI_REPLAY_MAX_LABELS);
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

static int parse_number(const char *opt, const char *arg, long min, long max, long *v)
{
	char *end;

	*v = strtol(arg, &end, 10);
	if (end == arg || *end || *v < min || *v > max)
		return cli_usage_error("replay", "%s takes %ld..%ld, not '%s'", opt, min, max, arg);
	return 0;
}

static int replay_opt(void *ctx, int id, const char *arg)
{
	struct replay_cmd *c = ctx;
	struct cli_replay_opts *o = &c->o;
	long v;
	int r;

	switch (id) {
	case CLI_OPT_ARG:
		return add_trace(c, arg);
	case CLI_OPT_FAIL_ON_DISAGREE:
		o->fail_on_disagree = true;
		return 0;
	case CLI_OPT_VERBOSE:
		c->verbose = true;
		return 0;
	case CLI_OPT_JSON:
		o->json = arg;
		return 0;
	case CLI_OPT_NDJSON:
		o->ndjson = arg;
		return 0;
	case CLI_OPT_OUTPUT:
		c->output = arg;
		return 0;
	case CLI_OPT_NDJSON_FORMAT:
		c->format = arg;
		return 0;
	case CLI_OPT_HOST:
		c->host = arg;
		return 0;
	case CLI_OPT_TRACE_LIST:
		c->list = arg;
		return 0;
	case CLI_OPT_LABEL:
		return parse_label(c, arg);
	case CLI_OPT_RECORDED_AT:
		if (parse_time(arg, &c->recorded_at) < 0)
			return cli_usage_error("replay", "--recorded-at takes seconds since the epoch or YYYY-MM-DD[THH:MM:SS], not '%s'",
					       arg);
		c->have_recorded_at = true;
		return 0;
	case CLI_OPT_TOP:
		if (parse_number("--top", arg, 0, 100000, &v))
			return CLI_EXIT_USAGE;
		o->top = (size_t)v;
		return 0;
	case CLI_OPT_JOBS:
		if (parse_number("--jobs", arg, 1, 1024, &v))
			return CLI_EXIT_USAGE;
		c->jobs = (int)v;
		return 0;
	}
	r = cli_replay_opts_take(o, id, arg, "replay");
	if (!r)
		r = cli_source_take(&c->so, id, arg, "replay");
	return r < 0 ? -r : 0;
}

static int parse_args(int argc, char **argv, struct replay_cmd *c)
{
	struct cli_replay_opts *o = &c->o;
	const char *format;
	int r;

	r = cli_opt_parse(&replay_cmd_help, argc, argv, replay_opt, c, NULL);
	if (r)
		return r;
	format = c->format;
	if (c->list) {
		r = read_trace_list(c, c->list);
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
	if (c->output && !strcmp(c->output, "-") &&
	    ((o->json && !strcmp(o->json, "-")) || (o->ndjson && !strcmp(o->ndjson, "-"))))
		return cli_usage_error("replay", "-o - and a JSON stream cannot both go to stdout");
	if (c->output && c->nr_traces > 1)
		return cli_usage_error("replay", "-o takes one TRACE: several print their summaries on stdout");
	return 0;
}

/*
 * Replay one trace.  @rows and @summary are a batch worker's pipes (NULL
 * for none); with @batch false the options' own outputs are used, as a
 * single-trace replay always did.  The outputs are the session's sinks
 * (report-sink.h): --ndjson (nested or flat), --json, the text summary.
 */
static int replay_one(struct replay_cmd *c, const char *trace, bool batch, FILE *rows,
		      FILE *summary)
{
	const struct cli_replay_opts *op = &c->o;
	struct session_opts sopt;
	struct cli_source src = { 0 };
	struct report_sink nd = { 0 }, js = { 0 }, tx = { 0 };
	struct session_sink sinks[3];
	struct report_out ndo = { 0 }, out = { 0 };
	bool nd_open = false, out_open = false;
	int n = 0, r, ret;

	cli_replay_opts_session(op, &sopt);
	ret = cli_source_open(&src, trace, &c->so, &sopt, "replay");
	if (ret)
		goto out;
	if (batch)
		src.progress = false;	/* workers would overwrite each other's line */
	if (batch) {
		nd.f = rows;
	} else if (op->ndjson) {
		r = report_out_open(&ndo, op->ndjson);
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("cannot write '%s': %s", op->ndjson, strerror(-r));
			goto out;
		}
		nd_open = true;
		nd.f = ndo.f;
		nd.path = op->ndjson;
		nd.out = &ndo;
	}
	if (nd.f) {
		nd.row.host = c->host;
		nd.row.label_keys = c->label_keys;
		nd.row.label_values = c->label_values;
		nd.row.nr_labels = c->nr_labels;
		nd.row.trace_time = c->recorded_at;
		nd.have_time = c->have_recorded_at;
		sinks[n].ops = c->flat ? &report_flat_sink_ops : &report_ndjson_sink_ops;
		sinks[n++].priv = &nd;
	}
	if (op->json) {
		js.path = op->json;
		js.top = op->top;
		sinks[n].ops = &report_json_sink_ops;
		sinks[n++].priv = &js;
	}
	if (batch) {
		tx.f = summary;
	} else if (c->output || (!(op->json && !strcmp(op->json, "-")) &&
				 !(op->ndjson && !strcmp(op->ndjson, "-")))) {
		/* the text summary to -o, else to stdout unless a JSON stream has it */
		r = report_out_open(&out, c->output);
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("cannot write '%s': %s", c->output, strerror(-r));
			goto out;
		}
		out_open = true;
		tx.f = out.f;
	}
	if (tx.f) {
		tx.top = op->top;
		tx.verbose = c->verbose;
		sinks[n].ops = &report_text_sink_ops;
		sinks[n++].priv = &tx;
	}
	js.defer = !batch;
	ret = cli_source_run(&src, sinks, n);
	if (ret)
		goto out;
	/*
	 * Every output made before any is replaced: the streams' last bytes
	 * written (a full disk shows here), then the JSON document, then the
	 * renames.
	 */
	if (nd_open && (fflush(ndo.f) == EOF || report_out_error(&ndo))) {
		ret = CLI_EXIT_INTERNAL;
		r = report_out_error(&ndo);
		cli_error("cannot write '%s': %s", op->ndjson, strerror(r ? r : EIO));
		goto out;
	}
	if (out_open && (fflush(out.f) == EOF || report_out_error(&out))) {
		ret = CLI_EXIT_INTERNAL;
		r = report_out_error(&out);
		if (c->output)
			cli_error("cannot write '%s': %s", c->output, strerror(r ? r : EIO));
		else
			cli_error("cannot write the summary: %s", strerror(r ? r : EIO));
		goto out;
	}
	if (js.doc) {
		r = report_sink_write_json(&js);
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("cannot write '%s': %s", js.path, strerror(-r));
			goto out;
		}
	}
	if (nd_open) {
		nd_open = false;
		r = report_out_close(&ndo, true);
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("cannot write '%s': %s", op->ndjson, strerror(-r));
			goto out;
		}
	}
	if (out_open) {
		out_open = false;
		r = report_out_close(&out, true);
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			if (c->output)
				cli_error("cannot write '%s': %s", c->output, strerror(-r));
			else
				cli_error("cannot write the summary: %s", strerror(-r));
			goto out;
		}
	}
	if (op->fail_on_disagree && session_disagreements(src.session))
		ret = CLI_EXIT_DISAGREE;
out:
	if (nd_open)
		report_out_close(&ndo, false);
	if (out_open)
		report_out_close(&out, false);
	report_sink_release(&nd);
	report_sink_release(&js);
	report_sink_release(&tx);
	cli_source_close(&src);
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
	const struct cli_replay_opts *op = &c->o;
	bool to_stdout = op->ndjson && !strcmp(op->ndjson, "-");
	struct cli_replay_batch b = { 0 };
	struct report_out nd = { 0 };
	int r, ret;

	b.traces = c->traces;
	b.nr_traces = c->nr_traces;
	b.jobs = c->jobs ? c->jobs : cli_replay_batch_jobs();
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
	ret = cli_replay_batch_run(&b);
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

	cli_replay_opts_init(&c.o);
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
