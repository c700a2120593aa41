// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record-kprobe.c - the decision probes in tracefs: resolved from the
 * running kernel's BTF and kallsyms (record-probe.c), created in the
 * recorder's probe group "schedreplay_<pid>", enabled in its instance only,
 * counted from kprobe_profile at the end.  record_destroy() removes them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <tracefs.h>

#include "record-local.h"
#include "util/lists.h"

/* one decision probe created (registered, not armed); false with p->why set */
static bool create_probe(struct record *r, int i)
{
	struct record_probe *p = &r->dprobe[i];
	struct tracefs_dynevent *ev;
	const char *fmt = p->fetch[0] ? p->fetch : NULL;

	if (p->ret)
		ev = tracefs_kretprobe_alloc(r->probe_sys, p->name, p->symbol, fmt, 0);
	else
		ev = tracefs_kprobe_alloc(r->probe_sys, p->name, p->symbol, fmt);
	if (!ev) {
		snprintf(p->why, sizeof(p->why), "create-failed:%s", strerror(errno ? errno : ENOMEM));
		return false;
	}
	if (tracefs_dynevent_create(ev) < 0) {
		snprintf(p->why, sizeof(p->why), "create-failed:%s", strerror(errno ? errno : EIO));
		tracefs_dynevent_free(ev);
		return false;
	}
	r->dprobe_ev[i] = ev;
	return true;
}

/* the summary's lines: each probe added (with its hits) or why not */
void record_probes_text(struct record *r)
{
	size_t n = 0;
	int i;

	r->probes_text[0] = '\0';
	for (i = 0; i < RECORD_NR_PROBES; i++) {
		struct record_probe *p = &r->dprobe[i];

		if (n >= sizeof(r->probes_text))
			break;
		if (p->added)
			n += snprintf(r->probes_text + n, sizeof(r->probes_text) - n,
				      "%s%s: added %s:%s on %s%s%s", n ? "\n" : "", p->name,
				      r->probe_sys, p->name, p->symbol,
				      p->missing[0] ? ", fields left out: " : "", p->missing);
		if (p->added && p->hits != -1ULL && n < sizeof(r->probes_text))
			n += snprintf(r->probes_text + n, sizeof(r->probes_text) - n,
				      ", %llu hits, %llu missed", p->hits, p->misses);
		else
			n += snprintf(r->probes_text + n, sizeof(r->probes_text) - n,
				      "%s%s: missing (%s)", n ? "\n" : "", p->name, p->why);
	}
	r->sum.probes = r->probes_text;
}

/*
 * The kernel's nr_node_ids: the last node of /sys/devices/system/node/possible
 * ("0", "0-3", "0,2-3") plus one; 0 when it cannot be read.
 */
static int possible_node_ids(void)
{
	uint64_t nodes[1024 / 64];
	char buf[256];
	FILE *f;
	int i;

	f = fopen("/sys/devices/system/node/possible", "re");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	if (util_parse_cpulist(buf, strcspn(buf, "\n"), nodes, 1024) <= 0)
		return 0;
	for (i = 1023; i >= 0; i--)
		if (nodes[i / 64] >> (i % 64) & 1)
			return i + 1;
	return 0;
}

/* the decision probes (record-probe.c) where kprobe events and BTF exist */
void record_probes_add(struct record *r)
{
	struct record_btf btf = { 0 };
	char why[RECORD_PROBE_WHY] = "";
	struct utsname u;
	int i;

	uname(&u);
	if (r->opts.no_probes)
		snprintf(why, sizeof(why), "--no-probes");
	else if (!tracefs_file_exists(NULL, "kprobe_events"))
		snprintf(why, sizeof(why), "no kprobe_events");
	else
		record_btf_open(&btf, NULL, why, sizeof(why));
	record_probe_resolve(r->dprobe, btf.btf ? &btf : NULL, why, "/proc/kallsyms", u.machine,
			     possible_node_ids());
	record_btf_close(&btf);
	/*
	 * Every probe is created before any is enabled (armed): no kprobe is
	 * registered on a function while another probe on it is live.  (A
	 * 6.1 guest under qemu once oopsed in try_to_wake_up() while strf_ret
	 * was registered beside an enabled strf; docs/recording.md.)
	 */
	for (i = 0; i < RECORD_NR_PROBES; i++) {
		struct record_probe *p = &r->dprobe[i];

		if (!p->ok)
			continue;
		/* a return probe only beside its entry probe: they pair */
		if (p->ret && !r->dprobe_ev[i - 1]) {
			snprintf(p->why, sizeof(p->why), "entry-probe-not-placed");
			continue;
		}
		create_probe(r, i);
	}
	for (i = 0; i < RECORD_NR_PROBES; i++) {
		struct record_probe *p = &r->dprobe[i];

		if (!r->dprobe_ev[i])
			continue;
		if (p->ret && !r->dprobe[i - 1].added) {
			snprintf(p->why, sizeof(p->why), "entry-probe-not-placed");
			continue;
		}
		if (tracefs_event_enable(r->inst, r->probe_sys, p->name) < 0)
			snprintf(p->why, sizeof(p->why), "enable-failed");
		else
			p->added = true;
	}
	record_probes_text(r);
}

/* hits and misses of our probes from kprobe_profile ("  NAME HITS MISSES") */
void record_probe_counts(struct record *r, bool start)
{
	char *prof = tracefs_instance_file_read(NULL, "kprobe_profile", NULL);
	char *save = NULL;
	char *l;
	int i;

	for (l = prof ? strtok_r(prof, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		char name[128];
		unsigned long long h, m;

		if (sscanf(l, "%127s %llu %llu", name, &h, &m) != 3)
			continue;
		for (i = 0; i < RECORD_NR_PROBES; i++) {
			struct record_probe *p = &r->dprobe[i];
			const char *slash = strchr(name, '/');

			if (!p->added || (start ? p->hits0 : p->hits) != -1ULL)
				continue;
			/* 6.1 prints the event name; later kernels may add the group */
			if (slash ? !strncmp(name, r->probe_sys, slash - name) &&
				    !strcmp(slash + 1, p->name) : !strcmp(name, p->name)) {
				if (start) {
					p->hits0 = h;
					p->misses0 = m;
				} else if (p->hits0 != -1ULL && h >= p->hits0 && m >= p->misses0) {
					p->hits = h - p->hits0;
					p->misses = m - p->misses0;
				}
			}
		}
	}
	free(prof);
}
