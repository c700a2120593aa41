#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# How much `schedreplay record` slows a scheduler-heavy workload: the
# workload runs RUNS times alone and RUNS times under the recorder
# (alternating, to spread drift), and the script prints the medians, the
# slowdown, the events per second and the bytes per second of trace.dat.
#
#   bench/record-overhead.sh [BUILD_DIR] [RUNS]      (as root; defaults build, 5)
#
# Workload: `perf bench sched messaging -t` (hackbench with threads) when
# perf is installed, else bench/sched-pingpong (4 pairs of threads passing
# a byte through pipes).  SR_WORKLOAD="cmd args" overrides both.
set -eu
BUILD=${1:-build}
RUNS=${2:-5}
SR=$BUILD/schedreplay
[ "$(id -u)" -eq 0 ] || { echo "record-overhead: needs root (the recorder does)" >&2; exit 2; }
[ -x "$SR" ] || { echo "record-overhead: build $SR first" >&2; exit 2; }
if [ -n "${SR_WORKLOAD:-}" ]; then
	read -r -a WL <<<"$SR_WORKLOAD"
elif command -v perf >/dev/null && perf bench sched messaging -t -g 1 -l 1 >/dev/null 2>&1; then
	WL=(perf bench sched messaging -t -g 4 -l 400)
else
	WL=("$BUILD/bench/sched-pingpong" 4 40000)
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.6f\", $* }"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "workload: ${WL[*]}"
"${WL[@]}" >/dev/null 2>&1	# warm-up
for i in $(seq "$RUNS"); do
	t0=$(now); "${WL[@]}" >/dev/null 2>&1; t1=$(now)
	{ calc "$t1 - $t0"; echo; } >>"$T/base"
	t0=$(now); "$SR" record -q -o "$T/r.dat" -- "${WL[@]}" >/dev/null 2>&1; t1=$(now)
	{ calc "$t1 - $t0"; echo; } >>"$T/rec"
	size=$(stat -c %s "$T/r.dat")
	events=$("$SR" info --json --quiet "$T/r.dat" | jq .events_total)
	lost=$("$SR" info --json --quiet "$T/r.dat" | jq .lost_events.total)
	echo "$size $events $lost" >>"$T/files"
done
base=$(median <"$T/base")
rec=$(median <"$T/rec")
read -r size events lost < <(tail -1 "$T/files")
printf 'runs:           %d each\n' "$RUNS"
printf 'without:        %.3f s (median)\n' "$base"
printf 'with recorder:  %.3f s (median, includes start and writing the file)\n' "$rec"
printf 'slowdown:       %.1f %%\n' "$(calc "($rec / $base - 1) * 100")"
printf 'last file:      %d bytes, %d events, %d lost; %.0f events/s, %.0f KiB/s, %.0f bytes/event\n' \
	"$size" "$events" "$lost" "$(calc "$events / $rec")" \
	"$(calc "$size / $rec / 1024")" "$(calc "$size / $events")"
