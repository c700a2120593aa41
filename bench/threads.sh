#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What reader threads do to a replay: `schedreplay replay` and the reader
# alone (build/bench/ingest-loop) with --threads 1 and --threads N,
# interleaved (1, N, 1, N, ...) so that this machine's drift hits both
# alike, N runs each; prints the medians and the speed-up, the fastest
# runs and theirs, and how much of a one-thread replay is reading.  The
# goal (issue 8): on these 2-core machines, 2 threads at least 1.6x one.
# The fastest runs are this machine without its neighbours: another guest
# taking a core away for a while costs a two-thread run more than a
# one-thread run, so the medians move with the host's load.
# Then where the time goes, thread by thread (build/bench/thread-times,
# medians of 5 runs of one thread and then of N, in one spell): each
# thread's run time and its wait for a CPU, the CPU time of all, and the
# speed-up those allow: a replay takes at least its main thread's run time
# (the merge and the model, which set the pace) and at least its CPU time
# shared over the cores, so one thread's time over the larger of the two
# is a ceiling on the speed-up of that spell.
# usage: bench/threads.sh [-n RUNS] [-t THREADS] [-b BUILD_DIR] TRACE.dat...
set -euo pipefail
. "$(dirname "$0")/lib.sh"
runs=11
threads=2
build=build
bench_args n:t:b: "$0 [-n RUNS] [-t THREADS] [-b BUILD_DIR] TRACE..." "$@"
set -- "${traces[@]}"
sr=$top/$build/schedreplay
loop=$top/$build/bench/ingest-loop
tt=$top/$build/bench/thread-times
[ -x "$sr" ] && [ -x "$loop" ] && [ -x "$tt" ] || { echo "build first: make" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

best() { cut -d' ' -f1 "$1" | sort -n | head -1; }

printf '%-24s %-8s %10s %10s %8s   %10s %10s %8s\n' file run "1 thread" "$threads threads" speed-up \
	"fastest 1" "fastest $threads" speed-up
for f in "$@"; do
	cat "$f" >/dev/null	# into the page cache
	for what in replay read; do
		: >"$tmp/1"
		: >"$tmp/n"
		for ((i = 0; i < runs; i++)); do
			for t in 1 "$threads"; do
				out=$tmp/$([ "$t" = 1 ] && echo 1 || echo n)
				if [ $what = replay ]; then
					time_once "$out" "$sr" replay --quiet --threads "$t" "$f"
				else
					time_once "$out" "$loop" "$f" "$t"
				fi
			done
		done
		eval "t1_$what=$(median "$tmp/1") tn_$what=$(median "$tmp/n")"
		eval "a=\$t1_$what b=\$tn_$what"
		awk -v f="$(basename "$(dirname "$f")")/$(basename "$f")" -v w="$what" -v a="$a" -v b="$b" \
			-v c="$(best "$tmp/1")" -v d="$(best "$tmp/n")" 'BEGIN {
			printf "%-24s %-8s %9.3fs %9.3fs %7.2fx   %9.3fs %9.3fs %7.2fx\n", f, w, a, b,
				(b > 0 ? a / b : 0), c, d, (d > 0 ? c / d : 0) }'
	done
	awk -v r="$t1_read" -v p="$t1_replay" 'BEGIN {
		printf "  reading is %.0f%% of a one-thread replay; goal: replay speed-up >= 1.6\n", 100 * r / p }'
	thread_ceiling "$tt" "$sr" "$f" "$threads" 5
done
