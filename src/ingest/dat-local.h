/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dat-local.h - private to the trace.dat decoder (dat.c, dat-check.c): the
 * file layout check that runs before a file is handed to libtracecmd.
 *
 * libtracecmd trusts the sizes and offsets it reads from a file's headers
 * (it mmap()s flyrecord pages of uncompressed files, so a truncated file
 * makes it touch pages past the end of the file: SIGBUS; it reads option
 * strings without checking their terminator).  dat_layout_check() walks the
 * headers with every read bounded by the file size, so that a damaged file
 * becomes one clear error with a byte offset, or a known truncation the
 * decoder can read around.
 */
#ifndef SR_INGEST_DAT_LOCAL_H
#define SR_INGEST_DAT_LOCAL_H

#include <stdbool.h>
#include <stdint.h>

#include "../util/err.h"

#define DAT_MAX_CUT 256		/* CPU ranges a cut file may lose */

/**
 * struct dat_layout - what the header walk found
 * @version:		file version (6 or 7)
 * @big_endian:		numbers in the file are big-endian
 * @page_size:		ring-buffer page size
 * @compression:	compression algorithm name, "" when none
 * @file_size:		size of the file in bytes
 * @data_checked:	the CPU data extents below were all seen (true for
 *			uncompressed files; a compressed v7 file keeps its
 *			buffer list in compressed options, left to libtracecmd)
 * @data_end:		highest end offset of any CPU's flyrecord data
 * @nr_cut:		CPU data ranges that run past the end of the file
 * @first_cut:		file size when @nr_cut > 0 (where the data stops)
 * @cut:		for each cut range: where its size field is in the file
 *			and the size that ends it at the end of the file
 *			(rounded up to a page; 0 when it starts past the end)
 */
struct dat_layout {
	int		version;
	bool		big_endian;
	uint32_t	page_size;
	char		compression[32];
	uint64_t	file_size;
	bool		data_checked;
	uint64_t	data_end;
	int		nr_cut;
	uint64_t	first_cut;
	struct {
		uint64_t	size_pos;
		uint64_t	size;
	}		cut[DAT_MAX_CUT];
};

/**
 * dat_layout_check() - walk a trace.dat file's headers, bounds-checked
 * @fd:  open file, read with pread() (its offset is not moved)
 * @lay: filled on success
 * @err: on failure: what is wrong and the byte offset where it was found
 *
 * Context: reads only the headers, options and per-CPU tables, never the
 * event pages.
 * Return: 0, or -SR_ETRUNCATED (a header runs past the end of the file),
 * -SR_EBADTRACE (a header holds an impossible value), -SR_EUNSUPPORTED
 * (a version other than 6 or 7), or a -errno from reading.
 */
int dat_layout_check(int fd, struct dat_layout *lay, struct err *err);

#endif
