#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of `schedreplay replay` and `schedreplay policies`: every
# migration and stick is one decision on every real trace, the JSON validates
# against docs/replay-schema.json, options work, bad input is refused.
. "$(dirname "$0")/lib.sh"
SCHEMA=$SR_SOURCE_DIR/docs/replay-schema.json
VALIDATE="/usr/bin/python3 $SR_SOURCE_DIR/tests/e2e/validate-json.py"
PLUGINS=$(dirname "$SR_BIN")/tests/plugins

# one decision per sched_migrate_task and sched_stick_numa, classes adding up;
# with decision probes, each can_migrate_task candidate is one too, and the
# migration of an allowed one is that candidate (replay.md, "Ground truth")
check_trace() {
	local name=$1 trace=$2
	if ! "$SR_BIN" replay --quiet --json "$T/r.json" "$trace" >"$T/out" 2>"$T/err"; then
		fail "$name: replay failed: $(head -c 400 "$T/err")"
		return
	fi
	"$SR_BIN" info --json --quiet "$trace" >"$T/i.json"
	local want got sum
	want=$(jq '(.events.sched_migrate_task // 0) + (.events.sched_stick_numa // 0)' "$T/i.json")
	want=$((want + $(jq '(.summary.ground_truth.lb // {candidates: 0, moved: 0}) |
		.candidates - .moved' "$T/r.json")))
	# every fork (sched_wakeup_new), and the wake-ups that kept prev
	want=$((want + $(jq '(.events.sched_wakeup_new // 0)' "$T/i.json")))
	want=$((want + $(jq '(.summary.evidence["waking-stayed-on-prev"] // 0)' "$T/r.json")))
	got=$(jq '.summary.decisions' "$T/r.json")
	sum=$(jq '[.summary.by_class[]] | add' "$T/r.json")
	check "$name: decisions = migrations + sticks + forks + stays ($want)" test "$got" = "$want"
	check "$name: by_class adds up" test "$sum" = "$want"
	check "$name: one object per listed decision" \
		test "$(jq '.decisions | length' "$T/r.json")" = "$((want - $(jq '.summary.unlisted' "$T/r.json")))"
	check "$name: unlisted ones are placements that kept the CPU every side picked" \
		jq -e '[.decisions[] | select((.class == "wakeup" or .class == "fork" or .class == "exec")
			and .src_cpu == .dst_cpu and (.disagree | not)) | . as $x
			| select([$x.old, $x.new, $x.kernel] | map(select(. != null))
				 | all(.target_cpu == $x.dst_cpu))] | length == 0' "$T/r.json"
	check "$name: JSON validates against the schema" $VALIDATE "$SCHEMA" "$T/r.json"
}

# a capture folder as a folder (its sidecars read), a bare file as itself
n=0
while IFS= read -r f; do
	case $f in
	*/trace.dat) t=$(dirname "$f") ;;
	*) t=$f ;;
	esac
	check_trace "${t#"$SR_SOURCE_DIR"/}" "$t"
	n=$((n + 1))
done < <(fixture_traces; extra_traces)
check "every fixture trace replayed ($n)" test "$n" -ge 6

# --- the 4-node trace in detail ---------------------------------------------
"$SR_BIN" replay --quiet --json "$T/n1.json" "$FIX/numa01-4n" >"$T/n1.txt"
check "numa01: the text summary shows fidelity" grep -q '^fidelity' "$T/n1.txt"
check "numa01: fidelity names lb-v6.1 for lb-pull (the 6.1 kernel's model)" \
	test "$(jq -r '.summary.fidelity["lb-pull"].policy' "$T/n1.json")" = lb-v6.1
check "numa01: numa-swap decisions come in pairs from sched_swap_numa" \
	test "$(jq '[.decisions[] | select(.class == "numa-swap" and .partner_tid != null)] | length' "$T/n1.json")" -gt 0
check "numa01: kernel counters from schedstat-delta.txt" \
	test "$(jq '.summary.kernel_counters["lb-pull"].kernel' "$T/n1.json")" = 357
check "numa01: default pairs named in the report" \
	test "$(jq -r '[.policies.old[].name] | join(",")' "$T/n1.json")" = "lb-v4.1,numa-v4.18,exec-least-loaded,wakeup-v5.19,fork-v5.10"
check "numa01: the default wake-up pair disagrees somewhere" \
	jq -e '.summary.classes.wakeup.disagreements > 0' "$T/n1.json"
check "numa01: every fork is a decision" \
	test "$(jq '.summary.by_class.fork' "$T/n1.json")" = 137
check "numa01: wake-up choice fidelity for the 6.1 model" \
	jq -e '.summary.choice_fidelity.wakeup | .policy == "wakeup-v6.1" and .decisions > 3000 and .same > 0' "$T/n1.json"
check "numa01: disagreements agree with the decisions" \
	test "$(jq '[.decisions[] | select(.disagree)] | length' "$T/n1.json")" = "$(jq .summary.disagreements "$T/n1.json")"

check "numa01: the kernel's se.nr_migrations equal the trace's migrations of sampled tasks" \
	test "$(jq '.summary.task_counters.kernel.nr_migrations' "$T/n1.json")" = "$(jq '.summary.task_counters.replay.migrations' "$T/n1.json")"
check "numa01: task counters cover the sampled tasks" \
	test "$(jq '.summary.task_counters.tasks' "$T/n1.json")" -gt 0

# a pair that must disagree somewhere on this trace: v4.1 and v6.1 locality logic
"$SR_BIN" replay --quiet --json "$T/p.json" --old lb-v4.1 --new lb-v6.1 "$FIX/numa01-4n" >/dev/null
check "--old/--new: the chosen policies are used" \
	test "$(jq -r '.policies.new[0].name' "$T/p.json")" = lb-v6.1
check "--old/--new: wakeups have no policy on either side" \
	test "$(jq '[.decisions[] | select(.class == "wakeup" and .old != null)] | length' "$T/p.json")" = 0

# --param reaches the policies that have it, and changes verdicts
"$SR_BIN" replay --quiet --json "$T/hot.json" --param sched_migration_cost_ns=1000000000 "$FIX/numa01-4n" >/dev/null
check "--param is printed with the policy" \
	test "$(jq '.policies.old[0].params.sched_migration_cost_ns' "$T/hot.json")" = 1000000000
check "--param changes verdicts (everything is cache hot)" \
	test "$(jq '.summary.classes["lb-pull"].old_allow' "$T/hot.json")" -lt "$(jq '.summary.classes["lb-pull"].old_allow' "$T/n1.json")"
"$SR_BIN" replay --quiet --json "$T/pp.json" --param lb-v4.1:NUMA=1 "$FIX/numa01-4n" >/dev/null
check "--param P:K=V sets one policy" test "$(jq '.policies.old[0].params.NUMA' "$T/pp.json")" = true

# NDJSON: one decision per line, the same as the document's
"$SR_BIN" replay --quiet --ndjson "$T/d.nd" "$FIX/numa01-4n" >/dev/null
check "--ndjson: a line per decision" test "$(wc -l <"$T/d.nd")" = "$(jq '.decisions | length' "$T/n1.json")"
check "--ndjson lines validate" $VALIDATE --ndjson "$SCHEMA" "$T/d.nd"
check "--ndjson and --json say the same" \
	diff <(jq -c '.decisions[]' "$T/n1.json") <(jq -s -c 'sort_by(.seq)[]' "$T/d.nd")
"$SR_BIN" replay --quiet --ndjson - "$FIX/numa02-2n" >"$T/stdout.nd"
check "--ndjson - streams to stdout without the summary" \
	test "$(jq -s length "$T/stdout.nd")" = "$(wc -l <"$T/stdout.nd")"

# --fail-on-disagree
expect_exit 1 "--fail-on-disagree with disagreements" \
	"$SR_BIN" replay --quiet --fail-on-disagree --old lb-v4.1 --new lb-v6.1 "$FIX/numa01-4n"
expect_exit 0 "--fail-on-disagree when a policy is compared with itself" \
	"$SR_BIN" replay --quiet --fail-on-disagree --old lb-v6.1 --new lb-v6.1 "$FIX/numa01-4n"

# plugins
if [ -f "$PLUGINS/policy-example.so" ]; then
	expect_exit 0 "a plugin policy as the new side" "$SR_BIN" replay --quiet --json "$T/pl.json" \
		--plugin "$PLUGINS/policy-example.so" --new lb-idle-dst-wins "$FIX/numa02-2n"
	check "the plugin decided lb-pull" \
		test "$(jq '[.decisions[] | select(.new.policy == "lb-idle-dst-wins")] | length' "$T/pl.json")" -gt 0
	expect_exit 3 "a plugin of another ABI major" "$SR_BIN" replay \
		--plugin "$PLUGINS/plugin-bad-abi.so" "$FIX/numa02-2n"
	check "ABI error names the file" grep -q "plugin-bad-abi.so" "$T/err"
	check "ABI error is one line" test "$(wc -l <"$T/err")" = 1
	check "ABI error names both versions" grep -q "policy ABI version 3.0, this schedreplay runs versions 1.x to 2.x" "$T/err"
	expect_exit 0 "a plugin of ABI 1.2 named by its path as the new side" "$SR_BIN" replay --quiet \
		--json "$T/abi1.json" --new "$PLUGINS/plugin-abi1.so" "$FIX/numa01-4n"
	check "the ABI 1 plugin chose by the engine's walk: a task for every lb decision it judged" \
		test "$(jq '[.decisions[] | select(.new.policy == "lb-abi1-first" and .new.verdict != "unknown" and (.new.choice | type) != "object")] | length' "$T/abi1.json")" = 0
	check "every task the walk pulls for it is one it allows (not running)" \
		test "$(jq '[.decisions[] | select(.new.policy == "lb-abi1-first" and .new.choice.tid != null and (.new.choice.reasons | index("task-cold") | not))] | length' "$T/abi1.json")" = 0
	check "it pulls another task than the kernel's where the kernel's ran" \
		test "$(jq '[.decisions[] | select(.new.policy == "lb-abi1-first" and .new.choice.tid != null and .new.choice.tid != .tid)] | length' "$T/abi1.json")" -gt 0
	expect_exit 3 "a plugin without the entry symbol" "$SR_BIN" replay \
		--plugin "$PLUGINS/plugin-no-entry.so" "$FIX/numa02-2n"
	expect_exit 0 "policies lists a plugin" "$SR_BIN" policies --plugin "$PLUGINS/policy-example.so"
	check "policies shows it" grep -q '^lb-idle-dst-wins' "$T/out"
	# a bare name is never searched for: not on LD_LIBRARY_PATH, not in the
	# current folder; no constructor of it runs
	rm -f "$T/mark"
	SR_TEST_CTOR_MARK=$T/mark LD_LIBRARY_PATH=$PLUGINS expect_exit 3 "a plugin named without a path" \
		"$SR_BIN" replay --plugin plugin-ctor.so "$FIX/numa02-2n"
	check "the bare name is refused, saying why" grep -q "'plugin-ctor.so': a policy plugin is named by its path" "$T/err"
	check "no constructor of the bare name ran" test ! -e "$T/mark"
	cd "$PLUGINS" || exit 1
	SR_TEST_CTOR_MARK=$T/mark expect_exit 3 "a bare name of a file in the current folder" \
		"$SR_BIN" replay --plugin plugin-ctor.so "$FIX/numa02-2n"
	cd - >/dev/null || exit 1
	check "no constructor ran from the current folder" test ! -e "$T/mark"
	SR_TEST_CTOR_MARK=$T/mark expect_exit 0 "the same plugin by its path" \
		"$SR_BIN" policies --plugin "$PLUGINS/plugin-ctor.so"
	check "given by its path, it loads (its constructor ran)" test -e "$T/mark"
	expect_exit 3 "a plugin that is not an ELF file" "$SR_BIN" replay --plugin "$FIX/numa02-2n/uname.txt" "$FIX/numa02-2n"
	check "non-ELF refused before dlopen" grep -q "numa02-2n/uname.txt': not an ELF shared object (at byte 0)" "$T/err"
	expect_exit 3 "a plugin that is a device" "$SR_BIN" replay --plugin /dev/zero "$FIX/numa02-2n"
	check "a device refused" grep -q "'/dev/zero': a policy plugin must be a regular file" "$T/err"
else
	echo "# SKIP: test plugins not built"
fi

# policies
expect_exit 0 "policies" "$SR_BIN" policies
for p in lb-v4.1 lb-v4.1-numa-hotness lb-v4.3 lb-v6.1 numa-v4.18 numa-v4.19 exec-least-loaded exec-round-robin; do
	check "policies lists $p" grep -q "^$p\$" "$T/out"
done
expect_exit 0 "policies --json" "$SR_BIN" policies --json
check "policies --json has parameters with defaults" \
	test "$(jq '.[] | select(.name == "lb-v4.1") | .params.sched_migration_cost_ns' "$T/out")" = 500000

# bad input
expect_exit 2 "unknown policy" "$SR_BIN" replay --old lb-v9 "$FIX/numa02-2n"
check "unknown policy is named" grep -q "unknown policy 'lb-v9'" "$T/err"
expect_exit 2 "--param no chosen policy has" "$SR_BIN" replay --param bogus=1 "$FIX/numa02-2n"
check "names the parameter" grep -q "bogus=1" "$T/err"
expect_exit 2 "--param with a bad value" "$SR_BIN" replay --param sched_migration_cost_ns=abc "$FIX/numa02-2n"
expect_exit 2 "--param without =" "$SR_BIN" replay --param lb-v4.1:NUMA "$FIX/numa02-2n"
expect_exit 2 "two policies for the same classes on one side" \
	"$SR_BIN" replay --old lb-v4.1,lb-v6.1 "$FIX/numa02-2n"
expect_exit 3 "replay of a missing trace" "$SR_BIN" replay "$T/none.dat"
expect_exit 3 "no half-written JSON on bad input" "$SR_BIN" replay --json "$T/x.json" "$T/none.dat"
check "JSON file absent" test ! -e "$T/x.json"
expect_exit 2 "--json and --ndjson both on stdout" "$SR_BIN" replay --json - --ndjson - "$FIX/numa02-2n"

# decisions in a lost-events window: counted in the JSON, said in the text
n=$("$SR_BIN" replay --quiet --json - "$FIX/dat/lost-v6.dat" | jq .summary.lost_window)
check "lost-v6.dat has decisions in a lost-events window ($n)" test "$n" -gt 0
"$SR_BIN" replay --quiet "$FIX/dat/lost-v6.dat" >"$T/lost.txt"
check "the text report says how many" grep -q "^($n decisions fall within 20 ms after lost events" "$T/lost.txt"
"$SR_BIN" replay --quiet "$FIX/numa01-4n" >"$T/nolost.txt"
check "and says nothing when there are none" bash -c "! grep -q 'after lost events' '$T/nolost.txt'"

finish
