#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a `schedreplay replay --json` report with N decisions made of a real one.

The decisions of FROM (a report written by `schedreplay replay --json` on a
real trace) are repeated until there are N: copy k is shifted in time by k
times the source's span, and seq runs on.  Every other member is the
source's, except the summary's counts, which are counted again over what is
written (decisions, disagreements, unknown, lost_window, cpu_unseen), and
its cost totals, which are dropped (the browser then sums the rows, so its
header still matches what the file holds).  Decisions are written one a
line, compact, keys sorted, so the output is reproducible byte for byte.

usage: gen-report.py N OUT.json --from REPORT.json
"""
import json
import sys


def main():
    args = sys.argv[1:]
    src = None
    if "--from" in args:
        i = args.index("--from")
        src = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2 or not src:
        sys.exit(__doc__)
    n, out = int(args[0]), args[1]
    with open(src) as f:
        doc = json.load(f)
    decs = doc.pop("decisions")
    if not decs:
        sys.exit("gen-report.py: %s has no decisions" % src)
    t0 = min(d["ts_ns"] for d in decs)
    span = max(d["ts_ns"] for d in decs) - t0 + 1000
    # each decision as text with two holes: its time and its seq
    tmpl = []
    for d in decs:
        d = dict(d)
        ts = d["ts_ns"] - t0
        d["ts_ns"] = -1
        d["seq"] = -2
        s = json.dumps(d, sort_keys=True, separators=(",", ":"))
        s = s.replace("%", "%%").replace('"ts_ns":-1', '"ts_ns":%d').replace('"seq":-2', '"seq":%d')
        if s.index('"seq":%d') < s.index('"ts_ns":%d'):
            tmpl.append((s, ts, True))
        else:
            tmpl.append((s, ts, False))
    counts = {"decisions": 0, "disagreements": 0, "unknown": 0, "lost_window": 0, "cpu_unseen": 0}
    with open(out, "w") as f:
        f.write('{"assumptions":%s,\n"decisions":[\n' % json.dumps(doc.get("assumptions", "")))
        for seq in range(n):
            k, i = divmod(seq, len(decs))
            s, ts, seq_first = tmpl[i]
            t = t0 + k * span + ts
            f.write(("," if seq else "") + (s % ((seq, t) if seq_first else (t, seq))) + "\n")
            d = decs[i]
            counts["decisions"] += 1
            counts["disagreements"] += bool(d.get("disagree"))
            counts["unknown"] += bool(d.get("unknown"))
            counts["lost_window"] += "lost-events-window" in d.get("flags", [])
            counts["cpu_unseen"] += "cpu-unseen" in d.get("flags", [])
        f.write("]")
        summary = doc.get("summary", {})
        summary.pop("cost", None)
        summary.update(counts)
        for key in sorted(doc):
            if key == "assumptions":
                continue
            f.write(',\n"%s":%s' % (key, json.dumps(doc[key], sort_keys=True, separators=(",", ":"))))
        f.write("}\n")


if __name__ == "__main__":
    main()
