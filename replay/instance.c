// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * instance.c - a configured policy: an ops table, its parameter values and
 * the private state its init built.
 *
 * Lifecycle: replay_policy_new() (defaults) -> replay_policy_set_param()*
 * -> replay_policy_start() (init; values frozen) -> replay_policy_evaluate()*
 * -> replay_policy_free() (fini).  When the policy has no init hook, its
 * priv is the instance's own struct sr_param_values, as sr-policy.h
 * documents.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

struct replay_policy {
	const struct sr_policy_ops	*ops;
	struct sr_param_values		vals;
	char				source[SR_MAX_PARAMS][96];	/* "" = default */
	void				*priv;
	bool				started;
};

struct replay_policy *replay_policy_new(const struct sr_policy_ops *ops)
{
	struct replay_policy *pol;

	if (!ops)
		return NULL;
	pol = calloc(1, sizeof(*pol));
	if (!pol)
		return NULL;
	pol->ops = ops;
	replay_params_defaults(ops, &pol->vals);
	return pol;
}

int replay_policy_set_param(struct replay_policy *pol, const char *assign, struct err *err)
{
	if (pol->started)
		return err_set(err, -EBUSY, "policy '%s' already started: parameters are frozen",
			       pol->ops->name);
	return replay_param_parse(pol->ops, &pol->vals, assign, err);
}

int replay_policy_set_source(struct replay_policy *pol, const char *name, const char *source)
{
	int i = replay_param_index(pol->ops, name);

	if (i < 0 || i >= SR_MAX_PARAMS)
		return -SR_ENOTFOUND;
	snprintf(pol->source[i], sizeof(pol->source[i]), "%s", source ? source : "");
	return 0;
}

const char *replay_policy_param_source(const struct replay_policy *pol, int i)
{
	if (i < 0 || i >= SR_MAX_PARAMS || !pol->source[i][0])
		return NULL;
	return pol->source[i];
}

int replay_policy_start(struct replay_policy *pol, struct err *err)
{
	int ret;

	if (pol->started)
		return 0;
	if (pol->ops->init) {
		pol->priv = NULL;
		ret = pol->ops->init(&pol->priv, &pol->vals);
		if (ret < 0)
			return err_set(err, ret, "policy '%s': init failed: %s", pol->ops->name,
				       sr_strerror(ret));
	} else {
		pol->priv = &pol->vals;
	}
	pol->started = true;
	return 0;
}

bool replay_policy_same(const struct replay_policy *a, const struct replay_policy *b)
{
	size_t i;

	if (!a || !b)
		return false;
	if (a == b)
		return true;
	if (a->ops != b->ops || !a->started || !b->started ||
	    memcmp(&a->vals, &b->vals, sizeof(a->vals)))
		return false;
	for (i = 0; i < replay_registry_count(); i++)
		if (replay_registry_get(i) == a->ops)
			return true;
	return false;
}

int replay_policy_evaluate(const struct replay_policy *pol, const struct sr_snapshot *snap,
			   struct sr_verdict *out, struct err *err)
{
	int ret;

	if (!pol->started)
		return err_set(err, -EINVAL, "policy '%s' evaluated before start",
			       pol->ops->name);
	replay_verdict_init(out);
	ret = pol->ops->evaluate(pol->priv, snap, out);
	if (ret < 0)
		return err_set(err, ret, "policy '%s': evaluate failed: %s", pol->ops->name,
			       sr_strerror(ret));
	if (out->verdict < SR_VERDICT_NOT_APPLICABLE || out->verdict > SR_VERDICT_UNKNOWN)
		return err_set(err, -SR_EUNSUPPORTED, "policy '%s' returned verdict %d",
			       pol->ops->name, out->verdict);
	if (out->nr_reasons > SR_MAX_REASONS)
		return err_set(err, -SR_EUNSUPPORTED, "policy '%s' returned %u reasons (max %d)",
			       pol->ops->name, out->nr_reasons, SR_MAX_REASONS);
	return 0;
}

int replay_policy_choose(const struct replay_policy *pol, const struct sr_decision_point *dp,
			 struct sr_verdict *out, struct err *err)
{
	choose_fn choose = replay_ops_choose(pol->ops);
	uint32_t i;
	int ret;

	if (!pol->started)
		return err_set(err, -EINVAL, "policy '%s' evaluated before start",
			       pol->ops->name);
	replay_verdict_init(out);
	if (choose)
		ret = choose(pol->priv, dp, out);
	else
		ret = replay_candidates_walk(pol->ops->evaluate, pol->priv, dp, out);
	if (ret < 0)
		return err_set(err, ret, "policy '%s': %s failed: %s", pol->ops->name,
			       choose ? "choose" : "evaluate", sr_strerror(ret));
	if (out->verdict < SR_VERDICT_NOT_APPLICABLE || out->verdict > SR_VERDICT_UNKNOWN)
		return err_set(err, -SR_EUNSUPPORTED, "policy '%s' returned verdict %d",
			       pol->ops->name, out->verdict);
	if (out->nr_reasons > SR_MAX_REASONS)
		return err_set(err, -SR_EUNSUPPORTED, "policy '%s' returned %u reasons (max %d)",
			       pol->ops->name, out->nr_reasons, SR_MAX_REASONS);
	if (out->target_tid <= 0)
		return 0;
	for (i = 0; i < dp->nr_cand; i++)
		if (dp->cand[i].tid == out->target_tid)
			return 0;
	return err_set(err, -SR_EUNSUPPORTED, "policy '%s' chose task %d, which is not a candidate",
		       pol->ops->name, out->target_tid);
}

const struct sr_policy_ops *replay_policy_ops(const struct replay_policy *pol)
{
	return pol->ops;
}

const struct sr_param_values *replay_policy_values(const struct replay_policy *pol)
{
	return &pol->vals;
}

void replay_policy_free(struct replay_policy *pol)
{
	if (!pol)
		return;
	if (pol->started && pol->ops->init && pol->ops->fini)
		pol->ops->fini(pol->priv);
	free(pol);
}
