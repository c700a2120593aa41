#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Output targets (util/outfile.h, docs/robustness.md): every writer
# (info -o, replay --json/--ndjson, compare --json, tui --dump) replaces a
# regular file whole, writes through a symbolic link without replacing it,
# writes a FIFO, a device or /dev/fd/N in place and never replaces it, names
# the file and the real errno (ENOSPC) when a write fails, and leaves no
# temporary file when SIGINT, SIGTERM or SIGHUP ends the run.
. "$(dirname "$0")/lib.sh"

S=$SR_BIN
TRACE=$FIX/numa02-2n
C=$FIX/compare
mkdir "$T/o"
# a private /dev/full (root only), so that a failure here cannot touch the real one
if [ "$(id -u)" -eq 0 ] && mknod "$T/full" c 1 7 2>/dev/null; then FULL=$T/full; else FULL=/dev/full; fi

# the writers, each as: NAME CMD... with @OUT@ for the output path
writers=(
	"info-o|$S info --json -o @OUT@ $TRACE"
	"replay-json|$S replay --quiet --json @OUT@ $TRACE"
	"replay-ndjson|$S replay --quiet --ndjson @OUT@ $TRACE"
	"compare-json|$S compare $C/numbers-base.txt --vs $C/numbers-new.txt --json @OUT@"
	"tui-dump|$S tui --quiet $TRACE --headless --frames 2 --keys j --dump @OUT@"
)
run_writer() {	# WRITER OUT: run it, stdout and stderr to $T/out, $T/err
	local cmd=${1#*|}
	cmd=${cmd//@OUT@/$2}
	$cmd >"$T/out" 2>"$T/err" </dev/null
}
no_temp() { test -z "$(ls -A "$T/o" | grep -E '\.tmp-' || true)"; }

for w in "${writers[@]}"; do
	n=${w%%|*}
	rm -rf "$T/o"/* "$T/o"/.[!.]* 2>/dev/null
	# a regular file: replaced whole, its mode kept
	echo old >"$T/o/file"
	chmod 640 "$T/o/file"
	run_writer "$w" "$T/o/file"
	check "$n: a regular file is replaced (exit 0)" test $? -eq 0
	check "$n: the file holds the new output" test "$(head -c 3 "$T/o/file")" != old
	check "$n: its mode is kept" test "$(stat -c %a "$T/o/file")" = 640
	check "$n: no temporary left" no_temp
	# a symbolic link, and a dangling one: the link stays, its target is written
	echo old >"$T/o/target"
	ln -s target "$T/o/link"
	run_writer "$w" "$T/o/link"
	check "$n: through a symlink (exit 0)" test $? -eq 0
	check "$n: the symlink is still a symlink" test -L "$T/o/link"
	check "$n: its target holds the output" test "$(head -c 3 "$T/o/target")" != old
	ln -s new-target "$T/o/dangling"
	run_writer "$w" "$T/o/dangling"
	check "$n: a dangling symlink: still a symlink, the target made" \
		test -L "$T/o/dangling" -a -s "$T/o/new-target"
	# a FIFO: written in place, still a FIFO
	mkfifo "$T/o/fifo"
	cat "$T/o/fifo" >"$T/fifo.out" &
	reader=$!
	run_writer "$w" "$T/o/fifo"
	check "$n: a FIFO (exit 0)" test $? -eq 0
	wait "$reader"
	check "$n: the FIFO is still a FIFO" test -p "$T/o/fifo"
	check "$n: the reader got the output" test -s "$T/fifo.out"
	# /dev/fd/N of a pipe (a process substitution)
	run_writer "$w" /dev/stdout
	check "$n: /dev/stdout (exit 0)" test $? -eq 0 -a -s "$T/out"
	# a full device: the file and ENOSPC named, the device left alone
	run_writer "$w" "$FULL"
	rc=$?
	if [ "$rc" -eq 4 ] && grep -q "cannot write '$FULL': No space left on device" "$T/err"; then
		ok "$n: a full device: exit 4, names it, says No space left on device"
	else
		fail "$n: a full device: exit $rc, stderr: $(head -c 300 "$T/err")"
	fi
	check "$n: the device is still a character device" test -c "$FULL"
	check "$n: no temporary left" no_temp
	# a folder: refused, exit 4, named
	mkdir "$T/o/dir"
	run_writer "$w" "$T/o/dir"
	check "$n: a folder as output is refused" test $? -ne 0
	check "$n: the folder is untouched" test -d "$T/o/dir"
done

expect_exit 0 "compare --json >(jq .): written into the pipe" \
	bash -c "'$S' compare '$C/numbers-base.txt' --vs '$C/numbers-new.txt' --json >(jq -e .metrics >'$T/jq.out') >/dev/null; r=\$?; wait; exit \$r"
# jq runs on after the shell's wait (a process substitution is not waited for): give it time
for i in $(seq 100); do [ -s "$T/jq.out" ] && break; sleep 0.1; done
check "compare --json >(jq .): jq read the document" test -s "$T/jq.out"

# SIGINT, SIGTERM, SIGHUP during a replay --ndjson: no temporary left, 128+N
python3 - "$S" "$FIX/numa01-4n" "$T/sig" <<'PY'
import glob, os, signal, subprocess, sys, time
b, trace, d = sys.argv[1:4]
os.mkdir(d)
out = os.path.join(d, "out.ndjson")
bad = 0
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    for attempt in range(3):
        p = subprocess.Popen([b, "replay", "--quiet", "--ndjson", out, trace],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(500):
            if glob.glob(out + ".tmp-*") or p.poll() is not None:
                break
            time.sleep(0.005)
        p.send_signal(sig)
        rc = p.wait()
        if rc == 0:          # finished before the signal: try again
            os.unlink(out)
            continue
        left = os.listdir(d)
        good = rc == -sig and not left
        print(("ok" if good else "not ok") + " - %s during replay --ndjson: killed by it (%d), left %s"
              % (sig.name, rc, left))
        bad += not good
        break
    else:
        print("not ok - %s: the replay always ended before the signal" % sig.name)
        bad += 1
sys.exit(1 if bad else 0)
PY
check "signals remove the temporary file" test $? -eq 0

# replay --json keeps the listed decisions in an unlinked temporary file in
# $TMPDIR until the document is written (report-sink.c): none is left
# behind, the document is the same, and a $TMPDIR it cannot write in is
# the machine's fault (exit 4), named, with no output file
mkdir "$T/tmpd"
TMPDIR=$T/tmpd "$S" replay --quiet --json "$T/o/spill.json" "$TRACE" >/dev/null 2>"$T/err"
check "replay --json with TMPDIR set (exit 0)" test $? -eq 0
check "replay --json leaves nothing in TMPDIR" test -z "$(ls -A "$T/tmpd")"
check "the decisions are all there, in seq order" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["decisions"]
s = [x["seq"] for x in d]
sys.exit(0 if len(d) > 100 and s == sorted(set(s)) else 1)' "$T/o/spill.json"
"$S" replay --quiet --json - "$TRACE" >"$T/o/stdout.json" 2>/dev/null
check "the same document on stdout and in a file" cmp -s "$T/o/spill.json" "$T/o/stdout.json"
TMPDIR=$T/no-such-dir "$S" replay --quiet --json "$T/o/none.json" "$TRACE" >/dev/null 2>"$T/err"
rc=$?
check "a TMPDIR that does not exist: exit 4 (got $rc)" test "$rc" -eq 4
check "it is named, with the reason, on one line" test "$(cat "$T/err")" = \
	"schedreplay: error: cannot make a temporary file in '$T/no-such-dir': No such file or directory"
check "and no output file is made" test ! -e "$T/o/none.json"
check "no temporary left" no_temp

finish
