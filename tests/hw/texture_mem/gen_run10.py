#!/usr/bin/env python3
"""Case list of run10 (helper tscat3, issue 10) for fetch_probe.cu: a BLIND test of tscat2's split
rule (analyse_run8.py, passes(split)). Random cases from a fixed seed, generated and predicted
(predict_run10.py) before the device call. Element index e of lane l means byte address 4*e; a
128-byte line is 32 elements, a 32-byte sector 8, a 4-byte word 1.
Families (each lane of a group active with one probability of 0.5, 0.75, 0.9, 1; at least 2 lanes
of each group active):
  g1w0_N  160 launches: one 8-lane group (group 0-3 at random), every lane reads word 0 of a random
          sector of a line drawn from a small random pool (2-4 lines, so lines repeat and sets
          collide or not); sectors from one of {0-3}, {0,2} (twice as likely), {1,3}, {0,1}.
  g1wr_N  140 launches: as g1w0 but each lane reads a random word of its sector, from one of
          {0,1}, {0,2}, {0,4}, {1,3}, {0-7}.
  g2w0_N   50 launches: two 8-lane groups (a random pair of the four), word 0, as g1w0.
  g2wr_N   50 launches: two 8-lane groups, random words.
Usage: python3 gen_run10.py [CASES]  (prints the count on stderr)
"""
import random, sys
SEED = 20261202
NLINES = 1 << 17          # fetch_probe.cu holds 4 Mi floats = 16 MiB = 2^17 lines of 128 B
rng = random.Random(SEED)
cases = []

def lane_set(group, rng):
    while True:
        p = rng.choice((0.5, 0.75, 0.9, 1.0))
        lanes = [8 * group + i for i in range(8) if rng.random() < p]
        if len(lanes) >= 2:
            return lanes

def pool(rng):
    n = rng.randint(2, 4)
    if rng.random() < 0.5:   # lines near each other: sets 0-3 in turn, and equal sets 512 B apart
        base = rng.randrange(0, NLINES - 64)
        return [base + rng.randrange(0, 16) for _ in range(n)]
    return [rng.randrange(0, NLINES) for _ in range(n)]

def make(name, groups, random_word):
    row = [-1] * 32
    lines = pool(rng)
    sectors = rng.choice(((0, 1, 2, 3), (0, 2), (0, 2), (1, 3), (0, 1)))
    words = rng.choice(((0, 1), (0, 2), (0, 4), (1, 3), tuple(range(8)))) if random_word else (0,)
    for g in groups:
        for l in lane_set(g, rng):
            word = rng.choice(words)
            row[l] = rng.choice(lines) * 32 + rng.choice(sectors) * 8 + word
    cases.append((name, row))

for i in range(160):
    make(f'g1w0_{i}', [rng.randrange(4)], False)
for i in range(140):
    make(f'g1wr_{i}', [rng.randrange(4)], True)
for i in range(50):
    make(f'g2w0_{i}', sorted(rng.sample(range(4), 2)), False)
for i in range(50):
    make(f'g2wr_{i}', sorted(rng.sample(range(4), 2)), True)

out = sys.stdout if len(sys.argv) < 2 else open(sys.argv[1], 'w')
for name, row in cases:
    print(name, *row, file=out)
print(len(cases), file=sys.stderr)
