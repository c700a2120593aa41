// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * session-policies.c - the engine of a replay, built from the policy names
 * of struct session_opts: each side's comma-separated list, the kernel side
 * (its own list, or the built-ins that model the trace's release), and the
 * "[P:]K=V" parameters, each of which some chosen policy must take.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "session-local.h"

/* Does @name appear in the comma-separated @list? */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p && *p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p = c ? c + 1 : NULL;
	}
	return false;
}

static const struct sr_policy_ops *find_ops(const struct session *s, const char *name)
{
	const struct sr_policy_ops *ops = replay_registry_lookup(name);
	int i;

	/* a plugin named by its path (docs/plugin-abi.md) */
	if (strchr(name, '/')) {
		for (i = 0; i < s->nr_plugins; i++)
			if (!strcmp(s->plugin_path[i], name))
				return replay_plugin_ops(s->plugins[i]);
		return NULL;
	}

	for (i = 0; !ops && i < s->nr_plugins; i++)
		if (!strcmp(replay_plugin_ops(s->plugins[i])->name, name))
			ops = replay_plugin_ops(s->plugins[i]);
	return ops;
}

/* A sched feature's name: capitals, digits and '_' (CACHE_HOT_BUDDY, NUMA) */
static bool feature_name(const char *n)
{
	if (!*n)
		return false;
	for (; *n; n++)
		if (!(*n >= 'A' && *n <= 'Z') && !(*n >= '0' && *n <= '9') && *n != '_')
			return false;
	return true;
}

/* Is @name on (1) or off (0) in a features list "A,NO_B,..."?  -1: not listed. */
static int feature_state(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (*p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (len == n && !memcmp(p, name, n))
			return 1;
		if (len == n + 3 && !memcmp(p, "NO_", 3) && !memcmp(p + 3, name, n))
			return 0;
		if (!c)
			break;
		p = c + 1;
	}
	return -1;
}

static void set_recorded(struct replay_policy *pol, const char *name, int64_t v, const char *src)
{
	struct err pe = { 0 };
	char assign[160];

	snprintf(assign, sizeof(assign), "%s=%lld", name, (long long)v);
	/* a recorded value the parameter cannot take leaves the default (and says so) */
	if (replay_policy_set_param(pol, assign, &pe) < 0) {
		snprintf(assign, sizeof(assign), "default (recorded %s=%lld is out of range)", src,
			 (long long)v);
		replay_policy_set_source(pol, name, assign);
		return;
	}
	replay_policy_set_source(pol, name, src);
}

/*
 * The kernel side's parameters from what the trace recorded: the sysctls
 * and the sched features (docs/replay.md, "The kernel model's settings");
 * what the trace does not say stays the default for the release.
 */
static void apply_recorded(const struct session *s, struct replay_policy *pol,
			   const struct sr_policy_ops *ops, bool by_release)
{
	const struct session_recorded *rec = &s->rec;
	char src[96];
	int i, f;

	for (i = 0; ops->params && ops->params[i].name; i++) {
		const char *name = ops->params[i].name;

		replay_policy_set_source(pol, name, by_release ? "default for the release" : NULL);
		if (!strcmp(name, "numa_balancing") && rec->numa_balancing >= 0) {
			/* any mode (1 normal, 2 memory tiering) turns the static key on */
			set_recorded(pol, name, rec->numa_balancing != 0,
				     "recorded sysctl kernel.numa_balancing");
		} else if (!strcmp(name, "sched_migration_cost_ns") && rec->migration_cost_ns >= 0) {
			snprintf(src, sizeof(src), "recorded sysctl %s", rec->migration_cost_key);
			set_recorded(pol, name, rec->migration_cost_ns, src);
		} else if (feature_name(name) && rec->features[0] &&
			   (f = feature_state(rec->features, name)) >= 0) {
			set_recorded(pol, name, f, "sched_features");
		}
	}
}

/*
 * Make an instance of @name with the parameters that apply to it: for the
 * kernel side (@kernel) first what the trace recorded, then --param.
 * @used[i] is set for each parameter this policy took.
 */
static int make_policy(struct session *s, const char *name, bool kernel, bool by_release,
		       bool *used, struct err *e, struct replay_policy **out)
{
	const struct session_opts *o = &s->opts;
	const struct sr_policy_ops *ops = find_ops(s, name);
	struct replay_policy *pol;
	struct err pe = { 0 };
	int i, ret;

	if (!ops)
		return err_set(e, -SR_EUSAGE, "unknown policy '%s' ('schedreplay policies' lists them)",
			       name);
	pol = replay_policy_new(ops);
	if (!pol)
		return err_set(e, -ENOMEM, "out of memory");
	if (kernel)
		apply_recorded(s, pol, ops, by_release);
	for (i = 0; i < o->nr_params; i++) {
		const char *p = o->params[i], *colon = strchr(p, ':'), *eq = strchr(p, '=');
		char key[128];
		size_t kl;

		if (colon && (!eq || colon < eq)) {
			/* P:K=V is for policy P alone */
			if ((size_t)(colon - p) != strlen(name) || strncmp(p, name, colon - p))
				continue;
			p = colon + 1;
		} else if (eq) {
			/* K=V goes to every chosen policy that has K */
			kl = (size_t)(eq - p) < sizeof(key) ? (size_t)(eq - p) : sizeof(key) - 1;
			memcpy(key, p, kl);
			key[kl] = '\0';
			if (replay_param_index(ops, key) < 0)
				continue;
		}
		ret = replay_policy_set_param(pol, p, &pe);
		if (ret < 0) {
			replay_policy_free(pol);
			return err_set(e, -SR_EUSAGE, "--param '%s': %s", o->params[i], pe.msg);
		}
		eq = strchr(p, '=');
		kl = eq && (size_t)(eq - p) < sizeof(key) ? (size_t)(eq - p) : 0;
		memcpy(key, p, kl);
		key[kl] = '\0';
		replay_policy_set_source(pol, key, "--param");
		used[i] = true;
	}
	ret = replay_policy_start(pol, &pe);
	if (ret < 0) {
		replay_policy_free(pol);
		return err_set(e, -ECANCELED, "policy '%s': %s", name, pe.msg);
	}
	*out = pol;
	return 0;
}

static int add_side(struct session *s, enum engine_side side, const char *list, bool by_release,
		    bool *used, struct err *e)
{
	char name[128];
	const char *p = list;
	struct err ee = { 0 };
	int ret;

	while (p && *p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		struct replay_policy *pol = NULL;

		if (!len || len >= sizeof(name))
			return err_set(e, -SR_EUSAGE, "bad policy list '%s'", list);
		memcpy(name, p, len);
		name[len] = '\0';
		ret = make_policy(s, name, side == ENGINE_KERNEL, by_release, used, e, &pol);
		if (ret)
			return ret;
		if (engine_add(s->engine, side, pol, &ee) < 0)
			return err_set(e, -SR_EUSAGE, "%s", ee.msg);
		p = c ? c + 1 : NULL;
	}
	return 0;
}

/* The kernel side: its own list, or the built-ins that model the release. */
static int add_kernel_side(struct session *s, bool *used, struct err *e)
{
	const char *kp = s->opts.kernel_policy;
	char list[512] = "";
	int c;

	if (kp) {
		if (!strcmp(kp, "none"))
			return 0;
		return add_side(s, ENGINE_KERNEL, kp, false, used, e);
	}
	for (c = 0; c < SR_DECISION_CLASS__COUNT; c++) {
		const char *n = engine_kernel_policy_name(s->tr.kernel_release, c);
		size_t l = strlen(list);

		if (!n || in_list(list, n))
			continue;
		snprintf(list + l, sizeof(list) - l, "%s%s", l ? "," : "", n);
	}
	if (!list[0])
		return 0;
	return add_side(s, ENGINE_KERNEL, list, true, used, e);
}

static int load_plugin(struct session *s, const char *path, size_t len, struct err *e)
{
	int i;

	if (len >= SESSION_PLUGIN_PATH_MAX)
		return err_set(e, -SR_EUSAGE, "policy plugin path '%.*s...' is too long",
			       40, path);
	for (i = 0; i < s->nr_plugins; i++)
		if (strlen(s->plugin_path[i]) == len && !strncmp(s->plugin_path[i], path, len))
			return 0;
	if (s->nr_plugins == SESSION_MAX_PLUGINS)
		return err_set(e, -SR_EUSAGE, "at most %d policy plugins", SESSION_MAX_PLUGINS);
	i = s->nr_plugins;
	memcpy(s->plugin_path[i], path, len);
	s->plugin_path[i][len] = '\0';
	s->plugins[i] = replay_plugin_open(s->plugin_path[i], e);
	if (!s->plugins[i])
		return e->code ? e->code : -SR_EUNSUPPORTED;
	s->nr_plugins = i + 1;
	return 0;
}

/* the items of a policy list that name a plugin by its path (they hold a '/') */
static int load_list_plugins(struct session *s, const char *list, struct err *e)
{
	const char *p = list;
	int ret;

	while (p && *p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (memchr(p, '/', len)) {
			ret = load_plugin(s, p, len, e);
			if (ret)
				return ret;
		}
		p = c ? c + 1 : NULL;
	}
	return 0;
}

int session_load_plugins(struct session *s, struct err *e)
{
	int i, ret;

	for (i = 0; i < s->opts.nr_plugins; i++) {
		ret = load_plugin(s, s->opts.plugins[i], strlen(s->opts.plugins[i]), e);
		if (ret)
			return ret;
	}
	ret = load_list_plugins(s, s->opts.old_list, e);
	if (!ret)
		ret = load_list_plugins(s, s->opts.new_list, e);
	if (!ret)
		ret = load_list_plugins(s, s->opts.kernel_policy, e);
	return ret;
}

int session_build_engine(struct session *s, struct err *e)
{
	bool used[SESSION_MAX_PARAMS] = { 0 };
	int i, ret;

	s->engine = engine_new();
	if (!s->engine)
		return err_set(e, -ENOMEM, "out of memory");
	ret = add_side(s, ENGINE_OLD, s->opts.old_list, false, used, e);
	if (!ret)
		ret = add_side(s, ENGINE_NEW, s->opts.new_list, false, used, e);
	if (!ret)
		ret = add_kernel_side(s, used, e);
	if (ret)
		return ret;
	for (i = 0; i < s->opts.nr_params; i++)
		if (!used[i])
			return err_set(e, -SR_EUSAGE,
				       "--param '%s': no chosen policy has that parameter",
				       s->opts.params[i]);
	return 0;
}
