// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record-line.c - marker lines written from the one table of their kinds
 * and keys (ingest/marker.h, marker_format()): the leading word and every
 * key name come from the table, so what the recorder writes is what the
 * decoder reads.  Pure functions, tested without tracefs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "record-local.h"

const char *record_key_name(enum sr_marker_kind kind, int key)
{
	const struct marker_format *f = marker_format(kind);

	if (!f || key < 0 || key >= f->nr_keys)
		return NULL;
	return f->keys[key].name;
}

size_t record_marker_line(char *buf, size_t len, enum sr_marker_kind kind,
			  const char *const vals[])
{
	const struct marker_format *f = marker_format(kind);
	size_t o;
	int i;
	int n;

	if (!f || !len)
		return 0;
	n = snprintf(buf, len, "%s", f->word);
	if (n < 0 || (size_t)n >= len)
		goto cut;
	o = (size_t)n;
	for (i = 0; i < f->nr_keys; i++) {
		if (!vals[i])
			continue;
		n = snprintf(buf + o, len - o, " %s=%s", f->keys[i].name, vals[i]);
		if (n < 0 || (size_t)n >= len - o)
			goto cut;
		o += (size_t)n;
	}
	return o;
cut:
	buf[0] = '\0';
	return 0;
}

/* one integer or string key of numa_sample, from the sample's field */
static int sample_key(char *buf, size_t len, const struct marker_key *k,
		      const struct marker_sample *s, const char *comm)
{
	const char *p = (const char *)s + k->off;

	switch (k->type) {
	case MARKER_T_I64:
		return snprintf(buf, len, " %s=%" PRId64, k->name, *(const int64_t *)p);
	case MARKER_T_INT:
		return snprintf(buf, len, " %s=%d", k->name, *(const int *)p);
	case MARKER_T_COMM:
		return snprintf(buf, len, " %s=%s", k->name, comm);
	case MARKER_T_FAULTS:
		return snprintf(buf, len, " %s=", k->name);
	default:
		return -1;	/* no other type in a numa_sample */
	}
}

/* the f= list, cut at an entry boundary when the buffer is short */
static size_t sample_faults(char *buf, size_t len, size_t o, const struct marker_sample *s)
{
	const struct marker_node_faults *f;
	size_t start = o;
	char entry[128];
	int n;
	int i;

	for (i = 0; i < s->nr_nodes && i < MARKER_MAX_NODES; i++) {
		f = &s->faults[i];
		if (f->task_private == -1 && f->task_shared == -1 && f->group_private == -1 &&
		    f->group_shared == -1)
			continue;	/* a node /proc did not list */
		n = snprintf(entry, sizeof(entry), "%s%d:%" PRId64 "/%" PRId64 "/%" PRId64 "/%" PRId64,
			     o != start ? "," : "", i, f->task_private, f->task_shared,
			     f->group_private, f->group_shared);
		if (n < 0 || o + (size_t)n + 1 > len)
			break;
		memcpy(buf + o, entry, (size_t)n + 1);
		o += (size_t)n;
	}
	buf[o] = '\0';
	return o;
}

size_t record_format_sample(char *buf, size_t len, const char *comm, const struct marker_sample *s)
{
	const struct marker_format *f = marker_format(SR_MARK_NUMA_SAMPLE);
	char name[SR_COMM_LEN];
	size_t o;
	size_t i;
	int k;
	int n;

	for (i = 0; comm[i] && i + 1 < sizeof(name); i++) {
		unsigned char c = comm[i];

		name[i] = c <= 0x20 || c == 0x7f ? '_' : (char)c;
	}
	name[i] = '\0';
	if (!i)
		snprintf(name, sizeof(name), "_");
	n = snprintf(buf, len, "%s", f->word);
	if (n < 0 || (size_t)n >= len)
		goto cut;
	o = (size_t)n;
	for (k = 0; k < f->nr_keys; k++) {
		n = sample_key(buf + o, len - o, &f->keys[k], s, name);
		if (n < 0 || (size_t)n >= len - o)
			goto cut;
		o += (size_t)n;
		if (f->keys[k].type == MARKER_T_FAULTS)
			o = sample_faults(buf, len, o, s);
	}
	return o;
cut:
	if (len)
		buf[0] = '\0';
	return 0;
}
