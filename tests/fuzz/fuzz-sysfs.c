// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-sysfs.c - libFuzzer harness of the sysfs topology folder reader
 * (topo_from_sysfs()).
 *
 * The input describes a folder: NUL-separated fields taken three at a
 * time, (entry name, cpulist, distance).  Each triple makes a folder of
 * that name (a '/' in it becomes '_'; "", "." and ".." are skipped) holding
 * a cpulist file and a distance file; a triple cut short leaves the files
 * it lacks out, so missing files are fuzzed too.  The folder is built under
 * a private temporary directory (in /dev/shm when there is one) and
 * removed after each input.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topo/topo.h"
#include "fuzz-topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_ENTRIES	16
#define FUZZ_MAX_NAME		40

static char fuzz_root[256];

/* the folders are emptied after each input; remove what is left at exit */
static void remove_root(void)
{
	char dir[320];

	snprintf(dir, sizeof(dir), "%s/node", fuzz_root);
	rmdir(dir);
	rmdir(fuzz_root);
}

static int write_file(const char *path, const uint8_t *data, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	while (len) {
		n = write(fd, data, len);
		if (n <= 0)
			break;
		data += n;
		len -= (size_t)n;
	}
	close(fd);
	return len ? -1 : 0;
}

/* next NUL-separated field of [*p, end); NULL when none is left */
static const uint8_t *next_field(const uint8_t **p, const uint8_t *end, size_t *len)
{
	const uint8_t *s = *p, *z;

	if (s >= end)
		return NULL;
	z = memchr(s, 0, (size_t)(end - s));
	*len = (size_t)((z ? z : end) - s);
	*p = z ? z + 1 : end;
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char names[FUZZ_MAX_ENTRIES][FUZZ_MAX_NAME + 1];
	const uint8_t *p = data, *end = data + size, *f;
	char dir[320], path[400];
	struct err err = { 0 };
	int nr = 0, i, k;
	struct topo *t;
	size_t len;

	if (!fuzz_root[0]) {
		snprintf(fuzz_root, sizeof(fuzz_root), "%s/sr-fuzz-sysfs-XXXXXX",
			 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
		if (!mkdtemp(fuzz_root)) {
			fuzz_root[0] = 0;
			return 0;
		}
		atexit(remove_root);
	}
	snprintf(dir, sizeof(dir), "%s/node", fuzz_root);
	if (mkdir(dir, 0700) && errno != EEXIST)
		return 0;

	while (nr < FUZZ_MAX_ENTRIES && (f = next_field(&p, end, &len))) {
		char *name = names[nr];

		if (len > FUZZ_MAX_NAME)
			len = FUZZ_MAX_NAME;
		memcpy(name, f, len);
		name[len] = 0;
		for (k = 0; name[k]; k++)
			if (name[k] == '/')
				name[k] = '_';
		if (!strcmp(name, "") || !strcmp(name, ".") || !strcmp(name, "..") ||
		    strlen(name) != len) {
			/* skip this triple's two files too */
			next_field(&p, end, &len);
			next_field(&p, end, &len);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (mkdir(path, 0700) && errno != EEXIST)
			break;
		nr++;
		f = next_field(&p, end, &len);
		if (!f)
			break;
		snprintf(path, sizeof(path), "%s/%s/cpulist", dir, name);
		if (write_file(path, f, len))
			break;
		f = next_field(&p, end, &len);
		if (!f)
			break;
		snprintf(path, sizeof(path), "%s/%s/distance", dir, name);
		if (write_file(path, f, len))
			break;
	}

	t = topo_from_sysfs(dir, &err);
	fuzz_topo_walk(t);
	topo_free(t);

	for (i = 0; i < nr; i++) {
		snprintf(path, sizeof(path), "%s/%s/cpulist", dir, names[i]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s/distance", dir, names[i]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		rmdir(path);
	}
	return 0;
}
