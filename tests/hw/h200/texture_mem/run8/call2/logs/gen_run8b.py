#!/usr/bin/env python3
"""Case list of run8's second call (helper tscat2, issue 10) for fetch_probe.cu. Every lane reads
word 0 of its sector (as run5's units do), so lanes on different lines with equal sectors share
a 4-byte bank. Lines A = 0x10, B = 0x25, C = 0x4a, D = 0x7f (sets 0-3).
  q3_L0L1L2_S0S1S2: all 56 lane triples of 0..7 (increasing) on lines A, B, C, sectors in {0,2}^3
      (448 launches).
  q4_L0L1L2L3_S: 4 lanes (0,1,2,3), (0,2,4,6), (1,3,5,7), (0,1,4,5) on A, B, C, D, sectors in
      {0,2}^4 (64 launches).
"""
import itertools, sys
LINES = (0x10, 0x25, 0x4a, 0x7f)
cases = []
def put(name, lanes):
    row = [-1] * 32
    for l, e in lanes.items():
        row[l] = e
    cases.append((name, row))
for tri in itertools.combinations(range(8), 3):
    for ss in itertools.product((0, 2), repeat=3):
        put('q3_' + ''.join(map(str, tri)) + '_' + ''.join(map(str, ss)),
            {l: line * 32 + s * 8 for l, line, s in zip(tri, LINES, ss)})
for quad in [(0, 1, 2, 3), (0, 2, 4, 6), (1, 3, 5, 7), (0, 1, 4, 5)]:
    for ss in itertools.product((0, 2), repeat=4):
        put('q4_' + ''.join(map(str, quad)) + '_' + ''.join(map(str, ss)),
            {l: line * 32 + s * 8 for l, line, s in zip(quad, LINES, ss)})
out = sys.stdout if len(sys.argv) < 2 else open(sys.argv[1], 'w')
for name, row in cases:
    print(name, *row, file=out)
print(len(cases), file=sys.stderr)
