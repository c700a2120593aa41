/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topo.h - the machine's CPU->node map and node distance matrix.
 *
 * Sources, in the order the CLI tries them: the schedreplay_meta /
 * schedreplay_node marker lines inside the trace, then --topology PATH (a
 * copy of /sys/devices/system/node, the text of `numactl -H`, or the JSON
 * documented in docs/topology.md), then a capture folder's numactl-H.txt,
 * and last a single node holding every CPU.
 *
 * Distances follow the kernel's node_distance(): local = 10.
 *
 * Node ids are the kernel's own ids, because traces name nodes by them
 * (sched_move_numa src_nid/dst_nid, numa_sample f= and pref=).  When the
 * kernel's ids are sparse (node0 and node2 online, no node1), nr_nodes is
 * the highest id + 1 and the missing ids are marked in @node_absent: no
 * CPU sits on them and their distances are 0 (topo_distance() gives -1).
 * A distance list read from sysfs, numactl or a schedreplay_node line has
 * one entry per *present* node in ascending id order (the kernel prints
 * node_distance() for each online node); a list with nr_nodes entries is
 * also accepted and then read as indexed by id.
 */
#ifndef SR_TOPO_TOPO_H
#define SR_TOPO_TOPO_H

#include <stdbool.h>
#include <stddef.h>

#include "../ingest/event.h"
#include "../util/err.h"

#define TOPO_MAX_NODES 1024
#define TOPO_MAX_CPUS 4096

enum topo_source {
	TOPO_SRC_DEFAULT = 0,	/* nothing known: one node */
	TOPO_SRC_TRACE,		/* schedreplay_node lines in the trace */
	TOPO_SRC_SYSFS,		/* a copy of /sys/devices/system/node */
	TOPO_SRC_NUMACTL,	/* `numactl -H` text */
	TOPO_SRC_JSON,		/* topology JSON */
	TOPO_SRC_CAPTURE,	/* a capture folder's numactl-H.txt */
};

/**
 * struct topo_latency - a measured memory latency profile of the machine
 * (`schedreplay latency`, the trace's schedreplay_latency lines)
 * @nr_nodes: nodes it covers (ids 0 .. nr_nodes-1)
 * @ns:       nr_nodes x nr_nodes, row-major, ns[from * nr_nodes + to]: ns
 *            per dependent load from node @from's CPUs to node @to's
 *            memory; < 0 where not measured
 * @spread:   the same shape: max - min of the repeats, < 0 when unknown
 * @origin:   where it was read from ("" for the trace itself)
 */
struct topo_latency {
	int	nr_nodes;
	double	*ns;
	double	*spread;
	char	origin[512];
};

/**
 * struct topo - a topology; plain data, owned by whoever made it
 * @nr_cpus:	entries in @cpu_node
 * @nr_nodes:	nodes (ids 0..nr_nodes-1)
 * @cpu_node:	node of each CPU, -1 when the source did not place it
 * @distance:	nr_nodes x nr_nodes, row-major; distance[a * nr_nodes + b]
 * @node_absent: nr_nodes flags; true for an id the source did not list
 *		(sparse kernel ids); absent nodes have no CPUs and distance 0
 * @source:	where it came from
 * @origin:	the file or folder it was read from, "" when none
 * @latency:	the measured latency profile, owned; NULL when there is none
 *		(topo_attach_latency())
 */
struct topo {
	int			nr_cpus;
	int			nr_nodes;
	int			*cpu_node;
	int			*distance;
	bool			*node_absent;
	enum topo_source	source;
	char			origin[512];
	struct topo_latency	*latency;
};

/**
 * topo_new_single() - one node holding @nr_cpus CPUs, distance 10
 * Return: owned (free with topo_free()), or NULL on allocation failure.
 */
struct topo *topo_new_single(int nr_cpus);

/**
 * topo_new() - an empty topology of @nr_nodes nodes and @nr_cpus CPUs,
 * every CPU unplaced (-1), every distance 10 on the diagonal and 0 (unset)
 * elsewhere.
 * Return: owned, or NULL.
 */
struct topo *topo_new(int nr_nodes, int nr_cpus);

/**
 * topo_load() - read --topology PATH, detecting which kind it is
 * @path: a folder (sysfs copy), a numactl -H text file or a JSON file
 * @err:  failure details (file and line where the text is malformed)
 *
 * A folder is read as a sysfs copy when it holds nodeN folders or a node/
 * folder holding them (so /sys/devices/system/node and /sys/devices/system
 * both work); a folder with neither but a numactl-H.txt (a capture folder)
 * is read from that file with source TOPO_SRC_CAPTURE.  A file whose first
 * non-blank byte is '{' is JSON; any other file is numactl -H text.
 * Every reader validates (topo_validate()) before returning.
 *
 * Return: owned, or NULL with @err set.
 */
struct topo *topo_load(const char *path, struct err *err);

/** topo_from_sysfs() - read nodeN/cpulist and nodeN/distance under @dir. */
struct topo *topo_from_sysfs(const char *dir, struct err *err);

/**
 * topo_from_numactl() - parse `numactl -H` text
 * @text, @len: the text
 * @name:       file name for messages
 */
struct topo *topo_from_numactl(const char *text, size_t len, const char *name, struct err *err);

/** topo_from_json() - parse the topology JSON of docs/topology.md. */
struct topo *topo_from_json(const char *text, size_t len, const char *name, struct err *err);

/**
 * struct topo_builder - collects schedreplay_meta / schedreplay_node lines
 * as they stream past, then builds a topology from them
 */
struct topo_builder;

struct topo_builder *topo_builder_new(void);
void topo_builder_free(struct topo_builder *b);

/**
 * topo_builder_feed() - offer a print event
 * @b:   the builder
 * @ev:  the event; its marker says whether it is a schedreplay_meta or
 *       schedreplay_node line, whose typed fields (marker_decode_meta(),
 *       marker_decode_node()) are used
 * @err: failure details; no location is set, the caller knows the event's
 *       position (err_at_byte()/err_at_line() with sr_event.src_pos)
 *
 * A node line repeated with the same content is harmless, one with
 * different content makes topo_builder_build() fail.
 *
 * Return: 1 when the line was one of ours and was used, 0 when ignored,
 * -SR_EBADTOPO when it was ours but malformed (@err says why).
 */
int topo_builder_feed(struct topo_builder *b, const struct sr_event *ev, struct err *err);

/** topo_builder_complete() - true once meta nodes= lines all arrived. */
bool topo_builder_complete(const struct topo_builder *b);

/**
 * topo_builder_nodes() - how far the lines got
 * @b:         the builder
 * @described: set to the number of nodes node lines described
 *
 * Return: the node count of the schedreplay_meta line; without one, the
 * longest distance= row (one distance per node); 0 when no line was fed.
 */
int topo_builder_nodes(const struct topo_builder *b, int *described);

/**
 * topo_builder_build() - the topology the lines described
 * Return: owned, or NULL when no node line was seen (err untouched) or
 * they contradict each other (@err set).
 */
struct topo *topo_builder_build(const struct topo_builder *b, struct err *err);

/**
 * topo_latency_new() - a profile of @nr_nodes nodes, nothing measured
 * Return: owned (topo_latency_free()), or NULL on allocation failure.
 */
struct topo_latency *topo_latency_new(int nr_nodes);

/** topo_latency_free() - free (NULL is fine). */
void topo_latency_free(struct topo_latency *l);

/**
 * topo_latency_from_json() - read the JSON `schedreplay latency --json`
 * writes ({"latency": {"nodes": N, "ns": [[...], ...], "spread": ...}};
 * docs/formats.md); a null entry is a pair not measured
 * @text, @len: the text
 * @name:       file name for messages
 * @err:        failure details: the line of a syntax error, else the JSON
 *              path of the bad value
 * Return: owned, or NULL with @err set.
 */
struct topo_latency *topo_latency_from_json(const char *text, size_t len, const char *name,
					    struct err *err);

/** topo_latency_load() - topo_latency_from_json() on the file @path. */
struct topo_latency *topo_latency_load(const char *path, struct err *err);

/**
 * topo_attach_latency() - give @t the profile @l (replacing any it had)
 * Return: 0 (@l is then owned by @t), or -SR_EBADTOPO with @err set when
 * @l covers another number of nodes (@l stays the caller's).
 */
int topo_attach_latency(struct topo *t, struct topo_latency *l, struct err *err);

/**
 * topo_latency_ratio() - the latency of a load from node @a to node @b's
 * memory over one to @a's own memory, from the measured profile
 * Return: the ratio (> 0), or -1 when @t has no profile or it lacks either
 * pair.
 */
double topo_latency_ratio(const struct topo *t, int a, int b);

/** topo_free() - free (NULL is fine). */
void topo_free(struct topo *t);

/*
 * The three lookups below are inline: a replay asks them a few times an
 * event and about ten times a decision (the snapshot, the model's
 * counters), millions of calls of a few instructions each.
 */

/** topo_cpu_node() - node of @cpu, -1 when out of range or unplaced. */
static inline int topo_cpu_node(const struct topo *t, int cpu)
{
	if (!t || cpu < 0 || cpu >= t->nr_cpus)
		return -1;
	return t->cpu_node[cpu];
}

/** topo_node_present() - true when @node is in range and not absent. */
static inline bool topo_node_present(const struct topo *t, int node)
{
	return t && node >= 0 && node < t->nr_nodes && !t->node_absent[node];
}

/** topo_distance() - distance between two nodes, -1 when out of range or absent. */
static inline int topo_distance(const struct topo *t, int a, int b)
{
	if (!topo_node_present(t, a) || !topo_node_present(t, b))
		return -1;
	return t->distance[a * t->nr_nodes + b];
}

/** topo_source_name() - "trace", "sysfs", "numactl", "json", "capture", "default". */
const char *topo_source_name(enum topo_source s);

/**
 * topo_validate() - check the map and matrix make sense
 * (every distance between present nodes in 10..255 -- the kernel keeps
 * them in a byte --, diagonal 10, symmetric is not required; at least one
 * node present; every CPU unplaced or on a present node)
 * Return: 0, or -SR_EBADTOPO with @err set.
 */
int topo_validate(const struct topo *t, struct err *err);

/**
 * topo_grow_cpus() - make room for CPUs up to @nr_cpus (new ones unplaced,
 * or on node 0 for a single-node default topology); never shrinks
 * Return: 0, -ENOMEM, or -SR_ERANGE when @nr_cpus > TOPO_MAX_CPUS.
 */
int topo_grow_cpus(struct topo *t, int nr_cpus);

#endif
