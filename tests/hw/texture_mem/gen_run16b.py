#!/usr/bin/env python3
"""A BLIND test of the quad rule (analyse_run16.py, helper tshare, issue 10), for a later device
call (not run by tshare): 300 random single-warp cases for fetch_probe.cu (unchanged), seed
20261217, predictions committed with it (tests/hw/h200/texture_mem/run16/blind/). Each of the 4
8-lane groups is active with probability 0.7 (at least two active); an active group's lanes are
one quad (2-4 lanes, probability 0.6), two quads, or any of the 8 (each lane with probability
0.5-1); elements from a pool of 2-4 lines (half the pools within 16 lines, so sets repeat), any
word, or words from a small set (pairs at the conflicting distances 4, 16, 20; or 1, 2, 8).
Usage: python3 gen_run16b.py [CASES]  (prints the count on stderr)
"""
import random, sys
SEED = 20261217
NLINES = 1 << 17
rng = random.Random(SEED)
cases = []

def pool():
    n = rng.randint(2, 4)
    if rng.random() < 0.5:
        base = rng.randrange(0, NLINES - 64)
        return [base + rng.randrange(0, 16) for _ in range(n)]
    return [rng.randrange(0, NLINES) for _ in range(n)]

def words():
    r = rng.random()
    if r < 0.4:
        return tuple(range(32))
    w = rng.randrange(32)
    return rng.choice(((w, w ^ 4), (w, w ^ 16), (w, w ^ 20), (w, w ^ 4, w ^ 16, w ^ 20),
                       (w, w ^ 1), (w, w ^ 2, w ^ 8)))

def lanes_of():
    r = rng.random()
    if r < 0.6:
        q = rng.randrange(2)
        while True:
            ls = [4 * q + i for i in range(4) if rng.random() < 0.7]
            if len(ls) >= 2:
                return ls
    p = rng.choice((0.5, 0.75, 1.0))
    while True:
        ls = [i for i in range(8) if rng.random() < p]
        if len(ls) >= 2 and len({l // 4 for l in ls}) == 2:
            return ls

for i in range(300):
    while True:
        gs = [g for g in range(4) if rng.random() < 0.7]
        if len(gs) >= 2:
            break
    row = [-1] * 32
    lines, ws = pool(), words()
    for g in gs:
        for l in lanes_of():
            row[8 * g + l] = rng.choice(lines) * 32 + rng.choice(ws)
    cases.append((f'b_{i}', row))

out = sys.stdout if len(sys.argv) < 2 else open(sys.argv[1], 'w')
for name, row in cases:
    print(name, *row, file=out)
print(len(cases), file=sys.stderr)
