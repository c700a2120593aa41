// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * marker.c - decode the key=value lines schedreplay writes into a trace
 * through trace_marker (format in docs/formats.md): which kind a print
 * event is (marker_classify()), and its typed fields, key by key as the
 * table of marker-format.c says (marker_decode_*()).
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
#include "../util/lists.h"

enum sr_marker_kind marker_classify(const char *s, size_t len)
{
	const struct marker_format *f;
	int k;
	size_t w;

	if (!s)
		return SR_MARK_NONE;
	for (k = SR_MARK_NONE + 1; k < SR_MARK__COUNT; k++) {
		f = marker_format((enum sr_marker_kind)k);
		w = strlen(f->word);
		if (len < w || memcmp(s, f->word, w))
			continue;
		if (len == w || s[w] == ' ')
			return f->kind;
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

/*
 * Parse exactly @len bytes as a non-negative decimal with at most three
 * fraction digits ("95", "95.3", "95.312") into thousandths.
 */
static bool parse_milli(const char *s, size_t len, int64_t *out)
{
	size_t dot = 0;
	int64_t whole, frac = 0;
	size_t i;
	int digits;

	while (dot < len && s[dot] != '.')
		dot++;
	if (!dot || (len && s[0] == '-') || !parse_i64(s, dot, &whole))
		return false;
	if (dot < len) {
		digits = (int)(len - dot - 1);
		if (digits < 1 || digits > 3)
			return false;
		for (i = dot + 1; i < len; i++) {
			if (s[i] < '0' || s[i] > '9')
				return false;
			frac = frac * 10 + (s[i] - '0');
		}
		for (; digits < 3; digits++)
			frac *= 10;
	}
	if (whole > (INT64_MAX - frac) / 1000)
		return false;
	*out = whole * 1000 + frac;
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

int marker_parse_cpulist(const char *s, size_t len, uint64_t *cpus, int max)
{
	return util_parse_cpulist(s, len, cpus, max);
}

/* ---- the typed decoder ------------------------------------------------- */

static enum marker_status status_of(int ret)
{
	return ret == -SR_ERANGE ? MARKER_RANGE : ret < 0 ? MARKER_BAD : MARKER_OK;
}

static void set_default(const struct marker_key *k, void *out)
{
	char *p = (char *)out + k->off;
	static const char empty[] = "";

	switch (k->type) {
	case MARKER_T_I64:
	case MARKER_T_MILLI:
		*(int64_t *)p = -1;
		break;
	case MARKER_T_INT:
		*(int *)p = -1;
		break;
	case MARKER_T_STR:
		((struct marker_str *)p)->s = empty;
		((struct marker_str *)p)->len = 0;
		break;
	case MARKER_T_COMM:
		p[0] = '\0';
		break;
	case MARKER_T_CPULIST:
		memset(p, 0, ((size_t)k->hi + 64) / 64 * sizeof(uint64_t));
		break;
	case MARKER_T_INTLIST:
		((struct marker_node *)out)->nr_distance = 0;
		break;
	case MARKER_T_FAULTS:
		((struct marker_sample *)out)->nr_nodes = 0;
		break;
	}
}

static enum marker_status decode_value(const struct marker_key *k, const char *v, size_t vlen,
				       void *out)
{
	char *p = (char *)out + k->off;
	int64_t x;
	int ret;

	switch (k->type) {
	case MARKER_T_I64:
	case MARKER_T_INT:
		if (!parse_i64(v, vlen, &x))
			return MARKER_BAD;
		if (x < k->lo || x > k->hi)
			return MARKER_RANGE;
		if (k->type == MARKER_T_I64)
			*(int64_t *)p = x;
		else
			*(int *)p = (int)x;
		return MARKER_OK;
	case MARKER_T_STR:
		((struct marker_str *)p)->s = v;
		((struct marker_str *)p)->len = vlen;
		return MARKER_OK;
	case MARKER_T_COMM:
		if (vlen > (size_t)k->hi)
			vlen = (size_t)k->hi;
		memcpy(p, v, vlen);
		p[vlen] = '\0';
		return MARKER_OK;
	case MARKER_T_CPULIST:
		ret = marker_parse_cpulist(v, vlen, (uint64_t *)p, (int)k->hi + 1);
		return status_of(ret);
	case MARKER_T_INTLIST:
		ret = util_parse_intlist(v, vlen, (int *)p, MARKER_MAX_NODES, (long)k->hi);
		if (ret >= 0)
			((struct marker_node *)out)->nr_distance = ret;
		return status_of(ret);
	case MARKER_T_FAULTS:
		return status_of(parse_faults(v, vlen, out));
	case MARKER_T_MILLI:
		if (!parse_milli(v, vlen, &x))
			return MARKER_BAD;
		if (x < k->lo || x > k->hi)
			return MARKER_RANGE;
		*(int64_t *)p = x;
		return MARKER_OK;
	}
	return MARKER_BAD;
}

/*
 * Every key of @kind's table into @out, with its status; the first
 * problem makes the return value, the other keys are decoded all the same.
 */
static int decode_line(const char *s, size_t len, enum sr_marker_kind kind, void *out,
		       uint8_t *status)
{
	const struct marker_format *f = marker_format(kind);
	const struct marker_key *k;
	const char *v;
	size_t vlen;
	int ret = 0;
	int i;

	for (i = 0; i < f->nr_keys; i++) {
		k = &f->keys[i];
		set_default(k, out);
		status[i] = MARKER_ABSENT;
		if (!s || !marker_get(s, len, k->name, &v, &vlen)) {
			if (k->required)
				ret = -SR_EBADTEXT;
			continue;
		}
		status[i] = decode_value(k, v, vlen, out);
		if (status[i] != MARKER_OK)
			ret = -SR_EBADTEXT;
	}
	if (!s || marker_classify(s, len) != kind)
		return -SR_EBADTEXT;
	return ret;
}

static int decode_event(const struct sr_event *ev, enum sr_marker_kind kind, void *out,
			uint8_t *status)
{
	if (!ev || ev->kind != SR_EV_PRINT)
		return decode_line(NULL, 0, kind, out, status);
	return decode_line(ev->str, ev->str_len, kind, out, status);
}

static enum marker_phase phase_of(const struct marker_str *w);

int marker_decode_meta(const struct sr_event *ev, struct marker_meta *out)
{
	return decode_event(ev, SR_MARK_META, out, out->status);
}

int marker_decode_node(const struct sr_event *ev, struct marker_node *out)
{
	return decode_event(ev, SR_MARK_NODE, out, out->status);
}

int marker_decode_sysctl(const struct sr_event *ev, struct marker_sysctl *out)
{
	int ret = decode_event(ev, SR_MARK_SYSCTL, out, out->status);

	/* an older recorder's line has no phase=: it was written at the start */
	out->phase = out->status[MK_SYSCTL_PHASE] == MARKER_OK ? phase_of(&out->phase_word) :
								  MARKER_PHASE_START;
	return ret;
}

static enum marker_phase phase_of(const struct marker_str *w)
{
	if (w->len == 5 && !memcmp(w->s, "start", 5))
		return MARKER_PHASE_START;
	if (w->len == 3 && !memcmp(w->s, "end", 3))
		return MARKER_PHASE_END;
	return MARKER_PHASE_OTHER;
}

int marker_decode_vmstat(const struct sr_event *ev, struct marker_vmstat *out)
{
	int ret = decode_event(ev, SR_MARK_VMSTAT, out, out->status);

	out->phase = phase_of(&out->phase_word);
	return ret;
}

int marker_decode_task(const struct sr_event *ev, struct marker_task *out)
{
	struct marker_sample *s = &out->s;
	int ret;

	/* the numa_sample fields a task line has no key for */
	s->t = s->seq = s->tf = s->mig = s->scan = -1;
	s->forced = s->fhot = s->frun = s->faff = -1;
	s->node = -1;
	ret = decode_event(ev, SR_MARK_TASK, out, out->status);
	out->phase = phase_of(&out->phase_word);
	return ret;
}

int marker_decode_domain(const struct sr_event *ev, struct marker_domain *out)
{
	int ret = decode_event(ev, SR_MARK_DOMAIN, out, out->status);

	out->phase = phase_of(&out->phase_word);
	return ret;
}

int marker_decode_snapshot(const struct sr_event *ev, struct marker_snapshot *out)
{
	int ret = decode_event(ev, SR_MARK_SNAPSHOT, out, out->status);

	out->phase = phase_of(&out->phase_word);
	return ret;
}

int marker_parse_sample(const char *s, size_t len, struct marker_sample *out)
{
	uint8_t status[MARKER_MAX_KEYS];

	return decode_line(s, len, SR_MARK_NUMA_SAMPLE, out, status);
}

int marker_decode_sample(const struct sr_event *ev, struct marker_sample *out)
{
	uint8_t status[MARKER_MAX_KEYS];

	return decode_event(ev, SR_MARK_NUMA_SAMPLE, out, status);
}

int marker_decode_record(const struct sr_event *ev, struct marker_record *out)
{
	return decode_event(ev, SR_MARK_RECORD, out, out->status);
}

int marker_decode_lost(const struct sr_event *ev, struct marker_lost *out)
{
	return decode_event(ev, SR_MARK_LOST, out, out->status);
}

int marker_decode_latency(const struct sr_event *ev, struct marker_latency *out)
{
	return decode_event(ev, SR_MARK_LATENCY, out, out->status);
}

int marker_decode_probe(const struct sr_event *ev, struct marker_probe *out)
{
	return decode_event(ev, SR_MARK_PROBE, out, out->key_status);
}
