#!/usr/bin/env python3
"""run15 cases (helper tnarrow, issue 10): point-sampled texels of 1 to 16 bytes in two or three
tag blocks, one candidate port bit varied at a time, and a blind random set of narrow texels.

Writes CASES (tex13_probe.cu's input, the arrays of gen_run13.py) and, with DIR, DIR/launches.txt
and DIR/arrays.txt as the probe writes them. Lane l at texel (x, y, z); byte x = x * bytes.
  bx_{B}: lanes 0 and 1 at (byte 0, row 0, slice 0) and (byte 32 + B): lane 1 in the tag block
      one 32-byte column over (other tag set), with one more bit B flipped: B in x4 (byte +16),
      y0 y1 y2 y4 y5 (rows +1 +2 +4 +16 +32), z0 z1 (slices +1 +2, 3D only), none;
  by_{B}: the same with lane 1 four rows down (other tag set by the y parity) instead of one
      column over, B in x4 y0 y1 y4 y5 z0 z1 none;
  every format (f32x4 f32x2 u16x4 f32 u8x4 u8), 2D 64 x 64 and 3D 64^3;
  t3_*, t2_*: f32x4, three lanes in three tag blocks (random, seeded) whose pairs all share a
      wavefront under run13's pair data, 3D and 2D, and each pair of them alone (t3_NN_ij);
  bm_*: every pair of lanes of the 37 single-quad launches of run13/blind that the 16-byte
      rule misses, and 10 of them again whole (bm_*_again);
  rn_*: the blind set: random.Random(20261215), f32x2 u16x4 f32 u8x4 u8, one quad of 2 to 4
      lanes in a window 256 bytes (u8: the array's 64) x 16 rows (x 4 slices), 2D and 3D, and
      whole warps (wn_*).
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
import gen_run13 as g  # noqa: E402

g.LAUNCHES.clear()
# run13/blind (tests/hw/h200/texture_mem/run13/blind): (launch, [(lane, x, y, z)]) of its 37
# single-quad launches where Splitter::point16_wavefronts misses the H200.
MISSES = [('f32x4_64_r3l_04', [(0, 7, 13, 3),
    (1, 5, 15, 2),
    (3, 6, 2, 1)]),
    ('f32x4_64_r3l_06', [(0, 10, 6, 2),
    (2, 8, 12, 3),
    (3, 15, 10, 1)]),
    ('f32x4_64_r3l_07', [(0, 15, 1, 1),
    (1, 3, 11, 0),
    (2, 14, 1, 1),
    (3, 1, 9, 3)]),
    ('f32x4_64_r3l_08', [(0, 0, 4, 1),
    (1, 10, 3, 3),
    (2, 6, 9, 0),
    (3, 4, 1, 0)]),
    ('f32x4_64_r3l_10', [(0, 15, 9, 1),
    (1, 8, 14, 3),
    (2, 13, 2, 0),
    (3, 2, 6, 2)]),
    ('f32x4_64_r3l_12', [(0, 2, 12, 0),
    (1, 6, 12, 0),
    (2, 7, 7, 2),
    (3, 4, 14, 1)]),
    ('f32x4_64_r3l_20', [(1, 13, 6, 1),
    (2, 1, 9, 0),
    (3, 5, 5, 2)]),
    ('f32x4_64_r3l_24', [(0, 6, 10, 2),
    (1, 12, 13, 2),
    (3, 4, 11, 1)]),
    ('f32x4_64_r3l_25', [(0, 0, 14, 2),
    (2, 8, 0, 3),
    (3, 6, 4, 1)]),
    ('f32x4_64_r3l_29', [(1, 5, 7, 0),
    (2, 3, 13, 2),
    (3, 4, 2, 0)]),
    ('f32x4_64_r3l_36', [(0, 12, 6, 2),
    (1, 6, 2, 1),
    (2, 5, 4, 3),
    (3, 10, 10, 2)]),
    ('f32x4_64_r3l_39', [(0, 4, 12, 0),
    (1, 10, 5, 3),
    (2, 7, 4, 2),
    (3, 14, 6, 3)]),
    ('f32x4_64_r3g_00', [(0, 47, 41, 55),
    (1, 14, 19, 18),
    (2, 35, 52, 8),
    (3, 6, 15, 32)]),
    ('f32x4_64_r3g_01', [(0, 4, 26, 57),
    (1, 22, 54, 51),
    (2, 43, 14, 62),
    (3, 20, 13, 42)]),
    ('f32x4_64_r3g_02', [(0, 42, 35, 58),
    (1, 33, 20, 53),
    (2, 59, 3, 42),
    (3, 3, 17, 21)]),
    ('f32x4_64_r3g_04', [(0, 21, 14, 38),
    (1, 56, 7, 51),
    (2, 54, 1, 34),
    (3, 23, 52, 2)]),
    ('f32x4_64_r3g_05', [(0, 30, 56, 31),
    (1, 7, 5, 7),
    (2, 42, 27, 45),
    (3, 19, 3, 32)]),
    ('f32x4_64_r3g_06', [(0, 11, 35, 49),
    (1, 13, 42, 45),
    (2, 39, 24, 34),
    (3, 11, 5, 50)]),
    ('f32x4_64_r3g_13', [(0, 43, 60, 45),
    (1, 0, 17, 59),
    (2, 59, 48, 17),
    (3, 44, 26, 28)]),
    ('f32x4_64_r3g_15', [(0, 0, 35, 20),
    (1, 26, 38, 6),
    (2, 6, 44, 57),
    (3, 53, 24, 23)]),
    ('f32x4_64_r3g_16', [(0, 10, 50, 62),
    (1, 55, 54, 2),
    (2, 5, 3, 49),
    (3, 1, 0, 47)]),
    ('f32x4_64_r3g_17', [(0, 23, 14, 31),
    (1, 12, 37, 58),
    (2, 9, 12, 60),
    (3, 45, 38, 32)]),
    ('f32x4_64_r3g_18', [(0, 4, 3, 50),
    (1, 4, 20, 11),
    (2, 1, 62, 2),
    (3, 45, 6, 5)]),
    ('f32x4_2d_r2l_00', [(0, 13, 9, 0),
    (1, 10, 8, 0),
    (2, 1, 9, 0),
    (3, 3, 4, 0)]),
    ('f32x4_2d_r2l_07', [(0, 2, 1, 0),
    (1, 4, 10, 0),
    (2, 3, 13, 0),
    (3, 7, 14, 0)]),
    ('f32x4_2d_r2l_11', [(0, 15, 14, 0),
    (1, 5, 2, 0),
    (2, 4, 10, 0),
    (3, 15, 2, 0)]),
    ('f32x4_2d_r2l_17', [(0, 9, 4, 0),
    (1, 13, 13, 0),
    (2, 15, 7, 0),
    (3, 12, 13, 0)]),
    ('f32x4_2d_r2l_21', [(0, 13, 7, 0),
    (1, 15, 15, 0),
    (2, 9, 15, 0),
    (3, 10, 3, 0)]),
    ('f32x4_2d_r2l_28', [(0, 0, 4, 0),
    (1, 1, 0, 0),
    (2, 1, 14, 0),
    (3, 7, 7, 0)]),
    ('f32x4_2d_r2l_35', [(0, 9, 7, 0),
    (1, 15, 2, 0),
    (2, 4, 3, 0),
    (3, 8, 8, 0)]),
    ('f32x4_2d_r2l_37', [(0, 9, 4, 0),
    (1, 6, 13, 0),
    (2, 13, 6, 0),
    (3, 12, 8, 0)]),
    ('f32x4_2d_r2l_38', [(2, 4, 13, 0),
    (3, 6, 0, 0)]),
    ('f32x4_2d_r2g_02', [(0, 46, 47, 0),
    (1, 15, 48, 0),
    (2, 40, 52, 0),
    (3, 48, 42, 0)]),
    ('f32x4_2d_r2g_07', [(0, 32, 36, 0),
    (1, 29, 16, 0),
    (2, 4, 21, 0),
    (3, 18, 63, 0)]),
    ('f32x4_2d_r2g_08', [(0, 21, 20, 0),
    (1, 15, 13, 0),
    (2, 30, 20, 0),
    (3, 11, 2, 0)]),
    ('f32x4_2d_r2g_18', [(0, 61, 1, 0),
    (1, 15, 26, 0),
    (2, 40, 51, 0),
    (3, 48, 51, 0)]),
    ('f32x4_2d_r2g_19', [(0, 45, 60, 0),
    (1, 22, 50, 0),
    (2, 28, 11, 0),
    (3, 22, 61, 0)])]

FMTS = ["f32x4", "f32x2", "u16x4", "f32", "u8x4", "u8"]
BITS = {"x4": (16, 0, 0), "y0": (0, 1, 0), "y1": (0, 2, 0), "y2": (0, 4, 0), "y4": (0, 16, 0),
        "y5": (0, 32, 0), "z0": (0, 0, 1), "z1": (0, 0, 2), "none": (0, 0, 0)}
for k in FMTS:
    for suf, dims in g.DIMS:
        a = k + suf
        b = g.TB[k]
        for name, (dx, dy, dz) in BITS.items():
            if dz and dims == 2:
                continue
            g.launch(f"bx_{name}", a, {0: (0, 0, 0), 1: (g.bx(a, 32 + dx), dy, dz)})
            if name == "y2":
                continue
            g.launch(f"by_{name}", a, {0: (0, 0, 0), 1: (g.bx(a, dx), 4 + dy, dz)})

R = random.Random(20261215)
V = [(0, 4), (0, 5), (0, 6), (0, 7), (1, 0), (1, 1), (1, 2), (1, 3), (1, 4)]


def share16(p, q, vol):
    """run13's pair data for 16-byte texels (scratch kernel): other set and a difference
    outside span(y3, x4^y2, x6, x7, x4^x5)."""
    (xa, ya, za), (xb, yb, zb) = p, q
    if (xa // 2, ya // 4, za) == (xb // 2, yb // 4, zb):
        return True
    def st(x, y, z):
        xb_, X, Y = x * 16, (x // 2) & 1, (y // 4) & 1
        if vol:
            return ((X ^ z) & 1) << 1 | ((Y ^ z) & 1)
        return X << 1 | (Y ^ ((xb_ // 64) & 1))
    if st(*p) == st(*q):
        return False
    xd, yd, zd = (xa ^ xb) * 16, ya ^ yb, za ^ zb
    f = [(xd >> 4 ^ xd >> 5 ^ yd >> 2) & 1, yd & 1, yd >> 1 & 1, yd >> 4 & 1, yd >> 5 & 1, zd]
    return any(f)


for dims, a, wz in [(3, "f32x4_64", 4), (2, "f32x4_2d", 1)]:
    n = 0
    while n < 12:
        pts = [(R.randrange(16), R.randrange(16), R.randrange(wz)) for _ in range(3)]
        if len({(x // 2, y // 4, z) for x, y, z in pts}) < 3:
            continue
        if all(share16(pts[i], pts[j], dims == 3) for i in range(3) for j in range(i + 1, 3)):
            g.launch(f"t{dims}_{n:02d}", a, {0: pts[0], 1: pts[1], 2: pts[2]})
            for i, j in [(0, 1), (0, 2), (1, 2)]:
                g.launch(f"t{dims}_{n:02d}_{i}{j}", a, {i: pts[i], j: pts[j]})
            n += 1

# The 37 single-quad launches of run13/blind whose wavefronts the 16-byte rule misses: every
# pair of their lanes (in their lanes), and the first 10 again whole.
for k, (name, lanes) in enumerate(MISSES):
    a = "f32x4_64" if name.startswith("f32x4_64_") else "f32x4_2d"
    short = name.split("_", 2)[2]
    for i in range(len(lanes)):
        for j in range(i + 1, len(lanes)):
            (li, *pi), (lj, *pj) = lanes[i], lanes[j]
            g.launch(f"bm_{short}_{li}{lj}", a, {li: tuple(pi), lj: tuple(pj)})
    if k < 10:
        g.launch(f"bm_{short}_again", a, {ln: (x, y, z) for ln, x, y, z in lanes})

for k in ["f32x2", "u16x4", "f32", "u8x4", "u8"]:
    b = g.TB[k]
    for suf, dims in g.DIMS:
        a = k + suf
        wz = 4 if dims == 3 else 1
        for n in range(10):
            m = R.choice([2, 3, 4, 4])
            lanes = sorted(R.sample(range(4), m))
            g.launch(f"rn_{n:02d}", a, {l: (R.randrange(min(256 // b, 64)), R.randrange(16), R.randrange(wz))
                                       for l in lanes})
        for n in range(2):
            g.launch(f"wn_{n:02d}", a, {l: (R.randrange(min(256 // b, 64)), R.randrange(16), R.randrange(wz))
                                       for l in range(32)})

if __name__ == "__main__":
    g.main()
