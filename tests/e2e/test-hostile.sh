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
for want in 'esc\x1b[31mred [1000]' 'bad\\xff\\xfeutf8 [1003]' 'back\\slash\\n [1005]' \
	't\x1b]0;pwn\x07 [1007]' 'bell\x07\x08bs\x7f [1009]' 'c1\xc2\x9b31m [1011]'; do
	check "replay text shows '$want'" grep -qF -- "$want" "$T/replay.txt"
done

# JSON: valid, and each name is the original where it was valid UTF-8
expect_exit 0 "replay --json on hostile comms" "$SR_BIN" replay --quiet --json "$T/r.json" "$H"
check "replay JSON is valid UTF-8 JSON" python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$T/r.json"
python3 - "$T/r.json" >"$T/comms" <<'PY'
import json, sys
for d in json.load(open(sys.argv[1]))["decisions"]:
    print(repr(d["comm"]))
PY
for want in "'esc\\x1b[31mred'" "'t\\x1b]0;pwn\\x07'" "'bell\\x07\\x08bs\\x7f'" \
	"'c1\\x9b31m'" "'q\"uo\\'te'" "'back\\\\slash\\\\n'" "'sp ace\\ttab\\r'" "'ok-ü€'" \
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

finish
