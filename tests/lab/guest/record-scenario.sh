#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# record-scenario.sh SECS -- runs inside the record-lab guest (busybox sh).
# Turns on NUMA balancing (fast scanning, as when the fixtures were recorded) and
# schedstats, then:
#   1. schedreplay record -o /out/x.dat -- numabench shared ... (SECS s),
#      checking once it traces that its instance, its numa_fault kprobe and
#      the six decision probes exist, enabled in its instance only;
#   2. SIGINT to a recorder: exit 0, nothing left;
#   3. SIGKILL to a recorder: its instance and probe are left; the next
#      run removes them;
#   5. with lab.extra=1 on the kernel command line: an oversubscribed load
#      (over.dat) and run 1 with --no-probes (noprobes.dat);
# and after each run compares the tracing state (instances, kprobe_events,
# dynamic_events, tracing_on, tracer, set_event) with the one before.
# Writes "ok - ..." / "not ok - ..." lines to /out/guest-checks.txt, the
# recorder's stderr to /out/*-err.txt; the host reads them
# (tests/lab/run-record-lab.sh).
SECS=$1
O=/out
T=/sys/kernel/tracing
NB=/sys/kernel/debug/sched/numa_balancing
C=$O/guest-checks.txt
: > $C
ok() { echo "ok - $*" >> $C; echo "ok - $*"; }
notok() { echo "not ok - $*" >> $C; echo "not ok - $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else notok "$d"; fi; }
state() {
	echo "instances:"; ls $T/instances
	echo "kprobe_events:"; cat $T/kprobe_events
	echo "dynamic_events:"; cat $T/dynamic_events
	# buffer_size_kb without its "(expanded: N)" note: see docs/recording.md
	echo "tracing_on=$(cat $T/tracing_on) tracer=$(cat $T/current_tracer) buffer_kb=$(cut -d' ' -f1 $T/buffer_size_kb)"
	echo "set_event:"; cat $T/set_event
}
same_state() { state > /tmp/state-now; diff -u $O/state-before.txt /tmp/state-now >> $O/state-diff.txt; }
ours() { ls $T/instances | grep -c '^schedreplay-'; }
probes() { grep -cE '^[pr][0-9]*:schedreplay_' $T/kprobe_events; }
DPROBES="cmt cmt_ret strf strf_ret tnm tnm_ret"
# wait_armed PID: until recorder PID traces with its 7 probes (numa_fault and
# the decision probes), at most 60 s. A new instance starts with tracing on
# and the recorder turns it off until its probes are placed, so tracing_on
# alone can be seen before them (a SIGKILL there left 1 probe, not 7).
wait_armed() {
	i=0
	while [ $i -lt 300 ]; do
		if [ "$(cat $T/instances/schedreplay-$1/tracing_on 2>/dev/null)" = 1 ] &&
		   [ "$(grep -cE "^[pr][0-9]*:schedreplay_$1/" $T/kprobe_events)" -ge 7 ]; then
			return 0
		fi
		sleep 0.2; i=$((i + 1))
	done
	return 1
}

uname -a > $O/uname.txt
numactl -H > $O/numactl-H.txt 2>&1
for n in /sys/devices/system/node/node[0-9]*; do
	echo "$(basename $n) cpulist=$(cat $n/cpulist) distance=$(cat $n/distance)"
done > $O/topology.txt
echo "task_numa_fault in kallsyms: $(grep -c ' task_numa_fault$' /proc/kallsyms)" > $O/kernel-facts.txt
echo "btf: $(ls -la /sys/kernel/btf/vmlinux 2>&1)" >> $O/kernel-facts.txt
grep -E ' (can_migrate_task|select_task_rq_fair|task_numa_migrate)(\.[a-z]+\.[0-9]+)*$' /proc/kallsyms \
	>> $O/kernel-facts.txt
grep -q 'lab\.extra=1' /proc/cmdline && cat /sys/kernel/btf/vmlinux > $O/vmlinux.btf

# NUMA balancing on, scanning fast enough for a short run; schedstats on
echo 1 > /proc/sys/kernel/numa_balancing
echo 1 > /proc/sys/kernel/sched_schedstats
echo 200 > $NB/scan_delay_ms
echo 200 > $NB/scan_period_min_ms
echo 5000 > $NB/scan_period_max_ms
state > $O/state-before.txt
cat $T/buffer_size_kb > $O/buffer-size-before.txt
: > $O/state-diff.txt

( while :; do
	echo "HB up=$(cut -d' ' -f1 /proc/uptime) load=$(cut -d' ' -f1-3 /proc/loadavg) $(grep -E '^(numa_hint_faults|numa_pages_migrated) ' /proc/vmstat | tr '\n' ' ')" > /dev/console
	sleep 10
  done ) &
HB=$!

# --- 1. a NUMA workload recorded ------------------------------------------------
NT=$(( $(nproc) / 2 ))
t0=$(date +%s)
schedreplay record -o $O/x.dat --sample-ms 500 -- \
	numabench shared -p 2 -t $NT -m 128 -s $SECS > $O/record-out.txt 2> $O/record-err.txt &
REC=$!
# while it runs: its instance and its probe exist (the kprobe registered)
: > $O/during.txt
wait_armed $REC
sleep 2
{ echo "instances:"; ls $T/instances; echo "kprobe_events:"; cat $T/kprobe_events
  echo "probe enabled in the instance: $(cat $T/instances/schedreplay-$REC/events/schedreplay_$REC/numa_fault/enable 2>&1)"
  echo "kprobe_profile:"; cat $T/kprobe_profile
  echo "probe enabled at top level: $(cat $T/events/schedreplay_$REC/numa_fault/enable 2>&1)"
  echo "instance tracing_on: $(cat $T/instances/schedreplay-$REC/tracing_on 2>&1)"
  echo "top-level tracing_on: $(cat $T/tracing_on)"
} > $O/during.txt
check "run 1: instance schedreplay-$REC exists while recording" test -d $T/instances/schedreplay-$REC
check "run 1: kprobe schedreplay_$REC/numa_fault registered while recording" \
	grep -q "^p:schedreplay_$REC/numa_fault task_numa_fault" $T/kprobe_events
check "run 1: the probe is enabled in the instance" \
	test "$(cat $T/instances/schedreplay-$REC/events/schedreplay_$REC/numa_fault/enable 2>/dev/null)" = 1
check "run 1: the probe is not enabled at the top level" \
	test "$(cat $T/events/schedreplay_$REC/numa_fault/enable 2>/dev/null)" = 0
for p in $DPROBES; do
	check "run 1: decision probe schedreplay_$REC/$p registered" \
		grep -qE "^[pr][0-9]*:schedreplay_$REC/$p " $T/kprobe_events
	check "run 1: decision probe $p enabled in the instance" \
		test "$(cat $T/instances/schedreplay-$REC/events/schedreplay_$REC/$p/enable 2>/dev/null)" = 1
	check "run 1: decision probe $p not enabled at the top level" \
		test "$(cat $T/events/schedreplay_$REC/$p/enable 2>/dev/null)" = 0
done
cat $T/kprobe_profile > $O/kprobe-profile-during.txt 2>&1
wait $REC
rc=$?
echo "run 1: rc=$rc wall=$(( $(date +%s) - t0 ))s"
check "run 1: record -- numabench exits 0 (rc=$rc)" test $rc -eq 0
check "run 1: x.dat written" test -s $O/x.dat
check "run 1: no temporary left in /out" test -z "$(ls -A $O | grep -E '^\.schedreplay|\.tmp-')"
check "run 1: no instance left" test "$(ours)" -eq 0
check "run 1: no probe left" test "$(probes)" -eq 0
check "run 1: tracing state as before" same_state
grep -E '^(numa_|pgmigrate)' /proc/vmstat > $O/vmstat-after.txt

# --- 2. SIGINT: a clean stop -------------------------------------------------------
schedreplay record -q --no-latency -o $O/int.dat -d 120 2> $O/int-err.txt &
REC=$!
wait_armed $REC
sleep 1
kill -INT $REC
wait $REC
rc=$?
check "run 2: SIGINT: exit 0 (rc=$rc)" test $rc -eq 0
check "run 2: SIGINT: int.dat written" test -s $O/int.dat
check "run 2: SIGINT: no instance left" test "$(ours)" -eq 0
check "run 2: SIGINT: no probe left" test "$(probes)" -eq 0
check "run 2: SIGINT: tracing state as before" same_state

# --- 3. SIGKILL: left behind, removed by the next run ---------------------------------
schedreplay record -q --no-latency -o $O/kill.dat -d 120 2> $O/kill-err.txt &
REC=$!
wait_armed $REC
sleep 1
kill -KILL $REC
wait $REC 2>/dev/null
{ echo "after SIGKILL of $REC:"; state; } > $O/after-kill.txt
check "run 3: SIGKILL: its instance is left behind" test -d $T/instances/schedreplay-$REC
check "run 3: SIGKILL: its probe is left behind" grep -q "^p:schedreplay_$REC/numa_fault " $T/kprobe_events
check "run 3: SIGKILL: its decision probes are left behind (6 + numa_fault)" \
	test "$(grep -cE "^[pr][0-9]*:schedreplay_$REC/" $T/kprobe_events)" -eq 7
check "run 3: SIGKILL: no kill.dat" test ! -e $O/kill.dat
check "run 3: SIGKILL: no named temporary in /out" test -z "$(ls -A $O | grep -E '^\.schedreplay|\.tmp-')"
schedreplay record --no-latency -o $O/next.dat -d 2 > /dev/null 2> $O/next-err.txt
rc=$?
check "run 4: the next run exits 0 (rc=$rc)" test $rc -eq 0
check "run 4: it says it removed the stale instance and probe" \
	grep -q "removed 1 stale instance(s) and 1 stale probe group(s)" $O/next-err.txt
check "run 4: the stale instance is gone" test ! -d $T/instances/schedreplay-$REC
check "run 4: the stale probe is gone" test "$(probes)" -eq 0
check "run 4: no instance left" test "$(ours)" -eq 0
check "run 4: tracing state as before" same_state
check "run 4: next.dat written" test -s $O/next.dat

check "run 4: no named temporary in /out" test -z "$(ls -A $O | grep -E '^\.schedreplay|\.tmp-')"
# --- 5. optional (lab.extra=1): an oversubscribed load, and run 1 without probes --
if grep -q 'lab\.extra=1' /proc/cmdline; then
	t0=$(date +%s)
	schedreplay record -o $O/over.dat --sample-ms 500 -- \
		numabench shared -p 2 -t $(nproc) -m 128 -s $SECS > /dev/null 2> $O/over-err.txt
	rc=$?
	echo "run 5: oversubscribed rc=$rc wall=$(( $(date +%s) - t0 ))s"
	check "run 5: oversubscribed (2 x $(nproc) threads) record exits 0 (rc=$rc)" test $rc -eq 0
	check "run 5: over.dat written" test -s $O/over.dat
	t0=$(date +%s)
	schedreplay record --no-probes -o $O/noprobes.dat --sample-ms 500 -- \
		numabench shared -p 2 -t $NT -m 128 -s $SECS > $O/noprobes-out.txt 2> $O/noprobes-err.txt
	rc=$?
	echo "run 6: --no-probes rc=$rc wall=$(( $(date +%s) - t0 ))s"
	check "run 6: --no-probes record exits 0 (rc=$rc)" test $rc -eq 0
	check "run 6: --no-probes: every decision probe missing (--no-probes)" \
		test "$(grep -c 'decision probe .*missing (--no-probes)' $O/noprobes-err.txt)" -eq 6
	check "run 6: no probe left" test "$(probes)" -eq 0
	check "run 6: tracing state as before" same_state
fi
cat $T/buffer_size_kb > $O/buffer-size-after.txt
echo "top-level buffer_size_kb before: $(cat $O/buffer-size-before.txt), after: $(cat $O/buffer-size-after.txt)"
kill $HB
ls -la $O
echo "guest checks: $(grep -c '^ok' $C) ok, $(grep -c '^not ok' $C) not ok"
