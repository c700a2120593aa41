/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lines.h - zeroed memory that shares no cache line with other memory.
 *
 * For data one thread writes while another thread reads its neighbours: two
 * small malloc() blocks can share a 64-byte line, and a line written on
 * one core is taken away from every other core that holds it, so the
 * reader crawls although it never reads what is written ("false sharing").
 */
#ifndef SR_UTIL_LINES_H
#define SR_UTIL_LINES_H

#include <stddef.h>

#define UTIL_LINE 64

/**
 * util_calloc_lines() - calloc() in whole, aligned cache lines
 * @n:    elements
 * @size: bytes each
 *
 * Return: zeroed memory to free(), or NULL (out of memory, or @n * @size
 * overflows).  @n == 0 gives one line.
 */
void *util_calloc_lines(size_t n, size_t size);

#endif
