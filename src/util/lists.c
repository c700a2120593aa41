// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lists.c - CPU lists and number rows, bounded by their length (lists.h).
 */
#include <string.h>

#include "err.h"
#include "lists.h"

bool util_list_sep(char c)
{
	return c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int util_parse_uint(const char **p, const char *end, long max, int *out)
{
	const char *q = *p;
	long v = 0;

	if (q >= end || *q < '0' || *q > '9')
		return -SR_EBADTEXT;
	while (q < end && *q >= '0' && *q <= '9') {
		v = v * 10 + (*q - '0');
		if (v > max)
			return -SR_ERANGE;
		q++;
	}
	*p = q;
	*out = (int)v;
	return 0;
}

int util_parse_cpulist(const char *s, size_t len, uint64_t *cpus, int max)
{
	const char *p = s;
	const char *end = s + len;
	int count = 0;
	int lo;
	int hi;
	int ret;

	if (max < 0)
		return -SR_ERANGE;
	memset(cpus, 0, ((size_t)max + 63) / 64 * sizeof(*cpus));
	while (p < end) {
		if (util_list_sep(*p)) {
			p++;
			continue;
		}
		ret = util_parse_uint(&p, end, (long)max - 1, &lo);
		if (ret)
			return ret;
		hi = lo;
		if (p < end && *p == '-') {
			p++;
			ret = util_parse_uint(&p, end, (long)max - 1, &hi);
			if (ret)
				return ret;
			if (hi < lo)
				return -SR_EBADTEXT;
		}
		if (p < end && !util_list_sep(*p))
			return -SR_EBADTEXT;
		for (; lo <= hi; lo++) {
			if (!(cpus[lo / 64] & (1ull << (lo % 64))))
				count++;
			cpus[lo / 64] |= 1ull << (lo % 64);
		}
	}
	return count;
}

int util_parse_intlist(const char *s, size_t len, int *out, int max_out, long max_val)
{
	const char *p = s;
	const char *end = s + len;
	int n = 0;
	int ret;

	while (p < end) {
		if (util_list_sep(*p)) {
			p++;
			continue;
		}
		if (n >= max_out)
			return -SR_ERANGE;
		ret = util_parse_uint(&p, end, max_val, &out[n]);
		if (ret)
			return ret;
		if (p < end && !util_list_sep(*p))
			return -SR_EBADTEXT;
		n++;
	}
	return n;
}
