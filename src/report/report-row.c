// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report-row.c - flat decision rows for column stores (docs/fleet.md).
 *
 * A row is the per-trace header (host, kernel, labels, trace id, policies
 * and their parameters) merged with the decision object flattened: each
 * side's verdict becomes <side>_policy, <side>_verdict, <side>_reasons,
 * <side>_verdict_flags, <side>_target_node; the cost object becomes
 * cost_<side>_{node,accesses,remote,weighted}, cost_delta_* and cost_*.
 * Booleans become 0/1 so a UInt8 column takes them; what the nested form
 * leaves out or sets to null is null here too, never 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "report-row.h"

static const char *const sides[] = { "old", "new", "kernel" };
static const enum engine_side side_ids[] = { ENGINE_OLD, ENGINE_NEW, ENGINE_KERNEL };

static json_t *jstr(const char *s)
{
	return report_json_str(s, strlen(s));
}

/* "lb-v4.1,numa-v4.18": the names of a side's policies, in order */
static json_t *side_names(const struct engine *e, enum engine_side side)
{
	char buf[1024] = "";
	size_t o = 0;
	int i;

	for (i = 0; i < engine_nr_policies(e, side); i++) {
		const char *n = replay_policy_ops(engine_policy_at(e, side, i))->name;

		if (o < sizeof(buf))
			o += snprintf(buf + o, sizeof(buf) - o, "%s%s", i ? "," : "", n);
	}
	return jstr(buf);
}

/* "old:lb-v4.1:cache_nice_tries" = 1 for every parameter of every policy */
static int add_params(json_t *keys, json_t *vals, const struct engine *e, int s)
{
	int i, k;

	for (i = 0; i < engine_nr_policies(e, side_ids[s]); i++) {
		const struct replay_policy *pol = engine_policy_at(e, side_ids[s], i);
		const struct sr_policy_ops *ops = replay_policy_ops(pol);
		const struct sr_param_values *v = replay_policy_values(pol);
		int n = replay_param_count(ops);

		for (k = 0; k < n && k < (int)v->nr; k++) {
			char key[512];

			snprintf(key, sizeof(key), "%s:%s:%s", sides[s], ops->name, ops->params[k].name);
			if (json_array_append_new(keys, jstr(key)) < 0 ||
			    json_array_append_new(vals, json_integer((json_int_t)v->v[k])) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

json_t *report_row_header(const struct report_row_in *in)
{
	json_t *h = json_object(), *lk = json_array(), *lv = json_array();
	json_t *pk = json_array(), *pv = json_array();
	size_t i;
	int s, r = 0;

	if (!h || !lk || !lv || !pk || !pv)
		goto out_free;
	for (i = 0; i < in->nr_labels; i++) {
		r |= json_array_append_new(lk, jstr(in->label_keys[i]));
		r |= json_array_append_new(lv, jstr(in->label_values[i]));
	}
	for (s = 0; s < 3; s++) {
		char key[32];

		snprintf(key, sizeof(key), "%s_policies", sides[s]);
		r |= json_object_set_new(h, key, side_names(in->engine, side_ids[s]));
		r |= add_params(pk, pv, in->engine, s);
	}
	r |= json_object_set_new(h, "row_version", json_integer(REPORT_ROW_VERSION));
	r |= json_object_set_new(h, "host", jstr(in->host));
	r |= json_object_set_new(h, "kernel", jstr(in->kernel));
	r |= json_object_set_new(h, "label_keys", lk);
	r |= json_object_set_new(h, "label_values", lv);
	lk = lv = NULL;
	r |= json_object_set_new(h, "param_keys", pk);
	r |= json_object_set_new(h, "param_values", pv);
	pk = pv = NULL;
	r |= json_object_set_new(h, "trace_id", jstr(in->trace_id));
	r |= json_object_set_new(h, "trace_path", jstr(in->trace_path));
	r |= json_object_set_new(h, "trace_time", json_integer((json_int_t)in->trace_time));
	r |= json_object_set_new(h, "trace_cpus", json_integer(in->cpus));
	r |= json_object_set_new(h, "trace_nodes", json_integer(in->nodes));
	if (r)
		goto out_free;
	return h;
out_free:
	json_decref(pk);
	json_decref(pv);
	json_decref(lk);
	json_decref(lv);
	json_decref(h);
	return NULL;
}

/* @src[@key], or null when absent */
static json_t *take(const json_t *src, const char *key)
{
	json_t *v = json_object_get(src, key);

	return v ? json_incref(v) : json_null();
}

/* an array from @src[@key], or [] when absent or null */
static json_t *take_array(const json_t *src, const char *key)
{
	json_t *v = json_object_get(src, key);

	return json_is_array(v) ? json_incref(v) : json_array();
}

static json_t *take_bool(const json_t *src, const char *key)
{
	return json_integer(json_is_true(json_object_get(src, key)) ? 1 : 0);
}

static bool has_flag(const json_t *flags, const char *name)
{
	const json_t *f;
	size_t i;

	json_array_foreach(flags, i, f)
		if (json_is_string(f) && !strcmp(json_string_value(f), name))
			return true;
	return false;
}

static int set(json_t *row, const char *prefix, const char *name, json_t *v)
{
	char key[64];

	snprintf(key, sizeof(key), "%s%s", prefix, name);
	return json_object_set_new(row, key, v);
}

/*
 * cost.parts as parallel arrays, one element per task priced (the
 * decision's own first), empty without parts: cost_parts_tid and, per side,
 * cost_parts_<side>_node and cost_parts_<side>_weighted (null elements
 * where unknown)
 */
static int parts_cols(json_t *row, const json_t *cost, const char *const *sides3)
{
	const json_t *parts = json_object_get(cost, "parts"), *pt;
	json_t *tid = json_array(), *node[3], *w[3];
	size_t i;
	int s, r = 0;

	for (s = 0; s < 3; s++) {
		node[s] = json_array();
		w[s] = json_array();
	}
	json_array_foreach(parts, i, pt) {
		r |= json_array_append_new(tid, take(pt, "tid"));
		for (s = 0; s < 3; s++) {
			const json_t *v = json_object_get(pt, sides3[s]);

			r |= json_array_append_new(node[s], take(v, "node"));
			r |= json_array_append_new(w[s], take(v, "weighted"));
		}
	}
	r |= json_object_set_new(row, "cost_parts_tid", tid);
	for (s = 0; s < 3; s++) {
		char p[24];

		snprintf(p, sizeof(p), "cost_parts_%s_", sides3[s]);
		r |= set(row, p, "node", node[s]);
		r |= set(row, p, "weighted", w[s]);
	}
	return r;
}

/*
 * A side's choice as columns: <side>_choice is task, place, none or
 * unknown (null without a policy), with its tid, cpu and node
 */
static int choice_cols(json_t *row, const char *p, const json_t *side)
{
	const json_t *c = json_object_get(side, "choice");
	const char *kind = NULL;
	int r = 0;

	if (json_is_object(side))
		kind = json_is_null(c) ? "none" : json_object_get(c, "tid") ? "task" :
		       json_object_get(c, "cpu") ? "place" : "unknown";
	r |= set(row, p, "choice", kind ? json_string(kind) : json_null());
	r |= set(row, p, "choice_tid", take(c, "tid"));
	r |= set(row, p, "choice_cpu", take(c, "cpu"));
	r |= set(row, p, "choice_node", take(c, "node"));
	return r;
}

json_t *report_row_json(const json_t *header, const json_t *d)
{
	static const char *const copied[] = {
		"seq", "ts_ns", "class", "evidence", "tid", "tgid", "comm", "src_cpu", "dst_cpu",
		"src_node", "dst_node", "partner_tid",
	};
	static const char *const cost_sides[] = { "old", "new", "trace" };
	const json_t *cost = json_object_get(d, "cost"), *flags = json_object_get(d, "flags");
	json_t *row = json_copy((json_t *)header);
	const json_t *dl, *cand;
	size_t i;
	int r = 0;

	if (!row)
		return NULL;
	for (i = 0; i < sizeof(copied) / sizeof(copied[0]); i++)
		r |= json_object_set_new(row, copied[i], take(d, copied[i]));
	for (i = 0; i < 3; i++) {
		const json_t *v = json_object_get(d, sides[i]);
		char p[16];

		snprintf(p, sizeof(p), "%s_", sides[i]);
		r |= set(row, p, "policy", take(v, "policy"));
		r |= set(row, p, "verdict", take(v, "verdict"));
		r |= set(row, p, "reasons", take_array(v, "reasons"));
		r |= set(row, p, "verdict_flags", take_array(v, "flags"));
		r |= set(row, p, "target_node", take(v, "target_node"));
		r |= choice_cols(row, p, v);
	}
	r |= json_object_set_new(row, "disagree", take_bool(d, "disagree"));
	r |= json_object_set_new(row, "verdicts_differ", take_bool(d, "verdicts_differ"));
	cand = json_object_get(d, "candidates");
	r |= json_object_set_new(row, "candidates_order", take(cand, "order"));
	r |= json_object_set_new(row, "candidates_count", take(cand, "count"));
	r |= json_object_set_new(row, "candidates_pull", take(cand, "pull"));
	r |= json_object_set_new(row, "unknown", take_bool(d, "unknown"));
	r |= json_object_set_new(row, "balance_failed_dependent",
				 take_bool(d, "balance_failed_dependent"));
	r |= json_object_set_new(row, "flags", take_array(d, "flags"));
	r |= json_object_set_new(row, "lost_window",
				 json_integer(has_flag(flags, "lost-events-window")));
	r |= json_object_set_new(row, "task_state_unknown",
				 json_integer(has_flag(flags, "task-state-unknown")));
	for (i = 0; i < 3; i++) {
		const json_t *v = json_object_get(cost, cost_sides[i]);
		char p[16];

		snprintf(p, sizeof(p), "cost_%s_", cost_sides[i]);
		r |= set(row, p, "node", take(v, "node"));
		r |= set(row, p, "accesses", take(v, "accesses"));
		r |= set(row, p, "remote", take(v, "remote_accesses"));
		r |= set(row, p, "weighted", take(v, "weighted"));
	}
	dl = json_object_get(cost, "delta");
	r |= json_object_set_new(row, "cost_delta_remote", take(dl, "remote_accesses"));
	r |= json_object_set_new(row, "cost_delta_weighted", take(dl, "weighted"));
	r |= json_object_set_new(row, "cost_interval_ns", take(cost, "interval_ns"));
	r |= json_object_set_new(row, "cost_interval_end", take(cost, "interval_end"));
	r |= json_object_set_new(row, "cost_unpriced_faults", take(cost, "unpriced_faults"));
	r |= json_object_set_new(row, "cost_unknown", take(cost, "unknown"));
	r |= parts_cols(row, cost, cost_sides);
	if (r) {
		json_decref(row);
		return NULL;
	}
	return row;
}

/* FNV-1a, 64 bits */
static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
	while (n--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int hash_span(int fd, off_t off, size_t len, uint64_t *h)
{
	unsigned char buf[8192];

	while (len) {
		size_t want = len < sizeof(buf) ? len : sizeof(buf);
		ssize_t n = pread(fd, buf, want, off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;	/* the file shrank under us */
		*h = fnv(*h, buf, (size_t)n);
		off += n;
		len -= (size_t)n;
	}
	return 0;
}

int report_trace_id(const char *path, char *out)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char size[32];
	struct stat st;
	size_t span;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		goto out_close;
	}
	snprintf(size, sizeof(size), "%" PRIu64 "\n", (uint64_t)st.st_size);
	h = fnv(h, (const unsigned char *)size, strlen(size));
	span = (uint64_t)st.st_size < REPORT_TRACE_ID_SPAN ? (size_t)st.st_size : REPORT_TRACE_ID_SPAN;
	r = hash_span(fd, 0, span, &h);
	if (!r)
		r = hash_span(fd, st.st_size - (off_t)span, span, &h);
	if (!r)
		snprintf(out, 17, "%016" PRIx64, h);
out_close:
	close(fd);
	return r;
}
