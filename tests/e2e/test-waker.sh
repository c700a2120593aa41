#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The waker's CPU inferred from the recording kernel's model
# (docs/policies.md, wake-up), held to the truth: fixtures/probes-4n is a
# lab recording with sched_waking, so every waker's CPU is known there.
# Its trace-cmd report text without sched_waking (and without the probes,
# which would show it too) is what a trace lacking sched_waking looks like.
# Each side's inferred answers must be the answers it gives with the true
# waker for at least 95% of them; without a kernel model nothing is
# inferred; the kernel side itself never is; docs/policies.md states the
# figures this measures.
. "$(dirname "$0")/lib.sh"
P=$FIX/probes-4n
TRUTH=$SR_SOURCE_DIR/tests/e2e/waker-truth.py
DOC=$SR_SOURCE_DIR/docs/policies.md

if ! command -v trace-cmd >/dev/null; then
	echo "# SKIP: trace-cmd not installed (make deps installs it)"
	finish
	exit
fi
trace-cmd report -t -i "$P/trace.dat" 2>/dev/null >"$T/full.txt"
grep -vE ' (sched_waking|strf|strf_ret|cmt|cmt_ret|tnm|tnm_ret): ' "$T/full.txt" >"$T/stripped.txt"
check "the text has wake-ups" grep -q ' sched_wakeup: ' "$T/stripped.txt"
check "the text has no sched_waking" test "$(grep -c ' sched_waking: ' "$T/stripped.txt")" -eq 0

expect_exit 0 "replay probes-4n --ndjson (the truth)" "$SR_BIN" replay --quiet --ndjson "$T/truth.nd" "$P"
expect_exit 0 "replay the text without sched_waking" "$SR_BIN" replay --quiet \
	--topology "$P/numactl-H.txt" --ndjson "$T/stripped.nd" "$T/stripped.txt"
python3 "$TRUTH" "$T/truth.nd" "$T/stripped.nd" >"$T/fig"
cat "$T/fig"
fig() { awk -v s="$1" -v k="$2" '$1 == s { for (i = 2; i < NF; i += 2) if ($i == k) print $(i + 1) }' "$T/fig"; }
for side in old new; do
	inf=$(fig $side inferred)
	same=$(fig $side same)
	check "$side: answers inferred ($inf)" test "$inf" -ge 200
	check "$side: $same of $inf as with the true waker (>= 95%)" test $((100 * same)) -ge $((95 * inf))
done
check "the kernel side never infers" test \
	"$(jq -s '[.[] | select(.class == "wakeup" and (.kernel.reasons | index("waker-cpu-inferred")))] | length' "$T/stripped.nd")" -eq 0

expect_exit 0 "the same without a kernel model" "$SR_BIN" replay --quiet --kernel-policy none \
	--topology "$P/numactl-H.txt" --ndjson "$T/none.nd" "$T/stripped.txt"
check "nothing inferred without a kernel model" test "$(grep -c waker-cpu-inferred "$T/none.nd")" -eq 0
python3 "$TRUTH" "$T/truth.nd" "$T/none.nd" >"$T/fig0"
unk0=$(awk '$1 == "old" { print $7 }' "$T/fig0")
check "more unknown without it ($unk0 > $(fig old unknown))" test "$unk0" -gt "$(fig old unknown)"

# the figures docs/policies.md quotes
doc=$(tr '\n' ' ' <"$DOC" | tr -s ' ')
check "the doc says $unk0 wake-ups lost their waker" grep -q "of $unk0 wake-ups whose waker" <<<"$doc"
check "the doc says $(fig old inferred) inferred" grep -q "$(fig old inferred) get an inferred answer" <<<"$doc"
check "the doc says $(fig old same)-$(fig new same) as with the true waker" \
	grep -q "for $(fig old same)-$(fig new same) of them" <<<"$doc"
check "the doc says $(fig old unknown) stay unknown" grep -q "$(fig old unknown) stay unknown" <<<"$doc"
finish
