// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record-dat.c - write a trace-cmd trace.dat, file format version 6
 * (man 5 trace-cmd.dat.v6), from the live tracefs and the per-CPU temp
 * files of raw ring-buffer pages.
 *
 * Why not libtracecmd's output API: trace-cmd 3.1.6 exports
 * tracecmd_output_create() and friends from the shared library, but its
 * installed header (trace-cmd.h) declares only the input side; the output
 * functions live in trace-cmd-private.h, which is not installed and has
 * changed between releases.  Version 6 is short and fully documented, so
 * it is written here, little-endian fields in host order (tracefs data is
 * in host order too).
 *
 * Layout: magic, "6", endianness, long size, page size; header_page and
 * header_event; the ftrace event formats (print lives there); the formats
 * of the enabled events, by system; kallsyms (only tracing_mark_write and
 * the symbol after it, so print events name their writer as trace-cmd
 * shows them, without copying the whole kernel symbol table into a file
 * that leaves the host); printk formats; saved
 * cmdlines; CPU count; "options  " (uname, version, trace clock, CPU
 * count, one CPUSTAT per CPU, and the schedreplay metadata option); then
 * "flyrecord" with each CPU's data offset and size, the trace_clock text
 * the TRACECLOCK option announces (size, "[clock]\n"), the data
 * page-aligned.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "record-local.h"
#include "record-dat.h"

struct dat_out {
	int		fd;
	uint64_t	off;
	int		ret;
	struct err	*e;
};

static void out_bytes(struct dat_out *o, const void *buf, size_t len)
{
	const char *p = buf;

	if (o->ret)
		return;
	while (len) {
		ssize_t n = write(o->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->ret = n < 0 ? -errno : -ENOSPC;
			return;
		}
		p += n;
		len -= n;
		o->off += n;
	}
}

static void out_u16(struct dat_out *o, uint16_t v)
{
	out_bytes(o, &v, 2);
}

static void out_u32(struct dat_out *o, uint32_t v)
{
	out_bytes(o, &v, 4);
}

static void out_u64(struct dat_out *o, uint64_t v)
{
	out_bytes(o, &v, 8);
}

/* a tracefs file with its size before it (4 or 8 bytes); NULL = empty */
static void out_sized(struct dat_out *o, int size_len, const char *data, size_t len)
{
	if (size_len == 4)
		out_u32(o, (uint32_t)len);
	else
		out_u64(o, len);
	if (len)
		out_bytes(o, data, len);
}

static void out_tracefs_file(struct dat_out *o, struct tracefs_instance *inst, const char *name,
			     int size_len)
{
	int len = 0;
	char *buf = tracefs_instance_file_read(inst, name, &len);

	out_sized(o, size_len, buf, buf && len > 0 ? (size_t)len : 0);
	free(buf);
}

static void out_option(struct dat_out *o, uint16_t id, const void *data, uint32_t len)
{
	out_u16(o, id);
	out_u32(o, len);
	out_bytes(o, data, len);
}

static void out_option_str(struct dat_out *o, uint16_t id, const char *s)
{
	out_option(o, id, s, (uint32_t)strlen(s) + 1);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the ftrace formats: every event of the "ftrace" system (print among them) */
static void out_ftrace_formats(struct dat_out *o)
{
	char **evs = tracefs_system_events(NULL, "ftrace");
	char path[512];
	uint32_t n = 0;
	uint32_t i;

	while (evs && evs[n])
		n++;
	if (n)
		qsort(evs, n, sizeof(evs[0]), cmp_str);
	out_u32(o, n);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "events/ftrace/%s/format", evs[i]);
		out_tracefs_file(o, NULL, path, 8);
	}
	tracefs_list_free(evs);
}

/* the formats of the enabled events, grouped by system in table order */
static void out_event_formats(struct dat_out *o, struct record *r)
{
	const char *systems[8];
	char path[512];
	int nsys = 0;
	int nprobes = 0;
	int i;
	int j;

	for (i = 0; i < r->nr_events; i++) {
		bool seen = false;

		if (!r->events[i].enabled)
			continue;
		for (j = 0; j < nsys; j++)
			seen |= !strcmp(systems[j], r->events[i].system);
		if (!seen && nsys < 7)
			systems[nsys++] = r->events[i].system;
	}
	for (i = 0; i < RECORD_NR_PROBES; i++)
		nprobes += r->dprobe[i].added;
	if (r->probe_enabled || nprobes)
		systems[nsys++] = r->probe_sys;
	out_u32(o, nsys);
	for (j = 0; j < nsys; j++) {
		uint32_t count = 0;

		out_bytes(o, systems[j], strlen(systems[j]) + 1);
		if (systems[j] == r->probe_sys) {
			/* numa_fault, then the decision probes (record-kprobe.c) */
			out_u32(o, (r->probe_enabled ? 1 : 0) + nprobes);
			if (r->probe_enabled) {
				snprintf(path, sizeof(path), "events/%s/numa_fault/format",
					 r->probe_sys);
				out_tracefs_file(o, r->inst, path, 8);
			}
			for (i = 0; i < RECORD_NR_PROBES; i++) {
				if (!r->dprobe[i].added)
					continue;
				snprintf(path, sizeof(path), "events/%s/%s/format", r->probe_sys,
					 r->dprobe[i].name);
				out_tracefs_file(o, r->inst, path, 8);
			}
			continue;
		}
		for (i = 0; i < r->nr_events; i++)
			count += r->events[i].enabled && !strcmp(r->events[i].system, systems[j]);
		out_u32(o, count);
		for (i = 0; i < r->nr_events; i++) {
			if (!r->events[i].enabled || strcmp(r->events[i].system, systems[j]))
				continue;
			snprintf(path, sizeof(path), "events/%s/%s/format", r->events[i].system,
				 r->events[i].name);
			out_tracefs_file(o, r->inst, path, 8);
		}
	}
}

static void out_options(struct dat_out *o, struct record *r)
{
	struct record_text t = { 0 };
	struct utsname u;
	char num[MK_LOST__COUNT][24];
	const char *const lost[MK_LOST__COUNT] = {
		num[0], num[1], num[2], num[3], num[4], num[5],
	};
	const char *rec[MK_RECORD__COUNT];
	char line[4096];
	char buf[1024];
	uint32_t ncpus = r->nr_cpus;
	int i;

	out_bytes(o, "options  ", 10);
	uname(&u);
	snprintf(buf, sizeof(buf), "%s %s %s %s", u.sysname, u.nodename, u.release, u.version);
	out_option_str(o, RECORD_DAT_OPT_UNAME, buf);
	out_option_str(o, RECORD_DAT_OPT_VERSION, "schedreplay-" SR_VERSION);
	snprintf(buf, sizeof(buf), "[%s]", r->clock);
	out_option_str(o, RECORD_DAT_OPT_TRACECLOCK, buf);
	out_option(o, RECORD_DAT_OPT_CPUCOUNT, &ncpus, 4);
	for (i = 0; i < r->nr_cpus; i++) {
		char path[64];
		char *st;

		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", i);
		st = r->inst ? tracefs_instance_file_read(r->inst, path, NULL) : NULL;
		snprintf(buf, sizeof(buf), "CPU: %d\n%s", i, st ? st : "");
		free(st);
		out_option_str(o, RECORD_DAT_OPT_CPUSTAT, buf);
	}
	/* our own option: the metadata lines, the options, the lost events */
	record_text_printf(&t, "%s\n", RECORD_DAT_META_MAGIC);
	rec[MK_RECORD_OPTIONS] = r->opts.cmdline ? r->opts.cmdline : "";
	rec[MK_RECORD_KPROBE] = r->kprobe;
	record_text_printf(&t, "%.*s\n", (int)record_marker_line(line, sizeof(line),
								   SR_MARK_RECORD, rec), line);
	if (r->meta.buf)
		record_text_add(&t, r->meta.buf, r->meta.len);
	for (i = 0; i < r->nr_cpus; i++) {
		snprintf(num[MK_LOST_CPU], sizeof(num[0]), "%d", i);
		snprintf(num[MK_LOST_LOST], sizeof(num[0]), "%llu",
			 (unsigned long long)r->stats[i].lost);
		snprintf(num[MK_LOST_LOST_PAGES], sizeof(num[0]), "%llu",
			 (unsigned long long)r->stats[i].lost_pages);
		snprintf(num[MK_LOST_OVERRUN], sizeof(num[0]), "%lld", (long long)r->stats[i].overrun);
		snprintf(num[MK_LOST_DROPPED], sizeof(num[0]), "%lld", (long long)r->stats[i].dropped);
		snprintf(num[MK_LOST_PAGES], sizeof(num[0]), "%llu",
			 (unsigned long long)r->stats[i].pages);
		record_text_printf(&t, "%.*s\n", (int)record_marker_line(line, sizeof(line),
									   SR_MARK_LOST, lost), line);
	}
	if (!t.buf) {
		o->ret = o->ret ? o->ret : -ENOMEM;
	} else {
		out_option(o, RECORD_DAT_OPT_SCHEDREPLAY, t.buf, (uint32_t)t.len + 1);
	}
	record_text_release(&t);
	out_u16(o, 0);
}

/* "addr type name" of /proc/kallsyms -> address; false for other lines */
static bool kallsyms_line(const char *l, unsigned long long *addr, char *name, size_t len)
{
	char type;
	char sym[128];

	if (sscanf(l, "%llx %c %127s", addr, &type, sym) != 3)
		return false;
	snprintf(name, len, "%s", sym);
	return true;
}

/* the kallsyms lines of tracing_mark_write and the next symbol up */
static void out_kallsyms(struct dat_out *o)
{
	unsigned long long mark = 0;
	unsigned long long next = ~0ULL;
	unsigned long long a;
	char next_line[512] = "";
	char mark_line[512] = "";
	char line[512];
	char name[128];
	char text[1040];
	int pass;
	FILE *f;

	for (pass = 0; pass < 2; pass++) {
		f = fopen("/proc/kallsyms", "re");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f)) {
			if (!kallsyms_line(line, &a, name, sizeof(name)))
				continue;
			if (!pass && !strcmp(name, "tracing_mark_write") && a) {
				mark = a;
				snprintf(mark_line, sizeof(mark_line), "%s", line);
				break;
			}
			if (pass && a > mark && a < next) {
				next = a;
				snprintf(next_line, sizeof(next_line), "%s", line);
			}
		}
		fclose(f);
		if (!mark)
			break;
	}
	snprintf(text, sizeof(text), "%s%s", mark_line, mark ? next_line : "");
	out_sized(o, 4, text, strlen(text));
}

static int copy_cpu(struct dat_out *o, int fd, uint64_t size, char *buf, size_t buflen)
{
	uint64_t done = 0;

	while (done < size && !o->ret) {
		size_t want = size - done < buflen ? (size_t)(size - done) : buflen;
		ssize_t n = pread(fd, buf, want, (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		out_bytes(o, buf, n);
		done += n;
	}
	return o->ret;
}

int record_dat_write(struct record *r, int fd)
{
	struct dat_out o = { .fd = fd, .e = r->e };
	struct stat st;
	uint64_t *sizes;
	uint64_t data;
	uint64_t pad;
	char clock[48];
	size_t clock_len;
	char *buf;
	int i;
	int ret = 0;

	sizes = calloc(r->nr_cpus, sizeof(*sizes));
	buf = malloc(1 << 16);
	if (!sizes || !buf) {
		free(sizes);
		free(buf);
		return err_set(r->e, -ENOMEM, "out of memory");
	}
	/* a FIFO or a device (-o /dev/stdout) is written as it is, from where it is */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0))
		o.ret = -errno;
	out_bytes(&o, "\027\010\104tracing", 10);
	out_bytes(&o, "6", 2);
	out_bytes(&o, (const char[]){ __BYTE_ORDER == __BIG_ENDIAN }, 1);
	out_bytes(&o, (const char[]){ (char)sizeof(long) }, 1);
	out_u32(&o, (uint32_t)r->page_size);
	out_bytes(&o, "header_page", 12);
	out_tracefs_file(&o, NULL, "events/header_page", 8);
	out_bytes(&o, "header_event", 13);
	out_tracefs_file(&o, NULL, "events/header_event", 8);
	out_ftrace_formats(&o);
	out_event_formats(&o, r);
	out_kallsyms(&o);
	out_tracefs_file(&o, NULL, "printk_formats", 4);
	out_tracefs_file(&o, NULL, "saved_cmdlines", 8);
	out_u32(&o, (uint32_t)r->nr_cpus);
	out_options(&o, r);
	out_bytes(&o, "flyrecord", 10);
	for (i = 0; i < r->nr_cpus; i++) {
		off_t end = lseek(r->cpus[i].fd, 0, SEEK_END);

		sizes[i] = end > 0 ? (uint64_t)end : 0;
	}
	/* after the table, the TRACECLOCK option's trace_clock text, as trace-cmd writes it */
	clock_len = (size_t)snprintf(clock, sizeof(clock), "[%s]\n", r->clock);
	data = o.off + 16ULL * r->nr_cpus + 8 + clock_len;
	data = (data + r->page_size - 1) / r->page_size * r->page_size;
	for (i = 0; i < r->nr_cpus; i++) {
		out_u64(&o, data);
		out_u64(&o, sizes[i]);
		data += sizes[i];
	}
	out_u64(&o, clock_len);
	out_bytes(&o, clock, clock_len);
	pad = (r->page_size - o.off % r->page_size) % r->page_size;
	memset(buf, 0, pad);
	out_bytes(&o, buf, pad);
	for (i = 0; i < r->nr_cpus && !o.ret; i++) {
		ret = copy_cpu(&o, r->cpus[i].fd, sizes[i], buf, 1 << 16);
		if (ret < 0 && !o.ret)
			o.ret = ret;
	}
	free(sizes);
	free(buf);
	r->sum.file_bytes = o.off;
	if (o.ret < 0)
		return err_set(r->e, o.ret, o.ret == -ENOSPC ? "disk full while writing it"
				: "cannot write it: %s", strerror(-o.ret));
	return 0;
}
