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

/*
 * Append key @k of the line whose fields are at @base (" name=value"): the
 * one loop of record_format_sample() and record_format_task().  @faults
 * gives the f= list.  Return: 0, or -1 when the line does not fit.
 */
static int append_key(char *buf, size_t len, size_t *o, const struct marker_key *k,
		      const void *base, const char *comm, const struct marker_sample *faults)
{
	const char *p = (const char *)base + k->off;
	char list[512];
	int n;

	switch (k->type) {
	case MARKER_T_I64:
		n = snprintf(buf + *o, len - *o, " %s=%" PRId64, k->name, *(const int64_t *)p);
		break;
	case MARKER_T_INT:
		n = snprintf(buf + *o, len - *o, " %s=%d", k->name, *(const int *)p);
		break;
	case MARKER_T_STR:
		n = snprintf(buf + *o, len - *o, " %s=%.*s", k->name,
			     (int)((const struct marker_str *)p)->len, ((const struct marker_str *)p)->s);
		break;
	case MARKER_T_COMM:
		n = snprintf(buf + *o, len - *o, " %s=%s", k->name, comm);
		break;
	case MARKER_T_CPULIST:
		/* a list too long for the line is left out (its status says so) */
		n = record_format_cpulist(list, sizeof(list), (const uint64_t *)p, MARKER_MAX_CPUS);
		if (n <= 0)
			return 0;
		n = snprintf(buf + *o, len - *o, " %s=%s", k->name, list);
		break;
	case MARKER_T_FAULTS:
		n = snprintf(buf + *o, len - *o, " %s=", k->name);
		if (n < 0 || (size_t)n >= len - *o)
			return -1;
		*o = sample_faults(buf, len, *o + (size_t)n, faults);
		return 0;
	default:
		return 0;
	}
	if (n < 0 || (size_t)n >= len - *o)
		return -1;
	*o += (size_t)n;
	return 0;
}

void record_comm_encode(char *name, size_t len, const char *comm)
{
	size_t i;

	for (i = 0; comm[i] && i + 1 < len; i++) {
		unsigned char c = comm[i];

		name[i] = c <= 0x20 || c == 0x7f ? '_' : (char)c;
	}
	name[i] = '\0';
	if (!i)
		snprintf(name, len, "_");
}

size_t record_format_sample(char *buf, size_t len, const char *comm, const struct marker_sample *s)
{
	const struct marker_format *f = marker_format(SR_MARK_NUMA_SAMPLE);
	char name[SR_COMM_LEN];
	size_t o;
	int k;
	int n;

	record_comm_encode(name, sizeof(name), comm);
	n = snprintf(buf, len, "%s", f->word);
	if (n < 0 || (size_t)n >= len)
		goto cut;
	o = (size_t)n;
	for (k = 0; k < f->nr_keys; k++)
		if (append_key(buf, len, &o, &f->keys[k], s, name, s) < 0)
			goto cut;
	return o;
cut:
	if (len)
		buf[0] = '\0';
	return 0;
}

int record_format_cpulist(char *buf, size_t len, const uint64_t *cpus, int max)
{
	size_t o = 0;
	int c = 0;
	int n;

	buf[0] = '\0';
	while (c < max) {
		int lo;

		if (!(cpus[c / 64] & ((uint64_t)1 << (c % 64)))) {
			c++;
			continue;
		}
		lo = c;
		while (c + 1 < max && (cpus[(c + 1) / 64] & ((uint64_t)1 << ((c + 1) % 64))))
			c++;
		n = lo == c ? snprintf(buf + o, len - o, "%s%d", o ? "," : "", lo) :
			      snprintf(buf + o, len - o, "%s%d-%d", o ? "," : "", lo, c);
		if (n < 0 || (size_t)n >= len - o)
			return -1;
		o += (size_t)n;
		c++;
	}
	return (int)o;
}

size_t record_format_task(char *buf, size_t len, const char *comm, const struct marker_task *t)
{
	const struct marker_format *f = marker_format(SR_MARK_TASK);
	char name[SR_COMM_LEN];
	size_t o;
	int k;
	int n;

	if (!len)
		return 0;
	record_comm_encode(name, sizeof(name), comm);
	n = snprintf(buf, len, "%s", f->word);
	if (n < 0 || (size_t)n >= len)
		goto cut;
	o = (size_t)n;
	for (k = 0; k < f->nr_keys; k++) {
		if (t->status[k] != MARKER_OK)
			continue;	/* the recorder did not have it */
		if (append_key(buf, len, &o, &f->keys[k], t, name, &t->s) < 0)
			goto cut;
	}
	return o;
cut:
	buf[0] = '\0';
	return 0;
}
