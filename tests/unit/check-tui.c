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
#include "tui/jscan.h"
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
	/* no cost totals in its summary: summed over the rows that have a cost,
	 * 100+10+30 and 40+250+30, in thousandths */
	ck_assert(h->have_summary);
	ck_assert(!h->have_cost);
	ck_assert_int_eq(h->cost_old, 140000);
	ck_assert_int_eq(h->cost_new, 320000);
	ck_assert_int_eq(h->cost_delta, 180000);
	ck_assert_uint_eq(h->nr_cost, 3);
	ck_assert(r0->flags & TUI_ROW_DISAGREE);
	ck_assert_int_eq(r0->cost_delta, -60000);
	/* flags of the report, and each row knows where its object is */
	ck_assert(tui_store_row(s, 3)->flags & TUI_ROW_LOST);
	ck_assert(tui_store_row(s, 5)->flags & TUI_ROW_UNSEEN);
	ck_assert_uint_eq(h->lost, 1);
	ck_assert_uint_eq(h->unseen, 1);
	ck_assert(r0->off != TUI_NO_OFF && r0->len > 0);
	{
		json_t *o = tui_store_read_decision(s, r2);

		ck_assert_ptr_nonnull(o);
		ck_assert_str_eq(json_string_value(json_object_get(o, "comm")), "worker");
		/* keys the browser does not know (a verdict's "choice") are kept, not refused */
		ck_assert(json_is_object(json_object_get(json_object_get(o, "old"), "choice")));
		json_decref(o);
	}
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

static int load_text_prog(const char *text, struct err *e, struct tui_progress *p)
{
	char path[] = "/tmp/check-tui-XXXXXX";
	struct tui_store *s = tui_store_new();
	int fd = mkstemp(path), ret;
	FILE *f = fdopen(fd, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	ret = tui_store_load_json(s, path, e);
	if (p)
		tui_store_progress(s, p);
	unlink(path);
	tui_store_free(s);
	return ret;
}

static int load_text(const char *text, struct err *e)
{
	return load_text_prog(text, e, NULL);
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
		/* one truth: the delta the saved report holds, not one made of rounded sides */
		ck_assert_int_eq(a->cost_delta, b->cost_delta);
		ck_assert_uint_eq(a->flags, b->flags);
	}
	ck_assert(tui_store_header(live)->have_cost);
	ck_assert_int_eq(tui_store_header(live)->cost_old, tui_store_header(saved)->cost_old);
	ck_assert_int_eq(tui_store_header(live)->cost_delta, tui_store_header(saved)->cost_delta);
	ck_assert_uint_eq(tui_store_header(live)->nr_cost, tui_store_header(saved)->nr_cost);
	tui_store_sink_release(&ts);
	report_sink_release(&js);
	tui_store_free(live);
	tui_store_free(saved);
	unlink(path);
}
END_TEST

START_TEST(test_store_json_errors)
{
	struct tui_progress p;
	struct err e = { 0 };

	ck_assert_int_eq(load_text("{\"trace\": {}, \"decisions\": [ {\"class\": \"lb-pull\", "
				   "\"ts_ns\": 5}, {\"class\": \"nope\", \"ts_ns\": 1} ]}", &e),
			 -SR_EBADTEXT);
	ck_assert_str_eq(e.where, "byte 63");
	ck_assert(strstr(e.msg, "class"));
	memset(&e, 0, sizeof(e));
	/* a report that ends early (still being written) opens with what is there */
	ck_assert_int_eq(load_text_prog("{\"trace\": {}, \"decisions\": [ {\"class\": \"exec\", "
					"\"ts_ns\": 5}, {\"class\": ", &e, &p), 0);
	ck_assert(p.truncated);
	ck_assert(!p.failed);
	ck_assert_uint_eq(p.rows, 1);
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(load_text("{\"trace\": {}, \"decisions\": [ {\"class\" 1} ]}", &e),
			 -SR_EBADTEXT);
	ck_assert_str_eq(e.where, "byte 38");
	memset(&e, 0, sizeof(e));
	/* NDJSON: one decision a line; a bad one is named by its byte */
	ck_assert_int_eq(load_text_prog("{\"class\": \"exec\", \"ts_ns\": 5}\n"
					"{\"class\": \"wakeup\", \"ts_ns\": 6}\n", &e, &p), 0);
	ck_assert_uint_eq(p.rows, 2);
	ck_assert(!p.truncated);
	ck_assert_int_eq(load_text("{\"class\": \"exec\", \"ts_ns\": 5}\n{\"class\": \"x\"}\n", &e),
			 -SR_EBADTEXT);
	ck_assert_str_eq(e.where, "byte 30");
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
		" \"cost\": {\"old\": 4503599627370496, \"new\": -4503599627370496}} ]}";
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
	/* a cost past 2^52 is no cost; at 2^52 the delta (in thousandths) still fits */
	ck_assert(!(r->flags & TUI_ROW_COST));
	ck_assert(!(tui_store_row(s, 1)->flags & TUI_ROW_COST));
	r = tui_store_row(s, 2);
	ck_assert(r->flags & TUI_ROW_COST);
	ck_assert(r->cost_delta == -((int64_t)1 << 53) * 1000);
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
	/* deltas: row0 -60, row1 +240, row2 0, by size: a -60 is bigger news than a 0;
	 * rows without cost last, in trace order */
	ck_assert_uint_eq(l.idx[0], 1);
	ck_assert_uint_eq(l.idx[1], 0);
	ck_assert_uint_eq(l.idx[2], 2);
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
	golden("disagree-detail", "j Enter", 100, 30);
}
END_TEST

START_TEST(test_golden_search_sort)
{
	golden("search-sort", "d s /worker Enter", 100, 16);
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

	/* it opens on the disagreements */
	ck_assert_uint_eq(tui_app_list(a)->nr, 2);
	ck_assert(tui_app_key(a, TUI_KEY_ENTER) & TUI_REDRAW_VIEW);
	ck_assert_str_eq(tui_app_view_name(a), "detail");
	ck_assert(!(tui_app_key(a, TUI_KEY_ESC) & TUI_QUIT));
	ck_assert_str_eq(tui_app_view_name(a), "list");
	/* Esc in a filtered list clears the filters; in the plain list it does nothing */
	ck_assert(!(tui_app_key(a, TUI_KEY_ESC) & TUI_QUIT));
	ck_assert_uint_eq(tui_app_list(a)->nr, 6);
	ck_assert(!(tui_app_key(a, TUI_KEY_ESC) & TUI_QUIT));
	ck_assert(!(tui_app_key(a, TUI_KEY_ESC) & TUI_QUIT));
	ck_assert_str_eq(tui_app_view_name(a), "list");
	/* help: Esc closes it, not the browser */
	tui_app_key(a, '?');
	ck_assert_str_eq(tui_app_view_name(a), "help");
	ck_assert(!(tui_app_key(a, TUI_KEY_ESC) & TUI_QUIT));
	ck_assert_str_eq(tui_app_view_name(a), "list");
	ck_assert(tui_app_key(a, 'q') & TUI_QUIT);
	tui_app_key(a, TUI_KEY_ENTER);
	ck_assert(tui_app_key(a, 'q') & TUI_QUIT);
	tui_app_free(a);
	tui_store_free(s);
}
END_TEST

/* ] and [ go from disagreement to disagreement in the whole list; u, w, o and t filter */
START_TEST(test_next_disagreement_and_flags)
{
	struct tui_store *s = small_store();
	struct tui_app *a = tui_app_new(s, NULL);
	struct tui_list *l = tui_app_list(a);

	tui_app_key(a, 'd');
	ck_assert(!l->disagree_only);
	ck_assert_uint_eq(l->nr, 6);
	tui_app_key(a, 'G');
	tui_app_key(a, '[');
	ck_assert_uint_eq(l->idx[l->cursor], 1);
	tui_app_key(a, '[');
	ck_assert_uint_eq(l->idx[l->cursor], 0);
	tui_app_key(a, '[');
	ck_assert_uint_eq(l->idx[l->cursor], 0);	/* none before: it stays */
	tui_app_key(a, ']');
	ck_assert_uint_eq(l->idx[l->cursor], 1);
	tui_app_key(a, 'o');
	ck_assert_uint_eq(l->nr, 1);
	ck_assert_uint_eq(l->idx[0], 5);
	tui_app_key(a, 'o');
	tui_app_key(a, 'w');
	ck_assert_uint_eq(l->nr, 1);
	ck_assert_uint_eq(l->idx[0], 3);
	tui_app_key(a, 'w');
	tui_app_key(a, 'u');
	ck_assert_uint_eq(l->nr, 1);
	ck_assert_uint_eq(l->idx[0], 4);
	tui_app_key(a, 'u');
	tui_app_key(a, 'g');
	tui_app_key(a, 't');	/* worker 101, the task of row 0 (row 2 is worker 103) */
	ck_assert_uint_eq(l->nr, 1);
	ck_assert_uint_eq(l->idx[0], 0);
	tui_app_key(a, 't');
	ck_assert_uint_eq(l->nr, 6);
	tui_app_free(a);
	tui_store_free(s);
}
END_TEST

/* The index reader: escapes, nesting, numbers, and where the input is cut */
START_TEST(test_jscan)
{
	static const char doc[] = "{\"a\": [1, -2.5e1, true, null], \"s\": \"x\\u00e9\\n\\\"\", "
				  "\"o\": {\"k\": {}}}";
	struct js_doc d = { 0 };
	const struct js_node *n;
	const char *what = NULL;
	size_t pos = 0, cut;
	char buf[16];

	ck_assert_int_eq(js_parse(&d, doc, sizeof(doc) - 1, &pos, &what), 0);
	ck_assert_uint_eq(pos, sizeof(doc) - 1);
	n = js_child(&d, js_get(&d, &d.n[1], "a"));
	ck_assert_int_eq(n->type, JS_INT);
	ck_assert_int_eq(n->i, 1);
	n = js_next(&d, n);
	ck_assert_int_eq(n->type, JS_REAL);
	ck_assert(n->d == -25.0);
	ck_assert_int_eq(js_next(&d, n)->type, JS_TRUE);
	ck_assert_int_eq(js_str(js_get(&d, &d.n[1], "s"), buf, sizeof(buf)), 5);
	ck_assert_str_eq(buf, "x\xc3\xa9\n\"");
	ck_assert_int_eq(js_get(&d, js_get(&d, &d.n[1], "o"), "k")->type, JS_OBJ);
	ck_assert_ptr_null(js_get(&d, &d.n[1], "missing"));
	/* every cut of it is "more", never an error or a value */
	for (cut = 0; cut + 1 < sizeof(doc) - 1; cut++) {
		pos = 0;
		ck_assert_int_eq(js_parse(&d, doc, cut, &pos, &what), JS_ERR_MORE);
	}
	pos = 0;
	ck_assert_int_eq(js_parse(&d, "{\"a\" 1}", 8, &pos, &what), JS_ERR_SYNTAX);
	ck_assert_uint_eq(pos, 5);
	pos = 0;
	ck_assert_int_eq(js_parse(&d, "[01]", 4, &pos, &what), JS_ERR_SYNTAX);
	pos = 0;
	ck_assert_int_eq(js_parse(&d, "\"a\x01\"", 3, &pos, &what), JS_ERR_SYNTAX);
	js_release(&d);
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
	tcase_add_test(tc, test_next_disagreement_and_flags);
	tcase_add_test(tc, test_jscan);
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
