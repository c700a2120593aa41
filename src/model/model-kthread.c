// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * model-kthread.c - is a task a kernel thread, and on what evidence.
 *
 * A kernel thread has no mm, so it never takes a NUMA hinting fault
 * (task_numa_fault() returns at !p->mm) and its p->numa_faults stays NULL:
 * migrate_degrades_locality() returns -1 for it at once.  The trace says
 * so directly only for threads created inside it (kthreadd, pid 2, forks
 * them all); for older ones the evidence is, in this order:
 *   1. the task is kthreadd itself (pid 2) or a fork child of pid 2;
 *   2. the recorder's start snapshot (schedreplay_task kthread=1, from
 *      PF_KTHREAD in /proc/PID/stat); kthread=0 there says a user task,
 *      whatever its name;
 *   3. its name is one the kernel gives its own threads (the list below,
 *      docs/replay.md): a user task can take such a name, which is why it
 *      comes last and is counted apart.
 */
#include <string.h>

#include "model-local.h"

/*
 * Names of Linux 6.1's kernel threads: a trailing '/' or '_' makes the
 * entry a prefix (per-CPU and per-device threads), a trailing '#' stands
 * for a node number (one or more digits), otherwise the whole name must
 * match.
 */
static const char *const kthread_names[] = {
	"kthreadd", "kworker/", "ksoftirqd/", "migration/", "cpuhp/", "idle_inject/",
	"rcu_preempt", "rcu_sched", "rcu_gp", "rcu_par_gp", "rcu_tasks_", "rcub/", "rcuc/",
	"rcuog/", "rcuop/", "rcuos/", "kswapd#", "kcompactd#", "khugepaged", "ksmd",
	"kauditd", "khungtaskd", "oom_reaper", "kdevtmpfs", "kblockd", "kintegrityd",
	"writeback", "watchdogd", "netns", "mm_percpu_wq", "inet_frag_wq", "kthrotld",
	"irq/", "jbd2/", "scsi_eh_", "scsi_tmf_", "blkcg_punt_bio", "ipv6_addrconf",
	"kstrp", "zswap-shrink", "kmpath_rdacd", "kaluad", "edac-poller", "devfreq_wq",
	"ata_sff", "cryptd", "pool_workqueue_",
};

bool model_kthread_name(const char *comm, size_t max)
{
	size_t len = strnlen(comm, max);
	size_t i;

	for (i = 0; i < sizeof(kthread_names) / sizeof(kthread_names[0]); i++) {
		const char *k = kthread_names[i];
		size_t kl = strlen(k);
		bool prefix = k[kl - 1] == '/' || k[kl - 1] == '_';
		size_t j;

		if (k[kl - 1] == '#') {
			if (len < kl || memcmp(comm, k, kl - 1))
				continue;
			for (j = kl - 1; j < len && comm[j] >= '0' && comm[j] <= '9'; j++)
				;
			if (j == len)
				return true;
		} else if (prefix ? len > kl && !memcmp(comm, k, kl) :
				    len == kl && !memcmp(comm, k, kl)) {
			return true;
		}
	}
	return false;
}

int model_task_kthread(const struct model_task *t)
{
	if (!t)
		return MODEL_KTHREAD_NONE;
	if (t->tid == 2)
		return MODEL_KTHREAD_PID2;
	if (t->kthread_child)
		return MODEL_KTHREAD_CHILD;
	if (t->snap_kthread >= 0)
		return t->snap_kthread ? MODEL_KTHREAD_SNAPSHOT : MODEL_KTHREAD_NONE;
	if ((t->known & MODEL_KNOWN_COMM) && t->comm_kthread)
		return MODEL_KTHREAD_NAME;
	return MODEL_KTHREAD_NONE;
}

const char *model_kthread_evidence_name(int ev)
{
	static const char *const names[MODEL_KTHREAD__COUNT] = {
		[MODEL_KTHREAD_NONE]	 = "none",
		[MODEL_KTHREAD_PID2]	 = "kthreadd-pid-2",
		[MODEL_KTHREAD_CHILD]	 = "kthreadd-child",
		[MODEL_KTHREAD_SNAPSHOT] = "snapshot",
		[MODEL_KTHREAD_NAME]	 = "name",
	};

	return ev >= 0 && ev < MODEL_KTHREAD__COUNT ? names[ev] : "invalid";
}
