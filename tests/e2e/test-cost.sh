#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The cost model end to end: the same trace as trace.dat and as
# `trace-cmd report` text gives the same fault counts and the same costs;
# the calibration on the bundled 4-node traces (exact fault counts against
# /proc/vmstat, the estimated local share next to the measured one); a trace
# without fault data has unknown costs and says what would fill them; the
# JSON and NDJSON validate against docs/replay-schema.json.
. "$(dirname "$0")/lib.sh"
SCHEMA=$SR_SOURCE_DIR/docs/replay-schema.json
VALIDATE=$SR_SOURCE_DIR/tests/e2e/validate-json.py
N1=$FIX/numa01-4n

expect_exit 0 "replay numa01-4n --json" "$SR_BIN" replay --quiet --json "$T/dat.json" "$N1"
check "the JSON validates" python3 "$VALIDATE" "$SCHEMA" "$T/dat.json"
expect_exit 0 "replay numa01-4n --ndjson" "$SR_BIN" replay --quiet --ndjson "$T/dat.ndjson" "$N1"
check "the NDJSON validates" python3 "$VALIDATE" --ndjson "$SCHEMA" "$T/dat.ndjson"
check "every listed decision is in the NDJSON once" \
	test "$(jq -s 'map(.seq) | unique | length' "$T/dat.ndjson")" = "$(jq '.summary.decisions - .summary.unlisted' "$T/dat.json")"

# per-task fault counts from trace-cmd's own reading of the file
if command -v trace-cmd >/dev/null; then
	trace-cmd report -i "$N1/trace.dat" 2>/dev/null >"$T/n1.txt"
	awk '/ numa_fault:/ { split($1, a, "-"); c[a[length(a)]]++ } END { for (t in c) print t, c[t] }' \
		"$T/n1.txt" | sort >"$T/want-tasks"
	expect_exit 0 "replay the report text" "$SR_BIN" replay --quiet --json "$T/txt.json" \
		--topology "$N1/numactl-H.txt" "$T/n1.txt"
	for f in dat txt; do
		jq -r '.summary.cost.fault_model.faults' "$T/$f.json" >"$T/$f.faults"
		# per task: faults priced or not, from every decision interval and the whole-trace matrix
		# what follows from the fault data alone (the old/new verdicts may differ
		# between formats where the model's other inputs do)
		jq -S '.summary.cost | {fault_model, trace: .totals.trace, actual: .matrix.actual,
			trace_matrix: .matrix.trace, cal: (.calibration | {fault_events, fault_events_local,
			priced_faults, estimated_local_share})}' "$T/$f.json" >"$T/$f.cost"
		jq -S '[.decisions[] | {seq, tid, trace: .cost.trace, unknown: .cost.unknown}]' \
			"$T/$f.json" >"$T/$f.dcost"
	done
	check "total faults: trace.dat = trace-cmd's count" \
		test "$(cat "$T/dat.faults")" = "$(awk '{ s += $2 } END { print s }' "$T/want-tasks")"
	check "total faults: text = trace.dat" cmp -s "$T/dat.faults" "$T/txt.faults"
	check "fault model, calibration, kernel-side totals and matrices: text = trace.dat" \
		cmp -s "$T/dat.cost" "$T/txt.cost"
	check "per-decision cost of what the kernel did: text = trace.dat" cmp -s "$T/dat.dcost" "$T/txt.dcost"
else
	fail "trace-cmd is not installed (Makefile DEB_PACKAGES)"
fi

# calibration: exact counts against the kernel's counters, and both shares
calib() {
	local json=$1 name=$2 dir=$3 vf vl
	vf=$(($(awk '$1 == "numa_hint_faults" { print $2 }' "$dir/vmstat-after.txt") -
		$(awk '$1 == "numa_hint_faults" { print $2 }' "$dir/vmstat-before.txt")))
	vl=$(($(awk '$1 == "numa_hint_faults_local" { print $2 }' "$dir/vmstat-after.txt") -
		$(awk '$1 == "numa_hint_faults_local" { print $2 }' "$dir/vmstat-before.txt")))
	# the trace's schedreplay_vmstat lines are read a moment after/before the files
	check "$name: vmstat faults within 0.01% of the capture's files" \
		jq -e --argjson f "$vf" '(.summary.cost.calibration.vmstat_hint_faults - $f | fabs) * 10000 <= $f' "$json"
	check "$name: TNF_FAULT_LOCAL faults = numa_hint_faults_local exactly" \
		jq -e '.summary.cost.calibration.fault_events_local_minus_vmstat == 0' "$json"
	check "$name: fault events within 0.1% of numa_hint_faults" \
		jq -e '.summary.cost.calibration | (.fault_events_minus_vmstat | fabs) * 1000 <= .vmstat_hint_faults' "$json"
	check "$name: measured share = local / faults" \
		jq -e --argjson f "$vf" --argjson l "$vl" \
		'(.summary.cost.calibration.measured_local_share - ($l / $f) | fabs) < 0.001' "$json"
	check "$name: estimated share in (0, 1), difference = estimated - measured" \
		jq -e '.summary.cost.calibration | .estimated_local_share > 0 and .estimated_local_share < 1 and
			((.difference - (.estimated_local_share - .measured_local_share)) | fabs) < 0.002' "$json"
	# migrated faults booked remote, as numa_hint_faults_local counts them
	check "$name: estimated within 5 points of measured" \
		jq -e '.summary.cost.calibration | (.difference | fabs) <= 0.05' "$json"
	check "$name: migrated faults booked remote lower the estimate" \
		jq -e '.summary.cost.calibration | .migrated_faults_remote > 0 and
			.estimated_local_share < .estimated_local_share_after_migration' "$json"
	jq -r --arg n "$name" '.summary.cost.calibration |
		"# \($n): measured \(.measured_local_share) estimated \(.estimated_local_share) difference \(.difference)"' "$json"
}
calib "$T/dat.json" numa01-4n "$N1"
SHM=$FIX/numa01-shm-4n
expect_exit 0 "replay numa01-shm-4n" "$SR_BIN" replay --quiet --json "$T/shm.json" "$SHM"
calib "$T/shm.json" numa01-shm-4n "$SHM"
for d in numa02-2n mixed-2n; do
	expect_exit 0 "replay $d" "$SR_BIN" replay --quiet --json "$T/$d.json" "$FIX/$d"
	check "$d: estimated within 5 points of measured" \
		jq -e '.summary.cost.calibration | (.difference | fabs) <= 0.05' "$T/$d.json"
done

# costs per policy, and the matrix, in the text summary
expect_exit 0 "text summary" "$SR_BIN" replay --quiet "$N1"
check "text: cost totals" grep -q '^remote-access cost' "$T/out"
check "text: node x node matrix" grep -q '^node x node accesses' "$T/out"
check "text: calibration" grep -q 'measured local share' "$T/out"
"$SR_BIN" replay --quiet -v "$N1" >"$T/v" 2>/dev/null
check "text -v: the cost assumptions" grep -q 'cost: first-order' "$T/v"
check "text -v: the old and new matrices" grep -q '^  new policy, decision intervals' "$T/v"

# no fault data: costs unknown, counted, and what would fill them
expect_exit 0 "replay a trace without fault data" "$SR_BIN" replay --quiet --json "$T/h.json" "$FIX/host-baseline-1n"
check "no fault data: every cost unknown" \
	jq -e '([.summary.cost.unknown[]] | add) == .summary.decisions and .summary.cost.unknown["no-fault-events"] > 0 and .summary.cost.totals.old == null' "$T/h.json"
check "no fault data: says what would fill them" \
	jq -e '.summary.cost.fill_with | test("task_numa_fault")' "$T/h.json"
check "no fault data: JSON validates" python3 "$VALIDATE" "$SCHEMA" "$T/h.json"

# paired cost: the headline new - old is over the decisions both sides priced,
# and equals the sum of their per-decision deltas (each rounded to 0.001 in
# the JSON, hence the tolerance); per class too; the text prints the same figure.
# Placements left out of the JSON (summary.unlisted: the task kept its CPU
# and every side picked it) are priced alike on both sides, delta 0: the
# paired count may exceed the listed ones by at most that many
paired() {
	local name=$1 trace=$2
	expect_exit 0 "$name: replay --json" "$SR_BIN" replay --quiet --json "$T/p.json" "$trace"
	check "$name: headline delta = sum of per-decision deltas over decisions both priced" \
		jq -e '[.decisions[] | select(.cost.old != null and .cost.new != null)] as $p
			| .summary.cost.totals as $t
			| .summary.unlisted as $u
			| ($p | length) <= $t.paired.decisions and $t.paired.decisions <= ($p | length) + $u
			and (($p | map(.cost.delta.weighted) | add // 0) - ($t.delta.weighted // 0) | fabs) <= 0.0005 * (($p | length) + 1)
			and (($p | map(.cost.delta.remote_accesses) | add // 0) - ($t.delta.remote_accesses // 0) | fabs) <= 0.0005 * (($p | length) + 1)
			and ([.decisions[] | select(.cost.old != null and .cost.new == null)] | length) == $t.paired.left_out.old_only
			and ([.decisions[] | select(.cost.old == null and .cost.new != null)] | length) == $t.paired.left_out.new_only' "$T/p.json"
	check "$name: per class, delta = sum over that class's paired decisions" \
		jq -e '. as $d | [.summary.cost.by_class | to_entries[] | .key as $k | .value as $c
			| ([$d.decisions[] | select(.class == $k and .cost.old != null and .cost.new != null)
			    | .cost.delta.weighted] | add // 0) as $s
			| (($c.delta.weighted // 0) - $s | fabs) <= 0.0005 * ($c.paired.decisions + 1)] | all' "$T/p.json"
	expect_exit 0 "$name: text" "$SR_BIN" replay --quiet "$trace"
	check "$name: the text's new - old is the paired figure" \
		test "$(awk '$1 == "new" && $2 == "-" && $3 == "old" { print $5 }' "$T/out")" = \
		"$(jq -r '.summary.cost.totals.delta.weighted // empty | . * 10 | round / 10 |
			if . >= 0 then "+" + (. | tostring) else (. | tostring) end |
			if test("\\.") then . else . + ".0" end' "$T/p.json")"
}
for d in "$FIX"/numa01-4n "$FIX"/numa02-2n "$FIX"/host-baseline-1n "$FIX"/numa01-shm-4n "$FIX"/mixed-2n; do
	paired "fixture $(basename "$d")" "$d"
done

# each side priced for its own choice (docs/cost-model.md): seed 002's lb pair on mixed-2n, where
# the kernel (and old) pulled nb-w0 and new would have pulled numabench instead
M2=$FIX/mixed-2n
expect_exit 0 "replay mixed-2n --json" "$SR_BIN" replay --quiet --json "$T/m2.json" "$M2"
check "mixed-2n: the JSON with cost.parts validates" python3 "$VALIDATE" "$SCHEMA" "$T/m2.json"
check "mixed-2n: some lb decision prices another task" \
	jq -e '[.decisions[] | select(.cost.parts)] | length > 0 and all(.class == "lb-pull" or
		.class == "lb-active")' "$T/m2.json"
check "mixed-2n: nb-w0 pulled by the kernel and old, numabench by new: both priced on each side" \
	jq -e '[.decisions[] | select(.class == "lb-pull" and .comm == "nb-w0"
		and .old.choice.tid == .tid and .new.choice.comm == "numabench")
		| .src_node as $s | .dst_node as $d | .tid as $x | .new.choice.tid as $y | .cost.parts
		| .[0].tid == $x and .[0].old.node == $d and .[0].new.node == $s and .[0].trace.node == $d
		and .[1].tid == $y and .[1].old.node == $s and .[1].new.node == $d and .[1].trace.node == $s
		and .[1].from_node == $s] | length > 0 and all' "$T/m2.json"
check "mixed-2n: each side's cost is the sum of its parts, the node its own task's" \
	jq -e '[.decisions[] | select(.cost.parts and .cost.unknown == null) | .cost as $c
		| ["old", "new", "trace"][] as $k | select($c[$k] != null)
		| (($c.parts | map(.[$k].weighted) | add) - $c[$k].weighted | fabs) <= 0.0005 * ($c.parts | length)
		and $c[$k].node == $c.parts[0][$k].node] | all' "$T/m2.json"
check "mixed-2n: the summary counts the other tasks priced" \
	jq -e '.summary.cost.fault_model.other_tasks_priced ==
		([.decisions[] | .cost.parts // [] | .[1:][]] | length)' "$T/m2.json"

expect_exit 2 "a bad --scan-period-ms" "$SR_BIN" replay --scan-period-ms 0 "$N1"
finish
