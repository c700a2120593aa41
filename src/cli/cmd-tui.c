// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-tui.c - `schedreplay tui TRACE|REPORT.json`: browse the decisions of
 * a replay in the terminal (tui/).  A trace is replayed first with the
 * same options as `replay` (replay-setup.c), by a session whose sink is
 * the TUI's store (tui/store-replay.c); a saved `replay --json` report is
 * read as it is.  --headless runs the same views without a
 * terminal, for tests and sanitizer runs.
 */
#include <errno.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
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

static void tui_usage(FILE *out)
{
	fprintf(out,
		"usage: schedreplay tui [OPTIONS] TRACE\n"
		"       schedreplay tui [OPTIONS] REPORT.json\n"
		"\n"
		"Browse the decisions of a replay in the terminal: the list (disagreements\n"
		"highlighted), the detail of one decision with the policies' reasons, the\n"
		"node matrix and the timeline.  TRACE is replayed with the same options as\n"
		"'schedreplay replay'; a report written by 'replay --json' is opened as it is.\n"
		"Press ? in the browser for the keys (docs/tui.md).\n"
		"\n"
		"options:\n"
		"%s"
		"  --report FILE       open a saved 'replay --json' report (also implied by\n"
		"                      a TRACE argument ending in .json)\n"
		"  --keys SCRIPT       type these keys first: names (Down, Enter, Esc, Tab,\n"
		"                      PgDn, End, Resize:WxH, ...) or characters, space separated\n"
		"  --keys-file FILE    the same, read from FILE\n"
		"  --frames N          stop after drawing N frames\n"
		"  --headless          draw into memory only, no terminal (tests, sanitizers)\n"
		"  --size WxH          screen size with --headless (default 80x24)\n"
		"  --dump FILE|-       with --headless, write the last screen as text\n"
		"  --dump-styles       add the style of each cell to the dump\n"
		"  --no-color          no colors (also when NO_COLOR is set)\n"
		"  --ascii             ASCII bars and arrows only\n"
		"%s"
		"  -h, --help          this help\n",
		cli_replay_opts_help(), cli_source_opts_help());
}

static int parse_args(int argc, char **argv, struct cli_replay_opts *o, struct cli_source_opts *so,
		      struct tui_opts *t, const char **trace)
{
	int i, r;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **slot = NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			tui_usage(stdout);
			return -1;
		}
		if (!strcmp(a, "--headless") || !strcmp(a, "--dump-styles") ||
		    !strcmp(a, "--no-color") || !strcmp(a, "--ascii")) {
			t->headless |= !strcmp(a, "--headless");
			t->styles |= !strcmp(a, "--dump-styles");
			t->no_color |= !strcmp(a, "--no-color");
			t->ascii |= !strcmp(a, "--ascii");
			continue;
		}
		r = cli_replay_opts_parse_policy(o, argc, argv, &i, "tui");
		if (r < 0)
			return -r;
		if (r)
			continue;
		if (!strcmp(a, "--report"))
			slot = &t->report;
		else if (!strcmp(a, "--keys"))
			slot = &t->keys;
		else if (!strcmp(a, "--keys-file"))
			slot = &t->keys_file;
		else if (!strcmp(a, "--dump"))
			slot = &t->dump;
		if (slot || !strcmp(a, "--frames") || !strcmp(a, "--size")) {
			if (i + 1 >= argc)
				return cli_usage_error("tui", "option '%s' needs a value", a);
			if (slot) {
				*slot = argv[++i];
			} else if (!strcmp(a, "--frames")) {
				char *end;
				long v = strtol(argv[++i], &end, 10);

				if (*end || v < 1 || v > 100000000)
					return cli_usage_error("tui", "--frames takes a number, not '%s'",
							       argv[i]);
				t->frames = (unsigned long)v;
			} else {
				char tail;

				if (sscanf(argv[++i], "%dx%d%c", &t->w, &t->h, &tail) != 2 ||
				    t->w < 1 || t->h < 1 || t->w > 1000 || t->h > 1000)
					return cli_usage_error("tui", "--size takes WxH, not '%s'",
							       argv[i]);
			}
			continue;
		}
		r = cli_source_parse_opt(so, argc, argv, &i, "tui");
		if (r < 0)
			return -r;
		if (r)
			continue;
		if (a[0] == '-' && a[1])
			return cli_usage_error("tui", "unknown option '%s'", a);
		if (*trace)
			return cli_usage_error("tui", "one TRACE at a time ('%s' and '%s')", *trace, a);
		*trace = a;
	}
	if (*trace && !t->report) {
		size_t n = strlen(*trace);

		if (n > 5 && !strcmp(*trace + n - 5, ".json")) {
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
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, n;

	if (!f)
		return NULL;
	for (;;) {
		char *nb = realloc(buf, len + 4097);

		if (!nb) {
			free(buf);
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
	int ret, r;

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
	if (t.report) {
		r = tui_store_load_json(store, t.report, &e);
		if (r < 0) {
			ret = r == -ENOMEM ? CLI_EXIT_INTERNAL : CLI_EXIT_BADINPUT;
			cli_error("%s", err_format(&e, buf, sizeof(buf)));
			goto out;
		}
	} else {
		ret = load_trace(store, &o, trace, &so);
		if (ret)
			goto out;
	}

	ao.ascii = t.ascii;
	ao.color = !t.no_color && !(nc && nc[0]);
	app = tui_app_new(store, &ao);
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
