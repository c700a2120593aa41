// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli-opt.c - the option table of every command and its parser; see
 * cli-opt.h.  One row per option and meaning: an option that means
 * different things to different commands (info's --json is a switch,
 * replay's takes a FILE) has a row for each.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli-opt.h"
#include "record/record.h"

#define STR_(x)	#x
#define STR(x)	STR_(x)

#define SRC	(CLI_INFO | CLI_REPLAY | CLI_TUI)	/* the trace-reading commands */
#define POL	(CLI_REPLAY | CLI_TUI)			/* the replaying ones */
#define ALL	(CLI_INFO | CLI_REPLAY | CLI_POLICIES | CLI_COMPARE | CLI_RECORD | CLI_TUI | CLI_LATENCY)

/**
 * struct cli_opt - one row of the table
 * @name:    the long name, without "--"
 * @id:      enum cli_opt_id (a short option's letter)
 * @has_arg: no_argument, required_argument or optional_argument (getopt.h)
 * @arg:     the value's name in --help ("FILE"), NULL for none
 * @cmds:    the commands that take it (enum cli_cmd_bit)
 * @help:    its --help text; lines after the first are indented under it
 */
struct cli_opt {
	const char	*name;
	int		id;
	int		has_arg;
	const char	*arg;
	unsigned int	cmds;
	const char	*help;
};

static const struct cli_opt opts[] = {
	/* the policies of a replay (replay-setup.c) */
	{ "old", CLI_OPT_OLD, required_argument, "P[,P...]", POL,
	  "old policies (default lb-v4.1,numa-v4.18,exec-least-loaded,\n"
	  "wakeup-v5.19,fork-v5.10)" },
	{ "new", CLI_OPT_NEW, required_argument, "P[,P...]", POL,
	  "new policies (default lb-v4.1-numa-hotness,numa-v4.19,\n"
	  "exec-round-robin,wakeup-v6.1,fork-v6.1); the first policy\n"
	  "of a side that decides a class decides it ('schedreplay\n"
	  "policies' lists them)" },
	{ "param", CLI_OPT_PARAM, required_argument, "[P:]K=V", POL,
	  "set parameter K (of policy P, or of every chosen policy\n"
	  "that has K); repeatable" },
	{ "plugin", CLI_OPT_PLUGIN, required_argument, "FILE.so", POL | CLI_POLICIES,
	  "load a policy plugin from its path (with a '/', never\n"
	  "searched for; docs/plugin-abi.md); repeatable" },
	{ "kernel-policy", CLI_OPT_KERNEL_POLICY, required_argument, "P[,P...]", POL,
	  "model of the recording kernel for fidelity (default:\n"
	  "from the kernel release; 'none' for no fidelity)" },
	{ "latency", CLI_OPT_LATENCY, required_argument, "FILE", POL,
	  "price remote accesses with this latency profile (the JSON of\n"
	  "'schedreplay latency --json'; default: the trace's own, else priors)" },
	{ "scan-period-ms", CLI_OPT_SCAN_PERIOD, required_argument, "N", POL,
	  "decay period of the NUMA fault model (default: the trace's\n"
	  "scan_period_min_ms, else 1000; docs/cost-model.md)" },

	/* replay's outputs and its several traces */
	{ "json", CLI_OPT_JSON, required_argument, "FILE|-", CLI_REPLAY,
	  "write the report as one JSON document (docs/json-schema.md)" },
	{ "ndjson", CLI_OPT_NDJSON, required_argument, "FILE|-", CLI_REPLAY,
	  "stream one JSON object per decision, a line each" },
	{ "ndjson-format", CLI_OPT_NDJSON_FORMAT, required_argument, "nested|flat", CLI_REPLAY,
	  "nested decision objects (default), or flat rows\n"
	  "for a column store such as ClickHouse (docs/fleet.md)" },
	{ "host", CLI_OPT_HOST, required_argument, "NAME", CLI_REPLAY,
	  "flat rows: the host name (default: the trace's uname, else\n"
	  "the capture's uname.txt, else 'unknown')" },
	{ "label", CLI_OPT_LABEL, required_argument, "K=V", CLI_REPLAY,
	  "flat rows: a label (e.g. group=db); repeatable" },
	{ "recorded-at", CLI_OPT_RECORDED_AT, required_argument, "T", CLI_REPLAY,
	  "flat rows: when the trace was recorded, seconds since the\n"
	  "epoch or YYYY-MM-DD[THH:MM:SS] UTC (default: the file's mtime)" },
	{ "trace-list", CLI_OPT_TRACE_LIST, required_argument, "FILE|-", CLI_REPLAY,
	  "more TRACEs, one per line ('#' starts a comment)" },
	{ "jobs", CLI_OPT_JOBS, required_argument, "N", CLI_REPLAY,
	  "traces replayed at once (default: the CPUs available)" },
	{ "top", CLI_OPT_TOP, required_argument, "N", CLI_REPLAY,
	  "tasks listed with most disagreements, and disagreements\n"
	  "with the largest cost difference (default 10)" },
	{ "fail-on-disagree", CLI_OPT_FAIL_ON_DISAGREE, no_argument, NULL, CLI_REPLAY,
	  "exit 1 when the policies disagree on any decision" },
	{ "verbose", CLI_OPT_VERBOSE, no_argument, NULL, CLI_REPLAY,
	  "the text summary with every section, class and parameter" },

	/* tui */
	{ "report", CLI_OPT_REPORT, required_argument, "FILE", CLI_TUI,
	  "open a saved 'replay --json' report (also implied by\n"
	  "a TRACE argument ending in .json)" },
	{ "keys", CLI_OPT_KEYS, required_argument, "SCRIPT", CLI_TUI,
	  "type these keys first: names (Down, Enter, Esc, Tab,\n"
	  "PgDn, End, Resize:WxH, ...) or characters, space separated" },
	{ "keys-file", CLI_OPT_KEYS_FILE, required_argument, "FILE", CLI_TUI,
	  "the same, read from FILE" },
	{ "frames", CLI_OPT_FRAMES, required_argument, "N", CLI_TUI,
	  "stop after drawing N frames" },
	{ "headless", CLI_OPT_HEADLESS, no_argument, NULL, CLI_TUI,
	  "draw into memory only, no terminal (tests, sanitizers)" },
	{ "size", CLI_OPT_SIZE, required_argument, "WxH", CLI_TUI,
	  "screen size with --headless (default 80x24)" },
	{ "dump", CLI_OPT_DUMP, required_argument, "FILE|-", CLI_TUI,
	  "with --headless, write the last screen as text" },
	{ "dump-styles", CLI_OPT_DUMP_STYLES, no_argument, NULL, CLI_TUI,
	  "add the style of each cell to the dump" },
	{ "no-color", CLI_OPT_NO_COLOR, no_argument, NULL, CLI_TUI,
	  "no colors (also when NO_COLOR is set)" },
	{ "ascii", CLI_OPT_ASCII, no_argument, NULL, CLI_TUI,
	  "ASCII bars and arrows only" },

	/* info and policies */
	{ "json", CLI_OPT_JSON, no_argument, NULL, CLI_INFO,
	  "print one JSON object instead of text (docs/info.md)" },
	{ "json", CLI_OPT_JSON, no_argument, NULL, CLI_POLICIES,
	  "print the policies as a JSON array instead of text" },

	/* compare */
	{ "vs", CLI_OPT_VS, no_argument, NULL, CLI_COMPARE,
	  "the inputs after --vs are the new side" },
	{ "base", CLI_OPT_BASE, required_argument, "NAME", CLI_COMPARE,
	  "without --vs: compare every kernel with NAME (default:\n"
	  "the first row or file of each metric)" },
	{ "json", CLI_OPT_JSON, required_argument, "FILE|-", CLI_COMPARE,
	  "write every figure as JSON to FILE (- for stdout, no table)" },
	{ "alpha", CLI_OPT_ALPHA, required_argument, "A", CLI_COMPARE,
	  "significance level, 0 < A < 0.5 (default 0.05)" },
	{ "higher-is-better", CLI_OPT_HIGHER, optional_argument, "NAME", CLI_COMPARE,
	  "higher is better for metrics whose name holds\n"
	  "NAME (repeatable); without =NAME for every metric" },
	{ "lower-is-better", CLI_OPT_LOWER, optional_argument, "NAME", CLI_COMPARE,
	  "the same, lower is better (times, costs)\n"
	  "(default: from the metric's name, the input, or higher)" },
	{ "metric", CLI_OPT_METRIC, required_argument, "NAME", CLI_COMPARE,
	  "replay reports: compare NAME (a dotted summary name or\n"
	  "prefix; repeatable) instead of the headline figures" },
	{ "uncorrected", CLI_OPT_UNCORRECTED, no_argument, NULL, CLI_COMPARE,
	  "judge each metric on its own p (default: Holm-Bonferroni\n"
	  "over the metrics compared together)" },
	{ "harmonic", CLI_OPT_HARMONIC, no_argument, NULL, CLI_COMPARE,
	  "harmonic means (for rates), where raw runs exist" },
	{ "count", CLI_OPT_COUNT, required_argument, "N", CLI_COMPARE,
	  "runs behind each row of a table without a count column" },

	/* record */
	{ "output", CLI_OPT_OUTPUT, required_argument, "FILE", CLI_RECORD,
	  "the trace.dat to write (default: trace.dat)" },
	{ "duration", CLI_OPT_DURATION, required_argument, "S", CLI_RECORD,
	  "stop after S seconds" },
	{ "pid", CLI_OPT_PID, required_argument, "PID", CLI_RECORD,
	  "sample this process's threads (repeatable)" },
	{ "comm", CLI_OPT_COMM, required_argument, "NAME", CLI_RECORD,
	  "sample the threads of processes named NAME (repeatable)" },
	{ "sample-ms", CLI_OPT_SAMPLE_MS, required_argument, "N", CLI_RECORD,
	  "numa_sample period in ms (default " STR(RECORD_DEFAULT_SAMPLE_MS) "; 0: none)" },
	{ "buffer-kb", CLI_OPT_BUFFER_KB, required_argument, "N", CLI_RECORD,
	  "ring buffer per CPU in KiB (default " STR(RECORD_DEFAULT_BUFFER_KB) ")" },
	{ "no-latency", CLI_OPT_NO_LATENCY, no_argument, NULL, CLI_RECORD,
	  "do not measure the memory latency profile first (default: measured,\n"
	  STR(RECORD_LATENCY_DEFAULT_S) " s; docs/recording.md)" },
	{ "no-probes", CLI_OPT_NO_PROBES, no_argument, NULL, CLI_RECORD,
	  "no decision probes (can_migrate_task, select_task_rq_fair, task_numa_migrate)" },
	{ "quiet", CLI_OPT_QUIET, no_argument, NULL, CLI_RECORD,
	  "no summary on stderr" },

	/* latency */
	{ "json", CLI_OPT_JSON, no_argument, NULL, CLI_LATENCY,
	  "the profile as JSON (what replay --latency reads)" },
	{ "seconds", CLI_OPT_SECONDS, required_argument, "S", CLI_LATENCY,
	  "time the chases may take, all node pairs together (default\n"
	  STR(RECORD_LATENCY_DEFAULT_S) "; setting up each node's buffer adds about 1 s)" },

	/* the source of a trace (source.c) */
	{ "format", CLI_OPT_FORMAT, required_argument, "FMT", SRC,
	  "input format: auto (default), dat, trace, report, perf" },
	{ "topology", CLI_OPT_TOPOLOGY, required_argument, "PATH", SRC,
	  "CPU->node map and distances: a copy of /sys/devices/system/node,\n"
	  "the text of 'numactl -H', or topology JSON (docs/topology.md)" },
	{ "buffer", CLI_OPT_BUFFER, required_argument, "NAME", SRC,
	  "read only this trace.dat buffer (instance); 'top' for the top one" },
	{ "reader", CLI_OPT_READER, required_argument, "R", SRC,
	  "trace.dat reader: auto (default: fast when it can), fast, libtracecmd" },
	{ "threads", CLI_OPT_THREADS, required_argument, "N", SRC,
	  "threads of the fast reader, this one included (default: one per CPU\n"
	  "this process may use, one per trace when replay runs several at\n"
	  "once; 1: decode on this thread only)" },
	{ "strict", CLI_OPT_STRICT, no_argument, NULL, SRC,
	  "any damage in the trace is fatal, not read around" },
	{ "quiet", CLI_OPT_QUIET, no_argument, NULL, SRC,
	  "no warnings and no progress on stderr" },

	/* text output and help */
	{ "output", CLI_OPT_OUTPUT, required_argument, "FILE|-", CLI_INFO | CLI_REPLAY | CLI_POLICIES | CLI_COMPARE | CLI_LATENCY,
	  "write the text to FILE (replaced whole, never half-written)" },
	{ "help", CLI_OPT_HELP, no_argument, NULL, ALL, "this help" },
};

#define NR_OPTS (sizeof(opts) / sizeof(opts[0]))
#define HELP_COL 22

static bool has_short(int id)
{
	return id > 0 && id < 128 && id != CLI_OPT_ARG;
}

const char *cli_opt_name(int id)
{
	static char buf[40];
	size_t i;

	for (i = 0; i < NR_OPTS; i++) {
		if (opts[i].id == id) {
			snprintf(buf, sizeof(buf), "--%s", opts[i].name);
			return buf;
		}
	}
	return "";
}

void cli_opt_help(const struct cli_opt_cmd *cmd, FILE *out)
{
	size_t i;

	fputs(cmd->usage, out);
	fputs("\noptions:\n", out);
	for (i = 0; i < NR_OPTS; i++) {
		const struct cli_opt *o = &opts[i];
		const char *h, *nl;
		char label[64];
		int n;

		if (!(o->cmds & cmd->bit))
			continue;
		if (has_short(o->id))
			n = snprintf(label, sizeof(label), "  -%c, --%s", o->id, o->name);
		else
			n = snprintf(label, sizeof(label), "  --%s", o->name);
		if (o->has_arg == optional_argument)
			n += snprintf(label + n, sizeof(label) - n, "[=%s]", o->arg);
		else if (o->arg)
			n += snprintf(label + n, sizeof(label) - n, " %s", o->arg);
		if (n < HELP_COL)
			fprintf(out, "%-*s", HELP_COL, label);
		else
			fprintf(out, "%s\n%*s", label, HELP_COL, "");
		for (h = o->help; (nl = strchr(h, '\n')); h = nl + 1)
			fprintf(out, "%.*s\n%*s", (int)(nl - h), h, HELP_COL, "");
		fprintf(out, "%s\n", h);
	}
	if (cmd->footer)
		fprintf(out, "\n%s", cmd->footer);
}

/* argv[optind - 1] or the short option, as the user typed it */
static const char *typed(char **argv, char *buf, size_t len)
{
	if (optopt > 0 && optopt < 128) {
		snprintf(buf, len, "-%c", optopt);
		return buf;
	}
	snprintf(buf, len, "%s", argv[optind - 1]);
	return buf;
}

/* "--pre[=v]" starts two or more of @lo's names: they go into @buf */
static bool ambiguous(const struct option *lo, const char *a, char *buf, size_t len)
{
	size_t n, k = 0;
	int hits = 0;

	if (strncmp(a, "--", 2))
		return false;
	a += 2;
	n = strcspn(a, "=");
	buf[0] = '\0';
	for (; lo->name; lo++) {
		if (strncmp(lo->name, a, n))
			continue;
		if (k < len)
			k += (size_t)snprintf(buf + k, len - k, "%s--%s", hits ? ", " : "", lo->name);
		hits++;
	}
	return hits > 1;
}

int cli_opt_parse(const struct cli_opt_cmd *cmd, int argc, char **argv, cli_opt_fn fn,
		  void *ctx, int *rest)
{
	struct option lo[NR_OPTS + 1];
	char so[2 + 2 * NR_OPTS + 1], what[256];
	const char *last_arg = NULL;
	size_t i, n = 0, k = 0;
	int c, r;

	/* arguments come back in order, as CLI_OPT_ARG; or the first one ends the options */
	so[k++] = cmd->command_follows ? '+' : '-';
	so[k++] = ':';	/* a missing value is ':', not '?' */
	for (i = 0; i < NR_OPTS; i++) {
		if (!(opts[i].cmds & cmd->bit))
			continue;
		lo[n].name = opts[i].name;
		lo[n].has_arg = opts[i].has_arg;
		lo[n].flag = NULL;
		lo[n].val = opts[i].id;
		n++;
		if (has_short(opts[i].id)) {
			so[k++] = (char)opts[i].id;
			if (opts[i].has_arg == required_argument)
				so[k++] = ':';
		}
	}
	memset(&lo[n], 0, sizeof(lo[n]));
	so[k] = '\0';

	opterr = 0;
	optind = 0;	/* glibc: start over (commands run in-process in tests) */
	if (rest)
		*rest = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		switch (c) {
		case ':':
			return cli_usage_error(cmd->name, "option '%s' needs a value",
					       typed(argv, what, sizeof(what)));
		case '?':
			if (optopt >= 128 || (optopt > 0 && optopt != ':' && strchr(so + 2, optopt))) {
				/* --flag=value for a flag */
				snprintf(what, sizeof(what), "%s", argv[optind - 1]);
				*strchrnul(what, '=') = '\0';
				return cli_usage_error(cmd->name, "option '%s' takes no value",
						       what);
			}
			if (!optopt && ambiguous(lo, argv[optind - 1], what, sizeof(what)))
				return cli_usage_error(cmd->name, "option '%s' is ambiguous (%s)",
						       argv[optind - 1], what);
			return cli_usage_error(cmd->name, "unknown option '%s'",
					       typed(argv, what, sizeof(what)));
		case CLI_OPT_HELP:
			cli_opt_help(cmd, stdout);
			return -1;
		default:
			last_arg = optarg;
			r = fn(ctx, c, optarg);
			if (r)
				return r;
		}
	}
	/* optind < argc, or a last "--" that is not an option's value: "--" was given */
	if (optind < argc || (optind > 1 && !strcmp(argv[optind - 1], "--") &&
			      last_arg != argv[optind - 1])) {
		if (rest) {
			*rest = optind;
			return 0;
		}
		for (; optind < argc; optind++) {
			r = fn(ctx, CLI_OPT_ARG, argv[optind]);
			if (r)
				return r;
		}
	}
	return 0;
}
