// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-compare.c - libFuzzer harness of `compare`'s input reader and the
 * analysis behind it, built twice with different seeds and dictionaries:
 * fuzz-compare-text (number lists, column tables, summary tables) and
 * fuzz-compare-report (replay JSON reports read back).
 *
 * The input is split at the first line "%%" into a base file and a new
 * file (no such line: the same bytes on both sides).  Each is read with
 * compare_read_file() as the kind it is detected as; then, like
 * src/cli/cmd-compare.c, the sides are checked, one reading is chosen per
 * dispersion column, the pairs are made (a single input: every row of a
 * metric with its first), and every pair is analysed, printed as a table
 * (to /dev/null) and as JSON.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/compare.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int read_side(struct compare_side *s, const uint8_t *data, size_t size)
{
	struct compare_read_opts ro = { .count = 0 };
	struct err e = { 0 };
	char path[64];
	int fd, ret;

	fd = fuzz_memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return -1;
	ret = compare_read_file(s, path, &ro, &e);
	close(fd);
	return ret;
}

static void analyze(struct compare_side *base, struct compare_side *new, FILE *devnull)
{
	struct compare_opts opts = { .alpha = 0.05, .higher_is_better = true };
	struct compare_side *sides[2] = { base, new };
	struct compare_result res[8];
	struct compare_pair *pairs;
	size_t npairs;
	size_t i, n = 0;
	json_t *root;

	compare_choose_readings(sides, new ? 2 : 1);
	if (compare_make_pairs(base, new, new ? NULL : "Current", &pairs, &npairs))
		return;
	for (i = 0; i < npairs && n < 8; i++) {
		if (!pairs[i].base || !pairs[i].new ||
		    compare_analyze(pairs[i].base, pairs[i].new, &opts, &res[n]))
			continue;
		n++;
	}
	free(pairs);
	if (devnull)
		(void)compare_print_table(devnull, res, n, &opts);
	root = compare_results_json(res, n);
	if (root) {
		char *s = json_dumps(root, JSON_SORT_KEYS | JSON_INDENT(2));

		free(s);
		json_decref(root);
	}
	for (i = 0; i < n; i++)
		compare_result_release(&res[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct compare_side base, new, all;
	const uint8_t *sep = NULL;
	size_t blen = size, noff = 0;
	struct err e = { 0 };
	size_t i;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	for (i = 0; i + 3 <= size; i++) {
		if ((i == 0 || data[i - 1] == '\n') && !memcmp(data + i, "%%", 2) &&
		    (i + 2 == size || data[i + 2] == '\n')) {
			sep = data + i;
			break;
		}
	}
	if (sep) {
		blen = (size_t)(sep - data);
		noff = blen + 3 > size ? size : blen + 3;
	}
	compare_side_init(&base);
	compare_side_init(&new);
	compare_side_init(&all);
	if (!sep) {
		/* one input: either two rows of each metric, or compare with itself */
		if (read_side(&all, data, size) == 0)
			analyze(&all, NULL, devnull);
	} else if (read_side(&base, data, blen) == 0 &&
		   read_side(&new, data + noff, size - noff) == 0 &&
		   compare_side_check_unique(&base, &e) == 0 &&
		   compare_side_check_unique(&new, &e) == 0) {
		analyze(&base, &new, devnull);
	}
	compare_side_release(&all);
	compare_side_release(&new);
	compare_side_release(&base);
	return 0;
}
