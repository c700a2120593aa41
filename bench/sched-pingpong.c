// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sched-pingpong.c - a scheduler-heavy, multi-threaded workload in the
 * spirit of hackbench: PAIRS pairs of threads pass one byte back and forth
 * through two pipes ROUNDS times, so every round trip is two wake-ups and
 * two context switches.  Prints the elapsed time in seconds on stdout.
 *
 * Used by bench/record-overhead.sh (when `perf bench` is missing) and as
 * the recorded workload of tests/e2e/test-record-root.sh.
 *
 *	sched-pingpong [PAIRS [ROUNDS]]		(defaults 4 and 20000)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct pair {
	int		ping[2];
	int		pong[2];
	long		rounds;
	pthread_t	a;
	pthread_t	b;
};

static void *pinger(void *arg)
{
	struct pair *p = arg;
	char c = 'x';
	long i;

	for (i = 0; i < p->rounds; i++) {
		if (write(p->ping[1], &c, 1) != 1 || read(p->pong[0], &c, 1) != 1)
			break;
	}
	return NULL;
}

static void *ponger(void *arg)
{
	struct pair *p = arg;
	char c;
	long i;

	for (i = 0; i < p->rounds; i++) {
		if (read(p->ping[0], &c, 1) != 1 || write(p->pong[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int pairs = argc > 1 ? atoi(argv[1]) : 4;
	long rounds = argc > 2 ? atol(argv[2]) : 20000;
	struct timespec t0, t1;
	struct pair *p;
	int i;

	if (pairs < 1 || pairs > 1024 || rounds < 1) {
		fprintf(stderr, "usage: sched-pingpong [PAIRS (1..1024) [ROUNDS (>0)]]\n");
		return 2;
	}
	p = calloc(pairs, sizeof(*p));
	if (!p)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < pairs; i++) {
		p[i].rounds = rounds;
		if (pipe(p[i].ping) || pipe(p[i].pong) ||
		    pthread_create(&p[i].a, NULL, pinger, &p[i]) ||
		    pthread_create(&p[i].b, NULL, ponger, &p[i])) {
			perror("sched-pingpong");
			return 1;
		}
	}
	for (i = 0; i < pairs; i++) {
		pthread_join(p[i].a, NULL);
		pthread_join(p[i].b, NULL);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.3f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	free(p);
	return 0;
}
