// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-util.c - the error slot, escaping of untrusted strings, and the
 * string counter.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check-common.h"
#include "util/cpus.h"
#include "util/digits.h"
#include "util/err.h"
#include "util/escape.h"
#include "util/lines.h"
#include "util/strcount.h"
#include "report/report.h"
#include "report/report-json-write.h"

START_TEST(test_err_format)
{
	struct err e = { 0 };
	char buf[256];

	err_set_file(&e, "x.dat");
	ck_assert_int_eq(err_set(&e, -SR_ETRUNCATED, "cpu %d page header", 3), -SR_ETRUNCATED);
	err_at_byte(&e, 81920);
	ck_assert_str_eq(err_format(&e, buf, sizeof(buf)),
			 "'x.dat' at byte 81920: cpu 3 page header");
	/* the first failure is kept */
	err_set(&e, -ENOMEM, "later");
	ck_assert_int_eq(e.code, -SR_ETRUNCATED);
	err_clear(&e);
	err_set(&e, -SR_EBADTEXT, "bad");
	err_at_line(&e, 12);
	ck_assert_str_eq(err_format(&e, buf, sizeof(buf)), "'x.dat' at line 12: bad");
}
END_TEST

START_TEST(test_strerror)
{
	ck_assert_str_eq(sr_strerror(-SR_EBADTRACE), "malformed trace");
	ck_assert_str_eq(sr_strerror(-SR_ENOTFOUND), "not found");
	ck_assert_str_eq(sr_strerror(-ENOENT), strerror(ENOENT));
	ck_assert_str_eq(sr_strerror(0), "success");
}
END_TEST

static const struct {
	const char *in;
	size_t len;
	const char *text;
	const char *utf8;
} esc_rows[] = {
	{ "plain", 5, "plain", "plain" },
	{ "a\033[31mred", 9, "a\\x1b[31mred", "a\033[31mred" },
	{ "back\\slash", 10, "back\\\\slash", "back\\\\slash" },
	/* a literal "\xff" and the byte 0xff never look alike */
	{ "lit\\xff", 7, "lit\\\\xff", "lit\\\\xff" },
	{ "rlo\xe2\x80\xae" "evil", 10, "rlo\\xe2\\x80\\xae" "evil", "rlo\xe2\x80\xae" "evil" },
	{ "lri\xe2\x81\xa6x\xe2\x80\x8f", 10, "lri\\xe2\\x81\\xa6x\\xe2\\x80\\x8f",
	  "lri\xe2\x81\xa6x\xe2\x80\x8f" },
	{ "alm\xd8\x9c", 5, "alm\\xd8\\x9c", "alm\xd8\x9c" },			/* U+061C */
	{ "nel\xc2\x85", 5, "nel\\xc2\\x85", "nel\xc2\x85" },			/* C1 NEL */
	{ "zwj\xe2\x80\x8d", 6, "zwj\xe2\x80\x8d", "zwj\xe2\x80\x8d" },		/* not bidi */
	{ "tab\there", 8, "tab\\x09here", "tab\there" },
	{ "caf\xc3\xa9", 5, "caf\xc3\xa9", "caf\xc3\xa9" },		/* valid UTF-8 */
	{ "bad\xff\xfe", 5, "bad\\xff\\xfe", "bad\\xff\\xfe" },	/* invalid bytes */
	{ "over\xc0\xaf", 6, "over\\xc0\\xaf", "over\\xc0\\xaf" },	/* overlong '/' */
	{ "c1\xc2\x9b", 4, "c1\\xc2\\x9b", "c1\xc2\x9b" },		/* C1 CSI */
	{ "cut\xe2\x82", 5, "cut\\xe2\\x82", "cut\\xe2\\x82" },	/* truncated sequence */
	{ "nul\0hidden", 10, "nul", "nul" },
	{ "del\x7f", 4, "del\\x7f", "del\x7f" },
};

START_TEST(test_escape)
{
	char buf[64];

	ck_assert_str_eq(escape_text(buf, sizeof(buf), esc_rows[_i].in, esc_rows[_i].len),
			 esc_rows[_i].text);
	ck_assert_str_eq(escape_utf8(buf, sizeof(buf), esc_rows[_i].in, esc_rows[_i].len),
			 esc_rows[_i].utf8);
}
END_TEST

/* text rendered from the escaped form is the text of the raw bytes */
START_TEST(test_escape_value_text)
{
	char val[64], a[64], b[64];

	escape_utf8(val, sizeof(val), esc_rows[_i].in, esc_rows[_i].len);
	escape_text(a, sizeof(a), esc_rows[_i].in, esc_rows[_i].len);
	ck_assert_str_eq(escape_text_value(b, sizeof(b), val, sizeof(val)), a);
}
END_TEST

/* the escaped form decodes to the bytes it was made from (the TUI's JSON reader) */
START_TEST(test_escape_decode)
{
	char val[64], raw[64];
	size_t n;

	escape_utf8(val, sizeof(val), esc_rows[_i].in, esc_rows[_i].len);
	n = escape_utf8_decode(raw, sizeof(raw), val, strlen(val));
	ck_assert_uint_eq(n, strnlen(esc_rows[_i].in, esc_rows[_i].len));
	ck_assert(!memcmp(raw, esc_rows[_i].in, n));
}
END_TEST

/*
 * The oracle report_json_dumpf() is held to: Jansson's own output with
 * DEL, C1 and the bidi controls then written as \u00xx (what
 * report_json_dumpf() did before it had a serializer of its own).  Outside strings
 * serialized JSON is ASCII, so every such character is inside a string,
 * where \uXXXX means the same character.  @dst: 6 * @n bytes.
 */
static size_t oracle_escape(char *dst, const char *src, size_t n)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0, o = 0, len;
	uint32_t cp;

	while (i < n) {
		/* ASCII but DEL as it is: C0 in strings Jansson has escaped, and newlines indent */
		if (s[i] < 0x7f) {
			dst[o++] = (char)s[i++];
			continue;
		}
		len = escape_utf8_seq(s + i, n - i, &cp);
		ck_assert_uint_gt(len, 0);	/* Jansson writes UTF-8 */
		if (escape_unsafe_cp(cp))
			o += (size_t)sprintf(dst + o, "\\u%04x", (unsigned int)cp);
		else
			memcpy(dst + o, s + i, len), o += len;
		i += len;
	}
	return o;
}

/* DEL, C1 and a bidi control as \u00xx; other non-ASCII as it is */
START_TEST(test_json_dumpf_escapes)
{
	json_t *root = json_pack("[s]", "a\x7f\xc2\x9b\xe2\x80\xae\xc3\xbc\x01");
	char *got = NULL;
	size_t glen;
	FILE *f = open_memstream(&got, &glen);

	ck_assert_ptr_nonnull(root);
	ck_assert_int_eq(report_json_dumpf(root, f, JSON_COMPACT), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_str_eq(got, "[\"a\\u007f\\u009b\\u202e\xc3\xbc\\u0001\"]");
	free(got);
	json_decref(root);
}
END_TEST

START_TEST(test_escape_short_buffer)
{
	char buf[6];

	/* never cuts an escape in half, always terminates */
	ck_assert_str_eq(escape_text(buf, sizeof(buf), "ab\033cd", 5), "ab");
	ck_assert_str_eq(escape_text(buf, 1, "abc", 3), "");
}
END_TEST

/* the affinity mask, not the machine: pinned to one CPU it says 1 */
START_TEST(test_cpus_available)
{
	cpu_set_t all, one;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(all), &all), 0);
	ck_assert_int_eq(util_cpus_available(), CPU_COUNT(&all));
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, &all)) {
			CPU_SET(c, &one);
			break;
		}
	}
	ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);
	ck_assert_int_eq(util_cpus_available(), 1);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(all), &all), 0);
}
END_TEST

/* on a thread of its own: util_thread_helper()'s answer, then the thread's policy */
static void *helper_thread(void *arg)
{
	int *out = arg;
	struct sched_param sp;

	out[0] = util_thread_helper();
	if (pthread_getschedparam(pthread_self(), &out[1], &sp) != 0)
		out[1] = -1;
	return NULL;
}

/* run helper_thread() with @attr: @out its answer and its policy after; Return: pthread_create()'s */
static int run_helper(pthread_attr_t *attr, int out[2])
{
	pthread_t t;
	int ret;

	out[0] = out[1] = -2;
	ret = pthread_create(&t, attr, helper_thread, out);
	if (ret == 0)
		ck_assert_int_eq(pthread_join(t, NULL), 0);
	return ret;
}

/*
 * A helper thread of the default policy becomes SCHED_BATCH, and only that
 * thread; one of a real-time policy is left as it is (where a real-time
 * thread may be made: root with CAP_SYS_NICE, as here and in CI).
 */
START_TEST(test_thread_helper)
{
	struct sched_param sp = { .sched_priority = 1 };
	pthread_attr_t attr;
	int out[2], policy, ret;

	ck_assert_int_eq(run_helper(NULL, out), 0);
	ck_assert_int_eq(out[0], 1);
	ck_assert_int_eq(out[1], SCHED_BATCH);
	ck_assert_int_eq(pthread_getschedparam(pthread_self(), &policy, &sp), 0);
	ck_assert_int_eq(policy, SCHED_OTHER);

	sp.sched_priority = 1;
	ck_assert_int_eq(pthread_attr_init(&attr), 0);
	ck_assert_int_eq(pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED), 0);
	ck_assert_int_eq(pthread_attr_setschedpolicy(&attr, SCHED_FIFO), 0);
	ck_assert_int_eq(pthread_attr_setschedparam(&attr, &sp), 0);
	ret = run_helper(&attr, out);
	if (ret == 0) {
		ck_assert_int_eq(out[0], 0);
		ck_assert_int_eq(out[1], SCHED_FIFO);
	} else {
		ck_assert_int_eq(ret, EPERM);
		fprintf(stderr, "# test_thread_helper: no real-time thread allowed here, that case not run\n");
	}
	pthread_attr_destroy(&attr);
}
END_TEST

/* what a thread util_thread_start() made saw: its name, whether SIGTERM was blocked */
struct started {
	char	name[16];
	int	term_blocked;
};

static void *started_main(void *arg)
{
	struct started *st = arg;
	sigset_t now;

	if (pthread_getname_np(pthread_self(), st->name, sizeof(st->name)) != 0)
		st->name[0] = '\0';
	st->term_blocked = pthread_sigmask(SIG_SETMASK, NULL, &now) == 0 ? sigismember(&now, SIGTERM) : -1;
	return NULL;
}

/* a helper starts named and with every signal blocked; its creator's mask is as it was */
START_TEST(test_thread_start)
{
	struct started st = { "unset", -2 };
	sigset_t before, after;
	pthread_t t;

	ck_assert_int_eq(pthread_sigmask(SIG_SETMASK, NULL, &before), 0);
	ck_assert_int_eq(util_thread_start(&t, started_main, &st, "sr-test"), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_str_eq(st.name, "sr-test");
	ck_assert_int_eq(st.term_blocked, 1);
	ck_assert_int_eq(pthread_sigmask(SIG_SETMASK, NULL, &after), 0);
	ck_assert_int_eq(sigismember(&after, SIGTERM), sigismember(&before, SIGTERM));
	ck_assert_int_eq(sigismember(&after, SIGINT), sigismember(&before, SIGINT));
}
END_TEST

START_TEST(test_all_digits)
{
	ck_assert(util_all_digits("0"));
	ck_assert(util_all_digits("4194304"));
	ck_assert(!util_all_digits(""));
	ck_assert(!util_all_digits("-1"));
	ck_assert(!util_all_digits("12 "));
	ck_assert(!util_all_digits("1a"));
	ck_assert(!util_all_digits("self"));
}
END_TEST

START_TEST(test_calloc_lines)
{
	size_t sizes[] = { 0, 1, 63, 64, 65, 200 };
	unsigned char *p;
	size_t i, j;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		p = util_calloc_lines(sizes[i], 1);
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq((uintptr_t)p % UTIL_LINE, 0);
		/* zeroed up to the end of its last line, all of it ours (ASan) */
		for (j = 0; j < (sizes[i] + UTIL_LINE - 1) / UTIL_LINE * UTIL_LINE; j++)
			ck_assert_uint_eq(p[j], 0);
		free(p);
	}
	p = util_calloc_lines(3, 40);
	ck_assert_ptr_nonnull(p);
	p[119] = 1;
	free(p);
	ck_assert_ptr_null(util_calloc_lines(SIZE_MAX / 2, 4));
	ck_assert_ptr_null(util_calloc_lines(1, SIZE_MAX - 10));
}
END_TEST

START_TEST(test_strcount)
{
	struct strcount c;
	struct strcount_entry *e;
	char key[32];
	size_t n;
	int i;

	strcount_init(&c);
	for (i = 0; i < 1000; i++) {
		snprintf(key, sizeof(key), "k%03d", i % 100);
		ck_assert_int_eq(strcount_add(&c, key, 1), 0);
	}
	ck_assert_uint_eq(strcount_get(&c, "k042"), 10);
	ck_assert_uint_eq(strcount_get(&c, "nope"), 0);
	e = strcount_sorted(&c, &n);
	ck_assert_uint_eq(n, 100);
	ck_assert_str_eq(e[0].key, "k000");
	ck_assert_str_eq(e[99].key, "k099");
	free(e);
	strcount_release(&c);
	ck_assert_uint_eq(strcount_get(&c, "k042"), 0);
}
END_TEST

/*
 * report_json_dumpf() writes through a 16 KiB buffer: what it writes is
 * the whole document as the oracle escapes it, with strings longer than
 * the buffer and multi-byte sequences at every offset around its size.
 */
START_TEST(test_json_dumpf_chunks)
{
	static const char *const pieces[] = {
		"\x7f", "\xc2\x85", "\xe2\x80\xae", "\xc3\xa9", "\xf0\x9f\x98\x80", "\"", "\\", "\n",
	};
	const size_t cap = 70000;
	size_t len = 0, k, n, olen, glen = 0;
	char *str = malloc(cap), *doc, *want, *got = NULL;
	json_t *root = json_object(), *arr = json_array();
	FILE *f;

	ck_assert_ptr_nonnull(str);
	/* runs of ASCII of every length up to 299, each followed by one piece */
	for (k = 0; len + 300 + 4 < cap; k++) {
		n = k % 300;
		memset(str + len, 'a' + (int)(k % 26), n);
		len += n;
		memcpy(str + len, pieces[k % 8], strlen(pieces[k % 8]));
		len += strlen(pieces[k % 8]);
	}
	json_array_append_new(arr, json_stringn(str, len));
	json_array_append_new(arr, json_stringn(str + 1, len - 1));	/* every cut moved by one */
	memset(str, 'z', 50001);	/* ASCII only, longer than the buffer thrice */
	json_array_append_new(arr, json_stringn(str, 50001));
	json_object_set_new(root, "s", arr);
	json_object_set_new(root, "n", json_integer(42));
	doc = json_dumps(root, JSON_SORT_KEYS | JSON_COMPACT);
	ck_assert_ptr_nonnull(doc);
	olen = strlen(doc);
	want = malloc(6 * olen + 1);
	ck_assert_ptr_nonnull(want);
	n = oracle_escape(want, doc, olen);
	ck_assert_ptr_ne(memmem(want, n, "\\u202e", 6), NULL);	/* the bidi override escaped */
	f = open_memstream(&got, &glen);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(report_json_dumpf(root, f, JSON_SORT_KEYS | JSON_COMPACT), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_uint_gt(n, 2 * 16384);
	ck_assert_uint_eq(glen, n);
	ck_assert(memcmp(got, want, n) == 0);
	free(got);
	free(want);
	free(doc);
	free(str);
	json_decref(root);
}
END_TEST

/*
 * report_json_dumpf() writes what json_dumps() and oracle_escape()
 * together write, byte for byte, on random trees: nested objects and
 * arrays (empty ones too), keys sharing prefixes, strings with every kind
 * of character the two escape, integers to both ends, reals of every
 * magnitude, under each set of flags the reports use.
 */
static uint64_t rnd_state = 88172645463325252ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static json_t *rnd_string(void)
{
	static const char *const pieces[] = {
		"a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\b", "\f", "\r", "\x01", "\x1f",
		"\x7f", "\xc2\x80", "\xc2\x9f", "\xc2\xa0", "\xc3\xa9", "\xd8\x9c", "\xe2\x80\x8e",
		"\xe2\x80\xaa", "\xe2\x80\xae", "\xe2\x81\xa6", "\xe2\x81\xa9", "\xe2\x82\xac",
		"\xef\xbf\xbd", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf", "comm-", "kworker/0:1",
	};
	char buf[256];
	size_t len = 0, n = rnd() % 12, k;

	for (k = 0; k < n; k++) {
		const char *p = pieces[rnd() % (sizeof(pieces) / sizeof(pieces[0]))];

		memcpy(buf + len, p, strlen(p));
		len += strlen(p);
	}
	return json_stringn(buf, len);
}

static json_t *rnd_tree(int depth)
{
	static const double reals[] = {
		0.0, -0.0, 1.0, -1.5, 0.1, 1e-5, 1e-4, 123456.789, 1e12, 1e15, 1e16, 1e17, 1e20,
		1e300, 5e-324, 2.5e-310, 1.0 / 3, 12345678901234.5, -987.654321, 100.0, 0.001,
	};
	static const char *const keys[] = {
		"a", "ab", "abc", "b", "B", "", "old", "old_allow", "new", "kernel", "z\xc3\xa9",
		"a b", "tid", "\xe2\x80\xae", "cost", "class",
	};
	json_t *j;
	size_t n, k;

	switch (depth > 3 ? rnd() % 6 : rnd() % 9) {
	case 0: return json_null();
	case 1: return json_boolean(rnd() % 2);
	case 2:
		switch (rnd() % 4) {
		case 0: return json_integer(INT64_MIN);
		case 1: return json_integer(INT64_MAX);
		case 2: return json_integer(-(json_int_t)(rnd() % 100000));
		default: return json_integer((json_int_t)(rnd() >> (rnd() % 64)));
		}
	case 3: return json_real(reals[rnd() % (sizeof(reals) / sizeof(reals[0]))] *
				 (rnd() % 2 ? 1 : -1) * (double)(1 + rnd() % 3));
	case 4: case 5: return rnd_string();
	case 6: case 7:
		j = json_object();
		n = rnd() % 8;
		for (k = 0; k < n; k++)
			json_object_set_new(j, keys[rnd() % (sizeof(keys) / sizeof(keys[0]))],
					    rnd_tree(depth + 1));
		return j;
	default:
		j = json_array();
		n = rnd() % 6;
		for (k = 0; k < n; k++)
			json_array_append_new(j, rnd_tree(depth + 1));
		return j;
	}
}

START_TEST(test_json_dumpf_random)
{
	static const size_t flags[] = {
		JSON_SORT_KEYS | JSON_COMPACT | JSON_REAL_PRECISION(12),
		JSON_SORT_KEYS | JSON_INDENT(2),
		JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(12),
		JSON_SORT_KEYS | JSON_REAL_PRECISION(5),
		JSON_SORT_KEYS | JSON_INDENT(3) | JSON_COMPACT,
	};
	size_t t, glen, n;
	char *doc, *want, *got;
	json_t *root, *bad;
	FILE *f;

	for (t = 0; t < 4000; t++) {
		root = rnd() % 2 ? json_object() : json_array();
		if (json_is_object(root)) {
			json_object_set_new(root, "tree", rnd_tree(0));
			json_object_set_new(root, "more", rnd_tree(0));
		} else {
			json_array_append_new(root, rnd_tree(0));
		}
		doc = json_dumps(root, flags[t % 5]);
		ck_assert_ptr_nonnull(doc);
		want = malloc(6 * strlen(doc) + 1);
		ck_assert_ptr_nonnull(want);
		n = oracle_escape(want, doc, strlen(doc));
		got = NULL;
		f = open_memstream(&got, &glen);
		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(report_json_dumpf(root, f, flags[t % 5]), 0);
		ck_assert_int_eq(fclose(f), 0);
		if (glen != n || memcmp(got, want, n))
			ck_abort_msg("tree %zu, flags %#zx:\nwant %.*s\ngot  %.*s", t, flags[t % 5],
				     (int)n, want, (int)glen, got);
		free(got);
		free(want);
		free(doc);
		json_decref(root);
	}

	/* a string that is not UTF-8 fails the dump, as in Jansson */
	root = json_array();
	bad = json_stringn_nocheck("a\xff", 2);
	json_array_append_new(root, bad);
	ck_assert_ptr_null(json_dumps(root, JSON_COMPACT));
	got = NULL;
	f = open_memstream(&got, &glen);
	ck_assert_int_eq(report_json_dumpf(root, f, JSON_COMPACT), -1);
	fclose(f);
	free(got);
	json_decref(root);
	/* and so does a bare scalar, as json_dumpf() without JSON_ENCODE_ANY */
	root = json_integer(1);
	ck_assert_int_eq(report_json_dumpf(root, stdout, JSON_COMPACT), -1);
	json_decref(root);
}
END_TEST

/*
 * The stream's inline values (report-json-write.h): integers at the edges
 * of their digit pairs and of int64, reals that are zero (written inline)
 * or not, names and kept text, as Jansson writes the same array; more than
 * 16 KiB of them, so that the buffer fills up on each kind of value.
 */
START_TEST(test_jw_stream_values)
{
	static const int64_t ints[] = {
		INT64_MIN, INT64_MIN + 1, -1000, -100, -99, -10, -9, -1, 0, 1, 9, 10, 11,
		99, 100, 101, 999, 1000, 123456789012, 200532928576, INT64_MAX - 1, INT64_MAX,
	};
	static const double reals[] = { 0.0, -0.0, 1.0, 0.5, -3.0, 1234.125, 1e20, 0.001 };
	static const char *const names[] = { "wakeup", "", "sched-pingpong", "a\"b", "tab\there" };
	const size_t flags = JSON_SORT_KEYS | JSON_COMPACT | JSON_REAL_PRECISION(12);
	const size_t ni = sizeof(ints) / sizeof(ints[0]), nr = sizeof(reals) / sizeof(reals[0]);
	const size_t nn = sizeof(names) / sizeof(names[0]);
	json_t *arr = json_array(), *in;
	struct report_jw w;
	char *got = NULL, *want;
	size_t glen, t, i;
	int64_t v;
	FILE *f;

	ck_assert_ptr_nonnull(arr);
	f = open_memstream(&got, &glen);
	ck_assert_ptr_nonnull(f);
	report_jw_begin(&w, f, flags, 0);
	report_jw_array(&w);
	for (t = 0; t < 6000; t++) {
		i = t % (ni + nr + nn + 3);
		if (i < ni) {
			report_jw_int(&w, ints[i]);
			json_array_append_new(arr, json_integer(ints[i]));
		} else if (i < ni + nr) {
			report_jw_real(&w, reals[i - ni]);
			json_array_append_new(arr, json_real(reals[i - ni]));
		} else if (i < ni + nr + nn) {
			report_jw_cstring(&w, names[i - ni - nr]);
			json_array_append_new(arr, json_string(names[i - ni - nr]));
		} else if (i == ni + nr + nn) {
			v = (int64_t)rnd();
			report_jw_int(&w, v);
			json_array_append_new(arr, json_integer(v));
		} else if (i == ni + nr + nn + 1) {
			/* an object, and a value already written */
			report_jw_object(&w);
			REPORT_JW_KEY(&w, "a");
			report_jw_raw(&w, "[1,{\"x\":null}]", strlen("[1,{\"x\":null}]"));
			REPORT_JW_KEY(&w, "b");
			report_jw_bool(&w, t & 1);
			report_jw_close(&w);
			in = json_pack("{s:[i,{s:n}],s:b}", "a", 1, "x", "b", (int)(t & 1));
			ck_assert_ptr_nonnull(in);
			json_array_append_new(arr, in);
		} else {
			report_jw_array(&w);
			report_jw_close(&w);
			json_array_append_new(arr, json_array());
		}
	}
	report_jw_close(&w);
	ck_assert_int_eq(report_jw_end(&w, NULL), 0);
	ck_assert_int_eq(fclose(f), 0);
	want = json_dumps(arr, flags);
	ck_assert_ptr_nonnull(want);
	ck_assert_uint_gt(glen, 2 * sizeof(w.buf));
	for (i = 0; i < glen && got[i] == want[i]; i++)
		;
	ck_assert_msg(i == glen && glen == strlen(want), "the stream and Jansson differ at byte %zu: %.40s / %.40s",
		      i, got + (i > 20 ? i - 20 : 0), want + (i > 20 ? i - 20 : 0));
	free(want);
	free(got);
	json_decref(arr);
}
END_TEST

/*
 * Trees made in a report_json_arena (the NDJSON and JSON sinks'): the same
 * text as trees made with malloc(), lap after lap, a string larger than a
 * chunk and more than a chunk of small values included; a value made
 * outside and shared into an arena tree outlives it and is freed as usual
 * (ASan checks the frees, LSan the arena's own memory).
 */
static char *dump_str(const json_t *root)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(report_json_dumpf(root, f, JSON_SORT_KEYS | JSON_COMPACT), 0);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

START_TEST(test_json_arena)
{
	struct report_json_arena a = { 0 };
	json_t *outside = json_string("made outside"), *o, *ref;
	char *big = malloc(200000), *want, *got;
	size_t glen, lap, k;

	ck_assert_ptr_nonnull(big);
	memset(big, 'x', 199999);
	big[199999] = '\0';
	for (lap = 0; lap < 50; lap++) {
		rnd_state = 1234567 + lap;
		ref = rnd_tree(0);
		json_object_set_new(ref = json_pack("{s:o}", "t", ref), "n", json_integer((json_int_t)lap));
		want = dump_str(ref);
		json_decref(ref);

		report_json_arena_begin(&a);
		rnd_state = 1234567 + lap;
		o = json_pack("{s:o}", "t", rnd_tree(0));
		ck_assert_ptr_nonnull(o);
		json_object_set_new(o, "n", json_integer((json_int_t)lap));
		if (lap % 7 == 3) {	/* larger than a chunk */
			json_object_set_new(o, "big", json_string(big));
			free(want);
			json_object_set_new(ref = json_pack("{s:o}", "t", json_null()), "n", json_null());
			json_decref(ref);
			want = NULL;
		}
		for (k = 0; k < 200; k++)	/* more than one chunk of small ones */
			json_decref(json_integer((json_int_t)k));
		json_object_set(o, "shared", outside);
		got = dump_str(o);
		glen = strlen(got);
		json_decref(o);
		report_json_arena_end(&a);
		ck_assert_ptr_nonnull(strstr(got, "\"shared\":\"made outside\""));
		if (want) {
			/* the same tree without "shared" */
			char *cut = strstr(got, ",\"shared\":\"made outside\"");

			ck_assert_ptr_nonnull(cut);
			memmove(cut, cut + strlen(",\"shared\":\"made outside\""),
				strlen(cut + strlen(",\"shared\":\"made outside\"")) + 1);
			ck_assert_str_eq(got, want);
		} else {
			ck_assert_uint_gt(glen, 199999);
		}
		free(got);
		free(want);
	}
	ck_assert_str_eq(json_string_value(outside), "made outside");
	json_decref(outside);
	free(big);
}
END_TEST

static Suite *util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_err_format);
	tcase_add_test(tc, test_strerror);
	tcase_add_loop_test(tc, test_escape, 0, sizeof(esc_rows) / sizeof(esc_rows[0]));
	tcase_add_loop_test(tc, test_escape_value_text, 0, sizeof(esc_rows) / sizeof(esc_rows[0]));
	tcase_add_loop_test(tc, test_escape_decode, 0, sizeof(esc_rows) / sizeof(esc_rows[0]));
	tcase_add_test(tc, test_json_dumpf_escapes);
	tcase_add_test(tc, test_escape_short_buffer);
	tcase_add_test(tc, test_json_dumpf_chunks);
	tcase_add_test(tc, test_json_dumpf_random);
	tcase_add_test(tc, test_jw_stream_values);
	tcase_add_test(tc, test_json_arena);
	tcase_add_test(tc, test_strcount);
	tcase_add_test(tc, test_cpus_available);
	tcase_add_test(tc, test_thread_helper);
	tcase_add_test(tc, test_thread_start);
	tcase_add_test(tc, test_all_digits);
	tcase_add_test(tc, test_calloc_lines);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(util_suite)
