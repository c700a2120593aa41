#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The command line of every command (src/cli/cli-opt.c): GNU option syntax,
# '-' for standard input and output, -o FILE, usage errors in one line,
# --format that does not match the file, --kernel-policy none; every option
# of every --help in the man page and docs/cli.md; the bash completion.
. "$(dirname "$0")/lib.sh"

TR=$FIX/numa02-2n
TXT=$FIX/text/tracefs-host.txt
MAN=$SR_SOURCE_DIR/docs/schedreplay.1
CLIMD=$SR_SOURCE_DIR/docs/cli.md

# --- --opt=value and --opt value, short options, "--" -------------------------
expect_exit 0 "replay --json - (separate value)" "$SR_BIN" replay -q --json - "$TR"
cp "$T/out" "$T/sep.json"
expect_exit 0 "replay --json=- --old=lb-v4.1 (attached values)" \
	"$SR_BIN" replay -q --json=- --old=lb-v4.1,numa-v4.18,exec-least-loaded,wakeup-v5.19,fork-v5.10 "$TR"
check "--json=- and --json - write the same report" cmp -s "$T/out" "$T/sep.json"
expect_exit 0 "replay -j1 -- TRACE" "$SR_BIN" replay -q -j1 -- "$TR"
cp "$T/out" "$T/j1.txt"
expect_exit 0 "replay -j 1 TRACE" "$SR_BIN" replay -q -j 1 "$TR"
check "-j1 and -j 1 give the same text" cmp -s "$T/out" "$T/j1.txt"
expect_exit 0 "options after the TRACE" "$SR_BIN" replay "$TR" -q --top=3
check "--top=3 after the TRACE is read" test "$(grep -c '^  *[0-9][0-9]* of *[0-9]* .*\[' "$T/out")" = 3 -a "$(grep -c '^  seq [0-9]* at ' "$T/out")" = 3
expect_exit 1 "a long option shortened to an unambiguous prefix (--fail-on: exit 1 on disagreements)" "$SR_BIN" replay -q --fail-on --kernel-pol=none "$TR"
usage_prefix_err=$("$SR_BIN" replay --n "$TR" 2>&1 >/dev/null)
check "an ambiguous prefix is a usage error" test "$("$SR_BIN" replay --n "$TR" >/dev/null 2>&1; echo $?)" = 2
check "... in one line and the hint" test "$(printf '%s\n' "$usage_prefix_err" | wc -l)" = 2
check "... naming the options it could be" grep -qF "schedreplay replay: option '--n' is ambiguous (--new, --ndjson, --ndjson-format)" <<<"$usage_prefix_err"
# after "--" an argument that looks like an option is a file name
expect_exit 3 "replay -- --not-an-option: a file that does not exist" \
	"$SR_BIN" replay -- --not-an-option
check "... named as a file" grep -q "'--not-an-option'" "$T/err"

# --- "-" is standard input ------------------------------------------------------
"$SR_BIN" info -q "$TXT" >"$T/info-file.txt" 2>/dev/null
"$SR_BIN" info -q - <"$TXT" >"$T/info-stdin.txt" 2>"$T/err"
check "info - reads a text trace on stdin" test -s "$T/info-stdin.txt"
check "info - and info FILE agree but for the names" \
	diff <(grep -v -e '^trace:' -e '^nodes:' "$T/info-file.txt") \
	     <(grep -v -e '^trace:' -e '^nodes:' "$T/info-stdin.txt")
"$SR_BIN" replay -q - <"$TXT" >"$T/replay-stdin.txt" 2>"$T/err"
check "replay - reads a text trace on stdin" grep -qE '^trace: *-( |$)' "$T/replay-stdin.txt"
printf '1\n2\n3\n4\n' >"$T/a"
printf '5\n6\n7\n8\n' >"$T/b"
"$SR_BIN" compare - --vs "$T/b" <"$T/a" >"$T/cmp-stdin.txt" 2>"$T/err"
check "compare - reads its base on stdin" grep -q 'better' "$T/cmp-stdin.txt"
expect_exit 2 "compare - - (stdin twice)" "$SR_BIN" compare - --vs -

"$SR_BIN" replay -q --json "$T/rep.json" -o /dev/null "$TR"
"$SR_BIN" compare "$T/rep.json" --vs "$T/rep.json" --json - >"$T/cmp-file.json" 2>/dev/null
"$SR_BIN" compare - --vs "$T/rep.json" --json - <"$T/rep.json" >"$T/cmp-stdin.json" 2>"$T/err"
check "compare - reads a replay JSON report on stdin" \
	test "$(jq -c '[.metrics[].name]' "$T/cmp-stdin.json")" = "$(jq -c '[.metrics[].name]' "$T/cmp-file.json")"
if "$SR_BIN" tui --help >/dev/null 2>&1; then
	"$SR_BIN" tui --headless --frames 1 --dump - --report "$T/rep.json" >"$T/tui-file.txt" 2>&1
	"$SR_BIN" tui --headless --frames 1 --dump - --report - <"$T/rep.json" >"$T/tui-stdin.txt" 2>&1
	check "tui --report - reads the report on stdin" cmp -s "$T/tui-file.txt" "$T/tui-stdin.txt"
	echo q | "$SR_BIN" tui --headless --keys-file - --dump - --report "$T/rep.json" >"$T/out" 2>"$T/err"
	check "tui --keys-file - reads the keys on stdin" test -s "$T/out"
fi

# --- -o FILE writes what stdout would have ---------------------------------------
for c in "info $TR" "replay $TR" "policies" "compare $T/a --vs $T/b"; do
	name=${c%% *}
	# shellcheck disable=SC2086
	"$SR_BIN" $c -q >"$T/stdout.txt" 2>/dev/null || "$SR_BIN" $c >"$T/stdout.txt" 2>/dev/null
	rm -f "$T/o.txt"
	# shellcheck disable=SC2086
	if [ "$name" = policies ] || [ "$name" = compare ]; then
		"$SR_BIN" $c -o "$T/o.txt" >"$T/out" 2>"$T/err"
		"$SR_BIN" $c --output="$T/o2.txt" >/dev/null 2>&1
	else
		"$SR_BIN" $c -q -o "$T/o.txt" >"$T/out" 2>"$T/err"
		"$SR_BIN" $c -q --output="$T/o2.txt" >/dev/null 2>&1
	fi
	check "$name -o FILE: FILE holds the text" cmp -s "$T/o.txt" "$T/stdout.txt"
	check "$name -o FILE: nothing on stdout" test ! -s "$T/out"
	check "$name --output=FILE: the same" cmp -s "$T/o2.txt" "$T/stdout.txt"
done
expect_exit 0 "policies -o -" "$SR_BIN" policies -o -
check "policies -o - is stdout" grep -q '^lb-v4.1' "$T/out"
expect_exit 0 "replay --json FILE -o -: the text on stdout" "$SR_BIN" replay -q --json "$T/r.json" -o - "$TR"
check "... and the report in FILE" jq -e .summary "$T/r.json" >/dev/null
expect_exit 2 "replay --json - -o -: both on stdout" "$SR_BIN" replay --json - -o - "$TR"
expect_exit 4 "info -o FOLDER" "$SR_BIN" info -q -o "$T" "$TR"

# --- usage errors: one line "schedreplay CMD: ..." and the --help hint, exit 2 ---
usage_error() {	# DESC PATTERN CMD...
	local desc=$1 pat=$2
	shift 2
	expect_exit 2 "$desc" "$@"
	check "$desc: one message line and the hint" test "$(wc -l <"$T/err")" = 2
	check "$desc: says '$pat'" grep -qF "schedreplay $2: $pat" "$T/err"
	check "$desc: the --help hint" grep -qx "run 'schedreplay $2 --help' for usage" "$T/err"
}
for cmd in info replay policies compare record tui; do
	usage_error "$cmd --bogus" "unknown option '--bogus'" "$SR_BIN" "$cmd" --bogus
	usage_error "$cmd -Z" "unknown option '-Z'" "$SR_BIN" "$cmd" -Z
done
usage_error "replay --json (no value)" "option '--json' needs a value" "$SR_BIN" replay "$TR" --json
usage_error "info -o (no value)" "option '-o' needs a value" "$SR_BIN" info "$TR" -o
usage_error "replay --strict=yes" "option '--strict' takes no value" "$SR_BIN" replay --strict=yes "$TR"
usage_error "replay -j0" "--jobs takes 1..1024, not '0'" "$SR_BIN" replay -j0 "$TR"
usage_error "record -d (no value)" "option '-d' needs a value" "$SR_BIN" record -d
usage_error "record -- (no COMMAND)" "'--' needs a COMMAND" "$SR_BIN" record --
# (-o FOLDER is refused right after the arguments are read, before any recording)
expect_exit 2 "record -o FOLDER sleep 1 -x: COMMAND without '--'" "$SR_BIN" record -o "$T" sleep 1 -x
check "... read as COMMAND (its -x not record's)" grep -q "is a folder; -o names a file" "$T/err"
expect_exit 2 "record -o FOLDER -- -cmd" "$SR_BIN" record -o "$T" -- -cmd
check "... read as COMMAND" grep -q "is a folder; -o names a file" "$T/err"
expect_exit 0 "record --help" "$SR_BIN" record --help
check "record: a COMMAND without '--', as perf record takes it" grep -q '^usage: schedreplay record \[OPTIONS\] \[\[--\] COMMAND \[ARGS\]\]' "$T/out"
usage_error "info two TRACEs" "one TRACE at a time" "$SR_BIN" info "$TR" "$TR"
usage_error "replay no TRACE" "no TRACE given" "$SR_BIN" replay -q

# --- --format that does not match the file: one error line, exit 3 --------------
for f in perf trace report; do
	expect_exit 3 "--format $f on a trace.dat" "$SR_BIN" replay --format "$f" "$TR"
	check "--format $f on a trace.dat: one line" test "$(wc -l <"$T/err")" = 1
	check "--format $f on a trace.dat: says so" grep -q "at byte 0: a trace.dat file, not .* text" "$T/err"
	check "--format $f on a trace.dat: no report" test ! -s "$T/out"
done
expect_exit 3 "--format perf on tracefs text" "$SR_BIN" info --format perf "$TXT"
check "... one line naming what it is" grep -q "at byte 0: tracefs text, not perf-script (drop --format, or give --format trace)" "$T/err"
expect_exit 3 "--format trace on perf script text" "$SR_BIN" info --format=trace "$FIX/text/perf-host.txt"
check "... one line" test "$(wc -l <"$T/err")" = 1
expect_exit 0 "--format perf on perf script text" "$SR_BIN" info -q --format perf "$FIX/text/perf-host.txt"

# --- --kernel-policy none: fidelity was turned off, the release is known ---------
expect_exit 0 "replay --kernel-policy none" "$SR_BIN" replay -q --kernel-policy none "$TR"
check "the text says fidelity was turned off" grep -q 'turned off (--kernel-policy none)' "$T/out"
check "... and not that the release is unknown" bash -c "! grep -q 'release is unknown' '$T/out'"
check "... the release is still printed" grep -q '6.1.0-57-amd64' "$T/out"

# --- every option of every --help is in the man page and in docs/cli.md ----------
"$SR_BIN" --help >"$T/help"
cmds=$(awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { f = 0 }' "$T/help")
check "--help lists seven commands" test "$(echo "$cmds" | wc -w)" = 7
for cmd in $cmds; do
	check "man page SYNOPSIS has '$cmd'" \
		awk -v c="$cmd" '/^\.SH SYNOPSIS/ { f = 1; next } /^\.SH/ { f = 0 } f && $0 == ".B schedreplay " c { ok = 1 } END { exit !ok }' "$MAN"
	check "docs/cli.md has '$cmd'" grep -q "^| \`$cmd" "$CLIMD"
	"$SR_BIN" "$cmd" --help >"$T/h-$cmd" || fail "$cmd --help"
	for o in $(grep -oE -- '^  (-[a-zA-Z], )?--[a-z][a-z-]*' "$T/h-$cmd" | grep -oE -- '--[a-z][a-z-]*|-[a-zA-Z]' | sort -u); do
		# "--kernel-policy" as roff writes it: "\-\-kernel-policy" or "\-\-kernel\-policy"
		man=$(printf '%s' "$o" | sed 's/-/\\\\?-/g')
		grep -qE -- "${man}([^a-z\\-]|\\\\[^-]|$)" "$MAN" || fail "man page lacks $cmd $o"
		# docs/cli.md: the command's row of its option table
		grep -E "^\| \`$cmd\` \|" "$CLIMD" | grep -q -- "\`$o\`" || fail "docs/cli.md lacks $cmd $o"
	done
done
ok "every --help option checked against the man page and docs/cli.md"

# --- make install puts the completion where bash-completion looks ------------------
BUILD=$(dirname "$SR_BIN")
if command -v cmake >/dev/null && [ -f "$BUILD/cmake_install.cmake" ]; then
	expect_exit 0 "cmake --install" cmake --install "$BUILD" --prefix "$T/inst"
	check "installed: share/bash-completion/completions/schedreplay" \
		cmp -s "$T/inst/share/bash-completion/completions/schedreplay" "$SR_SOURCE_DIR/completion/schedreplay.bash"
	check "installed: the man page" test -f "$T/inst/share/man/man1/schedreplay.1"
else
	echo "# SKIP: no cmake or no cmake_install.cmake beside $SR_BIN; install rule not checked"
fi

# --- bash completion --------------------------------------------------------------
COMP=$SR_SOURCE_DIR/completion/schedreplay.bash
comp() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _schedreplay
		printf "%s\n" "${COMPREPLY[@]}"' _ "$COMP" "$SR_BIN" "$@"
}
check "completion: commands" test "$(comp "" | grep -c -x -e info -e replay -e policies -e compare -e record -e tui -e latency)" = 7
check "completion: latency --se" test "$(comp latency --se)" = --seconds
check "completion: 're' gives record and replay" test "$(comp re | sort | tr '\n' ' ')" = "record replay "
check "completion: replay --ol" test "$(comp replay --ol)" = --old
check "completion: record --d is --duration" test "$(comp record --d)" = --duration
check "completion: info -o is a short option" bash -c "$(declare -f comp); SR_BIN='$SR_BIN' COMP='$COMP'; comp info - | grep -qx -- -o"
check "completion: --old takes policy names" bash -c "$(declare -f comp); SR_BIN='$SR_BIN' COMP='$COMP'; comp replay --old numa-v4.1 | grep -qx numa-v4.19"
check "completion: --new takes the last of a list" bash -c "$(declare -f comp); SR_BIN='$SR_BIN' COMP='$COMP'; comp replay --new lb-v4.1,exec-r | grep -qx lb-v4.1,exec-round-robin"
check "completion: --format=" bash -c "$(declare -f comp); SR_BIN='$SR_BIN' COMP='$COMP'; comp info --format = p | grep -qx perf"
check "completion: --kernel-policy none" bash -c "$(declare -f comp); SR_BIN='$SR_BIN' COMP='$COMP'; comp replay --kernel-policy no | grep -qx none"
mkdir "$T/files" && touch "$T/files/trace-a.dat"
check "completion: a TRACE is a file name" test "$(comp replay "$T/files/tr")" = "$T/files/trace-a.dat"
check "completion: -o FILE is a file name" test "$(comp replay -o "$T/files/tr")" = "$T/files/trace-a.dat"

finish
