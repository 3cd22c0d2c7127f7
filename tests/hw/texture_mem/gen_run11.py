#!/usr/bin/env python3
"""Case list of run11 (helper tscat5, issue 10) for fetch_probe.cu (run5's kernel, unchanged):
systematic families for the data-stage wavefront rule of scattered tex1Dfetch lanes, in the
regimes where run10 found the split rule's misses (repeated elements, words other than 0,
several 8-lane groups, lane order). Element index e of lane l means byte address 4*e; a 128-byte
line is 32 elements, so e = line*32 + w with w the 4-byte word of the line (w>>1: its 8-byte
position, w>>3: its sector). Lines: B = 0x2000 (L1 set 0, address bits 7-8), D = B+1 (set 1),
E = B+2 (set 2), S = B+4 (set 0, same set as B).
Families (lanes not named are inactive):
  pr_<lanes>_<LL>_<wa>_<wb>   two lanes: lane la reads word wa of line B, lane lb word wb of the
        second line (LL = BD: line D; BB: line B itself); wa in {0,5}, wb all 32 words; lanes
        (0,1) (a pair) and (0,2) (not a pair) for BD and BB, and (1,2) for BD with wa=0.
  t3_<lanes>_<xyz>  three lanes, each reading one of the alphabet
        a = B w0, b = B w1 (same 8-byte position as a, other word), c = D w0 (other line, same
        position as a), d = D w1, e = D w16 (other line, sector 2, word 0 of the sector);
        all 125 words over {a..e} for lanes (0,1,2), (0,2,4) and (1,2,3). Repeated letters are
        repeated elements.
  q4_<xyzw>  lanes (0,1,2,3) each one of {a, b, c, d}: all 256.
  gg_<A>_<V>_<pos>  two 8-lane groups: group A (lanes 0-7) holds one of 6 fixed patterns; the
        second group (lanes 8-15: pos h, or 24-31: pos z) holds variant V: none (A alone, only
        pos n), same (A's elements), samelines (A's lines, other words), disjoint (A's pattern
        moved 64 lines up: the same sets), oneshared (one lane on A's first line, the others on
        a line of another set far away), one_in (a single lane on A's first element), one_out
        (a single lane on a far line).
  perm_<k>_<p>  lane order: the element sets of 12 of run10's single-group launches the split
        rule missed, moved to lanes 0-7 and assigned to the lanes in 8 orders p (id, rev, rot1,
        rot2, rot4, swap (2k<->2k+1), evod (evens first, then odds), rnd (seeded shuffle)).
  ctl_<run10 name>  10 run10 launches repeated unchanged (reproducibility).
Usage: python3 gen_run11.py [CASES]  (prints the count on stderr)
"""
import itertools, os, random, sys
SEED = 20261203
rng = random.Random(SEED)
B = 0x2000
D, E, S = B + 1, B + 2, B + 4
cases = []

def add(name, lanes):
    row = [-1] * 32
    for l, e in lanes.items():
        assert 0 <= l < 32 and 0 <= e < (4 << 20)
        row[l] = e
    cases.append((name, row))

el = lambda line, w: line * 32 + w

# pairs
for (la, lb), ll, was in (((0, 1), 'BD', (0, 5)), ((0, 2), 'BD', (0, 5)), ((0, 1), 'BB', (0, 5)),
                          ((0, 2), 'BB', (0, 5)), ((1, 2), 'BD', (0,))):
    second = D if ll == 'BD' else B
    for wa in was:
        for wb in range(32):
            if ll == 'BB' and wa == wb:
                continue
            add(f'pr_{la}{lb}_{ll}_{wa}_{wb}', {la: el(B, wa), lb: el(second, wb)})

ALPHA = {'a': el(B, 0), 'b': el(B, 1), 'c': el(D, 0), 'd': el(D, 1), 'e': el(D, 16)}
for lanes in ((0, 1, 2), (0, 2, 4), (1, 2, 3)):
    for word in itertools.product('abcde', repeat=3):
        add(f't3_{"".join(map(str, lanes))}_{"".join(word)}',
            {l: ALPHA[x] for l, x in zip(lanes, word)})
for word in itertools.product('abcd', repeat=4):
    add(f'q4_{"".join(word)}', {l: ALPHA[x] for l, x in enumerate(word)})

# two groups: group A patterns as (line offset from B, word) per lane 0-7 (None: inactive)
PATS = {
    'p1': [(0, 0), (1, 0), None, None, None, None, None, None],          # two lines, same position
    'p2': [(0, 0), (0, 0), (1, 8), None, None, None, None, None],        # repeat + other line
    'p3': [(0, 0), (1, 1), (0, 2), (1, 3), (0, 4), (1, 5), (0, 6), (1, 7)],
    'p4': [(0, 0), (0, 16), (1, 0), (1, 16), (2, 0), (2, 16), (3, 0), (3, 16)],
    'p5': [(0, 3), (1, 3), (0, 3), (2, 5), (1, 12), (0, 3), (2, 5), (1, 0)],
    'p6': [(0, 0), (4, 0), (1, 0), (5, 0), None, None, None, None],      # two lines per set
}
FAR = 0x9000  # far lines for the second group
for pn, pat in PATS.items():
    a = {l: el(B + p[0], p[1]) for l, p in enumerate(pat) if p}
    add(f'gg_{pn}_none_n', a)
    for pos, base in (('h', 8), ('z', 24)):
        vs = {
            'same': {base + l: e for l, e in a.items()},
            'samelines': {base + l: el(B + p[0], (p[1] + 9) % 32) for l, p in enumerate(pat) if p},
            'disjoint': {base + l: el(B + 64 + p[0], p[1]) for l, p in enumerate(pat) if p},
            'oneshared': {base + l: (el(B + pat[0][0], pat[0][1]) if l == 0 else el(FAR + 1, 2 * l))
                          for l, p in enumerate(pat) if p},
            'one_in': {base: a[0]},
            'one_out': {base: el(FAR, 0)},
        }
        for vn, v in vs.items():
            add(f'gg_{pn}_{vn}_{pos}', {**a, **v})

# lane order: sets of run10 single-group misses of the split rule
MISS = ['g1w0_4', 'g1w0_37', 'g1w0_44', 'g1w0_59', 'g1w0_103', 'g1wr_13', 'g1wr_19', 'g1wr_37',
        'g1wr_40', 'g1wr_87', 'g1wr_92', 'g1wr_133']
CTL = ['g1w0_0', 'g1w0_2', 'g1w0_4', 'g1wr_19', 'g1wr_37', 'g1wr_92', 'g2w0_3', 'g2w0_8',
       'g2wr_0', 'g2wr_44']
run10 = {}
here = os.path.dirname(os.path.abspath(__file__))
R10 = [os.path.join(here, 'run10_cases.txt'),   # next to the script on the device
       os.path.join(here, '..', 'h200', 'texture_mem', 'run10', 'cases.txt')]
for line in open(next(f for f in R10 if os.path.exists(f))):
    p = line.split()
    run10[p[0]] = [int(x) for x in p[1:33]]
for k, name in enumerate(MISS):
    row = run10[name]
    g = [l // 8 for l in range(32) if row[l] >= 0][0]
    els = [row[8 * g + i] for i in range(8)]   # -1 kept: the set of slots, inactive ones too
    orders = {
        'id': list(range(8)), 'rev': list(range(7, -1, -1)),
        'rot1': [(i + 1) % 8 for i in range(8)], 'rot2': [(i + 2) % 8 for i in range(8)],
        'rot4': [(i + 4) % 8 for i in range(8)], 'swap': [i ^ 1 for i in range(8)],
        'evod': [0, 2, 4, 6, 1, 3, 5, 7], 'rnd': rng.sample(range(8), 8),
    }
    for on, o in orders.items():
        add(f'perm_{k}_{on}', {i: els[o[i]] for i in range(8) if els[o[i]] >= 0})
for name in CTL:
    add(f'ctl_{name}', {l: e for l, e in enumerate(run10[name]) if e >= 0})

names = [n for n, _ in cases]
assert len(names) == len(set(names)), 'duplicate case names'
out = sys.stdout if len(sys.argv) < 2 else open(sys.argv[1], 'w')
for name, row in cases:
    print(name, *row, file=out)
print(len(cases), file=sys.stderr)
