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
 * @kind: input kind
 * @file: file it came from (copied when the metric is new)
 * @line: line it came from
 * @v:    the value
 *
 * Return: 0, -ENOMEM, or -SR_EBADTEXT when @name is a summary row there.
 */
int compare_side_add_run(struct compare_side *s, const char *name, enum compare_kind kind,
			 const char *file, unsigned long line, double v);

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

/**
 * compare_text_is_table() - whether a loaded text holds a summary table
 * @t: text, not yet split into fields
 *
 * Return: true when one of its lines is a summary table header.
 */
bool compare_text_is_table(const struct compare_text *t);

/**
 * compare_read_table() - read the summary tables of a text
 * @s:    side
 * @t:    text (its lines are modified)
 * @path: file name for errors and sources
 * @opts: reading options
 * @e:    error slot
 *
 * Return: 0 or a negative code with @e filled (line set).
 */
int compare_read_table(struct compare_side *s, struct compare_text *t, const char *path,
		       const struct compare_read_opts *opts, struct err *e);

#endif
