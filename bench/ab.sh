#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two builds of schedreplay on one trace, interleaved (old, new, new, old,
# old, new, ...: the order alternates per round) so that this machine's
# drift, and whichever of the two runs first after a pause, hits both alike:
# the median and mean wall time, the median user time and the peak RSS of
# each, from /usr/bin/time.  For a change's before/after figures
# (docs/performance.md); the goals are bench/run.sh's.
# usage: bench/ab.sh OLD_BIN NEW_BIN TRACE RUNS [replay options...]
set -euo pipefail
if [ $# -lt 4 ]; then
	echo "usage: $0 OLD_BIN NEW_BIN TRACE RUNS [replay options...]" >&2
	exit 2
fi
old=$1 new=$2 trace=$3 runs=$4
shift 4
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for ((i = 0; i < runs; i++)); do
	order="old new"
	[ $((i % 2)) = 1 ] && order="new old"
	for side in $order; do
		bin=$old
		[ "$side" = new ] && bin=$new
		/usr/bin/time -f "$side %e %U %M" "$bin" replay "$@" "$trace" 2>&1 >/dev/null |
			grep -E "^$side [0-9.]+ [0-9.]+ [0-9]+$" >>"$out"
	done
done
# the median of column $2 of the lines of side $1
median() {
	awk -v s="$1" -v c="$2" '$1 == s { print $c }' "$out" | sort -n |
		awk '{ a[NR] = $1 } END { print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
for side in new old; do
	awk -v s=$side -v w="$(median $side 2)" -v u="$(median $side 3)" '
	$1 == s { n++; sum += $2; if ($4 > rss) rss = $4 }
	END { printf "%s: wall median %.2f s (mean %.2f), user median %.2f s, peak RSS %d KiB (%d runs)\n",
		s, w, sum / n, u, rss, n }' "$out"
done | sort
