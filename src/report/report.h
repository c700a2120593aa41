/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - reports are data first: each is built as a Jansson object,
 * and the text form is rendered from that object, so the JSON and the text
 * always say the same thing.  The caller picks the stream.
 */
#ifndef SR_REPORT_REPORT_H
#define SR_REPORT_REPORT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "ingest/ingest.h"
#include "model/model.h"
#include "topo/topo.h"
#include "util/outfile.h"
#include "util/strcount.h"

#define REPORT_INFO_SCHEMA 2

/**
 * struct report_info_in - what `schedreplay info` gathered
 * @path:           the trace file
 * @capture_dir:    capture folder or ""
 * @kernel_release: "" when unknown; @release_origin says where it came from
 * @info:           the ingest handle's final info
 * @topo:           the topology in use
 * @events:         events by name (lost-event markers are not events)
 * @stats:          the model's counters
 * @model:          the model (its start snapshot's clock offsets); may be NULL
 * @warnings:       damage warnings issued while reading
 */
struct report_info_in {
	const char			*path;
	const char			*capture_dir;
	const char			*kernel_release;
	const char			*release_origin;
	const struct ingest_info	*info;
	const struct topo		*topo;
	const struct strcount		*events;
	const struct model_stats	*stats;
	const struct model		*model;
	uint64_t			warnings;
};

/**
 * report_info_build() - the info report as JSON data (schema: docs/info.md)
 * Return: owned (json_decref()), or NULL on allocation failure.
 */
json_t *report_info_build(const struct report_info_in *in);

/**
 * report_info_text() - render report_info_build()'s object as text
 * Return: 0, or -EIO when writing failed.
 */
int report_info_text(FILE *out, const json_t *info);

/**
 * report_cpulist() - format the CPUs of @node as "0-3,8"
 * Return: @buf ("" when the node has none).
 */
char *report_cpulist(char *buf, size_t len, const struct topo *t, int node);

/**
 * report_topology() - the topology as JSON: {"source", "origin", "nodes":
 * [{"id", "cpus", "distance": [...]}], "cpu_node": [...]}
 * Return: owned, or NULL.
 */
json_t *report_topology(const struct topo *t);

/**
 * struct report_out - an output that appears whole or not at all, written
 * through util/outfile.h (devices, pipes and stdout in place, symbolic
 * links kept)
 * @f:  where to write
 * @of: the output file behind it
 */
struct report_out {
	FILE		*f;
	struct outfile	of;
};

/**
 * report_out_open() - start writing @path ("-" or NULL = stdout) as
 * outfile_open() does
 * Return: 0, or a negative errno.
 */
int report_out_open(struct report_out *o, const char *path);

/**
 * report_out_close() - finish: rename into place when @ok and every write
 * succeeded, otherwise remove the temporary file
 * Return: 0, or a negative errno: the first write error as it was
 * (ENOSPC for a full disk), nothing left behind.
 */
int report_out_close(struct report_out *o, bool ok);

/**
 * report_out_error() - the first write error on @o so far (an errno), or 0
 */
int report_out_error(const struct report_out *o);

/**
 * struct report_json_hole - an array whose items the caller writes
 * @at:   the node of the tree written in its place (an empty array, say)
 * @next: the next item's text, written for the hole's depth + 1
 *        (report_json_dump_at(), or report_jw_begin() at that depth: a
 *        replay's spilled decisions) and valid until the next call;
 *        Return: 1 for an item, 0 at the end, negative on error
 * @arg:  @next's
 *
 * So a document's longest array need not be a tree in memory
 * (report-sink.c: a replay's decisions).
 */
struct report_json_hole {
	const json_t *at;
	int (*next)(void *arg, const char **text, size_t *len);
	void *arg;
};

/* the flags of a JSON report: sorted keys, 2-space indent, 12 digits */
#define REPORT_JSON_FLAGS	(JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(12))

/**
 * report_write_json() - dump @root to @path ("-" = stdout), sorted keys,
 * 2-space indent; a file is written to a temporary name in the same folder
 * and renamed, so a failure never leaves a half-written file
 * Return: 0, or a negative errno.
 */
int report_write_json(const json_t *root, const char *path);

/**
 * report_write_json_hole() - report_write_json() with @hole's items where
 * the tree has @hole->at (report_json_dumpf_hole())
 * Return: 0, or a negative errno (-EIO when @hole->next failed).
 */
int report_write_json_hole(const json_t *root, const char *path,
			   const struct report_json_hole *hole);

/**
 * report_json_dumpf() - the bytes json_dumpf() writes, with DEL, C1 and the
 * bidi controls also as \uXXXX (Jansson escapes only C0), so no JSON output
 * of ours carries a character that reorders or drives a terminal; our own
 * serializer (report-json-write.c), for sorted keys, compact or indented,
 * with a real precision
 * Return: 0, or -1 when a write failed (or a string is not UTF-8, or
 * @root is neither an object nor an array).
 */
int report_json_dumpf(const json_t *root, FILE *f, size_t flags);

/**
 * report_json_dump_at() - report_json_dumpf() of a value that will sit at
 * @depth of a larger document (its indentation is that depth's)
 * @written: out: the bytes written
 * Return: 0, or -1.
 */
int report_json_dump_at(const json_t *root, FILE *f, size_t flags, int depth, uint64_t *written);

/**
 * report_json_dumpf_hole() - report_json_dumpf() with @hole's items where
 * the tree has @hole->at
 * Return: 0, or -1 (a write failed, or @hole->next did).
 */
int report_json_dumpf_hole(const json_t *root, FILE *f, size_t flags,
			   const struct report_json_hole *hole);

/**
 * report_write_json_flags() - report_write_json() with json_dumpf() @flags
 * Return: 0, or a negative errno (the first write error as it was).
 */
int report_write_json_flags(const json_t *root, const char *path, size_t flags);

/**
 * struct report_json_arena - memory for a JSON tree that is made, written
 * and dropped at once (report-common.c); zeroed before use
 */
struct report_json_arena {
	struct arena_chunk	*head;
	struct arena_chunk	*cur;
};

/**
 * report_json_arena_begin() - this thread's jansson allocations come from
 * @a until report_json_arena_end(), which frees them all: every tree made
 * in between must be dropped (json_decref()) before it, and none kept; a
 * value made outside and dropped inside is freed as usual
 */
void report_json_arena_begin(struct report_json_arena *a);
void report_json_arena_end(struct report_json_arena *a);

/**
 * report_json_watch() - start watching this thread's JSON allocations
 *
 * jansson leaves out a key or an array item whose value could not be
 * allocated (json_object_set_new(o, k, NULL) only returns -1), and the
 * builders do not check each of their hundreds of calls.  Instead every
 * document is built between report_json_watch() and report_json_lost(),
 * which says whether any allocation jansson made on this thread in between
 * failed, so a document with parts missing is never written.  The first
 * call routes jansson's allocations through a counting malloc
 * (json_set_alloc_funcs()).
 */
void report_json_watch(void);

/**
 * report_json_lost() - whether a jansson allocation on this thread failed
 * since report_json_watch()
 */
bool report_json_lost(void);

/**
 * report_json_fail() - mark this thread's document as missing a part (an
 * allocation outside jansson failed), as a failed jansson one does
 */
void report_json_fail(void);

/**
 * report_json_str() - a JSON string from untrusted bytes (invalid UTF-8
 * escaped as "\xNN")
 * Return: owned, or NULL.
 */
json_t *report_json_str(const char *s, size_t len);

/* The width a text report keeps to. */
#define REPORT_TEXT_COLS 100

/**
 * report_wrapf() - print text folded at spaces to REPORT_TEXT_COLS columns
 * @out: the stream
 * @indent: spaces before each continuation line
 * @fmt: printf format; each of its lines ends with a newline and is folded
 *	on its own (a word longer than a line stays whole)
 */
void report_wrapf(FILE *out, int indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
