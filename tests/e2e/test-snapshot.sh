#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The recorder's start snapshot on a real recording (fixtures/text/
# host-snapshot-2cpu.report.txt, this host, kernel.numa_balancing=0) against
# the same trace with the snapshot's start lines taken out: info says what it
# seeded, the replay knows the tgid of tasks older than the trace and takes
# kernel threads on its evidence ("snapshot"); and the kernel model's
# parameters follow the recorded sysctls and sched features, with where each
# came from in the JSON and a line of the text (docs/replay.md).
. "$(dirname "$0")/lib.sh"

F=$FIX/text/host-snapshot-2cpu.report.txt
grep -v 'schedreplay_task phase=start\|schedreplay_snapshot phase=start' "$F" >"$T/nosnap.txt"
starts=$(grep -c 'schedreplay_task phase=start' "$F")
kthreads=$(grep 'schedreplay_task phase=start' "$F" | grep -c ' kthread=1 ')
check "the fixture has a start snapshot" test "$starts" -gt 100
check "and an end snapshot" grep -q 'schedreplay_snapshot phase=end tasks=' "$F"

# --- info: what the snapshot seeded -------------------------------------------
expect_exit 0 "info --json on the fixture" "$SR_BIN" info --json "$F"
cp "$T/out" "$T/info.json"
check "info: every start task line applied" test "$(jq .snapshot.tasks "$T/info.json")" -eq "$starts"
check "info: its kernel threads" test "$(jq .snapshot.kernel_threads "$T/info.json")" -eq "$kthreads"
check "info: no bad line" test "$(jq .snapshot.bad_lines "$T/info.json")" -eq 0
check "info: last runs seeded from se.exec_start" test "$(jq .snapshot.last_run_seeded "$T/info.json")" -gt 0
check "info: a clock_task offset per CPU (2 CPUs)" \
	test "$(jq '.snapshot.clock_task_offset_ns | length' "$T/info.json")" -eq 2
check "info: the offsets are positive (clock_task runs behind)" \
	test "$(jq '[.snapshot.clock_task_offset_ns[] | select(. > 0)] | length' "$T/info.json")" -eq 2
expect_exit 0 "info (text)" "$SR_BIN" info "$F"
check "info text: the snapshot line" grep -q "^snapshot:    $starts tasks at the start ($kthreads kernel threads" "$T/out"
expect_exit 0 "info --json without the start lines" "$SR_BIN" info --json "$T/nosnap.txt"
check "without them: no snapshot object (end lines are not applied)" \
	test "$(jq .snapshot "$T/out")" = null
expect_exit 0 "info without the start lines" "$SR_BIN" info "$T/nosnap.txt"
check "without them: no snapshot line" test -z "$(grep '^snapshot:' "$T/out" || true)"

# a damaged task line is counted, not applied, and nothing else changes
sed '0,/schedreplay_task phase=start tid=/s//schedreplay_task phase=start tid=x/' "$F" >"$T/bad.txt"
expect_exit 0 "info --json with one damaged task line" "$SR_BIN" info --json "$T/bad.txt"
check "the damaged line is counted" test "$(jq .snapshot.bad_lines "$T/out")" -eq 1
check "and the others applied" test "$(jq .snapshot.tasks "$T/out")" -eq $((starts - 1))

# --- replay: tasks older than the trace are known ---------------------------
expect_exit 0 "replay --json on the fixture" "$SR_BIN" replay --json "$T/a.json" "$F"
expect_exit 0 "replay --json without the start lines" "$SR_BIN" replay --json "$T/b.json" "$T/nosnap.txt"
# (the listed ones may differ: a placement is listed where a side's choice differs or is unknown)
check "the same decisions either way" \
	test "$(jq '.summary.decisions' "$T/a.json")" -eq "$(jq '.summary.decisions' "$T/b.json")"
fu_a=$(jq '.summary.choice_fidelity.fork.unknown' "$T/a.json")
fu_b=$(jq '.summary.choice_fidelity.fork.unknown' "$T/b.json")
check "seeded: the start lines' Cpus_allowed_list leaves fewer forks unknown ($fu_a < $fu_b)" \
	test "$fu_a" -lt "$fu_b"
notgid_a=$(jq '[.decisions[] | select(.tgid == null)] | length' "$T/a.json")
notgid_b=$(jq '[.decisions[] | select(.tgid == null)] | length' "$T/b.json")
check "seeded: fewer decisions whose tgid is unknown ($notgid_a < $notgid_b)" test "$notgid_a" -lt "$notgid_b"
missing=0
# the start lines come a few ms into the trace: decisions before them cannot use them
snap_ns=$(awk '/schedreplay_task phase=start/ { t = $3; sub(":", "", t); printf "%.0f\n", t * 1e9; exit }' "$F")
for tid in $(jq --argjson s "$snap_ns" '.decisions[] | select(.tgid == null and .ts_ns >= $s) | .tid' "$T/a.json" | sort -u); do
	grep -q "schedreplay_task phase=start tid=$tid " "$F" && missing=$((missing + 1))
done
# a decision made at a task's very first event comes before the model meets the
# task (decisions read the model before the event is applied): one such here
check "seeded: the snapshot's tasks have their tgid from their first event on ($missing not)" \
	test "$missing" -le 1
check "kernel threads on the snapshot's evidence" \
	test "$(jq '.summary.kernel_threads.snapshot // 0' "$T/a.json")" -gt 0
check "without it: no snapshot evidence" test "$(jq '.summary.kernel_threads.snapshot // 0' "$T/b.json")" -eq 0
check "without it: the names decide instead" \
	test "$(jq '.summary.kernel_threads.name // 0' "$T/b.json")" -gt "$(jq '.summary.kernel_threads.name // 0' "$T/a.json")"
check "the report validates against the schema" \
	python3 "$SR_SOURCE_DIR/tests/e2e/validate-json.py" "$SR_SOURCE_DIR/docs/replay-schema.json" "$T/a.json"

# --- the kernel model's parameters follow the recording -------------------------
check "the host recorded kernel.numa_balancing=0" grep -q 'schedreplay_sysctl phase=start kernel.numa_balancing=0 ' "$F"
check "every kernel-side numa_balancing is off, from the recorded sysctl" test "$(jq -c '[.policies.kernel[] |
	select(.params | has("numa_balancing")) | [.params.numa_balancing, .param_sources.numa_balancing]] | unique' \
	"$T/a.json")" = '[[false,"recorded sysctl kernel.numa_balancing"]]'
check "the other kernel parameters: defaults for the release" test "$(jq -r '[.policies.kernel[].param_sources |
	to_entries[] | select(.key != "numa_balancing") | .value] | unique | join(",")' "$T/a.json")" = "default for the release"
check "the old and new sides keep their defaults" test "$(jq -r '[.policies.old[], .policies.new[] |
	.param_sources[]] | unique | join(",")' "$T/a.json")" = default
expect_exit 0 "replay (text)" "$SR_BIN" replay "$F"
check "the text says it in a line" \
	grep -q '^settings:   numa_balancing=off (recorded sysctl kernel.numa_balancing: numa-v4.19, exec-v6.1,' "$T/out"
expect_exit 0 "replay --param numa_balancing=1" "$SR_BIN" replay --json - --param numa_balancing=1 "$F"
check "--param wins over the recording" test "$(jq -c '[.policies.kernel[] | select(.params | has("numa_balancing")) |
	[.params.numa_balancing, .param_sources.numa_balancing]] | unique' "$T/out")" = '[[true,"--param"]]'
expect_exit 0 "replay --json the NUMA fixture" "$SR_BIN" replay --json - "$FIX/dat/numa02-head-v6.dat"
check "numa02: numa_balancing on, as recorded" test "$(jq -c '[.policies.kernel[] | select(.params |
	has("numa_balancing")) | [.params.numa_balancing, .param_sources.numa_balancing]] | unique' "$T/out")" = \
	'[[true,"recorded sysctl kernel.numa_balancing"]]'

# sched features and debugfs tunables as a 6.1 host with debugfs mounted records them
sed '/schedreplay_sysctl phase=start/s/sched_features=unavailable/sched_features=GENTLE_FAIR_SLEEPERS,NO_CACHE_HOT_BUDDY,NUMA,NO_NUMA_FAVOUR_HIGHER sched.migration_cost_ns=250000/' \
	"$F" >"$T/feat.txt"
check "the edited copy has them" grep -q 'sched_features=GENTLE_FAIR_SLEEPERS,NO_CACHE_HOT_BUDDY' "$T/feat.txt"
expect_exit 0 "replay --kernel-policy lb-v4.1 on it" \
	"$SR_BIN" replay --json - --kernel-policy lb-v4.1 "$T/feat.txt"
k() { jq -c ".policies.kernel[0] | [.params.$1, .param_sources.$1]" "$T/out"; }
check "CACHE_HOT_BUDDY off from sched_features" test "$(k CACHE_HOT_BUDDY)" = '[false,"sched_features"]'
check "NUMA on from sched_features" test "$(k NUMA)" = '[true,"sched_features"]'
check "NUMA_FAVOUR_HIGHER off from sched_features" test "$(k NUMA_FAVOUR_HIGHER)" = '[false,"sched_features"]'
check "NUMA_RESIST_LOWER not listed: the policy's default" test "$(k NUMA_RESIST_LOWER)" = '[false,"default"]'
check "sched_migration_cost_ns from debugfs" \
	test "$(k sched_migration_cost_ns)" = '[250000,"recorded sysctl sched.migration_cost_ns"]'
expect_exit 0 "replay --kernel-policy lb-v4.1 (text)" "$SR_BIN" replay --kernel-policy lb-v4.1 "$T/feat.txt"
check "the text line names the features" grep -q 'CACHE_HOT_BUDDY=off (sched_features: lb-v4.1)' "$T/out"
# the end's settings line never sets the model
sed '/schedreplay_sysctl phase=end/s/kernel.numa_balancing=0/kernel.numa_balancing=1/' "$F" >"$T/end.txt"
expect_exit 0 "replay --json with numa_balancing=1 only at the end" "$SR_BIN" replay --json - "$T/end.txt"
check "the start's value holds" test "$(jq '[.policies.kernel[] | select(.params | has("numa_balancing")) |
	.params.numa_balancing] | unique' -c "$T/out")" = '[false]'
finish
