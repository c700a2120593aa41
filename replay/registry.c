// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * registry.c - the one table of built-in policies, lookup by exact name,
 * the names of classes, verdicts, reasons and snapshot fields, validation
 * of ops tables, and "name=value" parameter parsing.
 *
 * Invariant: replay_builtins[] lists every built-in once, in the order
 * `schedreplay policies` prints them; names are unique (checked by
 * tests/unit/check-policies.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "replay-local.h"

static const struct sr_policy_ops *const replay_builtins[] = {
	&policy_lb_v41_ops,
	&policy_lb_v41_numa_hotness_ops,
	&policy_lb_v43_ops,
	&policy_lb_v61_ops,
	&policy_numa_v418_ops,
	&policy_numa_v419_ops,
	&policy_exec_least_loaded_ops,
	&policy_exec_round_robin_ops,
	&policy_exec_v61_ops,
	&policy_wakeup_v415_ops,
	&policy_wakeup_v416_ops,
	&policy_wakeup_v519_ops,
	&policy_wakeup_v61_ops,
	&policy_fork_v510_ops,
	&policy_fork_v511_ops,
	&policy_fork_v61_ops,
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const class_names[SR_DECISION_CLASS__COUNT] = {
	[SR_DECISION_CLASS_NUMA_MOVE]	= "numa-move",
	[SR_DECISION_CLASS_NUMA_SWAP]	= "numa-swap",
	[SR_DECISION_CLASS_NUMA_STICK]	= "numa-stick",
	[SR_DECISION_CLASS_EXEC]	= "exec",
	[SR_DECISION_CLASS_FORK]	= "fork",
	[SR_DECISION_CLASS_WAKEUP]	= "wakeup",
	[SR_DECISION_CLASS_LB_PULL]	= "lb-pull",
	[SR_DECISION_CLASS_LB_ACTIVE]	= "lb-active",
	[SR_DECISION_CLASS_OTHER]	= "other",
};

#define REASON_NAME_(id, name, desc)	[SR_REASON_##id] = name,
static const char *const reason_names[SR_REASON__COUNT] = { SR_REASONS(REASON_NAME_) };
#undef REASON_NAME_

#define REASON_DESC_(id, name, desc)	[SR_REASON_##id] = desc,
static const char *const reason_descs[SR_REASON__COUNT] = { SR_REASONS(REASON_DESC_) };
#undef REASON_DESC_

#define FIELD_NAME_(id, bit, name, desc)	[bit] = "missing-" name,
static const char *const missing_names[SR_SNAP_BIT__COUNT] = { SR_SNAP_FIELDS(FIELD_NAME_) };
#undef FIELD_NAME_

#define FIELD_DESC_(id, bit, name, desc)	[bit] = desc,
static const char *const field_descs[SR_SNAP_BIT__COUNT] = { SR_SNAP_FIELDS(FIELD_DESC_) };
#undef FIELD_DESC_

const char *replay_class_name(int cls)
{
	if (cls < 0 || cls >= SR_DECISION_CLASS__COUNT)
		return "invalid";
	return class_names[cls];
}

int replay_class_from_name(const char *name)
{
	int i;

	if (!name)
		return -1;
	for (i = 0; i < SR_DECISION_CLASS__COUNT; i++)
		if (!strcmp(class_names[i], name))
			return i;
	return -1;
}

const char *replay_verdict_name(int verdict)
{
	switch (verdict) {
	case SR_VERDICT_NOT_APPLICABLE:
		return "not-applicable";
	case SR_VERDICT_ALLOW:
		return "allow";
	case SR_VERDICT_RESIST:
		return "resist";
	case SR_VERDICT_UNKNOWN:
		return "unknown";
	default:
		return "invalid";
	}
}

const char *replay_snap_field_name(int bit)
{
	if (bit < 0 || bit >= SR_SNAP_BIT__COUNT)
		return "invalid";
	/* "missing-pref-node" without its prefix */
	return missing_names[bit] + strlen("missing-");
}

const char *replay_snap_field_description(int bit)
{
	if (bit < 0 || bit >= SR_SNAP_BIT__COUNT)
		return "invalid";
	return field_descs[bit];
}

static const struct sr_reason_desc *plugin_reason(const struct sr_policy_ops *ops,
						  unsigned int code)
{
	const struct sr_reason_desc *r;

	if (!ops || ops->size < offsetof(struct sr_policy_ops, reasons) + sizeof(ops->reasons))
		return NULL;
	for (r = ops->reasons; r && r->name; r++)
		if (r->code == code)
			return r;
	return NULL;
}

const char *replay_reason_name(const struct sr_policy_ops *ops, unsigned int code)
{
	const struct sr_reason_desc *r;

	if (code < SR_REASON__COUNT)
		return reason_names[code];
	if (code >= SR_REASON_MISSING_FIRST &&
	    code < SR_REASON_MISSING_FIRST + SR_SNAP_BIT__COUNT)
		return missing_names[code - SR_REASON_MISSING_FIRST];
	r = plugin_reason(ops, code);
	return r ? r->name : "invalid";
}

const char *replay_reason_description(const struct sr_policy_ops *ops, unsigned int code)
{
	const struct sr_reason_desc *r;

	if (code < SR_REASON__COUNT)
		return reason_descs[code];
	if (code >= SR_REASON_MISSING_FIRST &&
	    code < SR_REASON_MISSING_FIRST + SR_SNAP_BIT__COUNT)
		return field_descs[code - SR_REASON_MISSING_FIRST];
	r = plugin_reason(ops, code);
	return r && r->description ? r->description : "invalid";
}

size_t replay_registry_count(void)
{
	return ARRAY_SIZE(replay_builtins);
}

const struct sr_policy_ops *replay_registry_get(size_t i)
{
	if (i >= ARRAY_SIZE(replay_builtins))
		return NULL;
	return replay_builtins[i];
}

const struct sr_policy_ops *replay_registry_lookup(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(replay_builtins); i++)
		if (!strcmp(replay_builtins[i]->name, name))
			return replay_builtins[i];
	return NULL;
}

static int check_name(const char *name)
{
	const char *c;

	if (!name || !*name || strlen(name) > 64)
		return -1;
	for (c = name; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
		    *c == '-' || *c == '.' || *c == '_')
			continue;
		return -1;
	}
	return 0;
}

/* parameter names: letters (either case), digits and '_' */
static int check_param_name(const char *name)
{
	const char *c;

	if (!name || !*name || strlen(name) > 64)
		return -1;
	for (c = name; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || *c == '_')
			continue;
		return -1;
	}
	return 0;
}

int replay_ops_check(const struct sr_policy_ops *ops, struct err *err)
{
	size_t need = offsetof(struct sr_policy_ops, evaluate) + sizeof(ops->evaluate);
	const struct sr_param_desc *p;
	int i, j;

	if (!ops)
		return err_set(err, -SR_EUNSUPPORTED, "policy ops table is NULL");
	if (SR_POLICY_ABI_MAJOR_OF(ops->abi_version) < SR_POLICY_ABI_MAJOR_OLDEST ||
	    SR_POLICY_ABI_MAJOR_OF(ops->abi_version) > SR_POLICY_ABI_MAJOR)
		return err_set(err, -SR_EUNSUPPORTED,
			       "policy ABI version %u.%u, this schedreplay runs versions %u.x to %u.x",
			       SR_POLICY_ABI_MAJOR_OF(ops->abi_version),
			       SR_POLICY_ABI_MINOR_OF(ops->abi_version), SR_POLICY_ABI_MAJOR_OLDEST,
			       SR_POLICY_ABI_MAJOR);
	if (ops->size < need)
		return err_set(err, -SR_EUNSUPPORTED,
			       "policy ops size %u is smaller than %zu (up to evaluate)",
			       ops->size, need);
	if (check_name(ops->name))
		return err_set(err, -SR_EUNSUPPORTED,
			       "policy name missing or not made of a-z 0-9 - . _");
	if (!ops->evaluate)
		return err_set(err, -SR_EUNSUPPORTED, "policy '%s' has no evaluate hook",
			       ops->name);
	if (!ops->classes || (ops->classes & ~SR_CLASS_ALL))
		return err_set(err, -SR_EUNSUPPORTED,
			       "policy '%s' has classes mask 0x%x, expected bits within 0x%x",
			       ops->name, ops->classes, SR_CLASS_ALL);
	for (i = 0, p = ops->params; p && p->name; i++, p++) {
		if (i >= SR_MAX_PARAMS)
			return err_set(err, -SR_EUNSUPPORTED,
				       "policy '%s' has more than %d parameters", ops->name,
				       SR_MAX_PARAMS);
		if (check_param_name(p->name))
			return err_set(err, -SR_EUNSUPPORTED,
				       "policy '%s': parameter %d has a bad name", ops->name, i);
		for (j = 0; j < i; j++)
			if (!strcmp(ops->params[j].name, p->name))
				return err_set(err, -SR_EUNSUPPORTED,
					       "policy '%s': parameter '%s' declared twice",
					       ops->name, p->name);
		if (p->type == SR_PARAM_BOOL) {
			if (p->def != 0 && p->def != 1)
				return err_set(err, -SR_EUNSUPPORTED,
					       "policy '%s': bool parameter '%s' defaults to %" PRId64,
					       ops->name, p->name, p->def);
		} else if (p->type == SR_PARAM_INT) {
			if (p->min > p->max || p->def < p->min || p->def > p->max)
				return err_set(err, -SR_EUNSUPPORTED,
					       "policy '%s': parameter '%s' default %" PRId64
					       " outside [%" PRId64 ", %" PRId64 "]",
					       ops->name, p->name, p->def, p->min, p->max);
		} else {
			return err_set(err, -SR_EUNSUPPORTED,
				       "policy '%s': parameter '%s' has unknown type %u",
				       ops->name, p->name, p->type);
		}
	}
	return 0;
}

int replay_param_count(const struct sr_policy_ops *ops)
{
	const struct sr_param_desc *p;
	int n = 0;

	for (p = ops->params; p && p->name && n < SR_MAX_PARAMS; p++)
		n++;
	return n;
}

int replay_param_index(const struct sr_policy_ops *ops, const char *name)
{
	int i, n = replay_param_count(ops);

	if (!name)
		return -1;
	for (i = 0; i < n; i++)
		if (!strcmp(ops->params[i].name, name))
			return i;
	return -1;
}

void replay_params_defaults(const struct sr_policy_ops *ops, struct sr_param_values *vals)
{
	int i, n = replay_param_count(ops);

	memset(vals, 0, sizeof(*vals));
	vals->nr = (uint32_t)n;
	for (i = 0; i < n; i++)
		vals->v[i] = ops->params[i].def;
}

static int parse_bool(const char *s, int64_t *v)
{
	static const char *const yes[] = { "1", "true", "on", "yes" };
	static const char *const no[] = { "0", "false", "off", "no" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcmp(s, yes[i])) {
			*v = 1;
			return 0;
		}
		if (!strcmp(s, no[i])) {
			*v = 0;
			return 0;
		}
	}
	return -1;
}

static int parse_int(const char *s, int64_t *v)
{
	char *end;
	long long x;

	if (!*s)
		return -1;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

int replay_param_parse(const struct sr_policy_ops *ops, struct sr_param_values *vals,
		       const char *assign, struct err *err)
{
	const struct sr_param_desc *d;
	const char *eq;
	char name[128];
	size_t len;
	int64_t v;
	int i;

	eq = assign ? strchr(assign, '=') : NULL;
	if (!eq || eq == assign)
		return err_set(err, -SR_EUSAGE, "bad parameter '%.128s': expected name=value",
			       assign ? assign : "");
	len = (size_t)(eq - assign);
	if (len >= sizeof(name))
		return err_set(err, -SR_ENOTFOUND, "unknown parameter '%.64s...' for policy '%s'",
			       assign, ops->name);
	memcpy(name, assign, len);
	name[len] = '\0';
	i = replay_param_index(ops, name);
	if (i < 0)
		return err_set(err, -SR_ENOTFOUND, "unknown parameter '%s' for policy '%s'",
			       name, ops->name);
	d = &ops->params[i];
	if (d->type == SR_PARAM_BOOL) {
		if (parse_bool(eq + 1, &v))
			return err_set(err, -SR_ERANGE,
				       "bad value '%.64s' for parameter '%s' of policy '%s': "
				       "expected true or false", eq + 1, name, ops->name);
	} else {
		if (parse_int(eq + 1, &v) || v < d->min || v > d->max)
			return err_set(err, -SR_ERANGE,
				       "bad value '%.64s' for parameter '%s' of policy '%s': "
				       "expected an integer in [%" PRId64 ", %" PRId64 "]",
				       eq + 1, name, ops->name, d->min, d->max);
	}
	vals->v[i] = v;
	return 0;
}

char *replay_param_format(const struct sr_param_desc *desc, int64_t v, char *buf, size_t len)
{
	if (desc->type == SR_PARAM_BOOL)
		snprintf(buf, len, "%s", v ? "true" : "false");
	else
		snprintf(buf, len, "%" PRId64, v);
	return buf;
}

void replay_snapshot_init(struct sr_snapshot *snap)
{
	memset(snap, 0, sizeof(*snap));
	snap->size = sizeof(*snap);
	snap->src_cpu = -1;
	snap->dst_cpu = -1;
	snap->src_node = -1;
	snap->dst_node = -1;
	snap->pref_node = -1;
	snap->allowed_cpu = -1;
}

void replay_verdict_init(struct sr_verdict *out)
{
	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	out->verdict = SR_VERDICT_NOT_APPLICABLE;
	out->target_node = -1;
	out->target_cpu = -1;
	out->target_tid = SR_CHOICE_UNSAID;
}

choose_fn replay_ops_choose(const struct sr_policy_ops *ops)
{
	size_t need = offsetof(struct sr_policy_ops, choose) + sizeof(ops->choose);

	if (SR_POLICY_ABI_MAJOR_OF(ops->abi_version) < 2 || ops->size < need)
		return NULL;
	return ops->choose;
}
