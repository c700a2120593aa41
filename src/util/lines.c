// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lines.c - zeroed allocations in whole, aligned cache lines (lines.h says
 * why).  By hand: aligned_alloc() has the alignment but neither the
 * zeroing, the rounding up to whole lines, nor the overflow check.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"

void *util_calloc_lines(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	bytes = n * size;
	if (bytes > SIZE_MAX - UTIL_LINE)
		return NULL;
	bytes = (bytes + UTIL_LINE - 1) / UTIL_LINE * UTIL_LINE;
	if (!bytes)
		bytes = UTIL_LINE;
	p = aligned_alloc(UTIL_LINE, bytes);
	if (p)
		memset(p, 0, bytes);
	return p;
}
