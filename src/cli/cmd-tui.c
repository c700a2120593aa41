// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-tui.c - `schedreplay tui TRACE|REPORT.json|REPORT.ndjson`: browse the
 * decisions of a replay in the terminal (tui/).  A trace is replayed with
 * the same options as `replay` (replay-setup.c) by a session whose sink is
 * the TUI's store (tui/store-replay.c); a saved report is indexed by the
 * store's reader (tui/store-json.c).  In a terminal both run in a thread
 * behind the open browser; --headless waits for the end first and runs
 * the same views without a terminal, for tests and sanitizer runs.
 */
#include <errno.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli-opt.h"
#include "replay-setup.h"
#include "report/report.h"

#ifdef SR_HAVE_TUI
#include "tui/tui.h"

struct tui_opts {
	const char	*report;
	const char	*keys;
	const char	*keys_file;
	const char	*dump;
	unsigned long	frames;
	int		w;
	int		h;
	bool		headless;
	bool		styles;
	bool		no_color;
	bool		ascii;
};

static const struct cli_opt_cmd tui_cmd = {
	.name = "tui",
	.bit = CLI_TUI,
	.usage = "usage: schedreplay tui [OPTIONS] TRACE\n"
		 "       schedreplay tui [OPTIONS] REPORT.json|REPORT.ndjson\n"
		 "\n"
		 "Browse the decisions of a replay in the terminal: it opens on the\n"
		 "disagreements under the summary; the detail of one decision with the\n"
		 "policies' reasons, the node matrix and the timeline.  TRACE is replayed with\n"
		 "the same options as 'schedreplay replay'; a report written by 'replay --json'\n"
		 "or '--ndjson' is indexed as it is, while the browser is open.\n"
		 "Press ? in the browser for the keys (docs/tui.md).\n",
};

struct tui_args {
	struct cli_replay_opts	*o;
	struct cli_source_opts	*so;
	struct tui_opts		*t;
	const char		**trace;
};

static int tui_opt(void *ctx, int id, const char *arg)
{
	struct tui_args *a = ctx;
	struct tui_opts *t = a->t;
	char *end, tail;
	long v;
	int r;

	switch (id) {
	case CLI_OPT_ARG:
		if (*a->trace)
			return cli_usage_error("tui", "one TRACE at a time ('%s' and '%s')", *a->trace,
					       arg);
		*a->trace = arg;
		return 0;
	case CLI_OPT_HEADLESS:
		t->headless = true;
		return 0;
	case CLI_OPT_DUMP_STYLES:
		t->styles = true;
		return 0;
	case CLI_OPT_NO_COLOR:
		t->no_color = true;
		return 0;
	case CLI_OPT_ASCII:
		t->ascii = true;
		return 0;
	case CLI_OPT_REPORT:
		t->report = arg;
		return 0;
	case CLI_OPT_KEYS:
		t->keys = arg;
		return 0;
	case CLI_OPT_KEYS_FILE:
		t->keys_file = arg;
		return 0;
	case CLI_OPT_DUMP:
		t->dump = arg;
		return 0;
	case CLI_OPT_FRAMES:
		v = strtol(arg, &end, 10);
		if (end == arg || *end || v < 1 || v > 100000000)
			return cli_usage_error("tui", "--frames takes a number, not '%s'", arg);
		t->frames = (unsigned long)v;
		return 0;
	case CLI_OPT_SIZE:
		if (sscanf(arg, "%dx%d%c", &t->w, &t->h, &tail) != 2 || t->w < 1 || t->h < 1 ||
		    t->w > 1000 || t->h > 1000)
			return cli_usage_error("tui", "--size takes WxH, not '%s'", arg);
		return 0;
	}
	r = cli_replay_opts_take(a->o, id, arg, "tui");
	if (!r)
		r = cli_source_take(a->so, id, arg, "tui");
	return r < 0 ? -r : 0;
}

static int parse_args(int argc, char **argv, struct cli_replay_opts *o, struct cli_source_opts *so,
		      struct tui_opts *t, const char **trace)
{
	struct tui_args a = { .o = o, .so = so, .t = t, .trace = trace };
	int r;

	r = cli_opt_parse(&tui_cmd, argc, argv, tui_opt, &a, NULL);
	if (r)
		return r;
	if (*trace && !t->report) {
		size_t n = strlen(*trace);

		if ((n > 5 && !strcmp(*trace + n - 5, ".json")) ||
		    (n > 7 && !strcmp(*trace + n - 7, ".ndjson"))) {
			t->report = *trace;
			*trace = NULL;
		}
	}
	if (t->report && *trace)
		return cli_usage_error("tui", "a TRACE or a --report, not both");
	if (!*trace && !t->report)
		return cli_usage_error("tui", "no TRACE or REPORT.json given");
	if (t->dump && !t->headless)
		return cli_usage_error("tui", "--dump needs --headless");
	return 0;
}

/* What the loading thread replays */
struct trace_job {
	struct tui_store		*store;
	const struct cli_replay_opts	*o;
	const char			*trace;
	const struct cli_source_opts	*so;
};

static int load_trace(struct tui_store *store, const struct cli_replay_opts *o, const char *trace,
		      const struct cli_source_opts *so);

static int trace_job_run(void *arg)
{
	struct trace_job *j = arg;

	return load_trace(j->store, j->o, j->trace, j->so);
}

/*
 * While curses owns the terminal, the replay's warnings and errors go to a
 * temporary file, written out once the terminal is back.
 */
static int hold_stderr(FILE **tmp)
{
	int saved;

	*tmp = tmpfile();
	if (!*tmp)
		return -1;
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	if (saved < 0 || dup2(fileno(*tmp), STDERR_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		fclose(*tmp);
		*tmp = NULL;
		return -1;
	}
	return saved;
}

static void release_stderr(FILE *tmp, int saved)
{
	char buf[4096];
	size_t n;

	if (saved < 0)
		return;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	while ((n = fread(buf, 1, sizeof(buf), tmp)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(tmp);
}

/* Replay TRACE into @store (its sink), with the report's header. */
static int load_trace(struct tui_store *store, const struct cli_replay_opts *o, const char *trace,
		      const struct cli_source_opts *so)
{
	struct tui_store_sink k = { .store = store };
	struct session_sink sink = { .ops = &tui_store_sink_ops, .priv = &k };
	struct session_opts sopt;
	struct cli_source src = { 0 };
	int ret;

	cli_replay_opts_session(o, &sopt);
	ret = cli_source_open(&src, trace, so, &sopt, "tui");
	if (!ret)
		ret = cli_source_run(&src, &sink, 1);
	tui_store_sink_release(&k);
	cli_source_close(&src);
	return ret;
}

static char *read_file(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *buf = NULL;
	size_t len = 0, n;

	if (!f)
		return NULL;
	for (;;) {
		char *nb = realloc(buf, len + 4097);

		if (!nb) {
			free(buf);
			if (f != stdin)
				fclose(f);
			return NULL;
		}
		buf = nb;
		n = fread(buf + len, 1, 4096, f);
		len += n;
		if (n < 4096)
			break;
	}
	buf[len] = '\0';
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	return buf;
}

int cmd_tui(int argc, char **argv)
{
	struct cli_replay_opts o;
	struct cli_source_opts so = { 0 };
	struct tui_opts t = { .w = 80, .h = 24 };
	struct tui_run_opts ro = { 0 };
	struct tui_app_opts ao = { 0 };
	struct tui_store *store = NULL;
	struct tui_app *app = NULL;
	struct tui_key_ev *keys = NULL;
	size_t nr_keys = 0;
	const char *trace = NULL, *nc = getenv("NO_COLOR");
	char *script = NULL;
	struct report_out dump = { 0 };
	struct err e = { 0 };
	char buf[1400];
	FILE *err_tmp = NULL;
	int ret, r, lr, saved_err = -1;
	struct trace_job job = { .o = &o, .so = &so };

	cli_replay_opts_init(&o);
	ret = parse_args(argc, argv, &o, &so, &t, &trace);
	if (ret)
		return ret < 0 ? CLI_EXIT_OK : ret;
	setlocale(LC_ALL, "");

	if (t.keys_file) {
		script = read_file(t.keys_file);
		if (!script)
			return cli_error("cannot read '%s': %s", t.keys_file, strerror(errno));
	}
	if (t.keys || script) {
		r = tui_keys_parse(t.keys ? t.keys : script, &keys, &nr_keys, &e);
		if (r < 0) {
			ret = cli_usage_error("tui", "%s%s%s", t.keys ? "--keys" : "--keys-file '",
					      t.keys ? ": " : "': ", e.msg);
			goto out;
		}
	}

	store = tui_store_new();
	if (!store) {
		ret = CLI_EXIT_INTERNAL;
		cli_error("out of memory");
		goto out;
	}
	job.store = store;
	job.trace = trace;
	/*
	 * In a terminal the browser opens at once and the store fills behind
	 * it: a report is indexed by a thread (followed while it is still
	 * being written), a trace replayed by one.  A headless run waits for
	 * the end first, so that its keys see every decision.
	 */
	if (t.report) {
		/* "-": a report on standard input, which the store opens by name */
		const char *path = strcmp(t.report, "-") ? t.report : "/dev/stdin";

		r = t.headless ? tui_store_load_json(store, path, &e) :
		    tui_store_open_json(store, path, true, &e);
		if (r < 0) {
			ret = r == -ENOMEM ? CLI_EXIT_INTERNAL : CLI_EXIT_BADINPUT;
			cli_error("%s", err_format(&e, buf, sizeof(buf)));
			goto out;
		}
	} else if (t.headless || access(trace, F_OK) != 0) {
		/* a trace that is not there fails now, with replay's message */
		ret = load_trace(store, &o, trace, &so);
		if (ret)
			goto out;
	} else if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		ret = cli_usage_error("tui", "stdin and stdout must be a terminal (or use --headless)");
		goto out;
	} else {
		saved_err = hold_stderr(&err_tmp);
		r = tui_store_run(store, trace_job_run, &job);
		if (r < 0) {
			release_stderr(err_tmp, saved_err);
			saved_err = -1;
			ret = CLI_EXIT_INTERNAL;
			cli_error("cannot start the replay: %s", strerror(-r));
			goto out;
		}
	}

	ao.ascii = t.ascii;
	ao.color = !t.no_color && !(nc && nc[0]);
	tui_store_lock(store);
	app = tui_app_new(store, &ao);
	tui_store_unlock(store);
	if (!app) {
		ret = CLI_EXIT_INTERNAL;
		cli_error("out of memory");
		goto out;
	}
	ro.keys = keys;
	ro.nr_keys = nr_keys;
	ro.frames = t.frames;
	ro.w = t.w;
	ro.h = t.h;
	ro.styles = t.styles;
	ro.color = ao.color;
	if (t.headless) {
		if (t.dump) {
			r = report_out_open(&dump, t.dump);
			if (r < 0) {
				ret = CLI_EXIT_INTERNAL;
				cli_error("cannot write '%s': %s", t.dump, strerror(-r));
				goto out;
			}
			ro.dump = dump.f;
		}
		r = tui_run_headless(app, &ro);
		if (t.dump) {
			int we = report_out_error(&dump);
			int w = report_out_close(&dump, r >= 0);

			if (r < 0 && we) {
				/* the run failed writing the dump: say which file, and how */
				ret = CLI_EXIT_INTERNAL;
				cli_error("cannot write '%s': %s", t.dump, strerror(we));
				goto out;
			}

			if (w < 0 && r >= 0) {
				ret = CLI_EXIT_INTERNAL;
				cli_error("cannot write '%s': %s", t.dump, strerror(-w));
				goto out;
			}
		}
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("headless run: %s", sr_strerror(r));
			goto out;
		}
	} else {
		r = tui_run_terminal(app, &ro);
		/* the user is done: stop reading, and say what went wrong in loading */
		tui_store_stop(store);
		lr = tui_store_wait(store, &e);
		release_stderr(err_tmp, saved_err);
		saved_err = -1;
		if (t.report && lr < 0) {
			ret = lr == -ENOMEM ? CLI_EXIT_INTERNAL : CLI_EXIT_BADINPUT;
			cli_error("%s", err_format(&e, buf, sizeof(buf)));
			goto out;
		}
		if (!t.report && lr > 0) {
			ret = lr;
			goto out;
		}
		if (r == -ENOTTY) {
			ret = cli_usage_error("tui", "stdin and stdout must be a terminal (or use --headless)");
			goto out;
		}
		if (r == -EINTR) {
			ret = CLI_EXIT_OK;
			goto out;
		}
		if (r < 0) {
			ret = CLI_EXIT_INTERNAL;
			cli_error("terminal: %s", sr_strerror(r));
			goto out;
		}
	}
	ret = CLI_EXIT_OK;
out:
	release_stderr(err_tmp, saved_err);
	tui_app_free(app);
	tui_store_free(store);
	free(keys);
	free(script);
	return ret;
}

#else

int cmd_tui(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_error("this schedreplay was built without the TUI (cmake -DSR_BUILD_TUI=ON)");
	return CLI_EXIT_USAGE;
}

#endif
