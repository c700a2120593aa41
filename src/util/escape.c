// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * escape.c - escaping of untrusted strings; see escape.h.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "digits.h"
#include "escape.h"

size_t escape_utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len, i;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and values past U+10FFFF */
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/*
 * Code points shown escaped in text and written as \uXXXX in JSON: C0
 * controls, DEL, C1 controls, and the bidirectional controls that reorder
 * what a terminal shows (ALM, LRM/RLM, LRE..RLO, LRI..PDI).
 */
bool escape_unsafe_cp(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp == 0x061c ||
	       cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

enum esc_mode {
	ESC_TEXT,	/* raw bytes to text */
	ESC_VALUE,	/* raw bytes to the escaped form (a JSON value) */
	ESC_SHOWN,	/* the escaped form to text */
};

static char *escape(char *dst, size_t dstlen, const char *src, size_t srclen, enum esc_mode m)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0, o = 0, n, len, k, tl;
	char tmp[20];
	uint32_t cp;

	if (!dstlen)
		return dst;
	if (!src)
		srclen = 0;
	while (i < srclen && s[i]) {
		for (n = i; n < srclen && s[n]; n++)
			;
		len = escape_utf8_seq(s + i, n - i, &cp);
		if (len == 0) {
			/* each byte that is not well-formed UTF-8 on its own */
			snprintf(tmp, sizeof(tmp), "\\x%02x", s[i]);
			len = 1;
		} else if (m != ESC_VALUE && escape_unsafe_cp(cp)) {
			/* every byte of the character: \xe2\x80\xae for U+202E */
			for (k = 0, tl = 0; k < len; k++)
				tl += snprintf(tmp + tl, sizeof(tmp) - tl, "\\x%02x", s[i + k]);
		} else if (m != ESC_SHOWN && cp == '\\') {
			memcpy(tmp, "\\\\", 3);
		} else {
			memcpy(tmp, s + i, len);
			tmp[len] = '\0';
		}
		if (o + strlen(tmp) >= dstlen)
			break;
		memcpy(dst + o, tmp, strlen(tmp));
		o += strlen(tmp);
		i += len;
	}
	dst[o] = '\0';
	return dst;
}

char *escape_text(char *dst, size_t dstlen, const char *src, size_t srclen)
{
	return escape(dst, dstlen, src, srclen, ESC_TEXT);
}

char *escape_utf8(char *dst, size_t dstlen, const char *src, size_t srclen)
{
	return escape(dst, dstlen, src, srclen, ESC_VALUE);
}

char *escape_text_value(char *dst, size_t dstlen, const char *src, size_t srclen)
{
	return escape(dst, dstlen, src, srclen, ESC_SHOWN);
}

size_t escape_utf8_decode(char *dst, size_t dstlen, const char *src, size_t srclen)
{
	size_t i = 0, o = 0;
	int hi, lo;

	if (!dstlen)
		return 0;
	while (i < srclen && o + 1 < dstlen) {
		if (src[i] == '\\' && i + 1 < srclen && src[i + 1] == '\\') {
			dst[o++] = '\\';
			i += 2;
		} else if (src[i] == '\\' && i + 3 < srclen && src[i + 1] == 'x' &&
			   (hi = util_hex_digit(src[i + 2])) >= 0 && (lo = util_hex_digit(src[i + 3])) >= 0) {
			dst[o++] = (char)(hi << 4 | lo);
			i += 4;
		} else {
			dst[o++] = src[i++];
		}
	}
	dst[o] = '\0';
	return o;
}
