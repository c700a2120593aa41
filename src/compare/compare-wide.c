// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-wide.c - tables that hold one figure per kernel: kernels as
 * columns (seed 000's "JVMS Prev Current %Change"), kernels as rows (seed
 * 003's kernbench and schedbench blocks), and mmtests compare-kernels
 * blocks ("Amean 1 0.3667 (0.00%) 0.3890 (-6.09%)").
 *
 * A value table's header is two to 16 words, none a number or a statistic
 * (a final %Change column is allowed); its rows are a name and numbers,
 * each with an optional unit ("19.676s", "1197.4%").  When a row has one
 * field more than the header, the header names data columns only; the rows
 * are the kernels when their names look like kernel versions (a digit, then
 * '.' or '-') and the header words do not, else the columns are.  When the
 * row has as many fields as the header, the first header word labels the
 * name column and the other words are the kernels.  Every figure is an
 * average without a spread, so every comparison is inconclusive; the
 * change is still computed.
 *
 * An mmtests block: rows "STAT NAME (VALUE (PCT%) | VALUE *PCT%*)...", STAT
 * one of Min, Max, Amean, Hmean, Gmean, Stddev, CoeffVar, BAmean-NN, ...;
 * the kernels are named by the one or two lines above (as many words as
 * columns), the block by the line above those.  Per metric and kernel the
 * Amean (or Hmean), Stddev, Min and Max rows make one summary row; the
 * number of runs is not in the output (--count N gives it).  '*' around a
 * percentage is mmtests' own significance mark, kept for the check in
 * compare-analyze.c; the sign of mmtests' percentage gives the direction
 * (mmtests counts a gain as positive).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compare-local.h"

#define WIDE_MAX_COLS	16

bool compare_number_unit(const char *s, double *out, char unit[8])
{
	char num[64];
	size_t n = 0;
	size_t len;
	const char *p;

	unit[0] = '\0';
	/* digits with thousands separators: "5,81,911" */
	for (p = s; *p && n + 1 < sizeof(num); p++) {
		if (*p == ',' && p != s && isdigit((unsigned char)p[-1]) &&
		    isdigit((unsigned char)p[1]))
			continue;
		if (!strchr("+-.0123456789eE", *p))
			break;
		num[n++] = *p;
	}
	num[n] = '\0';
	len = strlen(p);
	if (!n || len > 7)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalpha((unsigned char)p[i]) && p[i] != '%' && p[i] != '/')
			return false;
	if (!compare_parse_number(num, false, out))
		return false;
	memcpy(unit, p, len + 1);
	return true;
}

/* Whether @w looks like a kernel version: a digit, later a '.' or '-'. */
static bool looks_like_kernel(const char *w)
{
	const char *d = w;

	while (*d && !isdigit((unsigned char)*d))
		d++;
	return *d && (strchr(d, '.') || strchr(d, '-'));
}

/* Direction a unit implies: seconds and the like are times. */
static enum compare_dir unit_dir(const char *unit)
{
	static const char *const times[] = { "s", "ms", "us", "ns", "sec", "secs", "usec",
					     "msec", "nsec" };
	size_t i;

	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		if (!strcasecmp(unit, times[i]))
			return COMPARE_DIR_LOWER;
	return COMPARE_DIR_UNKNOWN;
}

struct wide_row {
	char	name[128];
	double	v[WIDE_MAX_COLS];
	char	unit[WIDE_MAX_COLS][8];
	size_t	n;
	unsigned long line;
};

/* Parse @line as name + numbers; false when it is not such a row. */
static bool value_row(const char *line, struct wide_row *r, unsigned long no, bool num_name)
{
	char copy[COMPARE_MAX_LINE];
	char *f[COMPARE_MAX_FIELDS];
	double v;
	char unit[8];
	size_t n;
	size_t i;

	snprintf(copy, sizeof(copy), "%s", line);
	n = compare_split_fields(copy, f);
	if (n < 2 || n > WIDE_MAX_COLS + 1 || (!num_name && compare_number_unit(f[0], &v, unit)))
		return false;
	for (i = 1; i < n; i++)
		if (!compare_number_unit(f[i], &r->v[i - 1], r->unit[i - 1]))
			return false;
	snprintf(r->name, sizeof(r->name), "%s", f[0]);
	n = strlen(r->name);
	if (n > 1 && r->name[n - 1] == ':')
		r->name[n - 1] = '\0';
	r->n = i - 1;
	r->line = no;
	return true;
}

/* A value table header: words, none a number or a statistic. */
static size_t value_header(const char *line, char words[WIDE_MAX_COLS + 1][64])
{
	char copy[COMPARE_MAX_LINE];
	char *f[COMPARE_MAX_FIELDS];
	size_t n;
	size_t i;

	snprintf(copy, sizeof(copy), "%s", line);
	n = compare_split_fields(copy, f);
	if (n < 2 || n > WIDE_MAX_COLS + 1)
		return 0;
	for (i = 0; i < n; i++) {
		double v;
		char unit[8];

		if (compare_number_unit(f[i], &v, unit) || compare_is_stat_word(f[i]) ||
		    strlen(f[i]) >= 64 || (f[i][0] == '%' && i + 1 < n) ||
		    strchr(f[i], '=') || !isalnum((unsigned char)f[i][strlen(f[i]) - 1]))
			return 0;
		snprintf(words[i], 64, "%s", f[i]);
	}
	return n;
}

static bool is_change(const char *w)
{
	return !strcasecmp(w, "%change") || !strcasecmp(w, "change") || !strcasecmp(w, "%diff") ||
	       !strcasecmp(w, "change%");
}

static int emit_value(struct compare_scan *sc, const char *name, const char *label,
		      double v, const char *unit, unsigned long line)
{
	struct compare_metric row;
	char why[64];

	compare_row_init(&row, line);
	row.mean = v;
	row.count = sc->opts && sc->opts->count >= 1 ? sc->opts->count : NAN;
	row.label = (char *)label;
	row.what = (char *)"an average without a spread";
	row.dir = unit_dir(unit);
	if (row.dir != COMPARE_DIR_UNKNOWN) {
		snprintf(why, sizeof(why), "the unit '%s' is a time", unit);
		row.dir_why = why;
	}
	return compare_scan_add(sc, &row, name);
}

static long value_table(struct compare_scan *sc, size_t i)
{
	struct compare_text *t = sc->t;
	char words[WIDE_MAX_COLS + 1][64];
	char caption[256] = "";
	char name[384];
	struct wide_row r;
	size_t nh = value_header(compare_unquote(t->lines[i]), words);
	size_t ncols;
	bool named;
	bool num_name;
	bool kernel_rows = false;
	size_t k;
	int ret;

	if (!nh || i + 1 >= t->nlines)
		return 0;
	ncols = is_change(words[nh - 1]) ? nh - 1 : nh;
	/* rows named by a number ("4" JVMs) only under a header ending in %Change */
	num_name = ncols < nh;
	if (!value_row(compare_unquote(t->lines[i + 1]), &r, i + 2, num_name))
		return 0;
	if (r.n == nh && ncols == nh) {
		/* the header names data columns only */
		named = false;
		kernel_rows = looks_like_kernel(r.name);
		for (k = 0; k < nh && kernel_rows; k++)
			kernel_rows = !looks_like_kernel(words[k]);
		if (!kernel_rows && ncols < 2)
			return 0;
	} else if (r.n == nh - 1 || (ncols < nh && r.n == nh - 2)) {
		/* "JVMS Prev Current %Change" over "4 199709 206350 3.32534" */
		named = true;
		if (ncols < 3)
			return 0;
	} else {
		return 0;
	}
	if (sc->caption_line > sc->tab_end && sc->caption_line + 8 >= i + 1)
		snprintf(caption, sizeof(caption), "%s", sc->caption);
	k = strlen(caption);
	if (k > 1 && caption[k - 1] == ':')
		caption[k - 1] = '\0';
	if (caption[0] && sc->title[0] && strcmp(caption, sc->title)) {
		const char *slash = strstr(sc->title, " / ");
		char tmp[256];

		snprintf(tmp, sizeof(tmp), "%.*s %s",
			 (int)(slash ? (size_t)(slash - sc->title) : strlen(sc->title)) & 63,
			 sc->title, caption);
		memcpy(caption, tmp, sizeof(caption));
	}
	for (k = i + 1; k < t->nlines; k++) {
		size_t c;

		if (!value_row(compare_unquote(t->lines[k]), &r, k + 1, num_name))
			break;
		if (named ? r.n + 1 != nh && !(ncols < nh && r.n + 2 == nh) : r.n != nh)
			break;
		if (kernel_rows) {
			for (c = 0; c < r.n && c < ncols; c++) {
				snprintf(name, sizeof(name), "%s%s%s", caption, caption[0] ? ": " : "",
					 words[c]);
				ret = emit_value(sc, name, r.name, r.v[c], r.unit[c], r.line);
				if (ret)
					return ret;
			}
			continue;
		}
		for (c = 0; c < r.n && c + named < ncols; c++) {
			if (named)
				snprintf(name, sizeof(name), "%s%s%s %s", caption,
					 caption[0] ? ": " : "", words[0], r.name);
			else
				snprintf(name, sizeof(name), "%s%s%s", caption,
					 caption[0] ? ": " : "", r.name);
			ret = emit_value(sc, name, words[c + named], r.v[c], r.unit[c], r.line);
			if (ret)
				return ret;
		}
	}
	sc->tab_end = k;
	return (long)(k - i);
}

/* mmtests statistics rows. */
enum mm_stat { MM_MIN, MM_MAX, MM_AMEAN, MM_HMEAN, MM_GMEAN, MM_SD, MM_OTHER, MM_NONE };

static enum mm_stat mm_stat_word(const char *w)
{
	if (!strcmp(w, "Min"))
		return MM_MIN;
	if (!strcmp(w, "Max"))
		return MM_MAX;
	if (!strcmp(w, "Amean"))
		return MM_AMEAN;
	if (!strcmp(w, "Hmean"))
		return MM_HMEAN;
	if (!strcmp(w, "Gmean"))
		return MM_GMEAN;
	if (!strcmp(w, "Stddev"))
		return MM_SD;
	if (!strcmp(w, "CoeffVar") || !strncmp(w, "BAmean-", 7) || !strncmp(w, "BHmean-", 7) ||
	    !strncmp(w, "Max-", 4) || !strncmp(w, "Min-", 4) || !strcmp(w, "Median") ||
	    !strncmp(w, "Amean-", 6) || !strncmp(w, "Hmean-", 6))
		return MM_OTHER;
	return MM_NONE;
}

struct mm_row {
	enum mm_stat	stat;
	char		name[96];
	double		v[WIDE_MAX_COLS];
	double		pct[WIDE_MAX_COLS];
	int		mark[WIDE_MAX_COLS];
	size_t		n;
	unsigned long	line;
};

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Parse an mmtests row; false when @line is not one. */
static bool mm_row(const char *line, struct mm_row *r, unsigned long no)
{
	char word[96];
	const char *p = skip_blank(line);
	size_t n;

	for (n = 0; *p && *p != ' ' && *p != '\t' && n + 1 < sizeof(word); p++)
		word[n++] = *p;
	word[n] = '\0';
	r->stat = mm_stat_word(word);
	if (r->stat == MM_NONE)
		return false;
	p = skip_blank(p);
	for (n = 0; *p && *p != ' ' && *p != '\t' && n + 1 < sizeof(r->name); p++)
		r->name[n++] = *p;
	r->name[n] = '\0';
	if (!n)
		return false;
	r->n = 0;
	r->line = no;
	for (;;) {
		char *end;
		char close;

		p = skip_blank(p);
		if (!*p)
			break;
		if (r->n == WIDE_MAX_COLS)
			return false;
		r->v[r->n] = strtod(p, &end);
		if (end == p || !isfinite(r->v[r->n]))
			return false;
		p = skip_blank(end);
		if (*p == '(') {
			r->mark[r->n] = 0;
			close = ')';
		} else if (*p == '*') {
			r->mark[r->n] = 1;
			close = '*';
		} else {
			return false;
		}
		p = skip_blank(p + 1);
		r->pct[r->n] = strtod(p, &end);
		if (end == p || *end != '%' || end[1] != close)
			return false;
		p = end + 2;
		r->n++;
	}
	return r->n >= 2;
}

/* Words of line @i (unquoted) into @w when there are exactly @n of them. */
static bool label_line(const struct compare_text *t, size_t i, size_t n,
		       char w[WIDE_MAX_COLS][64])
{
	char copy[COMPARE_MAX_LINE];
	char *f[COMPARE_MAX_FIELDS];
	size_t k;

	snprintf(copy, sizeof(copy), "%s", compare_unquote(t->lines[i]));
	if (compare_split_fields(copy, f) != n)
		return false;
	for (k = 0; k < n; k++)
		snprintf(w[k], 64, "%s", f[k]);
	return true;
}

/* the metrics of one row name: its rows are @grp (@ng of them, in file order) */
static int mm_emit_name(struct compare_scan *sc, const struct mm_row *rows, const size_t *grp,
			size_t ng, const char *title, char labels[WIDE_MAX_COLS][130])
{
	const struct mm_row *first = &rows[grp[0]];
	size_t b;

	for (size_t c = 0; c < first->n; c++) {
		struct compare_metric row;
		char name[256];
		char why[160];
		const struct mm_row *mean = NULL;
		int ret;

		compare_row_init(&row, first->line);
		row.count = sc->opts && sc->opts->count >= 1 ? sc->opts->count : NAN;
		for (b = 0; b < ng; b++) {
			const struct mm_row *r = &rows[grp[b]];

			if (c >= r->n)
				continue;
			if (r->stat == MM_MIN)
				row.min = r->v[c];
			else if (r->stat == MM_MAX)
				row.max = r->v[c];
			else if (r->stat == MM_SD) {
				row.disp = r->v[c];
				row.disp_kind = COMPARE_DISP_SD;
			} else if ((r->stat == MM_AMEAN || r->stat == MM_HMEAN ||
				    r->stat == MM_GMEAN) && !mean) {
				mean = r;
			}
		}
		if (!mean)
			continue;	/* only Min/Max/Stddev rows: nothing to compare */
		row.mean = mean->v[c];
		row.line = mean->line;
		row.harmonic = mean->stat == MM_HMEAN;
		row.mark = c ? mean->mark[c] : -1;
		row.change = c ? mean->pct[c] : NAN;
		row.what = (char *)(mean->stat == MM_HMEAN ? "mmtests Hmean" :
				    mean->stat == MM_GMEAN ? "mmtests Gmean" : "mmtests Amean");
		row.label = labels[c];
		if (c && mean->pct[c] != 0 && mean->v[c] != mean->v[0]) {
			bool up = mean->v[c] > mean->v[0];

			row.dir = (up == (mean->pct[c] > 0)) ? COMPARE_DIR_HIGHER : COMPARE_DIR_LOWER;
			snprintf(why, sizeof(why), "mmtests' own %%: %+.2f%% for a %s mean",
				 mean->pct[c], up ? "higher" : "lower");
			row.dir_why = why;
		}
		snprintf(name, sizeof(name), "%s%s%s", title, title[0] ? " " : "", first->name);
		if (!isnan(row.change) && row.dir == COMPARE_DIR_LOWER)
			row.change = -row.change;	/* as a change of the mean */
		ret = compare_scan_add(sc, &row, name);
		if (ret)
			return ret;
	}
	return 0;
}

/* the rows of a block by name, then by position: each name's rows in a run */
static int mm_row_cmp(const void *x, const void *y, void *arg)
{
	const struct mm_row *rows = arg;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int c = strcmp(rows[i].name, rows[j].name);

	return c ? c : (i > j) - (i < j);
}

/*
 * One metric per row name and column, in the order the names first
 * appear; a name's rows are found through an index sorted by name, so a
 * block of N rows costs N log N, not N^2 (a 50,000-row block).
 */
static int mm_emit(struct compare_scan *sc, const struct mm_row *rows, size_t nrows,
		   const char *title, char labels[WIDE_MAX_COLS][130])
{
	size_t *idx, *pos;
	size_t a, q;
	int ret = 0;

	if (!nrows)
		return 0;
	idx = calloc(nrows, sizeof(*idx));
	pos = calloc(nrows, sizeof(*pos));
	if (!idx || !pos) {
		free(idx);
		free(pos);
		return err_set(sc->e, -ENOMEM, "out of memory");
	}
	for (a = 0; a < nrows; a++)
		idx[a] = a;
	qsort_r(idx, nrows, sizeof(*idx), mm_row_cmp, (void *)rows);
	for (a = 0; a < nrows; a++)
		pos[idx[a]] = a;
	for (a = 0; a < nrows && !ret; a++) {
		size_t p = pos[a];

		if (p && !strcmp(rows[idx[p - 1]].name, rows[a].name))
			continue;	/* not the name's first row */
		for (q = p + 1; q < nrows && !strcmp(rows[idx[q]].name, rows[a].name); q++)
			;
		ret = mm_emit_name(sc, rows, idx + p, q - p, title, labels);
	}
	free(idx);
	free(pos);
	return ret;
}

static long mmtests_block(struct compare_scan *sc, size_t i)
{
	struct compare_text *t = sc->t;
	struct mm_row *rows = NULL;
	size_t nrows = 0;
	size_t cap = 0;
	char l1[WIDE_MAX_COLS][64];
	char l2[WIDE_MAX_COLS][64];
	char labels[WIDE_MAX_COLS][130];
	char title[256] = "";
	bool have1 = false;
	bool have2 = false;
	size_t k;
	size_t c;
	long ret;

	for (k = i; k < t->nlines; k++) {
		struct mm_row r;

		if (!mm_row(compare_unquote(t->lines[k]), &r, k + 1) ||
		    (nrows && r.n != rows[0].n))
			break;
		if (nrows == cap) {
			size_t nc = cap ? cap * 2 : 32;
			struct mm_row *p = realloc(rows, nc * sizeof(*p));

			if (!p) {
				free(rows);
				return err_set(sc->e, -ENOMEM, "out of memory");
			}
			rows = p;
			cap = nc;
		}
		rows[nrows++] = r;
	}
	if (!nrows)
		return 0;
	if (i >= 1)
		have2 = label_line(t, i - 1, rows[0].n, l2);
	if (have2 && i >= 2)
		have1 = label_line(t, i - 2, rows[0].n, l1);
	for (c = 0; c < rows[0].n; c++) {
		if (have1)
			snprintf(labels[c], sizeof(labels[c]), "%.63s %.63s", l1[c], l2[c]);
		else if (have2)
			snprintf(labels[c], sizeof(labels[c]), "%.63s", l2[c]);
		else
			snprintf(labels[c], sizeof(labels[c]), "kernel %zu", c + 1);
	}
	k = i - have1 - have2;
	if (k >= 1) {
		const char *p = compare_unquote(t->lines[k - 1]);
		size_t len;

		snprintf(title, sizeof(title), "%s", p);
		len = strlen(title);
		while (len && isspace((unsigned char)title[len - 1]))
			title[--len] = '\0';
	}
	ret = mm_emit(sc, rows, nrows, title, labels);
	free(rows);
	if (ret)
		return ret;
	sc->tab_end = i + nrows;
	return (long)nrows;
}

long compare_wide_block(struct compare_scan *sc, size_t i)
{
	long used = mmtests_block(sc, i);

	if (used)
		return used;
	return value_table(sc, i);
}
