// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record.c - the recorder's lifecycle: a private tracefs instance, the
 * events the replay reads, the task_numa_fault() kprobe, the per-CPU
 * streams from trace_pipe_raw into anonymous temp files, and cleanup.
 *
 * Invariants: the only tracefs objects created are the instance
 * "schedreplay-<pid>" and the probe group "schedreplay_<pid>"; both are
 * removed by record_destroy(), which every exit path reaches.  A recorder
 * killed with SIGKILL leaves them behind; the next record_create() removes
 * every one whose <pid> no longer runs schedreplay.  Nothing at the output
 * path exists until record_finish() renames a complete file there.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "record-local.h"
#include "util/outfile.h"

/* the events the replay reads (docs/recording.md) */
static const struct record_event record_events[] = {
	{ "sched",	"sched_migrate_task",	false },
	{ "sched",	"sched_move_numa",	false },
	{ "sched",	"sched_swap_numa",	false },
	{ "sched",	"sched_stick_numa",	false },
	{ "sched",	"sched_switch",		false },
	{ "sched",	"sched_waking",		false },
	{ "sched",	"sched_wakeup",		false },
	{ "sched",	"sched_wakeup_new",	false },
	{ "sched",	"sched_process_fork",	false },
	{ "sched",	"sched_process_exec",	false },
	{ "sched",	"sched_process_exit",	false },
	{ "migrate",	"mm_migrate_pages",	false },
};

#define NR_RECORD_EVENTS (sizeof(record_events) / sizeof(record_events[0]))

/* task_numa_fault(int last_cpupid, int mem_node, int pages, int flags) */
static const struct {
	const char	*machine;	/* uname -m, or NULL for any */
	const char	*fetch;
} probe_fetch[] = {
	{ "x86_64",	"last_cpupid=%di:s32 mem_node=%si:s32 pages=%dx:s32 flags=%cx:s32" },
	{ "aarch64",	"last_cpupid=%x0:s32 mem_node=%x1:s32 pages=%x2:s32 flags=%x3:s32" },
	{ NULL,		"last_cpupid=$arg1:s32 mem_node=$arg2:s32 pages=$arg3:s32 flags=$arg4:s32" },
	{ NULL,		"last_cpupid=last_cpupid mem_node=mem_node pages=pages flags=flags" },
};

struct record *record_new(const struct record_opts *opts, struct err *e)
{
	struct record *r;

	if (!opts->output || !*opts->output) {
		err_set(e, -SR_EUSAGE, "no output file");
		return NULL;
	}
	if (opts->buffer_kb < 64 || opts->buffer_kb > 4u * 1024 * 1024) {
		err_set(e, -SR_ERANGE, "buffer size %u KiB out of range (64..4194304)",
			opts->buffer_kb);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		err_set(e, -ENOMEM, "out of memory");
		return NULL;
	}
	r->opts = *opts;
	r->e = e;
	r->marker_fd = -1;
	r->out_fd = -1;
	r->commit_off = 8;
	r->commit_size = 8;
	snprintf(r->name, sizeof(r->name), RECORD_INSTANCE_PREFIX "%d", (int)getpid());
	snprintf(r->probe_sys, sizeof(r->probe_sys), RECORD_PROBE_PREFIX "%d", (int)getpid());
	snprintf(r->kprobe, sizeof(r->kprobe), "not tried");
	r->sum.kprobe = r->kprobe;
	snprintf(r->probes_text, sizeof(r->probes_text), "not tried");
	r->sum.probes = r->probes_text;
	pthread_mutex_init(&r->smp.lock, NULL);
	pthread_cond_init(&r->smp.cond, NULL);
	return r;
}

/* the first tracefs mount point in /proc/mounts, or false */
static bool find_tracefs(char *dir, size_t len)
{
	char line[1024];
	char mnt[512];
	char type[64];
	bool found = false;
	FILE *f;

	f = fopen("/proc/mounts", "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %511s %63s", mnt, type) == 2 && !strcmp(type, "tracefs")) {
			snprintf(dir, len, "%s", mnt);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/*
 * Not tracefs_tracing_dir_is_mounted(): libtracefs 1.6.4 leaks the path it
 * returns.  /proc/mounts is read here, and libtracefs finds the same mount.
 */
int record_check_access(struct record *r)
{
	const char *dir;
	char path[PATH_MAX + 16];
	int ret;

	if (!find_tracefs(r->tracing_dir, sizeof(r->tracing_dir))) {
		/* not mounted: mount it ourselves, and unmount it when done */
		if (geteuid() != 0)
			return err_set(r->e, -EPERM,
				       "tracefs is not mounted and only root may mount it");
		if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) < 0)
			return err_set(r->e, -ENODEV, "no tracefs: mounting it failed (%s)",
				       strerror(errno));
		r->mounted = true;
		snprintf(r->tracing_dir, sizeof(r->tracing_dir), "/sys/kernel/tracing");
	}
	dir = tracefs_tracing_dir();
	if (!dir)
		return err_set(r->e, -ENODEV, "no tracefs on this system");
	snprintf(r->tracing_dir, sizeof(r->tracing_dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/instances", r->tracing_dir);
	if (access(path, W_OK) < 0) {
		ret = errno == ENOENT ? -ENODEV : -EACCES;
		return err_set(r->e, ret,
			       ret == -ENODEV ? "tracefs at '%s' has no instances (kernel too old)"
					      : "no permission to create tracefs instances in '%s' "
						"(recording needs root)",
			       r->tracing_dir);
	}
	return 0;
}

/* does process @pid exist and run schedreplay? */
static bool recorder_alive(pid_t pid)
{
	char path[64];
	char comm[32] = "";
	FILE *f;

	if (pid <= 0)
		return false;
	if (kill(pid, 0) < 0 && errno == ESRCH)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return !strncmp(comm, "schedreplay", 11);
}

/* "<prefix><digits>" -> the pid, or 0 */
static pid_t pid_of(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long v;

	if (strncmp(name, prefix, n) || !isdigit((unsigned char)name[n]))
		return 0;
	v = strtol(name + n, &end, 10);
	if (*end || v <= 0 || v > INT32_MAX)
		return 0;
	return (pid_t)v;
}

static int cleanup_stale_probes(void)
{
	struct tracefs_dynevent **all;
	pid_t gone[32];	/* the groups removed, each counted once */
	int removed = 0;
	int i, j;

	all = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_KPROBE | TRACEFS_DYNEVENT_KRETPROBE, NULL);
	if (!all)
		return 0;
	for (i = 0; all[i]; i++) {
		char *sys = NULL;
		char *ev = NULL;
		pid_t pid;

		tracefs_dynevent_info(all[i], &sys, &ev, NULL, NULL, NULL);
		pid = sys ? pid_of(sys, RECORD_PROBE_PREFIX) : 0;
		if (pid && !recorder_alive(pid) && !tracefs_dynevent_destroy(all[i], true)) {
			for (j = 0; j < removed && j < 32 && gone[j] != pid; j++)
				;
			if (j == removed) {
				if (removed < 32)
					gone[removed] = pid;
				removed++;
			}
		}
		free(sys);
		free(ev);
	}
	tracefs_dynevent_list_free(all);
	return removed;
}

int record_cleanup_stale(struct err *e, int *nr_probes)
{
	char **names;
	int removed = 0;
	int probes = 0;
	int i;

	if (nr_probes)
		*nr_probes = 0;
	/* all names, filtered here: libtracefs 1.6.4 leaks the regex it is given */
	names = tracefs_instances(NULL);
	for (i = 0; names && names[i]; i++) {
		struct tracefs_instance *inst;
		pid_t pid = pid_of(names[i], RECORD_INSTANCE_PREFIX);

		if (!pid || recorder_alive(pid))
			continue;
		inst = tracefs_instance_alloc(NULL, names[i]);
		if (!inst)
			continue;
		if (tracefs_instance_destroy(inst) < 0) {
			tracefs_instance_free(inst);
			tracefs_list_free(names);
			return err_set(e, -errno ? -errno : -EIO,
				       "cannot remove the stale instance '%s' of dead recorder %d",
				       names[i], (int)pid);
		}
		tracefs_instance_free(inst);
		removed++;
	}
	tracefs_list_free(names);
	if (tracefs_file_exists(NULL, "kprobe_events"))
		probes = cleanup_stale_probes();
	if (nr_probes)
		*nr_probes = probes;
	return removed;
}

/* the commit word's place in a ring-buffer page, from events/header_page */
static void parse_header_page(struct record *r)
{
	char *hp;
	char *p;
	int len = 0;

	hp = tracefs_instance_file_read(NULL, "events/header_page", &len);
	if (!hp)
		return;
	p = strstr(hp, " commit;");
	if (p) {
		char *o = strstr(p, "offset:");
		char *s = strstr(p, "size:");

		if (o && s) {
			r->commit_off = atoi(o + 7);
			r->commit_size = atoi(s + 5);
		}
	}
	free(hp);
}

static int enable_events(struct record *r)
{
	size_t i;
	int on = 0;

	r->events = calloc(NR_RECORD_EVENTS, sizeof(*r->events));
	if (!r->events)
		return err_set(r->e, -ENOMEM, "out of memory");
	memcpy(r->events, record_events, sizeof(record_events));
	r->nr_events = (int)NR_RECORD_EVENTS;
	for (i = 0; i < NR_RECORD_EVENTS; i++) {
		struct record_event *ev = &r->events[i];

		if (!tracefs_event_file_exists(r->inst, ev->system, ev->name, "enable"))
			continue;
		if (tracefs_event_enable(r->inst, ev->system, ev->name) < 0)
			return err_set(r->e, -EIO, "cannot enable %s:%s in instance '%s'",
				       ev->system, ev->name, r->name);
		ev->enabled = true;
		on++;
	}
	if (!on)
		return err_set(r->e, -ENODEV, "the kernel has none of the sched events");
	return 0;
}

/* the numa_fault kprobe, where the kernel has kprobe events */
static void add_probe(struct record *r)
{
	struct utsname u;
	size_t i;

	if (!tracefs_file_exists(NULL, "kprobe_events")) {
		snprintf(r->kprobe, sizeof(r->kprobe), "unavailable: no kprobe_events in tracefs");
		return;
	}
	uname(&u);
	for (i = 0; i < sizeof(probe_fetch) / sizeof(probe_fetch[0]); i++) {
		struct tracefs_dynevent *p;

		if (probe_fetch[i].machine && strcmp(probe_fetch[i].machine, u.machine))
			continue;
		p = tracefs_kprobe_alloc(r->probe_sys, "numa_fault", "task_numa_fault",
					 probe_fetch[i].fetch);
		if (!p)
			continue;
		if (tracefs_dynevent_create(p) < 0) {
			tracefs_dynevent_free(p);
			continue;
		}
		r->probe = p;
		if (tracefs_event_enable(r->inst, r->probe_sys, "numa_fault") < 0) {
			snprintf(r->kprobe, sizeof(r->kprobe),
				 "unavailable: the probe could not be enabled");
			return;
		}
		r->probe_enabled = true;
		snprintf(r->kprobe, sizeof(r->kprobe), "added: %s:numa_fault %s", r->probe_sys,
			 probe_fetch[i].fetch);
		return;
	}
	snprintf(r->kprobe, sizeof(r->kprobe),
		 "unavailable: task_numa_fault() cannot be probed on this kernel");
}

/* an anonymous file in @dir (O_TMPFILE); -EOPNOTSUPP where the file system has none */
static int open_anon(const char *dir)
{
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
	if (fd >= 0)
		return fd;
	if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL || errno == ENOENT)
		return -EOPNOTSUPP;
	return -errno;
}

/* a new hidden file "<dir>/.schedreplay-<pid>.XXXXXX", its path in @named */
static int open_named(const char *dir, char *named, size_t named_len)
{
	int fd;

	if ((size_t)snprintf(named, named_len, "%s/.schedreplay-%d.XXXXXX", dir,
			     (int)getpid()) >= named_len) {
		named[0] = '\0';
		return -ENAMETOOLONG;
	}
	fd = mkostemp(named, O_CLOEXEC);
	if (fd < 0) {
		named[0] = '\0';
		return -errno;
	}
	fchmod(fd, 0644);
	return fd;
}

/* an anonymous file for CPU data: O_TMPFILE, else a hidden name unlinked at once */
static int open_cpu_tmp(const char *dir)
{
	char path[PATH_MAX];
	int fd;

	fd = open_anon(dir);
	if (fd != -EOPNOTSUPP)
		return fd;
	fd = open_named(dir, path, sizeof(path));
	if (fd >= 0)
		unlink(path);
	return fd;
}

static void output_dir(const char *out, char *dir, size_t len)
{
	const char *slash = strrchr(out, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == out)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - out), out);
}

/*
 * The output is written into an anonymous file that record_finish() names
 * and renames into place.  Where the file system has no O_TMPFILE (9p,
 * NFS, older FUSE), the output's named temporary is only created by
 * record_finish(): a recorder killed while recording leaves no file behind
 * there either (the CPU files are unlinked at once, and the first one
 * proves the folder writable).
 */
static int open_outputs(struct record *r)
{
	char dir[PATH_MAX];
	int ret;
	int i;

	ret = outfile_resolve(r->opts.output, r->out_target, sizeof(r->out_target), r->e);
	if (ret < 0)
		return ret;
	if (ret != OUTFILE_TEMP) {
		/* a FIFO, a device or stdout: the CPU data waits in the temporary folder */
		const char *tmpdir = getenv("TMPDIR");

		r->out_direct = true;
		snprintf(dir, sizeof(dir), "%s", tmpdir && *tmpdir ? tmpdir : "/tmp");
		ret = -EOPNOTSUPP;
	} else {
		output_dir(r->out_target, dir, sizeof(dir));
		ret = open_anon(dir);
	}
	if (ret < 0 && ret != -EOPNOTSUPP) {
		err_set_file(r->e, r->opts.output);
		return err_set(r->e, ret, "cannot write in the output folder '%s': %s", dir,
			       strerror(-ret));
	}
	r->out_fd = ret >= 0 ? ret : -1;
	r->out_tmpfile = ret >= 0;
	r->out_deferred = ret < 0 && !r->out_direct;
	for (i = 0; i < r->nr_cpus; i++) {
		ret = open_cpu_tmp(dir);
		if (ret < 0) {
			err_set_file(r->e, r->opts.output);
			if (!i && !r->out_tmpfile)
				return err_set(r->e, ret, "cannot write in the output folder '%s': %s",
					       dir, strerror(-ret));
			return err_set(r->e, ret, "cannot create a temporary file in '%s': %s",
				       dir, strerror(-ret));
		}
		r->cpus[i].fd = ret;
	}
	return 0;
}

static int open_cpus(struct record *r)
{
	int i;

	r->nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (r->nr_cpus < 1)
		r->nr_cpus = 1;
	r->cpus = calloc(r->nr_cpus, sizeof(*r->cpus));
	r->stats = calloc(r->nr_cpus, sizeof(*r->stats));
	if (!r->cpus || !r->stats)
		return err_set(r->e, -ENOMEM, "out of memory");
	for (i = 0; i < r->nr_cpus; i++)
		r->cpus[i].fd = -1;
	for (i = 0; i < r->nr_cpus; i++) {
		r->cpus[i].tcpu = tracefs_cpu_open(r->inst, i, true);
		if (!r->cpus[i].tcpu)
			return err_set(r->e, -EIO, "cannot open trace_pipe_raw of CPU %d", i);
		r->cpus[i].splice_ok = true;
		r->cpus[i].st.overrun = -1;
		r->cpus[i].st.dropped = -1;
		if (tracefs_cpu_read_size(r->cpus[i].tcpu) > r->page_size)
			r->page_size = tracefs_cpu_read_size(r->cpus[i].tcpu);
	}
	r->page = malloc(r->page_size);
	if (!r->page)
		return err_set(r->e, -ENOMEM, "out of memory");
	return 0;
}

static void read_clock(struct record *r)
{
	char *c = tracefs_instance_file_read(r->inst, "trace_clock", NULL);
	char *b = c ? strchr(c, '[') : NULL;
	char *e = b ? strchr(b, ']') : NULL;

	if (b && e)
		snprintf(r->clock, sizeof(r->clock), "%.*s", (int)(e - b - 1), b + 1);
	else
		snprintf(r->clock, sizeof(r->clock), "local");
	free(c);
}


/*
 * The latency profile, before the instance exists (the chase is not in the
 * trace).  A failure is not fatal: the trace says why it has no profile.
 */
static void measure_latency(struct record *r)
{
	struct err e = { 0 };

	snprintf(r->latency_why, sizeof(r->latency_why), "off");
	if (!(r->opts.latency_s > 0))
		return;
	r->latency = record_latency_measure(r->opts.latency_s, &e);
	snprintf(r->latency_why, sizeof(r->latency_why), "%s", r->latency ? "measured" : e.msg);
}

int record_create(struct record *r, pid_t child)
{
	int ret;

	ret = record_cleanup_stale(r->e, &r->stale_probes);
	if (ret < 0)
		return ret;
	r->stale_removed = ret;
	measure_latency(r);
	r->page_size = getpagesize();
	parse_header_page(r);
	if (tracefs_instance_exists(r->name))
		return err_set(r->e, -EEXIST, "instance '%s' exists already", r->name);
	r->inst = tracefs_instance_create(r->name);
	if (!r->inst)
		return err_set(r->e, errno ? -errno : -EIO, "cannot create the instance '%s'",
			       r->name);
	/* a new instance starts with tracing on: off until all is ready */
	tracefs_trace_off(r->inst);
	if (tracefs_instance_set_buffer_size(r->inst, r->opts.buffer_kb, -1) < 0) {
		ret = errno ? -errno : -EIO;
		return err_set(r->e, ret, "cannot size the ring buffers to %u KiB per CPU: %s",
			       r->opts.buffer_kb, strerror(-ret));
	}
	read_clock(r);
	ret = enable_events(r);
	if (ret < 0)
		return ret;
	add_probe(r);
	record_probes_add(r);
	ret = open_cpus(r);
	if (ret < 0)
		return ret;
	ret = open_outputs(r);
	if (ret < 0)
		return ret;
	r->marker_fd = tracefs_instance_file_open(r->inst, "trace_marker", O_WRONLY | O_CLOEXEC);
	if (r->marker_fd < 0)
		return err_set(r->e, -EIO, "cannot open trace_marker of instance '%s'", r->name);
	if (tracefs_trace_on(r->inst) < 0)
		return err_set(r->e, -EIO, "cannot turn tracing on in instance '%s'", r->name);
	r->tracing = true;
	r->t_on_ns = record_now_ns();
	ret = record_meta_start(r);
	if (ret < 0)
		return ret;
	ret = record_flush(r);
	if (ret < 0)
		return ret;
	ret = record_snapshot(r, "start");
	if (ret < 0)
		return ret;
	return record_sampler_start(r, child);
}

/* missed-events flags of a ring-buffer page header (kernel ring_buffer.c) */
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_MISSED_STORED	(1ULL << 30)
#define RB_COMMIT_MASK		((1ULL << 27) - 1)

static void count_page(struct record *r, struct record_cpu *c, const unsigned char *page, int len)
{
	uint64_t commit = 0;
	uint64_t missed;
	int data = r->commit_off + r->commit_size;

	c->st.pages++;
	c->st.bytes += len;
	if (r->commit_size != 4 && r->commit_size != 8)
		return;
	if (data > len)
		return;
	memcpy(&commit, page + r->commit_off, r->commit_size);
	if (!(commit & RB_MISSED_EVENTS))
		return;
	c->st.lost_pages++;
	if ((commit & RB_MISSED_STORED) &&
	    data + (commit & RB_COMMIT_MASK) + sizeof(long) <= (uint64_t)len) {
		missed = 0;
		memcpy(&missed, page + data + (commit & RB_COMMIT_MASK), sizeof(long));
		c->st.lost += missed;
	} else {
		c->st.lost++;
	}
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENOSPC;
		p += n;
		len -= n;
	}
	return 0;
}

/* one page from CPU @i, or 0 when none is ready; @flush takes partial pages */
static int read_page(struct record *r, int i, bool flush)
{
	struct record_cpu *c = &r->cpus[i];
	int n;

	errno = 0;
	if (flush)
		n = tracefs_cpu_flush(c->tcpu, r->page);
	else if (c->splice_ok)
		n = tracefs_cpu_buffered_read(c->tcpu, r->page, true);
	else
		n = tracefs_cpu_read(c->tcpu, r->page, true);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n < 0 && !flush && (errno == EINVAL || errno == ENOSYS)) {
		c->splice_ok = false;
		return 0;
	}
	if (n < 0)
		return err_set(r->e, errno ? -errno : -EIO, "reading trace_pipe_raw of CPU %d: %s",
			       i, strerror(errno));
	return n;
}

static int drain_cpu(struct record *r, int i, bool flush)
{
	int n;
	int ret;

	for (;;) {
		n = read_page(r, i, false);
		if (!n && flush)
			n = read_page(r, i, true);
		if (n <= 0)
			return n;
		count_page(r, &r->cpus[i], (unsigned char *)r->page, n);
		if (n < r->page_size)
			memset(r->page + n, 0, r->page_size - n);
		ret = write_all(r->cpus[i].fd, r->page, r->page_size);
		if (ret < 0) {
			err_set_file(r->e, r->opts.output);
			return err_set(r->e, ret, ret == -ENOSPC ?
				       "disk full while writing the CPU %d data next to it" :
				       "writing the CPU %d data next to it: %s", i, strerror(-ret));
		}
	}
}

/*
 * Take every page now, partial ones too: called right after the metadata
 * lines so that a ring buffer overrun early in a busy recording cannot
 * overwrite them (they hold the topology).
 */
int record_flush(struct record *r)
{
	int i;
	int ret;

	for (i = 0; i < r->nr_cpus; i++) {
		ret = drain_cpu(r, i, true);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int record_poll(struct record *r)
{
	int i;
	int ret;

	if (!r->tracing)
		return 0;
	for (i = 0; i < r->nr_cpus; i++) {
		ret = drain_cpu(r, i, false);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int64_t stat_field(const char *text, const char *key)
{
	const char *p = text ? strstr(text, key) : NULL;

	if (!p)
		return -1;
	return strtoll(p + strlen(key), NULL, 10);
}

int record_stop(struct record *r)
{
	char path[64];
	int ret = 0;
	int i;

	if (r->stopped || !r->inst)
		return 0;
	r->stopped = true;
	record_sampler_stop(r);
	if (r->tracing) {
		record_snapshot(r, "end");
		record_meta_end(r);
		record_probes_text(r);
		tracefs_trace_off(r->inst);
		r->t_off_ns = record_now_ns();
		r->tracing = false;
	}
	for (i = 0; i < r->nr_cpus && r->cpus; i++) {
		char *st;

		if (!r->cpus[i].tcpu)
			continue;
		if (!ret)
			ret = drain_cpu(r, i, true);
		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", i);
		st = tracefs_instance_file_read(r->inst, path, NULL);
		r->cpus[i].st.overrun = stat_field(st, "overrun: ");
		r->cpus[i].st.dropped = stat_field(st, "dropped events: ");
		free(st);
		r->stats[i] = r->cpus[i].st;
	}
	r->sum.nr_cpus = r->nr_cpus;
	r->sum.cpu = r->stats;
	r->sum.samples = r->smp.samples;
	r->sum.stale_removed = r->stale_removed;
	r->sum.stale_probes = r->stale_probes;
	r->sum.latency = r->latency;
	r->sum.latency_why = r->latency_why;
	r->sum.duration_ns = r->t_off_ns > r->t_on_ns ? r->t_off_ns - r->t_on_ns : 0;
	return ret;
}

/* -o a FIFO, a device or stdout: the file written straight into it, never replaced */
static int finish_direct(struct record *r)
{
	bool out = !strcmp(r->out_target, "-") || !strcmp(r->out_target, "/dev/stdout");
	int fd, ret;

	fd = out ? STDOUT_FILENO : open(r->out_target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return err_set(r->e, -errno, "cannot open for writing: %s", strerror(errno));
	ret = record_dat_write(r, fd);
	if (!out && close(fd) < 0 && !ret)
		ret = err_set(r->e, -errno, "cannot write it: %s", strerror(errno));
	return ret;
}

int record_finish(struct record *r)
{
	char tmp[PATH_MAX + 32];
	char proc[64];
	struct stat st;
	int ret;

	err_set_file(r->e, r->opts.output);
	if (r->out_direct)
		return finish_direct(r);
	if (r->out_fd < 0 && r->out_deferred) {
		/* no O_TMPFILE here: the named temporary, from now until the rename */
		char dir[PATH_MAX];

		output_dir(r->out_target, dir, sizeof(dir));
		ret = open_named(dir, r->out_tmp, sizeof(r->out_tmp));
		if (ret < 0)
			return err_set(r->e, ret, "cannot write in the output folder '%s': %s", dir,
				       strerror(-ret));
		r->out_fd = ret;
	}
	if (r->out_fd < 0)
		return err_set(r->e, -EINVAL, "no output file open");
	ret = record_dat_write(r, r->out_fd);
	if (ret < 0)
		return ret;
	if (fsync(r->out_fd) < 0)
		return err_set(r->e, -errno, "cannot sync the output: %s", strerror(errno));
	if (fstat(r->out_fd, &st) == 0)
		r->sum.file_bytes = st.st_size;
	if (r->out_tmpfile) {
		/* give the anonymous file a temporary name, then rename it over */
		snprintf(tmp, sizeof(tmp), "%s.tmp-%d", r->out_target, (int)getpid());
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", r->out_fd);
		unlink(tmp);
		if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) < 0)
			return err_set(r->e, -errno, "cannot name the output: %s", strerror(errno));
		snprintf(r->out_tmp, sizeof(r->out_tmp), "%s", tmp);
	}
	if (rename(r->out_tmp, r->out_target) < 0) {
		ret = -errno;
		unlink(r->out_tmp);
		r->out_tmp[0] = '\0';
		return err_set(r->e, ret, "cannot rename the output into place: %s",
			       strerror(-ret));
	}
	r->out_tmp[0] = '\0';
	close(r->out_fd);
	r->out_fd = -1;
	return 0;
}

void record_destroy(struct record *r)
{
	int i;

	if (!r)
		return;
	record_sampler_stop(r);
	if (r->marker_fd >= 0) {
		close(r->marker_fd);
		r->marker_fd = -1;
	}
	for (i = 0; r->cpus && i < r->nr_cpus; i++) {
		if (r->cpus[i].tcpu) {
			tracefs_cpu_close(r->cpus[i].tcpu);
			r->cpus[i].tcpu = NULL;
		}
	}
	if (r->inst) {
		tracefs_trace_off(r->inst);
		tracefs_instance_destroy(r->inst);
		tracefs_instance_free(r->inst);
		r->inst = NULL;
		r->tracing = false;
	}
	if (r->probe) {
		tracefs_dynevent_destroy(r->probe, true);
		tracefs_dynevent_free(r->probe);
		r->probe = NULL;
	}
	/* return probes first: each pairs with the entry probe before it */
	for (i = RECORD_NR_PROBES - 1; i >= 0; i--) {
		if (r->dprobe_ev[i]) {
			tracefs_dynevent_destroy(r->dprobe_ev[i], true);
			tracefs_dynevent_free(r->dprobe_ev[i]);
			r->dprobe_ev[i] = NULL;
		}
	}
	if (r->mounted && r->tracing_dir[0]) {
		if (!umount2(r->tracing_dir, MNT_DETACH))
			r->mounted = false;
	}
}

const struct record_summary *record_summary(const struct record *r)
{
	return &r->sum;
}

void record_free(struct record *r)
{
	int i;

	if (!r)
		return;
	record_destroy(r);
	for (i = 0; r->cpus && i < r->nr_cpus; i++)
		if (r->cpus[i].fd >= 0)
			close(r->cpus[i].fd);
	if (r->out_fd >= 0)
		close(r->out_fd);
	if (r->out_tmp[0])
		unlink(r->out_tmp);
	free(r->cpus);
	free(r->stats);
	free(r->page);
	free(r->events);
	record_latency_free(r->latency);
	record_text_release(&r->meta);
	pthread_mutex_destroy(&r->smp.lock);
	pthread_cond_destroy(&r->smp.cond);
	free(r);
}
