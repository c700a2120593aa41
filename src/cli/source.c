// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source.c - open a TRACE argument for a command; see source.h.
 *
 * A capture folder (a folder holding trace.dat) may also hold
 * numactl-H.txt (topology) and uname.txt (kernel release).  The topology
 * is taken from, first to last: --topology PATH (the user said so), the
 * schedreplay_meta / schedreplay_node lines inside the trace, the capture
 * folder's numactl-H.txt, and a single node as the last resort, with a
 * warning.  The marker lines are found by a bounded pre-scan of the trace
 * (PRESCAN_EVENTS events), then the trace is opened again for the real
 * pass, so memory stays flat.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "source.h"
#include "ingest/marker.h"
#include "model/model.h"
#include "util/escape.h"

#define PRESCAN_EVENTS 500000

static const char source_help[] =
	"  --format FMT      input format: auto (default), dat, trace, report, perf\n"
	"  --topology PATH   CPU->node map and distances: a copy of /sys/devices/system/node,\n"
	"                    the text of 'numactl -H', or topology JSON (docs/topology.md)\n"
	"  --buffer NAME     read only this trace.dat buffer (instance); 'top' for the top one\n"
	"  --reader R        trace.dat reader: auto (default: fast when it can), fast, libtracecmd\n"
	"  --threads N       threads of the fast reader, this one included (default: one per CPU\n"
	"                    this process may use, one per trace when replay runs several at\n"
	"                    once; 1: decode on this thread only)\n"
	"  --strict          any damage in the trace is fatal, not read around\n"
	"  --quiet           no warnings and no progress on stderr\n";

const char *cli_source_opts_help(void)
{
	return source_help;
}

static int opt_value(int argc, char **argv, int *i, const char *name, const char **val,
		     const char *cmd)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, n))
		return 0;
	if (a[n] == '=') {
		*val = a + n + 1;
		return 1;
	}
	if (a[n] != '\0')
		return 0;
	if (*i + 1 >= argc) {
		cli_usage_error(cmd, "option '%s' needs a value", name);
		return -CLI_EXIT_USAGE;
	}
	*val = argv[++*i];
	return 1;
}

/*
 * --format, --reader and --threads into @io.  Checked as each is parsed
 * (the message names @cmd), and again when the source is opened.
 * Return: 0, or CLI_EXIT_USAGE with the message printed.
 */
static int parse_values(const struct cli_source_opts *o, struct ingest_opts *io, const char *cmd)
{
	char *end;
	long n;

	if (o->format && ingest_format_parse(o->format, &io->format) < 0)
		return cli_usage_error(cmd, "unknown --format '%s' (auto, dat, trace, report, perf)",
				       o->format);
	if (o->reader && ingest_reader_parse(o->reader, &io->reader) < 0)
		return cli_usage_error(cmd, "unknown --reader '%s' (auto, fast, libtracecmd)",
				       o->reader);
	if (o->threads) {
		n = strtol(o->threads, &end, 10);
		if (end == o->threads || *end || n < 1 || n > 1024)
			return cli_usage_error(cmd, "bad --threads '%s' (1..1024)", o->threads);
		io->threads = (int)n;
	}
	return 0;
}

int cli_source_parse_opt(struct cli_source_opts *o, int argc, char **argv, int *i,
			 const char *cmd)
{
	struct ingest_opts io = { 0 };
	const char *a = argv[*i];
	int r;

	if (!strcmp(a, "--strict")) {
		o->strict = true;
		return 1;
	}
	if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
		o->quiet = true;
		return 1;
	}
	if ((r = opt_value(argc, argv, i, "--format", &o->format, cmd)) != 0 ||
	    (r = opt_value(argc, argv, i, "--reader", &o->reader, cmd)) != 0 ||
	    (r = opt_value(argc, argv, i, "--threads", &o->threads, cmd)) != 0)
		return r > 0 && parse_values(o, &io, cmd) ? -CLI_EXIT_USAGE : r;
	if ((r = opt_value(argc, argv, i, "--topology", &o->topology, cmd)) != 0)
		return r;
	return opt_value(argc, argv, i, "--buffer", &o->buffer, cmd);
}

static void print_err(const struct err *e)
{
	char buf[1400];

	cli_error("%s", err_format(e, buf, sizeof(buf)));
}

static void warn_cb(void *arg, const struct err *e)
{
	struct cli_source *src = arg;
	char buf[1400];

	src->warnings++;
	if (src->opts.quiet)
		return;
	if (src->progress)
		fputs("\r\033[K", stderr);
	/* at most 20 lines; the totals are in the command's output */
	if (src->warnings <= 20)
		cli_warn("%s (read around)", err_format(e, buf, sizeof(buf)));
	else if (src->warnings == 21)
		cli_warn("more damage read around in '%s'; counts follow in the output", e->file);
}

/* Copy a path into a fixed field, cut when too long (it is only shown). */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * The third word of `uname -a`, or of any one-line file holding it, when
 * the trace did not say; and its second word (the host name) likewise.
 */
static void read_uname(struct cli_source *src)
{
	char path[PATH_MAX + 16], line[512], host[128], rel[128];
	int n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/uname.txt", src->capture_dir);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		n = sscanf(line, "%*s %127s %127s", host, rel);
		if (n == 2 && !src->kernel_release[0]) {
			escape_text(src->kernel_release, sizeof(src->kernel_release), rel, strlen(rel));
			src->release_origin = "uname.txt";
		}
		if (n >= 1 && !src->hostname[0] && strcmp(host, "(none)"))
			escape_text(src->hostname, sizeof(src->hostname), host, strlen(host));
	}
	fclose(f);
}

static char *slurp(const char *path, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0, r;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	do {
		if (n + 4096 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 8192;
			if (cap > (64u << 20))
				break;
			nb = realloc(buf, cap);
			if (!nb)
				break;
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return buf;
}

/*
 * Read the first events for schedreplay_meta / schedreplay_node lines.
 * Damage is not reported here: the real pass reports it.
 */
static int prescan(struct cli_source *src, struct topo **from_trace)
{
	struct ingest_opts io = src->iopts;
	struct topo_builder *b;
	struct ingest *in;
	struct sr_event ev;
	struct err e = { 0 };
	const char *v;
	size_t vlen;
	uint64_t n = 0;
	int ret = 0;

	io.strict = false;
	io.warn = NULL;
	in = ingest_open(src->path, &io, &e);
	if (!in) {
		print_err(&e);
		return CLI_EXIT_BADINPUT;
	}
	if (ingest_info(in)->kernel_release[0]) {
		escape_text(src->kernel_release, sizeof(src->kernel_release),
			    ingest_info(in)->kernel_release, sizeof(ingest_info(in)->kernel_release));
		src->release_origin = "trace.dat";
	}
	if (ingest_info(in)->hostname[0])
		escape_text(src->hostname, sizeof(src->hostname), ingest_info(in)->hostname,
			    strlen(ingest_info(in)->hostname));
	b = topo_builder_new();
	if (!b) {
		ingest_close(in);
		cli_error("out of memory");
		return CLI_EXIT_INTERNAL;
	}
	while (n++ < PRESCAN_EVENTS && !topo_builder_complete(b) && ingest_next(in, &ev) > 0) {
		if (ev.kind != SR_EV_PRINT || ev.marker == SR_MARK_NONE)
			continue;
		if (ev.marker == SR_MARK_META && !src->kernel_release[0] &&
		    marker_get(ev.str, ev.str_len, "release", &v, &vlen)) {
			escape_text(src->kernel_release, sizeof(src->kernel_release), v, vlen);
			src->release_origin = "schedreplay_meta";
		}
		err_clear(&e);
		if (topo_builder_feed(b, ev.str, ev.str_len, &e) < 0) {
			err_set_file(&e, src->path);
			if (ingest_pos_is_line(in))
				err_at_line(&e, ev.src_pos);
			else
				err_at_byte(&e, ev.src_pos);
			print_err(&e);
			ret = CLI_EXIT_BADINPUT;
			goto out;
		}
	}
	err_clear(&e);
	*from_trace = topo_builder_build(b, &e);
	if (!*from_trace && e.code) {
		err_set_file(&e, src->path);
		print_err(&e);
		ret = CLI_EXIT_BADINPUT;
	}
out:
	topo_builder_free(b);
	ingest_close(in);
	return ret;
}

static int find_topology(struct cli_source *src, struct topo *from_trace)
{
	struct err e = { 0 };
	char path[PATH_MAX + 32];
	size_t len;
	char *text;

	if (src->opts.topology) {
		src->topo = topo_load(src->opts.topology, &e);
		if (!src->topo) {
			if (!e.file[0])
				err_set_file(&e, src->opts.topology);
			print_err(&e);
			topo_free(from_trace);
			return CLI_EXIT_BADINPUT;
		}
		if (from_trace && !src->opts.quiet &&
		    (from_trace->nr_nodes != src->topo->nr_nodes ||
		     from_trace->nr_cpus != src->topo->nr_cpus))
			cli_warn("--topology '%s' (%d nodes, %d cpus) overrides the trace's own (%d nodes, %d cpus)",
				 src->opts.topology, src->topo->nr_nodes, src->topo->nr_cpus,
				 from_trace->nr_nodes, from_trace->nr_cpus);
		topo_free(from_trace);
		return CLI_EXIT_OK;
	}
	if (from_trace) {
		src->topo = from_trace;
		copy_str(src->topo->origin, sizeof(src->topo->origin), src->path);
		return CLI_EXIT_OK;
	}
	if (src->capture_dir[0]) {
		snprintf(path, sizeof(path), "%s/numactl-H.txt", src->capture_dir);
		if (is_file(path)) {
			text = slurp(path, &len);
			if (!text) {
				cli_error("'%s': cannot read: %s", path, strerror(errno));
				return CLI_EXIT_BADINPUT;
			}
			src->topo = topo_from_numactl(text, len, path, &e);
			free(text);
			if (!src->topo) {
				err_set_file(&e, path);
				print_err(&e);
				return CLI_EXIT_BADINPUT;
			}
			src->topo->source = TOPO_SRC_CAPTURE;
			copy_str(src->topo->origin, sizeof(src->topo->origin), path);
			return CLI_EXIT_OK;
		}
	}
	src->topo = topo_new_single(1);
	if (!src->topo) {
		cli_error("out of memory");
		return CLI_EXIT_INTERNAL;
	}
	if (!src->opts.quiet)
		cli_warn("no topology in '%s' and none given: assuming one node holding every CPU (use --topology)",
			 src->path);
	return CLI_EXIT_OK;
}

int cli_source_open(struct cli_source *src, const char *arg, const struct cli_source_opts *o)
{
	struct topo *from_trace = NULL;
	struct err e = { 0 };
	int ret;

	memset(src, 0, sizeof(*src));
	src->opts = *o;
	src->release_origin = "";
	ret = parse_values(o, &src->iopts, "");
	if (ret)
		return ret;
	src->iopts.strict = o->strict;
	src->iopts.buffer = o->buffer;
	src->iopts.warn = warn_cb;
	src->iopts.warn_arg = src;

	if (is_dir(arg)) {
		snprintf(src->capture_dir, sizeof(src->capture_dir), "%s", arg);
		snprintf(src->path, sizeof(src->path), "%s/trace.dat", arg);
		if (!is_file(src->path))
			return cli_error("'%s': a folder without trace.dat (a capture folder holds trace.dat)",
					 arg);
	} else {
		snprintf(src->path, sizeof(src->path), "%s", arg);
	}

	if (is_file(src->path)) {
		ret = prescan(src, &from_trace);
		if (ret)
			return ret;
	} else if (!o->quiet && !src->opts.topology) {
		/* a pipe or FIFO is read once: no pre-scan for the topology lines in it */
		cli_warn("'%s' is not a regular file: read once, as a stream; topology lines in it are not used (give --topology)",
			 src->path);
	}
	if ((!src->kernel_release[0] || !src->hostname[0]) && src->capture_dir[0])
		read_uname(src);
	ret = find_topology(src, from_trace);
	if (ret)
		return ret;

	src->in = ingest_open(src->path, &src->iopts, &e);
	if (!src->in) {
		print_err(&e);
		cli_source_close(src);
		return CLI_EXIT_BADINPUT;
	}
	src->progress = !o->quiet && isatty(STDERR_FILENO);
	return CLI_EXIT_OK;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void show_progress(struct cli_source *src)
{
	double t = now_s(), p;

	if (t - src->progress_last < 0.25)
		return;
	src->progress_last = t;
	p = ingest_progress(src->in);
	if (p >= 0)
		fprintf(stderr, "\r\033[Kreading %3.0f%%  %llu events", p * 100.0,
			(unsigned long long)src->nr_read);
	else
		fprintf(stderr, "\r\033[Kreading  %llu events", (unsigned long long)src->nr_read);
}

/*
 * Check the CPUs and nodes an event names against the topology
 * (model_check_event()); print what is out of range, with the position.
 */
static int check_event(struct cli_source *src, const struct sr_event *ev)
{
	struct err e;
	int ret;

	/* once per event: not `= { 0 }`, which clears 1 KiB of strings each time */
	e.code = 0;
	e.file[0] = e.where[0] = e.msg[0] = '\0';
	ret = model_check_event(src->topo, ev, &e);
	if (ret == 0)
		return 0;
	if (src->progress)
		fputs("\r\033[K", stderr);
	if (ret == -ENOMEM) {
		cli_error("out of memory");
		return -CLI_EXIT_INTERNAL;
	}
	err_set_file(&e, src->path);
	if (ingest_pos_is_line(src->in))
		err_at_line(&e, ev->src_pos);
	else
		err_at_byte(&e, ev->src_pos);
	print_err(&e);
	return -CLI_EXIT_BADINPUT;
}

int cli_source_next(struct cli_source *src, const struct sr_event **ev)
{
	int ret;

	ret = ingest_next_borrowed(src->in, ev);
	if (ret < 0) {
		if (src->progress)
			fputs("\r\033[K", stderr);
		print_err(ingest_err(src->in));
		return ret == -ENOMEM ? -CLI_EXIT_INTERNAL : -CLI_EXIT_BADINPUT;
	}
	if (ret == 0) {
		if (src->progress)
			fputs("\r\033[K", stderr);
		return 0;
	}
	ret = check_event(src, *ev);
	if (ret < 0)
		return ret;
	if ((++src->nr_read & 0xffff) == 0 && src->progress)
		show_progress(src);
	return 1;
}

void cli_source_close(struct cli_source *src)
{
	ingest_close(src->in);
	src->in = NULL;
	topo_free(src->topo);
	src->topo = NULL;
}
