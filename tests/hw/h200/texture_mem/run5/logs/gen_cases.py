#!/usr/bin/env python3
"""Writes cases.txt for fetch_probe (texw5). Units are 64-byte units (16 floats)."""
import random
R8 = [l.split()[4:] for l in open('/work/wt/texw5/tests/hw/h200/texture_mem/run4/launches.txt') if ' rand8_64k_' in l]
R8 = [[int(v) // 16 for v in s] for s in R8]
cases = []
def put(name, lanes):  # lanes: dict lane -> element
    row = [-1] * 32
    for l, e in lanes.items(): row[l] = e
    cases.append((name, row))
def units(name, us, lanes=None):
    lanes = lanes or list(range(len(us)))
    put(name, {l: u * 16 for l, u in zip(lanes, us)})
# 1. n units 1..8 under several strides (units)
for stride, tag in [(1, 's64B'), (2, 's128B'), (4, 's256B'), (16, 's1K'), (32, 's2K'), (128, 's8K'), (2048, 's128K'), (3, 's192B'), (6, 's384B'), (18, 's1152B')]:
    for n in range(1, 9):
        units(f'n{n}_{tag}', [i * stride for i in range(n)])
# 2. triples and quads over bit fields: unit bit0 (addr bit 6), bits 1-3 (set, addr 7-9), bits 4-6 (addr 10-12), bits 7-9 (addr 13-15)
F = {'b6': 1, 'set': 2, 'b10': 16, 'b13': 128, 'b16': 1024}
import itertools
for k in (3, 4):
    for combo in itertools.product(['same', 'b6', 'set', 'b10', 'b13', 'b16'], repeat=2):
        # unit i = i*F[f1] + i*F[f2] style: vary the chosen fields across the k units
        us = []
        for i in range(k):
            u = 0
            for f in combo:
                if f != 'same': u += i * F[f] * (1 if f != 'b6' else 1)
            us.append(u % (1 << 18))
        if len(set(us)) < k: continue
        units(f'k{k}_{combo[0]}_{combo[1]}', us)
# 3. sectors of one 128-byte line and duplicates
for name, els in [('sec2_0_32', [0, 8]), ('sec2_0_64', [0, 16]), ('sec2_0_96', [0, 24]), ('sec4_line', [0, 8, 16, 24]),
                  ('sec8_2lines', [0, 8, 16, 24, 32, 40, 48, 56]), ('dup4', [0, 0, 0, 0]), ('dup2x2', [0, 0, 512, 512])]:
    put(name, dict(enumerate(els)))
# 4. lane placement of pairs, triples and fours
for lanes in [(0, 1), (0, 4), (0, 8), (0, 16), (0, 31), (3, 4), (7, 8), (15, 16)]:
    units(f'pairlanes_{lanes[0]}_{lanes[1]}', [0, 2], list(lanes))
for lanes in [(0, 1, 2, 3), (0, 4, 8, 12), (0, 8, 16, 24), (0, 1, 4, 5), (0, 1, 16, 17), (28, 29, 30, 31)]:
    units('four_' + '_'.join(map(str, lanes)), [0, 2, 4, 6], list(lanes))
    units('fourR_' + '_'.join(map(str, lanes)), R8[0][:4], list(lanes))
# 5. rand8_64k sets: exact, prefixes, leave-one-out, reversed, rotated, spread over quads
for s, us in enumerate(R8):
    units(f'r8_{s}_all', us)
    for k in range(2, 8): units(f'r8_{s}_pre{k}', us[:k])
    for j in range(8): units(f'r8_{s}_drop{j}', us[:j] + us[j + 1:])
    units(f'r8_{s}_rev', us[::-1])
    units(f'r8_{s}_rot4', us[4:] + us[:4])
    units(f'r8_{s}_spread4', us, [0, 4, 8, 12, 16, 20, 24, 28])
    units(f'r8_{s}_lanes16', us, list(range(16, 24)))
# 6. rand8_64k_5 and _0: all triples
for s in (5,):
    for c in itertools.combinations(range(8), 3):
        units(f'r8_{s}_tri' + ''.join(map(str, c)), [R8[s][i] for i in c])
# 7. random sets of n units within 64 KiB and 16 MiB, and 16/32 units
rng = random.Random(5)
for span, tag in [(1024, '64K'), (1 << 18, '16M')]:
    for n in (3, 4, 5, 6, 8, 12, 16, 32):
        for r in range(6):
            units(f'rnd{n}_{tag}_{r}', rng.sample(range(span), n))
with open('cases.txt', 'w') as f:
    for name, row in cases: f.write(name + ' ' + ' '.join(map(str, row)) + '\n')
print(len(cases))
