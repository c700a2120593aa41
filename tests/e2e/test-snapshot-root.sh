#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `schedreplay record`'s state snapshots for real (labelled "root"): with
# 2000 extra threads alive, the start and end snapshots hold one
# schedreplay_task line per thread, kernel threads included, each within
# one marker write, none refused and no event lost; the summary lines say
# what /proc and debugfs did not show; the replay applies the start
# snapshot and its kernel model runs with this host's kernel.numa_balancing.
# Tracing must be exactly as found at the end (tracefs is mounted for the test
# when it was not, and unmounted after).  Skips (exit 77) when not root or
# on a kernel without tracefs.
. "$(dirname "$0")/lib.sh"

skip() {
	echo "# SKIP: $* -- the snapshot recorder tests did NOT run"
	exit 77
}
[ "$(id -u)" -eq 0 ] || skip "not root"
TR=/sys/kernel/tracing
mounted_here=0
if ! grep -q " $TR tracefs " /proc/mounts; then
	mount -t tracefs nodev "$TR" 2>/dev/null || skip "no tracefs on this kernel"
	mounted_here=1
fi
trap '[ "$mounted_here" -eq 1 ] && umount "$TR"; rm -rf "$T"' EXIT
command -v trace-cmd >/dev/null || skip "no trace-cmd"
state() { ls "$TR/instances"; cat "$TR/tracing_on" "$TR/set_event" "$TR/buffer_size_kb"; }
state >"$T/before"

# 2000 sleeping threads, older than the trace
python3 -c '
import threading, time, sys
threading.stack_size(65536)
ev = threading.Event()
ts = [threading.Thread(target=ev.wait, daemon=True) for _ in range(2000)]
for t in ts: t.start()
print("up", flush=True)
time.sleep(60)' >"$T/threads.out" &
wl=$!
for _ in $(seq 100); do grep -q up "$T/threads.out" 2>/dev/null && break; sleep 0.1; done
check "the 2000 threads are up" grep -q up "$T/threads.out"

expect_exit 0 "record -d 1 with 2000 threads alive" "$SR_BIN" record -o "$T/s.dat" -d 1 --sample-ms 0
kill "$wl" 2>/dev/null
wait "$wl" 2>/dev/null
check "the summary names the snapshots" grep -q 'snapshots at start and end: [0-9]* tasks' "$T/err"
check "no task line refused" test -z "$(grep 'refused by trace_marker' "$T/err" || true)"
check "no event lost" test -z "$(grep -E 'lost events [1-9]' "$T/err" || true)"
trace-cmd report -i "$T/s.dat" 2>/dev/null | grep -o 'tracing_mark_write: schedreplay_.*' |
	sed 's/^tracing_mark_write: //' >"$T/lines"
grep '^schedreplay_task phase=start ' "$T/lines" >"$T/start"
grep '^schedreplay_task phase=end ' "$T/lines" >"$T/end"
n=$(wc -l <"$T/start")
check "start snapshot: more than 2000 task lines ($n)" test "$n" -gt 2000
check "end snapshot: more than 2000 task lines" test "$(wc -l <"$T/end")" -gt 2000
check "the workload's threads are all there" \
	test "$(grep -c " pid=$wl " "$T/start")" -ge 2001
check "kernel threads too (kthreadd, pid 2)" grep -q '^schedreplay_task phase=start tid=2 pid=2 .* kthread=1 ' "$T/start"
check "every line within one marker write (< 1 KiB)" test "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/lines")" -lt 1024
sum=$(grep '^schedreplay_snapshot phase=start ' "$T/lines")
check "the start summary counts its task lines" test "$(echo "$sum" | grep -o ' tasks=[0-9]*' | cut -d= -f2)" -eq "$n"
check "the summary says none was refused" grep -q ' unwritten=0 ' <<<"$sum"
check "the summary says which fields were absent" grep -qE ' absent=(none|[a-z_]+:[0-9]+)' <<<"$sum"
if mount | grep -q ' /sys/kernel/debug type debugfs'; then
	check "debugfs mounted: said so" grep -q ' debugfs=mounted' <<<"$sum"
else
	check "debugfs not mounted: said so, and no domain lines" \
		test "$(grep -c ' debugfs=not-mounted' <<<"$sum")" -eq 1 -a -z "$(grep '^schedreplay_domain' "$T/lines" || true)"
fi
check "the settings at start and end" test "$(grep -cE '^schedreplay_sysctl phase=(start|end) ' "$T/lines")" -eq 2
nb=$(cat /proc/sys/kernel/numa_balancing)
check "kernel.numa_balancing recorded" grep -q "^schedreplay_sysctl phase=start kernel.numa_balancing=$nb " "$T/lines"
expect_exit 0 "info --json" "$SR_BIN" info --json "$T/s.dat"
check "info: the start snapshot applied, every line" test "$(jq .snapshot.tasks "$T/out")" -eq "$n"
check "info: no bad line" test "$(jq .snapshot.bad_lines "$T/out")" -eq 0
expect_exit 0 "replay --json" "$SR_BIN" replay --json "$T/r.json" "$T/s.dat"
want=$([ "$nb" -eq 0 ] && echo false || echo true)
check "the kernel model's numa_balancing is the host's ($want), from the recording" \
	test "$(jq -c '[.policies.kernel[] | select(.params | has("numa_balancing")) |
		[.params.numa_balancing, .param_sources.numa_balancing]] | unique' "$T/r.json")" = \
	"[[$want,\"recorded sysctl kernel.numa_balancing\"]]"
state >"$T/after"
check "tracing as found" diff -u "$T/before" "$T/after"
finish
