# SPDX-License-Identifier: GPL-2.0-or-later
# bench/lib.sh - what bench/run.sh, memory.sh and threads.sh share, sourced
# by them: their options, one timed run, the median of the runs.

# bench_args SPEC USAGE ARG...: -n RUNS, -b BUILD_DIR and, when SPEC (getopts'
# form) has them, -t THREADS and -j (replay --json too) into $runs, $build,
# $threads, $json (the caller sets the defaults first); the traces into the array $traces; the source tree's top
# folder into $top.  Exits 2 with the usage line on a bad option or no trace.
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
