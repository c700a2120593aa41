/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay-setup.h - what `replay` and `tui` share: the policy options
 * (--old, --new, --kernel-policy, --param, --plugin), building the engine
 * from them, and the event loop that feeds every decision of a trace
 * through it.
 *
 * Like the rest of src/cli/ these functions print one error line and
 * return an exit code (enum cli_exit); nothing here exits.
 */
#ifndef SR_CLI_REPLAY_SETUP_H
#define SR_CLI_REPLAY_SETUP_H

#include <stdbool.h>
#include <stddef.h>

#include "source.h"
#include "decision/decision.h"
#include "model/model.h"
#include "replay/engine/engine.h"
#include "report/report-replay.h"
#include "report/report-cost.h"
#include "cost/cost-ledger.h"

#define CLI_REPLAY_MAX_PARAMS 64
#define CLI_REPLAY_MAX_PLUGINS 8

/**
 * struct cli_replay_opts - the command line of a replay
 * @old_list, @new_list: comma-separated policy names of each side
 * @kernel_policy:       --kernel-policy, NULL for the release's default
 * @params:              --param values, in order
 * @plugins:             --plugin files, in order
 * @json, @ndjson, @top, @fail_on_disagree: `replay`'s own output options
 */
struct cli_replay_opts {
	const char	*old_list;
	const char	*new_list;
	const char	*kernel_policy;
	const char	*params[CLI_REPLAY_MAX_PARAMS];
	int		nr_params;
	const char	*plugins[CLI_REPLAY_MAX_PLUGINS];
	int		nr_plugins;
	const char	*json;
	const char	*ndjson;
	size_t		top;
	uint64_t	scan_period_ns;	/* --scan-period-ms, 0 for the trace's own */
	bool		fail_on_disagree;
};

/**
 * cli_replay_opts_init() - the defaults (the seeds' old and new policies)
 * @o: filled
 */
void cli_replay_opts_init(struct cli_replay_opts *o);

/**
 * cli_replay_opts_parse_policy() - take one policy option from argv
 * @o:    options to fill
 * @argc, @argv, @i: the argument list and the option's index; *@i moves past
 *        its value
 * @cmd:  the command name, for messages
 *
 * Takes --old, --new, --kernel-policy, --param and --plugin.
 * Return: 1 when taken, 0 when @argv[*@i] is not one of them, or
 * -CLI_EXIT_USAGE after a usage message.
 */
int cli_replay_opts_parse_policy(struct cli_replay_opts *o, int argc, char **argv, int *i,
				 const char *cmd);

/** cli_replay_opts_help() - the help lines of those options */
const char *cli_replay_opts_help(void);

/**
 * typedef cli_replay_setup_fn - receives each replayed decision, in trace order
 * @r:    borrowed for the call
 * @arg:  cli_replay_setup_run()'s @arg
 * @err:  where to record a failure
 * @user: may be set to a pointer that comes back, with the decision's cost,
 *        through cli_replay_setup_run()'s @done once the cost is known
 * Return: 0, or a negative code that stops the replay.
 */
typedef int (*cli_replay_setup_fn)(const struct engine_result *r, void *arg, struct err *err,
				   void **user);

/**
 * struct cli_replay_setup - an open trace with its engine, ready to run
 * @src:    the trace
 * @engine: the policies, owned
 * @dec:    the classifier (after cli_replay_setup_run(), for its counters)
 */
struct cli_replay_setup {
	struct replay_plugin	*plugins[CLI_REPLAY_MAX_PLUGINS];
	int			nr_plugins;
	struct cli_source	src;
	bool			src_open;
	struct engine		*engine;
	struct model		*model;
	struct decision_ctx	*dec;
	struct cost_ledger	*ledger;
	uint64_t		scan_period_ns;
	cli_replay_setup_fn	fn;
	void			*arg;
	struct err		err;
};

/**
 * cli_replay_setup_open() - load the plugins, open the trace, build the engine
 * @s:     zeroed by the caller
 * @o:     the options
 * @trace: the TRACE argument
 * @so:    the source options
 * @cmd:   the command name, for messages
 *
 * Call cli_replay_setup_close() whatever this returns.
 * Return: CLI_EXIT_OK, or an exit code after one error line on stderr.
 */
int cli_replay_setup_open(struct cli_replay_setup *s, const struct cli_replay_opts *o,
			  const char *trace, const struct cli_source_opts *so, const char *cmd);

/**
 * cli_replay_setup_run() - read the whole trace, replaying and pricing each decision
 * @fn:      called once per decision
 * @arg:     passed to @fn and @done
 * @done:    called once per decision when its cost is known (the task's
 *           next decision, exit or the trace end), with @fn's user pointer;
 *           NULL when the caller does not need it
 * @release: frees a user pointer that never reaches @done
 * Return: CLI_EXIT_OK, or an exit code after one error line on stderr.
 */
int cli_replay_setup_run(struct cli_replay_setup *s, cli_replay_setup_fn fn, void *arg,
			 cost_done_fn done, cost_release_fn release);

/**
 * struct cli_replay_setup_report - what a report input borrows besides the
 * setup: filled by cli_replay_setup_report_in(), kept by the caller until the
 * report is built (not copied: the report input points into it)
 * @kstat: the capture's kernel counters (schedstat-delta.txt)
 * @tc:    the kernel's per-task counters (numa_sample lines)
 * @cin:   the cost block
 */
struct cli_replay_setup_report {
	struct report_schedstat		kstat;
	struct report_task_counters	tc;
	struct report_cost_in		cin;
};

/**
 * cli_replay_setup_report_in() - what the report needs after a run
 * @ri:  filled; borrows from @s and @rep
 * @rep: storage for the parts @ri points to
 * @top: tasks to list with most disagreements (and costliest decisions)
 */
void cli_replay_setup_report_in(struct cli_replay_setup *s, struct report_replay_in *ri,
				struct cli_replay_setup_report *rep, size_t top);

/** cli_replay_setup_close() - free everything (safe on a zeroed struct) */
void cli_replay_setup_close(struct cli_replay_setup *s);

#endif
