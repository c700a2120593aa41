// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-dir.c - two choices made before a metric is judged: which way is
 * better (from the metric's name and unit when the input does not say),
 * and how a published StdDev / Variance column is read (one reading for
 * the whole column, not one per row).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare-local.h"
#include "stats/stats.h"

/* Relative slack for rounding of published figures (as compare-analyze.c). */
#define DIR_ROUND_TOL	0.005

/*
 * Words of a metric name that say which way is better, first match wins;
 * rates before times ("ops/sec" holds "sec").
 */
static const struct {
	const char		*word;
	enum compare_dir	dir;
} dir_words[] = {
	{ "ops/sec", COMPARE_DIR_HIGHER }, { "/sec", COMPARE_DIR_HIGHER },
	{ "/s]", COMPARE_DIR_HIGHER }, { "throughput", COMPARE_DIR_HIGHER },
	{ "tput", COMPARE_DIR_HIGHER }, { "bops", COMPARE_DIR_HIGHER },
	{ "transactions", COMPARE_DIR_HIGHER }, { "rps", COMPARE_DIR_HIGHER },
	{ "requests", COMPARE_DIR_HIGHER }, { "score", COMPARE_DIR_HIGHER },
	{ "bandwidth", COMPARE_DIR_HIGHER }, { "fidelity", COMPARE_DIR_HIGHER },
	{ "usecs/op", COMPARE_DIR_LOWER }, { "msecs/op", COMPARE_DIR_LOWER },
	{ "[sec]", COMPARE_DIR_LOWER }, { "elapsed", COMPARE_DIR_LOWER },
	{ "latenc", COMPARE_DIR_LOWER }, { "time", COMPARE_DIR_LOWER },
	{ "[ms]", COMPARE_DIR_LOWER }, { "[usec]", COMPARE_DIR_LOWER },
	{ "[msec]", COMPARE_DIR_LOWER }, { "[seconds]", COMPARE_DIR_LOWER },
	{ "elsp", COMPARE_DIR_LOWER }, { "disagreements", COMPARE_DIR_LOWER },
	{ "cost", COMPARE_DIR_LOWER }, { "unknown", COMPARE_DIR_LOWER },
	{ "lost_window", COMPARE_DIR_LOWER }, { "system", COMPARE_DIR_LOWER },
	{ "user", COMPARE_DIR_LOWER },
};

enum compare_dir compare_guess_dir(const char *name, const char **word)
{
	char low[512];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = '\0';
	for (i = 0; i < sizeof(dir_words) / sizeof(dir_words[0]); i++) {
		if (strstr(low, dir_words[i].word)) {
			*word = dir_words[i].word;
			return dir_words[i].dir;
		}
	}
	*word = NULL;
	return COMPARE_DIR_UNKNOWN;
}

static int cmp_col(const void *a, const void *b)
{
	const struct compare_metric *x = *(const struct compare_metric *const *)a;
	const struct compare_metric *y = *(const struct compare_metric *const *)b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->disp_kind != y->disp_kind)
		return x->disp_kind < y->disp_kind ? -1 : 1;
	return x < y ? -1 : x > y;
}

static bool checkable(const struct compare_metric *m)
{
	return m->kind == COMPARE_KIND_SUMMARY && !m->what &&
	       (m->disp_kind == COMPARE_DISP_SD || m->disp_kind == COMPARE_DISP_VAR) &&
	       m->count >= 2 && m->disp >= 0 && !isnan(m->min) && !isnan(m->max);
}

/* Readings to try for a column, the labelled one first. */
static const enum compare_reading order[2][4] = {
	{ COMPARE_READ_SAMPLE_VAR, COMPARE_READ_POP_VAR, COMPARE_READ_SAMPLE_SD,
	  COMPARE_READ_POP_SD },
	{ COMPARE_READ_SAMPLE_SD, COMPARE_READ_POP_SD, COMPARE_READ_SAMPLE_VAR,
	  COMPARE_READ_POP_VAR },
};

static const unsigned int fit_bit[] = {
	[COMPARE_READ_SAMPLE_VAR] = STATS_FIT_SAMPLE_VAR,
	[COMPARE_READ_POP_VAR] = STATS_FIT_POP_VAR,
	[COMPARE_READ_SAMPLE_SD] = STATS_FIT_SAMPLE_SD,
	[COMPARE_READ_POP_SD] = STATS_FIT_POP_SD,
};

static void choose_column(struct compare_metric **col, size_t n)
{
	const enum compare_reading *ord = order[col[0]->disp_kind == COMPARE_DISP_SD];
	unsigned int count[4] = { 0 };
	size_t best = 0;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		const struct compare_metric *m = col[i];
		double lo;
		double hi;
		unsigned int fits;

		if (stats_ss_bounds(m->count, m->min, m->max, m->mean, &lo, &hi))
			continue;
		fits = stats_dispersion_fits(m->count, m->min, m->max, m->mean, m->disp,
					     DIR_ROUND_TOL);
		for (k = 0; k < 4; k++)
			count[k] += !!(fits & fit_bit[ord[k]]);
	}
	for (k = 1; k < 4; k++)
		if (count[k] > count[best])
			best = (size_t)k;
	for (i = 0; i < n; i++) {
		col[i]->col_rows = (unsigned int)n;
		col[i]->col_label_fit = count[0];
		col[i]->col_fit = count[best];
		col[i]->reading = count[best] ? ord[best] : COMPARE_READ_AS_LABELLED;
	}
}

void compare_choose_readings(struct compare_side **sides, size_t nsides)
{
	struct compare_metric **all;
	size_t n = 0;
	size_t i;
	size_t j;

	for (i = 0; i < nsides; i++)
		n += sides[i]->n;
	all = malloc((n ? n : 1) * sizeof(*all));
	if (!all)
		return;	/* then every row is read on its own, as before */
	n = 0;
	for (i = 0; i < nsides; i++)
		for (j = 0; j < sides[i]->n; j++)
			if (checkable(&sides[i]->m[j]))
				all[n++] = &sides[i]->m[j];
	qsort(all, n, sizeof(*all), cmp_col);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(all[j]->file, all[i]->file) &&
		     all[j]->disp_kind == all[i]->disp_kind; j++)
			;
		choose_column(all + i, j - i);
	}
	free(all);
}
