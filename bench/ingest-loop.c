// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ingest-loop.c - schedreplay's trace reader alone, for bench/threads.sh:
 * ingest_next() over every event of a trace with a given number of reader
 * threads, reading two fields of each event as bare-loop.c does, and
 * nothing else (no model, no policies, no report).  How much of a replay
 * is reading, and what reader threads do to it.
 *
 * usage: ingest-loop TRACE.dat THREADS   (prints the number of events)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "ingest/ingest.h"

int main(int argc, char **argv)
{
	struct ingest_opts o = { .format = INGEST_FMT_TRACE_DAT };
	struct err e = { 0 };
	struct sr_event ev;
	struct ingest *in;
	uint64_t n = 0, sum = 0;
	char buf[1400];
	int ret;

	if (argc != 3 || atoi(argv[2]) < 1) {
		fprintf(stderr, "usage: ingest-loop TRACE.dat THREADS\n");
		return 2;
	}
	o.threads = atoi(argv[2]);
	in = ingest_open(argv[1], &o, &e);
	if (!in) {
		fprintf(stderr, "ingest-loop: %s\n", err_format(&e, buf, sizeof(buf)));
		return 3;
	}
	while ((ret = ingest_next(in, &ev)) > 0) {
		n++;
		sum += (uint64_t)ev.pid + (ev.kind == SR_EV_SWITCH ? (uint64_t)ev.u.sw.next_pid : 0);
	}
	if (ret < 0)
		fprintf(stderr, "ingest-loop: %s\n", err_format(ingest_err(in), buf, sizeof(buf)));
	printf("%" PRIu64 " (checksum %" PRIu64 ")\n", n, sum);
	ingest_close(in);
	return ret < 0 ? 3 : 0;
}
