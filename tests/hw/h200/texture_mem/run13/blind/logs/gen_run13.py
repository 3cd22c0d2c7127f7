#!/usr/bin/env python3
"""run13 cases (helper tpt16, issue 10): point-sampled texels of every size in adjacent and
distant 32-byte columns, single warps, one thing varied at a time.

Writes CASES (the input of tex13_probe.cu: "A name kind W H D" arrays, "L name array filter
mask c0 .. c95" launches) and, with a second argument DIR, DIR/launches.txt and DIR/arrays.txt
exactly as the probe writes them (for simulating the cases before the device call).

Families (lane l at texel (x, y, z); byte distances are x * texel bytes; point sampling unless
the name says lin):
  pair_x{X}_d{D}: lanes 0 and 1 in row 0, slice 0, at byte x X and X + D, D in 16 32 48 64 96
      128, X in 0 32 (48 too for f32x4 and f32), every format, 2D and 3D;
  lanes_{a}{b}: lanes a and b (of 0-4) at byte x 0 and 32 (f32x4, f32x2, f32; 2D and 3D);
  n{N}_d{D}: lanes 0 .. N-1 at byte x k * D, N 3 and 4, D 16 32 64 (f32x4 f32x2 f32 u8x4);
  rows_dy{DY}: lanes 0 and 1 at x 0, rows 0 and DY; rows32_dy{DY}: byte x 0 and 32, rows 0 and
      DY (f32x4 f32x2 f32);
  sq_{shape}: four lanes on sector shapes (f32x4 f32x2 f32), and whole-warp patterns w_*;
  z_{shape}: 3D slices (f32x4 f32x2 f32);
  set_b{BX}_{BY}: lanes 0 and 1, lane 0 in tag block (0, 0), lane 1 in tag block (BX, BY)
      (byte x 32 BX, row 4 BY) of the 64 x 64 f32x4 and f32 2D arrays and a 256 x 256 f32x4 one, and the 3D
      f32x4 array's slice 0;
  lin_*: a few linear-filtered pairs for contrast.
"""
import sys

TB = {"f32": 4, "u8": 1, "f32x2": 8, "f32x4": 16, "u16x4": 8, "u8x4": 4}
ARRAYS = []  # (name, kind, W, H, D)
for k in ["f32x4", "f32x2", "f32", "u8x4", "u16x4", "u8"]:
    ARRAYS.append((f"{k}_64", k, 64, 64, 64))
    ARRAYS.append((f"{k}_2d", k, 64, 64, 1))
ARRAYS.append(("f32x4_2d256", "f32x4", 256, 256, 1))
KIND = {a[0]: a[1] for a in ARRAYS}
LAUNCHES = []  # (name, array, filter, mask, coords[96])


def g(v):
    return "%g" % v


def launch(name, arr, lanes, filt="point", h=0):
    """lanes: {lane: (x, y, z)} in texels; h: halfway axes (1 x, 2 y, 4 z) for linear."""
    c = [0.5] * 96
    mask = 0
    for l, (x, y, z) in lanes.items():
        mask |= 1 << l
        c[3 * l] = x + (1.0 if h & 1 else 0.5)
        c[3 * l + 1] = y + (1.0 if h & 2 else 0.5)
        c[3 * l + 2] = z + (1.0 if h & 4 else 0.5)
    full = f"{arr}_{name}"
    assert all(full != n[0] for n in LAUNCHES), full
    LAUNCHES.append((full, arr, filt, mask, c))


def bx(arr, byte):
    """Texel x of byte x `byte` (a multiple of the texel size)."""
    t = TB[KIND[arr]]
    assert byte % t == 0
    return byte // t


DIMS = [("_64", 3), ("_2d", 2)]
ALL = ["f32x4", "f32x2", "f32", "u8x4", "u16x4", "u8"]
# 1. pairs in row 0.
for k in ALL:
    for suf, _ in DIMS:
        a = k + suf
        for x0 in [0, 32] + ([48] if k in ("f32x4", "f32") else []):
            for d in [16, 32, 48, 64, 96, 128]:
                launch(f"pair_x{x0}_d{d}", a, {0: (bx(a, x0), 0, 0), 1: (bx(a, x0 + d), 0, 0)})
# 2. which lanes.
for k in ["f32x4", "f32x2", "f32"]:
    for suf, _ in DIMS:
        a = k + suf
        for p, q in [(0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (0, 4), (3, 4), (1, 5)]:
            launch(f"lanes_{p}{q}", a, {p: (0, 0, 0), q: (bx(a, 32), 0, 0)})
# 3. three and four lanes in a row.
for k in ["f32x4", "f32x2", "f32", "u8x4"]:
    for suf, _ in DIMS:
        a = k + suf
        for n in [3, 4]:
            for d in [16, 32, 64]:
                launch(f"n{n}_d{d}", a, {l: (bx(a, l * d), 0, 0) for l in range(n)})
# 4. rows.
for k in ["f32x4", "f32x2", "f32"]:
    for suf, _ in DIMS:
        a = k + suf
        for dy in [1, 2, 3, 4, 8, 16]:
            launch(f"rows_dy{dy}", a, {0: (0, 0, 0), 1: (0, dy, 0)})
        for dy in [1, 4, 8]:
            launch(f"rows32_dy{dy}", a, {0: (0, 0, 0), 1: (bx(a, 32), dy, 0)})
# 5. sector shapes of four lanes (byte x, row) and whole warps.
SHAPES = {
    "col4": [(0, 0), (0, 1), (0, 2), (0, 3)],
    "sq16": [(0, 0), (16, 0), (0, 1), (16, 1)],
    "sq32": [(0, 0), (32, 0), (0, 1), (32, 1)],
    "sq32y2": [(0, 0), (32, 0), (0, 2), (32, 2)],
    "sq32y4": [(0, 0), (32, 0), (0, 4), (32, 4)],
    "sq32y8": [(0, 0), (32, 0), (0, 8), (32, 8)],
    "sq64": [(0, 0), (64, 0), (0, 1), (64, 1)],
    "row3s": [(0, 0), (0, 1), (32, 0)],
    "row3": [(0, 0), (16, 0), (32, 0)],
    "diag": [(0, 0), (32, 2), (64, 4), (96, 6)],
    "gob4": [(0, 0), (64, 0), (128, 0), (192, 0)],
    "col4y2": [(0, 0), (0, 2), (0, 4), (0, 6)],
}
for k in ["f32x4", "f32x2", "f32"]:
    for suf, _ in DIMS:
        a = k + suf
        for s, pts in SHAPES.items():
            launch(f"sq_{s}", a, {l: (bx(a, xb), y, 0) for l, (xb, y) in enumerate(pts)})
        t, w = TB[k], 64
        launch("w_row", a, {l: (l % w, l // w, 0) for l in range(32)})
        launch("w_row2", a, {l: ((2 * l * 16 // t) % w, 0, 0) for l in range(32)})
        launch("w_col", a, {l: (0, l, 0) for l in range(32)})
        launch("w_tile", a, {l: ((l % 2) + 2 * (l // 8), (l // 2) % 4, 0) for l in range(32)})
        launch("w_x32", a, {l: ((l * 32 // t) % w, (l * 32 // t) // w, 0) for l in range(32)})
# 6. slices of the 3D arrays.
ZS = {
    "z01": [(0, 0, 0), (0, 0, 1)],
    "z02": [(0, 0, 0), (0, 0, 2)],
    "x32z01": [(0, 0, 0), (32, 0, 1)],
    "x32z02": [(0, 0, 0), (32, 0, 2)],
    "x64z01": [(0, 0, 0), (64, 0, 1)],
    "z0123": [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3)],
    "x32z0011": [(0, 0, 0), (32, 0, 0), (0, 0, 1), (32, 0, 1)],
    "x32z0101": [(0, 0, 0), (32, 0, 1), (64, 0, 0), (96, 0, 1)],
}
for k in ["f32x4", "f32x2", "f32"]:
    a = k + "_64"
    for s, pts in ZS.items():
        launch(f"z_{s}", a, {l: (bx(a, xb), y, z) for l, (xb, y, z) in enumerate(pts)})
# 7. tag sets: lane 1's tag block against lane 0's block (0, 0).
for a in ["f32x4_2d", "f32_2d", "f32x4_2d256", "f32x4_64"]:
    for by in range(4):
        for bxx in range(8):
            if bxx == 0 and by == 0:
                continue
            launch(f"set_b{bxx}_{by}", a, {0: (0, 0, 0), 1: (bx(a, 32 * bxx), 4 * by, 0)})
# 8. linear-filtered pairs for contrast (x only, h1; on centres, h0).
for k in ["f32x4", "f32"]:
    for suf, _ in DIMS:
        a = k + suf
        for d in [32, 64, 128]:
            for h in [0, 1]:
                launch(f"lin_h{h}_d{d}", a, {0: (0, 0, 0), 1: (bx(a, d), 0, 0)}, "linear", h)


def main():
    with open(sys.argv[1], "w") as f:
        for a in ARRAYS:
            f.write("A %s %s %d %d %d\n" % a)
        for n, a, filt, m, c in LAUNCHES:
            f.write("L %s %s %s %08x %s\n" % (n, a, filt, m, " ".join(g(v) for v in c)))
    if len(sys.argv) > 2:
        d = sys.argv[2]
        with open(d + "/arrays.txt", "w") as f:
            for a in ARRAYS:
                f.write("%s %s %d %d %d\n" % a)
        with open(d + "/launches.txt", "w") as f:
            for i, (n, a, filt, m, c) in enumerate(LAUNCHES):
                two = [x for x in ARRAYS if x[0] == a][0][4] == 1
                f.write("%d %s %s %s %s %08x %s\n" % (i, "tex2d_at" if two else "tex3d_at", n, a, filt, m,
                                                        " ".join(g(v) for v in c)))
    print("launches=%d" % len(LAUNCHES), file=sys.stderr)


if __name__ == "__main__":
    main()
