#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""doc-example.py DOC COMMAND OUTPUT - a doc's example output is the real one

DOC shows COMMAND as an indented "    $ COMMAND" line followed by its
output, indented by four spaces, or as a line of its own in a fenced block
followed by a fenced block of its output; a line "..." (after the indent)
stands for lines left out.  Each stretch between the "..." lines must appear in OUTPUT (what
the command printed) as consecutive lines, in order.  Prints one "ok - " or
"not ok - " line per stretch; exits 1 on any miss, 2 on bad arguments.
"""
import sys


def fenced(lines, command):
    """the fenced block after the one that holds @command alone on a line"""
    if command not in lines:
        return None
    i = lines.index(command)
    while i < len(lines) and not lines[i].startswith("```"):
        i += 1
    i += 1
    while i < len(lines) and not lines[i].startswith("```"):
        i += 1
    block = []
    for line in lines[i + 1:]:
        if line.startswith("```"):
            return block
        block.append(line)
    return None


def example(doc, command):
    lines = open(doc, encoding="utf-8").read().split("\n")
    head = "    $ " + command
    if head in lines:
        block = []
        for line in lines[lines.index(head) + 1:]:
            if line and not line.startswith("    "):
                break
            block.append(line[4:])
    else:
        block = fenced(lines, command)
        if block is None:
            return None
    while block and not block[-1].strip():
        block.pop()
    chunks, cur = [], []
    for line in block:
        if line.strip() == "...":
            chunks.append(cur)
            cur = []
        else:
            cur.append(line.rstrip())
    chunks.append(cur)
    return [c for c in chunks if c]


def main():
    if len(sys.argv) != 4:
        print("usage: doc-example.py DOC COMMAND OUTPUT", file=sys.stderr)
        return 2
    doc, command, path = sys.argv[1:]
    chunks = example(doc, command)
    if chunks is None:
        print("not ok - %s: no example of '%s'" % (doc, command))
        return 1
    out = [l.rstrip() for l in open(path, encoding="utf-8").read().split("\n")]
    at, bad = 0, 0
    for n, chunk in enumerate(chunks, 1):
        found = -1
        for i in range(at, len(out) - len(chunk) + 1):
            if out[i:i + len(chunk)] == chunk:
                found = i
                break
        if found < 0:
            bad += 1
            print("not ok - %s: '%s' stretch %d (from '%s') is not in the output"
                  % (doc, command, n, chunk[0]))
        else:
            at = found + len(chunk)
            print("ok - %s: '%s' stretch %d of %d lines is the real output"
                  % (doc, command, n, len(chunk)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
