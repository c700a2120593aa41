#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Write seed inputs for fuzz-plugin-ops (layout in fuzz-plugin-ops.c): the
# documented example plugin's table, a built-in-like table, and tables that
# each fail one check, so every branch of replay_ops_check() has a seed.
import os
import struct
import sys

ABI = (1 << 16) | 0
OPS_SIZE = 88          # sizeof(struct sr_policy_ops) on x86-64
ALL = (1 << 9) - 1     # SR_CLASS_ALL (9 classes)


def s(text):
    if text is None:
        return b"\xff"
    b = text.encode()
    return bytes([len(b)]) + b


def table(abi=ABI, size=OPS_SIZE, classes=0x40, flags=0x0f, name="lb-idle-dst-wins",
          params=(("hot_ns", 2, 500000, 0, 1000000000), ("idle_wins", 1, 1, 0, 1)),
          reasons=((0x4000, "idle-dst"),), verdict=(1, 1, (3,)), assigns=(b"hot_ns=1000",)):
    out = struct.pack("<III", abi, size, classes) + bytes([flags]) + s(name)
    out += bytes([len(params)])
    for pname, ptype, pdef, pmin, pmax in params:
        out += s(pname) + struct.pack("<Iqqq", ptype, pdef, pmin, pmax)
    out += bytes([len(reasons)])
    for code, rname in reasons:
        out += struct.pack("<I", code) + s(rname)
    kind, nr, codes = verdict
    codes = list(codes) + [0] * (8 - len(codes))
    out += struct.pack("<iI", kind, nr) + struct.pack("<8H", *codes)
    out += b"\0".join(assigns)
    return out


seeds = {
    "example": table(),
    "no-params": table(flags=0x01, params=(), reasons=(), assigns=()),
    "bad-abi": table(abi=2 << 16),
    "small-size": table(size=16),
    "bad-name": table(name="Bad Name"),
    "null-name": table(name=None),
    "no-evaluate": table(flags=0x0e),
    "bad-classes": table(classes=ALL + 1),
    "dup-param": table(params=(("a", 2, 0, 0, 1), ("a", 2, 0, 0, 1))),
    "bad-default": table(params=(("a", 2, 5, 0, 1),)),
    "bad-bool": table(params=(("b", 1, 2, 0, 1),)),
    "bad-type": table(params=(("c", 7, 0, 0, 0),)),
    "bad-verdict": table(verdict=(9, 9, (1, 2, 3, 4, 5, 6, 7, 8))),
    "plugin-reason": table(verdict=(2, 2, (0x4000, 0x1003))),
    "assigns": table(assigns=(b"idle_wins=off", b"hot_ns=-1", b"=", b"nope=1", b"hot_ns")),
}
os.makedirs(sys.argv[1], exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(sys.argv[1], "seed-" + name), "wb") as f:
        f.write(data)
