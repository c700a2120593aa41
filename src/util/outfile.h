/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outfile.h - the one way an output file is written (docs/robustness.md).
 *
 * What the user names as output decides how it is written:
 *   - a regular file, or a path that does not exist yet: a temporary file
 *     "NAME.tmp-XXXXXX" beside it, renamed over it at commit (no fsync), so
 *     the output appears whole or not at all;
 *   - a symbolic link: the same, beside the file it points to (followed to
 *     the end of the chain), so the link stays a link;
 *   - "-", /dev/stdout, /dev/fd/N, a FIFO, a character or block device or a
 *     socket: written directly, never replaced (nothing to rename over);
 *   - a folder: refused.
 * A temporary file is listed in a small signal-safe registry: SIGINT,
 * SIGTERM or SIGHUP while it exists removes it, then the process dies of
 * the signal as it would have (exit status 128 + N).  The handlers are only
 * installed where the signal's action is still the default.
 */
#ifndef SR_UTIL_OUTFILE_H
#define SR_UTIL_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "err.h"

struct outfile_sink;

enum outfile_kind {
	OUTFILE_STDOUT,		/* "-" or /dev/stdout: the process's stdout */
	OUTFILE_DIRECT,		/* written in place: a FIFO, device, /dev/fd/N */
	OUTFILE_TEMP,		/* a temporary file beside @target, renamed at commit */
};

/**
 * struct outfile - an output being written
 * @f:		where to write (NULL once committed or aborted)
 * @kind:	how (enum outfile_kind)
 * @name:	the path as given (messages name it)
 * @target:	the file written: @name with symbolic links followed
 * @tmp:	OUTFILE_TEMP: the temporary file's path
 * @sink:	the descriptor under @f and its first write error (private)
 * @slot:	its entry in the signal registry, -1 when none
 */
struct outfile {
	FILE		*f;
	enum outfile_kind kind;
	const char	*name;
	char		target[PATH_MAX];
	char		tmp[PATH_MAX + 16];
	struct outfile_sink *sink;
	int		slot;
};

/**
 * outfile_resolve() - how @path would be written, without opening it
 * @path:   the output as given ("-" for stdout)
 * @target: filled with @path, symbolic links followed (OUTFILE_TEMP) or as
 *	    given (otherwise)
 * @len:    size of @target
 * @e:      names @path and what is wrong on failure
 *
 * For writers that make their own temporary file (the recorder).
 * Return: an enum outfile_kind, or a negative errno (-EISDIR for a
 * folder, -ELOOP, -ENAMETOOLONG).
 */
int outfile_resolve(const char *path, char *target, size_t len, struct err *e);

/**
 * outfile_open() - start writing @path as the rules above say
 * @o:    filled in
 * @path: the output ("-" or NULL: stdout); must outlive @o
 * @e:    on failure: names @path and says why (the errno as it is)
 *
 * Return: 0, or a negative errno (nothing was created).
 */
int outfile_open(struct outfile *o, const char *path, struct err *e);

/**
 * outfile_commit() - finish: flush, close, rename the temporary into place
 * @o: an open output
 * @e: on failure: names the file and gives the first write error as it
 *     was (ENOSPC, EIO, ...)
 *
 * On failure the temporary file is removed and the target is untouched.
 * Return: 0, or a negative errno.
 */
int outfile_commit(struct outfile *o, struct err *e);

/** outfile_abort() - give up: close and remove the temporary file (if any). */
void outfile_abort(struct outfile *o);

/**
 * outfile_error() - the first write error of @o so far (an errno), or 0
 * @o: an open output
 *
 * stdio's own error flag says only that a write failed; this says how.
 */
int outfile_error(const struct outfile *o);

#endif
