// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dat-check.c - a bounds-checked walk over a trace.dat file's headers
 * (trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5)) before libtracecmd sees it.
 *
 * Why: libtracecmd 3.1 believes the sizes in the file.  On an uncompressed
 * file it mmap()s each CPU's pages from the offsets in the headers, so a
 * file cut short inside the event data kills the process with SIGBUS on the
 * first page past the end; option payloads are used as C strings without a
 * terminator check (UNAME, DATE, ...), a zero-sized CPUSTAT option writes
 * one byte before its buffer, a CPUCOUNT option shorter than 4 bytes is read
 * past its end.  This walk reads every size and offset with the file size
 * as the bound, so bad headers become one error naming the byte offset, and
 * CPU data running past the end of the file is reported to the decoder,
 * which then reads around it.
 *
 * What is covered: every header of a version 6 file; for version 7 the
 * section chain, and -- when the options are not compressed -- every
 * option, including the BUFFER options that locate the CPU data.  The
 * options of a compressed v7 file are left to libtracecmd (decompressing
 * them here would duplicate its zstd/zlib code); its compressed CPU data is
 * read with read(), not mmap(), and a cut there ends in a read error, not
 * a signal.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dat-local.h"
#include "ingest.h"

#define DAT_MAX_ITEMS	(1u << 20)	/* event formats, systems, options */
#define DAT_MAX_SECTIONS 4096		/* v7 option sections in one chain */

enum {
	OPT_DONE	= 0,
	OPT_DATE	= 1,
	OPT_CPUSTAT	= 2,
	OPT_BUFFER	= 3,
	OPT_TRACECLOCK	= 4,
	OPT_UNAME	= 5,
	OPT_HOOK	= 6,
	OPT_OFFSET	= 7,
	OPT_CPUCOUNT	= 8,
	OPT_VERSION	= 9,
	OPT_PROCMAPS	= 10,
	OPT_TRACEID	= 11,
	OPT_TSC2NSEC	= 14,
	OPT_BUFFER_TEXT	= 22,
	SEC_FL_COMPRESS	= 1,
};

struct rd {
	int		fd;
	uint64_t	pos;
	uint64_t	size;
	bool		swap;
	struct err	*err;
	struct dat_layout *lay;
	int		cpus;	/* v6: CPU count from the header */
};

static int rd_fail(struct rd *r, int code, uint64_t at, const char *what)
{
	err_set(r->err, code, "%s", what);
	err_at_byte(r->err, at);
	return code;
}

static int rd_bytes(struct rd *r, void *buf, uint64_t len, const char *what)
{
	ssize_t n;

	if (len > r->size || r->pos > r->size - len)
		return rd_fail(r, -SR_ETRUNCATED, r->pos, what);
	n = pread(r->fd, buf, len, (off_t)r->pos);
	if (n < 0) {
		err_set(r->err, -errno, "cannot read: %s", strerror(errno));
		err_at_byte(r->err, r->pos);
		return r->err->code;
	}
	if ((uint64_t)n != len)
		return rd_fail(r, -SR_ETRUNCATED, r->pos, what);
	r->pos += len;
	return 0;
}

static int rd_num(struct rd *r, int len, uint64_t *out, const char *what)
{
	unsigned char b[8];
	uint64_t v = 0;
	int i;
	int ret;

	ret = rd_bytes(r, b, len, what);
	if (ret < 0)
		return ret;
	for (i = 0; i < len; i++) {
		if (r->lay->big_endian)
			v = (v << 8) | b[i];
		else
			v |= (uint64_t)b[i] << (8 * i);
	}
	*out = v;
	return 0;
}

/* skip @len bytes that must lie inside the file */
static int rd_skip(struct rd *r, uint64_t len, const char *what)
{
	if (len > r->size || r->pos > r->size - len)
		return rd_fail(r, -SR_ETRUNCATED, r->pos, what);
	r->pos += len;
	return 0;
}

/* a NUL-terminated string of at most @max bytes; copied into @buf if given */
static int rd_str(struct rd *r, char *buf, size_t max, const char *what)
{
	char tmp[256];
	uint64_t left = r->size > r->pos ? r->size - r->pos : 0;
	size_t want = max < sizeof(tmp) ? max : sizeof(tmp);
	ssize_t n;
	char *nul;

	if (want > left)
		want = left;
	n = pread(r->fd, tmp, want, (off_t)r->pos);
	if (n <= 0)
		return rd_fail(r, -SR_ETRUNCATED, r->pos, what);
	nul = memchr(tmp, '\0', n);
	if (!nul)
		return rd_fail(r, (uint64_t)n == left ? -SR_ETRUNCATED : -SR_EBADTRACE, r->pos,
			       what);
	if (buf)
		memcpy(buf, tmp, nul - tmp + 1);
	r->pos += nul - tmp + 1;
	return 0;
}

/*
 * A CPU's data: [off, off + size) should lie inside the file.  @size_pos
 * is where the size is stored, so that the decoder can shorten a range
 * cut by the end of the file in its padded copy.
 */
static int note_cpu_data(struct rd *r, uint64_t off, uint64_t size, uint64_t at,
			 uint64_t size_pos)
{
	struct dat_layout *lay = r->lay;
	uint64_t ps = lay->page_size;

	if (!size)
		return 0;
	if (off > UINT64_MAX - size || (!lay->compression[0] && off % lay->page_size))
		return rd_fail(r, -SR_EBADTRACE, at, "impossible cpu data offset or size");
	if (off + size > lay->file_size) {
		/* a cut file: the decoder reads what is there */
		if (lay->nr_cut == DAT_MAX_CUT)
			return rd_fail(r, -SR_ETRUNCATED, lay->file_size,
				       "file cut short and too many cpus lost to read around");
		if (!lay->nr_cut)
			lay->first_cut = lay->file_size;
		lay->cut[lay->nr_cut].size_pos = size_pos;
		size = off >= lay->file_size ? 0 :
		       (lay->file_size - off + ps - 1) / ps * ps;
		lay->cut[lay->nr_cut].size = size;
		lay->nr_cut++;
	}
	if (off + size > lay->data_end)
		lay->data_end = off + size;
	return 0;
}

/*
 * One option's payload, at r->pos, @size bytes.  Checks what libtracecmd
 * would use unchecked; BUFFER options locate CPU data (v7) or a buffer's
 * own CPU table (v6, returned in *v6_buffer_off).
 */
static int check_option(struct rd *r, unsigned int id, uint64_t size, uint64_t *v6_buffer_off)
{
	uint64_t start = r->pos;
	uint64_t end = r->pos + size;
	unsigned char last;
	uint64_t v = 0, ncpu = 0, off = 0, len = 0, i;
	int ret;

	switch (id) {
	case OPT_DATE:
	case OPT_CPUSTAT:
	case OPT_TRACECLOCK:
	case OPT_UNAME:
	case OPT_HOOK:
	case OPT_OFFSET:
	case OPT_VERSION:
	case OPT_PROCMAPS:
		if (!size)
			return rd_fail(r, -SR_EBADTRACE, start, "empty string option");
		r->pos = end - 1;
		ret = rd_bytes(r, &last, 1, "truncated option");
		if (ret < 0)
			return ret;
		if (last != '\0')
			return rd_fail(r, -SR_EBADTRACE, start, "option string not terminated");
		break;
	case OPT_CPUCOUNT:
		if (size != 4)
			return rd_fail(r, -SR_EBADTRACE, start, "bad cpu count option size");
		ret = rd_num(r, 4, &v, "truncated option");
		if (ret < 0)
			return ret;
		if (v > INGEST_MAX_CPUS)
			return rd_fail(r, -SR_EBADTRACE, start, "cpu count out of range");
		break;
	case OPT_TSC2NSEC:
		if (size < 16)
			return rd_fail(r, -SR_EBADTRACE, start, "bad tsc2nsec option size");
		break;
	case OPT_BUFFER:
	case OPT_BUFFER_TEXT:
		ret = rd_num(r, 8, &off, "truncated buffer option");
		if (ret < 0)
			return ret;
		ret = rd_str(r, NULL, end - r->pos, "bad buffer option name");
		if (ret < 0)
			return ret;
		if (r->lay->version < 7) {
			if (off >= r->size)
				return rd_fail(r, -SR_EBADTRACE, start, "buffer offset past end of file");
			*v6_buffer_off = off;
			break;
		}
		ret = rd_str(r, NULL, end - r->pos, "bad buffer option clock");
		if (ret < 0 || id == OPT_BUFFER_TEXT)
			return ret;
		ret = rd_num(r, 4, &v, "truncated buffer option");
		if (!ret)
			ret = rd_num(r, 4, &ncpu, "truncated buffer option");
		if (ret < 0)
			return ret;
		if (ncpu > INGEST_MAX_CPUS || ncpu * 20 > end - r->pos)
			return rd_fail(r, -SR_EBADTRACE, start, "bad cpu count in buffer option");
		for (i = 0; i < ncpu; i++) {
			uint64_t at = r->pos;

			ret = rd_num(r, 4, &v, "truncated buffer option");
			if (!ret)
				ret = rd_num(r, 8, &off, "truncated buffer option");
			if (!ret)
				ret = rd_num(r, 8, &len, "truncated buffer option");
			if (!ret && v >= INGEST_MAX_CPUS)
				ret = rd_fail(r, -SR_EBADTRACE, at, "cpu id out of range");
			if (!ret)
				ret = note_cpu_data(r, off, len, at, r->pos - 8);
			if (ret < 0)
				return ret;
		}
		break;
	default:
		break;
	}
	r->pos = end;
	return 0;
}

/* v6 options: id (2), size (4), payload; id 0 ends them */
static int check_options_v6(struct rd *r, uint64_t *buffers, int *nr_buffers, int max_buffers)
{
	uint64_t id = 0, size = 0, boff;
	unsigned int n;
	int ret;

	for (n = 0; n < DAT_MAX_ITEMS; n++) {
		ret = rd_num(r, 2, &id, "truncated options");
		if (ret < 0 || id == OPT_DONE)
			return ret;
		ret = rd_num(r, 4, &size, "truncated options");
		if (ret < 0)
			return ret;
		if (size > r->size - r->pos)
			return rd_fail(r, -SR_ETRUNCATED, r->pos, "option runs past end of file");
		boff = 0;
		ret = check_option(r, id, size, &boff);
		if (ret < 0)
			return ret;
		if (boff) {
			if (*nr_buffers >= max_buffers)
				return rd_fail(r, -SR_EBADTRACE, r->pos, "too many buffer options");
			buffers[(*nr_buffers)++] = boff;
		}
	}
	return rd_fail(r, -SR_EBADTRACE, r->pos, "too many options");
}

/* v6: "options  " / "latency  " / "flyrecord" and the CPU table after it */
static int check_cpu_table_v6(struct rd *r, uint64_t *buffers, int *nr_buffers, int max_buffers)
{
	char label[10];
	uint64_t off = 0, len = 0;
	int i;
	int ret;

	ret = rd_bytes(r, label, 10, "truncated data label");
	if (ret < 0)
		return ret;
	if (!memcmp(label, "options", 7)) {
		if (!buffers)
			return rd_fail(r, -SR_EBADTRACE, r->pos - 10, "options inside a buffer");
		ret = check_options_v6(r, buffers, nr_buffers, max_buffers);
		if (!ret)
			ret = rd_bytes(r, label, 10, "truncated data label");
		if (ret < 0)
			return ret;
	}
	if (!memcmp(label, "latency", 7))
		return 0;
	if (memcmp(label, "flyrecord", 9))
		return rd_fail(r, -SR_EBADTRACE, r->pos - 10, "expected \"flyrecord\" label");
	for (i = 0; i < r->cpus; i++) {
		uint64_t at = r->pos;

		ret = rd_num(r, 8, &off, "truncated cpu table");
		if (!ret)
			ret = rd_num(r, 8, &len, "truncated cpu table");
		if (!ret)
			ret = note_cpu_data(r, off, len, at, r->pos - 8);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int check_v6(struct rd *r)
{
	static const char hp[12] = "header_page";
	static const char he[13] = "header_event";
	uint64_t buffers[64];
	int nr_buffers = 0;
	char buf[16];
	uint64_t n = 0, m = 0, len = 0, i, j;
	int ret;

	ret = rd_bytes(r, buf, sizeof(hp), "truncated header");
	if (ret < 0)
		return ret;
	if (memcmp(buf, hp, sizeof(hp)))
		return rd_fail(r, -SR_EBADTRACE, r->pos - sizeof(hp), "expected \"header_page\"");
	ret = rd_num(r, 8, &len, "truncated header page");
	if (!ret)
		ret = rd_skip(r, len, "truncated header page");
	if (!ret)
		ret = rd_bytes(r, buf, sizeof(he), "truncated header");
	if (ret < 0)
		return ret;
	if (memcmp(buf, he, sizeof(he)))
		return rd_fail(r, -SR_EBADTRACE, r->pos - sizeof(he), "expected \"header_event\"");
	ret = rd_num(r, 8, &len, "truncated header event");
	if (!ret)
		ret = rd_skip(r, len, "truncated header event");
	if (!ret)
		ret = rd_num(r, 4, &n, "truncated ftrace formats");
	if (ret < 0)
		return ret;
	if (n > DAT_MAX_ITEMS)
		return rd_fail(r, -SR_EBADTRACE, r->pos - 4, "impossible ftrace format count");
	for (i = 0; i < n; i++) {
		ret = rd_num(r, 8, &len, "truncated ftrace formats");
		if (!ret)
			ret = rd_skip(r, len, "truncated ftrace formats");
		if (ret < 0)
			return ret;
	}
	ret = rd_num(r, 4, &n, "truncated event formats");
	if (ret < 0)
		return ret;
	if (n > DAT_MAX_ITEMS)
		return rd_fail(r, -SR_EBADTRACE, r->pos - 4, "impossible event system count");
	for (i = 0; i < n; i++) {
		ret = rd_str(r, NULL, 256, "bad event system name");
		if (!ret)
			ret = rd_num(r, 4, &m, "truncated event formats");
		if (ret < 0)
			return ret;
		if (m > DAT_MAX_ITEMS)
			return rd_fail(r, -SR_EBADTRACE, r->pos - 4, "impossible event count");
		for (j = 0; j < m; j++) {
			ret = rd_num(r, 8, &len, "truncated event formats");
			if (!ret)
				ret = rd_skip(r, len, "truncated event formats");
			if (ret < 0)
				return ret;
		}
	}
	ret = rd_num(r, 4, &len, "truncated kallsyms");
	if (!ret)
		ret = rd_skip(r, len, "truncated kallsyms");
	if (!ret)
		ret = rd_num(r, 4, &len, "truncated printk formats");
	if (!ret)
		ret = rd_skip(r, len, "truncated printk formats");
	if (!ret)
		ret = rd_num(r, 8, &len, "truncated saved command lines");
	if (!ret)
		ret = rd_skip(r, len, "truncated saved command lines");
	if (!ret)
		ret = rd_num(r, 4, &n, "truncated cpu count");
	if (ret < 0)
		return ret;
	if (n > INGEST_MAX_CPUS)
		return rd_fail(r, -SR_EBADTRACE, r->pos - 4, "cpu count out of range");
	r->cpus = (int)n;
	ret = check_cpu_table_v6(r, buffers, &nr_buffers, 64);
	for (i = 0; !ret && i < (uint64_t)nr_buffers; i++) {
		r->pos = buffers[i];
		ret = check_cpu_table_v6(r, NULL, NULL, 0);
	}
	if (!ret)
		r->lay->data_checked = true;
	return ret;
}

/* v7: section header at r->pos: id (2), flags (2), string id (4), size (8) */
static int check_section(struct rd *r, uint64_t off, unsigned int want_id, uint64_t *flags,
			 uint64_t *size)
{
	uint64_t id = 0, sid = 0;
	int ret;

	if (off >= r->size) {
		/*
		 * trace-cmd writes the options section holding the BUFFER
		 * options (the only table of where each CPU's data is) last,
		 * so a v7 file cut anywhere loses it: nothing to read around.
		 */
		err_set(r->err, -SR_ETRUNCATED,
			"file cut short: section at byte %llu lies past its end (%llu bytes)",
			(unsigned long long)off, (unsigned long long)r->size);
		err_at_byte(r->err, r->size);
		return -SR_ETRUNCATED;
	}
	r->pos = off;
	ret = rd_num(r, 2, &id, "truncated section header");
	if (!ret)
		ret = rd_num(r, 2, flags, "truncated section header");
	if (!ret)
		ret = rd_num(r, 4, &sid, "truncated section header");
	if (!ret)
		ret = rd_num(r, 8, size, "truncated section header");
	if (ret < 0)
		return ret;
	if (id != want_id)
		return rd_fail(r, -SR_EBADTRACE, off, "unexpected section id");
	if (*size > r->size - r->pos)
		return rd_fail(r, -SR_ETRUNCATED, r->pos, "section runs past end of file");
	return 0;
}

static int check_v7(struct rd *r)
{
	uint64_t off = 0, flags = 0, size = 0, end, id = 0, len = 0, boff;
	bool compressed_opts = false;
	unsigned int n, k;
	int ret;

	ret = rd_str(r, r->lay->compression, sizeof(r->lay->compression),
		     "bad compression name");
	if (!ret)
		ret = rd_str(r, NULL, 64, "bad compression version");
	if (!ret)
		ret = rd_num(r, 8, &off, "truncated options offset");
	if (ret < 0)
		return ret;
	if (!strcmp(r->lay->compression, "none"))
		r->lay->compression[0] = '\0';

	for (n = 0; off && n < DAT_MAX_SECTIONS; n++) {
		ret = check_section(r, off, OPT_DONE, &flags, &size);
		if (ret < 0)
			return ret;
		end = r->pos + size;
		if (flags & SEC_FL_COMPRESS) {
			/* left to libtracecmd: see the file comment */
			compressed_opts = true;
			break;
		}
		off = 0;
		for (k = 0; k < DAT_MAX_ITEMS; k++) {
			ret = rd_num(r, 2, &id, "truncated options");
			if (!ret)
				ret = rd_num(r, 4, &len, "truncated options");
			if (ret < 0)
				return ret;
			if (len > end - r->pos)
				return rd_fail(r, -SR_EBADTRACE, r->pos - 4, "option runs past its section");
			if (id == OPT_DONE) {
				if (len != 8)
					return rd_fail(r, -SR_EBADTRACE, r->pos - 4, "bad end option");
				ret = rd_num(r, 8, &off, "truncated options");
				if (ret < 0)
					return ret;
				break;
			}
			boff = 0;
			ret = check_option(r, id, len, &boff);
			if (ret < 0)
				return ret;
		}
		if (k == DAT_MAX_ITEMS)
			return rd_fail(r, -SR_EBADTRACE, r->pos, "too many options");
	}
	if (n == DAT_MAX_SECTIONS)
		return rd_fail(r, -SR_EBADTRACE, r->pos, "options sections form a loop");
	r->lay->data_checked = !compressed_opts;
	return 0;
}

int dat_layout_check(int fd, struct dat_layout *lay, struct err *err)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	unsigned char head[10];
	char version[16];
	unsigned char b[2];
	uint64_t ps;
	struct stat st;
	struct rd r = { .fd = fd, .err = err, .lay = lay };
	int ret;

	memset(lay, 0, sizeof(*lay));
	if (fstat(fd, &st) < 0)
		return err_set(err, -errno, "cannot stat: %s", strerror(errno));
	r.size = lay->file_size = (uint64_t)st.st_size;

	ret = rd_bytes(&r, head, sizeof(head), "truncated magic");
	if (ret < 0)
		return ret;
	if (memcmp(head, magic, sizeof(magic)))
		return rd_fail(&r, -SR_EBADMAGIC, 0, "not a trace.dat file (bad magic)");
	ret = rd_str(&r, version, sizeof(version), "bad version string");
	if (ret < 0)
		return ret;
	if (strcmp(version, "6") && strcmp(version, "7")) {
		err_set(err, -SR_EUNSUPPORTED, "trace.dat version \"%.8s\" (6 and 7 are read)",
			version);
		err_at_byte(err, 10);
		return -SR_EUNSUPPORTED;
	}
	lay->version = version[0] - '0';
	ret = rd_bytes(&r, b, 2, "truncated header");
	if (ret < 0)
		return ret;
	if (b[0] > 1 || (b[1] != 4 && b[1] != 8))
		return rd_fail(&r, -SR_EBADTRACE, r.pos - 2, "bad endian or long size byte");
	lay->big_endian = b[0];
	ret = rd_num(&r, 4, &ps, "truncated header");
	if (ret < 0)
		return ret;
	if (ps < 512 || ps > (1u << 24) || (ps & (ps - 1)))
		return rd_fail(&r, -SR_EBADTRACE, r.pos - 4, "impossible page size");
	lay->page_size = (uint32_t)ps;
	return lay->version == 6 ? check_v6(&r) : check_v7(&r);
}
