// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * faultinj.c - an LD_PRELOAD shim that fails the Nth allocation or the Nth
 * I/O call of a process, for tests/e2e/test-faults.sh (docs/robustness.md).
 *
 * Being preloaded, it sits in front of every shared object's calls into
 * libc, so it counts the allocations of schedreplay's own code and of
 * libtracecmd, libtraceevent, jansson, zlib and libzstd alike: malloc,
 * calloc, realloc, reallocarray, strdup, strndup, posix_memalign,
 * aligned_alloc.  It does not see what libc allocates inside itself
 * (fopen's FILE, asprintf's buffer, stdio's buffers), nor the loader's own.
 * The I/O calls counted are read, pread, pread64, write, fread and fgets
 * (libc's own stdio writes to stdout and stderr are not seen).
 *
 * Environment:
 *   SR_FAULT_ALLOC=N     the Nth allocation (from 1) fails: NULL, ENOMEM
 *   SR_FAULT_IO=N        the Nth I/O call fails as SR_FAULT_IO_MODE says:
 *                        eio (default), enospc (writes only; reads get EIO),
 *                        short (half the bytes asked for; a 1-byte call
 *                        fails with EIO)
 *   SR_FAULT_FD_MIN=K    only I/O on descriptors >= K counts (default 3:
 *                        standard input, output and error are left alone)
 *   SR_FAULT_TRACE=1     print the caller's stack on stderr when the fault
 *                        is given (to find the call that mishandled it)
 *   SR_FAULT_REPORT=PATH at exit, write "alloc A io I fired F in OBJ" to PATH
 *                        (the counts seen, F = 1 when the fault was given,
 *                        OBJ the shared object whose call failed, or -;
 *                        the first process only: a forked child inherits
 *                        the counts and goes on counting, but does not write)
 *
 * Works in front of the sanitizer runtimes too (ASan's interceptors are the
 * "next" malloc); run the ASan binary with ASAN_OPTIONS=verify_asan_link_order=0.
 * Counting is atomic, but allocations on several threads come in no fixed
 * order: the test runs the fast reader with --threads 1.  An allocation
 * the sanitizer runtime makes for itself, with no program code on the stack
 * (ASan setting up a new thread), is never failed: the fault goes to the
 * next allocation instead.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <execinfo.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* calls made while dlsym() itself allocates are served from here */
static char boot_heap[16384] __attribute__((aligned(64)));
static size_t boot_used;

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void *(*real_reallocarray)(void *, size_t, size_t);
static void (*real_free)(void *);
static char *(*real_strdup)(const char *);
static char *(*real_strndup)(const char *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_pread)(int, void *, size_t, off_t);
static ssize_t (*real_pread64)(int, void *, size_t, off64_t);
static ssize_t (*real_write)(int, const void *, size_t);
static size_t (*real_fread)(void *, size_t, size_t, FILE *);
static char *(*real_fgets)(char *, int, FILE *);

static atomic_long nr_alloc, nr_io;
static atomic_int fired;
static atomic_long fail_alloc = -1;
static long fail_io = -1;
static int fd_min = 3;
static enum { MODE_EIO, MODE_ENOSPC, MODE_SHORT } io_mode;
static int resolving;
static pid_t main_pid;	/* a forked child does not write the report */
static bool ready;
static bool trace;
static char fired_in[128];	/* the shared object that made the failed call */

/*
 * backtrace(@pc, @max) from the shim's own caller on: the frames of
 * backtrace() itself (ASan intercepts it: its interceptor's frame comes
 * first) and of this shim are left out.  Return: frames left in @pc.
 */
static int callers(void **pc, int max)
{
	Dl_info self, dl;
	int n, i, first = -1;

	n = backtrace(pc, max);
	if (!dladdr((void *)callers, &self))
		return n;
	for (i = 0; i < n; i++) {
		bool mine = dladdr(pc[i], &dl) && dl.dli_fbase == self.dli_fbase;

		if (mine)
			first = i;
		else if (first >= 0)
			break;
	}
	if (first < 0)
		return n;
	memmove(pc, pc + first + 1, (size_t)(n - first - 1) * sizeof(*pc));
	return n - first - 1;
}

/* the file name, without its folder, of the object that holds @pc; NULL if none */
static const char *object_of(void *pc)
{
	const char *base;
	Dl_info dl;

	if (!pc || !dladdr(pc, &dl) || !dl.dli_fname)
		return NULL;
	base = strrchr(dl.dli_fname, '/');
	return base ? base + 1 : dl.dli_fname;
}

static void fire(void *caller)
{
	const char *base;
	void *pc[32];
	int n;

	atomic_store(&fired, 1);
	if ((base = object_of(caller)))
		snprintf(fired_in, sizeof(fired_in), "%s", base);
	/*
	 * An allocation libc makes for its caller (asprintf, strdup, fopen)
	 * belongs to that caller: name the first object on the stack that is
	 * neither libc nor this shim (backtrace() was warmed up in settings())
	 */
	if (!strncmp(fired_in, "libc.so", 7)) {
		int i;

		n = callers(pc, 32);
		for (i = 0; i < n; i++) {
			base = object_of(pc[i]);
			if (!base || !strncmp(base, "libc.so", 7))
				continue;
			snprintf(fired_in, sizeof(fired_in), "%s", base);
			break;
		}
	}
	if (!trace)
		return;
	trace = false;
	n = backtrace(pc, 32);
	backtrace_symbols_fd(pc, n, 2);
}

static void *boot_alloc(size_t n)
{
	void *p;

	n = (n + 63) & ~(size_t)63;
	if (boot_used + n > sizeof(boot_heap))
		return NULL;
	p = boot_heap + boot_used;
	boot_used += n;
	return p;
}

static bool in_boot(const void *p)
{
	return (const char *)p >= boot_heap && (const char *)p < boot_heap + sizeof(boot_heap);
}

static long env_long(const char *name, long def)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return def;
	v = strtol(s, &end, 10);
	return *end ? def : v;
}

#define RESOLVE(name) (real_##name = (__typeof__(real_##name))dlsym(RTLD_NEXT, #name))

static void setup(void)
{
	if (ready || resolving)
		return;
	resolving = 1;
	RESOLVE(malloc);
	RESOLVE(calloc);
	RESOLVE(realloc);
	RESOLVE(reallocarray);
	RESOLVE(free);
	RESOLVE(strdup);
	RESOLVE(strndup);
	RESOLVE(posix_memalign);
	RESOLVE(aligned_alloc);
	RESOLVE(read);
	RESOLVE(pread);
	RESOLVE(pread64);
	RESOLVE(write);
	RESOLVE(fread);
	RESOLVE(fgets);
	resolving = 0;
	ready = true;
}

/*
 * The settings, read once libc is up: an allocation made before (the
 * sanitizer runtime's, the loader's) is counted but never failed, and the
 * environment may not be there yet.
 */
__attribute__((constructor)) static void settings(void)
{
	const char *m;

	void *pc[1];

	setup();
	(void)backtrace(pc, 1);	/* its first call loads libgcc_s and allocates */
	main_pid = getpid();
	trace = env_long("SR_FAULT_TRACE", 0) == 1;
	fd_min = (int)env_long("SR_FAULT_FD_MIN", 3);
	m = getenv("SR_FAULT_IO_MODE");
	if (m && !strcmp(m, "enospc"))
		io_mode = MODE_ENOSPC;
	else if (m && !strcmp(m, "short"))
		io_mode = MODE_SHORT;
	fail_io = env_long("SR_FAULT_IO", -1);
	fail_alloc = env_long("SR_FAULT_ALLOC", -1);
}

/*
 * True when the allocation is the sanitizer runtime's own, with none of the
 * program's code on the stack: ASan starting a thread asks libc for the
 * thread's attributes (pthread_getattr_np, which allocates) and aborts on a
 * CHECK when that fails, which is the runtime's limit, not the project's.
 * (An allocation libc makes inside an interceptor, vasprintf's, has the
 * caller of vasprintf above it, and is failed.)  Only asked of the one
 * allocation that is to fail.
 */
static bool runtime_only(void)
{
	static const char *const rt[] = {
		"libasan.so", "libubsan.so", "liblsan.so", "libtsan.so", "libc.so", "ld-linux",
	};
	bool sanitizer = false;
	void *pc[64];
	int n, i;
	size_t k;

	n = callers(pc, 64);
	for (i = 0; i < n; i++) {
		const char *base = object_of(pc[i]);

		if (!base)
			continue;
		for (k = 0; k < sizeof(rt) / sizeof(rt[0]); k++)
			if (!strncmp(base, rt[k], strlen(rt[k])))
				break;
		if (k == sizeof(rt) / sizeof(rt[0]))
			return false;	/* the program's, or a library's it calls */
		if (k < 4)
			sanitizer = true;
	}
	return sanitizer;
}

/* true when this allocation is the one to fail */
static bool alloc_fails(void *caller)
{
	long n;

	if (!ready)
		return false;
	n = atomic_fetch_add(&nr_alloc, 1) + 1;
	if (n != atomic_load(&fail_alloc))
		return false;
	if (runtime_only()) {
		/* pass the fault on to the next allocation, whichever thread makes it */
		atomic_store(&fail_alloc, n + 1);
		return false;
	}
	fire(caller);
	errno = ENOMEM;
	return true;
}

void *malloc(size_t n)
{
	setup();
	if (!real_malloc)
		return boot_alloc(n);
	return alloc_fails(__builtin_return_address(0)) ? NULL : real_malloc(n);
}

void *calloc(size_t nmemb, size_t size)
{
	setup();
	if (!real_calloc) {
		/* boot_heap is zeroed and never reused */
		if (size && nmemb > SIZE_MAX / size)
			return NULL;
		return boot_alloc(nmemb * size);
	}
	return alloc_fails(__builtin_return_address(0)) ? NULL : real_calloc(nmemb, size);
}

void *realloc(void *p, size_t n)
{
	setup();
	if (in_boot(p)) {
		void *q = malloc(n);

		if (q)
			memcpy(q, p, n);	/* boot blocks are never at the heap's end */
		return q;
	}
	if (!real_realloc)
		return NULL;
	return alloc_fails(__builtin_return_address(0)) ? NULL : real_realloc(p, n);
}

void *reallocarray(void *p, size_t nmemb, size_t size)
{
	setup();
	if (in_boot(p) || !real_reallocarray) {
		if (size && nmemb > SIZE_MAX / size) {
			errno = ENOMEM;
			return NULL;
		}
		return realloc(p, nmemb * size);
	}
	return alloc_fails(__builtin_return_address(0)) ? NULL : real_reallocarray(p, nmemb, size);
}

void free(void *p)
{
	if (!p || in_boot(p))
		return;
	setup();
	if (real_free)
		real_free(p);
}

char *strdup(const char *s)
{
	setup();
	if (!real_strdup)
		return NULL;
	return alloc_fails(__builtin_return_address(0)) ? NULL : real_strdup(s);
}

char *strndup(const char *s, size_t n)
{
	setup();
	if (!real_strndup)
		return NULL;
	return alloc_fails(__builtin_return_address(0)) ? NULL : real_strndup(s, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	setup();
	if (!real_posix_memalign)
		return ENOMEM;
	return alloc_fails(__builtin_return_address(0)) ? ENOMEM : real_posix_memalign(out, align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	setup();
	if (!real_aligned_alloc)
		return NULL;
	return alloc_fails(__builtin_return_address(0)) ? NULL : real_aligned_alloc(align, n);
}

/*
 * 0: do the call as asked; 1: fail it with errno set; 2: do it with @len
 * halved (short mode)
 */
static int io_fails(int fd, size_t *len, bool is_write, void *caller)
{
	long n;

	setup();
	if (!ready || fd < fd_min)
		return 0;
	n = atomic_fetch_add(&nr_io, 1) + 1;
	if (n != fail_io)
		return 0;
	fire(caller);
	if (io_mode == MODE_SHORT && *len > 1) {
		*len /= 2;
		return 2;
	}
	errno = is_write && io_mode == MODE_ENOSPC ? ENOSPC : EIO;
	return 1;
}

ssize_t read(int fd, void *buf, size_t len)
{
	if (io_fails(fd, &len, false, __builtin_return_address(0)) == 1)
		return -1;
	return real_read(fd, buf, len);
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	if (io_fails(fd, &len, false, __builtin_return_address(0)) == 1)
		return -1;
	return real_pread(fd, buf, len, off);
}

ssize_t pread64(int fd, void *buf, size_t len, off64_t off)
{
	if (io_fails(fd, &len, false, __builtin_return_address(0)) == 1)
		return -1;
	return real_pread64(fd, buf, len, off);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	if (io_fails(fd, &len, true, __builtin_return_address(0)) == 1)
		return -1;
	return real_write(fd, buf, len);
}

/* a stdio stream's error flag (glibc's _IO_ERR_SEEN), as a failed read sets it */
static void set_ferror(FILE *f)
{
	f->_flags |= 0x20;
}

size_t fread(void *buf, size_t size, size_t nmemb, FILE *f)
{
	size_t len = size * nmemb;
	int how = size ? io_fails(fileno(f), &len, false, __builtin_return_address(0)) : 0;

	if (how == 1) {
		set_ferror(f);
		return 0;
	}
	if (how == 2 && len / size == 0) {
		errno = EIO;
		set_ferror(f);
		return 0;
	}
	if (how == 2)
		return real_fread(buf, size, len / size, f);
	return real_fread(buf, size, nmemb, f);
}

char *fgets(char *s, int n, FILE *f)
{
	size_t len = n > 0 ? (size_t)n : 0;
	int how = io_fails(fileno(f), &len, false, __builtin_return_address(0));

	if (how == 1) {
		set_ferror(f);
		return NULL;
	}
	return real_fgets(s, how == 2 ? (int)len : n, f);
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("SR_FAULT_REPORT");
	char line[96];
	int fd, len;

	if (!path || !*path || !real_write || getpid() != main_pid)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	len = snprintf(line, sizeof(line), "alloc %ld io %ld fired %d in %s\n",
		       atomic_load(&nr_alloc), atomic_load(&nr_io), atomic_load(&fired),
		       fired_in[0] ? fired_in : "-");
	if (real_write(fd, line, (size_t)len) < 0)
		len = 0;
	close(fd);
}
