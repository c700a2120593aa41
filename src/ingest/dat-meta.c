// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dat-meta.c - the fast reader's own read of a trace.dat file's header
 * page and event formats, in place of libtracecmd's tracecmd_open_head().
 *
 * A file recorded by trace-cmd holds the format of every event of every
 * system on the host (about 2000 on a 6.x kernel), /proc/kallsyms (several
 * MB) and the printk formats.  libtracecmd parses all of it when it opens
 * a file; a replay reads a handful of event kinds.  Here the formats are
 * only indexed (each one's system, name and id, read from its first two
 * lines), and libtraceevent parses the formats of the events whose fields
 * the decoder reads (the kinds of ingest_event_kind_from_name(), the
 * recorder's probes, a NUMA fault probe: told by a "last_cpupid" field).
 * Any other event is decoded by its name and system from the index, which
 * is all dat_decode() reads of it.  Kallsyms, the printk formats and the
 * saved command lines are never read.
 *
 * Bytes: v6: one pread() of the header page and formats (dat_layout's
 * meta_off..meta_end); v7: the HEADER_INFO, FTRACE_EVENTS and
 * EVENT_FORMATS sections, each decompressed once.  Every read is bounded
 * by its block; an error names the byte offset (in v7, within the
 * decompressed section, and the section's offset).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "dat-local.h"
#include "ingest.h"
#include "ingest-local.h"

#define DAT_META_MAX	(256u << 20)	/* header page and formats of a v6 file */
#define DAT_META_ITEMS	(1u << 20)	/* formats and systems in one file */
#define DAT_MAX_EVENT_ID 65535		/* common_type is a 16-bit field */

/* a bounded cursor over one block of metadata */
struct mc {
	const unsigned char	*p;
	uint64_t		n;
	uint64_t		pos;
	uint64_t		base;	/* v6: file offset of p[0] */
	uint64_t		sec;	/* v7: the section's file offset */
	bool			be;
	struct err		*err;
};

static int mc_fail(struct mc *c, const char *what)
{
	int code = strncmp(what, "truncated", 9) ? -SR_EBADTRACE : -SR_ETRUNCATED;

	if (c->sec) {
		err_set(c->err, code,
			"%s (byte %llu of the decompressed section at byte %llu)", what,
			(unsigned long long)c->pos, (unsigned long long)c->sec);
		err_at_byte(c->err, c->sec);
	} else {
		err_set(c->err, code, "%s", what);
		err_at_byte(c->err, c->base + c->pos);
	}
	return c->err->code;
}

static int mc_num(struct mc *c, unsigned int len, uint64_t *out, const char *what)
{
	if (c->n - c->pos < len)
		return mc_fail(c, what);
	*out = dat_read_num(c->p + c->pos, len, dat_swapped(c->be));
	if (len == 4)
		*out &= 0xffffffffu;
	c->pos += len;
	return 0;
}

/* a NUL-terminated string at the cursor; *out borrows it */
static int mc_str(struct mc *c, const char **out, const char *what)
{
	const unsigned char *nul = memchr(c->p + c->pos, '\0', c->n - c->pos);

	if (!nul)
		return mc_fail(c, what);
	*out = (const char *)c->p + c->pos;
	c->pos = (uint64_t)(nul - c->p) + 1;
	return 0;
}

/* the next @len bytes; *out borrows them */
static int mc_take(struct mc *c, uint64_t len, const unsigned char **out, const char *what)
{
	if (len > c->n - c->pos)
		return mc_fail(c, what);
	*out = c->p + c->pos;
	c->pos += len;
	return 0;
}

/* "name: NAME\nID: N": the two lines libtraceevent reads first (any spacing) */
static bool fmt_head(const char *t, size_t n, const char **name, size_t *nlen, long *id)
{
	const char *e = t + n, *p = t;
	long v = 0;

#define SKIP_WS() while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++
	SKIP_WS();
	if (e - p < 5 || memcmp(p, "name", 4))
		return false;
	p += 4;
	SKIP_WS();
	if (p >= e || *p++ != ':')
		return false;
	SKIP_WS();
	*name = p;
	while (p < e && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
		p++;
	*nlen = (size_t)(p - *name);
	SKIP_WS();
	if (!*nlen || e - p < 3 || memcmp(p, "ID", 2))
		return false;
	p += 2;
	SKIP_WS();
	if (p >= e || *p++ != ':')
		return false;
	SKIP_WS();
	if (p >= e || *p < '0' || *p > '9')
		return false;
	while (p < e && *p >= '0' && *p <= '9' && v <= DAT_MAX_EVENT_ID)
		v = v * 10 + (*p++ - '0');
#undef SKIP_WS
	*id = v;
	return true;
}

/* whether the decoder reads fields of this event (else its name is enough) */
static bool fmt_needed(const char *sys, const char *name, const unsigned char *text, uint32_t len)
{
	enum sr_event_kind k = ingest_event_kind_from_name(name);

	if (k == SR_EV_PRINT && strcmp(sys, "ftrace"))
		k = SR_EV_OTHER;
	if (k != SR_EV_OTHER || ingest_probe_kind(sys, name) != SR_EV_OTHER)
		return true;
	/* a NUMA fault probe is told by its fields (dat-fields.c, is_numa_fault()) */
	return memmem(text, len, "last_cpupid;", 12) != NULL;
}

static int add_fmt(struct dat_meta *m, struct mc *c, const char *sys, uint64_t len)
{
	const unsigned char *text = NULL;
	struct dat_fmt *f;
	const char *name;
	size_t nlen, slen = strlen(sys);
	uint64_t at = c->pos;
	long id;
	int ret;

	ret = mc_take(c, len, &text, "truncated event format");
	if (ret < 0)
		return ret;
	if (!fmt_head((const char *)text, len, &name, &nlen, &id)) {
		c->pos = at;
		return mc_fail(c, "event format without its name and ID lines");
	}
	if (m->nr_fmts >= (int)DAT_META_ITEMS)
		return mc_fail(c, "impossible event format count");
	if (m->nr_fmts == m->cap_fmts) {
		int cap = m->cap_fmts ? 2 * m->cap_fmts : 256;
		void *nf = realloc(m->fmts, cap * sizeof(*m->fmts));

		if (!nf)
			return err_set(c->err, -ENOMEM, "out of memory");
		m->fmts = nf;
		m->cap_fmts = cap;
	}
	f = &m->fmts[m->nr_fmts];
	memset(f, 0, sizeof(*f));
	f->system = malloc(slen + 1 + nlen + 1);
	if (!f->system)
		return err_set(c->err, -ENOMEM, "out of memory");
	memcpy(f->system, sys, slen + 1);
	f->name = f->system + slen + 1;
	memcpy(f->name, name, nlen);
	f->name[nlen] = '\0';
	f->id = (int)id;
	f->text = text;
	f->len = (uint32_t)len;
	f->at = c->sec ? at : c->base + at;
	f->sec = c->sec;
	f->parse = fmt_needed(f->system, f->name, text, f->len);
	m->nr_fmts++;
	return 0;
}

/* "header_page", size (8), text, "header_event", size (8), text */
static int read_headers(struct dat_meta *m, struct mc *c)
{
	const unsigned char *t;
	const char *label = NULL;
	uint64_t len = 0;
	int ret;

	ret = mc_str(c, &label, "truncated header page");
	if (!ret && strcmp(label, "header_page"))
		ret = mc_fail(c, "expected \"header_page\"");
	if (!ret)
		ret = mc_num(c, 8, &len, "truncated header page");
	if (!ret)
		ret = mc_take(c, len, &m->hpage, "truncated header page");
	if (ret < 0)
		return ret;
	m->hpage_len = len;
	ret = mc_str(c, &label, "truncated header event");
	if (!ret && strcmp(label, "header_event"))
		ret = mc_fail(c, "expected \"header_event\"");
	if (!ret)
		ret = mc_num(c, 8, &len, "truncated header event");
	if (!ret)
		ret = mc_take(c, len, &t, "truncated header event");
	return ret;
}

/* count (4), then size (8) and text of each ftrace format */
static int read_ftrace(struct dat_meta *m, struct mc *c)
{
	uint64_t n = 0, len = 0, i;
	int ret;

	ret = mc_num(c, 4, &n, "truncated ftrace formats");
	if (ret < 0)
		return ret;
	if (n > DAT_META_ITEMS)
		return mc_fail(c, "impossible ftrace format count");
	for (i = 0; i < n; i++) {
		ret = mc_num(c, 8, &len, "truncated ftrace formats");
		if (!ret)
			ret = add_fmt(m, c, "ftrace", len);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* systems (4), each: name, count (4), then size (8) and text of each format */
static int read_events(struct dat_meta *m, struct mc *c)
{
	uint64_t n = 0, k = 0, len = 0, i, j;
	const char *sys;
	int ret;

	ret = mc_num(c, 4, &n, "truncated event formats");
	if (ret < 0)
		return ret;
	if (n > DAT_META_ITEMS)
		return mc_fail(c, "impossible event system count");
	for (i = 0; i < n; i++) {
		ret = mc_str(c, &sys, "bad event system name");
		if (!ret)
			ret = mc_num(c, 4, &k, "truncated event formats");
		if (ret < 0)
			return ret;
		if (k > DAT_META_ITEMS)
			return mc_fail(c, "impossible event count");
		for (j = 0; j < k; j++) {
			ret = mc_num(c, 8, &len, "truncated event formats");
			if (!ret)
				ret = add_fmt(m, c, sys, len);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

/*
 * v7: metadata section @sec (header already checked by the walk): its
 * bytes, decompressed when compressed, into m->blk[@i]; the cursor over them.
 */
static int load_section(struct dat_meta *m, int fd, const struct dat_layout *lay, int i,
			uint64_t sec, struct dat_unz *z, struct mc *c, struct err *err)
{
	unsigned char h[16];
	uint64_t flags, size, zsize, usize;
	const char *why = "short read";
	unsigned char *in;
	bool be = lay->big_endian;
	int ret;

	if (sec > lay->file_size || lay->file_size - sec < 16 ||
	    pread(fd, h, 16, (off_t)sec) != 16)
		goto bad;
	flags = dat_read_num(h + 2, 2, dat_swapped(be));
	size = dat_read_num(h + 8, 8, dat_swapped(be));
	if (size > lay->file_size - sec - 16 || size > DAT_META_MAX)
		goto bad;
	if (!lay->compression[0] || !(flags & 1)) {
		m->blk[i] = malloc(size ? size : 1);
		if (!m->blk[i])
			return err_set(err, -ENOMEM, "out of memory");
		if (pread(fd, m->blk[i], size, (off_t)(sec + 16)) != (ssize_t)size)
			goto bad;
		usize = size;
	} else {
		if (size < 8 || pread(fd, h, 8, (off_t)(sec + 16)) != 8)
			goto bad;
		zsize = dat_read_num(h, 4, dat_swapped(be));
		usize = dat_read_num(h + 4, 4, dat_swapped(be));
		why = "compressed block runs past the end of its data";
		if (zsize > size - 8)
			goto bad;
		in = dat_unz_input(z, (uint32_t)zsize);
		why = "impossible compressed size";
		if (!in || !usize || usize > DAT_UNZ_MAX_BLOCK)
			goto bad;
		why = "short read";
		if (pread(fd, in, zsize, (off_t)(sec + 24)) != (ssize_t)zsize)
			goto bad;
		m->blk[i] = malloc(usize);
		if (!m->blk[i])
			return err_set(err, -ENOMEM, "out of memory");
		ret = dat_unz_to(z, (uint32_t)zsize, (uint32_t)usize, m->blk[i], &why);
		if (ret < 0)
			goto bad;
	}
	*c = (struct mc){ .p = m->blk[i], .n = usize, .sec = sec, .be = be, .err = err };
	return 0;
bad:
	err_set(err, -SR_EBADTRACE, "metadata section at byte %llu: %s",
		(unsigned long long)sec, why);
	err_at_byte(err, sec);
	return -SR_EBADTRACE;
}

static int index_ids(struct dat_meta *m, struct err *err)
{
	int i, max = -1;

	for (i = 0; i < m->nr_fmts; i++)
		if (m->fmts[i].id > max && m->fmts[i].id <= DAT_MAX_EVENT_ID)
			max = m->fmts[i].id;
	m->id_cap = max + 1;
	m->by_id = malloc((m->id_cap ? m->id_cap : 1) * sizeof(*m->by_id));
	if (!m->by_id)
		return err_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < m->id_cap; i++)
		m->by_id[i] = -1;
	for (i = 0; i < m->nr_fmts; i++)	/* the first of two with one id, as tep's sort keeps */
		if (m->fmts[i].id <= DAT_MAX_EVENT_ID && m->by_id[m->fmts[i].id] < 0)
			m->by_id[m->fmts[i].id] = i;
	return 0;
}

int dat_meta_load(int fd, const struct dat_layout *lay, struct dat_meta *m, struct err *err)
{
	struct dat_unz z = { 0 };
	struct mc c;
	uint64_t len;
	int ret, i;

	memset(m, 0, sizeof(*m));
	if (lay->version < 7) {
		len = lay->meta_end - lay->meta_off;
		if (lay->meta_end < lay->meta_off || len > DAT_META_MAX)
			return err_set(err, -SR_EBADTRACE, "event formats of impossible size");
		m->blk[0] = malloc(len ? len : 1);
		if (!m->blk[0])
			return err_set(err, -ENOMEM, "out of memory");
		if (pread(fd, m->blk[0], len, (off_t)lay->meta_off) != (ssize_t)len)
			return err_set(err, -EIO, "cannot read the event formats");
		c = (struct mc){ .p = m->blk[0], .n = len, .base = lay->meta_off,
				 .be = lay->big_endian, .err = err };
		ret = read_headers(m, &c);
		if (!ret)
			ret = read_ftrace(m, &c);
		if (!ret)
			ret = read_events(m, &c);
		return ret < 0 ? ret : index_ids(m, err);
	}
	if (lay->compression[0]) {
		ret = dat_unz_init(&z, lay->compression);
		if (ret < 0) {
			dat_unz_release(&z);
			return err_set(err, ret, "cannot decompress \"%s\"", lay->compression);
		}
	}
	ret = 0;
	for (i = 0; i < 3 && !ret; i++) {
		if (!lay->meta_sec[i])
			continue;
		ret = load_section(m, fd, lay, i, lay->meta_sec[i], &z, &c, err);
		if (ret < 0)
			break;
		ret = i == 0 ? read_headers(m, &c) : i == 1 ? read_ftrace(m, &c) : read_events(m, &c);
	}
	dat_unz_release(&z);
	return ret < 0 ? ret : index_ids(m, err);
}

int dat_meta_parse(struct dat_meta *m, const struct dat_layout *lay, struct err *err)
{
	bool any = false;
	int i;

	m->tep = tep_alloc();
	if (!m->tep)
		return err_set(err, -ENOMEM, "out of memory");
	tep_set_file_bigendian(m->tep, lay->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(m->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(m->tep, (int)lay->long_size);
	tep_set_page_size(m->tep, (int)lay->page_size);
	if (m->hpage)
		tep_parse_header_page(m->tep, (char *)m->hpage, (unsigned long)m->hpage_len,
				      (int)lay->long_size);
	for (i = 0; i < m->nr_fmts; i++)
		any |= m->fmts[i].parse;
	/* common_type and common_pid are found in a parsed format: one at least */
	if (!any && m->nr_fmts)
		m->fmts[m->nr_fmts - 1].parse = true;
	for (i = 0; i < m->nr_fmts; i++) {
		struct dat_fmt *f = &m->fmts[i];

		if (!f->parse)
			continue;
		/* a failure leaves it out or flagged TEP_EVENT_FL_FAILED: formats_check() */
		tep_parse_event(m->tep, (const char *)f->text, f->len, f->system);
		if (tep_find_event(m->tep, f->id))
			continue;
		if (ingest_event_kind_from_name(f->name) == SR_EV_OTHER &&
		    ingest_probe_kind(f->system, f->name) == SR_EV_OTHER)
			continue;	/* decoded by its name after all */
		err_set(err, -SR_EBADTRACE,
			"the format of event '%s' (at byte %llu%s) cannot be read (damaged, or out of memory)",
			f->name, (unsigned long long)f->at, f->sec ? " of its decompressed section" : "");
		err_at_byte(err, f->sec ? f->sec : f->at);
		return err->code;
	}
	return 0;
}

const struct dat_fmt *dat_meta_find(const struct dat_meta *m, int id)
{
	if (!m || id < 0 || id >= m->id_cap || m->by_id[id] < 0)
		return NULL;
	return &m->fmts[m->by_id[id]];
}

void dat_meta_release(struct dat_meta *m)
{
	int i;

	if (m->tep)
		tep_free(m->tep);
	for (i = 0; i < m->nr_fmts; i++)
		free(m->fmts[i].system);
	for (i = 0; i < 3; i++)
		free(m->blk[i]);
	free(m->fmts);
	free(m->by_id);
	memset(m, 0, sizeof(*m));
}
