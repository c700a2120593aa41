// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record-btf.c - member offsets and prototypes from a kernel's BTF, and
 * function symbols from /proc/kallsyms, for the decision probes
 * (record-probe.c).  Nothing here is hard-coded about a kernel version:
 * every offset comes from the BTF loaded at record time.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "record-btf.h"

int record_btf_open(struct record_btf *b, const char *path, char *why, size_t len)
{
	int ret;

	b->btf = NULL;
	errno = 0;
	if (!path) {
		b->btf = btf__load_vmlinux_btf();
	} else {
		b->btf = btf__parse_raw(path);
		if (!b->btf)
			b->btf = btf__parse(path, NULL);
	}
	if (b->btf)
		return 0;
	ret = errno ? -errno : -ENOENT;
	snprintf(why, len, "no BTF (%s: %s)", path ? path : "vmlinux", strerror(-ret));
	return ret;
}

void record_btf_close(struct record_btf *b)
{
	if (b && b->btf) {
		btf__free(b->btf);
		b->btf = NULL;
	}
}

/* the type behind typedefs and const/volatile/restrict */
static const struct btf_type *skip_mods(const struct btf *btf, __u32 id, __u32 *out_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_typedef(t) || btf_is_mod(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (out_id)
		*out_id = id;
	return t;
}

/*
 * The member @name of composite type @t, looked for in anonymous members
 * too; its bit offset is added to *@bits, its type id and bitfield size set.
 */
static bool find_member(const struct btf *btf, const struct btf_type *t, const char *name,
			unsigned long *bits, __u32 *type_id, __u32 *bitfield, int depth)
{
	const struct btf_member *m = btf_members(t);
	int i;

	if (depth > 16)
		return false;
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *mn = btf__name_by_offset(btf, m->name_off);

		if (mn && *mn) {
			if (strcmp(mn, name))
				continue;
			*bits += btf_member_bit_offset(t, i);
			*type_id = m->type;
			*bitfield = btf_member_bitfield_size(t, i);
			return true;
		} else {
			const struct btf_type *inner = skip_mods(btf, m->type, NULL);
			unsigned long sub = 0;

			if (!inner || !btf_is_composite(inner))
				continue;
			if (find_member(btf, inner, name, &sub, type_id, bitfield, depth + 1)) {
				*bits += btf_member_bit_offset(t, i) + sub;
				return true;
			}
		}
	}
	return false;
}

int record_btf_member(const struct record_btf *b, const char *sname, const char *path,
		      unsigned int *off, unsigned int *size, char *why, size_t len)
{
	const struct btf_type *t;
	unsigned long bits = 0;
	char step[128];
	const char *p = path;
	__s32 id;
	__u32 tid = 0;
	__s64 sz;

	id = btf__find_by_name_kind(b->btf, sname, BTF_KIND_STRUCT);
	if (id < 0) {
		snprintf(why, len, "struct %s not in BTF", sname);
		return -ENOENT;
	}
	t = btf__type_by_id(b->btf, id);
	tid = id;
	while (*p) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		__u32 bitfield = 0;

		if (n >= sizeof(step))
			n = sizeof(step) - 1;
		memcpy(step, p, n);
		step[n] = '\0';
		if (!t || !btf_is_composite(t)) {
			snprintf(why, len, "member %s.%s: %s is not a struct or union", sname, path,
				 step);
			return -EINVAL;
		}
		if (!find_member(b->btf, t, step, &bits, &tid, &bitfield, 0)) {
			snprintf(why, len, "member %s.%s not in BTF", sname, path);
			return -ENOENT;
		}
		if (bitfield) {
			snprintf(why, len, "member %s.%s is a bitfield", sname, path);
			return -EINVAL;
		}
		t = skip_mods(b->btf, tid, &tid);
		p = dot ? dot + 1 : p + strlen(p);
	}
	if (bits % 8) {
		snprintf(why, len, "member %s.%s is not byte-aligned", sname, path);
		return -EINVAL;
	}
	sz = btf__resolve_size(b->btf, tid);
	/* a flexible array member (numa_group.faults[]) has size 0 */
	if (sz < 0 ||
	    (sz == 0 && !btf_is_array(btf__type_by_id(b->btf, btf__resolve_type(b->btf, tid))))) {
		snprintf(why, len, "member %s.%s has no size in BTF", sname, path);
		return -EINVAL;
	}
	*off = (unsigned int)(bits / 8);
	*size = (unsigned int)sz;
	return 0;
}

/* does the parameter type @id match @want ("int", a struct name, or NULL)? */
static bool param_matches(const struct btf *btf, __u32 id, const char *want, char *got,
			  size_t len)
{
	const struct btf_type *t = skip_mods(btf, id, NULL);
	const char *name;

	if (!want)
		return true;
	if (!t) {
		snprintf(got, len, "void");
		return false;
	}
	if (!strcmp(want, "int")) {
		if (btf_is_int(t) || btf_is_enum(t))
			return true;
		snprintf(got, len, "kind %u", btf_kind(t));
		return false;
	}
	if (!btf_is_ptr(t)) {
		snprintf(got, len, "not a pointer");
		return false;
	}
	t = skip_mods(btf, t->type, NULL);
	if (!t || !btf_is_composite(t)) {
		snprintf(got, len, "pointer to a non-struct");
		return false;
	}
	name = btf__name_by_offset(btf, t->name_off);
	snprintf(got, len, "struct %s *", name ? name : "?");
	return name && !strcmp(name, want);
}

int record_btf_proto(const struct record_btf *b, const char *func, int nargs,
		     const char *const *args, char *why, size_t len)
{
	const struct btf_type *f, *proto;
	const struct btf_param *prm;
	char got[96];
	__s32 id;
	int i;

	id = btf__find_by_name_kind(b->btf, func, BTF_KIND_FUNC);
	if (id < 0) {
		snprintf(why, len, "function %s not in BTF", func);
		return -ENOENT;
	}
	f = btf__type_by_id(b->btf, id);
	proto = f ? btf__type_by_id(b->btf, f->type) : NULL;
	if (!proto || !btf_is_func_proto(proto)) {
		snprintf(why, len, "function %s has no prototype in BTF", func);
		return -EINVAL;
	}
	if (btf_vlen(proto) != nargs) {
		snprintf(why, len, "prototype differs: %s has %d arguments, not %d", func,
			 btf_vlen(proto), nargs);
		return -EINVAL;
	}
	prm = btf_params(proto);
	for (i = 0; i < nargs; i++) {
		got[0] = '\0';
		if (!param_matches(b->btf, prm[i].type, args[i], got, sizeof(got))) {
			snprintf(why, len, "prototype differs: %s argument %d is %s, not %s%s", func,
				 i + 1, got, args[i], strcmp(args[i], "int") ? " *" : "");
			return -EINVAL;
		}
	}
	return 0;
}

/* @s after @func: "" or a chain of .constprop.N / .isra.N / .part.N */
static bool clone_suffix(const char *s)
{
	static const char *const sfx[] = { ".constprop.", ".isra.", ".part." };
	size_t i;

	while (*s) {
		for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++)
			if (!strncmp(s, sfx[i], strlen(sfx[i])))
				break;
		if (i == sizeof(sfx) / sizeof(sfx[0]))
			return false;
		s += strlen(sfx[i]);
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return true;
}

bool record_symbol_is_clone(const char *sym)
{
	const char *d = strchr(sym, '.');

	return d && clone_suffix(d);
}

int record_kallsyms_lookup(const char *path, const char *const *funcs, int n,
			  char (*out)[RECORD_SYM_LEN])
{
	char line[512];
	bool exact[RECORD_MAX_LOOKUP] = { false };
	int found = 0;
	int i;
	FILE *f;

	if (n > RECORD_MAX_LOOKUP)
		return -EINVAL;
	for (i = 0; i < n; i++)
		out[i][0] = '\0';
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char type, name[RECORD_SYM_LEN];
		char mod[8] = "";

		if (sscanf(line, "%*s %c %127s %7s", &type, name, mod) < 2)
			continue;
		if ((type != 't' && type != 'T') || mod[0])
			continue;
		for (i = 0; i < n; i++) {
			size_t len = strlen(funcs[i]);

			if (exact[i] || strncmp(name, funcs[i], len))
				continue;
			if (!name[len]) {
				found += !out[i][0];
				snprintf(out[i], RECORD_SYM_LEN, "%s", name);
				exact[i] = true;
			} else if (!out[i][0] && name[len] == '.' && clone_suffix(name + len)) {
				snprintf(out[i], RECORD_SYM_LEN, "%s", name);
				found++;
			}
		}
	}
	fclose(f);
	return found;
}

int record_kallsyms_find(const char *path, const char *func, char *out, size_t len)
{
	char sym[1][RECORD_SYM_LEN];
	int ret = record_kallsyms_lookup(path, &func, 1, sym);

	if (ret < 0)
		return ret;
	if (!ret)
		return -ENOENT;
	snprintf(out, len, "%s", sym[0]);
	return 0;
}
