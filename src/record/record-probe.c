// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record-probe.c - the decision probes' definitions: for each probe of
 * docs/recording.md ("Decision probes"), its symbol from kallsyms, its
 * prototype checked in BTF and its fetch arguments as byte offsets from
 * BTF ("+OFF(%si):u32", "+O2(+O1(%si)):u32").  Pure: record.c creates the
 * probes in tracefs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ingest/event.h"
#include "record.h"
#include "record-probe.h"

enum base { B_P, B_ENV };	/* first argument (%di), second (%si) */

/* one fetch argument: BASE->m1 or BASE->m1->m2 */
struct field {
	const char	*name;
	const char	*type;		/* kprobe fetch type */
	unsigned int	size;		/* bytes the member must have */
	enum base	base;
	const char	*s1, *m1;	/* struct of BASE, member (path) */
	const char	*s2, *m2;	/* when set, m1 is a pointer to struct s2 */
};

#define TP "task_struct"
#define ENV "lb_env"
#define SD "sched_domain"
#define RQ "rq"
static const struct field cmt_fields[] = {
	{ "pid",	"s32", 4, B_P, TP, "pid", NULL, NULL },
	{ "p_flags",	"u32", 4, B_P, TP, "flags", NULL, NULL },
	{ "on_cpu",	"s32", 4, B_P, TP, "on_cpu", NULL, NULL },
	{ "exec_start",	"u64", 8, B_P, TP, "se.exec_start", NULL, NULL },
	{ "load_avg",	"u64", 8, B_P, TP, "se.avg.load_avg", NULL, NULL },
	{ "util_avg",	"u64", 8, B_P, TP, "se.avg.util_avg", NULL, NULL },
	{ "pref_nid",	"s32", 4, B_P, TP, "numa_preferred_nid", NULL, NULL },
	{ "faults",	"x64", 8, B_P, TP, "numa_faults", NULL, NULL },
	{ "tfaults",	"u64", 8, B_P, TP, "total_numa_faults", NULL, NULL },
	{ "ngrp",	"x64", 8, B_P, TP, "numa_group", NULL, NULL },
	{ "ngid",	"s32", 4, B_P, TP, "numa_group", "numa_group", "gid" },
	{ "ng_maxcpu",	"u64", 8, B_P, TP, "numa_group", "numa_group", "max_faults_cpu" },
	{ "src_cpu",	"s32", 4, B_ENV, ENV, "src_cpu", NULL, NULL },
	{ "dst_cpu",	"s32", 4, B_ENV, ENV, "dst_cpu", NULL, NULL },
	{ "idle",	"s32", 4, B_ENV, ENV, "idle", NULL, NULL },
	{ "imbalance",	"s64", 8, B_ENV, ENV, "imbalance", NULL, NULL },
	{ "env_flags",	"u32", 4, B_ENV, ENV, "flags", NULL, NULL },
	{ "mtype",	"s32", 4, B_ENV, ENV, "migration_type", NULL, NULL },
	{ "nr_bf",	"u32", 4, B_ENV, ENV, "sd", SD, "nr_balance_failed" },
	{ "cnt",	"u32", 4, B_ENV, ENV, "sd", SD, "cache_nice_tries" },
	{ "sd_flags",	"s32", 4, B_ENV, ENV, "sd", SD, "flags" },
	{ "sd_level",	"s32", 4, B_ENV, ENV, "sd", SD, "level" },
	{ "sd_span",	"u32", 4, B_ENV, ENV, "sd", SD, "span_weight" },
	{ "src_nr",	"u32", 4, B_ENV, ENV, "src_rq", RQ, "nr_running" },
	{ "src_npref",	"u32", 4, B_ENV, ENV, "src_rq", RQ, "nr_preferred_running" },
	{ "src_nmig",	"u32", 4, B_ENV, ENV, "src_rq", RQ, "numa_migrate_on" },
	{ "src_clock",	"u64", 8, B_ENV, ENV, "src_rq", RQ, "clock_task" },
	{ "dst_nr",	"u32", 4, B_ENV, ENV, "dst_rq", RQ, "nr_running" },
	{ "next",	"x64", 8, B_ENV, ENV, "src_rq", RQ, "cfs.next" },
	{ "last",	"x64", 8, B_ENV, ENV, "src_rq", RQ, "cfs.last" },
};

static const struct field strf_fields[] = {
	{ "pid",	"s32", 4, B_P, TP, "pid", NULL, NULL },
};

/* x86-64 argument registers */
static const char *const base_reg[] = { "%di", "%si" };

static void add(struct record_probe *p, const struct field *f, unsigned int o1,
		unsigned int o2)
{
	size_t n = strlen(p->fetch);
	const char *reg = base_reg[f->base];

	if (n >= sizeof(p->fetch) - 1)
		return;
	if (f->s2)
		snprintf(p->fetch + n, sizeof(p->fetch) - n, " %s=+%u(+%u(%s)):%s", f->name, o2,
			 o1, reg, f->type);
	else
		snprintf(p->fetch + n, sizeof(p->fetch) - n, " %s=+%u(%s):%s", f->name, o1, reg,
			 f->type);
}

static void add_missing(struct record_probe *p, const char *name)
{
	size_t n = strlen(p->missing);

	snprintf(p->missing + n, sizeof(p->missing) - n, "%s%s", n ? "," : "", name);
}

/* one field's fetch argument appended to p->fetch, or its name to p->missing */
static void build_field(struct record_probe *p, const struct record_btf *btf,
			const struct field *f)
{
	unsigned int o1, s1, o2 = 0, s2 = 0;
	char why[RECORD_PROBE_WHY];

	if (record_btf_member(btf, f->s1, f->m1, &o1, &s1, why, sizeof(why)) < 0 ||
	    (f->s2 && s1 != 8) ||
	    (f->s2 && record_btf_member(btf, f->s2, f->m2, &o2, &s2, why, sizeof(why)) < 0) ||
	    (f->s2 ? s2 : s1) != f->size) {
		add_missing(p, f->name);
		return;
	}
	add(p, f, o1, o2);
}

/*
 * The fault counters migrate_degrades_locality() weighs, per node and
 * private/shared (index 2 * (stat * nr_node_ids + node) + priv): "tfN" the
 * task's NUMA_MEM ones (the first 2 * nr_node_ids of p->numa_faults[]),
 * "gfN" its group's NUMA_MEM and NUMA_CPU ones (the first 4 * nr_node_ids
 * of the flexible faults[]; NUMA_CPU with max_faults_cpu gives the active
 * nodes).  Read only where the pointer is set (ngrp, faults): behind a NULL
 * one the kernel's fetch fails.
 */
static void build_fault_fields(struct record_probe *p, const struct record_btf *btf,
			       int nr_node_ids)
{
	unsigned int tf_off, tf_size, ng_off, ng_size, gf_off, gf_size;
	char why[RECORD_PROBE_WHY];
	size_t n;
	int i;

	if (nr_node_ids <= 0 || nr_node_ids > SR_PROBE_FAULT_NODES) {
		add_missing(p, "tf");
		add_missing(p, "gf");
		return;
	}
	if (record_btf_member(btf, TP, "numa_faults", &tf_off, &tf_size, why, sizeof(why)) < 0 ||
	    tf_size != 8) {
		add_missing(p, "tf");
	} else {
		for (i = 0; i < 2 * nr_node_ids; i++) {
			n = strlen(p->fetch);
			snprintf(p->fetch + n, sizeof(p->fetch) - n, " tf%d=+%u(+%u(%%di)):u64", i,
				 8u * i, tf_off);
		}
	}
	/* faults[] is a flexible array: BTF gives it no size */
	if (record_btf_member(btf, TP, "numa_group", &ng_off, &ng_size, why, sizeof(why)) < 0 ||
	    ng_size != 8 ||
	    record_btf_member(btf, "numa_group", "faults", &gf_off, &gf_size, why,
			      sizeof(why)) < 0 || gf_size != 0) {
		add_missing(p, "gf");
		return;
	}
	for (i = 0; i < 4 * nr_node_ids; i++) {
		n = strlen(p->fetch);
		snprintf(p->fetch + n, sizeof(p->fetch) - n, " gf%d=+%u(+%u(%%di)):u64", i,
			 gf_off + 8u * i, ng_off);
	}
}

static void set_missing(struct record_probe *p, const char *why)
{
	p->ok = false;
	snprintf(p->why, sizeof(p->why), "%s", why);
}

/* "why" text as a marker word: blanks become '-' */
static void wordify(char *s)
{
	for (; *s; s++)
		if (*s == ' ' || *s == '\t' || *s == '=' || *s == '"')
			*s = '-';
}

static void resolve_one(struct record_probe *entry, struct record_probe *ret,
			const struct record_btf *btf, const char *sym, int nargs,
			const char *const *args, const struct field *fields, size_t nr_fields,
			const char *extra, bool fetches, int nr_node_ids)
{
	char why[RECORD_PROBE_WHY];
	size_t i;

	if (!*sym) {
		snprintf(why, sizeof(why), "symbol %s not found", entry->func);
		set_missing(entry, why);
		set_missing(ret, why);
		return;
	}
	snprintf(entry->symbol, sizeof(entry->symbol), "%s", sym);
	snprintf(ret->symbol, sizeof(ret->symbol), "%s", sym);
	if (fetches && record_symbol_is_clone(sym)) {
		/* a clone's registers need not hold the source's arguments */
		snprintf(why, sizeof(why), "symbol is the clone %.100s: arguments untrusted",
			 sym);
		set_missing(entry, why);
		set_missing(ret, why);
		return;
	}
	if (nargs >= 0 &&
	    record_btf_proto(btf, entry->func, nargs, args, why, sizeof(why)) < 0) {
		set_missing(entry, why);
		set_missing(ret, why);
		return;
	}
	entry->ok = true;
	ret->ok = true;
	snprintf(entry->fetch, sizeof(entry->fetch), "%s", extra);
	for (i = 0; i < nr_fields; i++)
		build_field(entry, btf, &fields[i]);
	if (nr_node_ids >= 0)
		build_fault_fields(entry, btf, nr_node_ids);
	snprintf(ret->fetch, sizeof(ret->fetch), "ret=$retval:s32");
	if (fetches) {
		unsigned int off, size;

		entry->se_off = record_btf_member(btf, TP, "se", &off, &size, why,
						  sizeof(why)) < 0 ? -1 : (int)off;
	}
}

void record_probe_resolve(struct record_probe *p, const struct record_btf *btf,
			  const char *no_btf, const char *kallsyms, const char *machine,
			  int nr_node_ids)
{
	static const char *const cmt_args[] = { TP, ENV };
	static const char *const strf_args[] = { TP, "int", "int" };
	static const struct { const char *name, *func; bool ret; } defs[RECORD_NR_PROBES] = {
		{ "cmt", "can_migrate_task", false }, { "cmt_ret", "can_migrate_task", true },
		{ "strf", "select_task_rq_fair", false }, { "strf_ret", "select_task_rq_fair", true },
		{ "tnm", "task_numa_migrate", false }, { "tnm_ret", "task_numa_migrate", true },
	};
	static const char *const funcs[] = {
		"can_migrate_task", "select_task_rq_fair", "task_numa_migrate",
	};
	char sym[3][RECORD_SYM_LEN];
	char why[RECORD_PROBE_WHY];
	int i, rc;

	memset(p, 0, sizeof(*p) * RECORD_NR_PROBES);
	for (i = 0; i < RECORD_NR_PROBES; i++) {
		p[i].name = defs[i].name;
		p[i].func = defs[i].func;
		p[i].ret = defs[i].ret;
		p[i].se_off = -1;
		p[i].hits = -1ULL;
		p[i].misses = -1ULL;
		p[i].hits0 = -1ULL;
		p[i].misses0 = -1ULL;
		if (!btf || !btf->btf)
			set_missing(&p[i], no_btf && *no_btf ? no_btf : "no BTF");
		else if (!machine || strcmp(machine, "x86_64"))
			set_missing(&p[i], "argument registers known on x86_64 only");
	}
	if (p[0].why[0])
		goto words;
	rc = record_kallsyms_lookup(kallsyms, funcs, 3, sym);
	if (rc < 0) {
		snprintf(why, sizeof(why), "cannot read %s: %s", kallsyms, strerror(-rc));
		for (i = 0; i < RECORD_NR_PROBES; i++)
			set_missing(&p[i], why);
		goto words;
	}
	resolve_one(&p[0], &p[1], btf, sym[0], 2, cmt_args, cmt_fields,
		    sizeof(cmt_fields) / sizeof(cmt_fields[0]), "task=%di:x64", true, nr_node_ids);
	resolve_one(&p[2], &p[3], btf, sym[1], 3, strf_args, strf_fields,
		    sizeof(strf_fields) / sizeof(strf_fields[0]),
		    "prev_cpu=%si:s32 wake_flags=%dx:s32", true, -1);
	/* task_numa_migrate: no arguments fetched, so its clone (6.1: .isra.0) will do */
	resolve_one(&p[4], &p[5], btf, sym[2], -1, NULL, NULL, 0, "", false, -1);
words:
	for (i = 0; i < RECORD_NR_PROBES; i++)
		wordify(p[i].why);
}

size_t record_probe_marker(const struct record_probe *p, char *buf, size_t len)
{
	const char *vals[MK_PROBE__COUNT] = { NULL };
	char se_off[16];

	vals[MK_PROBE_NAME] = p->name;
	vals[MK_PROBE_FUNC] = p->func;
	vals[MK_PROBE_KIND] = p->ret ? "kretprobe" : "kprobe";
	vals[MK_PROBE_SYMBOL] = p->symbol[0] ? p->symbol : NULL;
	vals[MK_PROBE_STATUS] = p->added ? "added" : "missing";
	if (p->added && p->se_off >= 0) {
		snprintf(se_off, sizeof(se_off), "%d", p->se_off);
		vals[MK_PROBE_SE_OFF] = se_off;
	}
	if (p->added && p->missing[0])
		vals[MK_PROBE_MISSING] = p->missing;
	if (!p->added)
		vals[MK_PROBE_REASON] = p->why[0] ? p->why : "not-tried";
	/* the keys' names and order from ingest's table (record-line.c) */
	return record_marker_line(buf, len, SR_MARK_PROBE, vals);
}
