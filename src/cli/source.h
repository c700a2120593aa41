/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * source.h - what every command that reads a trace shares: the options of
 * the trace's source, and opening and running it as a session
 * (src/session/) with its failures printed as one error line and an exit
 * code, its damage warnings and its progress on a terminal.
 */
#ifndef SR_CLI_SOURCE_H
#define SR_CLI_SOURCE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "ingest/ingest.h"
#include "session/session.h"

/* Options every trace-reading command accepts (see cli_source_take()). */
struct cli_source_opts {
	const char	*format;	/* --format */
	const char	*topology;	/* --topology */
	const char	*buffer;	/* --buffer */
	const char	*reader;	/* --reader */
	const char	*threads;	/* --threads */
	bool		strict;		/* --strict */
	bool		quiet;		/* --quiet: no warnings, no progress */
};

/**
 * struct cli_source - what the CLI keeps beside an open session: the
 * options, and the state of the warnings and progress it prints
 * @session:  owned once cli_source_open() succeeded
 * @shown:    damage warnings seen (the first 20 are printed)
 * @progress: a progress line is shown on stderr (a terminal, not --quiet)
 */
struct cli_source {
	struct session		*session;
	struct cli_source_opts	opts;
	uint64_t		shown;
	bool			progress;
	bool			progress_on;
	double			progress_last;
};

/**
 * cli_source_take() - take one of the shared options (cli-opt.h)
 * @o:   options to fill
 * @id:  the option (enum cli_opt_id)
 * @arg: its value, or NULL
 * @cmd: the command name, for messages
 *
 * Takes --format, --topology, --buffer, --reader, --threads, --strict and
 * --quiet; --format, --reader and --threads are checked here.
 * Return: 1 when taken, 0 when @id is not one of them, -CLI_EXIT_USAGE
 * after a usage message.
 */
int cli_source_take(struct cli_source_opts *o, int id, const char *arg, const char *cmd);

/**
 * cli_source_open() - open TRACE as a session (src/session/)
 * @src:  zeroed by the caller
 * @o:    the source options
 * @sopt: the session's other options (mode, policies); its ingest options
 *        and callbacks are filled here from @o
 * @cmd:  the command name, for usage messages
 * Return: CLI_EXIT_OK, or the exit code after one error line on stderr.
 */
int cli_source_open(struct cli_source *src, const char *arg, const struct cli_source_opts *o,
		    struct session_opts *sopt, const char *cmd);

/**
 * cli_source_run() - session_run() with the sinks
 * Return: CLI_EXIT_OK, or the exit code after one error line on stderr.
 */
int cli_source_run(struct cli_source *src, const struct session_sink *sinks, int nr_sinks);

/** cli_source_close() - close the session (safe on a zeroed or closed struct). */
void cli_source_close(struct cli_source *src);

#endif
