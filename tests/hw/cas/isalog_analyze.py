#!/usr/bin/env python3
"""scas2 (issue 9): the serving order of isa_atom_log's shared 64-bit atomicAdd.

Run in the unpacked isalog/ folder (tests/hw/h200/cas/isalog/isalog.tar.gz):
    python3 isalog_analyze.py            # writes what analysis.txt holds
Each lane adds x * 3 > 0 to a word that starts at 0xfffffffffffffff0, so sorting a block's lanes
by (old value + 0x10) mod 2^64 gives the order in which they were served."""
import csv
import struct


def order(path):
    v = struct.unpack('<512Q', open(path, 'rb').read())
    res = []
    for b in range(4):
        lanes = sorted(((v[b * 128 + t] + 0x10) % 2**64, t) for t in range(128))
        res.append([t for _, t in lanes])
    return res


def check(o):
    w = [t // 32 for t in o]
    quads = all(sorted(w[i:i + 4]) == [0, 1, 2, 3] for i in range(0, 128, 4))
    last = sum(max(i for i in range(128) if w[i] == k) + 1 for k in range(4))
    return quads, last


print("isa_atom_log serving order per block (warp of each success, by old value + 0x10 mod 2^64),")
print("whether every aligned group of 4 successes has one lane of each warp, and the sum over warps of")
print("the position of the warp's last success (506 = the turn model's rounds)")
for r in ['prof1', 'prof2', 'prof3', 'run1', 'run2', 'run3']:
    for b, o in enumerate(order(r + '/rank.bin')):
        asc = all(a < c for i, a in enumerate(o) for c in o[i + 1:] if a // 32 == c // 32)
        q, last = check(o)
        print(r, 'block', b, ''.join(str(t // 32) for t in o), 'quads' if q else 'no-quads', last,
              'lanes ascending' if asc else 'lanes NOT ascending')
print()
print("Source page, ATOMS.CAST.SPIN.64: executed, thread executed, L1 wavefronts shared")
for p in (1, 2, 3):
    for l, k in ((1, 'isa_atom'), (3, 'isa_atom_log')):
        for row in csv.reader(open(f'src{p}_{l}.csv')):
            if len(row) > 18 and 'CAST.SPIN' in row[1]:
                print(f'profile {p} {k}: {row[5]} {row[6]} {row[18]}')
