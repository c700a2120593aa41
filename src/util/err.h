/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * err.h - error codes and the error slot every context carries.
 *
 * Library code never prints and never exits: it records what failed, with
 * the file and the byte offset or line where it failed, in a struct err,
 * and returns a negative code.  src/cli/ turns that into one line on stderr
 * and an exit status.  Codes are negative errno values or one of the
 * -SR_E* codes generated from the X-macro list below.
 */
#ifndef SR_UTIL_ERR_H
#define SR_UTIL_ERR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Project error codes.  They live above the errno range so that one int can
 * carry either a -errno or a -SR_E* value.
 */
#define SR_ERRORS						\
	_E(BADTRACE,	"malformed trace")			\
	_E(TRUNCATED,	"truncated trace")			\
	_E(BADMAGIC,	"not a trace file")			\
	_E(EMPTY,	"empty input")				\
	_E(RANGE,	"value out of range")			\
	_E(BADTEXT,	"unparsable text line")			\
	_E(BADTOPO,	"malformed topology")			\
	_E(UNSUPPORTED,	"unsupported input")			\
	_E(USAGE,	"bad usage")				\
	_E(NOTFOUND,	"not found")

#define SR_ERR_BASE 4096

#define _E(name, str) SR_E##name,
enum sr_err_code {
	SR_E__FIRST = SR_ERR_BASE - 1,
	SR_ERRORS
	SR_E__LAST
};
#undef _E

/**
 * struct err - where a failure happened and what it was
 * @code:	0, a negative errno value or a negative SR_E* code
 * @file:	the input file involved, or "" when none
 * @where:	"byte N", "line N" or "" (filled by err_at_*())
 * @msg:	what failed, lowercase, no trailing full stop
 */
struct err {
	int	code;
	char	file[512];
	char	where[48];
	char	msg[512];
};

/**
 * sr_strerror() - describe an error code
 * @code: a negative errno or SR_E* value (the sign is ignored)
 *
 * Return: a static string, never NULL.
 */
const char *sr_strerror(int code);

/**
 * err_set() - record a failure
 * @e:    the error slot
 * @code: negative code to record and return
 * @fmt:  printf format for the message
 *
 * Keeps the first failure: a later err_set() on a slot already holding an
 * error does nothing but return @code.
 *
 * Return: @code, so callers can write "return err_set(...);".
 */
int err_set(struct err *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * err_set_file() - name the file a later or earlier failure concerns
 * @e:    the error slot
 * @path: the file path
 */
void err_set_file(struct err *e, const char *path);

/** err_at_byte() - set the location of the error to a byte offset. */
void err_at_byte(struct err *e, uint64_t offset);

/** err_at_line() - set the location of the error to a line number. */
void err_at_line(struct err *e, uint64_t line);

/** err_clear() - forget any recorded failure (the file name is kept). */
void err_clear(struct err *e);

/**
 * err_format() - render "'file' at byte N: message" into @buf
 * @e:   the error slot
 * @buf: destination
 * @len: size of @buf
 *
 * Return: @buf.
 */
char *err_format(const struct err *e, char *buf, size_t len);

#endif
