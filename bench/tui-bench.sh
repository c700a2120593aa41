#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark of `schedreplay tui` on a report of N decisions (default one
# million), side by side with `less` opening the same file.  The report is
# a real replay repeated: `schedreplay replay --json` of the bundled trace
# fixtures/numa01-4n, whose 769 decisions bench/gen-report.py repeats until
# there are N.  Each program runs in a pane of a private tmux server (polled
# every 10 ms); RUNS runs (default 5), the median of each figure printed:
#   first screen   start -> the pane shows the first rows (tui: the status
#                  line "list | 1/", disagreements under the header; less:
#                  the first line of the file)
#   whole index    start -> the tui's status line no longer says "indexing"
#   to the end     End (tui) or G (less) -> the last row shown
#   filter         d -> every decision (the opening filter off)
#   sort           s -> "sort cost" (the whole list by |cost delta|)
#   filter         o -> cpu-unseen only, on the sorted list
#   peak RSS       VmHWM of the process once all the above is done
# and the machine's load (uptime) before and after, since the figures
# depend on it.
#
# usage: bench/tui-bench.sh [N]   (SR_BIN: the binary, default build/schedreplay;
#                                  RUNS: runs per figure, default 5)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-1000000}
runs=${RUNS:-5}
bin=${SR_BIN:-$here/../build/schedreplay}
work=${TMPDIR:-/tmp}/sr-tui-bench
report=$work/report-$n.json
sock=sr-tui-bench-$$
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null || true' EXIT
now() { date +%s.%N; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
# wait_for PANE TEXT [absent]: until the pane shows TEXT (or no longer does)
wait_for() {
	local i
	for i in $(seq 12000); do
		if tm capture-pane -p -t "$1" | grep -qF -- "$2"; then
			[ "${3:-}" = absent ] || return 0
		else
			[ "${3:-}" = absent ] && return 0
		fi
		sleep 0.01
	done
	echo "timed out waiting for '$2' ${3:-} in pane $1" >&2
	tm capture-pane -p -t "$1" >&2
	exit 1
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
# timed FIG SESSION KEYS WANT: send KEYS, wait for WANT on the screen, add the ms to fig[FIG]
timed() {
	local t0 t1
	t0=$(now)
	tm send-keys -t "$2" $3
	wait_for "$2" "$4"
	t1=$(now)
	fig[$1]+="$(ms "$t0" "$t1") "
}
hwm() { awk '/VmHWM/ { printf "%d", $2 / 1024 }' "/proc/$1/status"; }

mkdir -p "$work"
if [ ! -s "$report" ]; then
	src=$work/numa01-4n.json
	"$bin" replay --quiet "$here/../fixtures/numa01-4n" --json "$src" >/dev/null
	echo "generating $report ($n decisions of the replay of fixtures/numa01-4n)..."
	python3 "$here/gen-report.py" "$n" "$report" --from "$src"
fi
echo "report: $report ($(du -h "$report" | cut -f1), $n decisions)"
echo "binary: $bin"
echo "load before: $(uptime)"
cat "$report" >/dev/null	# both programs start with the file in the page cache

declare -A fig
for r in $(seq "$runs"); do
	# schedreplay tui
	t0=$(now)
	tm new-session -d -s t -x 120 -y 40 \
		"echo \$\$ >'$work/pid'; LANG=C.UTF-8 exec '$bin' tui '$report'"
	wait_for t "list | 1/"
	t1=$(now)
	fig[tui_first]+="$(ms "$t0" "$t1") "
	wait_for t "indexing" absent
	t1=$(now)
	fig[tui_index]+="$(ms "$t0" "$t1") "
	timed tui_filter t d "filter none"
	timed tui_sort t s "sort cost"
	timed tui_filter2 t o "filter cpu-unseen"
	tm send-keys -t t o s s
	wait_for t "sort time"
	timed tui_end t End "list | $n/$n |"
	fig[tui_rss]+="$(hwm "$(cat "$work/pid")") "
	tm send-keys -t t q
	sleep 0.2
	tm kill-server 2>/dev/null || true

	# less, the same file
	t0=$(now)
	tm new-session -d -s l -x 120 -y 40 "echo \$\$ >'$work/pid'; exec less '$report'"
	wait_for l '{"assumptions"'
	t1=$(now)
	fig[less_first]+="$(ms "$t0" "$t1") "
	timed less_end l G '"trace":'
	fig[less_rss]+="$(hwm "$(cat "$work/pid")") "
	tm send-keys -t l q
	sleep 0.2
	tm kill-server 2>/dev/null || true
done

med() { printf '%s\n' ${fig[$1]} | median; }
echo "median of $runs runs (each run's figures: tui first screen ${fig[tui_first]}ms)"
printf '%-34s %12s %12s\n' "" "tui" "less"
printf '%-34s %9s ms %9s ms\n' "first screen" "$(med tui_first)" "$(med less_first)"
printf '%-34s %9s ms %12s\n' "whole index (status: indexing done)" "$(med tui_index)" "-"
printf '%-34s %9s ms %9s ms\n' "to the end (End / G)" "$(med tui_end)" "$(med less_end)"
printf '%-34s %9s ms %12s\n' "filter off: every decision (d)" "$(med tui_filter)" "-"
printf '%-34s %9s ms %12s\n' "sort all by |cost delta| (s)" "$(med tui_sort)" "-"
printf '%-34s %9s ms %12s\n' "filter cpu-unseen (o)" "$(med tui_filter2)" "-"
printf '%-34s %8s MiB %8s MiB\n' "peak RSS (VmHWM)" "$(med tui_rss)" "$(med less_rss)"
echo "load after: $(uptime)"
