#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The fast trace.dat reader (src/ingest/dat-fast.c) against libtracecmd's,
# event for event (every field) and summary for summary, on every .dat file
# in fixtures/ (and in SR_EXTRA_TRACES, see lib.sh); the fast reader must be
# the one `auto` picks for all of them.  Then: --reader is honoured and
# reported, a file the fast reader declines falls back (and --reader=fast
# says why), and both readers stop with the same error on a damaged page.
. "$(dirname "$0")/lib.sh"

diff_bin=$(dirname "$SR_BIN")/tests/reader-diff
check "reader-diff is built" test -x "$diff_bin"

files=()
while IFS= read -r f; do files+=("$f"); done < <(find "$FIX" -name '*.dat' | sort; extra_traces)
check "the fixture traces are there (${#files[@]} files)" test ${#files[@]} -ge 10
if "$diff_bin" --require-fast "${files[@]}" >"$T/diff"; then
	ok "the two readers agree event for event on ${#files[@]} files"
else
	fail "the readers differ: $(grep -v ' identical ' "$T/diff" | head -3)"
fi
sed 's/^/  /' "$T/diff"
n=$(grep -c ' events identical ' "$T/diff")
check "every file compared, on 1, 2 and 3 threads, in batches of 7 events and cut in pieces ($n runs)" \
	test "$n" -eq $((6 * ${#files[@]}))
n=$(grep -c ' cut in pieces of ' "$T/diff")
check "every file read in pieces of a page or a chunk, and of two pages ($n runs)" \
	test "$n" -eq $((2 * ${#files[@]}))

f=$FIX/dat/numa02-head-v7-zstd.dat
for r in fast libtracecmd; do
	got=$("$SR_BIN" info --json --quiet --reader=$r "$f" | jq -r .reader)
	check "--reader=$r is used and reported" test "$got" = "$r"
done
got=$("$SR_BIN" info --json --quiet "$f" | jq -r .reader)
check "auto picks the fast reader on a plain zstd file" test "$got" = fast
expect_exit 2 "an unknown --reader is a usage error" "$SR_BIN" info --reader=quick "$f"
check "naming the command" grep -q "^schedreplay info: unknown --reader 'quick' (auto, fast, libtracecmd)$" "$T/err"
expect_exit 2 "--threads 0 is a usage error" "$SR_BIN" replay --threads 0 "$f"
check "naming the command" grep -q "^schedreplay replay: bad --threads '0' (1..1024)$" "$T/err"

# --buffer: the same selection, the same events, the same error, from both readers
# (in a sanitizer build, without LSan's list of the suppressed leaks: only
# libtracecmd's open, which the fast reader does not use, leaks them)
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0"
for b in numalab top nope; do
	for r in fast libtracecmd; do
		"$SR_BIN" info --json --quiet --reader=$r --buffer $b "$FIX/host-baseline-1n" >"$T/buf-$r.json" 2>"$T/buf-$r.err"
		echo "rc=$?" >>"$T/buf-$r.err"
		jq -c '[.events_total, .cpus, .first_ts_ns, .last_ts_ns, .events]' "$T/buf-$r.json" >"$T/buf-$r.txt" 2>/dev/null
	done
	check "--buffer $b: both readers agree" cmp -s "$T/buf-fast.txt" "$T/buf-libtracecmd.txt"
	check "--buffer $b: the same exit and message" cmp -s "$T/buf-fast.err" "$T/buf-libtracecmd.err"
	[ $b = numalab ] && check "--buffer numalab holds the trace's events" \
		test "$(jq '.[0]' "$T/buf-fast.txt")" -gt 1000
done
check "--buffer nope is an error" grep -q 'no buffer "nope" in the file (it has: top, numalab)' "$T/buf-fast.err"

# A timestamp-adjusting option (OFFSET, id 7, as trace-cmd --ts-offset
# writes it): auto falls back to libtracecmd, --reader=fast refuses.
python3 - "$FIX/dat/numa02-head-v6.dat" "$T/offset-v6.dat" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
pos = b.index(b'options  \0') + 10
oid, size = struct.unpack_from('<HI', b, pos)
assert size >= 2, 'first option too small'
struct.pack_into('<H', b, pos, 7)
b[pos + 6:pos + 6 + size] = b'0'.ljust(size - 1, b' ') + b'\0'
open(sys.argv[2], 'wb').write(b)
PY
got=$("$SR_BIN" info --json --quiet "$T/offset-v6.dat" | jq -r '.reader + " / " + .reader_note')
check "a timestamp offset option falls back to libtracecmd ($got)" \
	test "$got" = "libtracecmd / the file's timestamps are adjusted by an option"
expect_exit 3 "--reader=fast refuses it" "$SR_BIN" info --quiet --reader=fast "$T/offset-v6.dat"
check "and says why" grep -q "fast reader cannot read it: the file's timestamps are adjusted" "$T/err"

# A page whose commit size is larger than the page: the same error and
# byte offset from both readers.
python3 - "$FIX/dat/numa02-head-v6.dat" "$T/commit-v6.dat" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
last = (len(b) - 1) // 4096 * 4096	# the last page is event data
b[last + 8:last + 16] = (8192).to_bytes(8, 'little')
open(sys.argv[2], 'wb').write(b)
PY
for r in fast libtracecmd; do
	expect_exit 3 "$r reader: a bad commit size is fatal" "$SR_BIN" info --quiet --reader=$r "$T/commit-v6.dat"
	cp "$T/err" "$T/err-$r"
	check "$r reader names the page" grep -q 'corrupted page (commit size 8192 larger than the page)' "$T/err"
done
check "both readers give the same error line" cmp -s "$T/err-fast" "$T/err-libtracecmd"
# Linux 6.18's sched_migrate_task carries its comm as "__data_loc char[]"
# (a dynamic string, not char[16]): every pulled task's name in the replay is
# the one trace-cmd prints for its sched_migrate_task, from both readers
f=$FIX/host-2cpu-mixed.dat
trace-cmd dump --events "$f" 2>/dev/null | grep -A9 'name: sched_migrate_task' >"$T/mig-fmt"
check "host-2cpu-mixed.dat's sched_migrate_task has a dynamic comm" \
	grep -qF '__data_loc char[] comm' "$T/mig-fmt"
trace-cmd report "$f" 2>/dev/null |
	sed -n 's/.* sched_migrate_task: *comm=\(.*\) pid=\([0-9]*\) prio=.*/\2 \1/p' | sort -u >"$T/mig-tc"
for r in fast libtracecmd; do
	"$SR_BIN" replay --quiet --reader=$r --json "$T/mig-$r.json" "$f" 2>/dev/null
	jq -r '.decisions[] | select(.class == "lb-pull") | "\(.tid) \(.comm)"' "$T/mig-$r.json" |
		sort -u >"$T/mig-$r"
	check "$r reader: lb-pull decisions on host-2cpu-mixed.dat ($(wc -l <"$T/mig-$r") tasks)" \
		test -s "$T/mig-$r"
	check "$r reader: each pulled task's name as trace-cmd reports it" \
		sh -c "comm -23 '$T/mig-$r' '$T/mig-tc' | grep -q . && exit 1 || exit 0"
done
finish
