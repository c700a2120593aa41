#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-includes.sh - the folder-to-folder include graph of src/, replay/
# and tui/ against the table of allowed edges below (docs/architecture.md
# shows the same table).  Fails on an include edge the table does not
# allow, on a cycle, on a CMake library whose target_link_libraries
# misses a folder it includes or names one the table does not allow, and on
# marker-line text read outside src/ingest.
#
#   tests/check-includes.sh [--graph]    (run from anywhere; ctest runs it)
#   tests/check-includes.sh --self-test  (a copy of the tree with a bad
#                                         edge, a cycle, a missing link or
#                                         a drifted page must each fail)
#
# An include is resolved as the compiler does: "x.h" beside the including
# file first, then in src/, replay/include/ and the top folder (the include
# path every library gets); <x.h> only in those three.  Includes that
# resolve to nothing in the tree (system headers) are not edges.
set -u
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
top=${SR_INCLUDES_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 2


# folder: the folders it may include (besides itself).  Keep in step with
# docs/architecture.md ("Which folder may include which").
allowed_table='
src/util:
replay/include/schedreplay:
src/stats: src/util
src/ingest: src/util
src/record: src/ingest src/util
src/topo: src/ingest src/util
src/model: src/ingest src/topo src/util
src/decision: src/model src/topo src/ingest src/util replay/include/schedreplay
replay: replay/include/schedreplay src/util
replay/engine: src/decision replay replay/include/schedreplay src/util
src/cost: src/decision src/model src/topo src/ingest src/util replay/include/schedreplay
src/session: src/ingest src/topo src/model src/decision replay/engine replay replay/include/schedreplay src/cost src/util
src/report: src/session src/cost replay/engine replay src/decision src/model src/topo src/ingest src/util replay/include/schedreplay
src/compare: src/stats src/util
tui: src/session src/report src/decision src/cost replay/engine replay src/util replay/include/schedreplay
src/cli: src/session src/report src/record src/compare src/stats src/cost replay/engine replay src/decision src/model src/topo src/ingest src/util replay/include/schedreplay tui
'
# src/cli is the program and tui is its browser: nothing may include either
# (the table gives no folder an edge to them but src/cli -> tui).
allowed_table=${SR_INCLUDES_TABLE:-$allowed_table}
fail=0

if [ "${1:-}" = --self-test ]; then
	tmp=$(mktemp -d) || exit 2
	trap 'rm -rf "$tmp"' EXIT
	copy() {
		rm -rf "$tmp/t" && mkdir -p "$tmp/t/docs" &&
			cp -r src replay tui CMakeLists.txt "$tmp/t/" &&
			cp docs/architecture.md "$tmp/t/docs/"
	}
	expect() {	# $1 what, $2 message the check must print
		if SR_INCLUDES_TOP="$tmp/t" bash "$self" >"$tmp/out" 2>&1; then
			echo "check-includes --self-test: $1 passed" >&2
			exit 1
		fi
		grep -q "$2" "$tmp/out" || {
			echo "check-includes --self-test: $1 failed without '$2':" >&2
			cat "$tmp/out" >&2
			exit 1
		}
	}
	copy && SR_INCLUDES_TOP="$tmp/t" bash "$self" >/dev/null || {
		echo "check-includes --self-test: the copy of the tree does not pass" >&2
		exit 1
	}
	copy && echo '#include "cli/cli.h"' >>"$tmp/t/src/util/err.c"
	expect "util including cli" "src/util may not include src/cli"
	copy && echo '#include "../model/model.h"' >>"$tmp/t/src/ingest/event.c"
	expect "ingest including model" "src/ingest may not include src/model"
	# a table that allows both directions: the cycle itself is found
	copy && echo '#include "../model/model.h"' >>"$tmp/t/src/ingest/event.c"
	SR_INCLUDES_TABLE=$(printf '%s\n' "$allowed_table" |
		sed 's|^src/ingest: src/util$|src/ingest: src/util src/model|') \
		expect "a cycle the table allows" "cycle through"
	copy && sed -i 's/sr_module(sr_engine replay\/engine sr_replay sr_decision sr_util)/sr_module(sr_engine replay\/engine sr_replay sr_util)/' \
		"$tmp/t/CMakeLists.txt"
	expect "the engine not linking decision" "sr_engine does not link sr_decision"
	copy && echo 'static int x(void) { return marker_classify("a", 1); }' >>"$tmp/t/src/model/model.c"
	expect "marker text read in the model" "marker text read outside src/ingest"
	copy && sed -i 's|^src/stats: src/util$|src/stats: src/util src/ingest|' \
		"$tmp/t/docs/architecture.md"
	expect "the page's table drifting" "differs from the one in this script"
	echo "check-includes --self-test: a bad edge, a cycle, a missing link, marker text read above ingest and a drifted page each fail"
	exit 0
fi

# docs/architecture.md shows the table: the two must not drift apart
doc=docs/architecture.md
if [ -f "$doc" ] && [ -z "${SR_INCLUDES_TABLE:-}" ]; then
	shown=$(awk '/^<!-- include-table/ { on = 1; next }
		     on && /^```$/ { if (++fences == 2) exit; next }
		     on { print }' "$doc")
	want=$(printf '%s\n' "$allowed_table" | sed '/^$/d')
	if [ "$shown" != "$want" ]; then
		echo "check-includes: the table in $doc differs from the one in this script:" >&2
		diff <(echo "$want") <(echo "$shown") >&2
		fail=1
	fi
fi

declare -A allowed known
while read -r folder deps; do
	[ -n "$folder" ] || continue
	folder=${folder%:}
	known[$folder]=1
	for d in $deps; do
		allowed["$folder $d"]=1
	done
done <<<"$allowed_table"

# $1 with "." and ".." folded away (no process per call: the tree has
# hundreds of includes)
normalize() {
	local IFS=/ part out=()
	for part in $1; do
		case $part in
		''|.) ;;
		..) [ ${#out[@]} -gt 0 ] && unset 'out[${#out[@]}-1]' ;;
		*) out+=("$part") ;;
		esac
	done
	norm="${out[*]}"
}

resolve() {	# $1 including file, $2 included name, $3 quote|angle; sets $target
	local dir
	target=
	if [ "$3" = quote ]; then
		normalize "${1%/*}/$2"
		[ -f "$norm" ] && { target=$norm; return; }
	fi
	for dir in src replay/include .; do
		normalize "$dir/$2"
		[ -f "$norm" ] && { target=$norm; return; }
	done
}

declare -A edges
while IFS= read -r -d '' f; do
	from=${f%/*}
	while IFS= read -r line; do
		if [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]]; then
			kind=quote
		elif [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\<([^\>]+)\> ]]; then
			kind=angle
		else
			continue
		fi
		resolve "$f" "${BASH_REMATCH[1]}" "$kind"
		[ -n "$target" ] || continue
		to=${target%/*}
		[ "$from" = "$to" ] && continue
		edges["$from $to"]+="$f "
	done < <(grep -E '^[[:space:]]*#[[:space:]]*include' "$f")
done < <(find src replay tui -name '*.[ch]' -print0 | sort -z)

for e in "${!edges[@]}"; do
	read -r from to <<<"$e"
	if [ -z "${known[$from]:-}" ]; then
		echo "check-includes: folder $from is not in the table (tests/check-includes.sh)" >&2
		fail=1
	elif [ -z "${allowed[$e]:-}" ]; then
		echo "check-includes: $from may not include $to:${edges[$e]% }" >&2
		fail=1
	fi
done

if [ "${1:-}" = --graph ]; then
	for e in "${!edges[@]}"; do echo "$e"; done | sort
fi

# cycles: depth-first search over the edges found and over the table itself
declare -A state
cycle_from() {	# $1 node, $2 "edges" or "allowed"
	local n=$1 e m
	state[$n]=open
	local -n set=$2
	for e in "${!set[@]}"; do
		[ "${e%% *}" = "$n" ] || continue
		m=${e#* }
		if [ "${state[$m]:-}" = open ]; then
			echo "check-includes: cycle through $n -> $m ($2)" >&2
			fail=1
		elif [ -z "${state[$m]:-}" ]; then
			cycle_from "$m" "$2"
		fi
	done
	state[$n]=done
}
for set in edges allowed; do
	state=()
	declare -n s=$set
	for e in "${!s[@]}"; do
		n=${e%% *}
		[ -n "${state[$n]:-}" ] || cycle_from "$n" "$set"
	done
	unset -n s
done

# CMake: each library links the libraries of the folders it includes, and
# no library the table does not allow.
declare -A target_of folder_of links
while read -r name dir deps; do
	target_of[$dir]=$name
	folder_of[$name]=$dir
	links[$name]=" $deps "
done < <(tr '\n' ' ' < CMakeLists.txt | grep -oE 'sr_module\([^)]*\)' |
	 sed -E 's/^sr_module\(//; s/\)$//; s/[[:space:]]+/ /g')
target_of[src/cli]=schedreplay
folder_of[schedreplay]=src/cli
links[schedreplay]=" $(tr '\n' ' ' < CMakeLists.txt |
	grep -oE 'target_link_libraries\(schedreplay PRIVATE [^)]*\)' |
	sed -E 's/[[:space:]]+/ /g; s/^[^ ]+ [^ ]+ //; s/\)$//' | tr '\n' ' ') "
for e in "${!edges[@]}"; do
	read -r from to <<<"$e"
	t=${target_of[$from]:-}
	u=${target_of[$to]:-}
	[ -n "$t" ] && [ -n "$u" ] || continue	# header-only folders have no library
	case "${links[$t]}" in
	*" $u "*) ;;
	*) echo "check-includes: $from includes $to but $t does not link $u (CMakeLists.txt)" >&2
	   fail=1 ;;
	esac
done
for t in "${!links[@]}"; do
	from=${folder_of[$t]}
	for u in ${links[$t]}; do
		to=${folder_of[$u]:-}
		[ -n "$to" ] || continue	# a system library
		if [ -z "${allowed["$from $to"]:-}" ]; then
			echo "check-includes: $t links $u but the table does not let $from include $to" >&2
			fail=1
		fi
	done
done

# marker lines: only src/ingest decodes their text (everything above takes
# marker_decode_*()'s typed fields); src/record writes them from the table
while IFS= read -r hit; do
	echo "check-includes: marker text read outside src/ingest: $hit" >&2
	fail=1
done < <(grep -rnE '\bmarker_(get|get_i64|parse_sample|parse_cpulist|classify)\(' src replay tui |
	 grep -v '^src/ingest/')

if [ $fail = 0 ]; then
	echo "check-includes: ${#edges[@]} folder edges, all allowed, no cycle; the libraries link as the table says"
fi
exit $fail
