// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin.c - load a policy from a shared object.
 *
 * The object exports one data symbol, SR_POLICY_ENTRY_SYMBOL, pointing to
 * its struct sr_policy_ops (sr-policy.h, SR_POLICY_ENTRY).  Nothing of the
 * plugin runs before its table passed replay_ops_check(): the ABI major
 * version, the table size (it must reach evaluate) and the table's fields.
 * A name that a built-in already has is refused, so reports stay
 * unambiguous.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

struct replay_plugin {
	void				*handle;
	const struct sr_policy_ops	*ops;
	char				*path;
};

struct replay_plugin *replay_plugin_open(const char *path, struct err *err)
{
	const struct sr_policy_ops *const *entry;
	struct replay_plugin *pl;
	const char *why;
	void *handle;
	int ret;

	err_set_file(err, path);
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		why = dlerror();
		err_set(err, -SR_ENOTFOUND, "cannot load policy plugin: %s",
			why ? why : "unknown dlopen error");
		return NULL;
	}
	dlerror();
	entry = dlsym(handle, SR_POLICY_ENTRY_SYMBOL);
	if (!entry) {
		err_set(err, -SR_ENOTFOUND,
			"not a policy plugin: no symbol '%s' (use SR_POLICY_ENTRY)",
			SR_POLICY_ENTRY_SYMBOL);
		goto out_close;
	}
	ret = replay_ops_check(*entry, err);
	if (ret)
		goto out_close;
	if (replay_registry_lookup((*entry)->name)) {
		err_set(err, -EEXIST, "policy plugin named '%s' like a built-in policy",
			(*entry)->name);
		goto out_close;
	}

	pl = calloc(1, sizeof(*pl));
	if (!pl) {
		err_set(err, -ENOMEM, "out of memory");
		goto out_close;
	}
	pl->path = strdup(path);
	if (!pl->path) {
		err_set(err, -ENOMEM, "out of memory");
		goto out_free;
	}
	pl->handle = handle;
	pl->ops = *entry;
	return pl;

out_free:
	free(pl);
out_close:
	dlclose(handle);
	return NULL;
}

const struct sr_policy_ops *replay_plugin_ops(const struct replay_plugin *pl)
{
	return pl->ops;
}

const char *replay_plugin_path(const struct replay_plugin *pl)
{
	return pl->path;
}

void replay_plugin_close(struct replay_plugin *pl)
{
	if (!pl)
		return;
	dlclose(pl->handle);
	free(pl->path);
	free(pl);
}
