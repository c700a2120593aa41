// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * topo-sysfs.c - read a copy of /sys/devices/system/node: each nodeN/
 * folder's cpulist ("0-1,4", possibly empty for a memory-only node) and
 * distance ("10 20 40 40": one value per online node, ascending ids).
 *
 * The kernel's node ids are kept: node0 and node2 without node1 give
 * nr_nodes 3 with node 1 marked absent (see topo.h).  Other entries of the
 * folder (online, possible, has_cpu, ...) are ignored.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo-local.h"

/* cpulist of 4096 CPUs written one by one is ~20 KiB */
#define SYSFS_MAX_FILE (64u << 10)

/* "node17" -> 17; -1 for anything else, -2 when the id is too large */
static int node_id(const char *name)
{
	const char *p = name + 4;
	int id;

	if (strncmp(name, "node", 4) || !*p)
		return -1;
	switch (topo_parse_uint(&p, p + strlen(p), TOPO_MAX_NODES - 1, &id)) {
	case 0:
		return *p ? -1 : id;
	case -SR_ERANGE:
		return -2;
	default:
		return -1;
	}
}

static int read_node(struct topo_draft *d, const char *dir, int id, int *vals, uint64_t *cpus,
		     struct err *err)
{
	char path[4096];
	char *text;
	size_t len;
	int n;
	int ret = -SR_EBADTOPO;

	snprintf(path, sizeof(path), "%s/node%d/cpulist", dir, id);
	text = topo_read_file(path, SYSFS_MAX_FILE, &len, err);
	if (!text)
		return err && err->code ? err->code : -EIO;
	n = topo_parse_cpulist(text, len, cpus, TOPO_MAX_CPUS);
	free(text);
	if (n < 0) {
		err_set(err, -SR_EBADTOPO, n == -SR_ERANGE ? "cpu id out of range (max %d)" :
			"bad cpu list", TOPO_MAX_CPUS - 1);
		err_at_line(err, 1);
		return -SR_EBADTOPO;
	}
	if (topo_draft_place(d, id, cpus, err)) {
		err_at_line(err, 1);
		return -SR_EBADTOPO;
	}

	snprintf(path, sizeof(path), "%s/node%d/distance", dir, id);
	text = topo_read_file(path, SYSFS_MAX_FILE, &len, err);
	if (!text)
		return err && err->code ? err->code : -EIO;
	n = topo_parse_intlist(text, len, vals, TOPO_MAX_NODES, TOPO_MAX_DISTANCE);
	if (n <= 0) {
		err_set(err, -SR_EBADTOPO, n == -SR_ERANGE ? "distance above %d or too many values" :
			"bad distance list", TOPO_MAX_DISTANCE);
		err_at_line(err, 1);
		goto out;
	}
	ret = topo_draft_set_row(d, id, vals, n, 0, err);
out:
	free(text);
	return ret;
}

struct topo *topo_from_sysfs(const char *dir, struct err *err)
{
	struct topo_draft *d;
	struct topo *t = NULL;
	struct dirent *de;
	uint64_t *cpus;
	int *vals;
	DIR *dh;
	int id;

	err_set_file(err, dir);
	d = topo_draft_new();
	vals = malloc(TOPO_MAX_NODES * sizeof(*vals));
	cpus = malloc(TOPO_CPU_WORDS * sizeof(*cpus));
	if (!d || !vals || !cpus) {
		err_set(err, -ENOMEM, "out of memory");
		goto out_free;
	}
	dh = opendir(dir);
	if (!dh) {
		err_set(err, -errno, "cannot open folder: %s", strerror(errno));
		goto out_free;
	}
	while ((de = readdir(dh))) {
		id = node_id(de->d_name);
		if (id == -1)
			continue;
		if (id == -2) {
			err_set(err, -SR_EBADTOPO, "'%.64s': node id out of range (at most %d nodes)",
				de->d_name, TOPO_MAX_NODES);
			goto out_close;
		}
		if (topo_draft_add_node(d, id, err))
			goto out_close;
	}
	closedir(dh);
	dh = NULL;
	if (!d->nr_present) {
		err_set(err, -SR_EBADTOPO, "no nodeN folders");
		goto out_free;
	}
	for (id = 0; id <= d->max_node; id++) {
		if (d->present[id] && read_node(d, dir, id, vals, cpus, err))
			goto out_free;
	}
	err_set_file(err, dir);
	t = topo_draft_build(d, TOPO_SRC_SYSFS, dir, err);
	goto out_free;

out_close:
	closedir(dh);
out_free:
	free(cpus);
	free(vals);
	topo_draft_free(d);
	return t;
}
