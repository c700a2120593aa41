#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile task names (fixtures/text/hostile-comms.txt, made by
# make-hostile-comms.py): terminal escape sequences, control characters,
# invalid UTF-8, a UTF-8 C1 control, quotes and backslashes must come out
# escaped in `info` and `replay` text, as valid UTF-8 JSON that keeps every
# valid character, and escaped in the messages on stderr (file names too).
. "$(dirname "$0")/lib.sh"

H=$FIX/text/hostile-comms.txt

# no_raw FILE: no C0 control but newline, no DEL, no C1 (raw or UTF-8), valid UTF-8
no_raw() {
	python3 - "$1" <<'PY'
import re, sys
b = open(sys.argv[1], "rb").read()
try:
    t = b.decode("utf-8")
except UnicodeDecodeError as e:
    sys.exit("invalid UTF-8: %s" % e)
bad = re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f]", t)
if bad:
    sys.exit("raw control U+%04X at %d" % (ord(bad.group()), bad.start()))
PY
}

# replay's text report names the tasks with disagreements, escaped.  Which
# execs the two exec policies disagree on depends on where round robin
# starts, so the names are looked for in the reports of both starts: every
# task disagrees in one of them.
expect_exit 0 "replay text on hostile comms" "$SR_BIN" replay --top 20 "$H"
cp "$T/out" "$T/replay.txt"
check "replay text: no raw control bytes, valid UTF-8" no_raw "$T/replay.txt"
expect_exit 0 "replay text on hostile comms, round robin from node 1" "$SR_BIN" replay --top 20 \
	--param exec-round-robin:offset=1 "$H"
check "replay text (offset 1): no raw control bytes, valid UTF-8" no_raw "$T/out"
cat "$T/out" >>"$T/replay.txt"
for want in 'esc\x1b[31mred [1000]' 'bad\xff\xfeutf8 [1003]' 'back\\slash\\n [1005]' \
	't\x1b]0;pwn\x07 [1007]' 'bell\x07\x08bs\x7f [1009]' 'c1\xc2\x9b31m [1011]'; do
	check "replay text shows '$want'" grep -qF -- "$want" "$T/replay.txt"
done

# JSON: valid, and each name in the escaped form (docs/json-schema.md): the
# original where it was valid UTF-8 without a backslash
expect_exit 0 "replay --json on hostile comms" "$SR_BIN" replay --quiet --json "$T/r.json" "$H"
check "replay JSON is valid UTF-8 JSON" python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$T/r.json"
python3 - "$T/r.json" >"$T/comms" <<'PY'
import json, sys
for d in json.load(open(sys.argv[1]))["decisions"]:
    print(repr(d["comm"]))
PY
for want in "'esc\\x1b[31mred'" "'t\\x1b]0;pwn\\x07'" "'bell\\x07\\x08bs\\x7f'" \
	"'c1\\x9b31m'" "'q\"uo\\'te'" "'back\\\\\\\\slash\\\\\\\\n'" "'sp ace\\ttab\\r'" "'ok-ü€'" \
	"'bad\\\\xff\\\\xfeutf8'"; do
	check "JSON comm $want" grep -qxF -- "$want" "$T/comms"
done
expect_exit 0 "replay --ndjson on hostile comms" "$SR_BIN" replay --quiet --ndjson "$T/r.ndjson" "$H"
check "every NDJSON line is valid JSON" python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1], encoding="utf-8"):
    json.loads(line); n += 1
sys.exit(0 if n >= 12 else 1)' "$T/r.ndjson"

# info, text and JSON
expect_exit 0 "info on hostile comms" "$SR_BIN" info "$H"
check "info text: no raw control bytes" no_raw "$T/out"
expect_exit 0 "info --json on hostile comms" "$SR_BIN" info --json "$H"
check "info JSON is valid" python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$T/out"

# messages on stderr: a hostile file name and hostile damaged lines
evil="$T/a$(printf '\033')]0;x$(printf '\007')b.txt"
cp "$H" "$evil"
printf '  x-1 [000] ..... 200.0: sched_switch: prev_comm=\033[2J prev_pid=zz\n' >>"$evil"
printf '  x-1 [000] ..... 200.1: evil\033[31m: foo\n' >>"$evil"
expect_exit 0 "info reads around hostile damaged lines" "$SR_BIN" info "$evil"
check "warnings on stderr: no raw control bytes" no_raw "$T/err"
check "warnings name the file escaped" grep -qF 'a\x1b]0;x\x07b.txt' "$T/err"
expect_exit 3 "--strict stops at the hostile damaged line" "$SR_BIN" info --strict "$evil"
check "error on stderr: no raw control bytes" no_raw "$T/err"
expect_exit 2 "unknown command with an escape sequence" "$SR_BIN" "bad$(printf '\033')[2J"
check "usage error on stderr: no raw control bytes" no_raw "$T/err"

# A bundled trace.dat with hostile comms patched into its events (same
# length or shorter, NUL-padded, in every comm field that held the name):
# a literal backslash sequence next to the invalid byte it spells, a
# right-to-left override, DEL and C1 controls, isolates and marks.
python3 - "$FIX/dat/numa02-head-v6.dat" "$T/h.dat" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
SUBS = [(b"nb-w1", b"a\\x80"),                  # the four characters a \ x 8 0
        (b"nb-w2", b"a\x80"),                   # a and the byte 0x80
        (b"nb-w3", b"\xe2\x80\xaeRL"),          # U+202E RIGHT-TO-LEFT OVERRIDE
        (b"rcu_preempt", b"d\x7f\xc2\x9b\xc2\x85"),  # DEL, C1 CSI, C1 NEL
        (b"kcompactd0", b"\xe2\x81\xa6i\xd8\x9c\xe2\x80\x8f")]  # U+2066, U+061C, U+200F
for old, new in SUBS:
    old += b"\0"
    if b.count(old) < 2:
        sys.exit("%r not found in the fixture" % old)
    b = b.replace(old, new.ljust(len(old), b"\0"))
open(sys.argv[2], "wb").write(b)
PY
# raw_free FILE: valid UTF-8 with no C0 (but newline), DEL, C1 or bidi control
raw_free() {
	python3 - "$1" <<'PY'
import re, sys
t = open(sys.argv[1], "rb").read().decode("utf-8")
bad = re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]", t)
if bad:
    sys.exit("raw U+%04X at %d" % (ord(bad.group()), bad.start()))
PY
}
expect_exit 0 "replay text on a trace.dat with hostile comms" "$SR_BIN" replay "$T/h.dat"
check "dat replay text: no raw control or bidi character" raw_free "$T/out"
for want in 'a\\x80 [227]' 'a\x80 [228]' '\xe2\x80\xaeRL [229]' 'd\x7f\xc2\x9b\xc2\x85 [16]' \
	'\xe2\x81\xa6i\xd8\x9c\xe2\x80\x8f [49]'; do
	check "dat replay text shows '$want'" grep -qF -- "$want" "$T/out"
done
expect_exit 0 "replay --json on the hostile trace.dat" "$SR_BIN" replay --quiet --json "$T/h.json" "$T/h.dat"
check "dat JSON: ASCII controls only as escapes" raw_free "$T/h.json"
for want in '"a\\\\x80"' '"a\\x80"' '"\u202eRL"' '"d\u007f\u009b\u0085"' '"\u2066i\u061c\u200f"'; do
	check "dat JSON has comm $want" grep -qF -- "\"comm\": $want" "$T/h.json"
done
# the escaped form decodes back to the bytes the trace holds
python3 - "$T/h.json" >"$T/decoded" <<'PY'
import json, re, sys
def raw(v):
    return re.sub(rb"\\(\\|x([0-9a-f]{2}))",
                  lambda m: b"\\" if m.group(2) is None else bytes([int(m.group(2), 16)]),
                  v.encode("utf-8"))
for c in sorted({d["comm"] for d in json.load(open(sys.argv[1]))["decisions"]}):
    print(raw(c))
PY
for want in "b'a\\\\x80'" "b'a\\x80'" "b'\\xe2\\x80\\xaeRL'" "b'd\\x7f\\xc2\\x9b\\xc2\\x85'"; do
	check "JSON comm decodes to $want" grep -qxF -- "$want" "$T/decoded"
done
for fmt in nested flat; do
	expect_exit 0 "replay --ndjson $fmt on the hostile trace.dat" "$SR_BIN" replay --quiet \
		--ndjson "$T/h.ndjson" --ndjson-format $fmt "$T/h.dat"
	check "NDJSON $fmt: ASCII controls only as escapes" raw_free "$T/h.ndjson"
	check "NDJSON $fmt: the two a..80 names differ" bash -c \
		'grep -qF "\"a\\\\\\\\x80\"" "$1" && grep -qF "\"a\\\\x80\"" "$1"' _ "$T/h.ndjson"
done
expect_exit 0 "info on the hostile trace.dat" "$SR_BIN" info "$T/h.dat"
check "dat info text: no raw control or bidi character" raw_free "$T/out"
expect_exit 0 "info --json on the hostile trace.dat" "$SR_BIN" info --json "$T/h.dat"
check "dat info JSON: no raw control or bidi character" raw_free "$T/out"
# the TUI shows a hostile name alike from the trace and from its JSON report
# (the report holds the escaped form; the browser decodes it to the bytes)
for k in 'RL|task \xe2\x80\xaeRL  tid 229' 'x80|task a\\x80  tid 227'; do
	key=${k%%|*} want=${k#*|}
	for f in h.dat h.json; do
		"$SR_BIN" tui --quiet "$T/$f" --headless --size 160x60 --keys "Esc /$key Enter Enter" \
			--dump "$T/$f.tui" 2>/dev/null
	done
	check "tui from the trace: the detail names '$want'" grep -qF -- "$want" "$T/h.dat.tui"
	check "tui from the JSON: the same name line" \
		test "$(grep -F " $want" "$T/h.json.tui")" = "$(grep -F " $want" "$T/h.dat.tui")"
	check "tui: no raw control or bidi character" raw_free "$T/h.json.tui"
done

finish
