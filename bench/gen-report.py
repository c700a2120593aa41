#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a synthetic `schedreplay replay --json` report with N decisions.

Reproducible: the same N and --seed give the same bytes.  The decisions
follow docs/replay-schema.json (plus the per-decision "cost" object of the
cost model), on a 4-node, 8-CPU topology, with about 1 in 50 decisions a
disagreement, so the browser has something realistic to filter and sort.

usage: gen-report.py N OUT.json [--seed S]
"""
import random
import sys

CLASSES = ["numa-move", "numa-swap", "numa-stick", "exec", "lb-pull", "lb-active", "wakeup"]
OLD = {"numa-move": "numa-v4.18", "numa-swap": "numa-v4.18", "numa-stick": "numa-v4.18",
       "exec": "exec-least-loaded", "lb-pull": "lb-v4.1", "lb-active": "lb-v4.1"}
NEW = {"numa-move": "numa-v4.19", "numa-swap": "numa-v4.19", "numa-stick": "numa-v4.19",
       "exec": "exec-round-robin", "lb-pull": "lb-v4.1-numa-hotness",
       "lb-active": "lb-v4.1-numa-hotness"}
REASONS = {"allow": ["task-cold", "improves-locality", "dst-numa-free", "exec-round-robin"],
           "resist": ["task-hot", "degrades-locality", "dst-numa-claimed",
                      "exec-less-loaded-elsewhere"]}
COMMS = ["nb-w0", "nb-w1", "nb-w2", "nb-w3", "sh", "grep", "kworker/u17:0", "rcu_preempt",
         "db-writer", "evil\\u001b[31m"]


def verdict(rng, policy, v):
    if policy is None:
        return "null"
    return ('{"flags":[],"policy":"%s","reasons":["%s"],"verdict":"%s"}'
            % (policy, rng.choice(REASONS[v]), v))


def main():
    args = sys.argv[1:]
    seed = 1
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    n, out = int(args[0]), args[1]
    rng = random.Random(seed)
    dis_total = 0
    with open(out, "w") as f:
        f.write('{"assumptions":"synthetic report of bench/gen-report.py",\n"decisions":[\n')
        ts = 1_000_000_000
        for seq in range(n):
            ts += rng.randrange(20_000, 200_000)
            cls = rng.choice(CLASSES)
            src, dst = rng.randrange(8), rng.randrange(8)
            old_p, new_p = OLD.get(cls), NEW.get(cls)
            ov = "allow" if rng.random() < 0.7 else "resist"
            dis = old_p is not None and rng.random() < 0.02
            nv = ("resist" if ov == "allow" else "allow") if dis else ov
            dis_total += dis
            tid = 200 + rng.randrange(400)
            co, cn = rng.randrange(0, 5000), rng.randrange(0, 5000)
            if not dis:
                cn = co
            f.write('%s{"balance_failed_dependent":false,"class":"%s","comm":"%s",'
                    '"cost":{"delta":%d,"new":%d,"old":%d},"disagree":%s,"dst_cpu":%d,'
                    '"dst_node":%d,"evidence":"synthetic","flags":[],"kernel":null,"new":%s,'
                    '"old":%s,"seq":%d,"src_cpu":%d,"src_node":%d,"tgid":%d,"tid":%d,'
                    '"ts_ns":%d,"unknown":false}\n'
                    % ("," if seq else "", cls, rng.choice(COMMS), cn - co, cn, co,
                       "true" if dis else "false", dst, dst // 2, verdict(rng, new_p, nv),
                       verdict(rng, old_p, ov), seq, src, src // 2, tid, tid, ts))
        f.write('],\n"policies":{"kernel":[],"new":[],"old":[]},"schema_version":1,\n'
                '"summary":{"balance_failed_dependent":0,"by_class":{},"classes":{},'
                '"decisions":%d,"disagreements":%d,"evidence":{},"fidelity":{},'
                '"lost_window":0,"reason_pairs":{},"top_tasks":[],"unknown":0,'
                '"unknown_inputs":{}},\n'
                '"topology":{"cpu_node":[0,0,1,1,2,2,3,3],"nodes":['
                '{"cpus":"0-1","distance":[10,20,40,40],"id":0},'
                '{"cpus":"2-3","distance":[20,10,40,40],"id":1},'
                '{"cpus":"4-5","distance":[40,40,10,20],"id":2},'
                '{"cpus":"6-7","distance":[40,40,20,10],"id":3}],"origin":"synthetic",'
                '"source":"json"},\n'
                '"trace":{"cpus":8,"damage_warnings":0,"duration_ns":%d,"events":%d,'
                '"format":"trace.dat","kernel_release":"6.1.0-synthetic","lost_events":0,'
                '"nodes":4,"path":"synthetic-%d.dat"}}\n'
                % (n, dis_total, ts - 1_000_000_000, 10 * n, n))


if __name__ == "__main__":
    main()
