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

#include <stddef.h>

/**
 * escape_text() - escape for a terminal or a text report
 * @dst:    destination, always NUL-terminated when @dstlen > 0
 * @dstlen: its size; output is cut at a character boundary when short
 * @src:    the untrusted bytes (stops at NUL or @srclen)
 * @srclen: at most this many bytes are read
 *
 * Printable ASCII and well-formed printable UTF-8 pass; a backslash becomes
 * "\\"; C0/C1 controls, DEL and bytes that are not well-formed UTF-8
 * become "\xNN".  Worst case the output is 4x the input.
 *
 * Return: @dst.
 */
char *escape_text(char *dst, size_t dstlen, const char *src, size_t srclen);

/**
 * escape_utf8() - make bytes valid UTF-8 for JSON (Jansson escapes the rest)
 *
 * Well-formed UTF-8 passes unchanged (controls included: the JSON encoder
 * writes them as \u00XX); each byte that is not part of well-formed UTF-8
 * becomes the four characters "\xNN", as escape_text() writes it.
 *
 * Return: @dst.
 */
char *escape_utf8(char *dst, size_t dstlen, const char *src, size_t srclen);

#endif
