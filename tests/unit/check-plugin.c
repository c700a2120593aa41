// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-plugin.c - the plugin loader (replay/plugin.c) and ops-table
 * validation.
 *
 * Loads the documented example plugin (docs/examples/policy-example.c) and
 * runs it through a policy instance, then the broken plugins under
 * tests/plugins/: wrong ABI major, no entry symbol, ops size short of
 * evaluate, a built-in's name; plus files that are not plugins at all.  The
 * plugins are built by tests/CMakeLists.txt into SR_TEST_PLUGIN_DIR.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "check-common.h"
#include "replay/replay.h"

#define PLUGIN(name) SR_TEST_PLUGIN_DIR "/" name ".so"

START_TEST(test_example_plugin)
{
	struct err err = { 0 };
	struct replay_plugin *pl = replay_plugin_open(PLUGIN("policy-example"), &err);
	const struct sr_policy_ops *ops;
	struct replay_policy *pol;
	struct sr_snapshot snap;
	struct sr_verdict out;

	ck_assert_msg(pl != NULL, "%s", err.msg);
	ops = replay_plugin_ops(pl);
	ck_assert_str_eq(ops->name, "lb-idle-dst-wins");
	ck_assert_str_eq(replay_plugin_path(pl), PLUGIN("policy-example"));
	ck_assert_int_eq(replay_param_count(ops), 3);
	ck_assert_ptr_null(replay_registry_lookup(ops->name));

	pol = replay_policy_new(ops);
	ck_assert_ptr_nonnull(pol);
	ck_assert_int_eq(replay_policy_set_param(pol, "hot_ns=250000", &err), 0);
	ck_assert_int_eq(replay_policy_set_param(pol, "hot_ns=oops", &err), -SR_ERANGE);
	err_clear(&err);
	ck_assert_int_eq(replay_policy_start(pol, &err), 0);

	replay_snapshot_init(&snap);
	snap.known = SR_SNAP_CLASS | SR_SNAP_TASK_RUNNING | SR_SNAP_DST_IDLE | SR_SNAP_SINCE_RAN;
	snap.decision_class = SR_DECISION_CLASS_LB_PULL;
	snap.dst_idle = 1;
	snap.since_ran_ns = 1000;
	ck_assert_int_eq(replay_policy_evaluate(pol, &snap, &out, &err), 0);
	ck_assert_int_eq(out.verdict, SR_VERDICT_ALLOW);
	ck_assert_uint_eq(out.reasons[0], SR_REASON_PLUGIN_FIRST);
	ck_assert_str_eq(replay_reason_name(ops, out.reasons[0]), "dst-idle-wins");
	ck_assert_str_eq(replay_reason_description(ops, out.reasons[0]),
			 "the destination CPU was idle");
	ck_assert_str_eq(replay_reason_name(NULL, out.reasons[0]), "invalid");

	/* hot_ns=250000 came through init: 200 us ago is hot, 300 us ago is not */
	snap.dst_idle = 0;
	snap.since_ran_ns = 200000;
	ck_assert_int_eq(replay_policy_evaluate(pol, &snap, &out, &err), 0);
	ck_assert_int_eq(out.verdict, SR_VERDICT_RESIST);
	ck_assert_uint_eq(out.reasons[0], SR_REASON_TASK_HOT);
	snap.since_ran_ns = 300000;
	ck_assert_int_eq(replay_policy_evaluate(pol, &snap, &out, &err), 0);
	ck_assert_int_eq(out.verdict, SR_VERDICT_ALLOW);
	ck_assert_uint_eq(out.reasons[0], SR_REASON_TASK_COLD);

	snap.known &= ~SR_SNAP_DST_IDLE;
	ck_assert_int_eq(replay_policy_evaluate(pol, &snap, &out, &err), 0);
	ck_assert_int_eq(out.verdict, SR_VERDICT_UNKNOWN);
	ck_assert_str_eq(replay_reason_name(ops, out.reasons[0]), "missing-dst-idle");
	ck_assert(out.missing == SR_SNAP_DST_IDLE);

	snap.decision_class = SR_DECISION_CLASS_EXEC;
	ck_assert_int_eq(replay_policy_evaluate(pol, &snap, &out, &err), 0);
	ck_assert_int_eq(out.verdict, SR_VERDICT_NOT_APPLICABLE);

	replay_policy_free(pol);
	replay_plugin_close(pl);
}
END_TEST

/*
 * The example's choose(): in walk order it pulls the first task it allows;
 * with coldest_first the one that ran longest ago; a second pull of the
 * pass takes the next one.
 */
START_TEST(test_example_choose)
{
	static const struct {
		int		coldest;
		uint32_t	nr_pull;
		int		want_tid;	/* 0: pulls nothing */
	} rows[] = {
		{ 0, 1, 11 },	/* 10 is hot: the first allowed is 11 */
		{ 0, 2, 12 },
		{ 0, 3, 0 },	/* only two allowed */
		{ 1, 1, 12 },	/* 12 ran longest ago */
		{ 1, 2, 11 },
	};
	struct err err = { 0 };
	struct replay_plugin *pl = replay_plugin_open(PLUGIN("policy-example"), &err);
	struct sr_snapshot cand[3];
	struct sr_decision_point dp;
	struct sr_verdict out;
	size_t r;
	int i;

	ck_assert_msg(pl != NULL, "%s", err.msg);
	ck_assert_ptr_nonnull(replay_ops_choose(replay_plugin_ops(pl)));
	for (i = 0; i < 3; i++) {
		replay_snapshot_init(&cand[i]);
		cand[i].known = SR_SNAP_CLASS | SR_SNAP_TASK_RUNNING | SR_SNAP_DST_IDLE |
				SR_SNAP_SINCE_RAN;
		cand[i].decision_class = SR_DECISION_CLASS_LB_PULL;
		cand[i].tid = 10 + i;
	}
	cand[0].since_ran_ns = 1000;		/* hot */
	cand[1].since_ran_ns = 2000000;
	cand[2].since_ran_ns = 9000000;
	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct replay_policy *pol = replay_policy_new(replay_plugin_ops(pl));
		char assign[32];

		snprintf(assign, sizeof(assign), "coldest_first=%d", rows[r].coldest);
		ck_assert_int_eq(replay_policy_set_param(pol, assign, &err), 0);
		ck_assert_int_eq(replay_policy_start(pol, &err), 0);
		dp = (struct sr_decision_point){ .size = sizeof(dp), .snap = &cand[1], .nr_cand = 3,
						 .nr_pull = rows[r].nr_pull, .cand = cand,
						 .flags = SR_DP_RECONSTRUCTED };
		ck_assert_int_eq(replay_policy_choose(pol, &dp, &out, &err), 0);
		ck_assert_msg(out.target_tid == rows[r].want_tid, "row %zu: tid %d, want %d", r,
			      out.target_tid, rows[r].want_tid);
		ck_assert_int_eq(out.verdict, rows[r].want_tid ? SR_VERDICT_ALLOW : SR_VERDICT_RESIST);
		replay_policy_free(pol);
	}
	replay_plugin_close(pl);
}
END_TEST

/* -fvisibility=hidden: the entry symbol is the only thing exported */
START_TEST(test_example_exports_one_symbol)
{
	void *h = dlopen(PLUGIN("policy-example"), RTLD_NOW | RTLD_LOCAL);

	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_nonnull(dlsym(h, SR_POLICY_ENTRY_SYMBOL));
	ck_assert_ptr_null(dlsym(h, "example_evaluate"));
	ck_assert_ptr_null(dlsym(h, "example_ops"));
	dlclose(h);
}
END_TEST

static void expect_refused(const char *path, int code, const char *msg_part)
{
	struct err err = { 0 };
	struct replay_plugin *pl = replay_plugin_open(path, &err);
	char line[1200];

	ck_assert_msg(pl == NULL, "%s: loaded", path);
	ck_assert_msg(err.code == code, "%s: code %d (%s), expected %d", path, err.code, err.msg,
		      code);
	ck_assert_msg(strstr(err.msg, msg_part), "%s: message '%s' lacks '%s'", path, err.msg,
		      msg_part);
	/* one line that names the file */
	err_format(&err, line, sizeof(line));
	ck_assert_ptr_nonnull(strstr(line, path));
	ck_assert_ptr_null(strchr(line, '\n'));
}

START_TEST(test_wrong_abi_major)
{
	expect_refused(PLUGIN("plugin-bad-abi"), -SR_EUNSUPPORTED,
		       "policy ABI version 3.0, this schedreplay runs versions 1.x to 2.x");
}
END_TEST

/* a plugin built against ABI 1.2 loads, has no choose, and is walked for */
START_TEST(test_abi1_plugin)
{
	struct err err = { 0 };
	struct replay_plugin *pl = replay_plugin_open(PLUGIN("plugin-abi1"), &err);
	const struct sr_policy_ops *ops;

	ck_assert_msg(pl != NULL, "refused: %s", err.msg);
	ops = replay_plugin_ops(pl);
	ck_assert_str_eq(ops->name, "lb-abi1-first");
	ck_assert_int_eq(SR_POLICY_ABI_MAJOR_OF(ops->abi_version), 1);
	ck_assert_ptr_null(replay_ops_choose(ops));
	replay_plugin_close(pl);
}
END_TEST

START_TEST(test_missing_symbol)
{
	expect_refused(PLUGIN("plugin-no-entry"), -SR_ENOTFOUND,
		       "no symbol 'sr_policy_entry'");
}
END_TEST

START_TEST(test_size_too_small)
{
	expect_refused(PLUGIN("plugin-small-size"), -SR_EUNSUPPORTED, "smaller than");
}
END_TEST

START_TEST(test_builtin_name)
{
	expect_refused(PLUGIN("plugin-builtin-name"), -EEXIST, "like a built-in policy");
}
END_TEST

START_TEST(test_not_a_plugin)
{
	expect_refused(SR_TEST_PLUGIN_DIR "/does-not-exist.so", -SR_ENOTFOUND,
		       "cannot open policy plugin");
	expect_refused(SR_SOURCE_DIR "/CMakeLists.txt", -SR_ENOTFOUND,
		       "not an ELF shared object (at byte 0)");
	/* a bare name is refused before dlopen(), even one the loader finds */
	expect_refused("libc.so.6", -SR_ENOTFOUND, "named by its path, never searched for");
	expect_refused(SR_TEST_PLUGIN_DIR, -SR_ENOTFOUND, "must be a regular file");
	replay_plugin_close(NULL);
}
END_TEST

/* ---- replay_ops_check() on hand-made tables ---- */

static int ok_evaluate(const void *priv, const struct sr_snapshot *snap, struct sr_verdict *out)
{
	return 0;
}

static struct sr_policy_ops good_ops(void)
{
	struct sr_policy_ops o = {
		.abi_version = SR_POLICY_ABI_VERSION,
		.size = sizeof(struct sr_policy_ops),
		.name = "my-policy_1.0",
		.provenance = "test",
		.classes = SR_CLASS_BIT(SR_DECISION_CLASS_EXEC),
		.evaluate = ok_evaluate,
	};

	return o;
}

START_TEST(test_ops_check)
{
	static const struct sr_param_desc bad_default[] = {
		{ .name = "x", .type = SR_PARAM_INT, .def = 5, .min = 0, .max = 4 },
		{ .name = NULL },
	};
	static const struct sr_param_desc bad_bool[] = {
		{ .name = "x", .type = SR_PARAM_BOOL, .def = 2, .min = 0, .max = 1 },
		{ .name = NULL },
	};
	static const struct sr_param_desc bad_type[] = {
		{ .name = "x", .type = 7, .def = 0 },
		{ .name = NULL },
	};
	static const struct sr_param_desc dup[] = {
		{ .name = "x", .type = SR_PARAM_BOOL, .def = 0, .min = 0, .max = 1 },
		{ .name = "x", .type = SR_PARAM_BOOL, .def = 0, .min = 0, .max = 1 },
		{ .name = NULL },
	};
	static const struct sr_param_desc bad_name[] = {
		{ .name = "a=b", .type = SR_PARAM_BOOL, .def = 0, .min = 0, .max = 1 },
		{ .name = NULL },
	};
	static struct sr_param_desc too_many[SR_MAX_PARAMS + 2];
	static char names[SR_MAX_PARAMS + 1][8];
	struct err err = { 0 };
	struct sr_policy_ops o;
	int i;

	o = good_ops();
	ck_assert_int_eq(replay_ops_check(&o, &err), 0);
	ck_assert_int_eq(replay_ops_check(NULL, &err), -SR_EUNSUPPORTED);
	err_clear(&err);

	o = good_ops();
	o.abi_version = (SR_POLICY_ABI_MAJOR << 16) | 7;	/* newer minor: fine */
	ck_assert_int_eq(replay_ops_check(&o, &err), 0);
	o.abi_version = 0;
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	err_clear(&err);
	o.abi_version = (1 << 16) | 2;	/* the oldest major still run */
	ck_assert_int_eq(replay_ops_check(&o, &err), 0);
	o.abi_version = ((SR_POLICY_ABI_MAJOR + 1) << 16);
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "runs versions 1.x to 2.x"));
	err_clear(&err);

	o = good_ops();
	o.size = offsetof(struct sr_policy_ops, evaluate) + sizeof(o.evaluate);
	ck_assert_int_eq(replay_ops_check(&o, &err), 0);
	o.size--;
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	err_clear(&err);

	o = good_ops();
	o.name = "Bad Name";
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	err_clear(&err);
	o.name = "";
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	err_clear(&err);
	o.name = NULL;
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	err_clear(&err);

	o = good_ops();
	o.evaluate = NULL;
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "no evaluate hook"));
	err_clear(&err);

	o = good_ops();
	o.classes = 0;
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	err_clear(&err);
	o.classes = 1u << SR_DECISION_CLASS__COUNT;
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	err_clear(&err);

	o = good_ops();
	o.params = bad_default;
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	err_clear(&err);
	o.params = bad_bool;
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	err_clear(&err);
	o.params = bad_type;
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	err_clear(&err);
	o.params = dup;
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "declared twice"));
	err_clear(&err);
	o.params = bad_name;
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	err_clear(&err);

	for (i = 0; i <= SR_MAX_PARAMS; i++) {
		snprintf(names[i], sizeof(names[i]), "p%d", i);
		too_many[i].name = names[i];
		too_many[i].type = SR_PARAM_BOOL;
		too_many[i].max = 1;
	}
	o.params = too_many;
	ck_assert_int_eq(replay_ops_check(&o, &err), -SR_EUNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(err.msg, "more than"));
}
END_TEST

/*
 * replay_policy_same(): which instances give the same verdicts, so that the
 * engine evaluates one of them (engine_evaluate()): one built-in with the
 * same parameters, started; never two instances of a plugin
 */
static struct replay_policy *started(const struct sr_policy_ops *ops, const char *assign)
{
	struct err err = { 0 };
	struct replay_policy *pol = replay_policy_new(ops);

	ck_assert_ptr_nonnull(pol);
	if (assign)
		ck_assert_int_eq(replay_policy_set_param(pol, assign, &err), 0);
	ck_assert_int_eq(replay_policy_start(pol, &err), 0);
	return pol;
}

START_TEST(test_policy_same)
{
	const struct sr_policy_ops *w61 = replay_registry_lookup("wakeup-v6.1");
	const struct sr_policy_ops *w519 = replay_registry_lookup("wakeup-v5.19");
	struct err err = { 0 };
	struct replay_plugin *pl = replay_plugin_open(PLUGIN("policy-example"), &err);
	struct replay_policy *a, *b, *c, *d, *p1, *p2, *fresh;

	ck_assert(w61 && w519);
	ck_assert_msg(pl != NULL, "%s", err.msg);
	a = started(w61, NULL);
	b = started(w61, NULL);
	c = started(w61, "imbalance_pct=150");
	d = started(w519, NULL);
	p1 = started(replay_plugin_ops(pl), NULL);
	p2 = started(replay_plugin_ops(pl), NULL);
	fresh = replay_policy_new(w61);
	ck_assert(replay_policy_same(a, a));
	ck_assert(replay_policy_same(a, b));
	ck_assert(replay_policy_same(b, a));
	ck_assert(!replay_policy_same(a, c));	/* a parameter apart */
	ck_assert(!replay_policy_same(a, d));	/* another policy */
	ck_assert(!replay_policy_same(a, NULL));
	ck_assert(!replay_policy_same(NULL, NULL));
	ck_assert(!replay_policy_same(a, fresh));	/* not started */
	ck_assert(replay_policy_same(p1, p1));
	ck_assert(!replay_policy_same(p1, p2));	/* a plugin's instances: not taken on trust */
	replay_policy_free(a);
	replay_policy_free(b);
	replay_policy_free(c);
	replay_policy_free(d);
	replay_policy_free(p1);
	replay_policy_free(p2);
	replay_policy_free(fresh);
	replay_plugin_close(pl);
}
END_TEST

static Suite *plugin_suite(void)
{
	Suite *s = suite_create("plugin");
	TCase *tc = tcase_create("load");

	tcase_add_test(tc, test_example_plugin);
	tcase_add_test(tc, test_policy_same);
	tcase_add_test(tc, test_example_exports_one_symbol);
	tcase_add_test(tc, test_wrong_abi_major);
	tcase_add_test(tc, test_abi1_plugin);
	tcase_add_test(tc, test_example_choose);
	tcase_add_test(tc, test_missing_symbol);
	tcase_add_test(tc, test_size_too_small);
	tcase_add_test(tc, test_builtin_name);
	tcase_add_test(tc, test_not_a_plugin);
	suite_add_tcase(s, tc);

	tc = tcase_create("ops_check");
	tcase_add_test(tc, test_ops_check);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(plugin_suite)
