// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-tui.c - the TUI without a terminal: the row store and its JSON
 * reader, filtering, sorting, search, the list layout, key scripts, and
 * the views drawn into the canvas, compared with golden dumps under
 * fixtures/tui/ (UPDATE_GOLDEN=1 rewrites them for review).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check-common.h"
#include "report/report-sink.h"
#include "tui/tui-local.h"

#define SMALL SR_FIXTURE("tui/report-small.json")

static struct tui_store *small_store(void)
{
	struct tui_store *s = tui_store_new();
	struct err e = { 0 };

	ck_assert_ptr_nonnull(s);
	ck_assert_msg(tui_store_load_json(s, SMALL, &e) == 0, "%s", e.msg);
	return s;
}

START_TEST(test_store_json)
{
	struct tui_store *s = small_store();
	const struct tui_header *h = tui_store_header(s);
	const struct tui_row *r0 = tui_store_row(s, 0), *r2 = tui_store_row(s, 2);
	const struct tui_verdict *v;

	ck_assert_uint_eq(tui_store_count(s), 6);
	ck_assert_str_eq(h->trace, "small/trace.dat");
	ck_assert_int_eq(h->nr_nodes, 2);
	ck_assert_int_eq(h->distance[0][1], 20);
	ck_assert_int_eq(h->mig_cost_ns, 500000);
	ck_assert_uint_eq(h->fid_reproduced, 2);
	ck_assert_uint_eq(h->fid_decisions, 3);
	/* cost summed over the rows that have it: 100+10+30 and 40+250+30 */
	ck_assert_int_eq(h->cost_old, 140);
	ck_assert_int_eq(h->cost_new, 320);
	ck_assert_uint_eq(h->nr_cost, 3);
	ck_assert(r0->flags & TUI_ROW_DISAGREE);
	ck_assert_int_eq(r0->cost_delta, -60);
	ck_assert(!(tui_store_row(s, 3)->flags & TUI_ROW_COST));
	/* the same verdict is interned once */
	ck_assert_uint_eq(r0->verdict[TUI_OLD], r2->verdict[TUI_OLD]);
	v = tui_store_verdict(s, r0->verdict[TUI_NEW]);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->verdict, SR_VERDICT_RESIST);
	ck_assert_int_eq(v->nr_reasons, 2);
	ck_assert_str_eq(tui_store_reason_name(s, v->reasons[0]), "degrades-locality");
	ck_assert_str_eq(tui_store_reason_text(s, v->reasons[0]), "the move degrades NUMA locality");
	/* missing-input reasons are spelled out too */
	v = tui_store_verdict(s, tui_store_row(s, 4)->verdict[TUI_OLD]);
	ck_assert_str_eq(tui_store_reason_text(s, v->reasons[0]),
			 "unknown: time since the task last ran");
	ck_assert_ptr_null(tui_store_verdict(s, tui_store_row(s, 3)->verdict[TUI_OLD]));
	ck_assert_ptr_null(tui_store_snap(s, r0));
	tui_store_free(s);
}
END_TEST

static int load_text(const char *text, struct err *e)
{
	char path[] = "/tmp/check-tui-XXXXXX";
	struct tui_store *s = tui_store_new();
	int fd = mkstemp(path), ret;
	FILE *f = fdopen(fd, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	ret = tui_store_load_json(s, path, e);
	unlink(path);
	tui_store_free(s);
	return ret;
}

/*
 * The store as a session's sink: beside the JSON sink in one run, it holds
 * the same decisions in the same order (trace order, though they arrive as
 * their costs complete) as the store read back from that JSON.
 */
START_TEST(test_store_sink)
{
	char path[] = "/tmp/check-tui-sink-XXXXXX";
	struct tui_store *live = tui_store_new(), *saved = tui_store_new();
	struct tui_store_sink ts = { .store = live };
	struct report_sink js = { .top = 10 };
	struct session_sink k[2] = { { &tui_store_sink_ops, &ts }, { &report_json_sink_ops, &js } };
	struct session_opts o;
	struct err e = { 0 };
	struct session *s;
	size_t i, n;
	int fd;

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	js.path = path;
	session_opts_init(&o);
	s = session_open(SR_FIXTURE("numa02-2n"), &o, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	ck_assert_int_eq(session_run(s, k, 2), 0);
	/* the listed decisions: placements kept everywhere are counted, not listed */
	n = tui_store_count(live);
	ck_assert_uint_le(n, session_decision_stats(s)->decisions);
	session_close(s);
	ck_assert_int_eq(tui_store_load_json(saved, path, &e), 0);
	ck_assert_uint_gt(n, 0);
	ck_assert_uint_eq(tui_store_count(live), n);
	ck_assert_uint_eq(tui_store_count(saved), n);
	for (i = 0; i < n; i++) {
		const struct tui_row *a = tui_store_row(live, i), *b = tui_store_row(saved, i);

		ck_assert_uint_eq(a->ts_ns, b->ts_ns);
		ck_assert_int_eq(a->tid, b->tid);
		ck_assert_int_eq(a->cls, b->cls);
		ck_assert_int_eq(a->cost_old, b->cost_old);
		ck_assert_int_eq(a->cost_new, b->cost_new);
	}
	ck_assert_int_eq(tui_store_header(live)->cost_old, tui_store_header(saved)->cost_old);
	tui_store_sink_release(&ts);
	report_sink_release(&js);
	tui_store_free(live);
	tui_store_free(saved);
	unlink(path);
}
END_TEST

START_TEST(test_store_json_errors)
{
	struct err e = { 0 };

	ck_assert_int_eq(load_text("{\"trace\": {}, \"decisions\": [ {\"class\": \"lb-pull\", "
				   "\"ts_ns\": 5}, {\"class\": \"nope\", \"ts_ns\": 1} ]}", &e),
			 -SR_EBADTEXT);
	ck_assert_str_eq(e.where, "byte 63");
	ck_assert(strstr(e.msg, "class"));
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(load_text("{\"trace\": {}, \"decisions\": [ {\"class\": ", &e),
			 -SR_EBADTEXT);
	ck_assert(e.where[0]);
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(load_text("{\"trace\": {}}", &e), -SR_EBADTEXT);
	ck_assert(strstr(e.msg, "not a replay report"));
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(load_text("[1,2]", &e), -SR_EBADTEXT);
	ck_assert_str_eq(e.where, "byte 0");
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(load_text("{\"trace\": {}, \"decisions\": []} x", &e), -SR_EBADTEXT);
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(load_text("", &e), -SR_EEMPTY);
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(load_text("{\"trace\": {}, \"decisions\": []}", &e), 0);
}
END_TEST

/*
 * Found by fuzz-tui-json: a real number too large for an int64 (1.61e302)
 * was converted to one (undefined).  It is now taken as absent.
 */
START_TEST(test_store_json_huge_reals)
{
	static const char doc[] =
		"{\"trace\": {\"cpus\": 1e300, \"nodes\": -1e300},"
		" \"summary\": {\"decisions\": 161e300},"
		" \"decisions\": [ {\"class\": \"lb-pull\", \"ts_ns\": 5, \"tid\": 1e300,"
		" \"tgid\": -1e300, \"partner_tid\": 2.4,"
		" \"cost\": {\"old\": 1e300, \"new\": 3.6, \"delta\": null}},"
		" {\"class\": \"lb-pull\", \"ts_ns\": 6,"
		" \"cost\": {\"old\": -9223372036854775808, \"new\": 4}},"
		" {\"class\": \"lb-pull\", \"ts_ns\": 7,"
		" \"cost\": {\"old\": 9007199254740992, \"new\": -9007199254740992}} ]}";
	char path[] = "/tmp/check-tui-XXXXXX";
	struct tui_store *s = tui_store_new();
	const struct tui_row *r;
	struct err e = { 0 };
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	ck_assert_ptr_nonnull(f);
	fputs(doc, f);
	fclose(f);
	ck_assert_msg(tui_store_load_json(s, path, &e) == 0, "%s", e.msg);
	unlink(path);
	ck_assert_uint_eq(tui_store_count(s), 3);
	r = tui_store_row(s, 0);
	ck_assert_int_eq(r->tid, 0);
	ck_assert_int_eq(r->partner_tid, 2);
	/* a cost past 2^53 is no cost; at 2^53 the delta still fits */
	ck_assert(!(r->flags & TUI_ROW_COST));
	ck_assert(!(tui_store_row(s, 1)->flags & TUI_ROW_COST));
	r = tui_store_row(s, 2);
	ck_assert(r->flags & TUI_ROW_COST);
	ck_assert(r->cost_delta == -((int64_t)1 << 54));
	ck_assert_int_eq(tui_store_header(s)->nr_cpus, 0);
	ck_assert_uint_eq(tui_store_header(s)->decisions, 0);
	tui_store_free(s);
}
END_TEST

START_TEST(test_filter)
{
	struct tui_store *s = small_store();
	struct tui_list l;

	tui_list_init(&l, s);
	ck_assert_int_eq(tui_list_rebuild(&l), 0);
	ck_assert_uint_eq(l.nr, 6);
	l.disagree_only = true;
	tui_list_rebuild(&l);
	ck_assert_uint_eq(l.nr, 2);
	ck_assert_uint_eq(l.idx[0], 0);
	ck_assert_uint_eq(l.idx[1], 1);
	l.disagree_only = false;
	l.cls = SR_DECISION_CLASS_LB_PULL;
	tui_list_rebuild(&l);
	ck_assert_uint_eq(l.nr, 3);
	l.cls = -1;
	l.range = true;
	l.t0 = 1500000000;
	l.t1 = 2500000000;
	tui_list_rebuild(&l);
	ck_assert_uint_eq(l.nr, 3);
	ck_assert_uint_eq(l.idx[0], 1);
	l.range = false;
	l.src_node = 1;
	l.dst_node = 0;
	tui_list_rebuild(&l);
	ck_assert_uint_eq(l.nr, 2);
	/* the cursor stays on its row across a rebuild */
	l.src_node = l.dst_node = -1;
	l.cursor = 1;	/* row 3 */
	tui_list_rebuild(&l);
	ck_assert_uint_eq(l.idx[l.cursor], 3);
	tui_list_release(&l);
	tui_store_free(s);
}
END_TEST

START_TEST(test_sort)
{
	struct tui_store *s = small_store();
	struct tui_list l;

	tui_list_init(&l, s);
	l.sort = TUI_SORT_COST;
	tui_list_rebuild(&l);
	/* deltas: row0 -60, row1 +240, row2 0; rows without cost last, in trace order */
	ck_assert_uint_eq(l.idx[0], 1);
	ck_assert_uint_eq(l.idx[1], 2);
	ck_assert_uint_eq(l.idx[2], 0);
	ck_assert_uint_eq(l.idx[3], 3);
	ck_assert_uint_eq(l.idx[5], 5);
	l.sort = TUI_SORT_TASK;
	tui_list_rebuild(&l);
	/* db, evil..., nb-w1, sh, worker(101), worker(103) */
	ck_assert_uint_eq(l.idx[0], 4);
	ck_assert_uint_eq(l.idx[1], 1);
	ck_assert_uint_eq(l.idx[4], 0);
	ck_assert_uint_eq(l.idx[5], 2);
	tui_list_release(&l);
	tui_store_free(s);
}
END_TEST

START_TEST(test_search)
{
	struct tui_store *s = small_store();
	struct tui_list l;

	tui_list_init(&l, s);
	tui_list_rebuild(&l);
	strcpy(l.search, "work");
	ck_assert_int_eq(tui_list_find(&l, 0, 1), 2);
	ck_assert_int_eq(tui_list_find(&l, 2, 1), 0);	/* wraps */
	ck_assert_int_eq(tui_list_find(&l, 0, -1), 2);
	strcpy(l.search, "105");
	ck_assert_int_eq(tui_list_find(&l, 0, 1), 4);
	strcpy(l.search, "nothing");
	ck_assert_int_eq(tui_list_find(&l, 0, 1), -1);
	l.search[0] = '\0';
	ck_assert_int_eq(tui_list_find(&l, 0, 1), -1);
	tui_list_release(&l);
	tui_store_free(s);
}
END_TEST

START_TEST(test_layout)
{
	struct tui_list_cols c;

	tui_list_layout(&c, 80);
	ck_assert_int_ge(c.task, 8);
	ck_assert_int_gt(c.node, 0);
	ck_assert_int_gt(c.cost, 0);
	ck_assert_int_le(c.mark + c.time + c.cls + c.task + c.tid + c.cpu + c.node + c.old +
			 c.new_ + c.cost + 8, 80);
	tui_list_layout(&c, 200);
	ck_assert_int_eq(c.task, 24);
	tui_list_layout(&c, 70);
	ck_assert_int_eq(c.node, 0);
	ck_assert_int_ge(c.task, 8);
	tui_list_layout(&c, 40);
	ck_assert_int_eq(c.node, 0);
	ck_assert_int_eq(c.tid, 0);
	ck_assert_int_eq(c.cost, 0);
}
END_TEST

START_TEST(test_keys)
{
	struct tui_key_ev *k;
	struct err e = { 0 };
	size_t n;

	ck_assert_int_eq(tui_keys_parse("j Down /ab Enter Resize:100x30 Space", &k, &n, &e), 0);
	ck_assert_uint_eq(n, 8);
	ck_assert_int_eq(k[0].key, 'j');
	ck_assert_int_eq(k[1].key, TUI_KEY_DOWN);
	ck_assert_int_eq(k[2].key, '/');
	ck_assert_int_eq(k[4].key, 'b');
	ck_assert_int_eq(k[5].key, TUI_KEY_ENTER);
	ck_assert_int_eq(k[5].key, TUI_KEY_ENTER);
	free(k);
	ck_assert_int_eq(tui_keys_parse("Resize:100x30 Space", &k, &n, &e), 0);
	ck_assert_int_eq(k[0].key, TUI_KEY_RESIZE);
	ck_assert_int_eq(k[0].w, 100);
	ck_assert_int_eq(k[0].h, 30);
	ck_assert_int_eq(k[1].key, ' ');
	free(k);
	ck_assert_int_eq(tui_keys_parse("Resize:0x3", &k, &n, &e), -SR_EUSAGE);
	ck_assert_int_eq(tui_keys_parse("a\x01", &k, &n, &e), -SR_EUSAGE);
}
END_TEST

/* The canvas holds no control character, whatever the task name held. */
START_TEST(test_escape)
{
	struct tui_canvas c = { 0 };
	int x, y;

	ck_assert_int_eq(tui_canvas_resize(&c, 30, 2), 0);
	tui_canvas_put_untrusted(&c, 0, 0, -1, TUI_ST_NORMAL, "a\x1b[31mb\x07\xff", 16);
	for (y = 0; y < c.h; y++)
		for (x = 0; x < c.w; x++)
			ck_assert_uint_ge(tui_canvas_cell(&c, y, x)->ch, 0x20);
	ck_assert_uint_eq(tui_canvas_cell(&c, 0, 1)->ch, '\\');
	ck_assert_uint_eq(tui_canvas_cell(&c, 0, 2)->ch, 'x');
	/* a wide character takes two cells and is never split at the edge */
	ck_assert_int_eq(tui_canvas_put(&c, 1, 27, -1, TUI_ST_NORMAL, "日本"), 2);
	ck_assert_uint_eq(tui_canvas_cell(&c, 1, 28)->ch, TUI_CELL_CONT);
	tui_canvas_release(&c);
}
END_TEST

/* Run @keys headless at @w x @h; compare the dump with fixtures/tui/@name.txt. */
static void golden(const char *name, const char *keys, int w, int h)
{
	struct tui_store *s = small_store();
	struct tui_app_opts ao = { 0 };
	struct tui_app *a = tui_app_new(s, &ao);
	struct tui_run_opts ro = { .w = w, .h = h, .styles = true };
	struct tui_key_ev *k = NULL;
	struct err e = { 0 };
	char path[512], *got = NULL, *want = NULL;
	size_t glen = 0, wlen = 0;
	FILE *f;

	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(tui_keys_parse(keys, &k, &ro.nr_keys, &e), 0);
	ro.keys = k;
	ro.dump = open_memstream(&got, &glen);
	ck_assert_int_eq(tui_run_headless(a, &ro), 0);
	fclose(ro.dump);
	snprintf(path, sizeof(path), "%s/%s.txt", SR_FIXTURE("tui"), name);
	if (getenv("UPDATE_GOLDEN") && !strcmp(getenv("UPDATE_GOLDEN"), "1")) {
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fwrite(got, 1, glen, f);
		fclose(f);
	}
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "no golden %s (UPDATE_GOLDEN=1 writes it)", path);
	want = malloc(glen + 2);
	wlen = fread(want, 1, glen + 1, f);
	fclose(f);
	ck_assert_msg(wlen == glen && !memcmp(want, got, glen), "%s differs; got:\n%s", name, got);
	free(want);
	free(got);
	free(k);
	tui_app_free(a);
	tui_store_free(s);
}

START_TEST(test_golden_list)
{
	golden("list", "j", 100, 16);
}
END_TEST

START_TEST(test_golden_disagree_detail)
{
	golden("disagree-detail", "d j Enter", 100, 30);
}
END_TEST

START_TEST(test_golden_search_sort)
{
	golden("search-sort", "s /worker Enter", 100, 16);
}
END_TEST

START_TEST(test_golden_matrix)
{
	golden("matrix", "Tab Space j", 100, 16);
}
END_TEST

START_TEST(test_golden_timeline)
{
	golden("timeline", "Tab Tab Space L L L Enter", 100, 24);
}
END_TEST

START_TEST(test_golden_help_small)
{
	golden("help-resize", "Resize:120x40 ? Resize:60x36", 80, 24);
}
END_TEST

/* A cursor move repaints two rows; the screen must equal a full repaint. */
START_TEST(test_partial_redraw)
{
	struct tui_store *s = small_store();
	struct tui_app *a = tui_app_new(s, NULL), *b = tui_app_new(s, NULL);
	struct tui_canvas *ca, *cb;
	int i;

	tui_app_resize(a, 90, 14);
	tui_app_resize(b, 90, 14);
	tui_app_draw(a, true);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(tui_app_key(a, 'j'), TUI_REDRAW_LINE);
		tui_app_draw(a, false);
		tui_app_key(b, 'j');
	}
	ck_assert_uint_eq(tui_app_key(a, 'k'), TUI_REDRAW_LINE);
	tui_app_draw(a, false);
	tui_app_key(b, 'k');
	tui_app_draw(b, true);
	ca = tui_app_canvas(a);
	cb = tui_app_canvas(b);
	ck_assert_int_eq(memcmp(ca->cells, cb->cells, (size_t)ca->w * (size_t)ca->h *
				sizeof(*ca->cells)), 0);
	tui_app_free(a);
	tui_app_free(b);
	tui_store_free(s);
}
END_TEST

START_TEST(test_quit_and_back)
{
	struct tui_store *s = small_store();
	struct tui_app *a = tui_app_new(s, NULL);

	ck_assert(tui_app_key(a, TUI_KEY_ENTER) & TUI_REDRAW_VIEW);
	ck_assert_str_eq(tui_app_view_name(a), "detail");
	ck_assert(!(tui_app_key(a, 'q') & TUI_QUIT));
	ck_assert_str_eq(tui_app_view_name(a), "list");
	tui_app_key(a, 'd');
	ck_assert_uint_eq(tui_app_list(a)->nr, 2);
	/* Esc in a filtered list clears the filters, then quits */
	ck_assert(!(tui_app_key(a, TUI_KEY_ESC) & TUI_QUIT));
	ck_assert_uint_eq(tui_app_list(a)->nr, 6);
	ck_assert(tui_app_key(a, TUI_KEY_ESC) & TUI_QUIT);
	ck_assert(tui_app_key(a, 'q') & TUI_QUIT);
	tui_app_free(a);
	tui_store_free(s);
}
END_TEST

static Suite *tui_suite(void)
{
	Suite *s = suite_create("tui");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_store_json);
	tcase_add_test(tc, test_store_json_errors);
	tcase_add_test(tc, test_store_json_huge_reals);
	tcase_add_test(tc, test_filter);
	tcase_add_test(tc, test_sort);
	tcase_add_test(tc, test_search);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_keys);
	tcase_add_test(tc, test_escape);
	tcase_add_test(tc, test_partial_redraw);
	tcase_add_test(tc, test_quit_and_back);
	suite_add_tcase(s, tc);
	/* a whole replay of a real trace: seconds under load, more under ASan */
	tc = tcase_create("sink");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_store_sink);
	suite_add_tcase(s, tc);

	tc = tcase_create("golden");
	tcase_add_test(tc, test_golden_list);
	tcase_add_test(tc, test_golden_disagree_detail);
	tcase_add_test(tc, test_golden_search_sort);
	tcase_add_test(tc, test_golden_matrix);
	tcase_add_test(tc, test_golden_timeline);
	tcase_add_test(tc, test_golden_help_small);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(tui_suite)
