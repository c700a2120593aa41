/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lists.h - bounded readers of the number lists Linux prints: CPU lists
 * ("0-3,8") and distance rows ("10 20 40"), as sysfs, numactl and the
 * trace's own schedreplay_node lines write them.  ',' and blanks (space,
 * tab, CR, LF) separate items; empty items are skipped.  Nothing is read
 * past the length given and no NUL terminator is needed.
 */
#ifndef SR_UTIL_LISTS_H
#define SR_UTIL_LISTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** util_list_sep() - whether @c separates list items (',' or a blank). */
bool util_list_sep(char c);

/**
 * util_parse_uint() - a decimal number at *@p, at most @max
 * @p:   cursor; advanced past the digits on success
 * @end: end of the text
 * @max: largest value accepted
 * @out: the value
 *
 * Return: 0, -SR_EBADTEXT when there is no digit, -SR_ERANGE above @max.
 */
int util_parse_uint(const char **p, const char *end, long max, int *out);

/**
 * util_parse_cpulist() - "0-3,8 10-11" into a bitmap
 * @s, @len: the list (an empty one is fine)
 * @cpus:    (@max + 63) / 64 words, cleared first
 * @max:     largest id + 1 accepted
 *
 * Return: how many ids were set, -SR_EBADTEXT or -SR_ERANGE.
 */
int util_parse_cpulist(const char *s, size_t len, uint64_t *cpus, int max);

/**
 * util_parse_intlist() - "10 20 40" or "10,20,40" into @out
 * @s, @len: the list
 * @out:     destination
 * @max_out: room in @out
 * @max_val: largest value accepted
 *
 * Return: how many numbers were read, -SR_EBADTEXT or -SR_ERANGE (also
 * when there are more than @max_out numbers).
 */
int util_parse_intlist(const char *s, size_t len, int *out, int max_out, long max_val);

#endif
