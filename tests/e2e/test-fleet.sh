#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Flat rows and batch replay (docs/fleet.md) without a database: the rows
# have exactly the columns of the documented DDL and say what the nested
# decisions say; host, kernel, labels, trace id and time come from where the
# doc says; several traces through the worker pool give the same rows and
# summaries as one at a time; bad input fails cleanly.
. "$(dirname "$0")/lib.sh"
DOC=$SR_SOURCE_DIR/docs/fleet.md
N1=$FIX/numa01-4n
N2=$FIX/numa02-2n
H1=$FIX/host-baseline-1n

flat() {
	"$SR_BIN" replay --quiet --ndjson-format flat "$@"
}

# ---- the row against the nested decision -------------------------------------------
expect_exit 0 "replay --ndjson-format flat with --json" \
	flat --ndjson "$T/n1.rows" --json "$T/n1.json" --label group=canary --label dc=fra1 "$N1"
check "a row per decision" test "$(wc -l <"$T/n1.rows")" = "$(jq '.decisions | length' "$T/n1.json")"
awk '/<!-- fleet-ddl -->/ { on = 1 } on && /^\)/ { exit } on && /^    [a-z_]+ / { print $1 }' "$DOC" |
	sort >"$T/ddl-columns"
check "the DDL in docs/fleet.md lists 60+ columns" test "$(wc -l <"$T/ddl-columns")" -ge 60
jq -r 'keys[]' "$T/n1.rows" | sort -u >"$T/row-columns"
check "every row has exactly the DDL's columns" diff -u "$T/ddl-columns" "$T/row-columns"
check "every row has all of them" test "$(jq -c 'keys' "$T/n1.rows" | sort -u | wc -l)" = 1

# each row's fields against the nested decision of the same seq
jq -n --slurpfile r "$T/n1.rows" --slurpfile j "$T/n1.json" '
	def b: if . then 1 else 0 end;
	($j[0].decisions | map({key: (.seq | tostring), value: .}) | from_entries) as $d |
	[$r[] | . as $row | $d[$row.seq | tostring] as $n |
	 select(
	  $row.class != $n.class or $row.evidence != $n.evidence or $row.tid != $n.tid or
	  $row.tgid != $n.tgid or $row.comm != $n.comm or $row.ts_ns != $n.ts_ns or
	  $row.src_node != $n.src_node or $row.dst_node != $n.dst_node or
	  $row.partner_tid != $n.partner_tid or
	  $row.old_verdict != $n.old.verdict or $row.new_verdict != $n.new.verdict or
	  $row.kernel_verdict != $n.kernel.verdict or $row.old_policy != $n.old.policy or
	  $row.old_reasons != ($n.old.reasons // []) or $row.new_reasons != ($n.new.reasons // []) or
	  $row.new_target_node != $n.new.target_node or
	  $row.disagree != ($n.disagree | b) or $row.unknown != ($n.unknown | b) or
	  $row.balance_failed_dependent != ($n.balance_failed_dependent | b) or
	  $row.flags != $n.flags or
	  $row.lost_window != ($n.flags | index(["lost-events-window"]) != null | b) or
	  $row.cost_old_remote != $n.cost.old.remote_accesses or
	  $row.cost_new_weighted != $n.cost.new.weighted or
	  $row.cost_trace_node != $n.cost.trace.node or
	  $row.cost_delta_weighted != $n.cost.delta.weighted or
	  $row.cost_interval_ns != $n.cost.interval_ns or $row.cost_unknown != $n.cost.unknown or
	  $row.cost_parts_tid != [($n.cost.parts // [])[] | .tid] or
	  $row.cost_parts_old_weighted != [($n.cost.parts // [])[] | .old.weighted] or
	  $row.cost_parts_new_node != [($n.cost.parts // [])[] | .new.node] or
	  $row.cost_parts_trace_weighted != [($n.cost.parts // [])[] | .trace.weighted])] |
	length' >"$T/mismatch"
check "every row says what its nested decision says" test "$(cat "$T/mismatch")" = 0
check "some rows disagree, some are priced on both sides, some have cost parts (the check above is not vacuous)" \
	test "$(jq -s 'map(select(.disagree == 1)) | length' "$T/n1.rows")" -gt 0 -a \
	"$(jq -s 'map(select(.cost_delta_weighted != null)) | length' "$T/n1.rows")" -gt 0 -a \
	"$(jq -s 'map(select(.cost_parts_tid | length > 1)) | length' "$T/n1.rows")" -gt 0
check "labels in order" test "$(jq -c -s '.[0] | [.label_keys, .label_values]' "$T/n1.rows")" = \
	'[["group","dc"],["canary","fra1"]]'
check "kernel from the trace" test "$(jq -r -s '.[0].kernel' "$T/n1.rows")" = \
	"$(jq -r '.trace.kernel_release' "$T/n1.json")"
check "a host named (none) is unknown" test "$(jq -r -s 'map(.host) | unique | join(",")' "$T/n1.rows")" = unknown
check "policies and parameters" test "$(jq -r -s '.[0] | .old_policies + " " + (.param_keys | length | tostring) + " " + (.param_values | length | tostring)' "$T/n1.rows")" = \
	"$(jq -r '(.policies.old | map(.name) | join(",")) + " " + ([.policies[][] | .params | length] | add | tostring) + " " + ([.policies[][] | .params | length] | add | tostring)' "$T/n1.json")"
check "trace_cpus/nodes" test "$(jq -r -s '.[0] | "\(.trace_cpus) \(.trace_nodes)"' "$T/n1.rows")" = \
	"$(jq -r '"\(.trace.cpus) \(.trace.nodes)"' "$T/n1.json")"

# the trace id as docs/fleet.md defines it
want_id=$(python3 - "$N1/trace.dat" <<'PY'
import os, sys
p = sys.argv[1]
size = os.path.getsize(p)
with open(p, "rb") as f:
    head = f.read(65536)
    f.seek(max(0, size - 65536))
    tail = f.read()
h = 0xcbf29ce484222325
for b in str(size).encode() + b"\n" + head + tail:
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print("%016x" % h)
PY
)
check "trace_id is FNV-1a of size, head and tail" test "$(jq -r -s 'map(.trace_id) | unique | join(",")' "$T/n1.rows")" = "$want_id"
check "trace_time is the file's mtime by default" test "$(jq -s '.[0].trace_time' "$T/n1.rows")" = "$(stat -c %Y "$N1/trace.dat")"

# host from trace.dat's own uname (a bare file), --host, --recorded-at
flat --ndjson "$T/h1.rows" "$H1/trace.dat" >/dev/null
check "host from trace.dat's uname" test "$(jq -r -s '.[0].host' "$T/h1.rows")" = \
	"$(awk '{ print $2 }' "$H1/uname.txt")"
flat --ndjson "$T/h2.rows" --host web-17 --recorded-at 2024-01-02 "$H1/trace.dat" >/dev/null
check "--host and --recorded-at" test "$(jq -r -s '.[0] | "\(.host) \(.trace_time)"' "$T/h2.rows")" = "web-17 1704153600"
flat --ndjson "$T/h3.rows" --recorded-at 2024-01-02T01:02:03 "$H1/trace.dat" >/dev/null
check "--recorded-at with a time" test "$(jq -s '.[0].trace_time' "$T/h3.rows")" = 1704157323
expect_exit 2 "--recorded-at nonsense" flat --ndjson - --recorded-at yesterday "$H1"
expect_exit 2 "--label without =" flat --ndjson - --label group "$H1"
expect_exit 2 "--label with a bad key" flat --ndjson - --label 'a b=c' "$H1"
expect_exit 2 "--host without flat rows" "$SR_BIN" replay --ndjson - --host x "$H1"
expect_exit 2 "--ndjson-format other" "$SR_BIN" replay --ndjson - --ndjson-format csv "$H1"

# ---- several traces -------------------------------------------------------------------
for t in "$N1" "$N2" "$H1"; do
	flat --ndjson - --label g=x "$t" >>"$T/singles.rows"
	"$SR_BIN" replay --quiet "$t" >>"$T/singles.txt" && echo >>"$T/singles.txt"
done
expect_exit 0 "three traces, two jobs" flat --ndjson "$T/batch.rows" --label g=x -j 2 "$N1" "$N2" "$H1"
check "the batch rows are the single-trace rows" cmp -s <(sort "$T/singles.rows") <(sort "$T/batch.rows")
check "each trace's rows keep their order" test \
	"$(jq -r '.trace_id + " " + (.seq | tostring)' "$T/batch.rows" | awk '{ if ($1 in s) print s[$1] " " $2; s[$1] = $2 }' | wc -l)" -gt 0
check "rows of one trace in the same order as alone" cmp -s \
	<(jq -c 'select(.trace_path | test("numa02"))' "$T/batch.rows") <(jq -c 'select(.trace_path | test("numa02"))' "$T/singles.rows")
check "summaries in argument order, as alone" cmp -s <(head -n -1 "$T/singles.txt") <(head -n -2 "$T/out")
check "the batch line" grep -q "^batch:    3 traces, 0 failed, $(wc -l <"$T/batch.rows") rows (2 jobs)" "$T/out"

printf '# canary hosts\n%s\n\n  %s\n' "$N2" "$H1" >"$T/list"
expect_exit 0 "--trace-list with a TRACE argument" flat --ndjson "$T/list.rows" --label g=x "$N1" --trace-list "$T/list"
check "--trace-list adds its traces" cmp -s <(sort "$T/batch.rows") <(sort "$T/list.rows")
expect_exit 0 "--trace-list - (stdin)" bash -c "printf '%s\n%s\n' '$N2' '$H1' | '$SR_BIN' replay --quiet --ndjson-format flat --ndjson - --trace-list -"
check "rows on stdout, no summary" test "$(jq -c 'select(.row_version == 2)' "$T/out" | wc -l)" = \
	"$(($(wc -l <"$T/list.rows") - $(wc -l <"$T/n1.rows")))" -a "$(wc -l <"$T/out")" = "$(jq -c . "$T/out" | wc -l)"
expect_exit 3 "--trace-list that does not exist" flat --ndjson - --trace-list "$T/nope"
check "its error names the list" grep -q "cannot read trace list '.*nope'" "$T/err"
printf '%s\n' "$T/missing-trace" >"$T/list2"
expect_exit 3 "a list naming a missing trace" flat --ndjson - --trace-list "$T/list2"
expect_exit 2 "an empty list" flat --ndjson - --trace-list /dev/null

echo "not a trace" >"$T/bad.dat"
expect_exit 3 "a bad trace among good ones" flat --ndjson "$T/bad.rows" "$N2" "$T/bad.dat" "$H1"
check "its error names the file" grep -q "bad.dat" "$T/err"
check "no half-written rows file" test ! -e "$T/bad.rows"
check "the good traces are still summarised" grep -q "batch:    3 traces, 1 failed" "$T/out"
expect_exit 1 "--fail-on-disagree over several traces" flat --fail-on-disagree --ndjson "$T/fail.rows" "$N1" "$H1"
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fifo.rows" &
expect_exit 0 "--ndjson to a FIFO is written in place" flat --ndjson "$T/fifo" "$H1"
wait
check "a FIFO stays a FIFO" test -p "$T/fifo" -a "$(wc -l <"$T/fifo.rows")" = "$(wc -l <"$T/h1.rows")"
expect_exit 2 "several traces with nested --ndjson" "$SR_BIN" replay --ndjson - "$N1" "$H1"
expect_exit 2 "several traces with --json" "$SR_BIN" replay --json - "$N1" "$H1"
expect_exit 2 "--jobs 0" flat --ndjson - -j 0 "$N1" "$H1"
finish
