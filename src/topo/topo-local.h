/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topo-local.h - private to src/topo/: bounded text helpers shared by the
 * readers, and the draft every reader fills before topo_draft_build()
 * turns it into a validated struct topo.
 *
 * All helpers take (pointer, length) and never read past it nor need a NUL
 * terminator: every input here is untrusted.
 */
#ifndef SR_TOPO_LOCAL_H
#define SR_TOPO_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "topo.h"

#define TOPO_CPU_WORDS (TOPO_MAX_CPUS / 64)

/* Largest distance a reader accepts before validation (kernel: a byte). */
#define TOPO_MAX_DISTANCE 255

/**
 * struct topo_lines - iterator over the lines of a text
 * @p:    next unread byte
 * @end:  one past the last byte
 * @line: number of the line last returned (1-based)
 */
struct topo_lines {
	const char	*p;
	const char	*end;
	uint64_t	line;
};

/** topo_lines_init() - start iterating over @len bytes at @text. */
void topo_lines_init(struct topo_lines *it, const char *text, size_t len);

/**
 * topo_lines_next() - the next line, without its "\n" or "\r\n"
 * Return: false at the end of the text.
 */
bool topo_lines_next(struct topo_lines *it, const char **s, size_t *len);

/** topo_is_blank() - space, tab, CR or LF. */
bool topo_is_blank(char c);

/** topo_trim() - drop leading and trailing blanks of (*s, *len). */
void topo_trim(const char **s, size_t *len);

/**
 * topo_parse_uint() - a decimal number at *@p, at most @max
 * @p:   cursor; advanced past the digits on success
 * @end: end of the text
 * @max: largest value accepted
 * @out: the value
 *
 * Return: 0, -SR_EBADTEXT when there is no digit, -SR_ERANGE above @max.
 */
int topo_parse_uint(const char **p, const char *end, long max, int *out);

/**
 * topo_parse_cpulist() - "0-3,8 10-11" into a bitmap (',' or blanks
 * separate items; an empty list is fine)
 * @s, @len: the list
 * @cpus:    TOPO_CPU_WORDS words, cleared first
 * @max:     largest id + 1 accepted (at most TOPO_MAX_CPUS)
 *
 * Return: how many ids were set, -SR_EBADTEXT or -SR_ERANGE.
 */
int topo_parse_cpulist(const char *s, size_t len, uint64_t *cpus, int max);

/**
 * topo_parse_intlist() - "10 20 40" or "10,20,40" into @out
 * @s, @len: the list
 * @out:     destination
 * @max_out: room in @out
 * @max_val: largest value accepted
 *
 * Return: how many numbers were read, -SR_EBADTEXT or -SR_ERANGE (also
 * when there are more than @max_out numbers).
 */
int topo_parse_intlist(const char *s, size_t len, int *out, int max_out, long max_val);

/**
 * topo_word_is() - whether (@s, @len) starts with the word @w followed by
 * a blank or the end.
 */
bool topo_word_is(const char *s, size_t len, const char *w);

/**
 * struct topo_draft - what a reader has collected so far
 * @present:   node ids seen
 * @nr_present: how many of them
 * @max_node:  highest id seen, -1 when none
 * @cpu_node:  node of each CPU or -1; TOPO_MAX_CPUS entries
 * @max_cpu:   highest CPU placed, -1 when none
 * @min_cpus:  at least this many CPUs (a meta line's cpus=), 0 when unsaid
 * @rows:      each node's distance list as read, NULL when none
 * @row_len:   entries in each row
 * @row_line:  line the row came from, 0 when the source has no lines
 */
struct topo_draft {
	bool		present[TOPO_MAX_NODES];
	int		nr_present;
	int		max_node;
	int		cpu_node[TOPO_MAX_CPUS];
	int		max_cpu;
	int		min_cpus;
	int		*rows[TOPO_MAX_NODES];
	int		row_len[TOPO_MAX_NODES];
	uint64_t	row_line[TOPO_MAX_NODES];
};

/** topo_draft_new() - an empty draft.  Return: owned, or NULL. */
struct topo_draft *topo_draft_new(void);

/** topo_draft_free() - free (NULL is fine). */
void topo_draft_free(struct topo_draft *d);

/**
 * topo_draft_add_node() - note that node @id exists
 * Return: 0, or -SR_ERANGE (message in @err) when @id is out of range.
 */
int topo_draft_add_node(struct topo_draft *d, int id, struct err *err);

/**
 * topo_draft_place() - put every CPU of bitmap @cpus on node @id
 * Return: 0, or -SR_EBADTOPO when a CPU already sits on another node.
 */
int topo_draft_place(struct topo_draft *d, int id, const uint64_t *cpus, struct err *err);

/**
 * topo_draft_set_row() - record node @id's distance list (copied)
 * @line: where it came from (0 when unknown), for later messages
 * Return: 0, -ENOMEM, or -SR_EBADTOPO when a different row was set before.
 */
int topo_draft_set_row(struct topo_draft *d, int id, const int *vals, int n, uint64_t line,
		       struct err *err);

/**
 * topo_draft_build() - the topology the draft describes, validated
 * @src:    its source
 * @origin: file or folder it came from ("" when none)
 *
 * Return: owned, or NULL with @err set (-SR_EBADTOPO / -ENOMEM).
 */
struct topo *topo_draft_build(const struct topo_draft *d, enum topo_source src,
			      const char *origin, struct err *err);

/**
 * topo_read_file() - read a whole (small) file
 * @path: the file
 * @max:  refuse files larger than this
 * @len:  set to the length read
 * @err:  failure details (the file is named)
 *
 * Return: owned buffer with a NUL after @len bytes, or NULL with @err set.
 */
char *topo_read_file(const char *path, size_t max, size_t *len, struct err *err);

#endif
