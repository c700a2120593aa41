/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * marker.h - the key=value lines written into traces through trace_marker:
 * schedreplay_meta / _node / _sysctl / _vmstat and numa_sample
 * (format: docs/formats.md).
 *
 * Lines are untrusted: every parser bounds its reads by the given length
 * and never needs a NUL terminator.
 */
#ifndef SR_INGEST_MARKER_H
#define SR_INGEST_MARKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

#define MARKER_MAX_NODES 1024

/**
 * marker_classify() - which of our lines, if any, @s is
 * @s:   line text (no trailing newline needed)
 * @len: its length
 *
 * Only the leading word is looked at.
 * Return: the kind, SR_MARK_NONE for anything else.
 */
enum sr_marker_kind marker_classify(const char *s, size_t len);

/**
 * marker_get() - find "key=value" in a marker line
 * @s, @len: the line
 * @key:     the key (without '=')
 * @val:     set to the value's start (borrowed, inside @s)
 * @val_len: set to the value's length (up to the next space)
 *
 * Return: true when found.
 */
bool marker_get(const char *s, size_t len, const char *key, const char **val, size_t *val_len);

/** marker_get_i64() - marker_get() and parse a decimal integer.  Return: true when found and valid. */
bool marker_get_i64(const char *s, size_t len, const char *key, int64_t *out);

/**
 * struct marker_node_faults - one node's entry in a numa_sample f= list
 * (the kernel's decayed fault statistics as /proc/PID/sched prints them)
 */
struct marker_node_faults {
	int64_t	task_private;
	int64_t	task_shared;
	int64_t	group_private;
	int64_t	group_shared;
};

/**
 * struct marker_sample - a parsed numa_sample line; -1 where absent
 * @nr_nodes:	entries in @faults (0 when f= was empty: no fault yet)
 */
struct marker_sample {
	int64_t	t;
	int64_t	seq;
	int	pid;		/* tgid */
	int	tid;
	char	comm[SR_COMM_LEN];
	int	cpu;
	int	pref;
	int	node;
	int	grp;
	int64_t	tf;
	int64_t	mig;
	int64_t	scan;
	int64_t	nmig;
	int64_t	forced;
	int64_t	fhot;
	int64_t	frun;
	int64_t	faff;
	int	nr_nodes;
	struct marker_node_faults faults[MARKER_MAX_NODES];
};

/**
 * marker_parse_sample() - parse a numa_sample line
 * Return: 0, or -SR_EBADTEXT when tid= is missing or a field is malformed.
 */
int marker_parse_sample(const char *s, size_t len, struct marker_sample *out);

/**
 * marker_parse_cpulist() - parse "0-3,8,10-11" into a bitmap of CPUs
 * @s, @len:  the list
 * @cpus:     bitmap, @max bits
 * @max:      highest CPU + 1 accepted
 *
 * Return: number of CPUs set, or -SR_EBADTEXT / -SR_ERANGE.
 */
int marker_parse_cpulist(const char *s, size_t len, uint64_t *cpus, int max);

#endif
