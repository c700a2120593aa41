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

# Switches the trace lacks (docs/robustness.md): counted apart from damage,
# with the tasks they leave out, and equal to what a plain walk of each
# CPU's switches finds (prev_pid is not the previous next_pid there).
# chain_missing FILE: "count idle top-tid top-count" from the text of FILE
chain_missing() {
	python3 - "$1" <<'PY'
import collections, re, sys
cur, by = {}, collections.Counter()
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"\[(\d+)\]\s+(?:\S+\s+)?[\d.]+: sched_switch: .*prev_pid=(\d+) .*next_pid=(\d+)", line)
    if not m:
        continue
    cpu, prev, nxt = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if cpu in cur and cur[cpu] != prev:
        by[cur[cpu]] += 1
    cur[cpu] = nxt
tasks = sorted(((n, -t) for t, n in by.items() if t), reverse=True)
print(sum(by.values()), by[0], -tasks[0][1] if tasks else "-", tasks[0][0] if tasks else 0)
PY
}
# report_missing JSON: the same four numbers from info --json
report_missing() {
	jq -r '.switches_missing | "\(.count) \(.idle) \(.tasks[0].tid // "-") \(.tasks[0].count // 0)"' "$1"
}
H=$FIX/text/tracefs-host.txt
# make-tracefs-sa's switches away on CPU 0, every other one taken out
python3 - "$H" "$T/cut-switches.txt" <<'PY'
import sys
out, n = [], 0
for line in open(sys.argv[1], errors="surrogateescape"):
    if "[000]" in line and "sched_switch: prev_comm=make-tracefs-sa prev_pid=5985 " in line:
        n += 1
        if n % 2 == 0:
            continue
    out.append(line)
open(sys.argv[2], "w", errors="surrogateescape").writelines(out)
PY
for f in "$H" "$T/cut-switches.txt"; do
	b=$(basename "$f")
	expect_exit 0 "info --json $b" "$SR_BIN" info --json "$f"
	cp "$T/out" "$T/sm.json"
	want=$(chain_missing "$f")
	check "$b: switches_missing is what a walk of the switches finds ($want)" \
		test "$(report_missing "$T/sm.json")" = "$want"
	check "$b: not counted as damage" test "$(jq '.damage | has("switch_mismatch")' "$T/sm.json")" = false
done
check "taking switches out adds exactly them, to make-tracefs-sa" test \
	"$(jq '.switches_missing.tasks[] | select(.tid == 5985) | .count' "$T/sm.json")" = \
	"$(grep -c '\[000\].*sched_switch: prev_comm=make-tracefs-sa prev_pid=5985 ' "$H" | awk '{ print int($1 / 2) }')"
expect_exit 0 "info on a trace with switches missing" "$SR_BIN" info "$H"
check "text: the switches line names the idle task" grep -qE '^ +44  the idle task \[0\]$' "$T/out"
check "text: the damage line no longer counts them" grep -qE '^damage: .* 0 bad markers, 0 pid reuses$' "$T/out"
# the bundled trace.dat: 19020 missing, most away from the host agent's threads
M=$FIX/host-2cpu-mixed.dat
expect_exit 0 "info --json host-2cpu-mixed.dat" "$SR_BIN" info --json "$M"
check "host-2cpu-mixed.dat: 19020 switches missing, 378 away from idle, most (9563) from tid 69" \
	test "$(report_missing "$T/out")" = "19020 378 69 9563"
if command -v trace-cmd >/dev/null; then
	trace-cmd report -i "$M" 2>/dev/null | sed -E 's/sched_switch: +([^ ]*):([0-9]+) \[[0-9]+\] \S+ ==> ([^ ]*):([0-9]+) /sched_switch: prev_comm=\1 prev_pid=\2 x ==> next_comm=\3 next_pid=\4 /' \
		>"$T/mixed.txt"
	check "host-2cpu-mixed.dat: trace-cmd report's switches lack the same" \
		test "$(chain_missing "$T/mixed.txt")" = "19020 378 69 9563"
else
	echo "# SKIP trace-cmd not installed: host-2cpu-mixed.dat against trace-cmd report"
fi

# The order of sources (topology.md, cli.md): --topology over the trace's own
# lines (with a warning naming both), the trace's lines over the folder's numactl-H.txt
expect_exit 0 "--topology over the trace's lines" "$SR_BIN" info --json \
	--topology "$FIX/numa01-4n/numactl-H.txt" "$FIX/numa02-2n"
check "--topology wins: source numactl, 4 nodes" \
	test "$(jq -r '"\(.topology.source) \(.nodes)"' "$T/out")" = "numactl 4"
check "--topology wins: the warning names both" \
	grep -qF "(4 nodes, 8 cpus) overrides the trace's own (2 nodes, 4 cpus)" "$T/err"
expect_exit 0 "a capture folder whose trace carries its topology" "$SR_BIN" info --json "$FIX/numa02-2n"
check "the trace's lines win over numactl-H.txt beside it" \
	test "$(jq -r .topology.source "$T/out")" = trace

finish
