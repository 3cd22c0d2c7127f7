#!/usr/bin/env python3
"""Writes the case list of run8 (helper tscat2, issue 10) for fetch_probe.cu: "NAME i0 .. i31",
element indices of a 16 MiB float texture (-1: the lane returns at once).

A lane reading sector s of 128-byte line L reads element L*32 + s*8 (+ a lane-dependent offset
inside the sector, 0..7, so lanes of one sector read distinct floats).  Lines: A = 0x10 (set 0),
B = 0x25 (set 1), C = 0x4a (set 2), D = 0x7f (set 3) (set = line % 4, address bits 7-8).
Families:
  p2_LA_LB_SA_SB_{d,s}: two lanes LA < LB (0..7), sectors SA, SB, on lines A and B (d) or both on
      line A (s, SA != SB only);  28 lane pairs x (16 + 12) = 784 launches.
  p2h_LA_LB_SA_SB_d: the same two-line pair with lanes LA+8, LB+8 (second 8-lane group) for
      LA=0 only, SA=0, to check that only the position in the group matters (7 x 4 = 28).
  t3_LANES_S0S1S2: three lanes (0,1,2) or (0,2,4) on lines A, B, C with sectors in {0,1,2}^3
      (2 x 27 = 54).
  x2_LA_LB: lanes LA (group 0) and LB (group 1, LB >= 8) reading lines A s0 and B s2 (16).
"""
import itertools, sys
A, B, C, D = 0x10, 0x25, 0x4a, 0x7f
cases = []
def el(line, s, lane):
    return line * 32 + s * 8 + (lane % 8)
def put(name, lanes):
    row = [-1] * 32
    for l, e in lanes.items():
        row[l] = e
    cases.append((name, row))
for la, lb in itertools.combinations(range(8), 2):
    for sa, sb in itertools.product(range(4), repeat=2):
        put(f'p2_{la}_{lb}_{sa}_{sb}_d', {la: el(A, sa, la), lb: el(B, sb, lb)})
        if sa != sb:
            put(f'p2_{la}_{lb}_{sa}_{sb}_s', {la: el(A, sa, la), lb: el(A, sb, lb)})
for lb in range(1, 8):
    for sa, sb in [(0, 0), (0, 1), (0, 2), (0, 3)]:
        put(f'p2h_{8}_{lb+8}_{sa}_{sb}_d', {8: el(A, sa, 8), lb + 8: el(B, sb, lb + 8)})
for lanes in [(0, 1, 2), (0, 2, 4)]:
    for ss in itertools.product(range(3), repeat=3):
        put('t3_' + ''.join(map(str, lanes)) + '_' + ''.join(map(str, ss)),
            {l: el(line, s, l) for l, line, s in zip(lanes, (A, B, C), ss)})
for la, lb in [(0, 8), (0, 9), (0, 16), (0, 17), (1, 8), (1, 9), (2, 10), (2, 11), (0, 13), (3, 12),
               (5, 30), (4, 28), (6, 31), (7, 15), (1, 24), (2, 26)]:
    put(f'x2_{la}_{lb}', {la: el(A, 0, la), lb: el(B, 2, lb)})
out = sys.stdout if len(sys.argv) < 2 else open(sys.argv[1], 'w')
for name, row in cases:
    print(name, *row, file=out)
print(len(cases), file=sys.stderr)
