#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fault injection (issue 22): preload tests/fault/faultinj.so and fail the
# Nth allocation, then the Nth read or write, of `info` and `replay` on
# bundled fixtures, for N over every call (full walk) or every Kth one
# (short walk, make check: about 60 points per walk).  For each N:
#   - no crash, no sanitizer report (leaks included, in the ASan build), no
#     hang (a timeout);
#   - exit 0 only when the failure was absorbed: the outputs are then the
#     same as a run without faults; otherwise exit 3 (input) or 4
#     (internal: out of memory, cannot write) with one line on stderr;
#   - an output file that existed keeps its old bytes, and no temporary
#     file is left beside it.
#
# SR_FAULT_FULL=1 walks every N (long: ~35k allocations per trace.dat
# command); SR_FAULT_STRIDE=K sets the short walk's step (default: about
# 60 points per walk); SR_FAULT_ONLY=REGEX runs only the walks whose name
# matches.  The counts walked are printed at the end.
# A failure that libtraceevent or libtracecmd absorbs (they drop an event
# format or a page and go on) and that changes the output is counted as
# known, not failed, unless SR_FAULT_STRICT_LIBS=1: the project cannot see
# it (docs/robustness.md).
# SR_FAULTINJ names the shim (default: beside SR_BIN in tests/fault/).
. "$(dirname "$0")/lib.sh"
shim=${SR_FAULTINJ:-$(dirname "$SR_BIN")/tests/fault/faultinj.so}
[ -f "$shim" ] || { echo "# SKIP no fault-injection shim at $shim"; exit 77; }
full=${SR_FAULT_FULL:-0}
points=${SR_FAULT_POINTS:-60}
# the ASan runtime must accept a library in front of it
export ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# a leak inside libtraceevent that tests/lsan.supp names is not a second error line
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0"
walked_total=0

# run_one DIR N KIND MODE ARGS...: one run with the fault at N; rc in DIR/rc
run_one() {
	local d=$1 n=$2 kind=$3 mode=$4
	shift 4
	rm -rf "$d" && mkdir -p "$d"
	printf 'old bytes\n' >"$d/out.txt"
	printf 'old bytes\n' >"$d/out.json"
	(
		cd "$d" || exit 99
		if [ "$kind" = alloc ]; then
			export SR_FAULT_ALLOC=$n
		else
			export SR_FAULT_IO=$n SR_FAULT_IO_MODE=$mode
		fi
		timeout -k 5 60 env SR_FAULT_REPORT=$d/report LD_PRELOAD=$shim \
			"$SR_BIN" "${@//@OUT@/$d}" >"$d/stdout" 2>"$d/stderr" </dev/null
		echo $? >"$d/rc"
	)
}

# walk NAME KIND MODE ARGS...: every Nth fault of KIND over ARGS (@OUT@ is
# the output folder: ARGS write @OUT@/out.txt and, for replay, out.json)
walk() {
	local name=$1 kind=$2 mode=$3 ref=$T/ref-$1 d=$T/run total stride n rc bad=0 walked=0
	local absorbed=0 e3=0 e4=0 known=0 unfired=0 lines why in
	shift 3
	if [ -n "${SR_FAULT_ONLY:-}" ] && ! [[ $name =~ $SR_FAULT_ONLY ]]; then
		return
	fi
	run_one "$ref" 0 "$kind" "$mode" "$@"
	if [ "$(cat "$ref/rc")" != 0 ] || [ -s "$ref/stderr" ]; then
		fail "$name: the run without faults fails: $(head -c 300 "$ref/stderr")"
		return
	fi
	if [ "$kind" = alloc ]; then
		total=$(awk '{ print $2 }' "$ref/report")
	else
		total=$(awk '{ print $4 }' "$ref/report")
	fi
	if ! [ "${total:-0}" -gt 0 ] 2>/dev/null; then
		fail "$name: the run without faults made no $kind calls the shim saw"
		return
	fi
	stride=${SR_FAULT_STRIDE:-$(( (total + points - 1) / points ))}
	[ "$full" = 1 ] && stride=1
	[ "$stride" -ge 1 ] || stride=1
	# an odd offset, so a short walk does not always land on the same phase
	for ((n = 1 + (stride > 2 ? 1 : 0); n <= total; n += stride)); do
		run_one "$d" "$n" "$kind" "$mode" "$@"
		rc=$(cat "$d/rc")
		if [ "$(awk '{ print $6 }' "$d/report" 2>/dev/null)" = 0 ]; then
			unfired=$((unfired + 1))	# before the settings were read, or in a child
			[ "$rc" = 0 ] && continue
		fi
		walked=$((walked + 1))
		why=
		lines=$(wc -l <"$d/stderr")
		if grep -q -E 'Sanitizer|runtime error|Segmentation|Aborted|core dumped' "$d/stderr"; then
			why="sanitizer or crash: $(grep -m 3 -E 'ERROR|SUMMARY|runtime error' "$d/stderr")"
		elif [ "$rc" -ge 124 ]; then
			why="exit $rc (timeout or signal)"
		elif [ "$rc" = 0 ]; then
			if ! cmp -s "$d/out.txt" "$ref/out.txt" || ! cmp -s "$d/out.json" "$ref/out.json"; then
				why="exit 0, but the output differs from the run without faults"
				in=$(awk '{ print $8 }' "$d/report" 2>/dev/null)
				# inside libtraceevent/libtracecmd, which absorb it and
				# drop a format or a page without a word: known, not fixed
				case $in in
				libtraceevent*|libtracecmd*)
					if [ "${SR_FAULT_STRICT_LIBS:-0}" != 1 ]; then
						known=$((known + 1))
						why=
					else
						why="$why (the failed call was in $in)"
					fi ;;
				esac
			fi
			absorbed=$((absorbed + 1))
		elif [ "$rc" != 3 ] && [ "$rc" != 4 ]; then
			why="exit $rc, wanted 0, 3 or 4"
		elif [ "$lines" != 1 ]; then
			why="exit $rc with $lines lines on stderr, wanted 1"
		elif [ "$(cat "$d/out.txt")" != "old bytes" ] || [ "$(cat "$d/out.json")" != "old bytes" ]; then
			why="exit $rc, but an output file was replaced"
		fi
		[ "$rc" = 3 ] && e3=$((e3 + 1))
		[ "$rc" = 4 ] && e4=$((e4 + 1))
		if [ -z "$why" ] && [ "$(ls "$d" | grep -c -v -E '^(out\.txt|out\.json|stdout|stderr|rc|report)$')" != 0 ]; then
			why="left behind: $(ls "$d" | tr '\n' ' ')"
		fi
		if [ -n "$why" ]; then
			bad=$((bad + 1))
			[ $bad -le 5 ] && fail "$name: $kind fault at call $n of $total: $why; stderr: $(head -c 300 "$d/stderr")"
		fi
	done
	walked_total=$((walked_total + walked))
	if [ $walked -lt $(( (walked + unfired) / 2 )) ]; then
		fail "$name: only $walked of $((walked + unfired)) faults were given"
	elif [ $bad -eq 0 ]; then
		ok "$name: $walked of $total $kind calls failed in turn (step $stride): $absorbed absorbed, $e3 exit 3, $e4 exit 4"
		[ $unfired -eq 0 ] || echo "# $name: $unfired faults not given in this process (before the shim's settings were read, or in the forked probe only)"
		[ $known -eq 0 ] || echo "# $name: $known absorbed inside libtraceevent/libtracecmd with the output changed (known, SR_FAULT_STRICT_LIBS=1 fails them)"
	else
		fail "$name: $bad of $walked faults handled badly"
	fi
}

dat=$FIX/dat/numa02-head-v6.dat
v7=$FIX/dat/numa02-head-v7-zstd.dat
txt=$FIX/text/tracefs-host.txt
info_dat=(info --threads 1 -o @OUT@/out.txt "$dat")
info_lib=(info --reader libtracecmd -o @OUT@/out.txt "$v7")
info_json=(info --json --threads 1 -o @OUT@/out.txt "$v7")
info_txt=(info -o @OUT@/out.txt "$txt")
replay_dat=(replay --threads 1 -j1 -o @OUT@/out.txt --json @OUT@/out.json "$dat")
replay_txt=(replay -j1 -o @OUT@/out.txt --json @OUT@/out.json "$txt")

walk info-dat alloc - "${info_dat[@]}"
walk info-libtracecmd alloc - "${info_lib[@]}"
walk info-text alloc - "${info_txt[@]}"
walk replay-dat alloc - "${replay_dat[@]}"
walk replay-text alloc - "${replay_txt[@]}"
for mode in eio short; do
	walk "info-dat-$mode" io "$mode" "${info_dat[@]}"
	walk "info-json-v7-$mode" io "$mode" "${info_json[@]}"
	walk "replay-text-$mode" io "$mode" "${replay_txt[@]}"
done
walk replay-dat-enospc io enospc "${replay_dat[@]}"
# A full disk while libtracecmd's patched copy of a cut file is made: every
# failed write names the step and the byte of the chunk it was writing (the
# session opens the trace twice, so each step fails in two runs).
head -c 200000 "$dat" >"$T/cut.dat"
cut_run() {	# N: the Nth I/O call fails with ENOSPC; stderr in $T/cut.err
	env SR_FAULT_IO="$1" SR_FAULT_IO_MODE=enospc SR_FAULT_REPORT="$T/cut.report" LD_PRELOAD="$shim" \
		"$SR_BIN" info --reader libtracecmd --topology "$FIX/numa02-2n/numactl-H.txt" \
		-o "$T/cut.out" "$T/cut.dat" >/dev/null 2>"$T/cut.err" </dev/null
}
cut_run 0
total=$(awk '{ print $4 }' "$T/cut.report")
: >"$T/cut.msgs"
for n in $(seq 1 "$total"); do
	cut_run "$n"
	grep -h "cannot make a patched copy (copying the file" "$T/cut.err" >>"$T/cut.msgs" || true
done
check "ENOSPC in the patched copy: named, with the byte of each chunk (0 65536 131072 196608)" \
	test "$(grep "No space left on device$" "$T/cut.msgs" | grep -o 'at byte [0-9]*' | awk '{ print $3 }' | sort -un | tr '\n' ' ')" = \
	"0 65536 131072 196608 "
check "EIO reading the cut file for the copy: the byte it read at (0 .. 200000, its end)" \
	test "$(grep "Input/output error$" "$T/cut.msgs" | grep -o 'at byte [0-9]*' | awk '{ print $3 }' | sort -un | tr '\n' ' ')" = \
	"0 65536 131072 196608 200000 "
echo "# $walked_total faulty runs in all"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
