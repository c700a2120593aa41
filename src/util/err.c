// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * err.c - the error slot and sr_strerror(), generated from SR_ERRORS.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

#define _E(name, str) str,
static const char *const sr_err_str[] = { SR_ERRORS };
#undef _E

const char *sr_strerror(int code)
{
	if (code < 0)
		code = -code;
	if (code == 0)
		return "success";
	if (code > SR_E__FIRST && code < SR_E__LAST)
		return sr_err_str[code - SR_E__FIRST - 1];
	return strerror(code);
}

int err_set(struct err *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (!e || e->code)
		return code;
	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return code;
}

void err_set_file(struct err *e, const char *path)
{
	if (e)
		snprintf(e->file, sizeof(e->file), "%s", path ? path : "");
}

void err_at_byte(struct err *e, uint64_t offset)
{
	if (e)
		snprintf(e->where, sizeof(e->where), "byte %" PRIu64, offset);
}

void err_at_line(struct err *e, uint64_t line)
{
	if (e)
		snprintf(e->where, sizeof(e->where), "line %" PRIu64, line);
}

void err_clear(struct err *e)
{
	if (!e)
		return;
	e->code = 0;
	e->where[0] = '\0';
	e->msg[0] = '\0';
}

char *err_format(const struct err *e, char *buf, size_t len)
{
	const char *msg = e->msg[0] ? e->msg : sr_strerror(e->code);

	if (e->file[0] && e->where[0])
		snprintf(buf, len, "'%s' at %s: %s", e->file, e->where, msg);
	else if (e->file[0])
		snprintf(buf, len, "'%s': %s", e->file, msg);
	else
		snprintf(buf, len, "%s", msg);
	return buf;
}
