#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Ground truth end to end, on fixtures/probes-4n (a lab recording with the
# decision probes, fixtures/README.md): every can_migrate_task candidate is
# a decision, counted as trace-cmd counts the probe's events; allowed and
# refused add up; the kernel model agrees with the kernel's own verdict on
# at least 95% of the candidates and judges at least 95% (issue 17); the
# trace-cmd report text gives the same figures; the NUMA claim windows are
# paired; the JSON validates; the text says it on its truth line.  A trace
# without probes has no ground_truth.
. "$(dirname "$0")/lib.sh"
SCHEMA=$SR_SOURCE_DIR/docs/replay-schema.json
VALIDATE=$SR_SOURCE_DIR/tests/e2e/validate-json.py
P=$FIX/probes-4n

expect_exit 0 "replay probes-4n --json" "$SR_BIN" replay --quiet --json "$T/p.json" "$P"
check "the JSON validates" python3 "$VALIDATE" "$SCHEMA" "$T/p.json"
lb() { jq -r ".summary.ground_truth.lb.$1" "$T/p.json"; }
n=$(lb candidates)
check "there are candidates ($n)" test "$n" -gt 100
check "allowed + refused = candidates" test $(($(lb kernel_allowed) + $(lb kernel_refused))) -eq "$n"
check "the kernel model is lb-v6.1" test "$(lb policy)" = lb-v6.1
check "agreement >= 95% ($(lb model_agrees) of $n)" test $((100 * $(lb model_agrees))) -ge $((95 * n))
check "judged >= 95% ($(lb judged) of $n)" test $((100 * $(lb judged))) -ge $((95 * n))
check "disagreements by input add up" test \
	"$(jq '[.summary.ground_truth.lb.disagreements[]] | add // 0' "$T/p.json")" -eq $(($(lb judged) - $(lb model_agrees)))
check "every candidate is an lb decision" test \
	"$(jq '.summary.classes["lb-pull"].decisions + .summary.classes["lb-active"].decisions' "$T/p.json")" -ge "$n"
check "no pairing damage" test \
	"$(jq '.summary.ground_truth.probes.unpaired_entries + .summary.ground_truth.probes.returns_without_entry' "$T/p.json")" -eq 0
pw() { jq -r ".summary.ground_truth.placement.by_class.wakeup.$1" "$T/p.json"; }
check "wake-ups: $(pw policy) picks the probe's CPU for >= 90% ($(pw model_agrees) of $(pw candidates))" \
	test $((100 * $(pw model_agrees))) -ge $((90 * $(pw candidates))) -a "$(pw candidates)" -gt 0
w=$(jq '.summary.ground_truth.numa_claims.windows' "$T/p.json")
check "task_numa_migrate windows paired ($w)" test "$w" -gt 0

if command -v trace-cmd >/dev/null; then
	trace-cmd report -i "$P/trace.dat" 2>/dev/null >"$T/p.txt"
	report_counts <"$T/p.txt" >"$T/counts"
	check "candidates = trace-cmd's cmt events" test "$n" -eq "$(awk '$1 == "cmt" { print $2 }' "$T/counts")"
	check "candidates = trace-cmd's cmt_ret events" test "$n" -eq "$(awk '$1 == "cmt_ret" { print $2 }' "$T/counts")"
	check "refused = trace-cmd's cmt_ret ret=0" test "$(lb kernel_refused)" -eq "$(grep -c ' cmt_ret: .* ret=0$' "$T/p.txt")"
	check "windows = trace-cmd's tnm_ret events" test "$w" -eq "$(awk '$1 == "tnm_ret" { print $2 }' "$T/counts")"
	expect_exit 0 "replay the report text" "$SR_BIN" replay --quiet --json "$T/t.json" \
		--topology "$P/numactl-H.txt" "$T/p.txt"
	# (the text's timestamps are in microseconds: the window lengths differ below that)
	gt='.summary.ground_truth | del(.numa_claims.window_ns_mean, .numa_claims.window_ns_max)'
	check "the text gives the same ground truth" test \
		"$(jq -c "$gt" "$T/t.json")" = "$(jq -c "$gt" "$T/p.json")"
else
	echo "# SKIP: trace-cmd not installed; counts against trace-cmd report not checked"
fi

expect_exit 0 "replay probes-4n (text)" "$SR_BIN" replay --quiet "$P"
check "the truth line" grep -q "^truth: *lb-v6.1 agrees with the kernel's own verdict on $(lb model_agrees) of $n" "$T/out"
expect_exit 0 "replay -v probes-4n" "$SR_BIN" replay --quiet -v "$P"
check "-v has the ground-truth section" grep -q '^ground truth (decision probes' "$T/out"
check "every line fits 100 columns" test "$(awk 'length > 100' "$T/out" | wc -l)" -eq 0

expect_exit 0 "replay probes-4n --ndjson" "$SR_BIN" replay --quiet --ndjson "$T/p.nd" "$P"
check "the NDJSON validates" python3 "$VALIDATE" --ndjson "$SCHEMA" "$T/p.nd"
check "each candidate says the kernel's verdict" test \
	"$(jq -s 'map(select(.kernel_verdict)) | length' "$T/p.nd")" -eq "$n"

# pairing damage: counted, one warning naming the line, never a crash
printf '%s\n' 'cpus=2' \
	'  <idle>-0 [001] 1.000001: cmt: (x) pid=10 src_cpu=0 dst_cpu=1 on_cpu=0' \
	'  <idle>-0 [001] 1.000002: cmt: (x) pid=10 src_cpu=0 dst_cpu=7' \
	'  <idle>-0 [001] 1.000003: cmt_ret: (x) ret=1' \
	'  <idle>-0 [000] 1.000004: cmt_ret: (x) ret=0' \
	'  <idle>-0 [000] 1.000005: cmt: (x) pid=10 src_cpu=zz dst_cpu=1' >"$T/bad.txt"
expect_exit 0 "replay unpaired probes" "$SR_BIN" replay --json "$T/bad.json" "$T/bad.txt"
check "the return without entry is a warning at its line" \
	grep -q "at line 5: decision probe cmt_ret: pairing damage" "$T/err"
check "the malformed probe line is a warning at its line" grep -q "at line 6: malformed decision probe" "$T/err"
check "damage counted: 2 unpaired or unusable, 1 return without entry" test \
	"$(jq -c '.summary.ground_truth.probes' "$T/bad.json")" = \
	'{"returns_without_entry":1,"unpaired_entries":1,"unusable":1}'

expect_exit 0 "replay numa02-2n --json" "$SR_BIN" replay --quiet --json "$T/n.json" "$FIX/numa02-2n"
check "no probes, no ground_truth" test "$(jq '.summary | has("ground_truth")' "$T/n.json")" = false
finish
