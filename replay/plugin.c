// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plugin.c - load a policy from a shared object.
 *
 * The object exports one data symbol, SR_POLICY_ENTRY_SYMBOL, pointing to
 * its struct sr_policy_ops (sr-policy.h, SR_POLICY_ENTRY).  The plugin is
 * named by its path: a name without '/' is refused, never searched the
 * dlopen() way (LD_LIBRARY_PATH, the system folders), and the file must be
 * a regular ELF shared object before dlopen() sees it, so no constructor of
 * a library the user did not mean runs.  Nothing of the plugin's policy
 * runs before its table passed replay_ops_check(): the ABI major version,
 * the table size (it must reach evaluate) and the table's fields.
 * A name that a built-in already has is refused, so reports stay
 * unambiguous.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay.h"

struct replay_plugin {
	void				*handle;
	const struct sr_policy_ops	*ops;
	char				*path;
};

/*
 * The checks before dlopen(): a path (with a '/'), naming a regular file
 * that starts as an ELF shared object (ET_DYN) does.
 */
static int plugin_check_file(const char *path, struct err *err)
{
	unsigned char hdr[EI_NIDENT + 2];
	struct stat st;
	uint16_t type;
	ssize_t n;
	int fd;

	if (!strchr(path, '/'))
		return err_set(err, -SR_ENOTFOUND,
			       "a policy plugin is named by its path, never searched for (give ./%s for a file here)",
			       path);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return err_set(err, -SR_ENOTFOUND, "cannot open policy plugin: %s",
			       strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(err, -SR_ENOTFOUND, "a policy plugin must be a regular file");
	}
	n = pread(fd, hdr, sizeof(hdr), 0);
	close(fd);
	if (n != (ssize_t)sizeof(hdr) || memcmp(hdr, ELFMAG, SELFMAG))
		return err_set(err, -SR_ENOTFOUND, "not an ELF shared object (at byte 0)");
	if (hdr[EI_DATA] == ELFDATA2LSB)
		type = (uint16_t)(hdr[EI_NIDENT] | hdr[EI_NIDENT + 1] << 8);
	else
		type = (uint16_t)(hdr[EI_NIDENT] << 8 | hdr[EI_NIDENT + 1]);
	if (type != ET_DYN)
		return err_set(err, -SR_ENOTFOUND,
			       "not an ELF shared object (ELF type %u at byte %d, a shared object has %u)",
			       type, EI_NIDENT, ET_DYN);
	return 0;
}

struct replay_plugin *replay_plugin_open(const char *path, struct err *err)
{
	const struct sr_policy_ops *const *entry;
	struct replay_plugin *pl;
	const char *why;
	void *handle;
	int ret;

	err_set_file(err, path);
	if (plugin_check_file(path, err))
		return NULL;
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
