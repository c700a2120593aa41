/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text-local.h - private to the text decoders (text.c, text-body.c): the
 * split of one event line into its common header and its body, and the
 * body parsers shared by the three text formats.
 */
#ifndef SR_INGEST_TEXT_LOCAL_H
#define SR_INGEST_TEXT_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

/* Longest line read; longer ones are damage. */
#define TEXT_MAX_LINE 65536

/**
 * struct text_head - the common part of an event line
 * @cpu:	the [NNN] column
 * @pid:	the task's id (perf's "pid/tid" gives the tid)
 * @ts_ns:	timestamp; "secs.frac" with up to 9 fraction digits, or plain
 *		integer clock counts taken as they are
 * @name, @name_len:	event name, inside the line
 * @system, @system_len: perf's "sys:" before the name; length 0 when none
 * @body, @body_len:	what follows "name: "
 * @has_flags:	an irq-info column ("d..2.") sat between CPU and time
 * @sep:	'-' for "comm-pid" (tracefs, trace-cmd report) or ' ' (perf)
 */
struct text_head {
	int		cpu;
	int		pid;
	uint64_t	ts_ns;
	const char	*name;
	size_t		name_len;
	const char	*system;
	size_t		system_len;
	const char	*body;
	size_t		body_len;
	bool		has_flags;
	char		sep;
};

/**
 * text_parse_head() - split an event line into header fields and body
 * @line, @len: the line, without its newline
 * @h:          filled on success; pointers point into @line
 *
 * Anchors on " [NNN] ", an optional flags column and "secs.frac:", and on
 * the pid just before the CPU column; the comm before it is never split on
 * spaces.  The first position where the whole header parses wins.
 *
 * Return: true when the line is an event line.
 */
bool text_parse_head(const char *line, size_t len, struct text_head *h);

/**
 * text_parse_ts() - "secs.frac" or "count" to nanoseconds, exactly
 * @s, @len: the digits, without the trailing ':'
 * @ns:      result
 *
 * Return: true when @s is a well-formed timestamp that fits in 64 bits.
 */
bool text_parse_ts(const char *s, size_t len, uint64_t *ns);

/**
 * text_parse_body() - fill the kind-specific part of @ev from a body
 * @ev:   kind set from the event name (SR_EV_OTHER when unknown); the body
 *        may turn an SR_EV_OTHER into SR_EV_NUMA_FAULT
 * @body, @len: the body text, NUL-terminated at @len
 * @why:  on failure, a static description of what was wrong
 *
 * Reads every body style the formats produce: the kernel's print format
 * (tracefs, perf, `trace-cmd report -N`), trace-cmd's raw "-R" fields and
 * trace-cmd's sched plugin ("comm:pid [prio] S ==> ...").  For print and
 * exec events, ev->str points into @body.
 *
 * Return: true on success.
 */
bool text_parse_body(struct sr_event *ev, const char *body, size_t len, const char **why);

/**
 * text_parse_probe() - a decision probe's "key=value" fields (decimal or
 * 0x-hex) from a body; fields the line does not carry stay unknown
 * Return: false when a field's value is malformed.
 */
bool text_parse_probe(const char *body, size_t len, struct sr_ev_probe *out);

#endif
