#!/usr/bin/env python3
"""scas3 (issue 9): the ATOMS.CAST.SPIN.64 row of the Source page of every launch of
tests/hw/cas/cas_warps.toml in each of the three profiles of tests/hw/h200/cas/warps
(warps.tar.gz unpacked to DIR/warps). Prints CSV: pass,launch,grid,warps,lanes,executed,
threads,wavefronts_shared. Usage: warps_analyze.py DIR"""
import csv, os, sys

SHAPES = [(1, 5, 32), (1, 6, 32), (1, 7, 32), (1, 8, 32), (1, 12, 32), (1, 16, 32), (1, 32, 32),
          (2, 8, 32), (1, 8, 1), (1, 16, 1), (1, 8, 4), (1, 16, 4), (4, 8, 32)]
D = os.path.join(sys.argv[1], "warps")
print("pass,launch,grid,warps,lanes,executed,threads,wavefronts_shared")
for p in (1, 2, 3):
    for i, (g, w, n) in enumerate(SHAPES):
        rows = list(csv.reader(open(os.path.join(D, "src%d_%02d.csv" % (p, i)))))
        hi = next(k for k, r in enumerate(rows) if r and r[0] == "Address")
        h = rows[hi]
        c = {k: h.index(k) for k in ("Source", "Instructions Executed",
                                     "Thread Instructions Executed", "L1 Wavefronts Shared")}
        r = next(r for r in rows[hi + 1:] if len(r) == len(h) and "CAST.SPIN" in r[c["Source"]])
        print("%d,%d,%d,%d,%d,%s,%s,%s" % (p, i, g, w, n, r[c["Instructions Executed"]],
              r[c["Thread Instructions Executed"]], r[c["L1 Wavefronts Shared"]]))
