#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/plugin-abi.md's "Build and use it" commands, run exactly as the page
# writes them (from a copy of the top of the checkout, schedreplay on PATH),
# and its example listing against docs/examples/policy-example.c.
. "$(dirname "$0")/lib.sh"
DOC=$SR_SOURCE_DIR/docs/plugin-abi.md

command -v cc >/dev/null || { echo "# SKIP: no cc"; exit 77; }
command -v jq >/dev/null || { echo "# SKIP: no jq"; exit 77; }

# the ```sh block after "Build and use it"
awk '/^Build and use it/ { f = 1 } f && /^```sh$/ { g = 1; next } g && /^```$/ { exit } g' \
	"$DOC" >"$T/cmds.sh"
check "the page has the build-and-use commands" test -s "$T/cmds.sh"
check "they load the plugin by its path as --new" grep -q -- '--new ./policy-example.so' "$T/cmds.sh"

# the listing of the Example section is the example file itself
awk '/^## Example/ { f = 1 } f && /^```c$/ { g = 1; next } g && /^```$/ { exit } g' \
	"$DOC" >"$T/listing.c"
check "the page lists docs/examples/policy-example.c as it is" \
	cmp -s "$T/listing.c" "$SR_SOURCE_DIR/docs/examples/policy-example.c"

mkdir -p "$T/top/bin" "$T/top/docs"
ln -s "$SR_SOURCE_DIR/replay" "$T/top/replay"
ln -s "$SR_SOURCE_DIR/fixtures" "$T/top/fixtures"
ln -s "$SR_SOURCE_DIR/docs/examples" "$T/top/docs/examples"
ln -s "$SR_BIN" "$T/top/bin/schedreplay"
(cd "$T/top" && PATH=$T/top/bin:$PATH bash -e -o pipefail "$T/cmds.sh") >"$T/out" 2>"$T/err"
rc=$?
check "the commands run as written (exit $rc; $(head -c 300 "$T/err"))" test "$rc" = 0
check "the plugin was built" test -f "$T/top/policy-example.so"
check "the replay printed its headline" grep -q '^decisions: ' "$T/out"
# the last command lists [seq, old tid, new tid] of decisions whose choices differ
check "the choices of the two sides differ somewhere, as tids" \
	grep -Eq '^\[[0-9]+,[0-9]+,[0-9]+\]$' "$T/out"
check "the plugin's own choice rule shows" bash -c "
	cd '$T/top' && PATH='$T/top/bin':\$PATH schedreplay replay fixtures/numa01-4n/trace.dat \
		--old lb-v6.1 --new ./policy-example.so --param coldest_first=1 --json - |
	jq -e '[.decisions[] | select(.new.choice.reasons // [] | index(\"coldest-first\"))] | length > 0' >/dev/null"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
