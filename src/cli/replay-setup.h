/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay-setup.h - what `replay` and `tui` share: the policy options
 * (--old, --new, --kernel-policy, --param, --plugin, --scan-period-ms),
 * parsed here and handed to the session (src/session/), which builds the
 * engine from them and runs the trace through it.
 *
 * Like the rest of src/cli/ these functions print one error line and
 * return an exit code (enum cli_exit); nothing here exits.
 */
#ifndef SR_CLI_REPLAY_SETUP_H
#define SR_CLI_REPLAY_SETUP_H

#include <stdbool.h>
#include <stddef.h>

#include "source.h"
#include "session/session.h"

#define CLI_REPLAY_MAX_PARAMS SESSION_MAX_PARAMS
#define CLI_REPLAY_MAX_PLUGINS SESSION_MAX_PLUGINS

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
	const char	*latency;	/* --latency FILE, NULL for the trace's own */
	bool		fail_on_disagree;
};

/**
 * cli_replay_opts_init() - the defaults (the seeds' old and new policies)
 * @o: filled
 */
void cli_replay_opts_init(struct cli_replay_opts *o);

/**
 * cli_replay_opts_take() - take one policy option (cli-opt.h)
 * @o:   options to fill
 * @id:  the option (enum cli_opt_id)
 * @arg: its value
 * @cmd: the command name, for messages
 *
 * Takes --old, --new, --kernel-policy, --param, --plugin and
 * --scan-period-ms.
 * Return: 1 when taken, 0 when @id is not one of them, or
 * -CLI_EXIT_USAGE after a usage message.
 */
int cli_replay_opts_take(struct cli_replay_opts *o, int id, const char *arg, const char *cmd);

/**
 * cli_replay_opts_session() - the session options of a replay with these
 * policy options (the strings stay @o's)
 * @so: filled
 */
void cli_replay_opts_session(const struct cli_replay_opts *o, struct session_opts *so);

#endif
