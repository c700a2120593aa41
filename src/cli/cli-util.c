// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli-util.c - how the CLI speaks to the user on stderr.
 *
 * Messages carry untrusted bytes (file names, text and names read from a
 * trace, a plugin's policy name), so each is formatted whole and passed
 * through escape_text() before it reaches the terminal: no escape sequence
 * or control character read from input is ever written raw.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "report/report.h"
#include "util/escape.h"

/* "schedreplay: KIND: " + the escaped message + newline, in one write */
static void say(const char *kind, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

static void say(const char *kind, const char *fmt, va_list ap)
{
	char msg[2048];
	char esc[4 * sizeof(msg)];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "schedreplay: %s: %s\n", kind, escape_text(esc, sizeof(esc), msg, SIZE_MAX));
}

int cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("error", fmt, ap);
	va_end(ap);
	return CLI_EXIT_BADINPUT;
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("warning", fmt, ap);
	va_end(ap);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	char msg[2048];
	char esc[4 * sizeof(msg)];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "schedreplay%s%s: %s\nrun 'schedreplay%s%s --help' for usage\n",
		*cmd ? " " : "", cmd, escape_text(esc, sizeof(esc), msg, SIZE_MAX),
		*cmd ? " " : "", cmd);
	return CLI_EXIT_USAGE;
}

int cli_write_json(const struct json_t *root, const char *path, size_t flags)
{
	int r = report_write_json_flags(root, path, flags);

	if (r < 0) {
		cli_error("cannot write '%s': %s", strcmp(path, "-") ? path : "stdout",
			  strerror(-r));
		return CLI_EXIT_INTERNAL;
	}
	return CLI_EXIT_OK;
}
