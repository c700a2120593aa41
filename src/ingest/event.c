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
	[SR_EV_LOST]		= "lost_events",
};

enum sr_event_kind ingest_event_kind_from_name(const char *name)
{
	int k;

	if (!name)
		return SR_EV_OTHER;
	/* the fault kprobe is recognised by its fields, not by name */
	for (k = SR_EV_OTHER + 1; k < SR_EV__COUNT; k++) {
		if (k == SR_EV_NUMA_FAULT || k == SR_EV_LOST)
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
