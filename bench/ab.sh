#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two builds of schedreplay on one trace, interleaved (old, new, old, new,
# ...) so that this machine's drift hits both alike: the mean wall and user
# time of each, and its peak RSS, from /usr/bin/time.  For a change's
# before/after figures (docs/performance.md); the goals are bench/run.sh's.
# usage: bench/ab.sh OLD_BIN NEW_BIN TRACE RUNS [replay options...]
set -euo pipefail
if [ $# -lt 4 ]; then
	echo "usage: $0 OLD_BIN NEW_BIN TRACE RUNS [replay options...]" >&2
	exit 2
fi
old=$1 new=$2 trace=$3 runs=$4
shift 4
for ((i = 0; i < runs; i++)); do
	for side in old new; do
		bin=$old
		[ "$side" = new ] && bin=$new
		/usr/bin/time -f "$side %e %U %M" "$bin" replay "$@" "$trace" 2>&1 >/dev/null |
			grep -E "^$side [0-9.]+ [0-9.]+ [0-9]+$"
	done
done | awk '{ w[$1] += $2; u[$1] += $3; if ($4 > m[$1]) m[$1] = $4; n[$1]++ }
END { for (k in w) printf "%s: wall %.2f s, user %.2f s, peak RSS %d KiB (%d runs)\n",
	k, w[k] / n[k], u[k] / n[k], m[k], n[k] }' | sort
