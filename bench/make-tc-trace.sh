#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Make traces the way users record them with trace-cmd, for bench/run.sh:
# the whole "sched" event system enabled through tracefs, a busy many-task
# workload (`perf bench sched messaging`: 800 threads passing messages
# through sockets, beside bench/sched-pingpong's 8 pairs of threads passing
# a byte through pipes, which make most of the events), saved with `trace-cmd extract`, so the file
# has trace-cmd's full headers: every event format of every system,
# /proc/kallsyms and the printk formats.  (`trace-cmd record` itself needs
# a working splice on this host's tracefs; extract reads the buffers after
# the run.)  Two recordings:
#   tc-even-v7.dat, tc-even-v6.dat  messaging on every CPU, the pairs of
#                                   threads shared out evenly (taskset)
#   tc-skew-v7.dat, tc-skew-v6.dat  the workload pinned to CPU 0 (taskset):
#                                   nearly all events on one CPU
# trace-cmd 3.x writes v7 (zstd when built with it); the v6 files are the
# same traces through `trace-cmd convert --file-version 6`.
# Every tracefs use holds /tmp/tracefs.lock (flock), as other users of this
# host's tracefs do; tracing is left as found: tracing_on 1, events off,
# the buffer size as it was, tracefs unmounted again if it was not mounted
# (also after trace-cmd convert and the bare loop, which mount it).
# Needs root.
# usage: bench/make-tc-trace.sh [-b BUILD_DIR] [-e EVENTS] OUT_DIR
set -euo pipefail
events=5000000
build=build
while getopts b:e: opt; do
	case $opt in
	b) build=$OPTARG ;;
	e) events=$OPTARG ;;
	*) echo "usage: $0 [-b BUILD_DIR] [-e EVENTS] OUT_DIR" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-b BUILD_DIR] [-e EVENTS] OUT_DIR" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "$0: needs root (tracefs)" >&2; exit 2; }
command -v trace-cmd >/dev/null && command -v perf >/dev/null ||
	{ echo "$0: needs trace-cmd and perf" >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
pingpong=$top/$build/bench/sched-pingpong
bare=$top/$build/bench/bare-loop
[ -x "$pingpong" ] && [ -x "$bare" ] || { echo "build first (make)" >&2; exit 2; }
tfs=/sys/kernel/tracing
premounted=0
grep -q " $tfs tracefs " /proc/mounts && premounted=1
# trace-cmd convert and the bare loop (libtracefs) mount tracefs when it is
# not mounted: at the end, unmount what they left, under the lock as any
# tracefs use
unmount_left() {
	[ $premounted = 1 ] || flock /tmp/tracefs.lock bash -c \
		"! grep -q ' $tfs tracefs ' /proc/mounts || umount '$tfs'"
}
trap unmount_left EXIT

# record NAME even|skew: one recording into $out/NAME-v7.dat
record() {
	local name=$1 how=$2 mounted=0 kb cpu n rounds
	n=$(nproc)
	if ! grep -q " $tfs tracefs " /proc/mounts; then
		mount -t tracefs nodev "$tfs"
		mounted=1
	fi
	kb=$(cut -d' ' -f1 "$tfs/buffer_size_kb")	# "7 (expanded: 1408)": never expanded
	[ "$kb" -gt 64 ] || kb=$(sed -n 's/.*expanded: \([0-9]*\).*/\1/p' "$tfs/buffer_size_kb")
	# about 60 bytes of ring buffer an event; room for all of them on one CPU
	echo $((events * 90 / 1024 * 3 / 2)) >"$tfs/buffer_size_kb"
	echo >"$tfs/trace"
	echo 1 >"$tfs/events/sched/enable"
	echo 1 >"$tfs/tracing_on"
	# sched-pingpong 8 ROUNDS: about 9 events a round and pair (measured
	# here); 20% over the target
	rounds=$((events * 6 / 5 / 9 / 8))
	if [ "$how" = skew ]; then
		taskset -c 0 perf bench sched messaging -t -g 20 -l 100 >/dev/null 2>&1 &
		taskset -c 0 "$pingpong" 8 "$rounds" >/dev/null &
	else
		perf bench sched messaging -t -g 20 -l 100 >/dev/null 2>&1 &
		for ((cpu = 0; cpu < n; cpu++)); do
			taskset -c "$cpu" "$pingpong" $(((8 + n - 1) / n)) "$rounds" >/dev/null &
		done
	fi
	wait
	echo 0 >"$tfs/events/sched/enable"
	(cd "$out" && trace-cmd extract -o "$name-v7.dat" >/dev/null 2>&1)
	echo 1 >"$tfs/tracing_on"	# extract switches it off
	echo >"$tfs/trace"
	echo "$kb" >"$tfs/buffer_size_kb"
	[ $mounted = 0 ] || umount "$tfs"
}
export -f record
export events out tfs pingpong
flock /tmp/tracefs.lock bash -c "record tc-even even; record tc-skew skew"
for n in tc-even tc-skew; do
	trace-cmd convert -i "$out/$n-v7.dat" --file-version 6 -o "$out/$n-v6.dat" >/dev/null 2>&1
	for f in "$out/$n-v7.dat" "$out/$n-v6.dat"; do
		c=$("$bare" "$f" 2>/dev/null)
		echo "$f: $c events, $(du -h "$f" | cut -f1)"
		[ "$c" -ge "$events" ] || { echo "$f: fewer than $events events" >&2; exit 1; }
	done
done
