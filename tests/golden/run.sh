#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Golden tests: each fixtures/golden/<case>/ holds `args` (the command line
# after "schedreplay", with @FIX@ for the fixtures folder) and `expected.txt`
# or `expected.json`. UPDATE_GOLDEN=1 rewrites the expected files for review.
set -u
: "${SR_BIN:?}" "${SR_SOURCE_DIR:?}"
fix=$SR_SOURCE_DIR/fixtures
passed=0
failed=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for dir in "$fix"/golden/*/; do
	[ -f "$dir/args" ] || continue
	name=$(basename "$dir")
	args=$(sed "s|@FIX@|$fix|g" "$dir/args")
	expected=$dir/expected.txt
	[ -f "$dir/expected.json" ] && expected=$dir/expected.json
	# shellcheck disable=SC2086
	(cd "$fix" && "$SR_BIN" $args) >"$out" 2>/dev/null
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$out" "$expected"
		echo "updated $name"
		continue
	fi
	if diff -u "$expected" "$out"; then
		passed=$((passed + 1))
		echo "ok - $name"
	else
		failed=$((failed + 1))
		echo "not ok - $name"
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
