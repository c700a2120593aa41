#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Make a large real trace for bench/run.sh, reproducibly: record a
# scheduler-heavy workload (bench/sched-pingpong: threads passing a token
# through pipes) with the project's own recorder, until the trace holds at
# least EVENTS events, then write the same trace as a compressed v7 file.
# Needs root and tracefs (as `schedreplay record` does).
# With -t, traces the way users record them instead: trace-cmd's full
# headers, a many-task workload, an even and a skewed recording
# (bench/make-tc-trace.sh, which this runs).
# usage: bench/make-trace.sh [-t] [-b BUILD_DIR] [-e EVENTS] OUT_DIR
#   -> OUT_DIR/big-v6.dat (uncompressed, as recorded) and OUT_DIR/big-v7.dat (zstd);
#   with -t: OUT_DIR/tc-{even,skew}-{v6,v7}.dat
set -euo pipefail
build=build
events=5000000
tc=0
while getopts tb:e: opt; do
	case $opt in
	t) tc=1 ;;
	b) build=$OPTARG ;;
	e) events=$OPTARG ;;
	*) echo "usage: $0 [-t] [-b BUILD_DIR] [-e EVENTS] OUT_DIR" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-t] [-b BUILD_DIR] [-e EVENTS] OUT_DIR" >&2; exit 2; }
[ $tc = 0 ] || exec "$(dirname "$0")/make-tc-trace.sh" -b "$build" -e "$events" "$1"
out=$1
top=$(cd "$(dirname "$0")/.." && pwd)
sr=$top/$build/schedreplay
pingpong=$top/$build/bench/sched-pingpong
[ -x "$sr" ] && [ -x "$pingpong" ] || { echo "build first (make)" >&2; exit 2; }
mkdir -p "$out"
# sched-pingpong 4 ROUNDS: about 7 scheduler events per round and thread on
# these machines; aim 50% over the target so lost events do not matter
rounds=$((events * 3 / 2 / 7 / 4))
"$sr" record --quiet --buffer-kb 65536 --sample-ms 0 -o "$out/big-v6.dat" -- \
	"$pingpong" 4 "$rounds"
trace-cmd convert -i "$out/big-v6.dat" --file-version 7 --compression zstd -o "$out/big-v7.dat" \
	>/dev/null 2>&1
for f in "$out/big-v6.dat" "$out/big-v7.dat"; do
	n=$("$sr" info --json --quiet "$f" | jq .events_total)
	echo "$f: $n events, $(du -h "$f" | cut -f1)"
	[ "$n" -ge "$events" ] || { echo "fewer than $events events: raise -e or check lost events" >&2; exit 1; }
done
