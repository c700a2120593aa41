#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test-compare.sh - end to end: run `schedreplay compare` on the fixtures and
# check verdicts, JSON fields, exit codes and that --json FILE never leaves a
# half-written file.  Needs SR_BIN and SR_SOURCE_DIR (set by CTest); JSON is
# checked with python3's json module (jq is not required).
set -u
: "${SR_BIN:?}" "${SR_SOURCE_DIR:?}"
F=$SR_SOURCE_DIR/fixtures/compare
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect_rc RC CMD...: run, keep stdout/stderr in $T/out, $T/err
expect_rc() {
	local want=$1; shift
	"$@" >"$T/out" 2>"$T/err"
	local rc=$?
	[ "$rc" -eq "$want" ] || fail "exit $rc, wanted $want: $* ($(head -c 300 "$T/err"))"
}

# jget FILE PYEXPR: evaluate PYEXPR with d = the JSON document
jget() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# 1. seed 000, Power8 rows as quoted by the reviewer (before/after table, no --vs)
expect_rc 0 "$SR_BIN" compare "$F/seed000-power8.txt" --higher-is-better --json "$T/p8.json"
grep -q 'spread changed x19.5 - inconclusive' "$T/out" || fail "power8 table verdict: $(cat "$T/out")"
[ "$(jget "$T/p8.json" 'd["metrics"][0]["verdict"]')" = inconclusive ] || fail "power8 verdict"
[ "$(jget "$T/p8.json" 'round(d["metrics"][0]["change_pct"], 3)')" = -2.906 ] || fail "power8 change"
[ "$(jget "$T/p8.json" 'd["metrics"][0]["p_value"] > 0.05 and d["metrics"][0]["ci95"][0] < 0 < d["metrics"][0]["ci95"][1]')" = True ] ||
	fail "power8 p/ci"
[ "$(jget "$T/p8.json" 'd["metrics"][0]["spread_p_value"] < 0.001 and round(d["metrics"][0]["spread_ratio"], 1)')" = 19.5 ] ||
	fail "power8 spread"
[ "$(jget "$T/p8.json" 'isinstance(d["metrics"][0]["runs_needed"], int)')" = True ] || fail "power8 runs_needed"
[ "$(jget "$T/p8.json" 'sorted(d["metrics"][0].keys())')" = \
  "['base', 'base_label', 'change_pct', 'ci95', 'direction_from', 'higher_is_better', 'name', 'new', 'new_label', 'notes', 'p_family', 'p_value', 'runs_needed', 'spread_p_value', 'spread_ratio', 'verdict']" ] ||
	fail "power8 keys"
[ "$(jget "$T/p8.json" 'sorted(d["metrics"][0]["base"].keys())')" = "['max', 'mean', 'median', 'min', 'n', 'stddev']" ] ||
	fail "base keys"
[ "$(jget "$T/p8.json" 'any("standard deviation with divisor n" in n for n in d["metrics"][0]["notes"])')" = True ] ||
	fail "variance sanity note"
ls "$T" | grep -q 'p8.json\.' && fail "temporary file left behind"

# 2. the whole dbench block: 4 machines; Intel is a real gain
expect_rc 0 "$SR_BIN" compare "$F/seed000-dbench.txt" --json -
[ "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print([m["verdict"] for m in d["metrics"]])' <"$T/out")" = \
  "['better', 'inconclusive', 'no-difference', 'no-difference']" ] || fail "dbench verdicts: $(head -c 400 "$T/out")"

# 3. seed 002 autonuma-benchmark (times: lower is better, 5 runs, no count column)
expect_rc 3 "$SR_BIN" compare "$F/seed002-autonuma.txt"
grep -q "seed002-autonuma.txt' at line 5: .*--count" "$T/err" || fail "missing --count message: $(cat "$T/err")"
expect_rc 0 "$SR_BIN" compare "$F/seed002-autonuma.txt" --count 5 --lower-is-better --json "$T/a.json"
[ "$(jget "$T/a.json" 'len(d["metrics"])')" = 8 ] || fail "autonuma metrics"
[ "$(jget "$T/a.json" 'set(m["verdict"] for m in d["metrics"])')" = "{'no-difference'}" ] || fail "autonuma verdicts"

# 4. raw runs: columns, plain numbers, replay reports
expect_rc 0 "$SR_BIN" compare "$F/runs-base.txt" --vs "$F/runs-new.txt" --lower-is-better --json "$T/r.json"
[ "$(jget "$T/r.json" '[m["verdict"] for m in d["metrics"]]')" = "['better', 'no-difference', 'better']" ] ||
	fail "columns verdicts"
expect_rc 0 "$SR_BIN" compare "$F/numbers-base.txt" --vs "$F/numbers-new.txt" --harmonic --json -
[ "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["metrics"][0]["verdict"])' <"$T/out")" = better ] ||
	fail "numbers verdict"
expect_rc 0 "$SR_BIN" compare "$F"/report-base-*.json --vs "$F"/report-new-*.json --lower-is-better --json "$T/j.json"
grep -q "metric 'unknown' is only on the base side" "$T/err" || fail "one-sided metric warning"
[ "$(jget "$T/j.json" '[m["verdict"] for m in d["metrics"] if m["name"] == "disagreements"]')" = "['better']" ] ||
	fail "report disagreements"

# 5. errors and usage
expect_rc 2 "$SR_BIN" compare
expect_rc 2 "$SR_BIN" compare "$F/numbers-base.txt" --vs
expect_rc 2 "$SR_BIN" compare "$F/numbers-base.txt" --vs "$F/numbers-new.txt" --alpha 2
expect_rc 2 "$SR_BIN" compare "$F/numbers-base.txt" --bogus
expect_rc 0 "$SR_BIN" compare --help
grep -q -- '--vs NEW' "$T/out" || fail "help text"
printf '1\n2\nx3\n' >"$T/bad.txt"
expect_rc 3 "$SR_BIN" compare "$T/bad.txt" --vs "$F/numbers-new.txt"
grep -q "bad.txt' at line 3: " "$T/err" || fail "bad line message: $(cat "$T/err")"
expect_rc 3 "$SR_BIN" compare "$T/missing.txt" --vs "$F/numbers-new.txt"
expect_rc 3 "$SR_BIN" compare "$F/numbers-base.txt" --vs "$F/runs-new.txt"
grep -q "no metric is on both sides" "$T/err" || fail "no common metric"
head -c 4096 /dev/urandom >"$T/noise.bin"
expect_rc 3 "$SR_BIN" compare "$T/noise.bin" --vs "$F/numbers-new.txt"
# an unwritable --json target: exit 4, no partial file
expect_rc 4 "$SR_BIN" compare "$F/numbers-base.txt" --vs "$F/numbers-new.txt" --json "$T/nodir/x.json"

# 6. the seed mails pasted whole: a verdict for every table
v() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1" <"$T/out"; }
expect_rc 0 "$SR_BIN" compare "$F/seed000-mail.txt" --json -
[ "$(v 'len(d["metrics"])')" = 12 ] || fail "seed 000 whole: $(v 'len(d["metrics"])') metrics"
[ "$(v '[m["verdict"] for m in d["metrics"] if m["name"].startswith("dbench")]')" = \
  "['better', 'inconclusive', 'no-difference', 'no-difference']" ] || fail "seed 000 dbench verdicts"
[ "$(v 'sorted(set(m["verdict"] for m in d["metrics"] if m["name"].startswith("specjbb")))')" = "['inconclusive']" ] ||
	fail "seed 000 specjbb verdicts"
[ "$(v '[round(m["change_pct"], 2) for m in d["metrics"]][:2]')" = "[3.33, -3.28]" ] || fail "specjbb change"
[ "$(v 'all(m["higher_is_better"] for m in d["metrics"])')" = True ] || fail "seed 000 direction"
expect_rc 0 "$SR_BIN" compare "$F/seed002-mail.txt" --count 5 --json -
[ "$(v 'len(d["metrics"])')" = 17 ] || fail "seed 002 whole"
[ "$(v 'set(m["verdict"] for m in d["metrics"][:8])')" = "{'no-difference'}" ] ||
	fail "seed 002 table verdicts"
[ "$(v 'sum("StdDev column" in n and "divisor n:" in n and "fits 16 of its rows" in n for m in d["metrics"] for n in m["notes"])')" = 16 ] ||
	fail "seed 002: one reading for the StdDev column"
expect_rc 0 "$SR_BIN" compare "$F/seed003-mail.txt" --json -
[ "$(v 'len(d["metrics"])')" = 72 ] || fail "seed 003 whole"
[ "$(v 'set(m["verdict"] for m in d["metrics"])')" = "{'inconclusive'}" ] || fail "seed 003 verdicts"
[ "$(v 'd["metrics"][0]["name"]')" = "Kernbench: Elapsed [2.5.44-mm4-hbaum vs 2.5.44-mm4]" ] || fail "seed 003 name"
expect_rc 0 "$SR_BIN" compare "$F/seed003-mail.txt" --base 2.5.44-mm4-focht-12 --json -
[ "$(v 'set(m["base_label"] for m in d["metrics"])')" = "{'2.5.44-mm4-focht-12'}" ] || fail "--base"

# 7. real benchmark output: same configuration twice, one CPU instead of two
verdict_of() { v "[m['verdict'] for m in d['metrics'] if m['name'].startswith(sys.argv[2])][0]" "$1"; }
vq() { python3 -c 'import json,sys; d=json.load(sys.stdin); print([m["verdict"] for m in d["metrics"] if m["name"].startswith(sys.argv[1])])' "$1" <"$T/out"; }
expect_rc 0 "$SR_BIN" compare "$F/perf-messaging-2cpu-a.txt" --vs "$F/perf-messaging-2cpu-b.txt" --json -
[ "$(vq 'perf bench sched/messaging')" = "['no-difference']" ] || fail "messaging twice"
expect_rc 0 "$SR_BIN" compare "$F/perf-messaging-2cpu-a.txt" --vs "$F/perf-messaging-1cpu.txt" --json -
[ "$(vq 'perf bench sched/messaging')" = "['worse']" ] || fail "messaging on one CPU"
expect_rc 0 "$SR_BIN" compare "$F/perf-pipe-2cpu-a.txt" --vs "$F/perf-pipe-2cpu-b.txt" --json -
[ "$(vq 'perf bench sched/pipe')" = "['no-difference', 'no-difference', 'no-difference']" ] || fail "pipe twice"
[ "$(v '[m["higher_is_better"] for m in d["metrics"]]')" = "[False, False, True]" ] || fail "pipe directions"
expect_rc 0 "$SR_BIN" compare "$F/perf-pipe-2cpu-a.txt" --vs "$F/perf-pipe-1cpu.txt" --json -
[ "$(vq 'perf bench sched/pipe')" = "['better', 'better', 'better']" ] || fail "pipe on one CPU (no cross-CPU wakeups)"
expect_rc 0 "$SR_BIN" compare "$F/hackbench-2cpu-a.txt" "$F/hackbench-2cpu-b.txt" "$F/hackbench-1cpu.txt" --json -
[ "$(vq 'hackbench')" = "['no-difference', 'worse']" ] || fail "hackbench"
[ "$(v 'd["metrics"][0]["base"]["median"]')" = "$(grep -h '^Time:' "$F/hackbench-2cpu-a.txt" | awk '{print $2}' | sort -n | awk '{a[NR]=$1} END {print (a[5]+a[6])/2}')" ] ||
	fail "hackbench median"
expect_rc 0 "$SR_BIN" compare "$F/perf-stat-2cpu-a.txt" --vs "$F/perf-stat-2cpu-b.txt" --json -
[ "$(vq 'perf stat')" = "['no-difference', 'no-difference', 'no-difference', 'no-difference', 'no-difference']" ] ||
	fail "perf stat twice: $(vq 'perf stat')"
[ "$(v '[round(m["p_value"], 4) < 0.05 < m["p_family"] for m in d["metrics"] if "elapsed" in m["name"]]')" = "[True]" ] ||
	fail "perf stat twice: Holm"
expect_rc 0 "$SR_BIN" compare "$F/perf-stat-2cpu-a.txt" --vs "$F/perf-stat-2cpu-b.txt" --uncorrected --json -
[ "$(vq 'perf stat: time')" = "['worse']" ] || fail "--uncorrected"
expect_rc 0 "$SR_BIN" compare "$F/perf-stat-pipe-2cpu-a.txt" --vs "$F/perf-stat-pipe-2cpu-b.txt" --json -
[ "$(vq 'perf stat: time')" = "['inconclusive']" ] || fail "perf stat pipe: the first run was disturbed"
[ "$(vq 'perf stat: context')" = "['inconclusive']" ] || fail "perf stat: +- 0.00% is no spread known"
expect_rc 0 "$SR_BIN" compare "$F/perf-stat-2cpu-a.txt" --vs "$F/perf-stat-1cpu.txt" --json -
[ "$(v 'd["metrics"][0]["base"]["n"]')" = 5 ] || fail "perf stat runs"
[ "$(v 'round(d["metrics"][-1]["base"]["stddev"], 4)')" = "$(python3 -c 'print(round(0.0302*5**0.5, 4))')" ] ||
	fail "perf stat: +- is the sd of the mean"
# a workload that uses both CPUs: twice the same is no difference, pinned to one CPU it is worse
expect_rc 0 "$SR_BIN" compare "$F/perf-stat-g10-2cpu-a.txt" --vs "$F/perf-stat-g10-2cpu-b.txt" --json -
[ "$(vq 'perf stat: time')" = "['no-difference']" ] || fail "perf stat -g 10 twice: $(vq 'perf stat: time')"
expect_rc 0 "$SR_BIN" compare "$F/perf-stat-g10-2cpu-a.txt" --vs "$F/perf-stat-g10-1cpu.txt" --json -
[ "$(vq 'perf stat: time')" = "['worse']" ] || fail "perf stat -g 10 on one CPU: $(vq 'perf stat: time')"
expect_rc 0 "$SR_BIN" compare "$F/dbench-2cpu.txt" "$F/dbench-1cpu.txt" --json -
[ "$(v '[(m["name"].split(" [")[0], m["base"]["n"]) for m in d["metrics"]]')" = \
  "[('dbench 2 clients: Throughput', 3), ('dbench 2 clients: max_latency', 3)]" ] || fail "dbench: $(v '[m["name"] for m in d["metrics"]]')"
expect_rc 0 "$SR_BIN" compare "$F/schbench-lkml.txt" --json -
[ "$(v 'len(d["metrics"])')" = 8 ] || fail "schbench"
[ "$(v 'd["metrics"][0]["higher_is_better"], d["metrics"][-1]["higher_is_better"]')" = "(False, True)" ] || fail "schbench direction"
expect_rc 0 "$SR_BIN" compare "$F/mmtests-lkml.txt" --count 5 --json -
[ "$(v 'len(d["metrics"])')" = 17 ] || fail "mmtests"
[ "$(v '[n for n in d["metrics"][15]["notes"] if "mmtests marks" in n][0].endswith("agrees")')" = True ] || fail "mmtests mark check"

expect_rc 2 "$SR_BIN" compare "$F/seed003-mail.txt" --base nosuch
grep -q -- "--base 'nosuch' is the label of no row" "$T/err" || fail "--base naming nothing: $(cat "$T/err")"
expect_rc 2 "$SR_BIN" compare "$F/perf-pipe-2cpu-a.txt" --vs "$F/perf-pipe-1cpu.txt" --base x
printf 'Hello,\nthe numbers look good to me.\nThanks\n' >"$T/prose.txt"
expect_rc 3 "$SR_BIN" compare "$T/prose.txt" --vs "$T/prose.txt"
grep -q "prose.txt' at line 2: nothing to compare" "$T/err" || fail "prose only: $(cat "$T/err")"

# 8. direction per metric
expect_rc 0 "$SR_BIN" compare "$F/seed002-autonuma.txt" --count 5 --lower-is-better=total --json -
[ "$(v '[m["direction_from"] for m in d["metrics"] if m["name"] == "total_numa01"]')" = "['--lower-is-better=NAME']" ] ||
	fail "--lower-is-better=NAME"

# 9. real replay reports: the headline figures, not every number of a report
expect_rc 0 "$SR_BIN" replay --quiet "$SR_SOURCE_DIR/fixtures/numa01-4n" --json "$T/r1.json"
expect_rc 0 "$SR_BIN" replay --quiet "$SR_SOURCE_DIR/fixtures/numa02-2n" --json "$T/r2.json"
expect_rc 0 "$SR_BIN" compare "$T/r1.json" --vs "$T/r2.json" --json -
[ "$(v 'sorted(m["name"] for m in d["metrics"])')" = \
  "['cost.totals.delta.remote_accesses', 'cost.totals.delta.weighted', 'decisions', 'disagreements', 'fidelity', 'lost_window', 'unknown']" ] ||
	fail "report headline: $(v '[m["name"] for m in d["metrics"]]')"
[ "$(v '[m["higher_is_better"] for m in d["metrics"] if m["name"] in ("fidelity", "disagreements")]')" = "[False, True]" ] ||
	fail "report directions"
expect_rc 0 "$SR_BIN" compare "$T/r1.json" --vs "$T/r2.json" --metric classes.lb-pull --json -
[ "$(v 'all(m["name"].startswith("classes.lb-pull.") for m in d["metrics"]) and len(d["metrics"]) > 3')" = True ] ||
	fail "--metric prefix"

# 11. every option of `compare --help` is in the man page and in docs/compare.md
"$SR_BIN" compare --help >"$T/help"
for o in $(grep -o -- '--[a-z][a-z-]*' "$T/help" | sort -u); do
	man=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	grep -q -- "$man" "$SR_SOURCE_DIR/docs/schedreplay.1" || fail "man page lacks compare $o"
	grep -q -- "\`$o" "$SR_SOURCE_DIR/docs/compare.md" || fail "docs/compare.md lacks $o"
done

# 10. docs/compare.md: every "$ schedreplay compare ..." block is run as written (from the
# source folder, schedreplay = the binary under test) and prints what the block shows
python3 - "$SR_SOURCE_DIR/docs/compare.md" "$T/docs" <<'PY'
import os, sys
lines = open(sys.argv[1]).read().split('\n')
os.makedirs(sys.argv[2])
k = 0
i = 0
while i < len(lines):
    if lines[i].startswith('$ schedreplay compare') and lines[i - 1].startswith('```'):
        j = i + 1
        while not lines[j].startswith('```'):
            j += 1
        k += 1
        open('%s/%02d.cmd' % (sys.argv[2], k), 'w').write(lines[i][2:] + '\n')
        open('%s/%02d.out' % (sys.argv[2], k), 'w').write(''.join(l + '\n' for l in lines[i + 1:j]))
        i = j
    i += 1
PY
ndoc=0
mkdir -p "$T/bin" && ln -s "$SR_BIN" "$T/bin/schedreplay"
for c in "$T"/docs/*.cmd; do
	ndoc=$((ndoc + 1))
	(cd "$SR_SOURCE_DIR" && PATH="$T/bin:$PATH" bash -c "$(cat "$c")") 2>/dev/null >"${c%.cmd}.got"
	diff -u "${c%.cmd}.out" "${c%.cmd}.got" >"${c%.cmd}.diff" ||
		fail "docs/compare.md: '$(cat "$c")' prints otherwise: $(head -c 600 "${c%.cmd}.diff")"
done
[ "$ndoc" -ge 15 ] || fail "docs/compare.md: only $ndoc commands found"

[ "$fails" -eq 0 ] && echo "test-compare: all passed"
exit $((fails > 0))
