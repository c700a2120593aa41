// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * numabench - small NUMA-sensitive workloads for the NUMA-balancing lab.
 * Written for the lab that recorded the capture folders in fixtures/
 * (modelled loosely on the *ideas* of the classic autonuma-benchmark tests,
 * no code taken from them); tests/lab/run-record-lab.sh builds it
 * statically into its guest and runs its "shared" mode under
 * `schedreplay record`.
 *
 * Modes:
 *   numabench shared  -p NPROC -t NTHR -m MB -s SEC [-S]
 *       "numa01-like": NPROC processes x NTHR threads; all threads of a
 *       process keep writing over the whole MB MiB area (each thread starts
 *       at its own offset and wraps) -> shared faults, task moves/swaps.
 *       Default: each process mmaps (MAP_PRIVATE) and first-touches its own
 *       area right after fork (keeps THPs; allocating before fork made the
 *       children COW-split every THP into 4K pages, a fault/TLB-IPI storm
 *       that crawls under TCG). -S: one MAP_SHARED shmem area, created and
 *       touched before fork, shared by all processes (mbind MPOL_BIND |
 *       MPOL_F_NUMA_BALANCING on all nodes, because NUMA balancing skips
 *       shmem VMAs whose policy lacks MPOL_F_MOF).
 *   numabench private -t NTHR -m MB_PER_THREAD -s SEC
 *       "numa02-like": one process; the main thread first-touches the whole
 *       area (so it starts on one node), then each thread hammers only its own
 *       private chunk (good case: balancer should converge to local).
 *   numabench spawner -i MS -s SEC
 *       fork+exec loop: alternately execs /bin/true and "numabench burst",
 *       so fork/exec placement shows up in the trace.
 *   numabench burst -m MB -d MS
 *       short-lived process: touch MB MiB for about MS milliseconds, exit.
 *
 * Build: gcc -static -O2 -pthread -o numabench numabench.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* one pass over [p, p+len): one 8-byte read-modify-write per 64-byte line,
 * starting at byte offset 'start' (64-byte aligned) and wrapping around, so
 * that threads sharing an area do not all fault on the same page at once */
static uint64_t pass(volatile uint64_t *p, size_t len, size_t start, uint64_t v)
{
	size_t n = len / sizeof(uint64_t);
	size_t s = (start / 64) * 8 % (n ? n : 1);
	for (size_t i = s; i < n; i += 8)
		p[i] += v;
	for (size_t i = 0; i < s; i += 8)
		p[i] += v;
	return p[0];
}

struct thr {
	volatile uint64_t *base;
	size_t len;
	size_t start;
	double end;
	int idx;
	long passes;
};

static void *worker(void *arg)
{
	struct thr *t = arg;
	char name[16];
	snprintf(name, sizeof name, "nb-w%d", t->idx);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	while (now_s() < t->end) {
		pass(t->base, t->len, t->start, (uint64_t)t->idx + 1);
		t->passes++;
	}
	return NULL;
}

static void run_threads(volatile uint64_t *base, size_t len_each, int nthr,
			int private_chunks, double end, const char *tag)
{
	pthread_t *tid = calloc(nthr, sizeof *tid);
	struct thr *t = calloc(nthr, sizeof *t);
	if (!tid || !t)
		die("calloc");
	for (int i = 0; i < nthr; i++) {
		t[i].base = private_chunks ?
			(volatile uint64_t *)((char *)base + (size_t)i * len_each) : base;
		t[i].len = len_each;
		/* shared area: spread the threads' starting points over it */
		t[i].start = private_chunks ? 0 : len_each / nthr * i;
		t[i].end = end;
		t[i].idx = i;
		if (pthread_create(&tid[i], NULL, worker, &t[i]))
			die("pthread_create");
	}
	long total = 0;
	for (int i = 0; i < nthr; i++) {
		pthread_join(tid[i], NULL);
		total += t[i].passes;
	}
	printf("%s pid=%d threads=%d passes_total=%ld per_thread=", tag,
	       getpid(), nthr, total);
	for (int i = 0; i < nthr; i++)
		printf("%s%ld", i ? "," : "", t[i].passes);
	printf("\n");
	fflush(stdout);
	free(tid);
	free(t);
}

#ifndef MPOL_BIND
#define MPOL_BIND 2
#endif
#ifndef MPOL_F_NUMA_BALANCING
#define MPOL_F_NUMA_BALANCING (1 << 13)
#endif

/*
 * shm=0: each child process mmaps + first-touches its own MAP_PRIVATE area.
 * shm=1: MAP_SHARED anon (shmem) area shared by all processes. shmem VMAs are
 *   skipped by NUMA balancing unless their policy has MPOL_F_MOF, so bind
 *   it to all nodes with MPOL_F_NUMA_BALANCING (kernel >= 5.12), which sets
 *   MOF/MORON: allocation stays local-first, hinting faults are enabled.
 */
static void *alloc_area(size_t len, int shm)
{
	void *area = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  (shm ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		die("mmap");
	if (shm) {
		unsigned long mask = ~0UL;
		if (syscall(SYS_mbind, area, len, MPOL_BIND | MPOL_F_NUMA_BALANCING,
			    &mask, 64, 0))
			perror("mbind(MPOL_BIND|MPOL_F_NUMA_BALANCING) (continuing)");
	}
	memset(area, 0, len); /* first touch */
	return area;
}

static int mode_shared(int nproc, int nthr, long mb, double secs, int shm)
{
	size_t len = (size_t)mb << 20;
	void *area = shm ? alloc_area(len, 1) : NULL;
	double end = now_s() + secs;
	for (int p = 0; p < nproc; p++) {
		pid_t c = fork();
		if (c < 0)
			die("fork");
		if (c == 0) {
			char name[32];
			snprintf(name, sizeof name, "nb-shared%d", p);
			prctl(PR_SET_NAME, name, 0, 0, 0);
			if (!shm)
				area = alloc_area(len, 0);
			run_threads(area, len, nthr, 0, end, name);
			_exit(0);
		}
	}
	if (area)
		munmap(area, len); /* parent keeps no reference */
	while (wait(NULL) > 0)
		;
	return 0;
}

static int mode_private(int nthr, long mb_each, double secs)
{
	size_t each = (size_t)mb_each << 20;
	size_t len = each * nthr;
	void *area = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		die("mmap private");
	prctl(PR_SET_NAME, "nb-private", 0, 0, 0);
	memset(area, 0, len); /* main thread first-touch: all on one node */
	run_threads(area, each, nthr, 1, now_s() + secs, "nb-private");
	return 0;
}

static int mode_burst(long mb, long ms)
{
	size_t len = (size_t)mb << 20;
	void *area = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		die("mmap burst");
	double end = now_s() + ms / 1000.0;
	do
		pass(area, len, 0, 1);
	while (now_s() < end);
	return 0;
}

static int mode_spawner(const char *self, long interval_ms, double secs)
{
	double end = now_s() + secs;
	long n = 0;
	prctl(PR_SET_NAME, "nb-spawner", 0, 0, 0);
	while (now_s() < end) {
		pid_t c = fork();
		if (c < 0)
			die("fork");
		if (c == 0) {
			if (n % 2 == 0) {
				execl("/bin/true", "true", (char *)NULL);
			} else {
				execl(self, "numabench", "burst", "-m", "8", "-d", "150",
				      (char *)NULL);
			}
			_exit(127);
		}
		waitpid(c, NULL, 0);
		n++;
		struct timespec ts = { interval_ms / 1000,
				       (interval_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
	}
	printf("nb-spawner pid=%d spawned=%ld\n", getpid(), n);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: numabench shared -p NPROC -t NTHR -m MB -s SEC [-S]\n"
		"       numabench private -t NTHR -m MB_PER_THREAD -s SEC\n"
		"       numabench spawner -i MS -s SEC\n"
		"       numabench burst -m MB -d MS\n");
	exit(2);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	const char *mode = argv[1];
	int nproc = 2, nthr = 4, shm = 0;
	long mb = 64, ms = 100, interval = 200;
	double secs = 30;
	int opt;
	optind = 2;
	while ((opt = getopt(argc, argv, "p:t:m:s:d:i:S")) != -1) {
		switch (opt) {
		case 'p': nproc = atoi(optarg); break;
		case 't': nthr = atoi(optarg); break;
		case 'm': mb = atol(optarg); break;
		case 's': secs = atof(optarg); break;
		case 'd': ms = atol(optarg); break;
		case 'i': interval = atol(optarg); break;
		case 'S': shm = 1; break;
		default: usage();
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "shared"))
		return mode_shared(nproc, nthr, mb, secs, shm);
	if (!strcmp(mode, "private"))
		return mode_private(nthr, mb, secs);
	if (!strcmp(mode, "spawner")) {
		static char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
		if (n <= 0)
			strcpy(self, "/bin/numabench");
		else
			self[n] = 0;
		return mode_spawner(self, interval, secs);
	}
	if (!strcmp(mode, "burst"))
		return mode_burst(mb, ms);
	usage();
	return 2;
}
