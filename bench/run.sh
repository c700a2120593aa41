#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Speed and memory of `schedreplay replay` against its anchors, measured side
# by side in one run, median of N runs each:
#   bare-loop          a bare libtracecmd loop reading two fields a record
#   trace-cmd report   trace-cmd report > /dev/null
# and schedreplay's reader alone (bench/ingest-loop: the same two fields,
# on nproc threads, no model, no policies), which tells the bare goal's
# reading from the rest of a replay;
# and against itself: on one thread (--threads 1), with --ndjson, and with
# libtracecmd as its reader (--reader=libtracecmd: how it was before the fast
# reader); all of them run interleaved, each once a round.  First,
# reader-diff checks that the fast reader and libtracecmd agree event for
# event on each file (on 1, 2 and 3 threads, and in batches of 7).
# usage: bench/run.sh [-n RUNS] [-b BUILD_DIR] TRACE.dat...
# Prints, per file: events, then per tool the median wall time, events/s,
# peak RSS, and the ratio of that tool's time to schedreplay's (default);
# then the goals of issue 21, one line each, PASS or FAIL with the figures:
#   bare      a replay, open included, at most half the bare loop's time
#             (with the reader alone's ratio beside it)
#   report    at least 10x faster than trace-cmd report
#   threads   2 threads (or nproc) at least 1.6x one thread
#   ndjson    --ndjson at most 30% slower
# and, over all the files given, memory: the file with the most events
# against the one with the fewest, when it has 10x the events or more, at
# most 1.2x the peak RSS.  `uptime` is printed first and last: the figures
# mean little on a machine others are loading.
# After each file's goals: where its replay's time went in that spell,
# thread by thread, and the ceiling that allowed on the threads goal
# (lib.sh's thread_ceiling, medians of 3 runs each); in a spell whose
# ceiling is below 1.6x, that goal fails whatever the replay does.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
runs=5
build=build
bench_args n:b: "$0 [-n RUNS] [-b BUILD_DIR] TRACE..." "$@"
set -- "${traces[@]}"
sr=$top/$build/schedreplay
bare=$top/$build/bench/bare-loop
loop=$top/$build/bench/ingest-loop
tt=$top/$build/bench/thread-times
[ -x "$sr" ] && [ -x "$bare" ] && [ -x "$loop" ] && [ -x "$tt" ] ||
	{ echo "build first: make (needs $sr, $bare, $loop and $tt)" >&2; exit 2; }
tmp=$(mktemp -d)
# the bare loop and trace-cmd report (libtracefs) mount tracefs when it is
# not mounted: at the end, unmount what they left, under the lock as any
# tracefs use (bench/make-tc-trace.sh does the same)
tfs=/sys/kernel/tracing
premounted=0
grep -q " $tfs tracefs " /proc/mounts && premounted=1
cleanup() {
	rm -rf "$tmp"
	[ $premounted = 1 ] || [ "$(id -u)" -ne 0 ] || flock /tmp/tracefs.lock bash -c \
		"! grep -q ' $tfs tracefs ' /proc/mounts || umount '$tfs'"
}
trap cleanup EXIT

# measure_all: every tool once a round, $runs rounds (this VM's neighbours
# come and go, and a slow spell between two tools' runs would move their
# ratio: each round's runs are seconds apart); fills $tmp/sr, sr1, nd, ltc,
# rd, bare and tc with "wall RSS" lines
measure_all() {
	local i name
	for name in sr sr1 nd ltc rd bare tc; do
		: >"$tmp/$name"
	done
	# the file in the page cache first (this machine's memory reclaim evicts idle pages)
	cat "$f" >/dev/null
	for ((i = 0; i < runs; i++)); do
		time_once "$tmp/sr" "$sr" replay --quiet "$f"
		time_once "$tmp/sr1" "$sr" replay --quiet --threads 1 "$f"
		time_once "$tmp/nd" "$sr" replay --quiet --ndjson /dev/null "$f"
		time_once "$tmp/ltc" "$sr" replay --quiet --reader=libtracecmd "$f"
		time_once "$tmp/rd" "$loop" "$f" "$(nproc)"
		time_once "$tmp/bare" "$bare" "$f"
		time_once "$tmp/tc" trace-cmd report -i "$f"
	done
}

diff_bin=$top/$build/tests/reader-diff
if [ -x "$diff_bin" ]; then
	"$diff_bin" --require-fast "$@" || { echo "the fast reader and libtracecmd differ" >&2; exit 1; }
else
	echo "(no $diff_bin: reader agreement not checked; build with tests)" >&2
fi

echo "uptime: $(uptime)"
: >"$tmp/mem"
printf '%-28s %10s  %-26s %8s %12s %9s %8s\n' file events tool "wall s" "events/s" "RSS MiB" "sr/tool"
for f in "$@"; do
	events=$("$bare" "$f" 2>/dev/null)
	measure_all
	for tool in sr sr1 nd ltc rd bare tc; do
		t=$(median "$tmp/$tool" 1) m=$(median "$tmp/$tool" 2)
		eval "t_$tool=\$t m_$tool=\$m"
		case $tool in
		sr) label="schedreplay replay" ;;
		sr1) label="  --threads 1" ;;
		nd) label="  --ndjson" ;;
		ltc) label="  --reader=libtracecmd" ;;
		rd) label="  its reader alone" ;;
		bare) label="bare libtracecmd" ;;
		tc) label="trace-cmd report" ;;
		esac
		awk -v f="$(basename "$(dirname "$f")")/$(basename "$f")" -v e="$events" -v l="$label" \
			-v t="$t" -v m="$m" -v ts="$t_sr" 'BEGIN {
			if (t <= 0) t = 0.005; if (ts <= 0) ts = 0.005
			printf "%-28s %10d  %-26s %8.3f %12.0f %9.1f %8.2f\n", f, e, l, t, e / t, m / 1024, t / ts }'
	done
	awk -v sr="$t_sr" -v sr1="$t_sr1" -v nd="$t_nd" -v rd="$t_rd" -v bare="$t_bare" -v tc="$t_tc" \
		-v thr="$(nproc)" 'BEGIN {
		if (sr <= 0) sr = 0.005; if (sr1 <= 0) sr1 = 0.005; if (rd <= 0) rd = 0.005
		printf "  goal bare:    %s  replay %.3f s, bare loop %.3f s: %.2fx (>= 2); the reader alone %.3f s: %.2fx\n",
			(bare / sr >= 2 ? "PASS" : "FAIL"), sr, bare, bare / sr, rd, bare / rd
		printf "  goal report:  %s  trace-cmd report %.3f s: %.1fx (>= 10)\n",
			(tc / sr >= 10 ? "PASS" : "FAIL"), tc, tc / sr
		printf "  goal threads: %s  %d threads %.3f s, 1 thread %.3f s: %.2fx (>= 1.6)\n",
			(sr1 / sr >= 1.6 ? "PASS" : "FAIL"), thr, sr, sr1, sr1 / sr
		printf "  goal ndjson:  %s  --ndjson %.3f s: %+.0f%% (<= +30%%)\n",
			(nd / sr - 1 <= 0.3 ? "PASS" : "FAIL"), nd, (nd / sr - 1) * 100 }'
	thread_ceiling "$tt" "$sr" "$f" "$(nproc)" 3
	echo "$events $m_sr $f" >>"$tmp/mem"
done
sort -n "$tmp/mem" | awk 'NR == 1 { e0 = $1; m0 = $2; f0 = $3 } { e1 = $1; m1 = $2; f1 = $3 } END {
	if (NR < 2 || e1 < 10 * e0) {
		printf "memory: n/a (no file with 10x the events of another)\n"; exit }
	printf "memory: %s  %s %d events %.1f MiB, %s %d events %.1f MiB: %.1fx the events in %.2fx the memory (<= 1.2x)\n",
		(m1 / m0 <= 1.2 ? "PASS" : "FAIL"), f0, e0, m0 / 1024, f1, e1, m1 / 1024, e1 / e0, m1 / m0 }'
echo "uptime: $(uptime)"
