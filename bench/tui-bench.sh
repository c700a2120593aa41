#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark of `schedreplay tui` on a report of N decisions (default one
# million), made reproducibly by bench/gen-report.py (seed 1).  Prints:
#   - time to first screen: from starting the browser in a tmux pane until
#     the pane shows the header and the first rows
#   - time to jump top -> bottom: from sending End until the pane shows the
#     last decision selected
#   - time to re-sort by cost delta (s), for scale
# measured on a real terminal (a private tmux server, polled every 10 ms),
# plus the headless time of the same load and first frame.
#
# usage: bench/tui-bench.sh [N]      (SR_BIN: the binary, default build/schedreplay)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-1000000}
bin=${SR_BIN:-$here/../build/schedreplay}
work=${TMPDIR:-/tmp}/sr-tui-bench
report=$work/report-$n.json
sock=sr-tui-bench-$$
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null || true' EXIT
now() { date +%s.%N; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f ms", (b - a) * 1000 }'; }
wait_for() {
	local i
	for i in $(seq 6000); do
		tm capture-pane -p -t b | grep -qF -- "$1" && return 0
		sleep 0.01
	done
	echo "timed out waiting for '$1'" >&2
	tm capture-pane -p -t b >&2
	exit 1
}

mkdir -p "$work"
if [ ! -s "$report" ]; then
	echo "generating $report ($n decisions)..."
	python3 "$here/gen-report.py" "$n" "$report"
fi
echo "report: $report ($(du -h "$report" | cut -f1), $n decisions)"
echo "binary: $bin"

t0=$(now)
"$bin" tui "$report" --headless --frames 1 --dump /dev/null
t1=$(now)
echo "headless load + first frame:   $(ms "$t0" "$t1")"

t0=$(now)
tm new-session -d -s b -x 120 -y 40 "LANG=C.UTF-8 '$bin' tui '$report'; sleep 30"
wait_for "list | 1/$n |"
t1=$(now)
echo "time to first screen:          $(ms "$t0" "$t1")"
t0=$(now)
tm send-keys -t b End
wait_for "list | $n/$n |"
t1=$(now)
echo "time to jump top -> bottom:    $(ms "$t0" "$t1")"
t0=$(now)
tm send-keys -t b s
wait_for "sort cost"
t1=$(now)
echo "time to sort by cost delta:    $(ms "$t0" "$t1")"
tm send-keys -t b q
peak=$(/usr/bin/time -f %M "$bin" tui "$report" --headless --frames 1 --dump /dev/null 2>&1 >/dev/null | tail -1)
echo "peak memory (headless run):    $((peak / 1024)) MiB"
