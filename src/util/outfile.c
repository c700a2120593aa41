// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outfile.c - output files written whole or not at all, devices and pipes
 * written in place (outfile.h), and the registry that removes temporary
 * files when a signal ends the process.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

#define OUTFILE_SLOTS	8	/* temporary files open at once */
#define OUTFILE_LINKS	40	/* symbolic links followed, as the kernel's limit */

/*
 * stdio's own buffer for a stream of its own is BUFSIZ (8 KiB): a million
 * NDJSON lines would be 120 thousand write() calls.  This one makes them
 * a few thousand (docs/performance.md).
 */
#define OUTFILE_BUF	(256 * 1024)

struct outfile_sink {
	int	fd;
	int	werr;
	char	buf[OUTFILE_BUF];
};

/* ---- the signal registry ------------------------------------------------ */

static char reg_path[OUTFILE_SLOTS][PATH_MAX + 16];
static volatile sig_atomic_t reg_used[OUTFILE_SLOTS];
static bool reg_installed;
static const int reg_sigs[] = { SIGINT, SIGTERM, SIGHUP };

/* async-signal-safe: unlink(), signal(), raise() only */
static void reg_handler(int sig)
{
	int i;

	for (i = 0; i < OUTFILE_SLOTS; i++)
		if (reg_used[i])
			unlink(reg_path[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void reg_install(void)
{
	struct sigaction sa, old;
	size_t i;

	if (reg_installed)
		return;
	reg_installed = true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = reg_handler;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(reg_sigs) / sizeof(reg_sigs[0]); i++)
		sigaddset(&sa.sa_mask, reg_sigs[i]);
	for (i = 0; i < sizeof(reg_sigs) / sizeof(reg_sigs[0]); i++) {
		/* a handler or an ignore someone else set stays */
		if (sigaction(reg_sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
		    !(old.sa_flags & SA_SIGINFO))
			sigaction(reg_sigs[i], &sa, NULL);
	}
}

/* Return: the slot, or -1 when all are taken (the file is then not removed on a signal) */
static int reg_add(const char *path)
{
	sigset_t all, old;
	int i, slot = -1;

	reg_install();
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < OUTFILE_SLOTS && slot < 0; i++) {
		if (reg_used[i])
			continue;
		snprintf(reg_path[i], sizeof(reg_path[i]), "%s", path);
		reg_used[i] = 1;
		slot = i;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return slot;
}

static void reg_del(int slot)
{
	if (slot >= 0 && slot < OUTFILE_SLOTS)
		reg_used[slot] = 0;
}

/* ---- where to write ----------------------------------------------------- */

static bool is_stdout_name(const char *path)
{
	return !path || !strcmp(path, "-") || !strcmp(path, "/dev/stdout") ||
	       !strcmp(path, "/proc/self/fd/1") || !strcmp(path, "/dev/fd/1");
}

/* @link's target, relative to @link's folder when it is relative */
static int read_link(const char *link, char *out, size_t len)
{
	char buf[PATH_MAX];
	const char *slash;
	ssize_t n;

	n = readlink(link, buf, sizeof(buf) - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	slash = strrchr(link, '/');
	if (buf[0] == '/' || !slash) {
		if ((size_t)snprintf(out, len, "%s", buf) >= len)
			return -ENAMETOOLONG;
	} else if ((size_t)snprintf(out, len, "%.*s/%s", (int)(slash - link), link, buf) >= len) {
		return -ENAMETOOLONG;
	}
	return 0;
}

int outfile_resolve(const char *path, char *target, size_t len, struct err *e)
{
	char cur[PATH_MAX], next[PATH_MAX];
	struct stat st;
	int i, ret;

	if (is_stdout_name(path)) {
		snprintf(target, len, "%s", path ? path : "-");
		return OUTFILE_STDOUT;
	}
	err_set_file(e, path);
	/* stat() follows the kernel's own links too (/dev/fd/N of a pipe) */
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return err_set(e, -EISDIR, "is a folder; name a file");
		if (!S_ISREG(st.st_mode)) {
			snprintf(target, len, "%s", path);
			return OUTFILE_DIRECT;
		}
	}
	/* a regular file, a new name or a dangling link: follow the links by hand */
	if ((size_t)snprintf(cur, sizeof(cur), "%s", path) >= sizeof(cur))
		return err_set(e, -ENAMETOOLONG, "path too long");
	for (i = 0; i < OUTFILE_LINKS; i++) {
		if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode))
			break;
		ret = read_link(cur, next, sizeof(next));
		if (ret < 0)
			return err_set(e, ret, "cannot follow the link: %s", strerror(-ret));
		memcpy(cur, next, sizeof(cur));
	}
	if (i == OUTFILE_LINKS)
		return err_set(e, -ELOOP, "too many levels of symbolic links");
	if ((size_t)snprintf(target, len, "%s", cur) >= len)
		return err_set(e, -ENAMETOOLONG, "path too long");
	return OUTFILE_TEMP;
}

/* ---- the stream --------------------------------------------------------- */

static ssize_t sink_write(void *cookie, const char *buf, size_t len)
{
	struct outfile_sink *s = cookie;
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write(s->fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!s->werr)
				s->werr = n < 0 ? errno : ENOSPC;
			errno = s->werr;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int sink_close(void *cookie)
{
	struct outfile_sink *s = cookie;
	int ret = 0;

	if (s->fd >= 0 && close(s->fd) < 0 && !s->werr)
		s->werr = errno;
	s->fd = -1;
	if (s->werr) {
		errno = s->werr;
		ret = -1;
	}
	return ret;
}

static int make_stream(struct outfile *o, int fd, struct err *e)
{
	cookie_io_functions_t io = { .write = sink_write, .close = sink_close };

	o->sink = calloc(1, sizeof(*o->sink));
	if (!o->sink) {
		close(fd);
		return err_set(e, -ENOMEM, "out of memory");
	}
	o->sink->fd = fd;
	o->f = fopencookie(o->sink, "w", io);
	if (!o->f) {
		close(fd);
		free(o->sink);
		o->sink = NULL;
		return err_set(e, -ENOMEM, "out of memory");
	}
	setvbuf(o->f, o->sink->buf, _IOFBF, sizeof(o->sink->buf));
	return 0;
}

int outfile_open(struct outfile *o, const char *path, struct err *e)
{
	sigset_t all, old;
	struct stat st;
	mode_t mode;
	int fd, ret;

	memset(o, 0, sizeof(*o));
	o->slot = -1;
	o->name = path ? path : "-";
	ret = outfile_resolve(path, o->target, sizeof(o->target), e);
	if (ret < 0)
		return ret;
	o->kind = ret;
	if (o->kind == OUTFILE_STDOUT) {
		o->f = stdout;
		return 0;
	}
	err_set_file(e, o->name);
	if (o->kind == OUTFILE_DIRECT) {
		/* never truncated or replaced: a device or a pipe takes what it is given */
		fd = open(o->target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			return err_set(e, -errno, "cannot open for writing: %s", strerror(errno));
		return make_stream(o, fd, e);
	}
	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%s.tmp-XXXXXX", o->target) >= sizeof(o->tmp))
		return err_set(e, -ENAMETOOLONG, "path too long for its temporary file");
	/*
	 * The signals wait until the new file is registered: one that came
	 * between mkostemp() and reg_add() would leave it behind.
	 */
	reg_install();
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		o->tmp[0] = '\0';
		return err_set(e, ret, "cannot create a temporary file beside it: %s",
			       strerror(-ret));
	}
	o->slot = reg_add(o->tmp);
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* the file it replaces keeps its mode; a new one gets 0666 less the umask */
	if (stat(o->target, &st) == 0) {
		mode = st.st_mode & 07777;
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	}
	fchmod(fd, mode);
	ret = make_stream(o, fd, e);
	if (ret < 0) {
		unlink(o->tmp);
		reg_del(o->slot);
		o->tmp[0] = '\0';
	}
	return ret;
}

int outfile_error(const struct outfile *o)
{
	return o->sink ? o->sink->werr : 0;
}

/* after the stream is closed: the temporary removed when @drop, the registry entry freed */
static void release(struct outfile *o, bool drop)
{
	if (drop && o->tmp[0])
		unlink(o->tmp);
	reg_del(o->slot);
	o->slot = -1;
	o->tmp[0] = '\0';
	free(o->sink);
	o->sink = NULL;
}

int outfile_commit(struct outfile *o, struct err *e)
{
	int ret = 0;

	if (!o->f)
		return 0;
	err_set_file(e, o->name);
	if (o->kind == OUTFILE_STDOUT) {
		if (fflush(stdout) == EOF || ferror(stdout))
			ret = errno ? -errno : -EIO;
		o->f = NULL;
		return ret ? err_set(e, ret, "cannot write: %s", strerror(-ret)) : 0;
	}
	if (fflush(o->f) == EOF || ferror(o->f))
		ret = outfile_error(o) ? -outfile_error(o) : -EIO;
	if (fclose(o->f) == EOF && !ret)
		ret = o->sink && o->sink->werr ? -o->sink->werr : -EIO;
	o->f = NULL;
	if (!ret && o->kind == OUTFILE_TEMP && rename(o->tmp, o->target) < 0)
		ret = -errno;
	release(o, ret != 0);
	if (ret)
		return err_set(e, ret, "cannot write: %s", strerror(-ret));
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (!o->f)
		return;
	if (o->kind == OUTFILE_STDOUT) {
		fflush(stdout);
		o->f = NULL;
		return;
	}
	fclose(o->f);
	o->f = NULL;
	release(o, true);
}
