// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin-ctor.c - a shared object whose constructor leaves a mark: it
 * creates the file named by SR_TEST_CTOR_MARK.  test-replay.sh puts it on
 * LD_LIBRARY_PATH and passes its bare name to --plugin, which the loader
 * must refuse before dlopen(), so the mark must not appear; given by its
 * path it loads and the mark appears (the test can fail).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <schedreplay/sr-policy.h>

__attribute__((constructor)) static void ctor_mark(void)
{
	const char *mark = getenv("SR_TEST_CTOR_MARK");
	int fd;

	if (!mark)
		return;
	fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
}

static int ctor_evaluate(const void *priv, const struct sr_snapshot *snap,
			 struct sr_verdict *out)
{
	out->verdict = SR_VERDICT_ALLOW;
	return 0;
}

static const struct sr_policy_ops ctor_ops = {
	.abi_version	= SR_POLICY_ABI_VERSION,
	.size		= sizeof(struct sr_policy_ops),
	.name		= "ctor-mark",
	.provenance	= "test",
	.classes	= SR_CLASS_BIT(SR_DECISION_CLASS_LB_PULL),
	.evaluate	= ctor_evaluate,
};
SR_POLICY_ENTRY(ctor_ops);
