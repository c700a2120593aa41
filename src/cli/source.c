// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source.c - the source options of every trace-reading command, and the
 * session (src/session/) opened and run for it; see source.h.  What a
 * TRACE argument is and where its topology comes from is the session's
 * (session.h); this file prints what the session reports.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli-opt.h"
#include "source.h"

/*
 * --format, --reader and --threads into @io.  Checked as each is parsed
 * (the message names @cmd), and again when the source is opened.
 * Return: 0, or CLI_EXIT_USAGE with the message printed.
 */
static int parse_values(const struct cli_source_opts *o, struct ingest_opts *io, const char *cmd)
{
	char *end;
	long n;

	if (o->format && ingest_format_parse(o->format, &io->format) < 0)
		return cli_usage_error(cmd, "unknown --format '%s' (auto, dat, trace, report, perf)",
				       o->format);
	if (o->reader && ingest_reader_parse(o->reader, &io->reader) < 0)
		return cli_usage_error(cmd, "unknown --reader '%s' (auto, fast, libtracecmd)",
				       o->reader);
	if (o->threads) {
		n = strtol(o->threads, &end, 10);
		if (end == o->threads || *end || n < 1 || n > 1024)
			return cli_usage_error(cmd, "bad --threads '%s' (1..1024)", o->threads);
		io->threads = (int)n;
	}
	return 0;
}

int cli_source_take(struct cli_source_opts *o, int id, const char *arg, const char *cmd)
{
	struct ingest_opts io = { 0 };

	switch (id) {
	case CLI_OPT_STRICT:
		o->strict = true;
		return 1;
	case CLI_OPT_QUIET:
		o->quiet = true;
		return 1;
	case CLI_OPT_FORMAT:
		o->format = arg;
		break;
	case CLI_OPT_READER:
		o->reader = arg;
		break;
	case CLI_OPT_THREADS:
		o->threads = arg;
		break;
	case CLI_OPT_TOPOLOGY:
		o->topology = arg;
		return 1;
	case CLI_OPT_BUFFER:
		o->buffer = arg;
		return 1;
	default:
		return 0;
	}
	return parse_values(o, &io, cmd) ? -CLI_EXIT_USAGE : 1;
}

static void clear_progress(struct cli_source *src)
{
	if (src->progress_on)
		fputs("\r\033[K", stderr);
	src->progress_on = false;
}

static void print_err(struct cli_source *src, const struct err *e)
{
	char buf[1400];

	clear_progress(src);
	cli_error("%s", err_format(e, buf, sizeof(buf)));
}

static void warn_cb(void *arg, const struct err *e)
{
	struct cli_source *src = arg;
	char buf[1400];

	src->shown++;
	if (src->opts.quiet)
		return;
	clear_progress(src);
	/* at most 20 lines; the totals are in the command's output */
	if (src->shown <= 20)
		cli_warn("%s (read around)", err_format(e, buf, sizeof(buf)));
	else if (src->shown == 21)
		cli_warn("more damage read around in '%s'; counts follow in the output", e->file);
}

static void note_cb(void *arg, const char *msg)
{
	struct cli_source *src = arg;

	if (!src->opts.quiet)
		cli_warn("%s", msg);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress_cb(void *arg, uint64_t nr_read, double p)
{
	struct cli_source *src = arg;
	double t;

	if (!src->progress)
		return;
	t = now_s();
	if (t - src->progress_last < 0.25)
		return;
	src->progress_last = t;
	src->progress_on = true;
	if (p >= 0)
		fprintf(stderr, "\r\033[Kreading %3.0f%%  %llu events", p * 100.0,
			(unsigned long long)nr_read);
	else
		fprintf(stderr, "\r\033[Kreading  %llu events", (unsigned long long)nr_read);
}

/* The exit code of a session's failure, after its error line. */
static int fail(struct cli_source *src, const struct err *e, const char *cmd)
{
	switch (session_fail(e->code)) {
	case SESSION_FAIL_USAGE:
		clear_progress(src);
		return cli_usage_error(cmd, "%s", e->msg);
	case SESSION_FAIL_INTERNAL:
		print_err(src, e);
		return CLI_EXIT_INTERNAL;
	default:
		print_err(src, e);
		return CLI_EXIT_BADINPUT;
	}
}

int cli_source_open(struct cli_source *src, const char *arg, const struct cli_source_opts *o,
		    struct session_opts *sopt, const char *cmd)
{
	struct err e = { 0 };
	int ret;

	memset(src, 0, sizeof(*src));
	src->opts = *o;
	ret = parse_values(o, &sopt->ingest, cmd);
	if (ret)
		return ret;
	sopt->ingest.strict = o->strict;
	sopt->ingest.buffer = o->buffer;
	sopt->topology = o->topology;
	sopt->warn = warn_cb;
	sopt->note = note_cb;
	sopt->progress = progress_cb;
	sopt->cb_arg = src;
	src->session = session_open(arg, sopt, &e);
	if (!src->session)
		return fail(src, &e, cmd);
	src->progress = !o->quiet && isatty(STDERR_FILENO);
	return CLI_EXIT_OK;
}

int cli_source_run(struct cli_source *src, const struct session_sink *sinks, int nr_sinks)
{
	int r = session_run(src->session, sinks, nr_sinks);

	clear_progress(src);
	if (r < 0)
		return fail(src, session_err(src->session), "");
	return CLI_EXIT_OK;
}

void cli_source_close(struct cli_source *src)
{
	session_close(src->session);
	src->session = NULL;
}
