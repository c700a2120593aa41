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
static bool read_value(const char *path, char *val, size_t len)
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

/* writes full lines of "<word> k=v k=v..." to the marker and the metadata */
struct line_builder {
	struct record	*r;
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

static void lb_init(struct line_builder *lb, struct record *r, const char *word)
{
	lb->r = r;
	lb->word = word;
	lb->ret = 0;
	lb->len = snprintf(lb->line, sizeof(lb->line), "%s", word);
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
		lb_init(&lb, r, "schedreplay_node");
		snprintf(num, sizeof(num), "%d", n);
		lb_add(&lb, "node", num);
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
		if (!nodes || !read_value(path, val, sizeof(val)))
			snprintf(val, sizeof(val), "0-%d", cpus - 1);
		lb_add(&lb, "cpus", val);
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/distance", n);
		if (!nodes || !read_value(path, val, sizeof(val)))
			snprintf(val, sizeof(val), "10");
		lb_add(&lb, "distance", val);
		lb_flush(&lb);
	}
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
		if (d->d_name[0] == '.' || strncmp(d->d_name, prefix, strlen(prefix)))
			continue;
		names[n] = strdup(d->d_name);
		if (names[n])
			n++;
	}
	closedir(dd);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		snprintf(key, sizeof(key), "%s%s", keyprefix, names[i]);
		if (read_value(path, val, sizeof(val)))
			lb_add(lb, key, val);
		free(names[i]);
	}
}

static void meta_sysctl(struct record *r)
{
	struct line_builder lb;
	char val[MARKER_LINE];

	lb_init(&lb, r, "schedreplay_sysctl");
	sysctl_dir(&lb, "/proc/sys/kernel", "numa_balancing", "kernel.");
	/* debugfs knobs: read when debugfs is mounted (the recorder never mounts it) */
	sysctl_dir(&lb, "/sys/kernel/debug/sched/numa_balancing", "", "numa_balancing.");
	sysctl_dir(&lb, "/proc/sys/kernel", "sched_", "kernel.");
	if (read_value("/sys/kernel/debug/sched/features", val, sizeof(val)) ||
	    read_value("/sys/kernel/debug/sched_features", val, sizeof(val)))
		lb_add(&lb, "sched_features", val);
	else
		lb_add(&lb, "sched_features", "unavailable");
	lb_flush(&lb);
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

	lb_init(&lb, r, "schedreplay_vmstat");
	lb_add(&lb, "phase", phase);
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

int record_meta_start(struct record *r)
{
	struct line_builder lb;
	struct utsname u;
	char val[64];
	int nodes = count_nodes();
	int ret;
	int i;

	uname(&u);
	lb_init(&lb, r, "schedreplay_meta");
	lb_add(&lb, "release", u.release);
	lb_add(&lb, "machine", u.machine);
	snprintf(val, sizeof(val), "%d", nodes ? nodes : 1);
	lb_add(&lb, "nodes", val);
	snprintf(val, sizeof(val), "%d", r->nr_cpus);
	lb_add(&lb, "cpus", val);
	lb_add(&lb, "recorder", "schedreplay-" SR_VERSION);
	lb_add(&lb, "clock", r->clock);
	snprintf(val, sizeof(val), "%u", r->opts.sample_ms);
	lb_add(&lb, "sample_ms", val);
	snprintf(val, sizeof(val), "%u", r->opts.buffer_kb);
	lb_add(&lb, "buffer_kb", val);
	lb_add(&lb, "kprobe", r->probe_enabled ? "numa_fault" : "unavailable");
	snprintf(val, sizeof(val), "%d", r->page_size);
	lb_add(&lb, "page_size", val);
	lb_flush(&lb);
	ret = lb.ret;
	lb_init(&lb, r, "schedreplay_events");
	for (i = 0; i < r->nr_events; i++)
		lb_add(&lb, r->events[i].name, r->events[i].enabled ? "on" : "absent");
	lb_flush(&lb);
	meta_nodes(r, nodes, r->nr_cpus);
	meta_sysctl(r);
	if (!ret)
		ret = meta_vmstat(r, "start");
	if (ret < 0)
		return err_set(r->e, ret, "cannot write to the instance's trace_marker: %s",
			       strerror(-ret));
	return 0;
}

int record_meta_end(struct record *r)
{
	return meta_vmstat(r, "end");
}

/* ---- /proc/PID/task/TID/sched and numa_sample --------------------------- */

static const struct {
	const char	*key;
	size_t		off;
} sched_keys[] = {
	{ "numa_preferred_nid",		offsetof(struct record_task_sched, pref) },
	{ "total_numa_faults",		offsetof(struct record_task_sched, tf) },
	{ "numa_pages_migrated",	offsetof(struct record_task_sched, mig) },
	{ "mm->numa_scan_seq",		offsetof(struct record_task_sched, scan) },
	{ "se.nr_migrations",		offsetof(struct record_task_sched, nmig) },
	{ "nr_forced_migrations",	offsetof(struct record_task_sched, forced) },
	{ "se.statistics.nr_forced_migrations", offsetof(struct record_task_sched, forced) },
	{ "nr_failed_migrations_hot",	offsetof(struct record_task_sched, fhot) },
	{ "se.statistics.nr_failed_migrations_hot", offsetof(struct record_task_sched, fhot) },
	{ "nr_failed_migrations_running", offsetof(struct record_task_sched, frun) },
	{ "se.statistics.nr_failed_migrations_running",
	  offsetof(struct record_task_sched, frun) },
	{ "nr_failed_migrations_affine", offsetof(struct record_task_sched, faff) },
	{ "se.statistics.nr_failed_migrations_affine",
	  offsetof(struct record_task_sched, faff) },
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

static void faults_line(const char *l, size_t len, struct record_task_sched *out)
{
	int64_t node, tp, ts, gp, gs;
	size_t used = strlen(out->faults);
	char entry[128];
	int n;

	if (!field_in(l, len, "node", &node) || !field_in(l, len, "task_private", &tp) ||
	    !field_in(l, len, "task_shared", &ts) || !field_in(l, len, "group_private", &gp) ||
	    !field_in(l, len, "group_shared", &gs))
		return;
	n = snprintf(entry, sizeof(entry), "%s%lld:%lld/%lld/%lld/%lld", used ? "," : "",
		     (long long)node, (long long)tp, (long long)ts, (long long)gp, (long long)gs);
	if (n < 0 || used + n + 1 > sizeof(out->faults))
		return;	/* the list is cut at an entry: the reader takes unlisted nodes as 0 */
	memcpy(out->faults + used, entry, n + 1);
}

void record_parse_sched(const char *text, size_t len, struct record_task_sched *out)
{
	const char *p = text;
	const char *end = text + len;
	size_t i;

	out->pref = out->node = out->grp = out->tf = out->mig = out->scan = -1;
	out->nmig = out->forced = out->fhot = out->frun = out->faff = -1;
	out->faults[0] = '\0';
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (l > 12 && !memcmp(p, "numa_faults ", 12)) {
			faults_line(p, l, out);
		} else if (l > 13 && !memcmp(p, "current_node=", 13)) {
			field_in(p, l, "current_node", &out->node);
			field_in(p, l, "numa_group_id", &out->grp);
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

size_t record_format_sample(char *buf, size_t len, uint64_t t_ns, uint64_t seq, int tgid,
			    int tid, const char *comm, int cpu, const struct record_task_sched *s)
{
	char name[32];
	size_t i;
	int n;

	for (i = 0; comm[i] && i + 1 < sizeof(name) && i < 16; i++) {
		unsigned char c = comm[i];

		name[i] = c <= 0x20 || c == 0x7f ? '_' : (char)c;
	}
	name[i] = '\0';
	if (!i)
		snprintf(name, sizeof(name), "_");
	n = snprintf(buf, len,
		     "numa_sample t=%llu seq=%llu pid=%d tid=%d comm=%s cpu=%d pref=%lld node=%lld "
		     "grp=%lld tf=%lld mig=%lld scan=%lld nmig=%lld forced=%lld fhot=%lld "
		     "frun=%lld faff=%lld f=",
		     (unsigned long long)t_ns, (unsigned long long)seq, tgid, tid, name, cpu,
		     (long long)s->pref, (long long)s->node, (long long)s->grp, (long long)s->tf,
		     (long long)s->mig, (long long)s->scan, (long long)s->nmig,
		     (long long)s->forced, (long long)s->fhot, (long long)s->frun,
		     (long long)s->faff);
	if (n < 0 || (size_t)n >= len) {
		if (len)
			buf[0] = '\0';
		return 0;
	}
	/* the f= list, cut at an entry boundary when the buffer is short */
	{
		const char *f = s->faults;
		size_t o = n;

		while (*f) {
			const char *comma = strchr(f, ',');
			size_t el = comma ? (size_t)(comma - f) : strlen(f);

			if (o + el + 2 > len)
				break;
			if (o != (size_t)n)
				buf[o++] = ',';
			memcpy(buf + o, f, el);
			o += el;
			f += el + (comma ? 1 : 0);
		}
		buf[o] = '\0';
		return o;
	}
}
