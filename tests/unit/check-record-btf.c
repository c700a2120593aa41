// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-record-btf.c - the decision probes' BTF resolution
 * (src/record/record-btf.c) and fetch arguments (record-probe.c): against a
 * small BTF built here with libbpf (typedefs, anonymous unions, bitfields,
 * wrong sizes, a pointer step), written to a file and read back, and against
 * the host's own /sys/kernel/btf/vmlinux when it has one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "check-common.h"
#include "ingest/event.h"
#include "ingest/marker.h"
#include "record/record-btf.h"
#include "record/record-probe.h"

static char btf_path[] = "/tmp/check-record-btf.XXXXXX";
static char syms_path[] = "/tmp/check-record-syms.XXXXXX";

/*
 * struct sched_avg { u64 load_avg; u64 util_avg; };
 * struct sched_entity { u64 exec_start; union { struct sched_avg avg; }; };
 * struct task_struct { int pid; u64 flags; const int on_cpu; struct sched_entity se; };
 * struct sched_domain { char pad[84]; unsigned nr_balance_failed; };
 * struct cfs_rq { struct sched_entity *next; };
 * struct rq { unsigned nr_running; struct cfs_rq cfs; };
 * struct lb_env { struct sched_domain *sd; int src_cpu; struct rq *src_rq;
 *                 unsigned idle:2; };
 * int can_migrate_task(struct task_struct *, struct lb_env *);
 * int select_task_rq_fair(const struct task_struct *, int, int);
 * int task_numa_migrate(int);
 */
static void write_btf(void)
{
	struct btf *b = btf__new_empty();
	int i32, u32, u64, ch, arr, avg, un, se, tp, cint, sd, cfs, rq, env, proto, f;
	int pse, psd, prq, ptp, penv, ctp, pctp;
	const void *raw;
	__u32 size;
	FILE *out;

	ck_assert_ptr_nonnull(b);
	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	u32 = btf__add_int(b, "unsigned int", 4, 0);
	u64 = btf__add_typedef(b, "u64", btf__add_int(b, "long long unsigned int", 8, 0));
	ch = btf__add_int(b, "char", 1, BTF_INT_CHAR);
	arr = btf__add_array(b, u32, ch, 84);
	avg = btf__add_struct(b, "sched_avg", 16);
	btf__add_field(b, "load_avg", u64, 0, 0);
	btf__add_field(b, "util_avg", u64, 64, 0);
	un = btf__add_union(b, NULL, 16);
	btf__add_field(b, "avg", avg, 0, 0);
	se = btf__add_struct(b, "sched_entity", 24);
	btf__add_field(b, "exec_start", u64, 0, 0);
	btf__add_field(b, NULL, un, 64, 0);
	cint = btf__add_const(b, i32);
	tp = btf__add_struct(b, "task_struct", 48);
	btf__add_field(b, "pid", i32, 0, 0);
	btf__add_field(b, "flags", u64, 64, 0);
	btf__add_field(b, "on_cpu", cint, 128, 0);
	btf__add_field(b, "se", se, 192, 0);
	sd = btf__add_struct(b, "sched_domain", 88);
	btf__add_field(b, "pad", arr, 0, 0);
	btf__add_field(b, "nr_balance_failed", u32, 84 * 8, 0);
	pse = btf__add_ptr(b, se);
	cfs = btf__add_struct(b, "cfs_rq", 8);
	btf__add_field(b, "next", pse, 0, 0);
	rq = btf__add_struct(b, "rq", 16);
	btf__add_field(b, "nr_running", u32, 0, 0);
	btf__add_field(b, "cfs", cfs, 64, 0);
	psd = btf__add_ptr(b, sd);
	prq = btf__add_ptr(b, rq);
	env = btf__add_struct(b, "lb_env", 32);
	btf__add_field(b, "sd", psd, 0, 0);
	btf__add_field(b, "src_cpu", i32, 64, 0);
	btf__add_field(b, "src_rq", prq, 128, 0);
	btf__add_field(b, "idle", u32, 192, 2);
	ptp = btf__add_ptr(b, tp);
	penv = btf__add_ptr(b, env);
	proto = btf__add_func_proto(b, i32);
	btf__add_func_param(b, "p", ptp);
	btf__add_func_param(b, "env", penv);
	f = btf__add_func(b, "can_migrate_task", BTF_FUNC_STATIC, proto);
	ck_assert_int_gt(f, 0);
	ctp = btf__add_const(b, tp);
	pctp = btf__add_ptr(b, ctp);
	proto = btf__add_func_proto(b, i32);
	btf__add_func_param(b, "p", pctp);
	btf__add_func_param(b, "prev_cpu", i32);
	btf__add_func_param(b, "wake_flags", i32);
	ck_assert_int_gt(btf__add_func(b, "select_task_rq_fair", BTF_FUNC_STATIC, proto), 0);
	proto = btf__add_func_proto(b, i32);
	btf__add_func_param(b, "x", i32);
	ck_assert_int_gt(btf__add_func(b, "task_numa_migrate", BTF_FUNC_STATIC, proto), 0);
	raw = btf__raw_data(b, &size);
	ck_assert_ptr_nonnull(raw);
	out = fdopen(mkstemp(btf_path), "w");
	ck_assert_ptr_nonnull(out);
	ck_assert_uint_eq(fwrite(raw, 1, size, out), size);
	fclose(out);
	btf__free(b);
}

static void write_syms(const char *text)
{
	FILE *out;

	strcpy(syms_path, "/tmp/check-record-syms.XXXXXX");
	out = fdopen(mkstemp(syms_path), "w");
	ck_assert_ptr_nonnull(out);
	fputs(text, out);
	fclose(out);
}

static void setup(void)
{
	strcpy(btf_path, "/tmp/check-record-btf.XXXXXX");
	write_btf();
	write_syms("ffffffff81000000 t can_migrate_task\n"
		   "ffffffff81000100 t select_task_rq_fair.cold\n"
		   "ffffffff81000200 t select_task_rq_fair.constprop.0\n"
		   "ffffffff81000300 t task_numa_migrate.isra.0\n"
		   "ffffffff81000400 t can_migrate_task_x\n"
		   "ffffffff81000500 t other_func\t[some_mod]\n");
}

static void teardown(void)
{
	unlink(btf_path);
	unlink(syms_path);
}

START_TEST(test_member_walks)
{
	struct record_btf b = { 0 };
	char why[160] = "";
	unsigned int off = 0, size = 0;

	ck_assert_int_eq(record_btf_open(&b, btf_path, why, sizeof(why)), 0);
	/* through an embedded struct and an anonymous union, past a typedef */
	ck_assert_int_eq(record_btf_member(&b, "task_struct", "se.avg.util_avg", &off, &size,
					   why, sizeof(why)), 0);
	ck_assert_uint_eq(off, 24 + 8 + 8);
	ck_assert_uint_eq(size, 8);
	ck_assert_int_eq(record_btf_member(&b, "task_struct", "on_cpu", &off, &size, why,
					   sizeof(why)), 0);
	ck_assert_uint_eq(off, 16);
	ck_assert_uint_eq(size, 4);
	ck_assert_int_eq(record_btf_member(&b, "rq", "cfs.next", &off, &size, why, sizeof(why)), 0);
	ck_assert_uint_eq(off, 8);
	ck_assert_uint_eq(size, 8);
	ck_assert_int_eq(record_btf_member(&b, "sched_domain", "nr_balance_failed", &off, &size,
					   why, sizeof(why)), 0);
	ck_assert_uint_eq(off, 84);
	/* refused: a bitfield, a step through a pointer, missing names */
	ck_assert_int_eq(record_btf_member(&b, "lb_env", "idle", &off, &size, why, sizeof(why)),
			 -EINVAL);
	ck_assert_str_eq(why, "member lb_env.idle is a bitfield");
	ck_assert_int_eq(record_btf_member(&b, "lb_env", "sd.nr_balance_failed", &off, &size,
					   why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(record_btf_member(&b, "lb_env", "imbalance", &off, &size, why,
					   sizeof(why)), -ENOENT);
	ck_assert_str_eq(why, "member lb_env.imbalance not in BTF");
	ck_assert_int_eq(record_btf_member(&b, "no_such", "x", &off, &size, why, sizeof(why)),
			 -ENOENT);
	ck_assert_str_eq(why, "struct no_such not in BTF");
	record_btf_close(&b);
	ck_assert_ptr_null(b.btf);
}
END_TEST

START_TEST(test_protos)
{
	static const char *const cmt[] = { "task_struct", "lb_env" };
	static const char *const swapped[] = { "lb_env", "task_struct" };
	static const char *const strf[] = { "task_struct", "int", "int" };
	struct record_btf b = { 0 };
	char why[160] = "";

	ck_assert_int_eq(record_btf_open(&b, btf_path, why, sizeof(why)), 0);
	ck_assert_int_eq(record_btf_proto(&b, "can_migrate_task", 2, cmt, why, sizeof(why)), 0);
	ck_assert_int_eq(record_btf_proto(&b, "can_migrate_task", 2, swapped, why, sizeof(why)),
			 -EINVAL);
	ck_assert_str_eq(why, "prototype differs: can_migrate_task argument 1 is struct "
			 "task_struct *, not lb_env *");
	ck_assert_int_eq(record_btf_proto(&b, "can_migrate_task", 3, strf, why, sizeof(why)),
			 -EINVAL);
	/* a const pointee is still the struct */
	ck_assert_int_eq(record_btf_proto(&b, "select_task_rq_fair", 3, strf, why, sizeof(why)), 0);
	ck_assert_int_eq(record_btf_proto(&b, "load_balance", 0, NULL, why, sizeof(why)), -ENOENT);
	ck_assert_str_eq(why, "function load_balance not in BTF");
	record_btf_close(&b);
}
END_TEST

START_TEST(test_kallsyms)
{
	char sym[128];

	ck_assert_int_eq(record_kallsyms_find(syms_path, "can_migrate_task", sym, sizeof(sym)), 0);
	ck_assert_str_eq(sym, "can_migrate_task");
	/* ".cold" is not a clone of the function's entry */
	ck_assert_int_eq(record_kallsyms_find(syms_path, "select_task_rq_fair", sym, sizeof(sym)),
			 0);
	ck_assert_str_eq(sym, "select_task_rq_fair.constprop.0");
	ck_assert_int_eq(record_kallsyms_find(syms_path, "task_numa_migrate", sym, sizeof(sym)), 0);
	ck_assert_str_eq(sym, "task_numa_migrate.isra.0");
	ck_assert_int_eq(record_kallsyms_find(syms_path, "other_func", sym, sizeof(sym)), -ENOENT);
	ck_assert_int_eq(record_kallsyms_find(syms_path, "can_migrate", sym, sizeof(sym)), -ENOENT);
	ck_assert_int_eq(record_kallsyms_find("/nonexistent/kallsyms", "x", sym, sizeof(sym)),
			 -ENOENT);
	/* one pass for several; the exact name wins over a clone listed before it */
	{
		static const char *const f[] = { "foo", "bar", "baz" };
		char out[3][RECORD_SYM_LEN];

		unlink(syms_path);
		write_syms("ffffffff81000000 t foo.part.0\n"
			   "ffffffff81000100 T foo\n"
			   "ffffffff81000200 t bar.isra.1\n"
			   "ffffffff81000300 d baz\n");
		ck_assert_int_eq(record_kallsyms_lookup(syms_path, f, 3, out), 2);
		ck_assert_str_eq(out[0], "foo");
		ck_assert_str_eq(out[1], "bar.isra.1");
		ck_assert_str_eq(out[2], "");
	}
	ck_assert(record_symbol_is_clone("a.isra.0.constprop.1"));
	ck_assert(record_symbol_is_clone("a.part.12"));
	ck_assert(!record_symbol_is_clone("a.cold"));
	ck_assert(!record_symbol_is_clone("a.isra."));
	ck_assert(!record_symbol_is_clone("a"));
}
END_TEST

START_TEST(test_resolve_small_btf)
{
	struct record_probe p[RECORD_NR_PROBES];
	struct record_btf b = { 0 };
	char why[160] = "";

	ck_assert_int_eq(record_btf_open(&b, btf_path, why, sizeof(why)), 0);
	record_probe_resolve(p, &b, NULL, syms_path, "x86_64", 0);
	ck_assert_str_eq(p[0].name, "cmt");
	ck_assert(p[0].ok && p[1].ok);
	/* flags has 8 bytes here, not 4: left out, as every member BTF lacks */
	ck_assert_str_eq(p[0].fetch, "task=%di:x64 pid=+0(%di):s32 on_cpu=+16(%di):s32 "
			 "exec_start=+24(%di):u64 load_avg=+32(%di):u64 util_avg=+40(%di):u64 "
			 "src_cpu=+8(%si):s32 nr_bf=+84(+0(%si)):u32 src_nr=+0(+16(%si)):u32 "
			 "next=+8(+16(%si)):x64");
	ck_assert_str_eq(p[0].missing,
			 "p_flags,pref_nid,faults,tfaults,ngrp,ngid,ng_maxcpu,dst_cpu,idle,imbalance,"
			 "env_flags,mtype,cnt,sd_flags,sd_level,sd_span,src_npref,src_nmig,"
			 "src_clock,dst_nr,last,tf,gf");
	ck_assert_int_eq(p[0].se_off, 24);
	ck_assert_str_eq(p[1].fetch, "ret=$retval:s32");
	ck_assert(p[1].ret);
	/* select_task_rq_fair only as a clone: its arguments cannot be trusted */
	ck_assert(!p[2].ok && !p[3].ok);
	ck_assert_ptr_nonnull(strstr(p[2].why, "clone-select_task_rq_fair.constprop.0"));
	ck_assert_ptr_null(strchr(p[2].why, ' '));
	/* task_numa_migrate fetches nothing: its .isra clone will do */
	ck_assert(p[4].ok && p[5].ok);
	ck_assert_str_eq(p[4].symbol, "task_numa_migrate.isra.0");
	ck_assert_str_eq(p[4].fetch, "");
	ck_assert_str_eq(p[5].fetch, "ret=$retval:s32");
	/* other machines: no register names */
	record_probe_resolve(p, &b, NULL, syms_path, "aarch64", 0);
	ck_assert(!p[0].ok);
	ck_assert_str_eq(p[0].why, "argument-registers-known-on-x86_64-only");
	record_btf_close(&b);
	/* no BTF: every probe missing with the reason given */
	record_probe_resolve(p, NULL, "no kprobe_events", syms_path, "x86_64", 0);
	ck_assert(!p[0].ok && !p[5].ok);
	ck_assert_str_eq(p[5].why, "no-kprobe_events");
}
END_TEST

/* the marker line decodes with the table's keys */
START_TEST(test_marker_line)
{
	struct record_probe p[RECORD_NR_PROBES];
	struct record_btf b = { 0 };
	struct sr_event ev = { .kind = SR_EV_PRINT };
	struct marker_probe mp;
	char why[160] = "";
	char line[1024];

	ck_assert_int_eq(record_btf_open(&b, btf_path, why, sizeof(why)), 0);
	record_probe_resolve(p, &b, NULL, syms_path, "x86_64", 0);
	record_btf_close(&b);
	p[0].added = true;
	ev.str = line;
	ev.str_len = (uint32_t)record_probe_marker(&p[0], line, sizeof(line));
	ev.marker = marker_classify(line, ev.str_len);
	ck_assert_int_eq(ev.marker, SR_MARK_PROBE);
	ck_assert_int_eq(marker_decode_probe(&ev, &mp), 0);
	ck_assert_int_eq((int)mp.name.len, 3);
	ck_assert(!strncmp(mp.name.s, "cmt", 3));
	ck_assert(!strncmp(mp.status.s, "added", mp.status.len));
	ck_assert(!strncmp(mp.kind.s, "kprobe", mp.kind.len));
	ck_assert_int_eq(mp.se_off, 24);
	ck_assert(!strncmp(mp.missing.s, "p_flags,pref_nid", 16));
	ck_assert_int_eq((int)mp.reason.len, 0);
	/* a missing one says why */
	ev.str_len = (uint32_t)record_probe_marker(&p[2], line, sizeof(line));
	ck_assert_int_eq(marker_decode_probe(&ev, &mp), 0);
	ck_assert(!strncmp(mp.status.s, "missing", mp.status.len));
	ck_assert_int_gt((int)mp.reason.len, 10);
	ck_assert_int_eq(mp.se_off, -1);
}
END_TEST

/* the host's own kernel BTF, where it has one (exit 77 of this case otherwise is not
 * possible in Check: it passes with a note) */
START_TEST(test_host_btf)
{
	struct record_probe p[RECORD_NR_PROBES];
	struct record_btf b = { 0 };
	char why[160] = "";
	char want[64];
	unsigned int off, size;

	if (access("/sys/kernel/btf/vmlinux", R_OK) < 0) {
		fprintf(stderr, "check-record-btf: no /sys/kernel/btf/vmlinux, host case skipped\n");
		return;
	}
	ck_assert_msg(record_btf_open(&b, NULL, why, sizeof(why)) == 0, "%s", why);
	ck_assert_int_eq(record_btf_member(&b, "task_struct", "pid", &off, &size, why,
					   sizeof(why)), 0);
	ck_assert_uint_eq(size, 4);
	ck_assert_int_eq(record_btf_member(&b, "sched_domain", "nr_balance_failed", &off, &size,
					   why, sizeof(why)), 0);
	ck_assert_uint_eq(size, 4);
	record_probe_resolve(p, &b, NULL, "/proc/kallsyms", "x86_64", 0);
	if (p[0].ok) {
		ck_assert(!strncmp(p[0].fetch, "task=%di:x64 pid=+", 18));
		snprintf(want, sizeof(want), " nr_bf=+%u(+", off);
		ck_assert_msg(strstr(p[0].fetch, want), "%s lacks '%s'", p[0].fetch, want);
		ck_assert_int_ge(p[0].se_off, 0);
	} else {
		fprintf(stderr, "check-record-btf: host cmt: %s\n", p[0].why);
	}
	record_btf_close(&b);
}
END_TEST

/*
 * The lab kernel's own BTF (fixtures/btf/): every offset against pahole's
 * reading of the same file (fixtures/btf/README.md), the symbols of its kallsyms.
 */
START_TEST(test_lab_kernel_btf)
{
	static const char want[] =
		"task=%di:x64 pid=+2416(%di):s32 p_flags=+44(%di):u32 on_cpu=+52(%di):s32 "
		"exec_start=+192(%di):u64 load_avg=+352(%di):u64 util_avg=+368(%di):u64 "
		"pref_nid=+3800(%di):s32 faults=+3864(%di):x64 tfaults=+3872(%di):u64 "
		"ngrp=+3856(%di):x64 ngid=+12(+3856(%di)):s32 ng_maxcpu=+48(+3856(%di)):u64 "
		"src_cpu=+16(%si):s32 dst_cpu=+20(%si):s32 idle=+52(%si):s32 "
		"imbalance=+56(%si):s64 env_flags=+72(%si):u32 mtype=+92(%si):s32 "
		"nr_bf=+84(+0(%si)):u32 cnt=+48(+0(%si)):u32 sd_flags=+60(+0(%si)):s32 "
		"sd_level=+64(+0(%si)):s32 sd_span=+304(+0(%si)):u32 src_nr=+4(+8(%si)):u32 "
		"src_npref=+12(+8(%si)):u32 src_nmig=+16(+8(%si)):u32 "
		"src_clock=+2496(+8(%si)):u64 dst_nr=+4(+24(%si)):u32 next=+200(+8(%si)):x64 "
		"last=+208(+8(%si)):x64"
		/* 4 nodes: p->numa_faults[0..7], numa_group.faults[0..15] at 56 */
		" tf0=+0(+3864(%di)):u64 tf1=+8(+3864(%di)):u64 tf2=+16(+3864(%di)):u64"
		" tf3=+24(+3864(%di)):u64 tf4=+32(+3864(%di)):u64 tf5=+40(+3864(%di)):u64"
		" tf6=+48(+3864(%di)):u64 tf7=+56(+3864(%di)):u64"
		" gf0=+56(+3856(%di)):u64 gf1=+64(+3856(%di)):u64 gf2=+72(+3856(%di)):u64"
		" gf3=+80(+3856(%di)):u64 gf4=+88(+3856(%di)):u64 gf5=+96(+3856(%di)):u64"
		" gf6=+104(+3856(%di)):u64 gf7=+112(+3856(%di)):u64 gf8=+120(+3856(%di)):u64"
		" gf9=+128(+3856(%di)):u64 gf10=+136(+3856(%di)):u64 gf11=+144(+3856(%di)):u64"
		" gf12=+152(+3856(%di)):u64 gf13=+160(+3856(%di)):u64 gf14=+168(+3856(%di)):u64"
		" gf15=+176(+3856(%di)):u64";
	struct record_probe p[RECORD_NR_PROBES];
	struct record_btf b = { 0 };
	char path[] = "/tmp/check-record-btf61.XXXXXX";
	char cmd[600];
	char why[160] = "";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "xz -dc '%s' > '%s'",
		 SR_FIXTURE("btf/vmlinux-6.1.0-57-amd64.btf.xz"), path);
	if (system(cmd) != 0) {
		unlink(path);
		fprintf(stderr, "check-record-btf: cannot run xz, lab-kernel case skipped\n");
		return;
	}
	ck_assert_msg(record_btf_open(&b, path, why, sizeof(why)) == 0, "%s", why);
	unlink(path);
	record_probe_resolve(p, &b, NULL, SR_FIXTURE("btf/kallsyms-6.1.0-57-amd64.txt"), "x86_64", 4);
	ck_assert_msg(p[0].ok, "%s", p[0].why);
	ck_assert_str_eq(p[0].fetch, want);
	ck_assert_str_eq(p[0].missing, "");
	/* nr_node_ids unknown, or past SR_PROBE_FAULT_NODES: the counters are left out, and said so */
	record_probe_resolve(p, &b, NULL, SR_FIXTURE("btf/kallsyms-6.1.0-57-amd64.txt"), "x86_64",
			     SR_PROBE_FAULT_NODES + 1);
	ck_assert_str_eq(p[0].missing, "tf,gf");
	ck_assert(!strstr(p[0].fetch, " tf0="));
	record_probe_resolve(p, &b, NULL, SR_FIXTURE("btf/kallsyms-6.1.0-57-amd64.txt"), "x86_64", 0);
	ck_assert_str_eq(p[0].missing, "tf,gf");
	/* the longest, SR_PROBE_FAULT_NODES nodes, fits the buffer and a 4 KiB kprobe_events line */
	record_probe_resolve(p, &b, NULL, SR_FIXTURE("btf/kallsyms-6.1.0-57-amd64.txt"), "x86_64",
			     SR_PROBE_FAULT_NODES);
	ck_assert_str_eq(p[0].missing, "");
	ck_assert(strstr(p[0].fetch, " tf15=+120(+3864(%di)):u64 gf0="));
	ck_assert(strstr(p[0].fetch, " gf31=+304(+3856(%di)):u64"));
	ck_assert_int_lt(strlen(p[0].fetch) + 200, 4096);
	ck_assert_int_eq(p[0].se_off, 128);
	ck_assert_str_eq(p[2].fetch, "prev_cpu=%si:s32 wake_flags=%dx:s32 pid=+2416(%di):s32");
	ck_assert_str_eq(p[4].symbol, "task_numa_migrate.isra.0");
	ck_assert(p[5].ok);
	record_btf_close(&b);
}
END_TEST

static Suite *record_btf_suite(void)
{
	Suite *s = suite_create("record-btf");
	TCase *tc = tcase_create("btf");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_member_walks);
	tcase_add_test(tc, test_protos);
	tcase_add_test(tc, test_kallsyms);
	tcase_add_test(tc, test_resolve_small_btf);
	tcase_add_test(tc, test_marker_line);
	tcase_add_test(tc, test_host_btf);
	tcase_add_test(tc, test_lab_kernel_btf);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(record_btf_suite)
