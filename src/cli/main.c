// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - TEMPORARY dispatcher for the h-compare branch, so that
 * `schedreplay compare` can be run and tested; the lead's main.c (issue 2)
 * replaces this file at merge.  It only provides what cmd-compare.c calls.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("schedreplay: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return CLI_EXIT_BADINPUT;
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("schedreplay: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "schedreplay %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\ntry 'schedreplay %s --help'\n", cmd);
	return CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	fputs("usage: schedreplay compare ...\n", stderr);
	return CLI_EXIT_USAGE;
}
