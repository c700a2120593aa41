// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - schedreplay's entry point: the subcommand table and dispatch.
 *
 * Subcommands are matched by exact name or exact alias, never by prefix.
 * Each returns its exit code (enum cli_exit); nothing else here exits.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct cli_cmd commands[] = {
	{ "info",	NULL,	"describe a trace: format, CPUs, nodes, events, lost events, tasks",
	  cmd_info },
	{ "replay",	NULL,	"replay every migration and placement through old and new policies",
	  cmd_replay },
	{ "policies",	NULL,	"list the policies, their parameters and provenance", cmd_policies },
	{ "compare",	NULL,	"compare repeated runs: real change or noise", cmd_compare },
	{ "record",	NULL,	"record a trace.dat on this host (root; private tracefs instance)",
	  cmd_record },
	{ "tui",	NULL,	"browse the decisions of a replay in the terminal", cmd_tui },
	{ "latency",	NULL,	"measure this host's memory latency from every node to every node",
	  cmd_latency },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: schedreplay [--version] [--help] COMMAND [ARGS]\n"
		"\n"
		"Replay the task-migration decisions in a scheduler trace through two\n"
		"policy implementations and report where they disagree.\n"
		"\n"
		"commands:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out,
		"\n"
		"'schedreplay COMMAND --help' describes a command; 'man schedreplay' has it all.\n"
		"exit codes: 0 ok, 1 policies disagree (when asked), 2 usage, 3 bad input,\n"
		"4 internal error, 5 cannot trace here (record)\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("schedreplay %s\n", SR_VERSION);
		return CLI_EXIT_OK;
	}
	for (i = 0; i < NR_COMMANDS; i++) {
		if (!strcmp(argv[1], commands[i].name) ||
		    (commands[i].alias && !strcmp(argv[1], commands[i].alias)))
			return commands[i].run(argc - 1, argv + 1);
	}
	cli_error("unknown command '%s'", argv[1]);
	fprintf(stderr, "run 'schedreplay --help' for the list of commands\n");
	return CLI_EXIT_USAGE;
}
