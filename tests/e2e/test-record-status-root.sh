#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `schedreplay record -- CMD` exit status (labelled "root", docs/cli.md):
# a command that cannot start is an error (127 not found, 126 not
# executable) with no file left behind; a command that fails gives its own
# status (128+N for a signal), as perf and trace-cmd do, with the recording
# complete.  Tracing must be exactly as found at the end.  Skips (exit 77,
# loudly) only when not root or when tracefs cannot be had at all.
. "$(dirname "$0")/lib.sh"

skip() {
	echo "#"
	echo "# SKIP: $* -- the recorder status tests did NOT run"
	echo "#"
	exit 77
}

[ "$(id -u)" -eq 0 ] || skip "not root"
TR=/sys/kernel/tracing
mounted_here=0
if ! grep -q " $TR tracefs " /proc/mounts; then
	mount -t tracefs nodev "$TR" 2>/dev/null || skip "no tracefs on this kernel"
	mounted_here=1
fi
tracing_state() {
	ls "$TR/instances"
	cat "$TR/tracing_on" "$TR/current_tracer" "$TR/set_event" "$TR/buffer_size_kb"
	[ -r "$TR/kprobe_events" ] && cat "$TR/kprobe_events"
	cat "$TR/dynamic_events" 2>/dev/null
	return 0
}
cleanup() {
	[ "$mounted_here" -eq 1 ] && umount "$TR"
	rm -rf "$T"
}
trap cleanup EXIT
tracing_state >"$T/state-before"
mkdir "$T/o"
left() { ls -A "$T/o"; }

expect_exit 127 "record -- a command that does not exist" \
	"$SR_BIN" record -o "$T/o/a.dat" -- /no/such/cmd
check "not found: says so, naming it" grep -q "cannot run '/no/such/cmd': No such file" "$T/err"
check "not found: no file left in the folder" test -z "$(left)"

printf 'not a program\n' >"$T/noexec"
chmod 644 "$T/noexec"
expect_exit 126 "record -- a file that is not executable" \
	"$SR_BIN" record -o "$T/o/b.dat" -- "$T/noexec"
check "not executable: says why" grep -q "cannot run '$T/noexec': Permission denied" "$T/err"
check "not executable: no file left in the folder" test -z "$(left)"

expect_exit 1 "record -- false: the command's status" "$SR_BIN" record -o "$T/o/c.dat" -- false
check "record -- false: the recording is written" test -s "$T/o/c.dat"
check "record -- false: says the command failed" grep -q "the command 'false' failed (exit status 1)" "$T/err"
expect_exit 0 "record -- false: the file reads" "$SR_BIN" info "$T/o/c.dat"
rm -f "$T/o/c.dat"

expect_exit 7 "record -- sh -c 'exit 7'" "$SR_BIN" record -q -o "$T/o/d.dat" -- sh -c 'exit 7'
check "exit 7: the recording is written" test -s "$T/o/d.dat"
expect_exit 143 "record -- a command killed by SIGTERM: 128+15" \
	"$SR_BIN" record -q -o "$T/o/e.dat" -- sh -c 'kill -TERM $$'
expect_exit 0 "record -- true" "$SR_BIN" record -q -o "$T/o/f.dat" -- true
check "record -- true: the recording is written" test -s "$T/o/f.dat"
expect_exit 0 "record -d 1 -- a command still running: recording stopped, status 0" \
	"$SR_BIN" record -q -d 1 -o "$T/o/g.dat" -- sleep 30

# -o: a symlink stays a link, a FIFO and a device are written in place, never replaced
echo old >"$T/o/target.dat"
ln -s target.dat "$T/o/link.dat"
expect_exit 0 "record -o a symlink" "$SR_BIN" record -q -d 1 -o "$T/o/link.dat"
check "-o a symlink: still a symlink" test -L "$T/o/link.dat"
expect_exit 0 "-o a symlink: its target is the recording" "$SR_BIN" info "$T/o/target.dat"
mkfifo "$T/o/fifo"
cat "$T/o/fifo" >"$T/fifo.dat" &
reader=$!
expect_exit 0 "record -o a FIFO" "$SR_BIN" record -q -d 1 -o "$T/o/fifo"
wait "$reader"
check "-o a FIFO: still a FIFO" test -p "$T/o/fifo"
expect_exit 0 "-o a FIFO: the reader got a readable recording" "$SR_BIN" info "$T/fifo.dat"
expect_exit 0 "record -o /dev/stdout" bash -c "'$SR_BIN' record -q -d 1 -o /dev/stdout | cat >'$T/stdout.dat'"
expect_exit 0 "-o /dev/stdout: a readable recording" "$SR_BIN" info "$T/stdout.dat"
if mknod "$T/full" c 1 7 2>/dev/null; then
	expect_exit 4 "record -o a full device" "$SR_BIN" record -q -d 1 -o "$T/full"
	check "-o a full device: says so" grep -q "disk full" "$T/err"
	check "-o a full device: still a character device" test -c "$T/full"
fi
rm -f "$T/o/fifo" "$T/o/link.dat" "$T/o/target.dat"
check "-o: no temporary left" test -z "$(ls -A "$T/o" | grep -E 'tmp|^\.schedreplay' || true)"

tracing_state >"$T/state-after"
check "tracing state unchanged" diff -u "$T/state-before" "$T/state-after"
finish
