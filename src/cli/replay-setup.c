// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay-setup.c - the policy options of `replay` (cmd-replay.c) and `tui`
 * (cmd-tui.c), so both replay a trace the same way: parsed here, turned
 * into session options (src/session/ builds the engine from them).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
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

const char *cli_replay_opts_help(void)
{
	return "  --old P[,P...]      old policies (default lb-v4.1,numa-v4.18,exec-least-loaded)\n"
	       "  --new P[,P...]      new policies (default lb-v4.1-numa-hotness,numa-v4.19,\n"
	       "                      exec-round-robin); the first policy of a side that decides a\n"
	       "                      class decides it ('schedreplay policies' lists them)\n"
	       "  --param [P:]K=V     set parameter K (of policy P, or of every chosen policy\n"
	       "                      that has K); repeatable\n"
	       "  --plugin FILE.so    load a policy plugin (docs/plugin-abi.md); repeatable\n"
	       "  --kernel-policy P[,P...]  model of the recording kernel for fidelity (default:\n"
	       "                      from the kernel release; 'none' for no fidelity)\n"
	       "  --scan-period-ms N  decay period of the NUMA fault model (default: the trace's\n"
	       "                      scan_period_min_ms, else 1000; docs/cost-model.md)\n";
}

int cli_replay_opts_parse_policy(struct cli_replay_opts *o, int argc, char **argv, int *i,
			     const char *cmd)
{
	const char *a = argv[*i];
	const char **slot = NULL;

	if (!strcmp(a, "--old"))
		slot = &o->old_list;
	else if (!strcmp(a, "--new"))
		slot = &o->new_list;
	else if (!strcmp(a, "--kernel-policy"))
		slot = &o->kernel_policy;
	else if (strcmp(a, "--param") && strcmp(a, "--plugin") && strcmp(a, "--scan-period-ms"))
		return 0;
	if (*i + 1 >= argc)
		return -cli_usage_error(cmd, "option '%s' needs a value", a);
	if (!strcmp(a, "--scan-period-ms")) {
		char *end;
		long v = strtol(argv[++*i], &end, 10);

		if (*end || v < 1 || v > 3600 * 1000)
			return -cli_usage_error(cmd, "--scan-period-ms takes milliseconds (1..3600000), not '%s'",
						argv[*i]);
		o->scan_period_ns = (uint64_t)v * 1000 * 1000;
		return 1;
	}
	if (slot) {
		*slot = argv[++*i];
	} else if (!strcmp(a, "--param")) {
		if (o->nr_params == CLI_REPLAY_MAX_PARAMS)
			return -cli_usage_error(cmd, "at most %d --param", CLI_REPLAY_MAX_PARAMS);
		o->params[o->nr_params++] = argv[++*i];
	} else {
		if (o->nr_plugins == CLI_REPLAY_MAX_PLUGINS)
			return -cli_usage_error(cmd, "at most %d --plugin", CLI_REPLAY_MAX_PLUGINS);
		o->plugins[o->nr_plugins++] = argv[++*i];
	}
	return 1;
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
}
