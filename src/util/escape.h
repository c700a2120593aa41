/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * escape.h - make untrusted strings (task names, marker text, file names
 * read from traces) safe to show.
 *
 * Task names are chosen by whoever runs a program on the traced host; they
 * may hold terminal escape sequences, control characters and invalid
 * UTF-8.  Nothing read from a trace reaches a terminal, a text report or a
 * JSON document without passing through one of these.
 */
#ifndef SR_UTIL_ESCAPE_H
#define SR_UTIL_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Two forms, one rule (docs/robustness.md, "Escaping"):
 *
 * - the escaped form, a JSON string's value (escape_utf8()): valid UTF-8 in
 *   which a backslash stands for itself only when doubled; "\\" is one
 *   backslash of the name and "\xNN" one byte NN that is not part of
 *   well-formed UTF-8.  Controls stay as they are; the JSON writer writes
 *   them as \uXXXX (report_json_dumpf()).
 * - text (escape_text()): the escaped form with every byte of an unsafe
 *   character (escape_unsafe_cp()) written as "\xNN" too.  escape_text(x) ==
 *   escape_text_value(escape_utf8(x)), so text rendered from a JSON tree
 *   says what the trace said: "\xff" is the byte 0xff, "\\xff" the four
 *   characters.
 */

/**
 * escape_utf8_seq() - length of the well-formed UTF-8 sequence at @s
 * (1..4, at most @n bytes read; @n >= 1), 0 when it is ill-formed (overlong,
 * a surrogate, past U+10FFFF, or cut by @n)
 * @cp: out: its code point
 */
size_t escape_utf8_seq(const unsigned char *s, size_t n, uint32_t *cp);

/**
 * escape_unsafe_cp() - a code point that text shows escaped and JSON writes
 * as \uXXXX: C0 controls, DEL, C1 controls, and the bidirectional controls
 * U+061C, U+200E, U+200F, U+202A..U+202E and U+2066..U+2069.
 */
bool escape_unsafe_cp(uint32_t cp);

/**
 * escape_text() - escape for a terminal or a text report
 * @dst:    destination, always NUL-terminated when @dstlen > 0
 * @dstlen: its size; output is cut at a character boundary when short
 * @src:    the untrusted bytes (stops at NUL or @srclen)
 * @srclen: at most this many bytes are read
 *
 * Printable ASCII and well-formed UTF-8 pass; a backslash becomes "\\";
 * each byte of an unsafe character (escape_unsafe_cp()) and each byte that
 * is not well-formed UTF-8 becomes "\xNN".  Worst case the output is 4x the
 * input.
 *
 * Return: @dst.
 */
char *escape_text(char *dst, size_t dstlen, const char *src, size_t srclen);

/**
 * escape_utf8() - the escaped form of untrusted bytes, for a JSON value
 *
 * Well-formed UTF-8 passes unchanged (controls included: the JSON writer
 * writes them as \uXXXX); a backslash becomes "\\"; each byte that is not
 * part of well-formed UTF-8 becomes the four characters "\xNN", as
 * escape_text() writes it.
 *
 * Return: @dst.
 */
char *escape_utf8(char *dst, size_t dstlen, const char *src, size_t srclen);

/**
 * escape_utf8_decode() - the bytes an escaped form stands for
 *
 * The inverse of escape_utf8(): "\\" becomes one backslash, "\xNN" the
 * byte 0xNN; anything else is copied.  @dst is NUL-terminated (at most
 * @dstlen - 1 bytes); the result may hold NUL or invalid bytes, so it is
 * for escape_text() and other byte-safe consumers only.
 *
 * Return: the number of bytes written, without the NUL.
 */
size_t escape_utf8_decode(char *dst, size_t dstlen, const char *src, size_t srclen);

/**
 * escape_text_value() - text of a string in the escaped form
 *
 * For a value escape_utf8() made (a JSON report's task name, path, ...):
 * unsafe characters become "\xNN" per byte; backslashes, already doubled,
 * pass.
 *
 * Return: @dst.
 */
char *escape_text_value(char *dst, size_t dstlen, const char *src, size_t srclen);

#endif
