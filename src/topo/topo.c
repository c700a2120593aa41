// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * topo.c - struct topo itself: allocation, queries, validation, growing
 * the CPU map, and topo_load()'s choice of reader.
 *
 * Invariants: cpu_node has nr_cpus entries, distance nr_nodes^2 and
 * node_absent nr_nodes, all owned by the struct; 1 <= nr_nodes <=
 * TOPO_MAX_NODES and 0 <= nr_cpus <= TOPO_MAX_CPUS.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topo-local.h"

/* --topology files larger than this are refused (a 1024-node numactl -H is ~5 MiB) */
#define TOPO_MAX_FILE (16u << 20)

struct topo *topo_new(int nr_nodes, int nr_cpus)
{
	struct topo *t;
	int i;

	if (nr_nodes < 1 || nr_nodes > TOPO_MAX_NODES || nr_cpus < 0 || nr_cpus > TOPO_MAX_CPUS)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->nr_nodes = nr_nodes;
	t->nr_cpus = nr_cpus;
	t->cpu_node = malloc((size_t)(nr_cpus ? nr_cpus : 1) * sizeof(int));
	if (!t->cpu_node)
		goto out_free_topo;
	t->distance = calloc((size_t)nr_nodes * (size_t)nr_nodes, sizeof(int));
	if (!t->distance)
		goto out_free_map;
	t->node_absent = calloc((size_t)nr_nodes, sizeof(bool));
	if (!t->node_absent)
		goto out_free_dist;
	for (i = 0; i < nr_cpus; i++)
		t->cpu_node[i] = -1;
	for (i = 0; i < nr_nodes; i++)
		t->distance[i * nr_nodes + i] = 10;
	t->source = TOPO_SRC_DEFAULT;
	return t;

out_free_dist:
	free(t->distance);
out_free_map:
	free(t->cpu_node);
out_free_topo:
	free(t);
	return NULL;
}

struct topo *topo_new_single(int nr_cpus)
{
	struct topo *t = topo_new(1, nr_cpus);
	int i;

	if (!t)
		return NULL;
	for (i = 0; i < nr_cpus; i++)
		t->cpu_node[i] = 0;
	return t;
}

void topo_free(struct topo *t)
{
	if (!t)
		return;
	free(t->cpu_node);
	free(t->distance);
	free(t->node_absent);
	topo_latency_free(t->latency);
	free(t);
}

const char *topo_source_name(enum topo_source s)
{
	switch (s) {
	case TOPO_SRC_DEFAULT:
		return "default";
	case TOPO_SRC_TRACE:
		return "trace";
	case TOPO_SRC_SYSFS:
		return "sysfs";
	case TOPO_SRC_NUMACTL:
		return "numactl";
	case TOPO_SRC_JSON:
		return "json";
	case TOPO_SRC_CAPTURE:
		return "capture";
	}
	return "unknown";
}

int topo_validate(const struct topo *t, struct err *err)
{
	int present = 0;
	int a;
	int b;
	int d;

	if (!t || t->nr_nodes < 1 || t->nr_nodes > TOPO_MAX_NODES)
		return err_set(err, -SR_EBADTOPO, "node count out of range");
	if (t->nr_cpus < 0 || t->nr_cpus > TOPO_MAX_CPUS)
		return err_set(err, -SR_EBADTOPO, "cpu count %d out of range", t->nr_cpus);
	for (a = 0; a < t->nr_nodes; a++) {
		if (t->node_absent[a])
			continue;
		present++;
		for (b = 0; b < t->nr_nodes; b++) {
			if (t->node_absent[b])
				continue;
			d = t->distance[a * t->nr_nodes + b];
			if (a == b && d != 10)
				return err_set(err, -SR_EBADTOPO,
					       "distance from node %d to itself is %d, not 10", a, d);
			if (d < 10 || d > TOPO_MAX_DISTANCE)
				return err_set(err, -SR_EBADTOPO,
					       "distance from node %d to node %d is %d (10..%d expected)",
					       a, b, d, TOPO_MAX_DISTANCE);
		}
	}
	if (!present)
		return err_set(err, -SR_EBADTOPO, "no node present");
	for (a = 0; a < t->nr_cpus; a++) {
		d = t->cpu_node[a];
		if (d != -1 && !topo_node_present(t, d))
			return err_set(err, -SR_EBADTOPO, "cpu %d is on node %d, which does not exist",
				       a, d);
	}
	return 0;
}

int topo_grow_cpus(struct topo *t, int nr_cpus)
{
	int *map;
	int i;

	if (nr_cpus > TOPO_MAX_CPUS)
		return -SR_ERANGE;
	if (nr_cpus <= t->nr_cpus)
		return 0;
	map = realloc(t->cpu_node, (size_t)nr_cpus * sizeof(int));
	if (!map)
		return -ENOMEM;
	for (i = t->nr_cpus; i < nr_cpus; i++)
		map[i] = (t->source == TOPO_SRC_DEFAULT && t->nr_nodes == 1) ? 0 : -1;
	t->cpu_node = map;
	t->nr_cpus = nr_cpus;
	return 0;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* A folder holding nodeN entries? */
static bool has_node_dirs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool found = false;

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' &&
		    de->d_name[4] <= '9')
			found = true;
	}
	closedir(d);
	return found;
}

static struct topo *load_text(const char *path, enum topo_source numactl_src, struct err *err)
{
	struct topo *t;
	char *text;
	size_t len;
	size_t i;

	text = topo_read_file(path, TOPO_MAX_FILE, &len, err);
	if (!text)
		return NULL;
	for (i = 0; i < len && topo_is_blank(text[i]); i++)
		;
	if (i < len && text[i] == '{') {
		t = topo_from_json(text, len, path, err);
	} else {
		t = topo_from_numactl(text, len, path, err);
		if (t)
			t->source = numactl_src;
	}
	free(text);
	return t;
}

struct topo *topo_load(const char *path, struct err *err)
{
	char sub[4096];

	if (!path || !*path) {
		err_set(err, -SR_EUSAGE, "no topology path given");
		return NULL;
	}
	if (!is_dir(path))
		return load_text(path, TOPO_SRC_NUMACTL, err);
	if (has_node_dirs(path))
		return topo_from_sysfs(path, err);
	if ((size_t)snprintf(sub, sizeof(sub), "%s/node", path) < sizeof(sub) && is_dir(sub) &&
	    has_node_dirs(sub))
		return topo_from_sysfs(sub, err);
	if ((size_t)snprintf(sub, sizeof(sub), "%s/numactl-H.txt", path) < sizeof(sub) &&
	    !access(sub, R_OK))
		return load_text(sub, TOPO_SRC_CAPTURE, err);
	err_set_file(err, path);
	err_set(err, -SR_ENOTFOUND,
		"no nodeN folders, node/ folder or numactl-H.txt in this folder");
	return NULL;
}
