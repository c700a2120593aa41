/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - the subcommand table and what every command shares.
 *
 * src/cli/ is the only place that prints errors for the user and picks
 * exit codes.  Each command is a function returning an exit code (so tests
 * can call it in-process); main() only dispatches.
 */
#ifndef SR_CLI_CLI_H
#define SR_CLI_CLI_H

#include <stddef.h>

/* Exit codes (documented in docs/cli.md and the man page). */
enum cli_exit {
	CLI_EXIT_OK		= 0,
	CLI_EXIT_DISAGREE	= 1,	/* replay --fail-on-disagree found disagreements */
	CLI_EXIT_USAGE		= 2,	/* bad command line */
	CLI_EXIT_BADINPUT	= 3,	/* unreadable or malformed input */
	CLI_EXIT_INTERNAL	= 4,	/* out of memory, I/O error on output, bug */
	CLI_EXIT_NOTRACE	= 5,	/* record: cannot trace here (not root, no tracefs) */
};

/**
 * struct cli_cmd - one subcommand
 * @name:    exact name (no prefix matching)
 * @alias:   another exact name, or NULL
 * @summary: one line for `schedreplay --help`
 * @run:     the command; argv[0] is the command name
 */
struct cli_cmd {
	const char	*name;
	const char	*alias;
	const char	*summary;
	int		(*run)(int argc, char **argv);
};

int cmd_info(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_policies(int argc, char **argv);
int cmd_tui(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_latency(int argc, char **argv);

/**
 * cli_error() - print "schedreplay: error: ..." on stderr
 * Return: CLI_EXIT_BADINPUT, for "return cli_error(...)" in input paths.
 */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** cli_warn() - print "schedreplay: warning: ..." on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * cli_usage_error() - print "schedreplay CMD: ..." and a hint to --help
 * @cmd: the command, or "" when the message is not about one
 * Return: CLI_EXIT_USAGE.
 */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

struct json_t;

/**
 * cli_write_json() - write a JSON document to @path ("-" = stdout) through
 * util/outfile.h, with json_dumpf() @flags and a final newline
 * Return: CLI_EXIT_OK, or CLI_EXIT_INTERNAL after an error naming @path and
 * the write error as it was (ENOSPC, EIO, ...).
 */
int cli_write_json(const struct json_t *root, const char *path, size_t flags);

#endif
