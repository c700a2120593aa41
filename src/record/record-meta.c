// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record-meta.c - what the recorder knows about the host, as marker lines
 * (schedreplay_meta / _node / _sysctl / _vmstat, format in
 * docs/recording.md) written into the instance's trace_marker and kept in
 * struct record's metadata text for the trace.dat option; and the pure
 * helpers that read /proc/PID/task/TID/sched and format numa_sample lines.
 *
 * Marker lines are at most MARKER_LINE bytes (older kernels cut
 * trace_marker writes at 1 KiB); longer lists continue on a second line
 * with the same leading word.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "record-local.h"

#define MARKER_LINE	960

int record_text_add(struct record_text *t, const char *s, size_t len)
{
	if (t->len + len + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 1024;
		char *b;

		while (cap < t->len + len + 1)
			cap *= 2;
		b = realloc(t->buf, cap);
		if (!b)
			return -ENOMEM;
		t->buf = b;
		t->cap = cap;
	}
	memcpy(t->buf + t->len, s, len);
	t->len += len;
	t->buf[t->len] = '\0';
	return 0;
}

int record_text_printf(struct record_text *t, const char *fmt, ...)
{
	char line[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	return record_text_add(t, line, n);
}

void record_text_release(struct record_text *t)
{
	free(t->buf);
	t->buf = NULL;
	t->len = 0;
	t->cap = 0;
}

uint64_t record_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int record_marker_write(int fd, const char *line, size_t len)
{
	ssize_t n;

	do
		n = write(fd, line, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : 0;
}

char *record_read_file(const char *path, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0;
	size_t n = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (;;) {
		ssize_t got;

		if (n + 1024 > cap) {
			char *b;

			cap = cap ? cap * 2 : 4096;
			b = realloc(buf, cap);
			if (!b) {
				free(buf);
				close(fd);
				return NULL;
			}
			buf = b;
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			close(fd);
			return NULL;
		}
		if (!got)
			break;
		n += got;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* a one-line file's value: blanks inside become ',' (no spaces in markers) */
bool record_read_value(const char *path, char *val, size_t len)
{
	char *s = record_read_file(path, NULL);
	size_t i;
	size_t o = 0;

	if (!s)
		return false;
	for (i = 0; s[i] && o + 1 < len; i++) {
		unsigned char c = s[i];

		if (c == '\n' && !s[i + 1])
			break;
		if (isspace(c) || c < 0x20 || c >= 0x7f)
			c = ',';
		if (c == ',' && (!o || val[o - 1] == ','))
			continue;
		val[o++] = c;
	}
	while (o && val[o - 1] == ',')
		o--;
	val[o] = '\0';
	free(s);
	return o > 0;
}

/*
 * writes full lines of "<word> k=v k=v..." to the marker and the metadata;
 * the word and the names of the table's keys come from marker_format()
 */
struct line_builder {
	struct record	*r;
	enum sr_marker_kind kind;
	const char	*word;
	char		line[MARKER_LINE + 64];
	size_t		len;
	int		ret;
};

static void lb_flush(struct line_builder *lb)
{
	int ret;

	if (lb->len <= strlen(lb->word))
		return;
	ret = record_marker_write(lb->r->marker_fd, lb->line, lb->len);
	if (ret < 0 && !lb->ret)
		lb->ret = ret;
	ret = record_text_add(&lb->r->meta, lb->line, lb->len);
	if (!ret)
		ret = record_text_add(&lb->r->meta, "\n", 1);
	if (ret < 0 && !lb->ret)
		lb->ret = ret;
	lb->len = snprintf(lb->line, sizeof(lb->line), "%s", lb->word);
}

static void lb_init(struct line_builder *lb, struct record *r, enum sr_marker_kind kind)
{
	lb->r = r;
	lb->kind = kind;
	lb->word = marker_format(kind)->word;
	lb->ret = 0;
	lb->len = snprintf(lb->line, sizeof(lb->line), "%s", lb->word);
}

static void lb_add(struct line_builder *lb, const char *key, const char *val)
{
	size_t need = 2 + strlen(key) + strlen(val);

	if (need > MARKER_LINE - strlen(lb->word))
		return;	/* a single value too long for a line: left out */
	if (lb->len + need > MARKER_LINE)
		lb_flush(lb);
	lb->len += snprintf(lb->line + lb->len, sizeof(lb->line) - lb->len, " %s=%s", key, val);
}

/* a key of the kind's table (an MK_* index) */
static void lb_key(struct line_builder *lb, int key, const char *val)
{
	lb_add(lb, record_key_name(lb->kind, key), val);
}

static int count_nodes(void)
{
	char path[64];
	int n = 0;

	for (;;) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", n);
		if (access(path, F_OK) < 0)
			return n;
		n++;
	}
}

static void meta_nodes(struct record *r, int nodes, int cpus)
{
	struct line_builder lb;
	char path[96];
	char val[MARKER_LINE];
	char num[16];
	int n;

	for (n = 0; n < (nodes ? nodes : 1); n++) {
		lb_init(&lb, r, SR_MARK_NODE);
		snprintf(num, sizeof(num), "%d", n);
		lb_key(&lb, MK_NODE_NODE, num);
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
		if (!nodes || !record_read_value(path, val, sizeof(val)))
			snprintf(val, sizeof(val), "0-%d", cpus - 1);
		lb_key(&lb, MK_NODE_CPUS, val);
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/distance", n);
		if (!nodes || !record_read_value(path, val, sizeof(val)))
			snprintf(val, sizeof(val), "10");
		lb_key(&lb, MK_NODE_DISTANCE, val);
		lb_flush(&lb);
	}
}

/* the pairs of the latency profile that were measured */
static int latency_lines(const struct record_latency *l)
{
	int i, n = 0;

	for (i = 0; l && i < l->nr_nodes * l->nr_nodes; i++)
		n += l->ns[i] > 0;
	return n;
}

/* one schedreplay_latency line per measured pair, from the marker table */
static int meta_latency(struct record *r)
{
	const struct record_latency *l = r->latency;
	char bufs[MK_LATENCY__COUNT][32];
	const char *vals[MK_LATENCY__COUNT];
	char line[MARKER_LINE + 1];
	size_t len;
	int from, to, i, ret = 0;

	for (from = 0; l && from < l->nr_nodes; from++) {
		for (to = 0; to < l->nr_nodes; to++) {
			i = from * l->nr_nodes + to;
			if (!(l->ns[i] > 0))
				continue;
			snprintf(bufs[MK_LATENCY_FROM], sizeof(bufs[0]), "%d", from);
			snprintf(bufs[MK_LATENCY_TO], sizeof(bufs[0]), "%d", to);
			snprintf(bufs[MK_LATENCY_NS], sizeof(bufs[0]), "%.3f", l->ns[i]);
			snprintf(bufs[MK_LATENCY_SPREAD], sizeof(bufs[0]), "%.3f", l->spread[i]);
			snprintf(bufs[MK_LATENCY_REPEATS], sizeof(bufs[0]), "%d", l->repeats);
			snprintf(bufs[MK_LATENCY_LOADS], sizeof(bufs[0]), "%.0f", l->loads[i]);
			for (i = 0; i < MK_LATENCY__COUNT; i++)
				vals[i] = bufs[i];
			len = record_marker_line(line, sizeof(line), SR_MARK_LATENCY, vals);
			if (len && !ret)
				ret = record_marker_write(r->marker_fd, line, len);
		}
	}
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* every readable single-value file of @dir whose name starts with @prefix */
static void sysctl_dir(struct line_builder *lb, const char *dir, const char *prefix,
		       const char *keyprefix)
{
	char *names[256];
	struct dirent *d;
	char path[512];
	char key[300];
	char val[256];
	int n = 0;
	int i;
	DIR *dd;

	dd = opendir(dir);
	if (!dd)
		return;
	while ((d = readdir(dd)) && n < 256) {
		if (d->d_name[0] == '.' || strncmp(d->d_name, prefix, strlen(prefix)) ||
		    d->d_type == DT_DIR || !strcmp(d->d_name, "debug") ||
		    !strcmp(d->d_name, "features"))
			continue;	/* sched/debug is not one value; features has its key */
		names[n] = strdup(d->d_name);
		if (names[n])
			n++;
	}
	closedir(dd);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		snprintf(key, sizeof(key), "%s%s", keyprefix, names[i]);
		if (record_read_value(path, val, sizeof(val)))
			lb_add(lb, key, val);
		free(names[i]);
	}
}

static int meta_sysctl(struct record *r, const char *phase)
{
	struct line_builder lb;
	char val[MARKER_LINE];

	lb_init(&lb, r, SR_MARK_SYSCTL);
	lb_key(&lb, MK_SYSCTL_PHASE, phase);
	sysctl_dir(&lb, "/proc/sys/kernel", "numa_balancing", "kernel.");
	/* debugfs knobs: read when debugfs is mounted (the recorder never mounts it) */
	sysctl_dir(&lb, "/sys/kernel/debug/sched/numa_balancing", "", "numa_balancing.");
	/* the tunables of sched/ (migration_cost_ns, nr_migrate, ...): not debug, features */
	sysctl_dir(&lb, "/sys/kernel/debug/sched", "", "sched.");
	sysctl_dir(&lb, "/proc/sys/kernel", "sched_", "kernel.");
	if (record_read_value("/sys/kernel/debug/sched/features", val, sizeof(val)) ||
	    record_read_value("/sys/kernel/debug/sched_features", val, sizeof(val)))
		lb_key(&lb, MK_SYSCTL_SCHED_FEATURES, val);
	else
		lb_key(&lb, MK_SYSCTL_SCHED_FEATURES, "unavailable");
	lb_flush(&lb);
	return lb.ret;
}

static bool vmstat_key(const char *k)
{
	static const char *const prefixes[] = {
		"numa_", "pgpromote_", "pgdemote_", "pgmigrate_", "thp_migration_",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(k, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static int meta_vmstat(struct record *r, const char *phase)
{
	struct line_builder lb;
	char *vm = record_read_file("/proc/vmstat", NULL);
	char *save = NULL;
	char *l;

	lb_init(&lb, r, SR_MARK_VMSTAT);
	lb_key(&lb, MK_VMSTAT_PHASE, phase);
	for (l = vm ? strtok_r(vm, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(l, ' ');

		if (!sp)
			continue;
		*sp = '\0';
		if (vmstat_key(l))
			lb_add(&lb, l, sp + 1);
	}
	free(vm);
	lb_flush(&lb);
	return lb.ret;
}

/* one schedreplay_probe line per decision probe (record-probe.c) */
static void meta_probes(struct record *r)
{
	char line[MARKER_LINE + 64];
	size_t n;
	int i;

	record_probe_counts(r, true);
	for (i = 0; i < RECORD_NR_PROBES; i++) {
		n = record_probe_marker(&r->dprobe[i], line, sizeof(line));
		if (!n || n > MARKER_LINE)
			continue;
		record_marker_write(r->marker_fd, line, n);
		if (!record_text_add(&r->meta, line, n))
			record_text_add(&r->meta, "\n", 1);
	}
}

/* the end: each added probe's hits and misses from kprobe_profile */
static int meta_probe_counts(struct record *r)
{
	struct line_builder lb;
	char val[32];
	int ret = 0;
	int i;

	record_probe_counts(r, false);
	for (i = 0; i < RECORD_NR_PROBES; i++) {
		const struct record_probe *p = &r->dprobe[i];

		if (!p->added || p->hits == -1ULL)
			continue;
		lb_init(&lb, r, SR_MARK_PROBE);
		lb_key(&lb, MK_PROBE_NAME, p->name);
		lb_key(&lb, MK_PROBE_STATUS, "added");
		lb_key(&lb, MK_PROBE_PHASE, "end");
		snprintf(val, sizeof(val), "%llu", p->hits);
		lb_key(&lb, MK_PROBE_HITS, val);
		snprintf(val, sizeof(val), "%llu", p->misses);
		lb_key(&lb, MK_PROBE_MISSES, val);
		lb_flush(&lb);
		if (lb.ret && !ret)
			ret = lb.ret;
	}
	return ret;
}

int record_meta_start(struct record *r)
{
	struct line_builder lb;
	struct utsname u;
	char val[64];
	int nodes = count_nodes();
	int ret;
	int i;

	uname(&u);
	lb_init(&lb, r, SR_MARK_META);
	lb_key(&lb, MK_META_RELEASE, u.release);
	lb_key(&lb, MK_META_MACHINE, u.machine);
	snprintf(val, sizeof(val), "%d", nodes ? nodes : 1);
	lb_key(&lb, MK_META_NODES, val);
	snprintf(val, sizeof(val), "%d", r->nr_cpus);
	lb_key(&lb, MK_META_CPUS, val);
	lb_key(&lb, MK_META_RECORDER, "schedreplay-" SR_VERSION);
	lb_key(&lb, MK_META_CLOCK, r->clock);
	snprintf(val, sizeof(val), "%u", r->opts.sample_ms);
	lb_key(&lb, MK_META_SAMPLE_MS, val);
	snprintf(val, sizeof(val), "%u", r->opts.buffer_kb);
	lb_key(&lb, MK_META_BUFFER_KB, val);
	lb_key(&lb, MK_META_KPROBE, r->probe_enabled ? "numa_fault" : "unavailable");
	snprintf(val, sizeof(val), "%d", r->page_size);
	lb_key(&lb, MK_META_PAGE_SIZE, val);
	snprintf(val, sizeof(val), "%d", latency_lines(r->latency));
	lb_key(&lb, MK_META_LATENCY, val);
	lb_flush(&lb);
	ret = lb.ret;
	lb_init(&lb, r, SR_MARK_EVENTS);
	for (i = 0; i < r->nr_events; i++)
		lb_add(&lb, r->events[i].name, r->events[i].enabled ? "on" : "absent");
	lb_flush(&lb);
	meta_probes(r);
	meta_nodes(r, nodes, r->nr_cpus);
	if (!ret)
		ret = meta_latency(r);
	meta_sysctl(r, "start");
	if (!ret)
		ret = meta_vmstat(r, "start");
	if (ret < 0)
		return err_set(r->e, ret, "cannot write to the instance's trace_marker: %s",
			       strerror(-ret));
	return 0;
}

int record_meta_end(struct record *r)
{
	int ret = meta_sysctl(r, "end");
	int ret2 = meta_probe_counts(r);
	int ret3 = meta_vmstat(r, "end");

	return ret3 ? ret3 : ret2 ? ret2 : ret;
}

/* ---- /proc/PID/task/TID/sched and numa_sample --------------------------- */

static const struct {
	const char	*key;
	size_t		off;
} sched_keys[] = {
	{ "total_numa_faults",		offsetof(struct marker_sample, tf) },
	{ "numa_pages_migrated",	offsetof(struct marker_sample, mig) },
	{ "mm->numa_scan_seq",		offsetof(struct marker_sample, scan) },
	{ "se.nr_migrations",		offsetof(struct marker_sample, nmig) },
	{ "nr_forced_migrations",	offsetof(struct marker_sample, forced) },
	{ "se.statistics.nr_forced_migrations", offsetof(struct marker_sample, forced) },
	{ "nr_failed_migrations_hot",	offsetof(struct marker_sample, fhot) },
	{ "se.statistics.nr_failed_migrations_hot", offsetof(struct marker_sample, fhot) },
	{ "nr_failed_migrations_running", offsetof(struct marker_sample, frun) },
	{ "se.statistics.nr_failed_migrations_running",
	  offsetof(struct marker_sample, frun) },
	{ "nr_failed_migrations_affine", offsetof(struct marker_sample, faff) },
	{ "se.statistics.nr_failed_migrations_affine",
	  offsetof(struct marker_sample, faff) },
};

/* "key   :   value" -> value as an integer (the part before any '.') */
static bool sched_line(const char *l, size_t len, const char *key, int64_t *out)
{
	size_t k = strlen(key);
	const char *p;
	const char *end = l + len;
	char num[32];
	size_t n = 0;

	if (len <= k || memcmp(l, key, k) || (l[k] != ' ' && l[k] != ':'))
		return false;
	p = l + k;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p != ':')
		return false;
	p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (p < end && n + 1 < sizeof(num) && (isdigit((unsigned char)*p) || (!n && *p == '-')))
		num[n++] = *p++;
	num[n] = '\0';
	if (!n || (n == 1 && num[0] == '-'))
		return false;
	*out = strtoll(num, NULL, 10);
	return true;
}

/* "name=123" inside @l, bounded by @len */
static bool field_in(const char *l, size_t len, const char *name, int64_t *out)
{
	size_t k = strlen(name);
	size_t i;

	for (i = 0; i + k < len; i++) {
		if ((i && l[i - 1] != ' ' && l[i - 1] != ',') || memcmp(l + i, name, k) ||
		    l[i + k] != '=')
			continue;
		if (!isdigit((unsigned char)l[i + k + 1]) && l[i + k + 1] != '-')
			return false;
		*out = strtoll(l + i + k + 1, NULL, 10);
		return true;
	}
	return false;
}

/* an int field of numa_sample: -1 when /proc printed more than an int */
static int narrow(int64_t v)
{
	return v < INT_MIN || v > INT_MAX ? -1 : (int)v;
}

/* one "numa_faults node=N task_private=..." line into out->faults[N] */
static void faults_line(const char *l, size_t len, struct marker_sample *out)
{
	struct marker_node_faults *f;
	int64_t node, tp, ts, gp, gs;
	int i;

	if (!field_in(l, len, "node", &node) || !field_in(l, len, "task_private", &tp) ||
	    !field_in(l, len, "task_shared", &ts) || !field_in(l, len, "group_private", &gp) ||
	    !field_in(l, len, "group_shared", &gs) || node < 0 || node >= MARKER_MAX_NODES)
		return;
	for (i = out->nr_nodes; i < node; i++) {	/* nodes not listed (yet) */
		f = &out->faults[i];
		f->task_private = f->task_shared = f->group_private = f->group_shared = -1;
	}
	if (node >= out->nr_nodes)
		out->nr_nodes = (int)node + 1;
	f = &out->faults[node];
	f->task_private = tp;
	f->task_shared = ts;
	f->group_private = gp;
	f->group_shared = gs;
}

void record_parse_sched(const char *text, size_t len, struct marker_sample *out)
{
	const char *p = text;
	const char *end = text + len;
	int64_t v;
	size_t i;

	out->t = out->seq = -1;
	out->pid = out->tid = out->cpu = -1;
	out->comm[0] = '\0';
	out->tf = out->mig = out->scan = -1;
	out->nmig = out->forced = out->fhot = out->frun = out->faff = -1;
	out->pref = out->node = out->grp = -1;
	out->nr_nodes = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (l > 12 && !memcmp(p, "numa_faults ", 12)) {
			faults_line(p, l, out);
		} else if (l > 13 && !memcmp(p, "current_node=", 13)) {
			if (field_in(p, l, "current_node", &v))
				out->node = narrow(v);
			if (field_in(p, l, "numa_group_id", &v))
				out->grp = narrow(v);
		} else if (sched_line(p, l, "numa_preferred_nid", &v)) {
			out->pref = narrow(v);
		} else {
			for (i = 0; i < sizeof(sched_keys) / sizeof(sched_keys[0]); i++) {
				int64_t *f = (int64_t *)((char *)out + sched_keys[i].off);

				if (sched_line(p, l, sched_keys[i].key, f))
					break;
			}
		}
		p += l + 1;
	}
}
