// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-ingest-dat.c - the trace.dat decoder against the real traces in
 * fixtures/ (the capture folders and host-2cpu-mixed.dat) and the copies
 * in fixtures/dat (see their README.md):
 * per-event counts equal `trace-cmd report`'s, v6/v7/compressed copies of
 * one trace give the same event stream, buffer selection, lost-event
 * markers, and damaged files (cut, flipped bytes) that must end in a clean
 * error or a read-around, never a crash: for the compressed fixtures every
 * byte is flipped in turn, each open in a forked child with a time bound.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "check-common.h"
#include "ingest/dat-local.h"
#include "ingest/ingest.h"

static const char *const traces[] = {
	"numa01-4n", "numa01-shm-4n", "numa02-2n", "mixed-2n", "host-baseline-1n",
	"host-2cpu-mixed.dat",
};

#define MAX_NAMES 64

struct counts {
	int		n;
	char		name[MAX_NAMES][48];
	uint64_t	count[MAX_NAMES];
};

static void counts_add(struct counts *c, const char *name, uint64_t k)
{
	int i;

	for (i = 0; i < c->n; i++) {
		if (!strcmp(c->name[i], name)) {
			c->count[i] += k;
			return;
		}
	}
	ck_assert_int_lt(c->n, MAX_NAMES);
	ck_assert_int_lt(snprintf(c->name[c->n], sizeof(c->name[0]), "%s", name),
			 (int)sizeof(c->name[0]));
	c->count[c->n++] = k;
}

static uint64_t counts_get(const struct counts *c, const char *name)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->name[i], name))
			return c->count[i];
	return 0;
}

/* FNV-1a over everything an event carries */
static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;

	while (len--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

static uint64_t event_hash(uint64_t h, const struct sr_event *ev)
{
	h = fnv(h, &ev->ts_ns, sizeof(ev->ts_ns));
	h = fnv(h, &ev->cpu, sizeof(ev->cpu));
	h = fnv(h, &ev->pid, sizeof(ev->pid));
	h = fnv(h, &ev->kind, sizeof(ev->kind));
	h = fnv(h, ev->name, strlen(ev->name) + 1);
	h = fnv(h, ev->system, strlen(ev->system) + 1);
	if (ev->str)
		h = fnv(h, ev->str, ev->str_len);
	h = fnv(h, &ev->marker, sizeof(ev->marker));
	return fnv(h, &ev->u, sizeof(ev->u));
}

struct run {
	uint64_t	n;
	uint64_t	hash;	/* over the first @limit events, LOST markers excluded */
	uint64_t	lost;
	struct counts	c;
	int		ret;
	struct err	err;
	struct ingest_info info;
};

/* read a whole file; checks time order and progress on the way */
static void run_file(const char *path, const struct ingest_opts *opts, uint64_t limit,
		     struct run *r, bool damaged)
{
	struct sr_event ev;
	struct ingest *in;
	uint64_t last = 0;
	double prog;
	double last_prog = 0;

	memset(r, 0, sizeof(*r));
	r->hash = 0xcbf29ce484222325ull;
	in = ingest_open(path, opts, &r->err);
	if (!in) {
		r->ret = r->err.code;
		ck_assert_int_lt(r->ret, 0);
		return;
	}
	while ((r->ret = ingest_next(in, &ev)) > 0) {
		/* damaged files may go back in time: ingest.c counts that */
		if (!damaged)
			ck_assert_uint_ge(ev.ts_ns, last);
		last = ev.ts_ns;
		ck_assert_ptr_nonnull(ev.name);
		ck_assert_ptr_nonnull(ev.system);
		if (ev.kind == SR_EV_LOST) {
			r->lost++;
			continue;
		}
		if (r->n < limit)
			r->hash = event_hash(r->hash, &ev);
		r->n++;
		counts_add(&r->c, ev.name, 1);
		if ((r->n & 1023) == 0 && !damaged) {
			prog = ingest_progress(in);
			ck_assert(prog >= last_prog && prog <= 1.0);
			last_prog = prog;
		}
	}
	if (r->ret < 0)
		r->err = *ingest_err(in);
	else if (!damaged)
		ck_assert(ingest_progress(in) == 1.0);
	r->info = *ingest_info(in);
	r->info.lost_per_cpu = NULL;
	r->info.lost_records_per_cpu = NULL;
	r->info.first_ts_per_cpu = NULL;
	r->info.last_ts_per_cpu = NULL;
	r->info.gaps = NULL;
	ingest_close(in);
}

/* "   19658 numa_fault" lines up to the next '#' after the first */
static void load_counts(const char *path, struct counts *c)
{
	char line[256];
	char name[64];
	unsigned long long k;
	int seen = 0;
	FILE *f = fopen(path, "r");

	ck_assert_msg(f != NULL, "cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			if (seen++)
				break;
			continue;
		}
		if (sscanf(line, "%llu %63s", &k, name) == 2)
			counts_add(c, name, k);
	}
	fclose(f);
}

/*
 * Counts from `trace-cmd report`: the event name is the word after the
 * "[cpu] seconds:" part of each line.  Return: false when trace-cmd is
 * not there.
 */
static bool report_counts(const char *path, struct counts *c)
{
	char cmd[1100];
	char line[4096];
	char name[64];
	char *p;
	FILE *f;
	int status;

	snprintf(cmd, sizeof(cmd), "trace-cmd report '%s' 2>/dev/null", path);
	f = popen(cmd, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, "] ");
		if (!p || line[0] != ' ')
			continue;
		p += 2;
		p = strchr(p, ':');
		if (!p || sscanf(p + 1, " %63[^:]", name) != 1)
			continue;
		counts_add(c, name, 1);
	}
	status = pclose(f);
	return c->n > 0 && status == 0;
}

START_TEST(test_counts)
{
	const char *t = traces[_i];
	char path[1024];
	char file[1024];
	struct counts want = { 0 };
	struct run *r = malloc(sizeof(*r));
	bool folder = !strstr(t, ".dat");
	int i;

	ck_assert_ptr_nonnull(r);
	if (folder) {
		snprintf(path, sizeof(path), "%s/%s/trace.dat", SR_FIXTURES_DIR, t);
		snprintf(file, sizeof(file), "%s/%s/event-counts.txt", SR_FIXTURES_DIR, t);
		load_counts(file, &want);
	} else {
		snprintf(path, sizeof(path), "%s/%s", SR_FIXTURES_DIR, t);
		if (!report_counts(path, &want)) {
			fprintf(stderr, "skipped %s: trace-cmd is not installed\n", t);
			free(r);
			return;
		}
	}
	ck_assert_int_gt(want.n, 0);
	run_file(path, NULL, UINT64_MAX, r, false);
	ck_assert_int_eq(r->ret, 0);
	for (i = 0; i < want.n; i++)
		ck_assert_msg(counts_get(&r->c, want.name[i]) == want.count[i],
			      "%s: %s: %llu events, trace-cmd report shows %llu", t, want.name[i],
			      (unsigned long long)counts_get(&r->c, want.name[i]),
			      (unsigned long long)want.count[i]);
	for (i = 0; i < r->c.n; i++)
		ck_assert_msg(counts_get(&want, r->c.name[i]) == r->c.count[i],
			      "%s: %s not in trace-cmd report", t, r->c.name[i]);
	ck_assert_uint_eq(r->info.nr_events, r->n);
	ck_assert_uint_eq(r->info.unordered, 0);
	ck_assert_uint_eq(r->info.truncated, 0);
	ck_assert_int_eq(r->info.file_version, 7);
	ck_assert_str_eq(r->info.compression, "zstd");
	ck_assert_str_eq(r->info.clock, "local");
	ck_assert_int_gt(r->info.nr_cpus, 0);
	if (folder) {
		char uname[512];
		char rel[128];
		FILE *f;

		snprintf(file, sizeof(file), "%s/%s/uname.txt", SR_FIXTURES_DIR, t);
		f = fopen(file, "r");
		ck_assert_ptr_nonnull(f);
		ck_assert_ptr_nonnull(fgets(uname, sizeof(uname), f));
		fclose(f);
		ck_assert_int_eq(sscanf(uname, "%*s %*s %127s", rel), 1);
		ck_assert_str_eq(r->info.kernel_release, rel);
	}
	free(r);
}
END_TEST

/* field values of the first events of some kinds in numa02-2n */
START_TEST(test_fields)
{
	struct ingest *in;
	struct err err = { 0 };
	struct sr_event ev;
	bool seen_pages = false, seen_swap = false, seen_exec = false, seen_print = false;
	bool seen_fault = false;

	in = ingest_open(SR_FIXTURE("numa02-2n/trace.dat"), NULL, &err);
	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(ingest_info(in)->nr_cpus, 4);
	while (ingest_next(in, &ev) > 0) {
		/* checked against `trace-cmd report` of the same records */
		if (ev.kind == SR_EV_MIGRATE_PAGES && !seen_pages) {
			seen_pages = true;
			ck_assert_uint_eq(ev.ts_ns, 7366932371ull);
			ck_assert_uint_eq(ev.u.pages.succeeded, 512);
			ck_assert_uint_eq(ev.u.pages.thp_succeeded, 1);
			ck_assert_int_eq(ev.u.pages.reason, 5);
			ck_assert(ev.u.pages.numa_misplaced);
		}
		if (ev.kind == SR_EV_SWAP_NUMA && !seen_swap) {
			seen_swap = true;
			ck_assert_uint_eq(ev.ts_ns, 9130390384ull);
			ck_assert_int_eq(ev.u.numa.src_pid, 227);
			ck_assert_int_eq(ev.u.numa.src_tgid, 225);
			ck_assert_int_eq(ev.u.numa.src_ngid, 226);
			ck_assert_int_eq(ev.u.numa.dst_pid, 228);
			ck_assert_int_eq(ev.u.numa.dst_cpu, 2);
			ck_assert_int_eq(ev.u.numa.dst_nid, 1);
		}
		if (ev.kind == SR_EV_EXEC && !seen_exec) {
			seen_exec = true;
			ck_assert_str_eq(ev.str, "/bin/sh");
			ck_assert_uint_eq(ev.str_len, 7);
			ck_assert_int_eq(ev.u.exec.pid, 194);
		}
		if (ev.kind == SR_EV_NUMA_FAULT && !seen_fault) {
			seen_fault = true;
			ck_assert_str_eq(ev.name, "numa_fault");
			ck_assert_str_eq(ev.system, "kprobes");
			ck_assert_int_eq(ev.u.fault.last_cpupid, 2097151);
			ck_assert_int_eq(ev.u.fault.mem_node, 0);
			ck_assert_int_eq(ev.u.fault.pages, 512);
			ck_assert_int_eq(ev.u.fault.flags, 8);
			ck_assert_int_eq(ev.cpu, 1);
		}
		if (ev.kind == SR_EV_PRINT && !seen_print) {
			seen_print = true;
			ck_assert_str_eq(ev.system, "ftrace");
			ck_assert_uint_eq(ev.str_len, strlen(ev.str));
			ck_assert_int_ne(ev.str[ev.str_len - 1], '\n');
			ck_assert(!strncmp(ev.str, "schedreplay_meta release=6.1.0-57-amd64", 39));
			ck_assert_int_eq(ev.marker, SR_MARK_META);
		}
		if (ev.kind == SR_EV_SWITCH) {
			ck_assert_uint_lt(strlen(ev.u.sw.prev_comm), SR_COMM_LEN);
			ck_assert_uint_lt(strlen(ev.u.sw.next_comm), SR_COMM_LEN);
		}
	}
	ck_assert(seen_pages && seen_swap && seen_exec && seen_print && seen_fault);
	ingest_close(in);
}
END_TEST

/* ingest_next_borrowed() hands out the events ingest_next() copies, every field */
static void assert_same_event(const struct sr_event *a, const struct sr_event *b, uint64_t i)
{
	ck_assert_msg(a->ts_ns == b->ts_ns && a->cpu == b->cpu && a->pid == b->pid &&
		      a->kind == b->kind && a->src_pos == b->src_pos && a->marker == b->marker &&
		      a->str_len == b->str_len, "event %llu differs", (unsigned long long)i);
	ck_assert_str_eq(a->name, b->name);
	ck_assert_str_eq(a->system, b->system);
	ck_assert_int_eq(!a->str, !b->str);
	if (a->str)
		ck_assert_int_eq(memcmp(a->str, b->str, a->str_len + 1), 0);
	ck_assert_int_eq(memcmp(&a->u, &b->u, sizeof(a->u)), 0);
}

START_TEST(test_next_borrowed)
{
	/*
	 * _i: the fast reader on 1 thread, on 2 and 3 threads in batches of
	 * one event (each event ends its batch: it lives in the batch held
	 * for it), libtracecmd's reader, a text trace.  The reference: the
	 * same file copied out by ingest_next() from libtracecmd's reader (or
	 * the text reader).
	 */
	static const int threads[] = { 1, 2, 3, 1, 1 };
	struct ingest_opts o = { .threads = threads[_i], .batch = threads[_i] > 1 ? 1 : 0 };
	struct ingest_opts ro = { .reader = INGEST_READER_LIBTRACECMD };
	const char *path = SR_FIXTURE("numa02-2n/trace.dat");
	const struct sr_event *got = NULL;
	struct sr_event want, kept;
	char kept_str[4096];
	struct ingest *a, *b;
	struct err err = { 0 };
	uint64_t n = 0, strs = 0;
	int x, y;

	if (_i == 3)
		o.reader = INGEST_READER_LIBTRACECMD;
	if (_i == 4)
		path = SR_FIXTURE("text/tracefs-host.txt");
	a = ingest_open(path, &ro, &err);
	ck_assert_ptr_nonnull(a);
	b = ingest_open(path, &o, &err);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(dat_mt_batch(b), threads[_i] > 1 ? 1 : 0);
	for (;;) {
		/* the last one handed out is still what it was, until this call */
		if (got && n < 300) {
			usleep(200);	/* time for a worker to refill a batch let go too early */
			assert_same_event(&kept, got, n - 1);
			if (got->str)
				ck_assert_int_eq(memcmp(got->str, kept_str, got->str_len + 1), 0);
		}
		x = ingest_next(a, &want);
		y = ingest_next_borrowed(b, &got);
		ck_assert_int_eq(x, y);
		if (x <= 0)
			break;
		assert_same_event(&want, got, n);
		kept = *got;
		if (got->str && got->str_len < sizeof(kept_str))
			memcpy(kept_str, got->str, got->str_len + 1);
		strs += want.str != NULL;
		n++;
	}
	ck_assert_int_eq(x, 0);
	ck_assert_uint_gt(n, 400);
	if (_i != 4)
		ck_assert_uint_gt(strs, 0);	/* print and exec events */
	ck_assert_uint_eq(ingest_info(a)->nr_events, ingest_info(b)->nr_events);
	ck_assert_uint_eq(ingest_info(a)->last_ts_ns, ingest_info(b)->last_ts_ns);
	ingest_close(a);
	ingest_close(b);
}
END_TEST

/* the threaded reader's batches: as asked, or sized by the number of streams */
START_TEST(test_batch_size)
{
	struct ingest_opts o = { .threads = 2, .batch = 7 };
	struct err err = { 0 };
	struct ingest *in;

	in = ingest_open(SR_FIXTURE("numa02-2n/trace.dat"), &o, &err);
	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(dat_mt_batch(in), 7);
	ingest_close(in);
	o.batch = 0;
	in = ingest_open(SR_FIXTURE("numa02-2n/trace.dat"), &o, &err);
	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(dat_mt_batch(in), 1024);	/* 4 CPUs: the largest */
	ingest_close(in);
	o.threads = 1;
	in = ingest_open(SR_FIXTURE("numa02-2n/trace.dat"), &o, &err);
	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(dat_mt_batch(in), 0);		/* no threads */
	ingest_close(in);
}
END_TEST

/* @tid's blocked signals, from /proc/self/task/TID/status; 0 when unreadable */
static unsigned long long task_sigblk(const char *tid)
{
	char path[64], line[256];
	unsigned long long m = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "/proc/self/task/%s/status", tid) >= (int)sizeof(path))
		return 0;
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigBlk: %llx", &m) == 1)
			break;
	fclose(f);
	return m;
}

/* @tid's name, from /proc/self/task/TID/comm, into @name; "" when unreadable */
static void task_comm(const char *tid, char *name, size_t size)
{
	char path[64];
	FILE *f;

	name[0] = '\0';
	if (snprintf(path, sizeof(path), "/proc/self/task/%s/comm", tid) >= (int)sizeof(path))
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(name, (int)size, f))
		name[strcspn(name, "\n")] = '\0';
	fclose(f);
}

/*
 * The reader's workers block the signals that end a run, so that they reach
 * the main thread, which holds them off while it registers a temporary file;
 * and they are named sr-read (top -H, perf) from the moment they exist.
 */
START_TEST(test_workers_block_signals_named)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct ingest_opts o = { .threads = 3 };
	struct err err = { 0 };
	char self[32], name[32];
	struct ingest *in;
	struct dirent *de;
	int workers = 0;
	DIR *d;
	size_t i;

	in = ingest_open(SR_FIXTURE("numa02-2n/trace.dat"), &o, &err);
	ck_assert_ptr_nonnull(in);
	ck_assert_int_gt(dat_mt_batch(in), 0);
	snprintf(self, sizeof(self), "%ld", (long)syscall(SYS_gettid));
	d = opendir("/proc/self/task");
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		unsigned long long m;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, self))
			continue;
		m = task_sigblk(de->d_name);
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			ck_assert_msg(m & (1ULL << (sigs[i] - 1)),
				      "thread %s does not block signal %d", de->d_name, sigs[i]);
		task_comm(de->d_name, name, sizeof(name));
		ck_assert_str_eq(name, "sr-read");
		workers++;
	}
	closedir(d);
	ck_assert_int_eq(workers, 2);
	/* the caller's own mask and name are as they were */
	task_comm(self, name, sizeof(name));
	ck_assert_str_ne(name, "sr-read");
	ck_assert(!(task_sigblk(self) & (1ULL << (SIGTERM - 1))));
	ingest_close(in);
}
END_TEST

/* the fixtures: one trace as v6, v7 and v7+zstd, all equal to the original */
START_TEST(test_versions)
{
	static const struct {
		const char	*file;
		int		version;
		const char	*compression;
	} fx[] = {
		{ "dat/numa02-head-v6.dat", 6, "" },
		{ "dat/numa02-head-v7.dat", 7, "" },
		{ "dat/numa02-head-v7-zstd.dat", 7, "zstd" },
	};
	char path[1024];
	struct run *r = malloc(sizeof(*r));
	struct run *orig = malloc(sizeof(*orig));
	size_t i;

	ck_assert(r && orig);
	for (i = 0; i < sizeof(fx) / sizeof(fx[0]); i++) {
		snprintf(path, sizeof(path), "%s/fixtures/%s", SR_SOURCE_DIR, fx[i].file);
		run_file(path, NULL, UINT64_MAX, r, false);
		ck_assert_msg(r->ret == 0, "%s: %s", fx[i].file, r->err.msg);
		ck_assert_uint_eq(r->n, 8000);
		ck_assert_int_eq(r->info.file_version, fx[i].version);
		ck_assert_str_eq(r->info.compression, fx[i].compression);
		if (!i)
			run_file(SR_FIXTURE("numa02-2n/trace.dat"), NULL, r->n, orig, false);
		ck_assert_msg(r->hash == orig->hash, "%s: events differ from the original's",
			      fx[i].file);
	}
	free(r);
	free(orig);
}
END_TEST

START_TEST(test_buffers)
{
	const char *path = SR_FIXTURE("host-baseline-1n/trace.dat");
	struct ingest_opts o = { 0 };
	struct run *all = malloc(sizeof(*all));
	struct run *r = malloc(sizeof(*r));

	ck_assert(all && r);
	run_file(path, NULL, UINT64_MAX, all, false);
	ck_assert_int_eq(all->ret, 0);
	ck_assert_uint_eq(all->n, 7535);

	o.buffer = "numalab";
	run_file(path, &o, UINT64_MAX, r, false);
	ck_assert_int_eq(r->ret, 0);
	ck_assert_uint_eq(r->n, all->n);
	ck_assert(r->hash == all->hash);

	o.buffer = "top";
	run_file(path, &o, UINT64_MAX, r, false);
	ck_assert_int_eq(r->ret, 0);
	ck_assert_uint_eq(r->n, 0);

	o.buffer = "nope";
	run_file(path, &o, UINT64_MAX, r, false);
	ck_assert_int_eq(r->ret, -SR_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(r->err.msg, "numalab"));
	free(all);
	free(r);
}
END_TEST

/* lost-v6.dat: numa02-head-v6.dat with two pages flagged (README.md) */
START_TEST(test_lost)
{
	struct ingest *in;
	struct err err = { 0 };
	struct sr_event ev;
	const struct ingest_info *info;
	struct run *plain = malloc(sizeof(*plain));
	uint64_t hash = 0xcbf29ce484222325ull;
	int lost = 0;
	bool after_lost = false;
	int lost_cpu = -1;
	uint64_t lost_ts = 0;
	uint64_t first[4] = { 0 }, last[4] = { 0 }, gap_from[2] = { 0 }, gap_to[2] = { 0 };
	int c;

	ck_assert_ptr_nonnull(plain);
	in = ingest_open(SR_FIXTURE("dat/lost-v6.dat"), NULL, &err);
	ck_assert_ptr_nonnull(in);
	while (ingest_next(in, &ev) > 0) {
		ck_assert(ev.cpu >= 0 && ev.cpu < 4);
		if (ev.kind == SR_EV_LOST && lost < 2) {
			gap_from[lost] = last[ev.cpu];
			gap_to[lost] = ev.ts_ns;
		}
		if (!first[ev.cpu])
			first[ev.cpu] = ev.ts_ns;
		last[ev.cpu] = ev.ts_ns;
		if (after_lost) {
			/* the record that carried the flag comes right after */
			ck_assert_int_eq(ev.cpu, lost_cpu);
			ck_assert_uint_eq(ev.ts_ns, lost_ts);
			ck_assert_int_ne(ev.kind, SR_EV_LOST);
			after_lost = false;
		}
		if (ev.kind == SR_EV_LOST) {
			ck_assert_int_eq(ev.u.lost.count, ev.cpu == 0 ? 42 : -1);
			lost++;
			after_lost = true;
			lost_cpu = ev.cpu;
			lost_ts = ev.ts_ns;
			continue;
		}
		hash = event_hash(hash, &ev);
	}
	info = ingest_info(in);
	ck_assert_int_eq(lost, 2);
	ck_assert_int_eq(info->lost_per_cpu[0], 42);
	ck_assert_uint_eq(info->lost_records_per_cpu[0], 1);
	ck_assert_int_eq(info->lost_per_cpu[1], 0);
	ck_assert_uint_eq(info->lost_records_per_cpu[1], 1);
	/* coverage: each CPU's first and last event, a gap per lost record */
	for (c = 0; c < 4; c++) {
		ck_assert_uint_eq(info->first_ts_per_cpu[c], first[c] + 1);
		ck_assert_uint_eq(info->last_ts_per_cpu[c], last[c] + 1);
	}
	ck_assert_uint_eq(info->nr_gaps, 2);
	for (c = 0; c < 2; c++) {
		ck_assert_uint_gt(gap_from[c], 0);
		ck_assert_uint_eq(info->gaps[c].from_ns, gap_from[c]);
		ck_assert_uint_eq(info->gaps[c].to_ns, gap_to[c]);
		ck_assert_uint_lt(info->gaps[c].from_ns, info->gaps[c].to_ns);
	}
	ck_assert_int_eq(info->gaps[0].cpu, 0);
	ck_assert_int_eq(info->gaps[0].count, 42);
	ck_assert_int_eq(info->gaps[1].cpu, 1);
	ck_assert_int_eq(info->gaps[1].count, -1);
	ingest_close(in);

	/* cpu1-late-v6.dat: CPU 1's data starts behind its one lost record */
	in = ingest_open(SR_FIXTURE("dat/cpu1-late-v6.dat"), NULL, &err);
	ck_assert_msg(in != NULL, "%s", err.msg);
	while (ingest_next(in, &ev) > 0)
		;
	info = ingest_info(in);
	ck_assert_uint_eq(info->nr_gaps, 1);
	ck_assert_int_eq(info->gaps[0].cpu, 1);
	ck_assert_uint_eq(info->gaps[0].from_ns, 0);	/* its first record */
	ck_assert_int_eq(info->gaps[0].count, 766739);
	ck_assert_uint_eq(info->gaps[0].to_ns, info->first_ts_per_cpu[1] - 1);
	ck_assert_uint_gt(info->first_ts_per_cpu[1] - 1, info->first_ts_ns + 4000000000ull);
	ingest_close(in);

	run_file(SR_FIXTURE("dat/numa02-head-v6.dat"), NULL, UINT64_MAX, plain, false);
	ck_assert(plain->hash == hash);
	free(plain);
}
END_TEST

/* copy @len bytes of @src into a temp file, optionally flipping bytes */
static void make_damaged(const char *src, off_t len, unsigned int seed, int flips, off_t lo,
			 char *tmp)
{
	struct stat st;
	unsigned char *buf;
	int fd;
	int i;

	fd = open(src, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	if (len > st.st_size)
		len = st.st_size;
	buf = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(fd, buf, len, 0), len);
	close(fd);
	for (i = 0; i < flips && len > lo; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[lo + (seed >> 4) % (len - lo)] ^= 1u << (seed % 8);
	}
	strcpy(tmp, "/tmp/check-ingest-dat-XXXXXX");
	fd = mkstemp(tmp);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, len), len);
	close(fd);
	free(buf);
}

static const char *const damage_src[] = {
	"dat/numa02-head-v6.dat", "dat/numa02-head-v7.dat", "dat/numa02-head-v7-zstd.dat",
};

/* cut each fixture at 4 KiB steps and some odd offsets */
START_TEST(test_truncated)
{
	char src[1024];
	char tmp[64];
	struct run *r = malloc(sizeof(*r));
	struct ingest_opts strict = { .strict = true };
	struct stat st;
	off_t off;
	int read_around = 0;

	ck_assert_ptr_nonnull(r);
	snprintf(src, sizeof(src), "%s/fixtures/%s", SR_SOURCE_DIR, damage_src[_i]);
	ck_assert_int_eq(stat(src, &st), 0);
	for (off = 1; off < st.st_size; off += (off < 64 ? 7 : off < 4096 ? 509 : 12288)) {
		make_damaged(src, off, 0, 0, 0, tmp);
		run_file(tmp, NULL, UINT64_MAX, r, true);
		if (r->ret < 0) {
			ck_assert_msg(r->err.msg[0] && r->err.file[0], "no message at cut %ld",
				      (long)off);
		} else if (r->info.truncated == 0) {
			/* a cut in trailing options that lost no event */
			ck_assert_msg(r->n == 8000, "cut at %ld lost events unnoticed", (long)off);
		} else {
			/*
			 * read around: the damage is counted (every event, when
			 * the cut took only a v7 file's trailing strings section)
			 */
			ck_assert_uint_le(r->n, 8000);
			read_around += r->n < 8000;
			run_file(tmp, &strict, UINT64_MAX, r, true);
			ck_assert_int_eq(r->ret, -SR_ETRUNCATED);
			ck_assert_ptr_nonnull(strstr(r->err.where, "byte"));
		}
		unlink(tmp);
	}
	/* a v6 file keeps its CPU table up front: cuts in the data are read around */
	if (_i == 0)
		ck_assert_int_gt(read_around, 5);
	free(r);
}
END_TEST

/* flip bytes in the headers and in the page data */
START_TEST(test_corrupt)
{
	char src[1024];
	char tmp[64];
	struct run *r = malloc(sizeof(*r));
	struct stat st;
	unsigned int seed;

	ck_assert_ptr_nonnull(r);
	/* 0, 2, 4: v6; 1, 3: v7; 5: v7 zstd (compressed data checked before libtracecmd) */
	snprintf(src, sizeof(src), "%s/fixtures/%s", SR_SOURCE_DIR,
		 damage_src[_i == 5 ? 2 : _i % 2]);
	ck_assert_int_eq(stat(src, &st), 0);
	for (seed = 1; seed <= 24; seed++) {
		/* odd seeds: anywhere; even: the last 300 KiB (mostly pages) */
		make_damaged(src, st.st_size, seed * 7919 + _i, seed % 2 ? 2 : 12,
			     seed % 2 ? 0 : (st.st_size > 300000 ? st.st_size - 300000 : 0), tmp);
		run_file(tmp, NULL, UINT64_MAX, r, true);
		if (r->ret < 0)
			ck_assert(r->err.msg[0]);
		unlink(tmp);
	}
	free(r);
}
END_TEST

/* what a reader gave: its events and its damage reports, in their order */
struct seen {
	uint64_t	n;
	uint64_t	hash;		/* the events, and the error that ended them */
	uint64_t	dmg_hash;	/* the damage reports */
	uint64_t	pos_hash;	/* and after which event each came */
	uint64_t	info_hash;	/* ingest_info() at the end */
	int		damage;
	int		ret;
	char		first_damage[600];
};

/* what ingest_info() says once the reading ended: counters and the file's facts */
static uint64_t info_hash(const struct ingest_info *i)
{
	uint64_t h = 0xcbf29ce484222325ull;
	int c;

	h = fnv(h, &i->nr_events, sizeof(i->nr_events));
	h = fnv(h, &i->nr_cpus, sizeof(i->nr_cpus));
	h = fnv(h, &i->first_ts_ns, sizeof(i->first_ts_ns));
	h = fnv(h, &i->last_ts_ns, sizeof(i->last_ts_ns));
	h = fnv(h, &i->truncated, sizeof(i->truncated));
	h = fnv(h, &i->unordered, sizeof(i->unordered));
	h = fnv(h, &i->bad_lines, sizeof(i->bad_lines));
	h = fnv(h, &i->skipped_lines, sizeof(i->skipped_lines));
	h = fnv(h, &i->bad_markers, sizeof(i->bad_markers));
	h = fnv(h, &i->nr_gaps, sizeof(i->nr_gaps));
	h = fnv(h, &i->file_version, sizeof(i->file_version));
	h = fnv(h, i->reader, strlen(i->reader));
	h = fnv(h, i->clock, strlen(i->clock));
	h = fnv(h, i->kernel_release, strlen(i->kernel_release));
	h = fnv(h, i->compression, strlen(i->compression));
	for (c = 0; c < i->nr_cpus; c++) {
		h = fnv(h, &i->lost_per_cpu[c], sizeof(i->lost_per_cpu[c]));
		h = fnv(h, &i->lost_records_per_cpu[c], sizeof(i->lost_records_per_cpu[c]));
		h = fnv(h, &i->first_ts_per_cpu[c], sizeof(i->first_ts_per_cpu[c]));
		h = fnv(h, &i->last_ts_per_cpu[c], sizeof(i->last_ts_per_cpu[c]));
	}
	return h;
}

static void seen_warn(void *arg, const struct err *e)
{
	struct seen *s = arg;

	s->dmg_hash = fnv(s->dmg_hash, e->msg, strlen(e->msg));
	s->dmg_hash = fnv(s->dmg_hash, e->where, strlen(e->where));
	s->pos_hash = fnv(s->pos_hash, &s->n, sizeof(s->n));
	s->pos_hash = fnv(s->pos_hash, &s->dmg_hash, sizeof(s->dmg_hash));
	if (!s->damage++)
		snprintf(s->first_damage, sizeof(s->first_damage), "%s: %s", e->where, e->msg);
}

/* a failure's message and place, in @s */
static void seen_err(struct seen *s, const struct err *e)
{
	s->ret = e->code;
	s->hash = fnv(s->hash, e->msg, strlen(e->msg));
	s->hash = fnv(s->hash, e->where, strlen(e->where));
}

/* the events of @in from here on, into @s (seen_start() done) */
static void read_rest(struct ingest *in, struct seen *s)
{
	struct sr_event ev;

	while ((s->ret = ingest_next(in, &ev)) > 0) {
		s->hash = event_hash(s->hash, &ev);
		s->n++;
	}
	if (s->ret < 0)
		seen_err(s, ingest_err(in));
	s->info_hash = info_hash(ingest_info(in));
}

static void seen_start(struct seen *s, struct ingest_opts *o)
{
	memset(s, 0, sizeof(*s));
	s->hash = s->dmg_hash = s->pos_hash = 0xcbf29ce484222325ull;
	o->warn = seen_warn;
	o->warn_arg = s;
}

static void read_seen(const char *path, struct ingest_opts *o, struct seen *s)
{
	struct err err = { 0 };
	struct ingest *in;

	seen_start(s, o);
	in = ingest_open(path, o, &err);
	if (!in) {
		seen_err(s, &err);
		return;
	}
	read_rest(in, s);
	ingest_close(in);
}

/*
 * The threaded reader cuts a CPU's data into pieces and decodes them on
 * several threads: with a page (or a chunk) a piece, every stream is cut
 * into many, and the events, the damage reports and a fatal error are the
 * one-thread reader's, on damaged copies of each fixture too; and each
 * damage report comes after the same event as when the streams are not
 * cut.  (The one-thread reader reports damage when it reads ahead in a
 * stream, the threaded one when the merge reaches it: a few events apart.)
 */
START_TEST(test_pieces)
{
	struct ingest_opts one = { .threads = 1 };
	struct ingest_opts cut[] = {
		{ .threads = 2 },
		{ .threads = 2, .piece = 1 },
		{ .threads = 3, .piece = 1, .batch = 3 },
		{ .threads = 2, .piece = 8192, .batch = 5 },
	};
	struct seen want, whole, got;
	struct err err = { 0 };
	struct ingest *in;
	char src[1024];
	char tmp[64];
	struct stat st;
	unsigned int seed;
	int damaged = 0, stopped = 0, lanes = 0;
	size_t c;

	snprintf(src, sizeof(src), "%s/fixtures/%s", SR_SOURCE_DIR, damage_src[_i]);
	ck_assert_int_eq(stat(src, &st), 0);
	in = ingest_open(src, &cut[1], &err);
	ck_assert_ptr_nonnull(in);
	/* more pieces than the 4 CPUs, decoded in more lanes than 4 */
	ck_assert_uint_gt(dat_mt_pieces(in, &lanes), 8);
	ck_assert_int_gt(lanes, 4);
	ingest_close(in);
	for (seed = 0; seed <= 16; seed++) {
		/* 0: the fixture itself; then bytes flipped in the last 300 KiB (mostly pages) */
		make_damaged(src, st.st_size, seed * 104729 + _i, seed ? 6 : 0,
			     st.st_size > 300000 ? st.st_size - 300000 : 0, tmp);
		read_seen(tmp, &one, &want);
		for (c = 0; c < sizeof(cut) / sizeof(cut[0]); c++) {
			read_seen(tmp, &cut[c], c ? &got : &whole);
			if (!c)
				got = whole;
			ck_assert_msg(got.ret == want.ret && got.n == want.n &&
				      got.damage == want.damage && got.hash == want.hash &&
				      got.dmg_hash == want.dmg_hash && got.pos_hash == whole.pos_hash,
				      "%s, seed %u, cut %zu: %llu events, %d damaged, ret %d (%s); "
				      "one thread: %llu, %d, ret %d (%s)", damage_src[_i], seed, c,
				      (unsigned long long)got.n, got.damage, got.ret, got.first_damage,
				      (unsigned long long)want.n, want.damage, want.ret,
				      want.first_damage);
		}
		damaged += want.damage > 0;
		stopped += want.ret < 0;
		unlink(tmp);
	}
	fprintf(stderr, "%s in pieces: 17 copies, %d with damage read around, %d stopped by it\n",
		damage_src[_i], damaged, stopped);
	/* the flips did hit pages: damage read around, or a fatal error */
	ck_assert_int_gt(damaged + stopped, 3);
}
END_TEST

/*
 * @path opened with @first, @skip events read (UINT64_MAX: to the end),
 * then rewound to @o: what it reads from there, into @s.  The first
 * pass's damage reports go to @pre, as the session's pre-scan swallows
 * them.
 */
static void read_rewound(const char *path, struct ingest_opts *first, uint64_t skip,
			 struct ingest_opts *o, struct seen *s, struct seen *pre)
{
	struct err err = { 0 };
	struct sr_event ev;
	struct ingest *in;
	uint64_t k;

	seen_start(pre, first);
	seen_start(s, o);
	in = ingest_open(path, first, &err);
	if (!in) {
		seen_err(s, &err);
		return;
	}
	for (k = 0; k < skip && ingest_next(in, &ev) > 0; k++)
		;
	if (ingest_rewind(in, o, &err) < 0)
		seen_err(s, &err);
	else
		read_rest(in, s);
	ingest_close(in);
}

/*
 * ingest_rewind(): after a first pass of 0, 777 or all events, with
 * other options (one thread, threads, pieces, --strict, libtracecmd's
 * reader), the handle reads what a fresh open with the new options reads:
 * the same events, the same damage reports after the same events, the
 * same fatal error and the same counters; a damaged file's first pass
 * swallows its reports, and they come again.  _i 0-2: the trace.dat
 * fixtures and damaged copies (bytes flipped, the file cut short);
 * 3: a text trace, damaged likewise.
 */
START_TEST(test_rewind)
{
	static const struct {
		struct ingest_opts	first;
		struct ingest_opts	then;
	} cfg[] = {
		{ { .threads = 1 },			{ .threads = 1 } },
		{ { .threads = 1 },			{ .threads = 2 } },
		{ { .threads = 2 },			{ .threads = 1 } },
		{ { .threads = 2, .piece = 1 },		{ .threads = 3, .piece = 1, .batch = 3 } },
		{ { .threads = 2 },			{ .threads = 2, .strict = true } },
		{ { .threads = 1, .reader = INGEST_READER_LIBTRACECMD },
		  { .threads = 1, .reader = INGEST_READER_LIBTRACECMD, .strict = true } },
	};
	static const uint64_t skips[] = { 0, 777, UINT64_MAX };
	const char *name = _i < 3 ? damage_src[_i] : "text/tracefs-host.txt";
	struct ingest_opts first, then;
	struct seen want, got, pre;
	char src[1024];
	char tmp[64];
	struct stat st;
	int copy, damaged = 0, failed = 0;
	size_t c, k;

	snprintf(src, sizeof(src), "%s/fixtures/%s", SR_SOURCE_DIR, name);
	ck_assert_int_eq(stat(src, &st), 0);
	for (copy = 0; copy < 7; copy++) {
		/*
		 * 0: the file; 1-4: bytes flipped (mostly pages); 5: cut at two
		 * thirds; 6: its last 50 bytes cut (in a v7 file, the trailing
		 * strings section: damage said by the open)
		 */
		make_damaged(src, copy == 5 ? st.st_size * 2 / 3 : copy == 6 ? st.st_size - 50 :
			     st.st_size, copy * 7907 + _i,
			     copy && copy < 5 ? 4 : 0,
			     st.st_size > 300000 ? st.st_size - 300000 : st.st_size / 8, tmp);
		for (c = 0; c < sizeof(cfg) / sizeof(cfg[0]); c++) {
			then = cfg[c].then;
			read_seen(tmp, &then, &want);
			damaged += want.damage > 0;
			failed += want.ret < 0;
			for (k = 0; k < sizeof(skips) / sizeof(skips[0]); k++) {
				first = cfg[c].first;
				then = cfg[c].then;
				read_rewound(tmp, &first, skips[k], &then, &got, &pre);
				ck_assert_msg(got.ret == want.ret && got.n == want.n &&
					      got.hash == want.hash && got.damage == want.damage &&
					      got.dmg_hash == want.dmg_hash &&
					      got.pos_hash == want.pos_hash &&
					      got.info_hash == want.info_hash,
					      "%s copy %d, options %zu, rewound after %llu: %llu events, "
					      "%d damaged, ret %d (%s); fresh open: %llu, %d, ret %d (%s)",
					      name, copy, c, (unsigned long long)skips[k],
					      (unsigned long long)got.n, got.damage, got.ret,
					      got.first_damage, (unsigned long long)want.n, want.damage,
					      want.ret, want.first_damage);
				/* the first pass saw the damage too, and kept it to itself */
				if (skips[k] == UINT64_MAX && !cfg[c].first.strict && want.damage &&
				    !want.ret)
					ck_assert_int_gt(pre.damage, 0);
			}
		}
		unlink(tmp);
	}
	/* the copies did carry damage: read around, and fatal under --strict */
	ck_assert_int_gt(damaged, 3);
	ck_assert_int_gt(failed, 0);
}
END_TEST

/*
 * A rewind does not read the file's headers again: with the header bytes
 * of the file overwritten after the open, the rewound handle still reads
 * every event (the reader keeps what it checked), the fast reader on one
 * thread and cut in pieces on two, and libtracecmd's; a fresh open of the
 * file now fails.
 */
START_TEST(test_rewind_keeps_header)
{
	static const int threads[] = { 1, 2, 1 };
	struct ingest_opts o = { .threads = threads[_i], .piece = 1,
				 .reader = _i == 2 ? INGEST_READER_LIBTRACECMD : INGEST_READER_AUTO };
	struct ingest_opts one = { .threads = 1, .reader = o.reader };
	struct seen want, got;
	struct err err = { 0 };
	unsigned char zero[512] = { 0 };
	struct sr_event ev;
	struct ingest *in;
	char src[1024];
	char tmp[64];
	int fd, lanes = 0;

	snprintf(src, sizeof(src), "%s/fixtures/%s", SR_SOURCE_DIR, damage_src[2]);
	read_seen(src, &one, &want);
	ck_assert_int_eq(want.ret, 0);
	make_damaged(src, INT64_MAX, 0, 0, 0, tmp);
	seen_start(&got, &o);
	in = ingest_open(tmp, &o, &err);
	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(ingest_next(in, &ev), 1);
	fd = open(tmp, O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, zero, sizeof(zero), 0), (ssize_t)sizeof(zero));
	close(fd);
	ck_assert_int_eq(ingest_rewind(in, &o, &err), 0);
	ck_assert_str_eq(ingest_info(in)->reader, _i == 2 ? "libtracecmd" : "fast");
	if (threads[_i] > 1)	/* cut in more pieces than its 4 CPUs */
		ck_assert_uint_gt(dat_mt_pieces(in, &lanes), 8);
	read_rest(in, &got);
	ingest_close(in);
	ck_assert_int_eq(got.ret, 0);
	ck_assert_uint_eq(got.n, want.n);
	ck_assert(got.hash == want.hash && got.info_hash == want.info_hash);
	ck_assert_ptr_null(ingest_open(tmp, &one, &err));
	unlink(tmp);
}
END_TEST

/* flip bit @bit of byte @off of the file @path, in place */
static void flip_bit(const char *path, off_t off, int bit)
{
	unsigned char b;
	int fd;

	fd = open(path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, &b, 1, off), 1);
	b ^= 1u << bit;
	ck_assert_int_eq(pwrite(fd, &b, 1, off), 1);
	close(fd);
}

/* flip bit @bit of byte @off of @src into a new temp file @tmp */
static void make_flipped(const char *src, off_t off, int bit, char *tmp)
{
	make_damaged(src, INT64_MAX, 0, 0, 0, tmp);
	flip_bit(tmp, off, bit);
}

/*
 * The two flips that made libtracecmd 3.1.6 crash in tracecmd_close() on
 * its own open error path: each lands in the first compressed chunk of one
 * CPU's data; now that CPU's data is read around (counted, and an error
 * naming the chunk's byte offset under --strict).
 */
START_TEST(test_zstd_reproducers)
{
	static const struct {
		off_t	off;
		int	bit;
		int	cpu;
		const char *where;
	} fx[] = {
		{ 11307, 7, 0, "byte 8196" },
		{ 20745, 5, 1, "byte 16388" },
	};
	struct ingest_opts strict = { .strict = true };
	struct run *r = malloc(sizeof(*r));
	struct run *orig = malloc(sizeof(*orig));
	char tmp[64];
	size_t i;

	ck_assert(r && orig);
	run_file(SR_FIXTURE("dat/numa02-head-v7-zstd.dat"), NULL, UINT64_MAX, orig, false);
	ck_assert_int_eq(orig->ret, 0);
	for (i = 0; i < sizeof(fx) / sizeof(fx[0]); i++) {
		make_flipped(SR_FIXTURE("dat/numa02-head-v7-zstd.dat"), fx[i].off, fx[i].bit, tmp);
		run_file(tmp, NULL, UINT64_MAX, r, true);
		ck_assert_msg(r->ret == 0, "flip at %ld: %s", (long)fx[i].off, r->err.msg);
		ck_assert_uint_eq(r->info.truncated, 1);
		ck_assert_uint_gt(r->n, 0);
		ck_assert_uint_lt(r->n, orig->n);
		run_file(tmp, &strict, UINT64_MAX, r, true);
		ck_assert_int_eq(r->ret, -SR_EBADTRACE);
		ck_assert_str_eq(r->err.where, fx[i].where);
		ck_assert_ptr_nonnull(strstr(r->err.file, "check-ingest-dat"));
		ck_assert_msg(strstr(r->err.msg, "compressed data") && strstr(r->err.msg, "chunks"),
			      "%s", r->err.msg);
		unlink(tmp);
	}
	free(r);
	free(orig);
}
END_TEST

enum {
	PROBE_READ = 10,	/* read to the end (damage, if any, counted) */
	PROBE_ERROR = 11,	/* failed with an error naming the file */
	PROBE_BAD_ERROR = 12,	/* failed without a message or file name */
};

/* child: open and read @path; the exit status says how it ended */
static void probe(const char *path)
{
	struct sr_event ev;
	struct ingest *in;
	struct err err = { 0 };
	const struct err *e = &err;
	int ret;

	alarm(10);	/* a hang is SIGALRM: a failure */
	in = ingest_open(path, NULL, &err);
	ret = in ? 0 : err.code;
	if (in) {
		while ((ret = ingest_next(in, &ev)) > 0)
			;
		if (ret < 0)
			e = ingest_err(in);
	}
	if (ret < 0)
		ret = e->msg[0] && !strcmp(e->file, path) ? PROBE_ERROR : PROBE_BAD_ERROR;
	else
		ret = PROBE_READ;
	/* no exit-time work (LeakSanitizer's check would change the status) */
	syscall(SYS_exit_group, ret);
}

struct flip_stats {
	int	opens;
	int	read;
	int	errors;
	int	failed;
	char	first_failure[200];
};

/* flip one bit of @off in @tmp (a copy of the fixture), probe it, flip back */
static void flip_probe(const char *tmp, off_t off, int bit, struct flip_stats *st)
{
	pid_t pid;
	int status = 0;

	flip_bit(tmp, off, bit);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		probe(tmp);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	st->opens++;
	if (WIFEXITED(status) && WEXITSTATUS(status) == PROBE_READ) {
		st->read++;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == PROBE_ERROR) {
		st->errors++;
	} else {
		if (st->failed < 20)
			fprintf(stderr, "flip at byte %ld bit %d: %s %d\n", (long)off, bit,
				WIFSIGNALED(status) ? "signal" : "exit status",
				WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		if (!st->failed++)
			snprintf(st->first_failure, sizeof(st->first_failure),
				 "byte %ld bit %d: %s %d", (long)off, bit,
				 WIFSIGNALED(status) ? "signal" : "exit status",
				 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	}
	flip_bit(tmp, off, bit);	/* back */
}

/*
 * No zlib fixture: Debian's trace-cmd 3.1.6 is built with zstd only
 * (`trace-cmd list -c`), so it can neither write nor read one; the zlib
 * path of the check is tested on in-memory blocks (test_unz_zlib).
 */
static const char *const flip_src[] = {
	"dat/numa02-head-v7-zstd.dat",
};

#define FLIP_ALL_BYTES	65536	/* every byte of the first 64 KiB */
#define FLIP_SAMPLE	2000	/* random bytes after that */
/*
 * Which bytes the sweep flips: every FLIP_STEP-th (the offsets still cover
 * every field of the small fixture), every 29th under the sanitizers (each
 * open is several times slower there).  SR_FLIP_STEP=1 in the environment
 * runs the full sweep (about 53,000 opens; docs/testing.md).
 */
#if defined(__SANITIZE_ADDRESS__)
#define FLIP_STEP	29
#else
#define FLIP_STEP	5
#endif

static off_t flip_step(void)
{
	const char *s = getenv("SR_FLIP_STEP");
	long v = s ? strtol(s, NULL, 10) : 0;

	return v > 0 ? (off_t)v : FLIP_STEP;
}

/*
 * Every byte of the first 64 KiB of a compressed fixture (the whole file,
 * for ours) flipped at one bit, plus a random sample of bytes after that:
 * each open must read (possibly with counted damage) or fail with an error
 * naming the file; a crash or a hang (10 s) fails the test.  The bit is a
 * hash of the offset, so that every bit position of every field is hit
 * somewhere.
 */
START_TEST(test_flip_every_byte)
{
	struct flip_stats st = { 0 };
	char src[1024];
	char tmp[64];
	struct stat sb;
	unsigned int seed = 12345;
	off_t off;
	int i;

	snprintf(src, sizeof(src), "%s/fixtures/%s", SR_SOURCE_DIR, flip_src[_i]);
	ck_assert_int_eq(stat(src, &sb), 0);
	make_damaged(src, sb.st_size, 0, 0, 0, tmp);
	for (off = 0; off < sb.st_size && off < FLIP_ALL_BYTES; off += flip_step())
		flip_probe(tmp, off, (int)(((uint64_t)off * 2654435761u >> 13) % 8), &st);
	for (i = 0; sb.st_size > FLIP_ALL_BYTES && i < FLIP_SAMPLE; i++) {
		seed = seed * 1103515245u + 12345u;
		off = FLIP_ALL_BYTES + (off_t)((seed >> 4) % (sb.st_size - FLIP_ALL_BYTES));
		flip_probe(tmp, off, (int)(seed % 8), &st);
	}
	unlink(tmp);
	fprintf(stderr, "%s: %d flips: %d read, %d clean errors, %d failed%s%s\n",
		flip_src[_i], st.opens, st.read, st.errors, st.failed,
		st.failed ? "; first: " : "", st.first_failure);
	ck_assert_msg(!st.failed, "%s: %d of %d flips crashed, hung or gave no message; first: %s",
		      flip_src[_i], st.failed, st.opens, st.first_failure);
	ck_assert_int_gt(st.read, 0);
	ck_assert_int_gt(st.errors, 0);
}
END_TEST

/* a copy of numa02-head-v6.dat at @tmp, and its bytes (@size of them) to change */
/* the whole of @path, malloc'd; its length in *@size */
static unsigned char *file_read(const char *path, size_t *size)
{
	unsigned char *buf;
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	buf = malloc(st.st_size);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(fd, buf, st.st_size, 0), st.st_size);
	close(fd);
	*size = (size_t)st.st_size;
	return buf;
}

static unsigned char *v6_copy_read(char tmp[64], size_t *size)
{
	make_damaged(SR_FIXTURE("dat/numa02-head-v6.dat"), INT64_MAX, 0, 0, 0, tmp);
	return file_read(tmp, size);
}

/* @buf, changed, back into the copy at @tmp */
static void v6_copy_write(const char *tmp, const unsigned char *buf, size_t size)
{
	int fd = open(tmp, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, buf, size, 0), (ssize_t)size);
	close(fd);
}

static void put_le32(unsigned char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * A copy of numa02-head-v7-zstd.dat whose CPU 1 has a chunk boundary inside
 * a page: its first two chunks (40 KiB each) made 40000 and 41920 bytes,
 * recompressed, the second padded with a zstd skippable frame so that no
 * offset in the file moves.  (trace-cmd writes whole pages a chunk;
 * libtracecmd 3.1.6 misreads this copy: `trace-cmd report` garbles the
 * event at the boundary and loses the page's rest.)
 */
static void make_rechunked(char tmp[64])
{
	enum { COUNT = 16384, A = 16388, CUT = 40000 };
	unsigned char *b, raw[2 * 40960], *n1, *n2, *p;
	uint32_t z1, z2, c;
	size_t size, r1, r2, len, cap = ZSTD_compressBound(sizeof(raw));
	int64_t pad;

	make_damaged(SR_FIXTURE("dat/numa02-head-v7-zstd.dat"), INT64_MAX, 0, 0, 0, tmp);
	b = file_read(tmp, &size);
	z1 = get_le32(b + A);
	c = A + 8 + z1;
	z2 = get_le32(b + c);
	ck_assert_msg(get_le32(b + COUNT) == 3 && get_le32(b + A + 4) == 40960 &&
		      get_le32(b + c + 4) == 40960 && c + 8 + z2 <= size, "the fixture's layout moved");
	r1 = ZSTD_decompress(raw, 40960, b + A + 8, z1);
	r2 = ZSTD_decompress(raw + 40960, 40960, b + c + 8, z2);
	ck_assert(r1 == 40960 && r2 == 40960);
	n1 = malloc(cap);
	n2 = malloc(cap);
	ck_assert(n1 && n2);
	r1 = ZSTD_compress(n1, cap, raw, CUT, 19);
	r2 = ZSTD_compress(n2, cap, raw + CUT, sizeof(raw) - CUT, 19);
	ck_assert(!ZSTD_isError(r1) && !ZSTD_isError(r2));
	pad = (int64_t)(c + 8 + z2) - (int64_t)(A + 8 + r1 + 8 + r2) - 8;
	ck_assert_int_ge(pad, 0);
	p = b + A;
	put_le32(p, (uint32_t)r1);
	put_le32(p + 4, CUT);
	memcpy(p + 8, n1, r1);
	p += 8 + r1;
	len = r2 + 8 + (size_t)pad;
	put_le32(p, (uint32_t)len);
	put_le32(p + 4, sizeof(raw) - CUT);
	memcpy(p + 8, n2, r2);
	p += 8 + r2;
	put_le32(p, 0x184D2A50);	/* a skippable frame */
	put_le32(p + 4, (uint32_t)pad);
	memset(p + 8, 0, (size_t)pad);
	ck_assert(p + 8 + pad == b + c + 8 + z2);
	v6_copy_write(tmp, b, size);
	free(n1);
	free(n2);
	free(b);
}

/*
 * Compressed data is cut into pieces only between chunks of whole pages: a
 * CPU with a page split over two chunks is read whole, and the copy gives
 * the original's events on one thread and on several, cut as finely as it
 * can be.
 */
START_TEST(test_pieces_rechunked)
{
	struct ingest_opts one = { .threads = 1 };
	struct ingest_opts cut[] = {
		{ .threads = 2, .piece = 1 },
		{ .threads = 3, .piece = 1, .batch = 3 },
	};
	struct seen want, got;
	struct err err = { 0 };
	struct ingest *in;
	uint64_t pieces[2];
	char tmp[64];
	int lanes;
	size_t c;

	make_rechunked(tmp);
	read_seen(SR_FIXTURE("dat/numa02-head-v7-zstd.dat"), &one, &want);
	ck_assert_int_eq(want.n, 8000);
	for (c = 0; c < 2; c++) {
		in = ingest_open(c ? tmp : SR_FIXTURE("dat/numa02-head-v7-zstd.dat"), &cut[0], &err);
		ck_assert_ptr_nonnull(in);
		pieces[c] = dat_mt_pieces(in, &lanes);
		ingest_close(in);
	}
	/* CPU 1's three chunks: three pieces in the original, one in the copy */
	ck_assert_uint_eq(pieces[1], pieces[0] - 2);
	read_seen(tmp, &one, &got);
	ck_assert(got.n == want.n && got.hash == want.hash && !got.damage && !got.ret);
	for (c = 0; c < sizeof(cut) / sizeof(cut[0]); c++) {
		read_seen(tmp, &cut[c], &got);
		ck_assert_msg(got.n == want.n && got.hash == want.hash && !got.damage && !got.ret,
			      "cut %zu: %llu events, %d damaged, ret %d", c,
			      (unsigned long long)got.n, got.damage, got.ret);
	}
	unlink(tmp);
}
END_TEST

/* the v6 CPU table in @buf: cpu 0's offset and size (8 bytes each), cpu 1's, ... */
static unsigned char *v6_cpu_table(unsigned char *buf, size_t size)
{
	static const char label[] = "flyrecord";
	unsigned char *p = memmem(buf, size, label, sizeof(label));

	ck_assert_ptr_nonnull(p);
	return p + sizeof(label);
}

/*
 * numa02-head-v6.dat with its CPUCOUNT option (id 8, 4 bytes; the header
 * has the count too) made a TRACECLOCK one (id 4) of the same size, so
 * that no offset moves; and with @garbage, the 8 bytes after the CPU table
 * (its page padding) made a size far beyond the file.  Return: the copy.
 */
static void clock_copy(char tmp[64], bool garbage)
{
	static const char opts[] = "options  ";
	unsigned char *buf, *p;
	size_t size;
	int i;

	buf = v6_copy_read(tmp, &size);
	p = memmem(buf, size, opts, sizeof(opts));
	ck_assert_ptr_nonnull(p);
	p += sizeof(opts);	/* id (2), size (4), data: little-endian */
	ck_assert(p + 10 < buf + size && p[0] == 8 && p[1] == 0 && p[2] == 4 && !p[3] && !p[4] &&
		  !p[5]);
	p[0] = 4;
	memcpy(p + 6, "[l]", 4);
	if (garbage) {
		p = v6_cpu_table(buf, size) + 16 * 4;	/* 4 CPUs: past the table */
		for (i = 0; i < 8; i++)
			p[i] = 0xa5;
	}
	v6_copy_write(tmp, buf, size);
	free(buf);
}

/*
 * A v6 file with the TRACECLOCK option whose CPU table is not followed by
 * the trace_clock text (schedreplay record wrote none before; the page
 * padding then reads as its size, and a table ending under 8 bytes before
 * the data reads part of the first page as one): libtracecmd reads such a
 * file with the local clock ("trace_clock bug"), and so does the reader,
 * every event of it, not "truncated trace clock".
 */
START_TEST(test_clock_text_missing)
{
	struct run *r = malloc(sizeof(*r)), *want = malloc(sizeof(*want));
	char tmp[64];

	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(want);
	clock_copy(tmp, false);
	run_file(tmp, NULL, UINT64_MAX, want, false);
	unlink(tmp);
	ck_assert_msg(want->ret == 0, "%s", want->err.msg);
	ck_assert_str_eq(want->info.clock, "l");	/* the option's, the text being empty */
	clock_copy(tmp, true);
	run_file(tmp, NULL, UINT64_MAX, r, false);
	unlink(tmp);
	ck_assert_msg(r->ret == 0, "%s", r->err.msg);
	ck_assert_uint_gt(r->n, 0);
	ck_assert_uint_eq(r->n, want->n);
	ck_assert_uint_eq(r->hash, want->hash);
	ck_assert_str_eq(r->info.clock, "l");
	free(r);
	free(want);
}
END_TEST

/*
 * A corrupt size in the middle of a v6 CPU table: CPU 1's data made to
 * run one page into CPU 2's.  That is a clear error naming CPU 1's table
 * entry, not damage read around.
 */
START_TEST(test_cpu_overlap)
{
	unsigned char *buf;
	unsigned char *p;
	struct run *r = malloc(sizeof(*r));
	char tmp[64];
	char where[48];
	uint64_t off1 = 0, off2 = 0, size1;
	size_t size;
	int i;

	ck_assert_ptr_nonnull(r);
	buf = v6_copy_read(tmp, &size);
	p = v6_cpu_table(buf, size);	/* little-endian */
	for (i = 7; i >= 0; i--) {
		off1 = off1 << 8 | p[16 + i];
		off2 = off2 << 8 | p[32 + i];
	}
	ck_assert_uint_gt(off2, off1);
	size1 = off2 - off1 + 4096;
	for (i = 0; i < 8; i++)
		p[24 + i] = (unsigned char)(size1 >> (8 * i));
	v6_copy_write(tmp, buf, size);

	run_file(tmp, NULL, UINT64_MAX, r, true);
	ck_assert_int_eq(r->ret, -SR_EBADTRACE);
	ck_assert_msg(strstr(r->err.msg, "cpu 1 data") && strstr(r->err.msg, "overlaps cpu 2"),
		      "%s", r->err.msg);
	snprintf(where, sizeof(where), "byte %ld", (long)(p + 16 - buf));
	ck_assert_str_eq(r->err.where, where);
	unlink(tmp);
	free(buf);
	free(r);
}
END_TEST

/* the zlib side of dat-unz.c: exact size or a clear refusal, never a bigger buffer */
START_TEST(test_unz_zlib)
{
	struct dat_unz z;
	unsigned char plain[20000];
	unsigned char packed[21000];
	uLongf zsize = sizeof(packed);
	const char *why = NULL;
	unsigned char *in;
	size_t i;

	for (i = 0; i < sizeof(plain); i++)
		plain[i] = (unsigned char)(i * 7 / 13);
	ck_assert_int_eq(compress2(packed, &zsize, plain, sizeof(plain), 9), Z_OK);
	ck_assert_int_eq(dat_unz_init(&z, "lz4"), -SR_EUNSUPPORTED);
	dat_unz_release(&z);
	ck_assert_int_eq(dat_unz_init(&z, "zlib"), 0);
	in = dat_unz_input(&z, zsize);
	ck_assert_ptr_nonnull(in);
	memcpy(in, packed, zsize);
	ck_assert_int_eq(dat_unz_block(&z, zsize, sizeof(plain), &why), 0);
	ck_assert_mem_eq(z.out, plain, sizeof(plain));
	/* declared too small, too large, larger than deflate can hold, zero */
	ck_assert_int_eq(dat_unz_block(&z, zsize, sizeof(plain) - 1, &why), -SR_EBADTRACE);
	ck_assert_int_eq(dat_unz_block(&z, zsize, sizeof(plain) + 1, &why), -SR_EBADTRACE);
	ck_assert_str_eq(why, "decompresses to fewer bytes than declared");
	ck_assert_int_eq(dat_unz_block(&z, 10, 1u << 20, &why), -SR_EBADTRACE);
	ck_assert_str_eq(why, "declared size larger than zlib data can hold");
	ck_assert_int_eq(dat_unz_block(&z, zsize, 0, &why), -SR_EBADTRACE);
	ck_assert_ptr_null(dat_unz_input(&z, DAT_UNZ_MAX_BLOCK + 1));
	/* a flipped byte, a cut block, trailing bytes */
	in[zsize / 2] ^= 0x10;
	ck_assert_int_eq(dat_unz_block(&z, zsize, sizeof(plain), &why), -SR_EBADTRACE);
	in[zsize / 2] ^= 0x10;
	ck_assert_int_eq(dat_unz_block(&z, zsize - 3, sizeof(plain), &why), -SR_EBADTRACE);
	in = dat_unz_input(&z, zsize + 4);
	memset(in + zsize, 0xab, 4);
	ck_assert_int_eq(dat_unz_block(&z, zsize + 4, sizeof(plain), &why), -SR_EBADTRACE);
	dat_unz_release(&z);
}
END_TEST

/*
 * A format whose common_type the decoder cannot read itself (8 bytes) is
 * read through libtraceevent, which fills in its handle on first use: on
 * one thread only, then, whatever --threads says.
 */
START_TEST(test_common_by_libtraceevent)
{
	static const char from[] = "common_type;\toffset:0;\tsize:2;";
	static const char to[] = "common_type;\toffset:0;\tsize:8;";
	struct ingest_opts o = { .threads = 2 };
	char tmp[] = "/tmp/check-ingest-dat-XXXXXX";
	struct err err = { 0 };
	struct sr_event ev;
	struct ingest *in;
	size_t size;
	char *buf, *p;
	int fd, n = 0;

	buf = (char *)file_read(SR_FIXTURE("dat/numa02-head-v6.dat"), &size);
	for (p = buf; (p = memmem(p, buf + size - p, from, sizeof(from) - 1)); n++)
		memcpy(p, to, sizeof(to) - 1);
	ck_assert_int_gt(n, 10);	/* every event's format */
	fd = mkstemp(tmp);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, size), (ssize_t)size);
	close(fd);
	free(buf);

	in = ingest_open(SR_FIXTURE("dat/numa02-head-v6.dat"), &o, &err);
	ck_assert_ptr_nonnull(in);
	ck_assert_int_gt(dat_mt_batch(in), 0);		/* the original: threads */
	ingest_close(in);
	in = ingest_open(tmp, &o, &err);
	ck_assert_ptr_nonnull(in);
	ck_assert_str_eq(ingest_info(in)->reader, "fast");
	ck_assert_int_eq(dat_mt_batch(in), 0);		/* one thread */
	while (ingest_next(in, &ev) > 0)
		;
	ingest_close(in);
	unlink(tmp);
}
END_TEST

START_TEST(test_bad_headers)
{
	static const unsigned char v8[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g',
					    '8', 0, 0, 8, 0, 0x10, 0, 0 };
	char tmp[] = "/tmp/check-ingest-dat-XXXXXX";
	struct err err = { 0 };
	int fd;

	fd = mkstemp(tmp);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, v8, sizeof(v8)), sizeof(v8));
	close(fd);
	ck_assert_ptr_null(ingest_open(tmp, NULL, &err));
	ck_assert_int_eq(err.code, -SR_EUNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.file, "check-ingest-dat"));
	unlink(tmp);
}
END_TEST

static Suite *ingest_dat_suite(void)
{
	Suite *s = suite_create("ingest-dat");
	TCase *tc = tcase_create("dat");

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, test_counts, 0, sizeof(traces) / sizeof(traces[0]));
	tcase_add_test(tc, test_fields);
	tcase_add_loop_test(tc, test_next_borrowed, 0, 5);
	tcase_add_test(tc, test_batch_size);
	tcase_add_test(tc, test_workers_block_signals_named);
	tcase_add_test(tc, test_versions);
	tcase_add_test(tc, test_buffers);
	tcase_add_test(tc, test_lost);
	tcase_add_loop_test(tc, test_truncated, 0, 3);
	tcase_add_loop_test(tc, test_corrupt, 0, 6);
	tcase_add_test(tc, test_zstd_reproducers);
	tcase_add_loop_test(tc, test_pieces, 0, 3);
	tcase_add_test(tc, test_pieces_rechunked);
	tcase_add_loop_test(tc, test_rewind, 0, 4);
	tcase_add_loop_test(tc, test_rewind_keeps_header, 0, 3);
	tcase_add_test(tc, test_unz_zlib);
	tcase_add_test(tc, test_cpu_overlap);
	tcase_add_test(tc, test_clock_text_missing);
	tcase_add_test(tc, test_bad_headers);
	tcase_add_test(tc, test_common_by_libtraceevent);
	suite_add_tcase(s, tc);

	tc = tcase_create("flip");
	tcase_set_timeout(tc, 1800);
	tcase_add_loop_test(tc, test_flip_every_byte, 0, 1);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(ingest_dat_suite)
