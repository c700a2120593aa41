// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reader-diff.c - read trace.dat files with both readers (the fast one,
 * src/ingest/dat-fast.c, and libtracecmd's) and compare them event for
 * event: every field of every struct sr_event, then the counters of
 * struct ingest_info.  Used by tests/e2e/test-reader.sh on every shared
 * and fixture trace, and by bench/run.sh on the benchmark traces.
 *
 * usage: reader-diff [--require-fast] FILE...
 * The fast reader runs on one thread, then with 1 and 2 reader threads
 * beside this one (--threads 1, 2, 3), then on 2 threads in batches of 7
 * events (so that batch ends fall everywhere), each run compared with
 * libtracecmd; the fast reader's events are read as a replay reads them
 * (ingest_next_borrowed()), libtracecmd's copied (ingest_next()).
 * Prints one line per file and run.  Exit status: 0 all agree, 1 a difference (the
 * first one is printed), 2 misuse, 3 a file neither reader can read.
 * With --require-fast a file the fast reader declines is a difference.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/dat-local.h"

static int differ(const char *path, uint64_t n, const char *what)
{
	printf("%s: event %" PRIu64 ": %s differs between the readers\n", path, n, what);
	return 1;
}

static int cmp_event(const char *path, uint64_t n, const struct sr_event *a,
		     const struct sr_event *b)
{
	if (a->ts_ns != b->ts_ns)
		return differ(path, n, "timestamp");
	if (a->cpu != b->cpu)
		return differ(path, n, "cpu");
	if (a->pid != b->pid)
		return differ(path, n, "pid");
	if (a->kind != b->kind)
		return differ(path, n, "kind");
	if (strcmp(a->name, b->name) || strcmp(a->system, b->system))
		return differ(path, n, "event name");
	if (a->src_pos != b->src_pos)
		return differ(path, n, "byte offset");
	if (!a->str != !b->str || a->str_len != b->str_len ||
	    (a->str && memcmp(a->str, b->str, a->str_len)))
		return differ(path, n, "string");
	if (a->marker != b->marker)
		return differ(path, n, "marker kind");
	if (memcmp(&a->u, &b->u, sizeof(a->u)))
		return differ(path, n, "payload");
	return 0;
}

static int cmp_info(const char *path, const struct ingest_info *a, const struct ingest_info *b)
{
	int i;

	if (a->nr_events != b->nr_events || a->nr_cpus != b->nr_cpus ||
	    a->first_ts_ns != b->first_ts_ns || a->last_ts_ns != b->last_ts_ns ||
	    a->truncated != b->truncated || a->unordered != b->unordered ||
	    a->bad_markers != b->bad_markers || a->file_version != b->file_version ||
	    strcmp(a->compression, b->compression) || strcmp(a->clock, b->clock) ||
	    strcmp(a->kernel_release, b->kernel_release) || strcmp(a->hostname, b->hostname)) {
		printf("%s: the readers' summaries differ\n", path);
		return 1;
	}
	for (i = 0; i < a->nr_cpus; i++) {
		if (a->lost_per_cpu[i] != b->lost_per_cpu[i] ||
		    a->lost_records_per_cpu[i] != b->lost_records_per_cpu[i]) {
			printf("%s: the readers' lost-event counts of cpu %d differ\n", path, i);
			return 1;
		}
	}
	return 0;
}

static int open_one(const char *path, enum ingest_reader r, int threads, int batch, int piece,
		    struct ingest **in)
{
	struct ingest_opts o = { .format = INGEST_FMT_TRACE_DAT, .reader = r, .threads = threads,
				 .batch = batch, .piece = (uint32_t)piece };
	struct err e = { 0 };
	char buf[1400];

	*in = ingest_open(path, &o, &e);
	if (*in)
		return 0;
	printf("%s: %s reader: %s\n", path, r == INGEST_READER_FAST ? "fast" : "libtracecmd",
	       err_format(&e, buf, sizeof(buf)));
	return -1;
}

static int diff_file(const char *path, bool require_fast, int threads, int batch, int piece)
{
	const struct sr_event *a;
	struct sr_event b;
	struct ingest *fast, *ref;
	const struct err *e;
	char buf[1400];
	uint64_t n = 0, pieces = 0;
	int ra, rb, lanes = 0;
	int ret = 0;

	if (open_one(path, INGEST_READER_LIBTRACECMD, 1, 0, 0, &ref) < 0)
		return 3;
	if (open_one(path, INGEST_READER_FAST, threads, batch, piece, &fast) < 0) {
		ingest_close(ref);
		return require_fast ? 1 : 0;
	}
	if (piece)
		pieces = dat_mt_pieces(fast, &lanes);
	for (;;) {
		memset(&b, 0, sizeof(b));
		ra = ingest_next_borrowed(fast, &a);
		rb = ingest_next(ref, &b);
		if (ra != rb) {
			e = ra < 0 ? ingest_err(fast) : ingest_err(ref);
			printf("%s: after %" PRIu64 " events one reader %s (%s)\n", path, n,
			       ra <= 0 || rb <= 0 ? "stops" : "goes on",
			       ra < 0 || rb < 0 ? err_format(e, buf, sizeof(buf)) : "no error");
			ret = 1;
			break;
		}
		if (ra <= 0)
			break;
		ret = cmp_event(path, n, a, &b);
		if (ret)
			break;
		n++;
	}
	if (!ret)
		ret = cmp_info(path, ingest_info(fast), ingest_info(ref));
	if (!ret)
		printf("%s: %" PRIu64 " events identical (%s%s, %d thread%s", path, n,
		       ra < 0 ? "both stop with the same error; " : "",
		       ingest_info(fast)->compression[0] ? ingest_info(fast)->compression :
							   "uncompressed",
		       threads, threads > 1 ? "s" : "");
	if (!ret && batch)
		printf(", batches of %d events", batch);
	if (!ret && piece)
		printf(", every cpu's data cut in pieces of %d bytes: %" PRIu64 " pieces in %d lanes",
		       piece, pieces, lanes);
	if (!ret)
		printf(")\n");
	ingest_close(fast);
	ingest_close(ref);
	return ret;
}

int main(int argc, char **argv)
{
	bool require_fast = false;
	/*
	 * threads, events a batch, bytes a piece of a CPU's data (0: the
	 * reader's choice): one page or one chunk a piece, so that the small
	 * fixtures are cut in many
	 */
	static const int runs[][3] = {
		{ 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 }, { 2, 7, 0 }, { 2, 0, 1 }, { 3, 5, 8192 },
	};
	int worst = 0;
	size_t r;
	int ret;
	int i = 1;

	if (i < argc && !strcmp(argv[i], "--require-fast")) {
		require_fast = true;
		i++;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: reader-diff [--require-fast] FILE...\n");
		return 2;
	}
	for (; i < argc; i++) {
		for (r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
			ret = diff_file(argv[i], require_fast, runs[r][0], runs[r][1], runs[r][2]);
			if (ret > worst)
				worst = ret;
			if (ret)
				break;
		}
	}
	return worst;
}
