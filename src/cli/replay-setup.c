// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay-setup.c - the policy options of `replay` (cmd-replay.c) and `tui`
 * (cmd-tui.c), so both replay a trace the same way: parsed here, turned
 * into session options (src/session/ builds the engine from them).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli-opt.h"
#include "replay-setup.h"

void cli_replay_opts_init(struct cli_replay_opts *o)
{
	struct session_opts so;

	session_opts_init(&so);	/* the default policies are the session's */
	memset(o, 0, sizeof(*o));
	o->old_list = so.old_list;
	o->new_list = so.new_list;
	o->top = 10;
}

int cli_replay_opts_take(struct cli_replay_opts *o, int id, const char *arg, const char *cmd)
{
	char *end;
	long v;

	switch (id) {
	case CLI_OPT_OLD:
		o->old_list = arg;
		return 1;
	case CLI_OPT_NEW:
		o->new_list = arg;
		return 1;
	case CLI_OPT_KERNEL_POLICY:
		o->kernel_policy = arg;
		return 1;
	case CLI_OPT_SCAN_PERIOD:
		v = strtol(arg, &end, 10);
		if (end == arg || *end || v < 1 || v > 3600 * 1000)
			return -cli_usage_error(cmd, "--scan-period-ms takes milliseconds (1..3600000), not '%s'",
						arg);
		o->scan_period_ns = (uint64_t)v * 1000 * 1000;
		return 1;
	case CLI_OPT_LATENCY:
		o->latency = arg;
		return 1;
	case CLI_OPT_PARAM:
		if (o->nr_params == CLI_REPLAY_MAX_PARAMS)
			return -cli_usage_error(cmd, "at most %d --param", CLI_REPLAY_MAX_PARAMS);
		o->params[o->nr_params++] = arg;
		return 1;
	case CLI_OPT_PLUGIN:
		if (o->nr_plugins == CLI_REPLAY_MAX_PLUGINS)
			return -cli_usage_error(cmd, "at most %d --plugin", CLI_REPLAY_MAX_PLUGINS);
		o->plugins[o->nr_plugins++] = arg;
		return 1;
	default:
		return 0;
	}
}

void cli_replay_opts_session(const struct cli_replay_opts *o, struct session_opts *so)
{
	int i;

	session_opts_init(so);
	so->mode = SESSION_REPLAY;
	so->old_list = o->old_list;
	so->new_list = o->new_list;
	so->kernel_policy = o->kernel_policy;
	for (i = 0; i < o->nr_params; i++)
		so->params[i] = o->params[i];
	so->nr_params = o->nr_params;
	for (i = 0; i < o->nr_plugins; i++)
		so->plugins[i] = o->plugins[i];
	so->nr_plugins = o->nr_plugins;
	so->scan_period_ns = o->scan_period_ns;
	so->latency = o->latency;
}
