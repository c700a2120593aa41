// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-dat.c - libFuzzer harness of the trace.dat reader through the
 * public ingest API: the input is the whole file (an in-memory file),
 * opened with the format forced to trace.dat so the header walk of
 * src/ingest/dat-check.c and then a reader see every input.  The size
 * picks the options, so the corpus reaches all of them: odd sizes are read
 * with --strict; bit 1 picks one thread or two (the fast reader's worker
 * thread), bit 4 batches of 3 events for the threads (batch ends
 * everywhere), bit 6 every CPU's data cut into pieces of a page or a chunk
 * for the threads (piece ends everywhere), bit 5 reading through
 * ingest_next_borrowed() (as a replay does)
 * rather than ingest_next(), bit 7 a rewind (ingest_rewind(), as the
 * session's pre-scan) after a few hundred events, onto the other thread
 * count and without --strict; sizes whose bits 2-3 are zero (a quarter) are read by
 * libtracecmd (--reader=libtracecmd, the slow path: a probe child per
 * input), the rest by the fast reader (src/ingest/dat-fast.c, or
 * libtracecmd where it declines the file).
 *
 * Note: libtracecmd and libtraceevent are not instrumented; a fault inside
 * them is still caught (ASan's SEGV handler) but not a silent overread.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "ingest/ingest.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ingest_opts opts = {
		.format = INGEST_FMT_TRACE_DAT,
		.strict = size & 1,
		.threads = size & 2 ? 2 : 1,
		.batch = size & 16 ? 3 : 0,
		.piece = size & 64 ? 1 : 0,
		.reader = (size >> 2) & 3 ? INGEST_READER_AUTO : INGEST_READER_LIBTRACECMD,
	};
	volatile unsigned int sink = 0;
	struct err err = { 0 };
	struct ingest *in;
	const struct sr_event *ev;
	struct sr_event copy;
	uint64_t n = 0;
	char path[64];
	int fd;

	fd = fuzz_memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	in = ingest_open(path, &opts, &err);
	if (in && (size & 128)) {
		for (n = 0; n < 300 && ingest_next(in, &copy) > 0; n++)
			;
		opts.threads = 3 - opts.threads;
		opts.strict = false;
		if (ingest_rewind(in, &opts, &err) < 0) {
			ingest_close(in);
			in = NULL;
		}
		n = 0;
	}
	if (in) {
		for (;;) {
			if (size & 32) {
				if (ingest_next_borrowed(in, &ev) <= 0)
					break;
			} else {
				if (ingest_next(in, &copy) <= 0)
					break;
				ev = &copy;
			}
			if (n++ >= 100000)
				break;
			if (ev->str)
				sink += fuzz_touch(ev->str, ev->str_len);
			if (ev->name)
				sink += fuzz_touch(ev->name, strlen(ev->name));
		}
		(void)ingest_info(in);
		ingest_close(in);
	}
	close(fd);
	(void)sink;
	return 0;
}
