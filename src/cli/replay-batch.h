/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay-batch.h - `replay` of several traces at once: a small pool of
 * worker processes (one per trace, at most @jobs at a time), each replaying
 * its trace alone and streaming its rows through a pipe; the parent merges
 * the rows, whole lines only, into one NDJSON stream and prints the text
 * summaries in argument order.
 *
 * Processes rather than threads: each trace is independent, and
 * libtracecmd is not known to be safe with several handles in threads.
 */
#ifndef SR_CLI_REPLAY_BATCH_H
#define SR_CLI_REPLAY_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/**
 * typedef cli_replay_batch_fn - replay one trace, in a worker process
 * @trace:   the TRACE argument
 * @arg:     cli_replay_batch_run()'s @arg
 * @rows:    where the NDJSON rows go (a pipe to the parent)
 * @summary: where the text summary goes (another pipe)
 * Return: an exit code (enum cli_exit); CLI_EXIT_DISAGREE when the
 * policies disagreed on any decision.
 */
typedef int (*cli_replay_batch_fn)(const char *trace, void *arg, FILE *rows, FILE *summary);

/**
 * struct cli_replay_batch - what to run and where its output goes
 * @traces:      the TRACE arguments, in order
 * @nr_traces:   how many
 * @jobs:        worker processes at a time (>= 1)
 * @rows:        the merged NDJSON stream, or NULL for none
 * @summary:     where the summaries go, in argument order, or NULL
 * @fn, @arg:    the per-trace replay
 * @nr_rows:     out: rows written
 * @nr_failed:   out: traces whose replay failed
 * @disagreed:   out: some trace had disagreements
 */
struct cli_replay_batch {
	const char *const	*traces;
	size_t			nr_traces;
	int			jobs;
	FILE			*rows;
	FILE			*summary;
	cli_replay_batch_fn	fn;
	void			*arg;
	size_t			nr_rows;
	size_t			nr_failed;
	bool			disagreed;
};

/**
 * cli_replay_batch_jobs() - the default number of workers: the CPUs this
 * process may run on
 */
int cli_replay_batch_jobs(void);

/**
 * cli_replay_batch_run() - replay every trace, @b->jobs at a time
 *
 * A worker that fails prints its own error line; its rows up to the
 * failure are in the stream (whole lines only).  A worker killed by a
 * signal counts as failed with CLI_EXIT_INTERNAL.
 * Return: CLI_EXIT_OK when every trace was replayed, else the exit code of
 * the first failed trace in argument order (CLI_EXIT_INTERNAL when the
 * parent itself failed: fork, pipe, or writing the stream).
 */
int cli_replay_batch_run(struct cli_replay_batch *b);

#endif
