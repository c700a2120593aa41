// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay-batch.c - the worker pool of `replay TRACE TRACE...`.
 *
 * Each worker is a fork()ed child with two pipes: rows and summary.  The
 * parent poll()s every running worker, copies complete rows to the stream
 * as they arrive (rows of one trace keep their order; rows of different
 * traces interleave, a whole line at a time), keeps each summary in memory
 * and prints the summaries in argument order as soon as every earlier
 * trace is done.  Memory: one partial line per worker plus the summaries
 * not yet printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "replay-batch.h"
#include "util/cpus.h"

#define BATCH_MAX_SUMMARY (16u << 20)

struct buf {
	char	*p;
	size_t	len;
	size_t	cap;
};

struct worker {
	pid_t		pid;
	size_t		trace;		/* index into the trace list */
	int		fd[2];		/* rows, summary; -1 once at EOF */
	struct buf	line;		/* a partial row */
};

struct slot {
	struct buf	summary;
	int		code;
	bool		done;
};

int cli_replay_batch_jobs(void)
{
	return util_cpus_available();
}

static int buf_add(struct buf *b, const char *p, size_t n, size_t max)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *np;

		while (cap < b->len + n)
			cap *= 2;
		if (cap > max)
			return -E2BIG;
		np = realloc(b->p, cap);
		if (!np)
			return -ENOMEM;
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

/* In the child: run the replay with the pipes as its outputs; never returns. */
static void child_run(struct cli_replay_batch *b, size_t t, int rows_fd, int sum_fd)
{
	FILE *rows = fdopen(rows_fd, "w"), *sum = fdopen(sum_fd, "w");
	int code;

	if (!rows || !sum)
		_exit(CLI_EXIT_INTERNAL);
	code = b->fn(b->traces[t], b->arg, rows, sum);
	if (fclose(rows) == EOF || fclose(sum) == EOF)
		code = CLI_EXIT_INTERNAL;
	_exit(code);
}

static int start(struct cli_replay_batch *b, struct worker *w, size_t t)
{
	int rp[2], sp[2];

	if (pipe2(rp, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(sp, O_CLOEXEC) < 0) {
		close(rp[0]);
		close(rp[1]);
		return -errno;
	}
	fflush(NULL);	/* nothing buffered may be written twice */
	w->pid = fork();
	if (w->pid < 0) {
		int e = -errno;

		close(rp[0]);
		close(rp[1]);
		close(sp[0]);
		close(sp[1]);
		return e;
	}
	if (w->pid == 0) {
		close(rp[0]);
		close(sp[0]);
		child_run(b, t, rp[1], sp[1]);
	}
	close(rp[1]);
	close(sp[1]);
	w->trace = t;
	w->fd[0] = rp[0];
	w->fd[1] = sp[0];
	w->line.len = 0;
	return 0;
}

/* Write the complete rows held in @w->line; keep the rest. */
static int flush_rows(struct cli_replay_batch *b, struct worker *w)
{
	char *nl;
	size_t n;

	nl = memrchr(w->line.p, '\n', w->line.len);
	if (!nl)
		return 0;
	n = (size_t)(nl - w->line.p) + 1;
	if (b->rows && fwrite(w->line.p, 1, n, b->rows) != n)
		return -EIO;
	for (char *p = w->line.p; p < w->line.p + n; p++)
		b->nr_rows += *p == '\n';
	memmove(w->line.p, w->line.p + n, w->line.len - n);
	w->line.len -= n;
	return 0;
}

/* Read what worker @w has on pipe @k; -1 in fd[k] at EOF. */
static int drain(struct cli_replay_batch *b, struct worker *w, int k, struct slot *s)
{
	char buf[65536];
	ssize_t n = read(w->fd[k], buf, sizeof(buf));
	int r;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	if (n == 0) {
		close(w->fd[k]);
		w->fd[k] = -1;
		return 0;
	}
	if (k == 1)
		return buf_add(&s->summary, buf, (size_t)n, BATCH_MAX_SUMMARY) == -ENOMEM ?
		       -ENOMEM : 0;	/* an oversized summary is cut, not fatal */
	r = buf_add(&w->line, buf, (size_t)n, SIZE_MAX / 2);
	if (r < 0)
		return r;
	return flush_rows(b, w);
}

static void reap(struct cli_replay_batch *b, struct worker *w, struct slot *s)
{
	int st;

	while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st)) {
		s->code = WEXITSTATUS(st);
	} else {
		cli_error("replay of '%s' killed by signal %d", b->traces[w->trace],
			  WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		s->code = CLI_EXIT_INTERNAL;
	}
	if (s->code == CLI_EXIT_DISAGREE) {
		b->disagreed = true;
		s->code = CLI_EXIT_OK;
	}
	if (s->code != CLI_EXIT_OK)
		b->nr_failed++;
	/* a row cut short by a failure is dropped: the stream holds whole rows */
	w->line.len = 0;
	w->pid = 0;
	s->done = true;
}

static void print_ready(struct cli_replay_batch *b, struct slot *slots, size_t *next)
{
	while (*next < b->nr_traces && slots[*next].done) {
		struct slot *s = &slots[*next];

		if (b->summary && s->summary.len) {
			if (*next)
				fputc('\n', b->summary);
			fwrite(s->summary.p, 1, s->summary.len, b->summary);
		}
		free(s->summary.p);
		s->summary.p = NULL;
		(*next)++;
	}
}

int cli_replay_batch_run(struct cli_replay_batch *b)
{
	struct worker *w = calloc((size_t)b->jobs, sizeof(*w));
	struct slot *slots = calloc(b->nr_traces, sizeof(*slots));
	struct pollfd *pfd = calloc((size_t)b->jobs * 2, sizeof(*pfd));
	size_t next = 0, printed = 0, t;
	int running = 0, ret = CLI_EXIT_OK, r = 0, i;

	if (!w || !slots || !pfd) {
		cli_error("out of memory");
		ret = CLI_EXIT_INTERNAL;
		goto out_free;
	}
	b->nr_rows = 0;
	b->nr_failed = 0;
	b->disagreed = false;
	while (r == 0 && (next < b->nr_traces || running)) {
		int np = 0;

		for (i = 0; i < b->jobs && next < b->nr_traces; i++) {
			if (w[i].pid)
				continue;
			r = start(b, &w[i], next);
			if (r < 0) {
				cli_error("cannot start a worker for '%s': %s", b->traces[next],
					  strerror(-r));
				break;
			}
			next++;
			running++;
		}
		if (r < 0)
			break;
		for (i = 0; i < b->jobs; i++) {
			int k;

			for (k = 0; k < 2 && w[i].pid; k++) {
				if (w[i].fd[k] < 0)
					continue;
				pfd[np].fd = w[i].fd[k];
				pfd[np].events = POLLIN;
				pfd[np].revents = 0;
				np++;
			}
		}
		if (np && poll(pfd, (nfds_t)np, -1) < 0 && errno != EINTR) {
			r = -errno;
			cli_error("poll: %s", strerror(errno));
			break;
		}
		for (i = 0; i < b->jobs && r == 0; i++) {
			int k;

			for (k = 0; k < 2 && w[i].pid && r == 0; k++) {
				int j;

				if (w[i].fd[k] < 0)
					continue;
				for (j = 0; j < np; j++)
					if (pfd[j].fd == w[i].fd[k])
						break;
				if (j < np && pfd[j].revents) {
					r = drain(b, &w[i], k, &slots[w[i].trace]);
					if (r < 0)
						cli_error("cannot write the rows of '%s': %s",
							  b->traces[w[i].trace], strerror(-r));
				}
			}
			if (r == 0 && w[i].pid && w[i].fd[0] < 0 && w[i].fd[1] < 0) {
				reap(b, &w[i], &slots[w[i].trace]);
				running--;
				print_ready(b, slots, &printed);
			}
		}
	}
	if (r < 0) {
		ret = CLI_EXIT_INTERNAL;
		for (i = 0; i < b->jobs; i++) {
			if (!w[i].pid)
				continue;
			kill(w[i].pid, SIGTERM);
			if (w[i].fd[0] >= 0)
				close(w[i].fd[0]);
			if (w[i].fd[1] >= 0)
				close(w[i].fd[1]);
			while (waitpid(w[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		goto out_free;
	}
	for (t = 0; t < b->nr_traces; t++)
		if (slots[t].code != CLI_EXIT_OK) {
			ret = slots[t].code;
			break;
		}
out_free:
	if (slots)
		for (t = 0; t < b->nr_traces; t++)
			free(slots[t].summary.p);
	if (w)
		for (i = 0; i < b->jobs; i++)
			free(w[i].line.p);
	free(pfd);
	free(slots);
	free(w);
	return ret;
}
