#!/usr/bin/env python3
"""Predictions for run13 (helper tpt16), written before the device call.

Usage: predict_run13.py LAUNCHES SIM OUT
  LAUNCHES: launches.txt as gen_run13.py writes it; SIM: gpumemsim's counters of every launch
  ("name req sectors hits tags conflicts wavefronts", the model at the commit this file was
  committed with, simulated with run9's tex9_probe.ptx, whose tex3d_at/tex2d_at are
  tex13_probe.cu's); OUT: predictions.txt.

Columns: name, half (fit or held, by crc32 of the name), the model's six counters, and
hypothesis G's wavefronts: for point-sampled 16-byte texels, each request (quad) takes
ceil(distinct sectors / 2) wavefronts (sectors are 16 bytes by 2 rows of a GOB), 2D and 3D
alike; every other launch keeps the model's count. G fits every 16-byte point launch recorded
so far (run9 f32x4_pt_row_h0_m*, f32x4_2d_pt_row_h0_m*; run4 f32x4_64_point_row, coly, colz,
brick, f32x4_pz_0_1_2_3).
"""
import sys
import zlib

TB = {"f32": 4, "u8": 1, "u16": 2, "f32x2": 8, "f32x4": 16, "u16x4": 8, "u8x4": 4}


def half(name):
    return "fit" if zlib.crc32(name.encode()) % 2 == 0 else "held"


def g_waves(f):
    """Hypothesis G's wavefronts of a launches.txt line (split), or None where it says nothing."""
    kernel, name, arr, filt, mask = f[1], f[2], f[3], f[4], int(f[5], 16)
    kind = arr.split("_")[0]
    if filt != "point" or TB[kind] != 16:
        return None
    c = [float(v) for v in f[6:]]
    quads = {}
    for l in range(32):
        if mask >> l & 1:
            x, y, z = int(c[3 * l]), int(c[3 * l + 1]), int(c[3 * l + 2])
            if kernel == "tex2d_at":
                z = 0
            quads.setdefault(l // 4, set()).add((x * 16 // 16, y // 2, z))
    return sum((len(s) + 1) // 2 for s in quads.values())


def main():
    launches, sim, out = sys.argv[1:4]
    model = {}
    for l in open(sim):
        f = l.split()
        model[f[0]] = [int(float(v)) for v in f[1:]]
    with open(out, "w") as o:
        o.write("# name half model_req model_sectors model_hits model_tags model_conflicts "
                "model_waves G_waves\n")
        for l in open(launches):
            f = l.split()
            m = model[f[2]]
            gw = g_waves(f)
            o.write("%s %s %s %d\n" % (f[2], half(f[2]), " ".join(map(str, m)), m[5] if gw is None else gw))


if __name__ == "__main__":
    main()
