#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the seed corpus of every fuzz harness from fixtures/ (the real
# capture folders, text renderings, trace.dat copies and seed tables) and the
# small hand-written seeds committed in tests/fuzz/seeds/<target>/.  Nothing here is committed: the
# corpus is generated, so the repository only carries the script.
#
# usage: tests/fuzz/make-corpus.sh [OUTDIR]     (default: build-fuzz/corpus)
# Each harness gets OUTDIR/<target>/; existing files are kept (libFuzzer
# adds its finds there), seeds are (re)written under stable names.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out=${1:-$src/build-fuzz/corpus}
fix=$src/fixtures

mkdir -p "$out"
seed() {	# seed TARGET NAME < data
	mkdir -p "$out/$1"
	cat >"$out/$1/seed-$2"
}
# chunks TARGET PREFIX FILE [BYTES]: a text file cut at line ends into pieces
chunks() {
	local t=$1 p=$2 f=$3 n=${4:-6000} tmp
	[ -f "$f" ] || return 0
	mkdir -p "$out/$t"
	tmp=$(mktemp -d)
	head -c 200000 "$f" | split -C "$n" -d -a 3 - "$tmp/c"
	for c in "$tmp"/c*; do mv "$c" "$out/$t/seed-$p-$(basename "$c")"; done
	rm -rf "$tmp"
}
# header + first lines of a text trace: the header and detection cases
heads() {
	local t=$1 p=$2 f=$3
	[ -f "$f" ] || return 0
	head -n 40 "$f" | seed "$t" "$p-head40"
	head -n 400 "$f" | tail -n 60 | seed "$t" "$p-mid"
}
# committed hand-written seeds and crash regressions
for d in "$here"/seeds/* "$here"/regress/*; do
	[ -d "$d" ] || continue
	t=$(basename "$d")
	mkdir -p "$out/$t"
	for f in "$d"/*; do [ -f "$f" ] && cp "$f" "$out/$t/seed-$(basename "$d")-$(basename "$f")"; done
done

# text decoders
chunks fuzz-tracefs tracefs "$fix/text/tracefs-host.txt"
heads fuzz-tracefs tracefs "$fix/text/tracefs-host.txt"
chunks fuzz-perf perf "$fix/text/perf-host.txt"
heads fuzz-perf perf "$fix/text/perf-host.txt"
head -c 60000 "$fix/text/host-baseline-1n.report.txt" >"$out/.report-head"
chunks fuzz-report baseline "$out/.report-head"
heads fuzz-report baseline "$fix/text/host-baseline-1n.report.txt"
rm -f "$out/.report-head"
if command -v trace-cmd >/dev/null; then
	for d in "$fix"/numa01-4n "$fix"/numa02-2n; do
		[ -f "$d/trace.dat" ] || continue
		trace-cmd report -i "$d/trace.dat" 2>/dev/null | head -n 300 |
			seed fuzz-report "$(basename "$d")" || true
	done
	trace-cmd report -i "$fix/dat/lost-v6.dat" 2>/dev/null | head -n 300 |
		seed fuzz-report lost-v6 || true
fi

# trace.dat: the bundled small files (v6, v7, v7 zstd, lost events)
for f in "$fix"/dat/*.dat; do
	[ -f "$f" ] && seed fuzz-dat "$(basename "$f")" <"$f"
done

# numactl -H, and the same machines as sysfs folders (NUL-separated
# name/cpulist/distance triples, see fuzz-sysfs.c) and as topology JSON
for f in "$fix"/*/numactl-H.txt; do
	[ -f "$f" ] || continue
	n=$(basename "$(dirname "$f")")
	seed fuzz-numactl "$n" <"$f"
done
for f in "$fix"/*/topology.txt; do
	[ -f "$f" ] || continue
	n=$(basename "$(dirname "$f")")
	awk '{ c = ""; d = ""
	       for (i = 2; i <= NF; i++) {
	         if ($i ~ /^cpulist=/) { c = substr($i, 9); }
	         else if ($i ~ /^distance=/) { d = substr($i, 10); k = i + 1
	           while (k <= NF && $k ~ /^[0-9]+$/) { d = d " " $k; k++ } }
	       }
	       printf "%s%c%s\n%c%s\n%c", $1, 0, c, 0, d, 0 }' "$f" | seed fuzz-sysfs "$n"
	awk 'BEGIN { printf "{\n  \"version\": 1,\n  \"nodes\": [\n" }
	     { c = ""; d = ""
	       for (i = 2; i <= NF; i++) {
	         if ($i ~ /^cpulist=/) { c = substr($i, 9); }
	         else if ($i ~ /^distance=/) { d = substr($i, 10); k = i + 1
	           while (k <= NF && $k ~ /^[0-9]+$/) { d = d ", " $k; k++ } }
	       }
	       id = substr($1, 5)
	       sep = (NR > 1) ? ",\n" : ""
	       printf "%s    { \"id\": %s, \"cpus\": \"%s\", \"distance\": [%s] }", sep, id, c, d }
	     END { printf "\n  ]\n}\n" }' "$f" | seed fuzz-topo-json "$n"
done
if [ -d /sys/devices/system/node/node0 ]; then
	for d in /sys/devices/system/node/node[0-9]*; do
		printf '%s\0%s\n\0%s\n\0' "$(basename "$d")" "$(cat "$d/cpulist")" "$(cat "$d/distance")"
	done | seed fuzz-sysfs host
fi
sed -n '/^```json/,/^```/p' "$src/docs/topology.md" | sed '1d;$d' | seed fuzz-topo-json doc

# marker lines: every line of ours in the traces' text and the samples
for f in "$fix/text/tracefs-host.txt" "$fix/text/perf-host.txt"; do
	grep -o -E '(schedreplay_[a-z]+|numa_sample) .*' "$f" | head -n 40 |
		seed fuzz-marker "$(basename "$f" .txt)" || true
done
for f in "$fix"/*/samples.txt; do
	[ -f "$f" ] || continue
	head -n 20 "$f" | seed fuzz-marker "samples-$(basename "$(dirname "$f")")"
done

# lines written against the marker table (fuzz-marker.c): a first byte
# 0xf0 + k picks kind 1 + k, a byte 0x80 + i writes " KEY=" for its key i,
# so every kind of src/ingest/marker-format.c, new ones too, gets seeds
for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23; do
		printf "\\x$(printf %x $((0xf0 + k)))\\x$(printf %x $((0x80 + i)))%d\\x$(printf %x $((0x81 + i)))0-3\n" "$i"
	done | seed fuzz-marker "table-kind$k"
done

# compare: number lists, column tables, summary tables, replay reports
for f in "$fix"/compare/*.txt; do
	seed fuzz-compare-text "$(basename "$f")" <"$f"
done
{ cat "$fix/compare/numbers-base.txt"; echo '%%'; cat "$fix/compare/numbers-new.txt"; } |
	seed fuzz-compare-text numbers-pair
{ cat "$fix/compare/runs-base.txt"; echo '%%'; cat "$fix/compare/runs-new.txt"; } |
	seed fuzz-compare-text runs-pair
# the benchmark outputs as base/new pairs (perf bench, perf stat, hackbench)
for a in "$fix"/compare/*-a.txt; do
	b=${a%-a.txt}-b.txt
	[ -f "$b" ] || continue
	{ cat "$a"; echo '%%'; cat "$b"; } | seed fuzz-compare-text "pair-$(basename "${a%-a.txt}")"
done
for f in "$fix"/compare/*.json; do
	seed fuzz-compare-report "$(basename "$f")" <"$f"
done
for i in 1 2 3; do
	{ cat "$fix/compare/report-base-$i.json"; echo '%%'; cat "$fix/compare/report-new-$i.json"; } |
		seed fuzz-compare-report "pair-$i"
done
if [ -x "${SR_BIN:-$src/build/schedreplay}" ]; then
	"${SR_BIN:-$src/build/schedreplay}" replay --quiet --json - "$fix/dat/numa02-head-v7.dat" \
		2>/dev/null | head -c 60000 | seed fuzz-compare-report replay-numa02-head || true
fi

# saved replay reports, as the browser reads them back
if [ -x "${SR_BIN:-$src/build/schedreplay}" ]; then
	for f in "$fix/dat/numa02-head-v7.dat" "$fix/text/hostile-comms.txt" "$fix/dat/lost-v6.dat"; do
		"${SR_BIN:-$src/build/schedreplay}" replay --quiet --json - "$f" 2>/dev/null |
			head -c 200000 | seed fuzz-tui-json "$(basename "$f")" || true
	done
fi
for f in "$fix"/compare/report-*.json; do
	seed fuzz-tui-json "$(basename "$f")" <"$f"
done

# plugin ops tables: binary, see the layout in fuzz-plugin-ops.c
python3 "$here/make-ops-seeds.py" "$out/fuzz-plugin-ops"

for d in "$out"/*/; do
	printf '%-22s %5d files %8d bytes\n' "$(basename "$d")" "$(find "$d" -type f | wc -l)" \
		"$(cat "$d"/* 2>/dev/null | wc -c)"
done
