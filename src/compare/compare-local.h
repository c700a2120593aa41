/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare-local.h - internals shared by the files of src/compare/.
 *
 * A text input is loaded whole and split in place into NUL-terminated
 * lines (the newline and a trailing CR removed); line numbers are 1-based.
 */
#ifndef SR_COMPARE_COMPARE_LOCAL_H
#define SR_COMPARE_COMPARE_LOCAL_H

#include "compare.h"

/* Longest input accepted; larger files are refused, not truncated. */
#define COMPARE_MAX_FILE	(64u << 20)
/*
 * Largest runs_needed reported: 2^53, the last integer a double holds
 * exactly (the JSON report writes it as an integer).  Beyond it, or when
 * infinite, runs_needed is NaN ("none feasible") with a note saying so.
 */
#define COMPARE_MAX_RUNS_NEEDED	9007199254740992.0
/* Most whitespace-separated fields looked at on one line. */
#define COMPARE_MAX_FIELDS	64

/**
 * struct compare_text - a loaded text file
 * @buf:    contents, split into lines (owned)
 * @len:    bytes read
 * @lines:  start of each line within @buf (owned)
 * @nlines: number of lines
 */
struct compare_text {
	char	*buf;
	size_t	len;
	char	**lines;
	size_t	nlines;
};

/**
 * compare_split_fields() - split @line in place at blanks
 * @line:   line (modified)
 * @fields: receives up to COMPARE_MAX_FIELDS pointers
 *
 * Return: the number of fields, or COMPARE_MAX_FIELDS + 1 when there are
 * more than can be kept.
 */
size_t compare_split_fields(char *line, char **fields);

/**
 * compare_parse_number() - parse one field as a finite number
 * @s:       field
 * @percent: allow (and ignore) one trailing '%'
 * @out:     the value
 *
 * Return: true when the whole field is a finite number.
 */
bool compare_parse_number(const char *s, bool percent, double *out);

/**
 * compare_sanitize() - make untrusted bytes printable and valid UTF-8
 * @s: string, changed in place
 *
 * Control characters become '?'; when @s is not valid UTF-8 every byte
 * >= 0x80 becomes '?' too.
 */
void compare_sanitize(char *s);

/**
 * compare_side_add_run() - append one run of a raw metric
 * @s:    side
 * @name: metric name (copied)
 * @label: kernel label, or NULL (copied); runs pool per name and label
 * @kind: input kind
 * @file: file it came from (copied when the metric is new)
 * @line: line it came from
 * @v:    the value
 *
 * Return: 0 or -ENOMEM.
 */
int compare_side_add_run(struct compare_side *s, const char *name, const char *label,
			 enum compare_kind kind, const char *file, unsigned long line, double v);

/**
 * compare_side_add_summary() - append a summary row (a new entry always)
 * @s:    side
 * @row:  the figures of the row (its strings and runs are not used)
 * @name: metric name (copied)
 * @file: file it came from (copied)
 *
 * Return: 0 or -ENOMEM.
 */
int compare_side_add_summary(struct compare_side *s, const struct compare_metric *row,
			     const char *name, const char *file);

/* Longest line looked at whole; longer lines are prose. */
#define COMPARE_MAX_LINE	4096

/**
 * struct compare_scan - reading one text: where the scanner is and what the
 * prose around the figures said
 * @s:        side being filled
 * @path:     file name (sources, errors)
 * @opts:     reading options
 * @e:        error slot
 * @t:        the text
 * @caption:  last prose line that is not in parentheses (names tables)
 * @title:    benchmark title: the first line of a prose block of two or more
 *            lines just above a table ("dbench / transactions / higher ...")
 * @title_dir: the direction @title states
 * @label:    last prose line, parentheses and a trailing ':' removed (labels
 *            benchmark output: "Before patch", "base")
 * @caption_line: line of @caption
 * @label_line:   line of @label
 * @tab_end:  line after the last table read (captions must follow it)
 * @block:    the current prose block: first line, and how many lines
 * @block_n:  lines in it
 * @bench:    perf bench benchmark being read ("sched/pipe"), or ""
 * @hb:       hackbench mode being read ("process 2 groups"), or ""
 * @sch:      schbench percentile block being read, or ""
 * @stat_runs: perf stat: runs behind each figure (0: no perf stat seen)
 * @in_dbench: between dbench's banner and its Throughput line
 * @tabs:     start and number of rows of every table read (repeat check)
 * @ntabs:    number of them
 * @tabcap:   allocated
 * @found:    figures added
 */
struct compare_scan {
	struct compare_side		*s;
	const char			*path;
	const struct compare_read_opts	*opts;
	struct err			*e;
	struct compare_text		*t;
	char				caption[256];
	char				title[256];
	enum compare_dir		title_dir;
	char				label[256];
	unsigned long			caption_line;
	unsigned long			label_line;
	unsigned long			tab_end;
	char				block[256];
	unsigned int			block_n;
	char				bench[64];
	char				hb[96];
	char				sch[128];
	double				stat_runs;
	bool				in_dbench;
	struct {
		size_t	start;
		size_t	n;
	}				*tabs;
	size_t				ntabs;
	size_t				tabcap;
	size_t				found;
};

/**
 * compare_read_text() - read every table and benchmark output of a text
 * @s:    side
 * @t:    text (its lines are not modified)
 * @path: file name for errors and sources
 * @opts: reading options
 * @e:    error slot
 *
 * Return: 0; -SR_EEMPTY with @e's message empty when nothing was
 * recognised (the caller reads plain numbers then); or a negative code
 * with @e filled.
 */
int compare_read_text(struct compare_side *s, struct compare_text *t, const char *path,
		      const struct compare_read_opts *opts, struct err *e);

/**
 * compare_scan_label() - the label for figures read now
 * @sc: scanner
 *
 * Return: the prose label, or the file's label (opts), or NULL; NULL
 * always when runs pool (--vs).
 */
const char *compare_scan_label(const struct compare_scan *sc);

/**
 * compare_scan_add() - add a summary row read by a scanner
 * @sc:   scanner
 * @row:  figures (label, dir_why, what copied)
 * @name: metric name
 *
 * Return: 0 or a negative code with the error set.
 */
int compare_scan_add(struct compare_scan *sc, struct compare_metric *row, const char *name);

/**
 * compare_scan_run() - add one raw run read by a scanner
 * @sc:   scanner
 * @name: metric name
 * @line: 1-based line
 * @v:    value
 *
 * Return: 0 or a negative code with the error set.
 */
int compare_scan_run(struct compare_scan *sc, const char *name, unsigned long line, double v);

/**
 * compare_row_init() - an empty summary row (every figure NAN)
 * @row:  row
 * @line: its line
 */
void compare_row_init(struct compare_metric *row, unsigned long line);

/**
 * compare_bench_line() - read a line of benchmark output
 * @sc:   scanner
 * @line: the line, quote marks removed (not modified)
 * @no:   its 1-based number
 *
 * perf bench (sched messaging, pipe), perf stat (with or without -r),
 * hackbench, dbench and schbench lines (docs/compare.md).
 *
 * Return: 1 when the line was theirs, 0 when not, negative on error.
 */
int compare_bench_line(struct compare_scan *sc, const char *line, unsigned long no);

/**
 * compare_wide_block() - read a table of kernels as columns or rows, or an
 * mmtests compare-kernels block, starting at line index @i
 * @sc: scanner
 * @i:  0-based index of the line that may start one
 *
 * Return: lines consumed (0: none starts here), or negative on error.
 */
long compare_wide_block(struct compare_scan *sc, size_t i);

/**
 * compare_number_unit() - a number with an optional unit suffix
 * @s:    field ("19.676s", "1197.4%", "5,81,911")
 * @out:  value
 * @unit: receives the suffix (up to 7 bytes), "" when none
 *
 * Return: true when @s is a finite number followed by at most a short
 * alphabetic or '%' suffix.
 */
bool compare_number_unit(const char *s, double *out, char unit[8]);

/**
 * compare_is_stat_word() - whether a header word names a statistic
 * @word: word (a trailing ':' is ignored)
 *
 * Return: true for count, Min, Max, Avg, Mean, StdDev, Variance and their
 * spellings (not %Change).
 */
bool compare_is_stat_word(const char *word);

/**
 * compare_guess_dir() - the direction a metric's name implies
 * @name: metric name
 * @word: receives the word of the name that decided (static), or NULL
 *
 * Return: the direction, COMPARE_DIR_UNKNOWN when the name does not tell.
 */
enum compare_dir compare_guess_dir(const char *name, const char **word);

/**
 * compare_unquote() - skip blanks and e-mail quote marks
 * @line: line
 *
 * Return: the first other byte.
 */
const char *compare_unquote(const char *line);

#endif
