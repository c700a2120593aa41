#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Damaged and odd inputs made from the bundled traces (docs/robustness.md):
# trace.dat files cut short (v6 and v7, both readers), negative CPU numbers
# in text traces, a migration of pid 0, an overlong last line without a
# newline, pipes and FIFOs as trace and topology, and the messages of
# --topology and libtracecmd failures.  Each case: the exit code, and the
# error naming file and place.
. "$(dirname "$0")/lib.sh"

S=$SR_BIN
V6=$FIX/dat/numa02-head-v6.dat
V7=$FIX/dat/numa02-head-v7.dat
TOPO2=$FIX/numa02-2n/numactl-H.txt
VZ=$FIX/dat/numa02-head-v7-zstd.dat
TXT=$FIX/text/tracefs-host.txt
PERF=$FIX/text/perf-host.txt

# grep_err DESC PATTERN: $T/err (of the last expect_exit) matches
grep_err() {
	if grep -q -- "$2" "$T/err"; then ok "$1"; else fail "$1: stderr: $(head -c 600 "$T/err")"; fi
}

# poke FILE OUT OFFSET HEX: FILE with the bytes HEX written at OFFSET
poke() { python3 -c "import sys; d=bytearray(open(sys.argv[1],'rb').read()); d[int(sys.argv[3]):int(sys.argv[3])+len(bytes.fromhex(sys.argv[4]))]=bytes.fromhex(sys.argv[4]); open(sys.argv[2],'wb').write(d)" "$@"; }

# cut FILE BYTES OUT: the first BYTES bytes of FILE
cut_to() { head -c "$2" "$1" >"$3"; }

# ---- trace.dat files shorter than their sections say ----
v7size=$(stat -c %s "$V7")
for c in 100 16 1; do
	cut_to "$V7" $((v7size - c)) "$T/v7-short.dat"
	for r in auto libtracecmd; do
		expect_exit 3 "v7 cut $c bytes short refused by info --strict --reader=$r" \
			"$S" info --strict --reader=$r "$T/v7-short.dat"
		grep_err "v7 cut $c bytes short: names the end" \
			"v7-short.dat' at byte $((v7size - c)): file cut short: the section at byte 376971"
		expect_exit 0 "v7 cut $c bytes short read without --strict (--reader=$r)" \
			"$S" info --reader=$r "$T/v7-short.dat"
		grep_err "v7 cut $c bytes short: one warning" "file cut short.*(read around)"
		if grep -q "1 truncated" "$T/out"; then ok "v7 cut $c: counted truncated"
		else fail "v7 cut $c: not counted: $(grep damage "$T/out")"; fi
	done
done
cut_to "$V6" $((376832 - 100)) "$T/v6-short.dat"
expect_exit 3 "v6 cut 100 bytes short refused by info --strict" \
	"$S" info --strict --topology "$TOPO2" "$T/v6-short.dat"
grep_err "v6 cut short: names the byte" "at byte 376732: file ends inside the event data"
expect_exit 0 "the whole v7 file passes info --strict" "$S" info --strict "$V7"
expect_exit 0 "the whole v7 zstd file passes info --strict" "$S" info --strict "$FIX/dat/numa02-head-v7-zstd.dat"

# ---- a v7 file cut inside its event data: the CPU table is rebuilt ----
# The uncompressed v7 fixture was converted from the v6 one and its CPU data
# lies at the same offsets, so a v7 file cut at X must read exactly as the
# v6 file cut at X (whose CPU table is at its start): cut points in each
# CPU's data (0: 32768-61440, 1: -155648, 2: -196608, 3: -376832).
facts() { "$S" info --json -q --topology "$TOPO2" "$1" | jq -cS '[.events, .unseen, .migrations, .cpus]'; }
for x in 40000 61441 100000 160001 196700 300000 376831; do
	cut_to "$V6" $x "$T/c6.dat"
	cut_to "$V7" $x "$T/c7.dat"
	expect_exit 0 "v7 cut at $x, inside its event data: read around" \
		"$S" info --topology "$TOPO2" "$T/c7.dat"
	grep_err "v7 cut at $x: the warning names the byte" \
		"c7.dat' at byte $x: file cut short inside its event data: the table of where each cpu's data lies (the options section at byte 376832) went with the cut"
	check "v7 cut at $x: one warning (besides the topology's)" \
		test "$(grep -v "topology.*is used" "$T/err" | grep -c warning)" = 1
	check "v7 cut at $x: the same events, per-cpu coverage and migrations as v6 cut there" \
		test "$(facts "$T/c7.dat")" = "$(facts "$T/c6.dat")"
	expect_exit 3 "v7 cut at $x: refused by --strict" "$S" info --strict --topology "$TOPO2" "$T/c7.dat"
	grep_err "v7 cut at $x: the --strict error names the byte" "c7.dat' at byte $x: file cut short inside"
done
# zstd: each CPU's chunks lead to the next; a cut in a chunk loses that chunk,
# the CPU's later ones and every later CPU: it must read as the whole file
# (its CPU table intact) whose chunk there has an impossible size and whose
# later CPUs count no chunks
python3 "$SR_SOURCE_DIR/tests/e2e/v7-chunks.py" "$VZ" >"$T/chunks"
n=0
while read -r cpu k count at zsize usize; do
	x=$((at + 8 + zsize / 2))
	cut_to "$VZ" $x "$T/cz.dat"
	if [ "$cpu" = 0 ] && [ "$k" = 0 ]; then
		expect_exit 3 "zstd cut inside the first chunk: nothing to read" "$S" info "$T/cz.dat"
		grep_err "zstd cut inside the first chunk: says so" \
			"cz.dat' at byte $x: file cut short: the options section at byte 53098, holding the table of where each cpu's data lies, is past its end ($x bytes), and no whole compressed chunk"
		continue
	fi
	n=$((n + 1))
	poke "$VZ" "$T/cz-size.dat" "$at" ffffff7f
	while read -r c2 k2 _ at2 _; do
		[ "$c2" -gt "$cpu" ] && [ "$k2" = 0 ] && poke "$T/cz-size.dat" "$T/cz-size.dat" $((at2 - 4)) 00000000
	done <"$T/chunks"
	expect_exit 0 "zstd cut in cpu $cpu chunk $k: read around" "$S" info --topology "$TOPO2" "$T/cz.dat"
	grep_err "zstd cut in cpu $cpu chunk $k: names the byte" \
		"cz.dat' at byte $x: file cut short inside its event data: .* told apart by the chunk sizes"
	check "zstd cut in cpu $cpu chunk $k: one warning (besides the topology's)" \
		test "$(grep -v "topology.*is used" "$T/err" | grep -c warning)" = 1
	check "zstd cut in cpu $cpu chunk $k: reads as that chunk lost from the whole file" \
		test "$(facts "$T/cz.dat")" = "$(facts "$T/cz-size.dat")"
done <"$T/chunks"
check "zstd cut in each chunk: $n" test "$n" -ge 8
cut_to "$VZ" 53098 "$T/cz.dat"
expect_exit 0 "zstd cut right after its cpu data: read whole" "$S" info --topology "$TOPO2" "$T/cz.dat"
grep_err "zstd cut right after its cpu data: one warning" "cz.dat' at byte 53098: file cut short"
check "zstd cut right after its cpu data: every event" \
	test "$(facts "$T/cz.dat")" = "$(facts "$VZ")"

# ---- one bad chunk of a v7 compressed CPU: the chunks after it still read ----
# Each middle chunk of the zstd fixture: its frame magic zeroed (the chunk does
# not decompress, its sizes still lead to the next one) against its size made
# impossible (nothing after it can be found).  Both readers read the same.
switches() { "$S" info --json -q --reader="$1" "$2" | jq '.events.sched_switch'; }
whole=$(switches auto "$VZ")
n=0
while read -r cpu k count at zsize usize; do
	[ "$k" -gt 0 ] && [ "$k" -lt $((count - 1)) ] || continue
	n=$((n + 1))
	poke "$VZ" "$T/chunk-magic.dat" $((at + 8)) 00000000
	poke "$VZ" "$T/chunk-size.dat" "$at" ffffff7f
	for r in fast libtracecmd; do
		expect_exit 0 "cpu $cpu chunk $k of $count undecompressable: read around (--reader=$r)" \
			"$S" info --reader=$r "$T/chunk-magic.dat"
		grep_err "cpu $cpu chunk $k: the warning names its byte (--reader=$r)" \
			"chunk-magic.dat' at byte $at: cpu $cpu compressed data: .*not a zstd frame"
		check "cpu $cpu chunk $k: one warning (--reader=$r)" test "$(grep -c warning "$T/err")" = 1
		expect_exit 3 "cpu $cpu chunk $k: fatal under --strict (--reader=$r)" \
			"$S" info --strict --reader=$r "$T/chunk-magic.dat"
	done
	magic_fast=$(switches fast "$T/chunk-magic.dat")
	magic_lib=$(switches libtracecmd "$T/chunk-magic.dat")
	# the fast reader refuses a chunk table that does not fill its data: auto
	# falls back to libtracecmd's
	size_auto=$(switches auto "$T/chunk-size.dat")
	size_lib=$(switches libtracecmd "$T/chunk-size.dat")
	check "cpu $cpu chunk $k: both readers read the same around the bad chunk ($magic_fast, $magic_lib)" \
		test "$magic_fast" = "$magic_lib"
	check "cpu $cpu chunk $k: auto and libtracecmd stop at a chunk size that cannot be ($size_auto, $size_lib)" \
		test "$size_auto" = "$size_lib"
	check "cpu $cpu chunk $k: the chunks after the bad one are read ($size_lib < $magic_fast < $whole)" \
		test "$size_lib" -lt "$magic_fast" -a "$magic_fast" -lt "$whole"
done < <(python3 "$SR_SOURCE_DIR/tests/e2e/v7-chunks.py" "$VZ")
check "middle chunks damaged one at a time: $n" test "$n" -ge 3

# ---- negative CPU numbers in text traces: bad lines, fatal under --strict ----
sed '0,/orig_cpu=0 dest_cpu=1/s//orig_cpu=0 dest_cpu=-1/' "$TXT" >"$T/neg-dest.txt"
sed '0,/orig_cpu=0 dest_cpu=1/s//orig_cpu=-5 dest_cpu=1/' "$PERF" >"$T/neg-orig.txt"
sed '0,/target_cpu=000/s//target_cpu=-01/' "$TXT" >"$T/neg-target.txt"
for f in neg-dest neg-orig neg-target; do
	expect_exit 0 "$f: read around" "$S" info "$T/$f.txt"
	if grep -q "^damage: *1 bad lines" "$T/out"; then ok "$f: one bad line counted"
	else fail "$f: $(grep damage "$T/out")"; fi
	grep_err "$f: the warning names the line" "$f.txt' at line [0-9]*: negative"
	expect_exit 3 "$f: fatal under --strict" "$S" info --strict "$T/$f.txt"
	grep_err "$f: the error names the line" "$f.txt' at line [0-9]*: negative"
done
expect_exit 0 "the unmodified text trace is clean under --strict" "$S" info --strict "$TXT"

# ---- a migration of pid 0 (no task: the idle task never migrates) ----
# By the source CPU's stopper, it crashed the wake-up placement's task
# table (tid 0 marks its empty slots); now one warning, fatal under --strict.
sed '19s/ pid=5988 / pid=0 /' "$TXT" >"$T/mig-pid0.txt"
printf '%s\n' '# tracer: nop' '#' \
	'     migration/0-18      [000] d..2.   100.000010: sched_switch: prev_comm=sh prev_pid=900 prev_prio=120 prev_state=R+ ==> next_comm=migration/0 next_pid=18 next_prio=0' \
	'     migration/0-18      [000] d..3.   100.000050: sched_migrate_task: comm=sh pid=0 prio=120 orig_cpu=0 dest_cpu=1' \
	>"$T/mig-pid0-min.txt"
for f in mig-pid0:19 mig-pid0-min:4; do
	name=${f%:*} line=${f#*:}
	for th in 1 2; do
		expect_exit 0 "$name: read around (--threads $th)" "$S" replay --threads $th "$T/$name.txt"
		grep_err "$name: the warning names the line (--threads $th)" \
			"$name.txt' at line $line: sched_migrate_task of pid 0: no task to decide for"
	done
	expect_exit 3 "$name: fatal under --strict" "$S" replay --strict "$T/$name.txt"
	grep_err "$name: the error names the line" \
		"^schedreplay: error: '.*$name.txt' at line $line: sched_migrate_task of pid 0"
done
expect_exit 0 "mig-pid0-min: no decision" "$S" replay --quiet "$T/mig-pid0-min.txt"
if grep -q "^decisions: *0;" "$T/out"; then ok "mig-pid0-min: 0 decisions"
else fail "mig-pid0-min: $(head -1 "$T/out")"; fi

# ---- an overlong last line without a newline never vanishes ----
lines=$(wc -l <"$TXT")
for n in 65536 131072 65537; do
	{ cat "$TXT"; head -c $n /dev/zero | tr '\0' x; } >"$T/long.txt"
	expect_exit 0 "last line of $n bytes without a newline: read around" "$S" info "$T/long.txt"
	grep_err "last line of $n bytes: warned about at its line" \
		"long.txt' at line $((lines + 1)): line longer than 65535 bytes"
	expect_exit 3 "last line of $n bytes: fatal under --strict" "$S" info --strict "$T/long.txt"
done

# ---- pipes and FIFOs: read once into memory, a device refused, never a hang ----
expect_exit 0 "a text trace through a pipe" bash -c "cat '$TXT' | '$S' info /dev/stdin"
if grep -q "^format: *tracefs" "$T/out" && grep -q "^events:" "$T/out"; then
	ok "a text trace through a pipe: its events read"
else
	fail "a text trace through a pipe: $(head -c 300 "$T/out")"
fi
"$S" info --json "$TXT" 2>/dev/null | jq -S .events >"$T/file-events"
cat "$TXT" | "$S" info --json /dev/stdin 2>/dev/null | jq -S .events >"$T/pipe-events"
check "a text trace through a pipe: the same event counts as from the file" \
	cmp -s "$T/file-events" "$T/pipe-events"
# a trace.dat through a pipe is copied into memory first (the session reads
# a trace twice), so it reads as the file does
expect_exit 0 "a trace.dat through a pipe" bash -c "cat '$V6' | '$S' info --json /dev/stdin"
jq -S .events "$T/out" >"$T/pipe-dat-events" 2>/dev/null
"$S" info --json "$V6" 2>/dev/null | jq -S .events >"$T/file-dat-events"
check "a trace.dat through a pipe: the same event counts as from the file" \
	cmp -s "$T/file-dat-events" "$T/pipe-dat-events"
expect_exit 3 "a device as trace is refused" "$S" info /dev/zero
grep_err "a device as trace: says why" "a device, not a trace"
mkfifo "$T/fifo"
expect_exit 3 "a FIFO nobody writes to, as trace: refused at once" timeout 20 "$S" info "$T/fifo"
grep_err "a FIFO as trace: says so" "fifo': empty file"
expect_exit 3 "a FIFO nobody writes to, as --topology: refused at once" \
	timeout 20 "$S" info --topology "$T/fifo" "$TXT"
grep_err "a FIFO as --topology: names it" "fifo'"
expect_exit 0 "a topology through a pipe" bash -c "cat '$TOPO2' | '$S' info --topology /dev/stdin '$TXT'"
if grep -q "^nodes: *2 " "$T/out"; then ok "a topology through a pipe: its 2 nodes used"
else fail "a topology through a pipe: $(grep nodes "$T/out")"; fi

# ---- messages ----
{ head -n 3 "$TOPO2"; echo "garbage here"; } >"$T/bad-topo.txt"
expect_exit 3 "a bad --topology file" "$S" info --topology "$T/bad-topo.txt" "$V6"
grep_err "a bad --topology file: its name and line" "bad-topo.txt' at line 4: "
{ echo '{"nodes": ['; } >"$T/bad-topo.json"
expect_exit 3 "a bad --topology JSON" "$S" info --topology "$T/bad-topo.json" "$V6"
grep_err "a bad --topology JSON: its name and line" "bad-topo.json' at line [0-9]*: "
sed '1s/available: [0-9]* nodes/available: 2000 nodes/' "$TOPO2" >"$T/many-topo.txt"
expect_exit 3 "an 'available:' count over 1024" "$S" info --topology "$T/many-topo.txt" "$V6"
grep_err "an 'available:' count over 1024: says so" \
	"many-topo.txt' at line 1: 'available:' node count over 1024"
# one flipped byte in the event formats that libtracecmd's parser dies on
python3 -c "import sys; d=bytearray(open(sys.argv[1],'rb').read()); d[16874]^=0xff; open(sys.argv[2],'wb').write(d)" \
	"$V6" "$T/fmt.dat"
for r in auto libtracecmd; do
	expect_exit 3 "a damaged event format (--reader=$r)" \
		"$S" info --reader=$r --topology "$TOPO2" "$T/fmt.dat"
	grep_err "a damaged event format: names the bytes (--reader=$r)" \
		"fmt.dat': libtracecmd crashes (signal [0-9]*) reading the file's headers.* (bytes 0-32768"
done
# an event format whose "name:" line is damaged: the fast reader, which
# indexes every format by its name and ID lines (src/ingest/dat-meta.c),
# names the format's byte offset
python3 -c "import sys; d=bytearray(open(sys.argv[1],'rb').read()); i=d.find(b'name: sched_wakeup_new\n'); d[i+1]=ord('X'); open(sys.argv[2],'wb').write(d); print(i)" \
	"$V6" "$T/noname.dat" >"$T/noname.at"
expect_exit 3 "an event format without its name line" "$S" info --topology "$TOPO2" "$T/noname.dat"
grep_err "an event format without its name line: names its byte" \
	"noname.dat' at byte $(cat "$T/noname.at"): event format without its name and ID lines"

# ---- ftrace:print without a usable "buf": the markers could not be read ----
# (the topology and settings lines would be lost without a word)
# print_patch IN OUT OLD NEW: IN with OLD replaced by NEW in the print format
print_patch() {
	python3 - "$@" <<'PY'
import sys
src, dst, old, new = sys.argv[1], sys.argv[2], sys.argv[3].encode(), sys.argv[4].encode()
b = open(src, "rb").read()
i = b.index(b"name: print\n")
j = b.index(old, i)
assert j - i < 600 and len(old) == len(new)
open(dst, "wb").write(b[:j] + new + b[j + len(old):])
PY
}
for v in v6 v7; do
	[ $v = v6 ] && in=$V6 || in=$V7
	print_patch "$in" "$T/$v-nobuf.dat" "char buf[];" "char bux[];"
	print_patch "$in" "$T/$v-longbuf.dat" "char buf[];" "long buf[];"
	for r in auto libtracecmd; do
		printf 'old bytes\n' >"$T/keep.json"
		expect_exit 3 "$v ftrace:print without buf refused (--reader=$r)" \
			"$S" replay --quiet --reader=$r --json "$T/keep.json" "$T/$v-nobuf.dat"
		grep_err "$v print without buf: one error naming the file" \
			"^schedreplay: error: '.*$v-nobuf.dat': the format of event 'ftrace:print' (bytes 0-[0-9]*, before the cpu data) has no 'buf' field, so its markers cannot be read$"
		check "$v print without buf: one line on stderr" test "$(wc -l <"$T/err")" -eq 1
		check "$v print without buf: the output file is untouched" \
			test "$(cat "$T/keep.json")" = "old bytes"
		expect_exit 3 "$v ftrace:print with a long buf[] refused (--reader=$r)" \
			"$S" info --reader=$r "$T/$v-longbuf.dat"
		grep_err "$v print with long buf[]: says why" \
			"'ftrace:print' .* has a 'buf' field that is not a char array"
	done
done

finish
