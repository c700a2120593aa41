#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The instructions a replay executes, per thread and in chosen functions,
# counted by callgrind (valgrind --tool=callgrind --separate-threads=yes).
# Wall time on a shared VM moves by 10-40% from hour to hour; instruction
# counts do not, so a change's before and after are compared with these
# (docs/performance.md).  Two builds side by side: -b twice.
#
# usage: bench/instructions.sh [-b BUILD_DIR]... [-f FUNCTION]... TRACE [replay options...]
#   -b   a build folder, under the source tree or absolute (default build);
#        given twice, both builds are counted, one after the other
#   -f   a function whose inclusive count to print (repeatable; default: the
#        session's stages: decision_feed, model_feed, engine_evaluate,
#        cost_ledger_decide_parts, ndjson_decision, report_decision_write)
# Prints, per build: each thread's total, named by what it runs (main: the
# reading thread; worker: the trace reader's; judge: session-pipe.c's;
# child: the reader's format probes, dat.c), and the functions' inclusive
# counts with their calls, summed over the threads.  The main thread and
# the worker share the decoding as their timing falls (dat-threads.c), so
# their split moves from run to run; the totals and the judge's do not.
#
# callgrind counts a `rep movsb` a byte at a time: glibc's memcpy() of a
# few KiB or more (a stream's buffer filled by fwrite()) shows far above its
# cost in time.  A run takes about 50x the replay's time (2 min for a
# 6 M-event trace).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
builds=()
funcs=()
usage="usage: $0 [-b BUILD_DIR]... [-f FUNCTION]... TRACE [replay options...]"
while getopts "b:f:" opt; do
	case $opt in
	b) builds+=("$OPTARG") ;;
	f) funcs+=("$OPTARG") ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
trace=$1
shift
[ ${#builds[@]} -gt 0 ] || builds=(build)
[ ${#funcs[@]} -gt 0 ] || funcs=(decision_feed model_feed engine_evaluate cost_ledger_decide_parts
	ndjson_decision report_decision_write)
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null ||
	{ echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
[ -r "$trace" ] || { echo "cannot read '$trace'" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# annotate FILE: callgrind_annotate's inclusive call tree of one thread's
# file, made once into FILE.tree for count() and the total
annotate() {
	# run elsewhere than the source tree: from inside it, callgrind_annotate
	# lists a function twice, by its full and its relative file name
	(cd "$tmp" && callgrind_annotate --auto=no --inclusive=yes --tree=caller "$1") \
		>"$1.tree" 2>/dev/null
}

# count FILE FUNCTION: the inclusive count and calls of FUNCTION in one
# thread's annotated file, "COUNT CALLS" (0 0 when it did not run there)
count() {
	awk -v fn="$2" '
		# a caller line, "N (P%)  < file:caller (Kx) [obj]": K calls
		/^ *[0-9,]+ .*< / {
			k = $0
			if (sub(/x\) \[.*$/, "", k) && sub(/^.* \(/, "", k)) {
				gsub(",", "", k)
				pend += k
			}
			next
		}
		# the function itself, "N (P%)  *  file:fn [obj]"
		/^ *[0-9,]+ .*\* / {
			name = $0
			sub(/ \[.*$/, "", name)
			sub(/^.*:/, "", name)
			# code inlined from a header is listed apart, as
			# header:fn, and is counted in the whole function
			if (name == fn) {
				c = $1
				gsub(",", "", c)
				if (c + 0 > tot) {
					tot = c + 0
					calls = pend
				}
			}
			pend = 0
			next
		}
		/^ *$/ { pend = 0 }
		# %.0f: the counts pass 2^31, past which %d fails in mawk
		END { printf "%.0f %.0f\n", tot, calls }' "$1.tree"
}

# name FILE: what a thread runs, by the function it starts in; a thread of
# another process is a child's (the reader's format probes, dat.c)
name() {
	case ${1##*cg.} in
	"$parent"-*) ;;
	*) echo child; return ;;
	esac
	if [ "$(count "$1" judge_main | cut -d' ' -f1)" != 0 ]; then
		echo judge
	elif [ "$(count "$1" worker_main | cut -d' ' -f1)" != 0 ]; then
		echo worker
	else
		echo main
	fi
}

# mega N: N instructions in millions, "97.5 M"
mega() {
	awk -v n="$1" 'BEGIN { printf "%.1f M", n / 1e6 }'
}

for b in "${builds[@]}"; do
	case $b in
	/*) sr=$b/schedreplay ;;
	*) sr=$top/$b/schedreplay ;;
	esac
	[ -x "$sr" ] || { echo "no $sr: build first (make)" >&2; exit 2; }
	out=$tmp/$(echo "$b" | tr / _)
	mkdir -p "$out"
	valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out/cg.%p" \
		"$sr" replay --quiet "$@" "$trace" >/dev/null 2>"$out/log" ||
		{ echo "the replay under valgrind failed:" >&2; tail -5 "$out/log" >&2; exit 1; }
	parent=$(sed -n 's/^==\([0-9]*\)==.*/\1/p' "$out/log" | head -1)
	echo "== $b: schedreplay replay --quiet $* $trace"
	total=0
	files=("$out"/cg.*-[0-9]*)
	for f in "${files[@]}"; do
		annotate "$f"
	done
	for f in "${files[@]}"; do
		t=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' "$f.tree")
		total=$((total + ${t:-0}))
		printf '  %-10s %-7s %12s\n' "${f##*cg.}" "$(name "$f")" "$(mega "${t:-0}")"
	done
	printf '  %-18s %12s instructions\n' "all threads" "$(mega "$total")"
	for fn in "${funcs[@]}"; do
		c=0 n=0
		for f in "${files[@]}"; do
			read -r a k < <(count "$f" "$fn")
			c=$((c + a))
			n=$((n + k))
		done
		[ "$c" != 0 ] || continue
		printf '  %-26s %12s %10s calls %8s a call\n' "$fn" "$(mega "$c")" "$n" \
			"$([ "$n" -gt 0 ] && echo $((c / n)) || echo -)"
	done
done
