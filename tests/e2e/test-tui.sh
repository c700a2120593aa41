#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end test of `schedreplay tui`: the real binary in a detached tmux
# server of its own (-L, private socket), driven with send-keys on the
# bundled real trace fixtures/numa01-4n, the screen read with capture-pane.
# Checks: opening on the disagreements, moving, the detail, Esc that never
# quits, ] [ between disagreements, the u/w/o filters and the |cost delta|
# sort against the JSON report's own counts, searching, the matrix, the
# help at 80x24, a resize, quitting with exit code 0 and the terminal
# restored (normal screen, same stty settings); then the trace and its
# saved JSON giving the same screens, a report still being written, a
# report cut short, an NDJSON stream.  Some screens are
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

# The saved report of the same replay (same folder and argument, so the same trace path)
(cd "$FIX" && "$SR_BIN" replay --quiet numa01-4n --json "$T/n4.json" >/dev/null)
jcount() { python3 -c "import json,sys; d=json.load(open('$T/n4.json'))['decisions']; print($1)"; }
first_dis=$(jcount "next(i for i, x in enumerate(d) if x['disagree']) + 1")
nr_unseen=$(jcount "sum('cpu-unseen' in x['flags'] for x in d)")
nr_lost=$(jcount "sum('lost-events-window' in x['flags'] for x in d)")
nr_unknown=$(jcount "sum(bool(x['unknown']) for x in d)")
nr_dis=$(jcount "sum(bool(x['disagree']) for x in d)")
nr_listed=$(jcount "len(d)")
# the heatmap's row n0: migrations (src CPU != dst CPU) from node 0 to each node
row_n0=$(jcount "''.join('%8d' % sum(1 for x in d if x.get('src_node') == 0 and x.get('dst_node') == j and x.get('src_cpu') != x.get('dst_cpu')) for j in range(4))")
nr_all=$(python3 -c "import json; print(json.load(open('$T/n4.json'))['summary']['decisions'])")
paired=$(python3 -c "import json; t=json.load(open('$T/n4.json'))['summary']['cost']['totals']; print('cost Δ %+.1f (%d paired)' % (t['delta']['weighted'], t['paired']['decisions']))")
# where '/nb-w2' lands among the disagreements: the 1st match, n, n n n, N
read -r m1 m2 m5 m4 <<<"$(jcount "' '.join(str(m[i % len(m)]) for m in [[i + 1 for i, x in enumerate([x for x in d if x['disagree']]) if 'nb-w2' in x['comm']]] for i in (0, 1, 4, 3))")"

expect_screen "opens: header with the trace and the counts" "decisions $nr_all  disagree $nr_dis"
expect_screen "opens: the header has the report's paired cost" "$paired"
expect_screen "opens: the decision list" "TIME CLASS"
expect_screen "opens: on the disagreements (reviewer first)" "list | 1/$nr_dis | sort time | filter disagree"
rows=$(screen | sed -n '5,10p')
if [ "$(printf '%s\n' "$rows" | grep -c '^!')" -eq 6 ]; then
	ok "opens: the first rows shown are disagreements"
else
	fail "opens: first rows not all marked !"; printf '%s\n' "$rows" | sed 's/^/#   /'
fi
expect_screen "opens: a key bar with the main keys" "?Help ]NextDis dDisagree"
check "opens: the alternate screen is on" test "$(tm display -p -t tui '#{alternate_on}')" = 1

tm send-keys -t tui j j Down
expect_screen "moves: the cursor is on the 4th disagreement" "list | 4/$nr_dis"

tm send-keys -t tui Enter
expect_screen "detail: opens on the selected decision" "Decision 4 of $nr_dis shown"
expect_screen "detail: shows the verdicts with reasons in words" "Verdicts and their reasons"
golden_screen detail
tm send-keys -t tui Escape
expect_screen "detail: Esc goes back to the list" "list | 4/$nr_dis"

tm send-keys -t tui Escape
expect_screen "Esc in the filtered list: clears the filters" "filters cleared"
expect_screen "Esc in the filtered list: every decision" "/$nr_listed | sort time | filter none"
tm send-keys -t tui Escape
expect_screen "Esc in the plain list: does not quit" "nothing to close: q quits"
tm send-keys -t tui Escape Escape
sleep 0.3
check "Esc never quits: the browser still runs" test ! -e "$T/rc"
expect_screen "Esc never quits: the list is still shown" "/$nr_listed | sort time"

tm send-keys -t tui g ]
expect_screen "]: the first disagreement, no filter on" "list | $first_dis/$nr_listed | sort time | filter none"
tm send-keys -t tui ] [
expect_screen "[: back to it" "list | $first_dis/$nr_listed |"

tm send-keys -t tui o
expect_screen "filter o: the decisions flagged cpu-unseen ($nr_unseen in the JSON)" \
	"/$nr_unseen | sort time | filter cpu-unseen"
tm send-keys -t tui o w
expect_screen "filter w: the lost-event windows ($nr_lost in the JSON)" "/$nr_lost | sort time | filter lost"
tm send-keys -t tui w u
expect_screen "filter u: the unknowns ($nr_unknown in the JSON)" "/$nr_unknown | sort time | filter unknown"
tm send-keys -t tui u s
expect_screen "sort: by |cost delta|" "sort cost | filter none"
rows=$(screen | sed -n '5,9p' | awk '{ print $NF }' | tr -d '+-')
if printf '%s\n' "$rows" | sort -rn -c 2>/dev/null; then
	ok "sort: the largest |cost delta| first, whatever its sign"
else
	fail "sort: not by |cost delta|"; printf '%s\n' "$rows" | sed 's/^/#   /'
fi
tm send-keys -t tui s s d
expect_screen "d: disagreements only again" "filter disagree"
expect_screen "filter: $nr_dis of them" "/$nr_dis |"
golden_screen disagreements

tm send-keys -t tui / n b - w 2 Enter
expect_screen "search: finds 'nb-w2' on the first disagreement" "match for 'nb-w2' at $m1 of $nr_dis"
tm send-keys -t tui n
expect_screen "search: n goes to the next match" "match for 'nb-w2' at $m2 of $nr_dis"
tm send-keys -t tui n n n
expect_screen "search: n wraps around past the last match" "match for 'nb-w2' at $m5 of $nr_dis"
tm send-keys -t tui N
expect_screen "search: N goes back, wrapping" "match for 'nb-w2' at $m4 of $nr_dis"

tm send-keys -t tui d Tab
expect_screen "matrix: the node heatmap" "migrations, src node (rows)"
expect_screen "matrix: the distance matrix beside it" "src n0 $row_n0 n0     10   20   40   40"
golden_screen matrix

tm resize-window -t tui -x 80 -y 24
tm send-keys -t tui Escape ?
expect_screen "help at 80x24: opens and says how to scroll" "j/k PgUp/PgDn scroll; Esc, q, ? close"
width=$(screen | wc -L)
if [ "$(screen | wc -l)" -eq 24 ] && [ "$width" -le 80 ] && screen | grep -q "Reviewing"; then
	ok "help at 80x24: the box fits"
else
	fail "help at 80x24: $(screen | wc -l) lines, $width columns"; screen | sed 's/^/#   /'
fi
tm send-keys -t tui End
expect_screen "help at 80x24: End scrolls to its last keys" "Marks and figures"
check "help at 80x24: every help line fits the box" \
	test "$(screen | grep -c "keys work meanwhile")" -eq 1
tm send-keys -t tui Escape
expect_screen "help: Esc closes it, the list stays" "list | "

tm resize-window -t tui -x 72 -y 20
for i in $(seq 50); do
	screen | sed -n 19p | grep -q "list |" && screen | sed -n 20p | grep -q "qQuit" && break
	sleep 0.1
done
expect_screen "resize: the status line is redrawn at the new bottom" "list | "
lines=$(screen | wc -l)
width=$(screen | wc -L)
if [ "$lines" -eq 20 ] && [ "$width" -le 72 ] && screen | sed -n 19p | grep -q "list |" &&
	screen | sed -n 20p | grep -q "qQuit"; then
	ok "resize: the screen is laid out for 72x20, key bar last"
else
	fail "resize: $lines lines, $width columns"; screen | sed 's/^/#   /'
fi
expect_screen "resize: the list fits the new width" "TIME CLASS"

tm send-keys -t tui q
sleep 0.3
check "quit: q in the list leaves the browser" wait_for "tui finished"
check "quit: exit code 0" grep -qx "EXIT=0" "$T/rc"
check "quit: the alternate screen is off" test "$(tm display -p -t tui '#{alternate_on}')" = 0
check "quit: the terminal settings are restored" cmp -s "$T/stty-before" "$T/stty-after"
tm kill-session -t tui

# One truth: the trace and its saved report give the same screens.
for keys in "" "d" "d s" "d o" "d u" "? End" "Tab" "Tab Tab"; do
	(cd "$FIX" && "$SR_BIN" tui --quiet numa01-4n --headless --size 120x30 --keys "$keys" \
		--dump "$T/from-trace.txt")
	"$SR_BIN" tui "$T/n4.json" --headless --size 120x30 --keys "$keys" --dump "$T/from-json.txt"
	if cmp -s "$T/from-trace.txt" "$T/from-json.txt"; then
		ok "one truth: trace and JSON give the same screen after '$keys'"
	else
		fail "one truth: screens differ after '$keys'"
		diff "$T/from-trace.txt" "$T/from-json.txt" | sed 's/^/#   /'
	fi
done
# ... and so do the live browsers, in a terminal
tm new-session -d -s tr -x 110 -y 30 "cd '$FIX' && LANG=C.UTF-8 '$SR_BIN' tui --quiet numa01-4n; sleep 60"
tm new-session -d -s js -x 110 -y 30 "LANG=C.UTF-8 '$SR_BIN' tui '$T/n4.json'; sleep 60"
for s in tr js; do
	for i in $(seq 100); do
		tm capture-pane -p -t $s | grep -qF "list | 1/$nr_dis | sort time | filter disagree" &&
			! tm capture-pane -p -t $s | grep -qE "indexing|replaying" && break
		sleep 0.1
	done
	tm send-keys -t $s d s
	sleep 0.5
	tm capture-pane -p -t $s >"$T/live-$s.txt"
done
if cmp -s "$T/live-tr.txt" "$T/live-js.txt" && grep -q "sort cost" "$T/live-tr.txt"; then
	ok "one truth: the terminal screens of the trace and of its JSON are the same"
else
	fail "one truth: the terminal screens differ"; diff "$T/live-tr.txt" "$T/live-js.txt" | sed 's/^/#   /'
fi
tm kill-session -t tr
tm kill-session -t js

# A report still being written opens with what is there, and follows the rest.
size=$(stat -c %s "$T/n4.json")
head -c $((size / 2)) "$T/n4.json" >"$T/growing.json"
tm new-session -d -s gr -x 120 -y 30 "LANG=C.UTF-8 '$SR_BIN' tui '$T/growing.json'; sleep 60"
tm_gr() { tm capture-pane -p -t gr; }
for i in $(seq 50); do tm_gr | grep -qF "waiting for more" && break; sleep 0.1; done
if tm_gr | grep -qF "report still being written at byte" && tm_gr | grep -q "decisions [0-9]* so far"; then
	ok "growing report: opens on its first half, says it is being written"
else
	fail "growing report: no 'still being written' status"; tm_gr | sed 's/^/#   /'
fi
tail -c +$((size / 2 + 1)) "$T/n4.json" >>"$T/growing.json"
for i in $(seq 50); do tm_gr | grep -qF "decisions $nr_all  disagree $nr_dis" && break; sleep 0.1; done
if tm_gr | grep -qF "decisions $nr_all  disagree $nr_dis" && tm_gr | grep -qF "list | 1/$nr_dis |" &&
	! tm_gr | grep -qF "waiting"; then
	ok "growing report: the rest is read once written, with the summary"
else
	fail "growing report: the rest was not taken"; tm_gr | sed 's/^/#   /'
fi
tm kill-session -t gr
head -c $((size / 2)) "$T/n4.json" >"$T/cut.json"
expect_exit 0 "a report cut short opens headless" "$SR_BIN" tui "$T/cut.json" --headless \
	--dump "$T/cut.txt"
check "a report cut short: the status says where it ends" grep -q "the report ends early, at byte" "$T/cut.txt"
# The detail of a report's decision where a side pulled another task: every task priced (cost.parts)
k=$(jq -r '[.decisions[] | select(.disagree)] | to_entries | map(select(.value.cost.parts))[0].key // empty' "$T/n4.json")
check "cost.parts: numa01-4n has a disagreement that prices another task" test -n "$k"
if [ -n "$k" ]; then
	ptid=$(jq -r "[.decisions[] | select(.disagree)][$k].cost.parts[1].tid" "$T/n4.json")
	pw=$(jq -r "[.decisions[] | select(.disagree)][$k].cost.parts[1].old.weighted * 1000 | round / 1000" "$T/n4.json")
	"$SR_BIN" tui "$T/n4.json" --headless --size 120x50 --keys "$(printf 'j %.0s' $(seq 1 "$k"))Enter" \
		--dump "$T/parts.txt"
	# each side's choice: the JSON's tid, said whether it is the kernel's
	otid=$(jq -r "[.decisions[] | select(.disagree)][$k].old.choice.tid // \"none\"" "$T/n4.json")
	ntid=$(jq -r "[.decisions[] | select(.disagree)][$k].new.choice.tid // \"none\"" "$T/n4.json")
	check "choices: the detail says old pulls $otid and new $ntid" \
		test "$(grep -o 'chooses: pulls \(tid [0-9]*\|nothing\)' "$T/parts.txt" | head -2 | tr '\n' ' ')" = \
		"$(for c in $otid $ntid; do [ "$c" = none ] && printf 'chooses: pulls nothing ' || printf 'chooses: pulls tid %s ' "$c"; done)"
	check "cost.parts: the detail lists each task priced" grep -q "priced for each side's own choice" "$T/parts.txt"
	check "cost.parts: the other task $ptid with old's weighted cost $pw" \
		grep -qE "^ +$ptid +old [0-9?]+ $(printf '%.3f' "$pw") " "$T/parts.txt"
fi

# NDJSON: the stream of `replay --ndjson`
(cd "$FIX" && "$SR_BIN" replay --quiet numa01-4n --ndjson "$T/n4.ndjson" >/dev/null)
expect_exit 0 "an NDJSON stream opens" "$SR_BIN" tui "$T/n4.ndjson" --headless --dump "$T/nd.txt"
check "an NDJSON stream: its $nr_dis disagreements of $nr_listed" grep -q "list | 1/$nr_dis | sort time" "$T/nd.txt"
check "an NDJSON stream: counted from its rows" grep -q "decisions $nr_listed so far  disagree $nr_dis" "$T/nd.txt"

# The commands docs/tui.md shows, run as written from the source folder
grep '^schedreplay tui .*--headless' "$SR_SOURCE_DIR/docs/tui.md" >"$T/doc-cmds"
check "docs/tui.md: its examples found" test "$(wc -l <"$T/doc-cmds")" -ge 2
while IFS= read -r cmd; do
	(cd "$SR_SOURCE_DIR" && eval "\"\$SR_BIN\"${cmd#schedreplay}") >"$T/doc-out" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q "^ list | \|^ detail | " "$T/doc-out"; then
		ok "docs/tui.md: '$cmd' runs"
	else
		fail "docs/tui.md: '$cmd' exit $rc"; sed 's/^/#   /' "$T/doc-out"
	fi
	# a command the doc shows the screen of draws that screen
	case $cmd in
	*"--size 100x12 --dump -")
		while IFS= read -r line; do
			case $line in
			ok*) ok "${line#ok - }" ;;
			*) fail "${line#not ok - }" ;;
			esac
		done < <(/usr/bin/python3 "$SR_SOURCE_DIR/tests/e2e/doc-example.py" \
			"$SR_SOURCE_DIR/docs/tui.md" "$cmd" "$T/doc-out")
		;;
	esac
done <"$T/doc-cmds"

# Headless runs need no terminal; without one the browser says so.
expect_exit 0 "headless: 5 frames of a scripted session" \
	"$SR_BIN" tui --quiet "$FIX/numa01-4n" --headless --frames 5 --keys "j Enter Tab Tab"
expect_exit 2 "no terminal and no --headless: a usage error" "$SR_BIN" tui --quiet "$FIX/numa01-4n"
check "no terminal: the message says so" grep -q "must be a terminal" "$T/err"
printf '{"trace": {}, "decisions": [ {"class": "bogus", "ts_ns": 1} ]}' >"$T/bad.json"
expect_exit 3 "a malformed report is bad input" "$SR_BIN" tui "$T/bad.json" --headless
check "a malformed report: file and byte offset" grep -q "bad.json' at byte 29" "$T/err"
finish
