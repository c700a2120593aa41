#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Speed and memory of `schedreplay replay` against its anchors, measured side
# by side in one run, median of N runs each:
#   bare-loop          a bare libtracecmd loop reading two fields a record
#   trace-cmd report   trace-cmd report > /dev/null
# and against itself: on one thread (--threads 1), with --ndjson, and with
# libtracecmd as its reader (--reader=libtracecmd: how it was before the fast
# reader); the default and one-thread replays run interleaved.  First, reader-diff checks that the fast reader and libtracecmd
# agree event for event on each file (on 1, 2 and 3 threads, and in batches of 7).
# usage: bench/run.sh [-n RUNS] [-b BUILD_DIR] TRACE.dat...
# Prints, per file: events, then per tool the median wall time, events/s,
# peak RSS, and the ratio of schedreplay's (default) events/s to that tool's;
# then the goals of issue 8 as ratios.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
runs=5
build=build
bench_args n:b: "$0 [-n RUNS] [-b BUILD_DIR] TRACE..." "$@"
set -- "${traces[@]}"
sr=$top/$build/schedreplay
bare=$top/$build/bench/bare-loop
[ -x "$sr" ] && [ -x "$bare" ] || { echo "build first: make (needs $sr and $bare)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure_threads: replays on the default threads and on one, interleaved
# (this VM's neighbours come and go: runs far apart in time are not
# comparable); fills $tmp/sr and $tmp/sr1
measure_threads() {
	local i
	: >"$tmp/sr"
	: >"$tmp/sr1"
	cat "$f" >/dev/null
	for ((i = 0; i < runs; i++)); do
		time_once "$tmp/sr" "$sr" replay --quiet "$f"
		time_once "$tmp/sr1" "$sr" replay --quiet --threads 1 "$f"
	done
}

# measure NAME CMD...: median wall seconds and median peak RSS (KiB) of $runs runs
measure() {
	local name=$1 i
	shift
	: >"$tmp/$name"
	# the file in the page cache first (this machine's memory reclaim evicts idle pages)
	cat "$f" >/dev/null
	for ((i = 0; i < runs; i++)); do
		time_once "$tmp/$name" "$@"
	done
	echo "$(median "$tmp/$name" 1)" "$(median "$tmp/$name" 2)"
}

diff_bin=$top/$build/tests/reader-diff
if [ -x "$diff_bin" ]; then
	"$diff_bin" --require-fast "$@" || { echo "the fast reader and libtracecmd differ" >&2; exit 1; }
else
	echo "(no $diff_bin: reader agreement not checked; build with tests)" >&2
fi

printf '%-28s %10s  %-26s %8s %12s %9s %8s\n' file events tool "wall s" "events/s" "RSS MiB" "sr/tool"
for f in "$@"; do
	events=$("$bare" "$f" 2>/dev/null)
	measure_threads
	t_sr=$(median "$tmp/sr" 1) m_sr=$(median "$tmp/sr" 2)
	t_sr1=$(median "$tmp/sr1" 1) m_sr1=$(median "$tmp/sr1" 2)
	read -r t_nd m_nd < <(measure nd "$sr" replay --quiet --ndjson /dev/null "$f")
	read -r t_ltc m_ltc < <(measure ltc "$sr" replay --quiet --reader=libtracecmd "$f")
	read -r t_bare m_bare < <(measure bare "$bare" "$f")
	read -r t_tc m_tc < <(measure tc trace-cmd report -i "$f")
	for tool in sr sr1 nd ltc bare tc; do
		eval "t=\$t_$tool m=\$m_$tool"
		case $tool in
		sr) label="schedreplay replay" ;;
		sr1) label="  --threads 1" ;;
		nd) label="  --ndjson" ;;
		ltc) label="  --reader=libtracecmd" ;;
		bare) label="bare libtracecmd" ;;
		tc) label="trace-cmd report" ;;
		esac
		awk -v f="$(basename "$(dirname "$f")")/$(basename "$f")" -v e="$events" -v l="$label" \
			-v t="$t" -v m="$m" -v ts="$t_sr" 'BEGIN {
			if (t <= 0) t = 0.005; if (ts <= 0) ts = 0.005
			printf "%-28s %10d  %-26s %8.3f %12.0f %9.1f %8.2f\n", f, e, l, t, e / t, m / 1024, t / ts }'
	done
	awk -v sr="$t_sr" -v sr1="$t_sr1" -v nd="$t_nd" -v bare="$t_bare" -v tc="$t_tc" -v thr="$(nproc)" 'BEGIN {
		if (sr <= 0) sr = 0.005; if (sr1 <= 0) sr1 = 0.005
		printf "  goals: vs bare loop %.2fx (>1), vs trace-cmd report %.1fx (>=10), ", bare / sr, tc / sr
		printf "%d threads vs 1 %.2fx (>=1.6), --ndjson slowdown %+.0f%% (<=30%%)\n", thr, sr1 / sr, (nd / sr - 1) * 100 }'
done
