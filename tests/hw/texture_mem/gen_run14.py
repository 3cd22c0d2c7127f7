#!/usr/bin/env python3
"""Case list of run14 (helper tpair, issue 10) for tex12_probe.cu (run12's probe, unchanged):
single trilinear quads (lanes 0-3, mask 0000000f) of 3D f32 arrays, chosen so that the two
pairings the H200 was seen to use (passes of lanes 0-1 / 2-3, the model's, or 0-2 / 1-3,
docs/notes/issue-10-tfoot.md) give different tag lookups or tag-set conflicts, so that each
launch's pairing is decided. Each lane samples halfway between texels (texel + 1.0 on every
axis: a 2 x 2 x 2 footprint from texel (x, y, z)). Fixed seed; generated and predicted before
the call.

Families (names start with the family; P = lane 0's texel, Q = another point):
  ax_<base>_<axis><d>    lanes 1 and 3 at Q, lane 0 at P, lane 2 at P + d along one axis
  bx_<base>_<axis><d>    lanes 0 and 2 at P, lane 1 at Q, lane 3 at Q + d along one axis
  fx_<base>_<axis><d>    lanes 0 and 1 fixed (A, B), lane 2 at C, lane 3 at C + d along one axis
  pm_<base>_<perm>       one set of 4 points in all 24 lane orders (perm: the point each lane
                         takes, e.g. 0213)
  sh_<base>_<shift>      one quad shifted by one texel (x1, y1, z1) and by one tag block
                         (x8, y4, z2: two slices keep the slice parity) along each axis
  re_<i>, rs_<i>         8 of run12's decided single quads of f32_32x16x4 again (4 taken 0-1/2-3,
                         4 taken 0-2/1-3), and the same with lanes 1 and 2 swapped (rs_*)
  rq_<i>                 random quads (a held-out check of any rule)
Arrays: f32_64 (64 x 64 x 64) for every family but re_*, rs_* and rq_*_s (f32_32x16x4, run12's
array).
Writes the case list (CASES, default stdout) and, with a second argument, the predictions
(name, array, lane texels, then tags and conflicts of pairing 0-1/2-3, of 0-2/1-3, of 0-3/1-2,
and the pairing the hypothesis
of docs/notes/issue-10-tpair.md picks).
Usage: python3 gen_run14.py [CASES [PREDICTIONS]]  (prints the count on stderr)
"""
import collections, itertools, random, sys

SEED = 20261214
rng = random.Random(SEED)
ARRAYS = [('f32_32x16x4', 'f32', 32, 16, 4), ('f32_64', 'f32', 64, 64, 64)]
A = {a[0]: a for a in ARRAYS}


def foot(p, dims):
    return [tuple(min(p[k] + d[k], dims[k] - 1) for k in range(3)) for d in itertools.product((0, 1), repeat=3)]


def tagset(t):
    xb, yb, z = t
    return (((xb ^ z) & 1) << 1) | ((yb ^ z) & 1)


def cost(pts, pairs, dims):
    tags = conf = 0
    for pr in pairs:
        tg = {(x * 4 // 32, y // 4, z) for l in pr for x, y, z in foot(pts[l], dims)}
        cnt = collections.Counter(tagset(t) for t in tg)
        tags += len(tg)
        conf += max(cnt.values()) - 1
    return tags, conf


P01, P02, P03 = ((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))


def hypothesis(pts):
    """Before the call: the best simple rule on run12's 67 decided single quads (53 of 67):
    lanes 0 and 1 pair where they are nearer in y than lanes 0 and 2 (ties: 0-1/2-3)."""
    return '01' if abs(pts[1][1] - pts[0][1]) <= abs(pts[2][1] - pts[0][1]) else '02'


cases = []
seen = set()


def quad(name, arr, pts, need=True):
    dims = A[arr][2:]
    pts = [tuple(min(max(v, 0), dims[k] - 1) for k, v in enumerate(p)) for p in pts]
    a, b = cost(pts, P01, dims), cost(pts, P02, dims)
    if need and a == b:
        return False
    key = (arr, tuple(pts))
    if key in seen:
        return False
    seen.add(key)
    cases.append((name, arr, pts, a, b, cost(pts, P03, dims), hypothesis(pts)))
    return True


def rnd(dims):
    return tuple(rng.randrange(n) for n in dims)


D64 = A['f32_64'][2:]
AX = 'xyz'


def add(p, k, d):
    q = list(p)
    q[k] += d
    return tuple(q)


# ax / bx: two bases, axis sweeps.
bases = []
while len(bases) < 2:
    P, Q = rnd((56, 56, 56)), rnd((56, 56, 56))
    bases.append((P, Q))
for bi, (P, Q) in enumerate(bases):
    for k in range(3):
        for d in list(range(1, 13)) + [16, 24]:
            quad('ax_%d_%s%d' % (bi, AX[k], d), 'f32_64', [P, Q, add(P, k, d), Q])
            quad('bx_%d_%s%d' % (bi, AX[k], d), 'f32_64', [P, Q, P, add(Q, k, d)])
# fx: lanes 0 and 1 fixed, 2 and 3 a pair along an axis.
for bi in range(3):
    Ap, Bp, C = rnd((56, 56, 56)), rnd((56, 56, 56)), rnd((56, 56, 56))
    for k in range(3):
        for d in range(0, 10):
            quad('fx_%d_%s%d' % (bi, AX[k], d), 'f32_64', [Ap, Bp, C, add(C, k, d)])


# pm: 4 points in every lane order (sets whose pairings differ for most orders).
def decided_orders(pts):
    return sum(cost([pts[i] for i in o], P01, D64) != cost([pts[i] for i in o], P02, D64)
               for o in itertools.permutations(range(4)))


npm = 0
while npm < 5:
    pts = [rnd((62, 62, 62)) for _ in range(4)]
    if npm < 3:   # nearby points (within 8 texels), then far-apart ones
        c0 = rnd((50, 50, 50))
        pts = [tuple(c0[k] + rng.randrange(9) for k in range(3)) for _ in range(4)]
    if decided_orders(pts) < 16:
        continue
    for o in itertools.permutations(range(4)):
        quad('pm_%d_%s' % (npm, ''.join(map(str, o))), 'f32_64', [pts[i] for i in o], need=False)
    npm += 1
# sh: shifted quads.
nsh = 0
while nsh < 10:
    pts = [rnd((48, 48, 48)) for _ in range(4)]
    if nsh % 2 == 0:
        c0 = rnd((40, 40, 40))
        pts = [tuple(c0[k] + rng.randrange(12) for k in range(3)) for _ in range(4)]
    if cost(pts, P01, D64) == cost(pts, P02, D64):
        continue
    quad('sh_%d_0' % nsh, 'f32_64', pts)
    for k in range(3):
        for s in (1, (8, 4, 2)[k]):
            quad('sh_%d_%s%d' % (nsh, AX[k], s), 'f32_64', [add(p, k, s) for p in pts], need=False)
    nsh += 1
# re / rs: run12's decided quads (r3q_*), again and with lanes 1 and 2 swapped.
RUN12 = [[(1, 0, 2), (25, 1, 2), (12, 13, 2), (2, 6, 0)], [(2, 0, 0), (20, 12, 2), (4, 15, 2), (19, 12, 2)],
         [(2, 3, 2), (13, 14, 2), (2, 4, 1), (17, 4, 3)], [(16, 0, 2), (10, 0, 1), (15, 0, 3), (3, 1, 0)],
         [(0, 7, 2), (7, 5, 2), (16, 8, 2), (5, 10, 1)], [(10, 5, 1), (6, 9, 1), (13, 6, 1), (4, 7, 0)],
         [(16, 8, 2), (30, 11, 3), (8, 2, 2), (16, 9, 3)], [(17, 6, 3), (7, 2, 3), (6, 9, 3), (3, 1, 3)]]
for i, pts in enumerate(RUN12):
    quad('re_%d' % i, 'f32_32x16x4', pts, need=False)
    quad('rs_%d' % i, 'f32_32x16x4', [pts[0], pts[2], pts[1], pts[3]], need=False)
# rq: random decided quads, 30 in f32_64, 30 in f32_32x16x4.
for arr, n, suf in (("f32_64", 30, ""), ("f32_32x16x4", 30, "_s")):
    i = 0
    while i < n:
        if quad('rq_%d%s' % (i, suf), arr, [rnd(A[arr][2:]) for _ in range(4)]):
            i += 1

out = open(sys.argv[1], 'w') if len(sys.argv) > 1 else sys.stdout
for a in ARRAYS:
    print('array', *a, file=out)
for name, arr, pts, a, b, e, h in cases:
    c = [v + 1.0 for p in pts for v in p] + [0.5] * (96 - 12)
    print('at', name, arr, 'linear', '0000000f', *('%g' % v for v in c), file=out)
if len(sys.argv) > 2:
    with open(sys.argv[2], 'w') as pr:
        print('# run14 predictions, made before the device call (helper tpair). name, lane texels,', file=pr)
        print('# tags and conflicts of pairing 0-1/2-3, of 0-2/1-3, of 0-3/1-2, the hypothesis\'s pick', file=pr)
        for name, arr, pts, a, b, e, h in cases:
            print(name, arr, ';'.join('%d,%d,%d' % p for p in pts), *a, *b, *e, h, file=pr)
print(len(cases), file=sys.stderr)
