#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `schedreplay record` for real, through tracefs (labelled "root"): a
# multi-threaded workload recorded, read back by trace-cmd and by info with
# the same per-event counts, replayed; SIGINT and -d; SIGKILL and the stale
# instance removed by the next run; a COMMAND that cannot start (127, 126,
# no file) or fails (its status); -o through a symlink, into a FIFO, a
# device and stdout; refusal when not root, when the output
# folder is read-only and when the disk fills, with no file left behind.
# Tracing must be exactly as found at the end.  Skips (exit 77, loudly)
# only when not root or when tracefs cannot be had at all.
. "$(dirname "$0")/lib.sh"

skip() {
	echo "#"
	echo "# SKIP: $* -- the recorder tests did NOT run"
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
PINGPONG=$(dirname "$SR_BIN")/bench/sched-pingpong
[ -x "$PINGPONG" ] || { fail "workload $PINGPONG not built"; finish; exit 1; }

tracing_state() {
	ls "$TR/instances"
	cat "$TR/tracing_on" "$TR/current_tracer" "$TR/set_event" "$TR/buffer_size_kb"
	[ -r "$TR/kprobe_events" ] && cat "$TR/kprobe_events"
	cat "$TR/dynamic_events" 2>/dev/null
	return 0
}
cleanup_mounts() {
	for m in "$T/ro" "$T/full"; do mountpoint -q "$m" 2>/dev/null && umount "$m"; done
	[ "$mounted_here" -eq 1 ] && umount "$TR"
	rm -rf "$T"
}
trap cleanup_mounts EXIT
tracing_state >"$T/state-before"
ours() { ls "$TR/instances" | grep -c '^schedreplay-' || true; }

# --- a multi-threaded workload, read back by trace-cmd, info and replay -------
expect_exit 0 "record -- sched-pingpong" \
	"$SR_BIN" record -o "$T/x.dat" --sample-ms 100 -- "$PINGPONG" 4 20000
cp "$T/err" "$T/record-err"
check "the file exists" test -s "$T/x.dat"
check "no temporary left next to it" test -z "$(ls -A "$T" | grep -E '^\.schedreplay|\.tmp-' || true)"
check "summary names the file" grep -q "wrote '$T/x.dat'" "$T/record-err"
check "summary reports lost events per cpu" grep -q "cpu 0: .* lost events" "$T/record-err"
check "kprobe status reported" grep -q "numa_fault kprobe: " "$T/record-err"
trace-cmd report -i "$T/x.dat" >"$T/report" 2>"$T/report-err"
check "trace-cmd report reads it (exit 0)" test $? -eq 0
check "trace-cmd report: no error or warning" \
	test -z "$(grep -iE 'error|warn|fail|unknown|bad' "$T/report-err" || true)"
report_counts <"$T/report" >"$T/want"
expect_exit 0 "info --json" "$SR_BIN" info --json "$T/x.dat"
cp "$T/out" "$T/info.json"
json_counts <"$T/info.json" >"$T/got"
check "per-event counts: trace-cmd report = schedreplay info" diff -u "$T/want" "$T/got"
check "thousands of sched_switch" test "$(jq '.events.sched_switch // 0' "$T/info.json")" -gt 1000
check "file version 6" test "$(jq -r '"\(.format) \(.file_version)"' "$T/info.json")" = "trace.dat 6"
# v6: the TRACECLOCK option's text follows the CPU table (size, "[clock]\n"), as trace-cmd writes it
check "the trace_clock text after the CPU table" python3 - "$T/x.dat" "$(jq .cpus "$T/info.json")" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
at = b.index(b"flyrecord\0") + 10 + 16 * int(sys.argv[2])
n, = struct.unpack_from("<Q", b, at)
text = b[at + 8:at + 8 + n]
first = min(struct.unpack_from("<Q", b, b.index(b"flyrecord\0") + 10 + 16 * i)[0]
            for i in range(int(sys.argv[2])))
sys.exit(0 if text == b"[local]\n" and at + 8 + n <= first else 1)
PY
check "kernel release in the file" test "$(jq -r .kernel_release "$T/info.json")" = "$(uname -r)"
check "topology from the trace's own lines" test "$(jq -r .topology.source "$T/info.json")" = trace
check "cpus = this host's" test "$(jq .cpus "$T/info.json")" = "$(getconf _NPROCESSORS_CONF)"
check "metadata lines in trace-cmd report" grep -q 'tracing_mark_write: schedreplay_meta release=' "$T/report"
check "vmstat at start and end" \
	test "$(grep -cE 'schedreplay_vmstat phase=(start|end)' "$T/report")" -ge 2
grep -o 'numa_sample .*' "$T/report" | grep 'comm=sched-pingpong' >"$T/samples"
check "numa_sample lines of the workload's threads" test -s "$T/samples"
check "more than one thread sampled" \
	test "$(grep -o ' tid=[0-9]*' "$T/samples" | sort -u | wc -l)" -gt 1
check "samples parse as info counts them" test "$(jq '.numa_samples // .samples // 0' "$T/info.json")" -gt 0
check "schedreplay option stored in the file" grep -aq 'schedreplay-metadata 1' "$T/x.dat"
check "lost events per cpu stored in the file" grep -aq 'schedreplay_lost cpu=0 lost=' "$T/x.dat"
# the latency profile, measured before tracing (record-latency.c)
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
check "summary: the latency profile was measured" grep -q "latency profile: $nodes nodes\? measured in" "$T/record-err"
grep -o 'schedreplay_latency .*' "$T/report" >"$T/lat-lines"
check "one schedreplay_latency line per node pair ($nodes x $nodes)" test "$(wc -l <"$T/lat-lines")" -eq $((nodes * nodes))
check "the meta line announces them" grep -q "schedreplay_meta .* latency=$((nodes * nodes))" "$T/report"
check "every latency is positive" awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^ns=/) { v = substr($i, 4); if (!(v > 0)) exit 1 } } END { exit NR == 0 }' "$T/lat-lines"
expect_exit 0 "replay --json on it" "$SR_BIN" replay --quiet --json "$T/x.json" "$T/x.dat"
check "the replay priced with the trace's profile" test "$(jq -r .summary.cost.latency_source "$T/x.json")" = measured
check "the recorder's options stored" grep -aq 'schedreplay_record options=.*--sample-ms,100' "$T/x.dat"
trace-cmd report --stat -i "$T/x.dat" >"$T/stat" 2>&1
check "trace-cmd report --stat shows per-cpu buffer stats" grep -q '^overrun: ' "$T/stat"
expect_exit 0 "replay runs on it" "$SR_BIN" replay "$T/x.dat"
check "no instance of ours left" test "$(ours)" -eq 0

# --- a tiny buffer under a flood: lost events reported, stored, read back ------
expect_exit 0 "record --buffer-kb 64 under sched-pingpong" \
	"$SR_BIN" record --no-latency -o "$T/lost.dat" --buffer-kb 64 -- "$PINGPONG" 4 60000
check "lost events reported at the end" grep -q "events lost: raise --buffer-kb" "$T/err"
expect_exit 0 "info on the lossy file" "$SR_BIN" info --json "$T/lost.dat"
check "info sees the lost events the pages carry" test "$(jq .lost_events.total "$T/out")" -gt 0
check "the metadata lines survived the overrun" test "$(jq -r .topology.source "$T/out")" = trace
check "lost counts stored in the file" grep -aqE 'schedreplay_lost cpu=[0-9]+ lost=[1-9]' "$T/lost.dat"
expect_exit 0 "replay runs on the lossy file" "$SR_BIN" replay "$T/lost.dat"

# --- -p: only that process's threads are sampled; -d bounds the time -----------
"$PINGPONG" 2 400000 >/dev/null &
wl=$!
start=$(date +%s)
expect_exit 0 "record -p PID -d 1" "$SR_BIN" record --no-latency -q -o "$T/p.dat" -p "$wl" -d 1 --sample-ms 200
check "-d 1 stops in time" test $(($(date +%s) - start)) -le 6
trace-cmd report -i "$T/p.dat" 2>/dev/null | grep -o 'numa_sample .*' >"$T/psamples"
check "-p: samples taken" test -s "$T/psamples"
check "-p: only pid=$wl sampled" test -z "$(grep -v " pid=$wl " "$T/psamples" || true)"
kill "$wl" 2>/dev/null
wait "$wl" 2>/dev/null

# --- SIGINT stops cleanly ------------------------------------------------------
"$SR_BIN" record --no-latency -q -o "$T/int.dat" -d 60 2>"$T/int-err" &
rec=$!
for _ in $(seq 50); do [ "$(ours)" -gt 0 ] && break; sleep 0.1; done
sleep 0.5
kill -INT "$rec"
wait "$rec"
check "SIGINT: exit 0" test $? -eq 0
expect_exit 0 "SIGINT: the file reads" "$SR_BIN" info --json "$T/int.dat"
check "SIGINT: no instance left" test "$(ours)" -eq 0

# --- SIGKILL leaves a stale instance; the next start removes it ----------------
"$SR_BIN" record --no-latency -q -o "$T/kill.dat" -d 60 2>/dev/null &
rec=$!
for _ in $(seq 50); do [ -d "$TR/instances/schedreplay-$rec" ] && break; sleep 0.1; done
sleep 0.5
kill -KILL "$rec"
wait "$rec" 2>/dev/null
check "SIGKILL: its instance is left behind" test -d "$TR/instances/schedreplay-$rec"
check "SIGKILL: no output file, no named temporary" \
	test -z "$(ls -A "$T" | grep -E '^kill\.dat|^\.schedreplay' || true)"
expect_exit 0 "the next run" "$SR_BIN" record --no-latency -o "$T/next.dat" -d 0.3
want_probes=0
[ -e "$TR/kprobe_events" ] && want_probes=1
check "the next run says it removed the stale instance (and $want_probes probe group)" \
	grep -q "removed 1 stale instance(s) and $want_probes stale probe group(s)" "$T/err"
check "SIGKILL: stale instance gone" test ! -d "$TR/instances/schedreplay-$rec"
check "no instance of ours left" test "$(ours)" -eq 0

# --- refusals -------------------------------------------------------------------
if command -v setpriv >/dev/null; then
	mkdir -p "$T/nobody" && chmod 777 "$T/nobody" && chmod 755 "$T"
	expect_exit 5 "not root: refused" setpriv --reuid nobody --regid nogroup --clear-groups \
		"$SR_BIN" record --no-latency -o "$T/nobody/n.dat" -d 1
	check "not root: says root is needed" grep -q "root" "$T/err"
	check "not root: no file" test -z "$(ls -A "$T/nobody")"
	chmod 700 "$T"
else
	fail "setpriv missing: the not-root refusal was not tested"
fi
mkdir -p "$T/ro" && mount -t tmpfs -o ro,size=1m tmpfs "$T/ro"
expect_exit 4 "read-only output folder: refused" "$SR_BIN" record --no-latency -o "$T/ro/x.dat" -d 1
check "read-only: names the folder" grep -q "output folder '$T/ro'" "$T/err"
check "read-only: no instance left" test "$(ours)" -eq 0
umount "$T/ro"
mkdir -p "$T/full" && mount -t tmpfs -o size=192k tmpfs "$T/full"
expect_exit 4 "disk full: fails" "$SR_BIN" record --no-latency -o "$T/full/x.dat" --sample-ms 50 -- \
	"$PINGPONG" 4 100000
check "disk full: says so" grep -q "disk full" "$T/err"
check "disk full: nothing left in the folder" test -z "$(ls -A "$T/full")"
check "disk full: no instance left" test "$(ours)" -eq 0
umount "$T/full"
expect_exit 2 "--buffer-kb too small" "$SR_BIN" record --no-latency --buffer-kb 1 -d 1
expect_exit 2 "-o a folder" "$SR_BIN" record --no-latency -o "$T" -d 1
expect_exit 2 "unknown option" "$SR_BIN" record --no-latency --bogus
expect_exit 0 "record --help" "$SR_BIN" record --help

# --- exit status with a COMMAND (docs/recording.md); -o targets (util/outfile.h)
mkdir "$T/o"
left() { ls -A "$T/o"; }

expect_exit 127 "record -- a command that does not exist" \
	"$SR_BIN" record --no-latency -o "$T/o/a.dat" -- /no/such/cmd
check "not found: says so, naming it" grep -q "cannot run '/no/such/cmd': No such file" "$T/err"
check "not found: no file left in the folder" test -z "$(left)"

printf 'not a program\n' >"$T/noexec"
chmod 644 "$T/noexec"
expect_exit 126 "record -- a file that is not executable" \
	"$SR_BIN" record --no-latency -o "$T/o/b.dat" -- "$T/noexec"
check "not executable: says why" grep -q "cannot run '$T/noexec': Permission denied" "$T/err"
check "not executable: no file left in the folder" test -z "$(left)"

expect_exit 1 "record -- false: the command's status" "$SR_BIN" record --no-latency -o "$T/o/c.dat" -- false
check "record -- false: the recording is written" test -s "$T/o/c.dat"
check "record -- false: says the command failed" grep -q "the command 'false' failed (exit status 1)" "$T/err"
expect_exit 0 "record -- false: the file reads" "$SR_BIN" info "$T/o/c.dat"
rm -f "$T/o/c.dat"

expect_exit 7 "record -- sh -c 'exit 7'" "$SR_BIN" record --no-latency -q -o "$T/o/d.dat" -- sh -c 'exit 7'
check "exit 7: the recording is written" test -s "$T/o/d.dat"
expect_exit 143 "record -- a command killed by SIGTERM: 128+15" \
	"$SR_BIN" record --no-latency -q -o "$T/o/e.dat" -- sh -c 'kill -TERM $$'
expect_exit 0 "record -- true" "$SR_BIN" record --no-latency -q -o "$T/o/f.dat" -- true
check "record -- true: the recording is written" test -s "$T/o/f.dat"
expect_exit 0 "record -d 1 -- a command still running: recording stopped, status 0" \
	"$SR_BIN" record --no-latency -q -d 1 -o "$T/o/g.dat" -- sleep 30

# -o: a symlink stays a link, a FIFO and a device are written in place, never replaced
echo old >"$T/o/target.dat"
ln -s target.dat "$T/o/link.dat"
expect_exit 0 "record -o a symlink" "$SR_BIN" record --no-latency -q -d 1 -o "$T/o/link.dat"
check "-o a symlink: still a symlink" test -L "$T/o/link.dat"
expect_exit 0 "-o a symlink: its target is the recording" "$SR_BIN" info "$T/o/target.dat"
mkfifo "$T/o/fifo"
cat "$T/o/fifo" >"$T/fifo.dat" &
reader=$!
expect_exit 0 "record -o a FIFO" "$SR_BIN" record --no-latency -q -d 1 -o "$T/o/fifo"
wait "$reader"
check "-o a FIFO: still a FIFO" test -p "$T/o/fifo"
expect_exit 0 "-o a FIFO: the reader got a readable recording" "$SR_BIN" info "$T/fifo.dat"
expect_exit 0 "record -o /dev/stdout" bash -c "'$SR_BIN' record -q -d 1 -o /dev/stdout | cat >'$T/stdout.dat'"
expect_exit 0 "-o /dev/stdout: a readable recording" "$SR_BIN" info "$T/stdout.dat"
if mknod "$T/fulldev" c 1 7 2>/dev/null; then
	expect_exit 4 "record -o a full device" "$SR_BIN" record --no-latency -q -d 1 -o "$T/fulldev"
	check "-o a full device: says so" grep -q "disk full" "$T/err"
	check "-o a full device: still a character device" test -c "$T/fulldev"
fi
rm -f "$T/o/fifo" "$T/o/link.dat" "$T/o/target.dat"
check "-o: no temporary left" test -z "$(ls -A "$T/o" | grep -E 'tmp|^\.schedreplay' || true)"

# --- tracing exactly as found -----------------------------------------------------
tracing_state >"$T/state-after"
check "tracing state unchanged (instances, tracing_on, tracer, events, buffer, probes)" \
	diff -u "$T/state-before" "$T/state-after"
finish
