// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record-snapshot.c - the state snapshots written at the start and at the
 * end of a recording (format in docs/formats.md, what is read from where in
 * docs/recording.md):
 *
 *   schedreplay_task     one line per thread, kernel threads included:
 *                        /proc/PID/task/TID/stat (comm, ppid, PF_KTHREAD,
 *                        priority, nice, last CPU, policy), .../status
 *                        (Cpus_allowed_list) and .../sched (se.exec_start,
 *                        se.nr_migrations, the NUMA fields)
 *   schedreplay_domain   one line per CPU and sched domain, where debugfs
 *                        shows sched/domains (name, flags, every knob; the
 *                        span derived from sysfs, as debugfs has none)
 *   schedreplay_snapshot what the snapshot holds, and which task fields
 *                        /proc did not show (and for how many tasks)
 *
 * One marker write per line (each well under trace_marker's limit), and
 * the ring buffers are drained every SNAP_FLUSH lines, so thousands of
 * tasks neither blow a write nor overrun the buffer of the recorder's CPU.
 * These lines go to the trace only, not to the metadata option.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "record-local.h"
#include "../util/digits.h"
#include "../util/lists.h"

#define PF_KTHREAD	0x00200000
#define SNAP_LINE	960
#define SNAP_FLUSH	64
#define DEBUGFS_MAGIC	0x64626720
#define SCHED_DEBUGFS	"/sys/kernel/debug/sched"

/* the task fields /proc may not show, counted per snapshot */
enum { ABS_EXEC_START, ABS_NMIG, ABS_PREF, ABS_FAULTS, ABS_CPUS, ABS__COUNT };
static const char *const abs_names[ABS__COUNT] = {
	[ABS_EXEC_START] = "exec_start_ns", [ABS_NMIG] = "nmig", [ABS_PREF] = "pref",
	[ABS_FAULTS] = "f", [ABS_CPUS] = "cpus",
};

struct snap {
	struct record		*r;
	const char		*phase;
	int64_t			tasks;
	int64_t			kthreads;
	int64_t			unwritten;
	int64_t			domains;
	int64_t			absent[ABS__COUNT];
	int			since_flush;
	struct marker_task	t;	/* scratch for one thread */
	int			ret;	/* the first write error */
};

static void snap_write(struct snap *sn, const char *line, size_t len, bool task)
{
	int ret = record_marker_write(sn->r->marker_fd, line, len);

	if (ret < 0) {
		if (task)
			sn->unwritten++;
		if (!sn->ret)
			sn->ret = ret;
		return;
	}
	if (++sn->since_flush >= SNAP_FLUSH) {
		sn->since_flush = 0;
		record_flush(sn->r);
	}
}

int record_parse_stat(const char *text, size_t len, struct record_stat *out)
{
	const char *open_p = memchr(text, '(', len);
	const char *close_p = NULL;
	const char *end = text + len;
	const char *p;
	int field;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->ppid = out->prio = out->cpu = out->policy = -1;
	out->nice = 0;
	for (i = len; i > 0; i--)
		if (text[i - 1] == ')') {
			close_p = text + i - 1;
			break;
		}
	if (!open_p || !close_p || close_p < open_p)
		return -EINVAL;
	snprintf(out->comm, sizeof(out->comm), "%.*s", (int)(close_p - open_p - 1), open_p + 1);
	p = close_p + 1;
	/* fields after the comm, from 3 (state) on, each after one blank */
	for (field = 3; p < end && *p == ' '; field++) {
		char num[24];
		size_t n = 0;

		p++;
		while (p < end && *p != ' ' && n + 1 < sizeof(num))
			num[n++] = *p++;
		num[n] = '\0';
		while (p < end && *p != ' ')
			p++;
		switch (field) {
		case 4:
			out->ppid = (int)strtol(num, NULL, 10);
			break;
		case 9:
			out->flags = strtoul(num, NULL, 10);
			break;
		case 18:
			out->prio = (int)strtol(num, NULL, 10);
			break;
		case 19:
			out->nice = (int)strtol(num, NULL, 10);
			break;
		case 39:
			out->cpu = (int)strtol(num, NULL, 10);
			break;
		case 41:
			out->policy = (int)strtol(num, NULL, 10);
			return 0;
		}
	}
	return field > 19 ? 0 : -EINVAL;
}

int64_t record_parse_exec_start(const char *text, size_t len)
{
	static const char key[] = "se.exec_start";
	const char *p = text;
	const char *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *le = nl ? nl : end;

		if ((size_t)(le - p) > sizeof(key) && !memcmp(p, key, sizeof(key) - 1) &&
		    (p[sizeof(key) - 1] == ' ' || p[sizeof(key) - 1] == ':')) {
			const char *q = p + sizeof(key) - 1;
			int64_t ms = 0;
			int64_t frac = 0;
			int digits = 0;

			while (q < le && (*q == ' ' || *q == '\t' || *q == ':'))
				q++;
			if (q >= le || !isdigit((unsigned char)*q))
				return -1;
			while (q < le && isdigit((unsigned char)*q) && ms < INT64_MAX / 10 / 1000000)
				ms = ms * 10 + (*q++ - '0');
			if (q < le && *q == '.')
				for (q++; q < le && isdigit((unsigned char)*q) && digits < 6; digits++)
					frac = frac * 10 + (*q++ - '0');
			for (; digits < 6; digits++)
				frac *= 10;
			return ms * 1000000 + frac;
		}
		p = le + 1;
	}
	return -1;
}

static bool read_text(const char *path, char *buf, size_t len, size_t *got)
{
	char *s = record_read_file(path, got);

	if (!s)
		return false;
	if (*got >= len)
		*got = len - 1;
	memcpy(buf, s, *got);
	buf[*got] = '\0';
	free(s);
	return true;
}

/* "Cpus_allowed_list:\t0-3,8" of a status file into @cpus */
static bool allowed_cpus(const char *text, size_t len, uint64_t *cpus)
{
	static const char key[] = "Cpus_allowed_list:";
	const char *p = text;
	const char *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *le = nl ? nl : end;

		if ((size_t)(le - p) >= sizeof(key) - 1 && !memcmp(p, key, sizeof(key) - 1)) {
			p += sizeof(key) - 1;
			while (p < le && (*p == ' ' || *p == '\t'))
				p++;
			return util_parse_cpulist(p, le - p, cpus, MARKER_MAX_CPUS) > 0;
		}
		p = le + 1;
	}
	return false;
}

static void snap_thread(struct snap *sn, pid_t tgid, const char *tid_s)
{
	struct marker_task *t = &sn->t;
	struct record_stat st;
	char path[320];
	char *text;
	char line[SNAP_LINE + 64];
	bool has_pref = false;
	size_t len = 0;
	size_t n;
	int k;

	snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)tgid, tid_s);
	text = record_read_file(path, &len);
	if (!text)
		return;	/* the thread exited */
	k = record_parse_stat(text, len, &st);
	free(text);
	if (k < 0)
		return;
	memset(t->status, MARKER_ABSENT, sizeof(t->status));
	snprintf(path, sizeof(path), "/proc/%d/task/%s/sched", (int)tgid, tid_s);
	text = record_read_file(path, &len);
	if (text) {
		record_parse_sched(text, len, &t->s);
		has_pref = memmem(text, len, "numa_preferred_nid", 18) != NULL;
		t->exec_start_ns = record_parse_exec_start(text, len);
		free(text);
	} else {
		record_parse_sched("", 0, &t->s);
		t->exec_start_ns = -1;
	}
	memset(t->cpus, 0, sizeof(t->cpus));
	snprintf(path, sizeof(path), "/proc/%d/task/%s/status", (int)tgid, tid_s);
	{
		char buf[4096];

		if (read_text(path, buf, sizeof(buf), &len) && allowed_cpus(buf, len, t->cpus))
			t->status[MK_TASK_CPUS] = MARKER_OK;
	}
	t->phase_word.s = sn->phase;
	t->phase_word.len = strlen(sn->phase);
	t->s.tid = atoi(tid_s);
	t->s.pid = (int)tgid;
	t->ppid = st.ppid;
	t->kthread = st.flags & PF_KTHREAD ? 1 : 0;
	t->policy = st.policy;
	t->prio = st.prio;
	t->nice = st.nice;
	t->s.cpu = st.cpu;
	for (k = MK_TASK_PHASE; k <= MK_TASK_NICE; k++)
		t->status[k] = MARKER_OK;
	if (st.ppid < 0)
		t->status[MK_TASK_PPID] = MARKER_ABSENT;
	if (st.policy < 0)
		t->status[MK_TASK_POLICY] = MARKER_ABSENT;
	if (st.cpu >= 0)
		t->status[MK_TASK_CPU] = MARKER_OK;
	/* numa_preferred_nid is -1 for "none": a value; absent when not shown */
	if (has_pref && t->s.pref >= -1)
		t->status[MK_TASK_PREF] = MARKER_OK;
	if (t->s.grp >= 0)
		t->status[MK_TASK_GRP] = MARKER_OK;
	if (t->s.tf >= 0)
		t->status[MK_TASK_TF] = MARKER_OK;
	if (t->exec_start_ns >= 0)
		t->status[MK_TASK_EXEC_START] = MARKER_OK;
	if (t->s.nmig >= 0)
		t->status[MK_TASK_NMIG] = MARKER_OK;
	if (t->s.nr_nodes > 0)
		t->status[MK_TASK_F] = MARKER_OK;
	sn->absent[ABS_EXEC_START] += t->status[MK_TASK_EXEC_START] != MARKER_OK;
	sn->absent[ABS_NMIG] += t->status[MK_TASK_NMIG] != MARKER_OK;
	sn->absent[ABS_PREF] += t->status[MK_TASK_PREF] != MARKER_OK;
	sn->absent[ABS_FAULTS] += t->status[MK_TASK_F] != MARKER_OK;
	sn->absent[ABS_CPUS] += t->status[MK_TASK_CPUS] != MARKER_OK;
	n = record_format_task(line, SNAP_LINE, st.comm, t);
	if (!n) {
		sn->unwritten++;
		return;
	}
	sn->tasks++;
	sn->kthreads += t->kthread;
	snap_write(sn, line, n, true);
}

static void snap_tasks(struct snap *sn)
{
	char path[300];
	struct dirent *d;
	struct dirent *td;
	DIR *dd;
	DIR *tdd;

	dd = opendir("/proc");
	if (!dd)
		return;
	while ((d = readdir(dd))) {
		if (!util_all_digits(d->d_name))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", d->d_name);
		tdd = opendir(path);
		if (!tdd)
			continue;	/* exited */
		while ((td = readdir(tdd)))
			if (util_all_digits(td->d_name))
				snap_thread(sn, (pid_t)atoi(d->d_name), td->d_name);
		closedir(tdd);
	}
	closedir(dd);
}

/* ---- sched domains ----------------------------------------------------- */

/* the sysfs file that holds a domain's span, by the domain's name */
static bool domain_span(int cpu, const char *name, uint64_t *span)
{
	static const struct {
		const char	*name;
		const char	*file;
	} spans[] = {
		{ "SMT", "topology/thread_siblings_list" },
		{ "CLS", "topology/cluster_cpus_list" },
		{ "MC", "cache/index3/shared_cpu_list" },
		{ "MC", "topology/core_siblings_list" },
		{ "PKG", "topology/package_cpus_list" },
		{ "DIE", "topology/package_cpus_list" },
		{ "PKG", "topology/core_siblings_list" },
		{ "DIE", "topology/core_siblings_list" },
	};
	char path[160];
	char val[SNAP_LINE];
	size_t i;

	for (i = 0; i < sizeof(spans) / sizeof(spans[0]); i++) {
		if (strcmp(name, spans[i].name))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/%s", cpu, spans[i].file);
		memset(span, 0, MARKER_MAX_CPUS / 8);
		if (record_read_value(path, val, sizeof(val)) &&
		    util_parse_cpulist(val, strlen(val), span, MARKER_MAX_CPUS) > 0)
			return true;
	}
	return false;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t record_format_domain(char *buf, size_t len, const char *dir, const char *phase, int cpu,
			    int level)
{
	const struct marker_format *f = marker_format(SR_MARK_DOMAIN);
	uint64_t span[MARKER_MAX_CPUS / 64];
	char name[64] = "";
	char val[256];
	char path[PATH_MAX];
	char list[512];
	char *files[64];
	struct dirent *d;
	size_t o;
	int nr = 0;
	int i;
	int n;
	DIR *dd;

	if (!len)
		return 0;
	n = snprintf(buf, len, "%s phase=%s cpu=%d level=%d", f->word, phase, cpu, level);
	if (n < 0 || (size_t)n >= len)
		goto cut;
	o = (size_t)n;
	snprintf(path, sizeof(path), "%s/name", dir);
	if (record_read_value(path, name, sizeof(name)))
		o += snprintf(buf + o, len - o, " name=%s", name);
	snprintf(path, sizeof(path), "%s/flags", dir);
	if (record_read_value(path, val, sizeof(val)) && o + 8 + strlen(val) < len)
		o += snprintf(buf + o, len - o, " flags=%s", val);
	if (name[0] && domain_span(cpu, name, span)) {
		n = record_format_cpulist(list, sizeof(list), span, MARKER_MAX_CPUS);
		if (n > 0 && o + 32 + (size_t)n < len)
			o += snprintf(buf + o, len - o, " span=%s span_from=topology", list);
	}
	dd = opendir(dir);
	if (dd) {
		while ((d = readdir(dd)) && nr < 64) {
			if (d->d_name[0] == '.' || !strcmp(d->d_name, "name") ||
			    !strcmp(d->d_name, "flags") || !strcmp(d->d_name, "groups_flags"))
				continue;
			files[nr] = strdup(d->d_name);
			if (files[nr])
				nr++;
		}
		closedir(dd);
	}
	qsort(files, nr, sizeof(files[0]), cmp_name);
	for (i = 0; i < nr; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if (record_read_value(path, val, sizeof(val)) &&
		    o + 3 + strlen(files[i]) + strlen(val) < len)
			o += snprintf(buf + o, len - o, " %s=%s", files[i], val);
		free(files[i]);
	}
	return o;
cut:
	buf[0] = '\0';
	return 0;
}

static void snap_domains(struct snap *sn, const char **debugfs)
{
	char line[SNAP_LINE + 64];
	char path[PATH_MAX];
	struct statfs sf;
	struct dirent *d;
	DIR *dd;
	int cpu;

	if (statfs("/sys/kernel/debug", &sf) < 0 || (uint32_t)sf.f_type != DEBUGFS_MAGIC) {
		*debugfs = "not-mounted";
		return;
	}
	dd = opendir(SCHED_DEBUGFS "/domains");
	if (!dd) {
		*debugfs = "no-sched-domains";
		return;
	}
	*debugfs = "mounted";
	while ((d = readdir(dd))) {
		int level;

		if (strncmp(d->d_name, "cpu", 3) || !util_all_digits(d->d_name + 3))
			continue;
		cpu = atoi(d->d_name + 3);
		for (level = 0; level < 64; level++) {
			size_t n;

			snprintf(path, sizeof(path), SCHED_DEBUGFS "/domains/cpu%d/domain%d", cpu, level);
			if (access(path, F_OK) < 0)
				break;
			n = record_format_domain(line, SNAP_LINE, path, sn->phase, cpu, level);
			if (!n)
				continue;
			sn->domains++;
			snap_write(sn, line, n, false);
		}
	}
	closedir(dd);
}

int record_snapshot(struct record *r, const char *phase)
{
	struct snap *sn = calloc(1, sizeof(*sn));
	const char *debugfs = "not-mounted";
	uint64_t t0 = record_now_ns();
	char line[SNAP_LINE + 64];
	char absent[256] = "";
	size_t o = 0;
	int ret;
	int i;
	int n;

	if (!sn)
		return err_set(r->e, -ENOMEM, "out of memory");
	sn->r = r;
	sn->phase = phase;
	snap_tasks(sn);
	snap_domains(sn, &debugfs);
	for (i = 0; i < ABS__COUNT; i++)
		if (sn->absent[i])
			o += snprintf(absent + o, sizeof(absent) - o, "%s%s:%" PRId64, o ? "," : "",
				      abs_names[i], sn->absent[i]);
	n = snprintf(line, sizeof(line),
		     "%s phase=%s tasks=%" PRId64 " kthreads=%" PRId64 " unwritten=%" PRId64
		     " absent=%s domains=%" PRId64 " debugfs=%s read_ns=%" PRIu64,
		     marker_format(SR_MARK_SNAPSHOT)->word, phase, sn->tasks, sn->kthreads,
		     sn->unwritten, o ? absent : "none", sn->domains, debugfs, record_now_ns() - t0);
	if (n > 0 && (size_t)n < sizeof(line))
		snap_write(sn, line, (size_t)n, false);
	record_flush(r);
	r->sum.snapshot_tasks = sn->tasks;
	r->sum.snapshot_unwritten = sn->unwritten;
	r->sum.snapshot_domains = sn->domains;
	ret = sn->ret;
	free(sn);
	if (ret < 0)
		return err_set(r->e, ret, "cannot write the %s snapshot to the instance's trace_marker: %s",
			       phase, strerror(-ret));
	return 0;
}
