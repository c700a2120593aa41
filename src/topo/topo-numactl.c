// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * topo-numactl.c - read the text `numactl -H` prints:
 *
 *	available: 4 nodes (0-3)
 *	node 0 cpus: 0 1
 *	node 0 size: 502 MB
 *	node 0 free: 469 MB
 *	node 2 cpus:                    <- memory-only node: empty list
 *	...
 *	node distances:
 *	node   0   1   2   3
 *	  0:  10  20  40  40
 *	  ...
 *
 * Blank lines and "No distance information available." are skipped; any
 * other line is an error naming its number.  The distance header lists the
 * node ids (sparse ones too), and each row has one value per listed id.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "topo-local.h"

enum numactl_state {
	NUMACTL_BODY,		/* available:/node N ... lines */
	NUMACTL_DIST_HEADER,	/* after "node distances:" */
	NUMACTL_DIST_ROWS,	/* after the header */
};

struct numactl {
	struct topo_draft	*d;
	struct err		*err;
	enum numactl_state	state;
	bool			have_avail;
	bool			avail[TOPO_MAX_NODES];
	int			hdr[TOPO_MAX_NODES];
	int			nr_hdr;
	int			vals[TOPO_MAX_NODES];
	uint64_t		cpus[TOPO_CPU_WORDS];
};

static void skip_blanks(const char **p, const char *end)
{
	while (*p < end && topo_is_blank(**p))
		(*p)++;
}

static bool take(const char **p, const char *end, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(end - *p) < n || memcmp(*p, word, n))
		return false;
	*p += n;
	return true;
}

static int bad(struct numactl *nc, const char *what)
{
	return err_set(nc->err, -SR_EBADTOPO, "%s", what);
}

static int add_node(struct numactl *nc, int id)
{
	if (nc->have_avail && !nc->avail[id])
		return err_set(nc->err, -SR_EBADTOPO, "node %d is not in the 'available:' list", id);
	return topo_draft_add_node(nc->d, id, nc->err);
}

/* "available: 4 nodes (0-3)" */
static int parse_available(struct numactl *nc, const char *p, const char *end)
{
	const char *open;
	const char *close;
	int count;
	int n;
	int i;

	if (nc->have_avail)
		return bad(nc, "second 'available:' line");
	skip_blanks(&p, end);
	n = topo_parse_uint(&p, end, TOPO_MAX_NODES, &count);
	if (n == -SR_ERANGE)
		return err_set(nc->err, -SR_EBADTOPO, "'available:' node count over %d (the most read)",
			       TOPO_MAX_NODES);
	if (n)
		return bad(nc, "'available:' without a node count");
	skip_blanks(&p, end);
	if (!take(&p, end, "nodes") && !take(&p, end, "node"))
		return bad(nc, "'available:' count not followed by 'nodes'");
	skip_blanks(&p, end);
	open = p;
	close = memchr(p, ')', (size_t)(end - p));
	if (open >= end || *open != '(' || !close)
		return bad(nc, "'available:' without a (node list)");
	n = topo_parse_cpulist(open + 1, (size_t)(close - open - 1), nc->cpus, TOPO_MAX_NODES);
	if (n < 0)
		return err_set(nc->err, -SR_EBADTOPO, "bad node list in 'available:' line");
	if (n != count)
		return err_set(nc->err, -SR_EBADTOPO,
			       "'available:' says %d nodes but lists %d", count, n);
	p = close + 1;
	skip_blanks(&p, end);
	if (p != end)
		return bad(nc, "text after the 'available:' node list");
	nc->have_avail = true;
	for (i = 0; i < TOPO_MAX_NODES; i++)
		nc->avail[i] = nc->cpus[i / 64] & (1ull << (i % 64));
	for (i = 0; i < TOPO_MAX_NODES; i++)
		if (nc->avail[i] && topo_draft_add_node(nc->d, i, nc->err))
			return -SR_EBADTOPO;
	return 0;
}

/* "node N cpus: ...", "node N size: ...", "node N free: ..." */
static int parse_node_line(struct numactl *nc, const char *p, const char *end)
{
	int id;
	int ret;

	skip_blanks(&p, end);
	ret = topo_parse_uint(&p, end, TOPO_MAX_NODES - 1, &id);
	if (ret == -SR_ERANGE)
		return err_set(nc->err, -SR_EBADTOPO, "node id out of range (at most %d nodes)",
			       TOPO_MAX_NODES);
	if (ret)
		return bad(nc, "'node' not followed by a node id");
	skip_blanks(&p, end);
	if (take(&p, end, "cpus:")) {
		ret = topo_parse_cpulist(p, (size_t)(end - p), nc->cpus, TOPO_MAX_CPUS);
		if (ret == -SR_ERANGE)
			return err_set(nc->err, -SR_EBADTOPO, "node %d: cpu id out of range (max %d)",
				       id, TOPO_MAX_CPUS - 1);
		if (ret < 0)
			return err_set(nc->err, -SR_EBADTOPO, "node %d: bad cpu list", id);
		if (add_node(nc, id))
			return -SR_EBADTOPO;
		return topo_draft_place(nc->d, id, nc->cpus, nc->err) ? -SR_EBADTOPO : 0;
	}
	if (take(&p, end, "size:") || take(&p, end, "free:"))
		return add_node(nc, id) ? -SR_EBADTOPO : 0;
	return bad(nc, "unknown 'node N' line (expected cpus:, size: or free:)");
}

/* "node   0   1   2   3" */
static int parse_dist_header(struct numactl *nc, const char *p, const char *end)
{
	int n;
	int i;

	if (!take(&p, end, "node"))
		return bad(nc, "expected the 'node 0 1 ...' header of the distance table");
	n = topo_parse_intlist(p, (size_t)(end - p), nc->hdr, TOPO_MAX_NODES, TOPO_MAX_NODES - 1);
	if (n <= 0)
		return bad(nc, "bad node list in the distance table header");
	for (i = 0; i < n; i++) {
		if (i && nc->hdr[i] <= nc->hdr[i - 1])
			return bad(nc, "distance table header ids not ascending");
		if (add_node(nc, nc->hdr[i]))
			return -SR_EBADTOPO;
	}
	nc->nr_hdr = n;
	return 0;
}

/* "  0:  10  20  40  40" */
static int parse_dist_row(struct numactl *nc, const char *p, const char *end, uint64_t line)
{
	int id;
	int n;
	int i;

	skip_blanks(&p, end);
	if (topo_parse_uint(&p, end, TOPO_MAX_NODES - 1, &id) || p >= end || *p != ':')
		return bad(nc, "expected a distance row 'N: d d ...'");
	p++;
	for (i = 0; i < nc->nr_hdr && nc->hdr[i] != id; i++)
		;
	if (i == nc->nr_hdr)
		return err_set(nc->err, -SR_EBADTOPO, "distance row for node %d, not in the header",
			       id);
	n = topo_parse_intlist(p, (size_t)(end - p), nc->vals, TOPO_MAX_NODES, TOPO_MAX_DISTANCE);
	if (n == -SR_ERANGE)
		return err_set(nc->err, -SR_EBADTOPO, "node %d: distance above %d or too many",
			       id, TOPO_MAX_DISTANCE);
	if (n < 0)
		return err_set(nc->err, -SR_EBADTOPO, "node %d: bad distance row", id);
	if (n != nc->nr_hdr)
		return err_set(nc->err, -SR_EBADTOPO, "node %d: %d distances for %d nodes", id, n,
			       nc->nr_hdr);
	return topo_draft_set_row(nc->d, id, nc->vals, n, line, nc->err) ? -SR_EBADTOPO : 0;
}

static int parse_line(struct numactl *nc, const char *s, size_t len, uint64_t line)
{
	const char *p = s;
	const char *end = s + len;

	if (nc->state == NUMACTL_DIST_HEADER) {
		nc->state = NUMACTL_DIST_ROWS;
		return parse_dist_header(nc, p, end);
	}
	if (nc->state == NUMACTL_DIST_ROWS) {
		if (p < end && *p >= '0' && *p <= '9')
			return parse_dist_row(nc, p, end, line);
		nc->state = NUMACTL_BODY;
	}
	if (take(&p, end, "available:"))
		return parse_available(nc, p, end);
	if (len >= 7 && !memcmp(s, "No NUMA", 7))
		return bad(nc, "numactl reports no NUMA on this system");
	if (len >= 14 && !memcmp(s, "No distance in", 14))
		return 0;
	if (len == 15 && !memcmp(s, "node distances:", 15)) {
		if (nc->nr_hdr)
			return bad(nc, "second 'node distances:' table");
		nc->state = NUMACTL_DIST_HEADER;
		return 0;
	}
	if (take(&p, end, "node") && p < end && topo_is_blank(*p))
		return parse_node_line(nc, p, end);
	return bad(nc, "unrecognised line (not numactl -H output?)");
}

struct topo *topo_from_numactl(const char *text, size_t len, const char *name, struct err *err)
{
	struct topo_lines it;
	struct numactl *nc;
	struct topo *t = NULL;
	const char *s;
	size_t n;

	err_set_file(err, name);
	nc = calloc(1, sizeof(*nc));
	if (!nc) {
		err_set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	nc->err = err;
	nc->d = topo_draft_new();
	if (!nc->d) {
		err_set(err, -ENOMEM, "out of memory");
		goto out_free;
	}
	topo_lines_init(&it, text, len);
	while (topo_lines_next(&it, &s, &n)) {
		topo_trim(&s, &n);
		if (!n)
			continue;
		if (parse_line(nc, s, n, it.line)) {
			err_at_line(err, it.line);
			goto out_free_draft;
		}
	}
	if (nc->state == NUMACTL_DIST_HEADER) {
		err_set(err, -SR_EBADTOPO, "'node distances:' without a table");
		err_at_line(err, it.line);
		goto out_free_draft;
	}
	if (nc->d->nr_present == 0) {
		err_set(err, -SR_EBADTOPO, "no node described (not numactl -H output?)");
		goto out_free_draft;
	}
	if (nc->d->nr_present > 1 && !nc->nr_hdr) {
		err_set(err, -SR_EBADTOPO, "%d nodes but no 'node distances:' table",
			nc->d->nr_present);
		goto out_free_draft;
	}
	t = topo_draft_build(nc->d, TOPO_SRC_NUMACTL, name, err);

out_free_draft:
	topo_draft_free(nc->d);
out_free:
	free(nc);
	return t;
}
