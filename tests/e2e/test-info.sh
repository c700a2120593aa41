#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests of `schedreplay info` on the bundled real traces, on the
# shared traces when present, and on bad input.
. "$(dirname "$0")/lib.sh"

# --- the bundled 4-node trace -------------------------------------------------
expect_exit 0 "info --json on a capture folder" "$SR_BIN" info --json "$FIX/numa01-4n"
cp "$T/out" "$T/numa01.json"
check "cpus = 8" test "$(jq .cpus "$T/numa01.json")" = 8
check "nodes = 4 from the trace's own lines" \
	test "$(jq -r '"\(.nodes) \(.topology.source)"' "$T/numa01.json")" = "4 trace"
check "distance row of node 2 is 40 40 10 20" \
	test "$(jq -c '.topology.nodes[2].distance' "$T/numa01.json")" = "[40,40,10,20]"
check "kernel release from the trace" \
	test "$(jq -r .kernel_release "$T/numa01.json")" = "6.1.0-57-amd64"
check "format and version" \
	test "$(jq -r '"\(.format) \(.file_version) \(.compression)"' "$T/numa01.json")" = "trace.dat 7 zstd"
# the event section of event-counts.txt ends at "# trace span"
awk '/^# trace span/ { exit } /^ +[0-9]+ [a-z_]+$/ { print $2, $1 }' \
	"$FIX/numa01-4n/event-counts.txt" | sort >"$T/want"
json_counts <"$T/numa01.json" >"$T/got"
check "per-event counts equal event-counts.txt" diff -u "$T/want" "$T/got"
check "migrations = sched_migrate_task count" \
	test "$(jq .migrations "$T/numa01.json")" = "$(jq '.events.sched_migrate_task' "$T/numa01.json")"
check "duration_ns is the span trace-cmd saw (91.817 s)" \
	test "$(jq '.duration_ns / 1000000 | floor' "$T/numa01.json")" = 91816
check "tasks seen > 0" test "$(jq .tasks "$T/numa01.json")" -gt 0
check "no lost events" test "$(jq .lost_events.total "$T/numa01.json")" = 0

expect_exit 0 "info text" "$SR_BIN" info "$FIX/numa01-4n"
check "text names the topology source" grep -q '^nodes: *4 (topology from trace' "$T/out"
check "text lists sched_switch with its count" grep -Eq '^  sched_switch +10419$' "$T/out"

# --- the same trace as trace-cmd report text gives the same counts -------------
if command -v trace-cmd >/dev/null; then
	trace-cmd report -i "$FIX/numa01-4n/trace.dat" >"$T/numa01.txt" 2>/dev/null
	expect_exit 0 "info on trace-cmd report text" "$SR_BIN" info --json --quiet "$T/numa01.txt"
	json_counts <"$T/out" >"$T/got-text"
	check "text and trace.dat counts agree" diff -u "$T/got" "$T/got-text"
	check "text: topology from the marker lines" test "$(jq -r .topology.source "$T/out")" = trace

	# --- every real trace: counts equal trace-cmd report's ----------------------
	while IFS= read -r dat; do
		name=${dat#"$SR_SOURCE_DIR"/}
		trace-cmd report -i "$dat" 2>/dev/null | report_counts >"$T/want"
		if "$SR_BIN" info --json --quiet "$dat" >"$T/j" 2>"$T/err"; then
			json_counts <"$T/j" >"$T/got"
			check "$name: counts equal trace-cmd report" diff -u "$T/want" "$T/got"
		else
			fail "$name: info failed: $(cat "$T/err")"
		fi
	done < <(fixture_traces; extra_traces)
else
	echo "# SKIP: trace-cmd not installed; text and trace-cmd report comparisons not run"
fi

# --- options and usage --------------------------------------------------------
expect_exit 0 "--version" "$SR_BIN" --version
check "version line" grep -q '^schedreplay [0-9]' "$T/out"
expect_exit 0 "info --help" "$SR_BIN" info --help
expect_exit 2 "no command" "$SR_BIN"
expect_exit 2 "unknown command" "$SR_BIN" inf
expect_exit 2 "info without TRACE" "$SR_BIN" info
expect_exit 2 "unknown option" "$SR_BIN" info --bogus "$FIX/numa01-4n"
expect_exit 2 "unknown --format" "$SR_BIN" info --format xml "$FIX/numa01-4n"

# --- bad input: one error line naming the file, exit 3, no output file ------
expect_exit 3 "missing file" "$SR_BIN" info "$T/nope.dat"
check "missing file: message names it" grep -q "nope.dat" "$T/err"
: >"$T/empty.dat"
expect_exit 3 "empty file" "$SR_BIN" info "$T/empty.dat"
check "empty file: says empty" grep -q "empty" "$T/err"
head -c 4096 /dev/urandom | tr -d '\n' >"$T/random.bin"
printf 'PK\003\004' | cat - "$T/random.bin" >"$T/zip.dat"
expect_exit 3 "wrong magic" "$SR_BIN" info "$T/zip.dat"
check "wrong magic: byte 0 named" grep -q "zip.dat' at byte 0" "$T/err"
check "wrong magic: one line" test "$(wc -l <"$T/err")" = 1
head -c 100000 "$FIX/numa01-4n/trace.dat" >"$T/trunc.dat"
"$SR_BIN" info --json --quiet "$T/trunc.dat" >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 3 ]; then
	check "truncated trace.dat: error names file and byte" grep -q "trunc.dat' at byte" "$T/err"
else
	fail "truncated trace.dat: exit $rc, wanted 3"
fi
expect_exit 3 "no half-written output file on bad input" \
	"$SR_BIN" info --json -o "$T/o.json" "$T/zip.dat"
check "output file absent" test ! -e "$T/o.json"
check "no temporary left" test -z "$(ls "$T" | grep 'o.json.tmp' || true)"

# a text trace with an event on a CPU the given topology does not have
cat >"$T/cpu99.txt" <<'TXT'
cpus=2
          <idle>-0     [000]     1.000000: sched_switch:         swapper/0:0 [120] R ==> a:10 [120]
               a-10    [099]     1.000100: sched_switch:         a:10 [120] S ==> swapper/99:0 [120]
TXT
expect_exit 3 "cpu out of the topology's range" \
	"$SR_BIN" info --topology "$FIX/numa02-2n/numactl-H.txt" "$T/cpu99.txt"
check "cpu out of range: names line 3" grep -q "cpu99.txt' at line 3" "$T/err"

# damage that can be read around: a garbage line is counted, --strict is fatal
cat >"$T/garbage.txt" <<'TXT'
cpus=1
          <idle>-0     [000]     1.000000: sched_switch:         swapper/0:0 [120] R ==> a:10 [120]
this line is not an event
               a-10    [000]     1.000100: sched_switch:         a:10 [120] S ==> swapper/0:0 [120]
TXT
expect_exit 0 "garbage line read around" "$SR_BIN" info --json --format report "$T/garbage.txt"
check "garbage line counted" test "$(jq .damage.bad_lines "$T/out")" = 1
check "garbage line warned with its line" grep -q "garbage.txt' at line 3" "$T/err"
expect_exit 3 "--strict makes it fatal" "$SR_BIN" info --strict --format report "$T/garbage.txt"
check "--strict: names line 3" grep -q "garbage.txt' at line 3" "$T/err"

finish
