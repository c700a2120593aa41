// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * session-open.c - a TRACE argument opened for a session: a trace file, a
 * capture folder holding trace.dat, or "-" (standard input).  Standard
 * input, and any path that is not a regular file (a pipe), is first copied
 * into an anonymous in-memory file, because the trace is read twice.
 *
 * The topology is taken from, first to last: --topology PATH (the user said
 * so), the schedreplay_meta / schedreplay_node lines inside the trace, the
 * capture folder's numactl-H.txt, and a single node as the last resort,
 * with a notice.  The marker lines are found by a bounded pre-scan of the
 * trace (SESSION_PRESCAN_EVENTS events), then the same handle is rewound
 * for the real pass (ingest_rewind()), so memory stays flat and the file
 * is opened and checked once.  The topology is complete before the first
 * event streams and never changes after: a guessed one holds the CPUs the
 * pre-scan saw.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session-local.h"
#include "util/cpus.h"
#include "ingest/marker.h"
#include "util/escape.h"

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* A path the decoder cannot read twice: standard input, a pipe, a device. */
static bool needs_spool(const char *p)
{
	struct stat st;

	if (!strcmp(p, "-"))
		return true;
	return stat(p, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/*
 * Open a path to spool: a pipe or FIFO without waiting for a writer (one
 * that nobody writes to reads as empty at once, it never hangs); a device
 * is refused, since it may never end.
 */
static int spool_open(const char *path, struct err *e)
{
	struct stat st;
	int fd;

	if (!strcmp(path, "-"))
		return STDIN_FILENO;
	if (stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)))
		return err_set(e, -SR_EUNSUPPORTED,
			       "'%s': a device, not a trace (give a file, a pipe or '-')", path);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return err_set(e, -errno, "'%s': cannot open: %s", path, strerror(errno));
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		err_set(e, -errno, "'%s': cannot open: %s", path, strerror(errno));
		close(fd);
		return e->code;
	}
	return fd;
}

/* Copy @path ("-": standard input) into an in-memory file s->spool_fd. */
static int spool(struct session *s, const char *path, struct err *e)
{
	char buf[65536];
	int in = spool_open(path, e);
	ssize_t n;
	int ret = 0;

	if (in < 0)
		return in;
	s->spool_fd = memfd_create("schedreplay-stdin", MFD_CLOEXEC);
	if (s->spool_fd < 0) {
		ret = err_set(e, -errno, "'%s': cannot copy: %s", path, strerror(errno));
		goto out;
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write(s->spool_fd, buf, (size_t)n) != n) {
			ret = err_set(e, -errno, "'%s': cannot copy: %s", path, strerror(errno));
			goto out;
		}
	}
	snprintf(s->tr.read_path, sizeof(s->tr.read_path), "/proc/self/fd/%d", s->spool_fd);
out:
	if (in != STDIN_FILENO)
		close(in);
	return ret;
}

/* A failure of the decoder names the trace as the user gave it. */
static int placed(struct session *s, struct err *e, int code)
{
	if (s->spool_fd >= 0 && !strcmp(e->file, s->tr.read_path))
		err_set_file(e, s->tr.path);
	return code;
}

/* A start snapshot's task line: its lasting facts, for model_seed_tasks(). */
static int prescan_task(struct session *s, const struct sr_event *ev)
{
	struct marker_task *tl = s->task_line;
	struct model_seed *sd;

	if (s->seeds_done)
		return 0;
	if (!tl) {
		tl = s->task_line = malloc(sizeof(*tl));
		if (!tl)
			return err_set(&s->err, -ENOMEM, "out of memory");
	}
	if (marker_decode_task(ev, tl) || tl->phase != MARKER_PHASE_START)
		return 0;	/* the real pass counts a bad line */
	if (s->nr_seeds == s->cap_seeds) {
		size_t cap = s->cap_seeds ? 2 * s->cap_seeds : 256;

		sd = realloc(s->seeds, cap * sizeof(*sd));
		if (!sd)
			return err_set(&s->err, -ENOMEM, "out of memory");
		s->seeds = sd;
		s->cap_seeds = cap;
	}
	sd = &s->seeds[s->nr_seeds++];
	sd->tid = tl->s.tid;
	sd->tgid = tl->s.pid > 0 ? tl->s.pid : -1;
	sd->kthread = tl->status[MK_TASK_KTHREAD] == MARKER_OK ? tl->kthread : -1;
	memcpy(sd->comm, tl->s.comm, sizeof(sd->comm));
	return 0;
}

/* The settings of the start's schedreplay_sysctl line, for the kernel model. */
static void prescan_sysctl(struct session *s, const struct sr_event *ev)
{
	struct session_recorded *rec = &s->rec;
	struct marker_sysctl sc;
	const struct marker_str *f = &sc.sched_features;

	marker_decode_sysctl(ev, &sc);
	if (sc.phase != MARKER_PHASE_START)
		return;
	rec->sysctl = true;
	if (sc.status[MK_SYSCTL_NUMA_BALANCING] == MARKER_OK && sc.numa_balancing >= 0)
		rec->numa_balancing = sc.numa_balancing;
	if (sc.status[MK_SYSCTL_MIGRATION_COST] == MARKER_OK && sc.migration_cost_ns >= 0) {
		rec->migration_cost_ns = sc.migration_cost_ns;
		rec->migration_cost_key = "sched.migration_cost_ns";
	} else if (sc.status[MK_SYSCTL_MIGRATION_COST_OLD] == MARKER_OK &&
		   sc.migration_cost_ns_old >= 0) {
		rec->migration_cost_ns = sc.migration_cost_ns_old;
		rec->migration_cost_key = "kernel.sched_migration_cost_ns";
	}
	if (sc.status[MK_SYSCTL_SCHED_FEATURES] == MARKER_OK && f->len < sizeof(rec->features) &&
	    !(f->len == 11 && !memcmp(f->s, "unavailable", 11))) {
		memcpy(rec->features, f->s, f->len);
		rec->features[f->len] = '\0';
	}
}

/*
 * One pre-scanned marker event: the kernel release of schedreplay_meta (as
 * the decoder types it), and the topology lines for @b; *@meta_at is the
 * first schedreplay_meta line's position + 1 (0: none yet).
 * Return: 0, or a negative code with s->err placed at the event.
 */
static int prescan_marker(struct session *s, struct topo_builder *b, const struct ingest *in,
			  const struct sr_event *ev, uint64_t *meta_at)
{
	struct err *e = &s->err;
	struct marker_meta meta;

	if (ev->kind != SR_EV_PRINT || ev->marker == SR_MARK_NONE)
		return 0;
	if (ev->marker == SR_MARK_META && !*meta_at)
		*meta_at = ev->src_pos + 1;
	if (ev->marker == SR_MARK_META && !s->tr.kernel_release[0]) {
		marker_decode_meta(ev, &meta);
		if (meta.status[MK_META_RELEASE] == MARKER_OK) {
			escape_text(s->tr.kernel_release, sizeof(s->tr.kernel_release),
				    meta.release.s, meta.release.len);
			s->tr.release_origin = "schedreplay_meta";
		}
	}
	if (ev->marker == SR_MARK_SYSCTL && !s->rec.sysctl)
		prescan_sysctl(s, ev);
	if (ev->marker == SR_MARK_TASK && prescan_task(s, ev) < 0)
		return s->err.code;
	if (ev->marker == SR_MARK_SNAPSHOT)
		s->seeds_done = true;	/* the start's summary comes first */
	err_clear(e);
	if (topo_builder_feed(b, ev, e) < 0) {
		err_set_file(e, s->tr.path);
		ingest_err_at(in, e, ev->src_pos);
		return e->code ? e->code : -SR_EBADTOPO;
	}
	return 0;
}

static void note(struct session *s, const char *msg)
{
	if (s->opts.note)
		s->opts.note(s->opts.cb_arg, msg);
}

/* The pre-scan's damage: kept (the first of it), never printed. */
struct prescan_damage {
	uint64_t	count;
	char		where[sizeof(((struct err *)0)->where)];
};

static void prescan_warn(void *arg, const struct err *e)
{
	struct prescan_damage *d = arg;

	if (!d->count++)
		snprintf(d->where, sizeof(d->where), "%s", e->where);
}

/*
 * The topology the pre-scan's lines describe, into *@from_trace (NULL when
 * they describe none).  Lines that describe fewer nodes than the meta line
 * says are an error naming what is missing and where the trace was damaged;
 * with --topology given, the trace's own lines never fail the open.
 */
static int prescan_topology(struct session *s, const struct topo_builder *b,
			    const struct prescan_damage *dmg, bool whole, struct topo **from_trace,
			    uint64_t meta_at, bool by_line)
{
	struct err *e = &s->err;
	char msg[2 * PATH_MAX + 1024];
	int described;
	int nodes = topo_builder_nodes(b, &described);

	err_clear(e);
	if (nodes && described < nodes) {
		if (s->opts.topology) {
			snprintf(msg, sizeof(msg),
				 "'%s' has schedreplay_node lines for %d of %d nodes: --topology '%s' is used",
				 s->tr.path, described, nodes, s->opts.topology);
			note(s, msg);
			return 0;
		}
		if (dmg->count)
			err_set(e, -SR_EBADTOPO,
				"schedreplay_node lines for %d of %d nodes; the trace is damaged at %s: give --topology",
				described, nodes, dmg->where);
		else if (whole)
			err_set(e, -SR_EBADTOPO,
				"schedreplay_node lines for %d of %d nodes in the whole trace: give --topology",
				described, nodes);
		else
			err_set(e, -SR_EBADTOPO,
				"schedreplay_node lines for %d of %d nodes in the first %d events: give --topology",
				described, nodes, SESSION_PRESCAN_EVENTS);
		err_set_file(e, s->tr.path);
		if (!dmg->count && meta_at && by_line)	/* where the node count was said */
			err_at_line(e, meta_at - 1);
		else if (!dmg->count && meta_at)
			err_at_byte(e, meta_at - 1);
		return e->code;
	}
	*from_trace = topo_builder_build(b, e);
	if (*from_trace || !e->code)
		return 0;
	if (s->opts.topology) {
		snprintf(msg, sizeof(msg), "'%s': the trace's own topology is not used (%s): --topology '%s' is",
			 s->tr.path, e->msg, s->opts.topology);
		err_clear(e);
		note(s, msg);
		return 0;
	}
	err_set_file(e, s->tr.path);
	return e->code;
}

/*
 * Open the trace (s->in) and read its first events for schedreplay_meta /
 * schedreplay_node lines, and the highest CPU they name (for a guessed
 * topology).  Damage is read past and not reported here (the real pass
 * reports it); the first of it names the place when it hid topology lines.
 */
static int prescan(struct session *s, struct topo **from_trace, int *max_cpu, bool *whole)
{
	struct ingest_opts io = s->opts.ingest;
	struct prescan_damage dmg = { 0 };
	uint64_t meta_at = 0;
	struct topo_builder *b;
	struct ingest *in;
	struct sr_event ev;
	struct err *e = &s->err;
	uint64_t n = 0, after = 0;
	int ret = 0, r = 0, c;

	io.strict = false;
	io.warn = prescan_warn;
	io.warn_arg = &dmg;
	in = s->in = ingest_open(s->tr.read_path, &io, e);
	if (!in)
		return placed(s, e, e->code ? e->code : -SR_EBADTRACE);
	if (ingest_info(in)->kernel_release[0]) {
		escape_text(s->tr.kernel_release, sizeof(s->tr.kernel_release),
			    ingest_info(in)->kernel_release, sizeof(ingest_info(in)->kernel_release));
		s->tr.release_origin = "trace.dat";
	}
	if (ingest_info(in)->hostname[0])
		escape_text(s->tr.hostname, sizeof(s->tr.hostname), ingest_info(in)->hostname,
			    strlen(ingest_info(in)->hostname));
	b = topo_builder_new();
	if (!b)
		return err_set(e, -ENOMEM, "out of memory");
	s->rec.numa_balancing = -1;
	s->rec.migration_cost_ns = -1;
	/*
	 * the topology, then the settings line (written right after it) and
	 * the start snapshot up to its summary line, or a few events more
	 */
	while (n++ < SESSION_PRESCAN_EVENTS &&
	       (!topo_builder_complete(b) || (s->nr_seeds && !s->seeds_done) ||
		after++ < SESSION_PRESCAN_AFTER) &&
	       (r = ingest_next(in, &ev)) > 0) {
		c = model_event_max_cpu(&ev);
		if (c > *max_cpu)
			*max_cpu = c;
		ret = prescan_marker(s, b, in, &ev, &meta_at);
		if (ret < 0 && s->opts.topology) {
			err_clear(e);	/* the trace's own lines are not used */
			ret = 0;
		}
		if (ret < 0)
			goto out;
	}
	if (r < 0) {	/* the real pass would stop there too: say so now, not a guess */
		*e = *ingest_err(in);
		ret = placed(s, e, e->code ? e->code : -SR_EBADTRACE);
		goto out;
	}
	*whole = r == 0;
	if (!*whole && ingest_info(in)->nr_cpus - 1 > *max_cpu)
		*max_cpu = ingest_info(in)->nr_cpus - 1;
	ret = prescan_topology(s, b, &dmg, *whole, from_trace, meta_at, ingest_pos_is_line(in));
out:
	topo_builder_free(b);
	return ret;	/* s->in is rewound for the real pass, or closed with the session */
}

static int find_topology(struct session *s, struct topo *from_trace, int max_cpu)
{
	struct err *e = &s->err;
	char msg[PATH_MAX + 256];
	int ret;

	if (s->opts.topology) {
		s->topo = topo_load(s->opts.topology, e);
		if (!s->topo) {
			if (!e->file[0])	/* never onto itself: err_set_file() copies */
				err_set_file(e, s->opts.topology);
			topo_free(from_trace);
			return e->code ? e->code : -SR_EBADTOPO;
		}
		if (from_trace && (from_trace->nr_nodes != s->topo->nr_nodes ||
				   from_trace->nr_cpus != s->topo->nr_cpus)) {
			snprintf(msg, sizeof(msg),
				 "--topology '%s' (%d nodes, %d cpus) overrides the trace's own (%d nodes, %d cpus)",
				 s->opts.topology, s->topo->nr_nodes, s->topo->nr_cpus,
				 from_trace->nr_nodes, from_trace->nr_cpus);
			note(s, msg);
		}
		/* the trace's latency profile still holds when the node ids agree */
		if (from_trace && from_trace->latency && !s->topo->latency &&
		    from_trace->nr_nodes == s->topo->nr_nodes) {
			s->topo->latency = from_trace->latency;
			from_trace->latency = NULL;
		}
		topo_free(from_trace);
		return 0;
	}
	if (from_trace) {
		s->topo = from_trace;
		snprintf(s->topo->origin, sizeof(s->topo->origin), "%.*s",
			 (int)sizeof(s->topo->origin) - 1, s->tr.path);
		return 0;
	}
	ret = session_read_numactl(s, &s->topo, e);
	if (ret < 0 || s->topo)
		return ret;
	/* a guess: one node holding the CPUs the pre-scan saw, frozen from here on */
	if (max_cpu >= TOPO_MAX_CPUS)
		max_cpu = TOPO_MAX_CPUS - 1;
	s->topo = topo_new_single(1);
	if (!s->topo || (max_cpu >= 1 && topo_grow_cpus(s->topo, max_cpu + 1) < 0))
		return err_set(e, -ENOMEM, "out of memory");
	snprintf(msg, sizeof(msg),
		 "no topology in '%s' and none given: assuming one node holding every CPU (use --topology)",
		 s->tr.path);
	note(s, msg);
	return 0;
}

/* --latency FILE replaces the trace's own profile; its nodes must match */
static int find_latency(struct session *s)
{
	struct err *e = &s->err;
	struct topo_latency *l;

	if (!s->opts.latency)
		return 0;
	l = topo_latency_load(s->opts.latency, e);
	if (!l)
		return e->code ? e->code : -SR_EBADTOPO;
	if (topo_attach_latency(s->topo, l, e)) {
		topo_latency_free(l);
		err_set_file(e, s->opts.latency);
		return e->code;
	}
	return 0;
}

int session_open_trace(struct session *s, const char *arg, struct err *e)
{
	struct topo *from_trace = NULL;
	bool whole = false;
	int max_cpu = -1;
	int ret;

	s->tr.release_origin = "";
	if (is_dir(arg)) {
		snprintf(s->tr.capture_dir, sizeof(s->tr.capture_dir), "%s", arg);
		snprintf(s->tr.path, sizeof(s->tr.path), "%s/trace.dat", arg);
		if (!is_file(s->tr.path))
			return err_set(e, -SR_ENOTFOUND,
				       "'%s': a folder without trace.dat (a capture folder holds trace.dat)",
				       arg);
	} else {
		snprintf(s->tr.path, sizeof(s->tr.path), "%s", arg);
	}
	snprintf(s->tr.read_path, sizeof(s->tr.read_path), "%s", s->tr.path);
	if (needs_spool(s->tr.path)) {
		ret = spool(s, s->tr.path, e);
		if (ret < 0)
			return ret;
	}

	/* the decision thread needs the CPU a polling reader would take */
	if (s->opts.mode == SESSION_REPLAY && session_pipe_wanted(s) &&
	    util_cpus_available() <= 2)
		s->opts.ingest.no_poll = true;
	ret = prescan(s, &from_trace, &max_cpu, &whole);
	if (ret)
		return ret;
	if ((!s->tr.kernel_release[0] || !s->tr.hostname[0]) && s->tr.capture_dir[0])
		session_read_uname(s);
	ret = find_topology(s, from_trace, max_cpu);
	if (ret)
		return ret;
	ret = find_latency(s);
	if (ret)
		return ret;
	s->tr.topo = s->topo;

	ret = ingest_rewind(s->in, &s->opts.ingest, e);
	if (ret < 0)
		return placed(s, e, ret);
	s->tr.info = ingest_info(s->in);
	return 0;
}
