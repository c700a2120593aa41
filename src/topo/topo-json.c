// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * topo-json.c - read the topology JSON of docs/topology.md:
 *
 *	{"version": 1, "cpus": 8,
 *	 "nodes": [{"id": 0, "cpus": "0-1", "distance": [10, 20]},
 *		   {"id": 1, "cpus": [2, 3], "distance": [20, 10]}]}
 *
 * "version" and the top-level "cpus" (a CPU count) are optional; a node's
 * "cpus" is a cpulist string or an array of ids and may be left out for a
 * memory-only node; "distance" follows the same rule as sysfs (one value
 * per listed node in ascending id order, or one per id up to the highest).
 * Unknown keys are errors, so a typo is not silently ignored.  Syntax
 * errors name the line; semantic ones name the JSON path (Jansson keeps no
 * positions for values).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "topo-local.h"

struct json_ctx {
	struct topo_draft	*d;
	struct err		*err;
	int			vals[TOPO_MAX_NODES];
	uint64_t		cpus[TOPO_CPU_WORDS];
};

static int int_in(const json_t *v, long lo, long hi, int *out)
{
	json_int_t i;

	if (!json_is_integer(v))
		return -SR_EBADTOPO;
	i = json_integer_value(v);
	if (i < lo || i > hi)
		return -SR_ERANGE;
	*out = (int)i;
	return 0;
}

static int node_cpus(struct json_ctx *jc, size_t idx, const json_t *v)
{
	const json_t *item;
	size_t k;
	int cpu;
	int ret;

	memset(jc->cpus, 0, sizeof(jc->cpus));
	if (json_is_string(v)) {
		ret = topo_parse_cpulist(json_string_value(v), json_string_length(v), jc->cpus,
					 TOPO_MAX_CPUS);
		if (ret < 0)
			return err_set(jc->err, -SR_EBADTOPO, "nodes[%zu].cpus: bad cpu list%s", idx,
				       ret == -SR_ERANGE ? " (cpu id out of range)" : "");
		return 0;
	}
	if (!json_is_array(v))
		return err_set(jc->err, -SR_EBADTOPO,
			       "nodes[%zu].cpus: expected a string or an array of integers", idx);
	json_array_foreach(v, k, item) {
		ret = int_in(item, 0, TOPO_MAX_CPUS - 1, &cpu);
		if (ret)
			return err_set(jc->err, -SR_EBADTOPO,
				       "nodes[%zu].cpus[%zu]: expected a cpu id 0..%d", idx, k,
				       TOPO_MAX_CPUS - 1);
		jc->cpus[cpu / 64] |= 1ull << (cpu % 64);
	}
	return 0;
}

static int node_distance(struct json_ctx *jc, size_t idx, int id, const json_t *v)
{
	const json_t *item;
	size_t k;

	if (!json_is_array(v) || json_array_size(v) > TOPO_MAX_NODES)
		return err_set(jc->err, -SR_EBADTOPO,
			       "nodes[%zu].distance: expected an array of at most %d integers", idx,
			       TOPO_MAX_NODES);
	json_array_foreach(v, k, item) {
		if (int_in(item, 0, TOPO_MAX_DISTANCE, &jc->vals[k]))
			return err_set(jc->err, -SR_EBADTOPO,
				       "nodes[%zu].distance[%zu]: expected an integer 0..%d", idx, k,
				       TOPO_MAX_DISTANCE);
	}
	return topo_draft_set_row(jc->d, id, jc->vals, (int)json_array_size(v), 0, jc->err);
}

static int parse_node(struct json_ctx *jc, size_t idx, const json_t *node)
{
	const json_t *v;
	const char *key;
	int id;

	if (!json_is_object(node))
		return err_set(jc->err, -SR_EBADTOPO, "nodes[%zu]: expected an object", idx);
	json_object_foreach((json_t *)node, key, v) {
		if (strcmp(key, "id") && strcmp(key, "cpus") && strcmp(key, "distance"))
			return err_set(jc->err, -SR_EBADTOPO, "nodes[%zu]: unknown key '%.64s'",
				       idx, key);
	}
	if (int_in(json_object_get(node, "id"), 0, TOPO_MAX_NODES - 1, &id))
		return err_set(jc->err, -SR_EBADTOPO, "nodes[%zu].id: expected an integer 0..%d",
			       idx, TOPO_MAX_NODES - 1);
	if (jc->d->present[id])
		return err_set(jc->err, -SR_EBADTOPO, "nodes[%zu]: node %d listed twice", idx, id);
	if (topo_draft_add_node(jc->d, id, jc->err))
		return -SR_EBADTOPO;
	v = json_object_get(node, "cpus");
	if (v) {
		if (node_cpus(jc, idx, v))
			return -SR_EBADTOPO;
		if (topo_draft_place(jc->d, id, jc->cpus, jc->err))
			return -SR_EBADTOPO;
	}
	v = json_object_get(node, "distance");
	if (v && node_distance(jc, idx, id, v))
		return -SR_EBADTOPO;
	return 0;
}

static int parse_root(struct json_ctx *jc, const json_t *root)
{
	const json_t *nodes;
	const json_t *v;
	const char *key;
	size_t i;
	int num;

	if (!json_is_object(root))
		return err_set(jc->err, -SR_EBADTOPO, "expected a JSON object at the top");
	json_object_foreach((json_t *)root, key, v) {
		if (strcmp(key, "version") && strcmp(key, "cpus") && strcmp(key, "nodes"))
			return err_set(jc->err, -SR_EBADTOPO, "unknown key '%.64s'", key);
	}
	v = json_object_get(root, "version");
	if (v && (int_in(v, 1, 1, &num)))
		return err_set(jc->err, -SR_EUNSUPPORTED, "version: only 1 is known");
	v = json_object_get(root, "cpus");
	if (v) {
		if (int_in(v, 0, TOPO_MAX_CPUS, &num))
			return err_set(jc->err, -SR_EBADTOPO, "cpus: expected an integer 0..%d",
				       TOPO_MAX_CPUS);
		jc->d->min_cpus = num;
	}
	nodes = json_object_get(root, "nodes");
	if (!json_is_array(nodes) || !json_array_size(nodes))
		return err_set(jc->err, -SR_EBADTOPO, "nodes: expected a non-empty array");
	if (json_array_size(nodes) > TOPO_MAX_NODES)
		return err_set(jc->err, -SR_EBADTOPO, "nodes: more than %d", TOPO_MAX_NODES);
	for (i = 0; i < json_array_size(nodes); i++)
		if (parse_node(jc, i, json_array_get(nodes, i)))
			return -SR_EBADTOPO;
	return 0;
}

struct topo *topo_from_json(const char *text, size_t len, const char *name, struct err *err)
{
	struct json_ctx *jc;
	struct topo *t = NULL;
	json_error_t jerr;
	json_t *root;

	err_set_file(err, name);
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		err_set(err, -SR_EBADTOPO, "%s", jerr.text);
		err_at_line(err, jerr.line > 0 ? (uint64_t)jerr.line : 1);
		return NULL;
	}
	jc = calloc(1, sizeof(*jc));
	if (!jc) {
		err_set(err, -ENOMEM, "out of memory");
		goto out_put;
	}
	jc->err = err;
	jc->d = topo_draft_new();
	if (!jc->d) {
		err_set(err, -ENOMEM, "out of memory");
		goto out_free;
	}
	if (!parse_root(jc, root))
		t = topo_draft_build(jc->d, TOPO_SRC_JSON, name, err);
	topo_draft_free(jc->d);
out_free:
	free(jc);
out_put:
	json_decref(root);
	return t;
}
