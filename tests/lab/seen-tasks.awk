# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lab/seen-tasks.awk: from a trace-cmd report text, every task (kernel pid) the
# trace's scheduler events name, against the start snapshot's
# schedreplay_task lines.  Prints one line per task not in the snapshot:
# "born TID" (a sched_process_fork child), "early-exit TID" (it exited
# before the snapshot's closing line), or "unseeded TID".
# and last "seen N snapshot M" (tasks the events name, start lines).
function saw(t) { if (t + 0 > 0) seen[t + 0] = 1 }
/tracing_mark_write: schedreplay_task phase=start / {
	if (match($0, / tid=[0-9]+/)) snap[substr($0, RSTART + 5, RLENGTH - 5) + 0] = 1
}
/tracing_mark_write: schedreplay_snapshot phase=start / {
	for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { snap_ts = $i + 0; break }
}
/tracing_mark_write:/ { next }
match($0, /-[0-9]+ +\[[0-9]+\] /) {
	s = substr($0, RSTART + 1, RLENGTH - 1); split(s, a, /[ \[]+/); saw(a[1])
	ts = 0
	for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = $i + 0; break }
	rest = substr($0, RSTART + RLENGTH)
	# comm:PID [PRIO] (sched_switch, sched_wakeup*, the plugin forms)
	r = rest
	while (match(r, /:[0-9]+ \[[0-9]+\]/)) {
		t = substr(r, RSTART + 1, RLENGTH - 1); sub(/ .*/, "", t); saw(t)
		r = substr(r, RSTART + RLENGTH)
	}
	# pid=, child_pid=, src_pid=, dst_pid=, old_pid=, ...
	r = rest
	while (match(r, /[a-z_]*pid=[0-9]+/)) {
		k = substr(r, RSTART, RLENGTH); v = k; sub(/.*=/, "", v); sub(/=.*/, "", k)
		# (not last_cpupid: a cpupid, not a task)
		if (k ~ /^(|child_|parent_|src_|dst_|old_|prev_|next_)pid$/) saw(v)
		if (k == "child_pid") born[v + 0] = 1
		r = substr(r, RSTART + RLENGTH)
	}
	if (rest ~ / sched_process_exit: / && match(rest, / pid=[0-9]+/))
		exited[substr(rest, RSTART + 5, RLENGTH - 5) + 0] = ts
}
END {
	for (t in seen) {
		if (t in snap) continue
		if (t in born) print "born", t
		else if ((t in exited) && exited[t] <= snap_ts) print "early-exit", t
		else print "unseeded", t
	}
	n = 0; for (t in seen) n++; m = 0; for (t in snap) m++
	printf "seen %d snapshot %d\n", n, m
}
