#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""List the compressed chunks of a trace.dat version 7 file (little-endian,
uncompressed options sections, as trace-cmd writes them): one line per chunk,
"cpu index count header_offset zsize usize", from the BUFFER options' CPU
tables.  test-damage.sh uses it to damage one chunk of a bundled fixture."""
import struct
import sys


def cstr(d, p):
    e = d.index(b'\0', p)
    return d[p:e], e + 1


def main(path):
    d = open(path, 'rb').read()
    _, p = cstr(d, 10)          # version
    p += 2 + 4                  # endian, long size, page size
    _, p = cstr(d, p)           # compression
    _, p = cstr(d, p)           # its version
    p += 8                      # first options section
    while p + 16 <= len(d):
        sid, flags, _, size = struct.unpack_from('<HHIQ', d, p)
        if sid == 0 and not flags:
            q, end = p + 16, p + 16 + size
            while q + 6 <= end:
                oid, olen = struct.unpack_from('<HI', d, q)
                q += 6
                if oid == 3:
                    pl = d[q:q + olen]
                    _, r = cstr(pl, 8)
                    _, r = cstr(pl, r)
                    _, ncpu = struct.unpack_from('<II', pl, r)
                    r += 8
                    for _ in range(ncpu):
                        cpu, off, _ = struct.unpack_from('<IQQ', pl, r)
                        r += 20
                        count = struct.unpack_from('<I', d, off)[0]
                        at = off + 4
                        for k in range(count):
                            zs, us = struct.unpack_from('<II', d, at)
                            print(cpu, k, count, at, zs, us)
                            at += 8 + zs
                q += olen
        p += 16 + size


if __name__ == '__main__':
    main(sys.argv[1])
