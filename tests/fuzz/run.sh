#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run the libFuzzer harnesses one after another, each for a chosen time,
# under nice -n 19, and print per harness: run time, executions per second,
# corpus size and crashes.
#
# usage: tests/fuzz/run.sh [SECONDS] [TARGET...]     (default 60 s, every target)
#        tests/fuzz/run.sh --smoke SECONDS TARGET    (CTest: fresh corpus copy)
#
# Harnesses come from SR_FUZZ_BIN_DIR (default build-fuzz/fuzz: build them
# with `make fuzz-build`).  The corpus lives in build-fuzz/corpus/<target>
# (made by make-corpus.sh when missing) and grows with each run; crash,
# timeout, leak and OOM reproducers land in build-fuzz/crashes/<target>/ and
# logs in build-fuzz/logs/<target>.log.  A reproducer is replayed by giving
# the harness the file: build-fuzz/fuzz/fuzz-X build-fuzz/crashes/fuzz-X/crash-...
# Exit status: 0 when no harness found anything, 1 otherwise, 2 on misuse.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${SR_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
bindir=${SR_FUZZ_BIN_DIR:-$src/build-fuzz/fuzz}
work=$(cd "$bindir/.." 2>/dev/null && pwd) || { echo "run.sh: no harnesses in '$bindir' (make fuzz-build)" >&2; exit 2; }
smoke=0
if [ "${1:-}" = --smoke ]; then
	smoke=1
	shift
fi
secs=${1:-60}
shift || true
case $secs in ''|*[!0-9]*) echo "run.sh: SECONDS must be a whole number" >&2; exit 2 ;; esac
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	for b in "$bindir"/fuzz-*; do [ -x "$b" ] && targets+=("$(basename "$b")"); done
fi
[ ${#targets[@]} -gt 0 ] || { echo "run.sh: no harnesses in '$bindir'" >&2; exit 2; }

# "[libfuzzer]" options file -> -key=value flags
options() {
	local f=$1
	[ -f "$f" ] || return 0
	sed -n '/^\[libfuzzer\]/,/^\[/{/^[a-z_]* *=/{s/ *= */=/;s/^/-/;p}}' "$f"
}

# leaks inside libtraceevent/libtracecmd only (the project's own code has no suppression)
export LSAN_OPTIONS="suppressions=$src/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# a damaged event format can make libtraceevent ask for an absurd size: let
# malloc fail as it does outside the sanitizer (the libraries handle NULL)
export ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
[ -d "$work/corpus" ] || bash "$here/make-corpus.sh" "$work/corpus" >/dev/null
mkdir -p "$work/logs"
status=0
if [ $smoke -eq 0 ]; then
	printf '%-20s %8s %10s %8s %10s %8s\n' harness seconds exec/s corpus bytes crashes
fi
for t in "${targets[@]}"; do
	bin=$bindir/$t
	base=${t}
	[ -x "$bin" ] || { echo "run.sh: no harness '$bin'" >&2; status=2; continue; }
	corpus=$work/corpus/$t
	[ -d "$corpus" ] || bash "$here/make-corpus.sh" "$work/corpus" >/dev/null
	mkdir -p "$corpus"
	crashes=$work/crashes/$t
	mkdir -p "$crashes"
	log=$work/logs/$t.log
	flags=($(options "$here/$base.options"))
	[ -f "$here/$base.dict" ] && flags+=("-dict=$here/$base.dict")
	if [ $smoke -eq 1 ]; then
		# a throwaway copy of the corpus, so CI never grows the tree
		tmp=$(mktemp -d)
		trap 'rm -rf "$tmp"' EXIT
		cp -r "$corpus" "$tmp/corpus"
		corpus=$tmp/corpus
		crashes=$tmp/crashes
		mkdir -p "$crashes"
	fi
	if [ $smoke -eq 1 ] && [ -d "$here/regress/$t" ]; then
		# every committed crash reproducer must now run clean
		if ! "$bin" "${flags[@]}" "$here/regress/$t"/* >"$log" 2>&1; then
			echo "$t: a committed regression input fails again:"
			grep -m 20 -E 'Running:|ERROR|SUMMARY|runtime error' "$log"
			echo "0 passed, 1 failed"
			exit 1
		fi
	fi
	before=$(find "$crashes" -type f | wc -l)
	start=$(date +%s)
	if [ $smoke -eq 1 ]; then
		# CI: the same inputs every time (fixed seed, bounded run count, and
		# the time as a cap), so a smoke run passes or fails reproducibly
		limit=(-seed=1 -runs="${SR_FUZZ_SMOKE_RUNS:-3000}" -max_total_time="$secs")
	else
		limit=(-max_total_time="$secs")
	fi
	nice -n 19 "$bin" "${flags[@]}" "${limit[@]}" -print_final_stats=1 \
		-artifact_prefix="$crashes/" "$corpus" >"$log" 2>&1
	rc=$?
	end=$(date +%s)
	after=$(find "$crashes" -type f | wc -l)
	found=$((after - before))
	if [ $rc -ne 0 ] && [ $found -eq 0 ]; then
		found=1	# died without an artifact (e.g. a crash in the setup)
	fi
	execs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	nfiles=$(find "$corpus" -type f | wc -l)
	nbytes=$(find "$corpus" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
	if [ $smoke -eq 1 ]; then
		echo "$t: $((end - start)) s, ${execs:-?} exec/s, corpus $nfiles files, $found crashes"
		if [ $found -ne 0 ]; then
			grep -m 20 -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log"
			cp -r "$crashes" "$work/crashes/$t-smoke" 2>/dev/null
		fi
		rm -rf "$tmp"
		trap - EXIT
	else
		printf '%-20s %8d %10s %8d %10d %8d\n' "$t" $((end - start)) "${execs:-?}" "$nfiles" \
			"$nbytes" "$found"
		if [ $found -ne 0 ]; then
			grep -m 5 -E 'SUMMARY|runtime error|Test unit written' "$log" | sed 's/^/    /'
		fi
	fi
	[ $found -eq 0 ] || status=1
done
if [ $smoke -eq 1 ]; then
	[ $status -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
fi
exit $status
