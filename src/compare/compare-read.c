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
}

void compare_side_release(struct compare_side *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		metric_release(&s->m[i]);
	free(s->m);
	compare_side_init(s);
}

struct compare_metric *compare_side_find(const struct compare_side *s, const char *name)
{
	size_t i;

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

int compare_side_add_run(struct compare_side *s, const char *raw_name, enum compare_kind kind,
			 const char *file, unsigned long line, double v)
{
	struct compare_metric *m;
	char name[512];

	snprintf(name, sizeof(name), "%s", raw_name);
	compare_sanitize(name);
	m = compare_side_find(s, name);

	if (m && m->kind == COMPARE_KIND_SUMMARY)
		return -SR_EBADTEXT;
	if (!m) {
		m = side_push(s);
		if (!m)
			return -ENOMEM;
		m->kind = kind;
		m->line = line;
		m->nfiles = 1;
		if (side_commit(s, m, name, file))
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
	return side_commit(s, m, name, file);
}

int compare_side_check_unique(const struct compare_side *s, struct err *e)
{
	size_t i;
	size_t j;

	for (i = 0; i < s->n; i++) {
		for (j = 0; j < i; j++) {
			if (strcmp(s->m[i].name, s->m[j].name))
				continue;
			err_set_file(e, s->m[i].file);
			err_at_line(e, s->m[i].line);
			return err_set(e, -SR_EBADTEXT,
				       "metric '%s' given twice on one side (first at '%s' line %lu); without --vs, tables hold before/after pairs",
				       s->m[i].name, s->m[j].file, s->m[j].line);
		}
	}
	return 0;
}

int compare_side_split_pairs(struct compare_side *all, struct compare_side *base,
			     struct compare_side *new, struct err *e)
{
	size_t i;
	size_t j;
	int ret;

	for (i = 0; i < all->n; i++) {
		struct compare_metric *m = &all->m[i];
		size_t seen = 0;

		if (m->kind != COMPARE_KIND_SUMMARY) {
			err_set_file(e, m->file);
			return err_set(e, -SR_EBADTEXT,
				       "metric '%s' is raw runs: without --vs only before/after summary tables can be compared",
				       m->name);
		}
		for (j = 0; j < all->n; j++)
			seen += !strcmp(all->m[j].name, m->name);
		if (seen != 2) {
			err_set_file(e, m->file);
			err_at_line(e, m->line);
			return err_set(e, -SR_EBADTEXT,
				       "metric '%s' has %zu rows; without --vs each metric needs exactly two (before, after)",
				       m->name, seen);
		}
	}
	for (i = 0; i < all->n; i++) {
		struct compare_side *to = compare_side_find(base, all->m[i].name) ? new : base;

		ret = compare_side_add_summary(to, &all->m[i], all->m[i].name, all->m[i].file);
		if (ret)
			return err_set(e, ret, "out of memory");
	}
	compare_side_release(all);
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
			struct err *e)
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
		if (n != ncols)
			return err_set(e, -SR_EBADTEXT, "expected %zu numbers, found %zu fields",
				       ncols, n);
		for (j = 0; j < n; j++) {
			double v;

			if (!compare_parse_number(fields[j], false, &v))
				return err_set(e, -SR_EBADTEXT, "column %zu: not a number",
					       j + 1);
			ret = compare_side_add_run(s, names[j], kind, path, i + 1, v);
			if (ret == -SR_EBADTEXT)
				return err_set(e, ret, "metric '%s' is also a summary row",
					       names[j]);
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

/* Add every number under @v as one run, names joined with dots. */
static int report_walk(struct compare_side *s, json_t *v, char *name, size_t len,
		       size_t cap, const char *path, unsigned int depth)
{
	const char *key;
	json_t *child;
	size_t idx;
	int ret;

	if (depth > 32)
		return 0;
	if (json_is_number(v))
		return compare_side_add_run(s, name, COMPARE_KIND_REPORT, path, 1,
					    json_number_value(v));
	if (json_is_object(v)) {
		json_object_foreach(v, key, child) {
			int n = snprintf(name + len, cap - len, "%s%s", len ? "." : "", key);

			if (n < 0 || (size_t)n >= cap - len)
				continue;	/* absurdly long key: skip it */
			ret = report_walk(s, child, name, len + n, cap, path, depth + 1);
			if (ret)
				return ret;
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, idx, child) {
			int n = snprintf(name + len, cap - len, "%s%zu", len ? "." : "", idx);

			if (n < 0 || (size_t)n >= cap - len)
				continue;
			ret = report_walk(s, child, name, len + n, cap, path, depth + 1);
			if (ret)
				return ret;
		}
	}
	name[len] = '\0';
	return 0;
}

static const char *const report_fields[] = {
	"decisions", "disagreements", "unknown", "by_class", "cost",
};

static int read_report(struct compare_side *s, const struct compare_text *t, const char *path,
		       struct err *e)
{
	json_error_t jerr;
	json_t *root;
	json_t *summary;
	size_t before = 0;
	size_t found = 0;
	size_t i;
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
	for (i = 0; i < s->n; i++)
		before += s->m[i].nruns;
	for (i = 0; i < sizeof(report_fields) / sizeof(report_fields[0]); i++) {
		char name[512];
		json_t *v = json_object_get(summary, report_fields[i]);

		if (!v)
			continue;	/* a report may lack any of them */
		snprintf(name, sizeof(name), "%s", report_fields[i]);
		ret = report_walk(s, v, name, strlen(name), sizeof(name), path, 0);
		if (ret == -SR_EBADTEXT) {
			ret = err_set(e, ret, "metric '%s' is also a summary row", name);
			goto out;
		}
		if (ret) {
			ret = err_set(e, ret, "out of memory");
			goto out;
		}
	}
	for (i = 0; i < s->n; i++)
		found += s->m[i].nruns;
	if (found == before)
		ret = err_set(e, -SR_EEMPTY, "replay report has no numeric summary metrics");
out:
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
		ret = read_report(s, &t, path, e);
		goto out;
	}
	ret = text_split(&t, e);
	if (ret)
		goto out;
	if (compare_text_is_table(&t))
		ret = compare_read_table(s, &t, path, opts, e);
	else
		ret = read_numbers(s, &t, path, e);
out:
	text_release(&t);
	return ret;
}
