// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare-bench.c - benchmark output as the tools print it, one line at a
 * time (docs/compare.md, "Benchmark output"):
 *
 *   perf bench:  "# Running 'sched/messaging' benchmark:" names the
 *                benchmark; "Total time: 0.448 [sec]", "24.37 usecs/op" and
 *                "41026 ops/sec" are one run each
 *   perf stat:   " Performance counter stats for 'CMD' (5 runs):" gives the
 *                runs; "VALUE [UNIT] EVENT # ... ( +- P% )" and
 *                "T +- S seconds time elapsed" are one summary row each:
 *                the mean over the runs and, with -r, the standard
 *                deviation of that mean (sample sd = it x sqrt(runs))
 *   hackbench:   "Running in process mode with 2 groups ..." names it;
 *                "Time: 0.268" is one run
 *   dbench:      "Throughput 416.4 MB/sec  2 clients  2 procs
 *                max_latency=7.565 ms" is one run of two metrics
 *   schbench:    "Wakeup Latencies percentiles (usec) ..." opens a block;
 *                "* 99.0th: 36 (3347363 samples)" is one run of its
 *                percentile, "average rps: 1442889.23" one run
 *
 * Raw runs of one metric pool per label: the prose line above the output
 * ("base:", "(Before patch)"), or the file's name without --vs.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare-local.h"

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A number at @p (thousands separators allowed); advances @p. */
static bool take_number(const char **p, double *v)
{
	char num[64];
	size_t n = 0;
	const char *q = skip_blank(*p);

	while (*q && n + 1 < sizeof(num) &&
	       (isdigit((unsigned char)*q) || *q == '.' || *q == '-' || *q == '+' ||
		(*q == ',' && isdigit((unsigned char)q[1]) && n))) {
		if (*q != ',')
			num[n++] = *q;
		q++;
	}
	num[n] = '\0';
	if (!n || !compare_parse_number(num, false, v))
		return false;
	*p = q;
	return true;
}

/* The next blank-separated word at @p into @w; advances @p. */
static size_t take_word(const char **p, char *w, size_t len)
{
	const char *q = skip_blank(*p);
	size_t n = 0;

	while (*q && *q != ' ' && *q != '\t') {
		if (n + 1 < len)
			w[n++] = *q;
		q++;
	}
	w[n] = '\0';
	*p = q;
	return n;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The prefix naming output of @sc: the caption when it is not the label. */
static void prefix(const struct compare_scan *sc, char *buf, size_t len)
{
	if (sc->caption[0] && sc->caption_line != sc->label_line &&
	    sc->caption_line > sc->tab_end)
		snprintf(buf, len, "%.200s: ", sc->caption);
	else
		buf[0] = '\0';
}

static int run(struct compare_scan *sc, unsigned long no, double v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int run(struct compare_scan *sc, unsigned long no, double v, const char *fmt, ...)
{
	char name[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	return compare_scan_run(sc, name, no, v);
}

static int perf_bench(struct compare_scan *sc, const char *line, unsigned long no)
{
	const char *p = line;
	char unit[32];
	double v;

	if (starts(line, "# Running '")) {
		const char *q = line + 11;
		const char *end = strchr(q, '\'');

		if (!end)
			return 0;
		snprintf(sc->bench, sizeof(sc->bench), "%.*s", (int)(end - q), q);
		return 1;
	}
	if (line[0] == '#' && sc->bench[0])
		return 1;	/* perf bench's own comments */
	if (starts(line, "Total time:")) {
		p = line + 11;
		if (!take_number(&p, &v) || strcmp(skip_blank(p), "[sec]"))
			return 0;
		return run(sc, no, v, "perf bench %s: Total time [sec]",
			   sc->bench[0] ? sc->bench : "?") ?: 1;
	}
	if (!sc->bench[0] || !take_number(&p, &v) || !take_word(&p, unit, sizeof(unit)) ||
	    *skip_blank(p))
		return 0;
	if (strcmp(unit, "usecs/op") && strcmp(unit, "ops/sec") && strcmp(unit, "msecs/op"))
		return 0;
	return run(sc, no, v, "perf bench %s: %s", sc->bench, unit) ?: 1;
}

static int hackbench(struct compare_scan *sc, const char *line, unsigned long no)
{
	const char *p;
	double v;

	if (starts(line, "Running in ") && strstr(line, " mode with ")) {
		char mode[32];
		unsigned int groups = 0;

		if (sscanf(line, "Running in %31s mode with %u groups", mode, &groups) == 2)
			snprintf(sc->hb, sizeof(sc->hb), "%s, %u groups", mode, groups);
		else
			snprintf(sc->hb, sizeof(sc->hb), "?");
		return 1;
	}
	if (sc->hb[0] && starts(line, "Each sender will pass "))
		return 1;
	if (!starts(line, "Time: "))
		return 0;
	p = line + 6;
	if (!take_number(&p, &v) || (*skip_blank(p) && !sc->hb[0]))
		return 0;
	if (sc->hb[0])
		return run(sc, no, v, "hackbench %s: Time [sec]", sc->hb) ?: 1;
	return run(sc, no, v, "hackbench: Time [sec]") ?: 1;
}

static int dbench(struct compare_scan *sc, const char *line, unsigned long no)
{
	const char *p = line + 11;
	const char *lat;
	double tput;
	double maxlat;
	unsigned int clients;
	int ret;

	if (starts(line, "dbench version ")) {
		sc->in_dbench = true;
		return 1;
	}
	if (!starts(line, "Throughput ") || !take_number(&p, &tput) ||
	    sscanf(skip_blank(p), "MB/sec %u clients", &clients) != 1)
		return sc->in_dbench;	/* its progress lines and operations table */
	sc->in_dbench = false;
	ret = run(sc, no, tput, "dbench %u clients: Throughput [MB/sec]", clients);
	lat = strstr(p, "max_latency=");
	if (!ret && lat) {
		p = lat + 12;
		if (take_number(&p, &maxlat) && starts(skip_blank(p), "ms"))
			ret = run(sc, no, maxlat, "dbench %u clients: max_latency [ms]", clients);
	}
	return ret ?: 1;
}

static int schbench(struct compare_scan *sc, const char *line, unsigned long no)
{
	const char *pc = strstr(line, "percentiles (");
	const char *p = line;
	double q;
	double v;

	if (pc && pc > line) {
		const char *unit_end = strchr(pc + 13, ')');

		if (!unit_end)
			return 0;
		snprintf(sc->sch, sizeof(sc->sch), "schbench %.*s [%.*s]", (int)(pc - line - 1),
			 line, (int)(unit_end - pc - 13), pc + 13);
		return 1;
	}
	if (starts(line, "average rps:")) {
		p = line + 12;
		if (!take_number(&p, &v))
			return 0;
		return run(sc, no, v, "schbench average rps") ?: 1;
	}
	if (!sc->sch[0])
		return 0;
	if (starts(line, "current rps:") || starts(line, "min="))
		return 1;
	if (*p == '*')
		p++;
	if (!take_number(&p, &q) || !starts(p, "th:"))
		return 0;
	p += 3;
	if (!take_number(&p, &v))
		return 0;
	return run(sc, no, v, "%s p%g", sc->sch, q) ?: 1;
}

/* perf stat: the header, or a counter / time line under one. */
static int perf_stat(struct compare_scan *sc, const char *line, unsigned long no)
{
	struct compare_metric row;
	char event[128];
	char unit[128] = "";
	char name[512];
	char pre[272];
	const char *p = line;
	double v;
	double sem = NAN;
	bool zero = false;
	const char *pm;

	if (starts(line, "Performance counter stats for ")) {
		const char *r = strstr(line, "' (");
		unsigned int n;

		sc->stat_runs = 1;
		if (r && sscanf(r, "' (%u runs)", &n) == 1 && n >= 1)
			sc->stat_runs = n;
		return 1;
	}
	if (!sc->stat_runs)
		return 0;
	if (starts(line, "<not supported>") || starts(line, "<not counted>"))
		return 1;
	if (!take_number(&p, &v))
		return 0;
	p = skip_blank(p);
	if (starts(p, "+-")) {
		p += 2;
		if (!take_number(&p, &sem))
			return 0;
		p = skip_blank(p);
	}
	if (!take_word(&p, event, sizeof(event)))
		return 0;
	if (!strcmp(event, "msec") || !strcmp(event, "seconds") || !strcmp(event, "usec")) {
		memcpy(unit, event, sizeof(unit));
		if (!take_word(&p, event, sizeof(event)))
			return 0;
		if (!strcmp(unit, "seconds") && (!strcmp(event, "time") || !strcmp(event, "user") ||
						 !strcmp(event, "sys"))) {
			if (!strcmp(event, "time")) {
				char w[16];

				if (!take_word(&p, w, sizeof(w)) || strcmp(w, "elapsed"))
					return 0;
				snprintf(event, sizeof(event), "time elapsed");
			}
		}
	}
	p = skip_blank(p);
	/* what may follow: "# comment", "[100.00%]", "( +- P% )" */
	if (*p && *p != '#' && *p != '[' && *p != '(')
		return 0;
	pm = strstr(p, "( +-");
	if (pm && isnan(sem)) {
		const char *q = pm + 4;
		double pct;

		if (take_number(&q, &pct) && *skip_blank(q) == '%')
			sem = fabs(v) * pct / 100;
		/* "+- 0.00%" is below what perf prints, not no spread */
		if (pct == 0)
			sem = NAN;
		zero = pct == 0;
	}
	compare_row_init(&row, no);
	row.count = sc->stat_runs;
	row.mean = v;
	if (sc->stat_runs >= 2 && !isnan(sem)) {
		row.disp = sem;
		row.disp_kind = COMPARE_DISP_SEM;
	}
	row.label = (char *)compare_scan_label(sc);
	snprintf(pre, sizeof(pre), "perf stat -r %g%s", sc->stat_runs,
		 zero ? " (its +- printed as 0.00%: below the precision perf prints, so unknown)" : "");
	row.what = pre;
	if (unit[0]) {
		row.dir = COMPARE_DIR_LOWER;
		row.dir_why = (char *)"perf stat counts it in time";
	}
	prefix(sc, name, sizeof(name) - 240);
	snprintf(name + strlen(name), sizeof(name) - strlen(name), "perf stat: %s%s%s%s", event,
		 unit[0] ? " [" : "", unit, unit[0] ? "]" : "");
	return compare_scan_add(sc, &row, name) ?: 1;
}

int compare_bench_line(struct compare_scan *sc, const char *line, unsigned long no)
{
	int ret;

	line = skip_blank(line);
	if (!*line)
		return 0;
	ret = perf_bench(sc, line, no);
	if (!ret)
		ret = perf_stat(sc, line, no);
	if (!ret)
		ret = hackbench(sc, line, no);
	if (!ret)
		ret = dbench(sc, line, no);
	if (!ret)
		ret = schbench(sc, line, no);
	return ret;
}
