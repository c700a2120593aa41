#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/fleet.md, tested as written: start a private clickhouse-server on
# loopback (config, data and logs in a temp dir; a free port), create the
# table from the DDL in docs/fleet.md, load the flat rows of every bundled
# trace, run every documented query (also through the Distributed table
# over a one-shard cluster) and check the answers against the same figures
# computed with jq from each trace's JSON report.  Exit 77 (skip) only when
# ClickHouse cannot be installed or started.
. "$(dirname "$0")/lib.sh"
DOC=$SR_SOURCE_DIR/docs/fleet.md

skip() {
	echo "SKIP: $*"
	exit 77
}

if ! command -v clickhouse-server >/dev/null || ! command -v clickhouse-client >/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
			clickhouse-server clickhouse-client >"$T/apt.log" 2>&1 ||
			skip "cannot install clickhouse-server: $(tail -2 "$T/apt.log")"
	fi
	command -v clickhouse-server >/dev/null || skip "clickhouse-server is not installed"
	command -v clickhouse-client >/dev/null || skip "clickhouse-client is not installed"
fi

# ---- a private server ------------------------------------------------------
. "$(dirname "$0")/clickhouse-lib.sh"
trap 'ch_stop; rm -rf "$T"' EXIT
ch_start || skip "clickhouse-server did not start: $(tail -3 "$CH/log/stdout" "$CH/log/error.log" 2>/dev/null)"
ok "clickhouse-server $(chq --query 'SELECT version()') on 127.0.0.1:$PORT"

# ---- the documented DDL and queries --------------------------------------------
doc_block fleet-ddl >"$T/ddl.sql"
check "docs/fleet.md has the DDL" grep -q "ENGINE = MergeTree" "$T/ddl.sql"
chq --query "CREATE DATABASE IF NOT EXISTS sr" &&
	chq --multiquery <"$T/ddl.sql" && ok "the documented CREATE TABLE runs" ||
	fail "the documented CREATE TABLE runs"
doc_block fleet-ddl-distributed >"$T/ddl-dist.sql"
chq --multiquery <"$T/ddl-dist.sql" && ok "the documented Distributed table runs" ||
	fail "the documented Distributed table runs"

# ---- every bundled trace, once (by content) -------------------------------------
traces=()
while IFS= read -r t; do
	sum=$(sha256sum <"$t" | cut -c1-64)
	case " ${seen:-} " in *" $sum "*) continue ;; esac
	seen="${seen:-} $sum"
	traces+=("$t")
done < <(fixture_traces; extra_traces)
check "every fixture trace (${#traces[@]})" test "${#traces[@]}" -ge 6

: >"$T/rows.ndjson"
: >"$T/facts.ndjson"
i=0
for t in "${traces[@]}"; do
	dir=$(dirname "$t")
	group=$([ $((i % 2)) = 0 ] && echo stable || echo canary)
	day=$(printf '2024-01-%02d' $((i / 2 + 1)))
	args=()
	if [ -f "$dir/uname.txt" ]; then
		host=$(awk '{ print $2 }' "$dir/uname.txt")
		[ "$host" = "(none)" ] && host=unknown
		src=$dir
	else
		host=host-$i
		args=(--host "$host")
		src=$t
	fi
	if "$SR_BIN" replay --quiet --ndjson-format flat --ndjson "$T/rows-$i.ndjson" --json "$T/rep-$i.json" \
		--label group="$group" --label idx="$i" --recorded-at "$day" "${args[@]}" "$src" >/dev/null; then
		ok "replay $src"
	else
		fail "replay $src"
	fi
	cat "$T/rows-$i.ndjson" >>"$T/rows.ndjson"
	jq -c --arg g "$group" --arg d "$day" --arg h "$host" \
		'{group: $g, day: $d, host: $h, kernel: (.trace.kernel_release // "unknown"),
		  classes: .summary.classes, totals: .summary.cost.totals,
		  decisions: [.decisions[] | {class, comm, disagree, unknown, dw: .cost.delta.weighted,
		    ow: .cost.old.weighted, nw: .cost.new.weighted,
		    orem: .cost.old.remote_accesses, nrem: .cost.new.remote_accesses}]}' \
		"$T/rep-$i.json" >>"$T/facts.ndjson"
	i=$((i + 1))
done
ROWS=$(wc -l <"$T/rows.ndjson")
start=$(date +%s.%N)
if chq --query "INSERT INTO sr.decisions FORMAT JSONEachRow" <"$T/rows.ndjson"; then
	ok "load $ROWS rows ($(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }') s)"
else
	fail "load $ROWS rows"
fi
check "every row is in the table" test "$(chq --query 'SELECT count() FROM sr.decisions')" = "$ROWS"
check "one trace_id per trace" test "$(chq --query 'SELECT uniqExact(trace_id) FROM sr.decisions')" = "${#traces[@]}"
check "row_version 2 throughout" test "$(chq --query 'SELECT groupUniqArray(row_version) FROM sr.decisions')" = "[2]"

# ---- each query against what the JSON reports say -------------------------------
# query output and the jq figures, as TSV; numbers compare within a tolerance
as_tsv() {
	jq -r '[.[] | if type == "number" then . else tostring end] | map(tostring) | @tsv'
}
run_query() {
	local name=$1 table=${2:-sr.decisions}
	doc_block "fleet-query: $name" | sed "s/sr\.decisions\b/$table/g" >"$T/q-$name.sql"
	[ -s "$T/q-$name.sql" ] || { echo "no query '$name' in docs/fleet.md" >&2; return 1; }
	chq --format JSONEachRow --output_format_json_quote_64bit_integers=0 \
		--multiquery <"$T/q-$name.sql" | jq -c 'to_entries | map(.value)' | as_tsv
}
# same_tsv EXPECTED ACTUAL TOL: same lines, fields equal or numbers within TOL
same_tsv() {
	awk -F'\t' -v tol="$3" '
		NR == FNR { e[FNR] = $0; ne = FNR; next }
		{ na = FNR; if (!(FNR in e)) { bad = 1; print "extra: " $0; next }
		  n = split(e[FNR], x, "\t")
		  if (n != NF) { bad = 1; print "want: " e[FNR] "\n got: " $0; next }
		  for (k = 1; k <= n; k++) {
			if (x[k] == $k) continue
			if (x[k] ~ /^-?[0-9.e+-]+$/ && $k ~ /^-?[0-9.e+-]+$/ &&
			    (x[k] - $k <= tol && $k - x[k] <= tol)) continue
			bad = 1; print "want: " e[FNR] "\n got: " $0; break
		  } }
		END { if (na != ne) { bad = 1; print "rows: want " ne ", got " na }; exit bad }' "$1" "$2"
}
check_query() {
	local name=$1 tol=$2
	if run_query "$name" >"$T/got-$name.tsv" && same_tsv "$T/want-$name.tsv" "$T/got-$name.tsv" "$tol" >"$T/diff-$name"; then
		ok "query $name: $(wc -l <"$T/got-$name.tsv") rows as the JSON reports say"
	else
		fail "query $name: $(head -c 800 "$T/diff-$name")"
	fi
	if run_query "$name" sr.decisions_all >"$T/dist-$name.tsv" && cmp -s "$T/got-$name.tsv" "$T/dist-$name.tsv"; then
		ok "query $name through the Distributed table"
	else
		fail "query $name through the Distributed table"
	fi
}

# disagreement rate per kernel and class over the rows, i.e. the listed decisions
# (placements every side kept are counted in summary.unlisted, not rowed: fleet.md)
jq -s -c '[.[] | .kernel as $k | .decisions[] | {k: $k, c: .class, x: .disagree, u: .unknown}] |
	group_by([.k, .c])[] | [.[0].k, .[0].c, length, (map(select(.x)) | length),
	(map(select(.u)) | length)] |
	. + [(.[3] / .[2])]' "$T/facts.ndjson" | as_tsv >"$T/want-disagree-by-kernel-class.tsv"
check_query disagree-by-kernel-class 0.00006

# cost per host group: the listed decisions' costs summed per group (rows are rounded to 1/1000)
jq -s -c 'group_by(.group)[] | [.[0].group, (map(.host) | unique | length),
	(map(.decisions | length) | add),
	([.[].decisions[] | select(.ow != null)] | length), ([.[].decisions[] | select(.nw != null)] | length),
	([.[].decisions[].orem | values] | add), ([.[].decisions[].nrem | values] | add),
	([.[].decisions[].ow | values] | add), ([.[].decisions[].nw | values] | add),
	([.[].decisions[].dw | values] | add)]' "$T/facts.ndjson" |
	as_tsv >"$T/want-cost-by-group.tsv"
check_query cost-by-group "$(echo "$ROWS" | awk '{ print $1 / 2000 + 0.002 }')"

# the tasks that suffer most: per-decision cost.delta.weighted by comm
jq -s -c '[.[].decisions[] | select(.dw != null)] | group_by(.comm) |
	map([(.[0].comm // "null"), length, (map(if .disagree then 1 else 0 end) | add),
	     ((map(.dw) | add) * 1000 | round / 1000)]) |
	sort_by([-.[3], .[0]]) | .[:10][]' "$T/facts.ndjson" | as_tsv >"$T/want-tasks-suffer-most.tsv"
check_query tasks-suffer-most 0.0021

# the trend per day and kernel
jq -s -c 'group_by([.day, .kernel])[] | [.[0].day, .[0].kernel, length,
	(map(.decisions | length) | add),
	([.[].decisions[] | select(.disagree)] | length),
	([.[].decisions[].dw | values] | add)]' "$T/facts.ndjson" |
	as_tsv >"$T/want-trend-by-day.tsv"
# (a sum over no priced decision is null in both, never 0)
check_query trend-by-day 0.0021

check "the server still runs" kill -0 "$CH_PID"
finish
