/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sr-version.h - version of the schedreplay policy plugin ABI.
 *
 * The ABI is the three headers under include/schedreplay/: this one,
 * sr-snapshot.h (what a policy may read) and sr-policy.h (the ops table a
 * policy exports).  A plugin records the version it was built against in
 * sr_policy_ops.abi_version; the loader refuses a different MAJOR and
 * accepts any MINOR.
 *
 * Rules that keep a minor bump compatible:
 *  - structs only grow at the end, and each carries its own size, so a
 *    reader checks the size before touching a field added later;
 *  - enum values and SR_SNAP_* / SR_VF_* bits are never renumbered or reused;
 *  - a new field always comes with a new "known" bit.
 * Anything else (a field removed, reordered or retyped) bumps the MAJOR.
 *
 * Plain C, no dependency beyond <stdint.h>.
 */
#ifndef SCHEDREPLAY_SR_VERSION_H
#define SCHEDREPLAY_SR_VERSION_H

/* Bumped when the ABI changes incompatibly. */
#define SR_POLICY_ABI_MAJOR	1
/* Bumped when the ABI grows compatibly (fields appended, enum values added). */
#define SR_POLICY_ABI_MINOR	3

/* The value a plugin puts in sr_policy_ops.abi_version: major << 16 | minor. */
#define SR_POLICY_ABI_VERSION	((SR_POLICY_ABI_MAJOR << 16) | SR_POLICY_ABI_MINOR)

/* Major and minor halves of an abi_version value. */
#define SR_POLICY_ABI_MAJOR_OF(v)	(((v) >> 16) & 0xffffu)
#define SR_POLICY_ABI_MINOR_OF(v)	((v) & 0xffffu)

#endif
