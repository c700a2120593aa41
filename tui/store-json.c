// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store-json.c - rows and header from a saved `schedreplay replay --json`
 * report (docs/replay-schema.json).
 *
 * The report of a long trace holds millions of decisions; a Jansson tree
 * of it would take gigabytes.  So the top-level object is walked by hand:
 * every member but "decisions" is decoded whole (they are small), and each
 * element of "decisions" is decoded alone, turned into a row and dropped.
 * Per-decision "cost" ({"old", "new", "delta"}) is read when present.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay/replay.h"
#include "store-local.h"

/*
 * A report's real number as an int64, rounded; false when it does not fit
 * (converting it would be undefined: found by fuzz-tui-json with 1.61e302).
 */
/* Largest |cost| taken from a report: 2^53 */
#define TUI_COST_MAX	((int64_t)1 << 53)

static bool real_to_i64(double d, int64_t *out)
{
	d = round(d);
	if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
		return false;
	*out = (int64_t)d;
	return true;
}

static int64_t jnum(const json_t *o, const char *k, int64_t def)
{
	const json_t *v = json_object_get(o, k);
	int64_t i;

	if (json_is_integer(v))
		return (int64_t)json_integer_value(v);
	if (json_is_real(v) && real_to_i64(json_real_value(v), &i))
		return i;
	return def;
}

static void copy_str(char *dst, size_t len, const json_t *v)
{
	const char *s = json_string_value(v);

	snprintf(dst, len, "%s", s ? s : "");
}

static void join_policies(char *dst, size_t len, const json_t *a)
{
	const json_t *p;
	size_t i, used = 0;

	dst[0] = '\0';
	json_array_foreach(a, i, p) {
		const char *n = json_string_value(json_object_get(p, "name"));

		if (!n || used + 1 >= len)
			continue;
		used += (size_t)snprintf(dst + used, len - used, "%s%s", used ? "," : "", n);
		if (used >= len)
			used = len - 1;
	}
}

int tui_store_set_header(struct tui_store *s, const json_t *doc)
{
	static const char *const sides[TUI__SIDES] = { "old", "new", "kernel" };
	struct tui_header *h = &s->hdr;
	const json_t *tr = json_object_get(doc, "trace");
	const json_t *pol = json_object_get(doc, "policies");
	const json_t *sum = json_object_get(doc, "summary");
	const json_t *nodes = json_object_get(json_object_get(doc, "topology"), "nodes");
	const json_t *n, *d, *f;
	const char *k;
	size_t i, j;
	int side;

	copy_str(h->trace, sizeof(h->trace), json_object_get(tr, "path"));
	copy_str(h->format, sizeof(h->format), json_object_get(tr, "format"));
	copy_str(h->kernel, sizeof(h->kernel), json_object_get(tr, "kernel_release"));
	h->nr_cpus = (int)jnum(tr, "cpus", 0);
	h->nr_nodes = (int)jnum(tr, "nodes", 0);
	if (h->nr_nodes < 0 || h->nr_nodes > TUI_MAX_NODES)
		h->nr_nodes = 0;
	memset(h->distance, 0, sizeof(h->distance));
	json_array_foreach(nodes, i, n) {
		if (i >= (size_t)h->nr_nodes)
			break;
		json_array_foreach(json_object_get(n, "distance"), j, d) {
			int64_t v = json_integer_value(d);

			if (j < (size_t)h->nr_nodes)
				h->distance[i][j] = (uint8_t)(v < 0 || v > 255 ? 0 : v);
		}
	}
	h->mig_cost_ns = -2;
	for (side = 0; side < TUI__SIDES; side++) {
		const json_t *a = json_object_get(pol, sides[side]), *p;

		join_policies(h->policies[side], sizeof(h->policies[side]), a);
		json_array_foreach(a, i, p) {
			const json_t *v = json_object_get(json_object_get(p, "params"),
							  "sched_migration_cost_ns");

			if (h->mig_cost_ns == -2 && json_is_integer(v)) {
				h->mig_cost_ns = (int64_t)json_integer_value(v);
				copy_str(h->mig_cost_policy, sizeof(h->mig_cost_policy),
					 json_object_get(p, "name"));
			}
		}
	}
	h->decisions = (uint64_t)jnum(sum, "decisions", 0);
	h->disagreements = (uint64_t)jnum(sum, "disagreements", 0);
	h->unknown = (uint64_t)jnum(sum, "unknown", 0);
	h->fid_reproduced = h->fid_decisions = 0;
	json_object_foreach((json_t *)json_object_get(sum, "fidelity"), k, f) {
		h->fid_reproduced += (uint64_t)jnum(f, "reproduced", 0);
		h->fid_decisions += (uint64_t)jnum(f, "decisions", 0);
	}
	return 0;
}

/*
 * One side of a decision's "cost": the distance-weighted figure of
 * {"accesses", "remote_accesses", "weighted", "node"} (docs/json-schema.md),
 * or a plain number; rounded to an integer for the list.
 */
static bool cost_side(const json_t *cost, const char *side, int64_t *out)
{
	const json_t *v = json_object_get(cost, side);

	if (json_is_object(v))
		v = json_object_get(v, "weighted");
	if (json_is_integer(v))
		*out = (int64_t)json_integer_value(v);
	else if (!json_is_real(v) || !real_to_i64(json_real_value(v), out))
		return false;
	/* beyond any real cost; bounded so that new - old cannot overflow */
	return *out >= -TUI_COST_MAX && *out <= TUI_COST_MAX;
}

static int verdict_from_json(struct tui_store *s, const json_t *o, uint32_t *out,
			     struct err *err)
{
	struct tui_verdict tv = { 0 };
	const json_t *r;
	const char *v;
	size_t i;
	int id;

	*out = TUI_NONE;
	if (!o || json_is_null(o))
		return 0;
	v = json_string_value(json_object_get(o, "verdict"));
	if (!json_is_object(o) || !v)
		return err_set(err, -SR_EBADTEXT, "a verdict is not an object with \"verdict\"");
	if (!strcmp(v, "allow"))
		tv.verdict = SR_VERDICT_ALLOW;
	else if (!strcmp(v, "resist"))
		tv.verdict = SR_VERDICT_RESIST;
	else if (!strcmp(v, "unknown"))
		tv.verdict = SR_VERDICT_UNKNOWN;
	else if (!strcmp(v, "not-applicable"))
		tv.verdict = SR_VERDICT_NOT_APPLICABLE;
	else
		return err_set(err, -SR_EBADTEXT, "unknown verdict \"%.40s\"", v);
	id = tui_store_intern_policy(s, json_string_value(json_object_get(o, "policy")) ?
				     json_string_value(json_object_get(o, "policy")) : "?");
	if (id < 0)
		return err_set(err, id, "too many policies");
	tv.policy = (uint16_t)id;
	json_array_foreach(json_object_get(o, "flags"), i, r) {
		const char *f = json_string_value(r);

		if (!f)
			continue;
		if (!strcmp(f, "failed-dependent"))
			tv.flags |= SR_VF_FAILED_DEPENDENT;
		else if (!strcmp(f, "forced"))
			tv.flags |= SR_VF_FORCED;
		else if (!strcmp(f, "assumed-not-buddy"))
			tv.flags |= SR_VF_ASSUMED_NOT_BUDDY;
		else if (!strcmp(f, "assumed-not-smt"))
			tv.flags |= SR_VF_ASSUMED_NOT_SMT;
	}
	tv.target_node = -1;
	if (json_is_integer(json_object_get(o, "target_node"))) {
		int64_t t = json_integer_value(json_object_get(o, "target_node"));

		tv.target_node = t >= 0 && t < TUI_MAX_NODES ? (int8_t)t : -1;
	}
	json_array_foreach(json_object_get(o, "reasons"), i, r) {
		if (tv.nr_reasons == SR_MAX_REASONS || !json_is_string(r))
			break;
		id = tui_store_intern_reason(s, json_string_value(r), NULL);
		if (id < 0)
			return err_set(err, id, "too many reasons");
		tv.reasons[tv.nr_reasons++] = (uint16_t)id;
	}
	*out = tui_store_intern_verdict(s, &tv);
	return *out == UINT32_MAX ? err_set(err, -ENOMEM, "out of memory") : 0;
}

static int8_t node_of(const json_t *v)
{
	int64_t n = json_is_integer(v) ? json_integer_value(v) : -1;

	return n >= 0 && n < TUI_MAX_NODES ? (int8_t)n : -1;
}

static int16_t cpu_of(const json_t *v)
{
	int64_t n = json_is_integer(v) ? json_integer_value(v) : -1;

	return n >= 0 && n <= INT16_MAX ? (int16_t)n : -1;
}

int tui_store_add_json(struct tui_store *s, const json_t *o, struct err *err)
{
	static const char *const sides[TUI__SIDES] = { "old", "new", "kernel" };
	const char *cls = json_string_value(json_object_get(o, "class"));
	const json_t *ts = json_object_get(o, "ts_ns"), *comm, *cost, *f;
	struct tui_row *row;
	size_t i;
	int c, side, ret;

	if (!json_is_object(o))
		return err_set(err, -SR_EBADTEXT, "a decision is not an object");
	c = cls ? replay_class_from_name(cls) : -1;
	if (c < 0)
		return err_set(err, -SR_EBADTEXT, "decision without a known \"class\"");
	if (!json_is_integer(ts) || json_integer_value(ts) < 0)
		return err_set(err, -SR_EBADTEXT, "decision without \"ts_ns\"");
	row = tui_store_append(s);
	if (!row)
		return err_set(err, -ENOMEM, "out of memory");
	row->ts_ns = (uint64_t)json_integer_value(ts);
	row->cls = (uint8_t)c;
	row->tid = (int32_t)jnum(o, "tid", 0);
	if (json_is_integer(json_object_get(o, "tgid"))) {
		row->tgid = (int32_t)jnum(o, "tgid", 0);
		row->flags |= TUI_ROW_TGID;
	}
	row->partner_tid = (int32_t)jnum(o, "partner_tid", 0);
	comm = json_object_get(o, "comm");
	if (json_is_string(comm)) {
		size_t n = json_string_length(comm);

		if (n >= sizeof(row->comm))
			n = sizeof(row->comm) - 1;
		memcpy(row->comm, json_string_value(comm), n);
		row->flags |= TUI_ROW_COMM;
	}
	row->src_cpu = cpu_of(json_object_get(o, "src_cpu"));
	row->dst_cpu = cpu_of(json_object_get(o, "dst_cpu"));
	row->src_node = node_of(json_object_get(o, "src_node"));
	row->dst_node = node_of(json_object_get(o, "dst_node"));
	if (json_is_true(json_object_get(o, "disagree")))
		row->flags |= TUI_ROW_DISAGREE;
	if (json_is_true(json_object_get(o, "unknown")))
		row->flags |= TUI_ROW_UNKNOWN;
	if (json_is_true(json_object_get(o, "balance_failed_dependent")))
		row->flags |= TUI_ROW_BF_DEP;
	json_array_foreach(json_object_get(o, "flags"), i, f) {
		const char *fs = json_string_value(f);

		if (fs && !strcmp(fs, "lost-events-window"))
			row->flags |= TUI_ROW_LOST;
		else if (fs && !strcmp(fs, "task-state-unknown"))
			row->flags |= TUI_ROW_STATE_GUESS;
	}
	cost = json_object_get(o, "cost");
	if (json_is_object(cost) && cost_side(cost, "old", &row->cost_old) &&
	    cost_side(cost, "new", &row->cost_new)) {
		if (!cost_side(cost, "delta", &row->cost_delta))
			row->cost_delta = row->cost_new - row->cost_old;
		row->flags |= TUI_ROW_COST;
	}
	if (json_is_string(json_object_get(o, "evidence"))) {
		ret = tui_store_intern_evidence(s, json_string_value(json_object_get(o, "evidence")));
		if (ret < 0)
			return err_set(err, ret, "out of memory");
		row->evidence = (uint8_t)ret;
	}
	for (side = 0; side < TUI__SIDES; side++) {
		ret = verdict_from_json(s, json_object_get(o, sides[side]), &row->verdict[side], err);
		if (ret < 0)
			return ret;
	}
	tui_store_commit(s);
	return 0;
}

static size_t skip_ws(const char *b, size_t len, size_t pos)
{
	while (pos < len && (b[pos] == ' ' || b[pos] == '\t' || b[pos] == '\n' || b[pos] == '\r'))
		pos++;
	return pos;
}

/* Decode one value at @*pos; on success *@pos moves past it. */
static json_t *decode_at(const char *b, size_t len, size_t *pos, struct err *err)
{
	json_error_t je;
	json_t *v = json_loadb(b + *pos, len - *pos, JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK, &je);

	if (!v) {
		err_set(err, -SR_EBADTEXT, "%s", je.text);
		err_at_byte(err, *pos + (je.position > 0 ? (uint64_t)je.position : 0));
		return NULL;
	}
	*pos += (size_t)je.position;
	return v;
}

static int expect(const char *b, size_t len, size_t *pos, char c, struct err *err)
{
	*pos = skip_ws(b, len, *pos);
	if (*pos >= len || b[*pos] != c) {
		err_set(err, -SR_EBADTEXT, *pos >= len ? "unexpected end of the report, '%c' expected" :
			"'%c' expected", c);
		err_at_byte(err, *pos);
		return -SR_EBADTEXT;
	}
	(*pos)++;
	return 0;
}

static int load_decisions(struct tui_store *s, const char *b, size_t len, size_t *pos,
			  struct err *err)
{
	size_t at;
	json_t *o;
	int ret;

	ret = expect(b, len, pos, '[', err);
	if (ret < 0)
		return ret;
	*pos = skip_ws(b, len, *pos);
	if (*pos < len && b[*pos] == ']') {
		(*pos)++;
		return 0;
	}
	for (;;) {
		at = skip_ws(b, len, *pos);
		o = decode_at(b, len, pos, err);
		if (!o)
			return err->code;
		ret = tui_store_add_json(s, o, err);
		json_decref(o);
		if (ret < 0) {
			err_at_byte(err, at);
			return ret;
		}
		*pos = skip_ws(b, len, *pos);
		if (*pos < len && b[*pos] == ']') {
			(*pos)++;
			return 0;
		}
		ret = expect(b, len, pos, ',', err);
		if (ret < 0)
			return ret;
	}
}

static int load_buf(struct tui_store *s, const char *b, size_t len, struct err *err)
{
	json_t *doc = json_object(), *key, *v;
	bool have_decisions = false;
	size_t pos = 0, at;
	int ret;

	if (!doc)
		return err_set(err, -ENOMEM, "out of memory");
	ret = expect(b, len, &pos, '{', err);
	if (ret < 0)
		goto out;
	pos = skip_ws(b, len, pos);
	if (pos < len && b[pos] == '}') {
		pos++;
		goto done;
	}
	for (;;) {
		at = skip_ws(b, len, pos);
		key = decode_at(b, len, &pos, err);
		if (!key) {
			ret = err->code;
			goto out;
		}
		if (!json_is_string(key)) {
			json_decref(key);
			ret = err_set(err, -SR_EBADTEXT, "object key expected");
			err_at_byte(err, at);
			goto out;
		}
		ret = expect(b, len, &pos, ':', err);
		if (ret < 0) {
			json_decref(key);
			goto out;
		}
		if (!strcmp(json_string_value(key), "decisions")) {
			json_decref(key);
			ret = load_decisions(s, b, len, &pos, err);
			if (ret < 0)
				goto out;
			have_decisions = true;
		} else {
			v = decode_at(b, len, &pos, err);
			if (!v) {
				json_decref(key);
				ret = err->code;
				goto out;
			}
			json_object_set_new(doc, json_string_value(key), v);
			json_decref(key);
		}
		pos = skip_ws(b, len, pos);
		if (pos < len && b[pos] == '}') {
			pos++;
			break;
		}
		ret = expect(b, len, &pos, ',', err);
		if (ret < 0)
			goto out;
	}
done:
	pos = skip_ws(b, len, pos);
	if (pos < len) {
		ret = err_set(err, -SR_EBADTEXT, "trailing data after the report");
		err_at_byte(err, pos);
		goto out;
	}
	if (!have_decisions || !json_is_object(json_object_get(doc, "trace"))) {
		ret = err_set(err, -SR_EBADTEXT, "not a replay report (no \"%s\"; write one with "
			      "'schedreplay replay --json')", have_decisions ? "trace" : "decisions");
		err_at_byte(err, 0);
		goto out;
	}
	ret = tui_store_set_header(s, doc);
out:
	json_decref(doc);
	return ret;
}

int tui_store_load_json(struct tui_store *s, const char *path, struct err *err)
{
	struct stat st;
	void *map;
	int fd, ret;

	err_set_file(err, path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, -errno, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(err, -SR_EUNSUPPORTED, "not a regular file");
	}
	if (st.st_size == 0) {
		close(fd);
		return err_set(err, -SR_EEMPTY, "empty report");
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return err_set(err, -errno, "cannot read: %s", strerror(errno));
	madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
	ret = load_buf(s, map, (size_t)st.st_size, err);
	munmap(map, (size_t)st.st_size);
	return ret;
}
