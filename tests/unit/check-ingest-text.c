// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-ingest-text.c - the text decoders (src/ingest/text*.c) through the
 * public ingest API.
 *
 * Real input: `trace-cmd report` of every capture folder in fixtures/
 * (run here, into a temp file; skipped with a message when trace-cmd is not
 * installed) held to the folder's event-counts.txt, the raw (-R) and plugin
 * renderings of one trace held to each other field by field, and the
 * committed fixtures in fixtures/text/ held to their awk counts.  Then
 * hand-written lines for the edge cases: hostile comms, garbage, lost
 * events, CPU range, timestamp precision, long lines and NULs, detection.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check-common.h"
#include "ingest/ingest.h"
#include "ingest/ingest-local.h"

#define MAX_NAMES 64

struct counts {
	int		n;
	char		name[MAX_NAMES][64];
	unsigned long	count[MAX_NAMES];
};

static void counts_add(struct counts *c, const char *name, unsigned long k)
{
	int i;

	for (i = 0; i < c->n; i++) {
		if (!strcmp(c->name[i], name)) {
			c->count[i] += k;
			return;
		}
	}
	ck_assert_int_lt(c->n, MAX_NAMES);
	snprintf(c->name[c->n], sizeof(c->name[0]), "%s", name);
	c->count[c->n++] = k;
}

static unsigned long counts_get(const struct counts *c, const char *name)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->name[i], name))
			return c->count[i];
	return 0;
}

/* every name in @a has the same count in @b and the other way round */
static void counts_equal(const struct counts *a, const struct counts *b, const char *what)
{
	int i;

	for (i = 0; i < a->n; i++)
		ck_assert_msg(counts_get(b, a->name[i]) == a->count[i], "%s: %s %lu vs %lu", what,
			      a->name[i], a->count[i], counts_get(b, a->name[i]));
	for (i = 0; i < b->n; i++)
		ck_assert_msg(counts_get(a, b->name[i]) == b->count[i], "%s: %s", what, b->name[i]);
}

/* "# events by name" block of a capture folder's event-counts.txt */
static void load_event_counts(const char *path, struct counts *c)
{
	char line[512];
	char name[128];
	unsigned long k;
	bool in_block = false;
	FILE *f = fopen(path, "r");

	ck_assert_msg(f != NULL, "cannot open %s", path);
	memset(c, 0, sizeof(*c));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "# events by name", 16)) {
			in_block = true;
			continue;
		}
		if (line[0] == '#')
			in_block = false;
		if (in_block && sscanf(line, "%lu %127s", &k, name) == 2)
			counts_add(c, name, k);
	}
	fclose(f);
	ck_assert_int_gt(c->n, 3);
}

/* "name count" lines (the fixtures' .counts files, made by awk) */
static void load_awk_counts(const char *path, struct counts *c)
{
	char name[128];
	unsigned long k;
	FILE *f = fopen(path, "r");

	ck_assert_msg(f != NULL, "cannot open %s", path);
	memset(c, 0, sizeof(*c));
	while (fscanf(f, "%127s %lu", name, &k) == 2)
		counts_add(c, strcmp(name, "tracing_mark_write") ? name : "print", k);
	fclose(f);
}

struct run {
	struct counts		counts;
	struct ingest_info	info;
	unsigned long		kinds[SR_EV__COUNT];
	unsigned long		marks[SR_MARK_NUMA_SAMPLE + 1];
	unsigned long		warnings;
	int			ret;
	struct err		err;
};

static void count_warn(void *arg, const struct err *e)
{
	struct run *r = arg;

	ck_assert_int_ne(e->code, 0);
	ck_assert(strstr(e->where, "line ") == e->where);
	r->warnings++;
}

/* read the whole file; @r gets counts by name and kind and the final info */
static void run_file(const char *path, enum ingest_format fmt, struct run *r)
{
	struct ingest_opts o = { .format = fmt, .warn = count_warn, .warn_arg = r };
	struct err err = { 0 };
	struct sr_event ev;
	struct ingest *in;
	double last = 0;

	memset(r, 0, sizeof(*r));
	in = ingest_open(path, &o, &err);
	ck_assert_msg(in != NULL, "%s: %s", path, err.msg);
	while ((r->ret = ingest_next(in, &ev)) > 0) {
		double prog = ingest_progress(in);

		ck_assert(ev.name != NULL && ev.system != NULL);
		ck_assert(prog >= last && prog <= 1.0);
		last = prog;
		counts_add(&r->counts, ev.name, 1);
		r->kinds[ev.kind]++;
		if (ev.kind == SR_EV_PRINT)
			r->marks[ev.marker]++;
	}
	ck_assert(ingest_progress(in) == 1.0);
	r->info = *ingest_info(in);
	r->info.lost_per_cpu = NULL;
	r->info.lost_records_per_cpu = NULL;
	r->err = *ingest_err(in);
	ingest_close(in);
}

static bool have_trace_cmd(void)
{
	if (system("command -v trace-cmd >/dev/null 2>&1") == 0)
		return true;
	fprintf(stderr, "SKIP: trace-cmd is not installed; trace.dat -> report tests not run\n");
	return false;
}

/* trace-cmd report [extra] -i @dat > temp file; returns the temp path */
static char *report_of(const char *dat, const char *extra)
{
	char cmd[2048];
	char *path = strdup("/tmp/check-ingest-text-XXXXXX");
	int fd;

	ck_assert(path != NULL);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "trace-cmd report %s -i '%s' > '%s' 2>/dev/null", extra, dat,
		 path);
	ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
	return path;
}

static const char *const folders[] = {
	"numa01-4n", "numa01-shm-4n", "numa02-2n", "mixed-2n", "host-baseline-1n",
};

/* trace-cmd report of each capture folder gives event-counts.txt's counts */
START_TEST(test_capture_counts)
{
	struct counts want;
	char path[1024];
	char *rep;
	struct run *r = calloc(1, sizeof(*r));

	ck_assert(r != NULL);
	if (!have_trace_cmd()) {
		free(r);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s/event-counts.txt", SR_FIXTURES_DIR, folders[_i]);
	load_event_counts(path, &want);
	snprintf(path, sizeof(path), "%s/%s/trace.dat", SR_FIXTURES_DIR, folders[_i]);
	rep = report_of(path, "");
	run_file(rep, INGEST_FMT_AUTO, r);
	unlink(rep);
	free(rep);
	ck_assert_int_eq(r->ret, 0);
	ck_assert_int_eq(r->info.format, INGEST_FMT_REPORT);
	ck_assert_int_eq(r->info.bad_lines, 0);
	ck_assert_int_eq(r->info.unordered, 0);
	ck_assert_int_eq(r->info.bad_markers, 0);
	counts_equal(&want, &r->counts, folders[_i]);
	/* every print line in these traces is one of ours */
	ck_assert_int_eq(r->marks[SR_MARK_NONE], 0);
	ck_assert_int_eq(r->kinds[SR_EV_PRINT], counts_get(&want, "print"));
	ck_assert_int_eq(r->kinds[SR_EV_NUMA_FAULT], counts_get(&want, "numa_fault"));
	ck_assert_int_eq(r->kinds[SR_EV_OTHER], 0);
	free(r);
}
END_TEST

static void same_event(const struct sr_event *a, const struct sr_event *b)
{
	ck_assert_int_eq(a->kind, b->kind);
	ck_assert(a->ts_ns == b->ts_ns);
	ck_assert_int_eq(a->cpu, b->cpu);
	ck_assert_int_eq(a->pid, b->pid);
	ck_assert_str_eq(a->name, b->name);
	ck_assert_int_eq(a->marker, b->marker);
	if (a->str || b->str) {
		ck_assert(a->str && b->str);
		ck_assert_int_eq(a->str_len, b->str_len);
		ck_assert(!memcmp(a->str, b->str, a->str_len));
	}
	switch (a->kind) {
	case SR_EV_SWITCH:
		ck_assert_str_eq(a->u.sw.prev_comm, b->u.sw.prev_comm);
		ck_assert_str_eq(a->u.sw.next_comm, b->u.sw.next_comm);
		ck_assert_int_eq(a->u.sw.prev_pid, b->u.sw.prev_pid);
		ck_assert_int_eq(a->u.sw.next_pid, b->u.sw.next_pid);
		ck_assert_int_eq(a->u.sw.prev_prio, b->u.sw.prev_prio);
		ck_assert_int_eq(a->u.sw.next_prio, b->u.sw.next_prio);
		/* trace-cmd's plugin prints preempted (0x100) as plain "R" */
		ck_assert_int_eq(a->u.sw.prev_state, b->u.sw.prev_state & ~0x100L);
		break;
	case SR_EV_FORK:
		ck_assert_str_eq(a->u.fork.parent_comm, b->u.fork.parent_comm);
		ck_assert_str_eq(a->u.fork.child_comm, b->u.fork.child_comm);
		ck_assert_int_eq(a->u.fork.child_pid, b->u.fork.child_pid);
		ck_assert_int_eq(a->u.fork.parent_pid, b->u.fork.parent_pid);
		break;
	case SR_EV_NUMA_FAULT:
		ck_assert(!memcmp(&a->u.fault, &b->u.fault, sizeof(a->u.fault)));
		break;
	case SR_EV_MIGRATE_PAGES:
		ck_assert(!memcmp(&a->u.pages, &b->u.pages, sizeof(a->u.pages)));
		break;
	default:
		/* the other kinds hold only ints and comms: compare it all */
		ck_assert_msg(!memcmp(&a->u, &b->u, sizeof(a->u)), "%s at line %llu",
			      a->name, (unsigned long long)a->src_pos);
	}
}

/* the plugin rendering and the raw (-R) rendering give the same events */
START_TEST(test_raw_matches_plugin)
{
	struct err err = { 0 };
	struct sr_event a;
	struct sr_event b;
	struct ingest *ia;
	struct ingest *ib;
	char path[1024];
	char *ra;
	char *rb;
	unsigned long n = 0;
	unsigned long pages_numa = 0;
	int x;
	int y;

	if (!have_trace_cmd())
		return;
	snprintf(path, sizeof(path), "%s/numa02-2n/trace.dat", SR_FIXTURES_DIR);
	ra = report_of(path, "");
	rb = report_of(path, "-R");
	ia = ingest_open(ra, NULL, &err);
	ck_assert(ia != NULL);
	ib = ingest_open(rb, NULL, &err);
	ck_assert(ib != NULL);
	for (;;) {
		memset(&a, 0xa5, sizeof(a));	/* padding differences would fail memcmp */
		memset(&b, 0xa5, sizeof(b));
		x = ingest_next(ia, &a);
		y = ingest_next(ib, &b);
		ck_assert_int_eq(x, y);
		if (x <= 0)
			break;
		same_event(&a, &b);
		if (a.kind == SR_EV_MIGRATE_PAGES && a.u.pages.numa_misplaced)
			pages_numa++;
		n++;
	}
	ck_assert_int_eq(x, 0);
	ck_assert_int_gt(n, 10000);
	ck_assert_int_gt(pages_numa, 0);
	ck_assert_int_eq(ingest_info(ia)->bad_lines, 0);
	ck_assert_int_eq(ingest_info(ib)->bad_lines, 0);
	ingest_close(ia);
	ingest_close(ib);
	unlink(ra);
	unlink(rb);
	free(ra);
	free(rb);
}
END_TEST

/* the committed trace-cmd report fixture, no trace-cmd needed */
START_TEST(test_fixture_report)
{
	struct counts want;
	struct err err = { 0 };
	struct sr_event ev;
	struct ingest *in;
	struct run *r = calloc(1, sizeof(*r));

	ck_assert(r != NULL);
	load_event_counts(SR_FIXTURE("host-baseline-1n/event-counts.txt"), &want);
	run_file(SR_FIXTURE("text/host-baseline-1n.report.txt"), INGEST_FMT_AUTO, r);
	ck_assert_int_eq(r->ret, 0);
	ck_assert_int_eq(r->info.format, INGEST_FMT_REPORT);
	ck_assert_int_eq(r->info.nr_cpus, 2);
	ck_assert_int_eq(r->info.bad_lines, 0);
	ck_assert_int_eq(r->info.skipped_lines, 1);	/* cpus=2 */
	ck_assert(r->info.first_ts_ns == 4319369626000ull);	/* event-counts.txt: first= */
	ck_assert(r->info.last_ts_ns == 4330989336000ull);
	counts_equal(&want, &r->counts, "host-baseline-1n.report.txt");
	ck_assert_int_eq(r->marks[SR_MARK_NUMA_SAMPLE], 216);	/* event-counts.txt */
	ck_assert_int_eq(r->marks[SR_MARK_META], 1);
	ck_assert_int_eq(r->marks[SR_MARK_VMSTAT], 2);
	free(r);

	/* the first lines, field by field (with the "numalab:" prefix) */
	in = ingest_open(SR_FIXTURE("text/host-baseline-1n.report.txt"), NULL, &err);
	ck_assert(in != NULL);
	ck_assert_int_eq(ingest_info(in)->nr_cpus, 2);	/* known at open */
	ck_assert_int_eq(ingest_next(in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_FORK);
	ck_assert_int_eq(ev.src_pos, 2);
	ck_assert_int_eq(ev.cpu, 1);
	ck_assert_int_eq(ev.pid, 8125);
	ck_assert_str_eq(ev.system, "");
	ck_assert_str_eq(ev.u.fork.parent_comm, "host-baseline.s");
	ck_assert_int_eq(ev.u.fork.child_pid, 8153);
	ck_assert_int_eq(ingest_next(in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_WAKEUP_NEW);
	ck_assert_str_eq(ev.u.wake.comm, "host-baseline.s");
	ck_assert_int_eq(ev.u.wake.pid, 8153);
	ck_assert_int_eq(ev.u.wake.prio, 120);
	ck_assert_int_eq(ev.u.wake.target_cpu, 1);
	ck_assert_int_eq(ingest_next(in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_SWITCH);
	ck_assert(ev.ts_ns == 4319370212000ull);
	ck_assert_int_eq(ev.u.sw.prev_state, 1);	/* S */
	ck_assert_int_eq(ev.u.sw.next_pid, 8153);
	ingest_close(in);
}
END_TEST

START_TEST(test_fixture_tracefs)
{
	struct counts want;
	struct err err = { 0 };
	struct sr_event ev;
	struct ingest *in;
	struct run *r = calloc(1, sizeof(*r));
	bool seen_preempt = false;
	bool seen_exec = false;

	ck_assert(r != NULL);
	load_awk_counts(SR_FIXTURE("text/tracefs-host.counts"), &want);
	run_file(SR_FIXTURE("text/tracefs-host.txt"), INGEST_FMT_AUTO, r);
	ck_assert_int_eq(r->ret, 0);
	ck_assert_int_eq(r->info.format, INGEST_FMT_TRACEFS);
	ck_assert_int_eq(r->info.nr_cpus, 2);		/* "#P:2" */
	ck_assert_int_eq(r->info.bad_lines, 0);
	ck_assert_int_eq(r->info.skipped_lines, 12);	/* the "#" header */
	counts_equal(&want, &r->counts, "tracefs-host.txt");
	ck_assert_int_eq(r->marks[SR_MARK_META], 1);
	ck_assert_int_eq(r->marks[SR_MARK_NODE], 1);
	ck_assert_int_eq(r->marks[SR_MARK_NUMA_SAMPLE], 3);
	free(r);

	in = ingest_open(SR_FIXTURE("text/tracefs-host.txt"), NULL, &err);
	ck_assert(in != NULL);
	while (ingest_next(in, &ev) > 0) {
		if (ev.src_pos == 15) {
			ck_assert_int_eq(ev.kind, SR_EV_SWITCH);
			ck_assert_str_eq(ev.u.sw.prev_comm, "make-tracefs-sa");
			ck_assert_int_eq(ev.u.sw.prev_pid, 5985);
			ck_assert_int_eq(ev.u.sw.prev_state, 1);
			ck_assert_int_eq(ev.u.sw.next_pid, 5988);
			ck_assert_int_eq(ev.u.sw.next_prio, 120);
			ck_assert(ev.ts_ns == 336911091000ull);
		}
		if (ev.kind == SR_EV_SWITCH && ev.u.sw.prev_state == 0x100)
			seen_preempt = true;		/* "R+" */
		if (ev.kind == SR_EV_EXEC && ev.str && ev.str_len &&
		    ev.str[0] == '/' && ev.u.exec.pid > 0)
			seen_exec = true;
		if (ev.kind == SR_EV_PRINT)
			ck_assert_str_eq(ev.name, "print");
	}
	ck_assert(seen_preempt);
	ck_assert(seen_exec);
	ingest_close(in);
}
END_TEST

START_TEST(test_fixture_perf)
{
	struct counts want;
	struct err err = { 0 };
	struct sr_event ev;
	struct ingest *in;
	struct run *r = calloc(1, sizeof(*r));

	ck_assert(r != NULL);
	load_awk_counts(SR_FIXTURE("text/perf-host.counts"), &want);
	run_file(SR_FIXTURE("text/perf-host.txt"), INGEST_FMT_AUTO, r);
	ck_assert_int_eq(r->ret, 0);
	ck_assert_int_eq(r->info.format, INGEST_FMT_PERF);
	ck_assert_int_eq(r->info.bad_lines, 0);
	counts_equal(&want, &r->counts, "perf-host.txt");
	free(r);

	in = ingest_open(SR_FIXTURE("text/perf-host.txt"), NULL, &err);
	ck_assert(in != NULL);
	ck_assert_int_eq(ingest_next(in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_WAKING);
	ck_assert_str_eq(ev.system, "sched");
	ck_assert_str_eq(ev.name, "sched_waking");
	ck_assert_int_eq(ev.pid, 6058);
	ck_assert(ev.ts_ns == 342128877000ull);
	ck_assert_str_eq(ev.u.wake.comm, "migration/0");
	ck_assert_int_eq(ev.u.wake.prio, 0);
	ck_assert_int_eq(ev.u.wake.target_cpu, 0);
	ck_assert_int_eq(ingest_next(in, &ev), 1);
	ck_assert_int_eq(ingest_next(in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_SWITCH);
	ck_assert_int_eq(ev.u.sw.prev_state, 2);	/* D */
	ck_assert_int_eq(ingest_next(in, &ev), 1);
	ck_assert_str_eq(ev.name, "sched_waking");
	ck_assert_int_eq(ev.pid, 18);			/* "migration/0    18" */
	ingest_close(in);
}
END_TEST

/* ---- hand-written lines ---- */

static char *write_tmp(const char *text, size_t len)
{
	char *path = strdup("/tmp/check-ingest-text-XXXXXX");
	FILE *f;
	int fd;

	ck_assert(path != NULL);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert(f != NULL);
	ck_assert_int_eq(fwrite(text, 1, len, f), len);
	fclose(f);
	return path;
}

struct doc {
	char		*path;
	struct ingest	*in;
	struct run	r;
};

static void doc_open(struct doc *d, const char *text, size_t len, enum ingest_format fmt,
		     bool strict)
{
	struct ingest_opts o = { .format = fmt, .strict = strict, .warn = count_warn };
	struct err err = { 0 };

	memset(d, 0, sizeof(*d));
	o.warn_arg = &d->r;
	d->path = write_tmp(text, len);
	d->in = ingest_open(d->path, &o, &err);
	ck_assert_msg(d->in != NULL, "%s", err.msg);
}

static void doc_close(struct doc *d)
{
	ingest_close(d->in);
	unlink(d->path);
	free(d->path);
}

#define S(s) s, sizeof(s) - 1

START_TEST(test_hostile_comms_report)
{
	static const char text[] =
		"cpus=4\n"
		"   a b [1] c: d-77    [001]   100.000001: sched_switch:         a b [1] c: d:77 [120] "
		"S ==> x ==> y:78 [100]\n"
		"  :[3] 9.9: -5     [002]   100.000002: sched_wakeup:         p:q:12 [120] success=1 CPU:003\n"
		"            a-1-2    [003]   100.000003: sched_wakeup_new:     [x] 1:3 [120] CPU:000\n";
	struct sr_event ev;
	struct doc d;

	doc_open(&d, S(text), INGEST_FMT_AUTO, true);
	ck_assert_int_eq(ingest_info(d.in)->format, INGEST_FMT_REPORT);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_SWITCH);
	ck_assert_int_eq(ev.pid, 77);
	ck_assert_int_eq(ev.cpu, 1);
	ck_assert_str_eq(ev.u.sw.prev_comm, "a b [1] c: d");
	ck_assert_int_eq(ev.u.sw.prev_pid, 77);
	ck_assert_int_eq(ev.u.sw.prev_state, 1);
	ck_assert_str_eq(ev.u.sw.next_comm, "x ==> y");
	ck_assert_int_eq(ev.u.sw.next_pid, 78);
	ck_assert_int_eq(ev.u.sw.next_prio, 100);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_WAKEUP);
	ck_assert_int_eq(ev.pid, 5);
	ck_assert_int_eq(ev.cpu, 2);
	ck_assert(ev.ts_ns == 100000002000ull);
	ck_assert_str_eq(ev.u.wake.comm, "p:q");
	ck_assert_int_eq(ev.u.wake.pid, 12);
	ck_assert_int_eq(ev.u.wake.target_cpu, 3);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.pid, 2);
	ck_assert_str_eq(ev.u.wake.comm, "[x] 1");
	ck_assert_int_eq(ev.u.wake.pid, 3);
	ck_assert_int_eq(ev.u.wake.target_cpu, 0);
	ck_assert_int_eq(ingest_next(d.in, &ev), 0);
	ck_assert_int_eq(ingest_info(d.in)->nr_cpus, 4);
	doc_close(&d);
}
END_TEST

START_TEST(test_hostile_comms_tracefs)
{
	static const char text[] =
		"# tracer: nop\n"
		"#\n"
		" we:ird [2] x-55      [000] d..2.     5.123456: sched_switch: prev_comm=we:ird [2] x "
		"prev_pid=55 prev_prio=120 prev_state=D|I ==> next_comm=a prev_pid=1 b next_pid=56 "
		"next_prio=120\n"
		"           <...>-56      [001] dN.4.     5.123457: sched_waking: comm=x=y pid=9 prio=0 "
		"target_cpu=001\n"
		"              sh-57      [001] .....     5.123458: sched_process_exec: filename=/tmp/a b "
		"pid=57 old_pid=57\n"
		"              sh-57      [001] ...1.     5.123459: tracing_mark_write: <faulted>\n"
		"              sh-57      [001] ...1.     5.123460: tracing_mark_write: numa_sample tid=x\n"
		"              sh-57      [001] .....     5.123461: sched_process_exit: comm=sh pid=57 prio=120 "
		"group_dead=1\n";
	struct sr_event ev;
	struct doc d;

	doc_open(&d, S(text), INGEST_FMT_AUTO, true);
	ck_assert_int_eq(ingest_info(d.in)->format, INGEST_FMT_TRACEFS);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.src_pos, 3);
	ck_assert_str_eq(ev.u.sw.prev_comm, "we:ird [2] x");
	ck_assert_int_eq(ev.u.sw.prev_pid, 55);
	ck_assert_int_eq(ev.u.sw.prev_state, 2 | 0x80);	/* kernel letters: I is 0x80 */
	ck_assert_str_eq(ev.u.sw.next_comm, "a prev_pid=1 b");
	ck_assert_int_eq(ev.u.sw.next_pid, 56);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_WAKING);
	ck_assert_int_eq(ev.pid, 56);
	ck_assert_str_eq(ev.u.wake.comm, "x=y");
	ck_assert_int_eq(ev.u.wake.target_cpu, 1);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_EXEC);
	ck_assert_int_eq(ev.str_len, 8);
	ck_assert(!memcmp(ev.str, "/tmp/a b", 8));
	ck_assert_int_eq(ev.u.exec.old_pid, 57);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_PRINT);
	ck_assert_int_eq(ev.marker, SR_MARK_NONE);
	ck_assert_int_eq(ev.str_len, 9);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.marker, SR_MARK_NONE);	/* looked like ours, did not parse */
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_EXIT);
	ck_assert_int_eq(ev.u.exit.prio, 120);
	ck_assert_int_eq(ingest_next(d.in, &ev), 0);
	ck_assert_int_eq(ingest_info(d.in)->bad_markers, 1);
	ck_assert_int_eq(ingest_info(d.in)->skipped_lines, 2);
	doc_close(&d);
}
END_TEST

START_TEST(test_hostile_comms_perf)
{
	static const char text[] =
		"   my comm  1234/1235 [003] 12.123456789: sched:sched_wakeup: comm=x y pid=5 prio=120 "
		"target_cpu=002\n"
		"         swapper     0 [000]    12.200000:   kprobes:numa_fault: (ffffffffa52f10d0) "
		"last_cpupid=2097151 mem_node=1 pages=512 flags=8\n"
		"            perf  6058 [001]    12.300000: sched:sched_stick_numa: src_pid=286 src_tgid=282 "
		"src_ngid=0 src_cpu=4 src_nid=2 dst_pid=0 dst_tgid=0 dst_ngid=0 dst_cpu=-1 dst_nid=-1\n"
		"            perf  6058 [001]    12.400000: foo:bar_baz: anything at all\n";
	struct sr_event ev;
	struct doc d;

	doc_open(&d, S(text), INGEST_FMT_AUTO, true);
	ck_assert_int_eq(ingest_info(d.in)->format, INGEST_FMT_PERF);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.pid, 1235);
	ck_assert_int_eq(ev.cpu, 3);
	ck_assert(ev.ts_ns == 12123456789ull);
	ck_assert_str_eq(ev.system, "sched");
	ck_assert_str_eq(ev.u.wake.comm, "x y");
	ck_assert_int_eq(ev.u.wake.target_cpu, 2);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_NUMA_FAULT);
	ck_assert_str_eq(ev.name, "numa_fault");
	ck_assert_str_eq(ev.system, "kprobes");
	ck_assert_int_eq(ev.u.fault.last_cpupid, 2097151);
	ck_assert_int_eq(ev.u.fault.mem_node, 1);
	ck_assert_int_eq(ev.u.fault.pages, 512);
	ck_assert_int_eq(ev.u.fault.flags, 8);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_STICK_NUMA);
	ck_assert_int_eq(ev.u.numa.src_pid, 286);
	ck_assert_int_eq(ev.u.numa.src_nid, 2);
	ck_assert_int_eq(ev.u.numa.dst_pid, 0);
	ck_assert_int_eq(ev.u.numa.dst_cpu, -1);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_OTHER);
	ck_assert_str_eq(ev.name, "bar_baz");
	ck_assert_str_eq(ev.system, "foo");
	ck_assert_int_eq(ingest_next(d.in, &ev), 0);
	doc_close(&d);
}
END_TEST

static const char garbage_text[] =
	"cpus=2\n"
	"          sh-1     [000]     1.000001: sched_process_exit:   comm=sh pid=1 prio=120\n"
	"this is not a trace line\n"
	"          sh-1     [000]     1.000002: sched_switch:         garbage\n"
	"\n"
	"          sh-1     [000]     1.000003: sched_migrate_task:   comm=sh pid=1 prio=120 orig_cpu=0 "
	"dest_cpu=1\n"
	"          sh-1     [000]     1.0000";		/* truncated last line */

START_TEST(test_garbage_lenient)
{
	struct sr_event ev;
	struct doc d;

	doc_open(&d, S(garbage_text), INGEST_FMT_AUTO, false);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_EXIT);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_MIGRATE);
	ck_assert_int_eq(ev.src_pos, 6);
	ck_assert_int_eq(ev.u.mig.dest_cpu, 1);
	ck_assert_int_eq(ingest_next(d.in, &ev), 0);
	ck_assert_int_eq(ingest_info(d.in)->bad_lines, 3);
	ck_assert_int_eq(ingest_info(d.in)->skipped_lines, 2);
	ck_assert_int_eq(ingest_info(d.in)->nr_events, 2);
	ck_assert_int_eq(d.r.warnings, 3);
	doc_close(&d);
}
END_TEST

START_TEST(test_garbage_strict)
{
	struct sr_event ev;
	struct doc d;

	doc_open(&d, S(garbage_text), INGEST_FMT_AUTO, true);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ingest_next(d.in, &ev), -SR_EBADTEXT);
	ck_assert_int_eq(ingest_err(d.in)->code, -SR_EBADTEXT);
	ck_assert_str_eq(ingest_err(d.in)->where, "line 3");
	ck_assert_str_eq(ingest_err(d.in)->file, d.path);
	doc_close(&d);
}
END_TEST

/*
 * A text trace read from a pipe as it comes cannot be read again:
 * ingest_rewind() says so (the session copies a pipe into memory first),
 * and the handle still closes cleanly.
 */
START_TEST(test_rewind_pipe)
{
	struct err err = { 0 };
	struct sr_event ev;
	struct ingest *in;
	char path[64];
	int fds[2];

	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(write(fds[1], garbage_text, sizeof(garbage_text) - 1),
			 (ssize_t)sizeof(garbage_text) - 1);
	close(fds[1]);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
	in = ingest_open(path, NULL, &err);
	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(ingest_next(in, &ev), 1);
	ck_assert_int_eq(ingest_rewind(in, NULL, &err), -SR_EUNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "cannot be read twice"));
	ck_assert_str_eq(err.file, path);
	ingest_close(in);
	close(fds[0]);
}
END_TEST

START_TEST(test_lost_events)
{
	static const char text[] =
		"CPU:1 [LOST 12 EVENTS]\n"
		"##### CPU 0 buffer started ####\n"
		"          sh-1     [000]     2.000000: sched_process_exit:   comm=sh pid=1 prio=120\n"
		"CPU:1 [LOST EVENTS]\n"
		"numalab: CPU:1 [3 EVENTS DROPPED]\n"
		"CPU:0 [EVENTS DROPPED]\n"
		"          sh-1     [001]     3.000000: sched_process_exit:   comm=sh pid=1 prio=120\n";
	const struct ingest_info *info;
	struct sr_event ev;
	struct doc d;
	int i;

	doc_open(&d, S(text), INGEST_FMT_REPORT, true);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_LOST);
	ck_assert_int_eq(ev.cpu, 1);
	ck_assert_int_eq(ev.u.lost.count, 12);
	ck_assert(ev.ts_ns == 2000000000ull);	/* the first event's time */
	ck_assert_int_eq(ev.src_pos, 1);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_LOST);
	ck_assert_int_eq(ev.cpu, 0);
	ck_assert_int_eq(ev.u.lost.count, -1);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_EXIT);
	ck_assert_int_eq(ev.src_pos, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(ingest_next(d.in, &ev), 1);
		ck_assert_int_eq(ev.kind, SR_EV_LOST);
		ck_assert(ev.ts_ns == 2000000000ull);	/* the last event's time */
	}
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_EXIT);
	ck_assert_int_eq(ingest_next(d.in, &ev), 0);
	info = ingest_info(d.in);
	ck_assert_int_eq(info->nr_events, 2);
	ck_assert_int_eq(info->lost_per_cpu[1], 15);
	ck_assert_int_eq(info->lost_records_per_cpu[1], 3);
	ck_assert_int_eq(info->lost_per_cpu[0], 0);
	ck_assert_int_eq(info->lost_records_per_cpu[0], 2);
	ck_assert_int_eq(info->bad_lines, 0);
	doc_close(&d);
}
END_TEST

START_TEST(test_lost_perf)
{
	static const char text[] =
		"            perf  6058 [001]    12.300000: sched:sched_process_exit: comm=sh pid=1 prio=120\n"
		"            perf  6058 [001]    12.300001: PERF_RECORD_LOST lost: 42\n";
	struct sr_event ev;
	struct doc d;

	doc_open(&d, S(text), INGEST_FMT_AUTO, true);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_LOST);
	ck_assert_int_eq(ev.cpu, 1);
	ck_assert_int_eq(ev.u.lost.count, 42);
	ck_assert_int_eq(ingest_next(d.in, &ev), 0);
	doc_close(&d);
}
END_TEST

START_TEST(test_cpu_out_of_range)
{
	static const char text[] =
		"          sh-1     [000]     1.000001: sched_process_exit:   comm=sh pid=1 prio=120\n"
		"          sh-1     [99999]     1.000002: sched_process_exit:   comm=sh pid=1 prio=120\n";
	struct sr_event ev;
	struct doc d;

	doc_open(&d, S(text), INGEST_FMT_AUTO, false);	/* an error even when lenient */
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ingest_next(d.in, &ev), -SR_ERANGE);
	ck_assert_str_eq(ingest_err(d.in)->where, "line 2");
	doc_close(&d);
}
END_TEST

START_TEST(test_cpus_header_out_of_range)
{
	static const char text[] = "cpus=99999\n";
	struct ingest_opts o = { .format = INGEST_FMT_REPORT };
	struct err err = { 0 };
	struct ingest *in;
	char *path = write_tmp(S(text));

	in = ingest_open(path, &o, &err);
	ck_assert(in == NULL);
	ck_assert_int_eq(err.code, -SR_ERANGE);
	unlink(path);
	free(path);
}
END_TEST

static const struct {
	const char	*ts;
	uint64_t	ns;
	bool		ok;
} ts_cases[] = {
	{ "1.5",			1500000000ull,		true },
	{ "7.554802",			7554802000ull,		true },
	{ "342.128877123",		342128877123ull,	true },
	{ "0.000000001",		1ull,			true },
	{ "18446744073.709551615",	UINT64_MAX,		true },
	{ "123456789",			123456789ull,		true },	/* counter clock */
	{ "18446744073.709551616",	0,			false },
	{ "99999999999999999999",	0,			false },
	{ "1.0000000001",		0,			false },
	{ "1.",				0,			false },
	{ ".5",				0,			false },
	{ "1.5x",			0,			false },
	{ "1..5",			0,			false },
};

START_TEST(test_timestamps)
{
	char text[256];
	struct sr_event ev;
	struct doc d;
	int n;

	n = snprintf(text, sizeof(text),
		     "          sh-1     [000]     %s: sched_process_exit:   comm=sh pid=1 prio=120\n",
		     ts_cases[_i].ts);
	doc_open(&d, text, n, INGEST_FMT_REPORT, false);
	if (ts_cases[_i].ok) {
		ck_assert_int_eq(ingest_next(d.in, &ev), 1);
		ck_assert_msg(ev.ts_ns == ts_cases[_i].ns, "%s", ts_cases[_i].ts);
	} else {
		ck_assert_int_eq(ingest_next(d.in, &ev), 0);
		ck_assert_int_eq(ingest_info(d.in)->bad_lines, 1);
	}
	doc_close(&d);
}
END_TEST

START_TEST(test_long_line_and_nul)
{
	static const char good[] =
		"          sh-1     [000]     1.000001: sched_process_exit:   comm=sh pid=1 prio=120\n";
	size_t n = 200000;
	char *text = malloc(n + 3 * sizeof(good));
	struct sr_event ev;
	struct doc d;
	size_t off = 0;

	ck_assert(text != NULL);
	memcpy(text, good, sizeof(good) - 1);
	off = sizeof(good) - 1;
	memset(text + off, 'x', n);	/* 200000 bytes without a newline */
	off += n;
	text[off++] = '\n';
	memcpy(text + off, good, sizeof(good) - 1);
	text[off + 12] = '\0';		/* a NUL inside an event line */
	off += sizeof(good) - 1;
	memcpy(text + off, good, sizeof(good) - 1);
	off += sizeof(good) - 1;
	doc_open(&d, text, off, INGEST_FMT_AUTO, false);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.src_pos, 4);
	ck_assert_int_eq(ingest_next(d.in, &ev), 0);
	ck_assert_int_eq(ingest_info(d.in)->bad_lines, 2);
	doc_close(&d);
	free(text);
}
END_TEST

/* a file that is one huge line, and one that is only a NUL-filled mess */
START_TEST(test_only_long_line)
{
	size_t n = 300000;
	char *text = malloc(n);
	struct sr_event ev;
	struct doc d;

	ck_assert(text != NULL);
	memset(text, '[', n);
	doc_open(&d, text, n, INGEST_FMT_TRACEFS, false);
	ck_assert_int_eq(ingest_next(d.in, &ev), 0);
	ck_assert_int_eq(ingest_info(d.in)->bad_lines, 1);
	doc_close(&d);
	memset(text, 0, 1000);
	doc_open(&d, text, 1000, INGEST_FMT_PERF, false);
	ck_assert_int_eq(ingest_next(d.in, &ev), 0);
	ck_assert_int_eq(ingest_info(d.in)->bad_lines, 1);
	doc_close(&d);
	free(text);
}
END_TEST

START_TEST(test_report_bodies)
{
	static const char text[] =
		"version = 6\n"
		"cpus=8\n"
		"      nb-shared1-283   [003]     9.290333: mm_migrate_pages:     nr_succeeded=1 nr_failed=2 "
		"nr_thp_succeeded=3 nr_thp_failed=4 nr_thp_split=5 mode=MIGRATE_SYNC reason=numa_misplaced\n"
		"      nb-shared1-283   [003]     9.290334: mm_migrate_pages:      succeeded=1 failed=0 "
		"thp_succeeded=0 thp_failed=0 thp_split=0 mode=0 reason=3\n"
		"           nb-w1-289   [005]    13.851384: sched_move_numa:      pid=289 tgid=283 ngid=290 "
		"src_cpu=5 src_nid=2 dst_cpu=2 dst_nid=1\n"
		"              sh-243   [002]     7.593077: print:                 ip=tracing_mark_write "
		"buf=schedreplay_meta release=6.1.0-57-amd64 machine=x86_64 nodes=4 cpus=8\n"
		"              sh-243   [002]     7.593078: print:                (nil): numa_sample tid=5 f=\n"
		"              sh-242   [000]     7.561795: sched_process_fork:    parent_comm=sh parent_pid=242 "
		"child_comm=s h child_pid=243\n"
		"      nb-shared0-282   [001]     8.348554: numa_fault:            __probe_ip=ffffffffa52f10d0 "
		"last_cpupid=-1 mem_node=0 pages=1 flags=8\n"
		"      nb-shared0-282   [001]     8.348555: my_probe:            last_cpupid=5 mem_node=0 "
		"pages=1 flags=x\n"
		"          <idle>-0     [001]     7.556469: sched_switch:         swapper/1:0 [120] R ==> "
		"rcu_preempt:16 [120]\n"
		"          <idle>-0     [001]     7.556470: sched_switch:         a:1 [120] Z|X ==> b:2 [120]\n";
	struct sr_event ev;
	struct doc d;

	doc_open(&d, S(text), INGEST_FMT_AUTO, false);
	ck_assert_int_eq(ingest_info(d.in)->nr_cpus, 8);
	ck_assert_int_eq(ingest_info(d.in)->skipped_lines, 2);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_MIGRATE_PAGES);
	ck_assert(ev.u.pages.succeeded == 1 && ev.u.pages.failed == 2 && ev.u.pages.thp_split == 5);
	ck_assert_int_eq(ev.u.pages.mode, 2);
	ck_assert_int_eq(ev.u.pages.reason, 5);
	ck_assert(ev.u.pages.numa_misplaced);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.u.pages.reason, 3);
	ck_assert(!ev.u.pages.numa_misplaced);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_MOVE_NUMA);
	ck_assert_int_eq(ev.u.numa.src_pid, 289);
	ck_assert_int_eq(ev.u.numa.src_ngid, 290);
	ck_assert_int_eq(ev.u.numa.dst_nid, 1);
	ck_assert_int_eq(ev.u.numa.dst_pid, -1);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_PRINT);
	ck_assert_int_eq(ev.marker, SR_MARK_META);
	ck_assert(!strncmp(ev.str, "schedreplay_meta release=", 25));
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.marker, SR_MARK_NUMA_SAMPLE);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_FORK);
	ck_assert_str_eq(ev.u.fork.child_comm, "s h");
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_NUMA_FAULT);
	ck_assert_int_eq(ev.u.fault.last_cpupid, -1);
	/* my_probe has the fields but flags=x: damage, skipped */
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.kind, SR_EV_SWITCH);
	ck_assert_int_eq(ev.u.sw.prev_state, 0);
	ck_assert_str_eq(ev.u.sw.prev_comm, "swapper/1");
	ck_assert_int_eq(ev.u.sw.next_pid, 16);
	ck_assert_int_eq(ingest_next(d.in, &ev), 1);
	ck_assert_int_eq(ev.u.sw.prev_state, 16 | 32);	/* trace-cmd's plugin letters */
	ck_assert_int_eq(ingest_next(d.in, &ev), 0);
	ck_assert_int_eq(ingest_info(d.in)->bad_lines, 1);
	doc_close(&d);
}
END_TEST

static const struct {
	const char		*head;
	enum ingest_format	fmt;
} detect_cases[] = {
	{ "# tracer: nop\n#\n", INGEST_FMT_TRACEFS },
	{ "          <idle>-0       [001] d..2.   336.9: sched_switch: prev_comm=a\n", INGEST_FMT_TRACEFS },
	{ "cpus=8\n       trace-cmd-238   [003]     7.554802: sched_switch:  x\n", INGEST_FMT_REPORT },
	{ "version = 6\n", INGEST_FMT_REPORT },
	{ "numalab:  host-baseline.s-8125  [001]  4319.369626: sched_process_fork: comm=x\n",
	  INGEST_FMT_REPORT },
	{ "            perf  6058 [000]   342.128877:       sched:sched_waking: comm=m\n", INGEST_FMT_PERF },
	{ "\n\n            perf  6058/6059 [000]   342.128877: sched_waking: comm=m\n", INGEST_FMT_PERF },
	{ "hello world\nthis is not a trace\n", INGEST_FMT_AUTO },
	{ "cpus=\n", INGEST_FMT_AUTO },
	{ "          sh-1     [000]     1.000001: sched_process_exit:", INGEST_FMT_AUTO }, /* no newline */
	{ "{\"json\": [1, 2]}\n", INGEST_FMT_AUTO },
	{ "", INGEST_FMT_AUTO },
};

START_TEST(test_detect)
{
	const char *h = detect_cases[_i].head;

	ck_assert_msg(ingest_detect_text(h, strlen(h)) == detect_cases[_i].fmt, "%s", h);
}
END_TEST

START_TEST(test_detect_binary)
{
	char buf[4096];
	unsigned int x = 12345;
	size_t i;

	for (i = 0; i < sizeof(buf); i++) {
		x = x * 1103515245 + 12345;
		buf[i] = (char)(x >> 16);
	}
	ck_assert_int_eq(ingest_detect_text(buf, sizeof(buf)), INGEST_FMT_AUTO);
	ck_assert_int_eq(ingest_detect_text(NULL, 0), INGEST_FMT_AUTO);
}
END_TEST

static Suite *ingest_text_suite(void)
{
	Suite *s = suite_create("ingest-text");
	TCase *real = tcase_create("real");
	TCase *hand = tcase_create("hand");

	tcase_set_timeout(real, 600);
	tcase_add_loop_test(real, test_capture_counts, 0, sizeof(folders) / sizeof(folders[0]));
	tcase_add_test(real, test_raw_matches_plugin);
	tcase_add_test(real, test_fixture_report);
	tcase_add_test(real, test_fixture_tracefs);
	tcase_add_test(real, test_fixture_perf);
	suite_add_tcase(s, real);

	tcase_set_timeout(hand, 30);
	tcase_add_test(hand, test_hostile_comms_report);
	tcase_add_test(hand, test_hostile_comms_tracefs);
	tcase_add_test(hand, test_hostile_comms_perf);
	tcase_add_test(hand, test_garbage_lenient);
	tcase_add_test(hand, test_garbage_strict);
	tcase_add_test(hand, test_rewind_pipe);
	tcase_add_test(hand, test_lost_events);
	tcase_add_test(hand, test_lost_perf);
	tcase_add_test(hand, test_cpu_out_of_range);
	tcase_add_test(hand, test_cpus_header_out_of_range);
	tcase_add_loop_test(hand, test_timestamps, 0, sizeof(ts_cases) / sizeof(ts_cases[0]));
	tcase_add_test(hand, test_long_line_and_nul);
	tcase_add_test(hand, test_only_long_line);
	tcase_add_test(hand, test_report_bodies);
	tcase_add_loop_test(hand, test_detect, 0, sizeof(detect_cases) / sizeof(detect_cases[0]));
	tcase_add_test(hand, test_detect_binary);
	suite_add_tcase(s, hand);
	return s;
}

SR_CHECK_MAIN(ingest_text_suite)
