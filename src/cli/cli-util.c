// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli-util.c - how the CLI speaks to the user on stderr.
 */
#include <stdarg.h>
#include <stdio.h>

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
	fprintf(stderr, "\nrun 'schedreplay %s --help' for usage\n", cmd);
	return CLI_EXIT_USAGE;
}
