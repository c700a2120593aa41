// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * topo-builder.c - the topology a trace describes about itself, from the
 * print events the recorder writes at its start:
 *
 *	schedreplay_meta release=6.1.0-57-amd64 machine=x86_64 nodes=4 cpus=8
 *	schedreplay_node node=0 cpus=0-1 distance=10,20,40,40
 *	schedreplay_latency from=0 to=1 ns=141.702 spread=1.113 repeats=5 loads=2822000
 *
 * The latency lines (as many as the meta line's latency= says) become the
 * topology's measured latency profile (struct topo_latency).
 * The lines are decoded by src/ingest (marker_decode_meta(), _node()); this
 * file takes their typed fields and the status of each key.  Keys the
 * topology does not need are not looked at, so that newer recorders stay
 * readable.  A contradiction (a node line repeated with other values, a
 * CPU on two nodes, a second meta line with another node count) is kept and
 * reported by topo_builder_build().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "topo-local.h"
#include "../ingest/marker.h"

_Static_assert(MARKER_MAX_NODES == TOPO_MAX_NODES && MARKER_MAX_CPUS == TOPO_MAX_CPUS &&
	       MARKER_MAX_DISTANCE == TOPO_MAX_DISTANCE, "the marker table's ranges are the topology's");

/* one schedreplay_latency line */
struct latency_pair {
	int	from;
	int	to;
	double	ns;
	double	spread;
};

struct topo_builder {
	struct topo_draft	*d;
	int			meta_nodes;	/* 0 until a meta line said */
	int			meta_cpus;	/* -1 until a meta line said */
	int			node_lines;
	int			max_distance;	/* longest distance= row */
	int			meta_latency;	/* latency= of the meta line, 0 when none */
	struct latency_pair	*lat;		/* the schedreplay_latency lines */
	int			nr_lat;
	struct err		conflict;
	union {
		struct marker_meta	meta;
		struct marker_node	node;
		struct marker_latency	latency;
	} mk;			/* the line being fed, decoded */
};

struct topo_builder *topo_builder_new(void)
{
	struct topo_builder *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->d = topo_draft_new();
	if (!b->d) {
		free(b);
		return NULL;
	}
	b->meta_cpus = -1;
	return b;
}

void topo_builder_free(struct topo_builder *b)
{
	if (!b)
		return;
	topo_draft_free(b->d);
	free(b->lat);
	free(b);
}

/* the name of a schedreplay_latency key, from the marker table */
static const char *latency_key(int k)
{
	return marker_format(SR_MARK_LATENCY)->keys[k].name;
}

/* "no" or "bad" for a key's status */
static const char *no_or_bad(uint8_t st)
{
	return st == MARKER_ABSENT ? "no" : "bad";
}

static int feed_meta(struct topo_builder *b, const struct sr_event *ev, struct err *err)
{
	struct marker_meta *m = &b->mk.meta;
	int nodes;
	int cpus;

	marker_decode_meta(ev, m);
	if (m->status[MK_META_NODES] != MARKER_OK)
		return err_set(err, -SR_EBADTOPO, "schedreplay_meta: %s nodes= (1..%d expected)",
			       no_or_bad(m->status[MK_META_NODES]), TOPO_MAX_NODES);
	if (m->status[MK_META_CPUS] != MARKER_OK && m->status[MK_META_CPUS] != MARKER_ABSENT)
		return err_set(err, -SR_EBADTOPO, "schedreplay_meta: bad cpus= (0..%d expected)",
			       TOPO_MAX_CPUS);
	nodes = m->nodes;
	cpus = m->cpus;
	if (b->meta_nodes && (b->meta_nodes != nodes || b->meta_cpus != cpus))
		err_set(&b->conflict, -SR_EBADTOPO,
			"two schedreplay_meta lines disagree (nodes=%d cpus=%d, then nodes=%d cpus=%d)",
			b->meta_nodes, b->meta_cpus, nodes, cpus);
	if (!b->meta_nodes) {
		b->meta_nodes = nodes;
		b->meta_cpus = cpus;
		b->d->min_cpus = cpus > 0 ? cpus : 0;
		if (m->status[MK_META_LATENCY] == MARKER_OK)
			b->meta_latency = m->latency;
	}
	return 1;
}

static int feed_latency(struct topo_builder *b, const struct sr_event *ev, struct err *err)
{
	static const int keys[] = { MK_LATENCY_FROM, MK_LATENCY_TO, MK_LATENCY_NS,
				    MK_LATENCY_SPREAD, MK_LATENCY_REPEATS, MK_LATENCY_LOADS };
	struct marker_latency *m = &b->mk.latency;
	struct latency_pair p, *grown;
	size_t i;
	int k;

	marker_decode_latency(ev, m);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		k = keys[i];
		if (m->status[k] == MARKER_OK ||
		    (m->status[k] == MARKER_ABSENT && k > MK_LATENCY_NS))
			continue;
		return err_set(err, -SR_EBADTOPO, "schedreplay_latency: %s %s=%s",
			       no_or_bad(m->status[k]), latency_key(k),
			       m->status[k] == MARKER_RANGE ? " (out of range)" : "");
	}
	if (b->nr_lat >= MARKER_MAX_LATENCY_LINES)
		return err_set(err, -SR_EBADTOPO, "more than %d schedreplay_latency lines",
			       MARKER_MAX_LATENCY_LINES);
	p.from = m->from;
	p.to = m->to;
	p.ns = (double)m->ns_milli / 1000.0;
	p.spread = m->spread_milli >= 0 ? (double)m->spread_milli / 1000.0 : -1;
	for (k = 0; k < b->nr_lat; k++) {
		if (b->lat[k].from != p.from || b->lat[k].to != p.to)
			continue;
		if (b->lat[k].ns != p.ns)
			err_set(&b->conflict, -SR_EBADTOPO,
				"two schedreplay_latency lines for from=%d to=%d disagree", p.from,
				p.to);
		return 1;
	}
	grown = realloc(b->lat, ((size_t)b->nr_lat + 1) * sizeof(*b->lat));
	if (!grown)
		return err_set(err, -ENOMEM, "out of memory");
	b->lat = grown;
	b->lat[b->nr_lat++] = p;
	return 1;
}

static int feed_node(struct topo_builder *b, const struct sr_event *ev, struct err *err)
{
	struct marker_node *nd = &b->mk.node;
	int id;
	int ret;

	marker_decode_node(ev, nd);
	if (nd->status[MK_NODE_NODE] != MARKER_OK)
		return err_set(err, -SR_EBADTOPO, "schedreplay_node: %s node= (0..%d expected)",
			       no_or_bad(nd->status[MK_NODE_NODE]), TOPO_MAX_NODES - 1);
	id = nd->node;
	if (nd->status[MK_NODE_CPUS] == MARKER_BAD || nd->status[MK_NODE_CPUS] == MARKER_RANGE)
		return err_set(err, -SR_EBADTOPO, "schedreplay_node node=%d: bad cpus=%s", id,
			       nd->status[MK_NODE_CPUS] == MARKER_RANGE ?
			       " (cpu id out of range)" : "");
	if (nd->status[MK_NODE_DISTANCE] == MARKER_ABSENT)
		return err_set(err, -SR_EBADTOPO, "schedreplay_node node=%d: no distance=", id);
	if (nd->status[MK_NODE_DISTANCE] != MARKER_OK || nd->nr_distance <= 0)
		return err_set(err, -SR_EBADTOPO, "schedreplay_node node=%d: bad distance=", id);

	if (topo_draft_add_node(b->d, id, err))
		return -SR_EBADTOPO;
	b->node_lines++;
	if (nd->nr_distance > b->max_distance)
		b->max_distance = nd->nr_distance;
	ret = topo_draft_place(b->d, id, nd->cpus, &b->conflict);
	if (!ret)
		ret = topo_draft_set_row(b->d, id, nd->distance, nd->nr_distance, 0, &b->conflict);
	if (ret == -ENOMEM)
		return err_set(err, -ENOMEM, "out of memory");
	return 1;
}

int topo_builder_feed(struct topo_builder *b, const struct sr_event *ev, struct err *err)
{
	if (!ev || ev->kind != SR_EV_PRINT)
		return 0;
	if (ev->marker == SR_MARK_META)
		return feed_meta(b, ev, err);
	if (ev->marker == SR_MARK_NODE)
		return feed_node(b, ev, err);
	if (ev->marker == SR_MARK_LATENCY)
		return feed_latency(b, ev, err);
	return 0;
}

bool topo_builder_complete(const struct topo_builder *b)
{
	return b->meta_nodes > 0 && b->d->nr_present >= b->meta_nodes &&
	       b->nr_lat >= b->meta_latency;
}

/* the latency lines as the profile of @t; a pair beyond its nodes is an error */
static int build_latency(const struct topo_builder *b, struct topo *t, struct err *err)
{
	struct topo_latency *l;
	int i, n = t->nr_nodes;

	if (!b->nr_lat)
		return 0;
	l = topo_latency_new(n);
	if (!l)
		return err_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < b->nr_lat; i++) {
		const struct latency_pair *p = &b->lat[i];

		if (p->from >= n || p->to >= n) {
			topo_latency_free(l);
			return err_set(err, -SR_EBADTOPO,
				       "schedreplay_latency from=%d to=%d: the trace has %d nodes",
				       p->from, p->to, n);
		}
		l->ns[p->from * n + p->to] = p->ns;
		l->spread[p->from * n + p->to] = p->spread;
	}
	t->latency = l;
	return 0;
}

int topo_builder_nodes(const struct topo_builder *b, int *described)
{
	*described = b->d->nr_present;
	if (b->meta_nodes)
		return b->meta_nodes;
	return b->max_distance;	/* no meta line: as many nodes as distances */
}

struct topo *topo_builder_build(const struct topo_builder *b, struct err *err)
{
	struct topo *t;

	if (!b->node_lines)
		return NULL;
	if (b->conflict.code) {
		err_set(err, b->conflict.code, "%s", b->conflict.msg);
		return NULL;
	}
	if (b->meta_nodes && b->meta_nodes != b->d->nr_present) {
		err_set(err, -SR_EBADTOPO,
			"schedreplay_meta says %d nodes but schedreplay_node lines describe %d",
			b->meta_nodes, b->d->nr_present);
		return NULL;
	}
	t = topo_draft_build(b->d, TOPO_SRC_TRACE, "", err);
	if (t && build_latency(b, t, err)) {
		topo_free(t);
		return NULL;
	}
	return t;
}
