#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Does `schedreplay replay` use memory by trace length?  Peak RSS (median of
# N runs) of each trace given, and of the longest against the shortest.
# Give the same workload recorded for different lengths, e.g.
#   bench/make-trace.sh -e 500000 /tmp/small && bench/make-trace.sh -e 5000000 /tmp/big
#   bench/memory.sh /tmp/small/big-v7.dat /tmp/big/big-v7.dat
# The goal (issue 8): a trace 10x longer replays in at most 1.2x the memory.
# -j: each replay also writes --json (to /dev/null): a report that lists
# every decision keeps them in a temporary file, not in memory (issue 21).
# usage: bench/memory.sh [-n RUNS] [-b BUILD_DIR] [-j] TRACE.dat...
set -euo pipefail
. "$(dirname "$0")/lib.sh"
runs=3
build=build
json=
bench_args n:b:j "$0 [-n RUNS] [-b BUILD_DIR] [-j] TRACE..." "$@"
set -- "${traces[@]}"
sr=$top/$build/schedreplay
extra=()
[ -n "$json" ] && extra=(--json /dev/null)
[ -x "$sr" ] || { echo "build first: make" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-36s %10s %10s %8s\n' file events "RSS MiB" "reader"
rows=()
for f in "$@"; do
	: >"$tmp/runs"
	for ((i = 0; i < runs; i++)); do
		time_once "$tmp/runs" "$sr" replay --quiet "${extra[@]}" "$f"
	done
	rss=$(median "$tmp/runs" 2)
	read -r events reader < <("$sr" info --json --quiet "$f" | jq -r '"\(.events_total) \(.reader // "-")"')
	printf '%-36s %10d %10.1f %8s\n' "$(basename "$(dirname "$f")")/$(basename "$f")" "$events" \
		"$(awk -v r="$rss" 'BEGIN { print r / 1024 }')" "$reader"
	rows+=("$(basename "$f") $events $rss")
done
# per file name (big-v6.dat, big-v7.dat...): the longest trace against the shortest
printf '%s\n' "${rows[@]}" | sort -k1,1 -k2,2n | awk '
	$1 != name { if (n > 1) report(); name = $1; e0 = $2; m0 = $3; n = 0 }
	{ e = $2; m = $3; n++ }
	END { if (n > 1) report() }
	function report() {
		printf "  %s: longest/shortest %.1fx the events, %.2fx the memory (goal: 10x events <= 1.2x)\n",
			name, e / e0, m / m0 }'
