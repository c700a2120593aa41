/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record-probe.h - the decision probes (docs/recording.md, "Decision
 * probes"): their fetch arguments built from BTF offsets, independent of
 * tracefs so that they can be tested on any host.  record.c creates them.
 */
#ifndef SR_RECORD_RECORD_PROBE_H
#define SR_RECORD_RECORD_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "record-btf.h"

#define RECORD_NR_PROBES	6
#define RECORD_PROBE_FETCH	3072
#define RECORD_PROBE_WHY	160

/** struct record_probe - one probe: what to create, or why not */
struct record_probe {
	const char	*name;		/* "cmt", "cmt_ret", ... */
	const char	*func;		/* "can_migrate_task" */
	bool		ret;		/* a kretprobe */
	bool		ok;		/* resolved: can be created */
	bool		added;		/* created and enabled (record.c) */
	char		symbol[128];	/* the kallsyms name */
	char		fetch[RECORD_PROBE_FETCH];	/* the fetch arguments ("" for none) */
	char		missing[512];	/* fields left out: "a,b" */
	char		why[RECORD_PROBE_WHY];	/* when !ok or !added: a word-list reason */
	int		se_off;		/* cmt: offsetof(task_struct, se), else -1 */
	unsigned long long hits;	/* kprobe_profile while tracing, -1ULL unknown */
	unsigned long long misses;
	unsigned long long hits0;	/* kprobe_profile when tracing started */
	unsigned long long misses0;
};

/**
 * record_probe_resolve() - build the six probes' definitions
 * @p:        RECORD_NR_PROBES entries, filled in
 * @btf:      the kernel's BTF, or NULL when there is none (every probe is
 *            then missing with reason @no_btf)
 * @no_btf:   the reason when @btf is NULL
 * @kallsyms: /proc/kallsyms or a file in its format
 * @machine:  uname -m; only "x86_64" has the register names used
 * @nr_node_ids: the kernel's nr_node_ids (last possible node + 1): cmt
 *            then reads the task's and its group's per-node NUMA_MEM faults
 *            (tfN, gfN) when it is 1..SR_PROBE_FAULT_NODES; 0 or more nodes
 *            leave them out (listed in ->missing as "tf,gf")
 *
 * Fields whose member is not in BTF (or has another size) are left out and
 * listed in ->missing; a probe whose function, symbol or prototype is
 * missing is !ok with the reason in ->why.
 */
void record_probe_resolve(struct record_probe *p, const struct record_btf *btf,
			  const char *no_btf, const char *kallsyms, const char *machine,
			  int nr_node_ids);

/**
 * record_probe_marker() - the schedreplay_probe marker line of a probe
 * @p:   a resolved probe
 * @buf: the line, without a newline
 * @len: size of @buf
 *
 * Return: the length written, 0 when it does not fit (record_marker_line()).
 */
size_t record_probe_marker(const struct record_probe *p, char *buf, size_t len);

#endif
