#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The replay against the kernel that recorded the bundled NUMA traces
# (Debian 6.1 under qemu), held to issue 16's goals: the kernel model
# reproduces >= 90% of each trace's load-balancer pulls and >= 95% pooled,
# judges >= 95% of them pooled, reproduces >= 80% of the true sched_exec
# moves pooled (exec-v6.1), and counts lb-active within one of the
# kernel's own alb_pushed (schedstat-delta.txt).  The table behind these
# figures: tests/e2e/fidelity-table.sh.
. "$(dirname "$0")/lib.sh"

traces=(numa01-4n numa01-shm-4n numa02-2n mixed-2n)
n=0 j=0 r=0 en=0 er=0
for t in "${traces[@]}"; do
	expect_exit 0 "replay $t" "$SR_BIN" replay --quiet --json "$T/$t.json" "$FIX/$t"
	read -r tn tj tr < <(jq -r '.summary.fidelity["lb-pull"] |
		"\(.decisions) \(.judged) \(.reproduced)"' "$T/$t.json")
	check "$t: lb-pull reproduced $tr of $tn (>= 90%)" test $((tr * 100)) -ge $((tn * 90))
	n=$((n + tn)) j=$((j + tj)) r=$((r + tr))
	read -r xn xr < <(jq -r '.summary.fidelity.exec // {decisions: 0, reproduced: 0} |
		"\(.decisions) \(.reproduced)"' "$T/$t.json")
	en=$((en + xn)) er=$((er + xr))
	if [ -f "$FIX/$t/schedstat-delta.txt" ]; then
		read -r ours kernel < <(jq -r '.summary as $s |
			"\($s.by_class["lb-active"] // 0) \($s.kernel_counters["lb-active"].kernel // "none")"' \
			"$T/$t.json")
		check "$t: lb-active $ours within 1 of alb_pushed $kernel" \
			test "$kernel" != none -a $((ours - kernel)) -le 1 -a $((kernel - ours)) -le 1
	fi
done
check "pooled: lb-pull reproduced $r of $n (>= 95%)" test $((r * 100)) -ge $((n * 95))
check "pooled: lb-pull judged $j of $n (>= 95%)" test $((j * 100)) -ge $((n * 95))
check "pooled: exec reproduced $er of $en (>= 80%)" test "$en" -gt 0 -a $((er * 100)) -ge $((en * 80))
finish
