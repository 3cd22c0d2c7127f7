#!/usr/bin/env python3
"""Case list of run11/call2 (helper tscat5, issue 10) for fetch_probe.cu (unchanged): a BLIND test
of the pair-class rule (analyse_run11.py), predicted and committed before the device call. Random
cases from a fixed seed; element e of lane l means byte address 4*e (a line is 32 elements).
Families (each lane of a group active with probability 0.5, 0.75, 0.9 or 1; at least 2 lanes of
each active group):
  r1_N  120: one 8-lane group (0-3 at random); lines from a pool of 2-5 lines (half of the pools
        within 16 lines, so sets repeat), any word 0-31 of the line, or words from a small set
        (one of {0,1}, {0,4}, {0,16}, {0,2,8,10}, {3,19}), so elements repeat.
  r2_N   60: two random groups, one pool for both.
  r4_N   60: all four groups, one pool for all.
  x_N    60: sharing across groups (run5's fourR_0_1_16_17 takes one wavefront less than the sum
        over its groups): group G1 holds two lines of one set (two tag passes), group G2 a
        conflicting pair (a split lane), at random lanes, groups, lines and words; x_0 repeats
        fourR_0_1_16_17 itself.
Usage: python3 gen_run11b.py [CASES]  (prints the count on stderr)
"""
import random, sys
SEED = 20261204
NLINES = 1 << 17
rng = random.Random(SEED)
cases = []

def lanes_of(group):
    while True:
        p = rng.choice((0.5, 0.75, 0.9, 1.0))
        ls = [8 * group + i for i in range(8) if rng.random() < p]
        if len(ls) >= 2:
            return ls

def pool():
    n = rng.randint(2, 5)
    if rng.random() < 0.5:
        base = rng.randrange(0, NLINES - 64)
        return [base + rng.randrange(0, 16) for _ in range(n)]
    return [rng.randrange(0, NLINES) for _ in range(n)]

def words():
    if rng.random() < 0.5:
        return tuple(range(32))
    return rng.choice(((0, 1), (0, 4), (0, 16), (0, 2, 8, 10), (3, 19)))

def make(name, groups):
    row = [-1] * 32
    lines, ws = pool(), words()
    for g in groups:
        for l in lanes_of(g):
            row[l] = rng.choice(lines) * 32 + rng.choice(ws)
    cases.append((name, row))

for i in range(120):
    make(f'r1_{i}', [rng.randrange(4)])
for i in range(60):
    make(f'r2_{i}', sorted(rng.sample(range(4), 2)))
for i in range(60):
    make(f'r4_{i}', [0, 1, 2, 3])

row = [-1] * 32
row[0], row[1], row[16], row[17] = 373 * 32, 361 * 32 + 16, 2 * 32, 317 * 32 + 16
cases.append(('x_0', row))
for i in range(1, 60):
    row = [-1] * 32
    g1, g2 = rng.sample(range(4), 2)
    la, lb = rng.sample(range(8), 2)
    x = rng.randrange(0, NLINES - 8)
    row[8 * g1 + la] = x * 32 + rng.randrange(32)
    row[8 * g1 + lb] = (x + 4 * rng.randint(1, 8)) * 32 + rng.randrange(32)   # same set
    k = rng.randrange(4)
    y = rng.randrange(NLINES)
    w = rng.randrange(32)
    row[8 * g2 + 2 * k] = y * 32 + w
    z = y if rng.random() < 0.3 else rng.randrange(NLINES)
    w2 = (w ^ rng.choice((4, 16, 20))) if z == y else (w ^ rng.choice((0, 4, 16, 20)))
    row[8 * g2 + 2 * k + 1] = z * 32 + w2                                       # bits 3, 5 equal
    if rng.random() < 0.5:   # one more lane somewhere
        g = rng.randrange(4)
        l = rng.randrange(8)
        if row[8 * g + l] < 0:
            row[8 * g + l] = rng.randrange(NLINES) * 32 + rng.randrange(32)
    cases.append((f'x_{i}', row))

out = sys.stdout if len(sys.argv) < 2 else open(sys.argv[1], 'w')
for name, row in cases:
    print(name, *row, file=out)
print(len(cases), file=sys.stderr)
