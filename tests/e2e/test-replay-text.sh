#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The replay text summary (docs/replay.md, "Text summary"): on every capture
# fixture, its answer lines hold the figures of the JSON report of the same
# replay (tests/e2e/text-headline.py reads both), lines fit 100 columns,
# sections without anything to say are left out and -v prints them.
. "$(dirname "$0")/lib.sh"
HEADLINE="/usr/bin/python3 $SR_SOURCE_DIR/tests/e2e/text-headline.py"

n=0
while IFS= read -r f; do
	case $f in
	*/trace.dat) t=$(dirname "$f") ;;
	*) t=$f ;;
	esac
	name=${t#"$SR_SOURCE_DIR"/}
	if ! "$SR_BIN" replay --quiet --json "$T/r.json" "$t" >"$T/text" 2>"$T/err" ||
	   ! "$SR_BIN" replay --quiet -v "$t" >"$T/verbose" 2>>"$T/err"; then
		fail "$name: replay failed: $(head -c 400 "$T/err")"
		continue
	fi
	# the text beside --json is the one printed alone
	"$SR_BIN" replay --quiet "$t" >"$T/alone" 2>/dev/null
	check "$name: the text beside --json is the text alone" cmp -s "$T/text" "$T/alone"
	while IFS= read -r line; do
		case $line in
		ok*) ok "$name: ${line#ok - }" ;;
		*) fail "$name: ${line#not ok - }" ;;
		esac
	done < <($HEADLINE "$T/r.json" "$T/text" "$T/verbose")
	n=$((n + 1))
done < <(fixture_traces; extra_traces)
check "every capture fixture read ($n)" test "$n" -ge 6

# docs/replay.md's example, run as written from the source folder, is what it prints
(cd "$SR_SOURCE_DIR" && "$SR_BIN" replay fixtures/numa01-4n) >"$T/doc" 2>/dev/null
while IFS= read -r line; do
	case $line in
	ok*) ok "${line#ok - }" ;;
	*) fail "${line#not ok - }" ;;
	esac
done < <(/usr/bin/python3 "$SR_SOURCE_DIR/tests/e2e/doc-example.py" "$SR_SOURCE_DIR/docs/replay.md" \
	"schedreplay replay fixtures/numa01-4n" "$T/doc")

# --verbose is -v
"$SR_BIN" replay --quiet --verbose "$FIX/numa02-2n" >"$T/long" 2>/dev/null
"$SR_BIN" replay --quiet -v "$FIX/numa02-2n" >"$T/short" 2>/dev/null
check "--verbose = -v" cmp -s "$T/long" "$T/short"
finish
