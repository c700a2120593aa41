// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-text.c - libFuzzer harness of the text trace decoders, built three
 * times (fuzz-tracefs, fuzz-report, fuzz-perf) with FUZZ_FORMAT naming the
 * format that ingest_opts forces, so detection never turns the input away.
 *
 * The input is the whole trace file (an in-memory file).  Every event read
 * goes on, as in `schedreplay replay`, through the decision classifier and
 * the state model on a fixed 4-node, 8-CPU topology, after the range check
 * every session makes (session_check_event()): hostile event sequences
 * (pid reuse, switches from unknown tasks, lost windows) are fuzzed with
 * the text that carries them.  Odd-sized inputs are read with --strict.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "decision/decision.h"
#include "ingest/ingest.h"
#include "model/model.h"
#include "session/session.h"
#include "topo/topo.h"
#include "fuzz-common.h"

#ifndef FUZZ_FORMAT
#error "FUZZ_FORMAT must name an enum ingest_format value"
#endif

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

static int count_decision(const struct decision *d, void *arg)
{
	uint64_t *n = arg;

	(*n)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ingest_opts opts = { .format = FUZZ_FORMAT, .strict = size & 1 };
	const struct ingest_info *info;
	struct decision_ctx *dec = NULL;
	struct model *model = NULL;
	struct topo *topo;
	struct ingest *in;
	struct sr_event ev;
	uint64_t decisions = 0;
	volatile unsigned int sink = 0;
	struct err err = { 0 };
	char path[64];
	int fd, r;

	fd = fuzz_memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	topo = topo_from_numactl(fuzz_numactl, sizeof(fuzz_numactl) - 1, "fuzz", &err);
	if (!topo)
		goto out_close_fd;
	model = model_new(topo);
	dec = decision_new(topo, count_decision, &decisions);
	if (!model || !dec)
		goto out_free;
	in = ingest_open(path, &opts, &err);
	if (!in)
		goto out_free;
	while ((r = ingest_next(in, &ev)) > 0) {
		/* borrowed strings must be readable for their whole length */
		if (ev.str)
			sink += fuzz_touch(ev.str, ev.str_len);
		if (ev.name)
			sink += fuzz_touch(ev.name, strlen(ev.name));
		if (session_check_event(topo, in, path, &ev, &err) < 0) {
			err_clear(&err);
			continue;
		}
		r = decision_feed(dec, model, &ev);
		if (r >= 0)
			r = model_feed(model, &ev);
		if (r < 0)
			break;
		(void)ingest_progress(in);
	}
	if (r == 0)
		(void)decision_finish(dec);
	info = ingest_info(in);
	for (r = 0; r < info->nr_cpus && info->lost_per_cpu; r++)
		(void)info->lost_per_cpu[r];
	(void)ingest_pos_is_line(in);
	ingest_close(in);
out_free:
	decision_free(dec);
	model_free(model);
	topo_free(topo);
out_close_fd:
	close(fd);
	(void)sink;
	return 0;
}
