// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * marker.c - parse the key=value lines schedreplay writes into a trace
 * through trace_marker (schedreplay_meta/_node/_sysctl/_vmstat and
 * numa_sample; format in docs/formats.md).
 *
 * Every function takes (pointer, length), reads nothing past the length and
 * needs no NUL terminator: the text comes straight out of an untrusted trace.
 * Keys are matched only at the start of a space-separated word, so "f=" is
 * never found inside "pref=".
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "marker.h"
#include "../util/err.h"

static const struct {
	const char		*word;
	enum sr_marker_kind	kind;
} marker_words[] = {
	{ "schedreplay_meta",	SR_MARK_META },
	{ "schedreplay_node",	SR_MARK_NODE },
	{ "schedreplay_sysctl",	SR_MARK_SYSCTL },
	{ "schedreplay_vmstat",	SR_MARK_VMSTAT },
	{ "numa_sample",	SR_MARK_NUMA_SAMPLE },
};

enum sr_marker_kind marker_classify(const char *s, size_t len)
{
	size_t i;
	size_t w;

	if (!s)
		return SR_MARK_NONE;
	for (i = 0; i < sizeof(marker_words) / sizeof(marker_words[0]); i++) {
		w = strlen(marker_words[i].word);
		if (len < w || memcmp(s, marker_words[i].word, w))
			continue;
		if (len == w || s[w] == ' ')
			return marker_words[i].kind;
	}
	return SR_MARK_NONE;
}

bool marker_get(const char *s, size_t len, const char *key, const char **val, size_t *val_len)
{
	size_t klen = strlen(key);
	size_t i = 0;
	size_t end;

	if (!s || !klen)
		return false;
	while (i < len) {
		/* i is at the start of a word */
		if (len - i > klen && !memcmp(s + i, key, klen) && s[i + klen] == '=') {
			i += klen + 1;
			end = i;
			while (end < len && s[end] != ' ')
				end++;
			*val = s + i;
			*val_len = end - i;
			return true;
		}
		while (i < len && s[i] != ' ')
			i++;
		while (i < len && s[i] == ' ')
			i++;
	}
	return false;
}

/* Parse exactly @len bytes as a decimal integer, optional leading '-'. */
static bool parse_i64(const char *s, size_t len, int64_t *out)
{
	uint64_t v = 0;
	uint64_t lim = INT64_MAX;
	bool neg = false;
	size_t i = 0;

	if (len && s[0] == '-') {
		neg = true;
		lim = (uint64_t)INT64_MAX + 1;
		i = 1;
	}
	if (i == len)
		return false;
	for (; i < len; i++) {
		unsigned int d;

		if (s[i] < '0' || s[i] > '9')
			return false;
		d = s[i] - '0';
		if (v > (lim - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (neg)
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	else
		*out = (int64_t)v;
	return true;
}

bool marker_get_i64(const char *s, size_t len, const char *key, int64_t *out)
{
	const char *v;
	size_t vlen;

	if (!marker_get(s, len, key, &v, &vlen))
		return false;
	return parse_i64(v, vlen, out);
}

/*
 * Fetch an optional integer field: absent leaves -1, present but malformed
 * (or out of range for @lo..@hi) is an error.
 */
static int get_field(const char *s, size_t len, const char *key, int64_t lo, int64_t hi,
		     int64_t *out)
{
	const char *v;
	size_t vlen;
	int64_t x;

	*out = -1;
	if (!marker_get(s, len, key, &v, &vlen))
		return 0;
	if (!parse_i64(v, vlen, &x) || x < lo || x > hi)
		return -SR_EBADTEXT;
	*out = x;
	return 0;
}

static int get_int(const char *s, size_t len, const char *key, int *out)
{
	int64_t x;
	int ret;

	ret = get_field(s, len, key, INT_MIN, INT_MAX, &x);
	*out = (int)x;
	return ret;
}

/* One "node:tp/ts/gp/gs" entry of an f= list; @p..@end bounds it. */
static int parse_fault_entry(const char *p, const char *end, struct marker_sample *out,
			     uint64_t *seen)
{
	struct marker_node_faults *f;
	int64_t vals[5];
	const char *q;
	int n;

	for (n = 0; n < 5; n++) {
		char sep = n == 0 ? ':' : '/';

		q = n == 4 ? end : memchr(p, sep, end - p);
		if (!q || !parse_i64(p, q - p, &vals[n]))
			return -SR_EBADTEXT;
		p = q + 1;
	}
	if (vals[0] < 0 || vals[0] >= MARKER_MAX_NODES)
		return -SR_EBADTEXT;
	f = &out->faults[vals[0]];
	if (seen[vals[0] / 64] & ((uint64_t)1 << (vals[0] % 64)))
		return -SR_EBADTEXT;	/* the same node twice */
	seen[vals[0] / 64] |= (uint64_t)1 << (vals[0] % 64);
	f->task_private = vals[1];
	f->task_shared = vals[2];
	f->group_private = vals[3];
	f->group_shared = vals[4];
	if (vals[0] + 1 > out->nr_nodes)
		out->nr_nodes = (int)vals[0] + 1;
	return 0;
}

/*
 * f=<node>:<tp>/<ts>/<gp>/<gs>,... into out->faults indexed by node;
 * nodes the list skips are -1 throughout.
 */
static int parse_faults(const char *v, size_t vlen, struct marker_sample *out)
{
	uint64_t seen[MARKER_MAX_NODES / 64] = { 0 };
	const char *end = v + vlen;
	const char *p = v;
	int i;
	int ret;

	out->nr_nodes = 0;
	if (!vlen)
		return 0;
	while (p < end) {
		const char *q = memchr(p, ',', end - p);

		if (!q)
			q = end;
		ret = parse_fault_entry(p, q, out, seen);
		if (ret < 0)
			return ret;
		p = q + 1;
		if (q + 1 == end)
			return -SR_EBADTEXT;	/* trailing comma */
	}
	for (i = 0; i < out->nr_nodes; i++) {
		if (seen[i / 64] & ((uint64_t)1 << (i % 64)))
			continue;
		out->faults[i].task_private = -1;
		out->faults[i].task_shared = -1;
		out->faults[i].group_private = -1;
		out->faults[i].group_shared = -1;
	}
	return 0;
}

int marker_parse_sample(const char *s, size_t len, struct marker_sample *out)
{
	static const struct {
		const char	*key;
		size_t		off;
	} wide[] = {
		{ "t",		offsetof(struct marker_sample, t) },
		{ "seq",	offsetof(struct marker_sample, seq) },
		{ "tf",		offsetof(struct marker_sample, tf) },
		{ "mig",	offsetof(struct marker_sample, mig) },
		{ "scan",	offsetof(struct marker_sample, scan) },
		{ "nmig",	offsetof(struct marker_sample, nmig) },
		{ "forced",	offsetof(struct marker_sample, forced) },
		{ "fhot",	offsetof(struct marker_sample, fhot) },
		{ "frun",	offsetof(struct marker_sample, frun) },
		{ "faff",	offsetof(struct marker_sample, faff) },
	};
	static const struct {
		const char	*key;
		size_t		off;
	} narrow[] = {
		{ "pid",	offsetof(struct marker_sample, pid) },
		{ "tid",	offsetof(struct marker_sample, tid) },
		{ "cpu",	offsetof(struct marker_sample, cpu) },
		{ "pref",	offsetof(struct marker_sample, pref) },
		{ "node",	offsetof(struct marker_sample, node) },
		{ "grp",	offsetof(struct marker_sample, grp) },
	};
	const char *v;
	size_t vlen;
	size_t i;
	int ret;

	out->comm[0] = '\0';
	out->nr_nodes = 0;
	if (!s || marker_classify(s, len) != SR_MARK_NUMA_SAMPLE)
		return -SR_EBADTEXT;
	for (i = 0; i < sizeof(wide) / sizeof(wide[0]); i++) {
		ret = get_field(s, len, wide[i].key, INT64_MIN, INT64_MAX,
				(int64_t *)((char *)out + wide[i].off));
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < sizeof(narrow) / sizeof(narrow[0]); i++) {
		ret = get_int(s, len, narrow[i].key, (int *)((char *)out + narrow[i].off));
		if (ret < 0)
			return ret;
	}
	if (out->tid < 0)
		return -SR_EBADTEXT;
	if (marker_get(s, len, "comm", &v, &vlen)) {
		if (vlen >= SR_COMM_LEN)
			vlen = SR_COMM_LEN - 1;
		memcpy(out->comm, v, vlen);
		out->comm[vlen] = '\0';
	}
	if (marker_get(s, len, "f", &v, &vlen))
		return parse_faults(v, vlen, out);
	return 0;
}

static void bit_set(uint64_t *cpus, int cpu)
{
	cpus[cpu / 64] |= (uint64_t)1 << (cpu % 64);
}

static bool bit_test(const uint64_t *cpus, int cpu)
{
	return cpus[cpu / 64] & ((uint64_t)1 << (cpu % 64));
}

/* A CPU number: digits only, at most 9 of them. */
static int parse_cpu(const char **p, const char *end, int *cpu)
{
	int64_t v = 0;
	int n = 0;

	while (*p < end && **p >= '0' && **p <= '9') {
		if (++n > 9)
			return -SR_ERANGE;
		v = v * 10 + (**p - '0');
		(*p)++;
	}
	if (!n)
		return -SR_EBADTEXT;
	*cpu = (int)v;
	return 0;
}

int marker_parse_cpulist(const char *s, size_t len, uint64_t *cpus, int max)
{
	const char *end = s + len;
	const char *p = s;
	int count = 0;
	int lo;
	int hi;
	int c;
	int ret;

	if (max < 0)
		return -SR_ERANGE;
	memset(cpus, 0, ((size_t)max + 63) / 64 * sizeof(*cpus));
	if (!len)
		return 0;
	for (;;) {
		ret = parse_cpu(&p, end, &lo);
		if (ret < 0)
			return ret;
		hi = lo;
		if (p < end && *p == '-') {
			p++;
			ret = parse_cpu(&p, end, &hi);
			if (ret < 0)
				return ret;
			if (hi < lo)
				return -SR_EBADTEXT;
		}
		if (hi >= max)
			return -SR_ERANGE;
		for (c = lo; c <= hi; c++) {
			if (!bit_test(cpus, c)) {
				bit_set(cpus, c);
				count++;
			}
		}
		if (p == end)
			return count;
		if (*p != ',' || p + 1 == end)
			return -SR_EBADTEXT;
		p++;
	}
}
