// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * event.c - event kind <-> kernel event name.
 */
#include <string.h>

#include "event.h"

static const char *const kind_names[SR_EV__COUNT] = {
	[SR_EV_OTHER]		= "other",
	[SR_EV_SWITCH]		= "sched_switch",
	[SR_EV_WAKING]		= "sched_waking",
	[SR_EV_WAKEUP]		= "sched_wakeup",
	[SR_EV_WAKEUP_NEW]	= "sched_wakeup_new",
	[SR_EV_MIGRATE]		= "sched_migrate_task",
	[SR_EV_MOVE_NUMA]	= "sched_move_numa",
	[SR_EV_SWAP_NUMA]	= "sched_swap_numa",
	[SR_EV_STICK_NUMA]	= "sched_stick_numa",
	[SR_EV_FORK]		= "sched_process_fork",
	[SR_EV_EXEC]		= "sched_process_exec",
	[SR_EV_EXIT]		= "sched_process_exit",
	[SR_EV_MIGRATE_PAGES]	= "mm_migrate_pages",
	[SR_EV_NUMA_FAULT]	= "numa_fault",
	[SR_EV_PRINT]		= "print",
	[SR_EV_CMT]		= "cmt",
	[SR_EV_CMT_RET]		= "cmt_ret",
	[SR_EV_STRF]		= "strf",
	[SR_EV_STRF_RET]	= "strf_ret",
	[SR_EV_TNM]		= "tnm",
	[SR_EV_TNM_RET]		= "tnm_ret",
	[SR_EV_LOST]		= "lost_events",
};

enum sr_event_kind ingest_event_kind_from_name(const char *name)
{
	int k;

	if (!name)
		return SR_EV_OTHER;
	/* the fault kprobe is recognised by its fields, the decision probes by their group */
	for (k = SR_EV_OTHER + 1; k < SR_EV__COUNT; k++) {
		if (k == SR_EV_NUMA_FAULT || k == SR_EV_LOST || ingest_kind_is_probe(k))
			continue;
		if (!strcmp(name, kind_names[k]))
			return k;
	}
	return SR_EV_OTHER;
}

const char *ingest_event_kind_name(enum sr_event_kind kind)
{
	if ((int)kind < 0 || kind >= SR_EV__COUNT)
		return "?";
	return kind_names[kind];
}

#define SR_PROBE_NAME_(id, name) [SR_PF_##id] = name,
static const char *const probe_field_names[SR_PF__COUNT] = {
	SR_PROBE_FIELDS(SR_PROBE_NAME_)
};
#undef SR_PROBE_NAME_

const char *ingest_probe_field_name(int field)
{
	if (field < 0 || field >= SR_PF__COUNT)
		return "?";
	return probe_field_names[field];
}

enum sr_event_kind ingest_probe_kind(const char *system, const char *name)
{
	int k;

	if (!system || !name || strncmp(system, "schedreplay_", 12))
		return SR_EV_OTHER;
	for (k = SR_EV_CMT; k <= SR_EV_TNM_RET; k++)
		if (!strcmp(name, kind_names[k]))
			return k;
	return SR_EV_OTHER;
}

bool ingest_probe_get(const struct sr_event *ev, struct sr_ev_probe *out)
{
	memset(out, 0, sizeof(*out));
	if (!ingest_kind_is_probe(ev->kind) || !ev->str || ev->str_len != sizeof(*out))
		return false;
	memcpy(out, ev->str, sizeof(*out));
	return true;
}
