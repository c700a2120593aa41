// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * topo-parse.c - bounded text helpers (lines, numbers, CPU lists) and the
 * draft -> topology step every reader ends with.
 *
 * Invariants: no helper reads outside (pointer, length); numbers are
 * bounded before they can overflow an int; a draft only ever holds ids
 * below TOPO_MAX_NODES / TOPO_MAX_CPUS.  Distance lists are mapped to ids
 * as topo.h says: one entry per present node in ascending order, or one per
 * id when the list is exactly max id + 1 long.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topo-local.h"
#include "../util/lists.h"

void topo_lines_init(struct topo_lines *it, const char *text, size_t len)
{
	it->p = text;
	it->end = text + len;
	it->line = 0;
}

bool topo_lines_next(struct topo_lines *it, const char **s, size_t *len)
{
	const char *nl;

	if (it->p >= it->end)
		return false;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	*s = it->p;
	*len = (size_t)((nl ? nl : it->end) - it->p);
	if (*len && (*s)[*len - 1] == '\r')
		(*len)--;
	it->p = nl ? nl + 1 : it->end;
	it->line++;
	return true;
}

bool topo_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

void topo_trim(const char **s, size_t *len)
{
	while (*len && topo_is_blank(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && topo_is_blank((*s)[*len - 1]))
		(*len)--;
}

int topo_parse_uint(const char **p, const char *end, long max, int *out)
{
	return util_parse_uint(p, end, max, out);
}

int topo_parse_cpulist(const char *s, size_t len, uint64_t *cpus, int max)
{
	memset(cpus, 0, TOPO_CPU_WORDS * sizeof(*cpus));
	if (max > TOPO_MAX_CPUS)
		max = TOPO_MAX_CPUS;
	return util_parse_cpulist(s, len, cpus, max);
}

int topo_parse_intlist(const char *s, size_t len, int *out, int max_out, long max_val)
{
	return util_parse_intlist(s, len, out, max_out, max_val);
}

bool topo_word_is(const char *s, size_t len, const char *w)
{
	size_t wl = strlen(w);

	if (len < wl || memcmp(s, w, wl))
		return false;
	return len == wl || topo_is_blank(s[wl]);
}

struct topo_draft *topo_draft_new(void)
{
	struct topo_draft *d = calloc(1, sizeof(*d));
	int i;

	if (!d)
		return NULL;
	d->max_node = -1;
	d->max_cpu = -1;
	for (i = 0; i < TOPO_MAX_CPUS; i++)
		d->cpu_node[i] = -1;
	return d;
}

void topo_draft_free(struct topo_draft *d)
{
	int i;

	if (!d)
		return;
	for (i = 0; i < TOPO_MAX_NODES; i++)
		free(d->rows[i]);
	free(d);
}

int topo_draft_add_node(struct topo_draft *d, int id, struct err *err)
{
	if (id < 0 || id >= TOPO_MAX_NODES)
		return err_set(err, -SR_ERANGE, "node %d out of range (at most %d nodes)", id,
			       TOPO_MAX_NODES);
	if (!d->present[id]) {
		d->present[id] = true;
		d->nr_present++;
		if (id > d->max_node)
			d->max_node = id;
	}
	return 0;
}

int topo_draft_place(struct topo_draft *d, int id, const uint64_t *cpus, struct err *err)
{
	int w;
	int b;
	int cpu;

	for (w = 0; w < TOPO_CPU_WORDS; w++) {
		if (!cpus[w])
			continue;
		for (b = 0; b < 64; b++) {
			if (!(cpus[w] & (1ull << b)))
				continue;
			cpu = w * 64 + b;
			if (d->cpu_node[cpu] >= 0 && d->cpu_node[cpu] != id)
				return err_set(err, -SR_EBADTOPO, "cpu %d is on node %d and node %d",
					       cpu, d->cpu_node[cpu], id);
			d->cpu_node[cpu] = id;
			if (cpu > d->max_cpu)
				d->max_cpu = cpu;
		}
	}
	return 0;
}

int topo_draft_set_row(struct topo_draft *d, int id, const int *vals, int n, uint64_t line,
		       struct err *err)
{
	int *row;

	if (id < 0 || id >= TOPO_MAX_NODES)
		return err_set(err, -SR_ERANGE, "node %d out of range", id);
	if (d->rows[id]) {
		if (d->row_len[id] == n && !memcmp(d->rows[id], vals, (size_t)n * sizeof(int)))
			return 0;
		return err_set(err, -SR_EBADTOPO, "node %d: two different distance lists", id);
	}
	row = malloc((size_t)(n ? n : 1) * sizeof(int));
	if (!row)
		return err_set(err, -ENOMEM, "out of memory");
	if (n)
		memcpy(row, vals, (size_t)n * sizeof(int));
	d->rows[id] = row;
	d->row_len[id] = n;
	d->row_line[id] = line;
	return 0;
}

/* Error about a node's row, located at its line when there is one. */
static struct topo *row_error(const struct topo_draft *d, int a, struct err *err,
			      const char *what, int n, int want)
{
	err_set(err, -SR_EBADTOPO, "node %d: %s (%d distances for %d nodes)", a, what, n, want);
	if (d->row_line[a])
		err_at_line(err, d->row_line[a]);
	return NULL;
}

static int fill_distances(const struct topo_draft *d, struct topo *t, struct err *err)
{
	int ids[TOPO_MAX_NODES];
	int nr = 0;
	int a;
	int k;
	int n;
	const int *row;

	for (a = 0; a <= d->max_node; a++)
		if (d->present[a])
			ids[nr++] = a;
	for (a = 0; a <= d->max_node; a++) {
		if (!d->present[a])
			continue;
		row = d->rows[a];
		n = d->row_len[a];
		if (!row) {
			if (d->nr_present == 1)
				continue;	/* topo_new() set the diagonal */
			row_error(d, a, err, "no distance list", 0, d->nr_present);
			return -SR_EBADTOPO;
		}
		if (n == d->nr_present) {
			for (k = 0; k < n; k++)
				t->distance[a * t->nr_nodes + ids[k]] = row[k];
		} else if (n == t->nr_nodes) {
			for (k = 0; k < n; k++) {
				if (!d->present[k] && row[k]) {
					row_error(d, a, err, "distance to an absent node", n,
						  t->nr_nodes);
					return -SR_EBADTOPO;
				}
				t->distance[a * t->nr_nodes + k] = row[k];
			}
		} else {
			row_error(d, a, err, "wrong number of distances", n, d->nr_present);
			return -SR_EBADTOPO;
		}
	}
	return 0;
}

struct topo *topo_draft_build(const struct topo_draft *d, enum topo_source src,
			      const char *origin, struct err *err)
{
	struct topo *t;
	int nr_cpus;
	int i;

	if (d->nr_present == 0) {
		err_set(err, -SR_EBADTOPO, "no node described");
		return NULL;
	}
	nr_cpus = d->max_cpu + 1;
	if (d->min_cpus > nr_cpus)
		nr_cpus = d->min_cpus;
	t = topo_new(d->max_node + 1, nr_cpus);
	if (!t) {
		err_set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	t->source = src;
	snprintf(t->origin, sizeof(t->origin), "%s", origin ? origin : "");
	for (i = 0; i < t->nr_nodes; i++) {
		t->node_absent[i] = !d->present[i];
		if (t->node_absent[i])
			t->distance[i * t->nr_nodes + i] = 0;
	}
	for (i = 0; i <= d->max_cpu; i++)
		t->cpu_node[i] = d->cpu_node[i];
	if (fill_distances(d, t, err) || topo_validate(t, err)) {
		topo_free(t);
		return NULL;
	}
	return t;
}

char *topo_read_file(const char *path, size_t max, size_t *len, struct err *err)
{
	FILE *f = NULL;
	int fd, fl;
	char *buf;
	size_t n;

	err_set_file(err, path);
	/* O_NONBLOCK for the open only: a FIFO nobody writes to reads as empty, not for ever */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	fl = fd < 0 ? -1 : fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 || !(f = fdopen(fd, "rb"))) {
		err_set(err, -errno, "cannot open: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc(max + 1);
	if (!buf) {
		err_set(err, -ENOMEM, "out of memory");
		goto out_close;
	}
	n = fread(buf, 1, max + 1, f);
	if (ferror(f)) {
		err_set(err, -EIO, "read failed");
		goto out_free;
	}
	if (n > max) {
		err_set(err, -SR_ERANGE, "file larger than %zu bytes", max);
		goto out_free;
	}
	buf[n] = '\0';
	*len = n;
	fclose(f);
	return buf;

out_free:
	free(buf);
out_close:
	fclose(f);
	return NULL;
}
