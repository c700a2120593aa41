// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report-common.c - pieces every report uses: the topology block, JSON
 * strings from untrusted bytes, and writing a JSON document safely.
 */
#include <errno.h>
#include <limits.h>
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

int report_write_json_flags(const json_t *root, const char *path, size_t flags)
{
	struct report_out o;
	int ret;

	ret = report_out_open(&o, path);
	if (ret < 0)
		return ret;
	if (json_dumpf(root, o.f, flags) < 0 || fputc('\n', o.f) == EOF) {
		ret = report_out_error(&o) ? -report_out_error(&o) : -EIO;
		report_out_close(&o, false);
		return ret;
	}
	return report_out_close(&o, true);
}

int report_write_json(const json_t *root, const char *path)
{
	return report_write_json_flags(root, path,
				       JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(12));
}
