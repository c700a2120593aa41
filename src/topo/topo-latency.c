// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * topo-latency.c - the machine's measured memory latency profile (struct
 * topo_latency): made empty, read from the JSON `schedreplay latency
 * --json` writes, attached to a topology, and the latency ratio the cost
 * model prices a remote access with.  The trace's own schedreplay_latency
 * lines are read by topo-builder.c.
 *
 *	{"latency": {"nodes": 2, "unit": "ns",
 *		     "ns": [[90.1, 141.7], [139.9, 88.6]],
 *		     "spread": [[0.4, 1.1], [0.9, 0.3]], ...}}
 *
 * Only "nodes", "ns" and "spread" are read (the other keys describe how
 * it was measured); a null entry is a pair that was not measured.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "topo-local.h"

#define LATENCY_MAX_FILE (16u << 20)

struct topo_latency *topo_latency_new(int nr_nodes)
{
	struct topo_latency *l;
	size_t i, n;

	if (nr_nodes < 1 || nr_nodes > TOPO_MAX_NODES)
		return NULL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	n = (size_t)nr_nodes * nr_nodes;
	l->nr_nodes = nr_nodes;
	l->ns = malloc(n * sizeof(*l->ns));
	l->spread = malloc(n * sizeof(*l->spread));
	if (!l->ns || !l->spread) {
		topo_latency_free(l);
		return NULL;
	}
	for (i = 0; i < n; i++)
		l->ns[i] = l->spread[i] = -1;
	return l;
}

void topo_latency_free(struct topo_latency *l)
{
	if (!l)
		return;
	free(l->ns);
	free(l->spread);
	free(l);
}

/* one row of "ns" or "spread" into @dst; null entries stay -1 */
static int json_row(const json_t *row, int n, double *dst, const char *key, int from,
		    bool positive, struct err *err)
{
	size_t i;
	json_t *v;

	if (!json_is_array(row) || json_array_size(row) != (size_t)n)
		return err_set(err, -SR_EBADTOPO, "latency.%s[%d]: not an array of %d values", key,
			       from, n);
	json_array_foreach(row, i, v) {
		double x;

		if (json_is_null(v))
			continue;
		if (!json_is_number(v))
			return err_set(err, -SR_EBADTOPO, "latency.%s[%d][%zu]: not a number", key,
				       from, i);
		x = json_number_value(v);
		if (!(x >= 0) || x > 1e9 || (positive && !(x > 0)))
			return err_set(err, -SR_ERANGE, "latency.%s[%d][%zu]: %g out of range (%s1e9 ns)",
				       key, from, i, x, positive ? "0 < ns <= " : "0 .. ");
		dst[from * n + i] = x;
	}
	return 0;
}

struct topo_latency *topo_latency_from_json(const char *text, size_t len, const char *name,
					    struct err *err)
{
	struct topo_latency *l = NULL;
	json_error_t je;
	json_t *root, *lat, *nodes, *ns, *spread, *row;
	size_t i;
	int n;

	root = json_loadb(text, len, 0, &je);
	if (!root) {
		err_set(err, -SR_EBADTOPO, "%s", je.text);
		err_set_file(err, name);
		err_at_line(err, je.line > 0 ? (uint64_t)je.line : 1);
		return NULL;
	}
	lat = json_object_get(root, "latency");
	nodes = lat ? json_object_get(lat, "nodes") : NULL;
	ns = lat ? json_object_get(lat, "ns") : NULL;
	spread = lat ? json_object_get(lat, "spread") : NULL;
	if (!json_is_object(lat)) {
		err_set(err, -SR_EBADTOPO, "no \"latency\" object (the JSON of 'schedreplay latency --json')");
		goto fail;
	}
	if (!json_is_integer(nodes) || json_integer_value(nodes) < 1 ||
	    json_integer_value(nodes) > TOPO_MAX_NODES) {
		err_set(err, -SR_EBADTOPO, "latency.nodes: not a node count (1..%d)", TOPO_MAX_NODES);
		goto fail;
	}
	n = (int)json_integer_value(nodes);
	if (!json_is_array(ns) || json_array_size(ns) != (size_t)n) {
		err_set(err, -SR_EBADTOPO, "latency.ns: not an array of %d rows", n);
		goto fail;
	}
	if (spread && !json_is_null(spread) &&
	    (!json_is_array(spread) || json_array_size(spread) != (size_t)n)) {
		err_set(err, -SR_EBADTOPO, "latency.spread: not an array of %d rows", n);
		goto fail;
	}
	l = topo_latency_new(n);
	if (!l) {
		err_set(err, -ENOMEM, "out of memory");
		goto fail;
	}
	json_array_foreach(ns, i, row)
		if (json_row(row, n, l->ns, "ns", (int)i, true, err))
			goto fail;
	if (json_is_array(spread))
		json_array_foreach(spread, i, row)
			if (json_row(row, n, l->spread, "spread", (int)i, false, err))
				goto fail;
	snprintf(l->origin, sizeof(l->origin), "%s", name);
	json_decref(root);
	return l;
fail:
	err_set_file(err, name);
	topo_latency_free(l);
	json_decref(root);
	return NULL;
}

struct topo_latency *topo_latency_load(const char *path, struct err *err)
{
	struct topo_latency *l;
	size_t len;
	char *text = topo_read_file(path, LATENCY_MAX_FILE, &len, err);

	if (!text)
		return NULL;
	l = topo_latency_from_json(text, len, path, err);
	free(text);
	return l;
}

int topo_attach_latency(struct topo *t, struct topo_latency *l, struct err *err)
{
	if (l->nr_nodes != t->nr_nodes)
		return err_set(err, -SR_EBADTOPO,
			       "the latency profile covers %d nodes, the topology has %d",
			       l->nr_nodes, t->nr_nodes);
	topo_latency_free(t->latency);
	t->latency = l;
	return 0;
}

double topo_latency_ratio(const struct topo *t, int a, int b)
{
	const struct topo_latency *l = t ? t->latency : NULL;
	double local, far;

	if (!l || a < 0 || b < 0 || a >= l->nr_nodes || b >= l->nr_nodes)
		return -1;
	local = l->ns[a * l->nr_nodes + a];
	far = l->ns[a * l->nr_nodes + b];
	if (!(local > 0) || !(far > 0))
		return -1;
	return far / local;
}
