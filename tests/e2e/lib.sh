# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers of the end-to-end tests (sourced). Each test prints one
# "ok"/"not ok" line per check and ends with "N passed, N failed".
set -u
: "${SR_BIN:?SR_BIN must name the schedreplay binary}"
: "${SR_SOURCE_DIR:?}"
FIX=$SR_SOURCE_DIR/fixtures
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "ok - $*"; }
fail() { failed=$((failed + 1)); echo "not ok - $*"; }

# check DESC CMD...: the command must succeed
check() {
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else fail "$desc"; fi
}

# expect_exit CODE DESC CMD...: run CMD, stdout/stderr to $T/out, $T/err
expect_exit() {
	local code=$1 desc=$2 rc
	shift 2
	"$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	if [ "$rc" -eq "$code" ]; then
		ok "$desc (exit $rc)"
	else
		fail "$desc: exit $rc, wanted $code; stderr: $(head -c 600 "$T/err")"
	fi
}

# per-event counts from `trace-cmd report` text on stdin: "name count" lines, sorted
report_counts() {
	awk '{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { n = $(i + 1); sub(/:$/, "", n); c[n]++; break } }
	     END { for (n in c) print n, c[n] }' | sort
}

# per-event counts from `schedreplay info --json` on stdin
json_counts() {
	jq -r '.events | to_entries[] | "\(.key) \(.value)"' | sort
}

# fixture_traces: every real trace in fixtures/ (the capture folders' trace.dat
# and the bare .dat files beside them; not the crafted copies in fixtures/dat/),
# one path per line
fixture_traces() {
	local f
	for f in "$FIX"/*/trace.dat "$FIX"/*.dat; do
		[ -f "$f" ] && echo "$f"
	done
}

# extra_traces: the same for each folder named in SR_EXTRA_TRACES (a
# colon-separated list of folders laid out like fixtures/: capture folders
# and .dat files), for a test that can read more traces than the fixtures;
# says on stdout, as a "# SKIP" comment, when there are none or one is missing
extra_traces() {
	local d f IFS=:
	if [ -z "${SR_EXTRA_TRACES:-}" ]; then
		echo "# SKIP: no extra traces (SR_EXTRA_TRACES is unset); the fixtures only" >&2
		return 0
	fi
	for d in $SR_EXTRA_TRACES; do
		if [ ! -d "$d" ]; then
			echo "# SKIP: SR_EXTRA_TRACES names $d, which is not a folder" >&2
			continue
		fi
		for f in "$d"/*/trace.dat "$d"/*.dat; do
			[ -f "$f" ] && echo "$f"
		done
	done
	return 0
}

finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
