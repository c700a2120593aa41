/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.h - module API of replay/: the built-in policy table, parameter
 * parsing, policy instances, plugin loading, and the names of classes,
 * verdicts and reason codes.
 *
 * The ABI a policy implements is in include/schedreplay/sr-policy.h; this
 * header is what the engine and the CLI use to find, configure and run
 * policies.  Nothing here prints or exits: failures are recorded in a
 * struct err and returned as negative codes.
 */
#ifndef SR_REPLAY_REPLAY_H
#define SR_REPLAY_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedreplay/sr-policy.h>

#include "util/err.h"

/**
 * replay_class_name() - short name of a decision class
 * @cls: enum sr_decision_class
 *
 * Return: "numa-move", "numa-swap", "numa-stick", "exec", "fork", "wakeup",
 * "lb-pull", "lb-active", "other", or "invalid"; static, never NULL.
 */
const char *replay_class_name(int cls);

/**
 * replay_class_from_name() - decision class from its short name
 * @name: exact name as replay_class_name() writes it
 *
 * Return: the enum sr_decision_class value, or -1 when unknown.
 */
int replay_class_from_name(const char *name);

/**
 * replay_verdict_name() - "not-applicable", "allow", "resist" or "unknown"
 * @verdict: enum sr_verdict_kind
 *
 * Return: static string; "invalid" for other values.
 */
const char *replay_verdict_name(int verdict);

/**
 * replay_reason_name() - short name of a reason code
 * @ops:  the policy that returned it, for plugin-defined codes; may be NULL
 * @code: enum sr_reason value
 *
 * Missing-input codes are named "missing-<field>" after the snapshot field.
 *
 * Return: a string borrowed from a static table or from @ops (valid while
 * @ops is loaded); "invalid" for a code nobody defines.
 */
const char *replay_reason_name(const struct sr_policy_ops *ops, unsigned int code);

/**
 * replay_reason_description() - one line in words for a reason code
 * @ops:  as for replay_reason_name()
 * @code: enum sr_reason value
 *
 * Return: as for replay_reason_name(); missing-input codes return the
 * field's description (the caller adds "unknown: ").
 */
const char *replay_reason_description(const struct sr_policy_ops *ops, unsigned int code);

/**
 * replay_snap_field_name() - short name of a snapshot field
 * @bit: enum sr_snap_bit
 *
 * Return: static string ("pref-node"), "invalid" when out of range.
 */
const char *replay_snap_field_name(int bit);

/**
 * replay_snap_field_description() - what a snapshot field holds, in words
 * @bit: enum sr_snap_bit
 *
 * Return: static string, "invalid" when out of range.
 */
const char *replay_snap_field_description(int bit);

/**
 * replay_registry_count() - number of built-in policies
 *
 * Return: the count; built-ins are indexed 0..count-1 in a fixed order.
 */
size_t replay_registry_count(void);

/**
 * replay_registry_get() - a built-in policy by index
 * @i: 0..replay_registry_count()-1
 *
 * Return: borrowed, static; NULL when @i is out of range.
 */
const struct sr_policy_ops *replay_registry_get(size_t i);

/**
 * replay_registry_lookup() - a built-in policy by exact name
 * @name: e.g. "lb-v4.1"; no prefix matching, no case folding
 *
 * Return: borrowed, static; NULL when no built-in has that name.
 */
const struct sr_policy_ops *replay_registry_lookup(const char *name);

/**
 * replay_ops_check() - validate an ops table before use
 * @ops: the table (a built-in or a plugin's)
 * @err: error slot
 *
 * Checks the ABI major version, that @ops->size reaches evaluate, the name
 * (non-empty, lowercase letters, digits, '-', '.', '_'), the classes mask,
 * evaluate being set, and each parameter (name, type, default within
 * [min, max], at most SR_MAX_PARAMS).
 *
 * Return: 0, or -SR_EUNSUPPORTED with the reason in @err.
 */
int replay_ops_check(const struct sr_policy_ops *ops, struct err *err);

/**
 * replay_param_count() - entries in a policy's parameter table
 * @ops: the policy
 *
 * Return: the count (0 when @ops->params is NULL), at most SR_MAX_PARAMS
 * for a checked table.
 */
int replay_param_count(const struct sr_policy_ops *ops);

/**
 * replay_param_index() - position of a parameter in a policy's table
 * @ops:  the policy
 * @name: exact parameter name
 *
 * Return: 0..count-1, or -1 when the policy has no such parameter.
 */
int replay_param_index(const struct sr_policy_ops *ops, const char *name);

/**
 * replay_params_defaults() - fill @vals with a policy's defaults
 * @ops:  the policy
 * @vals: filled: nr = parameter count, v[i] = params[i].def, rest zero
 */
void replay_params_defaults(const struct sr_policy_ops *ops, struct sr_param_values *vals);

/**
 * replay_param_parse() - apply one "name=value" setting
 * @ops:    the policy whose table names the parameter
 * @vals:   values to update (filled by replay_params_defaults() first)
 * @assign: "name=value"; bool values 0/1/true/false/on/off/yes/no, int
 *          values decimal within the parameter's [min, max]
 * @err:    error slot, names the policy, parameter and value on failure
 *
 * Return: 0; -SR_EUSAGE when @assign has no '=' or an empty name;
 * -SR_ENOTFOUND for a parameter the policy does not have (@vals untouched);
 * -SR_ERANGE for a value that does not parse or is out of range.
 */
int replay_param_parse(const struct sr_policy_ops *ops, struct sr_param_values *vals,
		       const char *assign, struct err *err);

/**
 * replay_param_format() - write a parameter value as it would be typed
 * @desc: the parameter
 * @v:    its value
 * @buf:  destination
 * @len:  size of @buf
 *
 * Return: @buf, holding "true"/"false" for bools and a decimal otherwise.
 */
char *replay_param_format(const struct sr_param_desc *desc, int64_t v, char *buf, size_t len);

/**
 * replay_snapshot_init() - an empty snapshot: nothing known
 * @snap: filled with zeros, size = sizeof, every CPU/node id -1
 */
void replay_snapshot_init(struct sr_snapshot *snap);

/* sr_policy_ops.evaluate and .choose, as types */
typedef int (*evaluate_fn)(const void *priv, const struct sr_snapshot *snap,
			   struct sr_verdict *out);
typedef int (*choose_fn)(const void *priv, const struct sr_decision_point *dp,
			 struct sr_verdict *out);

/**
 * replay_ops_choose() - @ops's choose hook: NULL for an ABI 1 table, one
 * whose size does not reach it, or one that leaves it NULL
 */
choose_fn replay_ops_choose(const struct sr_policy_ops *ops);

/**
 * replay_candidates_walk() - the choice of a policy without choose(): walk
 * @dp->cand in order with @evaluate and pull the @dp->nr_pull-th candidate
 * allowed (replay/candidates.c)
 * @out: as for choose(): target_tid the task (verdict allow), or
 *       SR_CHOICE_NONE (verdict resist, reason all-refused) when it allows
 *       fewer; a candidate answered unknown before that gives its unknown
 *       verdict with target_tid SR_CHOICE_UNSAID.  A task other than the
 *       kernel's (dp->snap) is explained first by pulls-earlier or
 *       pulls-later, then by its own verdict's reasons.
 * Context: pure; calls @evaluate once per candidate looked at.
 * Return: 0, or what @evaluate returned when negative.
 */
int replay_candidates_walk(evaluate_fn evaluate, const void *priv,
			   const struct sr_decision_point *dp, struct sr_verdict *out);

/**
 * replay_verdict_init() - prepare a verdict for evaluate()
 * @out: zeroed; size set, verdict not-applicable, targets -1
 */
void replay_verdict_init(struct sr_verdict *out);

struct replay_policy;

/**
 * replay_policy_new() - an instance of a policy with its default parameters
 * @ops: borrowed; must outlive the instance (for a plugin: keep the
 *       struct replay_plugin open until replay_policy_free())
 *
 * Return: owned (free with replay_policy_free()), or NULL when out of
 * memory.  Set parameters, then call replay_policy_start().
 */
struct replay_policy *replay_policy_new(const struct sr_policy_ops *ops);

/**
 * replay_policy_set_param() - replay_param_parse() on the instance
 * @pol:    the instance, not started yet
 * @assign: "name=value"
 * @err:    error slot
 *
 * Return: as replay_param_parse(); -EBUSY once started.
 */
int replay_policy_set_param(struct replay_policy *pol, const char *assign, struct err *err);

/**
 * replay_policy_set_source() - say where parameter @name's value came from
 * @pol:    the instance
 * @name:   a parameter of its table
 * @source: "recorded sysctl kernel.numa_balancing", "sched_features",
 *          "--param", ...; NULL or "" for the policy's default
 *
 * Only a label for the report: the value is set with replay_policy_set_param().
 * Return: 0, or -SR_ENOTFOUND when the policy has no such parameter.
 */
int replay_policy_set_source(struct replay_policy *pol, const char *name, const char *source);

/**
 * replay_policy_param_source() - where parameter @i (table order) came from
 * Return: borrowed, or NULL when it holds the policy's default.
 */
const char *replay_policy_param_source(const struct replay_policy *pol, int i);

/**
 * replay_policy_start() - freeze the parameters and run the policy's init
 * @pol: the instance
 * @err: error slot
 *
 * Return: 0, or the negative code init returned (recorded in @err).
 */
int replay_policy_start(struct replay_policy *pol, struct err *err);

/**
 * replay_policy_choose() - the task @pol pulls at a load-balance decision
 * point: its choose() hook (ABI 2) or, without one, replay_candidates_walk()
 * with its evaluate()
 * @out: initialised here; target_tid set as sr_policy_ops.choose says
 * Return: 0, or the policy's negative code (recorded in @err); a choice
 * naming a task that is not a candidate, or a verdict or reason chain out
 * of range, is -SR_EUNSUPPORTED.
 */
int replay_policy_choose(const struct replay_policy *pol, const struct sr_decision_point *dp,
			 struct sr_verdict *out, struct err *err);

/**
 * replay_policy_evaluate() - run the policy on one decision
 * @pol:  a started instance
 * @snap: the decision's snapshot, borrowed for the call
 * @out:  the verdict, initialised here before the policy runs
 * @err:  error slot
 *
 * Context: called once per decision; pure for built-ins.
 * Return: 0, -EINVAL when not started, or the policy's negative code
 * (recorded in @err).  A reason chain longer than SR_MAX_REASONS or a
 * verdict outside enum sr_verdict_kind is -SR_EUNSUPPORTED.
 */
int replay_policy_evaluate(const struct replay_policy *pol, const struct sr_snapshot *snap,
			   struct sr_verdict *out, struct err *err);

/**
 * replay_policy_ops() - the instance's ops table
 * @pol: the instance
 *
 * Return: borrowed, as passed to replay_policy_new().
 */
const struct sr_policy_ops *replay_policy_ops(const struct replay_policy *pol);

/**
 * replay_policy_same() - whether two started instances give the same
 * verdict on the same snapshot: the same instance, or two of one built-in
 * policy with the same parameter values (a built-in's evaluate reads only
 * its parameters and the snapshot, as the ABI asks of every policy; a
 * plugin's is taken at its word only for one instance)
 */
bool replay_policy_same(const struct replay_policy *a, const struct replay_policy *b);

/**
 * replay_policy_values() - the instance's parameter values
 * @pol: the instance
 *
 * Return: borrowed, valid until replay_policy_free().
 */
const struct sr_param_values *replay_policy_values(const struct replay_policy *pol);

/**
 * replay_policy_free() - run fini (when started) and free
 * @pol: the instance, or NULL
 */
void replay_policy_free(struct replay_policy *pol);

struct replay_plugin;

/**
 * replay_plugin_open() - load a policy plugin
 * @path: the path of a shared object exporting SR_POLICY_ENTRY_SYMBOL; a
 *        name without '/' is refused (never searched the dlopen() way), so
 *        pass "./x.so" for a file in the current directory; the file must
 *        be a regular ELF shared object, checked before dlopen()
 * @err:  error slot; names @path
 *
 * Loads with RTLD_NOW | RTLD_LOCAL, finds the symbol, checks the table with
 * replay_ops_check() and refuses a name a built-in already has.
 *
 * Return: owned (close with replay_plugin_close()), or NULL with @err set:
 * -SR_ENOTFOUND when the file cannot be loaded or lacks the symbol,
 * -SR_EUNSUPPORTED for a different ABI major, a too small ops size or an
 * invalid table, -EEXIST for a built-in's name.
 */
struct replay_plugin *replay_plugin_open(const char *path, struct err *err);

/**
 * replay_plugin_ops() - the plugin's ops table
 * @pl: an open plugin
 *
 * Return: borrowed, valid until replay_plugin_close().
 */
const struct sr_policy_ops *replay_plugin_ops(const struct replay_plugin *pl);

/**
 * replay_plugin_path() - the path the plugin was opened from
 * @pl: an open plugin
 *
 * Return: borrowed, valid until replay_plugin_close().
 */
const char *replay_plugin_path(const struct replay_plugin *pl);

/**
 * replay_plugin_close() - unload a plugin (NULL is fine)
 * @pl: the plugin; every instance using its ops must be freed first
 */
void replay_plugin_close(struct replay_plugin *pl);

#endif
