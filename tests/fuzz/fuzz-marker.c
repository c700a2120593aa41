// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-marker.c - libFuzzer harness of the trace_marker line decoder:
 * marker_classify(), every marker_decode_*() of the marker table,
 * marker_get_i64(), marker_parse_cpulist() and the topology builder fed
 * with the print events of schedreplay_meta / schedreplay_node lines
 * (topo_builder_feed(), then topo_builder_build()).
 *
 * The input is a list of lines; each line is handed over as an exactly
 * sized heap copy without a NUL terminator, so a parser that reads past
 * the length it was given trips ASan.  Every line also goes, as a print
 * event, through the state model on a 4-node topology (which reads
 * numa_sample and schedreplay_sysctl lines as a replay does).
 *
 * The lines are written against the marker table (marker_format()), so a
 * kind added to src/ingest/marker-format.c is fuzzed with its own word and
 * keys without a change here: a line whose first byte is 0xf0..0xff is
 * made a line of kind 1 + (byte - 0xf0) % (SR_MARK__COUNT - 1) — its
 * leading word, then the rest, where a byte 0x80 + i becomes " KEY=" for
 * the kind's key i (wrapping over its keys).  Every key of the line's kind
 * is then looked up with marker_get()/marker_get_i64(), and a kind with
 * no marker_decode_*() case below is still classified, looked up and fed
 * to the model and the topology builder.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/marker.h"
#include "model/model.h"
#include "topo/topo.h"
#include "fuzz-topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fuzz_numactl[] =
	"available: 4 nodes (0-3)\n"
	"node 0 cpus: 0 1\nnode 0 size: 1024 MB\nnode 0 free: 512 MB\n"
	"node 1 cpus: 2 3\nnode 1 size: 1024 MB\nnode 1 free: 512 MB\n"
	"node 2 cpus: 4 5\nnode 2 size: 1024 MB\nnode 2 free: 512 MB\n"
	"node 3 cpus: 6 7\nnode 3 size: 1024 MB\nnode 3 free: 512 MB\n"
	"node distances:\n"
	"node   0   1   2   3\n"
	"  0:  10  20  20  20\n"
	"  1:  20  10  20  20\n"
	"  2:  20  20  10  20\n"
	"  3:  20  20  20  10\n";

/* keys looked up in every line, whatever its kind (older lines, typos) */
static const char *const fuzz_keys[] = {
	"t", "seq", "pid", "tid", "comm", "cpu", "pref", "node", "grp", "nodes", "cpus",
	"dist", "release", "nr_cpus", "mig", "f",
};

/*
 * A line of the table's kind picked by @p[0] (0xf0..0xff), into a fresh
 * heap buffer of exactly *@len bytes.  Return: it, or NULL.
 */
static char *table_line(const uint8_t *p, size_t n, size_t *len)
{
	const struct marker_format *f = marker_format(1 + (p[0] - 0xf0) % (SR_MARK__COUNT - 1));
	size_t i, o = 0, cap = 64 + n * 2;
	char *out, *line;

	if (!f)
		abort();	/* the table has a hole */
	for (i = 1; i < n; i++)	/* the room each key byte takes */
		if (p[i] >= 0x80 && p[i] < 0x80 + MARKER_MAX_KEYS && f->nr_keys)
			cap += strlen(f->keys[(p[i] - 0x80) % f->nr_keys].name) + 2;
	out = malloc(cap);
	if (!out)
		return NULL;
	o = (size_t)snprintf(out, cap, "%s", f->word);
	for (i = 1; i < n; i++) {
		if (p[i] >= 0x80 && p[i] < 0x80 + MARKER_MAX_KEYS && f->nr_keys) {
			const char *k = f->keys[(p[i] - 0x80) % f->nr_keys].name;

			o += (size_t)snprintf(out + o, cap - o, " %s=", k);
		} else {
			out[o++] = (char)p[i];
		}
	}
	*len = o;
	line = malloc(o ? o : 1);	/* exactly sized, as every line here */
	if (line)
		memcpy(line, out, o);
	free(out);
	return line;
}

/* a string value must lie inside the line it was decoded from */
static void inside(const struct marker_str *v, const char *s, size_t len)
{
	if (v->len && (v->s < s || v->s + v->len > s + len))
		abort();
}

static uint64_t fuzz_ts;

static void one_line(struct topo_builder *b, struct model *m, struct marker_sample *sample,
		     const char *s, size_t len)
{
	const struct marker_format *fmt;
	static struct marker_node node;	/* ~8 KiB */
	struct sr_event ev = { .kind = SR_EV_PRINT, .str = s, .str_len = (uint32_t)len };
	uint64_t cpus[TOPO_MAX_CPUS / 64];
	struct err err = { 0 };
	struct marker_meta meta;
	struct marker_sysctl sc;
	struct marker_vmstat vm;
	struct marker_record rec;
	struct marker_lost lost;
	struct marker_latency lat;
	struct marker_probe probe;
	const char *val;
	size_t vlen, i;
	int64_t v;

	ev.marker = marker_classify(s, len);
	switch (ev.marker) {
	case SR_MARK_NUMA_SAMPLE:
		if (marker_decode_sample(&ev, sample) == 0 &&
		    (sample->nr_nodes < 0 || sample->nr_nodes > MARKER_MAX_NODES ||
		     memchr(sample->comm, 0, sizeof(sample->comm)) == NULL))
			abort();	/* decoded, but out of its own bounds */
		break;
	case SR_MARK_META:
		(void)marker_decode_meta(&ev, &meta);
		inside(&meta.release, s, len);
		inside(&meta.kprobe, s, len);
		break;
	case SR_MARK_NODE:
		/* "distance=" decodes, empty (the topology builder refuses it) */
		if (marker_decode_node(&ev, &node) == 0 &&
		    (node.nr_distance < 0 || node.nr_distance > MARKER_MAX_NODES))
			abort();
		break;
	case SR_MARK_SYSCTL:
		(void)marker_decode_sysctl(&ev, &sc);
		inside(&sc.sched_features, s, len);
		break;
	case SR_MARK_VMSTAT:
		(void)marker_decode_vmstat(&ev, &vm);
		inside(&vm.phase_word, s, len);
		break;
	case SR_MARK_RECORD:
		(void)marker_decode_record(&ev, &rec);
		inside(&rec.options, s, len);
		break;
	case SR_MARK_LOST:
		(void)marker_decode_lost(&ev, &lost);
		break;
	case SR_MARK_LATENCY:
		if (marker_decode_latency(&ev, &lat) == 0 &&
		    (lat.ns_milli < 1 || lat.from < 0 || lat.to < 0))
			abort();	/* decoded, but out of the table's range */
	case SR_MARK_PROBE:
		(void)marker_decode_probe(&ev, &probe);
		inside(&probe.reason, s, len);
		break;
	default:
		break;
	}
	for (i = 0; i < sizeof(fuzz_keys) / sizeof(fuzz_keys[0]); i++) {
		(void)marker_get_i64(s, len, fuzz_keys[i], &v);
		if (marker_get(s, len, fuzz_keys[i], &val, &vlen) &&
		    (val < s || val + vlen > s + len))
			abort();	/* a value outside the line */
	}
	fmt = marker_format(ev.marker);
	for (i = 0; fmt && fmt->keys && i < (size_t)fmt->nr_keys; i++) {
		(void)marker_get_i64(s, len, fmt->keys[i].name, &v);
		if (marker_get(s, len, fmt->keys[i].name, &val, &vlen) &&
		    (val < s || val + vlen > s + len))
			abort();
	}
	if (m) {	/* the model reads it as a replay does */
		ev.ts_ns = ++fuzz_ts * 1000;
		ev.cpu = (int)(len % 8);
		ev.pid = (int)(len % 5);
		(void)model_feed(m, &ev);
	}
	(void)marker_parse_cpulist(s, len, cpus, TOPO_MAX_CPUS);
	(void)topo_builder_feed(b, &ev, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct marker_sample sample;	/* ~32 KiB: not on the stack */
	static struct topo *topo;
	const uint8_t *p = data, *end = data + size, *nl;
	struct topo_builder *b;
	struct model *m = NULL;
	struct err err = { 0 };
	struct topo *t;
	size_t len;
	char *line;

	if (!topo)
		topo = topo_from_numactl(fuzz_numactl, sizeof(fuzz_numactl) - 1, "fuzz", &err);
	b = topo_builder_new();
	if (!b)
		return 0;
	if (topo)
		m = model_new(topo);
	fuzz_ts = 0;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		len = (size_t)((nl ? nl : end) - p);
		if (len && p[0] >= 0xf0) {
			line = table_line(p, len, &len);
		} else {
			line = malloc(len ? len : 1);
			if (line)
				memcpy(line, p, len);
		}
		if (!line)
			break;
		one_line(b, m, &sample, line, len);
		free(line);
		p = nl ? nl + 1 : end;
	}
	model_free(m);
	(void)topo_builder_complete(b);
	err_clear(&err);
	t = topo_builder_build(b, &err);
	fuzz_topo_walk(t);
	topo_free(t);
	topo_builder_free(b);
	return 0;
}
