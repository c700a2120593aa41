// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record-latency.c - the host's memory latency profile by a pinned pointer
 * chase from every node to every node (see record-latency.h for the
 * method).  Library code: it prints nothing; the only state it changes is
 * the calling thread's CPU affinity, which it restores.
 */
#include <errno.h>
#include <math.h>
#include <numa.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "record-latency.h"

#define LINE		64
#define MIN_LOADS	20000.0
#define MAX_BUFFER	(128u << 20)

/*
 * libnuma reports its failures through these two weak hooks, which by
 * default print to stderr; library code prints nothing, and every failure
 * here is seen through the return values, so they are silent.
 */
void numa_error(char *where)
{
	(void)where;
}

void numa_warn(int num, char *fmt, ...)
{
	(void)num;
	(void)fmt;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* xorshift64*: a fixed seed, so every run chases the same cycle */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/*
 * One cycle through every line of @buf: line i holds the address of line
 * p(i), p a random cyclic permutation (Sattolo), built in place as indices
 * first.
 */
static void build_cycle(char *buf, size_t lines)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	size_t i;

	for (i = 0; i < lines; i++)
		*(size_t *)(buf + i * LINE) = i;
	for (i = lines - 1; i > 0; i--) {
		size_t j = (size_t)(rnd(&seed) % i);	/* j < i: one cycle */
		size_t *a = (size_t *)(buf + i * LINE);
		size_t *b = (size_t *)(buf + j * LINE);
		size_t t = *a;

		*a = *b;
		*b = t;
	}
	for (i = 0; i < lines; i++) {
		size_t *a = (size_t *)(buf + i * LINE);

		*(char **)a = buf + *a * LINE;
	}
}

/* follow @n pointers from @p; each load's address is the previous value */
static void *chase(void *p, uint64_t n)
{
	void **q = p;

	while (n >= 8) {
		q = *q; q = *q; q = *q; q = *q;
		q = *q; q = *q; q = *q; q = *q;
		n -= 8;
	}
	while (n--)
		q = *q;
	return q;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static size_t buffer_size(void)
{
	long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
	size_t b = RECORD_LATENCY_MIN_BUFFER;

	if (llc > 0 && (size_t)llc * 4 > b)
		b = (size_t)llc * 4;
	if (b > MAX_BUFFER)
		b = MAX_BUFFER;
	return b;
}

void record_latency_free(struct record_latency *l)
{
	if (!l)
		return;
	free(l->ns);
	free(l->spread);
	free(l->loads);
	free(l);
}

static struct record_latency *latency_new(int n)
{
	struct record_latency *l = calloc(1, sizeof(*l));
	int i;

	if (!l)
		return NULL;
	l->nr_nodes = n;
	l->ns = calloc((size_t)n * n, sizeof(double));
	l->spread = calloc((size_t)n * n, sizeof(double));
	l->loads = calloc((size_t)n * n, sizeof(double));
	if (!l->ns || !l->spread || !l->loads) {
		record_latency_free(l);
		return NULL;
	}
	for (i = 0; i < n * n; i++)
		l->ns[i] = l->spread[i] = -1;
	return l;
}

/*
 * The CPUs of node @node this thread may run on (@allowed) into @set;
 * false when there are none.
 */
static bool node_cpus(struct record_latency *l, int node, const cpu_set_t *allowed,
		      cpu_set_t *set)
{
	struct bitmask *bm;
	unsigned int c;
	bool any = false;

	CPU_ZERO(set);
	if (!l->numa) {
		*set = *allowed;
		return CPU_COUNT(set) > 0;
	}
	bm = numa_allocate_cpumask();
	if (!bm)
		return false;
	if (numa_node_to_cpus(node, bm) == 0) {
		for (c = 0; c < bm->size && c < CPU_SETSIZE; c++) {
			if (numa_bitmask_isbitset(bm, c) && CPU_ISSET(c, allowed)) {
				CPU_SET(c, set);
				any = true;
			}
		}
	}
	numa_free_cpumask(bm);
	return any;
}

/* one pair: the chase from the CPUs in @cpus into @buf */
static int measure_pair(struct record_latency *l, int from, int to, const cpu_set_t *cpus,
			char *buf, double per_repeat_s)
{
	volatile uintptr_t sink;
	double t[RECORD_LATENCY_REPEATS];
	double t0, est, loads;
	void *p = buf;
	int r;
	int i = from * l->nr_nodes + to;

	if (sched_setaffinity(0, sizeof(*cpus), cpus) < 0)
		return -errno;
	p = chase(p, (uint64_t)MIN_LOADS);	/* warm up the CPU and the TLB */
	t0 = now_s();
	p = chase(p, (uint64_t)MIN_LOADS);
	est = (now_s() - t0) / MIN_LOADS;
	loads = floor(est > 0 ? per_repeat_s / est : MIN_LOADS);
	if (loads < MIN_LOADS)
		loads = MIN_LOADS;
	if (loads > 1e10)
		loads = 1e10;
	for (r = 0; r < l->repeats; r++) {
		t0 = now_s();
		p = chase(p, (uint64_t)loads);
		t[r] = (now_s() - t0) * 1e9 / loads;
	}
	sink = (uintptr_t)p;
	(void)sink;
	qsort(t, (size_t)l->repeats, sizeof(t[0]), cmp_double);
	l->ns[i] = t[l->repeats / 2];
	l->spread[i] = t[l->repeats - 1] - t[0];
	l->loads[i] = loads;
	return 0;
}

static char *buffer_on(struct record_latency *l, int node)
{
	char *b;

	if (l->numa) {
		b = numa_alloc_onnode(l->buffer_bytes, node);
	} else {
		b = mmap(NULL, l->buffer_bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (b == MAP_FAILED)
			b = NULL;
	}
	if (b)
		madvise(b, l->buffer_bytes, MADV_HUGEPAGE);	/* a hint: fewer TLB misses */
	return b;
}

static void buffer_free(struct record_latency *l, char *b)
{
	if (l->numa)
		numa_free(b, l->buffer_bytes);
	else
		munmap(b, l->buffer_bytes);
}

struct record_latency *record_latency_measure(double budget_s, struct err *e)
{
	struct record_latency *l;
	cpu_set_t saved, cpus;
	double start = now_s(), per_repeat;
	int n = 1, from, to, runnable = 0, ret = 0;
	bool numa = numa_available() >= 0;
	char *buf;

	if (!(budget_s > 0) || budget_s > RECORD_LATENCY_MAX_S) {
		err_set(e, -EINVAL, "latency budget %g s out of range (0 .. %g]", budget_s,
			RECORD_LATENCY_MAX_S);
		return NULL;
	}
	if (numa)
		n = numa_max_node() + 1;
	if (n < 1 || n > RECORD_LATENCY_MAX_NODES) {
		err_set(e, -ERANGE, "%d nodes: at most %d are measured", n,
			RECORD_LATENCY_MAX_NODES);
		return NULL;
	}
	if (sched_getaffinity(0, sizeof(saved), &saved) < 0) {
		err_set(e, -errno, "cannot read this thread's CPU affinity: %s", strerror(errno));
		return NULL;
	}
	l = latency_new(n);
	if (!l) {
		err_set(e, -ENOMEM, "out of memory");
		return NULL;
	}
	l->numa = numa;
	l->repeats = RECORD_LATENCY_REPEATS;
	l->buffer_bytes = buffer_size();
	for (from = 0; from < n; from++)
		if (node_cpus(l, from, &saved, &cpus))
			runnable++;
	if (!runnable) {
		err_set(e, -ENODEV, "no node has CPUs this thread may run on");
		goto fail;
	}
	per_repeat = budget_s / ((double)runnable * n * l->repeats);
	for (to = 0; to < n && !ret; to++) {
		if (numa && numa_node_size64(to, NULL) <= 0)
			continue;	/* no memory (or not online): not measured */
		buf = buffer_on(l, to);
		if (!buf)
			continue;	/* cannot place the buffer there: not measured */
		build_cycle(buf, l->buffer_bytes / LINE);
		for (from = 0; from < n && !ret; from++)
			if (node_cpus(l, from, &saved, &cpus))
				ret = measure_pair(l, from, to, &cpus, buf, per_repeat);
		buffer_free(l, buf);
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	if (ret) {
		err_set(e, ret, "cannot pin the chase to a node's CPUs: %s", strerror(-ret));
		goto fail;
	}
	l->seconds = now_s() - start;
	return l;
fail:
	record_latency_free(l);
	return NULL;
}
