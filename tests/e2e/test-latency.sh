#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The memory latency profile end to end: `schedreplay latency` measures
# this host for real (one node on the development machines: a 1x1 matrix),
# its JSON validates and is what `replay --latency` reads; the cost model
# says what priced remote accesses and follows a crafted profile; a trace's
# schedreplay_latency lines are read, and a bad one is an error naming its
# line.
. "$(dirname "$0")/lib.sh"
VALIDATE=$SR_SOURCE_DIR/tests/e2e/validate-json.py
N1=$FIX/numa01-4n
HOST=$FIX/text/tracefs-host.txt
jqe() { jq -e "$@" >/dev/null; }
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
[ "$nodes" -ge 1 ] || nodes=1

# --- the measurement -------------------------------------------------------------
expect_exit 0 "latency --json --seconds 0.3 -o FILE" "$SR_BIN" latency --json --seconds 0.3 -o "$T/p.json"
check "the JSON validates" python3 "$VALIDATE" "$SR_SOURCE_DIR/docs/latency-schema.json" "$T/p.json"
check "one row per node of this host ($nodes)" test "$(jq '.latency.nodes, (.latency.ns | length)' "$T/p.json" | sort -u)" = "$nodes"
check "every measured ns is positive and finite (< 1 s)" \
	jqe '[.latency.ns[][] | select(. != null)] | length > 0 and all(. > 0 and . < 1e9)' "$T/p.json"
check "node 0's own memory is measured" jqe '.latency.ns[0][0] > 0' "$T/p.json"
check "the diagonal's ratio is 1" jqe '[range(.latency.nodes) as $i | .latency.ratio[$i][$i] | select(. != null)] | all(. == 1)' "$T/p.json"
check "spread = max - min: not negative" jqe '[.latency.spread[][] | select(. != null)] | all(. >= 0)' "$T/p.json"
expect_exit 0 "latency (text) --seconds 0.2" "$SR_BIN" latency --seconds 0.2
check "the text has node 0's row with a latency" grep -qE '^  node 0 +[0-9]+\.[0-9] ±[0-9]+\.[0-9]' "$T/out"
check "the text has the ratio matrix" grep -q '^remote / local' "$T/out"
expect_exit 2 "--seconds 0 is a usage error" "$SR_BIN" latency --seconds 0
expect_exit 2 "--seconds x is a usage error" "$SR_BIN" latency --seconds x

# --- replay with a profile, and without ------------------------------------------
expect_exit 0 "replay numa01-4n (no profile)" "$SR_BIN" replay --quiet --json "$T/prior.json" "$N1"
check "without a profile: latency_source prior" test "$(jq -r .summary.cost.latency_source "$T/prior.json")" = prior
check "without a profile: the ratios are SLIT / 10" \
	test "$(jq -c '.summary.cost.latency.ratio[0]' "$T/prior.json")" = "[1,2,4,4]"
check "the low prior's delta is 0.482 x the high one's" \
	jqe '.summary.cost.latency.paired_weighted.delta as $d | (($d.high * 0.53 / 1.1) - $d.low | fabs) < 0.002' "$T/prior.json"
check "the high prior's delta is the reported delta" \
	jqe '(.summary.cost.latency.paired_weighted.delta.high - .summary.cost.totals.delta.weighted | fabs) < 0.002' "$T/prior.json"
# a profile where every access costs the same: weighted = accesses
jq -n '{latency: {nodes: 4, ns: [range(4) | [range(4) | 100]]}}' >"$T/flat.json"
expect_exit 0 "replay numa01-4n --latency flat.json" "$SR_BIN" replay --quiet --json "$T/flat.json.out" --latency "$T/flat.json" "$N1"
check "with a profile: latency_source measured" test "$(jq -r .summary.cost.latency_source "$T/flat.json.out")" = measured
check "the profile's file is named" test "$(jq -r .summary.cost.latency.profile "$T/flat.json.out")" = "$T/flat.json"
check "a flat profile: weighted = accesses (old, new, trace)" \
	jqe '.summary.cost.totals | [.old, .new, .trace] | all((.weighted - .accesses | fabs) < 0.01)' "$T/flat.json.out"
check "the remote counts do not depend on the profile" \
	test "$(jq -c '.summary.cost.totals.trace.remote_accesses' "$T/flat.json.out")" = "$(jq -c '.summary.cost.totals.trace.remote_accesses' "$T/prior.json")"
# node 1 far from everything: only its row's prices rise
jq -n '{latency: {nodes: 4, ns: [[90, 180, 180, 180], [300, 100, 300, 300], [180, 180, 90, 180], [180, 180, 180, 90]]}}' >"$T/skew.json"
expect_exit 0 "replay --latency skew.json" "$SR_BIN" replay --quiet --json "$T/skew.out" --latency "$T/skew.json" "$N1"
check "the ratios used are the profile's rows over their diagonal" \
	test "$(jq -c '.summary.cost.latency.ratio[1], .summary.cost.latency.ratio[0]' "$T/skew.out" | tr '\n' ' ')" = "[3,1,3,3] [1,2,2,2] "
# trace weighted = sum over the trace's node x node matrix of accesses x ratio
wsum='.summary.cost as $c | [range($c.matrix.trace | length) as $r | range($c.matrix.trace | length) as $k
	| $c.matrix.trace[$r][$k] * $c.latency.ratio[$r][$k]] | add as $w | ($w - $c.totals.trace.weighted | fabs) < 0.5'
check "weighted = matrix x the profile's ratios" jqe "$wsum" "$T/skew.out"
check "weighted = matrix x the SLIT ratios without one" jqe "$wsum" "$T/prior.json"
expect_exit 0 "replay (text) --latency" "$SR_BIN" replay --quiet --latency "$T/skew.json" "$N1"
check "the text says the measured profile priced it" grep -q "^latency: *measured profile ($T/skew.json)" "$T/out"
check "the cost line says latency ratio" grep -q "^cost: .*(x latency ratio)" "$T/out"
expect_exit 3 "a 1-node profile on a 4-node trace" "$SR_BIN" replay --quiet --latency "$T/p.json" "$N1"
check "the error names the profile and both node counts" grep -q "'$T/p.json': the latency profile covers 1 nodes, the topology has 4" "$T/err"
printf '{"latency": {"nodes": 4,\n "ns": [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, "x"]]}}\n' >"$T/bad.json"
expect_exit 3 "a profile with a bad value" "$SR_BIN" replay --quiet --latency "$T/bad.json" "$N1"
check "the error names the JSON path" grep -q "latency.ns\[3\]\[3\]: not a number" "$T/err"
printf '{"latency": {"nodes": 4,\n "ns": [[1, 2, 3, 4]' >"$T/cut.json"
expect_exit 3 "a cut profile" "$SR_BIN" replay --quiet --latency "$T/cut.json" "$N1"
check "the error names the file and line" grep -q "'$T/cut.json' at line 2" "$T/err"

# docs/cost-model.md shows numa01-4n's latency line: it is what the replay prints
expect_exit 0 "replay numa01-4n (text)" "$SR_BIN" replay --quiet "$N1"
awk '/^    latency: /{ f = 1 } f && /^$/ { exit } f { sub(/^    /, ""); print }' \
	"$SR_SOURCE_DIR/docs/cost-model.md" >"$T/doc-lat"
check "docs/cost-model.md shows the latency line as the replay prints it" \
	test -s "$T/doc-lat" -a "$(grep -A1 '^latency:' "$T/out")" = "$(cat "$T/doc-lat")"

# --- the trace's own lines --------------------------------------------------------
meta=$(grep -n 'schedreplay_meta' "$HOST" | head -1 | cut -d: -f1)
node=$(grep -n 'schedreplay_node' "$HOST" | head -1 | cut -d: -f1)
line() { # line ARGS: a schedreplay_latency print event after the node line
	sed -e "${meta}s/\$/ latency=1/" -e "${node}a\\ make-tracefs-sa-5985    [000] ...1.   336.915872: tracing_mark_write: schedreplay_latency $1" "$HOST"
}
line "from=0 to=0 ns=95.125 spread=1.5 repeats=5 loads=1000" >"$T/good.txt"
expect_exit 0 "replay a trace with a latency line" "$SR_BIN" replay --quiet --json "$T/good.json" "$T/good.txt"
check "the trace's profile priced it" test "$(jq -r '.summary.cost.latency_source + " " + .summary.cost.latency.profile' "$T/good.json")" = "measured the trace's schedreplay_latency lines"
echo '{"nodes": [{"id": 0, "cpus": "0-1", "distance": [10]}]}' >"$T/topo1.json"
expect_exit 0 "the same with --topology" "$SR_BIN" replay --quiet --json "$T/good-t.json" --topology "$T/topo1.json" "$T/good.txt"
check "--topology keeps the trace's profile (same nodes)" test "$(jq -r .summary.cost.latency_source "$T/good-t.json")" = measured
bad=$((node + 1))
for l in "from=0 to=0 ns=95.1234" "from=0 to=0" "from=0 ns=9" "from=0 to=0 ns=-3" "from=0 to=0 ns=0" "from=0 to=0 ns=9 spread=x" "from=0 to=3 ns=9"; do
	line "$l" >"$T/bad.txt"
	expect_exit 3 "bad latency line '$l'" "$SR_BIN" replay --quiet "$T/bad.txt"
	check "'$l': the error names the trace and line $bad" grep -q "'$T/bad.txt' at line $bad: schedreplay_latency\|'$T/bad.txt'.*schedreplay_latency from=0 to=3" "$T/err"
	expect_exit 3 "info refuses it too" "$SR_BIN" info --quiet "$T/bad.txt"
done
# a trace without the meta line's latency=: no profile, the priors
expect_exit 0 "replay the trace without a profile" "$SR_BIN" replay --quiet --json "$T/none.json" "$HOST"
check "no profile: prior" test "$(jq -r .summary.cost.latency_source "$T/none.json")" = prior

finish
