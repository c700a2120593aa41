/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.h - repeated-run comparison: read runs, compare two sides, render.
 *
 * A "side" (base or new) is a list of metrics.  Each metric comes either
 * as raw runs (one value per run: plain numbers, benchmark log columns or
 * replay JSON reports, one report per run) or as one row of a published
 * summary table (count, Min, Max, Avg, StdDev or Variance).  Readers never
 * print; a malformed input records file and line in a struct err and
 * returns a negative code.  compare_analyze() turns a base and a new
 * metric into figures, a verdict and notes (see docs/compare.md for every
 * rule); compare_print_table() and compare_results_json() render results
 * to a stream the caller picks.
 */
#ifndef SR_COMPARE_COMPARE_H
#define SR_COMPARE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "util/err.h"

/**
 * enum compare_kind - what kind of input a metric came from
 * @COMPARE_KIND_NUMBERS: plain text, one run per line
 * @COMPARE_KIND_COLUMNS: plain text columns under a header, one run per line
 * @COMPARE_KIND_REPORT:  replay JSON reports, one run per file
 * @COMPARE_KIND_SUMMARY: a row of a summary statistics table
 * @COMPARE_KIND_BENCH:   benchmark output (perf bench, hackbench, ...), one
 *                        run per result line
 */
enum compare_kind {
	COMPARE_KIND_NUMBERS,
	COMPARE_KIND_COLUMNS,
	COMPARE_KIND_REPORT,
	COMPARE_KIND_SUMMARY,
	COMPARE_KIND_BENCH,
};

/**
 * enum compare_disp - the dispersion column a summary row carried
 * @COMPARE_DISP_NONE: neither StdDev nor Variance
 * @COMPARE_DISP_SD:   a column named StdDev (or Stdev, SD, Std)
 * @COMPARE_DISP_VAR:  a column named Variance (or Var)
 * @COMPARE_DISP_SEM:  a standard deviation of the mean (perf stat -r's +-),
 *                     sample sd = figure * sqrt(count)
 */
enum compare_disp {
	COMPARE_DISP_NONE,
	COMPARE_DISP_SD,
	COMPARE_DISP_VAR,
	COMPARE_DISP_SEM,
};

/**
 * enum compare_reading - how a published StdDev / Variance figure is read
 * @COMPARE_READ_SAMPLE_VAR: a sample variance (divisor n - 1)
 * @COMPARE_READ_POP_VAR:    a variance with divisor n
 * @COMPARE_READ_SAMPLE_SD:  a sample standard deviation (divisor n - 1)
 * @COMPARE_READ_POP_SD:     a standard deviation with divisor n
 * @COMPARE_READ_AS_LABELLED: not chosen (yet): as its column is labelled
 *
 * One reading is chosen per column (compare_choose_readings()).
 */
enum compare_reading {
	COMPARE_READ_SAMPLE_VAR,
	COMPARE_READ_POP_VAR,
	COMPARE_READ_SAMPLE_SD,
	COMPARE_READ_POP_SD,
	COMPARE_READ_AS_LABELLED,
};

/**
 * enum compare_dir - which way is better for a metric
 * @COMPARE_DIR_UNKNOWN: nothing tells
 * @COMPARE_DIR_HIGHER:  higher is better
 * @COMPARE_DIR_LOWER:   lower is better
 */
enum compare_dir {
	COMPARE_DIR_UNKNOWN,
	COMPARE_DIR_HIGHER,
	COMPARE_DIR_LOWER,
};

/**
 * struct compare_metric - one metric of one side, as read
 * @name:      metric name (owned)
 * @kind:      input kind
 * @file:      first file it was read from (owned)
 * @line:      line of the summary row, or first line of the runs (1-based)
 * @nfiles:    number of files that contributed runs
 * @last_file: last file that contributed runs, when not @file (owned)
 * @runs:      raw runs (owned; NULL for a summary row)
 * @nruns:     number of raw runs
 * @cap:       allocated length of @runs
 * @count:     summary: number of runs (0 when the table had no count)
 * @min:       summary: Min, NAN when the table had none
 * @max:       summary: Max, NAN when the table had none
 * @mean:      summary: Avg or Mean
 * @disp:      summary: the StdDev or Variance figure as published
 * @disp_kind: summary: which column @disp came from
 * @change:    summary: a published %Change on the row, NAN when none
 * @label:     the kernel (or configuration) the row or runs belong to, or
 *             NULL (owned); rows of one metric with different labels are
 *             compared with the base label's
 * @dir:       direction the input itself states (table title, mmtests %)
 * @dir_why:   where @dir came from, for the notes (owned, or NULL)
 * @mark:      mmtests' significance mark: 1 marked '*', 0 not, -1 none
 * @harmonic:  summary: the mean is a harmonic mean (mmtests Hmean)
 * @what:      summary: what the row is, e.g. "perf stat -r 5" (owned or NULL)
 * @reading:   summary: how @disp is read (compare_choose_readings())
 * @col_rows:  rows in @disp's column (for the reading's note)
 * @col_fit:   of them, rows the chosen reading fits
 * @col_label_fit: rows the labelled reading fits
 * @repeat_line: line of a later verbatim repeat of the row's table, or 0
 */
struct compare_metric {
	char			*name;
	enum compare_kind	kind;
	char			*file;
	unsigned long		line;
	unsigned int		nfiles;
	char			*last_file;
	double			*runs;
	size_t			nruns;
	size_t			cap;
	double			count;
	double			min;
	double			max;
	double			mean;
	double			disp;
	enum compare_disp	disp_kind;
	double			change;
	char			*label;
	enum compare_dir	dir;
	char			*dir_why;
	int			mark;
	bool			harmonic;
	char			*what;
	enum compare_reading	reading;
	unsigned int		col_rows;
	unsigned int		col_fit;
	unsigned int		col_label_fit;
	unsigned long		repeat_line;
};

/**
 * struct compare_side - the metrics of one side, in order of appearance
 * @m:      metrics (owned)
 * @n:      number of metrics
 * @cap:    allocated length of @m
 * @hash:   open-addressing index of @m by name and label: slot holds
 *          index + 1, 0 when free (owned); raw metrics only
 * @hcap:   number of slots (a power of two, or 0)
 */
struct compare_side {
	struct compare_metric	*m;
	size_t			n;
	size_t			cap;
	size_t			*hash;
	size_t			hcap;
};

/**
 * struct compare_read_opts - how to read inputs
 * @count:    runs behind each row of a summary table without a count column
 *            (0: such a table is an error)
 * @pool:     runs of one metric pool whatever their labels (--vs)
 * @label:    label of raw runs read (the file name without --vs), or NULL
 * @metrics:  replay report metrics to read (--metric), NULL for the
 *            headline figures
 * @nmetrics: number of @metrics
 */
struct compare_read_opts {
	double		count;
	bool		pool;
	const char	*label;
	const char	**metrics;
	size_t		nmetrics;
};

/** compare_side_init() - make @s an empty side. */
void compare_side_init(struct compare_side *s);

/** compare_side_release() - free what @s holds; @s is empty afterwards. */
void compare_side_release(struct compare_side *s);

/**
 * compare_side_find() - look a metric up by name
 * @s:    side
 * @name: metric name
 *
 * Return: the first metric called @name (borrowed, valid until @s changes),
 * or NULL.
 */
struct compare_metric *compare_side_find(const struct compare_side *s, const char *name);

/**
 * compare_read_file() - read one input file into a side
 * @s:    side to add to
 * @path: file to read
 * @opts: reading options
 * @e:    error slot (file and line are set on failure)
 *
 * Detects the kind: a JSON object is a replay report (one run of every
 * number under summary: decisions, disagreements, unknown, by_class.*,
 * cost.*); text with a summary header line (naming Avg or Mean plus one of
 * count, Min, Max, StdDev, Variance) is a summary table; any other text is
 * plain numbers, one run per line, optionally in columns under a header.
 * Raw runs of a metric already on the side are appended to it; every
 * summary row is a new entry (see compare_side_check_unique() and
 * compare_side_split_pairs()).
 *
 * Return: 0, or a negative code (-ENOMEM, -errno from reading, -SR_EBADTEXT,
 * -SR_EEMPTY, -SR_EUNSUPPORTED) with @e filled.
 */
int compare_read_file(struct compare_side *s, const char *path,
		      const struct compare_read_opts *opts, struct err *e);

/**
 * compare_side_check_unique() - refuse a metric given twice on one side
 * @s: side
 * @e: error slot
 *
 * Return: 0, or -SR_EBADTEXT naming the second occurrence.
 */
int compare_side_check_unique(const struct compare_side *s, struct err *e);

/**
 * compare_side_split_pairs() - split before/after tables into two sides
 * @all:  metrics read from the inputs; emptied (its entries move)
 * @base: receives the first row of each metric
 * @new:  receives the second row
 * @e:    error slot
 *
 * For tables that hold both rows of each metric, as the seeds' dbench and
 * autonuma-benchmark tables do: every metric must be a summary row that
 * occurs exactly twice.
 *
 * Return: 0, -ENOMEM, or -SR_EBADTEXT naming the offending metric.
 */
int compare_side_split_pairs(struct compare_side *all, struct compare_side *base,
			     struct compare_side *new, struct err *e);

/**
 * struct compare_pair - one comparison to make
 * @base: the base row or runs (borrowed from a side), NULL when the metric
 *        is only on the new side
 * @new:  the new row or runs, NULL when the metric has no other row
 */
struct compare_pair {
	const struct compare_metric	*base;
	const struct compare_metric	*new;
};

/**
 * compare_make_pairs() - what to compare with what
 * @base:       base side (or, when @new is NULL, every row read)
 * @new:        new side (--vs), or NULL
 * @base_label: with @new NULL, the label of the base rows (--base), or NULL
 *              for the first row of each metric
 * @pairs:      receives the pairs, in order of the base rows (owned, free())
 * @npairs:     receives their number
 *
 * With @new, each base metric is paired with the new metric of its name.
 * Without, the rows of each metric name are grouped; the row labelled
 * @base_label (or the first) is the base and every other row is compared
 * with it.  Pairs with one member NULL name metrics found once.  Runs in
 * O(n log n).
 *
 * Return: 0 or -ENOMEM.
 */
int compare_make_pairs(const struct compare_side *base, const struct compare_side *new,
		       const char *base_label, struct compare_pair **pairs, size_t *npairs);

/**
 * compare_choose_readings() - one reading per StdDev / Variance column
 * @sides:  sides whose summary rows to look at
 * @nsides: their number
 *
 * Rows of one file with the same dispersion label form a column; the
 * reading (sample or divisor-n variance or standard deviation) that fits
 * the most of its rows given Min, Max, Avg and N is used for all of them,
 * the labelled one winning ties (docs/compare.md).
 */
void compare_choose_readings(struct compare_side **sides, size_t nsides);

/**
 * enum compare_verdict - what the numbers support
 * @COMPARE_BETTER:        the mean moved the good way (p < alpha)
 * @COMPARE_WORSE:         the mean moved the bad way (p < alpha)
 * @COMPARE_NO_DIFFERENCE: no difference of means proven, spread unchanged
 * @COMPARE_INCONCLUSIVE:  no difference of means proven and the spread
 *                         changed, or too little data to test
 */
enum compare_verdict {
	COMPARE_BETTER,
	COMPARE_WORSE,
	COMPARE_NO_DIFFERENCE,
	COMPARE_INCONCLUSIVE,
};

/**
 * struct compare_opts - how to judge
 * @alpha:           significance level of both tests, e.g. 0.05
 * @higher_is_better: direction of "better"
 * @harmonic:        use harmonic means (for rates) where raw runs exist
 * @dir_given:       @higher_is_better was given (--higher/--lower-is-better
 *                   without a name) and holds where the name does not tell
 * @lower:           metric names (substrings, case-insensitive) that are
 *                   lower-is-better (--lower-is-better=NAME)
 * @nlower:          their number
 * @higher:          the same for higher-is-better
 * @nhigher:         their number
 * @family_p:        the metric's Holm-Bonferroni adjusted p over the
 *                   @family_n metrics compared together; the verdict uses
 *                   it instead of the metric's own p
 * @family_n:        number of metrics in the family (0 or 1: no correction,
 *                   @family_p unused)
 */
struct compare_opts {
	double		alpha;
	bool		higher_is_better;
	bool		harmonic;
	bool		dir_given;
	const char	**lower;
	size_t		nlower;
	const char	**higher;
	size_t		nhigher;
	double		family_p;
	size_t		family_n;
};

/**
 * struct compare_figures - one side as reported
 * @n:      number of runs
 * @min:    smallest run (NAN when unknown)
 * @max:    largest run (NAN when unknown)
 * @mean:   arithmetic mean, or harmonic with --harmonic and raw runs
 * @sd:     sample standard deviation (divisor n - 1), NAN when unknown
 * @cv:     @sd / |@mean|
 * @median: median of the raw runs (NAN for a summary row)
 * @kind:   where the figures came from
 */
struct compare_figures {
	double			n;
	double			min;
	double			max;
	double			mean;
	double			sd;
	double			cv;
	double			median;
	enum compare_kind	kind;
};

/**
 * struct compare_result - one row of the comparison
 * @name:         metric name (owned)
 * @base:         base figures
 * @new:          new figures
 * @change_pct:   100 (new mean - base mean) / |base mean|
 * @ci_lo:        95% confidence interval of new mean - base mean, low end
 * @ci_hi:        high end
 * @p:            two-sided p-value of Welch's t-test
 * @p_family:     the Holm-Bonferroni adjusted p the verdict used (NAN
 *                when one metric was compared, or --uncorrected)
 * @spread_ratio: new sd / base sd
 * @spread_p:     p-value of the spread test (Brown-Forsythe from raw
 *                runs, F-test otherwise)
 * @verdict:      what the numbers support
 * @runs_needed:  runs per side to detect the observed change at 80% power
 *                (NAN when a difference was proven or there is none)
 * @higher_is_better: the direction the verdict used
 * @dir_why:      where that direction came from (owned)
 * @base_label:   label of the base row, or NULL (owned)
 * @new_label:    label of the new row, or NULL (owned)
 * @notes:        sentences for the reader (owned, each owned)
 * @nnotes:       number of notes
 */
struct compare_result {
	char			*name;
	struct compare_figures	base;
	struct compare_figures	new;
	double			change_pct;
	double			ci_lo;
	double			ci_hi;
	double			p;
	double			p_family;
	double			spread_ratio;
	double			spread_p;
	enum compare_verdict	verdict;
	double			runs_needed;
	bool			higher_is_better;
	char			*dir_why;
	char			*base_label;
	char			*new_label;
	char			**notes;
	size_t			nnotes;
};

/**
 * compare_analyze() - compare one metric between the two sides
 * @base: the metric on the base side
 * @new:  the same metric on the new side
 * @opts: how to judge
 * @r:    result, to be released with compare_result_release()
 *
 * Return: 0 or -ENOMEM (then @r holds nothing to release).
 */
int compare_analyze(const struct compare_metric *base, const struct compare_metric *new,
		    const struct compare_opts *opts, struct compare_result *r);

/**
 * compare_result_family() - judge a result again as one of several
 * @r:    result of compare_analyze(@base, @new, @opts)
 * @base: its base metric
 * @new:  its new metric
 * @opts: the options it was computed with
 * @adj:  its Holm-Bonferroni adjusted p over the @m metrics compared
 * @m:    their number
 *
 * Sets @r->p_family and notes it; when the adjusted p changes the verdict,
 * @r is computed again with @opts' family fields set (docs/compare.md,
 * "Several metrics at once").  NAN @adj or @m < 2: nothing changes.
 *
 * Return: 0 or -ENOMEM (then @r holds nothing to release).
 */
int compare_result_family(struct compare_result *r, const struct compare_metric *base,
			  const struct compare_metric *new, const struct compare_opts *opts,
			  double adj, size_t m);

/** compare_result_release() - free what @r holds. */
void compare_result_release(struct compare_result *r);

/**
 * compare_verdict_name() - the JSON word for a verdict
 * @v: verdict
 *
 * Return: "better", "worse", "no-difference" or "inconclusive" (static).
 */
const char *compare_verdict_name(enum compare_verdict v);

/**
 * compare_kind_name() - how an input kind is described to the user
 * @k: kind
 *
 * Return: a static string such as "summary table".
 */
const char *compare_kind_name(enum compare_kind k);

/**
 * compare_print_table() - the aligned text table
 * @f:    stream
 * @r:    results
 * @n:    number of results
 * @opts: the options they were computed with (for the heading)
 *
 * Return: 0, or -EIO when writing failed.
 */
int compare_print_table(FILE *f, const struct compare_result *r, size_t n,
			const struct compare_opts *opts);

/**
 * compare_results_json() - the results as {"metrics": [...]}
 * @r: results
 * @n: number of results
 *
 * Unknown figures (NAN) become null.
 *
 * Return: a new reference (owned, json_decref() it), or NULL on no memory.
 */
json_t *compare_results_json(const struct compare_result *r, size_t n);

#endif
