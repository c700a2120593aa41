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
 * the length it was given trips ASan.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/marker.h"
#include "topo/topo.h"
#include "fuzz-topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const fuzz_keys[] = {
	"t", "seq", "pid", "tid", "comm", "cpu", "pref", "node", "grp", "nodes", "cpus",
	"dist", "release", "nr_cpus", "mig", "f",
};

/* a string value must lie inside the line it was decoded from */
static void inside(const struct marker_str *v, const char *s, size_t len)
{
	if (v->len && (v->s < s || v->s + v->len > s + len))
		abort();
}

static void one_line(struct topo_builder *b, struct marker_sample *sample, const char *s,
		     size_t len)
{
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
		if (marker_decode_node(&ev, &node) == 0 &&
		    (node.nr_distance < 1 || node.nr_distance > MARKER_MAX_NODES))
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
	(void)marker_parse_cpulist(s, len, cpus, TOPO_MAX_CPUS);
	(void)topo_builder_feed(b, &ev, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct marker_sample sample;	/* ~32 KiB: not on the stack */
	const uint8_t *p = data, *end = data + size, *nl;
	struct topo_builder *b;
	struct err err = { 0 };
	struct topo *t;
	size_t len;
	char *line;

	b = topo_builder_new();
	if (!b)
		return 0;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		len = (size_t)((nl ? nl : end) - p);
		line = malloc(len ? len : 1);
		if (!line)
			break;
		memcpy(line, p, len);
		one_line(b, &sample, line, len);
		free(line);
		p = nl ? nl + 1 : end;
	}
	(void)topo_builder_complete(b);
	t = topo_builder_build(b, &err);
	fuzz_topo_walk(t);
	topo_free(t);
	topo_builder_free(b);
	return 0;
}
