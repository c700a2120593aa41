// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thread-times.c - where a threaded run's time goes, thread by thread: the
 * CPU time each thread ran and the time it waited, runnable, for a CPU
 * (the first two fields of /proc/PID/task/TID/schedstat), summed by the
 * threads' names (schedreplay, sr-read, sr-judge).  For bench/threads.sh:
 * a two-thread replay is no faster than its busiest thread's run time, nor
 * than all its threads' CPU time shared over the cores, whatever the
 * threads do; these show which of the two holds it back.
 *
 * The threads are polled every -i milliseconds while the command runs, so
 * each figure misses at most that much of a thread's last moments.  On a
 * virtual machine, a time a vCPU is taken away by the host counts as run
 * time of the thread it was running.
 *
 * usage: thread-times [-n RUNS] [-i MS] COMMAND [ARGS...]
 *   prints one line a run and, for several, the median run's (by wall
 *   time) again as "median:"; the command's output goes to /dev/null.
 *   Exit 0, 1 when the command failed, 2 on bad usage.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS	256
#define MAX_NAMES	16

static bool skipped;	/* a thread or a name past those limits was left out */

struct thread {
	int	tid;
	char	name[16];
	double	run;	/* seconds on a CPU */
	double	wait;	/* seconds runnable, waiting for one */
};

struct name_sum {
	char	name[16];
	int	count;
	double	run;
	double	wait;
};

struct run {
	double		wall;
	double		cpu;
	int		nr_names;
	struct name_sum	names[MAX_NAMES];
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* read a small /proc file into @buf; Return: bytes read, or -1 */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* the latest readings of @pid's threads, into @t (a thread seen before keeps its slot) */
static void poll_threads(pid_t pid, struct thread *t, int *nr)
{
	char path[64], buf[128];
	unsigned long long run, wait;
	struct dirent *de;
	DIR *d;
	int tid, i;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		tid = atoi(de->d_name);
		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid, tid);
		if (read_small(path, buf, sizeof(buf)) <= 0 || sscanf(buf, "%llu %llu", &run, &wait) != 2)
			continue;
		for (i = 0; i < *nr && t[i].tid != tid; i++)
			;
		if (i == *nr) {
			if (*nr == MAX_THREADS) {
				skipped = true;
				continue;
			}
			(*nr)++;
			t[i].tid = tid;
			t[i].name[0] = '\0';
		}
		/* a thread may name itself after it starts: read the name each time */
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, tid);
		if (read_small(path, buf, sizeof(buf)) > 0) {
			buf[strcspn(buf, "\n")] = '\0';
			buf[sizeof(t[i].name) - 1] = '\0';	/* a comm is 15 bytes at most */
			memcpy(t[i].name, buf, sizeof(t[i].name));
		}
		t[i].run = (double)run / 1e9;
		t[i].wait = (double)wait / 1e9;
	}
	closedir(d);
}

/* run @argv once, polling every @interval_us; Return: 0, or 1 when it failed */
static int run_once(char **argv, unsigned int interval_us, struct run *r)
{
	static struct thread t[MAX_THREADS];
	double start;
	int nr = 0, status, i, k, fd;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	start = now();
	pid = fork();
	if (pid < 0) {
		perror("thread-times: fork");
		return 1;
	}
	if (!pid) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			perror("thread-times: waitpid");
			return 1;
		}
		poll_threads(pid, t, &nr);
		usleep(interval_us);
	}
	r->wall = now() - start;
	for (i = 0; i < nr; i++) {
		for (k = 0; k < r->nr_names && strcmp(r->names[k].name, t[i].name); k++)
			;
		if (k == r->nr_names) {
			if (k == MAX_NAMES) {
				skipped = true;
				continue;
			}
			r->nr_names++;
			snprintf(r->names[k].name, sizeof(r->names[k].name), "%s", t[i].name);
		}
		r->names[k].count++;
		r->names[k].run += t[i].run;
		r->names[k].wait += t[i].wait;
		r->cpu += t[i].run;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "thread-times: '%s' failed (%s %d)\n", argv[0],
			WIFEXITED(status) ? "exit" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return 1;
	}
	return 0;
}

/* "run 1: wall W cpu C  NAME run R wait W ...", a name shared by N threads as NAMExN */
static void print_run(const char *label, const struct run *r)
{
	char name[32];
	int k;

	printf("%s wall %.3f cpu %.3f", label, r->wall, r->cpu);
	for (k = 0; k < r->nr_names; k++) {
		if (r->names[k].count > 1)
			snprintf(name, sizeof(name), "%sx%d", r->names[k].name, r->names[k].count);
		else
			snprintf(name, sizeof(name), "%s", r->names[k].name);
		printf("  %s run %.3f wait %.3f", name, r->names[k].run, r->names[k].wait);
	}
	printf("\n");
}

static int by_wall(const void *a, const void *b)
{
	const struct run *x = a, *y = b;

	return (x->wall > y->wall) - (x->wall < y->wall);
}

int main(int argc, char **argv)
{
	struct run *runs;
	int n = 1, ms = 1, opt, i;
	char label[32];

	while ((opt = getopt(argc, argv, "+n:i:")) != -1) {
		switch (opt) {
		case 'n':
			n = atoi(optarg);
			break;
		case 'i':
			ms = atoi(optarg);
			break;
		default:
			n = 0;
		}
	}
	if (n < 1 || ms < 1 || optind >= argc) {
		fprintf(stderr, "usage: thread-times [-n RUNS] [-i MS] COMMAND [ARGS...]\n");
		return 2;
	}
	runs = calloc((size_t)n, sizeof(*runs));
	if (!runs) {
		fprintf(stderr, "thread-times: out of memory\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (run_once(argv + optind, (unsigned int)ms * 1000, &runs[i])) {
			free(runs);
			return 1;
		}
		snprintf(label, sizeof(label), "run %d:", i + 1);
		print_run(label, &runs[i]);
	}
	if (n > 1) {
		qsort(runs, (size_t)n, sizeof(*runs), by_wall);
		print_run("median:", &runs[(n - 1) / 2]);
	}
	free(runs);
	if (skipped)
		fprintf(stderr, "thread-times: more than %d threads or %d names: the rest not counted\n",
			MAX_THREADS, MAX_NAMES);
	return 0;
}
