#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The outputs of one schedreplay binary for every trace it can find, written
# into a folder so that two builds can be compared with `diff -r`: `info`
# (text, --json), `replay` (text, --json, --ndjson, --ndjson-format flat),
# batch replays (--jobs 2), `tui --headless`, a trace on stdin, and a few
# errors; each case keeps its stdout, stderr and exit code.
#
#   tests/output-diff.sh write BIN OUTDIR        write the outputs of BIN
#   tests/output-diff.sh compare BIN OLDDIR      write into a temporary folder
#                                                and diff it against OLDDIR
#   tests/output-diff.sh both OLDBIN NEWBIN      write both, diff them
#   tests/output-diff.sh sums BIN FILE           the fixtures' outputs only, as
#                                                sha256 sums into FILE
#   tests/output-diff.sh check BIN FILE          the same, compared with FILE
#                                                (ctest output-diff: FILE is
#                                                tests/output-diff.sums)
#
# Run from the top of the checkout: traces are named by relative paths so
# that they read the same in every output.  The traces are fixtures/ and, in
# write, compare and both, the traces in each folder SR_EXTRA_TRACES names.  Batch rows of different traces interleave
# in any order (replay-batch.h), so the batch NDJSON is sorted before it is
# kept; so are the batch's warnings (each worker writes its own to stderr).
set -u
mode=${1:?usage: output-diff.sh write|compare|both|sums|check BIN DIR|BIN|FILE}
bin=${2:?}
arg=${3:?}
cd "$(dirname "$0")/.." || exit 4
# under the sanitizer build, LeakSanitizer would add its suppression list to stderr
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0"

traces=(fixtures/host-baseline-1n fixtures/numa01-4n fixtures/numa02-2n fixtures/numa01-shm-4n
	fixtures/mixed-2n fixtures/host-2cpu-mixed.dat fixtures/dat/*.dat
	fixtures/text/tracefs-host.txt fixtures/text/perf-host.txt
	fixtures/text/host-baseline-1n.report.txt fixtures/text/hostile-comms.txt)
if [ "$mode" != sums ] && [ "$mode" != check ]; then
	IFS=: read -r -a extra <<<"${SR_EXTRA_TRACES:-}"
	for d in "${extra[@]}"; do
		for t in "$d"/*; do
			[ -d "$t" ] || [ "${t%.dat}" != "$t" ] && traces+=("$t")
		done
	done
fi

# case NAME CMD...: run CMD with BIN, keeping stdout, stderr and exit code
run_case()
{
	local name=$1
	shift
	"$@" >"$out/$name.out" 2>"$out/$name.err"
	echo $? >"$out/$name.rc"
}

write_all()
{
	local b=$1 t n
	out=$2
	mkdir -p "$out" || exit 4
	for t in "${traces[@]}"; do
		n=$(echo "$t" | tr '/.' '__')
		run_case "$n.info" "$b" info "$t"
		run_case "$n.info-json" "$b" info --json "$t"
		run_case "$n.replay" "$b" replay "$t"
		run_case "$n.replay-json" "$b" replay --json - "$t"
		run_case "$n.replay-ndjson" "$b" replay --ndjson - "$t"
		run_case "$n.replay-flat" "$b" replay --ndjson - --ndjson-format flat \
			--recorded-at 0 --label k=v "$t"
		run_case "$n.replay-1thread" "$b" replay --threads 1 --json - "$t"
		run_case "$n.tui" "$b" tui --quiet "$t" --headless --keys "j j Enter Tab" --dump -
	done
	run_case batch-text "$b" replay --jobs 2 "${traces[@]}"
	run_case batch-flat "$b" replay --jobs 2 --quiet --ndjson - --ndjson-format flat \
		--recorded-at 0 "${traces[@]}"
	sort "$out/batch-flat.out" -o "$out/batch-flat.out"
	for e in batch-text batch-flat; do
		sort "$out/$e.err" -o "$out/$e.err"
	done
	run_case batch-fail "$b" replay --jobs 2 --quiet --fail-on-disagree fixtures/numa02-2n \
		fixtures/numa01-4n
	run_case stdin-info sh -c "'$b' info /dev/stdin <fixtures/text/tracefs-host.txt"
	run_case stdin-replay sh -c "'$b' replay --json - - <fixtures/text/tracefs-host.txt"
	run_case stdin-pipe sh -c "cat fixtures/text/tracefs-host.txt | '$b' info /dev/stdin"
	run_case fail-on-disagree "$b" replay --quiet --fail-on-disagree fixtures/numa02-2n
	run_case strict-text "$b" replay --strict fixtures/text/hostile-comms.txt
	run_case topo-override "$b" info --topology fixtures/host-baseline-1n/numactl-H.txt \
		fixtures/numa01-4n
	run_case err-missing "$b" replay fixtures/no-such-trace.dat
	run_case err-policy "$b" replay --old no-such-policy fixtures/numa02-2n
	run_case err-param "$b" replay --param no_such_param=1 fixtures/numa02-2n
	run_case err-dir "$b" info fixtures/text
	return 0
}

case $mode in
sums | check)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	write_all "$bin" "$tmp/out"
	(cd "$tmp/out" && sha256sum -- *) >"$tmp/sums"
	if [ "$mode" = sums ]; then
		cp "$tmp/sums" "$arg"
	elif diff -u "$arg" "$tmp/sums"; then
		echo "output-diff: every output as recorded in $arg"
	else
		echo "output-diff: outputs differ from $arg (tests/output-diff.sh write, then diff -r)"
		exit 1
	fi
	;;
write)
	write_all "$bin" "$arg"
	;;
compare)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	write_all "$bin" "$tmp"
	diff -r "$arg" "$tmp"
	;;
both)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	write_all "$bin" "$tmp/old"
	write_all "$arg" "$tmp/new"
	diff -r "$tmp/old" "$tmp/new"
	;;
*)
	echo "usage: output-diff.sh write|compare|both|sums|check BIN DIR|BIN|FILE" >&2
	exit 2
	;;
esac
