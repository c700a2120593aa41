#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check a replay text summary against the JSON report of the same replay.

usage: text-headline.py REPORT.json SUMMARY.txt VERBOSE.txt

Reads the answer lines at the top of the text (decisions, cost, fidelity,
truth when the trace has decision probes, trust: each a label and its
value, continuation lines indented) and checks
every figure in them against the JSON: counts exactly, reals as the text
rounds them (one decimal).  Also: every line of both texts within 100
columns, one "kernel:" line, the sections left out without fault events
or disagreements and a line saying so, and -v printing them.  Prints one
"ok"/"not ok" line per check; exits 1 when any failed.
"""
import json
import re
import sys

failed = 0


def check(desc, cond, detail=""):
    global failed
    if cond:
        print("ok - " + desc)
    else:
        failed += 1
        print("not ok - " + desc + (": " + detail if detail else ""))


def answer(lines):
    """The labelled lines before the first blank one, continuations joined."""
    out, order = {}, []
    for line in lines:
        if not line.strip():
            break
        m = re.match(r"^([a-z]+):\s+(.*)$", line)
        if m:
            order.append(m.group(1))
            out[m.group(1)] = m.group(2)
        elif order and line.startswith(" "):
            out[order[-1]] += " " + line.strip()
    return out, order


def one(v):
    return "%+.1f" % v


def main():
    doc = json.load(open(sys.argv[1]))
    text = open(sys.argv[2], encoding="utf-8").read().split("\n")
    verbose = open(sys.argv[3], encoding="utf-8").read().split("\n")
    s = doc["summary"]
    tr = doc["trace"]
    head, order = answer(text)

    gt = s.get("ground_truth")
    have_choices = bool(s["choice_fidelity"]) or s["candidates"]["points"] > 0
    want_order = (["decisions", "cost", "latency", "fidelity"] + (["choices"] if have_choices else []) +
                  (["truth"] if gt else []) + ["trust"])
    check("the text begins with the answer", order[:len(want_order)] == want_order, repr(order))
    if gt:
        lb = gt["lb"]
        m = re.match(r"^(\S+) agrees with the kernel's own verdict on (\d+) of (\d+) can_migrate_task "
                     r"candidates \([\d.]+%; (\d+) allowed, (\d+) refused\), (\d+) judged \([\d.]+%\); "
                     r"(\d+) disagree", head.get("truth", ""))
        check("truth line parses", m is not None, head.get("truth", ""))
        if m:
            check("truth = summary.ground_truth.lb",
                  [m.group(1)] + [int(x) for x in m.groups()[1:]] ==
                  [lb["policy"], lb["model_agrees"], lb["candidates"], lb["kernel_allowed"],
                   lb["kernel_refused"], lb["judged"], lb["judged"] - lb["model_agrees"]])
    lat = head.get("latency", "")
    cost = s.get("cost") or {}
    if cost.get("latency_source") == "measured":
        check("latency line = measured profile", lat.startswith("measured profile ("), lat)
    elif cost:
        check("latency line = prior", lat.startswith("prior (no "), lat)
        rng = cost["latency"]["paired_weighted"].get("delta")
        if rng:
            m = re.search(r"new - old ([-+][\d.]+) weighted with SLIT as the latency ratio, "
                          r"([-+][\d.]+) with the low prior", lat)
            check("latency range = cost.latency.paired_weighted.delta",
                  m is not None and m.group(1) == one(rng["high"]) and m.group(2) == one(rng["low"]),
                  lat)
    vhead, _ = answer(verbose)
    check("-v begins with the same answer", vhead == head)

    d = head.get("decisions", "")
    m = re.match(r"^(\d+); old and new disagree on (\d+)(?: \(([^)]*)\))?; (\d+) unknown; (\d+) would "
                 r"change with nr_balance_failed$", d)
    check("decisions line parses", m is not None, d)
    if m:
        check("decisions = summary.decisions", int(m.group(1)) == s["decisions"])
        check("disagree = summary.disagreements", int(m.group(2)) == s["disagreements"])
        check("unknown = summary.unknown", int(m.group(4)) == s["unknown"])
        check("nr_balance_failed = summary.balance_failed_dependent",
              int(m.group(5)) == s["balance_failed_dependent"])
        got = {}
        for item in (m.group(3) or "").split(", "):
            if item:
                k, n = item.rsplit(" ", 1)
                got[k] = int(n)
        want = {k: c["disagreements"] for k, c in s["classes"].items() if c["disagreements"]}
        check("disagreements by class = summary.classes.*.disagreements", got == want,
              "%r != %r" % (got, want))

    c = head.get("cost", "")
    cost = s.get("cost")
    tot = cost["totals"] if cost else None
    if tot and tot["delta"] is not None:
        p = tot["paired"]
        m = re.match(r"^new - old ([-+]\d+\.\d) weighted hinting faults \(x distance / 10\), "
                     r"([-+]\d+\.\d) remote, paired over the (\d+) of (\d+) decisions both sides priced "
                     r"\(old (\d+\.\d), new (\d+\.\d) weighted\); left out: (\d+) priced by old only, "
                     r"(\d+) by new only, (\d+) by neither"
                     r"(?: each side priced for its own choice: (\d+) tasks? a side pulled instead of "
                     r"the kernel's (?:is|are) priced with it, from the pass to (?:its|their) own next "
                     r"decision \(cost\.parts\))?"
                     r"(?: the largest single decision, seq (\d+), makes ([-+]\d+\.\d) of it "
                     r"\((-?\d+)%\))?$", c)
        check("cost line parses", m is not None, c)
        if m:
            check("delta weighted = totals.delta.weighted", m.group(1) == one(tot["delta"]["weighted"]))
            check("delta remote = totals.delta.remote_accesses",
                  m.group(2) == one(tot["delta"]["remote_accesses"]))
            check("paired decisions = totals.paired.decisions", int(m.group(3)) == p["decisions"])
            check("of decisions = totals.decisions", int(m.group(4)) == tot["decisions"])
            check("old = totals.paired.old.weighted", m.group(5) == "%.1f" % p["old"]["weighted"])
            check("new = totals.paired.new.weighted", m.group(6) == "%.1f" % p["new"]["weighted"])
            lo = p["left_out"]
            check("left out = totals.paired.left_out",
                  [int(m.group(i)) for i in (7, 8, 9)] == [lo["old_only"], lo["new_only"], lo["neither"]])
            other = (cost.get("fault_model") or {}).get("other_tasks_priced", 0)
            check("tasks a side pulled instead = fault_model.other_tasks_priced",
                  int(m.group(10) or 0) == other, "%r != %r" % (m.group(10), other))
            big = p.get("largest")
            if big and tot["delta"]["weighted"] != 0:
                check("largest single decision = totals.paired.largest",
                      m.group(11) is not None and int(m.group(11)) == big["seq"] and
                      m.group(12) == one(big["weighted"]) and
                      int(m.group(13)) == round(100.0 * big["weighted"] / tot["delta"]["weighted"]),
                      "%r vs %r" % (m.groups()[10:], big))
            else:
                check("no largest single decision said", m.group(11) is None, c)
    elif tot:
        m = re.match(r"^unknown: no decision priced by both sides \(of (\d+) decisions: (.*)\)$", c)
        check("cost line says unknown", m is not None, c)
        if m:
            check("of decisions = totals.decisions", int(m.group(1)) == tot["decisions"])
            got = {k: int(n) for k, n in (x.rsplit(" ", 1) for x in m.group(2).split(", "))}
            check("unknown costs = cost.unknown", got == cost["unknown"], "%r" % got)

    f = head.get("fidelity", "")
    if s["fidelity"]:
        m = re.match(r"^the kernel model's reproduced/judged/decisions \(one-sided, see below\): (.*)$", f)
        check("fidelity line parses", m is not None, f)
        if m:
            got = {}
            for item in m.group(1).split(", "):
                k, v = item.split(" ")
                got[k] = [int(x) for x in v.split("/")]
            want = {k: [o["reproduced"], o["judged"], o["decisions"]] for k, o in s["fidelity"].items()}
            check("fidelity = summary.fidelity reproduced/judged/decisions", got == want,
                  "%r != %r" % (got, want))
    else:
        check("no fidelity says so", f.startswith("none"), f)

    c = head.get("choices", "")
    if have_choices:
        m = re.match(r"^the kernel model chose what the kernel did \(same/decisions\): (.*); (\d+) "
                     r"load-balance decision points, candidates rebuilt from the model for (\d+), "
                     r"the kernel's own \(probes\) for (\d+)$", c)
        check("choices line parses", m is not None, c)
        if m:
            got = {}
            if m.group(1) != "none":
                for item in re.findall(r"(\S+) (\d+)/(\d+)(?: \((\d+) unknown\))?", m.group(1)):
                    got[item[0]] = [int(item[1]), int(item[2]), int(item[3] or 0)]
            want = {k: [o["same"], o["decisions"], o["unknown"]] for k, o in s["choice_fidelity"].items()}
            check("choices = summary.choice_fidelity", got == want, "%r != %r" % (got, want))
            ca = s["candidates"]
            check("decision points = summary.candidates",
                  [int(x) for x in m.groups()[1:]] == [ca["points"], ca["reconstructed"], ca["kernel_order"]])

    t = head.get("trust", "")
    m = re.match(r"^(\d+) verdicts unknown(?: \(missing: (.*)\))?; (\d+) decisions in lost-event windows "
                 r"\((\d+) events lost\); (\d+) on CPUs not seen at the time; (\d+) damage warnings$", t)
    check("trust line parses", m is not None, t)
    if m:
        check("verdicts unknown = summary.unknown", int(m.group(1)) == s["unknown"])
        got = {k: int(n) for k, n in (x.rsplit(" ", 1) for x in (m.group(2) or "").split(", ") if x)}
        check("missing inputs = summary.unknown_inputs", got == s["unknown_inputs"], "%r" % got)
        check("lost-event windows = summary.lost_window", int(m.group(3)) == s["lost_window"])
        check("events lost = trace.lost_events", int(m.group(4)) == tr["lost_events"])
        check("on unseen CPUs = summary.cpu_unseen", int(m.group(5)) == s["cpu_unseen"])
        check("damage warnings = trace.damage_warnings", int(m.group(6)) == tr["damage_warnings"])

    for name, lines in (("text", text), ("-v", verbose)):
        wide = [x for x in lines if len(x) > 100]
        check(name + ": every line within 100 columns", not wide, wide[0] if wide else "")
        kern = [x for x in lines if re.match(r"^\s*kernel:", x)]
        check(name + ": one 'kernel:' line", len(kern) == 1, repr(kern))

    faults = bool(cost) and cost["calibration"]["fault_events"] > 0
    has = lambda lines, start: any(x.startswith(start) for x in lines)
    if cost and not faults:
        check("no fault events: cost and calibration left out",
              not has(text, "remote-access cost") and not has(text, "calibration ("))
        check("no fault events: a line says so", has(text, "no NUMA fault events: "))
    if not s["disagreements"]:
        check("no disagreements: reasons left out, a line says so",
              not has(text, "disagreements by reason") and has(text, "no disagreements: "))
    if cost:
        check("-v: cost, matrices and calibration",
              has(verbose, "remote-access cost") and has(verbose, "node x node") and
              has(verbose, "calibration ("))
    check("-v: assumptions", has(verbose, "assumes:"))
    check("-v: every class in the table",
          all(has(verbose, "%-11s " % k) for k in s["classes"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
