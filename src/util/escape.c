// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * escape.c - escaping of untrusted strings; see escape.h.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"

/* Length of the well-formed UTF-8 sequence at s (1..4), 0 when ill-formed. */
static size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
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

static char *escape(char *dst, size_t dstlen, const char *src, size_t srclen, bool text)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0, o = 0, n, len;
	char tmp[8];
	uint32_t cp;

	if (!dstlen)
		return dst;
	if (!src)
		srclen = 0;
	while (i < srclen && s[i]) {
		for (n = i; n < srclen && s[n]; n++)
			;
		len = utf8_seq(s + i, n - i, &cp);
		if (len == 0 || (text && (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)))) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", s[i]);
			len = 1;
		} else if (text && cp == '\\') {
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
	return escape(dst, dstlen, src, srclen, true);
}

char *escape_utf8(char *dst, size_t dstlen, const char *src, size_t srclen)
{
	return escape(dst, dstlen, src, srclen, false);
}
