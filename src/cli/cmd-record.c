// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-record.c - `schedreplay record`: options, the command to run, signals
 * and the summary; the recording itself is src/record/.
 *
 * Signals are taken through a signalfd (blocked in every thread, so the
 * sampler thread never sees them): SIGINT, SIGTERM and SIGHUP stop the
 * recording cleanly, SIGCHLD tells the started command ended.  Whatever
 * happens after record_create(), record_free() runs and removes the
 * instance.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli-opt.h"
#include "record/record.h"

#define RECORD_MAX_TARGETS	256
#define RECORD_POLL_MS		200

struct record_args {
	const char	*output;
	double		duration_s;
	pid_t		pids[RECORD_MAX_TARGETS];
	int		nr_pids;
	const char	*comms[RECORD_MAX_TARGETS];
	int		nr_comms;
	unsigned int	sample_ms;
	unsigned int	buffer_kb;
	bool		no_latency;
	bool		quiet;
	bool		no_probes;
	char		**command;	/* argv after "--", or NULL */
	char		cmdline[1024];	/* the options, for the metadata */
};

static const struct cli_opt_cmd record_cmd = {
	.name = "record",
	.bit = CLI_RECORD,
	.usage = "usage: schedreplay record [OPTIONS] [[--] COMMAND [ARGS]]\n"
		 "\n"
		 "Record the scheduler events the replay reads, system-wide, into a trace.dat\n"
		 "(version 6, readable by trace-cmd and KernelShark) through a private tracefs\n"
		 "instance, with numa_sample lines for the traced tasks.  Needs root.\n"
		 "Stops when COMMAND exits, after -d SECONDS, or on SIGINT/SIGTERM.\n",
	.footer = "Without -p, -c or COMMAND every user-space thread is sampled; with COMMAND,\n"
		  "the command and its descendants.  See docs/recording.md.\n"
		  "exit codes: 0 ok, 2 usage, 4 I/O error (disk full), 5 cannot trace here\n"
		  "(not root, no tracefs); with COMMAND: 127 not found, 126 cannot run it\n"
		  "(no file written either way), else COMMAND's own failure status\n"
		  "(128+N for signal N) after a complete recording\n",
	.command_follows = true,
};

static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

static void add_cmdline(struct record_args *ra, const char *a)
{
	size_t len = strlen(ra->cmdline);
	size_t i;

	for (i = 0; a[i] && len + 2 < sizeof(ra->cmdline); i++) {
		unsigned char c = a[i];

		if (!i && len)
			ra->cmdline[len++] = ',';
		ra->cmdline[len++] = c <= 0x20 || c >= 0x7f ? '_' : (char)c;
	}
	ra->cmdline[len] = '\0';
}

static int record_opt(void *ctx, int id, const char *v)
{
	struct record_args *ra = ctx;
	unsigned long u;
	char *end;

	if (id == CLI_OPT_QUIET) {
		ra->quiet = true;
		return 0;
	}
	add_cmdline(ra, cli_opt_name(id));
	if (v)	/* a switch (--no-latency) has no value */
		add_cmdline(ra, v);
	switch (id) {
	case CLI_OPT_OUTPUT:
		if (!*v)
			return cli_usage_error("record", "empty output name");
		ra->output = v;
		break;
	case CLI_OPT_DURATION:
		ra->duration_s = strtod(v, &end);
		if (*end || end == v || !(ra->duration_s > 0) || ra->duration_s > 1e7)
			return cli_usage_error("record", "bad duration '%s'", v);
		break;
	case CLI_OPT_PID:
		if (!parse_uint(v, INT_MAX, &u) || !u)
			return cli_usage_error("record", "bad pid '%s'", v);
		if (ra->nr_pids == RECORD_MAX_TARGETS)
			return cli_usage_error("record", "at most %d -p", RECORD_MAX_TARGETS);
		ra->pids[ra->nr_pids++] = (pid_t)u;
		break;
	case CLI_OPT_COMM:
		if (!*v || strlen(v) > 15)
			return cli_usage_error("record", "bad process name '%s' (1-15 bytes)", v);
		if (ra->nr_comms == RECORD_MAX_TARGETS)
			return cli_usage_error("record", "at most %d -c", RECORD_MAX_TARGETS);
		ra->comms[ra->nr_comms++] = v;
		break;
	case CLI_OPT_SAMPLE_MS:
		if (!parse_uint(v, 3600000, &u) || (u && u < 10))
			return cli_usage_error("record", "bad --sample-ms '%s' (0 or 10..3600000)", v);
		ra->sample_ms = (unsigned int)u;
		break;
	case CLI_OPT_NO_LATENCY:
		ra->no_latency = true;
		break;
	case CLI_OPT_BUFFER_KB:
		if (!parse_uint(v, 4u * 1024 * 1024, &u) || u < 64)
			return cli_usage_error("record", "bad --buffer-kb '%s' (64..4194304)", v);
		ra->buffer_kb = (unsigned int)u;
		break;
	case CLI_OPT_NO_PROBES:
		ra->no_probes = true;
		break;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct record_args *ra)
{
	int rest, r;

	ra->output = "trace.dat";
	ra->sample_ms = RECORD_DEFAULT_SAMPLE_MS;
	ra->buffer_kb = RECORD_DEFAULT_BUFFER_KB;
	r = cli_opt_parse(&record_cmd, argc, argv, record_opt, ra, &rest);
	if (r)
		return r;
	if (rest) {
		if (rest >= argc)
			return cli_usage_error("record", "'--' needs a COMMAND");
		ra->command = argv + rest;
	}
	return 0;
}

/* record -- CMD: CMD could not be run (as a shell says; docs/cli.md) */
#define RECORD_EXIT_CANNOT_EXEC	126	/* found but not executable */
#define RECORD_EXIT_NOT_FOUND	127	/* no such command */

/*
 * Fork the command; it waits on @go until recording runs, then execs.  A
 * closed pipe without the go byte means recording failed: it exits 127.
 * When exec fails the child writes its errno to *@why (close-on-exec, so
 * a successful exec closes it empty) and exits 127.
 */
static pid_t start_command(char **command, const sigset_t *old, int *go, int *why)
{
	int p[2], w[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(w, O_CLOEXEC) < 0) {
		pid = -errno;
		close(p[0]);
		close(p[1]);
		return pid;
	}
	pid = fork();
	if (pid < 0) {
		pid = -errno;
		close(p[0]);
		close(p[1]);
		close(w[0]);
		close(w[1]);
		return pid;
	}
	if (!pid) {
		char c;
		int e;

		close(p[1]);
		close(w[0]);
		sigprocmask(SIG_SETMASK, old, NULL);
		signal(SIGPIPE, SIG_DFL);
		if (read(p[0], &c, 1) != 1)
			_exit(127);
		execvp(command[0], command);
		e = errno;
		if (write(w[1], &e, sizeof(e)) != sizeof(e))
			_exit(127);
		_exit(127);
	}
	close(p[0]);
	close(w[1]);
	*go = p[1];
	*why = w[0];
	return pid;
}

/* after the go byte: 0 when the command's exec succeeded, else its errno */
static int command_exec_errno(int why)
{
	ssize_t n;
	int e = 0;

	do
		n = read(why, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	return n == sizeof(e) ? e : 0;
}

/* the exit status of a command that ended by itself, as a shell gives it */
static int command_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return CLI_EXIT_INTERNAL;
}

/* end the command when recording stops before it does */
static int end_command(pid_t pid)
{
	int status = 0;
	int i;

	kill(pid, SIGTERM);
	for (i = 0; i < 50; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(100000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return status;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* the decision probes, one line each */
static void print_probes(const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);

		fprintf(stderr, "schedreplay record: decision probe %.*s\n", n, p);
		p = nl ? nl + 1 : p + n;
	}
}

static void print_summary(const struct record_args *ra, const struct record_summary *s)
{
	uint64_t lost = 0;
	int i;

	fprintf(stderr, "schedreplay record: wrote '%s': %llu bytes, %.3f s traced, "
		"%llu numa_sample lines\n", ra->output, (unsigned long long)s->file_bytes,
		s->duration_ns / 1e9, (unsigned long long)s->samples);
	fprintf(stderr, "schedreplay record: numa_fault kprobe: %s\n", s->kprobe);
	if (s->latency)
		fprintf(stderr, "schedreplay record: latency profile: %d node%s measured in %.1f s "
			"(node 0 local %.1f ns)\n", s->latency->nr_nodes,
			s->latency->nr_nodes == 1 ? "" : "s", s->latency->seconds, s->latency->ns[0]);
	else
		fprintf(stderr, "schedreplay record: latency profile: %s\n",
			!strcmp(s->latency_why, "off") ? "not measured (--no-latency)" :
			s->latency_why);
	fprintf(stderr, "schedreplay record: snapshots at start and end: %lld tasks in the last, "
		"%lld sched-domain lines%s\n", (long long)s->snapshot_tasks,
		(long long)s->snapshot_domains,
		s->snapshot_unwritten ? " (some task lines were refused by trace_marker)" : "");
	print_probes(s->probes);
	if (s->stale_removed || s->stale_probes)
		fprintf(stderr, "schedreplay record: removed %d stale instance(s) and %d stale "
			"probe group(s) of dead recorders\n", s->stale_removed, s->stale_probes);
	for (i = 0; i < s->nr_cpus; i++) {
		const struct record_cpu_stats *c = &s->cpu[i];

		lost += c->lost;
		fprintf(stderr, "schedreplay record: cpu %d: %llu pages, lost events %llu "
			"(in %llu pages; kernel overrun %lld, dropped %lld)\n", i,
			(unsigned long long)c->pages, (unsigned long long)c->lost,
			(unsigned long long)c->lost_pages, (long long)c->overrun,
			(long long)c->dropped);
	}
	if (lost)
		fprintf(stderr, "schedreplay record: %llu events lost: raise --buffer-kb "
			"(docs/recording.md)\n", (unsigned long long)lost);
}

static int record_error(struct err *e, int code)
{
	char msg[1200];

	cli_error("%s", err_format(e, msg, sizeof(msg)));
	return code;
}

static int exit_code_of(int ret)
{
	if (ret == -EPERM || ret == -EACCES || ret == -ENODEV)
		return CLI_EXIT_NOTRACE;
	if (ret == -SR_EUSAGE || ret == -SR_ERANGE)
		return CLI_EXIT_USAGE;
	return CLI_EXIT_INTERNAL;
}

/* the loop while recording: returns 0 or a negative code */
static int record_loop(struct record *rec, const struct record_args *ra, int sfd, pid_t *child,
		       int *child_status)
{
	uint64_t end_ms = ra->duration_s > 0 ? mono_ms() + (uint64_t)(ra->duration_s * 1000) : 0;
	struct pollfd pfd = { .fd = sfd, .events = POLLIN };
	int ret;

	for (;;) {
		if (poll(&pfd, 1, RECORD_POLL_MS) > 0) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) == sizeof(si) && si.ssi_signo != SIGCHLD)
				return 0;
		}
		if (*child > 0 && waitpid(*child, child_status, WNOHANG) == *child) {
			*child = 0;
			return record_poll(rec);
		}
		ret = record_poll(rec);
		if (ret < 0)
			return ret;
		if (end_ms && mono_ms() >= end_ms)
			return 0;
	}
}

int cmd_record(int argc, char **argv)
{
	struct record_args ra = { 0 };
	struct record_opts ro = { 0 };
	struct record *rec = NULL;
	struct err e = { 0 };
	sigset_t mask, old;
	pid_t child = 0;
	int child_status = 0;
	int go = -1;
	int why = -1;
	int sfd = -1;
	int ret;
	int code = CLI_EXIT_OK;
	struct stat st;

	ret = parse_args(argc, argv, &ra);
	if (ret)
		return ret < 0 ? CLI_EXIT_OK : ret;
	if (!stat(ra.output, &st) && S_ISDIR(st.st_mode))
		return cli_usage_error("record", "'%s' is a folder; -o names a file", ra.output);
	if (geteuid() != 0) {
		cli_error("recording needs root: tracefs instances and events are root-only "
			  "(run with sudo)");
		return CLI_EXIT_NOTRACE;
	}
	ro.output = ra.output;
	ro.pids = ra.pids;
	ro.nr_pids = ra.nr_pids;
	ro.comms = ra.comms;
	ro.nr_comms = ra.nr_comms;
	ro.sample_ms = ra.sample_ms;
	ro.buffer_kb = ra.buffer_kb;
	ro.no_probes = ra.no_probes;
	ro.cmdline = ra.cmdline;
	ro.latency_s = ra.no_latency ? 0 : RECORD_LATENCY_DEFAULT_S;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, &old);
	signal(SIGPIPE, SIG_IGN);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0) {
		code = record_error(&e, CLI_EXIT_INTERNAL);
		goto out;
	}
	rec = record_new(&ro, &e);
	if (!rec) {
		code = record_error(&e, exit_code_of(e.code));
		goto out;
	}
	ret = record_check_access(rec);
	if (ret < 0) {
		code = record_error(&e, exit_code_of(ret));
		goto out;
	}
	if (ra.command) {
		child = start_command(ra.command, &old, &go, &why);
		if (child < 0) {
			err_set(&e, child, "cannot start '%s': %s", ra.command[0], strerror(-child));
			child = 0;
			code = record_error(&e, CLI_EXIT_INTERNAL);
			goto out;
		}
	}
	ret = record_create(rec, child);
	if (ret < 0) {
		code = record_error(&e, exit_code_of(ret));
		goto out;
	}
	if (go >= 0) {
		if (write(go, "g", 1) != 1)
			cli_warn("the command did not start");
		close(go);
		go = -1;
		ret = command_exec_errno(why);
		if (ret) {
			/* nothing to record: no file, the shell's status */
			cli_error("cannot run '%s': %s", ra.command[0], strerror(ret));
			code = ret == ENOENT ? RECORD_EXIT_NOT_FOUND : RECORD_EXIT_CANNOT_EXEC;
			goto out;
		}
	}
	ret = record_loop(rec, &ra, sfd, &child, &child_status);
	if (!ret)
		ret = record_stop(rec);
	if (!ret)
		ret = record_finish(rec);
	if (ret < 0) {
		code = record_error(&e, exit_code_of(ret));
		goto out;
	}
	record_destroy(rec);
	if (!ra.quiet)
		print_summary(&ra, record_summary(rec));
	if (ra.command && !child) {
		/* the command ended by itself: its failure is the run's, as in perf and trace-cmd */
		code = command_status(child_status);
		if (code && !ra.quiet)
			cli_warn("the command '%s' failed (exit status %d); the recording is complete",
				 ra.command[0], code);
	}
out:
	if (go >= 0)
		close(go);	/* the command, if forked, exits without running */
	if (why >= 0)
		close(why);
	if (child > 0)
		end_command(child);
	record_free(rec);
	if (sfd >= 0)
		close(sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return code;
}
