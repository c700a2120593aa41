/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli-opt.h - the one table of every command's options, and the one parser
 * (getopt_long) that reads them with GNU conventions: --opt=value and
 * --opt value, -j1 and -j 1, "--" ends the options, "-" is an argument
 * (standard input or output).  `--help` is printed from the same table, and
 * the man page and the bash completion are checked against that help
 * (tests/e2e/test-cli.sh).
 */
#ifndef SR_CLI_CLI_OPT_H
#define SR_CLI_CLI_OPT_H

#include <stdbool.h>
#include <stdio.h>

/* Which commands take an option (struct cli_opt.cmds). */
enum cli_cmd_bit {
	CLI_INFO	= 1 << 0,
	CLI_REPLAY	= 1 << 1,
	CLI_POLICIES	= 1 << 2,
	CLI_COMPARE	= 1 << 3,
	CLI_RECORD	= 1 << 4,
	CLI_TUI		= 1 << 5,
	CLI_LATENCY	= 1 << 6,
};

/*
 * What the parser hands the command: an option's id (its short letter when
 * it has one), or CLI_OPT_ARG for an argument that is not an option.
 */
enum cli_opt_id {
	CLI_OPT_ARG = 1,
	CLI_OPT_COMM = 'c',
	CLI_OPT_DURATION = 'd',
	CLI_OPT_HELP = 'h',
	CLI_OPT_JOBS = 'j',
	CLI_OPT_OUTPUT = 'o',
	CLI_OPT_PID = 'p',
	CLI_OPT_QUIET = 'q',
	CLI_OPT_VERBOSE = 'v',
	CLI_OPT_FORMAT = 256,
	CLI_OPT_TOPOLOGY,
	CLI_OPT_BUFFER,
	CLI_OPT_READER,
	CLI_OPT_THREADS,
	CLI_OPT_STRICT,
	CLI_OPT_OLD,
	CLI_OPT_NEW,
	CLI_OPT_PARAM,
	CLI_OPT_PLUGIN,
	CLI_OPT_KERNEL_POLICY,
	CLI_OPT_SCAN_PERIOD,
	CLI_OPT_JSON,
	CLI_OPT_NDJSON,
	CLI_OPT_NDJSON_FORMAT,
	CLI_OPT_HOST,
	CLI_OPT_LABEL,
	CLI_OPT_RECORDED_AT,
	CLI_OPT_TRACE_LIST,
	CLI_OPT_TOP,
	CLI_OPT_FAIL_ON_DISAGREE,
	CLI_OPT_REPORT,
	CLI_OPT_KEYS,
	CLI_OPT_KEYS_FILE,
	CLI_OPT_FRAMES,
	CLI_OPT_HEADLESS,
	CLI_OPT_SIZE,
	CLI_OPT_DUMP,
	CLI_OPT_DUMP_STYLES,
	CLI_OPT_NO_COLOR,
	CLI_OPT_ASCII,
	CLI_OPT_VS,
	CLI_OPT_BASE,
	CLI_OPT_ALPHA,
	CLI_OPT_HIGHER,
	CLI_OPT_LOWER,
	CLI_OPT_METRIC,
	CLI_OPT_UNCORRECTED,
	CLI_OPT_HARMONIC,
	CLI_OPT_COUNT,
	CLI_OPT_SAMPLE_MS,
	CLI_OPT_BUFFER_KB,
	CLI_OPT_NO_LATENCY,
	CLI_OPT_SECONDS,
	CLI_OPT_LATENCY,
	CLI_OPT_NO_PROBES,
};

/**
 * struct cli_opt_cmd - what a command's --help says around its options
 * @name:   the command ("replay")
 * @bit:    its enum cli_cmd_bit
 * @usage:  the text before "options:" (usage lines and a description)
 * @footer: the text after the options, or NULL
 * @command_follows: the first argument that is not an option starts a
 *          COMMAND to run, as after "--" (record, like perf record)
 */
struct cli_opt_cmd {
	const char	*name;
	unsigned int	bit;
	const char	*usage;
	const char	*footer;
	bool		command_follows;
};

/*
 * A command's handler of one option or argument.  Return 0 to go on, or an
 * exit code (after its message) to stop.
 */
typedef int (*cli_opt_fn)(void *ctx, int id, const char *arg);

/**
 * cli_opt_parse() - read @argv (argv[0] is the command) with the options
 * of @cmd
 * @cmd:  the command
 * @fn:   called for each option and each argument, in the order given
 * @ctx:  passed to @fn
 * @rest: NULL: the arguments after "--" go to @fn as CLI_OPT_ARG; else
 *        *@rest is set to the index of the first argument after "--" (or,
 *        with @cmd->command_follows, of the first that is not an option),
 *        or to 0 when there was none
 *
 * -h/--help prints cli_opt_help() on stdout.  An unknown option, a missing
 * value or a value given to an option that takes none is one usage line
 * (cli_usage_error()).
 * Return: 0 when every argument was taken, -1 after --help, or an exit
 * code.
 */
int cli_opt_parse(const struct cli_opt_cmd *cmd, int argc, char **argv, cli_opt_fn fn,
		  void *ctx, int *rest);

/** cli_opt_help() - print @cmd's --help (usage, options from the table, footer) */
void cli_opt_help(const struct cli_opt_cmd *cmd, FILE *out);

/** cli_opt_name() - "--name" of option @id (for messages), "" if none */
const char *cli_opt_name(int id);

#endif
