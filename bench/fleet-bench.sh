#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fleet figures for docs/fleet.md: replay every bundled trace (the capture
# folders and .dat files in fixtures/, and in the folders SR_EXTRA_TRACES
# names, colon-separated; each once by content) into flat rows with
# the worker pool, load them into a private clickhouse-server on loopback
# (tests/e2e/clickhouse-lib.sh), and time the load and each documented
# query (median of RUNS).  The rows are loaded COPIES times (trace_id made
# distinct per copy) to see the load rate on more than a few thousand rows.
#
#   bench/fleet-bench.sh [BUILD_DIR] [RUNS] [COPIES]      (defaults build, 5, 1)
set -eu
BUILD=${1:-build}
RUNS=${2:-5}
COPIES=${3:-1}
SR_SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd)
SR=$BUILD/schedreplay
[ -x "$SR" ] || { echo "fleet-bench: build $SR first" >&2; exit 2; }
command -v clickhouse-server >/dev/null || { echo "fleet-bench: needs clickhouse-server (make deps)" >&2; exit 2; }
T=$(mktemp -d)
. "$SR_SOURCE_DIR/tests/e2e/clickhouse-lib.sh"
trap 'ch_stop; rm -rf "$T"' EXIT

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

traces=()
seen=
IFS=: read -r -a dirs <<<"$SR_SOURCE_DIR/fixtures${SR_EXTRA_TRACES:+:$SR_EXTRA_TRACES}"
while IFS= read -r t; do
	[ -f "$t" ] || continue
	sum=$(sha256sum <"$t" | cut -c1-64)
	case " $seen " in *" $sum "*) continue ;; esac
	seen="$seen $sum"
	traces+=("$t")
done < <(for d in "${dirs[@]}"; do printf '%s\n' "$d"/*/trace.dat "$d"/*.dat; done)
echo "traces: ${#traces[@]}, $(du -cb "${traces[@]}" | tail -1 | cut -f1) bytes"

t0=$(now)
"$SR" replay --quiet --ndjson-format flat --ndjson "$T/rows.ndjson" --label group=bench "${traces[@]}" >/dev/null
rt=$(since "$t0")
rows=$(wc -l <"$T/rows.ndjson")
echo "replay (worker pool, $(nproc) cpus): $rows rows, $(du -b "$T/rows.ndjson" | cut -f1) bytes in $rt s"
for c in $(seq 2 "$COPIES"); do
	sed "s/\"trace_id\":\"\([0-9a-f]*\)\"/\"trace_id\":\"\1-$c\"/" "$T/rows.ndjson" >>"$T/rows-x.ndjson"
done
[ -f "$T/rows-x.ndjson" ] && cat "$T/rows-x.ndjson" >>"$T/rows.ndjson"
rows=$(wc -l <"$T/rows.ndjson")

t0=$(now)
ch_start || { echo "fleet-bench: clickhouse-server did not start" >&2; exit 1; }
echo "server start: $(since "$t0") s"
chq --query "CREATE DATABASE sr"
doc_block fleet-ddl | chq --multiquery
doc_block fleet-ddl-distributed | chq --multiquery

t0=$(now)
chq --query "INSERT INTO sr.decisions FORMAT JSONEachRow" <"$T/rows.ndjson"
lt=$(since "$t0")
echo "load: $rows rows in $lt s = $(awk -v r="$rows" -v t="$lt" 'BEGIN { printf "%.0f", r / t }') rows/s" \
	"(clickhouse-client --query \"INSERT INTO sr.decisions FORMAT JSONEachRow\" < rows.ndjson)"
echo "table on disk: $(chq --query "SELECT sum(bytes_on_disk) FROM system.parts WHERE database = 'sr' AND active") bytes"

for q in $(grep -o '<!-- fleet-query: [a-z-]* -->' "$SR_SOURCE_DIR/docs/fleet.md" | awk '{ print $3 }'); do
	for table in sr.decisions sr.decisions_all; do
		doc_block "fleet-query: $q" | sed "s/sr\.decisions\b/$table/g" >"$T/q.sql"
		: >"$T/times"
		for _ in $(seq "$RUNS"); do
			t0=$(now)
			chq --multiquery <"$T/q.sql" >/dev/null
			since "$t0" >>"$T/times"
			echo >>"$T/times"
		done
		printf 'query %-26s %-17s median %s s of %s (client round trip included)\n' "$q" "$table" \
			"$(grep . "$T/times" | median)" "$RUNS"
	done
done
