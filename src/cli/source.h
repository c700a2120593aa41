/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * source.h - what every command that reads a trace shares: resolving a
 * TRACE argument (a file or a capture folder), finding the topology and
 * the kernel release, checking events against the topology, and showing
 * progress on a terminal.
 */
#ifndef SR_CLI_SOURCE_H
#define SR_CLI_SOURCE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "ingest/ingest.h"
#include "topo/topo.h"

/* Options every trace-reading command accepts (see cli_source_parse_opt()). */
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
 * struct cli_source - an open trace with everything found around it
 * @path:            the trace file read
 * @capture_dir:     the capture folder, "" when TRACE was a file
 * @kernel_release:  "" when nothing said it
 * @release_origin:  "trace.dat", "schedreplay_meta", "uname.txt" or ""
 * @hostname:        uname's nodename from trace.dat, else uname.txt; "" when
 *                   neither says (or says the kernel's "(none)"); escaped
 * @topo:            owned; never NULL once open
 * @warnings:        damage warnings printed (or suppressed by --quiet)
 */
struct cli_source {
	char			path[PATH_MAX];
	char			capture_dir[PATH_MAX];
	char			kernel_release[128];
	const char		*release_origin;
	char			hostname[128];
	struct topo		*topo;
	struct ingest		*in;
	struct ingest_opts	iopts;
	struct cli_source_opts	opts;
	uint64_t		warnings;
	uint64_t		nr_read;
	bool			progress;
	double			progress_last;
};

/**
 * cli_source_parse_opt() - take one of the shared options from argv
 * @o:    options to fill
 * @argc, @argv, @i: the argument list and the index of the option; *@i is
 *        advanced past a separate value argument
 * @cmd:  the command name, for messages
 *
 * Accepts --format F, --topology PATH, --buffer NAME, --reader R, --threads N, --strict,
 * --quiet (and
 * the --opt=value forms).
 * Return: 1 when taken, 0 when not one of them, CLI_EXIT_USAGE (negated)
 * when a value is missing.
 */
int cli_source_parse_opt(struct cli_source_opts *o, int argc, char **argv, int *i,
			 const char *cmd);

/** cli_source_opts_help() - the help lines for those options. */
const char *cli_source_opts_help(void);

/**
 * cli_source_open() - open TRACE, find its topology and kernel release
 * Return: CLI_EXIT_OK, or the exit code after one error line on stderr.
 */
int cli_source_open(struct cli_source *src, const char *arg, const struct cli_source_opts *o);

/**
 * cli_source_next() - the next event, checked against the topology
 * Return: 1 with *@ev set (borrowed until the next call: ingest_next_borrowed()),
 * 0 at the end, or a negative exit code (-CLI_EXIT_BADINPUT...) after an
 * error line on stderr.
 */
int cli_source_next(struct cli_source *src, const struct sr_event **ev);

/** cli_source_close() - close and free (safe on a zeroed or closed struct). */
void cli_source_close(struct cli_source *src);

#endif
