// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record-sampler.c - the sampler thread: every sample_ms it picks the
 * traced processes (the -p pids, the -c names, the started command and
 * its descendants, or every user-space process when none is given), reads
 * /proc/PID/task/TID/sched and /stat of each of their threads and writes
 * one numa_sample line per thread into the instance's trace_marker.
 *
 * The thread only reads /proc and writes the marker fd; it shares nothing
 * with the main thread but the counters and the stop flag, under smp.lock.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record-local.h"
#include "../util/digits.h"

#define PF_KTHREAD	0x00200000

struct proc_entry {
	pid_t		pid;
	pid_t		ppid;
	unsigned long	flags;
	char		comm[32];
	bool		take;
};

struct proc_list {
	struct proc_entry	*e;
	size_t			n;
	size_t			cap;
};

/*
 * /proc/PID/stat: "pid (comm) state ppid ... flags(9) ... processor(39)".
 * comm may hold ')' and spaces: the fields start after the last ')'.
 */
static bool read_stat(const char *path, char *comm, size_t comm_len, pid_t *ppid,
		      unsigned long *flags, int *cpu)
{
	char buf[1024];
	char *open_p;
	char *close_p;
	char *p;
	FILE *f;
	size_t n;
	int field;

	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	open_p = strchr(buf, '(');
	close_p = strrchr(buf, ')');
	if (!open_p || !close_p || close_p < open_p)
		return false;
	if (comm)
		snprintf(comm, comm_len, "%.*s", (int)(close_p - open_p - 1), open_p + 1);
	p = close_p + 2;
	/* p is at field 3 (state) */
	for (field = 3; *p; field++) {
		if (field == 4 && ppid)
			*ppid = (pid_t)strtol(p, NULL, 10);
		if (field == 9 && flags)
			*flags = strtoul(p, NULL, 10);
		if (field == 39) {
			if (cpu)
				*cpu = (int)strtol(p, NULL, 10);
			break;
		}
		p = strchr(p, ' ');
		if (!p)
			break;
		p++;
	}
	return true;
}

static int scan_procs(struct proc_list *pl)
{
	struct dirent *d;
	char path[300];
	DIR *dd;

	pl->n = 0;
	dd = opendir("/proc");
	if (!dd)
		return -errno;
	while ((d = readdir(dd))) {
		struct proc_entry *pe;

		if (!util_all_digits(d->d_name))
			continue;
		if (pl->n == pl->cap) {
			size_t cap = pl->cap ? pl->cap * 2 : 256;
			struct proc_entry *e = realloc(pl->e, cap * sizeof(*e));

			if (!e) {
				closedir(dd);
				return -ENOMEM;
			}
			pl->e = e;
			pl->cap = cap;
		}
		pe = &pl->e[pl->n];
		memset(pe, 0, sizeof(*pe));
		pe->pid = (pid_t)atoi(d->d_name);
		snprintf(path, sizeof(path), "/proc/%s/stat", d->d_name);
		if (read_stat(path, pe->comm, sizeof(pe->comm), &pe->ppid, &pe->flags, NULL))
			pl->n++;
	}
	closedir(dd);
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	const struct proc_entry *x = a;
	const struct proc_entry *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static struct proc_entry *find_pid(struct proc_list *pl, pid_t pid)
{
	struct proc_entry key = { .pid = pid };

	return bsearch(&key, pl->e, pl->n, sizeof(key), cmp_pid);
}

/* mark the processes to sample */
static void select_procs(struct record_sampler *s, struct proc_list *pl)
{
	bool any = s->nr_pids || s->nr_comms || s->child;
	bool changed = true;
	size_t i;
	int j;

	qsort(pl->e, pl->n, sizeof(pl->e[0]), cmp_pid);
	for (i = 0; i < pl->n; i++) {
		struct proc_entry *pe = &pl->e[i];

		if (pe->pid == s->self || (pe->flags & PF_KTHREAD))
			continue;
		if (!any || pe->pid == s->child)
			pe->take = true;
		for (j = 0; j < s->nr_pids; j++)
			if (pe->pid == s->pids[j])
				pe->take = true;
		for (j = 0; j < s->nr_comms; j++)
			if (!strcmp(pe->comm, s->comms[j]))
				pe->take = true;
	}
	/* descendants of the started command: a pass per generation */
	while (s->child && changed) {
		changed = false;
		for (i = 0; i < pl->n; i++) {
			struct proc_entry *parent;

			if (pl->e[i].take || pl->e[i].pid == s->self)
				continue;
			parent = find_pid(pl, pl->e[i].ppid);
			if (parent && parent->take && parent->pid != s->self &&
			    !(pl->e[i].flags & PF_KTHREAD)) {
				pl->e[i].take = true;
				changed = true;
			}
		}
	}
}

static void sample_thread(struct record_sampler *s, pid_t tgid, const char *tid_s)
{
	struct marker_sample *ts = &s->sample;
	char path[320];
	char comm[32] = "";
	char line[3072];
	size_t len = 0;
	size_t n;
	char *text;
	int cpu = -1;

	snprintf(path, sizeof(path), "/proc/%d/task/%s/sched", (int)tgid, tid_s);
	text = record_read_file(path, &len);
	if (!text)
		return;	/* the thread exited */
	record_parse_sched(text, len, ts);
	free(text);
	snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)tgid, tid_s);
	if (!read_stat(path, comm, sizeof(comm), NULL, NULL, &cpu))
		return;
	ts->t = (int64_t)record_now_ns();
	ts->seq = (int64_t)s->seq;
	ts->pid = (int)tgid;
	ts->tid = atoi(tid_s);
	ts->cpu = cpu;
	n = record_format_sample(line, sizeof(line), comm, ts);
	if (!n)
		return;
	if (record_marker_write(s->marker_fd, line, n) < 0) {
		pthread_mutex_lock(&s->lock);
		s->failed++;
		pthread_mutex_unlock(&s->lock);
		return;
	}
	pthread_mutex_lock(&s->lock);
	s->samples++;
	pthread_mutex_unlock(&s->lock);
}

static void sample_round(struct record_sampler *s, struct proc_list *pl)
{
	char path[300];
	struct dirent *d;
	size_t i;
	DIR *dd;

	if (s->nr_pids && !s->nr_comms && !s->child) {
		/* only -p: no need to walk /proc */
		pl->n = 0;
		for (i = 0; i < (size_t)s->nr_pids; i++) {
			snprintf(path, sizeof(path), "/proc/%d/task", (int)s->pids[i]);
			dd = opendir(path);
			if (!dd)
				continue;
			while ((d = readdir(dd)))
				if (util_all_digits(d->d_name))
					sample_thread(s, s->pids[i], d->d_name);
			closedir(dd);
		}
		return;
	}
	if (scan_procs(pl) < 0)
		return;
	select_procs(s, pl);
	for (i = 0; i < pl->n; i++) {
		if (!pl->e[i].take)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", (int)pl->e[i].pid);
		dd = opendir(path);
		if (!dd)
			continue;
		while ((d = readdir(dd)))
			if (util_all_digits(d->d_name))
				sample_thread(s, pl->e[i].pid, d->d_name);
		closedir(dd);
	}
}

static void *sampler_main(void *arg)
{
	struct record_sampler *s = arg;
	struct proc_list pl = { 0 };
	struct timespec until;

	pthread_setname_np(pthread_self(), "sr-sampler");
	clock_gettime(CLOCK_MONOTONIC, &until);
	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		pthread_mutex_unlock(&s->lock);
		sample_round(s, &pl);
		pthread_mutex_lock(&s->lock);
		s->seq++;
		until.tv_sec += s->period_ms / 1000;
		until.tv_nsec += (long)(s->period_ms % 1000) * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		while (!s->stop && pthread_cond_timedwait(&s->cond, &s->lock, &until) == 0)
			;
	}
	pthread_mutex_unlock(&s->lock);
	free(pl.e);
	return NULL;
}

int record_sampler_start(struct record *r, pid_t child)
{
	struct record_sampler *s = &r->smp;
	pthread_condattr_t ca;
	int ret;

	if (!r->opts.sample_ms)
		return 0;
	pthread_cond_destroy(&s->cond);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	s->marker_fd = r->marker_fd;
	s->period_ms = r->opts.sample_ms;
	s->self = getpid();
	s->child = child;
	s->pids = r->opts.pids;
	s->nr_pids = r->opts.nr_pids;
	s->comms = r->opts.comms;
	s->nr_comms = r->opts.nr_comms;
	s->stop = false;
	ret = pthread_create(&s->thread, NULL, sampler_main, s);
	if (ret)
		return err_set(r->e, -ret, "cannot start the sampler thread: %s", strerror(ret));
	s->running = true;
	return 0;
}

void record_sampler_stop(struct record *r)
{
	struct record_sampler *s = &r->smp;

	if (!s->running)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	s->running = false;
}
