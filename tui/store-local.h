/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * store-local.h - the row store's insides, shared by store.c (tables),
 * store-replay.c (rows from a live replay) and store-json.c (rows and
 * header from a saved report).  Private to tui/.
 */
#ifndef SR_TUI_STORE_LOCAL_H
#define SR_TUI_STORE_LOCAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "store.h"

struct tui_reason {
	char	*name;
	char	*desc;		/* NULL when unknown */
};

struct tui_store {
	struct tui_header	hdr;
	struct tui_row		*rows;
	size_t			nr_rows, alloc_rows;
	struct tui_snap		*snaps;
	size_t			nr_snaps, alloc_snaps;
	uint64_t		*faults;
	size_t			nr_faults, alloc_faults;
	int32_t			*node_nr;
	size_t			nr_node_nr, alloc_node_nr;
	struct tui_verdict	*verdicts;
	size_t			nr_verdicts, alloc_verdicts;
	uint32_t		*verdict_hash;
	size_t			verdict_slots;
	char			**policies;
	size_t			nr_policies, alloc_policies;
	struct tui_reason	*reasons;
	size_t			nr_reasons, alloc_reasons;
	uint32_t		*reason_hash;
	size_t			reason_slots;
	char			**evidence;
	size_t			nr_evidence, alloc_evidence;
	uint32_t		*keys;		/* tui_row_key() of each row */
	size_t			alloc_keys;
	/* rows counted as they come, for the header until the summary is read */
	uint64_t		nr_disagree, nr_unknown;
	/* loading: @mu guards everything above and @prog */
	pthread_mutex_t		mu;
	atomic_int		ui_wait;	/* the interface waits for @mu */
	atomic_bool		stop;		/* the loader should stop */
	pthread_t		th;
	bool			have_th;
	int			(*fn)(void *arg);
	void			*fn_arg;
	int			result;
	struct err		load_err;
	struct tui_progress	prog;
	int			fd;		/* the report, -1 when none */
	char			*path;
	bool			follow;
};

/** tui_store_rekey() - compute every row's key again (rows moved).  Return: 0 or -ENOMEM. */
int tui_store_rekey(struct tui_store *s);

/** tui_store_loaded() - the loader is done (@ret its result); takes the lock */
void tui_store_loaded(struct tui_store *s, int ret, const struct err *e);

/** tui_store_intern_policy() - id of a policy name.  Return: id, or -ENOMEM/-ENOSPC. */
int tui_store_intern_policy(struct tui_store *s, const char *name);

/** tui_store_intern_evidence() - id of an evidence name.  Return: id, or -ENOMEM. */
int tui_store_intern_evidence(struct tui_store *s, const char *name);

/**
 * tui_store_intern_reason() - id of a reason name
 * @desc: its description, or NULL to look a built-in one up
 * Return: id, or -ENOMEM/-ENOSPC.
 */
int tui_store_intern_reason(struct tui_store *s, const char *name, const char *desc);

/** tui_store_intern_verdict() - id of a verdict.  Return: id, UINT32_MAX on failure. */
uint32_t tui_store_intern_verdict(struct tui_store *s, const struct tui_verdict *v);

/**
 * tui_store_append() - a zeroed row past the end, for the caller to fill
 * Return: borrowed until tui_store_commit(); NULL on allocation failure.
 */
struct tui_row *tui_store_append(struct tui_store *s);

/** tui_store_commit() - count the row tui_store_append() returned */
void tui_store_commit(struct tui_store *s);

/**
 * tui_store_append_snap() - a zeroed snapshot for @row, with pool room for
 * @nr_nodes nodes
 * Return: borrowed until the next append; NULL on allocation failure.
 */
struct tui_snap *tui_store_append_snap(struct tui_store *s, struct tui_row *row, int nr_nodes);

#endif
