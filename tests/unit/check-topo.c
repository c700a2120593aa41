// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check-topo.c - the topology readers on the real captures' numactl -H
 * files, seed 002's 96-CPU matrix, sysfs-like folders built in a temp dir
 * (cross-checked against numactl for the same machine), JSON, marker
 * lines, and malformed inputs with the line the error must name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check-common.h"
#include "ingest/marker.h"
#include "topo/topo.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	ck_assert_msg(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f, "cannot create %s", path);
	fputs(text, f);
	fclose(f);
}

static struct topo *numactl_str(const char *text, struct err *err)
{
	memset(err, 0, sizeof(*err));
	return topo_from_numactl(text, strlen(text), "test.txt", err);
}

/* ---- numactl -H of the real captures ---------------------------------- */

static const struct {
	const char	*capture;
	int		nodes;
	int		cpus;
} captures[] = {
	{ "host-baseline-1n", 1, 2 },
	{ "mixed-2n", 2, 4 },
	{ "numa02-2n", 2, 4 },
	{ "numa01-4n", 4, 8 },
	{ "numa01-shm-4n", 4, 8 },
};

/*
 * topology.txt of the same capture holds sysfs's cpulist and distance
 * lines: turn it into a nodeN/ folder and read that with the sysfs reader.
 */
static struct topo *sysfs_from_topology_txt(const char *capture, char *tmp)
{
	char path[4096];
	char line[1024];
	char *cpulist;
	char *dist;
	char *end;
	struct err err = { 0 };
	struct topo *t;
	FILE *f;
	int id;

	snprintf(path, sizeof(path), "%s/%s/topology.txt", SR_FIXTURES_DIR, capture);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		ck_assert_int_eq(sscanf(line, "node%d", &id), 1);
		cpulist = strstr(line, "cpulist=") + 8;
		*strchr(cpulist, ' ') = '\0';
		dist = strstr(cpulist + strlen(cpulist) + 1, "distance=") + 9;
		end = strstr(dist, " memtotal");
		if (!end)
			end = strchr(dist, '\n');
		*end = '\0';
		snprintf(path, sizeof(path), "%s/node%d", tmp, id);
		ck_assert_int_eq(mkdir(path, 0700), 0);
		snprintf(path, sizeof(path), "%s/node%d/cpulist", tmp, id);
		write_file(path, cpulist);
		snprintf(path, sizeof(path), "%s/node%d/distance", tmp, id);
		write_file(path, dist);
	}
	fclose(f);
	t = topo_from_sysfs(tmp, &err);
	ck_assert_msg(t, "sysfs copy of %s: %s", capture, err.msg);
	return t;
}

static void rm_tree(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_numactl_captures)
{
	char path[4096];
	char tmp[] = "/tmp/check-topo-XXXXXX";
	struct err err = { 0 };
	struct topo *t;
	struct topo *s;
	size_t len;
	char *text;
	int a;
	int b;

	snprintf(path, sizeof(path), "%s/%s/numactl-H.txt", SR_FIXTURES_DIR,
		 captures[_i].capture);
	text = slurp(path, &len);
	t = topo_from_numactl(text, len, path, &err);
	free(text);
	ck_assert_msg(t, "%s: %s at %s", path, err.msg, err.where);
	ck_assert_int_eq(t->nr_nodes, captures[_i].nodes);
	ck_assert_int_eq(t->nr_cpus, captures[_i].cpus);
	ck_assert_int_eq(t->source, TOPO_SRC_NUMACTL);
	ck_assert_str_eq(t->origin, path);
	/* every capture puts CPUs 2n and 2n+1 on node n */
	for (a = 0; a < t->nr_cpus; a++)
		ck_assert_int_eq(topo_cpu_node(t, a), a / 2);
	ck_assert_int_eq(topo_validate(t, &err), 0);

	/* the sysfs numbers of the same machine give the same topology */
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	s = sysfs_from_topology_txt(captures[_i].capture, tmp);
	ck_assert_int_eq(s->source, TOPO_SRC_SYSFS);
	ck_assert_int_eq(s->nr_nodes, t->nr_nodes);
	ck_assert_int_eq(s->nr_cpus, t->nr_cpus);
	for (a = 0; a < t->nr_cpus; a++)
		ck_assert_int_eq(topo_cpu_node(s, a), topo_cpu_node(t, a));
	for (a = 0; a < t->nr_nodes; a++)
		for (b = 0; b < t->nr_nodes; b++)
			ck_assert_int_eq(topo_distance(s, a, b), topo_distance(t, a, b));
	topo_free(s);
	rm_tree(tmp);
	topo_free(t);
}
END_TEST

START_TEST(test_numactl_4n_matrix)
{
	static const int want[4][4] = {
		{ 10, 20, 40, 40 }, { 20, 10, 40, 40 }, { 40, 40, 10, 20 }, { 40, 40, 20, 10 },
	};
	struct err err = { 0 };
	struct topo *t;
	size_t len;
	char *text;
	int a;
	int b;

	text = slurp(SR_FIXTURE("numa01-4n/numactl-H.txt"), &len);
	t = topo_from_numactl(text, len, "numactl-H.txt", &err);
	free(text);
	ck_assert_ptr_nonnull(t);
	for (a = 0; a < 4; a++)
		for (b = 0; b < 4; b++)
			ck_assert_int_eq(topo_distance(t, a, b), want[a][b]);
	ck_assert_int_eq(topo_distance(t, 0, 4), -1);
	ck_assert_int_eq(topo_distance(t, -1, 0), -1);
	ck_assert_int_eq(topo_cpu_node(t, 8), -1);
	ck_assert_int_eq(topo_cpu_node(t, -1), -1);
	topo_free(t);
}
END_TEST

/*
 * seed 002 quotes `numactl -H` of a 96-CPU, 4-node machine after "# numactl -H"
 * (fixtures/topo/seed002-numactl-H.txt holds the quote)
 */
START_TEST(test_numactl_seed002)
{
	struct err err = { 0 };
	struct topo *t;
	char *text;
	char *start;
	char *stop;
	size_t len;
	int cpu;

	text = slurp(SR_FIXTURE("topo/seed002-numactl-H.txt"), &len);
	start = strstr(text, "# numactl -H\n");
	ck_assert_ptr_nonnull(start);
	start += strlen("# numactl -H\n");
	stop = strstr(start, "\n\n");
	ck_assert_ptr_nonnull(stop);
	t = topo_from_numactl(start, (size_t)(stop - start + 1), "seed002", &err);
	ck_assert_msg(t, "%s at %s", err.msg, err.where);
	ck_assert_int_eq(t->nr_nodes, 4);
	ck_assert_int_eq(t->nr_cpus, 96);
	for (cpu = 0; cpu < 96; cpu++)
		ck_assert_int_eq(topo_cpu_node(t, cpu), cpu / 24);
	ck_assert_int_eq(topo_distance(t, 0, 1), 20);
	ck_assert_int_eq(topo_distance(t, 1, 2), 40);
	ck_assert_int_eq(topo_distance(t, 3, 2), 20);
	ck_assert_int_eq(topo_distance(t, 3, 3), 10);
	topo_free(t);

	/* the same text with the seed's "# numactl -H" line is not numactl output */
	t = topo_from_numactl(start - 13, (size_t)(stop - start + 14), "seed002", &err);
	ck_assert_ptr_null(t);
	ck_assert_str_eq(err.where, "line 1");
	free(text);
}
END_TEST

START_TEST(test_numactl_memory_only_and_sparse)
{
	struct err err;
	struct topo *t;

	t = numactl_str("available: 3 nodes (0-2)\n"
			"node 0 cpus: 0 1\nnode 0 size: 100 MB\nnode 0 free: 50 MB\n"
			"node 1 cpus: 2 3\nnode 1 size: 100 MB\n"
			"node 2 cpus:\nnode 2 size: 4000 MB\n"
			"node distances:\nnode   0   1   2 \n"
			"  0:  10  20  30 \n  1:  20  10  30 \n  2:  30  30  10 \n", &err);
	ck_assert_msg(t, "%s at %s", err.msg, err.where);
	ck_assert_int_eq(t->nr_nodes, 3);
	ck_assert_int_eq(t->nr_cpus, 4);
	ck_assert(topo_node_present(t, 2));
	ck_assert_int_eq(topo_distance(t, 2, 0), 30);
	topo_free(t);

	/* kernel ids 0 and 2 online, no node 1: ids kept, node 1 absent */
	t = numactl_str("available: 2 nodes (0,2)\r\n"
			"node 0 cpus: 0 1\r\nnode 2 cpus: 2 3\r\n"
			"node distances:\r\nnode   0   2\r\n  0:  10  20\r\n  2:  20  10\r\n", &err);
	ck_assert_msg(t, "%s at %s", err.msg, err.where);
	ck_assert_int_eq(t->nr_nodes, 3);
	ck_assert(topo_node_present(t, 0));
	ck_assert(!topo_node_present(t, 1));
	ck_assert(topo_node_present(t, 2));
	ck_assert_int_eq(topo_cpu_node(t, 3), 2);
	ck_assert_int_eq(topo_distance(t, 0, 2), 20);
	ck_assert_int_eq(topo_distance(t, 0, 1), -1);
	ck_assert_int_eq(topo_validate(t, &err), 0);
	topo_free(t);

	/* a single node needs no distance table */
	t = numactl_str("available: 1 nodes (0)\nnode 0 cpus: 0-3\n\nNo distance information available.\n", &err);
	ck_assert_msg(t, "%s at %s", err.msg, err.where);
	ck_assert_int_eq(t->nr_cpus, 4);
	ck_assert_int_eq(topo_distance(t, 0, 0), 10);
	topo_free(t);
}
END_TEST

static const struct {
	const char	*text;
	const char	*where;		/* "" when no line applies */
	const char	*msg;		/* a part of the message */
} bad_numactl[] = {
	{ "available: 2 nodes (0-1)\nnode 0 cpus: 0 1\nnode 1 cpus: 2 x\n", "line 3", "bad cpu list" },
	{ "available: 3 nodes (0-1)\n", "line 1", "says 3 nodes but lists 2" },
	{ "No NUMA available on this system\n", "line 1", "no NUMA" },
	{ "available: 1 nodes (0)\nnode 0 cpus: 0\nhello\n", "line 3", "unrecognised" },
	{ "available: 1 nodes (0)\nnode 5000 cpus: 0\n", "line 2", "out of range" },
	{ "available: 1 nodes (0)\nnode 1 cpus: 0\n", "line 2", "not in the 'available:' list" },
	{ "available: 2 nodes (0-1)\nnode 0 cpus: 0 1\nnode 1 cpus: 1 2\n", "line 3",
	  "cpu 1 is on node 0 and node 1" },
	{ "node 0 cpus: 0\nnode 0 cpus: 99999\n", "line 2", "cpu id out of range" },
	{ "available: 2 nodes (0-1)\nnode 0 cpus: 0\nnode 1 cpus: 1\n", "", "no 'node distances:'" },
	{ "available: 2 nodes (0-1)\nnode distances:\nnode 0 1\n 0: 10 20\n 1: 20\n", "line 5",
	  "1 distances for 2 nodes" },
	{ "available: 2 nodes (0-1)\nnode distances:\nnode 0 1\n 0: 10 20\n 2: 20 10\n", "line 5",
	  "not in the header" },
	{ "available: 2 nodes (0-1)\nnode distances:\nnode 0 1\n 0: 10 20\n 1: 20 999\n", "line 5",
	  "distance above" },
	{ "available: 2 nodes (0-1)\nnode distances:\nnode 0 1\n 0: 10 20\n", "", "no distance list" },
	{ "available: 2 nodes (0-1)\nnode distances:\nnode 0 1\n 0: 10 5\n 1: 20 10\n", "",
	  "distance from node 0 to node 1 is 5" },
	{ "available: 2 nodes (0-1)\nnode distances:\nnode 0 1\n 0: 12 20\n 1: 20 10\n", "",
	  "to itself is 12" },
	{ "available: 2 nodes (0-1)\nnode distances:\n", "line 2", "without a table" },
	{ "", "", "no node described" },
	{ "\n\n   \n", "", "no node described" },
};

START_TEST(test_numactl_malformed)
{
	struct err err;
	struct topo *t = numactl_str(bad_numactl[_i].text, &err);

	ck_assert_ptr_null(t);
	ck_assert_int_lt(err.code, 0);
	ck_assert_str_eq(err.file, "test.txt");
	ck_assert_str_eq(err.where, bad_numactl[_i].where);
	ck_assert_msg(strstr(err.msg, bad_numactl[_i].msg), "case %d: message '%s' lacks '%s'", _i,
		      err.msg, bad_numactl[_i].msg);
}
END_TEST

/* ---- sysfs copies ----------------------------------------------------- */

static void make_node(const char *dir, int id, const char *cpulist, const char *distance)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/node%d", dir, id);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/node%d/cpulist", dir, id);
	write_file(path, cpulist);
	snprintf(path, sizeof(path), "%s/node%d/distance", dir, id);
	write_file(path, distance);
}

START_TEST(test_sysfs_sparse_and_layouts)
{
	char tmp[] = "/tmp/check-topo-XXXXXX";
	char node[4200];
	char path[4300];
	struct err err = { 0 };
	struct topo *t;

	ck_assert_ptr_nonnull(mkdtemp(tmp));
	snprintf(node, sizeof(node), "%s/node", tmp);
	ck_assert_int_eq(mkdir(node, 0700), 0);
	/* kernel ids 0, 2, 3 online; node 3 memory-only; distances per online node */
	make_node(node, 0, "0-1,4\n", "10 20 30\n");
	make_node(node, 2, "2-3\n", "20 10 30\n");
	make_node(node, 3, "\n", "30 30 10\n");
	snprintf(path, sizeof(path), "%s/online", node);
	write_file(path, "0,2-3\n");
	snprintf(path, sizeof(path), "%s/possible", node);
	write_file(path, "0-3\n");

	/* pointed at the node folder itself */
	t = topo_from_sysfs(node, &err);
	ck_assert_msg(t, "%s at %s", err.msg, err.where);
	ck_assert_int_eq(t->nr_nodes, 4);
	ck_assert_int_eq(t->nr_cpus, 5);
	ck_assert(t->node_absent[1]);
	ck_assert(!topo_node_present(t, 1));
	ck_assert_int_eq(topo_cpu_node(t, 4), 0);
	ck_assert_int_eq(topo_cpu_node(t, 2), 2);
	ck_assert_int_eq(topo_distance(t, 0, 2), 20);
	ck_assert_int_eq(topo_distance(t, 0, 3), 30);
	ck_assert_int_eq(topo_distance(t, 3, 2), 30);
	ck_assert_int_eq(topo_distance(t, 2, 1), -1);
	topo_free(t);

	/* pointed at the parent (like /sys/devices/system): finds node/ */
	t = topo_load(tmp, &err);
	ck_assert_msg(t, "%s at %s", err.msg, err.where);
	ck_assert_int_eq(t->source, TOPO_SRC_SYSFS);
	ck_assert_int_eq(t->nr_nodes, 4);
	topo_free(t);

	/* a broken cpulist names its file and line */
	snprintf(path, sizeof(path), "%s/node2/cpulist", node);
	write_file(path, "2-x\n");
	memset(&err, 0, sizeof(err));
	t = topo_load(node, &err);
	ck_assert_ptr_null(t);
	ck_assert_str_eq(err.file, path);
	ck_assert_str_eq(err.where, "line 1");
	ck_assert_int_eq(err.code, -SR_EBADTOPO);

	/* a distance list of the wrong length */
	write_file(path, "2-3\n");
	snprintf(path, sizeof(path), "%s/node2/distance", node);
	write_file(path, "20 10\n");
	memset(&err, 0, sizeof(err));
	t = topo_load(node, &err);
	ck_assert_ptr_null(t);
	ck_assert_msg(strstr(err.msg, "node 2: wrong number of distances"), "%s", err.msg);

	/* a missing distance file */
	ck_assert_int_eq(unlink(path), 0);
	memset(&err, 0, sizeof(err));
	t = topo_load(node, &err);
	ck_assert_ptr_null(t);
	ck_assert_str_eq(err.file, path);
	ck_assert_int_eq(err.code, -ENOENT);
	rm_tree(tmp);

	/* a folder with nothing of ours */
	strcpy(tmp, "/tmp/check-topo-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	memset(&err, 0, sizeof(err));
	t = topo_load(tmp, &err);
	ck_assert_ptr_null(t);
	ck_assert_int_eq(err.code, -SR_ENOTFOUND);
	rm_tree(tmp);
}
END_TEST

START_TEST(test_load_detects)
{
	char tmp[] = "/tmp/check-topo-XXXXXX";
	char path[4200];
	struct err err = { 0 };
	struct topo *t;

	/* a capture folder: its numactl-H.txt */
	t = topo_load(SR_FIXTURE("numa01-4n"), &err);
	ck_assert_msg(t, "%s", err.msg);
	ck_assert_int_eq(t->source, TOPO_SRC_CAPTURE);
	ck_assert_int_eq(t->nr_nodes, 4);
	ck_assert_str_eq(topo_source_name(t->source), "capture");
	topo_free(t);

	t = topo_load(SR_FIXTURE("mixed-2n/numactl-H.txt"), &err);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(t->source, TOPO_SRC_NUMACTL);
	topo_free(t);

	ck_assert_ptr_nonnull(mkdtemp(tmp));
	snprintf(path, sizeof(path), "%s/topo.json", tmp);
	write_file(path, "\n  {\"nodes\": [{\"id\": 0, \"cpus\": \"0-3\", \"distance\": [10]}]}\n");
	t = topo_load(path, &err);
	ck_assert_msg(t, "%s", err.msg);
	ck_assert_int_eq(t->source, TOPO_SRC_JSON);
	ck_assert_int_eq(t->nr_cpus, 4);
	ck_assert_str_eq(t->origin, path);
	topo_free(t);

	snprintf(path, sizeof(path), "%s/missing", tmp);
	memset(&err, 0, sizeof(err));
	ck_assert_ptr_null(topo_load(path, &err));
	ck_assert_int_eq(err.code, -ENOENT);
	ck_assert_str_eq(err.file, path);
	rm_tree(tmp);
}
END_TEST

/* ---- JSON ------------------------------------------------------------- */

START_TEST(test_json_ok)
{
	static const char text[] =
		"{\"version\": 1, \"cpus\": 6,\n"
		" \"nodes\": [\n"
		"  {\"id\": 0, \"cpus\": \"0-1\", \"distance\": [10, 20, 40]},\n"
		"  {\"id\": 1, \"cpus\": [2, 3], \"distance\": [20, 10, 40]},\n"
		"  {\"id\": 3, \"distance\": [40, 40, 10]}\n"
		" ]}\n";
	struct err err = { 0 };
	struct topo *t = topo_from_json(text, strlen(text), "t.json", &err);

	ck_assert_msg(t, "%s", err.msg);
	ck_assert_int_eq(t->source, TOPO_SRC_JSON);
	ck_assert_int_eq(t->nr_nodes, 4);
	ck_assert_int_eq(t->nr_cpus, 6);	/* "cpus": 6 although only 0-3 are placed */
	ck_assert_int_eq(topo_cpu_node(t, 3), 1);
	ck_assert_int_eq(topo_cpu_node(t, 5), -1);
	ck_assert(!topo_node_present(t, 2));
	ck_assert_int_eq(topo_distance(t, 1, 3), 40);
	ck_assert_int_eq(topo_distance(t, 0, 1), 20);
	topo_free(t);
}
END_TEST

static const struct {
	const char	*text;
	const char	*where;
	const char	*msg;
} bad_json[] = {
	{ "{\"nodes\": [\n{\"id\": 0,\n\"cpus\": \"0-1\",, }]}", "line 3", "" },
	{ "{\"nodes\": []}", "", "non-empty array" },
	{ "{\"nodes\": [{\"cpus\": \"0\"}]}", "", "nodes[0].id" },
	{ "{\"nodes\": [{\"id\": 0, \"distances\": [10]}]}", "", "unknown key 'distances'" },
	{ "{\"nodes\": [{\"id\": 0}, {\"id\": 0}]}", "", "node 0 listed twice" },
	{ "{\"nodes\": [{\"id\": 0, \"cpus\": \"0-\"}]}", "", "nodes[0].cpus: bad cpu list" },
	{ "{\"nodes\": [{\"id\": 0, \"cpus\": [1, -1]}]}", "", "nodes[0].cpus[1]" },
	{ "{\"nodes\": [{\"id\": 0, \"distance\": [10, 20]}, {\"id\": 1, \"distance\": [20]}]}",
	  "", "node 1: wrong number of distances" },
	{ "{\"nodes\": [{\"id\": 0, \"distance\": [10, \"x\"]}]}", "", "nodes[0].distance[1]" },
	{ "{\"version\": 2, \"nodes\": [{\"id\": 0}]}", "", "only 1" },
	{ "{\"nodes\": [{\"id\": 2000}]}", "", "nodes[0].id" },
	{ "[1, 2]", "", "object at the top" },
	{ "{\"nodes\": [{\"id\": 0}], \"nodes\": []}", "line 1", "duplicate" },
	{ "{\"nodes\": [{\"id\": 0, \"cpus\": \"0\"}, {\"id\": 1, \"cpus\": [0]}]}", "",
	  "cpu 0 is on node 0 and node 1" },
};

START_TEST(test_json_malformed)
{
	struct err err = { 0 };
	struct topo *t;

	t = topo_from_json(bad_json[_i].text, strlen(bad_json[_i].text), "t.json", &err);
	ck_assert_ptr_null(t);
	ck_assert_int_lt(err.code, 0);
	ck_assert_str_eq(err.file, "t.json");
	ck_assert_str_eq(err.where, bad_json[_i].where);
	ck_assert_msg(strstr(err.msg, bad_json[_i].msg), "case %d: message '%s' lacks '%s'", _i,
		      err.msg, bad_json[_i].msg);
}
END_TEST

/* ---- marker lines ----------------------------------------------------- */

/* a print event of @s as the readers hand it out, fed to the builder */
static int feed(struct topo_builder *b, const char *s, size_t len, struct err *err)
{
	struct sr_event ev = { .kind = SR_EV_PRINT, .str = s, .str_len = (uint32_t)len };

	ev.marker = marker_classify(s, len);
	return topo_builder_feed(b, &ev, err);
}

static const char *const lines_4n[] = {
	"schedreplay_meta release=6.1.0-57-amd64 machine=x86_64 nodes=4 cpus=8",
	"schedreplay_sysctl kernel.numa_balancing=1 scan_delay_ms=200",
	"schedreplay_node node=0 cpus=0-1 distance=10,20,40,40",
	"schedreplay_node node=1 cpus=2-3 distance=20,10,40,40",
	"numa_sample t=1 seq=0 pid=281 tid=281 comm=x cpu=0 pref=-1 node=0 grp=0 f=",
	"schedreplay_node node=2 cpus=4-5 distance=40,40,10,20",
	"schedreplay_node node=3 cpus=6-7 distance=40,40,20,10",
};

START_TEST(test_builder_4n)
{
	struct topo_builder *b = topo_builder_new();
	struct err err = { 0 };
	struct topo *t;
	struct topo *ref;
	size_t len;
	char *text;
	size_t i;
	int a;
	int c;
	int used = 0;

	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_null(topo_builder_build(b, &err));
	ck_assert_int_eq(err.code, 0);	/* nothing seen: not an error */
	for (i = 0; i < sizeof(lines_4n) / sizeof(lines_4n[0]); i++) {
		ck_assert(!topo_builder_complete(b));
		/* not NUL-terminated where the length stops */
		used += feed(b, lines_4n[i], strlen(lines_4n[i]), &err);
	}
	ck_assert_int_eq(used, 5);
	ck_assert(topo_builder_complete(b));
	/* the same node line again is harmless */
	ck_assert_int_eq(feed(b, lines_4n[2], strlen(lines_4n[2]), &err), 1);
	t = topo_builder_build(b, &err);
	ck_assert_msg(t, "%s", err.msg);
	ck_assert_int_eq(t->source, TOPO_SRC_TRACE);

	text = slurp(SR_FIXTURE("numa01-4n/numactl-H.txt"), &len);
	ref = topo_from_numactl(text, len, "numactl-H.txt", &err);
	free(text);
	ck_assert_ptr_nonnull(ref);
	ck_assert_int_eq(t->nr_nodes, ref->nr_nodes);
	ck_assert_int_eq(t->nr_cpus, ref->nr_cpus);
	for (c = 0; c < ref->nr_cpus; c++)
		ck_assert_int_eq(topo_cpu_node(t, c), topo_cpu_node(ref, c));
	for (a = 0; a < 16; a++)
		ck_assert_int_eq(topo_distance(t, a / 4, a % 4), topo_distance(ref, a / 4, a % 4));
	topo_free(ref);
	topo_free(t);
	topo_builder_free(b);
}
END_TEST

START_TEST(test_builder_bad)
{
	static const char *const bad[] = {
		"schedreplay_node cpus=0-1 distance=10",
		"schedreplay_node node=x cpus=0-1 distance=10",
		"schedreplay_node node=0 cpus=0-a distance=10",
		"schedreplay_node node=0 cpus=0-1",
		"schedreplay_node node=0 cpus=0-1 distance=10,abc",
		"schedreplay_node node=0 cpus=0-1 distance=",
		"schedreplay_node node=4096 cpus=0 distance=10",
		"schedreplay_node node=0 cpus=0-99999 distance=10",
		"schedreplay_meta release=x nodes=0 cpus=8",
		"schedreplay_meta release=x cpus=8",
		"schedreplay_meta nodes=2 cpus=-1",
	};
	struct topo_builder *b = topo_builder_new();
	struct err err;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		ck_assert_msg(feed(b, bad[i], strlen(bad[i]), &err) == -SR_EBADTOPO,
			      "accepted '%s'", bad[i]);
		ck_assert_msg(err.msg[0], "no message for '%s'", bad[i]);
	}
	/* not ours */
	ck_assert_int_eq(feed(b, "schedreplay_nodes node=0", 24, &err), 0);
	ck_assert_int_eq(feed(b, "hello", 5, &err), 0);
	ck_assert_int_eq(feed(b, "", 0, &err), 0);
	/* a length that cuts the line: "node=1" is beyond it */
	ck_assert_int_eq(feed(b, "schedreplay_node node=1", 21, &err), -SR_EBADTOPO);
	topo_builder_free(b);
}
END_TEST

START_TEST(test_builder_contradictions)
{
	struct topo_builder *b;
	struct err err = { 0 };

	/* a node line repeated with other CPUs */
	b = topo_builder_new();
	ck_assert_int_eq(feed(b, "schedreplay_node node=0 cpus=0-1 distance=10,20", 47, &err), 1);
	ck_assert_int_eq(feed(b, "schedreplay_node node=1 cpus=1-2 distance=20,10", 47, &err), 1);
	ck_assert_ptr_null(topo_builder_build(b, &err));
	ck_assert_msg(strstr(err.msg, "cpu 1 is on node 0 and node 1"), "%s", err.msg);
	topo_builder_free(b);

	/* meta says more nodes than were described */
	memset(&err, 0, sizeof(err));
	b = topo_builder_new();
	ck_assert_int_eq(feed(b, "schedreplay_meta nodes=2 cpus=2", 31, &err), 1);
	ck_assert_int_eq(feed(b, "schedreplay_node node=0 cpus=0-1 distance=10,20", 47, &err), 1);
	ck_assert(!topo_builder_complete(b));
	ck_assert_ptr_null(topo_builder_build(b, &err));
	ck_assert_msg(strstr(err.msg, "says 2 nodes"), "%s", err.msg);
	topo_builder_free(b);

	/* same node, other distances */
	memset(&err, 0, sizeof(err));
	b = topo_builder_new();
	ck_assert_int_eq(feed(b, "schedreplay_node node=0 cpus=0 distance=10", 42, &err), 1);
	ck_assert_int_eq(feed(b, "schedreplay_node node=0 cpus=0 distance=11", 42, &err), 1);
	ck_assert_ptr_null(topo_builder_build(b, &err));
	ck_assert_msg(strstr(err.msg, "two different distance lists"), "%s", err.msg);
	topo_builder_free(b);

	/* one node, no meta: fine; meta cpus= widens the map */
	memset(&err, 0, sizeof(err));
	b = topo_builder_new();
	ck_assert_int_eq(feed(b, "schedreplay_meta nodes=1 cpus=4", 31, &err), 1);
	ck_assert_int_eq(feed(b, "schedreplay_node node=0 cpus=0-1 distance=10", 44, &err), 1);
	{
		struct topo *t = topo_builder_build(b, &err);

		ck_assert_msg(t, "%s", err.msg);
		ck_assert_int_eq(t->nr_cpus, 4);
		ck_assert_int_eq(topo_cpu_node(t, 3), -1);
		topo_free(t);
	}
	topo_builder_free(b);
}
END_TEST

/* ---- the struct itself ------------------------------------------------ */

START_TEST(test_new_grow_validate)
{
	struct err err = { 0 };
	struct topo *t = topo_new_single(2);

	ck_assert_int_eq(t->source, TOPO_SRC_DEFAULT);
	ck_assert_str_eq(topo_source_name(t->source), "default");
	ck_assert_int_eq(topo_grow_cpus(t, 6), 0);
	ck_assert_int_eq(t->nr_cpus, 6);
	ck_assert_int_eq(topo_cpu_node(t, 5), 0);	/* default: new CPUs on node 0 */
	ck_assert_int_eq(topo_grow_cpus(t, 3), 0);	/* never shrinks */
	ck_assert_int_eq(t->nr_cpus, 6);
	ck_assert_int_eq(topo_grow_cpus(t, TOPO_MAX_CPUS + 1), -SR_ERANGE);
	ck_assert_int_eq(topo_validate(t, &err), 0);
	topo_free(t);

	t = topo_new(2, 2);
	ck_assert_int_eq(topo_cpu_node(t, 0), -1);
	ck_assert_int_eq(topo_validate(t, &err), -SR_EBADTOPO);	/* 0-1 distance unset */
	t->distance[1] = 20;
	t->distance[2] = 30;	/* not symmetric: allowed */
	err_clear(&err);
	ck_assert_int_eq(topo_validate(t, &err), 0);
	ck_assert_int_eq(topo_grow_cpus(t, 4), 0);
	ck_assert_int_eq(topo_cpu_node(t, 3), -1);	/* not a default topology: unplaced */
	t->cpu_node[0] = 2;
	ck_assert_int_eq(topo_validate(t, &err), -SR_EBADTOPO);
	ck_assert_msg(strstr(err.msg, "cpu 0 is on node 2"), "%s", err.msg);
	t->cpu_node[0] = 1;
	t->node_absent[1] = true;
	err_clear(&err);
	ck_assert_int_eq(topo_validate(t, &err), -SR_EBADTOPO);
	topo_free(t);

	ck_assert_ptr_null(topo_new(0, 1));
	ck_assert_ptr_null(topo_new(TOPO_MAX_NODES + 1, 1));
	ck_assert_ptr_null(topo_new(1, TOPO_MAX_CPUS + 1));
	topo_free(NULL);
	ck_assert_str_eq(topo_source_name(TOPO_SRC_TRACE), "trace");
	ck_assert_str_eq(topo_source_name(TOPO_SRC_SYSFS), "sysfs");
	ck_assert_str_eq(topo_source_name(TOPO_SRC_NUMACTL), "numactl");
	ck_assert_str_eq(topo_source_name(TOPO_SRC_JSON), "json");
}
END_TEST

/* Mutated real inputs must give a topology or an error, never a crash. */
START_TEST(test_mutations_do_not_crash)
{
	static const char json[] = "{\"nodes\":[{\"id\":0,\"cpus\":\"0-1\",\"distance\":[10,20]},"
				   "{\"id\":1,\"cpus\":[2,3],\"distance\":[20,10]}]}";
	static const char alphabet[] = "0123456789 -,:\n{}[]\"x";
	struct topo_builder *b = topo_builder_new();
	struct err err;
	struct topo *t;
	unsigned int seed = 12345;
	size_t len;
	size_t i;
	char *text;
	char *copy;
	int round;
	int k;

	text = slurp(SR_FIXTURE("numa01-4n/numactl-H.txt"), &len);
	copy = malloc(len + sizeof(json));
	for (round = 0; round < 600; round++) {
		size_t n = round % 2 ? len : sizeof(json) - 1;

		memcpy(copy, round % 2 ? text : json, n);
		for (k = 0; k < 1 + round % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			i = (seed >> 8) % n;
			copy[i] = alphabet[(seed >> 20) % (sizeof(alphabet) - 1)];
		}
		if (round % 5 == 0)
			n = (seed >> 4) % n;	/* truncated too */
		memset(&err, 0, sizeof(err));
		t = round % 2 ? topo_from_numactl(copy, n, "m", &err) :
				topo_from_json(copy, n, "m", &err);
		ck_assert(t || err.code < 0);
		if (t)
			ck_assert_int_eq(topo_validate(t, &err), 0);
		topo_free(t);
		feed(b, copy, n < 200 ? n : 200, &err);
	}
	free(copy);
	free(text);
	topo_builder_free(b);
}
END_TEST

static Suite *topo_suite(void)
{
	Suite *s = suite_create("topo");
	TCase *tc;

	tc = tcase_create("numactl");
	tcase_add_loop_test(tc, test_numactl_captures, 0, sizeof(captures) / sizeof(captures[0]));
	tcase_add_test(tc, test_numactl_4n_matrix);
	tcase_add_test(tc, test_numactl_seed002);
	tcase_add_test(tc, test_numactl_memory_only_and_sparse);
	tcase_add_loop_test(tc, test_numactl_malformed, 0,
			    sizeof(bad_numactl) / sizeof(bad_numactl[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("sysfs");
	tcase_add_test(tc, test_sysfs_sparse_and_layouts);
	tcase_add_test(tc, test_load_detects);
	suite_add_tcase(s, tc);

	tc = tcase_create("json");
	tcase_add_test(tc, test_json_ok);
	tcase_add_loop_test(tc, test_json_malformed, 0, sizeof(bad_json) / sizeof(bad_json[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("builder");
	tcase_add_test(tc, test_builder_4n);
	tcase_add_test(tc, test_builder_bad);
	tcase_add_test(tc, test_builder_contradictions);
	suite_add_tcase(s, tc);

	tc = tcase_create("core");
	tcase_add_test(tc, test_new_grow_validate);
	tcase_add_test(tc, test_mutations_do_not_crash);
	suite_add_tcase(s, tc);
	return s;
}

SR_CHECK_MAIN(topo_suite)
