/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record-btf.h - what the decision probes need to know about the running
 * kernel: byte offsets of struct members and function prototypes from its
 * BTF (libbpf), and the symbol a function has in /proc/kallsyms.
 * Used by record-probe.c; tested in tests/unit/check-record-btf.c.
 */
#ifndef SR_RECORD_RECORD_BTF_H
#define SR_RECORD_RECORD_BTF_H

#include <stdbool.h>
#include <stddef.h>

struct btf;

/** struct record_btf - a kernel's BTF, owned */
struct record_btf {
	struct btf	*btf;
};

/**
 * record_btf_open() - load BTF
 * @b:    filled in
 * @path: a raw BTF blob (/sys/kernel/btf/vmlinux or a copy of it) or an ELF
 *        file with a .BTF section; NULL for the running kernel's
 *        (btf__load_vmlinux_btf())
 * @why:  on failure, a one-line reason
 * @len:  size of @why
 *
 * Return: 0, or a negative errno.
 */
int record_btf_open(struct record_btf *b, const char *path, char *why, size_t len);

/**
 * record_btf_close() - free what record_btf_open() loaded; @b may be zeroed
 * @b: the BTF
 */
void record_btf_close(struct record_btf *b);

/**
 * record_btf_member() - byte offset and size of a member of a struct
 * @b:     the BTF
 * @sname: struct name, without "struct " ("task_struct")
 * @path:  member path, dot-separated through embedded structs and unions
 *         ("se.avg.load_avg"); members of anonymous structs and unions are
 *         found as if they were the parent's, typedefs and modifiers of the
 *         embedded types are followed.  No step may go through a pointer.
 * @off:   the member's byte offset from the start of @sname
 * @size:  the member's size in bytes (after typedefs); 0 for a flexible
 *         array member
 * @why:   on failure, a one-line reason ("member lb_env.sd not in BTF")
 * @len:   size of @why
 *
 * Bitfields are refused (a kprobe fetch reads whole bytes).
 *
 * Return: 0, -ENOENT when the struct or a member is missing, -EINVAL for a
 * bitfield or a step through something that is not a struct or union.
 */
int record_btf_member(const struct record_btf *b, const char *sname, const char *path,
		      unsigned int *off, unsigned int *size, char *why, size_t len);

/**
 * record_btf_proto() - check a function's prototype
 * @b:     the BTF
 * @func:  the function's name (without a compiler suffix)
 * @nargs: the number of arguments it must have
 * @args:  @nargs entries: a struct name for an argument that must be a
 *         pointer to that struct, "int" for an integer argument, NULL for
 *         one not checked
 * @why:   on failure, a one-line reason
 * @len:   size of @why
 *
 * Return: 0, -ENOENT when BTF has no such function, -EINVAL when the
 * prototype differs.
 */
int record_btf_proto(const struct record_btf *b, const char *func, int nargs,
		     const char *const *args, char *why, size_t len);

/**
 * record_kallsyms_find() - a text symbol of a function, with its suffix
 * @path: /proc/kallsyms or a file in its format ("ADDR t NAME [module]")
 * @func: the name ("can_migrate_task")
 * @out:  the symbol found: @func itself, else @func with one compiler
 *        suffix ".constprop.N", ".isra.N", ".part.N" (chains of them too),
 *        the exact name preferred
 * @len:  size of @out
 *
 * Only core-kernel text symbols (type t or T, no [module]) count.
 *
 * Return: 0, -ENOENT when there is none, or a negative errno reading @path.
 */
int record_kallsyms_find(const char *path, const char *func, char *out, size_t len);

#define RECORD_SYM_LEN		128
#define RECORD_MAX_LOOKUP	8

/**
 * record_kallsyms_lookup() - record_kallsyms_find() for several functions in
 * one pass over @path (/proc/kallsyms is slow to read: ~130 ms a pass here)
 * @path:  as record_kallsyms_find()
 * @funcs: @n names
 * @n:     at most RECORD_MAX_LOOKUP
 * @out:   @n symbols, each "" when not found
 *
 * Return: how many were found, or a negative errno.
 */
int record_kallsyms_lookup(const char *path, const char *const *funcs, int n,
			  char (*out)[RECORD_SYM_LEN]);

/**
 * record_symbol_is_clone() - has a symbol a compiler-clone suffix?
 * @sym: a name from record_kallsyms_find()
 *
 * Return: true for ".constprop.N", ".isra.N", ".part.N" (a clone's
 * arguments need not be the source's).
 */
bool record_symbol_is_clone(const char *sym);

#endif
