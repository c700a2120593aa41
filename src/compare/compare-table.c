// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-table.c - summary statistics tables, as benchmark reports paste them.
 *
 * A header line names columns among count, Min, Max, Avg (or Mean), StdDev
 * (Stdev, SD, Std), Variance (Var) and %Change, case-insensitively, with an
 * optional trailing ':' ("Testcase:").  It must name Avg or Mean and one
 * more statistic.  A first header word that is none of these names the
 * metric column.  Leading blanks and e-mail quote marks ('>') are ignored,
 * so tables quoted in a mail thread read as pasted.
 *
 * The rows under a header run to the next blank or prose line.  A row may
 * lack a trailing %Change (the "before" row of a before/after table).  When
 * the header has no name column a row may still start with a name (a
 * non-numeric first word, or one word more than the header); rows without a
 * name take the table's caption (the last prose line before the header),
 * or "table K" when there is none.  A row whose words are all numbers but
 * whose count does not fit the header is an error.  Everything outside
 * tables is prose and ignored.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include <stdlib.h>

#include "compare-local.h"

enum col {
	COL_NAME,
	COL_COUNT,
	COL_MIN,
	COL_MAX,
	COL_MEAN,
	COL_SD,
	COL_VAR,
	COL_CHANGE,
	COL_OTHER,
};

static const struct {
	const char	*word;
	enum col	col;
} col_words[] = {
	{ "count", COL_COUNT }, { "n", COL_COUNT }, { "runs", COL_COUNT },
	{ "min", COL_MIN }, { "minimum", COL_MIN },
	{ "max", COL_MAX }, { "maximum", COL_MAX },
	{ "avg", COL_MEAN }, { "mean", COL_MEAN }, { "average", COL_MEAN },
	{ "stddev", COL_SD }, { "stdev", COL_SD }, { "std", COL_SD }, { "sd", COL_SD },
	{ "variance", COL_VAR }, { "var", COL_VAR },
	{ "%change", COL_CHANGE }, { "change", COL_CHANGE }, { "change%", COL_CHANGE },
	{ "%chg", COL_CHANGE }, { "%diff", COL_CHANGE },
};

/**
 * struct table - the header being read
 * @cols:    column kinds
 * @ncols:   number of columns
 * @named:   the first column names the metric
 * @line:    line of the header (1-based)
 * @index:   1-based number of the table in the file
 * @caption: name for rows without one
 */
struct table {
	enum col	cols[COMPARE_MAX_FIELDS];
	size_t		ncols;
	bool		named;
	unsigned long	line;
	unsigned int	index;
	char		caption[256];
};

const char *compare_unquote(const char *line)
{
	while (*line == ' ' || *line == '\t' || *line == '>')
		line++;
	return line;
}

static enum col word_col(const char *word)
{
	char buf[32];
	size_t len = strlen(word);
	size_t i;

	if (len && word[len - 1] == ':')
		len--;
	if (len >= sizeof(buf))
		return COL_OTHER;
	memcpy(buf, word, len);
	buf[len] = '\0';
	for (i = 0; i < sizeof(col_words) / sizeof(col_words[0]); i++)
		if (!strcasecmp(buf, col_words[i].word))
			return col_words[i].col;
	return COL_OTHER;
}

bool compare_is_stat_word(const char *word)
{
	enum col c = word_col(word);

	return c != COL_OTHER && c != COL_CHANGE;
}

/* Parse @fields as a header into @t; false when it is not one. */
static bool header_parse(char **fields, size_t n, struct table *t)
{
	bool mean = false;
	bool other = false;
	size_t i;

	if (n < 2 || n > COMPARE_MAX_FIELDS)
		return false;
	for (i = 0; i < n; i++) {
		enum col c = word_col(fields[i]);

		if (c == COL_OTHER && i == 0)
			c = COL_NAME;
		t->cols[i] = c;
		mean = mean || c == COL_MEAN;
		other = other || c == COL_COUNT || c == COL_MIN || c == COL_MAX ||
			c == COL_SD || c == COL_VAR;
	}
	t->ncols = n;
	t->named = t->cols[0] == COL_NAME;
	return mean && other;
}

/* Copy @line into @buf with runs of blanks made one space, trimmed. */
static void squeeze(char *buf, size_t len, const char *line)
{
	size_t out = 0;
	bool blank = false;

	for (; *line && out + 2 < len; line++) {
		if (isspace((unsigned char)*line)) {
			blank = out > 0;
			continue;
		}
		if (blank)
			buf[out++] = ' ';
		blank = false;
		buf[out++] = *line;
	}
	buf[out] = '\0';
}

/* The direction a title states: "higher numbers are better", "lower is better". */
static enum compare_dir title_dir(const char *title)
{
	char low[256];
	size_t i;
	const char *better;

	for (i = 0; title[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)title[i]);
	low[i] = '\0';
	better = strstr(low, "better");
	if (!better)
		return COMPARE_DIR_UNKNOWN;
	for (const char *p = low; p < better; p++) {
		if (!strncmp(p, "higher", 6) || !strncmp(p, "more", 4) || !strncmp(p, "bigger", 6))
			return COMPARE_DIR_HIGHER;
		if (!strncmp(p, "lower", 5) || !strncmp(p, "less", 4) || !strncmp(p, "smaller", 7))
			return COMPARE_DIR_LOWER;
	}
	return COMPARE_DIR_UNKNOWN;
}

/* A prose line: it may caption, title or label what follows. */
static void scan_prose(struct compare_scan *sc, const char *line, unsigned long no)
{
	char buf[256];
	size_t len;
	bool paren;

	squeeze(buf, sizeof(buf), line);
	if (!buf[0]) {
		sc->block_n = 0;
		return;
	}
	if (!sc->block_n++)
		snprintf(sc->block, sizeof(sc->block), "%s", buf);
	len = strlen(buf);
	paren = buf[0] == '(' && buf[len - 1] == ')';
	if (paren) {
		buf[len - 1] = '\0';
		memmove(buf, buf + 1, len - 1);
	} else {
		snprintf(sc->caption, sizeof(sc->caption), "%s", buf);
		sc->caption_line = no;
		if (title_dir(buf) != COMPARE_DIR_UNKNOWN) {
			snprintf(sc->title, sizeof(sc->title), "%s", buf);
			sc->title_dir = title_dir(buf);
		}
	}
	len = strlen(buf);
	if (len > 1 && buf[len - 1] == ':')
		buf[len - 1] = '\0';
	snprintf(sc->label, sizeof(sc->label), "%s", buf);
	sc->label_line = no;
}

enum row_status {
	ROW_OK,
	ROW_PROSE,	/* not a row: the table ends */
	ROW_BAD,	/* numbers that do not fit the header */
};

/* Whether @have data fields fit the header (a final %Change may be absent). */
static bool row_fits(const struct table *t, size_t have)
{
	size_t ndata = t->ncols - t->named;

	return have == ndata || (t->cols[t->ncols - 1] == COL_CHANGE && have + 1 == ndata);
}

/*
 * Fill @row from @fields under table @t.  A line whose words after the first
 * are not all numbers, or that has fewer than two words, is prose.
 */
static enum row_status row_parse(char **fields, size_t n, const struct table *t,
				 struct compare_metric *row, const char **name)
{
	size_t first;
	size_t have;
	size_t i;
	double v;

	if (n < 2 || n > COMPARE_MAX_FIELDS)
		return ROW_PROSE;
	for (i = 1; i < n; i++)
		if (!compare_parse_number(fields[i], true, &v))
			return ROW_PROSE;
	if (t->named || !compare_parse_number(fields[0], true, &v) || !row_fits(t, n))
		first = 1;
	else
		first = 0;
	have = n - first;
	if (!row_fits(t, have))
		return ROW_BAD;
	*name = first ? fields[0] : NULL;
	for (i = 0; i < have; i++) {
		compare_parse_number(fields[first + i], true, &v);
		switch (t->cols[i + t->named]) {
		case COL_COUNT:
			row->count = v;
			break;
		case COL_MIN:
			row->min = v;
			break;
		case COL_MAX:
			row->max = v;
			break;
		case COL_MEAN:
			row->mean = v;
			break;
		case COL_SD:
			row->disp = v;
			row->disp_kind = COMPARE_DISP_SD;
			break;
		case COL_VAR:
			row->disp = v;
			row->disp_kind = COMPARE_DISP_VAR;
			break;
		case COL_CHANGE:
			row->change = v;
			break;
		case COL_NAME:
		case COL_OTHER:
			break;
		}
	}
	return ROW_OK;
}

static bool table_has(const struct table *t, enum col c)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (t->cols[i] == c)
			return true;
	return false;
}

void compare_row_init(struct compare_metric *row, unsigned long line)
{
	memset(row, 0, sizeof(*row));
	row->min = NAN;
	row->max = NAN;
	row->mean = NAN;
	row->disp = NAN;
	row->change = NAN;
	row->mark = -1;
	row->reading = COMPARE_READ_AS_LABELLED;
	row->line = line;
}

const char *compare_scan_label(const struct compare_scan *sc)
{
	if (sc->opts && sc->opts->pool)
		return NULL;
	if (sc->label[0])
		return sc->label;
	return sc->opts ? sc->opts->label : NULL;
}

/* The title's first part ("dbench" of "dbench / transactions / ..."). */
static void title_short(const struct compare_scan *sc, char *buf, size_t len)
{
	const char *slash = strstr(sc->title, " / ");
	size_t n = slash ? (size_t)(slash - sc->title) : strlen(sc->title);

	if (n >= len)
		n = len - 1;
	memcpy(buf, sc->title, n);
	buf[n] = '\0';
}

int compare_scan_add(struct compare_scan *sc, struct compare_metric *row, const char *name)
{
	char why[320];
	int ret;

	if (row->dir == COMPARE_DIR_UNKNOWN && sc->title_dir != COMPARE_DIR_UNKNOWN) {
		row->dir = sc->title_dir;
		snprintf(why, sizeof(why), "the text says '%s'", sc->title);
		row->dir_why = why;
	}
	ret = compare_side_add_summary(sc->s, row, name, sc->path);
	if (row->dir_why == why)
		row->dir_why = NULL;
	if (ret)
		return err_set(sc->e, ret, "out of memory");
	sc->found++;
	return 0;
}

int compare_scan_run(struct compare_scan *sc, const char *name, unsigned long line, double v)
{
	int ret = compare_side_add_run(sc->s, name, compare_scan_label(sc), COMPARE_KIND_BENCH,
				       sc->path, line, v);

	if (ret)
		return err_set(sc->e, ret, "out of memory");
	sc->found++;
	return 0;
}

/* The name of a summary-table row: its own word, or the table's caption. */
static void row_name(const struct compare_scan *sc, const struct table *t, const char *word,
		     char *name, size_t len)
{
	char title[64];
	size_t l;

	title_short(sc, title, sizeof(title));
	if (word) {
		snprintf(name, len, "%s", word);
		l = strlen(name);
		if (l > 1 && name[l - 1] == ':')
			name[l - 1] = '\0';
	} else if (t->caption[0] && title[0] && strcmp(t->caption, sc->title)) {
		snprintf(name, len, "%.60s %.190s", title, t->caption);
	} else if (t->caption[0]) {
		snprintf(name, len, "%s", t->caption);
	} else {
		snprintf(name, len, "table %u", t->index);
	}
}

static int add_row(struct compare_scan *sc, const struct table *t, struct compare_metric *row,
		   const char *word)
{
	char name[256];

	row_name(sc, t, word, name, sizeof(name));
	if (!table_has(t, COL_COUNT))
		row->count = sc->opts ? sc->opts->count : 0;
	if (!(row->count >= 1) || row->count != floor(row->count) || row->count > 1e9)
		return err_set(sc->e, -SR_EBADTEXT, "count %g is not a number of runs",
			       row->count);
	return compare_scan_add(sc, row, name);
}

static bool rows_equal(const struct compare_metric *a, const struct compare_metric *b)
{
#define SAME(f) ((isnan(a->f) && isnan(b->f)) || a->f == b->f)
	return !strcmp(a->name, b->name) && SAME(count) && SAME(min) && SAME(max) &&
	       SAME(mean) && SAME(disp) && SAME(change) && a->disp_kind == b->disp_kind &&
	       ((!a->label && !b->label) || (a->label && b->label && !strcmp(a->label, b->label)));
#undef SAME
}

/*
 * A table just read (rows [start, s->n)): when an earlier table of the file
 * has the same rows, it is a quote of that one; drop it and note the repeat.
 */
static int table_done(struct compare_scan *sc, size_t start)
{
	struct compare_side *s = sc->s;
	size_t n = s->n - start;
	size_t k;

	if (!n)
		return 0;
	for (k = 0; k < sc->ntabs; k++) {
		size_t j;

		if (sc->tabs[k].n != n)
			continue;
		for (j = 0; j < n; j++)
			if (!rows_equal(&s->m[sc->tabs[k].start + j], &s->m[start + j]))
				break;
		if (j < n)
			continue;
		for (j = 0; j < n; j++) {
			struct compare_metric *m = &s->m[start + j];

			if (!s->m[sc->tabs[k].start + j].repeat_line)
				s->m[sc->tabs[k].start + j].repeat_line = m->line;
			free(m->name);
			free(m->file);
			free(m->label);
			free(m->dir_why);
			free(m->what);
		}
		s->n = start;
		sc->found -= n;
		return 0;
	}
	if (sc->ntabs == sc->tabcap) {
		size_t cap = sc->tabcap ? sc->tabcap * 2 : 16;
		void *p = realloc(sc->tabs, cap * sizeof(*sc->tabs));

		if (!p)
			return err_set(sc->e, -ENOMEM, "out of memory");
		sc->tabs = p;
		sc->tabcap = cap;
	}
	sc->tabs[sc->ntabs].start = start;
	sc->tabs[sc->ntabs++].n = n;
	return 0;
}

/* A summary table whose header is line @i: its rows.  Return: lines read. */
static long read_summary(struct compare_scan *sc, size_t i, struct table *tab)
{
	struct compare_text *t = sc->t;
	char *fields[COMPARE_MAX_FIELDS];
	char copy[COMPARE_MAX_LINE];
	size_t start = sc->s->n;
	size_t k;
	int ret;

	err_at_line(sc->e, i + 1);
	if (!table_has(tab, COL_COUNT) && !(sc->opts && sc->opts->count >= 1))
		return err_set(sc->e, -SR_EBADTEXT,
			       "summary table has no count column: give the number of runs with --count N");
	tab->line = i + 1;
	snprintf(tab->caption, sizeof(tab->caption), "%s",
		 sc->caption_line > sc->tab_end && sc->caption_line + 8 >= i + 1 ?
		 sc->caption : "");
	for (k = i + 1; k < t->nlines; k++) {
		const char *line = compare_unquote(t->lines[k]);
		struct compare_metric row;
		const char *word = NULL;
		size_t n;

		if (strlen(line) >= sizeof(copy))
			break;
		strcpy(copy, line);
		n = compare_split_fields(copy, fields);
		if (n == 0)
			break;
		err_at_line(sc->e, k + 1);
		compare_row_init(&row, k + 1);
		switch (row_parse(fields, n, tab, &row, &word)) {
		case ROW_PROSE:
			goto done;
		case ROW_BAD:
			return err_set(sc->e, -SR_EBADTEXT,
				       "row has %zu fields; the header at line %lu has %zu columns",
				       n, tab->line, tab->ncols);
		case ROW_OK:
			break;
		}
		ret = add_row(sc, tab, &row, word);
		if (ret)
			return ret;
	}
done:
	sc->tab_end = k;
	ret = table_done(sc, start);
	if (ret)
		return ret;
	return (long)(k - i);
}

int compare_read_text(struct compare_side *s, struct compare_text *t, const char *path,
		      const struct compare_read_opts *opts, struct err *e)
{
	struct compare_scan sc = { .s = s, .path = path, .opts = opts, .e = e, .t = t };
	char *fields[COMPARE_MAX_FIELDS];
	char copy[COMPARE_MAX_LINE];
	unsigned int index = 0;
	size_t i;
	int ret = 0;

	for (i = 0; i < t->nlines;) {
		const char *line = compare_unquote(t->lines[i]);
		struct table tab;
		long used;
		size_t n;

		err_at_line(e, i + 1);
		if (strlen(line) >= sizeof(copy)) {
			i++;
			continue;
		}
		ret = compare_bench_line(&sc, line, i + 1);
		if (ret < 0)
			goto out;
		if (ret) {
			sc.block_n = 0;
			i++;
			continue;
		}
		used = compare_wide_block(&sc, i);
		if (used < 0) {
			ret = (int)used;
			goto out;
		}
		if (used) {
			sc.block_n = 0;
			i += used;
			continue;
		}
		strcpy(copy, line);
		n = compare_split_fields(copy, fields);
		memset(&tab, 0, sizeof(tab));
		if (header_parse(fields, n, &tab)) {
			tab.index = ++index;
			used = read_summary(&sc, i, &tab);
			if (used < 0) {
				ret = (int)used;
				goto out;
			}
			sc.block_n = 0;
			i += used;
			continue;
		}
		scan_prose(&sc, line, i + 1);
		i++;
	}
	ret = 0;
	if (!sc.found) {
		e->where[0] = '\0';
		e->msg[0] = '\0';
		ret = -SR_EEMPTY;
	}
out:
	free(sc.tabs);
	return ret;
}
