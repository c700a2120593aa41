// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * topo-builder.c - the topology a trace describes about itself, from the
 * print events the recorder writes at its start:
 *
 *	schedreplay_meta release=6.1.0-57-amd64 machine=x86_64 nodes=4 cpus=8
 *	schedreplay_node node=0 cpus=0-1 distance=10,20,40,40
 *
 * Lines are untrusted and not NUL-terminated: the key=value helpers below
 * are bounded by the length given (they do what marker_get() does, kept
 * local so that topo does not wait on the ingest module).  Unknown keys are
 * ignored so that newer recorders stay readable.  A contradiction (a node
 * line repeated with other values, a CPU on two nodes, a second meta line
 * with another node count) is kept and reported by topo_builder_build().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "topo-local.h"

struct topo_builder {
	struct topo_draft	*d;
	int			meta_nodes;	/* 0 until a meta line said */
	int			meta_cpus;	/* -1 until a meta line said */
	int			node_lines;
	struct err		conflict;
	int			vals[TOPO_MAX_NODES];
	uint64_t		cpus[TOPO_CPU_WORDS];
};

/* "key=value" among the space-separated words after the first one */
static bool kv_get(const char *s, size_t len, const char *key, const char **val, size_t *vlen)
{
	size_t klen = strlen(key);
	size_t i = 0;
	size_t start;

	while (i < len && !topo_is_blank(s[i]))
		i++;	/* the leading word */
	while (i < len) {
		while (i < len && topo_is_blank(s[i]))
			i++;
		start = i;
		while (i < len && !topo_is_blank(s[i]))
			i++;
		if (i - start > klen && !memcmp(s + start, key, klen) && s[start + klen] == '=') {
			*val = s + start + klen + 1;
			*vlen = i - start - klen - 1;
			return true;
		}
	}
	return false;
}

/* key=N with 0 <= N <= max; -SR_ENOTFOUND when absent */
static int kv_int(const char *s, size_t len, const char *key, long max, int *out)
{
	const char *v;
	const char *end;
	size_t vl;
	int ret;

	if (!kv_get(s, len, key, &v, &vl))
		return -SR_ENOTFOUND;
	end = v + vl;
	ret = topo_parse_uint(&v, end, max, out);
	if (ret)
		return ret;
	return v == end ? 0 : -SR_EBADTEXT;
}

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
	free(b);
}

static int feed_meta(struct topo_builder *b, const char *s, size_t len, struct err *err)
{
	int nodes;
	int cpus = -1;
	int ret;

	ret = kv_int(s, len, "nodes", TOPO_MAX_NODES, &nodes);
	if (ret || nodes < 1)
		return err_set(err, -SR_EBADTOPO, "schedreplay_meta: %s nodes= (1..%d expected)",
			       ret == -SR_ENOTFOUND ? "no" : "bad", TOPO_MAX_NODES);
	ret = kv_int(s, len, "cpus", TOPO_MAX_CPUS, &cpus);
	if (ret && ret != -SR_ENOTFOUND)
		return err_set(err, -SR_EBADTOPO, "schedreplay_meta: bad cpus= (0..%d expected)",
			       TOPO_MAX_CPUS);
	if (b->meta_nodes && (b->meta_nodes != nodes || b->meta_cpus != cpus))
		err_set(&b->conflict, -SR_EBADTOPO,
			"two schedreplay_meta lines disagree (nodes=%d cpus=%d, then nodes=%d cpus=%d)",
			b->meta_nodes, b->meta_cpus, nodes, cpus);
	if (!b->meta_nodes) {
		b->meta_nodes = nodes;
		b->meta_cpus = cpus;
		b->d->min_cpus = cpus > 0 ? cpus : 0;
	}
	return 1;
}

static int feed_node(struct topo_builder *b, const char *s, size_t len, struct err *err)
{
	const char *v;
	size_t vl;
	int id;
	int n;
	int ret;

	ret = kv_int(s, len, "node", TOPO_MAX_NODES - 1, &id);
	if (ret)
		return err_set(err, -SR_EBADTOPO, "schedreplay_node: %s node= (0..%d expected)",
			       ret == -SR_ENOTFOUND ? "no" : "bad", TOPO_MAX_NODES - 1);
	memset(b->cpus, 0, sizeof(b->cpus));
	if (kv_get(s, len, "cpus", &v, &vl)) {
		n = topo_parse_cpulist(v, vl, b->cpus, TOPO_MAX_CPUS);
		if (n < 0)
			return err_set(err, -SR_EBADTOPO, "schedreplay_node node=%d: bad cpus=%s", id,
				       n == -SR_ERANGE ? " (cpu id out of range)" : "");
	}
	if (!kv_get(s, len, "distance", &v, &vl))
		return err_set(err, -SR_EBADTOPO, "schedreplay_node node=%d: no distance=", id);
	n = topo_parse_intlist(v, vl, b->vals, TOPO_MAX_NODES, TOPO_MAX_DISTANCE);
	if (n <= 0)
		return err_set(err, -SR_EBADTOPO, "schedreplay_node node=%d: bad distance=", id);

	if (topo_draft_add_node(b->d, id, err))
		return -SR_EBADTOPO;
	b->node_lines++;
	ret = topo_draft_place(b->d, id, b->cpus, &b->conflict);
	if (!ret)
		ret = topo_draft_set_row(b->d, id, b->vals, n, 0, &b->conflict);
	if (ret == -ENOMEM)
		return err_set(err, -ENOMEM, "out of memory");
	return 1;
}

int topo_builder_feed(struct topo_builder *b, const char *s, size_t len, struct err *err)
{
	while (len && topo_is_blank(*s)) {
		s++;
		len--;
	}
	if (topo_word_is(s, len, "schedreplay_meta"))
		return feed_meta(b, s, len, err);
	if (topo_word_is(s, len, "schedreplay_node"))
		return feed_node(b, s, len, err);
	return 0;
}

bool topo_builder_complete(const struct topo_builder *b)
{
	return b->meta_nodes > 0 && b->d->nr_present >= b->meta_nodes;
}

struct topo *topo_builder_build(const struct topo_builder *b, struct err *err)
{
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
	return topo_draft_build(b->d, TOPO_SRC_TRACE, "", err);
}
