// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dat.c - the trace.dat decoder: trace-cmd files, versions 6 and 7,
 * compressed or not, read with libtracecmd and libtraceevent (the fast
 * reader: its own page reader, dat-fast.c, and its own read of the event
 * formats, dat-meta.c, with libtraceevent parsing the few it needs) and
 * turned into struct sr_event.  This file opens (after dat-check.c's header walk,
 * through a patched copy when the walk found damage to read around),
 * selects buffers, and runs next/close; dat-merge.c merges the per-CPU
 * streams in time order, dat-fields.c decodes each record.
 *
 * Reading: every buffer (the top one and each instance) that has data is
 * opened as its own libtracecmd handle; each (buffer, CPU) pair is one
 * stream (dat-merge.c).
 *
 * Invariants: the record behind the last event returned (ev->str points
 * into it or into strs) is freed at the next call; a record that carries
 * a missed-events count is returned twice: first as an SR_EV_LOST event,
 * then as itself.
 *
 * libtracecmd prints warnings on stderr by default; the library must not
 * print, so dat_open() sets its log level (and libtraceevent's) to none.
 * That setting is process-wide, which is the only way these libraries
 * offer.
 */
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>

#include "../util/cpus.h"
#include "../util/lines.h"
#include "dat-local.h"
#include "ingest-local.h"

/* ---- open --------------------------------------------------------------- */

static int add_buf(struct dat *d, struct tracecmd_input *h, const char *name)
{
	struct dat_buf *b = &d->bufs[d->nr_bufs++];

	b->h = h;
	b->tep = tracecmd_get_tep(h);
	b->name = name;
	b->nr_cpus = tracecmd_cpus(h);
	if (b->nr_cpus < 0 || b->nr_cpus > INGEST_MAX_CPUS)
		b->nr_cpus = 0;
	return 0;
}

static int select_buffers(struct ingest *in, struct dat *d)
{
	const char *want = in->opts.buffer;
	int n = tracecmd_buffer_instances(d->top);
	struct tracecmd_input *h;
	const char *name;
	char list[400];
	size_t len;
	int i;

	if (n < 0)
		n = 0;
	d->bufs = calloc(n + 1, sizeof(*d->bufs));
	if (!d->bufs)
		return -ENOMEM;
	if (!want || !*want || !strcmp(want, "top")) {
		add_buf(d, d->top, "");	/* closed as d->top, not as a buffer */
		if (want)
			return 0;
	}
	for (i = 0; i < n; i++) {
		name = tracecmd_buffer_instance_name(d->top, i);
		if (!name || (want && strcmp(want, name)))
			continue;
		h = tracecmd_buffer_instance_handle(d->top, i);
		if (!h)
			return err_set(&in->err, -SR_EBADTRACE, "cannot read buffer \"%s\"", name);
		add_buf(d, h, name);
	}
	if (d->nr_bufs)
		return 0;
	len = snprintf(list, sizeof(list), "top");
	for (i = 0; i < n && len < sizeof(list); i++) {
		name = tracecmd_buffer_instance_name(d->top, i);
		len += snprintf(list + len, sizeof(list) - len, ", %s", name ? name : "?");
	}
	return err_set(&in->err, -SR_ENOTFOUND, "no buffer \"%s\" in the file (it has: %s)",
		       want, list);
}

/*
 * The second and third words of a `uname -a` line: the host name (the
 * kernel's "(none)" when nobody set one counts as unsaid) and the release.
 */
static void set_release(struct ingest *in, const char *uname)
{
	const char *p = uname;
	size_t n;
	int i;

	if (!p)
		return;
	for (i = 0; i < 2; i++) {
		p = strchr(p, ' ');
		if (!p)
			return;
		while (*p == ' ')
			p++;
		n = strcspn(p, " \n");
		if (i == 0 && n && n < sizeof(in->info.hostname) && !(n == 6 && !strncmp(p, "(none)", 6)))
			snprintf(in->info.hostname, sizeof(in->info.hostname), "%.*s", (int)n, p);
	}
	n = strcspn(p, " \n");
	snprintf(in->info.kernel_release, sizeof(in->info.kernel_release), "%.*s", (int)n, p);
}

/* "local" from "local" or from "[local] global counter" */
static void set_clock(struct ingest *in, const char *clock)
{
	const char *p;
	size_t n;

	if (!clock || !*clock)
		return;
	p = strchr(clock, '[');
	if (p) {
		p++;
		n = strcspn(p, "]");
	} else {
		p = clock;
		n = strcspn(p, " \n");
	}
	snprintf(in->info.clock, sizeof(in->info.clock), "%.*s", (int)n, p);
}

static int write_num(int fd, uint64_t pos, uint64_t v, int len, bool big_endian)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < len; i++)
		b[big_endian ? len - 1 - i : i] = (unsigned char)(v >> (8 * i));
	return pwrite(fd, b, len, (off_t)pos) == len ? 0 : -1;
}

/*
 * Damage the header walk found and libtracecmd cannot read around by
 * itself: hand it a copy with the sizes changed.
 *
 * A file cut inside its (uncompressed) event data: each cut CPU range is
 * shortened to end at the file's end (rounded up to a page, the rest of
 * that page zeros), so that every page it maps exists.  Padding up to the
 * declared sizes instead would make it read through as many zero pages as
 * a corrupt size says.  Records in the zeros are dropped in dat_next().
 *
 * A v7 file cut before its last options section, whose CPU table was
 * rebuilt from the data: that section is written back, holding the table.
 *
 * Compressed CPU data with bad chunks: the good chunks after a bad one
 * are moved down over it (compact_chunks()) and the CPU's chunk count is
 * set to the number of good chunks, so that libtracecmd reads each of
 * them and none of the bad ones.
 *
 * Return: a memfd, or a negative code.
 */
static int compact_chunks(int mfd, const struct dat_bad_cpu *b, unsigned char *buf, size_t cap,
			  uint64_t *at)
{
	uint64_t to = b->skip[0].at, from, next, len, stop;
	ssize_t n;
	int j;

	stop = b->lost_rest ? b->stop : b->end;
	for (j = 0; j < b->nr_skip; j++) {
		from = b->skip[j].at + b->skip[j].len;
		next = j + 1 < b->nr_skip ? b->skip[j + 1].at : stop;
		while (from < next) {
			len = next - from < cap ? next - from : cap;
			*at = from;
			n = pread(mfd, buf, len, (off_t)from);
			if (n != (ssize_t)len || pwrite(mfd, buf, len, (off_t)to) != (ssize_t)len)
				return -1;
			from += len;
			to += len;
		}
	}
	return 0;
}

/*
 * A v7 file whose CPU table was rebuilt (dat_layout.rebuilt): an options
 * section holding one BUFFER option for the top buffer, the CPUs found,
 * and the end option, written where the lost one was (the previous
 * options section's end option points there).  The clock is not in what
 * is left of the file: "local", trace-cmd's default.
 */
/*
 * The page a cut falls in: its commit size is lowered to the bytes of it
 * the file holds, so that libtraceevent's kbuffer, which trusts it, reads
 * no record from the zeros after the cut (a zero record's length word
 * leads it past the end of the page).  A page whose header itself is cut
 * gets commit size 0: no records.
 */
static int cut_page_commit(int mfd, const struct dat_layout *lay, uint64_t page)
{
	unsigned int hdr = 8 + lay->long_size;
	unsigned char w[8] = { 0 };
	uint64_t commit, have;

	have = lay->file_size > page ? lay->file_size - page : 0;
	if (have < hdr)
		return pwrite(mfd, w, lay->long_size, (off_t)(page + 8)) ==
		       (ssize_t)lay->long_size ? 0 : -1;
	if (pread(mfd, w, lay->long_size, (off_t)(page + 8)) != (ssize_t)lay->long_size)
		return -1;
	commit = dat_read_num(w, lay->long_size, dat_swapped(lay->big_endian));
	if ((commit & DAT_COMMIT_MASK) <= have - hdr)
		return 0;
	commit = (commit & ~(uint64_t)DAT_COMMIT_MASK) | (have - hdr);
	return write_num(mfd, page + 8, commit, (int)lay->long_size, lay->big_endian);
}

static void put_num(unsigned char *b, size_t *n, uint64_t v, int len, bool big_endian)
{
	int i;

	for (i = 0; i < len; i++)
		b[*n + (big_endian ? len - 1 - i : i)] = (unsigned char)(v >> (8 * i));
	*n += len;
}

static int write_rebuilt_options(int mfd, const struct dat_layout *lay)
{
	static const char clock[] = "local";
	size_t n = 0, cap, opt;
	unsigned char *b;
	int i, ret;

	cap = 16 + 6 + 8 + 1 + sizeof(clock) + 8 + 20 * (size_t)lay->nr_ranges + 6 + 8;
	b = calloc(1, cap);
	if (!b)
		return -1;
	put_num(b, &n, 0, 2, lay->big_endian);		/* section: options */
	put_num(b, &n, 0, 2, lay->big_endian);		/* flags: not compressed */
	put_num(b, &n, 0, 4, lay->big_endian);		/* string id */
	put_num(b, &n, cap - 16, 8, lay->big_endian);	/* size */
	put_num(b, &n, 3, 2, lay->big_endian);		/* option BUFFER */
	opt = n;
	put_num(b, &n, 0, 4, lay->big_endian);		/* its size, below */
	put_num(b, &n, lay->rebuilt_buf, 8, lay->big_endian);
	b[n++] = '\0';		/* the top buffer's name */
	memcpy(b + n, clock, sizeof(clock));
	n += sizeof(clock);
	put_num(b, &n, lay->page_size, 4, lay->big_endian);
	put_num(b, &n, lay->nr_ranges, 4, lay->big_endian);
	for (i = 0; i < lay->nr_ranges; i++) {
		put_num(b, &n, lay->ranges[i].cpu, 4, lay->big_endian);
		put_num(b, &n, lay->ranges[i].off, 8, lay->big_endian);
		put_num(b, &n, lay->ranges[i].size, 8, lay->big_endian);
	}
	for (i = 0; i < 4; i++)
		b[opt + (lay->big_endian ? 3 - i : i)] = (unsigned char)((n - opt - 4) >> (8 * i));
	put_num(b, &n, 0, 2, lay->big_endian);		/* option DONE: no next options section */
	put_num(b, &n, 8, 4, lay->big_endian);
	put_num(b, &n, 0, 8, lay->big_endian);
	ret = pwrite(mfd, b, n, (off_t)lay->rebuilt_sec) == (ssize_t)n ? 0 : -1;
	free(b);
	return ret;
}

static int patched_copy(struct ingest *in, int fd, const struct dat_layout *lay)
{
	uint64_t end = (lay->data_end + lay->page_size - 1) & ~(uint64_t)(lay->page_size - 1);
	char buf[65536];
	const char *what = "copying the file";
	uint64_t at = 0;
	off_t off = 0;
	ssize_t n;
	int mfd;
	int i;

	mfd = memfd_create("schedreplay-dat", MFD_CLOEXEC);
	if (mfd < 0)
		return err_set(&in->err, -errno, "cannot make a patched copy (memfd_create): %s",
			       strerror(errno));
	errno = 0;
	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		at = (uint64_t)off;
		if (write(mfd, buf, n) != n)
			goto out_err;
		off += n;
	}
	at = (uint64_t)off;
	if (n < 0)
		goto out_err;
	what = "shortening a cut cpu's size field";
	for (i = 0; i < lay->nr_cut; i++) {
		at = lay->cut[i].size_pos;
		if (at && write_num(mfd, at, lay->cut[i].size, 8, lay->big_endian) < 0)
			goto out_err;
	}
	what = "moving a cpu's good chunks over its bad ones";
	for (i = 0; i < lay->nr_bad; i++)
		if (lay->bad[i].nr_skip &&
		    compact_chunks(mfd, &lay->bad[i], (unsigned char *)buf, sizeof(buf), &at) < 0)
			goto out_err;
	what = "lowering the commit size of the page the cut falls in";
	for (i = 0; i < lay->nr_cut; i++) {
		at = lay->cut[i].page + 8;
		if (lay->cut[i].size && cut_page_commit(mfd, lay, lay->cut[i].page) < 0)
			goto out_err;
	}
	what = "lowering a cpu's chunk count";
	for (i = 0; i < lay->nr_bad; i++) {
		at = lay->bad[i].count_pos;
		if (write_num(mfd, at, lay->bad[i].good, 4, lay->big_endian) < 0)
			goto out_err;
	}
	what = "padding the copy to a whole page";
	at = end;
	if (lay->nr_cut && ftruncate(mfd, (off_t)end) < 0)
		goto out_err;
	/* after the padding: it lies past the data */
	what = "writing the rebuilt cpu table";
	at = lay->rebuilt_sec;
	if (lay->rebuilt && write_rebuilt_options(mfd, lay) < 0)
		goto out_err;
	if (lseek(mfd, 0, SEEK_SET) < 0)
		goto out_err;
	return mfd;

out_err:
	err_set(&in->err, errno ? -errno : -EIO, "cannot make a patched copy (%s, at byte %llu): %s",
		what, (unsigned long long)at, errno ? strerror(errno) : "short write");
	close(mfd);
	return in->err.code;
}

/*
 * One piece of the file's damage found at open, @n more truncated: said
 * now, and kept in d->told for a rewind to say again.  Return: 0, or the
 * --strict error.
 */
static int tell(struct ingest *in, uint64_t n, int code, uint64_t pos, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int tell(struct ingest *in, uint64_t n, int code, uint64_t pos, const char *fmt, ...)
{
	struct dat *d = in->priv;
	struct dat_told *t;
	va_list ap;

	t = realloc(d->told, (d->nr_told + 1) * sizeof(*t));
	if (!t)
		return err_set(&in->err, -ENOMEM, "out of memory");
	d->told = t;
	t += d->nr_told++;
	t->code = code;
	t->pos = pos;
	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
	in->info.truncated += n;
	d->told_truncated += n;
	return ingest_damage(in, code, pos, "%s", t->msg);
}

/* what tell() said at open, said again (a rewind).  Return: as tell(). */
static int tell_again(struct ingest *in, const struct dat *d)
{
	int ret;
	int i;

	in->info.truncated += d->told_truncated;
	for (i = 0; i < d->nr_told; i++) {
		ret = ingest_damage(in, d->told[i].code, d->told[i].pos, "%s", d->told[i].msg);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * Report what the header walk found to read around (@told_short: the short
 * file was reported already, by the fast reader's walk).
 * Return: 0, or the --strict error.
 */
static int report_damage(struct ingest *in, const struct dat_layout *lay, bool told_short)
{
	const struct dat_bad_cpu *b;
	int ret;
	int i;

	if (lay->nr_cut && !lay->rebuilt) {	/* a rebuilt table's cut: said below */
		ret = tell(in, lay->nr_cut, -SR_ETRUNCATED, lay->first_cut,
			   "file ends inside the event data of %d cpu(s); reading what is there",
			   lay->nr_cut);
		if (ret < 0)
			return ret;
	}
	if (lay->rebuilt && !(told_short && lay->short_sec)) {
		ret = tell(in, 1, -SR_ETRUNCATED, lay->file_size,
			   "file cut short inside its event data: the table of where each cpu's data lies (the options section at byte %llu) went with the cut; reading the %d of %d cpu(s) found before it, told apart %s, numbered in file order",
			   (unsigned long long)lay->rebuilt_sec, lay->rebuilt_cpus,
			   lay->nr_bufs ? lay->bufs[0].nr_cpus : 0, lay->rebuilt_how);
		if (ret < 0)
			return ret;
	} else if (lay->short_sec && !told_short) {
		ret = tell(in, 1, -SR_ETRUNCATED, lay->file_size,
			   "file cut short: the section at byte %llu says it ends at byte %llu",
			   (unsigned long long)lay->short_sec, (unsigned long long)lay->short_end);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < lay->nr_bad; i++) {
		b = &lay->bad[i];
		if (b->cut)
			continue;	/* the cut, said above */
		if (b->lost_rest)
			ret = tell(in, 1, -SR_EBADTRACE, b->at,
				   "cpu %d compressed data: %s; reading %u of its %u chunks (%d bad read around, the rest from byte %llu lost)",
				   b->cpu, b->why, b->good, b->count, b->nr_skip,
				   (unsigned long long)b->stop);
		else
			ret = tell(in, 1, -SR_EBADTRACE, b->at,
				   "cpu %d compressed data: %s; reading %u of its %u chunks (%d bad read around)",
				   b->cpu, b->why, b->good, b->count, b->nr_skip);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* the first byte of any cpu data the header walk found (the file size when none) */
static uint64_t first_data_byte(const struct dat_layout *lay)
{
	uint64_t at = lay->file_size;
	int i;

	for (i = 0; i < lay->nr_ranges; i++)
		if (lay->ranges[i].size && lay->ranges[i].off < at)
			at = lay->ranges[i].off;
	return at;
}

/*
 * libtracecmd refused a file the header walk found sound: say which bytes
 * it was reading (it does not say where it failed).
 */
static int libtracecmd_refused(struct ingest *in, const struct dat *d, bool with_data,
			       int sig)
{
	char how[64];

	if (sig)
		snprintf(how, sizeof(how), "crashes (signal %d) reading", sig);
	else
		snprintf(how, sizeof(how), "cannot read");
	if (!with_data)
		return err_set(&in->err, -SR_EBADTRACE,
			       "libtracecmd %s the file's headers or event formats (bytes 0-%llu, before the cpu data, whose sizes are sound): damaged file",
			       how, (unsigned long long)d->data_start);
	return err_set(&in->err, -SR_EBADTRACE,
		       "libtracecmd %s the file's headers, event formats (bytes 0-%llu) or cpu data (bytes %llu-%llu), whose sizes are sound: damaged file",
		       how, (unsigned long long)d->data_start, (unsigned long long)d->data_start,
		       (unsigned long long)d->real_size);
}

/*
 * Try libtracecmd's open in a child process first.  libtracecmd 3.1.6 and
 * libtraceevent 1.7 crash on some damage the header walk cannot see
 * without parsing formats itself: when tracecmd_init_data() fails for one
 * CPU, tracecmd_open_fd()'s error path calls tracecmd_close(), which walks
 * the still zeroed page lists of the CPUs after it (NULL read); a damaged
 * print format in the event formats makes libtraceevent's parser read a
 * NULL pointer.  The child opens the file and every buffer instance and
 * exits; a crash or a failure there becomes an error here, and the real
 * open below is only done when the child's succeeded.  The child shares
 * the file offset of @fd, so it is rewound afterwards.  It ends with the
 * exit_group system call itself: no atexit handlers, no stdio flush of the
 * parent's buffers, no leak check of a sanitizer build (libtraceevent
 * leaks a little per parsed format, which would change its exit status).
 * Return: 0, or a negative code with in->err set.
 */
/*
 * In the probe child a crash must only end the child: default signal
 * actions (no handler of a fuzzer or sanitizer that would report the
 * parent's input as a crash), and no sanitizer death callback (libFuzzer
 * installs one that writes a crash file).
 */
void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static void probe_child_quiet(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
	size_t i;

	int fd;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(NULL);
	/*
	 * The parent reports how the probe ended, as one error: what the
	 * libraries (or libc, on a double free inside libtracecmd) print on
	 * the way is not a second line of it
	 */
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
}

/* The first record of every CPU: damaged page lists crash the first read. */
static void probe_first_records(struct tracecmd_input *h)
{
	int cpu, n = tracecmd_cpus(h);

	for (cpu = 0; cpu < n; cpu++)
		tracecmd_free_record(tracecmd_read_data(h, cpu));
}

static int probe_open(struct ingest *in, int fd)
{
	struct tracecmd_input *h;
	pid_t pid;
	int status = 0;
	int n;
	int i;

	pid = fork();
	if (pid < 0)
		return 0;	/* cannot probe: open directly, as without the probe */
	if (!pid) {
		probe_child_quiet();
		h = tracecmd_open_fd(fd, TRACECMD_FL_LOAD_NO_PLUGINS);
		if (!h)
			syscall(SYS_exit_group, 1);
		probe_first_records(h);
		n = tracecmd_buffer_instances(h);
		for (i = 0; i < n; i++) {
			struct tracecmd_input *b = tracecmd_buffer_instance_handle(h, i);

			if (b)
				probe_first_records(b);
			tracecmd_close(b);
		}
		syscall(SYS_exit_group, 0);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return 0;	/* SIGCHLD ignored by the caller: no status */
	}
	if (lseek(fd, 0, SEEK_SET) < 0)
		return err_set(&in->err, -errno, "cannot rewind: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	return libtracecmd_refused(in, in->priv, true,
				   WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* per-CPU arrays for the largest CPU count of the buffers read */
static int note_cpus(struct ingest *in, const struct dat *d)
{
	int max_cpus = 0;
	int i;

	for (i = 0; i < d->nr_bufs; i++)
		if (d->bufs[i].nr_cpus > max_cpus)
			max_cpus = d->bufs[i].nr_cpus;
	return max_cpus ? ingest_note_cpu(in, max_cpus - 1, 0) : 0;
}

/* the fast reader's buffers: as select_buffers(), from the header walk */
static int fast_select_buffers(struct ingest *in, struct dat *d)
{
	const struct dat_layout *lay = &d->lay;
	const char *want = in->opts.buffer;
	struct tep_handle *tep = d->meta.tep;
	char list[400];
	size_t len;
	int i;

	d->bufs = util_calloc_lines(lay->nr_bufs + 1, sizeof(*d->bufs));
	if (!d->bufs)
		return err_set(&in->err, -ENOMEM, "out of memory");
	for (i = 0; i < lay->nr_bufs; i++) {
		if (want && *want && strcmp(want, i ? lay->bufs[i].name : "top"))
			continue;
		if (want && !*want && i)
			continue;
		d->bufs[d->nr_bufs].tep = tep;
		d->bufs[d->nr_bufs].meta = &d->meta;
		d->bufs[d->nr_bufs].name = lay->bufs[i].name;
		d->bufs[d->nr_bufs].nr_cpus = lay->bufs[i].nr_cpus;
		if (d->bufs[d->nr_bufs].nr_cpus < 0 || d->bufs[d->nr_bufs].nr_cpus > INGEST_MAX_CPUS)
			d->bufs[d->nr_bufs].nr_cpus = 0;
		d->nr_bufs++;
	}
	if (d->nr_bufs || !want)
		return 0;
	len = snprintf(list, sizeof(list), "top");
	for (i = 1; i < lay->nr_bufs && len < sizeof(list); i++)
		len += snprintf(list + len, sizeof(list) - len, ", %s", lay->bufs[i].name);
	return err_set(&in->err, -SR_ENOTFOUND, "no buffer \"%s\" in the file (it has: %s)",
		       want, list);
}

/*
 * The markers (schedreplay_meta, schedreplay_node, ...) are the text of
 * ftrace:print's "buf": a file whose print format has no such field, or
 * one that is not a char array, would be read without its topology and
 * settings and without a word.  Return: 0, or negative (in->err).
 */
static int print_format_check(struct ingest *in, const struct dat *d, struct tep_handle *tep)
{
	struct tep_event *ev = tep_find_event_by_name(tep, "ftrace", "print");
	struct tep_format_field *f;

	if (!ev)
		return 0;
	f = tep_find_field(ev, "buf");
	if (f && f->offset >= 0 && f->size >= 0 && f->type && strstr(f->type, "char") &&
	    (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
		return 0;
	return err_set(&in->err, -SR_EBADTRACE,
		       "the format of event 'ftrace:print' (bytes 0-%llu, before the cpu data) %s, so its markers cannot be read",
		       (unsigned long long)d->data_start,
		       f ? "has a 'buf' field that is not a char array" : "has no 'buf' field");
}

/*
 * An event format libtraceevent could not parse (damaged, or an
 * allocation failed inside it) is flagged there, or left out, and its
 * events would then be read as undescribed without a word: fewer formats
 * than a v6 file lists, or a flagged one the replay reads (any kind but
 * "other"), is fatal instead.  Return: 0, or negative (in->err).
 */
static int formats_check(struct ingest *in, const struct dat *d, struct tep_handle *tep)
{
	struct tep_event **evs = tep_list_events(tep, TEP_EVENT_SORT_ID);
	int i, have = tep_get_events_count(tep);

	if (!evs)
		return err_set(&in->err, -ENOMEM, "out of memory");
	/* one libtraceevent left out (its record could not be made): which is not known */
	if (!d->fast && d->lay.nr_formats && (uint64_t)have < d->lay.nr_formats)
		return err_set(&in->err, -SR_EBADTRACE,
			       "%llu of the file's %llu event formats (bytes 0-%llu, before the cpu data) cannot be read (damaged, or out of memory)",
			       (unsigned long long)(d->lay.nr_formats - (uint64_t)have),
			       (unsigned long long)d->lay.nr_formats,
			       (unsigned long long)d->data_start);
	for (i = 0; evs[i]; i++) {
		const char *name = evs[i]->name ? evs[i]->name : "";

		if (!(evs[i]->flags & TEP_EVENT_FL_FAILED) ||
		    ingest_event_kind_from_name(name) == SR_EV_OTHER)
			continue;
		return err_set(&in->err, -SR_EBADTRACE,
			       "the format of event '%s' (bytes 0-%llu, before the cpu data) cannot be read (damaged, or out of memory)",
			       name, (unsigned long long)d->data_start);
	}
	return print_format_check(in, d, tep);
}

/*
 * The fast reader's probe: libtraceevent parses the formats the decoder
 * needs in a child first (see probe_open()), then here.  Return: 0, or
 * negative (in->err).
 */
static int probe_meta(struct ingest *in, struct dat *d)
{
	struct err e = { 0 };
	pid_t pid;
	int status = 0;

	pid = fork();
	if (pid < 0)
		return 0;	/* cannot probe: parse directly, as without the probe */
	if (!pid) {
		probe_child_quiet();
		syscall(SYS_exit_group, dat_meta_parse(&d->meta, &d->lay, &e) < 0 ? 1 : 0);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return 0;
	}
	if (WIFEXITED(status))
		return 0;	/* a failure, if any, is said by the parse here */
	return libtracecmd_refused(in, d, false, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* the fast reader's threads, the caller's included */
static int reader_threads(const struct ingest *in)
{
	return in->opts.threads ? in->opts.threads : util_cpus_available();
}

/*
 * bytes of a CPU's data the threaded reader decodes apart; the header walk
 * cuts at them on one thread too, for a rewind onto threads
 */
static uint64_t dat_piece_size(const struct ingest *in)
{
	return in->opts.piece ? in->opts.piece : DAT_PIECE;
}

/*
 * The fast reader's streams, from the first record on: read here, or by
 * threads when opts.threads allows.  Return: 0, or negative (in->err).
 */
static int fast_start(struct ingest *in, struct dat *d)
{
	int threads;
	int ret;
	int i;

	ret = note_cpus(in, d);
	if (ret < 0)
		return ret;
	threads = reader_threads(in);
	/* a crafted format libtraceevent must read for us: not on two threads at once */
	for (i = 0; i < d->nr_bufs && threads >= 2; i++)
		if (!dat_common_inline(&d->bufs[i]))
			threads = 1;
	if (threads >= 2) {
		ret = dat_fast_streams(in, d, false);
		return ret < 0 ? ret : dat_mt_start(in, d, threads);
	}
	/* one thread: the streams are read here, with this decompression state */
	if (d->lay.compression[0]) {
		ret = dat_unz_init(&d->unz, d->lay.compression);
		if (ret < 0)
			return err_set(&in->err, ret, "cannot decompress \"%s\"", d->lay.compression);
	}
	ret = dat_streams_init(d, false);
	if (ret < 0 && !in->err.code)
		return err_set(&in->err, ret, "out of memory");
	return ret;
}

/*
 * Open for the fast reader (dat-fast.c): the header page and the event
 * formats it needs are read and parsed here (dat-meta.c, after the same
 * probe in a child), the pages are read from @fd; libtracecmd is not
 * used.  Return: 0, 1 when the fast reader cannot read the file after
 * all (d->lay.fast_why), or negative (in->err).
 */
static int fast_open(struct ingest *in, struct dat *d)
{
	int ret;

	d->fast = true;
	d->in = in;
	snprintf(in->info.reader, sizeof(in->info.reader), "fast");
	ret = dat_meta_load(d->fd, &d->lay, &d->meta, &in->err);
	if (ret < 0)
		return ret;
	ret = probe_meta(in, d);
	if (ret < 0)
		return ret;
	ret = dat_meta_parse(&d->meta, &d->lay, &in->err);
	if (ret < 0)
		return ret;
	ret = formats_check(in, d, d->meta.tep);
	if (ret < 0)
		return ret;
	if (tep_is_old_format(d->meta.tep)) {
		/* Linux 2.6.30 and older: the ring-buffer page format before today's */
		dat_meta_release(&d->meta);
		d->fast = false;
		d->lay.fast_why = "a ring-buffer page format older than Linux 2.6.31";
		return 1;
	}
	set_release(in, d->lay.uname[0] ? d->lay.uname : NULL);
	/* v6: the text after the CPU table, as in libtracecmd; v7: the option's, or the buffer's */
	if (d->lay.version < 7)
		set_clock(in, d->lay.clock);
	if (!in->info.clock[0])
		set_clock(in, d->lay.opt_clock);
	if (!in->info.clock[0])
		set_clock(in, d->lay.buf_clock);
	ret = fast_select_buffers(in, d);
	if (ret < 0)
		return ret;
	return fast_start(in, d);
}

/*
 * libtracecmd's streams, from each CPU's first record (@again: after a
 * rewind).  Return: 0, or negative (in->err).
 */
static int ltc_start(struct ingest *in, struct dat *d, bool again)
{
	int ret;

	ret = note_cpus(in, d);
	if (ret < 0)
		return ret;
	ret = dat_streams_init(d, again);
	if (ret < 0)
		return err_set(&in->err, ret, "out of memory");
	return 0;
}

static int dat_open(struct ingest *in)
{
	struct dat_layout lay;
	bool told_short = false;
	struct dat *d;
	int fd;
	int tfd;
	int ret;
	int i;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);

	d = util_calloc_lines(1, sizeof(*d));
	if (!d)
		return err_set(&in->err, -ENOMEM, "out of memory");
	d->fd = -1;
	in->priv = d;

	fd = open(in->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(&in->err, -errno, "cannot open: %s", strerror(errno));
	if (in->opts.reader != INGEST_READER_LIBTRACECMD) {
		ret = dat_layout_check(fd, &d->lay, DAT_CHECK_HEADERS, dat_piece_size(in),
				       &in->err);
		if (ret < 0) {
			dat_layout_release(&d->lay);
			goto out_close;
		}
		told_short = d->lay.short_sec != 0;
		ret = told_short ? report_damage(in, &d->lay, false) : 0;
		if (ret < 0) {
			dat_layout_release(&d->lay);
			goto out_close;
		}
		if (d->lay.fast_ok) {
			in->info.file_version = d->lay.version;
			snprintf(in->info.compression, sizeof(in->info.compression), "%s",
				 d->lay.compression);
			d->real_size = d->lay.file_size;
			d->data_start = first_data_byte(&d->lay);
			d->fd = fd;
			ret = fast_open(in, d);
			if (ret != 1)
				return ret;
			d->fd = -1;
		}
		if (in->opts.reader == INGEST_READER_FAST) {
			ret = err_set(&in->err, -SR_EUNSUPPORTED, "the fast reader cannot read it: %s",
				      d->lay.fast_why);
			dat_layout_release(&d->lay);
			goto out_close;
		}
		snprintf(in->info.reader_note, sizeof(in->info.reader_note), "%s", d->lay.fast_why);
		dat_layout_release(&d->lay);
	}
	snprintf(in->info.reader, sizeof(in->info.reader), "libtracecmd");
	ret = dat_layout_check(fd, &lay, DAT_CHECK_FULL, 0, &in->err);
	d->data_start = first_data_byte(&lay);
	if (ret < 0) {
		dat_layout_release(&lay);
		goto out_close;
	}
	in->info.file_version = lay.version;
	snprintf(in->info.compression, sizeof(in->info.compression), "%s", lay.compression);
	d->real_size = lay.file_size;
	tfd = fd;
	ret = report_damage(in, &lay, told_short);
	if (!ret && (lay.nr_cut || lay.nr_bad || lay.rebuilt)) {
		tfd = patched_copy(in, fd, &lay);
		if (tfd < 0)
			ret = tfd;
		else
			close(fd);
	}
	dat_layout_release(&lay);
	if (ret < 0)
		goto out_close;
	ret = probe_open(in, tfd);
	if (ret < 0) {
		close(tfd);
		return ret;
	}
	/* libtracecmd owns tfd from here (tracecmd_close() closes it) */
	d->top = tracecmd_open_fd(tfd, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!d->top)
		return libtracecmd_refused(in, d, true, 0);
	ret = formats_check(in, d, tracecmd_get_tep(d->top));
	if (ret < 0)
		return ret;

	set_release(in, tracecmd_get_uname(d->top));
	set_clock(in, tracecmd_get_trace_clock(d->top));
	ret = select_buffers(in, d);
	if (ret < 0)
		return ret;
	for (i = 0; i < d->nr_bufs && !in->info.clock[0]; i++)
		set_clock(in, tracecmd_get_trace_clock(d->bufs[i].h));
	return ltc_start(in, d, false);

out_close:
	close(fd);
	return ret;
}

/* ---- next, progress, close ---------------------------------------------- */

/* decode with damage reported; Return: 1, 0 (read around), negative (in->err) */
static int decode_one(struct ingest *in, struct dat *d, int bi, const struct tep_record *rec,
		      struct sr_event *ev)
{
	struct dat_damage dmg;
	int ret;

	ret = dat_decode(&d->bufs[bi], &d->strs, rec, ev, &dmg);
	if (!ret)
		return dat_report_damage(in, &dmg);
	if (ret < 0)
		return err_set(&in->err, ret, "out of memory");
	return 1;
}

/*
 * The fast reader's next: the record at the top of the heap lives in its
 * stream's buffer, so it is decoded (its strings copied) before the stream
 * moves on.  A fatal error reading the stream's next page after a good
 * event is returned at the next call.
 */
static int fast_next(struct ingest *in, struct dat *d, struct sr_event *ev)
{
	struct dat_stream *s;
	struct tep_record *rec;
	int ret;
	int aret;

	if (d->deferred) {
		ret = d->deferred;
		d->deferred = 0;
		return ret;
	}
	for (;;) {
		if (!d->nr_heap)
			return 0;
		s = &d->streams[d->heap[0]];
		rec = s->rec;
		if (rec->missed_events && !s->fs.told_lost) {
			s->fs.told_lost = true;
			dat_lost_event(rec, ev);
			return 1;
		}
		ret = decode_one(in, d, s->buf, rec, ev);
		aret = dat_heap_advance(d);
		if (aret < 0) {
			if (ret > 0) {
				d->deferred = aret;
				return 1;
			}
			return aret;
		}
		if (ret)
			return ret;
		memset(ev, 0, sizeof(*ev));
	}
}

/* the threaded reader lends its events; the others fill the handle's */
static int dat_next_borrowed(struct ingest *in, const struct sr_event **ev)
{
	struct dat *d = in->priv;

	return d->mt ? dat_mt_next_borrowed(in, d, ev) : ingest_next_in_handle(in, ev);
}

static int dat_next(struct ingest *in, struct sr_event *ev)
{
	struct dat *d = in->priv;
	struct tep_record *rec;
	int bi;
	int ret;

	if (d->mt)
		return dat_mt_next(in, d, ev);
	if (d->fast)
		return fast_next(in, d, ev);

	if (d->cur) {
		tracecmd_free_record(d->cur);
		d->cur = NULL;
	}
	for (;;) {
		if (d->oom)	/* a stream's next record was lost: never end it early */
			return err_set(&in->err, -ENOMEM, "out of memory");
		if (d->pending) {
			rec = d->pending;
			bi = d->pending_buf;
			d->pending = NULL;
		} else {
			rec = dat_heap_pop(d, &bi);
			if (!rec)
				return 0;
			if (!in->info.compression[0] &&
			    rec->offset + rec->record_size > d->real_size) {
				/* zero padding of a cut file (already reported) */
				tracecmd_free_record(rec);
				continue;
			}
			if (rec->missed_events) {
				dat_lost_event(rec, ev);
				d->pending = rec;
				d->pending_buf = bi;
				return 1;
			}
		}
		ret = decode_one(in, d, bi, rec, ev);
		if (ret > 0) {
			d->cur = rec;
			d->cur_buf = bi;
			return 1;
		}
		tracecmd_free_record(rec);
		if (ret < 0)
			return ret;
		memset(ev, 0, sizeof(*ev));
	}
}

/*
 * Every stream's reading state gone (threads stopped, records freed), the
 * decoder's header state kept: for dat_close() and dat_rewind().
 */
static void streams_release(struct dat *d)
{
	int i;

	if (d->cur)
		tracecmd_free_record(d->cur);
	if (d->pending)
		tracecmd_free_record(d->pending);
	dat_mt_stop(d);
	if (d->fast)
		dat_fast_release(d);
	for (i = 0; !d->fast && i < d->nr_heap; i++)
		tracecmd_free_record(d->streams[d->heap[i]].rec);
	dat_unz_release(&d->unz);
	free(d->streams);
	free(d->heap);
	free(d->hk);
	d->cur = NULL;
	d->pending = NULL;
	d->oom = false;
	d->streams = NULL;
	d->heap = NULL;
	d->hk = NULL;
	d->nr_streams = 0;
	d->nr_heap = 0;
	d->total = 0;
	d->done = 0;
	d->deferred = 0;
}

/*
 * Back to the first record, the file's damage said again: the fast reader
 * keeps its header walk and event formats and starts its streams again;
 * libtracecmd's reader keeps its handle and reads every CPU from its first
 * record again.
 */
static int dat_rewind(struct ingest *in)
{
	struct dat *d = in->priv;
	int ret;

	if (!d)
		return 1;
	streams_release(d);
	/* as dat_open(): the damage its header walks found, before any record */
	ret = tell_again(in, d);
	if (ret < 0)
		return ret;
	return d->fast ? fast_start(in, d) : ltc_start(in, d, true);
}

static double dat_progress(const struct ingest *in)
{
	const struct dat *d = in->priv;

	if (!d || !d->total)
		return d && d->streams && !d->nr_heap ? 1.0 : -1.0;
	return (double)d->done / (double)d->total;
}

static void dat_close(struct ingest *in)
{
	struct dat *d = in->priv;
	int i;
	int e;

	if (!d)
		return;
	streams_release(d);
	for (i = 0; i < d->nr_bufs; i++) {
		for (e = 0; e < d->bufs[i].ev_cap; e++)
			dat_evinfo_free(d->bufs[i].ev[e]);
		free(d->bufs[i].ev);
		if (d->bufs[i].h != d->top)
			tracecmd_close(d->bufs[i].h);
	}
	tracecmd_close(d->top);
	if (d->fd >= 0)
		close(d->fd);
	dat_meta_release(&d->meta);
	dat_layout_release(&d->lay);
	free(d->told);
	free(d->bufs);
	free(d->strs.buf);
	free(d);
	in->priv = NULL;
}

const struct ingest_ops ingest_dat_ops = {
	.format		= INGEST_FMT_TRACE_DAT,
	.open		= dat_open,
	.next		= dat_next,
	.next_borrowed	= dat_next_borrowed,
	.rewind		= dat_rewind,
	.progress	= dat_progress,
	.close		= dat_close,
};

