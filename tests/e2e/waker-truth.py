#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hold the inferred waker's CPU to the truth (test-waker.sh).

usage: waker-truth.py TRUTH.ndjson STRIPPED.ndjson

TRUTH is the NDJSON of a replay that knows every waker's CPU (the lab
recording with its sched_waking events); STRIPPED is the same recording's
text without them.  Wake-up decisions are matched by (tid, ts_ns); one a
replay leaves out of its NDJSON (docs/json-schema.md, "unlisted") had every
side pick the CPU the kernel picked.  For each side (old, new), prints
one line: the wake-ups whose STRIPPED answer names waker-cpu-inferred, how
many of those pick the CPU the same side picks with the true waker, and how
many wake-ups STRIPPED leaves unknown:

    old inferred 483 same 472 unknown 107
"""
import json
import sys


def wakeups(path):
    out = {}
    with open(path) as f:
        for line in f:
            o = json.loads(line)
            if o.get("class") == "wakeup":
                out[(o["tid"], o["ts_ns"])] = o
    return out


def cpu(o, side):
    if o is None:
        return None
    c = o[side]["choice"]
    return None if c.get("unknown") else c.get("cpu")


def main():
    truth, stripped = wakeups(sys.argv[1]), wakeups(sys.argv[2])
    for side in ("old", "new"):
        inferred = same = unknown = 0
        for key, o in stripped.items():
            if o[side]["choice"].get("unknown"):
                unknown += 1
                continue
            if "waker-cpu-inferred" not in o[side]["reasons"]:
                continue
            inferred += 1
            t = truth.get(key)
            want = cpu(t, side) if t is not None else o["dst_cpu"]
            same += want == cpu(o, side)
        print(f"{side} inferred {inferred} same {same} unknown {unknown}")


if __name__ == "__main__":
    main()
