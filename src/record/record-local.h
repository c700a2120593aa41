/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record-local.h - the recorder's state, shared by the files of src/record/
 * (instance and probe in record.c, sampler thread and marker lines in
 * record-sampler.c and record-meta.c, the trace.dat writer in
 * record-dat.c).  Private to src/record/.
 */
#ifndef SR_RECORD_RECORD_LOCAL_H
#define SR_RECORD_RECORD_LOCAL_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "record.h"
#include "record-probe.h"

struct tracefs_instance;
struct tracefs_cpu;
struct tracefs_dynevent;

/* a growable text buffer (metadata option, marker lines) */
struct record_text {
	char	*buf;
	size_t	len;
	size_t	cap;
};

int record_text_add(struct record_text *t, const char *s, size_t len);
int record_text_printf(struct record_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void record_text_release(struct record_text *t);

/* one CPU: its trace_pipe_raw and the anonymous temp file its pages go to */
struct record_cpu {
	struct tracefs_cpu	*tcpu;
	int			fd;		/* temp file, -1 when none */
	bool			splice_ok;	/* full pages through a pipe */
	struct record_cpu_stats	st;
};

/* the sampler thread and what it samples */
struct record_sampler {
	pthread_t		thread;
	bool			running;
	pthread_mutex_t		lock;
	pthread_cond_t		cond;
	bool			stop;
	int			marker_fd;	/* borrowed from struct record */
	unsigned int		period_ms;
	pid_t			self;		/* never sampled */
	pid_t			child;
	const pid_t		*pids;
	int			nr_pids;
	const char *const	*comms;
	int			nr_comms;
	uint64_t		seq;
	uint64_t		samples;	/* lines written */
	uint64_t		failed;		/* marker writes refused */
	struct marker_sample	sample;		/* scratch for one thread's line */
};

/* one event the replay reads: enabled when the kernel has it */
struct record_event {
	const char	*system;
	const char	*name;
	bool		enabled;
};

struct record {
	struct record_opts	opts;
	struct err		*e;
	char			name[64];	/* "schedreplay-<pid>" */
	char			probe_sys[64];	/* "schedreplay_<pid>" */
	struct tracefs_instance	*inst;
	struct tracefs_dynevent	*probe;
	bool			probe_enabled;
	char			kprobe[160];	/* "added: ..." or why not */
	struct record_probe	dprobe[RECORD_NR_PROBES];	/* the decision probes */
	struct tracefs_dynevent	*dprobe_ev[RECORD_NR_PROBES];	/* created ones */
	char			probes_text[RECORD_NR_PROBES * 320];	/* the summary's lines */
	bool			mounted;	/* tracefs mounted by us */
	char			tracing_dir[PATH_MAX];
	int			nr_cpus;
	struct record_cpu	*cpus;
	struct record_cpu_stats	*stats;		/* copy handed out in the summary */
	int			page_size;
	int			commit_off;	/* page header: commit word */
	int			commit_size;
	char			*page;
	int			marker_fd;
	struct record_sampler	smp;
	struct record_event	*events;
	int			nr_events;
	struct record_text	meta;		/* metadata lines (option text) */
	char			clock[32];
	uint64_t		t_on_ns;
	uint64_t		t_off_ns;
	bool			tracing;
	bool			stopped;
	int			out_fd;		/* the output's temporary file */
	bool			out_tmpfile;	/* O_TMPFILE: no name until linked */
	bool			out_deferred;	/* no O_TMPFILE: named at the end */
	char			out_tmp[PATH_MAX + 32];
	char			out_target[PATH_MAX];	/* -o with links followed (util/outfile.h) */
	bool			out_direct;	/* -o is a FIFO, device or stdout: written in place */
	int			stale_removed;
	int			stale_probes;
	struct record_latency	*latency;	/* NULL: not measured */
	char			latency_why[600];	/* "measured", "off" or why not */
	struct record_summary	sum;
};

/* record-meta.c */
uint64_t record_now_ns(void);
int record_meta_start(struct record *r);
int record_meta_end(struct record *r);
int record_marker_write(int fd, const char *line, size_t len);
char *record_read_file(const char *path, size_t *len);

/* record-kprobe.c */
void record_probes_add(struct record *r);
void record_probes_text(struct record *r);
void record_probe_counts(struct record *r, bool start);

/* record-sampler.c */
int record_sampler_start(struct record *r, pid_t child);
void record_sampler_stop(struct record *r);

/* record-meta.c: a one-line file's value, blanks as ',' (no spaces in markers) */
bool record_read_value(const char *path, char *val, size_t len);

/* record.c: take every page of every CPU now */
int record_flush(struct record *r);

/* record-line.c: a CPU bitmap as "0-3,8"; Return: its length, -1 when it does not fit */
int record_format_cpulist(char *buf, size_t len, const uint64_t *cpus, int max);

/* record-snapshot.c: the snapshot lines of @phase ("start", "end") */
int record_snapshot(struct record *r, const char *phase);

/* record-dat.c */
int record_dat_write(struct record *r, int fd);

#endif
