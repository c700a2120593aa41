#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end test of `schedreplay tui`: the real binary in a detached tmux
# server of its own (-L, private socket), driven with send-keys on the
# bundled real trace fixtures/numa01-4n, the screen read with capture-pane.
# Checks: opening, moving, the detail, filtering to disagreements,
# searching, the matrix, a resize, quitting with exit code 0 and the
# terminal restored (normal screen, same stty settings).  Some screens are
# compared whole with fixtures/tui/e2e-*.txt (UPDATE_GOLDEN=1 rewrites).
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null; then
	echo "ok - skipped: no tmux"
	finish
	exit 0
fi
sock=sr-tui-test-$$
tm() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() { tm kill-server 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT

screen() { tm capture-pane -p -t tui; }
# wait_for PATTERN: until the screen shows PATTERN (5 s at most)
wait_for() {
	local i
	for i in $(seq 50); do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
expect_screen() {
	local desc=$1 pat=$2
	if wait_for "$pat"; then ok "$desc"; else fail "$desc: no '$pat' on screen:"; screen | sed 's/^/#   /'; fi
}
golden_screen() {
	local name=$1 want=$FIX/tui/e2e-$1.txt
	screen >"$T/screen-$name"
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then cp "$T/screen-$name" "$want"; fi
	if diff -u "$want" "$T/screen-$name" >"$T/diff"; then
		ok "screen '$name' matches its golden"
	else
		fail "screen '$name' differs from $want"
		sed 's/^/#   /' "$T/diff"
	fi
}

# A shell in the pane records its stty settings, runs the browser, and
# records the exit code and the settings after.
cat >"$T/run.sh" <<EOS
cd "$FIX"
stty -g >"$T/stty-before"
LANG=C.UTF-8 LC_ALL=C.UTF-8 "$SR_BIN" tui --quiet numa01-4n
echo "EXIT=\$?" >"$T/rc"
stty -g >"$T/stty-after"
echo "tui finished"
sleep 60
EOS
tm new-session -d -s tui -x 100 -y 30 "bash $T/run.sh"

expect_screen "opens: header with the trace and the counts" "decisions 769  disagree 22"
expect_screen "opens: the decision list" "TIME CLASS"
check "opens: the alternate screen is on" test "$(tm display -p -t tui '#{alternate_on}')" = 1

tm send-keys -t tui j j Down
expect_screen "moves: the cursor is on the 4th decision" "list | 4/769"

tm send-keys -t tui Enter
expect_screen "detail: opens on the selected decision" "Decision 4 of 769 shown"
expect_screen "detail: shows the verdicts with reasons in words" "Verdicts and their reasons"
golden_screen detail
tm send-keys -t tui Escape
expect_screen "detail: Esc goes back to the list" "list | 4/769"

tm send-keys -t tui d
expect_screen "filter: disagreements only" "filter disagree"
expect_screen "filter: 22 of them" "/22 |"
rows=$(screen | sed -n '5,10p')
if [ "$(printf '%s\n' "$rows" | grep -c '^!')" -eq 6 ]; then
	ok "filter: every row shown is a disagreement"
else
	fail "filter: rows not all marked !"; printf '%s\n' "$rows" | sed 's/^/#   /'
fi
golden_screen disagreements

tm send-keys -t tui / n b - w 2 Enter
expect_screen "search: finds 'nb-w2' on the first disagreement" "match for 'nb-w2' at 8 of 22"
tm send-keys -t tui n
expect_screen "search: n goes to the next match" "match for 'nb-w2' at 11 of 22"
tm send-keys -t tui n n n
expect_screen "search: n wraps around past the last match" "match for 'nb-w2' at 8 of 22"
tm send-keys -t tui N
expect_screen "search: N goes back, wrapping" "match for 'nb-w2' at 21 of 22"

tm send-keys -t tui d Tab
expect_screen "matrix: the node heatmap" "migrations, src node (rows)"
expect_screen "matrix: the distance matrix beside it" "src n0       56      69      16      24 n0     10   20   40   40"
golden_screen matrix

tm resize-window -t tui -x 72 -y 20
expect_screen "resize: the status line is redrawn at the new bottom" "matrix | "
lines=$(screen | wc -l)
width=$(screen | awk '{ if (length($0) > m) m = length($0) } END { print m }')
if [ "$lines" -eq 20 ] && [ "$width" -le 72 ] && screen | sed -n 20p | grep -q "matrix |"; then
	ok "resize: the screen is laid out for 72x20"
else
	fail "resize: $lines lines, $width columns"; screen | sed 's/^/#   /'
fi
tm send-keys -t tui Tab Tab
expect_screen "resize: the list fits the new width" "TIME CLASS"

tm send-keys -t tui q
sleep 0.3
check "quit: q in the list leaves the browser" wait_for "tui finished"
check "quit: exit code 0" grep -qx "EXIT=0" "$T/rc"
check "quit: the alternate screen is off" test "$(tm display -p -t tui '#{alternate_on}')" = 0
check "quit: the terminal settings are restored" cmp -s "$T/stty-before" "$T/stty-after"

# Headless runs need no terminal; without one the browser says so.
expect_exit 0 "headless: 5 frames of a scripted session" \
	"$SR_BIN" tui --quiet "$FIX/numa01-4n" --headless --frames 5 --keys "j Enter Tab Tab"
expect_exit 2 "no terminal and no --headless: a usage error" "$SR_BIN" tui --quiet "$FIX/numa01-4n"
check "no terminal: the message says so" grep -q "must be a terminal" "$T/err"
printf '{"trace": {}, "decisions": [ {"class": "bogus", "ts_ns": 1} ]}' >"$T/bad.json"
expect_exit 3 "a malformed report is bad input" "$SR_BIN" tui "$T/bad.json" --headless
check "a malformed report: file and byte offset" grep -q "bad.json' at byte 29" "$T/err"
finish
