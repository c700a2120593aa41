// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-read.c - inputs of `compare`: file loading, kind detection, plain
 * numbers and benchmark-log columns, replay JSON reports, and the side
 * (list of metrics) they fill.
 *
 * Plain text: blank lines and lines starting with '#' are skipped.  If the
 * first remaining line is not all numbers it is a header naming the
 * columns; every later line must hold exactly that many numbers.  A file
 * without a header names its single column "value" and its columns
 * "col1".."colN".  A replay JSON report is one run of every number found
 * under its "summary" object.  Summary tables are read by compare-table.c.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare-local.h"

void compare_side_init(struct compare_side *s)
{
	memset(s, 0, sizeof(*s));
}

static void metric_release(struct compare_metric *m)
{
	free(m->name);
	free(m->file);
	free(m->last_file);
	free(m->runs);
	free(m->label);
	free(m->dir_why);
	free(m->what);
}

void compare_side_release(struct compare_side *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		metric_release(&s->m[i]);
	free(s->m);
	free(s->hash);
	compare_side_init(s);
}

static bool label_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* FNV-1a of name and label. */
static size_t key_hash(const char *name, const char *label)
{
	uint64_t h = 1469598103934665603ull;
	const char *p;

	for (p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	h = (h ^ 0x1f) * 1099511628211ull;
	for (p = label ? label : ""; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	return (size_t)(h ^ (h >> 29));
}

/* Slot of (name, label) in s->hash: the entry's, or the free one it would take. */
static size_t hash_slot(const struct compare_side *s, const char *name, const char *label)
{
	size_t i = key_hash(name, label) & (s->hcap - 1);

	while (s->hash[i]) {
		const struct compare_metric *m = &s->m[s->hash[i] - 1];

		if (!strcmp(m->name, name) && label_eq(m->label, label))
			return i;
		i = (i + 1) & (s->hcap - 1);
	}
	return i;
}

/* Index entry @idx of @s, growing the table at half load; false on no memory. */
static bool hash_insert(struct compare_side *s, size_t idx)
{
	if ((s->n + 1) * 2 > s->hcap) {
		size_t cap = s->hcap ? s->hcap * 2 : 64;
		size_t *old = s->hash;
		size_t oldcap = s->hcap;
		size_t i;

		while ((s->n + 1) * 2 > cap)
			cap *= 2;
		s->hash = calloc(cap, sizeof(*s->hash));
		if (!s->hash) {
			s->hash = old;
			return false;
		}
		s->hcap = cap;
		for (i = 0; i < oldcap; i++)
			if (old[i])
				s->hash[hash_slot(s, s->m[old[i] - 1].name,
						  s->m[old[i] - 1].label)] = old[i];
		free(old);
	}
	s->hash[hash_slot(s, s->m[idx].name, s->m[idx].label)] = idx + 1;
	return true;
}

/* The raw metric (name, label) of @s, or NULL. */
static struct compare_metric *side_find_raw(const struct compare_side *s, const char *name,
					    const char *label)
{
	size_t slot;

	if (!s->hcap)
		return NULL;
	slot = hash_slot(s, name, label);
	return s->hash[slot] ? &s->m[s->hash[slot] - 1] : NULL;
}

/*
 * Entries of @s sorted by name, stable (order of appearance within a name):
 * an array of indexes (owned), or NULL on no memory.
 */
static const struct compare_side *sort_side;

static int cmp_index(const void *a, const void *b)
{
	size_t i = *(const size_t *)a;
	size_t j = *(const size_t *)b;
	int c = strcmp(sort_side->m[i].name, sort_side->m[j].name);

	if (c)
		return c;
	return i < j ? -1 : i > j;
}

static size_t *side_sorted(const struct compare_side *s)
{
	size_t *idx = malloc((s->n ? s->n : 1) * sizeof(*idx));
	size_t i;

	if (!idx)
		return NULL;
	for (i = 0; i < s->n; i++)
		idx[i] = i;
	sort_side = s;
	qsort(idx, s->n, sizeof(*idx), cmp_index);
	sort_side = NULL;
	return idx;
}

struct compare_metric *compare_side_find(const struct compare_side *s, const char *name)
{
	struct compare_metric *m = side_find_raw(s, name, NULL);
	size_t i;

	if (m)
		return m;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->m[i].name, name))
			return &s->m[i];
	return NULL;
}

/* A new zeroed entry at the end of @s, or NULL. */
static struct compare_metric *side_push(struct compare_side *s)
{
	struct compare_metric *m;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;

		m = realloc(s->m, cap * sizeof(*m));
		if (!m)
			return NULL;
		s->m = m;
		s->cap = cap;
	}
	m = &s->m[s->n];
	memset(m, 0, sizeof(*m));
	m->mark = -1;
	m->reading = COMPARE_READ_AS_LABELLED;
	m->min = NAN;
	m->max = NAN;
	m->mean = NAN;
	m->disp = NAN;
	m->change = NAN;
	return m;
}

/*
 * Metric names are untrusted bytes: control characters become '?', and so
 * does every byte >= 0x80 when the name is not valid UTF-8 (JSON needs it).
 */
void compare_sanitize(char *name)
{
	json_t *probe;
	char *p;

	for (p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
			*p = '?';
	probe = json_string(name);
	if (probe) {
		json_decref(probe);
		return;
	}
	for (p = name; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
}

/* Fill a pushed entry's strings, committing it on success. */
static int side_commit(struct compare_side *s, struct compare_metric *m, const char *name,
		       const char *file)
{
	m->name = strdup(name);
	m->file = strdup(file);
	if (!m->name || !m->file) {
		metric_release(m);
		return -ENOMEM;
	}
	compare_sanitize(m->name);
	s->n++;
	return 0;
}

int compare_side_add_run(struct compare_side *s, const char *raw_name, const char *label,
			 enum compare_kind kind, const char *file, unsigned long line, double v)
{
	struct compare_metric *m;
	char name[512];

	snprintf(name, sizeof(name), "%s", raw_name);
	compare_sanitize(name);
	m = side_find_raw(s, name, label);
	if (!m) {
		m = side_push(s);
		if (!m)
			return -ENOMEM;
		m->kind = kind;
		m->line = line;
		m->nfiles = 1;
		if (label) {
			m->label = strdup(label);
			if (!m->label)
				return -ENOMEM;
			compare_sanitize(m->label);
		}
		if (side_commit(s, m, name, file))
			return -ENOMEM;
		if (!hash_insert(s, s->n - 1))
			return -ENOMEM;
	} else if (strcmp(m->last_file ? m->last_file : m->file, file)) {
		/* runs from another file: count each file once, in order */
		char *last = strdup(file);

		if (!last)
			return -ENOMEM;
		free(m->last_file);
		m->last_file = last;
		m->nfiles++;
	}
	if (m->nruns == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 16;
		double *runs = realloc(m->runs, cap * sizeof(*runs));

		if (!runs)
			return -ENOMEM;
		m->runs = runs;
		m->cap = cap;
	}
	m->runs[m->nruns++] = v;
	return 0;
}

int compare_side_add_summary(struct compare_side *s, const struct compare_metric *row,
			     const char *name, const char *file)
{
	struct compare_metric *m = side_push(s);

	if (!m)
		return -ENOMEM;
	*m = *row;
	m->name = NULL;
	m->file = NULL;
	m->kind = COMPARE_KIND_SUMMARY;
	m->runs = NULL;
	m->last_file = NULL;
	m->nruns = 0;
	m->cap = 0;
	m->nfiles = 1;
	m->label = row->label ? strdup(row->label) : NULL;
	m->dir_why = row->dir_why ? strdup(row->dir_why) : NULL;
	m->what = row->what ? strdup(row->what) : NULL;
	if ((row->label && !m->label) || (row->dir_why && !m->dir_why) ||
	    (row->what && !m->what)) {
		metric_release(m);
		return -ENOMEM;
	}
	if (m->label)
		compare_sanitize(m->label);
	if (m->dir_why)
		compare_sanitize(m->dir_why);
	return side_commit(s, m, name, file);
}

int compare_side_check_unique(const struct compare_side *s, struct err *e)
{
	size_t *idx = side_sorted(s);
	size_t i;

	if (!idx)
		return err_set(e, -ENOMEM, "out of memory");
	for (i = 1; i < s->n; i++) {
		const struct compare_metric *a = &s->m[idx[i - 1]];
		const struct compare_metric *b = &s->m[idx[i]];

		if (strcmp(a->name, b->name))
			continue;
		free(idx);
		err_set_file(e, b->file);
		err_at_line(e, b->line);
		return err_set(e, -SR_EBADTEXT,
			       "metric '%s' given twice on one side (first at '%s' line %lu); without --vs, tables hold before/after pairs",
			       b->name, a->file, a->line);
	}
	free(idx);
	return 0;
}

int compare_side_split_pairs(struct compare_side *all, struct compare_side *base,
			     struct compare_side *new, struct err *e)
{
	size_t *idx = side_sorted(all);
	size_t i;
	int ret;

	if (!idx)
		return err_set(e, -ENOMEM, "out of memory");
	for (i = 0; i < all->n; i += 2) {
		struct compare_metric *m = &all->m[idx[i]];
		size_t seen = 1;
		size_t j;

		if (i + 1 < all->n && all->m[idx[i + 1]].kind != COMPARE_KIND_SUMMARY)
			m = &all->m[idx[i + 1]];
		if (m->kind != COMPARE_KIND_SUMMARY) {
			free(idx);
			err_set_file(e, m->file);
			return err_set(e, -SR_EBADTEXT,
				       "metric '%s' is raw runs: without --vs only before/after summary tables can be compared",
				       m->name);
		}
		for (j = i + 1; j < all->n && !strcmp(all->m[idx[j]].name, m->name); j++)
			seen++;
		if (seen != 2) {
			free(idx);
			err_set_file(e, m->file);
			err_at_line(e, m->line);
			return err_set(e, -SR_EBADTEXT,
				       "metric '%s' has %zu rows; without --vs each metric needs exactly two (before, after)",
				       m->name, seen);
		}
	}
	free(idx);
	for (i = 0; i < all->n; i++) {
		struct compare_side *to = compare_side_find(base, all->m[i].name) ? new : base;

		ret = compare_side_add_summary(to, &all->m[i], all->m[i].name, all->m[i].file);
		if (ret)
			return err_set(e, ret, "out of memory");
		/* index it, so the next compare_side_find() is not a scan */
		if (!hash_insert(to, to->n - 1))
			return err_set(e, -ENOMEM, "out of memory");
	}
	compare_side_release(all);
	return 0;
}

static bool pair_push(struct compare_pair **p, size_t *n, size_t *cap,
		      const struct compare_metric *b, const struct compare_metric *nw)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct compare_pair *q = realloc(*p, c * sizeof(*q));

		if (!q)
			return false;
		*p = q;
		*cap = c;
	}
	(*p)[*n].base = b;
	(*p)[(*n)++].new = nw;
	return true;
}

/* Pairs of --vs: metric by name; every lookup through a sorted index. */
static int pairs_vs(const struct compare_side *base, const struct compare_side *new,
		    struct compare_pair **pairs, size_t *npairs, size_t *cap)
{
	size_t *bi = side_sorted(base);
	size_t *ni = side_sorted(new);
	size_t *match = calloc(base->n ? base->n : 1, sizeof(*match));
	bool *used = calloc(new->n ? new->n : 1, sizeof(*used));
	size_t i = 0;
	size_t j = 0;
	int ret = -ENOMEM;

	if (!bi || !ni || !match || !used)
		goto out;
	while (i < base->n && j < new->n) {
		int c = strcmp(base->m[bi[i]].name, new->m[ni[j]].name);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			match[bi[i++]] = ni[j] + 1;
			used[ni[j++]] = true;
		}
	}
	for (i = 0; i < base->n; i++)
		if (!pair_push(pairs, npairs, cap, &base->m[i],
			       match[i] ? &new->m[match[i] - 1] : NULL))
			goto out;
	for (j = 0; j < new->n; j++)
		if (!used[j] && !pair_push(pairs, npairs, cap, NULL, &new->m[j]))
			goto out;
	ret = 0;
out:
	free(bi);
	free(ni);
	free(match);
	free(used);
	return ret;
}

int compare_make_pairs(const struct compare_side *base, const struct compare_side *new,
		       const char *base_label, struct compare_pair **pairs, size_t *npairs)
{
	size_t *idx;
	size_t *first;
	size_t cap = 0;
	size_t i;

	*pairs = NULL;
	*npairs = 0;
	if (new)
		return pairs_vs(base, new, pairs, npairs, &cap);
	idx = side_sorted(base);
	first = malloc((base->n ? base->n : 1) * sizeof(*first));
	if (!idx || !first) {
		free(idx);
		free(first);
		return -ENOMEM;
	}
	/* first[k]: the base row of the group holding row k (SIZE_MAX: alone) */
	for (i = 0; i < base->n;) {
		size_t j = i;
		size_t b = idx[i];

		while (j < base->n && !strcmp(base->m[idx[j]].name, base->m[idx[i]].name))
			j++;
		for (size_t k = i; base_label && k < j; k++) {
			if (base->m[idx[k]].label && !strcmp(base->m[idx[k]].label, base_label)) {
				b = idx[k];
				break;
			}
		}
		for (size_t k = i; k < j; k++)
			first[idx[k]] = j - i > 1 ? b : SIZE_MAX;
		i = j;
	}
	free(idx);
	for (i = 0; i < base->n; i++) {
		bool ok = true;

		if (first[i] == SIZE_MAX)
			ok = pair_push(pairs, npairs, &cap, &base->m[i], NULL);
		else if (first[i] != i)
			ok = pair_push(pairs, npairs, &cap, &base->m[first[i]], &base->m[i]);
		if (!ok) {
			free(first);
			free(*pairs);
			*pairs = NULL;
			*npairs = 0;
			return -ENOMEM;
		}
	}
	free(first);
	return 0;
}

size_t compare_split_fields(char *line, char **fields)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\v' || *p == '\f')
			p++;
		if (!*p)
			return n;
		if (n == COMPARE_MAX_FIELDS)
			return COMPARE_MAX_FIELDS + 1;
		fields[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\v' && *p != '\f')
			p++;
		if (*p)
			*p++ = '\0';
	}
}

bool compare_parse_number(const char *s, bool percent, double *out)
{
	char *end;
	double v;

	if (!*s || !strchr("+-.0123456789", *s))
		return false;	/* refuses "nan", "inf", hex words */
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(v))
		return false;
	if (percent && *end == '%')
		end++;
	if (*end)
		return false;
	*out = v;
	return true;
}

static void text_release(struct compare_text *t)
{
	free(t->buf);
	free(t->lines);
}

/* Load @path and split it into lines; refuses NUL bytes (not text). */
static int text_load(struct compare_text *t, const char *path, struct err *e)
{
	FILE *f;
	size_t cap = 0;
	char *p;

	memset(t, 0, sizeof(*t));
	f = fopen(path, "rb");
	if (!f)
		return err_set(e, -errno, "cannot open: %s", strerror(errno));
	for (;;) {
		size_t got;

		if (t->len + 1 >= cap) {
			char *buf;

			if (cap >= COMPARE_MAX_FILE) {
				fclose(f);
				return err_set(e, -SR_EUNSUPPORTED, "larger than %u bytes",
					       COMPARE_MAX_FILE);
			}
			cap = cap ? cap * 2 : 65536;
			buf = realloc(t->buf, cap + 1);
			if (!buf) {
				fclose(f);
				return err_set(e, -ENOMEM, "out of memory");
			}
			t->buf = buf;
		}
		got = fread(t->buf + t->len, 1, cap - t->len, f);
		t->len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fclose(f);
		return err_set(e, -EIO, "read error");
	}
	fclose(f);
	if (!t->buf)
		t->buf = calloc(1, 1);
	if (!t->buf)
		return err_set(e, -ENOMEM, "out of memory");
	t->buf[t->len] = '\0';
	p = memchr(t->buf, '\0', t->len);
	if (p) {
		err_at_byte(e, (uint64_t)(p - t->buf));
		return err_set(e, -SR_EUNSUPPORTED, "NUL byte: not a text or JSON input");
	}
	return 0;
}

/* Split a loaded text into lines in place (not for JSON: it needs the bytes). */
static int text_split(struct compare_text *t, struct err *e)
{
	size_t i;
	char *p;

	for (i = 0; i < t->len; i++)
		t->nlines += t->buf[i] == '\n';
	t->nlines++;
	t->lines = calloc(t->nlines, sizeof(*t->lines));
	if (!t->lines)
		return err_set(e, -ENOMEM, "out of memory");
	t->nlines = 0;
	p = t->buf;
	while (p) {
		char *nl = strchr(p, '\n');
		size_t l;

		if (nl)
			*nl = '\0';
		l = strlen(p);
		if (l && p[l - 1] == '\r')
			p[l - 1] = '\0';
		t->lines[t->nlines++] = p;
		p = nl ? nl + 1 : NULL;
	}
	if (t->nlines && !t->lines[t->nlines - 1][0])
		t->nlines--;	/* the empty "line" after a final newline */
	return 0;
}

static bool line_is_skipped(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return !*line || *line == '#';
}

/* Plain numbers, one run per line, in one or more columns. */
static int read_numbers(struct compare_side *s, struct compare_text *t, const char *path,
			const char *label, struct err *e)
{
	char *header[COMPARE_MAX_FIELDS];
	char *fields[COMPARE_MAX_FIELDS];
	char names[COMPARE_MAX_FIELDS][128];
	size_t ncols = 0;
	size_t nruns = 0;
	enum compare_kind kind = COMPARE_KIND_NUMBERS;
	size_t i;
	size_t j;
	int ret;

	for (i = 0; i < t->nlines; i++) {
		size_t n;

		if (line_is_skipped(t->lines[i]))
			continue;
		n = compare_split_fields(t->lines[i], fields);
		err_at_line(e, i + 1);
		if (n > COMPARE_MAX_FIELDS)
			return err_set(e, -SR_EBADTEXT, "more than %d columns", COMPARE_MAX_FIELDS);
		if (!ncols) {
			double v;
			bool numeric = true;

			for (j = 0; j < n; j++)
				numeric = numeric && compare_parse_number(fields[j], false, &v);
			ncols = n;
			if (!numeric) {
				memcpy(header, fields, n * sizeof(*fields));
				for (j = 0; j < n; j++)
					snprintf(names[j], sizeof(names[j]), "%s", header[j]);
				kind = COMPARE_KIND_COLUMNS;
				continue;
			}
			for (j = 0; j < n; j++) {
				if (n == 1)
					snprintf(names[j], sizeof(names[j]), "value");
				else
					snprintf(names[j], sizeof(names[j]), "col%zu", j + 1);
			}
		}
		if (n != ncols) {
			double v;
			bool any = false;

			for (j = 0; j < n; j++)
				any = any || compare_parse_number(fields[j], false, &v);
			if (!any && !nruns && kind == COMPARE_KIND_COLUMNS)
				return err_set(e, -SR_EBADTEXT,
					       "nothing to compare: no summary table, benchmark output or runs (numbers, one run per line) found");
			return err_set(e, -SR_EBADTEXT, "expected %zu numbers, found %zu fields",
				       ncols, n);
		}
		for (j = 0; j < n; j++) {
			double v;

			if (!compare_parse_number(fields[j], false, &v))
				return err_set(e, -SR_EBADTEXT, "column %zu: not a number",
					       j + 1);
			ret = compare_side_add_run(s, names[j], label, kind, path, i + 1, v);
			if (ret)
				return err_set(e, ret, "out of memory");
		}
		nruns++;
	}
	if (!nruns) {
		e->where[0] = '\0';
		return err_set(e, -SR_EEMPTY, "no runs: no line of numbers");
	}
	return 0;
}

/*
 * The headline figures of a replay report (docs/compare.md): what a
 * reviewer reads first.  --metric picks others by dotted name.
 */
static const char *const report_headline[] = {
	"decisions", "disagreements", "unknown", "lost_window",
	"cost.totals.delta.weighted", "cost.totals.delta.remote_accesses", "fidelity",
};

static bool report_wanted(const char *name, const struct compare_read_opts *o)
{
	size_t i;

	if (!o || !o->nmetrics) {
		for (i = 0; i < sizeof(report_headline) / sizeof(report_headline[0]); i++)
			if (!strcmp(name, report_headline[i]))
				return true;
		return false;
	}
	for (i = 0; i < o->nmetrics; i++) {
		size_t len = strlen(o->metrics[i]);

		/* a name, or a prefix ending at a dot ("cost.totals" picks its figures) */
		if (!strncmp(name, o->metrics[i], len) && (!name[len] || name[len] == '.'))
			return true;
	}
	return false;
}

struct report_walk {
	struct compare_side			*s;
	const char				*path;
	const char				*label;
	const struct compare_read_opts		*o;
	size_t					added;
};

/* Add every wanted number under @v as one run, names joined with dots. */
static int report_walk(struct report_walk *w, json_t *v, char *name, size_t len, size_t cap,
		       unsigned int depth)
{
	const char *key;
	json_t *child;
	size_t idx;
	int ret;

	if (depth > 32)
		return 0;
	if (json_is_number(v)) {
		if (!report_wanted(name, w->o))
			return 0;
		w->added++;
		return compare_side_add_run(w->s, name, w->label, COMPARE_KIND_REPORT, w->path, 1,
					    json_number_value(v));
	}
	if (json_is_object(v)) {
		json_object_foreach(v, key, child) {
			int n = snprintf(name + len, cap - len, "%s%s", len ? "." : "", key);

			if (n < 0 || (size_t)n >= cap - len)
				continue;	/* absurdly long key: skip it */
			ret = report_walk(w, child, name, len + n, cap, depth + 1);
			if (ret)
				return ret;
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, idx, child) {
			int n = snprintf(name + len, cap - len, "%s%zu", len ? "." : "", idx);

			if (n < 0 || (size_t)n >= cap - len)
				continue;
			ret = report_walk(w, child, name, len + n, cap, depth + 1);
			if (ret)
				return ret;
		}
	}
	name[len] = '\0';
	return 0;
}

/*
 * "fidelity": the share of judged decisions the kernel model reproduced,
 * over every class of summary.fidelity (a headline figure).
 */
static int report_fidelity(struct report_walk *w, json_t *summary)
{
	json_t *fid = json_object_get(summary, "fidelity");
	double judged = 0;
	double repro = 0;
	const char *key;
	json_t *c;

	if (!json_is_object(fid) || !report_wanted("fidelity", w->o))
		return 0;
	json_object_foreach(fid, key, c) {
		json_t *j = json_object_get(c, "judged");
		json_t *r = json_object_get(c, "reproduced");

		if (json_is_number(j) && json_is_number(r)) {
			judged += json_number_value(j);
			repro += json_number_value(r);
		}
	}
	if (!(judged > 0))
		return 0;
	w->added++;
	return compare_side_add_run(w->s, "fidelity", w->label, COMPARE_KIND_REPORT, w->path, 1,
				    repro / judged);
}

static int read_report(struct compare_side *s, const struct compare_text *t, const char *path,
		       const struct compare_read_opts *o, struct err *e)
{
	struct report_walk w = { .s = s, .path = path, .label = o ? o->label : NULL, .o = o };
	json_error_t jerr;
	json_t *root;
	json_t *summary;
	char name[512] = "";
	int ret = 0;

	root = json_loadb(t->buf, t->len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		err_at_line(e, jerr.line > 0 ? (uint64_t)jerr.line : 1);
		return err_set(e, -SR_EBADTEXT, "invalid JSON: %s", jerr.text);
	}
	summary = json_object_get(root, "summary");
	if (!json_is_object(summary)) {
		json_decref(root);
		return err_set(e, -SR_EUNSUPPORTED,
			       "JSON input has no \"summary\" object: not a replay report");
	}
	ret = report_walk(&w, summary, name, 0, sizeof(name), 0);
	if (!ret)
		ret = report_fidelity(&w, summary);
	if (ret)
		ret = err_set(e, ret, "out of memory");
	else if (!w.added)
		ret = err_set(e, -SR_EEMPTY, o && o->nmetrics ?
			      "replay report has none of the --metric figures" :
			      "replay report has no headline figures (decisions, disagreements, unknown, cost.totals.delta, fidelity)");
	json_decref(root);
	return ret;
}

int compare_read_file(struct compare_side *s, const char *path,
		      const struct compare_read_opts *opts, struct err *e)
{
	struct compare_text t;
	const char *p;
	int ret;

	err_set_file(e, path);
	ret = text_load(&t, path, e);
	if (ret)
		goto out;
	for (p = t.buf; *p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'; p++)
		;
	if (*p == '{') {
		ret = read_report(s, &t, path, opts, e);
		goto out;
	}
	ret = text_split(&t, e);
	if (ret)
		goto out;
	ret = compare_read_text(s, &t, path, opts, e);
	if (ret == -SR_EEMPTY && !e->msg[0]) {
		/* nothing recognised: plain numbers or columns */
		ret = read_numbers(s, &t, path, opts ? opts->label : NULL, e);
	}
out:
	text_release(&t);
	return ret;
}
