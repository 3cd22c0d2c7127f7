#!/usr/bin/env python3
"""Predictions for run11's cases (gen_run11.py), written BEFORE the device call (helper tscat5,
issue 10). Per 8-lane group (each group one request, no sharing across groups), two rules:
  split     tscat2's split rule, unchanged (analyse_run8.py passes(split));
  split+h8  the same, plus: lanes on different 128-byte lines at the same 8-byte position of
            their lines ((A>>3)&15 equal) conflict (tscat3's after-the-fact variant; also g1wr_19).
Also bank8 (first fit; the model's one wavefront per 64-byte unit per group is close to it).
Output: NAME GROUPS SPLIT SPLIT_H8 BANK8
Usage: python3 predict_run11.py CASES > predictions.txt
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyse_run8 as a

def h8(u, v):
    (_, A), (_, B) = u, v
    return A >> 7 != B >> 7 and (A >> 3) & 15 == (B >> 3) & 15

def split_extra(us, extra):
    ws, wave_of, split = [], {}, set()
    for u in us:
        lane = u[0]
        mate = wave_of.get(lane - 1) if lane % 2 == 1 else None
        placed = None
        for i in range(mate or 0, len(ws)):
            u_split = mate is not None and i > mate
            if not any(a.bank4_pair(u, v) or extra(u, v)
                       or ((v[0] in split) != u_split and a.bank8(u, v)) for v in ws[i]):
                placed = i
                break
        if placed is None:
            ws.append([])
            placed = len(ws) - 1
        ws[placed].append(u)
        wave_of[lane] = placed
        if mate is not None and placed > mate:
            split.add(lane)
    return len(ws)

def groups(us):
    g = {}
    for u in us:
        g.setdefault(u[0] // 8, []).append(u)
    return [g[k] for k in sorted(g)]

def predict(us):
    gs = groups(us)
    sp = sum(a.RULES['passes(split)'](g) for g in gs)
    sh = sum(sum(split_extra(p, h8) for p in a.tag_passes(g)) for g in gs)
    b8 = sum(a.RULES['bank8'](g) for g in gs)
    return len(gs), sp, sh, b8

if __name__ == '__main__':
    print('# name groups split split_h8 bank8')
    for line in open(sys.argv[1]):
        p = line.split()
        idx = [int(x) for x in p[1:33]]
        us = [(l, 4 * e) for l, e in enumerate(idx) if e >= 0]
        print(p[0], *predict(us))
