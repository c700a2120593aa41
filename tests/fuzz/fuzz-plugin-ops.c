// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-plugin-ops.c - libFuzzer harness of the plugin loader's checks
 * (replay_ops_check(), the gate every plugin's ops table passes before any
 * of its code runs) and of what the engine then does with a table that
 * passed: parameter defaults, "name=value" assignments, reason names, and
 * the checks on the verdict a policy returns.
 *
 * The input is read as a little stream (missing bytes read as zero):
 *   u32 abi_version, u32 size, u32 classes, u8 flags (bit 0: evaluate set,
 *   bit 1: reasons table set, bit 2: params table set, bit 3: init set),
 *   name (u8 length, 0xff = NULL, then the bytes),
 *   u8 nr_params (at most 40), each: name (as above), u32 type,
 *   i64 def, i64 min, i64 max;
 *   u8 nr_reasons (at most 8), each: u32 code, name (as above);
 *   i32 verdict, u32 nr_reasons returned, 8 x u16 reason codes;
 *   then NUL-separated "name=value" assignments.
 * Tables are always NULL-name terminated: an unterminated table is not
 * something the loader can detect.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"
#include "schedreplay/sr-policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_PARAMS		40
#define FUZZ_MAX_REASONS	8
#define FUZZ_MAX_STR		80

struct stream {
	const uint8_t	*p;
	size_t		left;
};

static uint64_t take(struct stream *s, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t b = 0;

		if (s->left) {
			b = *s->p++;
			s->left--;
		}
		v |= b << (8 * i);
	}
	return v;
}

/* a string of up to FUZZ_MAX_STR bytes into @buf; NULL for length 0xff */
static const char *take_str(struct stream *s, char *buf)
{
	size_t len = (size_t)take(s, 1), i;

	if (len == 0xff)
		return NULL;
	if (len > FUZZ_MAX_STR)
		len = FUZZ_MAX_STR;
	for (i = 0; i < len; i++)
		buf[i] = (char)take(s, 1);
	buf[len] = 0;
	return buf;
}

/* what the fake policy's evaluate returns, set per input */
static struct sr_verdict fuzz_verdict;

static int fuzz_evaluate(const void *priv, const struct sr_snapshot *snap,
			 struct sr_verdict *out)
{
	uint32_t size = out->size;

	*out = fuzz_verdict;
	out->size = size;
	return 0;
}

static int fuzz_init(void **priv, const struct sr_param_values *vals)
{
	*priv = NULL;
	return vals->nr > SR_MAX_PARAMS ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char pnames[FUZZ_MAX_PARAMS][FUZZ_MAX_STR + 1];
	static char rnames[FUZZ_MAX_REASONS][FUZZ_MAX_STR + 1];
	static char name[FUZZ_MAX_STR + 1];
	struct sr_param_desc params[FUZZ_MAX_PARAMS + 1];
	struct sr_reason_desc reasons[FUZZ_MAX_REASONS + 1];
	struct stream s = { data, size };
	struct sr_policy_ops ops = { 0 };
	struct replay_policy *pol;
	struct sr_snapshot snap;
	struct sr_verdict out;
	struct err err = { 0 };
	unsigned int flags, i, n;
	char buf[64];

	ops.abi_version = (uint32_t)take(&s, 4);
	ops.size = (uint32_t)take(&s, 4);
	ops.classes = (unsigned int)take(&s, 4);
	flags = (unsigned int)take(&s, 1);
	ops.name = take_str(&s, name);
	ops.evaluate = (flags & 1) ? fuzz_evaluate : NULL;
	ops.init = (flags & 8) ? fuzz_init : NULL;

	memset(params, 0, sizeof(params));
	n = (unsigned int)take(&s, 1);
	if (n > FUZZ_MAX_PARAMS)
		n = FUZZ_MAX_PARAMS;
	for (i = 0; i < n; i++) {
		params[i].name = take_str(&s, pnames[i]);
		params[i].type = (uint32_t)take(&s, 4);
		params[i].def = (int64_t)take(&s, 8);
		params[i].min = (int64_t)take(&s, 8);
		params[i].max = (int64_t)take(&s, 8);
		params[i].description = "fuzz";
		if (!params[i].name)
			break;
	}
	ops.params = (flags & 4) ? params : NULL;

	memset(reasons, 0, sizeof(reasons));
	n = (unsigned int)take(&s, 1);
	if (n > FUZZ_MAX_REASONS)
		n = FUZZ_MAX_REASONS;
	for (i = 0; i < n; i++) {
		reasons[i].code = (uint32_t)take(&s, 4);
		reasons[i].name = take_str(&s, rnames[i]);
		reasons[i].description = "fuzz";
		if (!reasons[i].name)
			break;
	}
	ops.reasons = (flags & 2) ? reasons : NULL;

	memset(&fuzz_verdict, 0, sizeof(fuzz_verdict));
	fuzz_verdict.verdict = (int32_t)take(&s, 4);
	fuzz_verdict.nr_reasons = (uint32_t)take(&s, 4);
	for (i = 0; i < SR_MAX_REASONS; i++)
		fuzz_verdict.reasons[i] = (uint16_t)take(&s, 2);

	if (replay_ops_check(&ops, &err))
		return 0;

	/* accepted: the engine may now use every field the check vouched for */
	n = (unsigned int)replay_param_count(&ops);
	for (i = 0; i < n; i++)
		(void)replay_param_format(&ops.params[i], ops.params[i].def, buf, sizeof(buf));
	pol = replay_policy_new(&ops);
	if (!pol)
		return 0;
	while (s.left) {
		const uint8_t *z = memchr(s.p, 0, s.left);
		size_t len = z ? (size_t)(z - s.p) : s.left;
		char *assign = malloc(len + 1);

		if (!assign)
			break;
		memcpy(assign, s.p, len);
		assign[len] = 0;
		(void)replay_policy_set_param(pol, assign, &err);
		free(assign);
		s.p += z ? len + 1 : len;
		s.left -= z ? len + 1 : len;
	}
	if (replay_policy_start(pol, &err) == 0) {
		replay_snapshot_init(&snap);
		if (replay_policy_evaluate(pol, &snap, &out, &err) == 0) {
			(void)replay_verdict_name(out.verdict);
			for (i = 0; i < out.nr_reasons; i++) {
				(void)replay_reason_name(&ops, out.reasons[i]);
				(void)replay_reason_description(&ops, out.reasons[i]);
			}
		}
	}
	replay_policy_free(pol);
	return 0;
}
