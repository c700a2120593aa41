#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare scales near-linearly in the number of metrics: an mmtests block of
# 50,000 rows (the bundled mmtests-lkml.txt's first block, its rows repeated
# under new names) must be compared well inside a bound that quadratic work
# (216 s for 50k metrics before) cannot meet.
. "$(dirname "$0")/lib.sh"

SRC=$FIX/compare/mmtests-lkml.txt
N=50000
# the block's 3 header lines, then N of its Amean rows renamed 1..N
{
	head -n 3 "$SRC"
	sed -n '4,18p' "$SRC" | awk -v n=$N '{ rows[NR] = $0 } END {
		for (i = 1; i <= n; i++) { r = rows[(i - 1) % NR + 1]; sub(/^Amean +[0-9]+/, "Amean     " i, r); print r } }'
} >"$T/big.txt"
check "the block has $N rows" test "$(grep -c '^Amean' "$T/big.txt")" = $N
expect_exit 0 "compare of $N metrics within 60 s" timeout 60 "$SR_BIN" compare "$T/big.txt"
check "every metric compared" test "$(grep -c '^hackbench-process-pipes [0-9]* \[' "$T/out")" = $N
finish
