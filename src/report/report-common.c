// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report-common.c - pieces every report uses: the topology block, JSON
 * strings from untrusted bytes, writing a JSON document safely, and text
 * folded to REPORT_TEXT_COLS columns.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "util/escape.h"

char *report_cpulist(char *buf, size_t len, const struct topo *t, int node)
{
	size_t o = 0;
	int c = 0, start;

	buf[0] = '\0';
	while (c < t->nr_cpus) {
		if (t->cpu_node[c] != node) {
			c++;
			continue;
		}
		start = c;
		while (c + 1 < t->nr_cpus && t->cpu_node[c + 1] == node)
			c++;
		if (o < len)
			o += snprintf(buf + o, len - o, start == c ? "%s%d" : "%s%d-%d",
				      o ? "," : "", start, c);
		c++;
	}
	return buf;
}

static _Thread_local bool json_oom;
static _Thread_local struct report_json_arena *json_arena;
static pthread_once_t json_alloc_once = PTHREAD_ONCE_INIT;

/*
 * A JSON tree made, written and dropped at once (an NDJSON line, a spilled
 * decision) takes some hundred allocations: they come from an arena of
 * 64 KiB chunks, one malloc() and free() for the tree, instead of one for
 * each.  jansson has one pair of allocation functions for the process, so
 * they tell the arena's memory from malloc()'s by address.
 */
struct arena_chunk {
	struct arena_chunk	*next;
	size_t			size;
	size_t			used;
	max_align_t		data[];
};

#define ARENA_CHUNK	(64u << 10)

static void *arena_get(struct report_json_arena *a, size_t n)
{
	struct arena_chunk *c;
	size_t size;

	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	for (c = a->cur; c; c = c->next) {
		a->cur = c;
		if (c->size - c->used >= n) {
			c->used += n;
			return (char *)c->data + c->used - n;
		}
	}
	/* a new chunk, after the last (a->cur) */
	size = n > ARENA_CHUNK ? n : ARENA_CHUNK;
	c = malloc(sizeof(*c) + size);
	if (!c)
		return NULL;
	c->next = NULL;
	c->size = size;
	c->used = n;
	if (a->cur)
		a->cur->next = c;
	else
		a->head = c;
	a->cur = c;
	return c->data;
}

static bool arena_has(const struct report_json_arena *a, const void *p)
{
	const struct arena_chunk *c;

	for (c = a->head; c; c = c->next)
		if ((const char *)p >= (const char *)c->data &&
		    (const char *)p < (const char *)c->data + c->size)
			return true;
	return false;
}

static void *json_alloc(size_t n)
{
	void *p = json_arena ? arena_get(json_arena, n) : malloc(n);

	if (!p)
		json_oom = true;
	return p;
}

static void json_free(void *p)
{
	if (p && json_arena && arena_has(json_arena, p))
		return;		/* the arena's, freed at report_json_arena_end() */
	free(p);
}

static void json_alloc_install(void)
{
	json_set_alloc_funcs(json_alloc, json_free);
}

void report_json_arena_begin(struct report_json_arena *a)
{
	pthread_once(&json_alloc_once, json_alloc_install);
	a->cur = a->head;
	json_arena = a;
}

void report_json_arena_end(struct report_json_arena *a)
{
	struct arena_chunk *c, *n;

	json_arena = NULL;
	for (c = a->head; c; c = n) {
		n = c->next;
		free(c);
	}
	a->head = a->cur = NULL;
}

void report_json_watch(void)
{
	pthread_once(&json_alloc_once, json_alloc_install);
	json_oom = false;
}

bool report_json_lost(void)
{
	return json_oom;
}

void report_json_fail(void)
{
	json_oom = true;
}

json_t *report_json_str(const char *s, size_t len)
{
	char buf[4 * 1024 + 1];

	escape_utf8(buf, sizeof(buf), s, len);
	return json_string(buf);
}

json_t *report_topology(const struct topo *t)
{
	json_t *o = json_object(), *nodes = json_array(), *map = json_array();
	char cpus[4096];
	int n, m, c;

	if (!o || !nodes || !map)
		goto out_free;
	for (n = 0; n < t->nr_nodes; n++) {
		json_t *node = json_object(), *dist = json_array();

		if (!node || !dist) {
			json_decref(node);
			json_decref(dist);
			goto out_free;
		}
		for (m = 0; m < t->nr_nodes; m++)
			json_array_append_new(dist, json_integer(topo_distance(t, n, m)));
		json_object_set_new(node, "id", json_integer(n));
		json_object_set_new(node, "cpus", json_string(report_cpulist(cpus, sizeof(cpus), t, n)));
		json_object_set_new(node, "distance", dist);
		json_array_append_new(nodes, node);
	}
	for (c = 0; c < t->nr_cpus; c++)
		json_array_append_new(map, json_integer(t->cpu_node[c]));
	json_object_set_new(o, "source", json_string(topo_source_name(t->source)));
	json_object_set_new(o, "origin", report_json_str(t->origin, strlen(t->origin)));
	json_object_set_new(o, "nodes", nodes);
	json_object_set_new(o, "cpu_node", map);
	return o;

out_free:
	json_decref(o);
	json_decref(nodes);
	json_decref(map);
	return NULL;
}

int report_out_open(struct report_out *o, const char *path)
{
	struct err e = { 0 };
	int ret;

	memset(o, 0, sizeof(*o));
	ret = outfile_open(&o->of, path, &e);
	o->f = o->of.f;
	return ret;
}

int report_out_close(struct report_out *o, bool ok)
{
	struct err e = { 0 };
	int ret = 0;

	if (!o->f)
		return 0;
	if (ok)
		ret = outfile_commit(&o->of, &e);
	else
		outfile_abort(&o->of);
	o->f = NULL;
	return ret;
}

int report_out_error(const struct report_out *o)
{
	return outfile_error(&o->of);
}

static int write_json(const json_t *root, const char *path, size_t flags,
		      const struct report_json_hole *hole)
{
	struct report_out o;
	int ret;

	ret = report_out_open(&o, path);
	if (ret < 0)
		return ret;
	if (report_json_dumpf_hole(root, o.f, flags, hole) < 0 || fputc('\n', o.f) == EOF) {
		ret = report_out_error(&o) ? -report_out_error(&o) : -EIO;
		report_out_close(&o, false);
		return ret;
	}
	return report_out_close(&o, true);
}

int report_write_json_flags(const json_t *root, const char *path, size_t flags)
{
	return write_json(root, path, flags, NULL);
}

int report_write_json(const json_t *root, const char *path)
{
	return write_json(root, path, REPORT_JSON_FLAGS, NULL);
}

int report_write_json_hole(const json_t *root, const char *path,
			   const struct report_json_hole *hole)
{
	return write_json(root, path, REPORT_JSON_FLAGS, hole);
}

/* columns of @s[0..n): UTF-8 continuation bytes take none */
static size_t text_cols(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* one line of @s[0..n), folded at spaces; continuation lines indented */
static void wrap_line(FILE *out, int indent, const char *s, size_t n)
{
	size_t width = REPORT_TEXT_COLS, cut, i;
	bool first = true;

	while (n) {
		size_t room = first ? width : width - (size_t)indent;

		if (!first)
			while (n && *s == ' ') {
				s++;
				n--;
			}
		if (text_cols(s, n) <= room) {
			cut = n;
		} else {
			/* the last space that keeps the line within room, else the first one */
			cut = 0;
			for (i = 1; i < n && text_cols(s, i) <= room; i++)
				if (s[i] == ' ')
					cut = i;
			for (i = room; !cut && i < n; i++)
				if (s[i] == ' ')
					cut = i;
			if (!cut)
				cut = n;
		}
		if (!first)
			fprintf(out, "%*s", indent, "");
		fwrite(s, 1, cut, out);
		fputc('\n', out);
		s += cut;
		n -= cut;
		first = false;
	}
}

void report_wrapf(FILE *out, int indent, const char *fmt, ...)
{
	char small[512], *buf = small, *p, *nl;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (!buf) {
			fputs(small, out);
			return;
		}
		va_start(ap, fmt);
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	for (p = buf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			/* no newline at the end: what is left is printed as it is */
			fputs(p, out);
			break;
		}
		if (nl == p)
			fputc('\n', out);
		else
			wrap_line(out, indent, p, (size_t)(nl - p));
	}
	if (buf != small)
		free(buf);
}
