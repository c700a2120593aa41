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

/* Skip blanks and e-mail quote marks. */
static char *unquote(char *line)
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

bool compare_text_is_table(const struct compare_text *t)
{
	char copy[1024];
	char *fields[COMPARE_MAX_FIELDS];
	struct table tab;
	size_t i;

	for (i = 0; i < t->nlines; i++) {
		const char *line = t->lines[i];
		size_t n;

		while (*line == ' ' || *line == '\t' || *line == '>')
			line++;
		if (strlen(line) >= sizeof(copy))
			continue;
		strcpy(copy, line);
		n = compare_split_fields(copy, fields);
		if (n <= COMPARE_MAX_FIELDS && header_parse(fields, n, &tab))
			return true;
	}
	return false;
}

/* Remember a prose line as the caption of a following table. */
static void set_caption(struct table *t, const char *line)
{
	size_t out = 0;
	bool blank = false;

	for (; *line && out + 2 < sizeof(t->caption); line++) {
		if (isspace((unsigned char)*line)) {
			blank = out > 0;
			continue;
		}
		if (blank)
			t->caption[out++] = ' ';
		blank = false;
		t->caption[out++] = *line;
	}
	t->caption[out] = '\0';
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

static int add_row(struct compare_side *s, const struct table *t, struct compare_metric *row,
		   const char *word, const char *path, const struct compare_read_opts *opts,
		   struct err *e)
{
	char name[256];
	size_t len;
	int ret;

	if (word) {
		snprintf(name, sizeof(name), "%s", word);
		len = strlen(name);
		if (len > 1 && name[len - 1] == ':')
			name[len - 1] = '\0';
	} else if (t->caption[0]) {
		snprintf(name, sizeof(name), "%s", t->caption);
	} else {
		snprintf(name, sizeof(name), "table %u", t->index);
	}
	if (!table_has(t, COL_COUNT))
		row->count = opts ? opts->count : 0;
	if (!(row->count >= 1) || row->count != floor(row->count) || row->count > 1e9)
		return err_set(e, -SR_EBADTEXT, "count %g is not a number of runs",
			       row->count);
	ret = compare_side_add_summary(s, row, name, path);
	if (ret)
		return err_set(e, ret, "out of memory");
	return 0;
}

int compare_read_table(struct compare_side *s, struct compare_text *t, const char *path,
		       const struct compare_read_opts *opts, struct err *e)
{
	char *fields[COMPARE_MAX_FIELDS];
	struct table tab;
	bool in_table = false;
	unsigned int rows = 0;
	size_t i;
	int ret;

	memset(&tab, 0, sizeof(tab));
	for (i = 0; i < t->nlines; i++) {
		char *line = unquote(t->lines[i]);
		struct compare_metric row;
		struct table next = tab;
		const char *word = NULL;
		char prose[256];
		size_t n;

		snprintf(prose, sizeof(prose), "%s", line);
		n = compare_split_fields(line, fields);
		err_at_line(e, i + 1);
		if (header_parse(fields, n, &next)) {
			if (!table_has(&next, COL_COUNT) && !(opts && opts->count >= 1))
				return err_set(e, -SR_EBADTEXT,
					       "summary table has no count column: give the number of runs with --count N");
			next.line = i + 1;
			next.index = tab.index + 1;
			tab = next;
			in_table = true;
			continue;
		}
		if (!in_table) {
			if (n)
				set_caption(&tab, prose);
			continue;
		}
		if (n == 0) {
			in_table = false;
			tab.caption[0] = '\0';
			continue;
		}
		memset(&row, 0, sizeof(row));
		row.min = NAN;
		row.max = NAN;
		row.mean = NAN;
		row.disp = NAN;
		row.change = NAN;
		row.line = i + 1;
		switch (row_parse(fields, n, &tab, &row, &word)) {
		case ROW_PROSE:
			in_table = false;
			set_caption(&tab, prose);
			continue;
		case ROW_BAD:
			return err_set(e, -SR_EBADTEXT,
				       "row has %zu fields; the header at line %lu has %zu columns",
				       n, tab.line, tab.ncols);
		case ROW_OK:
			break;
		}
		ret = add_row(s, &tab, &row, word, path, opts, e);
		if (ret)
			return ret;
		rows++;
	}
	if (!rows) {
		e->where[0] = '\0';
		return err_set(e, -SR_EEMPTY, "summary table header but no rows");
	}
	return 0;
}
