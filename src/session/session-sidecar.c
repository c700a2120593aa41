// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * session-sidecar.c - the files of a capture folder besides trace.dat:
 * uname.txt (kernel release and host name when the trace does not say),
 * numactl-H.txt (topology, below the trace's own), vmstat-before.txt /
 * vmstat-after.txt (the cost calibration's kernel counters when the trace
 * has no schedreplay_vmstat lines) and schedstat-delta.txt (the kernel's
 * balancing counters the report sets beside the replay's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "session-local.h"
#include "util/escape.h"

/*
 * The third word of `uname -a`, or of any one-line file holding it, when
 * the trace did not say; and its second word (the host name) likewise.
 */
void session_read_uname(struct session *s)
{
	char path[PATH_MAX + 16], line[512], host[128], rel[128];
	int n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/uname.txt", s->tr.capture_dir);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		n = sscanf(line, "%*s %127s %127s", host, rel);
		if (n == 2 && !s->tr.kernel_release[0]) {
			escape_text(s->tr.kernel_release, sizeof(s->tr.kernel_release), rel,
				    strlen(rel));
			s->tr.release_origin = "uname.txt";
		}
		if (n >= 1 && !s->tr.hostname[0] && strcmp(host, "(none)"))
			escape_text(s->tr.hostname, sizeof(s->tr.hostname), host, strlen(host));
	}
	fclose(f);
}

static char *slurp(const char *path, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0, r;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	do {
		if (n + 4096 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 8192;
			if (cap > (64u << 20))
				break;
			nb = realloc(buf, cap);
			if (!nb)
				break;
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return buf;
}

static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * numactl-H.txt of the capture folder.
 * Return: 0 with *@out set (NULL when there is no such file), or a negative
 * code with @e set.
 */
int session_read_numactl(struct session *s, struct topo **out, struct err *e)
{
	char path[PATH_MAX + 32];
	size_t len;
	char *text;
	int err;

	*out = NULL;
	if (!s->tr.capture_dir[0])
		return 0;
	snprintf(path, sizeof(path), "%s/numactl-H.txt", s->tr.capture_dir);
	if (!is_file(path))
		return 0;
	text = slurp(path, &len);
	if (!text) {
		err = errno ? errno : ENOMEM;
		return err_set(e, -SR_EBADTOPO, "'%s': cannot read: %s", path, strerror(err));
	}
	*out = topo_from_numactl(text, len, path, e);
	free(text);
	if (!*out) {
		err_set_file(e, path);
		return e->code ? e->code : -SR_EBADTOPO;
	}
	(*out)->source = TOPO_SRC_CAPTURE;
	snprintf((*out)->origin, sizeof((*out)->origin), "%.*s", (int)sizeof((*out)->origin) - 1,
		 path);
	return 0;
}

/* numa_hint_faults and numa_hint_faults_local of a /proc/vmstat copy */
static int read_vmstat(const char *path, int64_t *faults, int64_t *local)
{
	char line[256], name[128];
	FILE *f = fopen(path, "r");
	bool hf = false, hl = false;
	long long v;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %lld", name, &v) != 2)
			continue;
		if (!strcmp(name, "numa_hint_faults")) {
			*faults = v;
			hf = true;
		} else if (!strcmp(name, "numa_hint_faults_local")) {
			*local = v;
			hl = true;
		}
	}
	fclose(f);
	return hf && hl ? 0 : -SR_EBADTEXT;
}

/* schedstat-delta.txt: the counters, summed over every domain level */
static int read_schedstat(const char *path, struct session_schedstat *out)
{
	char line[1024], name[128];
	FILE *f = fopen(path, "r");
	bool any = false;

	out->lb_gained = out->alb_pushed = out->ttwu_move_affine = -1;
	out->ttwu_move_balance = out->lb_hot_gained = -1;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *last = strrchr(line, ' ');
		long long v;

		if (line[0] == '#' || sscanf(line, "%127s", name) != 1 || !last ||
		    sscanf(last, "%lld", &v) != 1)
			continue;
		/* the last column is the sum over every domain level */
		if (!strncmp(name, "lb_gained.", 10)) {
			out->lb_gained = (out->lb_gained < 0 ? 0 : out->lb_gained) + v;
		} else if (!strncmp(name, "lb_hot_gained.", 14)) {
			out->lb_hot_gained = (out->lb_hot_gained < 0 ? 0 : out->lb_hot_gained) + v;
		} else if (!strcmp(name, "alb_pushed")) {
			out->alb_pushed = v;
		} else if (!strcmp(name, "ttwu_move_affine")) {
			out->ttwu_move_affine = v;
		} else if (!strcmp(name, "ttwu_move_balance")) {
			out->ttwu_move_balance = v;
		} else {
			continue;
		}
		any = true;
	}
	fclose(f);
	return any ? 0 : -SR_EBADTEXT;
}

/*
 * After a replay: schedstat-delta.txt, and the vmstat files for the cost
 * calibration unless the trace's own schedreplay_vmstat lines gave it.
 */
void session_read_capture_counters(struct session *s)
{
	char path[PATH_MAX + 32];
	int64_t fb = 0, lb = 0, fa = 0, la = 0;

	if (s->tr.capture_dir[0]) {
		snprintf(path, sizeof(path), "%s/schedstat-delta.txt", s->tr.capture_dir);
		s->have_kstat = read_schedstat(path, &s->kstat) == 0;
	}
	if (cost_ledger_totals(s->ledger)->cal.windowed) {
		s->vmstat_source = "schedreplay_vmstat";	/* the trace's own lines win */
		return;
	}
	if (!s->tr.capture_dir[0])
		return;
	snprintf(path, sizeof(path), "%s/vmstat-before.txt", s->tr.capture_dir);
	if (read_vmstat(path, &fb, &lb))
		return;
	snprintf(path, sizeof(path), "%s/vmstat-after.txt", s->tr.capture_dir);
	if (read_vmstat(path, &fa, &la))
		return;
	cost_ledger_set_vmstat(s->ledger, fb, lb, fa, la);
	s->vmstat_source = "vmstat-before.txt/vmstat-after.txt";
}
