#!/usr/bin/env python3
"""Case list of run16 (helper tshare, issue 10) for fetch_probe.cu (unchanged): tex1Dfetch wavefronts
shared across the 8-lane requests of one instruction. Element e of lane l: byte address 4*e, line
e>>5 (128 B), word e&31, L1 set (line & 3). Fixed seed; fresh random lines in every case.
Terms: P = a request with two lanes on two lines of one set (two tag passes); S = a request with a
split pair (lanes 2k, 2k+1 conflicting: address bits 3 and 5 equal, different 8-byte words);
F = a filler request of one lane. The base is run5's fourR_0_1_16_17 shape: P in group 0 (lanes
0, 1), S in group 2 (lanes 16, 17, one line, words w and w^16).
Families, each varying one thing from the base:
  ord_GP_GS[_f]   P in group GP, S in group GS (all 12 orders), _f: fillers in the other groups.
  sd_SAME_D_W     S pair words w, w^D, on one line (SAME=1) or two lines (SAME=0).
  s3_L_T          a third lane L in S's group, T: a = same line, other word; b = other line same
                  set; c = other set; d = same word as lane 2k.
  sk_K[_f]        S pair at lanes (2K, 2K+1) of group 2.
  p_V             P variants: lanes (0,2), (0,7), (3,4), (1,6); 3 passes; 1 pass controls (same
                  line; two sets); an extra lane in P's pass 0; P pass 1 holding 2 lanes.
  m_V             several requests: P+S+S, F+S (no P), S+S (no P), P+P+S, S with two passes
                  after P, P and S in one request plus F, F+S+P, F+F+S+P.
  ctl_X           run11/call2's x_X repeated verbatim (x_0, x_4, x_7, x_20, x_32, x_57 shared
                  there; x_2, x_59 did not).
  rb_N            blind random sparse launches: 2-4 groups of 1-3 lanes, drawn around P/S/F.
Usage: python3 gen_run16.py [CASES]  (prints the count on stderr)
"""
import random, sys
SEED = 20261216
NLINES = 1 << 17
rng = random.Random(SEED)
cases = []

def line(s=None):
    """A fresh random line, in set s if given."""
    x = rng.randrange(8, NLINES - 64)
    return x if s is None else (x & ~3) | s

def el(L, w):
    return L * 32 + w

def put(row, lane, e):
    assert row[lane] < 0, lane
    row[lane] = e

def P(row, g, la=0, lb=1, npass=2):
    x = line()
    put(row, 8 * g + la, el(x, rng.randrange(32)))
    if npass >= 2:
        put(row, 8 * g + lb, el(x + 4 * rng.randint(1, 8), rng.randrange(32)))
    return x

def S(row, g, k=0, same=True, d=16, w=None):
    y = line()
    w = rng.randrange(32) if w is None else w
    z = y if same else line((y + rng.randint(1, 3)) & 3)   # two lines: two sets, one pass
    put(row, 8 * g + 2 * k, el(y, w))
    put(row, 8 * g + 2 * k + 1, el(z, w ^ d))
    return y

def F(row, g, lane=None):
    put(row, 8 * g + (rng.randrange(8) if lane is None else lane), el(line(), rng.randrange(32)))

def add(name, row):
    cases.append((name, row))

def new():
    return [-1] * 32

# ord: P and S in every pair of groups, alone and with fillers in the other two groups.
for gp in range(4):
    for gs in range(4):
        if gp == gs:
            continue
        for f in (0, 1):
            row = new()
            P(row, gp)
            S(row, gs)
            if f:
                for g in range(4):
                    if g not in (gp, gs):
                        F(row, g)
            add(f'ord_{gp}_{gs}' + ('_f' if f else ''), row)
# sd: the S pair's word difference, one line or two, three base words; P in g0, S in g2.
for same in (1, 0):
    for d in ((1, 4, 5, 16, 17, 20, 21) if same else (0, 1, 4, 16, 20)):
        for w in (0, 6, 27):
            row = new()
            P(row, 0)
            S(row, 2, same=bool(same), d=d, w=w)
            add(f'sd_{same}_{d}_{w}', row)
# s3: a third lane in S's group (lanes 16, 17 the pair).
for L in range(2, 8):
    for t in 'abcd':
        row = new()
        P(row, 0)
        w = rng.randrange(32)
        y = S(row, 2, w=w)
        if t == 'a':
            e = el(y, (w ^ rng.choice((2, 8, 10, 3, 9))))
        elif t == 'b':
            e = el(y + 4 * rng.randint(1, 8), rng.randrange(32))
        elif t == 'c':
            e = el((y & ~3) | ((y + rng.randint(1, 3)) & 3), rng.randrange(32))
        else:
            e = el(y, w)
        put(row, 16 + L, e)
        add(f's3_{L}_{t}', row)
# sk: the S pair index.
for k in range(4):
    for f in (0, 1):
        row = new()
        P(row, 0)
        S(row, 2, k=k)
        if f:
            F(row, 1)
        add(f'sk_{k}' + ('_f' if f else ''), row)
# p: P variants (S in group 2, lanes 16, 17).
for name, (la, lb) in (('02', (0, 2)), ('07', (0, 7)), ('34', (3, 4)), ('16', (1, 6))):
    for rep in range(2):
        row = new(); P(row, 0, la, lb); S(row, 2); add(f'p_{name}_{rep}', row)
for rep in range(2):
    row = new(); x = P(row, 0); put(row, 2, el(x + 4 * rng.randint(9, 12), rng.randrange(32)))
    S(row, 2); add(f'p_3pass_{rep}', row)
    row = new(); x = line(); put(row, 0, el(x, 3)); put(row, 1, el(x, 20)); S(row, 2)
    add(f'p_1line_{rep}', row)
    row = new(); x = line(); put(row, 0, el(x, rng.randrange(32))); put(row, 1, el(x ^ 1, rng.randrange(32)))
    S(row, 2); add(f'p_2sets_{rep}', row)
    row = new(); x = P(row, 0); put(row, 3, el(x, rng.randrange(32))); S(row, 2)
    add(f'p_extra0_{rep}', row)
    row = new(); x = P(row, 0, 0, 2); put(row, 3, row[2] ^ 8); S(row, 2)
    add(f'p_two1_{rep}', row)
# m: several requests.
for rep in range(3):
    row = new(); P(row, 0); S(row, 1); S(row, 2); add(f'm_PSS_{rep}', row)
    row = new(); P(row, 0); S(row, 2); S(row, 3); add(f'm_PxSS_{rep}', row)
    row = new(); F(row, 0); S(row, 2); add(f'm_FS_{rep}', row)
    row = new(); S(row, 0); S(row, 2); add(f'm_SS_{rep}', row)
    row = new(); F(row, 0); S(row, 1); S(row, 2); add(f'm_FSS_{rep}', row)
    row = new(); P(row, 0); P(row, 1); S(row, 2); add(f'm_PPS_{rep}', row)
    row = new(); P(row, 0); y = S(row, 2); put(row, 18, el(y + 4 * rng.randint(1, 8), rng.randrange(32)))
    add(f'm_PS2pass_{rep}', row)
    row = new(); P(row, 0); S(row, 0, k=1); F(row, 2); add(f'm_PSin1_F_{rep}', row)
    row = new(); F(row, 0); S(row, 1); P(row, 3); add(f'm_FSP_{rep}', row)
    row = new(); F(row, 0); F(row, 1); S(row, 2); P(row, 3); add(f'm_FFSP_{rep}', row)
    row = new(); S(row, 0); F(row, 1); P(row, 3); add(f'm_SFP_{rep}', row)
    row = new(); P(row, 0); S(row, 1); P(row, 2); add(f'm_PSP_{rep}', row)
# rb: blind random sparse launches.
for i in range(120):
    while True:
        row = new()
        gs = sorted(rng.sample(range(4), rng.randint(2, 4)))
        for g in gs:
            kind = rng.choice('PSFXX')
            if kind == 'P':
                la, lb = rng.sample(range(8), 2)
                P(row, g, la, lb)
            elif kind == 'S':
                same = rng.random() < 0.6
                S(row, g, k=rng.randrange(4), same=same,
                  d=rng.choice((4, 16, 20) if same else (0, 4, 16, 20)))
            elif kind == 'F':
                F(row, g)
            else:   # 2-3 random lanes from a pool of 2 lines
                ls = [line(), line()]
                ls.append(ls[0] + 4)
                for l in rng.sample(range(8), rng.randint(2, 3)):
                    row[8 * g + l] = el(rng.choice(ls), rng.randrange(32))
        if sum(e >= 0 for e in row) >= 3:
            break
    add(f'rb_{i}', row)

# ctl: run11/call2 launches again, verbatim.
here = __file__.rsplit('/', 1)[0] if '/' in __file__ else '.'
for cand in (here + '/../h200/texture_mem/run11/call2/cases.txt', here + '/cases11b.txt'):
    try:
        src = {l.split()[0]: [int(e) for e in l.split()[1:33]] for l in open(cand)}
        break
    except OSError:
        src = None
assert src is not None, 'run11/call2 cases.txt not found'
for x in ('x_0', 'x_4', 'x_7', 'x_20', 'x_32', 'x_57', 'x_2', 'x_59'):
    add('ctl_' + x.split('_')[1], src[x])

out = sys.stdout if len(sys.argv) < 2 else open(sys.argv[1], 'w')
for name, row in cases:
    assert all(-1 <= e < (4 << 20) for e in row), name
    print(name, *row, file=out)
print(len(cases), file=sys.stderr)
