/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-common.h - helpers shared by the libFuzzer harnesses of tests/fuzz/:
 * hand a parser that wants a path the fuzz input as an anonymous in-memory
 * file (memfd, reached through /proc/self/fd/N), and build a throwaway
 * folder for the sysfs reader.
 *
 * Harnesses never print; a helper that cannot set up its file returns -1
 * and the harness skips the input (that is a machine problem, not a bug in
 * the parser under test).
 */
#ifndef SR_FUZZ_COMMON_H
#define SR_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/**
 * fuzz_memfd() - an in-memory file holding @data
 * @data, @size: the bytes
 * @path:        receives "/proc/self/fd/N", @pathlen bytes
 * @pathlen:     size of @path
 *
 * Return: the descriptor (close it when done), or -1.
 */
static inline int fuzz_memfd(const uint8_t *data, size_t size, char *path, size_t pathlen)
{
	size_t off = 0;
	ssize_t n;
	int fd;

	fd = memfd_create("sr-fuzz", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	while (off < size) {
		n = write(fd, data + off, size - off);
		if (n <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)n;
	}
	if (lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return -1;
	}
	snprintf(path, pathlen, "/proc/self/fd/%d", fd);
	return fd;
}

/**
 * fuzz_touch() - read every byte of a borrowed buffer (ASan checks it)
 * Return: a sum the caller keeps, so the reads are not optimised away.
 */
static inline unsigned int fuzz_touch(const char *s, size_t len)
{
	unsigned int sum = 0;
	size_t i;

	for (i = 0; i < len; i++)
		sum += (unsigned char)s[i];
	return sum;
}

#endif
