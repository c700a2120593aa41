#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The replay against the kernel that recorded each trace, one table:
# per class the decisions, how many the kernel model judged (answered) and
# reproduced (allowed a move the kernel made; for numa-stick, refused a move
# it refused), pooled over the traces; lb-active against the kernel's
# alb_pushed and lb-pull against lb_gained (schedstat-delta.txt); the
# calibration, estimated against measured local share.
#
#   tests/e2e/fidelity-table.sh [SCHEDREPLAY [TRACE...]]
#
# Defaults: build/schedreplay and the NUMA capture fixtures in fixtures/.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$here/build/schedreplay}
[ $# -gt 0 ] && shift
if [ $# -eq 0 ]; then
	set -- "$here"/fixtures/{numa01-4n,numa01-shm-4n,numa02-2n,mixed-2n}
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

i=0
for t in "$@"; do
	"$bin" replay --quiet --json "$tmp/$i.json" "$t" >/dev/null
	i=$((i + 1))
done

pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%5.1f%%", 100 * a / b; else printf "    -" }'; }

printf '%-14s %-11s %-11s %9s %8s %7s %10s %7s\n' trace class policy decisions judged "" reproduced ""
i=0
for t in "$@"; do
	name=$(basename "$t")
	jq -r '.summary.fidelity | to_entries[] |
		"\(.key) \(.value.policy) \(.value.decisions) \(.value.judged) \(.value.reproduced)"' \
		"$tmp/$i.json" | while read -r cls pol n j r; do
		printf '%-14s %-11s %-11s %9d %8d %7s %10d %7s\n' "$name" "$cls" "$pol" "$n" "$j" \
			"$(pct "$j" "$n")" "$r" "$(pct "$r" "$n")"
		echo "$cls $pol $n $j $r" >>"$tmp/pool"
	done
	i=$((i + 1))
done
sort "$tmp/pool" | awk '{ k = $1 " " $2; n[k] += $3; j[k] += $4; r[k] += $5 }
	END { for (k in n) print k, n[k], j[k], r[k] }' | sort | while read -r cls pol n j r; do
	printf '%-14s %-11s %-11s %9d %8d %7s %10d %7s\n' pooled "$cls" "$pol" "$n" "$j" \
		"$(pct "$j" "$n")" "$r" "$(pct "$r" "$n")"
done

echo
printf '%-14s %10s %11s %10s %10s %10s %10s %8s\n' trace lb-active alb_pushed lb-pull lb_gained \
	measured estimated diff
i=0
for t in "$@"; do
	jq -r --arg n "$(basename "$t")" '.summary as $s | $s.cost.calibration as $c |
		[$n,
		 ($s.by_class["lb-active"] // 0), ($s.kernel_counters["lb-active"].kernel // "-"),
		 ($s.by_class["lb-pull"] // 0), ($s.kernel_counters["lb-pull"].kernel // "-"),
		 (if $c.measured_local_share == null then "-" else ($c.measured_local_share * 1000 | round / 10 | tostring) + "%" end),
		 (if $c.estimated_local_share == null then "-" else ($c.estimated_local_share * 1000 | round / 10 | tostring) + "%" end),
		 (if $c.difference == null then "-" else ($c.difference * 1000 | round / 10 | tostring) end)] |
		@tsv' "$tmp/$i.json" |
		awk -F'\t' '{ printf "%-14s %10s %11s %10s %10s %10s %10s %8s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
	i=$((i + 1))
done
