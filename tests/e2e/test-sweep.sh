#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Mutation and truncation sweep (issue 22) over bundled traces: trace.dat v6,
# v7 and v7+zstd, a tracefs and a perf text trace, and a capture folder's
# sidecars.  Each file is cut, bit-flipped and overwritten with byte runs
# at points spread over the whole file (header, sections, options, every
# CPU's data, the end), then read by `info` (and every 4th by `replay`)
# with a timeout.  Asserted for every input: no crash, no sanitizer
# report, no hang; exit 0 or 3; on exit 3 the last line on stderr is one
# error naming the file and a byte offset or line; an output file that
# existed keeps its bytes, and no temporary file is left.
#
# SR_SWEEP_POINTS=N mutation points per file and kind (default 8: about
# 170 inputs, the short form in make check); SR_SWEEP_POINTS=200 is the
# long form.
. "$(dirname "$0")/lib.sh"
points=${SR_SWEEP_POINTS:-8}
# a leak inside libtraceevent that tests/lsan.supp names prints no block
# after the error line (the ASan build)
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0"
crashes=0 hangs=0 replaced=0 unnamed=0 inputs=0 refused=0 read=0

# mutate SRC DIR: the mutated copies of SRC in DIR, one file each
mutate() {
	python3 - "$1" "$2" "$points" <<'EOF'
import os, random, sys
src, out, points = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(src, 'rb').read()
n = len(data)
rnd = random.Random(22)
base = os.path.basename(src)
def put(tag, b):
    open(os.path.join(out, '%s.%s' % (tag, base)), 'wb').write(b)
for i in range(points):
    # evenly spread, jittered: every region of the file gets points
    at = min(n - 1, int(n * (i + rnd.random()) / points))
    put('cut%07d' % at, data[:at])
    b = bytearray(data); b[at] ^= 1 << rnd.randrange(8)
    put('flip%07d' % at, bytes(b))
    run = bytes([rnd.choice((0, 0xff, rnd.randrange(256)))]) * rnd.choice((4, 16, 64))
    put('run%07d' % at, data[:at] + run[:n - at] + data[at + len(run):])
EOF
}

# one CMD FILE: one read of a mutated input
one() {
	local cmd=$1 f=$2 d=$T/w rc last
	rm -rf "$d" && mkdir -p "$d"
	printf 'old bytes\n' >"$d/out.txt"
	timeout -k 5 30 "$SR_BIN" "$cmd" -q --threads 1 -o "$d/out.txt" "$f" >"$d/stdout" 2>"$d/stderr" </dev/null
	rc=$?
	inputs=$((inputs + 1))
	if grep -q -E 'Sanitizer|runtime error' "$d/stderr" || { [ $rc -ge 125 ] && [ $rc -ne 124 ]; }; then
		crashes=$((crashes + 1))
		fail "$cmd $(basename "$f"): crash, exit $rc: $(grep -m 2 -E 'ERROR|SUMMARY|runtime' "$d/stderr")"
		cp "$f" "$T/" 2>/dev/null
		return
	fi
	if [ $rc -eq 124 ]; then
		hangs=$((hangs + 1))
		fail "$cmd $(basename "$f"): no answer in 30 s"
		return
	fi
	if [ $rc -ne 0 ] && [ "$(cat "$d/out.txt")" != "old bytes" ]; then
		replaced=$((replaced + 1))
		fail "$cmd $(basename "$f"): exit $rc, but the output file was replaced"
	fi
	if [ "$(ls "$d" | grep -c -v -E '^(out\.txt|stdout|stderr)$')" != 0 ]; then
		replaced=$((replaced + 1))
		fail "$cmd $(basename "$f"): left behind: $(ls "$d" | tr '\n' ' ')"
	fi
	case $rc in
	0) read=$((read + 1)) ;;
	3)
		refused=$((refused + 1))
		last=$(tail -n 1 "$d/stderr")
		# the file and where: "at byte N", "line N", "bytes N-M"
		if ! printf '%s' "$last" | grep -q -F "$(basename "$f")" ||
		   ! printf '%s' "$last" | grep -q -E '(byte|line) [0-9]+|bytes [0-9]+-[0-9]+|:[0-9]+:'; then
			unnamed=$((unnamed + 1))
			[ $unnamed -le 10 ] && fail "$cmd $(basename "$f"): the error names no file and place: $last"
		fi ;;
	*)
		fail "$cmd $(basename "$f"): exit $rc, wanted 0 or 3: $(tail -n 1 "$d/stderr")" ;;
	esac
}

mkdir -p "$T/m"
srcs=("$FIX/dat/numa02-head-v6.dat" "$FIX/dat/numa02-head-v7.dat" "$FIX/dat/numa02-head-v7-zstd.dat"
      "$FIX/text/tracefs-host.txt" "$FIX/text/perf-host.txt")
for s in "${srcs[@]}"; do
	mutate "$s" "$T/m"
done
i=0
for f in "$T"/m/*; do
	one info "$f"
	i=$((i + 1))
	[ $((i % 4)) -eq 0 ] && one replay "$f"
done
# a capture folder whose sidecars are damaged: the trace itself is intact
cap=$FIX/numa02-2n
if [ -d "$cap" ]; then
	for side in "$cap"/topology.txt "$cap"/numactl-H.txt "$cap"/uname.txt "$cap"/numa_balancing_knobs.txt; do
		[ -f "$side" ] || continue
		for cut in 0 7 $(( $(stat -c %s "$side") / 2 )); do
			# the folder's files linked, the damaged sidecar a copy
			rm -rf "$T/cap" && mkdir "$T/cap" && ln -s "$cap"/* "$T/cap/"
			rm "$T/cap/$(basename "$side")"
			head -c "$cut" "$side" >"$T/cap/$(basename "$side")"
			one info "$T/cap"
		done
	done
fi
echo "# $inputs inputs: $read read (around damage or whole), $refused refused (exit 3);" \
	"$crashes crashes, $hangs hangs, $replaced outputs replaced or left, $unnamed errors without file and place"
if [ $crashes -eq 0 ] && [ $hangs -eq 0 ] && [ $replaced -eq 0 ] && [ $unnamed -eq 0 ]; then
	ok "sweep: $inputs mutated inputs, 0 crashes, 0 hangs, 0 outputs replaced, every error names its file and place"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
