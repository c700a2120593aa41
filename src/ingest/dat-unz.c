// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dat-unz.c - decompress one block of a compressed trace.dat version 7
 * file (a metadata section or one chunk of CPU data, trace-cmd.dat.v7(5))
 * with libzstd or zlib, for the header walk in dat-check.c.
 *
 * A block is valid when it decompresses to exactly the size its header
 * declares.  Memory is bounded: one input and one output buffer per
 * struct dat_unz, grown to the largest block seen and never past
 * DAT_UNZ_MAX_BLOCK; a declared size is checked against what the
 * compressed data can hold (the zstd frame's own content size, zlib's
 * 1032:1 ratio limit) before any buffer is sized for it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "dat-local.h"
#include "ingest.h"

/* deflate cannot do better than 1032:1 (zlib's FAQ, "maximum compression") */
#define DAT_ZLIB_MAX_RATIO 1032

int dat_unz_init(struct dat_unz *z, const char *name)
{
	memset(z, 0, sizeof(*z));
	if (!strcmp(name, "zstd")) {
		z->algo = DAT_UNZ_ZSTD;
		z->dctx = ZSTD_createDCtx();
		if (!z->dctx)
			return -ENOMEM;
		return 0;
	}
	if (!strcmp(name, "zlib")) {
		z->algo = DAT_UNZ_ZLIB;
		return 0;
	}
	return -SR_EUNSUPPORTED;
}

void dat_unz_release(struct dat_unz *z)
{
	if (z->dctx)
		ZSTD_freeDCtx(z->dctx);
	free(z->in);
	free(z->out);
	memset(z, 0, sizeof(*z));
}

static int grow(unsigned char **buf, size_t *cap, size_t want)
{
	unsigned char *p;

	if (want <= *cap)
		return 0;
	p = realloc(*buf, want);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = want;
	return 0;
}

unsigned char *dat_unz_input(struct dat_unz *z, uint32_t zsize)
{
	if (zsize > DAT_UNZ_MAX_BLOCK || grow(&z->in, &z->in_cap, zsize ? zsize : 1) < 0)
		return NULL;
	return z->in;
}

int dat_unz_block(struct dat_unz *z, uint32_t zsize, uint32_t usize, const char **why)
{
	if (!usize || usize > DAT_UNZ_MAX_BLOCK) {
		*why = "impossible uncompressed size";
		return -SR_EBADTRACE;
	}
	if (grow(&z->out, &z->out_cap, usize) < 0)
		return -ENOMEM;
	return dat_unz_to(z, zsize, usize, z->out, why);
}

int dat_unz_to(struct dat_unz *z, uint32_t zsize, uint32_t usize, unsigned char *out,
	       const char **why)
{
	unsigned long long fsize;
	uLongf got;
	uLong used;
	size_t n;

	if (!usize || usize > DAT_UNZ_MAX_BLOCK) {
		*why = "impossible uncompressed size";
		return -SR_EBADTRACE;
	}
	if (z->algo == DAT_UNZ_ZSTD) {
		fsize = ZSTD_getFrameContentSize(z->in, zsize);
		if (fsize == ZSTD_CONTENTSIZE_ERROR) {
			*why = "not a zstd frame";
			return -SR_EBADTRACE;
		}
		if (fsize != ZSTD_CONTENTSIZE_UNKNOWN && fsize != usize) {
			*why = "zstd frame size differs from the declared size";
			return -SR_EBADTRACE;
		}
	} else if ((uint64_t)usize > (uint64_t)zsize * DAT_ZLIB_MAX_RATIO + 64) {
		*why = "declared size larger than zlib data can hold";
		return -SR_EBADTRACE;
	}
	if (z->algo == DAT_UNZ_ZSTD) {
		n = ZSTD_decompressDCtx(z->dctx, out, usize, z->in, zsize);
		if (ZSTD_isError(n)) {
			*why = "zstd data does not decompress";
			return -SR_EBADTRACE;
		}
	} else {
		got = usize;
		used = zsize;
		if (uncompress2(out, &got, z->in, &used) != Z_OK || used != zsize) {
			*why = "zlib data does not decompress";
			return -SR_EBADTRACE;
		}
		n = got;
	}
	if (n != usize) {
		*why = "decompresses to fewer bytes than declared";
		return -SR_EBADTRACE;
	}
	return 0;
}
