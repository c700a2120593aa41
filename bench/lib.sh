# SPDX-License-Identifier: GPL-2.0-or-later
# bench/lib.sh - what bench/run.sh, memory.sh and threads.sh share, sourced
# by them: their options, one timed run, the median of the runs, and the
# thread times of a replay with the ceiling they allow (thread_ceiling).

# bench_args SPEC USAGE ARG...: -n RUNS, -b BUILD_DIR (under the source
# tree, or absolute) and, when SPEC (getopts' form) has them, -t THREADS
# and -j (replay --json too) into $runs, $build, $threads, $json (the
# caller sets the defaults first); the traces into the array $traces; the
# source tree's top folder into $top.  Exits 2 with the usage line on a bad
# option or no trace.
bench_args() {
	local spec=$1 usage=$2 opt
	shift 2
	OPTIND=1
	while getopts "$spec" opt; do
		case $opt in
		n) runs=$OPTARG ;;
		b) build=$OPTARG ;;
		t) threads=$OPTARG ;;
		j) json=1 ;;
		*) echo "usage: $usage" >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -gt 0 ] || { echo "usage: $usage" >&2; exit 2; }
	traces=("$@")
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	# an absolute build folder (another checkout's build, to compare),
	# made relative: the scripts name their binaries $top/$build/...
	case ${build:-} in
	/*) build=$(realpath -m --relative-to="$top" "$build") ;;
	esac
	command -v /usr/bin/time >/dev/null || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }
}

# time_once FILE CMD...: run CMD, its output thrown away; append its wall
# seconds and peak RSS (KiB) to FILE as one line "SECONDS KIB"
time_once() {
	local out=$1
	shift
	/usr/bin/time -f "%e %M" -o "$out.one" "$@" >/dev/null 2>/dev/null
	cat "$out.one" >>"$out"
	rm -f "$out.one"
}

# median FILE [COLUMN]: the median of a column (default 1: seconds) of
# time_once's lines
median() {
	local n
	n=$(wc -l <"$1")
	cut -d' ' -f"${2:-1}" "$1" | sort -n | sed -n "$(((n + 1) / 2))p"
}

# thread_ceiling THREAD_TIMES SCHEDREPLAY TRACE N RUNS: where a replay's
# time goes, thread by thread (bench/thread-times.c; medians of RUNS runs
# of one thread and then of N, in one spell), and the ceiling that allows
# on the speed-up: a replay takes at least its main thread's run time (the
# merge and the model, which set the pace) and at least the CPU time of
# all its threads shared over the cores.  Two lines, indented.
thread_ceiling() {
	local tt=$1 sr=$2 f=$3 n=$4 runs=$5 one
	# "median: wall W cpu C  NAME run R wait W ..."
	one=$("$tt" -n "$runs" "$sr" replay --quiet --threads 1 "$f" | grep '^median:')
	"$tt" -n "$runs" "$sr" replay --quiet --threads "$n" "$f" | grep '^median:' |
		awk -v one="$one" -v n="$n" -v cores="$(nproc)" -v runs="$runs" '{
			split(one, o, " ")
			t1 = o[3]
			main = 0
			line = ""
			for (i = 6; i + 4 <= NF; i += 5) {
				line = line sprintf("; %s ran %.3f s, waited %.3f s", $i, $(i + 2), $(i + 4))
				if ($i !~ /^sr-/)
					main = $(i + 2)
			}
			printf "  by thread (medians of %d): 1 thread %.3f s (CPU %.3f s); %s threads %.3f s%s\n",
				runs, t1, o[5], n, $3, line
			c = n < cores ? n : cores
			share = $5 / c
			bound = main > share ? main : share
			printf "  CPU %.3f s, %.2fx one thread'"'"'s; speed-up %.2fx, ceiling %.3f s / max(main %.3f s, CPU/%d %.3f s) = %.2fx\n",
				$5, $5 / o[5], t1 / $3, t1, main, c, share, (bound > 0 ? t1 / bound : 0) }'
}
