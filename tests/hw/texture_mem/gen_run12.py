#!/usr/bin/env python3
"""Case list of run12 (helper tfoot, issue 10) for tex12_probe.cu: single-warp replays of the
random grids whose tag lookups (run4's trilinear `*_linear_random`, FOOTPRINT in
tests/memory/texture_3d.rs) or tag-set conflicts (tex_probe's 2D `f32_point_random` and
`f32_linear_half_random`, RANDOM_SETS in tests/memory/texture_counters.rs) the model did not match on
whole grids, plus chosen quads and pairs. Fixed seed; generated (and predicted) before the call.

Coordinates are those of the grids' kernels: tex3_probe.cu's `tex3d_grid` pattern 4 (a hash of
the thread id, texel + 0.5 + 0.5 for the linear grids: halfway on every axis) and tex_probe.cu's
`tex2d_pattern` pattern 4 (x = h % W, y = (h >> 16) % H; + 0.5, and + 0.5 more for linear).
A replayed warp `w` puts grid thread 32 w + l in lane l (mask ffffffff); a replayed quad puts the
quad's 4 threads in lanes 0-3 (mask 0000000f).

Families (names start with the family):
  r3w_<array>_w<warp>    3D trilinear warps of the random grids: f32_32x16x4 (the 48 warps with
                         the most tag blocks shared by the two passes of a quad, 32 others at
                         random), f32_64, u8_64, f32_100x60x24 (warps with such sharing, then
                         random ones)
  r3q_<array>_w<warp>q<quad>  single quads of f32_32x16x4 (80 with blocks shared by the passes,
                         16 with a lane at the last slice, 16 others)
  grid3_<name>           the whole grids f32_32x16x4_linear_random and f32_64_linear_random
                         again (tex3d_grid, run-to-run check of run4)
  r2p_<array>_w<warp>    2D point warps of the random grid (f32_256: warps where the x-parity
                         rule and the block-GOB rule give different conflicts, and random ones)
  r2l_f32_256_w<warp>    2D bilinear warps of f32_linear_half_random (likewise)
  pair2_<array>_<i>      2D point pairs: lanes 0 and 1 at two texels of distinct tag blocks
                         (f32_256: 256 x 256, blocks 16 GOBs high; f32_256x8: 256 x 8, blocks of
                         one GOB; f32_256x40: blocks of 4 GOBs), one request: 1 conflict if
                         their tag sets agree
  rnd2_<array>_<i>       2D point warps at random texels (u8_256, f32x2_256, f32x4_256,
                         f32_256x40)
Half: launch number even = fit half, odd = check half (docs/notes/issue-10-tfoot.md).
Usage: python3 gen_run12.py [CASES]  (prints the count on stderr)
"""
import random, sys, collections

SEED = 20261203
rng = random.Random(SEED)
M = 0xffffffff
TB = {'f32': 4, 'u8': 1, 'u16': 2, 'f32x2': 8, 'f32x4': 16}
ARRAYS = [('f32_32x16x4', 'f32', 32, 16, 4), ('f32_64', 'f32', 64, 64, 64), ('u8_64', 'u8', 64, 64, 64),
          ('f32_100x60x24', 'f32', 100, 60, 24), ('f32_256', 'f32', 256, 256, 1),
          ('f32_256x8', 'f32', 256, 8, 1), ('f32_256x40', 'f32', 256, 40, 1), ('u8_256', 'u8', 256, 256, 1),
          ('f32x2_256', 'f32x2', 256, 256, 1), ('f32x4_256', 'f32x4', 256, 256, 1)]
A = {a[0]: a for a in ARRAYS}


def h32(gid):
    h = (gid * 2654435761) & M
    h ^= h >> 15
    h = (h * 2246822519) & M
    h ^= h >> 13
    return h


def p3(gid, W, H, D):
    h = h32(gid)
    return h % W, (h // W) % H, (h // W // H) % D


def p2(gid, W, H):
    h = h32(gid)
    return h % W, (h >> 16) % H


def foot3(x, y, z, W, H, D):
    return {(min(a, W - 1), min(b, H - 1), min(c, D - 1)) for a in (x, x + 1) for b in (y, y + 1) for c in (z, z + 1)}


def blocks(texels, tb):
    return {(x * tb // 32, y // 4, z) for x, y, z in texels}


def shared(pts, W, H, D, tb):
    """Tag blocks the two passes (lanes 0-1, 2-3) of a quad share."""
    f = [foot3(*p, W, H, D) for p in pts]
    return len(blocks(f[0] | f[1], tb) & blocks(f[2] | f[3], tb))


cases = []


def at(name, arr, linear, mask, coords):
    c = list(coords) + [0.5] * (96 - len(coords))
    cases.append(('at', name, arr, 'linear' if linear else 'point', '%08x' % mask, c))


def warp3(arr, w):
    _, k, W, H, D = A[arr]
    c = []
    for l in range(32):
        x, y, z = p3(32 * w + l, W, H, D)
        c += [x + 1.0, y + 1.0, z + 1.0]
    at('r3w_%s_w%d' % (arr, w), arr, True, 0xffffffff, c)


def warp_sharing(arr):
    _, k, W, H, D = A[arr]
    out = []
    for w in range(2048):
        pts = [p3(32 * w + l, W, H, D) for l in range(32)]
        out.append((sum(shared(pts[4 * q:4 * q + 4], W, H, D, TB[k]) for q in range(8)), w))
    return out


# 3D trilinear warps.
sh = warp_sharing('f32_32x16x4')
top = [w for s, w in sorted(sh, key=lambda t: (-t[0], t[1]))[:48]]
rest = rng.sample([w for w in range(2048) if w not in top], 32)
for w in sorted(top + rest):
    warp3('f32_32x16x4', w)
for arr, n_share, n_rand in (('f32_64', 40, 12), ('u8_64', 40, 8), ('f32_100x60x24', 32, 8)):
    sh = warp_sharing(arr)
    ws = [w for s, w in sorted(sh, key=lambda t: (-t[0], t[1])) if s > 0][:n_share]
    ws += rng.sample([w for w in range(2048) if w not in ws], n_rand)
    for w in sorted(ws):
        warp3(arr, w)
# Single quads of f32_32x16x4.
_, _, W, H, D = A['f32_32x16x4']
quads = collections.defaultdict(list)
for w in range(2048):
    for q in range(8):
        pts = [p3(32 * w + 4 * q + i, W, H, D) for i in range(4)]
        s = shared(pts, W, H, D, 4)
        kind = 'share' if s else ('zclamp' if any(p[2] == D - 1 for p in pts) else 'other')
        quads[kind].append((w, q, pts))
for kind, n in (('share', 80), ('zclamp', 16), ('other', 16)):
    for w, q, pts in sorted(rng.sample(quads[kind], n)):
        c = []
        for x, y, z in pts:
            c += [x + 1.0, y + 1.0, z + 1.0]
        at('r3q_f32_32x16x4_w%dq%d' % (w, q), 'f32_32x16x4', True, 0xf, c)
# Whole grids again.
cases.append(('grid', 'grid3_f32_32x16x4_linear_random', 'f32_32x16x4', 'linear', 4, [0.5, 0.5, 0.5]))
cases.append(('grid', 'grid3_f32_64_linear_random', 'f32_64', 'linear', 4, [0.5, 0.5, 0.5]))


# 2D: the x-parity rule (old) and the block-GOB rule (new) of the tag sets.
def set2(xb, yb, gob, new):
    return (((xb ^ (gob if new else 0)) & 1) << 1) | (yb & 1)


def gob_in_block(arr, y):
    _, _, W, H, D = A[arr]
    bh = max([k for k in range(5) if 16 << k <= 3 * H] or [0])
    return (y >> 3) & ((1 << bh) - 1)


def conflicts2(arr, lanes, new):
    """lanes: per lane its texels (x, y); requests of 4 lanes."""
    tb = TB[A[arr][1]]
    tot = 0
    for q in range(0, len(lanes), 4):
        bs = {}
        for texels in lanes[q:q + 4]:
            for x, y in texels:
                bs[(x * tb // 32, y // 4)] = gob_in_block(arr, y)
        cnt = collections.Counter(set2(xb, yb, g, new) for (xb, yb), g in bs.items())
        tot += max(cnt.values()) - 1 if cnt else 0
    return tot


def warp2(fam, arr, w, linear):
    _, _, W, H, _ = A[arr]
    pts = [p2(32 * w + l, W, H) for l in range(32)]
    off = 1.0 if linear else 0.5
    c = []
    lanes = []
    for x, y in pts:
        c += [x + off, y + off, 0.5]
        lanes.append([(min(a, W - 1), min(b, H - 1)) for a in ((x, x + 1) if linear else (x,))
                      for b in ((y, y + 1) if linear else (y,))])
    return c, lanes


for fam, linear, n_diff, n_rand in (('r2p', False, 40, 16), ('r2l', True, 40, 16)):
    diff, same = [], []
    for w in range(2048):
        c, lanes = warp2(fam, 'f32_256', w, linear)
        (diff if conflicts2('f32_256', lanes, False) != conflicts2('f32_256', lanes, True) else same).append(w)
    for w in sorted(rng.sample(diff, n_diff) + rng.sample(same, n_rand)):
        c, _ = warp2(fam, 'f32_256', w, linear)
        at('%s_f32_256_w%d' % (fam, w), 'f32_256', linear, 0xffffffff, c)
# 2D point pairs.
for arr, n in (('f32_256', 64), ('f32_256x8', 24), ('f32_256x40', 24)):
    _, k, W, H, _ = A[arr]
    tb = TB[k]
    i = 0
    while i < n:
        a = (rng.randrange(W), rng.randrange(H))
        if i % 2 == 0:   # random
            b = (rng.randrange(W), rng.randrange(H))
        else:            # same x and y parity of the tag block (the old rule's same set)
            b = ((a[0] * tb // 32 % 2 * 32 + rng.randrange(0, W * tb, 64) + (a[0] * tb) % 32) // tb % W,
                 (a[1] // 4 % 2 * 4 + rng.randrange(0, H, 8) + a[1] % 4) % H)
        if (a[0] * tb // 32, a[1] // 4) == (b[0] * tb // 32, b[1] // 4):
            continue
        at('pair2_%s_%d' % (arr, i), arr, False, 0x3, [a[0] + 0.5, a[1] + 0.5, 0.5, b[0] + 0.5, b[1] + 0.5, 0.5])
        i += 1
# 2D point warps at random texels of other formats and block heights.
for arr, n in (('u8_256', 12), ('f32x2_256', 12), ('f32x4_256', 8), ('f32_256x40', 12)):
    _, k, W, H, _ = A[arr]
    for i in range(n):
        c = []
        for l in range(32):
            c += [rng.randrange(W) + 0.5, rng.randrange(H) + 0.5, 0.5]
        at('rnd2_%s_%d' % (arr, i), arr, False, 0xffffffff, c)

out = sys.stdout if len(sys.argv) < 2 else open(sys.argv[1], 'w')
for a in ARRAYS:
    print('array', *a, file=out)
for kind, name, arr, filt, x, c in cases:
    print(kind, name, arr, filt, x, *('%g' % v for v in c), file=out)
print(len(cases), file=sys.stderr)
