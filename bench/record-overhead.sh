#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# How much recording slows a scheduler-heavy workload, side by side: the
# workload RUNS times each alone, under `schedreplay record` (with its
# decision probes, the default, and with --no-probes), and under
# `perf record -a` with the same tracepoints, interleaved (alone, with
# probes, without, perf, alone, ...) to spread the machine's drift; prints
# the medians, each as a multiple of the bare run's wall time, and the
# events, bytes and events per second of the recorder's last file.  The
# goal (issue 21): the recorder at most 1.25x the bare run.
#
#   bench/record-overhead.sh [BUILD_DIR] [RUNS]      (as root; defaults build, 5)
#
# Workload: `perf bench sched messaging -t` (hackbench with threads) when
# perf is installed, else bench/sched-pingpong (4 pairs of threads passing
# a byte through pipes).  SR_WORKLOAD="cmd args" overrides both.  The
# recorder runs with --no-latency and --sample-ms 0 (its memory latency
# profile takes 2 s before recording; it is not what is measured here).
# Every run that uses tracefs holds /tmp/tracefs.lock (flock), as the
# other users of this host's tracefs do.
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
# perf mounts tracefs itself when it is not: leave the host as it was found
TRACEFS=/sys/kernel/tracing
was_mounted=0
mountpoint -q "$TRACEFS" && was_mounted=1
cleanup() {
	rm -rf "$T"
	if [ "$was_mounted" = 0 ] && mountpoint -q "$TRACEFS"; then
		umount "$TRACEFS" || true
	fi
}
trap cleanup EXIT
LOCK=/tmp/tracefs.lock
# the recorder's tracepoints (src/record/record.c), for perf record
PERF_EV=()
for e in sched_migrate_task sched_move_numa sched_swap_numa sched_stick_numa sched_switch \
	sched_waking sched_wakeup sched_wakeup_new sched_process_fork sched_process_exec \
	sched_process_exit; do
	PERF_EV+=(-e "sched:$e")
done
PERF_EV+=(-e migrate:mm_migrate_pages)
have_perf=0
perf record -a -o "$T/p.data" "${PERF_EV[@]}" -- true >/dev/null 2>&1 && have_perf=1

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.6f\", $* }"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# timed NAME CMD...: append CMD's wall seconds to $T/NAME
timed() {
	local name=$1 t0 t1
	shift
	t0=$(now)
	"$@" >/dev/null 2>&1 || true
	t1=$(now)
	{ calc "$t1 - $t0"; echo; } >>"$T/$name"
}

echo "workload: ${WL[*]}"
echo "uptime: $(uptime)"
"${WL[@]}" >/dev/null 2>&1	# warm-up
for i in $(seq "$RUNS"); do
	timed base "${WL[@]}"
	timed probes flock "$LOCK" "$SR" record -q --no-latency --sample-ms 0 -o "$T/r.dat" -- "${WL[@]}"
	timed noprobes flock "$LOCK" "$SR" record -q --no-latency --sample-ms 0 --no-probes \
		-o "$T/n.dat" -- "${WL[@]}"
	[ $have_perf = 0 ] || timed perf flock "$LOCK" perf record -q -a -o "$T/p.data" "${PERF_EV[@]}" \
		-- "${WL[@]}"
done
base=$(median <"$T/base")
printf 'runs:                          %d each, interleaved\n' "$RUNS"
printf 'alone:                         %.3f s (median)\n' "$base"
for n in probes noprobes perf; do
	[ -s "$T/$n" ] || { echo "$n: not run (perf record -a fails here)"; continue; }
	t=$(median <"$T/$n")
	case $n in
	probes) label="schedreplay record:" ;;
	noprobes) label="schedreplay record --no-probes:" ;;
	perf) label="perf record -a (same events):" ;;
	esac
	printf '%-31s %.3f s  %.2fx alone%s\n' "$label" "$t" "$(calc "$t / $base")" \
		"$([ $n = perf ] || awk -v r="$(calc "$t / $base")" 'BEGIN { printf "  (goal <= 1.25x: %s)", (r <= 1.25 ? "PASS" : "FAIL") }')"
done
for f in r n; do
	size=$(stat -c %s "$T/$f.dat")
	read -r events lost < <("$SR" info --json --quiet "$T/$f.dat" | jq -r '"\(.events_total) \(.lost_events.total)"')
	printf 'last file (%s): %d bytes, %d events, %d lost, %.0f bytes/event\n' \
		"$([ $f = r ] || echo no-probes)$([ $f = r ] && echo probes)" "$size" "$events" "$lost" \
		"$(calc "$size / ($events > 0 ? $events : 1)")"
done
echo "uptime: $(uptime)"
