#!/usr/bin/env python3
"""Predictions for run15 (helper tnarrow, issue 10), written before the device call.

Usage: predict_run15.py DIR SIM OUT
  DIR: launches.txt and arrays.txt as gen_run15.py writes them; SIM: gpumemsim's counters of
  every launch ("name" and the six counters of tests/common/texture3d.rs METRICS, the model at
  the commit this file was committed with, simulated with run13's tex13_probe.ptx); OUT:
  predictions.txt.

Columns: name, the model's counters (req sectors hits tags conflicts wavefronts), and rule N's
wavefronts. Rule N (chosen on run13 and run13/blind before this call): the point-sampled texels
of a request (quad), in lane order, join the first wavefront in which every texel of another
tag block lies in another L1 tag set (the model's sets) and on another port; else they open one.
The port of a texel of byte x X, row y, slice z is the tuple of bits
  16-byte texels: (X4 ^ X5 ^ y2, y0, y1, y4, z0, z1)  [the largest port run13's pairs allow];
  8-byte texels:  (X4, y0, y1, y2, z0);
  4- and 1-byte:  (X4, y0, y1, y2, z0) in 2D arrays, (X4, y0, y1, z0) in 3D arrays;
i.e. texels of two blocks conflict where they differ only in X5 and up, y3 and up (and in 3D
z1, and for 4- and 1-byte texels y2), the differences run13's pairs of other sets measured as
conflicts (y4: ncu/tex_probe.csv quadset_y0_8_16_24, f32 rows 0, 8, 16 and 24 of a column, 4
per quad, and run12's pair2_f32_*, 109 of 112 with y4 a conflict, 84 with y4 a port bit); for
1- to 8-byte texels rule N is exact on all 351 point launches of run13 (fitted on its pairs),
for 16-byte texels it is 52 below the H200 on run13 + run13/blind.
"""
import math
import sys

TB = {"f32": 4, "u8": 1, "f32x2": 8, "f32x4": 16, "u16x4": 8, "u8x4": 4}


def tset(x, y, z, b, vol):
    X, Y = (x // 32) & 1, (y // 4) & 1
    if vol:
        return ((X ^ z) & 1) << 1 | ((Y ^ z) & 1)
    if b == 16:
        return X << 1 | (Y ^ ((x // 64) & 1))
    return ((X ^ (y // 8)) & 1) << 1 | Y


def port(x, y, z, b, vol):
    yb = [y >> i & 1 for i in range(5)]
    if b == 16:
        return ((x >> 4 ^ x >> 5 ^ y >> 2) & 1, yb[0], yb[1], yb[4], z & 1, z >> 1 & 1)
    y2 = yb[2] if (b == 8 or not vol) else 0
    return (x >> 4 & 1, yb[0], yb[1], y2, z & 1)


def rule_n(texels, b, vol):
    waves = []
    for x, y, z in texels:
        e = ((x // 32, y // 4, z), tset(x, y, z, b, vol), port(x, y, z, b, vol))
        for w in waves:
            if all(f[0] == e[0] or (f[1] != e[1] and f[2] != e[2]) for f in w):
                w.append(e)
                break
        else:
            waves.append([e])
    return len(waves)


def main():
    d, sim, out = sys.argv[1:4]
    arrs = {}
    for line in open(d + "/arrays.txt"):
        f = line.split()
        arrs[f[0]] = (f[1], int(f[2]), int(f[3]), int(f[4]))
    model = {}
    for line in open(sim):
        f = line.split()
        model[f[0]] = [str(int(float(v))) for v in f[1:]]
    with open(out, "w") as o:
        o.write("# name model_req model_sectors model_hits model_tags model_conflicts model_waves N_waves\n")
        for line in open(d + "/launches.txt"):
            f = line.split()
            name, arr, filt, mask = f[2], f[3], f[4], int(f[5], 16)
            kind, w, h, dep = arrs[arr]
            b, vol = TB[kind], dep > 1
            c = [float(v) for v in f[6:102]]
            quads = {}
            for ln in range(32):
                if mask >> ln & 1:
                    x = min(max(math.floor(c[3 * ln]), 0), w - 1)
                    y = min(max(math.floor(c[3 * ln + 1]), 0), h - 1)
                    z = min(max(math.floor(c[3 * ln + 2]), 0), dep - 1)
                    quads.setdefault(ln // 4, []).append((x * b, y, z))
            n = sum(rule_n(quads[q], b, vol) for q in sorted(quads)) if filt == "point" else "-"
            o.write("%s %s %s\n" % (name, " ".join(model[name]), n))


if __name__ == "__main__":
    main()
