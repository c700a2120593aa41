// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report-info.c - the `schedreplay info` report: built as JSON data, then
 * rendered as text from that data.  Schema in docs/info.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util/escape.h"

static json_t *lost_block(const struct ingest_info *info)
{
	json_t *o = json_object(), *per_cpu = json_array(), *rec = json_array();
	int64_t total = 0;
	uint64_t records = 0;
	int c;

	for (c = 0; c < info->nr_cpus; c++) {
		int64_t n = info->lost_per_cpu ? info->lost_per_cpu[c] : 0;
		uint64_t r = info->lost_records_per_cpu ? info->lost_records_per_cpu[c] : 0;

		json_array_append_new(per_cpu, json_integer(n));
		json_array_append_new(rec, json_integer((json_int_t)r));
		total += n;
		records += r;
	}
	json_object_set_new(o, "total", json_integer(total));
	json_object_set_new(o, "per_cpu", per_cpu);
	json_object_set_new(o, "markers", json_integer((json_int_t)records));
	json_object_set_new(o, "markers_per_cpu", rec);
	return o;
}

static json_t *stretch(int cpu, uint64_t from, uint64_t to, const char *why, int64_t count)
{
	json_t *o = json_object();

	json_object_set_new(o, "cpu", json_integer(cpu));
	json_object_set_new(o, "from_ns", json_integer((json_int_t)from));
	json_object_set_new(o, "to_ns", json_integer((json_int_t)to));
	json_object_set_new(o, "why", json_string(why));
	if (count)
		json_object_set_new(o, "lost", json_integer(count));
	return o;
}

/*
 * Where each CPU was not seen: before its first event and after its last
 * (INGEST_UNSEEN_MIN_NS or longer), and across each lost-events record.
 */
static json_t *unseen_block(const struct ingest_info *info, int nr_cpus)
{
	json_t *a = json_array();
	uint64_t first, last;
	size_t g;
	int c;

	if (!info->nr_events)
		return a;
	for (c = 0; c < nr_cpus; c++) {
		first = c < info->nr_cpus && info->first_ts_per_cpu ? info->first_ts_per_cpu[c] : 0;
		last = c < info->nr_cpus && info->last_ts_per_cpu ? info->last_ts_per_cpu[c] : 0;
		if (!first) {
			json_array_append_new(a, stretch(c, info->first_ts_ns, info->last_ts_ns,
							 "never-seen", 0));
			continue;
		}
		for (g = 0; g < info->nr_gaps; g++)	/* a lost record first: its gap says it */
			if (info->gaps[g].cpu == c)
				break;
		if ((g == info->nr_gaps || info->gaps[g].from_ns) &&
		    first - 1 - info->first_ts_ns >= INGEST_UNSEEN_MIN_NS)
			json_array_append_new(a, stretch(c, info->first_ts_ns, first - 1,
							 "before-first-event", 0));
		for (g = 0; g < info->nr_gaps; g++)
			if (info->gaps[g].cpu == c)
				json_array_append_new(a, stretch(c, info->gaps[g].from_ns ?
								 info->gaps[g].from_ns : info->first_ts_ns,
								 info->gaps[g].to_ns, "lost-events",
								 info->gaps[g].count));
		if (info->last_ts_ns - (last - 1) >= INGEST_UNSEEN_MIN_NS)
			json_array_append_new(a, stretch(c, last - 1, info->last_ts_ns,
							 "after-last-event", 0));
	}
	return a;
}

#define INFO_MISSING_TASKS 5

/* the INFO_MISSING_TASKS tasks (not idle) with the most switches away from them missing */
struct missing_top {
	const struct model_task *t[INFO_MISSING_TASKS];
	int n;
};

static int missing_rank(const struct model_task *t, void *arg)
{
	struct missing_top *top = arg;
	int i;

	if (!t->switch_out_missing)
		return 0;
	for (i = top->n; i > 0; i--) {
		const struct model_task *u = top->t[i - 1];

		if (u->switch_out_missing > t->switch_out_missing ||
		    (u->switch_out_missing == t->switch_out_missing && u->tid < t->tid))
			break;
		if (i < INFO_MISSING_TASKS)
			top->t[i] = u;
	}
	if (i < INFO_MISSING_TASKS) {
		top->t[i] = t;
		if (top->n < INFO_MISSING_TASKS)
			top->n++;
	}
	return 0;
}

/* {"count", "idle", "tasks": [{"tid", "comm", "count"}]}: docs/info.md */
static json_t *switches_missing(const struct report_info_in *in)
{
	json_t *o = json_object(), *tasks = json_array();
	struct missing_top top = { .n = 0 };
	int i;

	if (!o || !tasks) {
		json_decref(o);
		json_decref(tasks);
		return NULL;
	}
	if (in->model)
		model_for_each_task(in->model, missing_rank, &top);
	for (i = 0; i < top.n; i++) {
		json_t *t = json_object();

		json_object_set_new(t, "tid", json_integer(top.t[i]->tid));
		json_object_set_new(t, "comm", report_json_str(top.t[i]->comm,
							       strnlen(top.t[i]->comm, SR_COMM_LEN)));
		json_object_set_new(t, "count", json_integer((json_int_t)top.t[i]->switch_out_missing));
		json_array_append_new(tasks, t);
	}
	json_object_set_new(o, "count", json_integer((json_int_t)in->stats->switch_missing));
	json_object_set_new(o, "idle", json_integer((json_int_t)in->stats->switch_missing_idle));
	json_object_set_new(o, "tasks", tasks);
	return o;
}

json_t *report_info_build(const struct report_info_in *in)
{
	const struct ingest_info *info = in->info;
	json_t *o = json_object(), *events = json_object(), *damage = json_object();
	struct strcount_entry *ev;
	uint64_t total = 0;
	size_t n, i;

	if (!o || !events || !damage)
		goto out_free;
	ev = strcount_sorted(in->events, &n);
	if (!ev && n)
		goto out_free;
	for (i = 0; i < n; i++) {
		json_object_set_new(events, ev[i].key, json_integer((json_int_t)ev[i].count));
		total += ev[i].count;
	}
	free(ev);

	json_object_set_new(o, "schema_version", json_integer(REPORT_INFO_SCHEMA));
	json_object_set_new(o, "trace", report_json_str(in->path, strlen(in->path)));
	if (in->capture_dir && in->capture_dir[0])
		json_object_set_new(o, "capture_dir",
				    report_json_str(in->capture_dir, strlen(in->capture_dir)));
	json_object_set_new(o, "format", json_string(ingest_format_name(info->format)));
	if (info->file_version)
		json_object_set_new(o, "file_version", json_integer(info->file_version));
	json_object_set_new(o, "compression", report_json_str(info->compression,
							      strnlen(info->compression, sizeof(info->compression))));
	json_object_set_new(o, "clock", report_json_str(info->clock,
							strnlen(info->clock, sizeof(info->clock))));
	if (info->reader[0]) {
		json_object_set_new(o, "reader", json_string(info->reader));
		if (info->reader_note[0])
			json_object_set_new(o, "reader_note", json_string(info->reader_note));
	}
	if (in->kernel_release[0]) {
		json_object_set_new(o, "kernel_release",
				    report_json_str(in->kernel_release, strlen(in->kernel_release)));
		json_object_set_new(o, "kernel_release_from", json_string(in->release_origin));
	} else {
		json_object_set_new(o, "kernel_release", json_null());
	}
	json_object_set_new(o, "cpus", json_integer(in->topo->nr_cpus > info->nr_cpus ?
						       in->topo->nr_cpus : info->nr_cpus));
	json_object_set_new(o, "nodes", json_integer(in->topo->nr_nodes));
	json_object_set_new(o, "topology", report_topology(in->topo));
	json_object_set_new(o, "first_ts_ns", json_integer((json_int_t)info->first_ts_ns));
	json_object_set_new(o, "last_ts_ns", json_integer((json_int_t)info->last_ts_ns));
	json_object_set_new(o, "duration_ns",
			    json_integer((json_int_t)(info->last_ts_ns - info->first_ts_ns)));
	json_object_set_new(o, "events", events);
	json_object_set_new(o, "events_total", json_integer((json_int_t)total));
	json_object_set_new(o, "lost_events", lost_block(info));
	json_object_set_new(o, "unseen", unseen_block(info, in->topo->nr_cpus > info->nr_cpus ?
						     in->topo->nr_cpus : info->nr_cpus));
	json_object_set_new(o, "tasks", json_integer((json_int_t)in->stats->tasks_seen));
	json_object_set_new(o, "migrations", json_integer((json_int_t)in->stats->migrations));
	json_object_set_new(o, "numa_samples", json_integer((json_int_t)in->stats->samples));
	if (in->stats->snapshot_tasks || in->stats->snapshot_bad) {
		const struct model_stats *st = in->stats;
		json_t *sn = json_object();

		json_object_set_new(sn, "tasks", json_integer((json_int_t)st->snapshot_tasks));
		json_object_set_new(sn, "kernel_threads",
				    json_integer((json_int_t)st->snapshot_kthreads));
		json_object_set_new(sn, "bad_lines", json_integer((json_int_t)st->snapshot_bad));
		json_object_set_new(sn, "last_run_seeded",
				    json_integer((json_int_t)st->snapshot_last_ran));
		json_object_set_new(sn, "clock_pairs", json_integer((json_int_t)st->exec_clock_pairs));
		{
			json_t *offs = json_object();
			char key[16];
			int64_t off;
			int c;

			for (c = 0; in->model && c < model_nr_cpus(in->model); c++) {
				if (!model_clock_task_offset(in->model, c, &off))
					continue;
				snprintf(key, sizeof(key), "%d", c);
				json_object_set_new(offs, key, json_integer((json_int_t)off));
			}
			json_object_set_new(sn, "clock_task_offset_ns", offs);
		}
		json_object_set_new(o, "snapshot", sn);
	}

	json_object_set_new(damage, "bad_lines", json_integer((json_int_t)info->bad_lines));
	json_object_set_new(damage, "truncated", json_integer((json_int_t)info->truncated));
	json_object_set_new(damage, "unordered", json_integer((json_int_t)info->unordered));
	json_object_set_new(damage, "bad_markers", json_integer((json_int_t)info->bad_markers));
	json_object_set_new(damage, "pid_reuse", json_integer((json_int_t)in->stats->pid_reuse));
	json_object_set_new(damage, "warnings", json_integer((json_int_t)in->warnings));
	json_object_set_new(o, "damage", damage);
	json_object_set_new(o, "switches_missing", switches_missing(in));
	return o;

out_free:
	json_decref(o);
	json_decref(events);
	json_decref(damage);
	return NULL;
}

static json_int_t jint(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static const char *jstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static void print_ts(FILE *out, json_int_t ns)
{
	fprintf(out, "%" PRId64 ".%06" PRId64, (int64_t)(ns / 1000000000),
		(int64_t)(ns % 1000000000 / 1000));
}

/*
 * "switches:    none missing", or the count and the tasks they leave out:
 * not damage, the file holds what the kernel wrote (docs/robustness.md)
 */
static void missing_text(FILE *out, const json_t *sm)
{
	char esc[4 * SR_COMM_LEN + 1];
	const json_t *t;
	size_t i;

	if (!jint(sm, "count")) {
		fprintf(out, "switches:    none missing\n");
		return;
	}
	fprintf(out, "switches:    %" PRId64 " missing (none lost: the kernel did not record the switch"
		" away from):\n", (int64_t)jint(sm, "count"));
	json_array_foreach(json_object_get(sm, "tasks"), i, t)
		fprintf(out, "  %10" PRId64 "  %s [%" PRId64 "]\n", (int64_t)jint(t, "count"),
			escape_text_value(esc, sizeof(esc), jstr(t, "comm"), SIZE_MAX),
			(int64_t)jint(t, "tid"));
	if (jint(sm, "idle"))
		fprintf(out, "  %10" PRId64 "  the idle task [0]\n", (int64_t)jint(sm, "idle"));
}

int report_info_text(FILE *out, const json_t *o)
{
	const json_t *topo = json_object_get(o, "topology"), *lost = json_object_get(o, "lost_events");
	const json_t *damage = json_object_get(o, "damage"), *events = json_object_get(o, "events");
	const json_t *v, *node;
	const char *key;
	char esc[4 * 1024 + 1];
	json_int_t dur = jint(o, "duration_ns");
	size_t i;

	/* paths and names are escaped: they come from the user or the trace */
	fprintf(out, "trace:       %s\n", escape_text_value(esc, sizeof(esc), jstr(o, "trace"), SIZE_MAX));
	fprintf(out, "format:      %s", jstr(o, "format"));
	if (jint(o, "file_version")) {
		fprintf(out, " version %d", (int)jint(o, "file_version"));
		fprintf(out, ", %s", jstr(o, "compression")[0] ? jstr(o, "compression") : "uncompressed");
	}
	if (jstr(o, "clock")[0])
		fprintf(out, ", clock %s", escape_text_value(esc, sizeof(esc), jstr(o, "clock"), SIZE_MAX));
	fputc('\n', out);
	if (json_is_string(json_object_get(o, "kernel_release")))
		fprintf(out, "kernel:      %s (from %s)\n",
			escape_text_value(esc, sizeof(esc), jstr(o, "kernel_release"), SIZE_MAX),
			jstr(o, "kernel_release_from"));
	else
		fprintf(out, "kernel:      unknown (not recorded)\n");
	fprintf(out, "cpus:        %d\n", (int)jint(o, "cpus"));
	fprintf(out, "nodes:       %d (topology from %s%s%s)\n", (int)jint(o, "nodes"),
		jstr(topo, "source"), jstr(topo, "origin")[0] ? ": " : "",
		escape_text_value(esc, sizeof(esc), jstr(topo, "origin"), SIZE_MAX));
	json_array_foreach(json_object_get(topo, "nodes"), i, node) {
		size_t j;

		fprintf(out, "  node %d  cpus %-10s distance", (int)jint(node, "id"),
			jstr(node, "cpus")[0] ? jstr(node, "cpus") : "-");
		json_array_foreach(json_object_get(node, "distance"), j, v)
			fprintf(out, " %d", (int)json_integer_value(v));
		fputc('\n', out);
	}
	fprintf(out, "time span:   ");
	print_ts(out, jint(o, "first_ts_ns"));
	fprintf(out, " .. ");
	print_ts(out, jint(o, "last_ts_ns"));
	fprintf(out, " (%" PRId64 ".%06" PRId64 " s)\n", (int64_t)(dur / 1000000000),
		(int64_t)(dur % 1000000000 / 1000));
	fprintf(out, "events:      %" PRId64 "\n", (int64_t)jint(o, "events_total"));
	json_object_foreach((json_t *)events, key, v)
		fprintf(out, "  %-24s %10" PRId64 "\n",
			escape_text(esc, sizeof(esc), key, SIZE_MAX), (int64_t)json_integer_value(v));
	if (!jint(lost, "markers")) {
		fprintf(out, "lost events: none\n");
	} else {
		fprintf(out, "lost events: %" PRId64 " counted in %" PRId64 " gaps\n",
			(int64_t)jint(lost, "total"), (int64_t)jint(lost, "markers"));
		json_array_foreach(json_object_get(lost, "per_cpu"), i, v) {
			json_int_t gaps = json_integer_value(
				json_array_get(json_object_get(lost, "markers_per_cpu"), i));

			if (gaps)
				fprintf(out, "  cpu %-4zu %10" PRId64 " in %" PRId64 " gaps\n", i,
					(int64_t)json_integer_value(v), (int64_t)gaps);
		}
	}
	if (!json_array_size(json_object_get(o, "unseen")))
		fprintf(out, "unseen:      none (every cpu seen from start to end, no lost events)\n");
	else
		fprintf(out, "unseen:      %zu stretches where a cpu was not seen\n",
			json_array_size(json_object_get(o, "unseen")));
	json_array_foreach(json_object_get(o, "unseen"), i, v) {
		json_int_t len = jint(v, "to_ns") - jint(v, "from_ns");

		fprintf(out, "  cpu %-4d ", (int)jint(v, "cpu"));
		print_ts(out, jint(v, "from_ns"));
		fprintf(out, " .. ");
		print_ts(out, jint(v, "to_ns"));
		fprintf(out, " (%" PRId64 ".%06" PRId64 " s) %s\n", (int64_t)(len / 1000000000),
			(int64_t)(len % 1000000000 / 1000), jstr(v, "why"));
	}
	fprintf(out, "tasks:       %" PRId64 "\n", (int64_t)jint(o, "tasks"));
	fprintf(out, "migrations:  %" PRId64 "\n", (int64_t)jint(o, "migrations"));
	fprintf(out, "numa samples: %" PRId64 "\n", (int64_t)jint(o, "numa_samples"));
	if (json_object_get(o, "snapshot")) {
		const json_t *sn = json_object_get(o, "snapshot");

		fprintf(out, "snapshot:    %" PRId64 " tasks at the start (%" PRId64
			" kernel threads, %" PRId64 " bad lines); last run seeded for %" PRId64,
			(int64_t)jint(sn, "tasks"), (int64_t)jint(sn, "kernel_threads"),
			(int64_t)jint(sn, "bad_lines"), (int64_t)jint(sn, "last_run_seeded"));
		if (jint(sn, "clock_pairs")) {
			const char *k;
			const json_t *ov;
			bool first = true;

			fprintf(out, " (se.exec_start + the clock_task offset measured on %" PRId64
				" tasks:", (int64_t)jint(sn, "clock_pairs"));
			json_object_foreach((json_t *)json_object_get(sn, "clock_task_offset_ns"), k, ov) {
				fprintf(out, "%s cpu %s %.3f s", first ? "" : ",", k,
					(double)json_integer_value(ov) / 1e9);
				first = false;
			}
			fprintf(out, ")\n");
		} else {
			fprintf(out, " (no task gave the clock_task offset)\n");
		}
	}
	fprintf(out, "damage:      %" PRId64 " bad lines, %" PRId64 " truncated, %" PRId64
		" out of order, %" PRId64 " bad markers, %" PRId64 " pid reuses\n",
		(int64_t)jint(damage, "bad_lines"), (int64_t)jint(damage, "truncated"),
		(int64_t)jint(damage, "unordered"), (int64_t)jint(damage, "bad_markers"),
		(int64_t)jint(damage, "pid_reuse"));
	missing_text(out, json_object_get(o, "switches_missing"));
	if (fflush(out) == EOF || ferror(out))
		return -EIO;
	return 0;
}
